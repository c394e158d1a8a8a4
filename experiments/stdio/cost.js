'use strict'
// The lab's answer: what one read(2) of stdin costs each reader, in CPU time, against C
// at the same block size. It comes from bench.js's cost pass, measured so that it
// reproduces (docs/method.md, "The headline"):
// - dd and the reader share one CPU. A pipe between two CPUs makes every page cross
//   between their caches and every refill a cross-CPU wake-up, whose cost depends on
//   where the hypervisor has put the two virtual CPUs: on the lab's VM C's rounds at
//   256 B spread by 31% with the two apart and up to 38% free, by 2-4% on one CPU
//   (docs/placement.md, studies/placement.js).
// - CPU time, not wall time: the reader's own time (wait4, all its threads) leaves out
//   dd and every moment the reader waited.
// - A slope within one run: build/pipe-run samples the reader's CPU time (every
//   thread's schedstat) and the bytes dd has written into the pipe (/proc/PID/io wchar:
//   the reader's progress to within the pipe's 64 KiB) every millisecond, and a read
//   costs the slope of the one against the other over the steady middle of the run
//   (from 30% to 98% of stdin), times the bytes a read took. Start-up, loading and
//   whatever the JIT compiles early lie before the window. It replaced the difference
//   of a full and a quarter run, which left each process's start-up noise on the
//   difference undivided: on the lab's VM C's rounds at 4 KiB spread by 21% that way and
//   by 5-8% as a slope, node-sync's at 64 KiB by 25% and 2-5% (docs/reproducibility.md).
//   Runs logged before keep their quarter runs, and are derived as they were measured.
// - In turns with C (the default since 2026-11-28): each round of a reader runs in slices of
//   SLICE_MS beside a run of C on the same CPU, so that whatever slows the machine in those
//   seconds lands on both; the round's share of C is C's figure of the same moments over
//   the reader's, and the cell's the median of its rounds' pairs, with the sign test's
//   interval (docs/method.md, "In the same moment as C"). Rounds apart from C's (--pairing
//   rounds, and runs logged before) are not paired: there a reader's round and C's round
//   of the same number hardly correlate (r = 0.05 over 120 cells of four runs), so the
//   overhead and the share compare every one of the reader's rounds with every one of C's
//   (Hodges-Lehmann), with the interval that inverts the rank test.
// CPU per read is the median of the rounds with its interval (sign test) (lib/stats.js).
// Each interval carries its true level, which its whole k makes other than 95%: 95.9% for
// the median of 20 rounds, 97.9% of 10; 95.7% for Hodges-Lehmann at 10 against 10.
const { PHASES, QUARTER_PHASE } = require('./phases')
const {
  median, leastSquaresSlope, medianInterval, medianIntervalLevel, pairwiseIntervalLevel, ratioInterval,
  differenceInterval, rankTest, signTest, levelText, SIGNIFICANCE, trendTest, theilSenSlope
} = require('../../lib/stats')
const { findProgram, byTableOrder, BASELINE } = require('./programs')
const { STEAL_SHARE, stealShare } = require('../../lib/steal')
const { policyText } = require('../../lib/placement')
const { sizeName, sharedOrEach, listJoin, counted, roundUp } = require('../../lib/report/format')
const { runtimeTitle, runtimes } = require('../../lib/runtimes')
const { missingClause, lostText, HALVINGS } = require('../../lib/repeatability')

const PHASE = PHASES.cost
// How long each of two pipelines runs before the other takes its turn, under
// --cost-pairing slices. Measured by studies/same-moment.js (docs/method.md) on a noisy
// VM, 9 cells of 12 pairs: one pair's share of C spread by 1.7-3.9% at 2 ms turns, 1.8-6.1%
// at 5, 1.8-9.1% at 10, and 9.6-17.3% in separate runs. Each turn begins with the caches
// the other left, a cost the reader (more code, more data) pays more of: shares fell by
// 0.7 to 2.3 points for every 100 more turns a second (bun-ffi at 4 KiB: 86.5% at 10 ms,
// 85.1% at 5, 82.0% at 2), so 5 ms, 100 turns a second each, leaves a share of C about 1 to
// 2 points below an unpaused one: a bias each run shares, where spread is each run's own.
const SLICE_MS = 5

// What the figures mean, with the levels their intervals truly have at this many rounds.
function headlineMeaning (rounds, slope = true, paired = false, policy = null) {
  const interval = level => (level === null ? 'no interval at so few rounds' : `its ${levelText(level)} interval`)
  const againstC = paired
    ? 'overhead over C and share of C (C\'s CPU per read / the reader\'s) round by round, each ' +
      `round's reader taking turns of ${SLICE_MS} ms with a run of C on its CPU, both over the ` +
      `span they took turns in; the median with ${interval(medianIntervalLevel(rounds))} (sign test)`
    : 'overhead over C and share of C ' +
      '(C\'s CPU per read / the reader\'s) from every pair of one of its rounds and one of C\'s ' +
      `(Hodges-Lehmann), with ${interval(pairwiseIntervalLevel(rounds, rounds))} (rank test)`
  return (slope
    ? `CPU time per read(2): the slope of the reader's CPU time over the bytes dd fed it, sampled every ms from ${WINDOW.from * 100}% to ${WINDOW.to * 100}% of stdin, times the bytes of a read, `
    : 'CPU time per read(2) of the bytes between a quarter run and a full run, ') +
    'the reader\'s own (user + sys, every thread), dd and the reader pinned to one CPU' +
    `${policyText(policy)}; median of the ${rounds} rounds with ` +
    `${interval(medianIntervalLevel(rounds))} (sign test); ${againstC}`
}

// The headline's method, once where every run shown measured alike, else each run's by name
// (runs of two cost policies, say). entries: report-data.js headlineData's sets.
const meaningText = entries => sharedOrEach(entries.filter(entry => entry.available), entry => entry.meaning,
  entry => `${entry.set}: ${entry.meaning}`, '. ')

// The lab's repeatability goal, in the unit users quote, points of share of C: between two
// runs each share moves by at most 2 points in all but one cell of every 30 and by no more
// than 3 in any. EPSILON keeps a move of exactly 2 points, which floats make 2.0000000000000018,
// within it.
const GOAL = { points: 2, never: 3, cellsPerAllowance: 30 }
const EPSILON = 1e-9
const allowedAbove = cells => Math.floor(cells / GOAL.cellsPerAllowance)

const cpuNs = run => (run.reader.userUs + run.reader.sysUs) * 1000

// The steady middle of a run, in shares of stdin's bytes: the JIT's warm-up (done by
// 32768 reads, host/README.md; a cost run makes at least 2^17, or keeps the warm-up's
// reads before its window: costRunBytes) before it, the exit after.
const WINDOW = { from: 0.3, to: 0.98 }
const MIN_WINDOW_SAMPLES = 8
const inWindow = (written, bytes) => written >= WINDOW.from * bytes && written <= WINDOW.to * bytes

// The most a cost run reads (plan.js sizes each run to at most this much), and so the
// longest a run too short for its slope is made.
const COST_MAX_BYTES = 1 << 30

// The bytes, in whole 64 KiB blocks, of a run whose window holds `reads` reads of
// `blockSize` (windowReadsBytes), or reads that take a reader `windowS` seconds of CPU at
// `cpuPerReadNs` a read (windowBytes).
const wholeBlocks = bytes => Math.ceil(bytes / 65536) * 65536
const windowReadsBytes = (reads, blockSize) => wholeBlocks(reads / (WINDOW.to - WINDOW.from) * blockSize)
function windowBytes (windowS, cpuPerReadNs, blockSize) {
  return windowReadsBytes(windowS * 1e9 / cpuPerReadNs, blockSize)
}

// A cost run's bytes once its cell's last run measured its CPU per read: the planned bytes,
// but no more than COST_WINDOW_S of the reader's CPU in its window. The slow WASI hosts
// need far less than the reads the plan gives every reader: wasmer's reads of 256 B cost
// 11 µs, and its 64 MiB took 3 s of CPU a run; its two rows took 8.5 minutes of a 23-minute
// cost pass (stdio-q1, 2026-11-29), where every other cell's run took at most 0.53 s. 0.4 s in
// the window (0.6 s a run) leaves every other reader's runs as they were; a run it makes too
// short for a slope runs again longer (longerCostBytes). A runtime whose JIT compiles as it
// runs (V8, JavaScriptCore) keeps its warm-up's reads before the window; wasmtime and wasmer
// compile a module whole before it runs: wasmer's reads in a shortened run's window cost 0.97-1.00
// of those in the whole run's, the median of each cell's rounds (docs/method.md).
const COST_WINDOW_S = 0.4
const JIT_WARMUP_READS = 32768
// a runtime the lab does not know (LAB_EXTRA_PROGRAMS) is taken to be one that warms up
const compilesAsItRuns = ({ runtime }) => !runtimes[runtime] || ['v8', 'jsc'].includes(runtimes[runtime].engine)
function costRunBytes (step, cpuPerReadNs, windowS = COST_WINDOW_S) {
  if (!(cpuPerReadNs > 0)) return step.bytes
  const warmup = compilesAsItRuns(step.program) ? wholeBlocks(JIT_WARMUP_READS / WINDOW.from * step.blockSize) : 0
  return Math.min(step.bytes, Math.max(warmup, windowBytes(windowS, cpuPerReadNs, step.blockSize)))
}

// How many of a run's samples fall in its window.
function windowSamples (run) {
  if (!Array.isArray(run.samples)) return 0
  return run.samples.filter(([, written]) => inWindow(written, run.bytes)).length
}

// The bytes to run a cost run with again when it was too short for a slope on the CPU that
// ran it: a fast CPU reads 64 MiB of 64 KiB blocks in about 10 ms, whose window holds 6 or
// 7 samples a millisecond apart where a slope needs MIN_WINDOW_SAMPLES. Enough for twice
// the samples, in whole blocks of `unit` bytes, at most COST_MAX_BYTES; null when the run
// gave a slope, or is that long already.
function longerCostBytes (run, unit) {
  if (slopePerRead(run) !== null || run.bytes >= COST_MAX_BYTES) return null
  const factor = Math.max(2, Math.ceil(2 * MIN_WINDOW_SAMPLES / Math.max(windowSamples(run), 1)))
  return Math.min(COST_MAX_BYTES, Math.ceil(run.bytes * factor / unit) * unit)
}

// CPU ns per read of one run from its samples ([reader's CPU ns, bytes dd has written,
// monotonic ns]): the least-squares slope of CPU time over bytes in the window, times
// the bytes of a read; null with too few samples there. With a span ({ fromNs, toNs }),
// only the window's samples taken within it.
// The span of a run the slope is taken over, by the clock its samples carry: { fromNs, toNs,
// cpuNs (the reader's CPU time in it), reads (the reads of the bytes fed in it) }, or null.
function windowSpan (run) {
  const window = (run.samples ?? []).filter(([, written]) => inWindow(written, run.bytes))
  if (window.length < MIN_WINDOW_SAMPLES || window[0].length < 3 || !(run.output?.reads > 0)) return null
  const [first, last] = [window[0], window.at(-1)]
  const reads = (last[1] - first[1]) * run.output.reads / run.bytes
  return { fromNs: first[2], toNs: last[2], cpuNs: last[0] - first[0], reads }
}

function slopePerRead (run, span = null) {
  const samples = run.samples
  if (!Array.isArray(samples) || samples.length === 0 || !(run.output?.reads > 0)) return null
  const inSpan = at => span === null || (at >= span.fromNs && at <= span.toNs)
  const window = samples.filter(([, written, at]) => inWindow(written, run.bytes) && inSpan(at))
  if (window.length < MIN_WINDOW_SAMPLES) return null
  const cpuPerByte = leastSquaresSlope(window.map(([cpu, bytes]) => [bytes, cpu]))
  return cpuPerByte === null ? null : cpuPerByte * (run.bytes / run.output.reads)
}

// A run that took turns with a run of C on its CPU (--cost-pairing slices: lib/pipeline.js
// runAlternating) holds C's run as its `partner`. Paused, a pipeline takes no samples, so
// its samples are its own turns'; the two pipelines took turns from the later's first
// sample to the earlier's last, and only that span is compared: after it one ran alone.
function sharedSpan (run) {
  const [mine, theirs] = [run.samples, run.partner?.samples]
  if (!mine?.length || !theirs?.length || mine[0].length < 3 || theirs[0].length < 3) return null
  const fromNs = Math.max(mine[0][2], theirs[0][2])
  const toNs = Math.min(mine[mine.length - 1][2], theirs[theirs.length - 1][2])
  return toNs > fromNs ? { fromNs, toNs } : null
}

// A paired run's CPU per read, the reader's and C's, each over the span both ran in;
// null where either gives no slope there.
function pairFigures (run) {
  const span = sharedSpan(run)
  if (span === null || !run.partner.ok) return null
  const ns = slopePerRead(run, span)
  const cNs = slopePerRead(run.partner, span)
  return ns === null || cNs === null ? null : { ns, cNs }
}

// How many times the reader's bytes C reads in as long: as many times as C's read is
// cheaper than the reader's (each run's whole window). Where either gave no slope (a run too
// short for 8 samples: C's 64 MiB at 64 KiB took 5 ms on a fast CPU, 2026-12-02), their
// CPU time per read from rusage, start-up and all, which is enough to match C's bytes for
// the next try; null when that is nothing either.
function partnerRatio (run) {
  if (!run.partner?.ok) return null
  const ns = slopePerRead(run)
  const cNs = slopePerRead(run.partner)
  if (ns > 0 && cNs > 0) return ns / cNs
  const perRead = each => (each.output?.reads > 0 ? cpuNs(each) / each.output.reads : null)
  const [coarse, cCoarse] = [perRead(run), perRead(run.partner)]
  return coarse > 0 && cCoarse > 0 ? coarse / cCoarse : null
}

// The next try of a pair whose turns gave no slope of both (experiments/stdio/measure.js),
// or null where none would do better. tries: [{ bytes, partnerBytes }], the last the one
// that failed; ratio: partnerRatio's, as the next try will match C's bytes by it.
// - C's bytes far from matched (a guess, or the ratio learned since): the same bytes again.
// - C's matched bytes at their cap: as many of the reader's as C lasts through, where fewer.
// - Else twice the bytes, up to the longest a cost run reads (a fast CPU needed 1 GiB at
//   64 KiB, 2026-12-02: three doublings from 64 MiB had not reached it).
// Never a try made before, and at most MAX_PAIR_TRIES.
const MAX_PAIR_TRIES = 8
function nextPairBytes (tries, ratio, unit) {
  const { bytes, partnerBytes: used } = tries[tries.length - 1]
  if (tries.length >= MAX_PAIR_TRIES) return null
  const matched = partnerBytes(bytes, ratio, unit)
  let next = Math.min(COST_MAX_BYTES, 2 * bytes)
  if (ratio !== null && Math.max(used / matched, matched / used) > 1.25) next = bytes
  else if (ratio !== null && matched === PARTNER_MAX_BYTES) {
    const covered = Math.floor(PARTNER_MAX_BYTES / ratio / unit) * unit
    if (covered >= unit && covered < bytes) next = covered
  }
  const tried = tries.some(each => each.bytes === next && each.partnerBytes === partnerBytes(next, ratio, unit))
  return tried ? null : next
}

// C's bytes beside a reader's run of `bytes`: `ratio` times as many (partnerRatio), in whole
// blocks of `unit`, at most PARTNER_MAX_BYTES; as many as the reader's with no ratio yet.
// C's run may be far longer than a cost run: beside wasmer's 512 MiB at 4 KiB, whose reads
// cost 12 times C's, C reads 6 GiB in the same time (a run of 2026-11-28 that capped it
// at 1 GiB lost wasmer's and wasmtime's slowest cells: C ended before their windows began).
const PARTNER_MAX_BYTES = 16 * COST_MAX_BYTES
function partnerBytes (bytes, ratio, unit) {
  if (ratio === null) return bytes
  return Math.min(PARTNER_MAX_BYTES, Math.max(unit, Math.ceil(bytes * ratio / unit) * unit))
}

// Each round's CPU time per read of one cell, by round number: the slope of its run, or
// for a run logged before the slope, the marginal cost between its full and quarter run.
// A round whose run failed, or gave no slope, has none. A round that took turns with C
// (pairFigures) gives C's figure of the same moments too: { mine, partner }, two Maps.
function perRound (full, quarter) {
  const mine = new Map()
  const partner = new Map()
  for (const run of full) {
    if (!run.ok) continue
    if (run.partner) {
      const pair = pairFigures(run)
      if (pair !== null) {
        mine.set(run.run, pair.ns)
        partner.set(run.run, pair.cNs)
      }
      continue
    }
    if (run.samples) {
      const perRead = slopePerRead(run)
      if (perRead !== null) mine.set(run.run, perRead)
      continue
    }
    const small = quarter.find(entry => entry.run === run.run)
    if (!small?.ok) continue
    const reads = run.output.reads - small.output.reads
    if (reads > 0) mine.set(run.run, (cpuNs(run) - cpuNs(small)) / reads)
  }
  return { mine, partner }
}

// The median with its interval, or the median alone when too few rounds give one.
function estimate (values) {
  if (values.length === 0) return null
  return medianInterval(values) ?? { estimate: median(values), low: null, high: null, level: null }
}

// Against C's rounds: by how much (or how many times) the reader's differ from C's.
function againstC (mine, base, compare) {
  if (mine.length === 0 || base.length === 0) return null
  const interval = compare === 'ratio' ? ratioInterval(base, mine) : differenceInterval(mine, base)
  if (interval) return interval
  const all = compare === 'ratio' ? base.flatMap(c => mine.map(x => c / x)) : mine.flatMap(x => base.map(c => x - c))
  return { estimate: median(all), low: null, high: null, level: null }
}

// A figure of each round against its own C (`of(reader's ns, C's ns)`): the median and
// its interval (sign test).
function pairwise (mine, base, of) {
  return estimate([...mine].filter(([run]) => base.has(run)).map(([run, ns]) => of(ns, base.get(run))))
}

// Each round's figures, for what compares rounds across readers or runs: the tie test
// between two readers of a run and the shift test between two runs. A round's share of C
// is C's figure of the same round over the reader's; the headline's own share does not
// pair them (above).
function roundFigures (mine, base) {
  return [...mine].map(([run, ns]) => ({ run, cpuPerReadNs: ns, shareOfC: base?.has(run) ? base.get(run) / ns : null }))
}

// rejected: cells whose reads strace saw otherwise than the reader says (experiments/stdio/summary.js),
// by 'program\tblockSize': none of their runs is a data point.
function summariseHeadline (records, context, rejected = new Map()) {
  const cells = new Map()
  for (const record of records) {
    if (record.phase !== PHASE && record.phase !== QUARTER_PHASE) continue
    const key = `${record.program}\t${record.blockSize}`
    if (!cells.has(key)) cells.set(key, { program: record.program, blockSize: record.blockSize, full: [], quarter: [] })
    cells.get(key)[record.phase === PHASE ? 'full' : 'quarter'].push(record)
  }
  if (cells.size === 0) return null
  // by cell, its rounds, and those that took turns with C: each round's C, from the same moments
  const none = { mine: new Map(), partner: new Map() }
  const rounds = new Map([...cells].map(([key, cell]) => [key, rejected.has(key) ? none : perRound(cell.full, cell.quarter)]))
  const out = []
  for (const [key, cell] of cells) {
    const { mine, partner: pairs } = rounds.get(key)
    const cRounds = rounds.get(`${BASELINE}\t${cell.blockSize}`)?.mine ?? null
    const baseRounds = cell.program === BASELINE ? null : pairs.size ? pairs : cRounds
    const base = [...(baseRounds ?? new Map()).values()]
    const runs = [...cell.full, ...cell.quarter]
    const runtime = runtimeOf(cell.program, context)
    const entry = {
      program: cell.program,
      blockSize: cell.blockSize,
      runtime,
      // the runtime and the version that ran it: 'Node 26.12.1'
      runtimeTitle: runtimeTitle(runtime, context.runtimes?.[runtime]?.version),
      rounds: mine.size,
      // a round whose runs all answered right but that gave no figure (no slope, or the run
      // of C it took turns with failed) counts as a failed run as much as one that failed
      failedRuns: runs.filter(run => !run.ok).length + cell.full.filter(run => !mine.has(run.run) &&
        runs.every(other => other.run !== run.run || other.ok)).length,
      cpuPerReadNs: estimate([...mine.values()]),
      // taken in turns with C: pair by pair (the sign test over rounds); else every round
      // of the reader's against every one of C's
      pairing: pairs.size ? 'slices' : 'rounds',
      overheadNs: pairs.size
        ? pairwise(mine, pairs, (ns, cNs) => ns - cNs)
        : againstC([...mine.values()], base, 'difference'),
      shareOfC: pairs.size
        ? pairwise(mine, pairs, (ns, cNs) => cNs / ns)
        : againstC([...mine.values()], base, 'ratio'),
      stealShare: stealShare(runs.filter(run => run.ok)),
      byRound: roundFigures(mine, baseRounds),
      flags: []
    }
    if (rejected.has(key)) entry.rejected = rejected.get(key)
    if (entry.cpuPerReadNs === null) entry.flags.push('failed')
    else if (entry.cpuPerReadNs.low === null) entry.flags.push('few-rounds')
    if (entry.cpuPerReadNs !== null && entry.failedRuns > 0) entry.flags.push('some-runs-failed')
    if (entry.stealShare !== null && entry.stealShare > STEAL_SHARE) entry.flags.push('steal')
    // a run kept after its re-measures were spent still shared its CPU (lib/foreign.js)
    if (runs.some(run => run.ok && run.foreign?.disturbed)) entry.flags.push('disturbed')
    // a WASI host that hands fd_read its share of larger reads: its reads are not read(2)'s
    if (rowOf(cell.program, context)?.hostChunks) entry.flags.push('host-chunks')
    out.push(entry)
  }
  const sizes = [...new Set(out.map(cell => cell.blockSize))].sort((a, b) => a - b)
  const planned = context.options?.costRounds ?? null
  // the method's levels are the planned rounds'; a cell that kept fewer carries its own
  const short = planned ? out.filter(cell => cell.rounds > 0 && cell.rounds < planned).length : 0
  const shortText = short
    ? `; ${counted(short, 'cell')} kept fewer rounds, each interval at the level of its own count`
    : ''
  return {
    meaning: headlineMeaning(planned ?? Math.max(...out.map(cell => cell.rounds)),
      records.some(record => record.phase === PHASE && record.samples),
      records.some(record => record.phase === PHASE && record.partner), context.costPin?.policy ?? null) + shortText,
    pin: context.costPin ?? null,
    sizes,
    rounds: planned,
    baseline: BASELINE,
    cells: out.sort(byTableOrder(context)).sort((a, b) => a.blockSize - b.blockSize),
    repeatability: ownRepeatability(out, rounds)
  }
}

// What a run says of its own repeatability, with no second run beside it: each cell's
// share of C from one half of its rounds (and C's rounds of that half) against the other
// half's. Two runs of n rounds drawn alike have medians (or Hodges-Lehmann estimates) of
// variance v each, so their difference has variance 2v; a half has n/2 rounds and variance
// 2v, and the difference of two halves 4v, twice the two runs'. So a half's difference over
// √2 is one draw of what a second run would move the share by, and the cells' draws stand in
// for a second run's moves: quotedPoints is the move all but the goal's allowance of cells
// stay within. The rounds are halved two ways (lib/repeatability.js HALVINGS), and a cell
// takes the larger: even against odd rounds share every slow spell of the run, so what drifts
// between runs is not in them (on the kept pairs of 2026-11-25 the interleaved halves
// foretold 1.30 points rms where c and d moved 1.35, and 1.80 where a and b, whose rounds of
// a size sat within one minute, moved 2.33, docs/reproducibility.md); early against late
// rounds hold the drift through the run. On the three stdio pairs of 2026-12-02 to 12-05 the
// larger foretold 5 of 6 runs, even/odd alone 4 (docs/reproducibility.md, 2026-12-05), as
// over ten pairs of call ladders (docs/calls.md).
const HALF_ROUNDS_MIN = 4
const half = (rounds, halfOf, which) =>
  [...rounds].filter(([run]) => halfOf(run) === which).map(([, ns]) => ns)

// rounds: by cell, its rounds and those that took turns with C (perRound)
// A cell it could not halve where others could (failed, rejected, or too few rounds kept) is
// lost, and keeps the run from being quoted (lib/repeatability.js lostCells).
function ownRepeatability (cells, rounds) {
  const predictedMovePoints = []
  const unhalved = []
  for (const cell of cells) {
    if (cell.program === BASELINE) continue
    const key = `${cell.program}\t${cell.blockSize}`
    const { mine, partner: pairs } = rounds.get(key)
    const base = pairs.size ? pairs : rounds.get(`${BASELINE}\t${cell.blockSize}`)?.mine
    // a halving's move over √2, or null where a half has too few rounds
    const halvedMove = halfOf => {
      const [first, second] = [0, 1]
        .map(which => [half(base ?? new Map(), halfOf, which), half(mine, halfOf, which)])
      if ([...first, ...second].some(values => values.length < HALF_ROUNDS_MIN)) return null
      // a paired half's share is the median of its pairs', as the cell's is
      const pairShares = which => [...mine].filter(([run]) => halfOf(run) === which && pairs.has(run))
        .map(([run, ns]) => pairs.get(run) / ns)
      const shareOf = which => pairs.size
        ? median(pairShares(which))
        : ratioInterval(...(which ? second : first)).estimate
      return Math.abs(shareOf(0) - shareOf(1)) * 100 / Math.SQRT2
    }
    const moves = [HALVINGS.evenOdd, HALVINGS.earlyLate]
      .map(halving => halvedMove(halving([...mine.keys()])))
    if (moves.includes(null)) {
      unhalved.push(cellName(cell))
      continue
    }
    const { program, blockSize } = cell
    predictedMovePoints.push({ program, blockSize, points: Math.max(...moves) })
  }
  if (predictedMovePoints.length === 0) return null
  const quotedPoints = allButAllowance(predictedMovePoints.map(cell => cell.points))
  // the goal's other half: no cell beyond GOAL.never, which the allowance does not excuse
  const beyondNever = predictedMovePoints.filter(cell => cell.points > GOAL.never + EPSILON)
    .sort((a, b) => b.points - a.points)
  return {
    predictedMovePoints,
    quotedPoints,
    goalPoints: GOAL.points,
    neverPoints: GOAL.never,
    beyondNever,
    quotable: quotedPoints <= GOAL.points + EPSILON && beyondNever.length === 0 && unhalved.length === 0,
    cells: predictedMovePoints.length,
    lost: unhalved
  }
}

// The move that all cells but the goal's allowance stay within.
function allButAllowance (moves) {
  const sorted = [...moves].sort((a, b) => a - b)
  return sorted[sorted.length - 1 - allowedAbove(sorted.length)]
}

// Two runs' headlines side by side, by the lab's repeatability criterion in the unit users
// quote: how many points each share of C moved (GOAL), and whether the two runs rank the
// runtimes the same at the smallest size both measured, each runtime by its fastest
// reader there (the baseline's own runtime left out: C against its own ceiling is no
// runtime's answer); the readers' order beside it. A second question per cell: whether
// the move is a real shift or noise, the rank test on the two runs' rounds' shares. Asking
// whether each share lies in the other's interval cannot serve: two runs of one
// distribution pass it in only about 85% of cells (docs/reproducibility.md).
function headlineRepeatability (a, b) {
  if (!a?.cells || !b?.cells) return null
  const cells = []
  // a cell failed or absent in either run stays in the count, named, and fails the goal
  const missing = []
  for (const [left, right] of cellPairs(a, b)) {
    const absentIn = [['a', left], ['b', right]].filter(([, cell]) => !cell?.shareOfC).map(([side]) => side)
    if (absentIn.length) {
      const { program, blockSize } = left ?? right
      missing.push({ program, blockSize, name: cellName({ program, blockSize }), in: absentIn })
      continue
    }
    const movePoints = Math.abs(left.shareOfC.estimate - right.shareOfC.estimate) * 100
    const shift = shiftTest(left, right)
    cells.push({ program: left.program, blockSize: left.blockSize, a: left.shareOfC, b: right.shareOfC, movePoints, within: movePoints <= GOAL.points + EPSILON, shifted: shift ? shift.p < SIGNIFICANCE : null, p: shift?.p ?? null })
  }
  const total = cells.length + missing.length
  const moves = cells.map(cell => cell.movePoints)
  const smallest = cells.length ? Math.min(...cells.map(cell => cell.blockSize)) : null
  const ranked = cells.filter(cell => cell.blockSize === smallest).map(cell => cell.program)
  const runtimeOrder = smallest === null ? null : compareOrders(rankAt(a, ranked, smallest, true), rankAt(b, ranked, smallest, true))
  const within2 = cells.filter(cell => cell.within).length
  const maxMovePoints = cells.length ? Math.max(...moves) : null
  const goal = { points: GOAL.points, cellsAllowedAbove: allowedAbove(total), never: GOAL.never }
  const tested = cells.filter(cell => cell.p !== null)
  return {
    cells,
    missing,
    within2,
    total,
    maxMovePoints,
    medianMovePoints: cells.length ? median(moves) : null,
    goal,
    met: cells.length > 0 && missing.length === 0 && total - within2 <= goal.cellsAllowedAbove &&
      maxMovePoints <= GOAL.never + EPSILON && runtimeOrder.same,
    blockSize: smallest,
    runtimeOrder,
    readerOrder: smallest === null ? null : compareOrders(rankAt(a, ranked, smallest, false), rankAt(b, ranked, smallest, false)),
    // at SIGNIFICANCE, about that share of the tested cells is called shifted by chance alone
    shift: { significance: SIGNIFICANCE, tested: tested.length, shifted: tested.filter(cell => cell.shifted).length, expectedByChance: tested.length * SIGNIFICANCE }
  }
}

// Every reader and size either run has, the baseline's left out (it has no share of
// itself): [a's cell or undefined, b's cell or undefined], in a's order, then b's.
function cellPairs (a, b) {
  const same = (x, y) => x.program === y.program && x.blockSize === y.blockSize
  const readers = cell => cell.program !== (a.baseline ?? BASELINE)
  return [
    ...a.cells.filter(readers).map(left => [left, b.cells.find(right => same(left, right))]),
    ...b.cells.filter(readers).filter(right => !a.cells.some(left => same(left, right)))
      .map(right => [undefined, right])
  ]
}

// Whether a cell's share moved between two runs by more than their rounds' noise: the
// rank test on the two runs' rounds' shares of C, null where either run kept no rounds
// (results.json from before the lab kept them) or fewer than rankTest needs. On rounds
// resampled from the kept runs, two pseudo-runs of one pool, it said noise in 95.6% of
// cells (studies/agreement-calibration.js).
function shiftTest (left, right) {
  const shares = cell => (cell.byRound ?? []).map(round => round.shareOfC).filter(share => share !== null)
  return rankTest(shares(left), shares(right))
}

// Best first: [name, cell] of each reader, or of each runtime by its fastest reader.
function rankAt (headline, programs, blockSize, byRuntime) {
  const baselineRuntime = headline.cells.find(cell => cell.program === headline.baseline)?.runtime ?? null
  const best = new Map()
  for (const cell of headline.cells) {
    if (cell.blockSize !== blockSize || !programs.includes(cell.program)) continue
    if (byRuntime && cell.runtime === baselineRuntime) continue
    // a runtime's other build (the host's single binary) ranks as that runtime
    const name = byRuntime ? runtimes[cell.runtime]?.rankedAs ?? cell.runtime : cell.program
    if (!best.has(name) || cell.shareOfC.estimate > best.get(name).shareOfC.estimate) best.set(name, cell)
  }
  return [...best].sort((x, y) => y[1].shareOfC.estimate - x[1].shareOfC.estimate)
}

// Two orders are the same when every pair they put the other way round is a tie in both
// runs: just-sync and just-fast, both within a few points of C, swap places from run to
// run without either run telling them apart.
function compareOrders (a, b) {
  const position = new Map(b.map(([name], i) => [name, i]))
  const cellIn = (order, name) => order.find(([entry]) => entry === name)[1]
  const swapped = []
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) {
      const [higher, lower] = [a[i][0], a[j][0]]
      if (position.get(higher) < position.get(lower)) continue
      const tied = tiedInRun(cellIn(a, higher), cellIn(a, lower)) && tiedInRun(cellIn(b, higher), cellIn(b, lower))
      swapped.push({ pair: [higher, lower], tied })
    }
  }
  return { a: a.map(([name]) => name), b: b.map(([name]) => name), swapped, same: swapped.every(swap => swap.tied) }
}

// Two readers of one run are tied when the sign test on their CPU per read round by round
// (the same round, so the same spell of the machine; the same sign as their shares' of C)
// does not tell them apart at SIGNIFICANCE. Overlapping intervals are no test: two
// intervals of 95% can overlap while the readers differ at 1%. A run without its rounds
// (results.json from before the lab kept them) can show no tie.
function tiedInRun (x, y) {
  if (!x.byRound || !y.byRound) return false
  const theirs = new Map(y.byRound.map(round => [round.run, round.cpuPerReadNs]))
  const common = x.byRound.filter(round => theirs.has(round.run))
  return signTest(common.map(round => round.cpuPerReadNs), common.map(round => theirs.get(round.run))).p >= SIGNIFICANCE
}

// "all but 2 of 69", or "all 16" where the goal allows none above
const allBut = cells => (allowedAbove(cells) ? `all but ${allowedAbove(cells)} of ${cells}` : `all ${cells}`)

// A cell as the page names it: 'deno-wasi @ 256 B'.
const cellName = ({ program, blockSize }) => `${program} @ ${sizeName(blockSize)}`

// A quoted move is a bound, so it is rounded up to a tenth: 2.04 points print as 2.1, not 2.0.
const boundText = points => roundUp(points, 1).toFixed(1)

// The cells foretold past the goal's "never" and past the quoted move (the allowance's), as
// a clause (", and deno-wasi @ 256 B by up to ±5.4"); '' with none, or from a run derived
// before they were kept.
function beyondNeverClause (own) {
  const beyond = (own.beyondNever ?? []).filter(cell => cell.points > own.quotedPoints + EPSILON)
  return beyond.length
    ? `, and ${listJoin(beyond.map(cell => `${cellName(cell)} by up to ±${boundText(cell.points)}`))}`
    : ''
}
// the goal in words: within ±2 in all but the allowance, none beyond ±3
const goalText = own => `±${own.goalPoints}${own.neverPoints ? `, none beyond ±${own.neverPoints}` : ''}`

// A run's own repeatability in a sentence (no full stop), or null.
function ownRepeatabilityText (own) {
  if (!own) return null
  const basis = 'the move a second run would make, foretold from this run\'s halves of rounds, even ' +
    `against odd or early against late, whichever moved more, in ${allBut(own.cells)} cells`
  if (own.lost?.length) {
    const rest = `a share of C would move by up to ±${boundText(own.quotedPoints)} points between runs` +
      beyondNeverClause(own)
    return `${lostText(own.lost).slice(0, -1)}; there ${rest} (goal ${goalText(own)}; ${basis})`
  }
  return own.quotable
    ? `On this machine, today, a share of C repeats within ±${boundText(own.quotedPoints)} points ` +
      `(${basis}; goal ${goalText(own)})`
    : 'This machine was too noisy to quote: a share of C would move by up to ' +
      `±${boundText(own.quotedPoints)} points between runs${beyondNeverClause(own)} (goal ${goalText(own)}; ${basis})`
}

// The headline's trust line (lib/report/markup.js trustLine) from the run's own figure.
// Where the shares hold the goal's ±2 but some are foretold past its 3, those are what keep
// the run from being quoted, and the line names them, in as few words as the page's first
// screen allows (the note under the chart gives both figures).
function headlineTrust (own) {
  if (!own) return null
  if (own.quotedPoints === null || own.quotedPoints === undefined) return { quotable: false, moves: null, goal: null }
  const past = own.beyondNever ?? []
  if (own.quotedPoints <= own.goalPoints + EPSILON && past.length) {
    const most = `by up to ±${boundText(past[0].points)} points`
    const which = past.length === 1
      ? cellName(past[0])
      : `${past.length} shares of C (${past.map(cellName).join(', ')})`
    return { quotable: own.quotable, lost: own.lost?.length ?? 0, moves: `${which} ${most}`, goal: goalText(own) }
  }
  return {
    quotable: own.quotable,
    lost: own.lost?.length ?? 0,
    moves: `${allBut(own.cells)} shares of C by up to ` +
      `±${boundText(own.quotedPoints)} points${beyondNeverClause(own)}`,
    goal: `±${own.goalPoints} points`
  }
}

// Two runs by the criterion in a sentence (no full stop), or null; labels: the two runs' names.
function headlineRepeatabilityText (result, labels) {
  if (!result || result.total === 0) return null
  const { goal, runtimeOrder: order, shift } = result
  const missing = missingClause(result.missing, labels)
  if (result.cells.length === 0) {
    return `No headline share of C was measured in both ${labels[0]} and ${labels[1]}${missing}: ` +
      'the repeatability goal is not met'
  }
  const ranking = order.same
    ? `the runtimes rank the same at ${sizeName(result.blockSize)}`
    : `the runtimes rank differently at ${sizeName(result.blockSize)} (${order.a.join(' > ')} against ${order.b.join(' > ')})`
  const shifts = shift.tested ? `; ${shift.shifted} of ${shift.tested} shares shifted beyond their rounds' noise (rank test at ${shift.significance}, about ${shift.expectedByChance.toFixed(1)} by chance)` : ''
  // in tenths, but never printed within a threshold it passed (2.04 as 2.0): then rounded up
  const max = result.maxMovePoints
  const crossed = [goal.points, goal.never].some(points => max > points + EPSILON && Number(max.toFixed(1)) <= points)
  const largest = crossed ? boundText(max) : max.toFixed(1)
  return `${result.within2} of ${result.total} headline shares of C moved by at most ${goal.points} points ` +
    `between ${labels[0]} and ${labels[1]}${missing} ` +
    `(median ${result.medianMovePoints.toFixed(1)}, largest ${largest}) and ${ranking}: the repeatability goal ` +
    `(${goal.cellsAllowedAbove ? `all but ${goal.cellsAllowedAbove}` : 'every share'} within ${goal.points} points, ` +
    `none beyond ${goal.never}, the same order) is ${result.met ? 'met' : 'not met'}${shifts}`
}

// A run records its table (context.programs, with the rows --node made); older runs
// fall back on today's.
function runtimeOf (name, context) {
  return rowOf(name, context)?.runtime ?? null
}

// A reader's row as the run recorded it, else today's table's.
function rowOf (name, context) {
  return context.programs?.find(program => program.name === name) ?? findProgram(name) ?? null
}

// A headline cell by reader and block size, or null where there is none or it failed (a
// failed cell has no rounds to quote).
function headlineCell (headline, program, blockSize) {
  return headline?.cells.find(cell => cell.program === program && cell.blockSize === blockSize && !cell.flags?.includes('failed')) ?? null
}

// One headline cell's CPU per read against another's (the host's ring reader against C's,
// say): every pair of one round of each, as the share of C takes C's, so null below 4
// rounds a side.
function cellRatio (cell, against) {
  const rounds = entry => (entry?.byRound ?? []).map(round => round.cpuPerReadNs)
  return ratioInterval(rounds(cell), rounds(against))
}

// Whether a cell's share of C moved with the machine's speed. Each round took the reader in
// turns with a run of C, so C's pace in those turns is the reader's ns per read times its
// share; ordered by that pace, do the shares keep falling or rising (Kendall's test)? A host
// that slows every reader as it slows C leaves the share where it was; one whose noise lands
// more on the reader's code than on C's (docs/method.md, 2026-11-30) makes it lower where C
// ran slower. C's own measurement noise moves the two the same way (a C run that reads slow
// raises the share), so a fall cannot be that, where a rise may be. A fall may still be a
// reader whose slow rounds slowed C's turns after them less than its own, or a drift of both
// through the run (the rounds are in time order, which the test takes as interchangeable).
// Asked only where C's pace spread by PACE_SPREAD or more between its second fastest and
// second slowest rounds (a spread one odd round cannot set), with MIN_PACE_ROUNDS rounds or
// more. Paces are continuous, so ties among them, which the test would count in round order,
// are left aside. null where not asked, else { falls, rises, p, pointsPer10Percent, spread }:
// the slope (Theil-Sen) in points of share per 10% slower C, which a fall's must share.
const PACE_SPREAD = 0.1
const MIN_PACE_ROUNDS = 8
const PACE_SIGNIFICANCE = 0.01
function shareAgainstPace (cell) {
  const rounds = (cell?.pairing === 'slices' ? cell.byRound ?? [] : [])
    .filter(round => round.shareOfC > 0 && round.cpuPerReadNs > 0)
    .map(round => ({ pace: round.cpuPerReadNs * round.shareOfC, share: 100 * round.shareOfC }))
    .sort((a, b) => a.pace - b.pace)
  if (rounds.length < MIN_PACE_ROUNDS) return null
  const spread = rounds.at(-2).pace / rounds[1].pace - 1
  if (spread < PACE_SPREAD) return null
  const { s, p } = trendTest(rounds.map(round => round.share))
  const pointsPer10Percent = theilSenSlope(rounds.map(round => [Math.log(round.pace) / Math.log(1.1), round.share]))
  const moved = p < PACE_SIGNIFICANCE
  return { falls: moved && s < 0 && pointsPer10Percent < 0, rises: moved && s > 0, p, pointsPer10Percent, spread }
}

module.exports = {
  meaningText,
  summariseHeadline,
  headlineTrust,
  SLICE_MS,
  partnerRatio,
  partnerBytes,
  nextPairBytes,
  pairFigures,
  estimate,
  againstC,
  headlineCell,
  cellRatio,
  shareAgainstPace,
  PACE_SPREAD,
  PACE_SIGNIFICANCE,
  slopePerRead,
  longerCostBytes,
  costRunBytes,
  windowBytes,
  windowReadsBytes,
  wholeBlocks,
  windowSamples,
  COST_MAX_BYTES,
  PARTNER_MAX_BYTES,
  MIN_WINDOW_SAMPLES,
  windowSpan,
  headlineRepeatability,
  headlineRepeatabilityText,
  ownRepeatabilityText,
  PHASE,
  QUARTER_PHASE,
  GOAL
}
