'use strict'
// bench.js and its modules, in this process: statistics against hand-computed numbers,
// parsers against real captured output, results from a run log made by hand, the plan,
// a run cut short and resumed, and a corrupt run log, which bench refuses to resume.
const { test, describe } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')

const { summarise, median, twoSizeFit, rankTest, ratioInterval, pairedRatioInterval, medianInterval, MEDIAN_INTERVAL_MIN } = require('../../lib/stats')
const { parseStraceSummary } = require('../../lib/strace')
const { parseGcTrace, summariseGc } = require('../../lib/gctrace')
const { summariseResults, summariseGcResults } = require('../../experiments/stdio/summary')
const { parseOptions, plan } = require('../../bench')
const { close, readRuns: readLog, readJson, tempFolders, FIXTURES } = require('../helpers')
const { fakeStep, runBench } = require('../fake-step')
const { BUSY_STEPS } = require('../../lib/measure-steps')
const { MAX_REMEASURES } = require('../../lib/foreign')

const fixture = name => fs.readFileSync(path.join(FIXTURES, name), 'utf8')
const tempDir = tempFolders('syscall-lab-bench-')

describe('statistics', () => {
  test('an even sample, computed by hand', () => {
    const stats = summarise([4, 1, 3, 2])
    assert.equal(stats.n, 4)
    assert.equal(stats.min, 1)
    assert.equal(stats.max, 4)
    assert.equal(stats.median, 2.5)
    assert.equal(stats.mean, 2.5)
    // squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5, over n - 1 = 3
    close(stats.stdev, Math.sqrt(5 / 3))
    close(stats.cv, Math.sqrt(5 / 3) / 2.5)
  })

  test('an odd sample and a single value', () => {
    assert.equal(median([10, 30, 20]), 20)
    const one = summarise([7])
    assert.equal(one.stdev, 0)
    assert.equal(one.cv, 0)
    assert.equal(one.median, 7)
    assert.throws(() => summarise([]), /no values/)
  })

  test('two sizes: the cost per unit between the medians, plus or minus both half-ranges', () => {
    // medians 100 and 40 over 20 units: 3 a unit; half-ranges (110 - 90) / 2 = 10 and (44 - 40) / 2 = 2
    const fit = twoSizeFit({ large: [90, 100, 110], small: [40, 44, 40], unitsBetween: 20 })
    assert.equal(fit.perUnit, 3)
    assert.equal(fit.plusMinus, 12 / 20)
    assert.throws(() => twoSizeFit({ large: [1], small: [], unitsBetween: 1 }), /no runs/)
  })

  test('rank test (Mann-Whitney, two-sided, normal approximation), computed by hand', () => {
    // [1,2,3,4] against [5,6,7,8]: rank sum 10, U = 10 - 4·5/2 = 0; mean 8, sigma = sqrt(16·9/12) = sqrt(12);
    // z = (8 - 0.5) / sqrt(12) = 2.1651, p = 2 (1 - Phi(z)) = 0.030383
    const apart = rankTest([4, 1, 3, 2], [5, 6, 7, 8])
    assert.equal(apart.u, 0)
    assert.ok(Math.abs(apart.p - 0.030383) < 1e-5, apart.p)
    // [1,2,2,3] against [2,3,4,5]: ranks 1, 3, 3, 5.5 (three 2s share 2-4, two 3s 5-6): sum 12.5, U = 2.5;
    // ties 3 and 2: sigma = sqrt(16/12 · (9 - (24 + 6) / 56)) = 3.35942; z = (5.5 - 0.5) / sigma = 1.48835, p = 0.136658
    const tied = rankTest([1, 2, 2, 3], [2, 3, 4, 5])
    assert.equal(tied.u, 2.5)
    assert.ok(Math.abs(tied.p - 0.136658) < 1e-5, tied.p)
    assert.deepEqual(rankTest([5, 5, 5, 5], [5, 5, 5, 5]), { u: 8, p: 1 })
    assert.equal(rankTest([1, 2, 3], [4, 5, 6, 7]), null, 'three runs can never reach p < 0.05')
  })

  test('ratio interval (Hodges-Lehmann, inverting the rank test), computed by hand', () => {
    // 6 against 6: 36 ratios, sigma = sqrt(36·13/12) = 6.245; 18 - 0.5 - 1.96·6.245 = 5.26, so
    // k = 6: the 6th lowest and 6th highest ratio, as the exact table's U = 5 for 6 and 6 at 5%.
    // [2..7] over [1,1,1,1,1,2]: each of 2..7 five times and 1, 1.5, 2, 2.5, 3, 3.5 once;
    // sorted, 1, 1.5, then six 2s (the 6th ratio is 2), 2.5, six 3s, 3.5, five each of 4..7
    // (the 31st is 6); the 18th and 19th are both 4.
    const { level: sixLevel, ...six } = ratioInterval([2, 3, 4, 5, 6, 7], [1, 1, 1, 1, 1, 2])
    assert.deepEqual(six, { estimate: 4, low: 2, high: 6 })
    // its true level: P(U <= 5) is 19 of the 924 orders of 6 against 6
    assert.ok(Math.abs(sixLevel - (1 - 2 * 19 / 924)) < 1e-12, `6 against 6: ${sixLevel}`)
    // 11 against 11: k = floor(60.5 - 0.5 - 1.96·sqrt(121·23/12)) + 1 = 31, the exact table's U = 30 plus one.
    // 1..11 over eleven 1s: each value eleven times, so the 31st is 3, the 91st 9, the 61st 6.
    const ones = Array(11).fill(1)
    const { level: elevenLevel, ...eleven } = ratioInterval([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], ones)
    assert.deepEqual(eleven, { estimate: 6, low: 3, high: 9 })
    assert.ok(Math.abs(elevenLevel - 0.9527) < 1e-4, `11 against 11, the table's P(U <= 30) = 0.0237: ${elevenLevel}`)
    // 4 against 4: k = 1, the whole range, which (without ties, which rankTest corrects for
    // and the interval does not) excludes 1 exactly when rankTest rejects
    assert.deepEqual(ratioInterval([2, 4, 6, 8], [1, 2, 3, 4]), { estimate: 2, low: 0.5, high: 8, level: 1 - 2 / 70 })
    assert.equal(ratioInterval([1, 2, 3], [4, 5, 6, 7]), null)
  })

  test('a proportion\'s interval: Wilson\'s score interval at 95%, inside [0, 1] at its ends', () => {
    const { proportionInterval } = require('../../lib/stats')
    const rounded = interval =>
      Object.fromEntries(Object.entries(interval).map(([key, x]) => [key, Math.round(x * 1e4) / 1e4]))
    // 40 of 100, by hand: centre (0.4 + 1.96²/200) / (1 + 1.96²/100) = 0.4037, half-width
    // 1.96 / 1.0384 · sqrt(0.0024 + 1.96²/40000) = 0.0943
    assert.deepEqual(rounded(proportionInterval(40, 100)), { estimate: 0.4, low: 0.3094, high: 0.498, level: 0.95 })
    // none of 10 and all of 10: the bound at the end stays there, the other is Wilson's 0.2775
    assert.deepEqual(rounded(proportionInterval(0, 10)), { estimate: 0, low: 0, high: 0.2775, level: 0.95 })
    assert.deepEqual(rounded(proportionInterval(10, 10)), { estimate: 1, low: 0.7225, high: 1, level: 0.95 })
    assert.equal(proportionInterval(0, 0), null)
  })

  test('median interval (inverting the sign test), computed by hand against the exact binomial table', () => {
    // n = 20: k = floor(10 - 0.5 - 1.96·sqrt(20)/2) + 1 = floor(5.12) + 1 = 6, the table's
    // [x(6), x(15)] (P(X <= 5) = 0.021 for X ~ Bin(20, 1/2)); given unsorted
    const twenty = [13, 2, 20, 7, 1, 18, 9, 4, 16, 11, 6, 15, 3, 19, 10, 5, 17, 8, 14, 12]
    const { level: twentyLevel, ...twentyInterval } = medianInterval(twenty)
    assert.deepEqual(twentyInterval, { estimate: 10.5, low: 6, high: 15 })
    // its true level: 1 - 2 P(X <= 5), (1 + 20 + 190 + 1140 + 4845 + 15504) of 2^20 each side
    assert.ok(Math.abs(twentyLevel - (1 - 2 * 21700 / 2 ** 20)) < 1e-12, `20 values: ${twentyLevel}`)
    // n = 100: k = floor(50 - 0.5 - 9.8) + 1 = 40, the table's [x(40), x(61)]
    const hundred = Array.from({ length: 100 }, (_, i) => (i + 1) / 100)
    const { level: hundredLevel, ...hundredInterval } = medianInterval(hundred)
    assert.deepEqual(hundredInterval, { estimate: 0.505, low: 0.4, high: 0.61 })
    assert.ok(Math.abs(hundredLevel - 0.9648) < 1e-4, `100 values, the table's P(X <= 39) = 0.0176: ${hundredLevel}`)
    // n = 6: k = 1, the whole range (P(X = 0) = 1/64 <= 0.025); n = 5 has no 95% interval
    // (1/32 > 0.025)
    assert.deepEqual(medianInterval([3, 1, 2, 6, 5, 4]), { estimate: 3.5, low: 1, high: 6, level: 1 - 2 / 64 })
    assert.equal(medianInterval([1, 2, 3, 4, 5]), null)
    assert.equal(MEDIAN_INTERVAL_MIN, 6)
    // paired: the ratios' median and the same interval from 6 pairs; the range at its true
    // level from 4 or 5; nothing from 3
    assert.deepEqual(pairedRatioInterval([6, 2, 4, 12, 10, 8], [2, 2, 2, 2, 2, 2]), { estimate: 3.5, low: 1, high: 6, level: 1 - 2 / 64 })
    assert.deepEqual(pairedRatioInterval([2, 4, 6, 10, 6], [2, 2, 2, 2, 2]), { estimate: 3, low: 1, high: 5, level: 1 - 2 / 32 })
    assert.equal(pairedRatioInterval([1, 2, 3], [1, 1, 1]), null)
  })
})

describe('strace -c parser, on captured output', () => {
  test('an error row (C reading a directory): read 2 calls, 1 error', () => {
    const summary = parseStraceSummary(fixture('strace/c-directory-error.txt'))
    assert.equal(summary.totalCalls, 34)
    assert.equal(summary.totalErrors, 2)
    assert.deepEqual(summary.syscalls.find(row => row.name === 'read'), { name: 'read', calls: 2, errors: 1, seconds: 0, usecsPerCall: 0, percentTime: 0 })
    assert.equal(summary.threadsStarted, 0)
  })

  test('Node followed into its threads (-f): clone3 6 times, futex waits counted', () => {
    const summary = parseStraceSummary(fixture('strace/node-stream-all-threads.txt'))
    assert.equal(summary.totalCalls, 819)
    assert.equal(summary.totalErrors, 30)
    assert.equal(summary.threadsStarted, 6)
    assert.equal(summary.reads, 146)
    assert.deepEqual(summary.syscalls.find(row => row.name === 'futex'), { name: 'futex', calls: 56, errors: 5, seconds: 0.080035, usecsPerCall: 1429, percentTime: 74.23 })
    assert.equal(summary.syscalls[0].name, 'read', 'rows are sorted by calls')
    close(summary.totalSeconds, 0.107827)
  })

  test('Node main thread only sees fewer calls than all threads', () => {
    const main = parseStraceSummary(fixture('strace/node-stream-main-thread.txt'))
    assert.equal(main.totalCalls, 736)
    assert.equal(main.reads, 145)
    assert.ok(main.totalCalls < parseStraceSummary(fixture('strace/node-stream-all-threads.txt')).totalCalls)
  })

  test('Deno with -f: 5 threads started', () => {
    const summary = parseStraceSummary(fixture('strace/deno-ffi-all-threads.txt'))
    assert.equal(summary.totalCalls, 1998)
    assert.equal(summary.threadsStarted, 5)
    assert.equal(summary.reads, 1094)
  })

  test('text that is not a summary is refused', () => {
    assert.throws(() => parseStraceSummary('strace: ptrace(PTRACE_TRACEME, ...): Operation not permitted\n'), /no "total" row/)
  })
})

describe('V8 --trace-gc parser, on captured traces', () => {
  test('Node 20: scavenges with their heap sizes and pauses', () => {
    const events = parseGcTrace(fixture('gc/node-stream.log'))
    assert.equal(events.length, 8)
    assert.deepEqual(events[0], {
      atMs: 58,
      kind: 'Scavenge',
      generation: 'young',
      heapBeforeMB: 4.1,
      committedBeforeMB: 4.2,
      heapAfterMB: 3.3,
      committedAfterMB: 5.2,
      pauseMs: 0.56,
      stepsMs: 0,
      biggestStepMs: 0,
      markingWallMs: 0,
      reason: 'task'
    })
    assert.equal(events[1].reason, 'allocation failure')
  })

  test('Deno (V8 15): "pooled:" and incremental mark-compact', () => {
    const events = parseGcTrace(fixture('gc/deno-alloc.log'))
    assert.equal(events.length, 13)
    const major = events.find(event => event.generation === 'old')
    assert.equal(major.kind, 'Incremental Mark-Compact')
    assert.equal(major.heapBeforeMB, 29.1)
    assert.equal(major.heapAfterMB, 13.0)
    assert.equal(major.pauseMs, 3.91)
    // its marking's steps on the main thread before that final pause: "(+ 3.0 ms in 87 steps …"
    assert.equal(major.stepsMs, 3.0)
    assert.equal(major.biggestStepMs, 0.2)
    // "walltime since start of marking 13 ms": it began 13 ms before its final pause, at 67 ms
    assert.deepEqual([major.atMs, major.markingWallMs], [80, 13])
    assert.equal(major.reason, 'finalize incremental marking via stack guard; GC in old space requested')
  })

  // A review: a window's collections counted the steps of a marking begun before it, in the
  // runs or the pause before
  test('a marking begun before a window: its steps in the share of its wall time inside it', () => {
    const { collectionsAfter } = require('../../lib/gctrace')
    const events = parseGcTrace(fixture('gc/deno-alloc.log'))
    const major = events.find(event => event.stepsMs > 0)
    // the window began at 70 ms: 10 of the marking's 13 ms inside, its biggest step not placed
    const cut = collectionsAfter(events, 70)
    const after = cut.events[events.indexOf(major)]
    close(after.stepsMs, 3.0 * 10 / 13)
    assert.deepEqual([after.biggestStepMs, after.pauseMs], [0, major.pauseMs])
    assert.equal(cut.markingsBegunBefore, 1)
    close(cut.stepsLeftOutMs, 3.0 * 3 / 13)
    // the others, scavenges without steps, as they were
    assert.deepEqual(cut.events.filter(event => event !== after), events.filter(event => event !== major))
    // a window that began before the marking keeps it whole; one after its final pause, none of it
    assert.deepEqual(collectionsAfter(events, 60), { events, markingsBegunBefore: 0, stepsLeftOutMs: 0 })
    close(collectionsAfter(events, 90).events[events.indexOf(major)].stepsMs, 0)
    // JavaScriptCore's cycles carry no stamps: as they were
    const jsc = [{ atMs: null, kind: 'Eden collection', pauseMs: 2, longestPauseMs: 1 }]
    assert.deepEqual(collectionsAfter(jsc, 1e9).events, jsc)
  })

  test('the lab host (V8 10.2): mark-sweep, and a summary by kind', () => {
    const events = parseGcTrace(fixture('gc/just-host-alloc.log'))
    assert.equal(events.length, 20)
    const summary = summariseGc(events)
    assert.equal(summary.collections, 20)
    assert.equal(summary.byKind['Mark-sweep'].count, 1)
    assert.equal(summary.byKind['Mark-sweep'].maxPauseMs, 3.9)
    assert.equal(summary.byKind.Scavenge.count, 19)
    const pauses = events.map(event => event.pauseMs)
    // the total holds the mark-sweep's 1.9 ms of incremental steps; the longest is a final pause
    close(summary.totalPauseMs, pauses.reduce((a, b) => a + b, 0) + 1.9)
    close(summary.stepsMs, 1.9)
    close(summary.byKind['Mark-sweep'].totalPauseMs, 3.9 + 1.9)
    assert.equal(summary.maxPauseMs, Math.max(...pauses))
    // a marking step longer than every final pause is the longest pause (a review, 2026-12-07)
    const longStep = events.map(event => event.stepsMs ? { ...event, biggestStepMs: 9.5 } : event)
    assert.equal(summariseGc(longStep).maxPauseMs, 9.5)
    assert.equal(summariseGc(longStep).byKind['Mark-sweep'].maxPauseMs, 9.5)
    assert.equal(summary.timeline.length, 20)
    assert.deepEqual(summary.timeline[0], [events[0].atMs, events[0].heapBeforeMB, events[0].heapAfterMB, events[0].pauseMs, events[0].generation])
    assert.deepEqual(new Set(summary.timeline.map(entry => entry[4])), new Set(events.map(event => event.generation)))
  })

  test('an older run\'s GC records, derived again, take each collection\'s pause and kind from the traces it kept', () => {
    const dir = path.join(FIXTURES, 'results', 'sample')
    const records = readLog(path.join(dir, 'all.jsonl'))
    const gcRecords = records.filter(record => record.phase === 'gc' && record.gc?.collections > 0)
    assert.ok(gcRecords.length > 0 && gcRecords.every(record => record.gc.timeline.every(entry => entry.length === 3)))
    const fuller = summariseGcResults(records, {}, dir).cells.filter(cell => cell.collections > 0)
    for (const cell of fuller) {
      const events = parseGcTrace(fs.readFileSync(path.join(dir, cell.traceFile), 'utf8'))
      assert.deepEqual(cell.timeline, events.map(event => [event.atMs, event.heapBeforeMB, event.heapAfterMB, event.pauseMs, event.generation]))
    }
    // without the run's folder, the records' own timelines
    assert.deepEqual(summariseGcResults(records, {}).cells.filter(cell => cell.collections > 0).map(cell => cell.timeline), gcRecords.map(record => record.gc.timeline))
  })

  test('lines that are not GC events are ignored', () => {
    assert.deepEqual(parseGcTrace('size 100 reads 1 blocksize 256\nrandom text\n'), [])
  })
})

describe('results from the run log, computed by hand', () => {
  const usage = { exit: 0, signal: 0, userUs: 1000, sysUs: 2000, maxRssKb: 5000, voluntaryCs: 10, involuntaryCs: 1 }
  const feeder = (cpuUs) => ({ ...usage, userUs: 0, sysUs: cpuUs })
  const run = (program, phase, wallNs, extra = {}) => ({
    phase,
    program,
    blockSize: 4096,
    run: 0,
    bytes: phase === 'startup' ? 0 : 1e9,
    feederBlockSize: 65536,
    ok: true,
    failure: null,
    command: 'x',
    wallNs,
    reader: usage,
    feeder: feeder(100),
    output: { size: 1e9, reads: 244141, blockSize: 4096 },
    ...extra
  })
  const records = [
    run('c', 'startup', 0.001e9), run('c', 'startup', 0.003e9),
    run('c', 'timing', 0.5e9), run('c', 'timing', 0.6e9),
    run('node-sync', 'startup', 0.1e9), run('node-sync', 'startup', 0.1e9), run('node-sync', 'startup', 0.1e9),
    run('node-sync', 'timing', 1.1e9), run('node-sync', 'timing', 1.3e9),
    run('node-sync', 'timing', 2e9, { ok: false, failure: 'reader counted 5 bytes, 1000000000 were sent' })
  ]
  const results = summariseResults(records, { runId: 'hand', options: { feeder: 'fixed', runs: 2 } })
  const cell = name => results.cells.find(c => c.program === name)

  test('best of N, throughput and steady state', () => {
    assert.equal(results.startup.c.medianNs, 0.002e9)
    assert.equal(cell('c').best.wallNs, 0.5e9)
    close(cell('c').best.throughputMBps, 2000) // 1e9 bytes = 1000 MB in 0.5 s
    close(cell('c').best.steadyThroughputMBps, 1000 / 0.498)
    close(cell('node-sync').best.steadyThroughputMBps, 1000) // 1000 MB in 1.1 - 0.1 s
  })

  test('cost per read and overhead over C', () => {
    close(cell('c').costPerReadNs, (0.5e9 - 0.002e9) / 244141, 6)
    close(cell('node-sync').costPerReadNs, 1e9 / 244141, 6)
    close(cell('node-sync').vsC.costPerReadOverheadNs, (1e9 - 0.498e9) / 244141, 6)
    close(cell('node-sync').vsC.steadyThroughput, 1000 / (1000 / 0.498))
  })

  test('the reader\'s own CPU per read: median over runs, start-up\'s median CPU taken off', () => {
    const reader = cpuUs => ({ ...usage, userUs: cpuUs - 1000, sysUs: 1000 })
    const log = [
      run('c', 'startup', 0.002e9, { reader: reader(1000) }), run('c', 'startup', 0.002e9, { reader: reader(3000) }),
      run('c', 'timing', 0.5e9, { reader: reader(100000) }), run('c', 'timing', 0.5e9, { reader: reader(90000) }), run('c', 'timing', 0.5e9, { reader: reader(200000) }),
      run('node-sync', 'startup', 0.1e9, { reader: reader(50000) }),
      run('node-sync', 'timing', 1e9, { reader: reader(150000) })
    ]
    const byHand = summariseResults(log, { runId: 'cpu', options: { feeder: 'fixed', runs: 3 } }).cells
    // c: start-up CPU median 2000 µs; runs (100000, 90000, 200000) - 2000 = 98000, 88000, 198000 µs; median 98000 µs / 244141 reads
    close(byHand[0].cpuPerReadNs, 98000e3 / 244141, 6)
    // node-sync: (150000 - 50000) µs / 244141 reads, 100000e3 / 244141 - 98000e3 / 244141 over C
    close(byHand[1].cpuPerReadNs, 100000e3 / 244141, 6)
    close(byHand[1].vsC.cpuPerReadOverheadNs, 2000e3 / 244141, 6)
  })

  test('a failed run is excluded from the statistics and listed', () => {
    assert.equal(cell('node-sync').runs, 2)
    assert.equal(cell('node-sync').failedRuns, 1)
    assert.equal(cell('node-sync').wallNs.max, 1.3e9)
    assert.ok(cell('node-sync').flags.includes('some-runs-failed'))
    assert.deepEqual(results.failures.map(f => [f.program, f.reason]), [['node-sync', 'reader counted 5 bytes, 1000000000 were sent']])
  })

  test('marginal throughput (--marginal): the bytes between a quarter run and a full run over the time between', () => {
    const reader = cpuUs => ({ ...usage, userUs: cpuUs / 2, sysUs: cpuUs / 2 })
    const quarter = (program, wallNs, cpuUs, extra = {}) => run(program, 'timing-quarter', wallNs, { bytes: 0.25e9, output: { size: 0.25e9, reads: 61036, blockSize: 4096 }, reader: reader(cpuUs), ...extra })
    const log = [
      run('c', 'startup', 0.002e9), run('node-sync', 'startup', 0.1e9),
      run('c', 'timing', 0.5e9, { reader: reader(480000) }), run('c', 'timing', 0.7e9, { reader: reader(500000) }),
      quarter('c', 0.15e9, 130000), quarter('c', 0.17e9, 150000),
      run('node-sync', 'timing', 1.2e9, { reader: reader(1100000) }),
      quarter('node-sync', 0.45e9, 400000),
      quarter('node-sync', 0.55e9, 400000, { ok: false, failure: 'reader counted 1 bytes, 250000000 were sent' })
    ]
    const results = summariseResults(log, { runId: 'marginal', options: { feeder: 'fixed', runs: 2 } })
    const [c, node] = results.cells
    // c: medians 0.6 s and 0.16 s; 750 MB in 0.44 s; 244141 - 61036 = 183105 reads between
    close(c.marginal.wallNsBetween, 0.44e9, 3)
    close(c.marginal.throughputMBps, 750 / 0.44)
    close(c.marginal.perReadNs, 0.44e9 / 183105, 6)
    close(c.marginal.cpuPerReadNs, (490000 - 140000) * 1000 / 183105, 6)
    // half-ranges 0.1 s and 0.01 s over the 0.44 s between
    close(c.marginal.plusMinusShare, 0.11 / 0.44)
    assert.equal(c.marginal.quarterBytes, 0.25e9)
    // node-sync: the failed quarter run is left out (and listed); 750 MB in 0.75 s
    assert.equal(node.marginal.quarterRuns, 1)
    close(node.marginal.throughputMBps, 1000)
    close(node.vsC.marginalThroughput, 1000 / (750 / 0.44))
    close(node.vsC.marginalPerReadOverheadNs, (0.75e9 - 0.44e9) / 183105, 6)
    close(node.vsC.marginalCpuPerReadOverheadNs, ((700000 - 350000) * 1000) / 183105, 6)
    assert.deepEqual(results.failures.map(failure => failure.phase), ['timing-quarter'])
    // without quarter runs there is no marginal figure; with quarter runs as slow as the full ones, no throughput
    assert.equal(summariseResults(log.filter(record => record.phase !== 'timing-quarter'), { runId: 'none', options: { feeder: 'fixed', runs: 2 } }).cells[0].marginal, undefined)
    const swamped = summariseResults([run('c', 'timing', 0.5e9), quarter('c', 0.6e9, 1000)], { runId: 'swamped', options: { feeder: 'fixed', runs: 1 } }).cells[0]
    assert.equal(swamped.marginal.throughputMBps, null)
    assert.equal(swamped.marginal.perReadNs, null)
  })

  test('rank test against C: p and within-noise from the steady-state runs, 4 runs a side or none', () => {
    const timings = (program, walls) => walls.map(wallNs => run(program, 'timing', wallNs))
    const log = [run('c', 'startup', 0.002e9), run('a', 'startup', 0.002e9), run('b', 'startup', 0.002e9), run('d', 'startup', 0.002e9),
      ...timings('c', [0.50e9, 0.52e9, 0.54e9, 0.56e9]),
      ...timings('a', [0.60e9, 0.62e9, 0.64e9, 0.66e9]), // every run slower than every one of C's
      ...timings('b', [0.51e9, 0.53e9, 0.55e9, 0.57e9]), // interleaved with C's
      ...timings('d', [0.40e9, 0.70e9, 0.71e9])]
    const cells = summariseResults(log, { runId: 'rank', options: { feeder: 'fixed', runs: 4 } }).cells
    const vs = name => cells.find(cell => cell.program === name).vsC
    assert.ok(Math.abs(vs('a').steadyRankTestP - 0.030383) < 1e-5)
    assert.equal(vs('a').steadyWithinNoise, false)
    // by throughput (start-up alike), b's runs rank 1, 3, 5, 7 against C's 2, 4, 6, 8: U = 16 - 10 = 6, |6 - 8| - 0.5 = 1.5 over sqrt(12)
    assert.ok(Math.abs(vs('b').steadyRankTestP - 0.665006) < 1e-5, vs('b').steadyRankTestP)
    assert.equal(vs('b').steadyWithinNoise, true)
    // b's steady speed over C's: (c - 0.002 s) / (b - 0.002 s) for all 16 pairs; with 4 a side the
    // interval is the lowest and highest, the estimate the mean of the 8th and 9th
    close(vs('b').steadyShare.low, 0.498 / 0.568, 9)
    close(vs('b').steadyShare.high, 0.558 / 0.508, 9)
    close(vs('b').steadyShare.estimate, (0.518 / 0.528 + 0.538 / 0.548) / 2, 9)
    assert.ok(vs('a').steadyShare.high < 1, 'a, told apart from C, has an interval below 1')
    assert.equal(vs('d').steadyRankTestP, undefined, 'three runs: no test')
    assert.equal(vs('d').steadyShare, undefined, 'three runs: no interval')
    assert.equal(vs('c').steadyRankTestP, undefined, 'C is not tested against itself')
  })

  test('marginal: failed quarter runs flag the cell; one run a size has no plus-or-minus; few quarter reads are marked', () => {
    const quarter = (wallNs, extra = {}) => run('c', 'timing-quarter', wallNs, { bytes: 0.25e9, output: { size: 0.25e9, reads: 61036, blockSize: 4096 }, ...extra })
    const failedQuarter = quarter(0.2e9, { ok: false, failure: 'reader exited 1: no message' })
    const cell = summariseResults([run('c', 'timing', 0.5e9), quarter(0.2e9), failedQuarter], { runId: 'q', options: { feeder: 'fixed', runs: 1 } }).cells[0]
    assert.equal(cell.failedQuarterRuns, 1)
    assert.ok(cell.flags.includes('some-runs-failed'))
    assert.equal(cell.marginal.plusMinusShare, null)
    close(cell.marginal.throughputMBps, 750 / 0.3)
    assert.equal(cell.marginal.quarterReads, 61036)
    assert.equal(cell.marginal.fewReads, false, '61036 reads are past the JIT\'s warm-up')
    const few = summariseResults([run('c', 'timing', 0.5e9), quarter(0.2e9, { output: { size: 0.25e9, reads: 32767, blockSize: 4096 } })], { runId: 'few', options: { feeder: 'fixed', runs: 1 } }).cells[0]
    assert.equal(few.marginal.fewReads, true)
  })

  test('flags: noisy spread and a feeder that used the whole wall time', () => {
    const noisy = summariseResults([
      run('c', 'timing', 1e9), run('c', 'timing', 2e9, { feeder: feeder(1.9e6) })
    ], { runId: 'flags', options: { feeder: 'matched', runs: 2 } }).cells[0]
    assert.ok(noisy.flags.includes('noisy'), 'cv 0.47 is above 0.10')
    // feeder CPU share: median of 0.1 ms / 1 s and 1.9 s / 2 s = (0.0001 + 0.95) / 2 < 0.9
    assert.ok(!noisy.flags.includes('feeder-bound'))
    const bound = summariseResults([run('c', 'timing', 1e9, { feeder: feeder(0.95e6) })], { runId: 'f', options: { feeder: 'matched', runs: 1 } }).cells[0]
    assert.ok(bound.flags.includes('feeder-bound'))
  })

  test('flags: with --feeder file there is no dd, so neither feeder-bound nor reader-waited', () => {
    const reader = { ...usage, userUs: 0, sysUs: 0.5e6 }
    const cell = summariseResults([run('c', 'timing', 1e9, { reader, feeder: feeder(0.95e6) })], { runId: 'file', options: { feeder: 'file', runs: 1 } }).cells[0]
    close(cell.readerCpuShare, 0.5)
    assert.ok(!cell.flags.includes('reader-waited') && !cell.flags.includes('feeder-bound'), cell.flags.join())
  })

  test('flags: a reader off the CPU for a fifth of the run waited on the pipe', () => {
    const reader = cpuUs => ({ ...usage, userUs: cpuUs / 4, sysUs: cpuUs * 3 / 4 })
    const shares = [0.79e6, 0.81e6, 0.95e6].map(cpuUs => summariseResults([run('c', 'timing', 1e9, { reader: reader(cpuUs) })],
      { runId: 'w', options: { feeder: 'fixed', runs: 1 } }).cells[0])
    close(shares[0].readerCpuShare, 0.79)
    assert.deepEqual(shares.map(cell => cell.flags.includes('reader-waited')), [true, false, false])
    // the median run decides: 0.5 s of CPU in 1 s, 0.9 s in 1 s and 1.7 s in 2 s give 0.5, 0.9, 0.85
    const median = summariseResults([
      run('c', 'timing', 1e9, { reader: reader(0.5e6) }), run('c', 'timing', 1e9, { reader: reader(0.9e6) }), run('c', 'timing', 2e9, { reader: reader(1.7e6) })
    ], { runId: 'm', options: { feeder: 'fixed', runs: 3 } }).cells[0]
    close(median.readerCpuShare, 0.85)
    assert.ok(!median.flags.includes('reader-waited'))
  })
})

describe('the plan', () => {
  const programs = [{ name: 'a', runtime: 'native' }, { name: 'b', runtime: 'node' }]
  const options = { ...parseOptions(['--sizes', '256,4096', '--runs', '2', '--warmup', '1', '--mib', '1']), strace: false, gc: true }
  const steps = plan(options, { runnable: programs }, { ptrace: { available: false } })
  const describeStep = step => `${step.phase} ${step.program.name} ${step.blockSize} run ${step.run} warmup ${step.warmup}`

  test('start-up and timing go in rounds: every program once per round; each cell carries its warm-up count', () => {
    // bench warms a cell before the first of its runs it makes (run 0, or the first run left
    // on --resume); within a round the programs' order is shuffled (test/placement.test.js)
    const byRound = steps.filter(step => step.phase !== 'gc').map(describeStep)
    const rounds = [0, 4, 8].map(start => byRound.slice(start, start + 4))
    const inOrder = round => [...round].sort((x, y) => x.split(' ')[4] - y.split(' ')[4] || x.localeCompare(y))
    assert.deepEqual(rounds.map(round => inOrder(round.slice(0, 2)).concat(inOrder(round.slice(2)))), [
      ['startup a 4096 run 0 warmup 1', 'startup b 4096 run 0 warmup 1', 'startup a 4096 run 1 warmup 1', 'startup b 4096 run 1 warmup 1'],
      ['timing a 256 run 0 warmup 1', 'timing b 256 run 0 warmup 1', 'timing a 256 run 1 warmup 1', 'timing b 256 run 1 warmup 1'],
      ['timing a 4096 run 0 warmup 1', 'timing b 4096 run 0 warmup 1', 'timing a 4096 run 1 warmup 1', 'timing b 4096 run 1 warmup 1']
    ])
  })

  test('--marginal: a quarter run after each full run, in the same round, in whole dd blocks', () => {
    const marginal = plan({ ...options, marginal: true, gc: false }, { runnable: programs }, { ptrace: { available: false } })
    const at256 = marginal.filter(step => step.phase !== 'startup' && step.blockSize === 256).map(step => `${step.phase} ${step.program.name} ${step.bytes} ${step.group}`)
    // each full run and its quarter run together, the programs of a round in its own order
    const pairs = [0, 2, 4, 6].map(i => at256.slice(i, i + 2).join(' + '))
    assert.deepEqual([...pairs.slice(0, 2).sort(), ...pairs.slice(2).sort()], [
      'timing a 1048576 timing @ 256, run 1 of 2 + timing-quarter a 262144 timing @ 256, run 1 of 2',
      'timing b 1048576 timing @ 256, run 1 of 2 + timing-quarter b 262144 timing @ 256, run 1 of 2',
      'timing a 1048576 timing @ 256, run 2 of 2 + timing-quarter a 262144 timing @ 256, run 2 of 2',
      'timing b 1048576 timing @ 256, run 2 of 2 + timing-quarter b 262144 timing @ 256, run 2 of 2'
    ])
    // 1 MiB of 256 KiB dd blocks: a quarter is one block, too few to fit a line through; refused with the fix
    assert.throws(() => parseOptions(['--marginal', '--feeder', 'matched', '--sizes', '262144', '--mib', '1']), /--marginal at 262144 B needs at least 8 of dd's 262144-byte blocks per run: give a larger --mib/)
    assert.equal(plan({ ...parseOptions(['--marginal', '--feeder', 'file', '--sizes', '262144', '--mib', '1']), strace: false, gc: false }, { runnable: programs }, { ptrace: { available: false } })
      .find(step => step.phase === 'timing-quarter').bytes, 262144)
  })

  test('a round is one group; profiles are one run each, GC only for V8 programs', () => {
    assert.deepEqual([...new Set(steps.map(step => step.group))].slice(0, 3), ['startup @ 4096, run 1 of 2', 'startup @ 4096, run 2 of 2', 'timing @ 256, run 1 of 2'])
    assert.deepEqual(steps.filter(step => step.phase === 'gc').map(describeStep), ['gc b 256 run 0 warmup 0', 'gc b 4096 run 0 warmup 0'])
    // a profile is its program's own group, even when programs share a block size
    assert.deepEqual(steps.filter(step => step.phase === 'gc').map(step => step.group), ['gc b @ 256', 'gc b @ 4096'])
    const oneSize = plan({ ...options, sizes: [4096] }, { runnable: [{ name: 'a', runtime: 'node' }, { name: 'b', runtime: 'node' }] }, { ptrace: { available: false } })
    assert.deepEqual(oneSize.filter(step => step.phase === 'gc').map(step => step.group), ['gc a @ 4096', 'gc b @ 4096'])
  })
})

// The runs below are measured by the fake step (test/fake-step.js): what they check is
// bench's bookkeeping, which no reader's run adds to (test/e2e/bench.test.js stops a
// real bench with Ctrl-C).
describe('a run cut short, and --resume', () => {
  test('a stop keeps every finished run; --resume warms the cell again and measures the rest, and only that', async () => {
    const out = tempDir()
    const dir = path.join(out, 'stopped')
    const args = ['--only', 'c', '--sizes', '65536', '--runs', '3', '--warmup', '1', '--mib', '1', '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'stopped']
    const stopped = await runBench(args, { step: fakeStep({ stopAfter: 4 }) })
    assert.equal(stopped.status, 130, stopped.stderr + stopped.stdout)
    assert.match(stopped.stdout, new RegExp(`^resume with: node bench\\.js --resume \\S*${path.basename(dir)}$`, 'm'))
    const log = path.join(dir, 'all.jsonl')
    const kept = readLog(log)
    assert.deepEqual(kept.map(record => `${record.phase} ${record.run}`), ['startup 0', 'startup 1', 'startup 2', 'timing 0'], 'the run in flight is not logged')
    assert.ok(kept.every(record => record.ok))
    assert.equal(readJson(path.join(dir, 'results.json')).cells[0].runs, 1)

    const resume = fakeStep()
    const resumed = await runBench(['--resume', dir], { step: resume })
    assert.equal(resumed.status, 0, resumed.stderr + resumed.stdout)
    assert.match(resumed.stdout, /^resuming .*, 4 of 6 runs already done$/m)
    assert.deepEqual(resume.measured.map(run => `${run.phase} ${run.run}`), ['timing -1', 'timing 1', 'timing 2'])
    assert.deepEqual(readLog(log).map(record => `${record.phase} ${record.run}`), ['startup 0', 'startup 1', 'startup 2', 'timing 0', 'timing 1', 'timing 2'])
    assert.equal(readJson(path.join(dir, 'results.json')).cells[0].runs, 3)
    // the context it began with is kept, and the resume added to it
    const context = readJson(path.join(dir, 'context.json'))
    assert.deepEqual(context.lab.bench, args)
    assert.equal(context.resumedAt.length, 1)
    assert.deepEqual(context.resumedAt[0].lab.bench, ['--resume', dir])
    assert.deepEqual(context.resumedAt[0].runtimesChanged, [])
  })

  // Ctrl-C while bench asked perf and the eBPF tracer what they may do once left a context that
  // said perf could not sample here ("exit null"), kept by every resume after
  test('a stop while the machine is probed: exit 130, nothing written, a resumed run left as it was', async () => {
    const out = tempDir()
    const args = ['--only', 'c', '--sizes', '65536', '--runs', '3', '--warmup', '0', '--mib', '1',
      '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'probed']
    const early = await runBench(args, { step: { ...fakeStep(), interrupted: () => true } })
    assert.equal(early.status, 130, early.stderr + early.stdout)
    assert.match(early.stdout,
      /^interrupted before the first run, while it asked what the machine allows: nothing measured or written$/m)
    assert.doesNotMatch(early.stdout, /no (kernel|profile) pass/)
    assert.deepEqual(fs.readdirSync(out), [], 'no run folder left')

    const stopped = await runBench(args, { step: fakeStep({ stopAfter: 2 }) })
    assert.equal(stopped.status, 130, stopped.stderr + stopped.stdout)
    const dir = path.join(out, 'probed')
    const before = fs.readFileSync(path.join(dir, 'context.json'), 'utf8')
    const resumed = await runBench(['--resume', dir], { step: { ...fakeStep(), interrupted: () => true } })
    assert.equal(resumed.status, 130, resumed.stderr + resumed.stdout)
    assert.equal(fs.readFileSync(path.join(dir, 'context.json'), 'utf8'), before, 'the context as it was')
    assert.equal(readLog(path.join(dir, 'all.jsonl')).length, 2)
    assert.ok(!fs.existsSync(path.join(dir, 'bench.lock')), 'the lock let go')
  })

  // a run stopped after two of its steps, its context as `edit` leaves it, and a last line
  // cut short as a kill leaves it
  async function stoppedRun (id, edit) {
    const out = tempDir()
    const dir = path.join(out, id)
    const args = ['--only', 'c', '--sizes', '65536', '--runs', '3', '--warmup', '0', '--mib', '1',
      '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', id]
    const stopped = await runBench(args, { step: fakeStep({ stopAfter: 2 }) })
    assert.equal(stopped.status, 130, stopped.stderr + stopped.stdout)
    assert.match(stopped.stdout, /^writing \S+ on \S+-[0-9a-f]{8}( \(CPU family \d+ model \d+\))?: /m)
    const contextFile = path.join(dir, 'context.json')
    const context = readJson(contextFile)
    edit(context)
    fs.writeFileSync(contextFile, JSON.stringify(context))
    fs.appendFileSync(path.join(dir, 'all.jsonl'), '{"phase":"startup","program":"c","bl')
    return { dir, contextFile, context }
  }

  test('--resume on another machine is refused, and the run is left as it was', async () => {
    // as if the folder were carried to another VM: the one the run began on ran another kernel,
    // and (an older lab's context) did not record the CPU's family and model
    const { dir, contextFile, context } = await stoppedRun('moved', context => {
      context.machine.kernel = `${context.machine.kernel}-another`
      delete context.machine.cpu
    })
    const logBefore = fs.readFileSync(path.join(dir, 'all.jsonl'), 'utf8')
    const resume = fakeStep()
    const resumed = await runBench(['--resume', dir], { step: resume })
    assert.equal(resumed.status, 2, resumed.stderr + resumed.stdout)
    assert.match(resumed.stderr, new RegExp('--resume \\S+moved: the run began on \\S+ and this machine is \\S+ ' +
      '\\(kernel differs\\), so its figures would mix two machines; start a new run'))
    assert.deepEqual(resume.measured, [], 'nothing measured')
    // refused before the lock and before the log's repair: the cut line is still there
    assert.equal(fs.readFileSync(path.join(dir, 'all.jsonl'), 'utf8'), logBefore)
    assert.deepEqual(readJson(contextFile), context)
    assert.equal(fs.existsSync(path.join(dir, 'bench.lock')), false)
  })

  test('--resume of a run whose passes this lab now places otherwise is refused, the run left as it was', async () => {
    // as a run begun before the profile pass moved beside the reader at SCHED_BATCH
    const { dir, contextFile, context } = await stoppedRun('replaced', context => {
      context.placement.passes.profile = { feeder: 0, reader: 1 }
    })
    const logBefore = fs.readFileSync(path.join(dir, 'all.jsonl'), 'utf8')
    const resume = fakeStep()
    const resumed = await runBench(['--resume', dir], { step: resume })
    assert.equal(resumed.status, 2, resumed.stderr + resumed.stdout)
    assert.match(resumed.stderr, new RegExp('--resume \\S+replaced: the run placed its passes as this lab no ' +
      'longer does \\(profile: feeder 0, reader 1, now feeder \\d+, reader \\d+, policy batch\\), so its runs ' +
      'would mix two placements; start a new run'))
    assert.deepEqual(resume.measured, [], 'nothing measured')
    assert.equal(fs.readFileSync(path.join(dir, 'all.jsonl'), 'utf8'), logBefore)
    assert.deepEqual(readJson(contextFile), context)
    assert.equal(fs.existsSync(path.join(dir, 'bench.lock')), false)
  })

  test('--resume of a run that records no machine goes on, and says it cannot tell', async () => {
    const { dir } = await stoppedRun('unknown', context => { delete context.machine })
    const resumed = await runBench(['--resume', dir], { step: fakeStep() })
    assert.equal(resumed.status, 0, resumed.stderr + resumed.stdout)
    assert.match(resumed.stdout, new RegExp('^note: \\S+unknown records no machine, so whether it is ' +
      'resumed on the one it began on cannot be told$', 'm'))
    assert.match(resumed.stdout, /^resuming .*, 2 of 6 runs already done$/m)
  })
})

// Every try as logged, superseded ones too (readLog keeps the data points only).
const everyTry = file => fs.readFileSync(file, 'utf8').trim().split('\n').map(line => JSON.parse(line))

describe('other work on the measured CPUs', () => {
  const args = (out, id, runs) => ['--only', 'c', '--sizes', '4096', '--runs', String(runs), '--warmup', '0', '--mib', '1', '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', id]

  test('a disturbed try is kept superseded and the step measured again once its CPUs are quiet', async () => {
    const out = tempDir()
    let tries = 0
    const step = fakeStep({ disturb: (planned, run) => planned.phase === 'timing' && run === 0 && tries++ === 0 })
    const result = await runBench(args(out, 'once', 2), { step })
    assert.equal(result.status, 0, result.stderr + result.stdout)
    const logged = everyTry(path.join(out, 'once', 'all.jsonl'))
    const timing0 = logged.filter(record => record.phase === 'timing' && record.run === 0)
    assert.deepEqual(timing0.map(record => [Boolean(record.superseded), record.foreign.disturbed]), [[true, true], [false, false]])
    // it waited once, for the CPU the step ran on (dd and the reader share the last)
    assert.deepEqual(step.waits, [[1]])
    assert.deepEqual(readLog(path.join(out, 'once', 'all.jsonl')).map(record => `${record.phase} ${record.run}`), ['startup 0', 'startup 1', 'timing 0', 'timing 1'])
    const results = readJson(path.join(out, 'once', 'results.json'))
    assert.deepEqual([results.disturbance.disturbed, results.disturbance.remeasured, results.disturbance.keptDisturbed], [1, 1, 0])
    assert.equal(results.cells[0].flags.includes('disturbed'), false)
    assert.match(result.stdout, new RegExp('^disturbed steps: 1 try of 4 steps saw other work on their CPUs ' +
      '\\(above 3% of their time\\); 1 measured again once the CPUs were quiet$', 'm'))
  })

  // a stop once waited out the quiet wait and then measured the step again
  test('a stop during the wait for quiet CPUs ends the run there: no try after it', async () => {
    const out = tempDir()
    const step = fakeStep({ disturb: () => true, stopInQuiet: true })
    const result = await runBench(args(out, 'stopped-quiet', 2), { step })
    assert.equal(result.status, 130, result.stderr + result.stdout)
    assert.equal(step.waits.length, 1)
    assert.equal(step.measured.filter(run => run.run >= 0).length, 1, 'the disturbed try only')
    const logged = everyTry(path.join(out, 'stopped-quiet', 'all.jsonl'))
    assert.deepEqual(logged.map(record => Boolean(record.superseded)), [true])
  })

  test(`a machine busy for ${BUSY_STEPS} kept steps in a row: the rest are measured once, kept and flagged`, async () => {
    const out = tempDir()
    const step = fakeStep({ disturb: () => true })
    const runs = 8
    const result = await runBench(args(out, 'busy', runs), { step })
    assert.equal(result.status, 0, result.stderr + result.stdout)
    const steps = 2 * runs
    const retried = BUSY_STEPS * MAX_REMEASURES
    assert.equal(step.measured.length, steps + retried, 'each of the first steps tried 1 + MAX_REMEASURES times, every later one once')
    assert.equal(step.waits.length, retried)
    const logged = everyTry(path.join(out, 'busy', 'all.jsonl'))
    assert.equal(logged.filter(record => record.superseded).length, retried)
    assert.equal(logged.filter(record => !record.superseded).length, steps)
    assert.equal(result.stdout.split(`stayed busy with other work over ${BUSY_STEPS} steps in a row`).length - 1, 1, 'said once')
    const results = readJson(path.join(out, 'busy', 'results.json'))
    assert.deepEqual([results.disturbance.steps, results.disturbance.remeasured, results.disturbance.keptDisturbed], [steps, retried, steps])
    assert.ok(results.cells[0].flags.includes('disturbed'))
    assert.match(result.stdout, new RegExp(`${steps} still disturbed after ${MAX_REMEASURES} tries, ` +
      'flagged \'disturbed\': this machine was busy$', 'm'))
  })
})

describe('bad input: one line that names the fix, exit 2', () => {
  test('a corrupt run log is reported, not overwritten', async () => {
    const out = tempDir()
    const first = await runBench(['--only', 'c', '--sizes', '4096', '--runs', '1', '--warmup', '0', '--mib', '1', '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'bad'])
    assert.equal(first.status, 0, first.stderr)
    const log = path.join(out, 'bad', 'all.jsonl')
    fs.writeFileSync(log, 'not json\n' + fs.readFileSync(log, 'utf8'))
    const before = fs.readFileSync(log, 'utf8')
    const result = await runBench(['--resume', path.join(out, 'bad')])
    assert.equal(result.status, 2)
    assert.match(result.stderr, /all\.jsonl is corrupt at line 1 \(not a record of a run\); delete or mend that line/)
    assert.equal(fs.readFileSync(log, 'utf8'), before)
    const again = await runBench(['--only', 'c', '--out', out, '--id', 'bad'])
    assert.equal(again.status, 2)
    assert.match(again.stderr, new RegExp(`already holds a run \\([^)]*\\); continue it with --resume ${path.join(out, 'bad')}, or pick another --id`))
  })
})

// A run made before bench refused these pairs (--pin with the file feeder did nothing; a
// skipped pass's rounds were ignored) must still print a command bench takes.
test('the command that measures a failed cell again gives no pair bench refuses', () => {
  const { parseOptions, cellCommand } = require('../../bench')
  const old = {
    ...parseOptions(['--feeder', 'file', '--no-kernel', '--no-profile']),
    pin: true,
    kernelRounds: 9,
    profileRounds: 5,
    profileMs: 900
  }
  const command = cellCommand(old, { program: 'c', blockSize: 4096 }, [])
  assert.doesNotMatch(command, /--pin|--kernel-rounds|--profile-rounds|--profile-ms/)
  assert.match(command, /--feeder file/)
  assert.match(command, /--no-kernel/)
  assert.doesNotThrow(() => parseOptions(command.split(' ').slice(2)))
  // where the pass runs, its rounds are repeated
  const kept = cellCommand({ ...parseOptions([]), kernelRounds: 9, pin: true }, { program: 'c', blockSize: 4096 }, [])
  assert.match(kept, /--kernel-rounds 9/)
  assert.match(kept, /--pin/)
})

// A slip of a few digits in a count would start a run of weeks: each experiment's counts of
// runs, rounds and processes stop at MAX_REPEATS, with one line that names the range.
test('each count of runs, rounds or processes takes up to MAX_REPEATS and refuses more', () => {
  const { MAX_REPEATS } = require('../../lib/options')
  const counts = [
    [[], '--runs'], [[], '--rounds'], [[], '--kernel-rounds'], [[], '--profile-rounds'], [[], '--warmup'],
    [['--experiment', 'calls'], '--processes'],
    [['--experiment', 'http'], '--runs'], [['--experiment', 'http'], '--processes'],
    [['--experiment', 'db'], '--runs']
  ]
  for (const [experiment, flag] of counts) {
    assert.doesNotThrow(() => parseOptions([...experiment, flag, String(MAX_REPEATS)]), `${flag} ${MAX_REPEATS}`)
    const min = flag === '--warmup' ? 0 : 1
    // the message, not the class: other tests load lib/ afresh, with classes of their own
    assert.throws(() => parseOptions([...experiment, flag, String(MAX_REPEATS + 1)]), {
      name: 'Error',
      message: `${flag} must be a whole number from ${min} to ${MAX_REPEATS}, not '${MAX_REPEATS + 1}'`
    })
  }
  // a size after the first named by its option, not by its place in the list (a review: "1: block
  // size 3 is out of range")
  assert.throws(() => parseOptions(['--sizes', '256,3']), {
    name: 'Error',
    message: '--sizes: block size 3 is out of range: give a power of two from 16 to 1048576'
  })
  // and the MiB a run streams, at a TiB
  const { MAX_MIB } = require('../../lib/options')
  assert.doesNotThrow(() => parseOptions(['--mib', String(MAX_MIB)]))
  assert.throws(() => parseOptions(['--mib', String(MAX_MIB + 1)]), {
    name: 'Error',
    message: `--mib must be a whole number from 1 to ${MAX_MIB}, not '${MAX_MIB + 1}'`
  })
})

// --feeder file's input lives in tmpfs, which is memory: one larger than its free room is
// refused before a byte is written, with the fix, rather than after filling it.
test('a zero file larger than tmpfs has room for is refused before it is written', async () => {
  const { ZeroFile, zeroFileFolders } = require('../../experiments/stdio/zero-file')
  const before = zeroFileFolders()
  const zeros = new ZeroFile()
  await assert.rejects(zeros.of(2 ** 60),
    /^Error: cannot write \d+ MiB of input to \S+ \(\d+ MiB free\): give a smaller --mib/)
  assert.deepEqual(zeroFileFolders(), before, 'no folder made')
  const file = await zeros.of(2 ** 16)
  assert.equal(fs.statSync(file).size, 2 ** 16)
  zeros.remove()
  assert.deepEqual(zeroFileFolders(), before)
})
