'use strict'
// The stdio experiment's plain-text forms: its part of results.md (the headline, the
// summary tables, the findings and the context, for a README or an issue) and of
// results.csv (one row per cell, for a spreadsheet), both from the data
// experiments/stdio/report-data.js shaped; and the tables bench.js prints when a run is
// done, from results.json and profile.json.
const { WARM_QUARTER_READS } = require('./summary')
const { ownRepeatabilityText, headlineRepeatabilityText, meaningText } = require('./cost')
const { missingClause, criterion, moveFromSmaller } = require('../../lib/repeatability')
const fs = require('node:fs')
const path = require('node:path')
const {
  sizeLabel, sizeName, formatNumber, formatPercent, formatShare, formatRatio, formatSigned,
  formatSignedPercent, formatBound, listJoin, counted, byCommonest,
  escapeMarkdown: md
} = require('../../lib/report/format')
const { BASELINE } = require('./programs')
const {
  BUCKETS, ladderCheckable, shownUnnamed, profilePrecision, profilePlacement, profilePlacementText
} = require('./profile')
const { markdownTable, textTable, round, nsWithInterval, findingLines, repeatabilityLines, failedRunsMarkdown, contextMarkdown } = require('../../lib/report/plain')
const { SIGNIFICANCE, INTERVAL_LEVEL, levelText, levelsText } = require('../../lib/stats')
const { GOAL } = require('../../lib/repeatability')
const { methodDifference } = require('../../lib/machine')
const { comparisonTitle } = require('./report-data')
const { policyText } = require('../../lib/placement')
const { throughputOwnText } = require('./repeatability')
const { kernelMarkdown, kernelTerminal, kernelAgreement } = require('./report-kernel')

// Flags as one-character marks, so a table cell stays narrow: results.md's tables and
// bench.js's terminal summary read the same legend.
const FLAG_MARKS = { noisy: '~', 'feeder-bound': '!', 'reader-waited': '^', 'startup-dominated': '°', steal: '$', 'some-runs-failed': '?', disturbed: '#' }
const flagMarks = flags => flags.map(flag => FLAG_MARKS[flag] ?? '').join('')
const marksLegend = () => Object.entries(FLAG_MARKS).map(([flag, mark]) => `${mark} ${flag}`).join(', ')
// After a share of C: the cell's runs and C's could be the same runs (experiments/stdio/summary.js).
const WITHIN_NOISE = { mark: '≈', meaning: `its runs are not distinguishable from C's (rank test, p ≥ ${SIGNIFICANCE})` }
// In place of a share of C the runs do not support (experiments/stdio/summary.js): the reason, in a word.
const WITHHELD_NOTE = `A share of C is left out, its reason in its place, where the best runs of the interleaved halves of the cell's runs, or of C's, moved by more than ${GOAL.percent}% (noisy), or either has too few runs to halve; results.json keeps it, with the reason.`
// After a marginal figure: its quarter runs may have ended before a JIT was done.
const FEW_READS = { mark: '*', meaning: `the quarter runs made fewer than ${WARM_QUARTER_READS} reads, too few for V8 to be sure to have compiled the loop (give a larger --mib)` }

function summaryCell (cell) {
  if (!cell) return ''
  if (cell.flags.includes('failed')) return 'FAILED'
  const value = cell.steadyMBps ?? cell.rawMBps
  const marks = flagMarks(cell.flags)
  const percent = cell.withheld ? ` (${cell.withheld})` : cell.vsC !== null ? ` (${formatPercent(cell.vsC)}${cell.withinNoise ? WITHIN_NOISE.mark : ''})` : ''
  return `${formatNumber(value)}${cell.steadyMBps === null ? ' raw' : ''}${percent}${marks}`
}

const MARGINAL_NOTE = 'MB/s of the bytes between a quarter run and a full run (bench.js --marginal), from the median runs of both, ' +
  'so start-up and the JIT\'s warm-up cancel, and its share of C at the same block size; ' +
  `${FEW_READS.mark} where ${FEW_READS.meaning}; ` +
  '- where the quarter runs took as long as the full ones.'

function marginalCell (cell) {
  if (!cell || cell.flags.includes('failed')) return cell ? 'FAILED' : ''
  if (!cell.hasMarginal) return ''
  if (cell.marginalMBps === null) return '-'
  return `${formatNumber(cell.marginalMBps)}${cell.vsCMarginal !== null ? ` (${formatPercent(cell.vsCMarginal)})` : ''}${cell.marginalFewReads ? FEW_READS.mark : ''}`
}

const SHARE_NOTE = 'Steady-state throughput as a share of C\'s at the same block size, from every run rather than the best: ' +
  'the median of all ratios of a run of the program to a run of C (Hodges-Lehmann), and in brackets its interval, at the level the table\'s title gives ' +
  '(rounded outwards to a tenth), the shares the rank test would not tell from the runs. A goal such as 97% of C is met where the interval\'s ' +
  'low end reaches it and not resolved by the runs while the interval straddles it. A cell has none (a blank) where it or C at its ' +
  'size has fewer than 4 runs with a steady-state figure, or failed. Marks as in the steady-state table. ' +
  'The CSV holds the interval unrounded.'

// Blank for a failed cell (the steady-state table marks it), so C, which has no share of
// C, never gets a row.
// with the cell's marks, as the steady-state table gives them: a share of a start-up dominated
// run says so
function shareCell (cell) {
  if (!cell?.share) return ''
  return cell.withheld ?? `${formatShare(cell.share)}${flagMarks(cell.flags)}`
}

// A table per set (headed by its name when sets are compared), a cell per program and
// size; a program with nothing to show in any cell (C in a table of shares of C) is left out.
function summaryTables (data, summaries, cellText) {
  return summaries.flatMap(summary => [
    ...(data.compare ? [`### ${md(summary.set)}`, ''] : []),
    markdownTable(
      ['program', ...summary.sizes.map(sizeName)],
      summary.rows.map(row => [md(row.program), ...summary.sizes.map(size => cellText(row.cells[size]))]).filter(([, ...cells]) => cells.some(text => text !== '')),
      ['l', ...summary.sizes.map(() => 'r')]
    ),
    ''
  ])
}

// The headline's cells at one size, C first, as rows of text: ns per read, over C and
// share of C, each with its interval.
const shareWithInterval = value => (value ? (value.low !== null ? formatShare(value) : formatPercent(value.estimate)) : '')

function headlineRows (size) {
  const row = (cell, over, share) => [cell.program, cell.runtimeLabel ?? '', nsWithInterval(cell.cpuPerReadNs),
    over, share, cell.flags.join(' ')]
  return [
    ...(size.base ? [row(size.base, '0', '100%')] : []),
    ...size.rows.map(cell => row(cell, nsWithInterval(cell.overheadNs), shareWithInterval(cell.shareOfC)))
  ]
}

// The true levels of a size's intervals (experiments/stdio/report-data.js headlineLevels), as a caption
// says them: "97.9% intervals per read, 95.7% against C".
function headlineLevelsText ({ perRead, againstC }) {
  const parts = [[perRead, 'per read'], [againstC, 'against C']].filter(([levels]) => levels.length)
  return parts.map(([levels, what]) => `${levels.map(levelText).join(' or ')} interval${levels.length > 1 ? 's' : ''} ${what}`).join(', ')
}

function headlineMarkdown (data) {
  const { headline } = data
  const out = ['## What a read costs, against C', '']
  if (!headline.available) return [...out, `No headline: ${md(headline.sets.map(entry => entry.reason).join('; '))}.`, '']
  out.push(`${md(meaningText(headline.sets))}.`, '')
  for (const entry of headline.sets.filter(set => set.available)) {
    for (const blockSize of entry.sizes) {
      const levels = headlineLevelsText(entry.bySize[blockSize].levels)
      out.push(`### ${data.compare ? `${md(entry.set)}: ` : ''}${sizeName(blockSize)}, ${entry.rounds ?? '?'} rounds${levels ? `, ${levels}` : ''}`, '')
      out.push(markdownTable(['reader', 'runtime', 'ns per read', 'over C, ns', 'share of C\'s speed', 'flags'],
        headlineRows(entry.bySize[blockSize]).map(row => row.map(md)), ['l', 'l', 'r', 'r', 'r', 'l']), '')
    }
  }
  for (const entry of headline.sets.filter(set => set.repeatability)) {
    out.push(`${data.compare ? `**${md(entry.set)}**: ` : ''}${md(ownRepeatabilityText(entry.repeatability))}.`, '')
  }
  // (a pair of two policies' runs: its findings say why there is no check)
  for (const twoRuns of headline.repeatabilities.filter(pair => !pair.differ)) {
    const criterion = headlineRepeatabilityText(twoRuns, twoRuns.sets)
    if (!criterion) continue
    out.push(`${md(criterion)}.`, '')
    const [first, second] = twoRuns.sets.map(md)
    const header = ['reader', 'block size', first, second, 'move, points',
      `within ${twoRuns.goal.points}`, 'shift (p)']
    out.push(markdownTable(header,
      twoRuns.cells.map(cell => [md(cell.program), sizeName(cell.blockSize),
        shareWithInterval(cell.a), shareWithInterval(cell.b), cell.movePoints.toFixed(1),
        cell.within ? 'yes' : 'no', shiftText(cell)]),
      ['l', 'r', 'r', 'r', 'r', 'l', 'l']), '')
  }
  return out
}

// Whether a cell's move is a shift or noise by the rank test on the two runs' rounds.
const shiftText = cell => (cell.p === null ? '' : `${cell.shifted ? 'shifted' : 'noise'} (${cell.p.toFixed(3)})`)

function fastPathMarkdown (data) {
  if (data.fastPaths.length === 0) return []
  const about = 'Each runtime\'s fastest reader, checked in a traced run of its own: whether its ' +
    'engine ran it the way its maintainers call fast, the C function its fast call reaches (V8: ' +
    'named in the reader\'s memory), and what showed it.'
  const out = ['## Fast paths', '', about, '']
  for (const entry of data.fastPaths) {
    if (data.compare) out.push(`### ${md(entry.set)}`, '')
    const rows = entry.rows.map(row => [row.program, row.runtimeTitle, row.verdict, row.reachesText, row.shows,
      row.source])
    out.push(markdownTable(['reader', 'runtime', 'fast path', 'its fast call reaches', 'what shows it', 'fastest, per'],
      rows.map(row => row.map(md)), ['l', 'l', 'l', 'l', 'l', 'l']), '')
  }
  return out
}

function idiomaticMarkdown (data) {
  if (data.idiomatic.length === 0) return []
  const out = ['## Idiomatic readers', '', 'Readers that choose their own chunk size, at the block size equal to the chunk strace saw them read (or the nearest measured), against C reading blocks of that size.', '']
  for (const entry of data.idiomatic) {
    if (data.compare) out.push(`### ${md(entry.set)}`, '')
    out.push(markdownTable(['reader', 'chunk size', 'at block size', 'steady-state MB/s', 'share of C'],
      entry.rows.map(row => [md(row.program), row.chunkBytes === null ? 'unknown' : sizeName(row.chunkBytes), row.blockSize === null ? '' : `${sizeName(row.blockSize)}${row.exact ? '' : ' (nearest)'}`,
        row.steadyMBps === null ? '' : formatNumber(row.steadyMBps), row.shareOfC === null ? row.shareWithheld ?? '' : formatPercent(row.shareOfC)]), ['l', 'r', 'r', 'r', 'r']), '')
  }
  return out
}

function stdioMarkdown (data) {
  const out = [...headlineMarkdown(data), ...kernelMarkdown(data), ...profileMarkdown(data)]
  out.push('## Findings', '')
  out.push(...findingLines(data.findings, data.compare))
  if (data.findings.length === 0) out.push('No finding: the results hold too little to compare.')
  out.push('')
  out.push(...idiomaticMarkdown(data))
  out.push(...fastPathMarkdown(data))
  out.push('## Steady-state throughput', '')
  out.push('MB/s (10^6 bytes per second) of the best run with start-up removed, and its share of C at the same block size. ' +
    `Marks: ${WITHIN_NOISE.mark} ${WITHIN_NOISE.meaning}; ${marksLegend()}; "raw" where no steady-state figure exists. ${WITHHELD_NOTE}`, '')
  out.push(...summaryTables(data, data.summaries, summaryCell))
  out.push(...repeatabilityLines(data.repeatability.own, data.compare))
  if (data.summaries.some(summary => summary.shares)) {
    // the level in the title, as the note says and the page's caption does
    const shares = data.summaries.filter(summary => summary.shares)
      .flatMap(summary => summary.rows.flatMap(row => Object.values(row.cells).map(cell => cell?.share)))
    out.push(`## Share of C over all runs, ${levelsText(shares)} interval`, '')
    out.push(SHARE_NOTE, '')
    out.push(...summaryTables(data, data.summaries.filter(summary => summary.shares), shareCell))
  }
  if (data.summaries.some(summary => summary.marginal)) {
    out.push('## Marginal throughput', '')
    out.push(MARGINAL_NOTE, '')
    out.push(...summaryTables(data, data.summaries.filter(summary => summary.marginal), marginalCell))
  }
  if (data.comparison) {
    out.push('## Side by side', '', md(comparisonTitle(data.comparison)), '')
    for (const pair of data.repeatability.twoRuns) if (pair.text) out.push(md(pair.text), '')
    out.push(markdownTable(
      ['program', 'block size', ...data.comparison.sets.map(set => `${md(set)} MB/s`), ...data.comparison.sets.slice(1).map(set => `${md(set)} / ${md(data.comparison.sets[0])}`)],
      data.comparison.rows.map(row => [md(row.program), sizeName(row.blockSize),
        ...row.values.map(value => (value ? formatNumber(value.steadyMBps) : '')),
        ...row.ratios.slice(1).map(ratio => (ratio === null ? '' : formatRatio(ratio)))]),
      ['l', 'r', ...data.comparison.sets.map(() => 'r'), ...data.comparison.sets.slice(1).map(() => 'r')]
    ), '')
  }
  return out
}

const CSV_COLUMNS = [
  ['runId', row => row.runId],
  ['program', row => row.program],
  ['blockSize', row => row.blockSize],
  ['bytes', row => row.bytes],
  ['runs', row => row.runs],
  ['bestWallNs', row => row.bestWallNs],
  ['bestMBps', row => round(row.bestMBps, 3)],
  ['steadyMBps', row => round(row.steadyMBps, 3)],
  ['medianWallNs', row => row.medianWallNs],
  ['cv', row => round(row.cv, 4)],
  ['costPerReadNs', row => round(row.costPerReadNs, 2)],
  ['cpuPerReadNs', row => round(row.cpuPerReadNs, 2)],
  ['vsC', row => round(row.vsC, 4)],
  ['vsCRaw', row => round(row.vsCRaw, 4)],
  ['rankTestP', row => round(row.rankTestP, 4)],
  ['vsCAllRuns', row => round(row.vsCAllRuns, 4)],
  ['vsCAllRunsLow', row => round(row.vsCAllRunsLow, 4)],
  ['vsCAllRunsHigh', row => round(row.vsCAllRunsHigh, 4)],
  ['marginalMBps', row => round(row.marginalMBps, 3)],
  ['marginalPerReadNs', row => round(row.marginalPerReadNs, 2)],
  ['vsCMarginal', row => round(row.vsCMarginal, 4)],
  ['flags', row => row.flags.join(';')],
  // the cost pass's figures, at the sizes it measured (experiments/stdio/cost.js)
  ['costCpuPerReadNs', row => round(row.cost?.cpuPerReadNs?.estimate, 2)],
  ['costOverheadNs', row => round(row.cost?.overheadNs?.estimate, 2)],
  ['costOverheadLowNs', row => round(row.cost?.overheadNs?.low, 2)],
  ['costOverheadHighNs', row => round(row.cost?.overheadNs?.high, 2)],
  ['costShareOfC', row => round(row.cost?.shareOfC?.estimate, 4)],
  ['costShareOfCLow', row => round(row.cost?.shareOfC?.low, 4)],
  ['costShareOfCHigh', row => round(row.cost?.shareOfC?.high, 4)],
  // the kernel pass's, at the same sizes (experiments/stdio/kernel.js)
  ['kernelPerReadNs', row => round(row.kernel?.kernelNs.estimate, 2)],
  ['kernelPerReadLowNs', row => round(row.kernel?.kernelNs.interval?.low, 2)],
  ['kernelPerReadHighNs', row => round(row.kernel?.kernelNs.interval?.high, 2)],
  ['kernelRestNs', row => round(row.kernel?.restNs, 2)],
  ['kernelShare', row => round(row.kernel?.kernelShare, 4)],
  ['kernelCallsPerRead', row => round(row.kernel?.callsPerRead, 4)],
  ['kernelCallP50Ns', row => round(row.kernel?.percentiles.p50, 2)],
  ['kernelCallP99Ns', row => round(row.kernel?.percentiles.p99, 2)],
  ['kernelFloorNs', row => round(row.kernel?.floorNs, 2)],
  ['ownChunk', row => row.ownChunk]
]

// One table per figure, a program per row and a block size per column: the best run's
// steady state, the share of C over all runs where cells have 4 runs or more, and with
// --marginal the marginal throughput of the bytes between. A failed cell reads FAILED,
// except in the share table, which leaves it blank (so C, with no share of C, has no row).
const SUMMARY_TABLES = [
  {
    title: `Best steady-state throughput, MB/s, and % of C at the same block size (${WITHIN_NOISE.mark} ${WITHIN_NOISE.meaning}; ${marksLegend()}; (noisy) in place of a share of C where this cell's or C's best run moved by more than ${GOAL.percent}% between the halves of its runs)`,
    text: cell => {
      const mbps = cell.best.steadyThroughputMBps ?? cell.best.throughputMBps
      const percent = cell.vsC?.withheld ? ` (${cell.vsC.withheld})` : cell.vsC?.steadyThroughput ? ` ${formatPercent(cell.vsC.steadyThroughput)}${cell.vsC.steadyWithinNoise ? WITHIN_NOISE.mark : ''}` : ''
      return `${Math.round(mbps)}${percent}${flagMarks(cell.flags)}`
    }
  },
  {
    title: results => `Share of C over all runs: the median ratio of a run to a run of C, and its ${levelsText(results.cells.map(cell => cell.vsC?.steadyShare))} interval, rounded outwards to a tenth (the shares the rank test would not tell from the runs; blank where this cell or C's has fewer than 4 runs, or failed)`,
    shown: results => results.cells.some(cell => cell.vsC?.steadyShare),
    marksFailed: false,
    text: cell => (cell.vsC?.steadyShare ? cell.vsC.withheld ?? formatShare(cell.vsC.steadyShare) : '')
  },
  {
    title: `Marginal throughput (median runs of the whole and a quarter of the bytes), MB/s, and % of C; ${FEW_READS.mark} ${FEW_READS.meaning}; - where the quarter runs took as long (noise swamped the work)`,
    shown: results => results.cells.some(cell => cell.marginal),
    text: cell => {
      if (!cell.marginal) return ''
      if (cell.marginal.throughputMBps === null) return '-'
      const percent = cell.vsC?.marginalThroughput ? ` ${formatPercent(cell.vsC.marginalThroughput)}` : ''
      return `${Math.round(cell.marginal.throughputMBps)}${percent}${cell.marginal.fewReads ? FEW_READS.mark : ''}`
    }
  }
]

// The headline as bench.js prints it: a reader per row, a cost size per column.
function headlineTerminal (headline) {
  if (!headline) return []
  const names = [...new Set(headline.cells.map(cell => cell.program))]
  const table = [['program', 'runtime', ...headline.sizes.map(size => `${sizeLabel(size)}: ns/read, over C, % of C`)]]
  for (const name of names) {
    const { runtimeTitle, runtime } = headline.cells.find(entry => entry.program === name)
    const title = runtimeTitle ?? runtime ?? ''
    table.push([name, title, ...headline.sizes.map(size => {
      const cell = headline.cells.find(entry => entry.program === name && entry.blockSize === size)
      if (!cell) return ''
      if (!cell.cpuPerReadNs) return 'FAILED'
      const over = cell.overheadNs ? `, ${cell.overheadNs.estimate >= 0 ? '+' : ''}${formatNumber(cell.overheadNs.estimate)}` : ''
      return `${formatNumber(cell.cpuPerReadNs.estimate)}${over}${cell.shareOfC ? `, ${shareWithInterval(cell.shareOfC)}` : ''}${cell.flags.length ? ` [${cell.flags.join(' ')}]` : ''}`
    })])
  }
  const own = ownRepeatabilityText(headline.repeatability)
  const level = levelsText(headline.cells.map(cell => cell.shareOfC), null)
  const title = 'Per read, CPU time against C (the cost pass: the slope of the reader\'s CPU time over its ' +
    `reads within one run, dd and the reader on one CPU${policyText(headline.pin?.policy)}; median, and ` +
    `share of C${level ? ` with its ${level} interval` : ', no interval'}):`
  return ['', title,
    ...textTable(table, ['l', 'l', ...headline.sizes.map(() => 'r')]),
    ...(own ? [`${own}.`] : [])]
}

// What a fast call reaches, for the terminal: an arrow to what was named, or why it was not.
function reachesCell (reaches) {
  if (!reaches) return ''
  return reaches.startsWith('not named') ? `(${reaches})` : `→ ${reaches}`
}

// Each fastest reader's fast-path check, a line each.
function fastPathTerminal (fastPaths = []) {
  if (fastPaths.length === 0) return []
  // what its fast call reaches before what showed it, as the page has them
  const table = fastPaths.map(entry => [entry.program, entry.runtimeTitle ?? entry.runtime, entry.verdict,
    reachesCell(entry.reaches), entry.verdict === 'engaged' ? entry.summary : entry.reason])
  const title = 'Fast paths (each fastest reader traced by its engine in a run of its own):'
  return ['', title, ...textTable(table, ['l', 'l', 'l', 'l', 'l'])]
}

// Where a reader's ns over C's go, in words: its three buckets that grew most over C's, the
// largest with the frame behind it, then the two that shrank most (each of 5 ns or more), so
// that what is said adds up towards its ns over C (a review: wasmtime-aot's +21 ns read
// "+233 binding; +32 buffer; +27 other", its kernel read's −176 and entry's −97 unsaid).
// overC and top: by bucket key.
const BUCKET_SHORT = Object.fromEntries(BUCKETS.map(bucket => [bucket.key, bucket.short]))
const WHERE_LEAST_NS = 5
function whereOverC (overC, top) {
  const moved = Object.entries(overC).filter(([, ns]) => Math.abs(ns) >= WHERE_LEAST_NS)
  const grew = moved.filter(([, ns]) => ns > 0).sort((a, b) => b[1] - a[1]).slice(0, 3)
  const shrank = moved.filter(([, ns]) => ns < 0).sort((a, b) => a[1] - b[1]).slice(0, 2)
  const frame = key => top[key]?.[0] ? ` (${top[key][0][0].slice(0, 32)})` : ''
  // the frame behind what grew most: a shrink's own top frame is no cause of it
  return [...grew, ...shrank].map(([key, ns], i) =>
    `${formatSigned(round(ns))} ${BUCKET_SHORT[key]}${i === 0 && ns > 0 ? frame(key) : ''}`).join('; ')
}

// The profile pass's answer (profile.json): each reader's CPU per read and where its ns over
// C's go, the largest buckets first, with the frame behind the largest.
function profileTerminal (profile, placement) {
  const cells = (profile?.cells ?? []).filter(cell => cell.ok)
  const base = cells.find(cell => cell.program === BASELINE)
  const failed = (profile?.cells ?? []).filter(cell => !cell.ok)
    .map(cell => ({ program: cell.program, reason: cell.failure }))
  // without C's buckets no reader's are over anything; what failed is still said (a review:
  // C's failure silenced the pass, its own reason and every other reader's with it)
  if (!base) {
    if (!profile?.cells?.length) return []
    return ['', 'Where a read\'s ns go: no reader\'s buckets over C\'s, as C\'s profile has none. ' +
      profileLossText(failed, cells)]
  }
  const table = [['program', 'CPU ns/read', 'over C', 'perf\'s cost', 'unnamed', 'where its ns over C\'s go']]
  for (const cell of [base, ...cells.filter(cell => cell !== base).sort((a, b) => a.cpuPerReadNs - b.cpuPerReadNs)]) {
    const byBucket = value => Object.fromEntries(Object.keys(cell.buckets).map(key => [key, value(key)]))
    const overC = byBucket(key => cell.buckets[key].ns - base.buckets[key].ns)
    const where = whereOverC(overC, byBucket(key => cell.buckets[key].top))
    const cost = Number.isFinite(cell.profilerCostNs) ? formatSigned(cell.profilerCostNs) : ''
    const over = cell === base ? '' : formatSigned(cell.cpuPerReadNs - base.cpuPerReadNs)
    table.push([cell.program, String(round(cell.cpuPerReadNs)), over, cost, unnamedText(cell.unnamed), where])
  }
  const title = `Where a read's ns go at ${sizeName(base.blockSize)} (perf's samples, ${placement.words}; ` +
    `${profileRoundsText(cells)}: a reader's CPU per read the median of its rounds', a bucket its share of ` +
    'their samples times it; the page has each reader\'s flame graph):'
  const loss = profileLossText(failed, cells)
  // a run has no calls run beside it: how to set the fast calls against one
  const checkable = ladderCheckable(cells.map(cell => cell.program))
  const precision = precisionText(profilePrecision(cells))
  return ['', title, ...textTable(table, ['l', 'r', 'r', 'r', 'l', 'l']), ...(precision ? [precision] : []),
    ...(loss ? [loss] : []), ...(checkable.length ? [NO_LADDER_NOTE(checkable)] : [])]
}

// results.md's part of the profile pass (report-data.js profileData): per run, each reader's CPU
// per read, where its ns over C's go, the ns no frame names, perf's own cost and, with a calls
// run beside (analyse.js --ladder), its call against the ladder's no-op call; or how to get it.
function profileMarkdown (data) {
  const { profile } = data
  if (!profile?.available) return []
  const out = ['## Where the ns go', '', md(PROFILE_MARKDOWN_NOTE(profilePlacementText(profile.entries))), '']
  const ladderColumn = profile.ladderRun !== null
  for (const entry of profile.entries) {
    out.push(`### ${data.compare ? `${md(entry.set)}: ` : ''}${sizeName(entry.blockSize)}, ` +
      md(profileRoundsText(entry.rows)), '')
    const header = ['reader', 'CPU ns per read', 'over C', 'where its ns over C\'s go', 'unnamed', 'perf\'s own cost',
      ...(ladderColumn ? ['call against the ladder\'s no-op, over C\'s'] : [])]
    const rows = entry.rows.map(row => [
      md(row.program),
      String(round(row.cpuPerReadNs)),
      row.overC && Number.isFinite(entry.baseNs) ? formatSigned(row.cpuPerReadNs - entry.baseNs) : '',
      row.overC ? md(whereOverC(row.overC, row.top)) : '',
      md(unnamedText(row.unnamed)),
      Number.isFinite(row.profilerCostNs) ? formatSigned(row.profilerCostNs) : '',
      ...(ladderColumn ? [ladderText(row.ladderCall)] : [])
    ])
    out.push(markdownTable(header, rows, ['l', 'r', 'r', 'l', 'l', 'r', ...(ladderColumn ? ['l'] : [])]), '')
    if (entry.precision) out.push(md(precisionText(entry.precision)), '')
    const loss = profileLossText(entry.failed, entry.rows)
    if (loss) out.push(md(loss), '')
  }
  const ladderNote = ladderNoteText(profile, 'In the last column')
  if (ladderNote) out.push(md(ladderNote), '')
  return out
}

// The ladder's check (analyse.js --ladder) said in words, `where` the table gives it, or how to
// get it; '' where no reader shown would take it.
const ladderNoteText = (profile, where) => (profile.ladderRun
  ? LADDER_NOTE(profile.ladderRun, where)
  : profile.unchecked.length ? NO_LADDER_NOTE(profile.unchecked) : '')

// ladderCheck's finding in words, without its mark ("call +20, ladder +2.1"); and with it
const ladderCallText = check => `call ${formatSigned(check.profiledNs)}, ladder ${formatSigned(check.ladderNs)}`
const ladderText = check => (check ? `${ladderCallText(check)}${check.disagrees ? ' ≠' : ''}` : '')
const PROFILE_MARKDOWN_NOTE = placement =>
  `Each reader under perf (cpu-clock samples with call graphs), ${placement}; ` +
  'a bucket\'s ns per read is its share of every round\'s samples in the read loop\'s window times the CPU per ' +
  'read of the unprofiled runs (the median of the rounds\'). The buckets, each one\'s frames and the flame graphs ' +
  'are on the page ' +
  '(report.html); the perf script texts in the run\'s profile/ folder.'
// with a calls run beside (analyse.js --ladder)
const LADDER_NOTE = (run, where) => `${where}, the reader's call (its binding and loop over ` +
  `C's) and the no-op call of ${run}'s call ladder (docs/calls.md) over C's, for the readers whose read ` +
  'crosses the boundary that no-op crosses (the host\'s fast calls, the FFIs); ≠ where the two are more ' +
  'than a fifth and 5 ns apart: the read does more than cross (converts a buffer, checks its arguments).'
// without one, for the readers it would check
const NO_LADDER_NOTE = programs => `The binding's bucket of ${listJoin(programs)} is not set against the ` +
  'call ladder\'s no-op call of the same boundary: give a calls run of this machine (node bench.js ' +
  '--experiment calls), then node analyse.js RUN --ladder CALLS-RUN.'

// How sure the pass's buckets are (profile.js profilePrecision), in a sentence; '' without
// buckets. Its target is issue 50's: each bucket's interval within a tenth of its figure or
// the floor's ns.
const PRECISION_NAMED = 3
const thousands = count => count.toLocaleString('en-US')
function precisionText (precision) {
  if (!precision) return ''
  const { target, buckets, withRounds, within, samplingWithin, roundsMoved, shortOfSamples, levels } = precision
  const head = 'How sure the buckets are, against the target of an interval within a tenth of the bucket or ' +
    `${target.floorNs} ns:`
  const byRounds = withRounds
    ? `by their rounds' range (${levels.map(levelText).join(' or ')}), ${within} of the ${buckets} buckets of ` +
      `${target.floorNs} ns or more`
    : `one round a reader gives no range, so none of the ${buckets} buckets of ${target.floorNs} ns or more is ` +
      'known to hold it'
  const bySamples = `by perf's samples alone (Wilson's interval, ${INTERVAL_LEVEL}), ${samplingWithin}.`
  const movedRounds = roundsMoved
    ? ` Of the ${withRounds - within} the rounds miss, ${roundsMoved} hold by their samples: there the rounds ` +
      'moved (the host, the run), which more samples do not narrow.'
    : ''
  // about: the sampling interval narrows as the square root of the samples, roughly
  const about = count => thousands(Number(count.toPrecision(2)))
  const name = bucket => `${bucket.program}'s ${BUCKET_SHORT[bucket.key]} (${thousands(bucket.cellSamples)} ` +
    `samples; about ${about(bucket.samplesNeeded)} would do)`
  const listed = shortOfSamples.slice(0, PRECISION_NAMED).map(name)
  const more = shortOfSamples.length - listed.length
  const short = shortOfSamples.length
    ? ` ${counted(shortOfSamples.length, 'bucket')} short of samples: ` +
      `${listJoin(more ? [...listed, `${more} more`] : listed)}.`
    : ''
  return `${head} ${byRounds}; ${bySamples}${movedRounds}${short}`
}

// The rounds the profile's figures come from, each reader's where they differ (a
// failed round, a reader measured again): "4 rounds", "4 rounds (node-sync 3)". rows: { program,
// rounds }.
function profileRoundsText (rows) {
  const roundsOf = row => row.rounds ?? 1
  const [[common] = [1]] = byCommonest(rows, roundsOf)
  const apart = rows.filter(row => roundsOf(row) !== common).map(row => `${row.program} ${roundsOf(row)}`)
  return `${counted(common, 'round')}${apart.length ? ` (${apart.join(', ')})` : ''}`
}

// What the profile pass lost, in a sentence; '' where nothing: the readers whose every round
// failed, and the rounds left out of a reader's figures (a review: both went unsaid outside the
// page). failed: [{ program, reason }]; rows: { program, failedRounds: [{ run, failure }] }.
function profileLossText (failed, rows) {
  const lostRounds = rows.filter(row => row.failedRounds?.length)
    .map(row => `${row.program}'s ${listJoin(row.failedRounds.map(round => `round ${round.run + 1}`))} ` +
      `(${row.failedRounds[0].failure})`)
  const parts = [
    failed.length ? `Failed, no buckets: ${listJoin(failed.map(cell => `${cell.program} (${cell.reason})`))}.` : '',
    lostRounds.length ? `Rounds that failed, left out of their reader's figures: ${listJoin(lostRounds)}.` : ''
  ]
  return parts.filter(Boolean).join(' ')
}

// ns per read in frames with no name, and the file most of them are in: "12 (bun.exe)"
function unnamedText (unnamed) {
  if (!shownUnnamed(unnamed)) return ''
  return `${round(unnamed.ns)}${unnamed.top[0] ? ` (${unnamed.top[0][0].slice(0, 20)})` : ''}`
}

// Two runs compared (analyse.js A B): each reader's buckets of more than PROFILE_GOAL.floorNs
// in either run, and how far each moved, against the smaller of the two (so that the move
// reads the same whichever run comes first; a bucket new in one run moved from none). Issue
// 50's goal is every such bucket within PROFILE_GOAL.percent; a reader measured in one run
// only counts against it.
const PROFILE_GOAL = { floorNs: 20, percent: 10, share: 1 }
const PROFILE_LISTED = 6

function profileAgreement (data, labels) {
  const [first, second] = labels.map(label => (data.profile?.entries ?? []).find(entry => entry.set === label))
  if (!first || !second) return []
  // dd beside the reader at SCHED_BATCH, or on the other CPU: reads of two costs
  const differ = methodDifference([first, second].map(entry => ({ label: entry.set, words: entry.placement.words })),
    way => way.words, 'profile placements')
  if (differ) return [`profile: ${differ}`]
  const short = Object.fromEntries(first.buckets.map(bucket => [bucket.key, bucket.short]))
  const programs = entry => [...entry.rows.map(row => row.program), ...entry.failed.map(cell => cell.program)]
  const missing = [...new Set([...programs(first), ...programs(second)])].flatMap(program =>
    [first, second].filter(entry => !entry.rows.some(row => row.program === program))
      .map(entry => `${program} in ${entry.set}`))
  const cells = first.rows.flatMap(a => {
    const b = second.rows.find(row => row.program === a.program)
    if (!b) return []
    return Object.keys(short).filter(key => Math.max(a.ns[key], b.ns[key]) > PROFILE_GOAL.floorNs)
      .map(key => ({ name: `${a.program} ${short[key]}`, a: a.ns[key], b: b.ns[key] }))
  })
  if (cells.length === 0 && missing.length === 0) return []
  const { within, total, cells: moved, met } = criterion(cells, PROFILE_GOAL, moveFromSmaller)
  const pace = atCsPace(cells, first.baseNs, second.baseNs, [first.set, second.set])
  const above = moved.filter(cell => !cell.within).sort((x, y) => y.movePercent - x.movePercent)
  const listed = above.slice(0, PROFILE_LISTED).map(cell => `${cell.name} ${round(cell.a)} → ${round(cell.b)} ns` +
    // a miss rounded up, never down to the goal it missed ("10%" for 10.49%, a review)
    ` (${Number.isFinite(cell.movePercent) ? `${formatBound(cell.movePercent)}%` : 'from none'})`)
  const more = above.length > PROFILE_LISTED ? ` and ${above.length - PROFILE_LISTED} more` : ''
  return [`profile: ${within} of ${total} buckets over ${PROFILE_GOAL.floorNs} ns ` +
    `per read moved by at most ${PROFILE_GOAL.percent}% between ${first.set} and ${second.set}` +
    `${missing.length ? `; ${counted(missing.length, 'reader')} missing: ${missing.join(', ')}` : ''}` +
    `: the goal (every one) is ${met && missing.length === 0 ? 'met' : 'not met'}` +
    `${listed.length ? `; most moved: ${listed.join(', ')}${more}` : ''}${pace}`]
}

// A host's speed moves a run's buckets together, C's read too (2026-11-30: C's read at the
// pass's pace 484 ns in one run, 570 in the next). A bucket over its run's pace of C (the
// median of C's turns in the pass) is its share of the samples times the reader's CPU per read
// against C's in the same moments: how many held once the host's speed is out.
function atCsPace (cells, firstC, secondC, sets) {
  if (!(firstC > 0 && secondC > 0)) return ''
  const { within, total } = criterion(cells.map(cell => ({ ...cell, a: cell.a / firstC, b: cell.b / secondC })),
    PROFILE_GOAL, moveFromSmaller)
  if (total === 0) return ''
  return `. C's read at the pass's pace took ${round(firstC)} ns in ${sets[0]} and ${round(secondC)} in ${sets[1]} ` +
    `(${formatSignedPercent(secondC / firstC - 1)}); as shares of it, ${within} of ${total} ` +
    `moved by at most ${PROFILE_GOAL.percent}%`
}

// a run's profile.json or context.json, or null
function readRunFile (runDir, name) {
  const file = runDir && path.join(runDir, name)
  return file && fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null
}

// bench.js's summary when a run is done: the headline, then the timing pass's tables.
function terminal (results, sizes, runDir = null) {
  const names = [...new Set(results.cells.map(cell => cell.program))]
  const lines = [...headlineTerminal(results.headline), ...kernelTerminal(results.kernel),
    ...profileTerminal(readRunFile(runDir, 'profile.json'),
      profilePlacement(readRunFile(runDir, 'context.json'))), ...fastPathTerminal(results.fastPaths)]
  for (const { title, shown, marksFailed = true, text } of names.length ? SUMMARY_TABLES : []) {
    if (shown && !shown(results)) continue
    const table = [['program', ...sizes.map(sizeLabel)]]
    for (const name of names) {
      const row = sizes.map(size => {
        const cell = results.cells.find(c => c.program === name && c.blockSize === size)
        if (!cell) return ''
        if (cell.best) return text(cell)
        return marksFailed ? 'FAILED' : ''
      })
      if (row.some(cellText => cellText !== '')) table.push([name, ...row])
    }
    lines.push('', `${typeof title === 'function' ? title(results) : title}:`, ...textTable(table, ['l', ...sizes.map(() => 'r')]))
  }
  const own = names.length ? throughputOwnText(results.throughputRepeatability) : null
  if (own) lines.push('', own)
  return lines
}

function flaggedCellsMarkdown (data) {
  if (data.flags.length === 0) return []
  return ['## Flagged cells', '', ...data.flags.map(group => {
    const where = group.most
      ? `${group.cells.length} of ${group.most.of} cells, all but ${md(group.most.spared)}`
      : group.cells.map(cell => `${md(cell.program)} at ${sizeName(cell.blockSize)}${cell.detail ? ` (${md(cell.detail)})` : ''}`).join(', ')
    return `- ${data.compare ? `${md(group.set)}: ` : ''}**${md(group.flag)}** (${md(group.meaning)}): ${where}`
  }), '']
}

// results.md after its title: the headline and the timing pass's tables, then the context.
function markdown (data) {
  return [...stdioMarkdown(data), ...flaggedCellsMarkdown(data), ...failedRunsMarkdown(data.failures, data.compare), ...contextMarkdown(data)]
}

// What analyse.js prints when runs are compared: how far each machine's runs agree.
function agreement (data) {
  return data.headline.repeatabilities.flatMap(repeatability => pairAgreement(data, repeatability))
}

function pairAgreement (data, repeatability) {
  const passes = [...kernelAgreement(data, repeatability.sets), ...profileAgreement(data, repeatability.sets)]
  if (repeatability.differ) return [...passes, `headline: ${repeatability.differ}`]
  if (!repeatability.total) return passes
  const order = repeatability.runtimeOrder
  const above = repeatability.cells.filter(cell => !cell.within)
  // results from before the check named its missing cells have none
  const missing = repeatability.missing ?? []
  return [...passes,
    `headline: ${repeatability.within2} of ${repeatability.total} shares of C moved by at most ` +
      `${repeatability.goal.points} points between ${repeatability.sets.join(' and ')}` +
      missingClause(missing, repeatability.sets) +
      `${repeatability.cells.length ? `, largest ${repeatability.maxMovePoints.toFixed(1)}` : ''}` +
      `: the goal is ${repeatability.met ? 'met' : 'not met'}` +
      `${above.length ? `; above: ${above.map(cell => `${cell.program} @ ${cell.blockSize} (${cell.movePoints.toFixed(1)}${cell.shifted ? ', shifted' : ''})`).join(', ')}` : ''}`,
    ...(order
      ? [`runtimes at ${repeatability.blockSize} B: ` + (order.same
          ? `the same order, ${order.a.join(' > ')}`
          : `${order.a.join(' > ')} against ${order.b.join(' > ')}`)]
      : [])
  ]
}

// results.csv: every cell of every set, a row each.
const csv = data => ({ columns: CSV_COLUMNS, rows: data.cells })

module.exports = {
  markdown,
  whereOverC,
  profileRoundsText,
  profileLossText,
  csv,
  terminal,
  agreement,
  headlineLevelsText,
  shiftText,
  MARGINAL_NOTE,
  SHARE_NOTE,
  WITHHELD_NOTE,
  WITHIN_NOISE,
  FEW_READS,
  ladderNoteText,
  ladderCallText,
  precisionText
}
