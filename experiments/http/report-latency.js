'use strict'
// The latency pass's part of the http report (experiments/http/summary.js latencyRuns):
// per mode, each server's latency at each fixed rate and count of connections, measured
// from oha's send stamps, on its schedule, "cannot sustain" where it did not answer what the rate asked;
// then its collections at the heaviest cell. A table each in the terminal, results.md and
// the page.
const { formatNumber, formatPercent, formatRange, escapeMarkdown: md } = require('../../lib/report/format')
const { html } = require('../../lib/report/markup')
const { markdownTable, textTable } = require('../../lib/report/plain')
const { latencyGroupOf } = require('./summary')
const { BEHIND_MS, TIMED_RATES } = require('./oha')
const { CONNECT_EACH } = require('./servers')

const modeName = mode => (mode === 'close' ? 'Connection: close' : 'keep-alive')
const milliseconds = value => (value == null ? '?' : formatNumber(value))

// A run's cell: p50 / p99 / p99.9 / max in ms; "cannot sustain" with the share it answered;
// a * where the hypervisor stole from the run, a ‡ where oha fell behind its schedule.
const STEAL_MARK = ' *'
const BEHIND_MARK = ' ‡'
const BEHIND_WORDS = `oha fell behind its schedule, its stamps over ${BEHIND_MS} ms late at the p99.9, ` +
  'a wait its percentiles leave out'
function cellText (run) {
  if (!run) return ''
  if (!run.ok) return `FAILED: ${run.failure}`
  const marks = (run.steal ? STEAL_MARK : '') + (run.ohaBehind ? BEHIND_MARK : '')
  if (!run.holdsRate) {
    // a server that answered all, late, is told by its rate over oha's whole run
    const pace = run.answeredPerSecond ? `, ${formatNumber(Math.round(run.answeredPerSecond))} req/s` : ''
    return `cannot sustain (answered ${formatPercent(run.answered / run.asked)}${pace})${marks}`
  }
  const { p50, p99, p999, max } = run.latencyMs
  return `${[p50, p99, p999, max].map(milliseconds).join(' / ')}${marks}`
}

// A server that closes every connection after one answer (saying Connection: close), in a
// keep-alive table: oha opens a connection for each of its requests, each connect in its
// latency, so its cells are not the others' steady keep-alive (a review, 2026-12-07).
const CONNECT_EACH_MARK = ` ${CONNECT_EACH.sign}`
const CONNECT_EACH_WORDS = `${CONNECT_EACH.sign}: ${CONNECT_EACH.means}`

// A run whose process paid for its collector's trace (Bun's log: runs before the record said
// so are known by it), marked where its server is named, and said under the tables.
const TRACE_MARK = ' †'
const tracePaid = run => Boolean(run?.gc?.costsCpu ?? run?.gc?.how === 'BUN_JSC_logGC=1')
const TRACE_NOTE = '†: its collector\'s log was on in these runs, as its GC figures need, and costs it CPU ' +
  '(Bun\'s BUN_JSC_logGC=1: 2-8% of its CPU per request with keep-alive at 128 connections, docs/http.md): ' +
  'its latency is a traced process\'s.'

// What the figures can hold, said under every latency table (a review, 2026-12-06): a cell
// holds its rate × seconds requests, and oha opens a connection with the first request sent
// on it, timing the connect in that request's latency (docs/http.md).
const HOW_FAR = 'A cell holds its rate × its seconds of requests: a p99.9 of fewer than 10,000 lies among ' +
  'its 10 longest.'
const LEFT_OUT = 'With keep-alive each connection\'s first request is left out of the percentiles: oha opens ' +
  'the connection with it, and its latency holds the connect (the cell\'s start, not its steady state).'
const LEFT_OUT_UNTIL_OPEN = 'With keep-alive the percentiles are of the requests due once every connection had ' +
  'opened and answered once: oha opens a connection with the first request it sends on it, its connect in that ' +
  'request\'s latency, and the requests due meanwhile wait behind the connects (the cell\'s start, not its ' +
  'steady state).'
const connectsNote = (connections, asked) => 'In these runs, oha opens each connection with the first ' +
  'request it sends on it, and that request\'s latency holds the connect: with keep-alive at ' +
  `${connections} connections, ` +
  `${connections} requests of a cell of ${asked} or more (${formatPercent(connections / asked)} or less), enough ` +
  'to reach into its p99 and beyond.'

// A run's collections: per 1,000 requests, the share of the run paused, the longest pause.
function gcText (run) {
  if (!run?.ok) return ''
  // the reason is long ("WebAssembly on wasmer: no garbage collector"); the records keep it
  if (!run.gc?.how) return /no garbage collector/.test(run.gc?.reason ?? '') ? 'no collector' : 'not traced'
  const { perThousandRequests, pausedShare, longestPauseMs } = run.gc
  // a share of a percent or less is what a server's collections usually take
  const paused = `${formatNumber(pausedShare * 100)}%`
  return `${formatNumber(perThousandRequests)} / ${paused} / ${formatNumber(longestPauseMs)} ms`
}

// Where the reference's requests/s that set a table's rates came from (capacityOf): runs
// before commit 0aceafe took them from its warm-up, http's then from its capacity run, db's
// since 5820d5a6 and http's since 2026-12-07 from its timed runs.
function capacitySource ({ from, runs }) {
  if (from === 'capacity') return 'in its capacity run'
  if (from === TIMED_RATES && runs === 1) return 'in its timed run'
  if (from === TIMED_RATES) return `at the median of its ${runs ? `${runs} ` : ''}timed runs`
  return 'at the end of its warm-up'
}

// One table per group (http's modes, db's endpoints: latencyGroupOf) and rate: a server per
// row, a column per count of connections, then the server's CPU per request and its
// collections at the most connections.
function latencyTables (latency) {
  if (!latency) return []
  const groups = Object.entries(latency.rates)
  // results.json from before the groups named their mode had it as their key
  return groups.flatMap(([group, entry]) => entry.rates.map(({ rateShare, rate, others = [] }) => {
    const { mode = group, capacity, endpoint } = entry
    const runs = latency.runs.filter(run => latencyGroupOf(run) === group && run.rateShare === rateShare)
    const servers = [...new Set(runs.map(run => run.server))]
    const counts = [...new Set(runs.map(run => run.connections))].sort((a, b) => a - b)
    const most = counts.at(-1)
    const at = (server, connections) => runs.find(run => run.server === server && run.connections === connections)
    const header = ['server', ...counts.map(count => `${count} conn.`), `CPU µs/req @${most}`,
      `GC @${most}: /1k req, paused, longest`]
    const paid = server => runs.some(run => run.server === server && tracePaid(run))
    const connectEach = server => runs.some(run => run.server === server && run.connectEach)
    const marks = server => (paid(server) ? TRACE_MARK : '') + (connectEach(server) ? CONNECT_EACH_MARK : '')
    const rows = servers.map(server => [`${server}${marks(server)}`,
      ...counts.map(count => cellText(at(server, count))),
      at(server, most)?.ok ? formatNumber(at(server, most).cpuPerRequestUs) : '', gcText(at(server, most))])
    const rated = `${[rate, ...others].map(formatNumber).join(' and ')} req/s`
    const source = capacitySource(capacity)
    const capacityText = `${formatNumber(Math.round(capacity.requestsPerSecond))} req/s ${capacity.program} answered ` +
      `${source} at ${capacity.connections} connections`
    const where = endpoint ? `/${endpoint}, ${modeName(mode)}` : modeName(mode)
    const behind = runs.some(run => run.ohaBehind) ? `; ‡: ${BEHIND_WORDS}` : ''
    const connects = runs.some(run => run.connectEach) ? `; ${CONNECT_EACH_WORDS}` : ''
    const title = `Latency at ${rated}, ${where} (${formatPercent(rateShare)} of the ${capacityText}): ` +
      'p50 / p99 / p99.9 / max in ms from oha\'s stamps of each request\'s send, on its schedule whatever the ' +
      `answers (oha, one run of ${latency.seconds} s a cell; ` +
      `*: the hypervisor took over 2% of the CPUs meanwhile${behind}${connects})`
    return { title, header, rows, align: header.map((_, i) => (i === 0 ? 'l' : 'r')) }
  }))
}

// What the load itself cost and how close it came to the rates: oha's CPU per request over
// every run (until a review of 2026-12-07 over c-epoll's alone, 18.9-94.8 µs where every
// server's gave 17.4-116.8) and the share of the asked requests c-epoll's runs answered, to a
// tenth and rounded down (99.89% is not 100%).
const answeredShare = share => `${(Math.floor(share * 1000 + 1e-9) / 10).toFixed(1)}%`
function toolText (latency, reference) {
  const own = latency.runs.filter(run => run.ok && run.server === reference)
  if (!own.length) return ''
  const cost = latency.runs.filter(run => run.ok && Number.isFinite(run.ohaCpuPerRequestUs))
    .map(run => run.ohaCpuPerRequestUs).sort((a, b) => a - b)
  const held = own.map(run => run.answered / run.asked).sort((a, b) => a - b)
  const where = `on CPU ${latency.pin?.client ?? '?'}, the servers on CPU ${latency.pin?.server ?? '?'}`
  const traced = latency.runs.some(tracePaid) ? ` ${TRACE_NOTE}` : ''
  // the keep-alive runs whose percentiles hold their connects (runs before they were left
  // out, or whose oha file could not be read), at their most connections; a run that could not
  // sustain its rate shows no percentiles to hold them (a review: mini_httpd's, so marked,
  // brought a note that contradicted the one before it)
  const kept = latency.runs.filter(run => run.ok && run.holdsRate !== false && run.mode !== 'close' &&
    run.connectsIncluded !== false)
  const most = Math.max(0, ...kept.map(run => run.connections))
  const asked = Math.min(...kept.filter(run => run.connections === most).map(run => run.asked))
  // keep-alive's: with Connection: close nothing is left out (each request's connect is its cost)
  const steady = latency.runs.filter(run => run.ok && run.mode !== 'close' && run.connectsIncluded === false)
  // runs of 2026-12-06 left out each connection's first request only, and have no steadyFromMs
  const leftOut = steady.length === 0
    ? ''
    : ` ${steady.every(run => run.steadyFromMs != null) ? LEFT_OUT_UNTIL_OPEN : LEFT_OUT}`
  // how late oha's timer woke for the requests kept (experiments/http/oha.js requestTimes)
  const late = latency.runs.filter(run => run.ok && run.sendLateMs).map(run => run.sendLateMs)
  const medians = late.map(each => each.p50).sort((a, b) => a - b)
  const [fastest, slowest] = [medians[0], medians.at(-1)]
  const medianText = fastest === slowest ? formatNumber(fastest) : formatRange(fastest, slowest)
  const lateText = late.length
    ? ` Its timer woke ${medianText} ms after a request was ` +
      `due at the median of a cell, at most ${formatNumber(Math.max(...late.map(each => each.max)))} ms; ` +
      'the percentiles count from its stamps, as its own do (results.json keeps them from the due times too).'
    : ''
  return `${latency.tool ?? 'oha'} ${where}: ` +
    `oha's own CPU per request ${formatNumber(cost[0])}–${formatNumber(cost.at(-1))} µs over every run` +
    `${lateText ? `.${lateText} ` : '; '}${reference} answered ` +
    `${answeredShare(held[0])}–${answeredShare(held.at(-1))} of the requests asked. ${HOW_FAR}` +
    `${leftOut}${most > 1 && Number.isFinite(asked) ? ` ${connectsNote(most, asked)}` : ''}${traced}`
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
  md(`${meaning}. ${toolText(latency, reference)}`), '']
}

// a cell of figures stays on one line; one of words ("cannot sustain ...") may take two
const cellHtml = cell => html`<td class="num${/^\d/.test(cell) ? '' : ' wraps'}">${cell}</td>`

function latencyHtml (latency, meaning, reference) {
  if (!latency) return ''
  return html`<h3>Latency at fixed rates</h3>
    <p class="note">${meaning}. ${toolText(latency, reference)}</p>
    ${latencyTables(latency).map(({ title, header, rows }) => html`<div class="table-wrap"><table class="http">
      <caption>${title}</caption>
      <thead><tr>${header.map((name, i) => html`<th scope="col"${i ? html` class="num wraps"` : ''}>${name}</th>`)}
      </tr></thead>
      <tbody>${rows.map(([server, ...cells]) => html`<tr><th scope="row">${server}</th>${cells.map(cellHtml)}</tr>`)}</tbody>
    </table></div>`)}`
}

module.exports = { latencyTables, latencyTerminal, latencyMarkdown, latencyHtml, capacitySource }
