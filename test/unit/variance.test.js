'use strict'
// Where the variance lives (lib/variance.js) and what a process does over its runs
// (lib/steady.js). Every expected number is worked out by hand beside its assertion.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { components, pooled, optimalRounds } = require('../../lib/variance')
const {
  classify, changepoints, cellSteadiness, unsteadyReason, unsteadyCell, unquotedReason
} = require('../../lib/steady')

const close = (actual, expected, message) => assert.ok(Math.abs(actual - expected) < 1e-9, `${message}: ${actual}, not ${expected}`)

test('components: the rounds\' variance, and the processes\' beyond what their rounds explain', () => {
  // rounds 1,3 and 5,7: each process's variance 2, so S1² = 2; the means 2 and 6 vary by
  // 8, of which 2 / 2 rounds is the rounds': S2² = 7; the grand mean 4
  const parts = components([[1, 3], [5, 7]])
  close(parts.roundVariance, 2, 'S1²')
  close(parts.processVariance, 7, 'S2²')
  close(parts.mean, 4, 'mean')
  close(parts.roundPercent, 100 * Math.sqrt(2) / 4, 'rounds, percent')
  close(parts.processPercent, 100 * Math.sqrt(7) / 4, 'processes, percent')
  // the mean's variance from processes, 7 / 2, beats the rounds', 2 / 4
  assert.equal(parts.dominant, 'process')
  // processes alike, rounds apart: 1,9 and 2,8 vary by 32 and 18 (S1² 25); the means are
  // both 5, and 0 - 25 / 2 is held at 0
  const rounds = components([[1, 9], [2, 8]])
  close(rounds.roundVariance, 25, 'S1²')
  assert.equal(rounds.processVariance, 0)
  assert.equal(rounds.dominant, 'round')
  // one process, or processes of one round each, cannot be split
  assert.equal(components([[1, 2, 3]]), null)
  assert.equal(components([[1], [2], [3]]), null)
})

test('components: processes of unequal rounds take the harmonic mean of their rounds', () => {
  // rounds 2 and 4: harmonic mean 2 * 2 * 4 / 6 = 8/3. Variances: [1,3] 2, [5,5,7,7] 4/3:
  // S1² = 5/3. Means 2 and 6: 8 - (5/3) / (8/3) = 8 - 0.625 = 7.375
  const parts = components([[1, 3], [5, 5, 7, 7]])
  close(parts.rounds, 8 / 3, 'rounds')
  close(parts.roundVariance, 5 / 3, 'S1²')
  close(parts.processVariance, 7.375, 'S2²')
})

test('the cost model: the optimal rounds a process; components pooled over cells', () => {
  const parts = { mean: 4, roundVariance: 2, processVariance: 7 }
  // sqrt(14 * 2 / (1 * 7)) = 2
  assert.equal(optimalRounds(parts, { roundCost: 1, processCost: 14 }), 2)
  // sqrt(3 * 2 / 7) = 0.93: one round
  assert.equal(optimalRounds(parts, { roundCost: 1, processCost: 3 }), 1)
  assert.equal(optimalRounds({ ...parts, processVariance: 0 }, { roundCost: 1, processCost: 3, maxRounds: 10 }), 10)
  // relative to each cell's mean: 2 / 4² and 8 / 2² average to (0.125 + 2) / 2 for the
  // rounds; the processes' excess, 7 / 16 and -1 / 4, to (0.4375 - 0.25) / 2
  const both = pooled([{ mean: 4, roundVariance: 2, processExcess: 7 }, { mean: 2, roundVariance: 8, processExcess: -1 }, null])
  close(both.roundPercent, 100 * Math.sqrt(1.0625), 'rounds')
  close(both.processPercent, 100 * Math.sqrt(0.09375), 'processes')
  assert.equal(both.cells, 2)
  assert.equal(pooled([null]), null)
})

test('classify: flat, warm-up, slowdown and no steady state, each from a sequence', () => {
  const flat = classify([100, 101, 99, 100, 102, 100, 99, 101])
  assert.equal(flat.kind, 'flat')
  assert.equal(flat.steadyFrom, 0)
  // two slow runs, then level: the noise is the successive differences' median, 1
  const warm = classify([150, 130, 101, 100, 99, 100, 101, 100])
  assert.equal(warm.kind, 'warm-up')
  assert.equal(warm.steadyFrom, 2)
  assert.deepEqual(warm.segments.map(segment => [segment.from, segment.to]), [[0, 2], [2, 8]])
  const slow = classify([100, 101, 99, 100, 100, 120, 121, 119, 120, 121])
  assert.equal(slow.kind, 'slowdown')
  assert.equal(slow.steadyFrom, 5)
  // a step in the last 2 of 10 runs: under a quarter of the sequence
  const moving = classify([100, 100, 101, 99, 100, 100, 100, 100, 130, 131])
  assert.equal(moving.kind, 'no steady state')
  assert.equal(moving.steadyFrom, null)
  // for a rate, higher is better: a rate that rises warms up
  assert.equal(classify([50, 60, 100, 100, 101, 99, 100, 100], { lowerIsBetter: false }).kind, 'warm-up')
  // fewer than five runs: not classified, as no warm-up could be (two runs, then three at a level)
  assert.equal(classify([1, 2, 3]).kind, null)
  assert.equal(classify([150, 130, 100, 101]).kind, null)
  assert.equal(classify([150, 130, 100, 101, 100]).kind, 'warm-up')
})

test('classify: a step in the last two runs leaves no steady state at 6, 7 and 10 values', () => {
  // the lengths the http and db processes have (6 to 8 values a process) and a longer one
  const level = [100, 101, 99, 100, 101, 99, 100, 100]
  for (const n of [6, 7, 10]) {
    const before = Array.from({ length: n - 2 }, (_, i) => level[i % level.length])
    const moving = classify([...before, 130, 131])
    assert.equal(moving.kind, 'no steady state', `${n} values: ${moving.kind}`)
    assert.equal(moving.steadyFrom, null)
    // the same step at the start is a warm-up, its level the steady state
    const warm = classify([130, 131, ...before])
    assert.equal(warm.kind, 'warm-up', `${n} values`)
    assert.equal(warm.steadyFrom, 2)
    // and three runs at a new level are a steady state
    assert.equal(classify([...before.slice(1), 130, 131, 129]).kind, 'slowdown', `${n} values`)
  }
})

test('classify: one slow run is noise, and a 1% step is one level', () => {
  assert.equal(classify([100, 101, 99, 140, 100, 101, 99, 100]).kind, 'flat')
  assert.equal(classify([100, 100, 100, 100, 101, 101, 101, 101]).kind, 'flat')
  // a constant sequence has a scale all the same
  assert.deepEqual(changepoints([5, 5, 5, 5, 5]), [0])
})

test('classify: runs that keep rising or falling are no steady state, though no changepoint splits them', () => {
  // postgres.js pipelined, db-n3's /db: its cost grows with the queries it has served
  const rising = classify([56.9, 35.1, 42.9, 55.1, 58.3, 61.5, 68.0])
  assert.equal(rising.kind, 'no steady state')
  assert.equal(rising.steadyFrom, null)
  assert.equal(rising.trend.direction, 'rising')
  // its first run, the process's start, aside
  assert.equal(rising.trend.runs, 6)
  assert.ok(rising.trend.share > 0.4 && rising.trend.p < 0.05, JSON.stringify(rising.trend))
  // the same drift the other way: a process still warming up when it stopped
  const falling = classify([56.9, 35.1, 42.9, 55.1, 58.3, 61.5, 68.0].map(value => 125 - value))
  assert.equal(falling.kind, 'no steady state')
  assert.equal(falling.trend.direction, 'falling')
  // a slow warm-up whose tail moves by less than 10%: steady from the changepoint, the tail's
  // slow slide included, not unsteady; and a drift up that settles, a slowdown by its way,
  // whatever the start's run did
  const warm = classify([60, 44, 42, 40, 38, 36, 35.5, 36, 35.8, 36.2, 35.9])
  assert.deepEqual([warm.kind, warm.steadyFrom, warm.trend], ['warm-up', 2, null])
  const slow = classify([60, 30, 32, 34, 36, 38, 38.5, 38, 38.2, 37.8, 38.1])
  assert.deepEqual([slow.kind, slow.steadyFrom, slow.trend, slow.settled], ['slowdown', 3, null, 'rising'])
  // a tail that Kendall's test cannot see move at 5 runs, but that moves by more than 10%,
  // is not a steady state: db-n3's deno /db, 32.4 to 42.8 over its last 5 runs
  const creeping = classify([55.0, 31.3, 32.4, 36.8, 41.3, 41.1, 42.8])
  assert.deepEqual([creeping.kind, creeping.trend?.direction], ['no steady state', 'rising'])
  // noise, and a drift within TREND_SHARE (10% from first run to last), hold still
  assert.equal(classify([100, 104, 97, 101, 99, 103, 98, 102]).kind, 'flat')
  assert.equal(classify([100, 104, 103, 107, 106, 110, 109, 113]).kind, 'flat')
  // five runs, each below the one before, one segment to the changepoints (their noise is
  // those steps), four after the start, too few to test: too short to classify, never flat
  // (node-http in a noisy http run, 2026-12-01: its warm-up stopped on wrk's rate)
  const stillWarming = classify([6.05, 4.94, 3.86, 2.82, 2.77])
  assert.deepEqual([stillWarming.kind, stillWarming.steadyFrom], [null, null])
  assert.equal(classify([2.0, 1.1, 1.15, 1.22, 1.3]).kind, null)
  // ... but a start's run above four that hold still, four that move one way by less than
  // 10%, and five that wander, are classified as before
  assert.notEqual(classify([2.16, 1.47, 1.4, 1.46, 1.4]).kind, null)
  assert.equal(classify([2.16, 1.5, 1.45, 1.42, 1.4]).kind, 'flat')
  assert.equal(classify([1.32, 1.18, 1.19, 1.24, 1.17]).kind, 'flat')
  // a drift the changepoints cut into steps: a last segment of 4 runs still rising by more
  // than 10%, the way it came, over runs that rise by the drift test, is no steady state
  const cut = classify([100, 101, 99, 100, 100, 120, 125, 130, 135])
  assert.deepEqual([cut.kind, cut.steadyFrom, cut.trend?.direction], ['no steady state', null, 'rising'])
  // db-r1 (results/reference-db until 2026-12-04), postgres.js pipelined /db: a slowdown steady from 58.4 before
  const climbing = classify([48.9, 33.7, 43.5, 51.0, 58.4, 63.0, 68.6])
  assert.deepEqual([climbing.kind, climbing.trend?.direction, climbing.trend?.runs], ['no steady state', 'rising', 6])
  // a straight line of 10 runs, which PELT cuts in three
  assert.equal(classify([100, 105, 110, 115, 120, 125, 130, 135, 140, 145]).kind, 'no steady state')
  // ... but a step to a level whose runs wander, or move by less than 10%, is a slowdown
  assert.equal(classify([100, 101, 99, 100, 100, 120, 121, 119, 120]).kind, 'slowdown')
  assert.equal(classify([100, 101, 99, 100, 100, 120, 122, 124, 126]).kind, 'slowdown')
  // a steady drift of 4 or 6% a run, with no noise, wherever the changepoints cut it: its
  // last 3 or 4 runs move by less than 10% on their own, and are no steady state (until
  // 2026-12-06 10, 10.6 ... 15.4 was a slowdown steady from 14.2)
  for (const n of [6, 7, 10]) {
    for (const step of [0.04, 0.06]) {
      const drift = Array.from({ length: n }, (_, i) => 10 * (1 + step * i))
      assert.equal(classify(drift).kind, 'no steady state', `${n} runs, ${step * 100}% a run`)
    }
  }
})

test('changepoints: the best split, not one a pruned search settled for', () => {
  // the split of least cost is 0 | 5; the search pruned too early gave 0 | 5 | 7
  assert.deepEqual(changepoints([9.826, 9.919, 9.854, 9.53, 9.583, 11.954, 11.795, 10.788, 9.985, 13.078]), [0, 5])
})

test('classify: four values are too short to classify; those that move one way by over 10% say so', () => {
  // c-epoll in a noisy http run (h-h1, close): flat until 2026-12-02
  const jumped = classify([34.1, 32.7, 34.9, 46.0])
  assert.deepEqual([jumped.kind, jumped.moving], [null, 'rising'])
  assert.deepEqual([classify([100, 130, 160, 190]).kind, classify([100, 130, 160, 190]).moving], [null, 'rising'])
  assert.equal(classify([3.16, 3.08, 2.80, 2.50]).moving, 'falling')
  // one way by less than 10%, or not one way: too short, and not moving (flat until 2026-12-04)
  assert.deepEqual([classify([100, 101, 103, 105]).kind, classify([100, 101, 103, 105]).moving], [null, null])
  assert.deepEqual([classify([100, 112, 98, 111]).kind, classify([100, 112, 98, 111]).moving], [null, null])
  // two warm-up runs, then two timed runs a step away that agree: bun in a noisy http run
  // (h-h8, keep-alive, process 2, its ratio to c-epoll's), "no steady state" until 2026-12-04,
  // which left its cell unquoted; four runs cannot tell a step that held from one still moving
  const stepped = classify([1.953, 1.968, 1.852, 1.849])
  assert.deepEqual([stepped.kind, stepped.moving, stepped.steadyFrom], [null, null, null])
  const cell = cellSteadiness([{ kind: 'flat' }, { kind: stepped.kind, moving: stepped.moving }])
  assert.equal(cell.steady, true)
  // with a third timed run the same step is a warm-up whose steady state is the timed runs
  const third = classify([1.953, 1.968, 1.852, 1.849, 1.86])
  assert.deepEqual([third.kind, third.steadyFrom], ['warm-up', 2])
})

test('trendTest: Kendall\'s S with its exact two-sided p; theilSenSlope: the runs\' slope', () => {
  const { trendTest, theilSenSlope } = require('../../lib/stats')
  const byPlace = values => values.map((value, i) => [i, value])
  // every order of 5 alike likely: rising every time is 1 of 120, either way 2 of 120
  assert.deepEqual(trendTest([1, 2, 3, 4, 5]), { s: 10, p: 2 / 120 })
  assert.equal(theilSenSlope(byPlace([1, 2, 3, 4, 5])), 1)
  // 7 values with 3 inversions or fewer: 1 + 6 + 20 + 49 of 5,040 orders, each way
  const { s, p } = trendTest([56.9, 35.1, 42.9, 55.1, 58.3, 61.5, 68.0])
  assert.equal(s, 15)
  assert.ok(Math.abs(p - 2 * 76 / 5040) < 1e-12, p)
  assert.equal(trendTest([3, 1, 2]).p, 1)
  // one wild value does not move the slope
  assert.equal(theilSenSlope(byPlace([10, 11, 12, 1000, 14, 15])), 1)
})

test('cellSteadiness: steady only when every classified process reached a steady state, unknown with none classified', () => {
  const of = (...kinds) => cellSteadiness(kinds.map(kind => ({ kind })))
  assert.deepEqual(of('flat', 'warm-up', null).counts, { flat: 1, 'warm-up': 1, slowdown: 0, 'no steady state': 0 })
  assert.equal(of('flat', 'warm-up', null).steady, true)
  assert.equal(of('flat', 'no steady state').steady, false)
  assert.equal(of(null).steady, null)
  // an unclassified process that moved as a drift would keeps its cell from being quoted
  const withMoving = cellSteadiness([{ kind: 'flat' }, { kind: null, moving: 'rising' }])
  assert.deepEqual([withMoving.steady, withMoving.moving, unsteadyReason(withMoving)], [false, 1, 'too short to classify'])
  assert.equal(cellSteadiness([{ kind: null, moving: 'falling' }]).steady, false)
  assert.equal(unsteadyReason(of('flat', 'no steady state')), 'no steady state')
  assert.equal(unsteadyCell(withMoving, []), true)
  // no process long enough to classify, and a warm-up that never settled: unsteady, and the
  // answer leaves the cell out saying why, as the tables mark it
  const unclassified = cellSteadiness([{ kind: null, moving: null }, { kind: null, moving: null }])
  assert.equal(unclassified.steady, null)
  assert.equal(unsteadyCell(unclassified, [{ warmupAgreed: true }, { warmupAgreed: false }]), true)
  assert.equal(unsteadyCell(unclassified, [{ warmupAgreed: true }, { warmupAgreed: null }]), false)
  const cell = { requestsPerSecond: 1000, steadiness: unclassified }
  assert.equal(unquotedReason({ ...cell, unsteady: true }), 'warm-up never settled')
  assert.equal(unquotedReason({ ...cell, unsteady: false }), null)
  assert.equal(unquotedReason({ ...cell, requestsPerSecond: null, unsteady: true }), 'failed')
})

test('the findings count a process too short to classify apart, never as flat', () => {
  const { steadinessFindings } = require('../../lib/report/steady')
  const cells = [{
    server: 'bun',
    processClasses: [
      { process: 0, kind: 'flat', sequence: [100, 101, 99, 100, 100, 101] },
      { process: 1, kind: null, sequence: [100, 101, 99] }
    ]
  }]
  const [line] = steadinessFindings(cells, cell => cell.server)
  assert.ok(line.startsWith('Of 2 server processes, 1 ran flat, 0 warmed up, 0 slowed down and 0 reached no ' +
    'steady state, and 1 was too short to classify (under 5 values, or 5 whose 4 runs after the first ' +
    'moved one way by more than 10%, too few to test). They are Barrett et al.'), line)
  // one bracket at a time: the source is a sentence of its own
  assert.doesNotMatch(line, /\) \(/)
  // only unclassified processes: still said
  const unclassified = [{ server: 'bun', processClasses: [cells[0].processClasses[1]] }]
  const [only] = steadinessFindings(unclassified, cell => cell.server)
  assert.match(only, /^Of 1 server process, 0 ran flat, .* and 1 was too short to classify/)
  // one that moved as a drift would: its cell not quoted, its sequence printed, and why
  const moved = [{
    server: 'c-epoll',
    steadiness: { steady: false },
    processClasses: [{ process: 1, kind: null, moving: 'rising', sequence: [34.1, 32.7, 34.9, 46] }]
  }]
  const lines = steadinessFindings(moved, cell => cell.server)
  assert.match(lines[1], /^Not quoted as one number: 1 cell, whose server process reached no steady state or moved one way in runs too few to tell/)
  assert.match(lines[1], /c-epoll process 2: 34\.1, 32\.7, 34\.9, 46 µs, rising, too short to classify/)
})

test('the findings count the runs left out before a steady state in words that agree', () => {
  const { steadinessFindings } = require('../../lib/report/steady')
  const warmed = beforeSteady => [{
    server: 'bun',
    beforeSteady,
    processClasses: [{ process: 0, kind: 'warm-up', sequence: [130, 101, 99, 100, 100, 101] }]
  }]
  const [one, three, none] = [1, 3, 0].map(count => steadinessFindings(warmed(count), cell => cell.server)[0])
  assert.match(one, /; 1 run from before a process's steady state is left out/)
  assert.match(three, /; 3 runs from before a process's steady state are left out/)
  assert.match(none, /its runs at the most connections\.$/)
})

test('the findings print each unsteady sequence in its own unit: µs, or a ratio to the reference', () => {
  const { steadinessFindings } = require('../../lib/report/steady')
  const unsteady = (process, sequence, basis) => ({ process, kind: 'no steady state', sequence, basis })
  const cells = [
    { server: 'c', processClasses: [unsteady(0, [4.1, 3.9, 2.6, 3.0], 'own')] },
    { server: 'bun', processClasses: [unsteady(0, [1.68, 1.66, 1.58, 1.58], 'ratio')] }
  ]
  const [head, sequences] = steadinessFindings(cells, cell => cell.server, { reference: 'c\'s' })
  assert.match(head, /CPU per request, as a ratio to c's beside it where every one was taken in turns with it,/)
  assert.match(sequences, /c process 1: 4\.1, 3\.9, 2\.6, 3 µs and /)
  assert.match(sequences, / and bun process 1: 1\.68, 1\.66, 1\.58, 1\.58 × c's\)\.$/)
  // a drift is said with the sequence
  const drifting = [{
    server: 'deno',
    processClasses: [{
      ...unsteady(0, [34, 29.7, 35.9, 39.2, 47.2, 52.6, 58.4], 'own'),
      trend: { direction: 'rising', share: 0.51, runs: 7, p: 0.03 }
    }]
  }]
  const [, driftLine] = steadinessFindings(drifting, cell => cell.server)
  assert.match(driftLine, /58\.4 µs, still rising \(51% over its last 7 runs\)\)\.$/)
  // no ratios (the db experiment): the unit alone, and no word of a reference
  const [own, ownSequences] = steadinessFindings(cells.slice(0, 1), cell => cell.server)
  assert.doesNotMatch(own, /ratio/)
  assert.match(ownSequences, /c process 1: 4\.1, 3\.9, 2\.6, 3 µs\)\.$/)
})
