'use strict'
// The report's findings: sentences in the manner of the original study ("just-sync
// reads at 99% of C at 64 KiB; node-stream at 71%"), each one generated from the
// numbers of a results set. A finding whose data is absent (no C baseline, no strace
// pass, no GC trace) is left out rather than guessed.
const { sizeName, formatNumber, formatPercent, formatInterval, formatRatio, listJoin } = require('./report-format')
const { SIGNIFICANCE, INTERVAL_LEVEL } = require('./stats')
const { BASELINE, programInfo, programsOf } = require('./report-programs')
const { WARM_QUARTER_READS } = require('./summary')

function sizesOf (set) {
  return [...new Set(set.results.cells.map(cell => cell.blockSize))].sort((a, b) => a - b)
}

// The smallest block size is where the cost of a call shows; the largest is where
// the study compared bulk throughput. One size gives one sentence, not two.
function extremes (sizes) {
  return sizes.length > 1 ? [sizes[0], sizes[sizes.length - 1]] : sizes
}

function cellAt (set, program, blockSize) {
  return set.results.cells.find(cell => cell.program === program && cell.blockSize === blockSize) ?? null
}

// A reader that chooses its own chunk size (wc -c, Node's stream, Bun's stream...) is
// not doing the experiment at any block size: it is kept out of every per-size ranking
// and share of C, and given its own sentence at its chunk size (idiomaticReaders).
const ownChunk = (set, program) => programInfo(program, set.context).honoursBlockSize === false
const ranked = (set, cell) => !ownChunk(set, cell.program)

const steady = cell => cell?.best?.steadyThroughputMBps ?? null
const medianSteady = cell => cell?.steadyThroughputMBps?.median ?? null

// The study quoted best runs; on a machine whose speed wanders, one lucky run can make
// a best figure, so each share of C is given for all runs too: with its interval where
// there are runs enough for one (4 a side), else by the median runs.
function throughputVsC (set, blockSize) {
  const base = cellAt(set, BASELINE, blockSize)
  if (steady(base) === null) return null
  const cells = set.results.cells.filter(cell => cell.blockSize === blockSize && cell.program !== BASELINE && ranked(set, cell))
  const compared = cells.filter(cell => cell.vsC?.steadyThroughput !== null && cell.vsC?.steadyThroughput !== undefined)
    .sort((a, b) => b.vsC.steadyThroughput - a.vsC.steadyThroughput)
  if (compared.length === 0) return null
  const allRunsShare = cell => {
    if (cell.vsC.steadyShare) return ` (all runs ${formatPercent(cell.vsC.steadyShare.estimate)}, ${INTERVAL_LEVEL} interval ${formatInterval(cell.vsC.steadyShare)})`
    return medianSteady(cell) !== null && medianSteady(base) ? ` (median ${formatPercent(medianSteady(cell) / medianSteady(base))})` : ''
  }
  const [first, ...rest] = compared
  let text = `At ${sizeName(blockSize)}, ${first.program} reads at ${formatPercent(first.vsC.steadyThroughput)}${allRunsShare(first)} of C's steady-state throughput (${formatNumber(steady(base))} MB/s` +
    `${medianSteady(base) !== null ? ` best, ${formatNumber(medianSteady(base))} MB/s median` : ''})`
  if (rest.length) text += `, ${listJoin(rest.map(cell => `${cell.program} at ${formatPercent(cell.vsC.steadyThroughput)}${allRunsShare(cell)}`))}`
  const without = cells.filter(cell => !compared.includes(cell)).map(cell => cell.program)
  if (without.length) text += `; ${listJoin(without)} ${without.length === 1 ? 'has' : 'have'} no steady-state figure (a failed cell, or a best run no longer than start-up)`
  const alike = compared.filter(cell => cell.vsC.steadyWithinNoise).map(cell => cell.program)
  if (alike.length) text += `; the runs of ${listJoin(alike)} are not distinguishable from C's (rank test, p ≥ ${SIGNIFICANCE})`
  return text + '.'
}

// With bench.js --marginal: the share of C's marginal throughput, where neither start-up
// nor the JIT's warm-up weighs on a run, with the fit's plus-or-minus.
function marginalVsC (set, blockSize) {
  const base = cellAt(set, BASELINE, blockSize)
  if (!base?.marginal?.throughputMBps) return null
  const compared = set.results.cells.filter(cell => cell.blockSize === blockSize && cell.program !== BASELINE && ranked(set, cell) && typeof cell.vsC?.marginalThroughput === 'number')
    .sort((a, b) => b.vsC.marginalThroughput - a.vsC.marginalThroughput)
  if (compared.length === 0) return null
  const spread = marginal => (marginal.plusMinusShare === null ? '' : ` (fit ±${formatPercent(marginal.plusMinusShare)})`)
  const clause = cell => `${cell.program} at ${formatPercent(cell.vsC.marginalThroughput)}${spread(cell.marginal)}`
  const few = [base, ...compared].filter(cell => cell.marginal.fewReads)
  const caveat = few.length ? `; the quarter runs of ${listJoin(few.map(cell => cell.program))} made fewer than ${WARM_QUARTER_READS} reads, so a JIT may still have been compiling after them` : ''
  return `At ${sizeName(blockSize)}, marginal throughput (full runs less quarter runs, so start-up and warm-up cancel; a share of C is uncertain by both fits' ±): ` +
    `C ${formatNumber(base.marginal.throughputMBps)} MB/s${spread(base.marginal)}, ${listJoin(compared.map(clause))} of it${caveat}.`
}

function fastestJavaScript (set) {
  const clauses = []
  for (const blockSize of extremes(sizesOf(set))) {
    const candidates = set.results.cells.filter(cell => cell.blockSize === blockSize && steady(cell) !== null && programInfo(cell.program, set.context).javascript && ranked(set, cell))
    if (candidates.length === 0) continue
    const fastest = candidates.reduce((a, b) => (steady(b) > steady(a) ? b : a))
    const info = programInfo(fastest.program, set.context)
    const relative = fastest.vsC?.steadyThroughput ? `, ${formatPercent(fastest.vsC.steadyThroughput)} of C` : ''
    clauses.push({ blockSize, text: `${fastest.program} (${info.runtimeLabel}): ${formatNumber(steady(fastest))} MB/s steady-state${relative}` })
  }
  if (clauses.length === 0) return null
  const [first, second] = clauses
  let text = `The fastest JavaScript reader at ${sizeName(first.blockSize)} is ${first.text}`
  if (second) text += `; at ${sizeName(second.blockSize)} it is ${second.text}`
  return text + '.'
}

// Per read, two ways: wall time (what the pipeline took, start-up out) and the reader's
// own CPU time, which leaves out the time it slept waiting on the pipe.
const PER_READ = {
  wall: { cost: 'costPerReadNs', overhead: 'costPerReadOverheadNs', lead: 'with start-up taken out, a read costs' },
  cpu: { cost: 'cpuPerReadNs', overhead: 'cpuPerReadOverheadNs', lead: 'the reader\'s own CPU time per read (user + sys, median run, start-up\'s taken off) is' }
}

function costPerRead (set, measure = PER_READ.wall) {
  const blockSize = sizesOf(set)[0]
  const base = cellAt(set, BASELINE, blockSize)
  if (base?.[measure.cost] === null || base?.[measure.cost] === undefined) return null
  const overhead = cell => cell.vsC?.[measure.overhead]
  const others = set.results.cells.filter(cell => cell.blockSize === blockSize && cell.program !== BASELINE && ranked(set, cell) &&
    overhead(cell) !== null && overhead(cell) !== undefined)
    .sort((a, b) => overhead(b) - overhead(a))
  if (others.length === 0) return null
  const clause = cell => `${cell.program} ${formatNumber(Math.abs(overhead(cell)))} ns ${overhead(cell) >= 0 ? 'more' : 'less'}`
  return `At ${sizeName(blockSize)}, ${measure.lead} C ${formatNumber(base[measure.cost])} ns; ` +
    `${listJoin(others.map(clause))}.`
}

// The measured block size nearest a chunk size (the smaller of two as near), or null.
function nearestSize (sizes, chunkBytes) {
  if (chunkBytes === null || sizes.length === 0) return null
  return sizes.reduce((a, b) => (Math.abs(b - chunkBytes) < Math.abs(a - chunkBytes) ? b : a))
}

// Each own-chunk reader at its own chunk size: the cell at the measured block size equal
// to (or nearest) the chunk size strace saw it read in, against C reading blocks of that
// size. Shared by the finding and the report's table.
function idiomaticRows (set) {
  const sizes = sizesOf(set)
  const chunkSizes = set.results.chunkSizes ?? set.syscalls?.chunkSizes ?? {}
  return programsOf(set).filter(program => ownChunk(set, program)).map(program => {
    const chunkBytes = chunkSizes[program]?.chunkBytes ?? null
    const blockSize = nearestSize(sizes, chunkBytes)
    const cell = blockSize === null ? null : cellAt(set, program, blockSize)
    return {
      program,
      chunkBytes,
      found: chunkSizes[program]?.found ?? 'unknown: no strace pass recorded its reads of stdin',
      blockSize,
      exact: blockSize !== null && blockSize === chunkBytes,
      steadyMBps: steady(cell),
      shareOfC: cell?.vsC?.steadyThroughput ?? null
    }
  })
}

function idiomaticReaders (set) {
  const rows = idiomaticRows(set)
  if (rows.length === 0) return null
  const known = rows.filter(row => row.chunkBytes !== null)
  const unknown = rows.filter(row => row.chunkBytes === null).map(row => row.program)
  const clause = row => {
    const at = row.exact ? sizeName(row.blockSize) : `${sizeName(row.blockSize)} (the nearest size measured)`
    if (row.steadyMBps === null) return `${row.program} reads ${sizeName(row.chunkBytes)} chunks (no steady-state figure at ${at})`
    const share = row.shareOfC === null ? '' : `, ${formatPercent(row.shareOfC)} of C at ${at}`
    return `${row.program} reads ${sizeName(row.chunkBytes)} chunks: ${formatNumber(row.steadyMBps)} MB/s steady-state${share}`
  }
  const sizes = sizesOf(set)
  const span = sizes.length > 1 ? `${sizeName(sizes[0])}–${sizeName(sizes[sizes.length - 1])}` : sizeName(sizes[0])
  const parts = []
  if (known.length) parts.push(`Readers that choose their own chunk size, at the chunk size strace saw them read: ${listJoin(known.map(clause))}`)
  if (unknown.length) {
    parts.push(`${listJoin(unknown)} ${unknown.length === 1 ? 'chooses its' : 'choose their'} own chunk size, which this run did not record (no strace pass saw ${unknown.length === 1 ? 'its' : 'their'} reads)`)
  }
  return `${parts.join('; ')}; ${rows.length === 1 ? 'it is' : 'they are'} left out of the rankings at ${span}.`
}

function threadsStarted (set) {
  const cells = (set.syscalls?.cells ?? []).filter(cell => cell.allThreads)
  if (cells.length === 0) return null
  const byRuntime = new Map()
  for (const cell of cells) {
    const info = programInfo(cell.program, set.context)
    const key = info.runtimeLabel ?? cell.program
    const entry = byRuntime.get(key) ?? { label: key, started: 0, programs: new Set() }
    entry.started = Math.max(entry.started, cell.allThreads.threadsStarted)
    entry.programs.add(cell.program)
    byRuntime.set(key, entry)
  }
  const entries = [...byRuntime.values()].sort((a, b) => b.started - a.started || a.label.localeCompare(b.label))
  return 'Threads started besides the main thread, counted by strace -f (the most at any block size): ' +
    `${listJoin(entries.map(entry => `${entry.label} ${entry.started} (${[...entry.programs].join(', ')})`))}.`
}

function syscallsPerMiB (set, blockSize) {
  const atSize = (set.syscalls?.cells ?? []).filter(cell => cell.blockSize === blockSize)
  // a cell whose reader strace caught reading otherwise than it says is no data point
  const cells = atSize.filter(cell => !cell.rejected && cell.syscallsPerMiB?.allThreads)
  const base = cells.find(cell => cell.program === BASELINE)
  const others = cells.filter(cell => cell.program !== BASELINE && ranked(set, cell))
  if (!base || others.length === 0) return null
  const baseRate = base.syscallsPerMiB.allThreads
  others.sort((a, b) => b.syscallsPerMiB.allThreads - a.syscallsPerMiB.allThreads)
  const clause = cell => `${cell.program} ${formatRatio(cell.syscallsPerMiB.allThreads / baseRate)} (${formatNumber(cell.syscallsPerMiB.allThreads)})`
  let method
  if (typeof base.smallBytes === 'number') {
    method = `from the difference between strace runs of ${sizeName(base.smallBytes)} and ${sizeName(base.bytes)} (start-up's calls are in both and cancel), counting every thread`
  } else {
    // Runs from before the two-size pass: one run, with or without empty input's calls taken off.
    const startup = set.syscalls.startup ? 'its syscalls on empty input taken off' : 'start-up included'
    method = `counting every thread over a ${sizeName(base.bytes)} strace run (${startup})`
  }
  let text = `At ${sizeName(blockSize)}, ${method}, C makes ${formatNumber(baseRate)} syscalls per MiB; relative to that, ${listJoin(others.map(clause))}`
  const noisy = atSize.filter(cell => !cell.rejected && cell.syscallsPerMiB?.noise)
  if (noisy.length) text += `; left out as noise: ${listJoin(noisy.map(cell => `${cell.program} (${cell.syscallsPerMiB.noise})`))}`
  const rejected = atSize.filter(cell => cell.rejected).map(cell => cell.program)
  if (rejected.length) text += `; left out because strace saw ${rejected.length === 1 ? 'its reader' : 'their readers'} read otherwise than ${rejected.length === 1 ? 'it says' : 'they say'}: ${listJoin(rejected)}`
  return text + '.'
}

function gcPauses (set) {
  if (!set.gc?.cells?.length) return null
  const clauses = []
  const never = []
  for (const program of programsOf(set)) {
    const cells = set.gc.cells.filter(cell => cell.program === program && cell.ok)
    if (cells.length === 0) continue
    const busiest = [...cells].sort((a, b) => b.collections - a.collections || b.blockSize - a.blockSize)[0]
    if (busiest.collections === 0) {
      never.push(program)
      continue
    }
    const kinds = Object.entries(busiest.byKind ?? {}).map(([kind, stats]) => `${kind} ×${stats.count}`).join(', ')
    clauses.push(`${program} collected ${busiest.collections} time${busiest.collections === 1 ? '' : 's'} at ${sizeName(busiest.blockSize)} (${kinds}), ` +
      `pausing ${formatNumber(busiest.totalPauseMs)} ms in all and ${formatNumber(busiest.maxPauseMs)} ms at most`)
  }
  if (never.length) clauses.push(`${listJoin(never)} never collected`)
  const present = programsOf(set)
  const untraceable = Object.entries(set.gc.unavailable ?? {})
    .filter(([program]) => present.includes(program) && programInfo(program, set.context).javascript)
  for (const [program, reason] of untraceable) clauses.push(`${program} has no GC trace (${reason})`)
  if (clauses.length === 0) return null
  return `In the GC pass (the run with the most collections for each program), ${clauses.join('; ')}.`
}

function startupTimes (set) {
  const entries = Object.entries(set.results.startup ?? {}).sort((a, b) => a[1].medianNs - b[1].medianNs)
  if (entries.length === 0) return null
  const runs = Math.max(...entries.map(([, startup]) => startup.runs))
  let text = `Start-up on empty input (median of ${runs} run${runs === 1 ? '' : 's'}): ` +
    `${listJoin(entries.map(([program, startup]) => `${program} ${formatNumber(startup.medianNs / 1e6)} ms`))}`
  const [slowestName, slowest] = entries[entries.length - 1]
  const base = set.results.startup[BASELINE]
  if (base && slowestName !== BASELINE) text += `; ${slowestName} takes ${formatRatio(slowest.medianNs / base.medianNs)} as long as C to start`
  return text + '.'
}

function dataQuality (set) {
  const cells = set.results.cells
  const count = flag => cells.filter(cell => (cell.flags ?? []).includes(flag))
  const parts = []
  const describe = (flag, phrase) => {
    const flagged = count(flag)
    if (flagged.length === 0) return
    const where = flagged.length <= 4 ? ` (${listJoin(flagged.map(cell => `${cell.program} at ${sizeName(cell.blockSize)}`))})` : ''
    parts.push(`${flagged.length} ${flagged.length === 1 ? 'is' : 'are'} ${phrase}${where}`)
  }
  describe('failed', 'failed outright')
  describe('noisy', 'noisy')
  describe('feeder-bound', 'feeder-bound')
  describe('reader-waited', 'reader-waited')
  describe('startup-dominated', 'start-up dominated')
  const failedRuns = (set.results.failures ?? []).length
  if (parts.length === 0 && failedRuns === 0) return `All ${cells.length} cells are clean: none noisy, feeder-bound, reader-waited, start-up dominated or failed.`
  let text = parts.length ? `Of ${cells.length} cells, ${listJoin(parts)}` : `No cell is flagged`
  if (failedRuns) text += `; ${failedRuns} run${failedRuns === 1 ? '' : 's'} failed and ${failedRuns === 1 ? 'is' : 'are'} left out of the figures`
  return text + '.'
}

// Several sets: how the second and later sets moved relative to the first, at the
// largest block size both measured.
function compareSets (first, other) {
  const common = sizesOf(first).filter(size => sizesOf(other).includes(size))
  if (common.length === 0) return null
  const blockSize = common[common.length - 1]
  const clauses = []
  for (const program of programsOf(first)) {
    const a = steady(cellAt(first, program, blockSize))
    const b = steady(cellAt(other, program, blockSize))
    if (a !== null && b !== null) clauses.push(`${program} ${formatNumber(b)} vs ${formatNumber(a)} MB/s (${formatRatio(b / a)})`)
  }
  if (clauses.length === 0) return null
  return `At ${sizeName(blockSize)}, steady-state throughput in ${other.label} against ${first.label}: ${listJoin(clauses)}.`
}

const PER_SET = [
  set => extremes(sizesOf(set)).map(size => throughputVsC(set, size)),
  set => extremes(sizesOf(set)).map(size => marginalVsC(set, size)),
  fastestJavaScript,
  idiomaticReaders,
  set => costPerRead(set),
  set => costPerRead(set, PER_READ.cpu),
  threadsStarted,
  set => extremes(sizesOf(set)).map(size => syscallsPerMiB(set, size)),
  gcPauses,
  startupTimes,
  dataQuality
]

// sets: labelled results sets ({ label, context, results, syscalls, gc }).
function findings (sets) {
  const out = []
  for (const set of sets) {
    for (const finding of PER_SET) {
      for (const text of [finding(set)].flat()) {
        if (text) out.push({ set: set.label, text })
      }
    }
  }
  for (const other of sets.slice(1)) {
    const text = compareSets(sets[0], other)
    if (text) out.push({ set: null, text })
  }
  return out
}

module.exports = {
  findings, idiomaticRows, idiomaticReaders, nearestSize, throughputVsC, marginalVsC, fastestJavaScript, costPerRead, PER_READ, threadsStarted, syscallsPerMiB, gcPauses, startupTimes, dataQuality, compareSets
}
