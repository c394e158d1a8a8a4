'use strict'
// The stdio experiment's findings: at most eight short sentences, in the order a reader
// asks (what a read costs, by runtime, against C; where it goes; then the rest), each
// computed from the results, with one or two numbers. A finding whose data is absent
// (no cost pass, no strace pass, no GC trace) is left out rather than guessed.
const {
  sizeName, formatNumber, formatSigned, formatPercent, formatRatio, formatRange, formatShare, listJoin, roundsText
} = require('../../lib/report/format')
const { BASELINE, programInfo, programsOf } = require('./report-programs')
const { runtimes } = require('../../lib/runtimes')
const {
  headlineRepeatability, headlineRepeatabilityText, headlineCell, cellRatio, shareAgainstPace, PACE_SPREAD,
  PACE_SIGNIFICANCE
} = require('./cost')
const { repeatPairs, methodDifference } = require('../../lib/machine')
const { levelText, levelsText, medianIntervalLevel, median } = require('../../lib/stats')
const { CALM_SHARE, calmRoundNumbers } = require('../../lib/repeatability')

function sizesOf (set) {
  return [...new Set(set.results.cells.map(cell => cell.blockSize))].sort((a, b) => a - b)
}

function cellAt (set, program, blockSize) {
  return set.results.cells.find(cell => cell.program === program && cell.blockSize === blockSize) ?? null
}

// A reader that chooses its own chunk size (wc -c, Node's stream, Bun's stream...) is
// not doing the experiment at any block size: it has no headline cell, is kept out of
// every per-size ranking, and is quoted at its own chunk size (idiomaticRows).
const ownChunk = (set, program) => programInfo(program, set.context).honoursBlockSize === false
const steady = cell => cell?.best?.steadyThroughputMBps ?? null

const ns = value => `${formatNumber(value)} ns`
const signedNs = value => `${formatSigned(value)} ns`

// The headline's cells at one size with a share of C, best first.
function headlineAt (set, blockSize) {
  return (set.results.headline?.cells ?? [])
    .filter(cell => cell.blockSize === blockSize && cell.shareOfC && !cell.flags.includes('failed'))
    .sort((a, b) => b.shareOfC.estimate - a.shareOfC.estimate)
}

// Each JavaScript runtime's fastest reader at a size, best first.
function fastestByRuntime (set, blockSize) {
  const best = new Map()
  for (const cell of headlineAt(set, blockSize)) {
    const info = programInfo(cell.program, set.context)
    if (!info.javascript) continue
    const runtime = runtimes[info.runtime]?.rankedAs ?? info.runtime
    if (!best.has(runtime)) best.set(runtime, cell)
  }
  return [...best.values()]
}

function headlineSizes (set) {
  return set.results.headline?.sizes ?? []
}

function baselineAt (set, blockSize) {
  return set.results.headline?.cells.find(cell => cell.program === BASELINE && cell.blockSize === blockSize && cell.cpuPerReadNs) ?? null
}

// 1. What a read costs C at the smallest size: the yardstick.
function readCost (set) {
  const blockSize = headlineSizes(set)[0]
  const base = blockSize === undefined ? null : baselineAt(set, blockSize)
  if (!base) return null
  const { estimate, low, high } = base.cpuPerReadNs
  // results.json from before intervals carried their level: the level of its rounds
  const level = base.cpuPerReadNs.level ?? medianIntervalLevel(base.rounds)
  const interval = low === null ? '' : ` (${levelText(level)} interval ${formatRange(low, high)} ns)`
  return `At ${sizeName(blockSize)}, one read(2) of the pipe costs C ${ns(estimate)} of CPU${interval}.`
}

// Where the shares were taken in turns with C, whatever moved C moved both sides of each; the
// cells whose share was lower in the rounds where C ran slower (shareAgainstPace) show where
// the host's noise may have landed more on the reader's code than on C's.
const PACE_NAMED = 3
function pairedSpeedNote (set) {
  const cells = set.results.headline.cells.filter(cell => cell.pairing === 'slices')
  if (cells.length === 0) return ''
  const note = ' Each share of C was taken in turns with a run of C, so whatever moved C moved both sides of it'
  const asked = cells.map(cell => ({ cell, trend: shareAgainstPace(cell) })).filter(({ trend }) => trend)
  if (asked.length === 0) return `${note}.`
  const cellsAsked = `${asked.length} cells whose C ran ${formatPercent(PACE_SPREAD)} slower or more in some ` +
    'rounds than in others'
  const test = `Kendall's test at ${formatPercent(PACE_SIGNIFICANCE)}`
  const fell = asked.filter(({ trend }) => trend.falls)
    .sort((a, b) => a.trend.pointsPer10Percent - b.trend.pointsPer10Percent)
  if (fell.length === 0) {
    return `${note}; in none of the ${cellsAsked} was the share lower where C ran slower (${test}).`
  }
  const unit = i => i === 0 ? ' points per 10% slower C' : ''
  const named = fell.slice(0, PACE_NAMED).map(({ cell, trend }, i) => `${cell.program} at ` +
    `${sizeName(cell.blockSize)} (${formatSigned(trend.pointsPer10Percent)}${unit(i)})`)
  const list = fell.length > PACE_NAMED ? `${named.join(', ')} and ${fell.length - PACE_NAMED} more` : listJoin(named)
  return `${note}, but not alike: in ${fell.length} of the ${cellsAsked}, the share was lower in the ` +
    `rounds where C ran slower (${test}): ${list}, as where the host's noise lands more on a reader's ` +
    'code than on C\'s (docs/method.md).'
}

// 1b. The machine's own speed through the run. C runs the same code in every round of the
// cost pass, so its rounds are a probe of the machine: where they move, the host's other
// tenants (cache, memory bandwidth, a shared core) moved it, though no steal or foreign CPU
// time shows. A round within CALM_SHARE of C's median at its size is calm; the finding says
// how far C's rounds spread, and which rounds (in the order they ran) were calm.
function machineSpeed (set) {
  const parts = []
  let moved = false
  for (const blockSize of headlineSizes(set)) {
    const rounds = (baselineAt(set, blockSize)?.byRound ?? [])
      .filter(round => Number.isFinite(round.cpuPerReadNs)).sort((a, b) => a.run - b.run)
    if (rounds.length < 2) continue
    const values = rounds.map(round => round.cpuPerReadNs)
    const middle = median(values)
    // each round by its own number, so that a round missing (failed) renames none after it
    const calm = calmRoundNumbers(rounds
      .map(round => ({ number: round.run + 1, offset: round.cpuPerReadNs / middle - 1 })))
    const spread = (Math.max(...values) - Math.min(...values)) / middle
    parts.push(`at ${sizeName(blockSize)} ${formatNumber(Math.min(...values))} to ${ns(Math.max(...values))} ` +
      `across ${rounds.length} rounds, a spread of ${formatPercent(spread)} of its median (${ns(middle)}), ` +
      `calm (within ±${formatPercent(CALM_SHARE)} of it): ${roundsText(calm)}`)
    moved = moved || spread > 2 * CALM_SHARE
  }
  if (parts.length === 0) return null
  return `The machine's own speed ${moved ? 'moved' : 'held'} through the run, as C's rounds show, ` +
    `which run the same code each time: C's read took ${parts.join('; ')}.` + pairedSpeedNote(set)
}

// 2. The answer: each runtime's fastest reader, over C per read, at the smallest size.
function overheadByRuntime (set) {
  const blockSize = headlineSizes(set)[0]
  if (blockSize === undefined) return null
  const fastest = fastestByRuntime(set, blockSize)
  if (fastest.length === 0) return null
  const clause = cell => `${cell.program} ${signedNs(cell.overheadNs.estimate)} (${formatPercent(cell.shareOfC.estimate)} of C's speed)`
  return `Per read at ${sizeName(blockSize)}, over C, each runtime's fastest reader: ${listJoin(fastest.map(clause))}.`
}

// 2b. Reads through io_uring: whether C's ring reader (the table's first native one that
// keeps one read in flight) costs more or less CPU than C's read(2) at the smallest and
// largest sizes, by its share of C turned over (C's figure over its own, so its interval
// turns over too); then C's windowed ring readers (many reads in flight) alike, and each
// JavaScript ring reader against the first at the smallest size.
function ringReads (set) {
  const sizes = headlineSizes(set)
  const rings = programsOf(set).map(program => programInfo(program, set.context)).filter(info => info.ring)
  const native = rings.find(info => !info.javascript && !info.ringWindow)
  if (!native || sizes.length === 0) return null
  const costAt = (program, blockSize) => {
    const share = headlineCell(set.results.headline, program, blockSize)?.shareOfC
    if (!share) return null
    const cost = { estimate: 1 / share.estimate, low: share.high ? 1 / share.high : null, high: share.low ? 1 / share.low : null, level: share.level }
    return { blockSize, cost }
  }
  const endSizes = [...new Set([sizes[0], sizes[sizes.length - 1]])]
  const ends = program => endSizes.map(blockSize => costAt(program, blockSize)).filter(Boolean)
  // to a tenth, with its interval: whole percents printed 61% (61%–61%)
  const word = cost => (cost.low > 1 ? 'more' : cost.high !== null && cost.high < 1 ? 'less' : 'not clearly more or less')
  // one word when every end agrees, else the word at each end
  const verdict = costs => {
    const words = costs.map(end => word(end.cost))
    return words.every(each => each === words[0]) ? words[0] : listJoin(costs.map((end, i) => `${words[i]} at ${sizeName(end.blockSize)}`))
  }
  const costsText = (costs, ofC) => listJoin(costs.map((end, i) =>
    `${formatShare(end.cost)}${i === 0 && ofC ? ' of C\'s CPU per read' : ''} at ${sizeName(end.blockSize)}`))
  const first = ends(native.name)
  if (first.length === 0) return null
  const level = first[0].cost.level ? `, ${levelText(first[0].cost.level)} intervals` : ''
  const windowed = rings.filter(info => !info.javascript && info.ringWindow).flatMap(info => {
    const costs = ends(info.name)
    return costs.length ? [`; with ${sizeName(info.ringWindow)} of reads in flight it costs ${verdict(costs)}: ${info.name} takes ${costsText(costs, false)}`] : []
  }).join('')
  const ratios = rings.filter(info => info.javascript).flatMap(info => {
    const ratio = cellRatio(headlineCell(set.results.headline, info.name, sizes[0]), headlineCell(set.results.headline, native.name, sizes[0]))
    return ratio ? [{ info, ratio }] : []
  })
  const theirs = ratios.map(({ info, ratio }) => `${info.name} ${formatShare(ratio)} of ${native.name}'s`)
  // a ratio of two cells' rounds (Hodges-Lehmann) is at a level of its own, said apart
  const ratioLevels = levelsText(ratios.map(({ ratio }) => ratio), null)
  const javascript = theirs.length
    ? `; through the same ring at ${sizeName(sizes[0])}, ${listJoin(theirs)}` +
      (ratioLevels ? ` (${ratioLevels} interval${ratios.length === 1 ? '' : 's'})` : '')
    : ''
  return `Through io_uring, a read of the pipe costs ${verdict(first)} CPU than read(2): ${native.name} takes ${costsText(first, true)}${level}${windowed}${javascript}.`
}

// 2c. Reads through WASI: each WebAssembly reader over C per read at the smallest size,
// beside the same runtime's fastest JavaScript reader there, so that a host's WASI layer
// reads against its own FFI; a host that reads stdin in chunks of its own is said to.
function wasiReads (set) {
  const blockSize = headlineSizes(set)[0]
  if (blockSize === undefined) return null
  const cells = headlineAt(set, blockSize).filter(cell => programInfo(cell.program, set.context).wasi)
  if (cells.length === 0) return null
  const fastest = fastestByRuntime(set, blockSize)
  const clause = cell => {
    const info = programInfo(cell.program, set.context)
    const own = fastest.find(other => programInfo(other.program, set.context).runtime === info.runtime)
    const beside = own ? `, ${own.program} ${signedNs(own.overheadNs.estimate)}` : ''
    const chunks = info.hostChunks ? ', its host reading stdin in larger chunks' : ''
    const share = formatPercent(cell.shareOfC.estimate)
    return `${cell.program} ${signedNs(cell.overheadNs.estimate)} (${share} of C's speed${chunks}${beside})`
  }
  return `Through WASI, per fd_read at ${sizeName(blockSize)}, over C's read(2): ${listJoin(cells.map(clause))}.`
}

// 3. At the largest size the copy weighs most: how far the farthest runtime stays from C.
function largestSize (set) {
  const sizes = headlineSizes(set)
  if (sizes.length < 2) return null
  const blockSize = sizes[sizes.length - 1]
  const fastest = fastestByRuntime(set, blockSize)
  if (fastest.length === 0) return null
  const farthest = fastest[fastest.length - 1]
  return `At ${sizeName(blockSize)}, where copying the block weighs most, the JavaScript runtime farthest ` +
    `from C reads at ${formatShare(farthest.shareOfC)} of its speed by its fastest reader ` +
    `(${farthest.program}; the WebAssembly hosts apart).`
}

// 4. Who makes extra syscalls: the honouring reader with the most per MiB against C at
// the smallest profiled size, and the call it makes that C makes least of.
function extraSyscalls (set) {
  const cells = (set.syscalls?.cells ?? []).filter(cell => !cell.rejected && cell.syscallsPerMiB?.allThreads)
  const blockSize = Math.min(...cells.map(cell => cell.blockSize))
  const atSize = cells.filter(cell => cell.blockSize === blockSize)
  const base = atSize.find(cell => cell.program === BASELINE)
  const others = atSize.filter(cell => cell.program !== BASELINE && !ownChunk(set, cell.program))
  if (!base || others.length === 0) return null
  const most = others.reduce((a, b) => (b.syscallsPerMiB.allThreads > a.syscallsPerMiB.allThreads ? b : a))
  const ratio = most.syscallsPerMiB.allThreads / base.syscallsPerMiB.allThreads
  const baseCalls = name => base.allThreads?.syscalls.find(row => row.name === name)?.calls ?? 0
  const extra = (most.allThreads?.syscalls ?? []).map(row => ({ name: row.name, extra: row.calls - baseCalls(row.name) }))
    .reduce((a, b) => (b.extra > (a?.extra ?? 0) ? b : a), null)
  const call = extra ? `, ${extra.name} above all` : ''
  return `At ${sizeName(blockSize)}, ${most.program} makes ${formatRatio(ratio)} C's syscalls per MiB read (every thread, start-up's calls cancelled)${call}.`
}

// 5. The idiomatic readers, each at the chunk size it chose.
// A reader whose share the runs do not support is named with its reason, not left out unseen
// (a review, 2026-12-07: bun-stream and deno-stream, noisy, vanished from the sentence).
function idiomaticReaders (set) {
  const chose = idiomaticRows(set).filter(row => row.chunkBytes !== null)
  if (chose.length === 0) return null
  const rows = chose.filter(row => row.shareOfC !== null)
  const clause = row => `${row.program} ${sizeName(row.chunkBytes)} chunks, ` +
    `${formatPercent(row.shareOfC)} of C${row.exact ? '' : ` at ${sizeName(row.blockSize)}`}`
  const withheld = chose.filter(row => row.shareOfC === null)
    .map(row => `${row.program}${row.shareWithheld ? ` (${row.shareWithheld})` : ''}`)
  const quoted = rows.length ? `: ${listJoin(rows.map(clause))}` : ''
  const withheldText = withheld.length
    ? `${rows.length ? ';' : ':'} no share quoted for ${listJoin(withheld)}`
    : ''
  return 'The readers that choose their own chunk size, against C reading blocks of that size' +
    `${quoted}${withheldText}.`
}

// 6. Start-up: C against the slowest.
function startupTimes (set) {
  const entries = Object.entries(set.results.startup ?? {}).sort((a, b) => a[1].medianNs - b[1].medianNs)
  const base = set.results.startup?.[BASELINE]
  if (!base || entries.length < 2) return null
  const [slowestName, slowest] = entries[entries.length - 1]
  return `Start-up on empty input takes C ${formatNumber(base.medianNs / 1e6)} ms and ${slowestName}, the slowest, ${formatNumber(slowest.medianNs / 1e6)} ms (median runs).`
}

// 7. Garbage: how many V8 readers never collected, and the one that collected most.
function garbage (set) {
  const collected = gcByProgram(set)
  if (collected.length === 0) return null
  const never = collected.filter(neverCollected)
  const busiest = collected.reduce((a, b) => (b.collections > a.collections ? b : a))
  const partly = collected.filter(entry => entry.failed > 0 && entry.collections === 0).length
  const neverText = `${never.length} of ${collected.length} V8 readers never collected garbage` +
    (partly ? ` (${partly} more collected none in the runs that were traced; some of theirs failed)` : '')
  if (busiest.collections === 0) return `${neverText}.`
  return `${neverText}; ${busiest.program} collected most, ${busiest.collections} times at ${sizeName(busiest.blockSize)} (${formatNumber(busiest.totalPauseMs)} ms of pauses).`
}

// Each traced program's busiest trace: the one with the most collections, and how many of its
// traced runs failed (failed).
function gcByProgram (set) {
  if (!set.gc?.cells?.length) return []
  return programsOf(set).flatMap(program => {
    const all = set.gc.cells.filter(cell => cell.program === program)
    const cells = all.filter(cell => cell.ok)
    if (cells.length === 0) return []
    const busiest = [...cells].sort((a, b) => b.collections - a.collections || b.blockSize - a.blockSize)[0]
    return [{
      program,
      collections: busiest.collections,
      blockSize: busiest.blockSize,
      totalPauseMs: busiest.totalPauseMs,
      failed: all.length - cells.length
    }]
  })
}

// A program that never collected in any of its traced runs, each of which was traced: one whose
// run failed might have collected there, and is not said never to.
const neverCollected = entry => entry.collections === 0 && entry.failed === 0

// 8. How far to trust the rest: flagged headline cells, noisy timing cells.
function dataQuality (set) {
  const headline = set.results.headline?.cells ?? []
  const flagged = headline.filter(cell => cell.flags.length)
  const noisy = set.results.cells.filter(cell => (cell.flags ?? []).includes('noisy'))
  const headlinePart = headline.length
    ? (flagged.length ? `${flagged.length} of ${headline.length} headline cells are flagged (${listJoin([...new Set(flagged.flatMap(cell => cell.flags))])})` : 'No headline cell is flagged')
    : 'The run has no cost pass, so no headline'
  return `${headlinePart}; ${noisy.length} of ${set.results.cells.length} timing cells are noisy (wall time varied by more than 10%).`
}

const PER_SET = [readCost, machineSpeed, overheadByRuntime, ringReads, wasiReads, largestSize,
  extraSyscalls, idiomaticReaders, startupTimes, garbage, dataQuality]
// the ones that answer the lab's question, which the report puts beside its chart
const HEADLINE = [readCost, overheadByRuntime, ringReads, wasiReads, largestSize]

// The cost pass's scheduling policy, in words (--cost-policy; runs before it had one ran at the
// default)
const costPolicyOf = set => (set.context?.options?.costPolicy === 'batch' ? 'SCHED_BATCH' : 'the default policy')
// Two runs' cost passes at two policies, whose reads cost differently, in words: two figures,
// not one measured twice; null where both ran alike.
const policyDifference = (first, other) =>
  methodDifference([first, other], costPolicyOf, 'cost-pass scheduling policies')

// Two runs: whether their headlines repeat by the lab's criterion, in points of share of C
// and in the runtimes' order.
function repeatability (first, other) {
  // (a run without a headline has no policy to differ by: --no-cost)
  const measured = [first, other].every(set => set.results.headline?.cells?.length)
  const differ = measured && policyDifference(first, other)
  if (differ) return `${differ}.`
  const text = headlineRepeatabilityText(headlineRepeatability(first.results.headline, other.results.headline), [first.label, other.label])
  return text && `${text}.`
}

// sets: labelled results sets ({ label, context, results, syscalls, gc }); each finding
// says whether it is the headline's, which the report puts beside its chart.
function findings (sets) {
  const out = []
  for (const set of sets) {
    for (const finding of PER_SET) {
      const text = finding(set)
      if (text) out.push({ set: set.label, text, headline: HEADLINE.includes(finding) })
    }
  }
  for (const [first, other] of repeatPairs(sets)) {
    const text = repeatability(first, other)
    if (text) out.push({ set: null, text, headline: true })
  }
  return out
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
      // a share the runs do not support (experiments/stdio/summary.js) is not quoted: its reason is
      shareOfC: cell?.vsC?.withheld ? null : cell?.vsC?.steadyThroughput ?? null,
      shareWithheld: cell?.vsC?.withheld ?? null,
      shareWithheldWhy: cell?.vsC?.withheldWhy ?? null
    }
  })
}

module.exports = {
  findings,
  policyDifference,
  idiomaticRows,
  nearestSize,
  ownChunk,
  gcByProgram,
  neverCollected,
  readCost,
  machineSpeed,
  overheadByRuntime,
  ringReads,
  wasiReads,
  largestSize,
  extraSyscalls,
  idiomaticReaders,
  startupTimes,
  garbage,
  dataQuality,
  repeatability
}
