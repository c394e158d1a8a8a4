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
// - Marginal: each round times a run of the full bytes and one of a quarter of them, and
//   the reads between cost (CPU of the full run - CPU of the quarter run) / (reads
//   between), so start-up, loading and whatever the JIT compiles early are in both runs
//   and cancel.
// - In rounds: each round runs every reader at one block size, C among them, so a slow
//   spell of the machine falls on every reader alike. The rounds are not paired,
//   though: on the lab's VM each run's noise is its own (a reader's share of C round by
//   round spread wider than its CPU per read did), so a reader's overhead and share of C
//   compare every one of its rounds with every one of C's (Hodges-Lehmann).
// CPU per read is the median of the rounds with its 95% interval (sign test); overhead
// and share of C come with the interval that inverts the rank test (lib/stats.js).
const { median, medianInterval, ratioInterval, differenceInterval } = require('./stats')
const { findProgram, BASELINE } = require('./programs')
const { STEAL_SHARE, stealShare } = require('./steal')

const PHASE = 'cost'
const QUARTER_PHASE = 'cost-quarter'

const MEANING = 'CPU time per read(2) of the bytes between a quarter run and a full run, ' +
  'the reader\'s own (user + sys, every thread), dd and the reader pinned to one CPU; ' +
  'median of the rounds with its 95% interval (sign test); overhead over C and share of C ' +
  '(C\'s CPU per read / the reader\'s) from every pair of one of its rounds and one of C\'s ' +
  '(Hodges-Lehmann), with the 95% interval of the rank test'

const cpuNs = run => (run.reader.userUs + run.reader.sysUs) * 1000

// Each round's marginal CPU time per read of one cell, by round number; a round whose
// full or quarter run failed has none.
function perRound (full, quarter) {
  const rounds = new Map()
  for (const run of full) {
    const small = quarter.find(entry => entry.run === run.run)
    if (!run.ok || !small?.ok) continue
    const reads = run.output.reads - small.output.reads
    if (reads > 0) rounds.set(run.run, (cpuNs(run) - cpuNs(small)) / reads)
  }
  return rounds
}

// The median with its interval, or the median alone when too few rounds give one.
function estimate (values) {
  if (values.length === 0) return null
  return medianInterval(values) ?? { estimate: median(values), low: null, high: null }
}

// Against C's rounds: by how much (or how many times) the reader's differ from C's.
function againstC (mine, base, compare) {
  if (mine.length === 0 || base.length === 0) return null
  const interval = compare === 'ratio' ? ratioInterval(base, mine) : differenceInterval(mine, base)
  if (interval) return interval
  const all = compare === 'ratio' ? base.flatMap(c => mine.map(x => c / x)) : mine.flatMap(x => base.map(c => x - c))
  return { estimate: median(all), low: null, high: null }
}

// rejected: cells whose reads strace saw otherwise than the reader says (lib/summary.js),
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
  const rounds = new Map([...cells].map(([key, cell]) => [key, rejected.has(key) ? new Map() : perRound(cell.full, cell.quarter)]))
  const out = []
  for (const [key, cell] of cells) {
    const mine = rounds.get(key)
    const base = cell.program === BASELINE ? [] : [...(rounds.get(`${BASELINE}\t${cell.blockSize}`) ?? new Map()).values()]
    const runs = [...cell.full, ...cell.quarter]
    const entry = {
      program: cell.program,
      blockSize: cell.blockSize,
      runtime: runtimeOf(cell.program, context),
      rounds: mine.size,
      failedRuns: runs.filter(run => !run.ok).length,
      cpuPerReadNs: estimate([...mine.values()]),
      overheadNs: againstC([...mine.values()], base, 'difference'),
      shareOfC: againstC([...mine.values()], base, 'ratio'),
      stealShare: stealShare(runs.filter(run => run.ok)),
      flags: []
    }
    if (rejected.has(key)) entry.rejected = rejected.get(key)
    if (entry.cpuPerReadNs === null) entry.flags.push('failed')
    else if (entry.cpuPerReadNs.low === null) entry.flags.push('few-rounds')
    if (entry.stealShare !== null && entry.stealShare > STEAL_SHARE) entry.flags.push('steal')
    out.push(entry)
  }
  const sizes = [...new Set(out.map(cell => cell.blockSize))].sort((a, b) => a - b)
  return {
    meaning: MEANING,
    pin: context.costPin ?? null,
    sizes,
    rounds: context.options?.costRounds ?? null,
    baseline: BASELINE,
    cells: out.sort((a, b) => a.blockSize - b.blockSize)
  }
}

const within = (value, interval) => interval.low !== null && value >= interval.low && value <= interval.high

// Two runs' headlines side by side: a cell agrees when each run's share of C lies inside
// the other's interval. The rank order is the runtimes' at the smallest size both
// measured, each runtime by its fastest reader there (the baseline's own runtime left
// out: C against its own ceiling is no runtime's answer), and the readers' order beside
// it. Two orders are the same when every pair they put the other way round is a tie in
// both runs (the two intervals overlap): just-sync and just-fast, both within a few
// points of C, swap places from run to run without either run telling them apart.
function headlineAgreement (a, b) {
  if (!a?.cells || !b?.cells) return null
  const cells = []
  for (const left of a.cells) {
    const right = b.cells.find(cell => cell.program === left.program && cell.blockSize === left.blockSize)
    if (!right?.shareOfC || !left.shareOfC) continue
    const agree = within(left.shareOfC.estimate, right.shareOfC) && within(right.shareOfC.estimate, left.shareOfC)
    cells.push({ program: left.program, blockSize: left.blockSize, a: left.shareOfC, b: right.shareOfC, agree })
  }
  const smallest = cells.length ? Math.min(...cells.map(cell => cell.blockSize)) : null
  const ranked = cells.filter(cell => cell.blockSize === smallest).map(cell => cell.program)
  return {
    cells,
    agreeing: cells.filter(cell => cell.agree).length,
    total: cells.length,
    blockSize: smallest,
    runtimeOrder: smallest === null ? null : compareOrders(rankAt(a, ranked, smallest, true), rankAt(b, ranked, smallest, true)),
    readerOrder: smallest === null ? null : compareOrders(rankAt(a, ranked, smallest, false), rankAt(b, ranked, smallest, false))
  }
}

// Best first: [name, shareOfC] of each reader, or of each runtime by its fastest reader.
function rankAt (headline, programs, blockSize, byRuntime) {
  const baselineRuntime = headline.cells.find(cell => cell.program === headline.baseline)?.runtime ?? null
  const best = new Map()
  for (const cell of headline.cells) {
    if (cell.blockSize !== blockSize || !programs.includes(cell.program)) continue
    if (byRuntime && cell.runtime === baselineRuntime) continue
    const name = byRuntime ? cell.runtime : cell.program
    if (!best.has(name) || cell.shareOfC.estimate > best.get(name).estimate) best.set(name, cell.shareOfC)
  }
  return [...best].sort((x, y) => y[1].estimate - x[1].estimate)
}

function compareOrders (a, b) {
  const position = new Map(b.map(([name], i) => [name, i]))
  const overlap = (x, y) => x.low !== null && y.low !== null && x.low <= y.high && y.low <= x.high
  const shareIn = (order, name) => order.find(([entry]) => entry === name)[1]
  const swapped = []
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) {
      const [higher, lower] = [a[i][0], a[j][0]]
      if (position.get(higher) < position.get(lower)) continue
      const tied = overlap(shareIn(a, higher), shareIn(a, lower)) && overlap(shareIn(b, higher), shareIn(b, lower))
      swapped.push({ pair: [higher, lower], tied })
    }
  }
  return { a: a.map(([name]) => name), b: b.map(([name]) => name), swapped, same: swapped.every(swap => swap.tied) }
}

// A run records its table (context.programs, with the rows --node made); older runs
// fall back on today's.
function runtimeOf (name, context) {
  return context.programs?.find(program => program.name === name)?.runtime ?? findProgram(name)?.runtime ?? null
}

module.exports = { summariseHeadline, headlineAgreement, PHASE, QUARTER_PHASE, MEANING }
