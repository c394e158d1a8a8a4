'use strict'
// The headline (lib/headline.js): CPU time per read from the cost pass's full and quarter
// runs, paired with C by round, against numbers worked out by hand; what drops a round or
// a cell; the steal flag; two runs' agreement and rank order; bench's plan of the pass.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { summariseHeadline, headlineAgreement, PHASE, QUARTER_PHASE } = require('../lib/headline')
const { parseOptions, plan } = require('../bench')

const close = (actual, expected, what) => assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual} is not ${expected}`)

// Full runs make 400 reads and quarter runs 100, so 300 reads lie between them; a round
// whose marginal CPU time per read is m ns has a full run m * 300 ns = 0.3 m µs longer
// on the CPU than its quarter run (1000 µs, user and sys split at will).
const READS_BETWEEN = 300
function round (program, blockSize, run, perReadNs, { ok = true, quarterOk = true, steal = { cpus: [1], ticks: 0, clkTck: 100 } } = {}) {
  const record = (phase, reads, cpuUs, runOk) => ({
    phase, program, blockSize, run, bytes: reads * blockSize, ok: runOk, failure: runOk ? null : 'reader exited 1: read: Bad file descriptor (9)',
    wallNs: 100e6, steal, reader: { userUs: cpuUs / 4, sysUs: cpuUs * 3 / 4 }, output: { size: reads * blockSize, reads, blockSize }
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
  assert.deepEqual(cell.flags, ['few-rounds'])
  assert.deepEqual(cell.cpuPerReadNs, { estimate: 600, low: null, high: null }, 'the five left: 600 630 610 590 600')
  assert.ok(cell.overheadNs.low !== null, 'five rounds against six are enough for the rank test\'s interval')
  const three = summariseHeadline([...rounds('c', C_ROUNDS), ...rounds('node-sync', NODE_ROUNDS.slice(0, 3))], context)
  // 3 rounds against C's 6: 18 differences 600-630-580 less 490 ... 510, median of them
  assert.deepEqual(three.cells.find(entry => entry.program === 'node-sync').overheadNs, { estimate: 100, low: null, high: null })
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

test('two runs agree on a cell when each share lies in the other\'s interval; runtimes rank by their fastest reader, ties allowed', () => {
  const share = (estimate, low, high) => ({ estimate, low, high })
  const cell = (program, runtime, blockSize, shareOfC) => ({ program, runtime, blockSize, shareOfC })
  const a = {
    baseline: 'c',
    cells: [cell('c', 'native', 256, null), cell('limit-splice', 'native', 256, share(1.5, 1.4, 1.6)), cell('node-sync', 'node', 256, share(0.55, 0.53, 0.57)),
      cell('node-bindings', 'node', 256, share(0.60, 0.58, 0.62)), cell('bun-ffi', 'bun', 256, share(0.75, 0.70, 0.80)), cell('node-sync', 'node', 4096, share(0.9, 0.85, 0.95))]
  }
  const b = {
    baseline: 'c',
    cells: [cell('c', 'native', 256, null), cell('limit-splice', 'native', 256, share(1.45, 1.4, 1.5)), cell('node-sync', 'node', 256, share(0.56, 0.55, 0.58)),
      cell('node-bindings', 'node', 256, share(0.65, 0.63, 0.67)), cell('bun-ffi', 'bun', 256, share(0.72, 0.69, 0.76)), cell('node-sync', 'node', 4096, share(0.96, 0.90, 1.0))]
  }
  const agreement = headlineAgreement(a, b)
  const verdicts = Object.fromEntries(agreement.cells.map(entry => [`${entry.program}@${entry.blockSize}`, entry.agree]))
  // node-bindings: 0.65 is outside 0.58-0.62; node-sync at 4096: 0.9 inside 0.90-1.0, but 0.96 outside 0.85-0.95
  assert.deepEqual(verdicts, { 'limit-splice@256': true, 'node-sync@256': true, 'node-bindings@256': false, 'bun-ffi@256': true, 'node-sync@4096': false })
  assert.equal(agreement.agreeing, 3)
  assert.equal(agreement.total, 5)
  assert.equal(agreement.blockSize, 256)
  // C's own runtime (native, with limit-splice) is the yardstick, not a runtime ranked against it
  assert.deepEqual(agreement.runtimeOrder, { a: ['bun', 'node'], b: ['bun', 'node'], swapped: [], same: true })
  assert.deepEqual(agreement.readerOrder.a, ['limit-splice', 'bun-ffi', 'node-bindings', 'node-sync'])
  assert.equal(agreement.readerOrder.same, true)
  // b puts node (by node-bindings, 0.65) above bun (0.64): a tie in b (0.63-0.67 and 0.60-0.64
  // overlap) but not in a (0.70-0.80 against 0.58-0.62), so the order differs
  b.cells[4].shareOfC = share(0.64, 0.60, 0.64)
  const swappedOnce = headlineAgreement(a, b).runtimeOrder
  assert.deepEqual(swappedOnce.b, ['node', 'bun'])
  assert.deepEqual(swappedOnce.swapped, [{ pair: ['bun', 'node'], tied: false }])
  assert.equal(swappedOnce.same, false)
  // tied in both runs: a swap that neither run can tell apart leaves the order the same
  a.cells[4].shareOfC = share(0.61, 0.59, 0.66)
  const tiedBoth = headlineAgreement(a, b).runtimeOrder
  assert.deepEqual(tiedBoth.swapped, [{ pair: ['bun', 'node'], tied: true }])
  assert.equal(tiedBoth.same, true)
  assert.equal(headlineAgreement(a, null), null)
})

test('the plan runs the cost pass in rounds of the readers that honour the block size, on one CPU', () => {
  const programs = [{ name: 'c', runtime: 'native', honoursBlockSize: true }, { name: 'coreutils', runtime: 'coreutils', honoursBlockSize: false }, { name: 'node-sync', runtime: 'node', honoursBlockSize: true }]
  const options = { ...parseOptions(['--sizes', '256,512,4096', '--rounds', '7']), strace: false, gc: false }
  assert.deepEqual(options.costSizes, [256, 4096])
  const cost = plan(options, programs, { available: false }, { feeder: 3, reader: 3 }).filter(step => step.phase.startsWith('cost'))
  assert.equal(cost.length, 2 * 7 * 2 * 2, 'two sizes, seven rounds, two readers, a full and a quarter run')
  assert.ok(cost.every(step => step.pin.reader === 3 && step.pin.feeder === 3 && step.warmup === 0))
  assert.ok(!cost.some(step => step.program.name === 'coreutils'))
  // a round runs every size, so that each cell's rounds spread over the whole pass
  const first = cost.slice(0, 8).map(step => `${step.program.name} ${step.blockSize} ${step.phase} ${step.run} ${step.bytes}`)
  assert.deepEqual(first, [`c 256 cost 0 ${64 << 20}`, `c 256 cost-quarter 0 ${16 << 20}`, `node-sync 256 cost 0 ${64 << 20}`, `node-sync 256 cost-quarter 0 ${16 << 20}`,
    `c 4096 cost 0 ${512 << 20}`, `c 4096 cost-quarter 0 ${128 << 20}`, `node-sync 4096 cost 0 ${512 << 20}`, `node-sync 4096 cost-quarter 0 ${128 << 20}`])
  assert.deepEqual(cost.map(step => step.run).filter((run, i, runs) => i === 0 || run !== runs[i - 1]), [0, 1, 2, 3, 4, 5, 6])
  assert.deepEqual(parseOptions(['--sizes', '512,1024']).costSizes, [512], 'none of 256, 4096, 65536 asked: the smallest size')
  assert.deepEqual(parseOptions(['--no-cost']).costSizes, [])
  assert.equal(plan({ ...parseOptions(['--no-cost', '--sizes', '256']), strace: false, gc: false }, programs, { available: false }).filter(step => step.phase.startsWith('cost')).length, 0)
  assert.throws(() => parseOptions(['--no-cost', '--rounds', '3']), /--rounds sets the cost pass, which --no-cost skips/)
  assert.throws(() => parseOptions(['--rounds', '0']), /--rounds/)
})
