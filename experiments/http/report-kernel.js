'use strict'
// The kernel pass's part of the http and db reports (experiments/http/summary.js
// kernelPerRequest): each server's syscalls per request at full speed, counted by eBPF
// probes under the cell's own load, beside the strace pass's, and what strace's slowness
// changed. A table in the terminal, results.md and the page; columns in results.csv.
const { formatNumber, formatSigned, formatBound, escapeMarkdown: md } = require('../../lib/report/format')
const { html } = require('../../lib/report/markup')
const { markdownTable, textTable, round } = require('../../lib/report/plain')
const { MIN_SHOWN } = require('./summary')

const NOTE = 'Syscalls per request at full speed: every call of the server\'s threads and ' +
  'children over one wrk run at the cell\'s connections, counted by eBPF probes ' +
  '(build/sysprof; docs/kernel.md), as work + upkeep; beside them strace\'s, from its ' +
  'own slower pass at its own connections (after @), and the difference, which holds both ' +
  'strace\'s slowness and, where the counts of connections differ, the load\'s: upkeep (waits ' +
  'and failed tries) follows how many requests a wake-up finds. Top calls: per request, with ' +
  'the median time one spent on the CPU in the kernel (ns, the probes\' floor included). The ' +
  'window holds each connection\'s open and close, and up to a request a connection in flight at ' +
  'wrk\'s stop, whose calls count and which wrk does not: where connections ÷ requests is 1% or ' +
  'more it is given after the counts ("conn./req."), a measure of how much of them is the run\'s ' +
  'start and end.'
const TOP_CALLS = 4
// connections ÷ requests (kernelPerRequest's connectionsPerRequest) past which a cell says it:
// a bias of its edges under 1% is left unsaid
const EDGES_SHOWN = 0.01
const edgesText = entry => (entry.connectionsPerRequest >= EDGES_SHOWN
  ? ` (conn./req. ${formatBound(entry.connectionsPerRequest * 100)}%)`
  : '')

// Calls per request as work + upkeep; upkeep is a difference of two counts (strace's two runs,
// or all calls less the work), so one below nought by what a page shows is the counts' noise,
// said as such.
function formatCallsPerRequest ({ work, upkeep }) {
  return `${formatNumber(work)} + ${upkeep <= -MIN_SHOWN ? 'noise' : formatNumber(Math.max(0, upkeep))}`
}

function rowOf (entry) {
  if (!entry.ok) return [entry.server, entry.where, String(entry.connections), 'FAILED', '', '', entry.failure]
  const strace = entry.strace
  const top = entry.byCall.filter(call => call.perRequest > 0).slice(0, TOP_CALLS)
    .map(call => `${call.name} ${formatNumber(call.perRequest)}${call.p50Ns ? ` (${formatNumber(call.p50Ns)} ns)` : ''}`)
  return [
    entry.server,
    entry.where,
    String(entry.connections),
    `${formatCallsPerRequest(entry)}${edgesText(entry)}`,
    strace ? `${formatCallsPerRequest(strace)} @${strace.connections}` : 'not traced',
    strace ? `${formatSigned(entry.work - strace.work)} / ${formatSigned(entry.upkeep - strace.upkeep)}` : '',
    top.join(', ')
  ]
}

const HEADER = ['server', 'cell', 'conn.', 'kernel: work + upkeep', 'strace: work + upkeep',
  'kernel − strace: work / upkeep', 'top calls /req (p50 in kernel)']
const ALIGN = ['l', 'l', 'r', 'r', 'r', 'r', 'l']

function kernelTerminal (entries) {
  if (!entries?.length) return []
  return ['', 'Syscalls per request at full speed, from the kernel (eBPF), against strace\'s:',
    ...textTable([HEADER, ...entries.map(rowOf)], ALIGN).map(line => line.trimEnd())]
}

function kernelMarkdown (entries, title = 'Syscalls per request at full speed') {
  if (!entries?.length) return []
  return [`## ${title}`, '', NOTE, '', markdownTable(HEADER, entries.map(entry => rowOf(entry).map(md)), ALIGN), '']
}

function kernelHtml (entries) {
  if (!entries?.length) return ''
  return html`<h3>Syscalls per request at full speed</h3>
    <p class="note">${NOTE}</p>
    <div class="table-wrap"><table>
      <thead><tr>${HEADER.map(name => html`<th scope="col">${name}</th>`)}</tr></thead>
      <tbody>${entries.map(entry => html`<tr>${rowOf(entry).map(text => html`<td>${text}</td>`)}</tr>`)}</tbody>
    </table></div>`
}

// results.csv's columns for a cell, from its kernel-pass entry (row.kernel)
const KERNEL_CSV_COLUMNS = [
  ['kernelSyscallsPerRequest', row => round(row.kernel?.perRequest, 3)],
  ['kernelWorkPerRequest', row => round(row.kernel?.work, 3)],
  ['kernelUpkeepPerRequest', row => round(row.kernel?.upkeep, 3)],
  ['kernelConnectionsPerRequest', row => round(row.kernel?.connectionsPerRequest, 4)]
]

const kernelOf = (entries, cell) => entries?.find(entry => entry.ok && entry.server === cell.server &&
  entry.where === (cell.mode ?? cell.endpoint) && entry.connections === cell.connections) ?? null

module.exports = { kernelTerminal, kernelMarkdown, kernelHtml, kernelOf, formatCallsPerRequest, KERNEL_CSV_COLUMNS }
