'use strict'
// The latency pass's part of the http report (experiments/http/summary.js latencyRuns):
// per mode, each server's latency at each fixed rate and count of connections, measured
// from intended send times, "cannot sustain" where it did not answer what the rate asked;
// then its collections at the heaviest cell. A table each in the terminal, results.md and
// the page.
const { formatNumber, formatPercent, escapeMarkdown: md } = require('../../lib/report/format')
const { html } = require('../../lib/report/markup')
const { markdownTable, textTable } = require('../../lib/report/plain')

const modeName = mode => (mode === 'close' ? 'Connection: close' : 'keep-alive')
const milliseconds = value => (value == null ? '?' : formatNumber(value))

// A run's cell: p50 / p99 / p99.9 / max in ms; "cannot sustain" with the share it answered;
// s where the hypervisor stole from the run.
function cellText (run) {
  if (!run) return ''
  if (!run.ok) return `FAILED: ${run.failure}`
  if (!run.holdsRate) return `cannot sustain (answered ${formatPercent(run.answered / run.asked)})${run.steal ? ' s' : ''}`
  const { p50, p99, p999, max } = run.latencyMs
  return `${[p50, p99, p999, max].map(milliseconds).join(' / ')}${run.steal ? ' s' : ''}`
}

// A run's collections: per 1,000 requests, the share of the run paused, the longest pause.
function gcText (run) {
  if (!run?.ok) return ''
  if (!run.gc?.how) return run.gc?.reason ?? ''
  const { perThousandRequests, pausedShare, longestPauseMs } = run.gc
  // a share of a percent or less is what a server's collections usually take
  return `${formatNumber(perThousandRequests)} / ${formatNumber(pausedShare * 100)}% / ${formatNumber(longestPauseMs)} ms`
}

// One table per mode: a server per row, a column per rate and count of connections, then
// the server's CPU per request and its collections at the heaviest cell (highest rate,
// most connections).
function latencyTables (latency) {
  if (!latency) return []
  return Object.entries(latency.rates).map(([mode, { capacity, rates }]) => {
    const runs = latency.runs.filter(run => run.mode === mode)
    const servers = [...new Set(runs.map(run => run.server))]
    const counts = [...new Set(runs.map(run => run.connections))].sort((a, b) => a - b)
    const columns = rates.flatMap(({ rateShare, rate }) => counts.map(connections => ({ rateShare, rate, connections })))
    const heaviest = columns.at(-1)
    const at = (server, column) => runs.find(run => run.server === server && run.rateShare === column.rateShare &&
      run.connections === column.connections)
    const header = ['server', ...columns.map(column => `${formatNumber(column.rate)} req/s, ${column.connections} conn.`),
      `CPU µs/req @${formatNumber(heaviest.rate)}, ${heaviest.connections}`, `GC /1k req, paused, longest @${formatNumber(heaviest.rate)}, ${heaviest.connections}`]
    const rows = servers.map(server => {
      const heavy = at(server, heaviest)
      return [server, ...columns.map(column => cellText(at(server, column))),
        heavy?.ok ? formatNumber(heavy.cpuPerRequestUs) : '', gcText(heavy)]
    })
    const title = `Latency at fixed rates, ${modeName(mode)}: p50 / p99 / p99.9 / max in ms from intended send times ` +
      `(oha, one run of ${latency.seconds} s per cell; rates ${rates.map(each => formatPercent(each.rateShare)).join(' and ')} ` +
      `of the ${formatNumber(Math.round(capacity.requestsPerSecond))} req/s ${capacity.program} answered at ${capacity.connections} connections; ` +
      's: the hypervisor took over 2% of the CPUs meanwhile)'
    return { title, header, rows, align: header.map((_, i) => (i === 0 ? 'l' : 'r')) }
  })
}

// What the load itself cost and how close it came to the rates: oha's CPU per request and
// the share of the asked requests c-epoll's runs answered.
function toolText (latency, reference) {
  const own = latency.runs.filter(run => run.ok && run.server === reference)
  if (!own.length) return ''
  const cost = own.map(run => run.ohaCpuPerRequestUs).sort((a, b) => a - b)
  const held = own.map(run => run.answered / run.asked).sort((a, b) => a - b)
  return `${latency.tool ?? 'oha'} on CPU ${latency.pin?.client ?? '?'}, the servers on CPU ${latency.pin?.server ?? '?'}: ` +
    `oha's own CPU per request ${formatNumber(cost[0])}–${formatNumber(cost.at(-1))} µs; ${reference} answered ` +
    `${formatPercent(held[0])}–${formatPercent(held.at(-1))} of the requests asked.`
}

function latencyTerminal (latency, reference) {
  return latencyTables(latency).flatMap(({ title, header, rows, align }) =>
    ['', `${title}:`, ...textTable([header, ...rows], align).map(line => line.trimEnd())])
    .concat(latency ? [toolText(latency, reference)] : [])
}

function latencyMarkdown (latency, meaning, reference, prefix = '') {
  if (!latency) return []
  return [...latencyTables(latency).flatMap(({ title, header, rows, align }) =>
    [`## ${prefix}${md(title)}`, '', markdownTable(header, rows.map(row => row.map(md)), align), '']),
  md(`${meaning} ${toolText(latency, reference)}`), '']
}

function latencyHtml (latency, meaning, reference) {
  if (!latency) return ''
  return html`<h3>Latency at fixed rates</h3>
    <p class="note">${meaning} ${toolText(latency, reference)}</p>
    ${latencyTables(latency).map(({ title, header, rows }) => html`<div class="table-wrap"><table class="http">
      <caption>${title}</caption>
      <thead><tr>${header.map((name, i) => html`<th scope="col"${i ? html` class="num"` : ''}>${name}</th>`)}</tr></thead>
      <tbody>${rows.map(([server, ...cells]) => html`<tr><th scope="row">${server}</th>${cells.map(cell => html`<td class="num">${cell}</td>`)}</tr>`)}</tbody>
    </table></div>`)}`
}

module.exports = { latencyTables, latencyTerminal, latencyMarkdown, latencyHtml }
