'use strict'
// Turns the append-only log of runs (all.jsonl) into the per-cell results that the
// terminal summary and the report quote. Every figure here is derived from the log,
// so it can be recomputed after an interruption or by hand.
const fs = require('node:fs')
const zlib = require('node:zlib')
const path = require('node:path')
const { PHASES } = require('./phases')
const { parseGcTrace, summariseGc } = require('../../lib/gctrace')
const { summarise, median, twoSizeFit, rankTest, ratioInterval, SIGNIFICANCE } = require('../../lib/stats')
const { findProgram, byTableOrder, BASELINE } = require('./programs')
const { STEAL_SHARE, stealShare } = require('../../lib/steal')
const { summariseHeadline } = require('./cost')
const { GOAL, withinGoal, interleavedHalves } = require('../../lib/repeatability')
const { formatBound } = require('../../lib/report/format')
const { throughputHalves } = require('./repeatability')
const { sharedResults } = require('../../lib/results')
const { dataPoints } = require('../../lib/run-log')
const { runtimeTitle, runtimes } = require('../../lib/runtimes')
const { uncheckableReason } = require('./fastpath')
const { summariseKernel } = require('./kernel')
const { slowPathReason, slowApiShare, slowApiText } = require('./profile')

const NOISY_CV = 0.10
const FEEDER_BOUND_SHARE = 0.9
const READER_WAITED_SHARE = 0.8
const MB = 1e6
// Reads a quarter run must make before the JIT is done with the loop: host/instr-cost.js
// found just-fast still compiling in runs of 16384 reads and done by 32768 (host/README.md).
const WARM_QUARTER_READS = 32768

// Each cell's steady-state throughput run by run, for the rank test against C's runs;
// kept beside the cell rather than in results.json, whose log holds the runs anyway.
const steadyRuns = new WeakMap()

function byCell (records, phase) {
  const cells = new Map()
  for (const record of records) {
    if (record.phase !== phase) continue
    const key = `${record.program}\t${record.blockSize}`
    if (!cells.has(key)) cells.set(key, [])
    cells.get(key).push(record)
  }
  return cells
}

function startupByProgram (records) {
  const startup = {}
  for (const [key, runs] of byCell(records, PHASES.startup)) {
    const ok = runs.filter(run => run.ok)
    if (ok.length === 0) continue
    const stats = summarise(ok.map(run => run.wallNs))
    startup[key.split('\t')[0]] = {
      runs: ok.length,
      medianNs: stats.median,
      minNs: stats.min,
      maxNs: stats.max,
      cv: stats.cv,
      cpuMedianUs: median(ok.map(run => cpuUs(run.reader))),
      maxRssKb: Math.max(...ok.map(run => run.reader.maxRssKb))
    }
  }
  return startup
}

function cpuUs (usage) {
  return usage.userUs + usage.sysUs
}

// pipeFed: false for --feeder file, where there is no dd to wait for or be bound by.
// quarterRuns: the cell's runs of a quarter of the bytes (bench.js --marginal), if any.
// rejected: why the strace pass saw the reader read otherwise than it says, if it did:
// then none of its runs is a data point, however well they went.
function timingCell (program, blockSize, runs, startup, pipeFed, quarterRuns = [], rejected = null) {
  const ok = runs.filter(run => run.ok)
  const cell = { program, blockSize, bytes: runs[0].bytes, feederBlockSize: runs[0].feederBlockSize, runs: ok.length, failedRuns: runs.length - ok.length, flags: [] }
  if (ok.length === 0 || rejected !== null) {
    cell.flags.push('failed')
    if (rejected !== null) cell.rejected = rejected
    return cell
  }
  const best = ok.reduce((a, b) => (b.wallNs < a.wallNs ? b : a))
  const startupNs = startup[program]?.medianNs ?? null
  const throughput = run => run.bytes / MB / (run.wallNs / 1e9)
  const steady = run => (startupNs !== null && run.wallNs > startupNs ? run.bytes / MB / ((run.wallNs - startupNs) / 1e9) : null)
  cell.wallNs = summarise(ok.map(run => run.wallNs))
  cell.throughputMBps = summarise(ok.map(throughput))
  cell.best = { run: best.run, wallNs: best.wallNs, throughputMBps: throughput(best), steadyThroughputMBps: steady(best) }
  const steadyValues = ok.map(steady)
  cell.steadyThroughputMBps = steadyValues.every(value => value !== null) ? summarise(steadyValues) : null
  if (cell.steadyThroughputMBps) steadyRuns.set(cell, steadyValues)
  // the best of each interleaved half of the runs, on the figure the best run is quoted by
  cell.halves = interleavedHalves(ok, cell.steadyThroughputMBps ? steady : throughput, values => Math.max(...values))
  cell.startupNs = startupNs
  if (startupNs !== null && best.wallNs < 2 * startupNs) cell.flags.push('startup-dominated')
  cell.reads = best.output.reads
  const honours = findProgram(program)?.honoursBlockSize
  cell.costPerReadNs = honours && startupNs !== null && best.wallNs > startupNs && best.output.reads > 0
    ? (best.wallNs - startupNs) / best.output.reads
    : null
  // The reader's own CPU time per read: the kernel's accounting of the process (wait4,
  // every thread of it), so neither dd nor the time the reader slept on the pipe is in
  // it. For single-threaded readers (C, the host) it is the closest figure to what a
  // call costs; for Node, Deno and Bun it also holds their helper threads' GC and JIT.
  const startupCpuUs = startup[program]?.cpuMedianUs ?? null
  cell.cpuPerReadNs = honours && startupCpuUs !== null && best.output.reads > 0
    ? median(ok.map(run => (cpuUs(run.reader) - startupCpuUs) * 1000 / run.output.reads))
    : null
  cell.reader = {
    userUs: median(ok.map(run => run.reader.userUs)),
    sysUs: median(ok.map(run => run.reader.sysUs)),
    maxRssKb: Math.max(...ok.map(run => run.reader.maxRssKb)),
    voluntaryCs: median(ok.map(run => run.reader.voluntaryCs)),
    involuntaryCs: median(ok.map(run => run.reader.involuntaryCs))
  }
  // dd spending nearly all of the wall time on the CPU means it, not the reader, set the pace.
  cell.feederCpuShare = median(ok.map(run => cpuUs(run.feeder) * 1000 / run.wallNs))
  if (pipeFed && cell.feederCpuShare >= FEEDER_BOUND_SHARE) cell.flags.push('feeder-bound')
  // A reader (all its threads counted) off the CPU for more than a fifth of the run was
  // waiting for dd to refill the pipe: its figure is the pace of the pipe (dd, wake-ups,
  // scheduling), not its cost per read, and a slower reader can even come out faster by
  // sleeping less often. Helper threads' CPU can hide some waiting in Node, Deno and Bun.
  cell.readerCpuShare = median(ok.map(run => cpuUs(run.reader) * 1000 / run.wallNs))
  if (pipeFed && cell.readerCpuShare < READER_WAITED_SHARE) cell.flags.push('reader-waited')
  const quarterOk = quarterRuns.filter(run => run.ok)
  if (quarterRuns.length) cell.failedQuarterRuns = quarterRuns.length - quarterOk.length
  if (quarterOk.length) cell.marginal = marginal(ok, quarterOk, honours)
  if (cell.wallNs.cv > NOISY_CV) cell.flags.push('noisy')
  // on the cell's runs together, full and quarter: one run's share is too coarse (lib/steal.js)
  cell.stealShare = stealShare([...ok, ...quarterOk])
  if (cell.stealShare !== null && cell.stealShare > STEAL_SHARE) cell.flags.push('steal')
  if (cell.failedRuns > 0 || cell.failedQuarterRuns > 0) cell.flags.push('some-runs-failed')
  // a kept run during which something else used the run's CPUs (bench.js measured again
  // what it could; what it kept is marked)
  if ([...ok, ...quarterOk].some(run => run.foreign?.disturbed === true)) cell.flags.push('disturbed')
  return cell
}

// What the bytes between a quarter run and a full run cost: start-up, compiling and
// whatever else a run pays once are in both, so they cancel, where subtracting the
// start-up on empty input leaves the JIT's warm-up in. plusMinusShare is the fit's
// plus-or-minus (both sizes' half-ranges) as a share of the time between; with one run
// of a size there is no range, so none. fewReads: the quarter runs may have ended before
// a JIT finished compiling the loop, which would put compiling back in the figure.
function marginal (full, quarter, honours) {
  const bytesBetween = full[0].bytes - quarter[0].bytes
  // a program that reads in chunks of its own size has no reads of the block size to count
  const quarterReads = honours ? median(quarter.map(run => run.output.reads)) : null
  const readsBetween = honours ? median(full.map(run => run.output.reads)) - quarterReads : 0
  const wall = twoSizeFit({ large: full.map(run => run.wallNs), small: quarter.map(run => run.wallNs), unitsBetween: 1 })
  const cpu = twoSizeFit({ large: full.map(run => cpuUs(run.reader) * 1000), small: quarter.map(run => cpuUs(run.reader) * 1000), unitsBetween: 1 })
  const result = {
    quarterRuns: quarter.length,
    quarterBytes: quarter[0].bytes,
    quarterReads,
    fewReads: quarterReads !== null && quarterReads < WARM_QUARTER_READS,
    wallNsBetween: wall.perUnit,
    plusMinusShare: null,
    throughputMBps: null,
    perReadNs: null,
    cpuPerReadNs: null
  }
  if (wall.perUnit <= 0) return result
  if (full.length > 1 && quarter.length > 1) result.plusMinusShare = wall.plusMinus / wall.perUnit
  result.throughputMBps = bytesBetween / MB / (wall.perUnit / 1e9)
  if (readsBetween > 0) {
    result.perReadNs = wall.perUnit / readsBetween
    result.cpuPerReadNs = cpu.perUnit / readsBetween
  }
  return result
}

// C at the same block size is the yardstick: its cost per read and throughput.
function compareWithC (cells) {
  const c = new Map(cells.filter(cell => cell.program === BASELINE && cell.best).map(cell => [cell.blockSize, cell]))
  for (const cell of cells) {
    const base = c.get(cell.blockSize)
    if (!base || !cell.best) continue
    const relative = (value, baseValue) => (value !== null && baseValue ? value / baseValue : null)
    const overhead = (field, of = cell, baseOf = base) => (of[field] !== null && baseOf[field] !== null ? of[field] - baseOf[field] : null)
    cell.vsC = {
      throughput: relative(cell.best.throughputMBps, base.best.throughputMBps),
      steadyThroughput: relative(cell.best.steadyThroughputMBps, base.best.steadyThroughputMBps),
      costPerReadOverheadNs: overhead('costPerReadNs'),
      cpuPerReadOverheadNs: overhead('cpuPerReadNs')
    }
    // Whether this cell's runs and C's could be the same runs: a share of C such as 97%
    // means little when C's own runs spread by more (README, "The lab's V8 host against C").
    // steadyShare is the same comparison as a share with its 95% interval: a goal such as
    // 97% of C is met when the interval's low end reaches it, and not resolved while the
    // interval straddles it.
    const tested = cell !== base && steadyRuns.has(cell) && steadyRuns.has(base)
    const test = tested ? rankTest(steadyRuns.get(cell), steadyRuns.get(base)) : null
    if (test) {
      cell.vsC.steadyRankTestP = test.p
      cell.vsC.steadyWithinNoise = test.p >= SIGNIFICANCE
      cell.vsC.steadyShare = ratioInterval(steadyRuns.get(cell), steadyRuns.get(base))
    }
    const withheld = cell === base ? null : shareWithheld(cell, base)
    if (withheld) Object.assign(cell.vsC, withheld)
    if (cell.marginal && base.marginal) {
      cell.vsC.marginalThroughput = relative(cell.marginal.throughputMBps, base.marginal.throughputMBps)
      cell.vsC.marginalPerReadOverheadNs = overhead('perReadNs', cell.marginal, base.marginal)
      cell.vsC.marginalCpuPerReadOverheadNs = overhead('cpuPerReadNs', cell.marginal, base.marginal)
    }
  }
}

// A share of C is only as good as both cells' figures: where either cell's interleaved
// halves of runs moved by more than the goal, or either has too few runs to halve, the
// runs do not support it. Its figures stay in results.json, with withheld (the reason in a
// word, printed in its place) and withheldWhy.
function shareWithheld (cell, base) {
  const move = entry => entry.halves?.movePercent ?? null
  if (move(cell) === null || move(base) === null) {
    return { withheld: 'too few runs', withheldWhy: 'this cell or C\'s has fewer than 2 runs, too few to check that its figure repeats' }
  }
  if (withinGoal(move(cell)) && withinGoal(move(base))) return null
  // rounded up: a move past the goal never reads as the goal (a review: 5.0122% read "5%")
  const percent = value => `${formatBound(value)}%`
  return { withheld: 'noisy', withheldWhy: `the best runs of the halves of its runs moved by ${percent(move(cell))}, of C's by ${percent(move(base))}: more than ${GOAL.percent}%` }
}

// Why each cell's reader was caught reading otherwise than it says (its reads of stdin in
// the strace pass, checked by strace.js), by cell; a strace run that failed for any
// other reason (a crash or a timeout under strace) checked nothing, and is only listed
// as a failure.
// A fastest reader whose fast path did not engage (experiments/stdio/fastpath.js) at
// any size has every cell rejected: its code is the same at every size.
// So has one whose profile found its loop in V8's slow API calls (profile.js slowPathReason).
function rejectedCells (records) {
  const rejected = new Map()
  for (const [key, runs] of byCell(records, PHASES.strace)) {
    const caught = runs.find(run => !run.ok && run.readTrace)
    if (caught) rejected.set(key, caught.failure)
  }
  const slow = new Map()
  for (const record of records) {
    if (record.phase === PHASES.fastPath && record.fastPath?.engaged === false && !slow.has(record.program)) {
      slow.set(record.program, `${record.failure} (checked at ${record.blockSize} B)`)
    }
  }
  const checked = new Set(records.filter(record => record.phase === PHASES.fastPath).map(record => record.program))
  for (const program of checked) {
    const found = slow.has(program) ? null : slowPathOf(records, program)
    if (found) slow.set(program, `fast path not held: ${found.reason} (profiled at ${found.profiled.blockSize} B)`)
  }
  for (const record of records) {
    const key = `${record.program}\t${record.blockSize}`
    if (slow.has(record.program) && !rejected.has(key)) rejected.set(key, slow.get(record.program))
  }
  return rejected
}

// Each fastest reader's fast-path check, from the run's table (context.programs):
// 'engaged' where every check at every size said so, 'not taken' where one said not,
// 'unproven' where none could say (no check ran: --no-cost, a run from before the check,
// or the traced run failed), with the reason.
// A profiled round's perf script text, where the run's folder holds it (for rounds logged
// before they said whether V8's slow calls could be seen); null elsewhere.
const profileText = runDir => record => {
  if (!runDir || typeof record.rawFile !== 'string') return null
  try {
    return zlib.gunzipSync(fs.readFileSync(path.join(runDir, record.rawFile))).toString()
  } catch {
    return null
  }
}

function summariseFastPaths (records, context, runDir = null) {
  const rows = (context.programs ?? []).filter(program => program.fastest)
  return rows.map(program => {
    const checks = records.filter(record => record.phase === PHASES.fastPath && record.program === program.name)
    const entry = {
      program: program.name,
      runtime: program.runtime,
      runtimeTitle: runtimeTitle(program.runtime, context.runtimes?.[program.runtime]?.version),
      source: program.fastest.source,
      loop: program.fastest.loop
    }
    const notTaken = checks.find(check => check.fastPath?.engaged === false)
    if (notTaken) {
      return { ...entry, verdict: 'not taken', reason: notTaken.fastPath.reason, blockSize: notTaken.blockSize }
    }
    // the graph held a fast call, but the profile found a slow one beside it in the loop
    const slowPath = checks.length ? slowPathOf(records, program.name) : null
    if (slowPath) {
      return { ...entry, verdict: 'not taken', reason: slowPath.reason, blockSize: slowPath.profiled.blockSize }
    }
    const engaged = checks.filter(check => check.fastPath?.engaged === true)
    if (checks.length && engaged.length === checks.length) {
      const sizes = engaged.map(check => check.blockSize)
      // and where V8 ran it, what the profile pass saw of slow calls in its loop
      const v8 = runtimes[program.runtime]?.engine === 'v8'
      const profiled = v8 ? slowApiShare(records, program.name, profileText(runDir)) : null
      // the graph holds a fast call where a slow one may still run beside it every turn, which
      // only the profile pass counts: without it the verdict is the graph's alone, and says so
      const seen = profiled
        ? `; the profile pass found ${slowApiText(profiled)}`
        : v8 ? '; slow API calls beside it not counted (no profile pass)' : ''
      const summary = engaged[0].fastPath.summary + seen
      // what its fast call reaches (V8: named in the reader's memory), null where not asked
      const reaches = engaged[0].fastPath.reaches ?? null
      return { ...entry, verdict: 'engaged', summary, reaches, sizes }
    }
    const failed = checks.find(check => !check.ok)
    const reason = failed
      ? `its traced run failed: ${failed.failure}`
      : uncheckableReason(program) ?? 'no fast-path check ran (it runs with the cost pass)'
    return { ...entry, verdict: 'unproven', reason }
  })
}

// A fastest reader's headline cells say when its fast path is unproven.
function markUnproven (headline, fastPaths) {
  for (const cell of headline?.cells ?? []) {
    const check = fastPaths.find(entry => entry.program === cell.program)
    if (check?.verdict !== 'unproven') continue
    Object.assign(cell, { unproven: check.reason, flags: [...cell.flags, 'unproven'] })
  }
  return headline
}

function summariseResults (logged, context, runDir = null) {
  const records = dataPoints(logged)
  const startup = startupByProgram(records)
  const quarters = byCell(records, PHASES.timingQuarter)
  const rejected = rejectedCells(records)
  const cells = []
  for (const [key, runs] of byCell(records, PHASES.timing)) {
    const [program, blockSize] = key.split('\t')
    cells.push(timingCell(program, Number(blockSize), runs, startup, context.options.feeder !== 'file', quarters.get(key), rejected.get(key) ?? null))
  }
  cells.sort(byTableOrder(context))
  compareWithC(cells)
  // the lab's answer, from the cost pass (experiments/stdio/cost.js); null for runs without one
  const fastPaths = summariseFastPaths(records, context, runDir)
  const headline = markUnproven(summariseHeadline(records, context, rejected), fastPaths)
  const shared = sharedResults(logged, context, ['blockSize'], 'stdio')
  return {
    runId: shared.runId,
    experiment: shared.experiment,
    headline,
    // each fastest reader's fast-path check (experiments/stdio/fastpath.js)
    fastPaths,
    // how much of each reader's CPU per read is read(2)'s, from the kernel (./kernel.js);
    // null for runs without the pass
    kernel: summariseKernel(records, headline, rejected),
    feeder: context.options.feeder,
    runsPerCell: context.options.runs,
    throughputUnit: 'MB/s (10^6 bytes per second)',
    steadyStateMeaning: 'bytes / (wall time - the median start-up time of the same program on empty input)',
    steadyShareMeaning: 'vsC.steadyShare: the median of every ratio of this cell\'s steady-state runs to C\'s (Hodges-Lehmann) and its interval, the inverse of the rank test, at the level it carries (level)',
    marginalMeaning: '(bytes of a run - bytes of a quarter run) / (median wall time of the runs - median wall time of the quarter runs)',
    startup,
    cells,
    // how far each honoured cell's figure moved between the interleaved halves of its
    // runs: the run's own repeatability (experiments/stdio/repeatability.js)
    throughputRepeatability: throughputHalves(cells),
    stealShare: shared.stealShare,
    disturbance: shared.disturbance,
    // readers that choose their own chunk size, and the size strace saw them read in
    chunkSizes: chunkSizes(records),
    // with a fast path the profile found not held, which no run's own check failed
    failures: [...shared.failures, ...slowPathFailures(records, fastPaths)]
  }
}

// A fastest reader whose fast path the profile pass found not held (summariseFastPaths): a
// failure of the check's, listed as its profiled run, so that bench.js exits 1 for it too.
function slowPathFailures (records, fastPaths) {
  return fastPaths.filter(entry => entry.verdict === 'not taken' &&
    !records.some(record => record.phase === PHASES.fastPath && record.program === entry.program && !record.ok))
    .map(entry => {
      const { profiled } = slowPathOf(records, entry.program)
      const { run, command, blockSize } = profiled
      const reason = `fast path not held: ${entry.reason}`
      return { phase: PHASES.fastPath, program: entry.program, run, reason, command, blockSize }
    })
}

// Why the profile pass says `program`'s fast path did not hold (profile.js slowPathReason),
// with its first profiled run, or null.
function slowPathOf (records, program) {
  const reason = slowPathReason(records, program)
  if (reason === null) return null
  return { reason, profiled: records.find(record => record.phase === PHASES.profile && record.program === program) }
}

const MiB = 1 << 20

// Syscalls per MiB count only what reading costs: each cell is profiled at two input
// sizes (bench.js), and the rate is the difference of the two runs' calls over the
// difference of their bytes, so that start-up's calls, made in both runs, cancel.
// What does not cancel is what varies from run to run (a helper thread's futex waits,
// a timer, a thread started in one run and not the other): a difference below zero, or
// a main-thread rate above the all-threads rate (the main thread's calls are within
// every thread's in each run, but the helper threads can make fewer in the larger run),
// is that noise, not a rate: that figure is not given (for a main-thread rate above the
// all-threads one, the all-threads one) and `noise` says what happened.
// a cell's two counts: each field of its figures, strace's mode, and its name in a reason
const THREAD_MODES = [['mainThread', 'main', 'the main thread'], ['allThreads', 'all', 'every thread']]

function syscallCell (program, blockSize, runs, rejected) {
  const ok = runs.filter(run => run.ok)
  const sizes = [...new Set(ok.map(run => run.bytes))].sort((a, b) => a - b)
  const large = sizes.length ? sizes[sizes.length - 1] : runs[0].bytes
  const small = sizes.length > 1 ? sizes[0] : null
  // a run profiles both (run.mainThread); older runs profiled one mode each (straceMode)
  const profile = (bytes, mode) => {
    const run = ok.find(entry => entry.bytes === bytes && (entry.straceMode ?? mode) === mode)
    if (!run) return null
    return (mode === 'main' && !run.straceMode ? run.mainThread : run.strace) ?? null
  }
  const mainThread = profile(large, 'main')
  const allThreads = profile(large, 'all')
  const perMiB = { mainThread: null, allThreads: null, noise: null }
  if (small !== null) {
    const mibBetween = (large - small) / MiB
    const rates = {}
    const noise = []
    for (const [field, mode, label] of THREAD_MODES) {
      const [before, after] = [profile(small, mode), profile(large, mode)]
      if (!before || !after) continue
      const between = after.totalCalls - before.totalCalls
      if (between < 0) noise.push(`${label} made ${calls(-between)} fewer reading ${sizeLabel(large)} than ${sizeLabel(small)}`)
      else rates[field] = between / mibBetween
    }
    if (rates.mainThread !== undefined && rates.allThreads !== undefined && rates.mainThread > rates.allThreads) {
      const fewer = Math.round((rates.mainThread - rates.allThreads) * mibBetween)
      noise.push(`the helper threads made ${calls(fewer)} fewer reading ${sizeLabel(large)} than ${sizeLabel(small)}, which would put every thread's rate (${round(rates.allThreads)}) below the main thread's (${round(rates.mainThread)})`)
      delete rates.allThreads
    }
    if (noise.length) perMiB.noise = `${noise.join('; ')}: run-to-run noise, not a rate`
    Object.assign(perMiB, rates)
  }
  // per read where there is a rate per MiB: the same two runs, what each call adds a read
  const perRead = small === null
    ? null
    : Object.fromEntries(THREAD_MODES.map(([field, mode]) => [field, typeof perMiB[field] === 'number'
      ? steadyCalls(profile(small, mode), profile(large, mode), small / blockSize, large / blockSize)
      : null]))
  return {
    program,
    blockSize,
    bytes: large,
    smallBytes: small,
    mainThread,
    allThreads,
    threads: allThreads ? allThreads.threadsStarted + 1 : null,
    syscallsPerMiB: perMiB,
    syscallsPerRead: perRead,
    ...(rejected ? { rejected } : {}),
    // its runs that failed, each with its reason: a rate the cell lacks is said to be lost, not
    // left blank (a review: one run of two failed, the other's totals shown, no word why)
    failedRuns: runs.filter(run => !run.ok).map(run => `its run of ${sizeLabel(run.bytes)} failed: ${run.failure}`),
    rawFiles: ok.map(run => run.rawFile),
    // what each run's reads of stdin returned, by syscall: { bytes: { '4096': 256, '0': 1 } }
    stdinReads: ok.filter(run => run.readTrace).map(run => ({ bytes: run.bytes, returned: Object.fromEntries(Object.entries(run.readTrace.stdin).map(([name, entry]) => [name, entry.returned])) }))
  }
}

// Each syscall's calls per read of the block size in the steady state, and the calls a run
// makes whatever it reads (start-up and exit): from two runs of one reader, one of more
// reads than the other, as a line through both (calls = startup + perRead × reads). A
// name the larger run made fewer of is noise, not a rate, and counts 0 per read. For a
// reader of its own chunk size, a "read" is a block of input of the size asked for.
function steadyCalls (before, after, readsBefore, readsAfter) {
  const between = readsAfter - readsBefore
  const countOf = (profile, name) => profile.syscalls.find(row => row.name === name)?.calls ?? 0
  const names = [...new Set([...before.syscalls, ...after.syscalls].map(row => row.name))]
  const calls = names
    .map(name => ({ name, calls: Math.max(0, countOf(after, name) - countOf(before, name)) / between }))
    .filter(row => row.calls > 0)
    .sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name))
  const perRead = calls.reduce((sum, row) => sum + row.calls, 0)
  return { calls, perRead, startup: Math.max(0, Math.round(before.totalCalls - perRead * readsBefore)) }
}

const sizeLabel = bytes => (bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${bytes / 1024} KiB`)
const round = value => Math.round(value * 10) / 10
const calls = count => `${count} call${count === 1 ? '' : 's'}`

// The chunk size a reader that chooses its own reads in, from what the kernel saw over
// every strace run of the program (every block size: it ignores them). What it chooses
// is what it asks read(2) for, so the most any call asked is the chunk where strace
// shows it; what comes back is capped by the pipe (64 KiB) and shaped by the feeder
// (dd's 256-byte blocks with --feeder matched), so the commonest return is only the
// fallback, for calls whose size strace does not print. Without a strace pass, or from
// runs logged before readTrace, the size is unknown (null) rather than taken from the
// program's table.
function chunkSizes (records) {
  const out = {}
  for (const record of records) {
    if (record.phase !== PHASES.strace || findProgram(record.program)?.honoursBlockSize !== false) continue
    const entry = out[record.program] ??= { chunkBytes: null, maxAskedBytes: null, calls: 0, callsAtChunk: 0, returned: {}, found: null }
    if (!record.ok || !record.readTrace) continue
    for (const trace of Object.values(record.readTrace.stdin)) {
      for (const [bytes, count] of Object.entries(trace.returned)) {
        if (Number(bytes) > 0) entry.returned[bytes] = (entry.returned[bytes] ?? 0) + count
      }
      entry.maxAskedBytes = trace.maxAsked === null ? entry.maxAskedBytes : Math.max(entry.maxAskedBytes ?? 0, trace.maxAsked)
    }
  }
  for (const [program, entry] of Object.entries(out)) {
    const returns = Object.entries(entry.returned).map(([bytes, count]) => [Number(bytes), count])
    const { returned, ...rest } = entry
    out[program] = rest
    if (returns.length === 0) {
      rest.found = 'unknown: no strace run of it recorded its reads of stdin (--no-strace, or a log from before readTrace)'
      continue
    }
    const [commonest] = returns.reduce((a, b) => (b[1] > a[1] || (b[1] === a[1] && b[0] > a[0]) ? b : a))
    rest.chunkBytes = rest.maxAskedBytes ?? commonest
    rest.calls = returns.reduce((sum, [, calls]) => sum + calls, 0)
    rest.callsAtChunk = entry.returned[rest.chunkBytes] ?? 0
    rest.found = rest.maxAskedBytes === null
      ? 'strace: the bytes most read calls on stdin brought back, over its strace runs (strace did not print what they asked for)'
      : 'strace: the most a read call on stdin asked for, over its strace runs'
  }
  return out
}

// Runs from before the two-size pass profiled one size and empty input ('strace-startup'):
// their cells keep the profile but get no rate, since taking a separate run's start-up
// off was the very noise that went below zero.
function summariseSyscalls (records, context) {
  const rejected = rejectedCells(records)
  const cells = []
  for (const [key, runs] of byCell(records, PHASES.strace)) {
    const [program, blockSize] = key.split('\t')
    cells.push(syscallCell(program, Number(blockSize), runs, rejected.get(key) ?? null))
  }
  return {
    ptrace: context.ptrace,
    perMiBMeaning: '(calls in the larger run - calls in the smaller) / (MiB between them), of the main thread and of every thread (strace -C -f)',
    cells,
    chunkSizes: chunkSizes(records)
  }
}

// A run's collections read again from the trace its folder keeps, where it does: what the lab
// reads of a trace today (each collection's pause and kind, since 2026-11-2x; an incremental
// mark-compact's steps in the total, since 2026-12-06), whatever lab measured it; else the
// record's own summary.
function traceSummary (record, runDir) {
  if (!runDir || !record.ok || !record.rawFile) return {}
  const file = path.join(runDir, record.rawFile)
  if (!fs.existsSync(file)) return {}
  return summariseGc(parseGcTrace(fs.readFileSync(file, 'utf8')))
}

function summariseGcResults (records, context, runDir) {
  const cells = []
  for (const record of records) {
    if (record.phase !== PHASES.gc) continue
    const { program, blockSize, bytes, ok, failure, rawFile: traceFile } = record
    cells.push({ program, blockSize, bytes, ok, failure, traceFile, ...record.gc, ...traceSummary(record, runDir) })
  }
  return { unavailable: context.gcUnavailable, cells }
}

module.exports = { rejectedCells, summariseResults, summariseSyscalls, summariseGcResults, chunkSizes, NOISY_CV, FEEDER_BOUND_SHARE, READER_WAITED_SHARE, WARM_QUARTER_READS, STEAL_SHARE }
