'use strict'
// The kernel pass's part of the stdio report (experiments/stdio/kernel.js): each reader's
// CPU per read split into its time inside read(2) and the rest, beside the headline; the
// distribution of its reads' time in the kernel; and what the probes cost. In the
// terminal, results.md and the page; results.csv takes its columns from the cells.
const { sizeName, formatNumber, formatPercent, formatSigned, formatRange, counted } = require('../../lib/report/format')
const { html, figureWithInterval, sizeButtons, sizePanel } = require('../../lib/report/markup')
const { textTable, markdownTable } = require('../../lib/report/plain')
const { levelsText } = require('../../lib/stats')

const SPLIT_NOTE = 'Time inside the calls that read stdin (read(2); a ring reader\'s ' +
  'io_uring_enter(2)), on the CPU from sys_enter to sys_exit, without the spells the reader ' +
  'was switched out, and less the probes\' own floor (a null syscall\'s time under them), ' +
  'per read; the rest of the headline\'s CPU per read is the runtime\'s own code and the ' +
  'entry, exit and mitigations around the call. Median of the kernel pass\'s rounds ' +
  '(eBPF probes, build/sysprof; docs/kernel.md).'
// a split the traced run cannot support: its kernel time per read is above the untraced
// run's whole CPU per read, interval and all (a reader whose kernel work depends on
// timing: a ring); within the interval, the rest is too small to tell from nothing
const OVER_NOTE = 'more kernel time than the headline\'s whole CPU per read, beyond its ' +
  'interval: the probes changed how this reader\'s work falls, so its split is not quoted'
const NOTHING_NOTE = 'the rest is smaller than the kernel time\'s interval: not told apart from 0'

function intervalOf (figure) {
  const interval = figure?.interval
  return interval ? formatRange(interval.low, interval.high) : null
}

// One row a cell, quoted as the page, results.md and the terminal print it.
function splitRow (cell) {
  const low = cell.kernelNs.interval?.low ?? cell.kernelNs.estimate
  const high = cell.kernelNs.interval?.high ?? cell.kernelNs.estimate
  const over = cell.cpuPerReadNs !== null && low > cell.cpuPerReadNs
  // a CPU per read inside the kernel time's interval leaves a rest not told apart from 0, on
  // either side of it (a review: only a negative rest said so)
  const withinNoise = !over && cell.cpuPerReadNs !== null && cell.cpuPerReadNs <= high
  // the figure and its interval apart, for the page to set the interval whole on its line
  const vsCParts = cell.againstC
    ? [formatSigned(cell.againstC.estimate), `(${formatRange(cell.againstC.low, cell.againstC.high, formatSigned)})`]
    : null
  const vsC = vsCParts ? vsCParts.join(' ') : null
  // a cell that lost rounds says how many, beside its name (a review: it never did)
  const lost = cell.failedRounds ? ` (${cell.failedRounds} of ${cell.rounds + cell.failedRounds} rounds failed)` : ''
  return {
    program: cell.program,
    label: `${cell.program}${lost}`,
    blockSize: cell.blockSize,
    kernel: formatNumber(cell.kernelNs.estimate),
    interval: intervalOf(cell.kernelNs),
    cpu: cell.cpuPerReadNs === null ? null : formatNumber(cell.cpuPerReadNs),
    rest: over || cell.restNs === null ? null : withinNoise ? '≈0' : formatNumber(cell.restNs),
    share: over || cell.kernelShare === null ? null : formatPercent(Math.min(1, cell.kernelShare)),
    over,
    withinNoise,
    vsC,
    vsCParts,
    call: cell.readingCall,
    callsPerRead: formatNumber(cell.callsPerRead),
    p50: formatNumber(cell.percentiles.p50),
    p99: formatNumber(cell.percentiles.p99),
    switches: formatNumber(cell.switchesPerCall)
  }
}

// The page's and results.md's data: each set's split, and its charts' series.
function kernelData (sets) {
  return sets.filter(set => set.results.kernel?.cells.length).map(set => {
    const kernel = set.results.kernel
    const sizes = [...new Set(kernel.cells.map(cell => cell.blockSize))]
    const bySize = size => kernel.cells.filter(cell => cell.blockSize === size)
    return {
      set: set.label,
      rows: kernel.cells.map(splitRow),
      figures: kernel.cells.map(({ program, blockSize, kernelNs }) =>
        ({ program, blockSize, kernelNs: kernelNs.estimate })),
      tracerCost: kernel.tracerCost,
      charts: sizes.map(size => ({
        size,
        programs: bySize(size).map(cell => cell.program),
        // no bar for a split that is not quoted ("over"), none but the kernel's for "≈0"
        kernel: bySize(size).map(cell => (splitRow(cell).over ? null : cell.kernelNs.estimate)),
        // (the table's rule, splitRow's: a rest within the kernel time's interval is ≈0, no bar;
        // a review found the bars drawing what the table said was not told from 0)
        rest: bySize(size).map(cell => {
          const row = splitRow(cell)
          return row.over || row.withinNoise || cell.restNs === null || cell.restNs < 0 ? null : cell.restNs
        }),
        spread: bySize(size).map(cell => [cell.percentiles.p10, cell.percentiles.p90]),
        medians: bySize(size).map(cell => cell.percentiles.p50),
        p99: bySize(size).map(cell => cell.percentiles.p99)
      })),
      // every cell's, not the first's: rounds can differ from reader to reader
      levels: levelsText(kernel.cells.map(cell => cell.kernelNs.interval), null),
      againstLevels: levelsText(kernel.cells.map(cell => cell.againstC), null),
      rejected: kernel.rejected ?? [],
      lost: kernel.lost ?? []
    }
  })
}

// The cells left out because their reader failed the lab's checks, in a sentence, or ''.
const rejectedText = entry => (entry.rejected.length
  ? `Left out, as the headline fails them: ${entry.rejected.map(cell =>
    `${cell.program} at ${sizeName(cell.blockSize)} (${cell.reason})`).join('; ')}.`
  : '')

// The cells whose every round failed, in a sentence, or ''.
const lostText = entry => (entry.lost.length
  ? `No figure, every round failed: ${entry.lost.map(cell =>
    `${cell.program} at ${sizeName(cell.blockSize)} (${counted(cell.rounds, 'round')}` +
    `${cell.failure ? `; the first: ${cell.failure}` : ''})`).join('; ')}.`
  : '')

const levelOf = entry => entry.levels ?? 'no level (too few rounds)'
// the medians' intervals (a sign test's) and the differences from C's (Hodges-Lehmann's),
// each at the levels its cells' rounds give
const intervalNote = entry => `Intervals: the median's, at ${levelOf(entry)}` +
  (entry.againstLevels ? `; against C's kernel, the difference's (Hodges-Lehmann), at ${entry.againstLevels}` : '') +
  `; "over": ${OVER_NOTE}; "≈0": ${NOTHING_NOTE}`

function tracerCostText (costs) {
  if (!costs?.length) return 'The probes\' cost on C was not measured in this run.'
  const sizes = costs.map(cost => `${formatNumber(cost.addedNs.estimate)} ns per read at ` +
    `${sizeName(cost.blockSize)} (the medians: ${formatNumber(cost.untracedNs)} untraced, ` +
    `${formatNumber(cost.tracedNs)} traced)`)
  // the added ns are the median of each round's difference, which the difference of the two
  // medians beside them need not be (848 against 9278 - 8699 in results/reference: a review)
  return 'What the probes add to C\'s CPU per read (traced against untraced, the median of each ' +
    `round's difference, not the difference of the medians): ${sizes.join('; ')}.`
}

const HEADERS = ['program', 'size', 'kernel ns/read', 'interval', 'CPU ns/read', 'rest', 'kernel share',
  'vs C\'s kernel', 'call', 'calls/read', 'p50 ns/call, floor incl.', 'p99 ns/call, floor incl.',
  'switched out/call']
// "vs C's kernel" once the size column is left out (the page's tables are one size each)
const VS_C_COLUMN = HEADERS.indexOf('vs C\'s kernel') - 1
const cellsOf = row => [row.label ?? row.program, sizeName(row.blockSize), row.kernel, row.interval ?? '–',
  row.cpu ?? '–',
  row.over ? 'over' : row.rest ?? '–', row.share ?? '–', row.vsC ?? '–', row.call, row.callsPerRead,
  row.p50, row.p99, row.switches]

function kernelMarkdown (data) {
  if (!data.kernel?.length) return []
  const out = ['## Inside read(2): the kernel\'s time per read', '', SPLIT_NOTE, '']
  for (const entry of data.kernel) {
    if (data.kernel.length > 1) out.push(`### ${entry.set}`, '')
    out.push(markdownTable(HEADERS, entry.rows.map(cellsOf), ['l', ...HEADERS.slice(1).map(() => 'r')]))
    out.push('', `${intervalNote(entry)}.`, '', tracerCostText(entry.tracerCost), '')
    if (entry.rejected.length) out.push(rejectedText(entry), '')
    if (entry.lost.length) out.push(lostText(entry), '')
  }
  return out
}

// bench.js's lines when a run is done.
function kernelTerminal (kernel) {
  if (!kernel?.cells.length) return []
  const rows = kernel.cells.map(splitRow)
  const table = [['program', 'size', 'kernel ns/read', 'interval', 'CPU ns/read', 'rest', 'share',
    'vs C\'s kernel']]
  for (const row of rows) table.push(cellsOf(row).slice(0, 8))
  const title = 'Inside read(2), from the kernel (eBPF; time on the CPU per read, less the probes\' ' +
    'floor; median of rounds):'
  return ['', title,
    ...textTable(table, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r']), tracerCostText(kernel.tracerCost)]
}

// The kernel section's group of size buttons and panels: the page's drawing of it
// (report-browser.js) takes the name with the charts' data, and reflows a size's charts
// when it is shown
const KERNEL_SIZE_GROUP = 'kernel'

// Per size: the split as shares of each reader's CPU per read, one call's time in the
// kernel on a log axis, and the size's rows.
function kernelSection (data) {
  if (!data.kernel?.length) {
    return html`<section id="kernel"><h2>Inside read(2)</h2>
      <p class="why">No kernel pass in this run${data.kernelMissing ? `: ${data.kernelMissing}` : ''}.</p></section>`
  }
  // a table per size, which its caption names with its intervals' level (the note below the
  // last says it for all): no size column, and the reader's name whole on its line
  const withoutSize = cells => cells.filter((_, i) => i !== 1)
  const table = (rows, entry, size) => html`<div class="table-wrap"><table>
    <caption>Inside read(2) at ${sizeName(size)}: intervals the median's, at ${levelOf(entry)}${
      entry.againstLevels ? `; against C's, at ${entry.againstLevels}` : ''}</caption>
    <thead><tr>${withoutSize(HEADERS).map((header, i) =>
      html`<th scope="col"${i ? html` class="num"` : ''}>${header}</th>`)}</tr></thead>
    <tbody>${rows.map(row => html`<tr>${withoutSize(cellsOf(row)).map((text, i) => (i === 0
      ? html`<th scope="row">${text}</th>`
      // a figure on one line; "vs C's" its interval on a line of its own beneath it
      : i === VS_C_COLUMN && row.vsCParts
        ? html`<td class="num wraps">${figureWithInterval(...row.vsCParts)}</td>`
        : html`<td class="num">${text}</td>`))}</tr>`)}</tbody>
  </table></div>`
  // one size at a time, as the headline shows it: the buttons switch every set's charts and table
  const sizes = [...new Set(data.kernel.flatMap(entry => entry.charts.map(chart => chart.size)))]
    .sort((a, b) => a - b)
  return html`<section id="kernel">
    <h2>Inside read(2): the kernel's time per read</h2>
    <p class="note">${SPLIT_NOTE}</p>
    ${sizes.length > 1 ? sizeButtons(KERNEL_SIZE_GROUP, sizes, sizes[0]) : ''}
    ${data.kernel.map((entry, index) => html`
      ${data.kernel.length > 1 ? html`<h3>${entry.set}</h3>` : ''}
      ${sizes.map(size => sizePanel(KERNEL_SIZE_GROUP, size, sizes[0], entry.charts.some(chart => chart.size === size)
        ? html`
        <div class="grid two">
          <div class="chart" id="chart-kernel-split-${index}-${size}"></div>
          <div class="chart" id="chart-kernel-calls-${index}-${size}"></div>
        </div>
        ${table(entry.rows.filter(row => row.blockSize === size), entry, size)}`
        // a set compared with another that measured a size it did not
        : html`<p class="why">No kernel pass at ${sizeName(size)} in this run.</p>`))}
      <p class="note">${intervalNote(entry)}. ${tracerCostText(entry.tracerCost)}</p>
      ${entry.rejected.length ? html`<p class="why">${rejectedText(entry)}</p>` : ''}
      ${entry.lost.length ? html`<p class="why">${lostText(entry)}</p>` : ''}`)}
  </section>`
}

// Two runs compared (analyse.js A B): how far each cell's kernel time per read moved, from
// the first set to the second. No goal is set for it; the moves are what they are.
const KERNEL_MOVES = [0.05, 0.1]
function kernelAgreement (data, labels) {
  // only two runs of one machine, as the headline's two-run criterion pairs them
  const [first, second] = labels.map(label => (data.kernel ?? []).find(entry => entry.set === label))
  if (!first || !second) return []
  const moves = first.figures.flatMap(a => {
    const b = second.figures.find(cell => cell.program === a.program && cell.blockSize === a.blockSize)
    return b ? [{ ...a, move: Math.abs(b.kernelNs - a.kernelNs) / a.kernelNs }] : []
  })
  if (moves.length === 0) return []
  const largest = moves.reduce((top, cell) => (cell.move > top.move ? cell : top))
  const within = KERNEL_MOVES.map(share =>
    `${moves.filter(cell => cell.move <= share).length} within ${share * 100}%`)
  return [`kernel time per read: of ${moves.length} cells, ${within.join(', ')} ` +
    `between ${first.set} and ${second.set}; ` +
    `largest ${formatPercent(largest.move)} (${largest.program} @ ${largest.blockSize})`]
}

module.exports = {
  kernelData,
  kernelMarkdown,
  kernelTerminal,
  kernelSection,
  kernelAgreement,
  splitRow,
  SPLIT_NOTE,
  KERNEL_SIZE_GROUP
}
