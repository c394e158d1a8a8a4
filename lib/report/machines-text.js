'use strict'
// A comparison of machines (lib/report/machines.js) in words and tables: the tables are
// built once, as header and rows of cells (text, or a figure with its interval apart), and
// each format (results.md, the page, machines.csv, the terminal) lays them out.
const {
  formatNumber, formatSigned, formatPercent, formatPercentTenth, formatInterval, formatRange, escapeMarkdown: md,
  listJoin
} = require('./format')
const { markdownTable } = require('./plain')
const { html, figureWithInterval } = require('./markup')
const { carriedByIntervalsOnly } = require('./machines')
const { levelsText } = require('../stats')

const VERDICTS = {
  both: 'both',
  share: 'share of the baseline',
  over: 'over the baseline',
  neither: 'neither'
}

// A figure with its interval, kept apart ({ figure, interval }) so that the page can set the
// interval whole on a line of its own; a figure without one is its text alone.
const withInterval = (value, text = formatNumber, span = ({ low, high }) => formatRange(low, high, text)) => {
  if (!value) return '–'
  const figure = text(value.estimate)
  return [value.low, value.high].every(Number.isFinite) ? { figure, interval: `(${span(value)})` } : figure
}
// a share with its interval as the lab writes one everywhere: "85.1% (84.5–86.2%)", the share to
// a tenth as its interval is, so that it never falls outside it ("44% (44.1–45.1%)", a review);
// a whole percent where it has no interval
const share = value => withInterval(value,
  [value?.low, value?.high].every(Number.isFinite) ? formatPercentTenth : formatPercent, formatInterval)
// A table's cell as text ("548 (442–777)") and on the page, its interval in a span.
const hasInterval = cell => cell !== null && typeof cell === 'object' && 'interval' in cell
const cellText = cell => (hasInterval(cell) ? `${cell.figure} ${cell.interval}` : String(cell ?? ''))
const cellHtml = cell => (hasInterval(cell) ? figureWithInterval(cell.figure, cell.interval) : String(cell ?? ''))

function criterionText (comparison) {
  return 'A figure carries across machines when every two machines\' values lie within ' +
    `${comparison.criterion.percent}% of the larger, or when all their intervals share a ` +
    'point; the criterion was fixed before any machine\'s data was read. Only what carried by ' +
    'its values counts as carried. Several runs of one machine are pooled: their rounds ' +
    'together, one interval computed from them as for one run; where a run kept no rounds, ' +
    `the median of their estimates, without an interval. Intervals: ${intervalLevels(comparison)}, ` +
    'by the rounds each machine kept.'
}

// The levels of every interval the comparison shows: a verdict by intervals depends on them.
const intervalLevels = comparison => levelsText(comparison.rows.flatMap(row => [...row.share, ...row.over]))

function summaryText (comparison) {
  const { counts, baseline, unit } = comparison
  if (counts.total === 0) return 'No row was measured on two machines: nothing to test.'
  const untested = kind => counts.total - counts.missing.length - counts.tested[kind]
  const notGiven = kind => (untested(kind) ? ` (${untested(kind)} not tested: a run did not give it)` : '')
  const figure = (what, kind) => `${what} carried by value: ${counts.carried[kind]} of ${counts.total}` +
    `${notGiven(kind)}; by intervals only: ${counts.intervalsOnly[kind]}.`
  return `Of ${counts.total} rows on ${comparison.machines.length} machines, ` +
    `${figure(`the share of ${baseline}`, 'share')} ${figure(`The ${unit} over ${baseline}`, 'over')} ` +
    `By value, both carried in ${counts.both}, neither in ${counts.neither}.` +
    `${missingText(comparison)}${intervalsOnlyText(comparison)}`
}

// Rows some machine failed or lacks: in every count above, carried nowhere.
function missingText ({ counts }) {
  if (!counts.missing.length) return ''
  return ` ${counts.missing.length} missing: ${missingRows(counts.missing)}.`
}
// "c-uring @ 256 B and just-uring @ 256 B (not on amd-…)", grouped by the machines lacking them
function missingRows (rows) {
  const groups = new Map()
  for (const row of rows) {
    const on = listJoin(row.missingOn)
    groups.set(on, [...(groups.get(on) ?? []), `${row.item} @ ${placeOf(row)}`])
  }
  return [...groups].map(([on, names]) => `${listJoin(names)} (not on ${on})`).join('; ')
}

// What carried only because an interval was wide is not evidence that it carries.
function intervalsOnlyText ({ counts, criterion }) {
  const { share, over } = counts.intervalsOnly
  if (!share && !over) return ''
  return ` A figure carried by intervals only has values more than ${criterion.percent}% apart: ` +
    'intervals that wide cannot tell the machines apart, so it is not known to carry.'
}

function applyText (comparison) {
  return `To estimate a row on your own machine, measure ${comparison.baseline} there; ` +
    `where the share carried, divide ${comparison.baseline}'s ${comparison.unit} by it; ` +
    `where the ${comparison.unit} over ${comparison.baseline} carried, add them to it; ` +
    'where neither carried, measure the row itself.'
}

function runtimeLines (comparison) {
  return comparison.byRuntime.map(({ runtime, rows }) => {
    const groups = Object.keys(VERDICTS).map(verdict => {
      const where = rows.filter(row => row.verdict === verdict)
        .map(row => `${row.item} @ ${placeOf(row)}`)
      return where.length ? `${VERDICTS[verdict]}: ${listJoin(where)}` : null
    }).filter(Boolean)
    const missing = rows.filter(row => row.missingOn?.length)
    if (missing.length) groups.push(`missing: ${missingRows(missing)}`)
    return `${runtime}: ${groups.join('; ')}`
  })
}

function machineTable (comparison) {
  return {
    header: ['machine', 'key', 'runs', 'recorded as', `unlike ${comparison.machines[0]?.name ?? 'the first'} in`],
    align: ['l', 'l', 'l', 'l', 'l'],
    rows: comparison.machines.map((machine, i) => [
      machine.name,
      machine.key,
      machine.runs.join(', '),
      machine.olderLab
        ? `${machine.label}; an older lab's run, keyed from what its context has ` +
          `(no ${machine.missing.join(', ')})`
        : machine.label,
      i === 0 ? '' : listJoin(machine.differsBy ?? [])
    ])
  }
}

function baselineTable (comparison) {
  const rows = comparison.rows.filter(row => row.baseline)
  return {
    header: ['', ...comparison.machines.map(machine => machine.name)],
    align: ['l', ...comparison.machines.map(() => 'r')],
    rows: rows.map(row => [`${row.item} @ ${placeOf(row)}`, ...row.absolute.map(value => withInterval(value))])
  }
}

function figureTable (comparison) {
  const names = comparison.machines.map(machine => machine.name)
  const rows = comparison.rows.filter(row => !row.baseline)
  return {
    header: ['row', 'at', ...names.map(name => `${comparison.unit}: ${name}`),
      ...names.map(name => `over: ${name}`), ...names.map(name => `share: ${name}`),
      'carried', 'versions'],
    align: ['l', 'l', ...names.flatMap(() => ['r', 'r', 'r']), 'l', 'l'],
    // where the row was measured ("256 B"), kept on one line on the page
    whole: [1],
    rows: rows.map(row => [
      row.item,
      placeOf(row),
      ...row.absolute.map(value => withInterval(value)),
      ...row.over.map(value => withInterval(value, formatSigned)),
      ...row.share.map(share),
      carriedText(row),
      row.versions ? row.versions.map(version => version ?? '?').join(' / ') : ''
    ])
  }
}

const UNTESTED = { share: 'no share', over: 'no difference' }
function carriedText (row) {
  if (row.codeDiffers) return 'not tested: its code differs'
  if (row.notCompared) return `not compared: ${row.notCompared}`
  if (row.missingOn?.length) return `missing on ${listJoin(row.missingOn)}`
  if (!row.verdict) return 'one machine'
  const untested = row.untested.map(kind => UNTESTED[kind])
  const loose = ['share', 'over'].filter(kind => carriedByIntervalsOnly(row.carried[kind]))
    .map(kind => LOOSE[kind])
  return `${VERDICTS[row.verdict]}` +
    `${loose.length ? ` (${listJoin(loose)} by intervals only)` : ''}` +
    `${untested.length ? ` (${untested.join(', ')} on every machine to test)` : ''}`
}
const LOOSE = { share: 'the share', over: 'the difference' }

function differenceTable (comparison) {
  return {
    header: ['', ...comparison.machines.map(machine => machine.name)],
    align: ['l', ...comparison.machines.map(() => 'l')],
    rows: comparison.differences.map(row => [row.label, ...row.values])
  }
}

const TABLES = [
  ['Machines', machineTable],
  [comparison => `${comparison.baseline}, ${comparison.unit}`, baselineTable],
  [comparison => `Over ${comparison.baseline} and as a share of it`, figureTable],
  ['What differs between their records', differenceTable]
]
const titleOf = (title, comparison) => (typeof title === 'function' ? title(comparison) : title)

// What the signs after some rows' places mean ("§: a connect each, …"), or nothing.
const legendText = comparison => (comparison.legend?.length ? `${comparison.legend.join('; ')}. ` : '')
// Where a row was measured, with its sign after it where it has one ("keep-alive, 128 conn. §").
const placeOf = row => (row.sign ? `${row.atLabel} ${row.sign}` : row.atLabel)

function unknownText (comparison) {
  const notes = []
  if (comparison.unknown.length) {
    notes.push(`Facts a run did not record could not tell its machine from another: ${listJoin(comparison.unknown)}.`)
  }
  if (comparison.codeUnknown) {
    notes.push('The runs come from different commits of the lab, and an older one recorded no digest of ' +
      'its readers\' code: a row may compare two versions of a reader (see lab commit below).')
  }
  return notes.length ? notes.join(' ') : null
}

function machinesMarkdown (comparison) {
  const out = ['## Across machines', '',
    `${md(comparison.what)}, one column per machine. ${md(legendText(comparison))}${md(criterionText(comparison))}`, '',
    `**${md(summaryText(comparison))}** ${md(applyText(comparison))}`, '',
    ...runtimeLines(comparison).map(line => `- ${md(line)}`), '']
  const unknown = unknownText(comparison)
  if (unknown) out.push(md(unknown), '')
  for (const [title, build] of TABLES) {
    const table = build(comparison)
    if (table.rows.length === 0) continue
    out.push(`### ${md(titleOf(title, comparison))}`, '',
      markdownTable(table.header.map(md), table.rows.map(row => row.map(cell => md(cellText(cell)))),
        table.align), '')
  }
  return out
}

// The answer first: what carried, then the chart of each row's figure over the baseline on
// every machine, then how the criterion reads and the tables.
function machinesHtml (comparison) {
  const unknown = unknownText(comparison)
  return html`<section id="machines">
    <h2>Across machines</h2>
    <p class="lead"><strong>${summaryText(comparison)}</strong></p>
    <div class="chart" id="chart-machines"></div>
    <p>${applyText(comparison)}</p>
    <ul>${runtimeLines(comparison).map(line => html`<li>${line}</li>`)}</ul>
    <p class="note">${comparison.what}, one column per machine.
      ${legendText(comparison)}${criterionText(comparison)}</p>
    ${unknown ? html`<p class="note">${unknown}</p>` : ''}
    ${TABLES.map(([title, build]) => {
      const table = build(comparison)
      if (table.rows.length === 0) return ''
      return html`<div class="table-wrap"><table class="dense">
        <caption>${titleOf(title, comparison)}</caption>
        <thead><tr>${table.header.map((cell, i) =>
          html`<th scope="col"${table.align[i] === 'r' ? html` class="num"` : ''}>${cell}</th>`)}</tr></thead>
        <tbody>${table.rows.map(row => html`<tr>${row.map((cell, i) => (i === 0
          ? html`<th scope="row">${cell}</th>`
          : table.align[i] === 'r'
            ? html`<td class="num wraps">${cellHtml(cell)}</td>`
            : html`<td${table.whole?.includes(i) ? html` class="whole"` : ''}>${cellHtml(cell)}</td>`))}</tr>`)}</tbody>
      </table></div>`
    })}
  </section>`
}

// What the page's chart draws: a bar per row and machine, the row's share of the baseline
// in percent (a figure of one scale at every block size or load; whiskers its interval), in
// the row's runtime's hue.
function machinesChart (comparison) {
  const rows = comparison.rows.filter(row => !row.baseline && !row.notCompared)
  const percent = value => (Number.isFinite(value) ? value * 100 : null)
  const ends = value => (value && Number.isFinite(value.low) && Number.isFinite(value.high)
    ? [percent(value.low), percent(value.high)]
    : null)
  const baseline = comparison.rows.find(row => row.baseline)?.item ?? 'the baseline'
  return {
    title: `Share of ${baseline}, per machine`,
    levels: levelsText(rows.flatMap(row => row.share)),
    axis: `% of ${baseline}'s speed`,
    categories: rows.map(row => `${row.item} @ ${placeOf(row)}`),
    runtimes: rows.map(row => row.item),
    // a machine without the row's share (failed there, or not run), written under the row's
    // name, where its missing bar alone would say nothing
    unquoted: rows.map(row => comparison.machines
      .filter((machine, index) => !Number.isFinite(row.share[index]?.estimate))
      .map(machine => `${row.missingOn?.includes(machine.name) ? 'missing' : 'no share'} on ${machine.name}`)),
    series: comparison.machines.map((machine, index) => ({
      name: machine.name,
      data: rows.map(row => percent(row.share[index]?.estimate)),
      whiskers: rows.map(row => ends(row.share[index]))
    }))
  }
}

// What analyse.js prints: the answer, and per runtime which figure carried.
function machinesTerminal (comparison) {
  return [
    `machines: ${comparison.machines.map(machineWithRuns).join(' against ')}; ` +
      'a comparison of machines, not a repeatability check',
    summaryText(comparison),
    ...runtimeLines(comparison).map(line => `  ${line}`),
    ...(comparison.legend?.length ? [`  ${legendText(comparison).trim()}`] : [])
  ]
}

// machines.csv: a row per figure per machine, for a spreadsheet.
function machinesCsv (comparison) {
  // sign last (since 2026-12-07): the columns before it where they were
  const columns = ['row', 'runtime', 'at', 'figure', 'machine', 'key',
    'estimate', 'low', 'high', 'level', 'runs', 'pooled', 'carried', 'carriedBy', 'verdict', 'sign']
  const rows = []
  for (const row of comparison.rows) {
    for (const figure of ['absolute', 'over', 'share']) {
      comparison.machines.forEach((machine, index) => {
        const value = row[figure][index]
        if (!value) return
        const carried = row.carried[figure]
        rows.push([row.item, row.runtime, row.atLabel, figure, machine.name, machine.key,
          value.estimate, value.low, value.high, value.level, value.runs, value.pooled ?? '',
          carried ? carried.carries : '', carriedBy(carried), row.verdict ?? '', row.sign ?? ''])
      })
    }
  }
  return { columns, rows }
}

const carriedBy = carried => {
  if (!carried?.carries) return ''
  return carried.close ? 'values' : 'intervals'
}

const machineWithRuns = machine => `${machine.name} (${machine.runs.join(', ')})`

// Fleet targets that measured nothing (analyse.js reads their target-failed.json).
const failedTargetLines = targets => targets.map(target =>
  `${target.target}${target.experiment ? ` (${target.experiment})` : ''} failed: ${target.reason}`)

function failedTargetsMarkdown (targets) {
  if (!targets?.length) return []
  return ['## Fleet targets that failed', '', ...failedTargetLines(targets).map(line => `- ${md(line)}`), '']
}

function failedTargetsHtml (targets) {
  if (!targets?.length) return ''
  return html`<section id="failed-targets"><h2>Fleet targets that failed</h2>
    <ul>${failedTargetLines(targets).map(line => html`<li>${line}</li>`)}</ul></section>`
}

module.exports = {
  machinesChart,
  failedTargetLines,
  failedTargetsMarkdown,
  failedTargetsHtml,
  machinesMarkdown,
  machinesHtml,
  machinesTerminal,
  machinesCsv,
  summaryText,
  VERDICTS
}
