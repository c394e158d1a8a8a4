'use strict'
// Shapes one or more results sets (what bench.js wrote into results/<run-id>/) into
// what the report shows: the series of every chart, the tables, the context and the
// findings. Pure functions of the parsed JSON, so every number can be checked by hand
// against a results folder; reading files and writing the report live in analyse.js.
const { NOISY_CV, FEEDER_BOUND_SHARE, READER_WAITED_SHARE, STEAL_SHARE } = require('../../experiments/stdio/summary')
const { sizeLabel, sizeName, formatNumber, formatPercent } = require('./format')
const { findings, idiomaticRows, ownChunk, gcByProgram } = require('./findings')
const { BASELINE, programInfo, programsOf } = require('./programs')
const { headlineRepeatability } = require('../../experiments/stdio/cost')
const { medianIntervalLevel, pairwiseIntervalLevel, levelsText } = require('../stats')
const { throughputRepeatability, httpRepeatability, throughputOwnText, httpOwnText, throughputCriterionText, httpCriterionText } = require('../repeatability')

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
  disturbed: 'a run it kept saw CPU time of other processes on the CPUs it ran on: its figures may hold another program\'s work'
}

const byBlockSize = (a, b) => a.blockSize - b.blockSize

// Two machines' runs can share a run-id; the report needs a distinct name for each.
function labelSets (sets) {
  const seen = new Map()
  return sets.map(set => {
    const base = set.context?.runId || set.results?.runId || set.name || 'run'
    const count = (seen.get(base) ?? 0) + 1
    seen.set(base, count)
    return { ...set, label: count === 1 ? base : `${base} #${count}` }
  })
}

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
        family: familyOf(program, set),
        set: set.label,
        colorIndex: programs.indexOf(program),
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

// The runtime family a program's line is drawn with in the throughput's small multiples:
// its runtime without the variant ('just-wcb' is the host, 'node@22' is Node).
function familyOf (program, set) {
  const runtime = programInfo(program, set.context).runtime
  return runtime === null ? 'other' : runtime.split(/[-@]/)[0]
}

const FAMILY_LABELS = { native: 'C (native)', just: 'the V8 host (just)', node: 'Node', bun: 'Bun', deno: 'Deno', other: 'other' }

// The small multiples' panels: one per family of the series, C's own first, each drawn
// with C as its yardstick.
function families (series) {
  const names = [...new Set(series.map(entry => entry.family))]
  return names.map(name => ({ name, label: FAMILY_LABELS[name] ?? name }))
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
      const base = cells.find(cell => cell.program === BASELINE) ?? null
      const rows = cells.filter(cell => cell.program !== BASELINE)
        .sort((a, b) => (b.shareOfC?.estimate ?? -1) - (a.shareOfC?.estimate ?? -1))
        .map(cell => ({ ...cell, runtimeLabel: programInfo(cell.program, set.context).runtimeLabel }))
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
    chart[blockSize] = {
      categories,
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
  const repeatability = available.length > 1 ? headlineRepeatability(sets[0].results.headline, sets[1].results.headline) : null
  return { available: available.length > 0, sets: perSet, sizes, defaultSize: sizes[0] ?? null, chart, repeatability }
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
// The call ladder of each set that has one: its rows, and its chart's series: a bar per
// variant stacked from the four parts (experiments/calls/ladder.js decompose), the measured 256-byte
// read beside it with its interval.
const LADDER_PARTS = [['boundary', 'boundary (no-op call)'], ['syscall', 'syscall entry and exit'], ['readPath', 'the runtime\'s read path'], ['kernelRead', 'the kernel\'s 256-byte read']]

function ladderData (sets) {
  return sets.filter(set => set.results.ladder).map(set => {
    const { rows } = set.results.ladder
    const drawn = rows.filter(row => row.parts)
    return {
      set: set.label,
      ...set.results.ladder,
      chart: {
        categories: drawn.map(row => row.variant),
        parts: LADDER_PARTS.map(([key, name]) => ({ key, name, data: drawn.map(row => row.parts[key]) })),
        measured: drawn.map(row => row.rungs['read-256'].estimate),
        whiskers: drawn.map(row => [row.rungs['read-256'].low, row.rungs['read-256'].high]),
        level: levelsText(drawn.map(row => row.rungs['read-256'])),
        costPass: drawn.map(row => row.stdin?.cpuPerReadNs?.estimate ?? null)
      }
    }
  })
}

// The http experiment of each set that has one (bench.js --experiment http), by mode: a
// row per server with its cells by connection count and its syscalls per request, and the
// charts' series: requests/s (median, whiskers the runs' range) and CPU per request by
// connection count, and syscalls per request stacked by call.
const HTTP_TOP_CALLS = 10

function httpData (sets) {
  return sets.filter(set => set.results.http).map(set => {
    const results = set.results.http
    const serverNames = [...new Set([...results.cells.map(cell => cell.server), ...results.syscalls.map(entry => entry.server)])]
    const modes = results.modes.filter(mode => results.cells.some(cell => cell.mode === mode) || results.syscalls.some(entry => entry.mode === mode)).map(mode => {
      const connections = [...new Set(results.cells.filter(cell => cell.mode === mode).map(cell => cell.connections))].sort((a, b) => a - b)
      const rows = serverNames.map(server => {
        const cells = connections.map(count => results.cells.find(cell => cell.server === server && cell.mode === mode && cell.connections === count) ?? null)
        const measured = cells.filter(cell => cell?.threads)
        return {
          server,
          cells,
          syscalls: results.syscalls.find(entry => entry.server === server && entry.mode === mode) ?? null,
          // the most of any of its cells: a runtime starts helper threads as load grows
          threads: measured.length ? Math.max(...measured.map(cell => cell.threads)) : null,
          maxRssKiB: measured.length ? Math.max(...measured.map(cell => cell.maxRssKiB)) : null
        }
      })
      const traced = rows.filter(row => row.syscalls?.perRequest != null)
      // the bars stack each call's work (its calls that succeeded), then the upkeep in one
      // piece: it follows timing; a piece below zero is noise and shows as none
      const workOf = call => (call.upkeep ? 0 : Math.max(0, call.perRequest - call.failed))
      const totals = new Map()
      for (const row of traced) for (const call of row.syscalls.byCall) totals.set(call.name, (totals.get(call.name) ?? 0) + workOf(call))
      const top = [...totals].filter(([, work]) => work > 0).sort((a, b) => b[1] - a[1]).slice(0, HTTP_TOP_CALLS).map(([name]) => name)
      const callOf = (row, name) => { const call = row.syscalls.byCall.find(item => item.name === name); return call ? workOf(call) : 0 }
      return {
        mode,
        connections,
        rows,
        floor: results.floors[mode] ?? null,
        chart: {
          categories: serverNames,
          rate: connections.map((count, index) => ({
            name: `${count} connection${count === 1 ? '' : 's'}`,
            data: rows.map(row => row.cells[index]?.requestsPerSecond?.median ?? null),
            whiskers: rows.map(row => (row.cells[index]?.requestsPerSecond ? [row.cells[index].requestsPerSecond.min, row.cells[index].requestsPerSecond.max] : null)),
            cpu: rows.map(row => row.cells[index]?.cpuPerRequestUs ?? null)
          })),
          syscalls: {
            categories: traced.map(row => row.server),
            series: [
              ...top.map(name => ({ name, data: traced.map(row => callOf(row, name)) })),
              { name: 'other', kind: 'other', data: traced.map(row => row.syscalls.byCall.filter(call => !top.includes(call.name)).reduce((sum, call) => sum + workOf(call), 0)) },
              { name: 'upkeep: waits, failed tries, memory', kind: 'upkeep', data: traced.map(row => Math.max(0, row.syscalls.upkeep)) }
            ].filter(series => series.data.some(value => value > 0)),
            missing: traced.length ? null : syscallsMissingReason(set)
          }
        }
      }
    })
    return { set: set.label, meaning: results.meaning, reference: results.reference, preset: results.preset, pin: results.pin, modes }
  })
}

function marginalPoint (cell) {
  const marginal = cell.marginal
  if (!marginal || marginal.throughputMBps === null) return null
  const share = marginal.plusMinusShare
  if (share === null || share >= 1) return { y: marginal.throughputMBps, low: null, high: null }
  return { y: marginal.throughputMBps, low: marginal.throughputMBps / (1 + share), high: marginal.throughputMBps / (1 - share) }
}

function throughputSeries (sets, programs, compare) {
  const anyMarginal = sets.some(set => set.results.cells.some(cell => cell.marginal))
  const steady = lineSeries(sets, programs, compare, 'throughput', cell => (cell.best
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
  const perRead = lineSeries(sets, programs, compare, 'cost', cell => (cell.costPerReadNs !== null && cell.costPerReadNs !== undefined ? { y: cell.costPerReadNs } : null), { keepEmpty: false, withBand: false })
  const overhead = lineSeries(sets, programs, compare, 'overhead', cell => {
    const value = cell.vsC?.costPerReadOverheadNs
    return value === null || value === undefined ? null : { y: value }
  }, { keepEmpty: false, withBand: false, skip: program => program === BASELINE })
  // Say why a program has no line rather than leave the reader to wonder.
  const shown = new Set(perRead.map(series => series.program))
  const left = programs.filter(program => !shown.has(program)).map(program => {
    const info = programInfo(program, sets[0].context)
    return {
      program,
      reason: info.honoursBlockSize === false
        ? 'picks its own chunk size, so a read is not one block'
        : 'no run was longer than its start-up time, so there is nothing left to divide by the reads'
    }
  })
  return { perRead, overhead, left, hasBaseline: sets.some(set => set.results.cells.some(cell => cell.program === BASELINE && cell.best)) }
}

// ---- syscalls ----

function syscallsMissingReason (set) {
  if (set.missing?.syscalls) return set.missing.syscalls
  const ptrace = set.syscalls?.ptrace ?? set.context?.ptrace
  if (ptrace && ptrace.available === false) return `strace did not run: ${ptrace.reason ?? 'no reason recorded'}`
  return 'the strace pass recorded no profile (every strace run failed; see the failures)'
}

function topOf (profile, count) {
  return profile ? profile.syscalls.slice(0, count).map(row => ({ name: row.name, calls: row.calls })) : []
}

function stackedSyscalls (entries, mode) {
  const totals = new Map()
  for (const entry of entries) {
    for (const row of entry.cell[mode]?.syscalls ?? []) totals.set(row.name, (totals.get(row.name) ?? 0) + row.calls)
  }
  const top = [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, TOP_SYSCALLS).map(([name]) => name)
  const calls = (entry, name) => entry.cell[mode]?.syscalls.find(row => row.name === name)?.calls ?? 0
  const series = top.map(name => ({ name, data: entries.map(entry => (entry.cell[mode] ? calls(entry, name) : null)) }))
  const other = entries.map(entry => (entry.cell[mode] ? entry.cell[mode].totalCalls - top.reduce((sum, name) => sum + calls(entry, name), 0) : null))
  if (other.some(value => value > 0)) series.push({ name: 'other', data: other })
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
      main: stackedSyscalls(entries, 'mainThread'),
      all: stackedSyscalls(entries, 'allThreads'),
      table: entries.map(entry => ({
        program: entry.program,
        set: entry.set.label,
        threads: entry.cell.threads,
        totalMain: entry.cell.mainThread?.totalCalls ?? null,
        totalAll: entry.cell.allThreads?.totalCalls ?? null,
        perMiBMain: entry.cell.syscallsPerMiB?.mainThread ?? null,
        perMiBAll: entry.cell.syscallsPerMiB?.allThreads ?? null,
        perMiBNoise: entry.cell.syscallsPerMiB?.noise ?? null,
        rejected: entry.cell.rejected ?? null,
        topMain: topOf(entry.cell.mainThread, TOP_SYSCALLS_IN_TABLE),
        topAll: topOf(entry.cell.allThreads, TOP_SYSCALLS_IN_TABLE)
      }))
    }
  }
  // The largest block size shows the most varied profile: at small sizes read() is nearly all of it.
  return { available: true, notes, sizes, defaultSize: sizes[sizes.length - 1], bySize }
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

// One sawtooth per trace: the heap grows to heapBefore, the collection drops it to heapAfter.
function sawtooth (timeline) {
  return timeline.flatMap(([atMs, before, after]) => [[atMs, before], [atMs, after]])
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
          colorIndex: programs.indexOf(program),
          setIndex,
          data: sawtooth(busiest.timeline)
        })
      }
    }
  })
  // the programs whose every traced run never collected: one line, not a table of zeros
  const never = sets.flatMap(set => gcByProgram(set).filter(entry => entry.collections === 0).map(entry => ({ set: set.label, program: entry.program })))
  const neverSet = new Set(never.map(entry => `${entry.set}\t${entry.program}`))
  const collectedRows = rows.filter(row => !neverSet.has(`${row.set}\t${row.program}`))
  const traced = rows.filter(row => row.ok)
  const timelineNote = timeline.length === 0
    ? (traced.length
        ? `None of the ${traced.length} traced runs collected garbage: the readers allocated too little for V8 to start a collection.`
        : 'No run was traced, so there is no heap timeline.')
    : null
  return { available: rows.length > 0, rows: collectedRows, never, unavailable, notes, timeline, timelineNote }
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
    return `${cell.failedRuns} of ${cell.failedRuns + cell.runs} failed${quarter}`
  }
  return null
}

function flagList (sets) {
  const out = []
  for (const set of sets) {
    for (const flag of Object.keys(FLAG_MEANINGS)) {
      const cells = set.results.cells.filter(cell => (cell.flags ?? []).includes(flag))
      if (cells.length === 0) continue
      out.push({
        set: set.label,
        flag,
        meaning: FLAG_MEANINGS[flag],
        cells: cells.map(cell => ({ program: cell.program, blockSize: cell.blockSize, detail: flagDetail(flag, cell) }))
      })
    }
  }
  return out
}

function failureList (sets) {
  return sets.flatMap(set => (set.results.failures ?? []).map(failure => ({ set: set.label, ...failure })))
}

// One resume of a run: older runs logged only its date.
function describeResume (resume) {
  if (typeof resume === 'string') return resume
  const changed = resume.runtimesChanged?.length ? `, other versions of ${resume.runtimesChanged.join(', ')}` : ''
  return `${resume.date} (lab commit ${resume.lab?.commit ?? '?'}${resume.lab?.dirty ? ', uncommitted changes' : ''}${changed})`
}

function contextOf (set) {
  const context = set.context ?? {}
  const options = context.options ?? {}
  const shaped = {
    label: set.label,
    runId: context.runId ?? set.results.runId ?? null,
    dir: set.dir ?? null,
    date: context.date ?? null,
    resumedAt: context.resumedAt ?? [],
    lab: context.lab ?? null,
    machine: context.machine ?? null,
    runtimes: Object.entries(context.runtimes ?? {}).map(([name, runtime]) => ({ name, label: runtime.label, version: runtime.version, binary: runtime.binary })),
    compiler: context.compiler ?? null,
    host: context.host ?? null,
    strace: context.strace ?? null,
    ptrace: context.ptrace ?? null,
    skipped: context.skipped ?? [],
    options: {
      feeder: options.feeder ?? set.results.feeder ?? null,
      runs: options.runs ?? set.results.runsPerCell ?? null,
      warmup: options.warmup ?? null,
      sizes: options.sizes ?? [...new Set(set.results.cells.map(cell => cell.blockSize))].sort((a, b) => a - b),
      preset: options.preset ?? null,
      pin: options.pin ?? null,
      mib: options.mib ?? null,
      strace: options.strace ?? null,
      gc: options.gc ?? null
    },
    bytesPerRun: [...new Set(set.results.cells.map(cell => cell.bytes))].sort((a, b) => a - b),
    throughputUnit: set.results.throughputUnit ?? 'MB/s',
    steadyStateMeaning: set.results.steadyStateMeaning ?? null,
    stealShare: set.results.stealShare ?? null,
    placement: context.placement ?? null,
    disturbance: set.results.disturbance ?? null,
    experiment: options.experiment ?? 'stdio',
    http: options.experiment === 'http' ? { wrk: context.wrk ?? null, pin: context.httpPin ?? null, loopback: context.loopback ?? null, preset: options.http ?? null } : null
  }
  shaped.rows = contextRows(shaped)
  return shaped
}

// The context as labelled lines, in the order a reader checks them: what ran where.
function contextRows (context) {
  const machine = context.machine ?? {}
  const lines = [
    ['run', context.runId],
    ['date', context.date],
    ['machine', [machine.cpuModel, machine.cores && `${machine.cores} cores`, machine.memoryBytes && `${formatNumber(machine.memoryBytes / 2 ** 30)} GiB`, machine.container ? 'container' : null].filter(Boolean).join(', ')],
    ['os', machine.os],
    ['kernel', machine.uname ?? machine.kernel],
    ['cpu governor', machine.cpuGovernor ?? 'not reported'],
    ...machineFactorRows(machine),
    ['VM steal', context.stealShare === null ? 'not recorded' : `${stealPercent(context.stealShare)} of the CPUs' time during the runs (cells above ${Math.round(STEAL_SHARE * 100)}% are flagged steal)`],
    ['placement', placementText(context.placement)],
    ['foreign CPU time', disturbanceText(context.disturbance)],
    ['compiler', context.compiler ? `${context.compiler.version ?? ''} (${context.compiler.flags ?? ''})` : null],
    ...context.runtimes.map(runtime => [runtime.label ?? runtime.name, runtime.version]),
    ...(context.http ? httpContextRows(context.http) : stdioContextRows(context)),
    ['strace', context.ptrace?.available ? context.strace : `not run: ${context.ptrace?.reason ?? 'unknown'}`],
    ['GC trace', context.http ? null : context.options.gc === false ? 'skipped (--no-gc)' : 'V8 --trace-gc'],
    ['V8 host', context.host?.version ? `${context.host.version} (${context.host.selectedBy ?? ''})` : null],
    ['skipped programs', context.skipped.length ? context.skipped.map(skip => `${skip.program}: ${skip.reason}`).join('; ') : null],
    ['resumed', context.resumedAt.length ? context.resumedAt.map(describeResume).join('; ') : null],
    ['lab commit', context.lab ? `${context.lab.commit ?? '?'}${context.lab.dirty ? ' (uncommitted changes)' : ''}` : null],
    ['bench.js arguments', context.lab?.bench ? context.lab.bench.join(' ') : null]
  ]
  return lines.filter(([, value]) => value !== null && value !== undefined && value !== '')
}

function stdioContextRows (context) {
  return [
    ['feeder', FEEDER_MEANINGS[context.options.feeder ?? 'fixed'] ?? context.options.feeder],
    ['bytes per run', context.bytesPerRun.map(sizeName).join(', ')],
    ['runs per cell', context.options.warmup !== null ? `${context.options.runs} (after ${context.options.warmup} warm-up)` : context.options.runs],
    ['block sizes', context.options.sizes.map(sizeName).join(', ')],
    ['pinned to CPUs', context.placement ? null : context.options.pin === null ? null : context.options.pin ? 'yes: dd on CPU 0, the reader on CPU 1' : 'no']
  ]
}

// What an http run's numbers depend on beyond the machine: the load and the loopback's limits.
function httpContextRows ({ wrk, pin, loopback, preset }) {
  return [
    ['load', `${wrk ?? 'wrk (version not recorded)'}: one thread${pin ? ` on CPU ${pin.client}, the server pinned to CPU ${pin.server}` : ''}`],
    ['runs per cell', preset ? `${preset.runs} wrk runs of ${preset.seconds} s against one server process, after a check and a warm-up; connections ${preset.connections.join(', ')}` : null],
    ['strace pass', preset ? `${preset.straceRequests.small} and ${preset.straceRequests.large} requests per server and mode, each in a new process` : null],
    ['loopback', loopback ? `listen backlog limit (somaxconn) ${loopback.somaxconn}, client ports ${loopback.ipLocalPortRange?.join('–') ?? '?'}, tcp_tw_reuse ${loopback.tcpTwReuse}` : null]
  ]
}

// Where each pass ran (lib/placement.js); runs from before it was recorded say so.
function placementText (placement) {
  if (!placement) return 'not recorded (a run from before every pass was pinned)'
  const pair = pin => (pin.feeder === pin.reader ? `dd and the reader on CPU ${pin.reader}` : `dd on CPU ${pin.feeder}, the reader on CPU ${pin.reader}`)
  const passes = Object.entries(placement.passes ?? {}).map(([pass, pin]) => (pass === 'http' ? `http: wrk on CPU ${pin.wrk}, the server on CPU ${pin.server}` : `${pass}: ${pair(pin)}`))
  const kept = [placement.system !== null ? `CPU ${placement.system} kept for the system` : null, placement.driver !== null ? `the bench on CPU ${placement.driver}` : null]
  const caveats = [...(placement.refused ?? []).map(entry => `CPU ${entry.cpu} refused (${entry.reason})`), ...(placement.unreliable ?? []).map(what => `unreliable: ${what}`)]
  return [passes.join('; '), ...kept, ...caveats].filter(Boolean).join('; ')
}

// How many steps shared their CPUs with other work, and how many were measured again.
function disturbanceText (disturbance) {
  if (!disturbance || disturbance.steps === 0) return null
  const { steps, disturbed, remeasured, keptDisturbed, threshold } = disturbance
  if (disturbed === 0) return `none: no step of ${steps} saw other work on its CPUs (above ${threshold.share * 100}% of their time)`
  return `${disturbed} tr${disturbed === 1 ? 'y' : 'ies'} of ${steps} steps saw other work on their CPUs (above ${threshold.share * 100}% of their time); ${remeasured} measured again` +
    (keptDisturbed ? `; ${keptDisturbed} still disturbed after ${threshold.maxRemeasures} tries, flagged disturbed` : '')
}

// Steal is mostly under a percent: whole percents would show it all as 0%.
const stealPercent = share => `${formatNumber(share * 100)}%`

// What makes a syscall dearer on one machine than another (lib/context.js): a line each,
// and of the vulnerabilities only those the kernel says the CPU has.
function machineFactorRows (machine) {
  const recorded = value => value ?? 'not recorded'
  const switches = machine.mitigationSwitches
  const vulnerabilities = machine.vulnerabilities
  const affected = Object.entries(vulnerabilities ?? {}).filter(([, state]) => state && state !== 'Not affected')
  return [
    ['clock source', recorded(machine.clockSource)],
    ['transparent huge pages', recorded(machine.transparentHugePages)],
    ['mitigation switches', switches ? (switches.length ? switches.join(' ') : 'none on the kernel command line') : 'not recorded'],
    ...(vulnerabilities
      ? (affected.length ? affected.map(([name, state]) => [`vulnerability ${name}`, state]) : [['vulnerabilities', 'none the CPU is affected by']])
      : [['vulnerabilities', 'not recorded']])
  ]
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
  return { sets: sets.map(set => set.label), rows }
}

// Whether the figures repeat: each set's own figure (its cells' interleaved halves), and
// each later set against the first by the two-run criteria (lib/repeatability.js), each
// with its sentence; a criterion or figure the sets hold nothing for is null.
function repeatabilityData (sets) {
  const own = sets.map(set => ({
    set: set.label,
    throughput: set.results.throughputRepeatability ?? null,
    throughputText: throughputOwnText(set.results.throughputRepeatability),
    http: set.results.http?.repeatability ?? null,
    httpText: httpOwnText(set.results.http?.repeatability)
  }))
  const twoRuns = sets.slice(1).map(other => {
    const labels = [sets[0].label, other.label]
    const throughput = sets[0].results.cells?.length && other.results.cells?.length ? throughputRepeatability(sets[0].results, other.results) : null
    const http = sets[0].results.http && other.results.http ? httpRepeatability(sets[0].results.http, other.results.http) : null
    return { sets: labels, throughput, throughputText: throughput && throughputCriterionText(throughput, labels), http, httpText: http && httpCriterionText(http, labels) }
  })
  return { own, twoRuns }
}

function shapeReport (inputSets, { title } = {}) {
  const sets = labelSets(inputSets)
  const compare = sets.length > 1
  const programs = [...new Set(sets.flatMap(programsOf))]
  const sizes = [...new Set(sets.flatMap(set => set.results.cells.map(cell => cell.blockSize)))].sort((a, b) => a - b)
  return {
    title: title || `syscall-lab: ${sets.map(set => set.label).join(' vs ')}`,
    compare,
    sets: sets.map(set => set.label),
    sizes,
    // stdio; calls or http when every set is that experiment's run (its report opens on it)
    experiment: ['calls', 'http'].find(experiment => sets.every(set => set.results.experiment === experiment)) ?? 'stdio',
    ladder: ladderData(sets),
    http: httpData(sets),
    headline: headlineData(sets),
    programs: programs.map(program => programInfo(program, sets[0].context)),
    throughput: throughputSeries(sets, programs, compare),
    time: timeSeries(sets, programs, compare),
    cost: costSeries(sets, programs, compare),
    syscalls: syscallData(sets, programs, compare),
    resources: resourceData(sets, programs, compare),
    gc: gcData(sets, programs, compare),
    // readers that choose their own chunk size, each at that size (lib/report/findings.js)
    idiomatic: sets.map(set => ({ set: set.label, rows: idiomaticRows(set) })).filter(entry => entry.rows.length),
    summaries: sets.map(summaryTable),
    cells: cellRows(sets),
    comparison: comparison(sets),
    repeatability: repeatabilityData(sets),
    flags: flagList(sets),
    flagMeanings: FLAG_MEANINGS,
    failures: failureList(sets),
    contexts: sets.map(contextOf),
    findings: findings(sets)
  }
}

module.exports = {
  shapeReport,
  ladderData,
  httpData,
  headlineData,
  familyOf,
  labelSets,
  programInfo,
  throughputSeries,
  timeSeries,
  costSeries,
  syscallData,
  resourceData,
  gcData,
  summaryTable,
  cellRows,
  flagList,
  comparison,
  repeatabilityData,
  sawtooth,
  BASELINE,
  FLAG_MEANINGS
}
