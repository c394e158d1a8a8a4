'use strict'
// The stdio experiment's part of the report's data: the series of every chart, the
// tables, the flagged cells and the findings, shaped from one or more results sets.
// Pure functions of the parsed JSON, so every number can be checked by hand against a
// results folder.
const { NOISY_CV, FEEDER_BOUND_SHARE, READER_WAITED_SHARE, STEAL_SHARE } = require('./summary')
const { headlineRepeatability } = require('./cost')
const { repeatPairs, machineIdentity, sameMachine } = require('../../lib/machine')
const { policyText } = require('../../lib/placement')
const { findings, idiomaticRows, ownChunk, gcByProgram, neverCollected, policyDifference } = require('./findings')
const { sizeLabel, sizeName, formatPercent, listJoin } = require('../../lib/report/format')
const { BASELINE, programInfo, programsOf } = require('./report-programs')
const { straceRow, failureList, syscallsMissingReason, stealPercent, measuredOn } = require('../../lib/report/context')
const { medianIntervalLevel, pairwiseIntervalLevel, levelsText } = require('../../lib/stats')
const { throughputRepeatability, throughputOwnText, throughputCriterionText } = require('./repeatability')
const { runtimeTitle, runtimes } = require('../../lib/runtimes')
const { kernelData } = require('./report-kernel')
const { FAMILIES, familyOf } = require('../../lib/report/looks')
const {
  BUCKETS: PROFILE_BUCKETS, ladderCheck, ladderCheckable, profilePrecision, profilePlacement, SCHEDULER_IN_READ
} = require('./profile')

// Eight syscalls and "other" keep a stacked bar readable; the table lists five per profile.
const TOP_SYSCALLS = 8
const TOP_SYSCALLS_IN_TABLE = 5

const FEEDER_MEANINGS = {
  fixed: 'fixed: dd writes 64 KiB blocks whatever the reader reads',
  matched: 'matched: dd writes blocks of the reader\'s size',
  file: 'file: no pipe and no dd; the reader\'s stdin is a file of zeros in tmpfs'
}

const FLAG_MEANINGS = {
  failed: 'no run of the cell succeeded, or strace\'s trace of its reads saw the reader read otherwise than it says, so none of its runs counts',
  'some-runs-failed': 'some runs failed and were left out',
  noisy: `the wall time varied by more than ${Math.round(NOISY_CV * 100)}% (coefficient of variation) between runs`,
  'feeder-bound': `dd was on the CPU for at least ${Math.round(FEEDER_BOUND_SHARE * 100)}% of the wall time: the feeder, not the reader, set the pace`,
  'reader-waited': `the reader (all its threads) was on the CPU for less than ${Math.round(READER_WAITED_SHARE * 100)}% of the wall time: it waited for dd to refill the pipe, so the figure is the pipe's pace more than the reader's cost per read`,
  'startup-dominated': 'the best run took less than twice the start-up time, so the steady-state figure leans on subtracting start-up',
  steal: `the VM lost more than ${Math.round(STEAL_SHARE * 100)}% of the time of the CPUs its runs used to steal (the hypervisor ran something else): the wall times hold waiting that is not the reader's`,
  disturbed: 'a run it kept saw CPU time of other processes on the CPUs it ran on, or had its ' +
    'reader switched out by one again and again: its figures may hold another program\'s work'
}

// The headline's (the cost pass's) own flags, which its table shows beside each share of C.
const HEADLINE_FLAGS = {
  failed: 'no round of the cell counts: its runs failed, or strace saw its reader read otherwise than it says',
  'few-rounds': 'too few rounds for an interval (6 for CPU per read, 4 a side against C)',
  steal: 'the VM lost more than 2% of the CPU\'s time to steal during its runs',
  unproven: 'fast path unproven: no check could show that this fastest reader ran its ' +
    'runtime\'s fast path (see Fast paths)',
  'host-chunks': 'a WASI host that reads stdin in larger chunks of its own and hands each fd_read ' +
    'its share: the reads are the module\'s, fewer syscalls behind them (docs/wasm.md)'
}

const byBlockSize = (a, b) => a.blockSize - b.blockSize
const MiB = 1024 * 1024

function seriesName (program, set, compare) {
  return compare ? `${program} (${set.label})` : program
}

// One line per program and set across block sizes; pick(cell) gives { y, low, high }
// or null where the cell has no such figure (failed, or no start-up to subtract).
function lineSeries (sets, programs, compare, idPrefix, pick, { keepEmpty = true, skip = () => false, withBand = true } = {}) {
  const series = []
  sets.forEach((set, setIndex) => {
    for (const program of programsOf(set)) {
      // a reader of its own chunk size has no point at a block size (the idiomatic view)
      if (skip(program) || ownChunk(set, program)) continue
      const cells = set.results.cells.filter(cell => cell.program === program).sort(byBlockSize)
      const picked = cells.map(cell => ({ blockSize: cell.blockSize, value: pick(cell) }))
      if (!keepEmpty && picked.every(point => point.value === null || point.value.y === null)) continue
      series.push({
        id: `${idPrefix}:${setIndex}:${program}`,
        name: seriesName(program, set, compare),
        program,
        family: familyOf(program).key,
        set: set.label,
        setIndex,
        data: picked.map(point => [point.blockSize, point.value?.y ?? null]),
        band: withBand
          ? picked.filter(point => point.value && point.value.low !== null && point.value.low !== undefined).map(point => [point.blockSize, point.value.low, point.value.high])
          : null
      })
    }
  })
  return series
}

// The small multiples' panels: one per runtime family of the series (lib/report/looks.js),
// C's own first, each drawn with C as its yardstick.
function families (series) {
  const keys = [...new Set(series.map(entry => entry.family))]
  return keys.map(key => ({ name: key, label: FAMILIES.find(family => family.key === key)?.label ?? key }))
}

// ---- the headline ----

// Per set, the cost pass's cells (experiments/stdio/cost.js) as the report shows them: for each
// size, C's CPU per read and every other reader best first; the chart's series are the
// overhead over C with its interval as whiskers, one series per set.
function headlineData (sets) {
  const perSet = sets.map(set => {
    const headline = set.results.headline
    if (!headline) return { set: set.label, available: false, reason: 'this run has no cost pass (it was measured with --no-cost, or before bench.js had one)' }
    const bySize = {}
    for (const blockSize of headline.sizes) {
      const cells = headline.cells.filter(cell => cell.blockSize === blockSize)
      const named = cell => ({
        ...cell,
        runtimeLabel: cell.runtimeTitle ?? programInfo(cell.program, set.context).runtimeLabel
      })
      const baseCell = cells.find(cell => cell.program === BASELINE)
      const base = baseCell ? named(baseCell) : null
      const rows = cells.filter(cell => cell.program !== BASELINE)
        .sort((a, b) => (b.shareOfC?.estimate ?? -1) - (a.shareOfC?.estimate ?? -1))
        .map(named)
      bySize[blockSize] = { base, rows, levels: headlineLevels(base, rows) }
    }
    return { set: set.label, available: true, sizes: headline.sizes, rounds: headline.rounds, meaning: headline.meaning, bySize, repeatability: headline.repeatability ?? null }
  })
  const available = perSet.filter(entry => entry.available)
  const sizes = [...new Set(available.flatMap(entry => entry.sizes))].sort((a, b) => a - b)
  const chart = {}
  for (const blockSize of sizes) {
    // the first set's order, best first; a reader only a later set measured goes last
    const categories = [...new Set(available.flatMap(entry => entry.bySize[blockSize]?.rows.map(row => row.program) ?? []))]
    // readers whose host reads stdin in chunks of its own make fewer read(2)s than C does:
    // the chart marks them where it sets them beside C
    const chunked = categories.map(program => available.some(entry =>
      entry.bySize[blockSize]?.rows.find(row => row.program === program)?.flags?.includes('host-chunks')))
    chart[blockSize] = {
      categories,
      chunked,
      series: available.map((entry, setIndex) => {
        const rows = entry.bySize[blockSize]?.rows ?? []
        const point = program => rows.find(row => row.program === program) ?? null
        return {
          name: entry.set,
          setIndex,
          data: categories.map(program => point(program)?.overheadNs?.estimate ?? null),
          whiskers: categories.map(program => {
            const interval = point(program)?.overheadNs
            return interval && interval.low !== null ? [interval.low, interval.high] : null
          }),
          shares: categories.map(program => point(program)?.shareOfC ?? null),
          cpu: categories.map(program => point(program)?.cpuPerReadNs?.estimate ?? null),
          baseNs: entry.bySize[blockSize]?.base?.cpuPerReadNs?.estimate ?? null,
          level: levelsText(categories.map(program => point(program)?.overheadNs))
        }
      })
    }
  }
  // each machine's runs by the two-run criterion, its first against each later one (a
  // fleet run twice gives a pair per machine); runs of two machines are compared across
  // machines instead (lib/report/machines.js)
  // runs of two cost-pass policies hold two figures: no check, and the sentence that says so
  const pairs = repeatPairs(sets.filter(set => set.results.headline?.cells?.length))
  const repeatabilities = pairs.map(([first, other]) => {
    const sets = [first.label, other.label]
    const differ = policyDifference(first, other)
    if (differ) return { sets, differ }
    return { ...headlineRepeatability(first.results.headline, other.results.headline), sets }
  })
  return {
    available: available.length > 0,
    sets: perSet,
    sizes,
    defaultSize: sizes[0] ?? null,
    chart,
    repeatabilities
  }
}

// The true levels of one size's intervals, each distinct one once, highest first: a cell
// that lost rounds has another. results.json from before intervals carried their level
// gives them from the rounds.
function headlineLevels (base, rows) {
  const distinct = levels => [...new Set(levels.filter(level => level !== null && level !== undefined))].sort((a, b) => b - a)
  const hasInterval = interval => Boolean(interval) && interval.low !== null
  const perRead = cell => (hasInterval(cell?.cpuPerReadNs) ? cell.cpuPerReadNs.level ?? medianIntervalLevel(cell.rounds) : null)
  const againstC = cell => (hasInterval(cell.shareOfC) && base ? cell.shareOfC.level ?? pairwiseIntervalLevel(cell.rounds, base.rounds) : null)
  return { perRead: distinct([base, ...rows].map(perRead)), againstC: distinct(rows.map(againstC)) }
}

// The fit's plus-or-minus as a band around the marginal throughput: time between the
// two sizes ± plusMinusShare of it (none from a single run, or when the noise is as large
// as the time).
function marginalPoint (cell) {
  const marginal = cell.marginal
  if (!marginal || marginal.throughputMBps === null) return null
  const share = marginal.plusMinusShare
  if (share === null || share >= 1) return { y: marginal.throughputMBps, low: null, high: null }
  return { y: marginal.throughputMBps, low: marginal.throughputMBps / (1 + share), high: marginal.throughputMBps / (1 - share) }
}

function throughputSeries (sets, programs, compare) {
  const anyMarginal = sets.some(set => set.results.cells.some(cell => cell.marginal))
  // a run shorter than twice the start-up has no steady state to speak of: its point would
  // rest on the start-up taken away (bun-wasi's 245% of C at 64 KiB), so it is left out here,
  // flagged in the tables, and drawn end-to-end
  const steadyState = cell => cell.best && !cell.flags?.includes('startup-dominated')
  const steady = lineSeries(sets, programs, compare, 'throughput', cell => (steadyState(cell)
    ? { y: cell.best.steadyThroughputMBps, low: cell.steadyThroughputMBps?.min ?? null, high: cell.steadyThroughputMBps?.max ?? null }
    : null))
  return {
    families: families(steady),
    baseline: BASELINE,
    marginal: anyMarginal ? lineSeries(sets, programs, compare, 'throughput', marginalPoint) : null,
    steady,
    raw: lineSeries(sets, programs, compare, 'throughput', cell => (cell.best
      ? { y: cell.best.throughputMBps, low: cell.throughputMBps.min, high: cell.throughputMBps.max }
      : null))
  }
}

function timeSeries (sets, programs, compare) {
  return lineSeries(sets, programs, compare, 'time', cell => (cell.best
    ? { y: cell.best.wallNs / 1e6, low: cell.wallNs.min / 1e6, high: cell.wallNs.max / 1e6 }
    : null))
}

function costSeries (sets, programs, compare) {
  // a read of one block only: not a WASI host's that reads stdin in chunks of its own (its
  // fd_reads are no read(2)s), nor a run whose start-up took most of it (bun-wasi at 64 KiB
  // drew 9.6 µs under C's), as the throughput's steady line leaves them out
  const chunked = program => Boolean(programInfo(program, sets[0].context).hostChunks)
  const perBlock = cell => !cell.flags?.includes('startup-dominated')
  const perRead = lineSeries(sets, programs, compare, 'cost',
    cell => (perBlock(cell) && cell.costPerReadNs != null ? { y: cell.costPerReadNs } : null),
    { keepEmpty: false, withBand: false, skip: chunked })
  const overhead = lineSeries(sets, programs, compare, 'overhead', cell => {
    const value = cell.vsC?.costPerReadOverheadNs
    return !perBlock(cell) || value === null || value === undefined ? null : { y: value }
  }, { keepEmpty: false, withBand: false, skip: program => program === BASELINE || chunked(program) })
  // Say why a program has no line rather than leave the reader to wonder.
  const shown = new Set(perRead.map(series => series.program))
  const cellsOf = program => sets.flatMap(set => set.results.cells.filter(cell => cell.program === program))
  const startupOnly = program => cellsOf(program).some(cell => cell.costPerReadNs != null) &&
    cellsOf(program).filter(cell => cell.costPerReadNs != null).every(cell => !perBlock(cell))
  const left = programs.filter(program => !shown.has(program)).map(program => {
    const info = programInfo(program, sets[0].context)
    let reason = 'no run was longer than its start-up time, so there is nothing left to divide by the reads'
    if (info.honoursBlockSize === false) reason = 'picks its own chunk size, so a read is not one block'
    else if (info.hostChunks) {
      reason = 'its WASI host reads stdin in chunks of its own, so an fd_read is not one read(2) of a block'
    } else if (startupOnly(program)) {
      reason = 'every run took less than twice its start-up time, so its figure would lean on subtracting it'
    }
    return { program, reason }
  })
  return { perRead, overhead, left, hasBaseline: sets.some(set => set.results.cells.some(cell => cell.program === BASELINE && cell.best)) }
}

// ---- syscalls ----

function topOf (profile, count) {
  return profile ? profile.syscalls.slice(0, count).map(row => ({ name: row.name, calls: row.calls })) : []
}

// Calls per read in the steady state, stacked by syscall: the commonest TOP_SYSCALLS names
// over every program, the rest as 'other'; null where a program has no rate (one run, noise).
function stackedPerRead (entries, field) {
  const rateOf = entry => entry.cell.syscallsPerRead?.[field] ?? null
  const totals = new Map()
  for (const entry of entries) {
    for (const row of rateOf(entry)?.calls ?? []) totals.set(row.name, (totals.get(row.name) ?? 0) + row.calls)
  }
  const top = [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, TOP_SYSCALLS).map(([name]) => name)
  const calls = (entry, name) => rateOf(entry).calls.find(row => row.name === name)?.calls ?? 0
  const series = top.map(name => ({ name, data: entries.map(entry => (rateOf(entry) ? calls(entry, name) : null)) }))
  const other = entries.map(entry => (rateOf(entry) ? rateOf(entry).perRead - top.reduce((sum, name) => sum + calls(entry, name), 0) : null))
  if (other.some(value => value > 1e-9)) series.push({ name: 'other', data: other })
  return series
}

function syscallData (sets, programs, compare) {
  const withData = sets.filter(set => set.syscalls?.cells?.length)
  const notes = sets.filter(set => !withData.includes(set)).map(set => ({ set: set.label, reason: syscallsMissingReason(set) }))
  if (withData.length === 0) return { available: false, notes }
  const sizes = [...new Set(withData.flatMap(set => set.syscalls.cells.map(cell => cell.blockSize)))].sort((a, b) => a - b)
  const bySize = {}
  for (const blockSize of sizes) {
    const entries = []
    for (const set of withData) {
      for (const program of programs) {
        const cell = set.syscalls.cells.find(c => c.program === program && c.blockSize === blockSize)
        if (cell) entries.push({ set, program, cell })
      }
    }
    bySize[blockSize] = {
      categories: entries.map(entry => seriesName(entry.program, entry.set, compare)),
      bytes: [...new Set(entries.map(entry => entry.cell.bytes))],
      smallBytes: [...new Set(entries.map(entry => entry.cell.smallBytes).filter(bytes => typeof bytes === 'number'))],
      main: stackedPerRead(entries, 'mainThread'),
      all: stackedPerRead(entries, 'allThreads'),
      // C's calls per read, the line every bar is read against
      baseline: Object.fromEntries(['mainThread', 'allThreads'].map(field => [field,
        entries.find(entry => entry.program === BASELINE)?.cell.syscallsPerRead?.[field]?.perRead ?? null])),
      startup: ['mainThread', 'allThreads'].map(field => ({
        name: field === 'mainThread' ? 'main thread' : 'every thread',
        data: entries.map(entry => entry.cell.syscallsPerRead?.[field]?.startup ?? null)
      })),
      table: entries.map(entry => ({
        program: entry.program,
        set: entry.set.label,
        threads: entry.cell.threads,
        totalMain: entry.cell.mainThread?.totalCalls ?? null,
        totalAll: entry.cell.allThreads?.totalCalls ?? null,
        perMiBMain: entry.cell.syscallsPerMiB?.mainThread ?? null,
        perMiBAll: entry.cell.syscallsPerMiB?.allThreads ?? null,
        perMiBNoise: entry.cell.syscallsPerMiB?.noise ?? null,
        perReadAll: entry.cell.syscallsPerRead?.allThreads?.perRead ?? null,
        rejected: entry.cell.rejected ?? null,
        failed: entry.cell.failedRuns?.join('; ') || null,
        topMain: topOf(entry.cell.mainThread, TOP_SYSCALLS_IN_TABLE),
        topAll: topOf(entry.cell.allThreads, TOP_SYSCALLS_IN_TABLE)
      }))
    }
  }
  // Runs summarised before per-read counts have only the raw counts, which the table shows.
  const perRead = withData.some(set => set.syscalls.cells.some(cell => cell.syscallsPerRead))
  const older = withData.filter(set => !set.syscalls.cells.some(cell => cell.syscallsPerRead))
  for (const set of older) {
    const oneRun = set.syscalls.cells.every(cell => typeof cell.smallBytes !== 'number')
    notes.push({
      set: set.label,
      reason: oneRun
        ? 'an older lab profiled one run per cell, so calls per read cannot be told from start-up\'s: the table has the run\'s own counts'
        : 'its syscalls.json predates calls per read: node analyse.js --rederive on its folder counts them'
    })
  }
  // The largest block size shows the most varied profile: at small sizes read() is nearly all of it.
  return { available: true, perRead, notes, sizes, defaultSize: sizes[sizes.length - 1], bySize }
}

// ---- memory, CPU, start-up ----

function resourceData (sets, programs, compare) {
  const suffix = set => (compare ? ` (${set.label})` : '')
  const categories = programs
  const maxRss = (set, program) => {
    const cells = set.results.cells.filter(cell => cell.program === program && cell.reader)
    return cells.length ? Math.max(...cells.map(cell => cell.reader.maxRssKb)) / 1024 : null
  }
  const memory = sets.flatMap((set, setIndex) => [
    { name: `reading (max over block sizes)${suffix(set)}`, setIndex, data: categories.map(program => maxRss(set, program)) },
    { name: `empty input (start-up)${suffix(set)}`, setIndex, data: categories.map(program => (set.results.startup?.[program]?.maxRssKb ?? null) !== null ? set.results.startup[program].maxRssKb / 1024 : null) }
  ])
  const sizes = [...new Set(sets.flatMap(set => set.results.cells.map(cell => cell.blockSize)))].sort((a, b) => a - b)
  const cpuBySize = {}
  for (const blockSize of sizes) {
    const usage = (set, program, field) => {
      const cell = set.results.cells.find(c => c.program === program && c.blockSize === blockSize)
      return cell?.reader ? cell.reader[field] / 1e6 : null
    }
    cpuBySize[blockSize] = sets.flatMap((set, setIndex) => [
      { name: `user${suffix(set)}`, kind: 'user', stack: set.label, setIndex, data: categories.map(program => usage(set, program, 'userUs')) },
      { name: `sys${suffix(set)}`, kind: 'sys', stack: set.label, setIndex, data: categories.map(program => usage(set, program, 'sysUs')) }
    ])
  }
  const startup = sets.map((set, setIndex) => ({
    name: `median start-up${suffix(set)}`,
    setIndex,
    data: categories.map(program => (set.results.startup?.[program] ? set.results.startup[program].medianNs / 1e6 : null)),
    range: categories.map(program => (set.results.startup?.[program] ? [set.results.startup[program].minNs / 1e6, set.results.startup[program].maxNs / 1e6] : null)),
    runs: categories.map(program => set.results.startup?.[program]?.runs ?? null)
  }))
  return { categories, memory, cpu: { sizes, defaultSize: sizes[sizes.length - 1], bySize: cpuBySize }, startup }
}

// ---- GC ----

// The heap as the trace saw it: at each collection, the heap before it and after it, joined
// by the drop; between collections the trace says nothing, so the line breaks (a null) rather
// than join samples tens or hundreds of ms apart.
function heapDrops (timeline) {
  return timeline.flatMap(([atMs, before, after], i) => [...(i ? [[atMs, null]] : []), [atMs, before], [atMs, after]])
}

// Each collection as a point: when (ms since the isolate started), how long it paused, and
// its generation (young: a scavenge; old: a mark-compact). Older records kept no pause.
function pausePoints (timeline) {
  return timeline.filter(entry => entry.length >= 5)
    .map(([atMs, , , pauseMs, generation]) => ({ x: atMs, y: pauseMs, generation }))
}

// GC's pause per MiB read, a line per program across block sizes, as lineSeries shapes them.
function pausePerMiBSeries (sets, compare) {
  const series = sets.flatMap((set, setIndex) => {
    const cells = set.gc?.cells ?? []
    return [...new Set(cells.map(cell => cell.program))].map(program => ({
      id: `gc-per-mib:${setIndex}:${program}`,
      name: seriesName(program, set, compare),
      program,
      family: familyOf(program).key,
      set: set.label,
      setIndex,
      data: cells.filter(cell => cell.program === program).sort(byBlockSize)
        .map(cell => [cell.blockSize, cell.ok && cell.bytes ? cell.totalPauseMs / (cell.bytes / MiB) : null]),
      band: null
    }))
  })
  // a program that never collected is named once under the table, not drawn as a line of zeros
  return series.filter(entry => entry.data.some(([, pause]) => pause > 0))
}

function gcMissingReason (set) {
  if (set.missing?.gc) return set.missing.gc
  if (set.context?.options?.gc === false) return 'the GC pass was skipped (--no-gc)'
  return 'the GC pass recorded no trace'
}

function gcData (sets, programs, compare) {
  const rows = []
  const unavailable = []
  const notes = []
  const timeline = []
  sets.forEach((set, setIndex) => {
    const present = programsOf(set)
    if (!set.gc || !set.gc.cells) {
      notes.push({ set: set.label, reason: gcMissingReason(set) })
      return
    }
    for (const [program, reason] of Object.entries(set.gc.unavailable ?? {})) {
      if (present.includes(program)) unavailable.push({ set: set.label, program, reason })
    }
    if (set.gc.cells.length === 0) notes.push({ set: set.label, reason: gcMissingReason(set) })
    for (const program of programs) {
      const cells = set.gc.cells.filter(cell => cell.program === program).sort(byBlockSize)
      for (const cell of cells) {
        rows.push({
          set: set.label,
          program,
          blockSize: cell.blockSize,
          ok: cell.ok,
          failure: cell.failure ?? null,
          collections: cell.collections ?? null,
          byKind: Object.entries(cell.byKind ?? {}).map(([kind, stats]) => ({ kind, ...stats })),
          totalPauseMs: cell.totalPauseMs ?? null,
          maxPauseMs: cell.maxPauseMs ?? null,
          maxHeapMB: cell.maxHeapMB ?? null,
          traceFile: cell.traceFile ?? null
        })
      }
      // The trace with the most collections shows the most of the heap's behaviour.
      const busiest = cells.filter(cell => cell.ok && cell.collections > 0)
        .sort((a, b) => b.collections - a.collections || b.blockSize - a.blockSize)[0]
      if (busiest) {
        timeline.push({
          name: `${program} @ ${sizeLabel(busiest.blockSize)}${compare ? ` (${set.label})` : ''}`,
          program,
          set: set.label,
          blockSize: busiest.blockSize,
          traceFile: busiest.traceFile,
          setIndex,
          data: heapDrops(busiest.timeline),
          pauses: pausePoints(busiest.timeline)
        })
      }
    }
  })
  // the programs whose every traced run never collected: one line, not a table of zeros; one
  // whose run failed keeps its rows, the failure among them
  const never = sets.flatMap(set => gcByProgram(set).filter(neverCollected)
    .map(entry => ({ set: set.label, program: entry.program })))
  const neverSet = new Set(never.map(entry => `${entry.set}\t${entry.program}`))
  const collectedRows = rows.filter(row => !neverSet.has(`${row.set}\t${row.program}`))
  const traced = rows.filter(row => row.ok)
  const timelineNote = timeline.length === 0
    ? (traced.length
        ? `None of the ${traced.length} traced runs collected garbage: the readers allocated too little for V8 to start a collection.`
        : 'No run was traced, so there is no heap timeline.')
    : null
  const sizes = [...new Set(sets.flatMap(set => (set.gc?.cells ?? []).map(cell => cell.blockSize)))].sort((a, b) => a - b)
  const pausesKept = timeline.some(series => series.pauses.length)
  return {
    available: rows.length > 0,
    rows: collectedRows,
    never,
    unavailable,
    notes,
    timeline,
    timelineNote,
    pausesNote: timeline.length && !pausesKept
      ? 'this run\'s gc.json predates each collection\'s pause: node analyse.js --rederive on its folder reads them from the traces'
      : null,
    sizes,
    perMiB: pausePerMiBSeries(sets, compare)
  }
}

// ---- where the ns go (the profile pass) ----

// The kernel's read(2) bucket, with the switching bucket's waits inside read(2), against what
// the kernel pass measured inside read(2) for the reader at the size (eBPF, on the CPU from
// sys_enter to sys_exit, which holds the on-CPU part of such a wait; a review found the bucket
// alone below it in 21 of 25): { ns, ratio, disagrees (by more than KERNEL_AGREEMENT) }, or
// null without a kernel pass. The kernel pass runs as the cost runs do, the profile as its run
// recorded (experiments/stdio/profile.js profilePlacement), so a disagreement says how much
// the placement moves the kernel's part, as well as any fault.
const KERNEL_AGREEMENT = 0.2
function kernelCheck (cell, kernel) {
  const passCell = kernel?.cells?.find(entry => entry.program === cell.program && entry.blockSize === cell.blockSize)
  const ns = passCell?.kernelNs?.estimate
  if (!Number.isFinite(ns) || !(ns > 0)) return null
  const switching = cell.buckets.switching
  const samplesOf = frame => switching?.top?.find(([name]) => name === frame)?.[1] ?? 0
  const all = (switching?.top ?? []).reduce((sum, [, samples]) => sum + samples, 0)
  const waitNs = all > 0 ? switching.ns * samplesOf(SCHEDULER_IN_READ) / all : 0
  const ratio = (cell.buckets.kernelRead.ns + waitNs) / ns
  return { ns, waitNs, ratio, disagrees: Math.abs(ratio - 1) > KERNEL_AGREEMENT }
}

// Per set with a profile pass: its readers, C first, each bucket's ns per read, and what each
// reader's buckets add over C's with the frames behind them; or why there is none. With a
// calls run beside (ladder), each reader's call into its runtime against its no-op call.
function profileData (sets, ladder = null) {
  const rungs = ladder?.results?.ladder?.rows ?? null
  const entries = []
  const notes = []
  for (const set of sets) {
    const cells = set.profile?.cells ?? []
    if (cells.length === 0) {
      const perf = set.context?.perf
      const refused = perf && !perf.available && set.context.options?.profile ? perf.reason : null
      notes.push({
        set: set.label,
        reason: refused
          ? `perf could not sample: ${refused}`
          : set.context?.options?.profile === false
            ? 'the profile pass was skipped (--no-profile)'
            : 'this run has no profile pass (measured before the lab had one)'
      })
      continue
    }
    const measured = cells.filter(cell => cell.ok)
    const base = measured.find(cell => cell.program === BASELINE) ?? null
    // C first, then by CPU per read
    const rank = cell => (cell.program === BASELINE ? -Infinity : cell.cpuPerReadNs)
    const rows = [...measured].sort((a, b) => rank(a) - rank(b))
    entries.push({
      set: set.label,
      blockSize: cells[0].blockSize,
      placement: profilePlacement(set.context),
      buckets: PROFILE_BUCKETS,
      baseNs: base?.cpuPerReadNs ?? null,
      rows: rows.map(cell => ({
        program: cell.program,
        cpuPerReadNs: cell.cpuPerReadNs,
        cpuPerReadInterval: cell.cpuPerReadInterval ?? null,
        pacedByC: cell.pacedByC ?? false,
        samples: cell.samples,
        rounds: cell.rounds ?? 1,
        failedRounds: cell.failedRounds ?? [],
        // the profiler's own cost per read, and what share of the profiled CPU perf's samples saw
        profilerCostNs: cell.profilerCostNs ?? null,
        profilerCostInterval: cell.profilerCostInterval ?? null,
        profiledNs: cell.profiledNs ?? null,
        sampledShare: cell.sampledShare ?? null,
        unnamed: cell.unnamed ?? null,
        traceFiles: cell.traceFiles ?? (cell.traceFile ? [cell.traceFile] : []),
        ns: Object.fromEntries(PROFILE_BUCKETS.map(({ key }) => [key, cell.buckets[key].ns])),
        intervals: Object.fromEntries(PROFILE_BUCKETS.map(({ key }) => [key, cell.buckets[key].interval ?? null])),
        tree: cell.tree ?? null,
        shrank: cell.shrankAgainstC ?? [],
        kernelPass: kernelCheck(cell, set.results?.kernel),
        ladderCall: rungs ? ladderCheck(cell, base, rungs) : null,
        overC: base && cell !== base
          ? Object.fromEntries(PROFILE_BUCKETS.map(({ key }) => [key, cell.buckets[key].ns - base.buckets[key].ns]))
          : null,
        top: Object.fromEntries(PROFILE_BUCKETS.map(({ key }) => [key, cell.buckets[key].top]))
      })),
      failed: cells.filter(cell => !cell.ok).map(cell => ({ program: cell.program, reason: cell.failure })),
      precision: profilePrecision(measured)
    })
  }
  const ladderRun = rungs ? ladder.context?.runId ?? ladder.name : null
  // without a calls run, the readers whose call the ladder could check (against a C of their
  // own run, which ladderCheck needs): the page says how to
  const withC = entries.filter(entry => entry.baseNs !== null)
  const unchecked = rungs ? [] : ladderCheckable(withC.flatMap(entry => entry.rows.map(row => row.program)))
  return { available: entries.length > 0, entries, notes, ladderRun, unchecked }
}

// ---- tables ----

// Readers of their own chunk size have a row in the idiomatic table, not here.
function summaryTable (set) {
  const sizes = [...new Set(set.results.cells.map(cell => cell.blockSize))].sort((a, b) => a - b)
  const rows = programsOf(set).filter(program => !ownChunk(set, program)).map(program => ({
    program,
    cells: Object.fromEntries(sizes.map(blockSize => {
      const cell = set.results.cells.find(c => c.program === program && c.blockSize === blockSize)
      if (!cell) return [blockSize, null]
      return [blockSize, {
        steadyMBps: cell.best?.steadyThroughputMBps ?? null,
        rawMBps: cell.best?.throughputMBps ?? null,
        bestWallNs: cell.best?.wallNs ?? null,
        vsC: cell.vsC?.steadyThroughput ?? null,
        vsCRaw: cell.vsC?.throughput ?? null,
        withinNoise: cell.vsC?.steadyWithinNoise ?? false,
        share: cell.vsC?.steadyShare ?? null,
        // why the runs do not support its share of C (experiments/stdio/summary.js), printed in its place
        withheld: cell.vsC?.withheld ?? null,
        withheldWhy: cell.vsC?.withheldWhy ?? null,
        hasMarginal: Boolean(cell.marginal),
        marginalMBps: cell.marginal?.throughputMBps ?? null,
        marginalFewReads: cell.marginal?.fewReads ?? false,
        vsCMarginal: cell.vsC?.marginalThroughput ?? null,
        costPerReadNs: cell.costPerReadNs ?? null,
        flags: cell.flags ?? []
      }]
    }))
  }))
  return { set: set.label, sizes, rows, marginal: set.results.cells.some(cell => cell.marginal), shares: set.results.cells.some(cell => cell.vsC?.steadyShare) }
}

// Every cell of every set, flat: the CSV's rows.
function cellRows (sets) {
  return sets.flatMap(set => {
    const order = programsOf(set)
    const cells = [...set.results.cells].sort((a, b) => order.indexOf(a.program) - order.indexOf(b.program) || a.blockSize - b.blockSize)
    return cells.map(cell => ({
      runId: set.label,
      program: cell.program,
      blockSize: cell.blockSize,
      ownChunk: ownChunk(set, cell.program),
      cost: set.results.headline?.cells.find(entry => entry.program === cell.program && entry.blockSize === cell.blockSize) ?? null,
      kernel: set.results.kernel?.cells.find(entry => entry.program === cell.program && entry.blockSize === cell.blockSize) ?? null,
      bytes: cell.bytes,
      runs: cell.runs,
      bestWallNs: cell.best?.wallNs ?? null,
      bestMBps: cell.best?.throughputMBps ?? null,
      steadyMBps: cell.best?.steadyThroughputMBps ?? null,
      medianWallNs: cell.wallNs?.median ?? null,
      cv: cell.wallNs?.cv ?? null,
      costPerReadNs: cell.costPerReadNs ?? null,
      cpuPerReadNs: cell.cpuPerReadNs ?? null,
      vsC: cell.vsC?.steadyThroughput ?? null,
      vsCRaw: cell.vsC?.throughput ?? null,
      rankTestP: cell.vsC?.steadyRankTestP ?? null,
      vsCAllRuns: cell.vsC?.steadyShare?.estimate ?? null,
      vsCAllRunsLow: cell.vsC?.steadyShare?.low ?? null,
      vsCAllRunsHigh: cell.vsC?.steadyShare?.high ?? null,
      marginalMBps: cell.marginal?.throughputMBps ?? null,
      marginalPerReadNs: cell.marginal?.perReadNs ?? null,
      vsCMarginal: cell.vsC?.marginalThroughput ?? null,
      flags: cell.flags ?? []
    }))
  })
}

function flagDetail (flag, cell) {
  if (flag === 'failed') return cell.rejected ?? null
  if (flag === 'noisy') return `CV ${formatPercent(cell.wallNs?.cv)}`
  if (flag === 'feeder-bound') return `dd on CPU ${formatPercent(cell.feederCpuShare)}`
  if (flag === 'reader-waited') return `reader on CPU ${formatPercent(cell.readerCpuShare)}`
  if (flag === 'steal') return `steal ${stealPercent(cell.stealShare)}`
  if (flag === 'some-runs-failed') {
    const quarter = cell.failedQuarterRuns ? `, ${cell.failedQuarterRuns} of its quarter runs` : ''
    // a throughput cell counts runs, a headline cell rounds
    return `${cell.failedRuns} of ${cell.failedRuns + (cell.runs ?? cell.rounds)} failed${quarter}`
  }
  return null
}

// More flagged cells than a list reads well: a flag on more, and on most cells, is said by
// its count and the cells it spares.
const MANY_FLAGGED = 12

// The cells each flag marks: the timing pass's, then the headline's (the cost pass's), whose
// table shows its own; a list without the headline's said no reader was flagged while its
// table showed five.
function flagList (sets) {
  const out = []
  for (const set of sets) {
    for (const flag of Object.keys(FLAG_MEANINGS)) {
      const cells = set.results.cells.filter(cell => (cell.flags ?? []).includes(flag))
      if (cells.length === 0) continue
      // a flag on most cells (reader-waited on 203 of 252) is said by its count and the cells
      // it spares, which a list of two hundred would bury
      const most = cells.length > MANY_FLAGGED && cells.length > set.results.cells.length / 2
      const spared = set.results.cells.filter(cell => !(cell.flags ?? []).includes(flag))
      out.push({
        set: set.label,
        flag,
        meaning: FLAG_MEANINGS[flag],
        cells: cells.map(cell => ({ program: cell.program, blockSize: cell.blockSize, detail: flagDetail(flag, cell) })),
        ...(most
          ? {
              most: {
                of: set.results.cells.length,
                spared: spared.map(cell => `${cell.program} at ${sizeName(cell.blockSize)}`).join(', ') || 'none'
              }
            }
          : {})
      })
    }
    for (const flag of Object.keys(HEADLINE_FLAGS)) {
      const cells = (set.results.headline?.cells ?? []).filter(cell => (cell.flags ?? []).includes(flag))
      if (cells.length === 0) continue
      out.push({
        set: set.label,
        flag,
        pass: 'cost',
        meaning: `in the headline's cost pass, ${HEADLINE_FLAGS[flag]}`,
        cells: cells.map(cell => ({ program: cell.program, blockSize: cell.blockSize, detail: null }))
      })
    }
  }
  return out
}

// Side by side: each program and block size that more than one set measured.
function comparison (sets) {
  if (sets.length < 2) return null
  const rows = []
  const programs = [...new Set(sets.flatMap(programsOf))]
  const sizes = [...new Set(sets.flatMap(set => set.results.cells.map(cell => cell.blockSize)))].sort((a, b) => a - b)
  for (const program of programs) {
    for (const blockSize of sizes) {
      const values = sets.map(set => {
        const cell = set.results.cells.find(c => c.program === program && c.blockSize === blockSize)
        return cell ? { steadyMBps: cell.best?.steadyThroughputMBps ?? null, rawMBps: cell.best?.throughputMBps ?? null, vsC: cell.vsC?.withheld ? null : cell.vsC?.steadyThroughput ?? null, flags: cell.flags ?? [] } : null
      })
      if (values.filter(Boolean).length < 2) continue
      const first = values[0]?.steadyMBps
      rows.push({
        program,
        blockSize,
        values,
        ratios: values.map(value => (first && value?.steadyMBps ? value.steadyMBps / first : null))
      })
    }
  }
  // the runs of another machine than the first's: their ratios to it are the two machines', not
  // a run repeated (a review: the caption said neither)
  const first = machineIdentity(sets[0].context)
  const elsewhere = sets.slice(1).filter(set => !sameMachine(first, machineIdentity(set.context)).same)
    .map(set => set.label)
  return { sets: sets.map(set => set.label), rows, elsewhere }
}

// The side-by-side table's title: what each column is, and which runs measured another machine.
function comparisonTitle ({ sets, elsewhere = [] }) {
  const others = elsewhere.length
    ? `; ${listJoin(elsewhere)} ran on another machine than ${sets[0]}, ` +
      `so ${elsewhere.length === 1 ? 'its' : 'their'} ` +
      'ratios to it are the machines\' as much as the runs\''
    : ''
  return `Side by side: steady-state MB/s, and each run relative to ${sets[0]}${others}`
}

// Whether the figures repeat: each set's own figure (its cells' interleaved halves), and
// each later set against the first by the two-run criterion (experiments/stdio/repeatability.js), each
// with its sentence; a figure the sets hold nothing for is null.
function repeatabilityData (sets) {
  return {
    own: sets.map(set => ({ set: set.label, result: set.results.throughputRepeatability ?? null, text: throughputOwnText(set.results.throughputRepeatability) })),
    twoRuns: repeatPairs(sets).map(([first, other]) => {
      const labels = [first.label, other.label]
      const measured = first.results.cells?.length && other.results.cells?.length
      const result = measured ? throughputRepeatability(first.results, other.results) : null
      return { sets: labels, result, text: result && throughputCriterionText(result, labels) }
    })
  }
}

// ---- the context ----

// The options a run was made with; a run from before context.json recorded one gives
// what its results hold.
function runOptions (set) {
  const options = set.context?.options ?? {}
  return {
    feeder: options.feeder ?? set.results.feeder ?? null,
    runs: options.runs ?? set.results.runsPerCell ?? null,
    warmup: options.warmup ?? null,
    sizes: options.sizes ?? [...new Set(set.results.cells.map(cell => cell.blockSize))].sort((a, b) => a - b),
    pin: options.pin ?? null,
    gc: options.gc ?? null
  }
}

// How a run measured: the feeder, the bytes, runs and block sizes, and its traces.
function contextRows (set) {
  const options = runOptions(set)
  const bytesPerRun = [...new Set(set.results.cells.map(cell => cell.bytes))].sort((a, b) => a - b)
  return [
    ['feeder', FEEDER_MEANINGS[options.feeder ?? 'fixed'] ?? options.feeder],
    ['bytes per run', bytesPerRun.map(sizeName).join(', ')],
    // a run with no timing pass (a calls run's cost pass beside its ladder) times no cell in runs
    ['runs per cell', set.results.cells.length === 0
      ? null
      : options.warmup !== null ? `${options.runs} (after ${options.warmup} warm-up)` : options.runs],
    ['block sizes', options.sizes.map(sizeName).join(', ')],
    ['pinned to CPUs', set.context?.placement ? null : options.pin === null ? null : options.pin ? 'yes: dd on CPU 0, the reader on CPU 1' : 'no'],
    straceRow(set.context ?? {}),
    ['GC trace', options.gc === false ? 'skipped (--no-gc)' : 'V8 --trace-gc']
  ]
}

// Where one of its passes ran (lib/placement.js): dd's CPU and the reader's.
const pinText = pin => (pin.feeder === pin.reader
  ? `dd and the reader on CPU ${pin.reader}`
  : `dd on CPU ${pin.feeder}, the reader on CPU ${pin.reader}`) + policyText(pin.policy)

// Why no calls run can be set beside these stdio runs' profiles (analyse.js --ladder), or
// null: none of them had a profile pass.
function ladderProblem (sets) {
  if (!sets.some(set => set.profile?.cells?.some(cell => cell.ok))) {
    return `${sets.map(set => set.name).join(', ')} profiled no reader (no profile pass); give a stdio run that ` +
      'had one (perf must sample: docs/profile.md)'
  }
  return null
}

// sets: labelled results sets ({ label, context, results, syscalls, gc }); ladder: a calls
// run's set, beside them (analyse.js --ladder).
function shape (sets, { ladder = null } = {}) {
  const compare = sets.length > 1
  const programs = [...new Set(sets.flatMap(programsOf))]
  const sizes = [...new Set(sets.flatMap(set => set.results.cells.map(cell => cell.blockSize)))].sort((a, b) => a - b)
  const { runs, feeder } = runOptions(sets[0])
  return {
    subtitle: `${programs.length} programs × ${sizes.length} block sizes, best of ${runs ?? '?'} runs, feeder ${feeder ?? '?'}, ${measuredOn(sets[0])}`,
    sizes,
    headline: headlineData(sets),
    // each reader's time inside read(2) (experiments/stdio/report-kernel.js)
    kernel: kernelData(sets),
    profile: profileData(sets, ladder),
    kernelMissing: sets[0].context.bpf?.available === false ? sets[0].context.bpf.reason : null,
    programs: programs.map(program => programInfo(program, sets[0].context)),
    throughput: throughputSeries(sets, programs, compare),
    time: timeSeries(sets, programs, compare),
    cost: costSeries(sets, programs, compare),
    syscalls: syscallData(sets, programs, compare),
    resources: resourceData(sets, programs, compare),
    gc: gcData(sets, programs, compare),
    // readers that choose their own chunk size, each at that size (experiments/stdio/findings.js)
    idiomatic: sets.map(set => ({ set: set.label, rows: idiomaticRows(set) })).filter(entry => entry.rows.length),
    // each fastest reader's fast-path check (experiments/stdio/fastpath.js)
    fastPaths: sets.map(set => ({ set: set.label, rows: fastPathRows(set) })).filter(entry => entry.rows.length),
    summaries: sets.map(summaryTable),
    cells: cellRows(sets),
    comparison: comparison(sets),
    repeatability: repeatabilityData(sets),
    flags: flagList(sets),
    flagMeanings: FLAG_MEANINGS,
    failures: failureList(sets, failure => `at ${sizeName(failure.blockSize)}`),
    findings: findings(sets)
  }
}

// A set's fastest readers with their check's verdict and what shows it, and the runtime
// and version that ran each.
function fastPathRows (set) {
  return (set.results.fastPaths ?? []).map(entry => ({
    ...entry,
    runtimeTitle: entry.runtimeTitle ?? runtimeTitle(entry.runtime, set.context.runtimes?.[entry.runtime]?.version),
    shows: entry.verdict === 'engaged' ? entry.summary : entry.reason,
    reachesText: reachesText(entry)
  }))
}

// What a fastest reader's fast call reaches, for its table: the C function V8's call was found
// to reach in the reader's memory; for a reader the check did not name (JavaScriptCore's, one
// whose fast path failed, a run from before 2026-12-02), why not.
function reachesText (entry) {
  if (entry.reaches) return entry.reaches
  if (entry.verdict !== 'engaged') return '–'
  return runtimes[entry.runtime]?.engine === 'v8' ? 'not asked in this run' : 'not asked of its engine'
}

module.exports = {
  shape, contextRows, pinText, heapDrops, ladderProblem, kernelCheck, comparisonTitle, HEADLINE_FLAGS
}
