'use strict'
// The headline (experiments/stdio/cost.js): CPU time per read from the cost pass's full and quarter
// runs, against C's rounds, against numbers worked out by hand; the intervals' true levels;
// what drops a round or a cell; the steal flag; a run's own repeatability from its halves;
// two runs by the repeatability criterion, the shift test and rank order with ties by test;
// bench's plan of the pass.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const {
  summariseHeadline, headlineRepeatability, headlineRepeatabilityText, ownRepeatabilityText, headlineTrust,
  slopePerRead,
  longerCostBytes, windowSamples, COST_MAX_BYTES, PHASE, QUARTER_PHASE, pairFigures, partnerRatio, partnerBytes,
  PARTNER_MAX_BYTES, nextPairBytes
} = require('../../experiments/stdio/cost')
const { medianIntervalLevel, pairwiseIntervalLevel, seededRandom, normalFrom } = require('../../lib/stats')
const { parseOptions, plan } = require('../../bench')
const { placementPlan } = require('../../lib/placement')

const close = (actual, expected, what) => assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual} is not ${expected}`)

// Full runs make 400 reads and quarter runs 100, so 300 reads lie between them; a round
// whose marginal CPU time per read is m ns has a full run m * 300 ns = 0.3 m µs longer
// on the CPU than its quarter run (1000 µs, user and sys split at will).
const READS_BETWEEN = 300
function round (program, blockSize, run, perReadNs, { ok = true, quarterOk = true, steal = { cpus: [1], ticks: 0, clkTck: 100 } } = {}) {
  const record = (phase, reads, cpuUs, runOk) => ({
    phase,
    program,
    blockSize,
    run,
    bytes: reads * blockSize,
    ok: runOk,
    failure: runOk ? null : 'reader exited 1: read: Bad file descriptor (9)',
    wallNs: 100e6,
    steal,
    reader: { userUs: cpuUs / 4, sysUs: cpuUs * 3 / 4 },
    output: { size: reads * blockSize, reads, blockSize }
  })
  return [record(PHASE, 400, 1000 + perReadNs * READS_BETWEEN / 1000, ok), record(QUARTER_PHASE, 100, 1000, quarterOk)]
}
const C_ROUNDS = [500, 510, 490, 505, 495, 500]
const NODE_ROUNDS = [600, 630, 580, 610, 590, 600]
const context = { programs: [{ name: 'c', runtime: 'native' }, { name: 'node-sync', runtime: 'node' }], costPin: { cpu: 1 }, options: { costRounds: 6 } }
const rounds = (program, values, blockSize = 256, options) => values.flatMap((value, run) => round(program, blockSize, run, value, options))

test('CPU per read is the median of the rounds; overhead and share of C compare every round with every one of C\'s', () => {
  const headline = summariseHeadline([...rounds('c', C_ROUNDS), ...rounds('node-sync', NODE_ROUNDS)], context)
  assert.deepEqual(headline.sizes, [256])
  assert.deepEqual(headline.pin, { cpu: 1 })
  const c = headline.cells.find(cell => cell.program === 'c')
  const node = headline.cells.find(cell => cell.program === 'node-sync')
  // 6 rounds: the sign test's interval is the lowest and the highest of the six
  close(c.cpuPerReadNs.estimate, 500, 'C median')
  close(c.cpuPerReadNs.low, 490, 'C low')
  close(c.cpuPerReadNs.high, 510, 'C high')
  // the lowest and highest of 6 miss the median only when all six lie on one side: 2/64
  close(c.cpuPerReadNs.level, 1 - 2 / 64, 'C level')
  assert.equal(c.overheadNs, null)
  assert.equal(c.shareOfC, null)
  close(node.cpuPerReadNs.estimate, 600, 'node median')
  // against C, every node round with every C round: 36 differences, from 600 - 510 = 70 to
  // 630 - 490 = 140, median 100; the rank test's k for 6 against 6 is 6 (lib/stats.js), so
  // the interval runs from the 6th lowest (85) to the 6th highest (120)
  close(node.overheadNs.estimate, 100, 'overhead')
  close(node.overheadNs.low, 85, 'overhead low')
  close(node.overheadNs.high, 120, 'overhead high')
  // the 36 ratios C / node: median 5/6, 6th lowest 490/610 = 49/61, 6th highest 505/590 = 101/118
  close(node.shareOfC.estimate, 5 / 6, 'share')
  close(node.shareOfC.low, 49 / 61, 'share low')
  close(node.shareOfC.high, 101 / 118, 'share high')
  // k = 6 leaves out the 5 lowest and 5 highest: P(U <= 5) for 6 against 6 counts the
  // orders whose U is 0..5, the partitions of 0..5 into at most 6 parts of at most 6,
  // 1 + 1 + 2 + 3 + 5 + 7 = 19 of the 924 orders
  close(node.shareOfC.level, 1 - 2 * 19 / 924, 'share level')
  close(node.overheadNs.level, 1 - 2 * 19 / 924, 'overhead level')
  // each round's share pairs it with C's same round, for the tie and shift tests
  assert.deepEqual(node.byRound.map(entry => entry.run), [0, 1, 2, 3, 4, 5])
  close(node.byRound[1].shareOfC, 510 / 630, 'round 1\'s share')
  close(node.byRound[1].cpuPerReadNs, 630, 'round 1\'s ns')
  assert.ok(c.byRound.every(entry => entry.shareOfC === null))
  assert.match(headline.meaning, /median of the 6 rounds with its 96\.9% interval \(sign test\).*with its 95\.9% interval \(rank test\)/)
  assert.match(headline.meaning, /dd and the reader pinned to one CPU; median/)
  // --cost-policy batch, as the context records it: the meaning says so, as the terminal does
  const batch = summariseHeadline([...rounds('c', C_ROUNDS), ...rounds('node-sync', NODE_ROUNDS)],
    { ...context, costPin: { cpu: 1, policy: 'batch' } })
  assert.match(batch.meaning, /dd and the reader pinned to one CPU, both at SCHED_BATCH; median/)
  const { terminal } = require('../../experiments/stdio/report-text')
  assert.match(terminal({ cells: [], headline: batch }, [256]).join('\n'),
    /within one run, dd and the reader on one CPU, both at SCHED_BATCH; median/)
  assert.equal(node.runtime, 'node')
  assert.equal(node.rounds, 6)
  assert.deepEqual(node.flags, [])
})

test('a round with a failed run drops out; too few rounds give no interval', () => {
  const node = rounds('node-sync', NODE_ROUNDS)
  node[2 * 2 + 1] = round('node-sync', 256, 2, 580, { quarterOk: false })[1]
  const headline = summariseHeadline([...rounds('c', C_ROUNDS), ...node], context)
  const cell = headline.cells.find(entry => entry.program === 'node-sync')
  assert.equal(cell.rounds, 5)
  assert.equal(cell.failedRuns, 1)
  assert.deepEqual(cell.flags, ['few-rounds', 'some-runs-failed'])
  // the method states the planned rounds' levels, and says a cell kept fewer
  assert.match(headline.meaning, /median of the 6 rounds .*; 1 cell kept fewer rounds, each interval at the level of its own count$/)
  const whole = summariseHeadline([...rounds('c', C_ROUNDS), ...rounds('node-sync', NODE_ROUNDS)], context)
  assert.doesNotMatch(whole.meaning,
    /kept fewer rounds/)
  assert.deepEqual(cell.cpuPerReadNs, { estimate: 600, low: null, high: null, level: null }, 'the five left: 600 630 610 590 600')
  assert.ok(cell.overheadNs.low !== null, 'five rounds against six are enough for the rank test\'s interval')
  const three = summariseHeadline([...rounds('c', C_ROUNDS), ...rounds('node-sync', NODE_ROUNDS.slice(0, 3))], context)
  // 3 rounds against C's 6: 18 differences 600-630-580 less 490 ... 510, median of them
  assert.deepEqual(three.cells.find(entry => entry.program === 'node-sync').overheadNs, { estimate: 100, low: null, high: null, level: null })
})

test('a cell strace caught reading otherwise has no figures, and no pair for others when it is C', () => {
  const records = [...rounds('c', C_ROUNDS), ...rounds('node-sync', NODE_ROUNDS)]
  const rejected = new Map([['c\t256', 'strace saw 3 reads of stdin return 4096 bytes, more than the block size 256']])
  const headline = summariseHeadline(records, context, rejected)
  const c = headline.cells.find(cell => cell.program === 'c')
  assert.deepEqual(c.flags, ['failed'])
  assert.equal(c.rejected, rejected.get('c\t256'))
  const node = headline.cells.find(cell => cell.program === 'node-sync')
  assert.equal(node.overheadNs, null)
  assert.equal(node.shareOfC, null)
  close(node.cpuPerReadNs.estimate, 600, 'its own figure stays')
})

test('a cell whose runs lost more than 2% of their CPU to steal is flagged', () => {
  // 3 ticks of 10 ms on one CPU over a 100 ms run: 30%, on half of the runs
  const robbed = { cpus: [1], ticks: 3, clkTck: 100 }
  const node = rounds('node-sync', NODE_ROUNDS).map((record, i) => (i % 2 ? { ...record, steal: robbed } : record))
  const headline = summariseHeadline([...rounds('c', C_ROUNDS), ...node], context)
  const cell = headline.cells.find(entry => entry.program === 'node-sync')
  close(cell.stealShare, 0.15, 'steal share')
  assert.deepEqual(cell.flags, ['steal'])
  assert.deepEqual(headline.cells.find(entry => entry.program === 'c').flags, [])
})

test('no cost runs, no headline', () => {
  assert.equal(summariseHeadline([{ phase: 'timing', program: 'c', blockSize: 256 }], context), null)
})

test('every interval carries its true level, the sign test\'s and the rank test\'s, counted exactly', () => {
  // the 2nd lowest and 2nd highest of 10 miss the median when at most one of the ten lies
  // below it, or above: 1 - 2 (1 + 10) / 1024
  close(medianIntervalLevel(10), 1 - 2 * 11 / 1024, '10 rounds')
  close(medianIntervalLevel(10), 0.978515625, '10 rounds, as a decimal')
  close(medianIntervalLevel(6), 0.96875, '6 rounds: k = 1, 1 - 2/64')
  assert.equal(medianIntervalLevel(5), null)
  // 4 against 4: k = 1, the whole range, missed when all of a lie above b or below: 1 of 70 orders each way
  close(pairwiseIntervalLevel(4, 4), 1 - 2 / 70, '4 against 4')
  // 5 against 5: k = 3, P(U <= 2) = (1 + 1 + 2) / 252
  close(pairwiseIntervalLevel(5, 5), 1 - 2 * 4 / 252, '5 against 5')
  // the counting against every order of m + n values, one by one
  const byEnumeration = (m, n, k) => {
    let atMost = 0
    let orders = 0
    for (let mask = 0; mask < 2 ** (m + n); mask++) {
      let ones = 0
      let u = 0
      for (let bit = 0; bit < m + n; bit++) {
        if (mask & (1 << bit)) ones++
        else u += ones
      }
      if (ones !== m) continue
      orders++
      if (u <= k - 1) atMost++
    }
    return 1 - 2 * atMost / orders
  }
  // k by the normal approximation (lib/stats.js): 4 for 4 against 7, 24 for 10 against 10
  close(pairwiseIntervalLevel(4, 7), byEnumeration(4, 7, 4), '4 against 7')
  close(pairwiseIntervalLevel(10, 10), byEnumeration(10, 10, 24), '10 against 10')
  assert.ok(Math.abs(pairwiseIntervalLevel(10, 10) - 0.9567) < 1e-4, 'the lab\'s 10 rounds: 95.7%, not 95%')
})

// One run's rounds of a cell: its ns per read and C's, as summariseHeadline keeps them.
const byRound = (ns, cNs = 500) => ns.map((value, run) => ({ run, cpuPerReadNs: value, shareOfC: cNs / value }))
const shareCell = (program, runtime, blockSize, estimate, roundsNs) => ({ program, runtime, blockSize, shareOfC: { estimate, low: estimate - 0.01, high: estimate + 0.01 }, ...(roundsNs ? { byRound: byRound(roundsNs) } : {}) })
const twoRuns = moves => {
  const a = { baseline: 'c', cells: [shareCell('c', 'native', 256, null)] }
  a.cells[0].shareOfC = null
  const b = { baseline: 'c', cells: [...a.cells] }
  moves.forEach((points, i) => {
    a.cells.push(shareCell(`r${i}`, 'node', 256, 0.5 + i / 100))
    b.cells.push(shareCell(`r${i}`, 'node', 256, 0.5 + i / 100 + points / 100))
  })
  return headlineRepeatability(a, b)
}

test('two runs by the criterion: each share moves by at most 2 points in all but one cell of 30, never by more than 3', () => {
  const fine = twoRuns([...Array(29).fill(1.9), 2.1])
  assert.equal(fine.total, 30)
  assert.equal(fine.within2, 29)
  assert.deepEqual(fine.goal, { points: 2, cellsAllowedAbove: 1, never: 3 })
  close(fine.cells[29].movePoints, 2.1, 'the cell above')
  assert.equal(fine.cells[29].within, false)
  close(fine.maxMovePoints, 2.1, 'largest')
  close(fine.medianMovePoints, 1.9, 'median')
  assert.equal(fine.runtimeOrder.same, true)
  assert.equal(fine.met, true, 'one cell of 30 above 2 points, none above 3')
  assert.equal(twoRuns([...Array(29).fill(1.9), 3.5]).met, false, 'one cell moved 3.5 points: more than 3, never allowed')
  assert.equal(twoRuns([...Array(28).fill(1.9), 2.1, 2.1]).met, false, 'two cells of 30 above 2 points')
  const few = twoRuns([1.9, 2.1, 0])
  assert.equal(few.goal.cellsAllowedAbove, 0, 'below 30 cells no cell may move more than 2 points')
  assert.equal(few.met, false)
  // a move of exactly 2 points is within, whatever floats make of 0.52 - 0.5
  assert.equal(twoRuns([2]).cells[0].within, true)
  // without rounds kept (results.json from before), no shift test
  assert.deepEqual([fine.cells[0].shifted, fine.cells[0].p], [null, null])
  assert.deepEqual(fine.shift, { significance: 0.05, tested: 0, shifted: 0, expectedByChance: 0 })
  assert.match(headlineRepeatabilityText(fine, ['a', 'b']), /^29 of 30 headline shares of C moved by at most 2 points between a and b \(median 1\.9, largest 2\.1\) and the runtimes rank the same at 256 B: the repeatability goal .* is met$/)
  assert.equal(headlineRepeatability(fine, null), null)
  // a largest move just past a threshold is never printed within it: 2.04 as 2.1, 3.02 as 3.1
  const past = moves => headlineRepeatabilityText(twoRuns(moves), ['a', 'b'])
  assert.match(past([1, 2.04]), /largest 2\.1\)/)
  assert.match(past([1, 3.02]), /largest 3\.1\)/)
  assert.match(past([1, 2.96]), /largest 3\.0\)/)
})

test('a bound is never printed smaller than it is: rounded up at the digits shown', () => {
  const { formatBound } = require('../../lib/report/format')
  assert.equal(formatBound(5.004), '5.01', 'past a goal of 5, never printed as the goal')
  assert.equal(formatBound(11.85), '11.9', 'formatNumber would print 11.8')
  assert.equal(formatBound(4.8412), '4.85')
  assert.equal(formatBound(4.999), '5')
  assert.equal(formatBound(6.45), '6.45')
  assert.equal(formatBound(100.2), '101')
  assert.equal(formatBound(0.01234), '0.013')
  assert.equal(formatBound(0), '0')
  assert.equal(formatBound(null), '–')
  const { ownText, ownTrust } = require('../../lib/repeatability')
  assert.equal(ownText('ratios', 5.004, false, 5), 'This machine was too noisy to quote ratios (±5.01%, goal ±5%).')
  assert.equal(ownTrust('ratios', 11.85, false).moves, '9 ratios in 10 by up to ±11.9%')
})

test('the shift test: the rank test on the two runs\' rounds\' shares of C', () => {
  const a = { baseline: 'c', cells: [shareCell('node-sync', 'node', 256, 0.83, [600, 601, 602, 603, 604, 605, 606, 607, 608, 609])] }
  const same = headlineRepeatability(a, a)
  assert.equal(same.cells[0].shifted, false)
  assert.ok(same.cells[0].p > 0.99, 'the same rounds: p is 1 (to the normal approximation\'s 1e-7)')
  // every round of b slower than every round of a: U = 0 of 100
  const b = { baseline: 'c', cells: [shareCell('node-sync', 'node', 256, 0.81, [620, 621, 622, 623, 624, 625, 626, 627, 628, 629])] }
  const moved = headlineRepeatability(a, b)
  assert.equal(moved.cells[0].shifted, true)
  assert.ok(moved.cells[0].p < 0.001)
  assert.deepEqual(moved.shift, { significance: 0.05, tested: 1, shifted: 1, expectedByChance: 0.05 })
})

test('the shift test calls noise a shift at about its 5% when nothing changed (synthetic rounds of one distribution)', () => {
  // a statistical property, not a timing: 1000 pairs of runs of 10 rounds each, every share
  // of C drawn from one log-normal distribution (3% spread) with a fixed seed
  const random = seededRandom(20261125)
  const normal = normalFrom(random)
  const run = () => ({
    baseline: 'c',
    cells: [{ program: 'node-sync', runtime: 'node', blockSize: 256, shareOfC: { estimate: 0.8, low: 0.79, high: 0.81 }, byRound: Array.from({ length: 10 }, (_, round) => ({ run: round, cpuPerReadNs: 600, shareOfC: 0.8 * Math.exp(0.03 * normal()) })) }]
  })
  const trials = 1000
  let shifted = 0
  for (let trial = 0; trial < trials; trial++) if (headlineRepeatability(run(), run()).cells[0].shifted) shifted++
  // Binomial(1000, 0.05): 50 ± 6.9; within 4 standard deviations unless the test's
  // false-alarm rate is not about 5% (the rank test's at 10 against 10 is 4.3%)
  assert.ok(shifted >= 22 && shifted <= 78, `${shifted} false alarms in ${trials}`)
})

test('runtimes rank by their fastest reader; a swap counts as a tie only where the sign test over rounds cannot tell the two apart in both runs', () => {
  const a = {
    baseline: 'c',
    cells: [shareCell('c', 'native', 256, null), shareCell('limit-splice', 'native', 256, 1.5), shareCell('node-sync', 'node', 256, 0.55),
      shareCell('node-bindings', 'node', 256, 0.60, Array(10).fill(833)), shareCell('bun-ffi', 'bun', 256, 0.75, Array(10).fill(666)), shareCell('node-sync', 'node', 4096, 0.9)]
  }
  a.cells[0].shareOfC = null
  const b = { baseline: 'c', cells: a.cells.map(cell => ({ ...cell })) }
  const same = headlineRepeatability(a, b)
  // C's own runtime (native, with limit-splice) is the yardstick, not a runtime ranked against it
  assert.deepEqual(same.runtimeOrder, { a: ['bun', 'node'], b: ['bun', 'node'], swapped: [], same: true })
  assert.deepEqual(same.readerOrder.a, ['limit-splice', 'bun-ffi', 'node-bindings', 'node-sync'])
  assert.equal(same.blockSize, 256)
  // b puts node (by node-bindings) above bun, and in b node-bindings is faster in 6 rounds
  // of 10, bun-ffi in 4: a tie in b (p = 0.75); in a bun-ffi was faster in all ten rounds
  // (p = 2/1024): not a tie in a, so the order differs
  b.cells[3] = shareCell('node-bindings', 'node', 256, 0.66, [700, 700, 700, 700, 700, 700, 720, 720, 720, 720])
  b.cells[4] = shareCell('bun-ffi', 'bun', 256, 0.64, [710, 710, 710, 710, 710, 710, 705, 705, 705, 705])
  const swapped = headlineRepeatability(a, b).runtimeOrder
  assert.deepEqual(swapped.b, ['node', 'bun'])
  assert.deepEqual(swapped.swapped, [{ pair: ['bun', 'node'], tied: false }])
  assert.equal(swapped.same, false)
  assert.equal(headlineRepeatability(a, b).met, false, 'the goal needs the same order')
  // in a too, 7 rounds against 3 (p = 0.34): a swap neither run can tell apart leaves the order the same
  a.cells[4] = shareCell('bun-ffi', 'bun', 256, 0.75, [800, 800, 800, 800, 800, 800, 800, 900, 900, 900])
  a.cells[3] = shareCell('node-bindings', 'node', 256, 0.60, [850, 850, 850, 850, 850, 850, 850, 850, 850, 850])
  const tied = headlineRepeatability(a, b).runtimeOrder
  assert.deepEqual(tied.swapped, [{ pair: ['bun', 'node'], tied: true }])
  assert.equal(tied.same, true)
  // without rounds (results.json from before the lab kept them) a swap cannot be shown a tie
  delete a.cells[4].byRound
  assert.equal(headlineRepeatability(a, b).runtimeOrder.same, false)
})

test('a run\'s own repeatability: each cell\'s share from halves of its rounds, their difference over √2', () => {
  const own = node => summariseHeadline([...rounds('c', Array(8).fill(500)), ...rounds('node-sync', node), ...rounds('bun-ffi', Array(8).fill(550))],
    { ...context, programs: [...context.programs, { name: 'bun-ffi', runtime: 'bun' }], options: { costRounds: 8 } }).repeatability
  // node-sync's even rounds 600 610 590 600 against C's 500s: of the 16 ratios the 8th and
  // 9th are 500/600; its odd rounds all 625: 0.8. 5/6 - 4/5 = 1/30, 3.33 points, over √2
  // 2.36; bun-ffi's halves are the same, 0. All but floor(2/30) = 0 of 2 cells: 2.36
  const noisy = own([600, 625, 610, 625, 590, 625, 600, 625])
  assert.equal(noisy.cells, 2)
  close(noisy.predictedMovePoints.find(cell => cell.program === 'node-sync').points, 100 / 30 / Math.SQRT2, 'node-sync')
  close(noisy.predictedMovePoints.find(cell => cell.program === 'bun-ffi').points, 0, 'bun-ffi')
  close(noisy.quotedPoints, 100 / 30 / Math.SQRT2, 'quoted')
  assert.equal(noisy.goalPoints, 2)
  assert.equal(noisy.quotable, false)
  assert.match(ownRepeatabilityText(noisy), /^This machine was too noisy to quote: a share of C would move by up to ±2\.4 points between runs \(goal ±2, none beyond ±3;/)
  // odd rounds at 605: 5/6 - 100/121 = 0.69 points, over √2 0.49, printed rounded up
  const quiet = own([600, 605, 610, 605, 590, 605, 600, 605])
  close(quiet.quotedPoints, (5 / 6 - 100 / 121) * 100 / Math.SQRT2, 'quoted')
  assert.equal(quiet.quotable, true)
  assert.match(ownRepeatabilityText(quiet), /^On this machine, today, a share of C repeats within ±0\.5 points/)
  // a drift: node-sync's first four rounds at 600, its last four at 640. Even and odd rounds
  // agree (600 600 640 640 each), early against late do not: 5/6 - 500/640 = 5.21 points, over
  // √2 3.68, the larger of the two halvings and so the cell's figure
  const drift = own([600, 600, 600, 600, 640, 640, 640, 640])
  const drifted = drift.predictedMovePoints.find(cell => cell.program === 'node-sync')
  close(drifted.points, (5 / 6 - 500 / 640) * 100 / Math.SQRT2, 'drift')
  assert.equal(drift.quotable, false)
  // past the goal's 3 points: named as such, but not twice where it is the quoted move itself
  assert.deepEqual(drift.beyondNever.map(cell => cell.program), ['node-sync'])
  assert.doesNotMatch(ownRepeatabilityText(drift), /, and node-sync/)
  // 72 cells, all but 2 within ±1.8, one of the two at ±5.4: not quotable, and named
  const excused = {
    cells: 72,
    quotedPoints: 1.8,
    goalPoints: 2,
    neverPoints: 3,
    beyondNever: [{ program: 'deno-wasi', blockSize: 256, points: 5.4 }],
    quotable: false,
    lost: []
  }
  assert.match(ownRepeatabilityText(excused), new RegExp('^This machine was too noisy to quote: a share of C would ' +
    'move by up to ±1\\.8 points between runs, and deno-wasi @ 256 B by up to ±5\\.4 \\(goal ±2, none beyond ±3; ' +
    '.* in all but 2 of 72 cells\\)$'))
  // the page's trust line names what keeps the run from being quoted, in few words
  assert.deepEqual(headlineTrust(excused), {
    quotable: false,
    lost: 0,
    moves: 'deno-wasi @ 256 B by up to ±5.4 points',
    goal: '±2, none beyond ±3'
  })
  const wasmtime = { program: 'wasmtime', blockSize: 256, points: 3.2 }
  const two = { ...excused, beyondNever: [...excused.beyondNever, wasmtime] }
  assert.equal(headlineTrust(two).moves, '2 shares of C (deno-wasi @ 256 B, wasmtime @ 256 B) by up to ±5.4 points')
  assert.deepEqual(headlineTrust({ ...excused, beyondNever: [], quotable: true }),
    { quotable: true, lost: 0, moves: 'all but 2 of 72 shares of C by up to ±1.8 points', goal: '±2 points' })
  // bun-ffi's every run failed: it is lost, and the run cannot be quoted, however still the rest
  const lostRun = summariseHeadline([...rounds('c', Array(8).fill(500)), ...rounds('node-sync', [600, 605, 610, 605, 590, 605, 600, 605]),
    ...rounds('bun-ffi', Array(8).fill(550), 256, { ok: false, quarterOk: false })],
  { ...context, programs: [...context.programs, { name: 'bun-ffi', runtime: 'bun' }], options: { costRounds: 8 } }).repeatability
  assert.deepEqual([lostRun.cells, lostRun.lost, lostRun.quotable], [1, ['bun-ffi @ 256 B'], false])
  assert.match(ownRepeatabilityText(lostRun), /^This run lost 1 cell \(every run failed, or too few were kept to halve: bun-ffi @ 256 B\), and a lost cell counts against the goal: .*; there a share of C would move by up to ±0\.5 points/)
  // 6 rounds are 3 a half, fewer than the 4 a half needs: no figure, and nothing lost
  assert.equal(summariseHeadline([...rounds('c', C_ROUNDS), ...rounds('node-sync', NODE_ROUNDS)], context).repeatability, null)
  assert.equal(ownRepeatabilityText(null), null)
})

test('the plan runs the cost pass in rounds of the readers that honour the block size, on one CPU', () => {
  const programs = [{ name: 'c', runtime: 'native', honoursBlockSize: true }, { name: 'coreutils', runtime: 'coreutils', honoursBlockSize: false }, { name: 'node-sync', runtime: 'node', honoursBlockSize: true }]
  const options = { ...parseOptions(['--sizes', '256,512,4096', '--rounds', '7']), strace: false, gc: false }
  assert.deepEqual(options.costSizes, [256, 4096])
  const cost = plan(options, { runnable: programs }, { ptrace: { available: false } }, placementPlan([2, 3])).filter(step => step.phase.startsWith('cost'))
  assert.equal(cost.length, 2 * 7 * 2, 'two sizes, seven rounds, two readers, one sampled run each')
  assert.ok(cost.every(step => step.pin.reader === 3 && step.pin.feeder === 3 && step.warmup === 0 && step.sampleMs === 1 && step.phase === PHASE))
  assert.ok(!cost.some(step => step.program.name === 'coreutils'))
  // a round runs every size, so that each cell's rounds spread over the whole pass, the
  // readers in an order of its own
  const first = cost.slice(0, 4).map(step => `${step.program.name} ${step.blockSize} ${step.run} ${step.bytes}`)
  assert.deepEqual([...first.slice(0, 2).sort(), ...first.slice(2).sort()], [`c 256 0 ${64 << 20}`, `node-sync 256 0 ${64 << 20}`, `c 4096 0 ${512 << 20}`, `node-sync 4096 0 ${512 << 20}`])
  assert.deepEqual(cost.map(step => step.run).filter((run, i, runs) => i === 0 || run !== runs[i - 1]), [0, 1, 2, 3, 4, 5, 6])
  assert.deepEqual(parseOptions(['--sizes', '512,1024']).costSizes, [512], 'none of 256, 4096, 65536 asked: the smallest size')
  assert.deepEqual(parseOptions(['--no-cost']).costSizes, [])
  assert.equal(plan({ ...parseOptions(['--no-cost', '--sizes', '256']), strace: false, gc: false }, { runnable: programs }, { ptrace: { available: false } }).filter(step => step.phase.startsWith('cost')).length, 0)
  assert.throws(() => parseOptions(['--no-cost', '--rounds', '3']), /--rounds sets the cost pass, which --no-cost skips/)
  assert.throws(() => parseOptions(['--no-cost', '--cost-policy', 'batch']),
    /--cost-policy sets the cost pass, which --no-cost skips: drop one of them$/)
  // the pairing, and the passes at the cost pass's sizes, were taken and then skipped unsaid
  assert.throws(() => parseOptions(['--no-cost', '--cost-pairing', 'rounds']),
    /--cost-pairing sets the cost pass, which --no-cost skips: drop one of them$/)
  for (const [flag, value, pass] of [['--profile-rounds', '3', 'profile'], ['--profile-ms', '300', 'profile'],
    ['--kernel-rounds', '2', 'kernel']]) {
    assert.throws(() => parseOptions(['--no-cost', flag, value]), new RegExp(`^Error: ${flag} sets the ${pass} pass, ` +
      'which runs at the cost pass\'s sizes and --no-cost skips: drop one of them$'))
  }
  assert.throws(() => parseOptions(['--rounds', '0']), /--rounds/)
})

// A run of 100,000 bytes in 1000 reads (100 bytes a read), sampled every 5000 bytes dd
// wrote, at 2 ns a byte of the reader's CPU time (200 ns a read) past the warm-up, which
// cost more (a first stretch at 10 ns a byte).
function sampledRun (nsPerByte = 2, { jitter = 0, reads = 1000 } = {}) {
  const samples = []
  let cpu = 40000
  for (let read = 0; read <= 100000; read += 5000) {
    if (read > 0) cpu += (read <= 20000 ? 10 : nsPerByte) * 5000 + (read % 10000 ? jitter : -jitter)
    samples.push([cpu, read])
  }
  return { ok: true, bytes: 100000, output: { size: 100000, reads, blockSize: 100 }, samples }
}

test('the slope: CPU time over bytes in the steady middle of one run, times the bytes of a read', () => {
  // the window is 30% to 98% of stdin: 30,000 to 98,000 bytes, so the costlier warm-up
  // up to 20,000 is outside it
  close(slopePerRead(sampledRun()), 200, 'a steady 2 ns a byte, 100 bytes a read')
  close(slopePerRead(sampledRun(3, { reads: 500 })), 600, '3 ns a byte, 200 bytes a read')
  // the CPU time's steps alternately 100 ns longer and shorter: least squares stays
  // within a tenth of a ns of the line
  const jittered = slopePerRead(sampledRun(2, { jitter: 100 }))
  assert.ok(Math.abs(jittered - 200) < 0.1, `jitter either way: ${jittered}`)
  assert.equal(slopePerRead({ ...sampledRun(), samples: sampledRun().samples.slice(-6) }), null, 'too few samples in the window')
  assert.equal(slopePerRead({ ...sampledRun(), samples: [] }), null)
})

test('a run too short for its slope is run again longer: for twice the samples, in whole blocks, at most 1 GiB', () => {
  // sampledRun's window, 30,000 to 98,000 bytes, holds 14 samples: a slope, nothing to lengthen
  assert.equal(windowSamples(sampledRun()), 14)
  assert.equal(longerCostBytes(sampledRun(), 100), null)
  // the last 6 samples, 75,000 to 100,000 bytes, 5 in the window: 16 wanted, so ceil(16 / 5)
  // = 4 times the bytes, 400,000, in whole blocks
  const six = { ...sampledRun(), samples: sampledRun().samples.slice(-6) }
  assert.equal(windowSamples(six), 5)
  assert.equal(longerCostBytes(six, 100), 400000)
  assert.equal(longerCostBytes(six, 65536), 458752, 'rounded up to whole 64 KiB blocks: 7 of them')
  // none at all: 16 times, but never past the longest a cost run reads
  assert.equal(longerCostBytes({ ...six, samples: [] }, 100), 1600000)
  assert.equal(longerCostBytes({ ...six, samples: [], bytes: 256 << 20 }, 65536), COST_MAX_BYTES)
  assert.equal(longerCostBytes({ ...six, bytes: COST_MAX_BYTES }, 65536), null, 'already the longest')
  // a 64 MiB run of 64 KiB blocks that a fast CPU read in ~10 ms: 6 samples in its window
  const tenths = Array.from({ length: 11 }, (_, i) => [i * 1e6, Math.round((64 << 20) * i / 10)])
  const fast = { ...six, bytes: 64 << 20, samples: tenths }
  assert.equal(windowSamples(fast), 6)
  assert.equal(longerCostBytes(fast, 65536), 192 << 20)
})

test('a cost pass of sampled runs: each round the slope of its one run', () => {
  const sampled = (program, nsPerByte, run) => ({ ...sampledRun(nsPerByte), phase: PHASE, program, blockSize: 256, run, wallNs: 1e8, reader: { userUs: 1, sysUs: 1 } })
  const records = [2, 2.1, 1.9, 2, 2.05, 1.95].flatMap((nsPerByte, run) => [sampled('c', nsPerByte, run), sampled('node-sync', nsPerByte * 1.5, run)])
  const headline = summariseHeadline(records, context)
  close(headline.cells.find(cell => cell.program === 'c').cpuPerReadNs.estimate, 200, 'median of 190 ... 210')
  close(headline.cells.find(cell => cell.program === 'node-sync').cpuPerReadNs.estimate, 300, 'median of 285 ... 315')
  assert.match(headline.meaning, /slope of the reader's CPU time over the bytes dd fed it/)
})

test('a cost run kept still disturbed flags its headline cell', () => {
  const sampled = (program, run, foreign) => ({ ...sampledRun(), phase: PHASE, program, blockSize: 256, run, wallNs: 1e8, reader: { userUs: 1, sysUs: 1 }, ...(foreign ? { foreign } : {}) })
  const records = [0, 1, 2, 3, 4, 5].flatMap(run => [sampled('c', run), sampled('node-sync', run, run === 2 ? { disturbed: true } : { disturbed: false })])
  const headline = summariseHeadline(records, context)
  assert.deepEqual(headline.cells.map(cell => [cell.program, cell.flags.includes('disturbed')]), [['c', false], ['node-sync', true]])
})

test('a cell failed or missing in either run is named, stays in the count and fails the goal', () => {
  const a = { baseline: 'c', cells: [shareCell('c', 'native', 256, null), shareCell('r0', 'node', 256, 0.5), shareCell('r1', 'node', 256, 0.6), { program: 'r2', runtime: 'node', blockSize: 256, shareOfC: null, flags: ['failed'] }] }
  a.cells[0].shareOfC = null
  // r1 is not in b at all; r2 failed in a
  const b = { baseline: 'c', cells: [a.cells[0], shareCell('r0', 'node', 256, 0.505), shareCell('r2', 'node', 256, 0.7)] }
  const result = headlineRepeatability(a, b)
  assert.deepEqual([result.within2, result.total], [1, 3], 'the two missing cells count in the total, not as within')
  assert.deepEqual(result.missing.map(cell => [cell.program, cell.blockSize, cell.in]), [['r1', 256, ['b']], ['r2', 256, ['a']]])
  assert.equal(result.met, false, 'a goal with a missing cell is not met')
  assert.match(headlineRepeatabilityText(result, ['a', 'b']), /^1 of 3 headline shares of C moved by at most 2 points between a and b; 2 missing: r1 @ 256 B in b, r2 @ 256 B in a \(median 0\.5, largest 0\.5\).* is not met/)
  // the baseline has no share of itself: never missing
  assert.equal(headlineRepeatability(b, b).missing.length, 0)
})

// A run that took turns with C (--cost-pairing slices): its samples and its partner's each
// carry the ms they were taken at; `from` and `to` bound each one's, and a pipeline paused
// for the other's turn takes none. Each part of a run costs as `nsPerByte(ms)` says there.
function pairedRun (run, { mine, c, mineMs = [0, 100], cMs = [0, 100] }) {
  const timed = (nsPerByte, [from, to]) => {
    const samples = []
    let cpu = 0
    for (let ms = from; ms <= to; ms++) {
      const read = Math.round(100000 * (ms - from) / (to - from))
      if (samples.length) cpu += nsPerByte(ms) * (read - samples[samples.length - 1][1])
      samples.push([cpu, read, ms * 1e6])
    }
    return { ok: true, bytes: 100000, output: { size: 100000, reads: 1000, blockSize: 100 }, samples }
  }
  return { ...timed(mine, mineMs), phase: PHASE, program: 'node-sync', blockSize: 256, run, wallNs: 1e8, reader: { userUs: 1, sysUs: 1 }, turns: 5, sliceMs: 10, partner: { program: 'c', ...timed(c, cMs) } }
}

test('a run in turns with C: both slopes over the span they shared, its share of C from that pair', () => {
  // the machine twice as slow from 50 ms on: both pay it, so the pair's ratio holds at 2
  const slow = base => ms => (ms > 50 ? 2 * base : base)
  const pair = pairFigures(pairedRun(0, { mine: slow(4), c: slow(2) }))
  close(pair.cNs / pair.ns, 0.5, 'C at half the reader\'s cost whatever the machine did')
  // C ended at 60 ms; the reader ran on alone, at 10 ns a byte: only the span both ran in
  // (0 to 60 ms) counts, and there the reader cost 4 ns a byte
  const longer = pairedRun(0, { mine: ms => (ms > 60 ? 10 : 4), c: () => 2, cMs: [0, 60] })
  const figures = pairFigures(longer)
  close(figures.ns, 400, 'the reader over the shared span: 4 ns a byte, 100 bytes a read')
  close(figures.cNs, 200, 'C over its whole window')
  // spans that do not meet, or a partner that failed, give no pair
  assert.equal(pairFigures(pairedRun(0, { mine: () => 4, c: () => 2, mineMs: [0, 100], cMs: [200, 300] })), null)
  const failed = pairedRun(0, { mine: () => 4, c: () => 2 })
  failed.partner.ok = false
  assert.equal(pairFigures(failed), null)
  // samples from before the timestamps (two fields) have no span
  const old = pairedRun(0, { mine: () => 4, c: () => 2 })
  old.samples = old.samples.map(([cpu, read]) => [cpu, read])
  assert.equal(pairFigures(old), null)
})

test('the partner\'s bytes are matched to end with the reader: as many times as its read is cheaper', () => {
  // the reader at 4 ns a byte, C at 1: C needs 4 times the bytes, in whole blocks
  const ratio = partnerRatio(pairedRun(0, { mine: () => 4, c: () => 1 }))
  close(ratio, 4, 'the reader\'s read 4 times C\'s')
  assert.equal(partnerBytes(100000, ratio, 65536), 7 * 65536, 'rounded up')
  assert.equal(partnerBytes(100000, ratio, 100), 400000)
  assert.equal(partnerBytes(100000, 20000, 65536), 1953152 * 1024, 'C\'s run longer than a cost run may be')
  assert.equal(partnerBytes(COST_MAX_BYTES, 30, 65536), PARTNER_MAX_BYTES, 'but not past 16 GiB')
  assert.equal(partnerBytes(100000, null, 65536), 100000, 'no ratio yet: the reader\'s own bytes')
  const failed = pairedRun(0, { mine: () => 4, c: () => 1 })
  failed.partner.ok = false
  assert.equal(partnerRatio(failed), null)
})

test('a pair too short for slopes: C matched by rusage, then longer; C\'s cap shortens the reader', () => {
  // neither run gave a slope (too few samples): their CPU per read from rusage, 4 µs against 1
  const short = pairedRun(0, { mine: () => 4, c: () => 1 })
  short.samples = short.samples.slice(0, 2)
  short.partner.samples = short.partner.samples.slice(0, 2)
  Object.assign(short, { reader: { userUs: 3000, sysUs: 1000 }, output: { reads: 1000 } })
  Object.assign(short.partner, { reader: { userUs: 500, sysUs: 500 }, output: { reads: 1000 } })
  close(partnerRatio(short), 4, 'the reader\'s 4 µs a read against C\'s 1, start-up and all')
  short.partner.reader = { userUs: 0, sysUs: 0 }
  assert.equal(partnerRatio(short), null, 'nothing measured of C: no ratio')
  const MiB = 1 << 20
  const unit = 65536
  // C's bytes a guess far from matched: the same bytes, C matched
  assert.equal(nextPairBytes([{ bytes: 64 * MiB, partnerBytes: 64 * MiB }], 4, unit), 64 * MiB)
  // matched, or no ratio: twice, up to the longest cost run, and no further
  assert.equal(nextPairBytes([{ bytes: 64 * MiB, partnerBytes: 256 * MiB }], 4, unit), 128 * MiB)
  assert.equal(nextPairBytes([{ bytes: 64 * MiB, partnerBytes: 64 * MiB }], null, unit), 128 * MiB)
  assert.equal(nextPairBytes([{ bytes: 512 * MiB, partnerBytes: 512 * MiB }], 1, unit), COST_MAX_BYTES)
  assert.equal(nextPairBytes([{ bytes: COST_MAX_BYTES, partnerBytes: COST_MAX_BYTES }], 1, unit), null)
  // a reader 430 times as slow as C: C capped at 16 GiB lasts through 38 MiB of the reader's
  const capped = nextPairBytes([{ bytes: 64 * MiB, partnerBytes: PARTNER_MAX_BYTES }], 430, unit)
  assert.equal(capped, Math.floor(PARTNER_MAX_BYTES / 430 / unit) * unit)
  assert.ok(capped < 64 * MiB)
  // never a try made before, and at most 8
  const made = [{ bytes: 128 * MiB, partnerBytes: 512 * MiB }, { bytes: 64 * MiB, partnerBytes: 256 * MiB }]
  assert.equal(nextPairBytes(made, 4, unit), null, '128 MiB with C matched was tried')
  const eight = Array.from({ length: 8 }, (_, i) => ({ bytes: (i + 1) * MiB, partnerBytes: (i + 1) * MiB }))
  assert.equal(nextPairBytes(eight, 1, unit), null)
})

test('a cost pass in turns with C: the share of C is the median of the pairs\', with its sign-test interval', () => {
  // each round's machine a different speed (1x to 1.5x), paid by both of a pair alike
  const speeds = [1, 1.5, 1.2, 1.1, 1.4, 1.3, 1, 1.25]
  const shares = [0.5, 0.48, 0.52, 0.5, 0.49, 0.51, 0.5, 0.47]
  const records = speeds.flatMap((speed, run) => [
    { ...sampledRun(2 * speed), phase: PHASE, program: 'c', blockSize: 256, run, wallNs: 1e8, reader: { userUs: 1, sysUs: 1 } },
    pairedRun(run, { mine: () => 4 * speed * 0.5 / shares[run], c: () => 2 * speed })
  ])
  const headline = summariseHeadline(records, context)
  const node = headline.cells.find(cell => cell.program === 'node-sync')
  assert.equal(node.pairing, 'slices')
  close(node.shareOfC.estimate, 0.5, 'the median of the eight pairs\' shares')
  close(node.shareOfC.low, 0.47, 'the lowest of 8, at the sign test\'s rank there')
  close(node.shareOfC.high, 0.52, 'the highest')
  close(node.shareOfC.level, medianIntervalLevel(8), 'the sign test\'s level at 8')
  assert.deepEqual(node.byRound.map(round => Math.round(round.shareOfC * 100)), shares.map(share => share * 100))
  assert.equal(headline.cells.find(cell => cell.program === 'c').pairing, 'rounds', 'C has no partner: its own rounds')
  assert.match(headline.meaning, /round by round, each round's reader taking turns of 5 ms with a run of C/)
  // its own repeatability from its halves' medians of pairs: 0.5 (even rounds 0.5, 0.52,
  // 0.49, 0.5) against 0.49 (odd 0.48, 0.5, 0.51, 0.47): a point, over √2
  const predicted = headline.repeatability.predictedMovePoints.find(cell => cell.program === 'node-sync')
  close(predicted.points, 1 / Math.SQRT2, 'a point between the halves')
  assert.equal(node.failedRuns, 0)
  // the run of C beside round 3 failed: the reader's run answered, but the round has no pair
  // and counts as failed, flagged, not left out unsaid
  records.find(record => record.program === 'node-sync' && record.run === 3).partner.ok = false
  const lost = summariseHeadline(records, context).cells.find(cell => cell.program === 'node-sync')
  assert.deepEqual([lost.rounds, lost.failedRuns], [7, 1])
  assert.ok(lost.flags.includes('some-runs-failed'), lost.flags.join())
})

test('the plan: by default every reader\'s cost run but C\'s takes turns with C; --cost-pairing rounds, none', () => {
  const programs = [{ name: 'c', runtime: 'native', honoursBlockSize: true }, { name: 'node-sync', runtime: 'node', honoursBlockSize: true }]
  const costOf = args => plan({ ...parseOptions(['--sizes', '256', '--rounds', '6', ...args]), strace: false, gc: false }, { runnable: programs }, { ptrace: { available: false } }, placementPlan([0, 1]))
    .filter(step => step.phase === PHASE)
  const paired = costOf([])
  assert.deepEqual([...new Set(paired.map(step => `${step.program.name}: ${step.partner?.name ?? 'alone'}`))].sort(), ['c: alone', 'node-sync: c'])
  assert.ok(paired.filter(step => step.partner).every(step => / in turns with C$/.test(step.label)))
  assert.ok(costOf(['--cost-pairing', 'rounds']).every(step => step.partner === null))
  assert.throws(() => parseOptions(['--cost-pairing', 'duet']), /--cost-pairing must be slices or rounds, not 'duet'/)
})

test('a cost run\'s bytes: at most 0.4 s of the reader\'s CPU in the window, a JIT\'s warm-up kept', () => {
  const { costRunBytes } = require('../../experiments/stdio/cost')
  const wasmer = { program: { runtime: 'wasmer' }, blockSize: 256, bytes: 64 << 20 }
  assert.equal(costRunBytes(wasmer, null), 64 << 20, 'before its cell\'s first run: the planned bytes')
  assert.equal(costRunBytes({ ...wasmer, program: { runtime: 'native' } }, 380), 64 << 20, 'C: as planned')
  const bytes = costRunBytes(wasmer, 11500)
  assert.ok(bytes % 65536 === 0 && Math.abs(bytes / 256 * 0.68 * 11500e-9 - 0.4) < 0.001, `${bytes}`)
  // a V8 reader as slow keeps 32768 reads before the window: 109,227 reads of 256 B
  const node = costRunBytes({ ...wasmer, program: { runtime: 'node' } }, 11500)
  assert.equal(node, Math.ceil(32768 / 0.3 * 256 / 65536) * 65536)
  // a runtime the lab does not know is taken to warm up; at 64 KiB the warm-up is more than planned
  assert.equal(costRunBytes({ ...wasmer, program: { runtime: 'unknown' } }, 11500), node)
  assert.equal(costRunBytes({ program: { runtime: 'bun' }, blockSize: 65536, bytes: 1 << 30 }, 1e6), 1 << 30)
})

test('the least-squares slope under every cost run\'s: y over x, none where x does not vary', () => {
  const { leastSquaresSlope } = require('../../lib/stats')
  assert.equal(leastSquaresSlope([[0, 1], [1, 3], [2, 5]]), 2)
  // (0, 1), (1, 2), (2, 7): mean y 3.33, (−1·−2.33 + 0 + 1·3.67) / 2 = 3
  assert.ok(Math.abs(leastSquaresSlope([[0, 1], [1, 2], [2, 7]]) - 3) < 1e-9)
  assert.equal(leastSquaresSlope([[4, 1], [4, 9]]), null)
})

// the docs' studies of what a host's pace moves (docs/http.md, docs/db.md) read their runs by it
test('centredFit: the slope and correlation of centred points, each one\'s spread; null where one is flat', () => {
  const { centredFit } = require('../../lib/stats')
  // y = 2x exactly, then with one point off the line
  const line = centredFit([[-1, -2], [0, 0], [1, 2]])
  assert.deepEqual([line.slope, line.r], [2, 1])
  assert.ok(Math.abs(line.spreadX - Math.sqrt(2 / 3)) < 1e-12 && Math.abs(line.spreadY - Math.sqrt(8 / 3)) < 1e-12)
  const off = centredFit([[-1, -1], [0, 1], [1, 0]])
  assert.ok(Math.abs(off.slope - 0.5) < 1e-12 && Math.abs(off.r - 0.5) < 1e-12, JSON.stringify(off))
  assert.equal(centredFit([[0, 1], [0, -1]]), null)
  assert.equal(centredFit([[1, 0], [-1, 0]]), null)
})

test('the headline\'s method said once where the runs shown measured alike, else each run\'s by name', () => {
  const { meaningText } = require('../../experiments/stdio/cost')
  const entry = (set, meaning, available = true) => ({ set, meaning, available })
  assert.equal(meaningText([entry('a', 'one CPU'), entry('b', 'one CPU'), entry('c', null, false)]), 'one CPU')
  assert.equal(meaningText([entry('d1', 'one CPU'), entry('b1', 'one CPU, both at SCHED_BATCH')]),
    'd1: one CPU. b1: one CPU, both at SCHED_BATCH')
  assert.equal(meaningText([]), '')
})
