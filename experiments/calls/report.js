'use strict'
// The calls experiment's report: the call ladder first (where a 256-byte read's ns go,
// rung by rung), then the cost pass at 256 B as the stdio experiment reports it, whose
// report (experiments/stdio/report.js) this one builds on. Its interface: experiments/index.js.
const path = require('node:path')
const stdio = require('../stdio/report')
const { findings } = require('./findings')
const {
  formatNumber, formatSigned, formatRange, listJoin, byCommonest, escapeMarkdown: md
} = require('../../lib/report/format')
const { Markup, html, intervalText, trustLine, leadFindings } = require('../../lib/report/markup')
const { reachable, callsTrust } = require('./repeatability')
const { markdownTable, textTable, round, nsWithInterval, findingLines } = require('../../lib/report/plain')
const { measuredOn } = require('../../lib/report/context')
const { levelsText } = require('../../lib/stats')
const { BLOCK } = require('./ladder')

// The call ladder of each set that has one: its rows, and its chart's series: a bar per
// variant stacked from the four parts (experiments/calls/ladder.js decompose), the measured 256-byte
// read beside it with its interval.
const LADDER_PARTS = [['boundary', 'boundary (no-op call)'], ['syscall', 'syscall entry and exit'], ['readPath', 'the runtime\'s read path'], ['kernelRead', 'the kernel\'s 256-byte read']]

function ladderData (sets) {
  return sets.filter(set => set.results.ladder).map(set => {
    const { rows } = set.results.ladder
    // a stack of parts that do not add up to the read (over 10% off: a WASI host whose stdin is
    // buffered, or whose fd_read costs what its empty read does not) is no picture of that
    // read, and the wasmer hosts' ran to 60 times the others': those rows are named beneath
    const addsUp = row => row.parts && row.addsUp !== false
    const drawn = rows.filter(addsUp)
    const leftOut = rows.filter(row => row.parts && !addsUp(row)).map(row => ({
      variant: row.variant, predicted: row.predicted, read: row.rungs['read-256']?.estimate ?? null
    }))
    return {
      set: set.label,
      ...set.results.ladder,
      chart: {
        categories: drawn.map(row => row.variant),
        parts: LADDER_PARTS.map(([key, name]) => ({ key, name, data: drawn.map(row => row.parts[key]) })),
        measured: drawn.map(row => row.rungs['read-256'].estimate),
        whiskers: drawn.map(row => [row.rungs['read-256'].low, row.rungs['read-256'].high]),
        level: levelsText(drawn.map(row => row.rungs['read-256'])),
        costPass: drawn.map(row => row.stdin?.cpuPerReadNs?.estimate ?? null),
        leftOut
      }
    }
  })
}

// The call ladder (bench.js --experiment calls): a stacked bar per variant of where a
// 256-byte read's ns go, its findings, and the table of rungs.
function ladderSection (data) {
  const rung = value => (value ? html`${formatNumber(value.estimate)}${intervalText(value)}${value.wide ? html` <span class="badge" title="interval wider than ±5% of the median">wide</span>` : ''}` : 'failed')
  // the rungs' cells take two lines (the figure, then its interval) so that every column,
  // the 256-byte read's among them, fits the page
  const leftOutText = ({ variant, predicted, read }) =>
    `${variant} (parts ${formatNumber(predicted)} ns, ` +
    `its read ${read === null ? 'failed' : `${formatNumber(read)} ns`})`
  const chart = (entry, index) => html`<div class="chart" id="chart-ladder-${index}"></div>
    ${entry.chart.leftOut.length
      ? html`<p class="note">Not drawn, their parts more than 10% off their measured read (the table below
        gives each): ${listJoin(entry.chart.leftOut.map(leftOutText))}.</p>`
      : ''}`
  const table = entry => html`<div class="table-wrap"><table class="ladder">
    <caption>${data.compare ? html`${entry.set}: ` : ''}ns of CPU per call, median of ${entry.counts?.processes ?? '?'} processes of ${entry.counts?.rounds ?? '?'} rounds, ${ladderLevels(entry)}</caption>
    <thead><tr><th scope="col">variant</th><th scope="col">boundary, read</th><th scope="col" class="num">no-op</th><th scope="col" class="num">getppid (ring: NOP; WASI: sched_yield)</th><th scope="col" class="num">empty read</th><th scope="col" class="num">256-byte read</th>
      <th scope="col" class="num">parts: boundary + syscall + read path + kernel</th><th scope="col" class="num">predicted, off by</th><th scope="col" class="num">cost pass at 256 B</th></tr></thead>
    <tbody>${entry.rows.map(row => html`<tr${row.addsUp === false || row.stdin?.agrees === false ? new Markup(' class="disagree"') : ''}>
      <th scope="row">${row.variant}</th><td class="describes">${row.boundary ?? ''}; ${row.read ?? ''}</td>
      <td class="num wraps">${rung(row.rungs.noop)}</td><td class="num wraps">${rung(row.rungs.syscall)}</td>
      <td class="num wraps">${rung(row.rungs['empty-read'])}</td>
      <td class="num wraps">${rung(row.rungs['read-256'])}${overCLine(row)}</td>
      <td class="num wraps">${row.parts ? partsSum(row.parts) : ''}</td>
      <td class="num wraps">${row.predicted === null
        ? ''
        : html`${formatNumber(row.predicted)}, ${formatSigned(row.gap)} ${addsUpNote(row)}`}</td>
      <td class="num wraps">${row.stdin?.cpuPerReadNs ? html`${row.stdin.program} ${formatNumber(row.stdin.cpuPerReadNs.estimate)}${intervalText(row.stdin.cpuPerReadNs)}${row.stdin.agrees === false ? html` <span class="badge">outside</span>` : ''}` : row.stdin ? html`${row.stdin.program}: not measured` : 'no stdin reader'}</td>
    </tr>`)}</tbody>
  </table></div>`
  // the answer first, at the top of the page; what it means and its numbers after it
  return html`<section id="ladder">
    <h2>Where a read's time goes: the call ladder</h2>
    ${trustLine(data.ladder, entry => callsTrust(reachable(entry)), data.compare,
      data.ladderFindings.filter(finding => finding.pair).map(finding => finding.text))}
    ${data.ladder.map(chart)}
    ${leadFindings(data.ladderFindings.filter(finding => !finding.pair), data.compare)}
    <p class="note">${data.ladder[0].meaning}. Rungs: a no-op call into C (the boundary), getppid(2) through it (and a syscall's entry and exit), read(2) of /dev/null as the runtime reads (its read path), read(2) of 256 bytes of a full pipe fed by dd on the same CPU.
      The parts: the no-op; getppid less the no-op; the runtime's empty read less its getppid, beyond C's; C's 256-byte read less C's getppid (the kernel's work, the same everywhere).
      A ring variant (c-uring, just-uring, bun-uring, deno-uring) climbs the rungs through io_uring: an IORING_OP_NOP in getppid's place, IORING_OP_READs for the reads, each handed over and waited for by one io_uring_enter, and its parts are taken against c-uring's; c-uring, bun-uring and deno-uring call one ring, build/libladder-uring.so.
      A WASI variant runs C's ladder built for wasm32-wasi under a WASI host: args_sizes_get (a WASI call with no syscall) for the no-op, sched_yield in getppid's place (c-yield is C's ladder with it), fd_read for the reads; its syscall part is C's, and its read path its empty read less its no-op, beyond C's (docs/wasm.md).
      Their sum predicts the 256-byte read (marked when more than 10% off); the cost pass column is the stdin reader that reads the same way, measured at 256 B in this run (marked when the ladder's read is outside its interval).</p>
    ${data.ladder.map(table)}
    ${data.ladder.map(entry => fastPathText(entry)).filter(Boolean).map(text => html`<p class="note">${text}</p>`)}
  </section>`
}

// The ladders' fast-path checks (experiments/calls/fastpath.js) in one sentence: the variants
// whose fast loops held, and why each that did not; null where none was checked.
function fastPathText (ladder) {
  const checked = ladder.rows.filter(row => row.fastPath)
  if (checked.length === 0) return null
  const loopText = ({ loop, viaWrapper, target }) =>
    `${loop}()${viaWrapper ? ` through ${viaWrapper}()` : ''}${target ? ` → ${target}` : ''}`
  const verdicts = [
    ...checked.filter(row => !row.fastPath.failure)
      .map(row => `${row.variant} held (${row.fastPath.loops.map(loopText).join(', ')})`),
    ...checked.filter(row => row.fastPath.failure).map(row => `${row.variant} did not: ${row.fastPath.failure}`)
  ]
  return 'Fast paths, each variant\'s fast loops traced by its engine in a process of its own before ' +
    'the timed ones (V8: TurboFan compiled the loop with its calls fast API calls, each reaching ' +
    'the C function named after the arrow, and it never deoptimised inside it; JavaScriptCore: ' +
    `DFG or FTL called through CallFFI): ${verdicts.join('; ')}.`
}

// The call ladder as a table (terminal and markdown): a variant per row, its rungs' ns per
// call with intervals, the four parts and what they predict against the measured read,
// and the cost pass's CPU per read of its stdin reader at 256 B.
// Beside the predicted read: a badge where it does not add up; the floors add up by
// construction.
function addsUpNote (row) {
  if (row.addsUp === false) return html`<span class="badge">over 10%</span>`
  return row.baseline ? 'the floor, by construction' : ''
}

const LADDER_HEADER = ['variant', 'no-op', 'getppid (ring: NOP; WASI: sched_yield)', 'empty read', '256-B read',
  '256-B read over C', 'boundary + syscall + read path + kernel = predicted', 'adds up', 'cost pass, 256 B', 'agrees']
const LADDER_ALIGN = ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'r', 'l']

// A variant's 256-byte read over C's, process by process against the C it was set against
// (ladder.js againstC): "+80.7 (+78.1 to +83.0)", or null for C and where none was paired.
const OVER_C_MEANING = 'ns over C, process by process against the C that ran beside it (in turns, or the ' +
  'same round): the median of the differences and its interval'
// the same under the read's ns on the page, its interval and meaning in its title
function overCLine (row) {
  const over = row.overC?.['read-256']
  if (!over) return ''
  const title = `${readOverC(row)} ns: ${OVER_C_MEANING}`
  return html`<span class="interval" title="${title}">${formatSigned(over.estimate)} over C</span>`
}
function readOverC (row) {
  const over = row.overC?.['read-256']
  if (!over) return null
  const bounded = [over.low, over.high].every(Number.isFinite)
  const interval = bounded ? ` (${formatRange(over.low, over.high, formatSigned)})` : ''
  return `${formatSigned(over.estimate)}${interval}`
}
const rungText = rung => (rung ? `${nsWithInterval(rung)}${rung.wide ? ' [wide]' : ''}` : 'FAILED')
// the parts as a sum, "6.4 + 273 − 7.06 + 331": a negative part subtracted, not added as one
// with its sign ("+ −7.06", "+ -7.06")
function partsSum (parts) {
  return ['boundary', 'syscall', 'readPath', 'kernelRead'].map((name, i) => {
    const value = parts[name]
    const sign = value < 0 ? (i === 0 ? '−' : ' − ') : (i === 0 ? '' : ' + ')
    return `${sign}${formatNumber(Math.abs(value))}`
  }).join('')
}

function ladderRows (ladder) {
  return ladder.rows.map(row => [
    row.variant,
    ...['noop', 'syscall', 'empty-read', 'read-256'].map(rung => rungText(row.rungs[rung])),
    readOverC(row) ?? '',
    row.parts ? `${partsSum(row.parts)} = ${formatNumber(row.predicted)}` : '',
    row.baseline ? 'floor' : row.addsUp === null ? '' : `${row.addsUp ? 'yes' : 'no'} (${formatSigned(row.gap)})`,
    row.stdin?.cpuPerReadNs ? `${row.stdin.program} ${nsWithInterval(row.stdin.cpuPerReadNs)}` : row.stdin ? `${row.stdin.program}: none` : '',
    row.stdin?.agrees === null || row.stdin?.agrees === undefined ? '' : row.stdin.agrees ? 'yes' : `no (${formatSigned(row.stdin.differenceNs)})`
  ])
}

// The intervals' levels: the rungs' (the sign test's over the processes: 97.9% for 10)
// and the cost pass column's (over its rounds, which --rounds sets apart from --processes).
// A variant that kept another count of processes (a failed one, one measured again) has
// another level: the ones apart from the most common are named, with their processes.
function ladderLevels (ladder) {
  const cost = levelsText(ladder.rows.map(row => row.stdin?.cpuPerReadNs), null)
  const levelOf = row => levelsText(Object.values(row.rungs ?? {}), null)
  const [common, ...others] = byCommonest(ladder.rows.filter(levelOf), levelOf)
  const apart = others.map(([level, rows]) =>
    `${level} for ${rows.map(row => `${row.variant} (${row.processes} processes)`).join(', ')}`)
  const rungs = common ? `${common[0]} interval${apart.length ? `, ${apart.join('; ')}` : ''}` : 'no interval'
  return `${rungs}${cost ? `; the cost pass's, ${cost}` : ''}`
}

const ladderTitle = ladder => `The call ladder: ns of CPU per call (median of processes, ${ladderLevels(ladder)}), and where a 256-byte read's ns go`

function ladderTerminal (ladder) {
  if (!ladder) return []
  const fast = fastPathText(ladder)
  const table = textTable([LADDER_HEADER, ...ladderRows(ladder)], LADDER_ALIGN).map(line => line.trimEnd())
  return ['', `${ladderTitle(ladder)}:`, ...table, ...(fast ? ['', fast] : [])]
}

function ladderMarkdown (ladder, compare = false) {
  const fast = fastPathText(ladder)
  return [`## ${compare ? `${md(ladder.set)}: ` : ''}${ladderTitle(ladder)}`, '', `${md(ladder.meaning)}.`, '',
    markdownTable(LADDER_HEADER, ladderRows(ladder).map(row => row.map(md)), LADDER_ALIGN), '',
    ...(fast ? [md(fast), ''] : [])]
}

// A calls run's CSV: a variant per row (and per set, when runs are compared), each
// rung's median and interval in ns per call, the parts, and the cost pass's figure.
const LADDER_CSV_COLUMNS = [
  ['runId', row => row.set],
  ['variant', row => row.variant],
  ['runtime', row => row.runtime],
  ['processes', row => row.processes],
  ['failedRuns', row => row.failedRuns],
  ...['noop', 'syscall', 'empty-read', 'read-256'].flatMap(rung => {
    const name = rung.replace(/-(\w)/g, (_, letter) => letter.toUpperCase())
    return [
      [`${name}Ns`, row => round(row.rungs[rung]?.estimate, 3)],
      [`${name}LowNs`, row => round(row.rungs[rung]?.low, 3)],
      [`${name}HighNs`, row => round(row.rungs[rung]?.high, 3)]
    ]
  }),
  ['read256OverCNs', row => round(row.overC?.['read-256']?.estimate, 3)],
  ['read256OverCLowNs', row => round(row.overC?.['read-256']?.low, 3)],
  ['read256OverCHighNs', row => round(row.overC?.['read-256']?.high, 3)],
  ...['boundary', 'syscall', 'readPath', 'kernelRead'].map(part => [`${part}PartNs`, row => round(row.parts?.[part], 3)]),
  ['predictedNs', row => round(row.predicted, 3)],
  ['addsUp', row => row.addsUp],
  ['stdinProgram', row => row.stdin?.program],
  ['costCpuPerReadNs', row => round(row.stdin?.cpuPerReadNs?.estimate, 3)],
  ['costCpuPerReadLowNs', row => round(row.stdin?.cpuPerReadNs?.low, 3)],
  ['costCpuPerReadHighNs', row => round(row.stdin?.cpuPerReadNs?.high, 3)],
  ['agreesWithCost', row => row.stdin?.agrees],
  // the page's "What a read costs": the cost pass's ns over C and share of C for that reader
  ['costOverCNs', row => round(row.cost?.overheadNs?.estimate, 3)],
  ['costOverCLowNs', row => round(row.cost?.overheadNs?.low, 3)],
  ['costOverCHighNs', row => round(row.cost?.overheadNs?.high, 3)],
  ['costShareOfC', row => round(row.cost?.shareOfC?.estimate, 4)],
  ['costShareOfCLow', row => round(row.cost?.shareOfC?.low, 4)],
  ['costShareOfCHigh', row => round(row.cost?.shareOfC?.high, 4)],
  ['costLevel', row => round(row.cost?.shareOfC?.level ?? row.cost?.overheadNs?.level, 4)]
]

// sets: labelled results sets; stdio's part (its headline holds the cost pass) and the ladder's.
function shape (sets) {
  const ladder = ladderData(sets)
  return {
    ...stdio.shape(sets),
    subtitle: `the call ladder of ${ladder[0].rows.length} variants, ${ladder[0].counts?.processes ?? '?'} processes each, ${measuredOn(sets[0])}`,
    ladder,
    ladderFindings: findings(sets)
  }
}

const sectionOf = id => stdio.sections.find(([sectionId]) => sectionId === id)

// A calls run has the ladder and the cost pass at 256 B, nothing the stdio sections show.
const sections = [
  ['ladder', 'Where a read\'s time goes', ladderSection, data => data.ladder.map(entry => ({ set: entry.set, chart: entry.chart }))],
  sectionOf('headline'),
  sectionOf('context')
]

function markdown (data) {
  return [
    ...data.ladder.flatMap(entry => ladderMarkdown(entry, data.compare)),
    ...(data.ladder.length ? [...findingLines(data.ladderFindings, data.compare), ''] : []),
    ...stdio.markdown(data)
  ]
}

// A ladder row per variant, with its reader's cost-pass cell (the headline's, at the ladder's
// block size) beside it.
function csv (data) {
  const costOf = (set, program) => data.headline?.sets?.find(entry => entry.set === set)?.bySize?.[BLOCK]?.rows
    ?.find(row => row.program === program) ?? null
  return {
    columns: LADDER_CSV_COLUMNS,
    rows: data.ladder.flatMap(entry => entry.rows
      .map(row => ({ ...row, set: entry.set, cost: costOf(entry.set, row.stdin?.program) })))
  }
}

const terminal = (results, sizes) => [...ladderTerminal(results.ladder), ...stdio.terminal(results, sizes)]

module.exports = {
  shape,
  ladderLevels,
  fastPathText,
  partsSum,
  contextRows: stdio.contextRows,
  pinText: stdio.pinText,
  sections,
  browser: path.join(__dirname, 'report-browser.js'),
  markdown,
  csv,
  terminal,
  agreement: stdio.agreement,
  machineFigures: require('./machines').machineFigures
}
