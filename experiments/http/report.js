'use strict'
// The http experiment's report: hello-world servers under wrk, by mode, a row per
// server with its requests/s by connections, its CPU and syscalls per request, and the
// findings that say it in words. Its interface: experiments/index.js.
const path = require('node:path')
const { findings, headlineConnections } = require('./findings')
const {
  formatNumber, formatPercent, formatShare, escapeMarkdown: md, withUserShare, userShareTitle
} = require('../../lib/report/format')
const {
  html, why, trustLine, firstSentence, leadFindings, repeatabilityNotes, contextSection, failedRuns
} = require('../../lib/report/markup')
const { markdownTable, textTable, round, findingLines, repeatabilityLines, failedRunsMarkdown, contextMarkdown } = require('../../lib/report/plain')
const {
  kernelTerminal, kernelMarkdown, kernelHtml, kernelOf, formatCallsPerRequest, KERNEL_CSV_COLUMNS
} = require('./report-kernel')
const { latencyTerminal, latencyMarkdown, latencyHtml } = require('./report-latency')
const { straceRow, failureList, syscallsMissingReason, measuredOn } = require('../../lib/report/context')
const { SERVER_V8_FLAGS, CONNECT_EACH } = require('./servers')
const { levelsText } = require('../../lib/stats')
const { kernelEntryOf } = require('./summary')
const { marksHtml, marksLetters, marksLegend, answerUnquotedReason, connectsEach } = require('./cell-marks')
const { httpRepeatability, httpOwnText, httpTrust, httpCriterionText, formatFaults } = require('./repeatability')
const { repeatPairs, methodDifference } = require('../../lib/machine')
const { answer, answerHtml, answerMarkdown, answerText, answerChart } = require('../../lib/report/answer')

// The page's answer: per set and mode, at the most connections (each wake-up of a server
// answers the most requests there), each server's CPU per request against the
// reference's, paired round by round; a cell whose process reached no steady state, or
// that failed, or whose processes fell into two GC states (cell-marks.js gcStatesReason), is
// not quoted.
const ANSWER = {
  id: 'answer',
  title: 'The answer: what a request costs the server against C',
  axis: reference => `CPU per request, × ${reference}'s`,
  // the interval's level holds for the runs of these server processes; a further process adds
  // what processes differ by, which the runs of so few processes cannot bound
  note: 'each server\'s CPU per request against c-epoll\'s at the most connections: the median of ' +
    'the ratios of its runs to c-epoll\'s taken in turns with them (placement interleaved), else ' +
    'of the same round, and its interval over the runs of these server processes, which another ' +
    'process may fall outside (by how much: the finding "Where CPU per request varies", given two ' +
    'processes or more)'
}

const PLACEMENT_WORDS = { interleaved: 'in turns with C', shared: 'wrk beside it', apart: 'wrk apart' }

function httpAnswer (sets) {
  const groups = sets.filter(set => set.results.http).flatMap(set => {
    const results = set.results.http
    return results.modes.map(mode => {
      const count = Math.max(...results.cells.filter(cell => cell.mode === mode).map(cell => cell.connections))
      const cells = results.cells.filter(cell => cell.mode === mode && cell.connections === count)
      const reference = cells.find(cell => cell.server === results.reference)
      const interval = cell => cell.cpuVsReference ?? (reference?.cpuPerRequestUs && cell.cpuPerRequestUs !== null ? { estimate: cell.cpuPerRequestUs / reference.cpuPerRequestUs, low: null, high: null } : null)
      return {
        label: `${sets.length > 1 ? `${set.label}: ` : ''}${mode === 'close' ? 'Connection: close' : 'keep-alive'}, ${count} connection${count === 1 ? '' : 's'}, ${PLACEMENT_WORDS[results.placement ?? 'apart']}`,
        reference: results.reference,
        figure: 'CPU per request',
        entries: cells.filter(cell => cell !== reference).map(cell => ({
          name: cell.server,
          interval: interval(cell),
          unquoted: answerUnquotedReason(cell),
          native: cell.runtime === 'native',
          // runs from before the cells knew it are told by the server's definition
          mark: connectsEach(cell) ? CONNECT_EACH : null
        }))
      }
    })
  })
  return answer(groups)
}

// A cell's figure as a table shows it: the median of its runs, or, where a server process
// reached no steady state (unsteady), the range of its runs, which no one number stands for
// (a run from before the range was kept: the median).
const figureText = (cell, median, range, format = formatNumber) => (cell.unsteady && range
  ? `${format(range.min)}–${format(range.max)}`
  : format(median))
// its requests/s, whole
const requestsText = cell =>
  figureText(cell, cell.requestsPerSecond.median, cell.requestsPerSecond, rate => formatNumber(Math.round(rate)))
// its CPU per request (until a review of 2026-12-07 the median always, one number for a cell
// unsteady in that very figure)
const cpuPerRequestText = cell => figureText(cell, cell.cpuPerRequestUs, cell.cpuPerRequestRangeUs)
// Whose requests/s a share is of: in turns, the reference's run beside each run, not the
// reference's own row, whose runs ran alone (a review: just-epoll's 97% under c-epoll's 75751
// req/s, of which its 69997 are 92%)
const shareOf = (entry, reference) => (entry.placement === 'interleaved'
  ? `the ${reference} beside it, run by run`
  : `${reference}'s`)
// " @16": the connections of the strace pass the rows' syscalls come from, where they say
const straceAt = rows => {
  const counts = [...new Set(rows.map(row => row.syscalls?.connections).filter(Boolean))]
  return counts.length === 1 ? ` @${counts[0]}` : ''
}

// The http experiment of each set that has one (bench.js --experiment http), by mode: a
// row per server with its cells by connection count and its syscalls per request, and the
// charts' series: requests/s (median, whiskers the runs' range) and CPU per request by
// connection count, and syscalls per request stacked by call.
const HTTP_TOP_CALLS = 10

// The rows whose strace entry (`pick(row)`) has counts, as bars: each call's work (its
// calls that succeeded) stacked, the top `top` by name, the rest as other, then the
// upkeep in one piece, which follows timing (a piece below zero is noise and shows as
// none); `missing` says why there are none.
// reference: the server whose stacked total the chart draws as a line to read every bar
// against (C's), when it was traced.
function callSeries (rows, pick, missing, top, reference) {
  const traced = rows.filter(row => pick(row)?.perRequest != null)
  const workOf = call => (call.upkeep ? 0 : Math.max(0, call.perRequest - call.failed))
  const totals = new Map()
  for (const row of traced) for (const call of pick(row).byCall) totals.set(call.name, (totals.get(call.name) ?? 0) + workOf(call))
  const names = [...totals].filter(([, work]) => work > 0).sort((a, b) => b[1] - a[1]).slice(0, top).map(([name]) => name)
  const callOf = (row, name) => { const call = pick(row).byCall.find(item => item.name === name); return call ? workOf(call) : 0 }
  const series = [
    ...names.map(name => ({ name, data: traced.map(row => callOf(row, name)) })),
    { name: 'other', kind: 'other', data: traced.map(row => pick(row).byCall.filter(call => !names.includes(call.name)).reduce((sum, call) => sum + workOf(call), 0)) },
    { name: 'upkeep: waits, failed tries, memory', kind: 'upkeep', data: traced.map(row => Math.max(0, pick(row).upkeep)) }
  ].filter(each => each.data.some(value => value > 0))
  const at = traced.findIndex(row => row.server === reference)
  return {
    categories: traced.map(row => row.server),
    series,
    reference: at === -1 ? null : { name: reference, total: series.reduce((sum, each) => sum + each.data[at], 0) },
    missing: traced.length ? null : missing
  }
}

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
          syscalls: callSeries(rows, row => row.syscalls, syscallsMissingReason(set), HTTP_TOP_CALLS, results.reference)
        }
      }
    })
    const { meaning, reference, preset, pin, placement, kernel, capacity, latency } = results
    return { set: set.label, meaning, reference, preset, pin, placement: placement ?? 'apart', modes, kernel: kernel ?? null, capacity: capacity ?? null, latency: latency ?? null }
  })
}

// The capacity runs as a table of the page, with what they mean.
function capacityHtml (entry) {
  if (!entry.capacity) return ''
  return capacityTables(entry).map(({ title, header, rows }) => html`<div class="table-wrap"><table class="http">
    <caption>${title}</caption>
    <thead><tr>${header.map((name, i) => html`<th scope="col"${i ? html` class="num"` : ''}>${name}</th>`)}</tr></thead>
    <tbody>${rows.map(([server, ...cells]) => html`<tr><th scope="row">${server}</th>${cells.map(cell => html`<td class="num">${cell}</td>`)}</tr>`)}</tbody>
  </table></div>`)
}

// Where wrk and the server ran, in words: what the figures measure depends on it.
function placementText ({ pin, placement }) {
  if (!pin) return 'Where wrk and the server ran was not recorded'
  if (placement === 'interleaved') {
    return `wrk runs one thread on CPU ${pin.client}, beside the server, pinned there too, and every server's runs take turns with c-epoll's and its wrk's on that CPU, in slices of 50 ms (placement interleaved): each ratio to c-epoll is taken in the same moment, each server alone with its wrk in its slices; no latency is quoted from such runs, which hold the stops`
  }
  if (placement === 'shared' || pin.client === pin.server) {
    return `wrk runs one thread on CPU ${pin.client}, beside the server, pinned there too (placement shared): each takes its turn on the CPU, so a request costs no wake-up across CPUs, and requests/s measure the two together`
  }
  return `wrk runs one thread on CPU ${pin.client}, the server is pinned alone to CPU ${pin.server} (placement apart): each request wakes a process on the other CPU, and requests/s measure the server's capacity`
}

// The http experiment (bench.js --experiment http): its findings, then per mode the
// charts (requests/s and CPU per request by connections; syscalls per request stacked by
// call) and a table of every cell.
function httpSection (data) {
  // a cell: median req/s, its share of the reference with the interval, CPU per request
  const rate = cell => {
    if (!cell) return ''
    if (!cell.requestsPerSecond) return 'failed'
    const share = cell.vsReference && !cell.unsteady
      ? html`<br><span class="interval">${formatShare(cell.vsReference)}</span>`
      : ''
    const title = cell.userShare ? html` title="${userShareTitle(cell.userShare)}"` : ''
    const cpuText = cell.cpuPerRequestUs !== null
      ? withUserShare(`${cpuPerRequestText(cell)} µs CPU`, cell.userShare)
      : null
    const cpu = cpuText ? html`<br><span class="interval"${title}>${cpuText}</span>` : ''
    const turns = cell.requestsPerWakeUp != null ? html`<br><span class="interval">${formatNumber(cell.requestsPerWakeUp)} req/wake-up</span>` : ''
    const faults = cell.faultsPerRequest != null
      ? html`<br><span class="interval">${formatFaults(cell.faultsPerRequest)} faults/req</span>`
      : ''
    return html`${requestsText(cell)}${share}${cpu}${turns}${faults}${marksHtml(cell)}`
  }
  const table = (entry, mode, index) => {
    const quoted = mode.connections.indexOf(headlineConnections(mode.connections))
    const processes = entry.preset?.processes ?? 1
    const latency = wrkLatencyShown(entry)
    const caption = `${mode.mode === 'close' ? 'Connection: close, a new connection per request' : 'keep-alive'}: ` +
      `per count of connections, requests/s (median of ${processes} process${processes === 1 ? '' : 'es'} × ` +
      `${entry.preset?.runs ?? '?'} wrk runs of ${entry.preset?.seconds ?? '?'} s), its share of ` +
      `${shareOf(entry, entry.reference)} ` +
      `(${levelsText(mode.rows.flatMap(row => row.cells.map(cell => cell?.vsReference)))} ` +
      'interval), the server\'s CPU per request and the share of it in user space; ' +
      (latency ? `latency p50 / p99 / max in µs at ${mode.connections[quoted]} connections` : noWrkLatency(entry))
    const connectionHeads = mode.connections.map(count =>
      html`<th scope="col" class="num">${count} connection${count === 1 ? '' : 's'}</th>`)
    const latencyHead = latency ? html`<th scope="col" class="num">latency @${mode.connections[quoted]}</th>` : ''
    const latencyCell = row => {
      if (!latency) return ''
      const us = row.cells[quoted]?.latencyUs
      const text = us ? `${formatNumber(us.p50)} / ${formatNumber(us.p99)} / ${formatNumber(us.max)}` : ''
      return html`<td class="num">${text}</td>`
    }
    return html`<div class="grid two">
    <div class="chart small" id="chart-http-rate-${index}"></div>
    ${mode.chart.syscalls.missing
      ? why([{ set: 'No syscalls per request', reason: mode.chart.syscalls.missing }])
      : html`<div class="chart small" id="chart-http-syscalls-${index}"></div>`}
  </div>
  <div class="table-wrap"><table class="http">
    <caption>${data.compare ? html`${entry.set}: ` : ''}${caption}</caption>
    <thead><tr><th scope="col">server</th>${connectionHeads}${latencyHead}
      <th scope="col" class="num">syscalls/req (strace${straceAt(mode.rows)}): work + upkeep</th>
      <th scope="col" class="num">threads, RSS (most)</th></tr></thead>
    <tbody>${mode.rows.map(row => html`<tr>
      <th scope="row">${row.server}</th>
      ${row.cells.map(cell => html`<td class="num">${rate(cell)}</td>`)}
      ${latencyCell(row)}
      <td class="num">${row.syscalls?.perRequest != null ? html`${formatCallsPerRequest(row.syscalls)}${mode.floor?.server === row.server ? ' (floor)' : ''}` : row.syscalls?.noise ?? 'not traced'}</td>
      <td class="num">${row.threads ? `${row.threads}, ${formatNumber(row.maxRssKiB / 1024)} MiB` : ''}</td>
    </tr>`)}</tbody>
  </table></div>`
  }
  let index = 0
  const { meaning } = data.http[0]
  const userShareNote = meaning.userShare ? `; the server's user share: ${meaning.userShare}` : ''
  return html`<section id="http">
    <h2>What a request costs: hello-world servers under wrk</h2>
    ${leadFindings(data.findings, data.compare)}
    <p class="note">Every server answers every request with the same 13 bytes; each was checked in both modes over a real socket before it was timed. ${placementText(data.http[0])}.
      ${meaning.requestsPerSecond}. CPU per request: ${meaning.cpuPerRequestUs}${userShareNote}; marked client-bound
      where ${meaning.serverCpuShare}. Requests per wake-up: ${meaning.requestsPerWakeUp ?? 'not counted in this run'}.
      Page faults: ${meaning.faultsPerRequest ?? 'not counted in this run'}.
      Syscalls per request: ${meaning.syscallsPerRequest}; the floor is the C server's fewest.</p>
    ${repeatabilityNotes(data.repeatability, data.compare)}
    ${data.http.map(entry => [...entry.modes.map(mode => table(entry, mode, index++)), capacityHtml(entry), latencyHtml(entry.latency, entry.meaning.latency, entry.reference), kernelHtml(entry.kernel)])}
  </section>`
}

// wrk's latency from runs that took turns holds their stops (summary.js wrkLatency): such cells
// quote none, so a run in turns (placement interleaved) has no latency column, and says why.
const wrkLatencyShown = entry => entry.placement !== 'interleaved'
const noWrkLatency = entry => 'no wrk latency: its runs took turns with the reference\'s, whose stops ' +
  `are in it${entry.latency ? ' (latency at fixed rates, below, is the one to read)' : ''}`

// The http experiment as tables (terminal and markdown), one per mode: a server per row,
// its median requests/s at each count of connections with the share of the reference
// server's, then its CPU per request at the most connections, its p99 latency at the count
// the findings quote (where wrk's latency is shown), its syscalls per request (strace's) and
// its threads.
function httpTables (entry) {
  const reference = entry.reference
  return entry.modes.map(mode => {
    // CPU per request where the servers are busiest (most connections: the fewest
    // wake-ups per request), latency at the count the findings quote
    const busiest = mode.connections.length - 1
    const quoted = mode.connections.indexOf(headlineConnections(mode.connections))
    const latency = wrkLatencyShown(entry)
    const header = ['server', ...mode.connections.map(count => `${count} conn. req/s`),
      `CPU µs/req @${mode.connections[busiest]} and user share`,
      ...(latency ? [`p99 µs @${mode.connections[quoted]}`] : []),
      // strace's, from its own pass at its own connections (a review: the column beside the
      // @128 ones did not say so)
      `syscalls/req (strace${straceAt(mode.rows)}), work + upkeep`, 'threads']
    const rows = mode.rows.map(row => [
      row.server,
      ...row.cells.map(cell => {
        if (!cell) return ''
        if (!cell.requestsPerSecond) return 'FAILED'
        const share = cell.vsReference && !cell.unsteady ? ` (${formatPercent(cell.vsReference.estimate)})` : ''
        return `${requestsText(cell)}${share}${marksLetters(cell)}`
      }),
      row.cells[busiest]?.cpuPerRequestUs != null
        ? withUserShare(cpuPerRequestText(row.cells[busiest]), row.cells[busiest].userShare)
        : '',
      ...(latency ? [row.cells[quoted]?.latencyUs ? formatNumber(row.cells[quoted].latencyUs.p99) : ''] : []),
      row.syscalls?.perRequest != null ? `${formatCallsPerRequest(row.syscalls)}${mode.floor?.server === row.server ? ' (floor)' : ''}` : row.syscalls?.traceFailed ? 'failed' : row.syscalls ? 'noise' : 'not traced',
      String(row.threads ?? '')
    ])
    const legend = marksLegend(mode.rows.flatMap(row => row.cells))
    const title = `${mode.mode === 'close' ? 'Connection: close (a new connection per request)' : 'Keep-alive'}: ` +
      `median requests/s (share of ${shareOf(entry, reference)}; ${legend}), ` +
      'CPU per request with the share of it ' +
      `in user space, and syscalls per request${latency ? '' : `; ${noWrkLatency(entry)}`}`
    return { title, header, rows, align: header.map((_, i) => (i === 0 ? 'l' : 'r')) }
  }).concat(entry.capacity ? capacityTables(entry) : [])
}

const CAPACITY_CALLS = '; syscalls per request there and in the timed placement, work + upkeep (the kernel ' +
  'pass: one run under its probes in each)'
// a run whose kernel pass ran in the timed placement only, as every run before 2026-12-02
const CAPACITY_NO_CALLS = '; syscalls per request there not counted (this run\'s kernel pass ran in the timed ' +
  'placement only, as before 2026-12-02)'

// The capacity runs beside the timed ones, a table per mode (the page is 1280 px wide, and
// both modes side by side overflowed it): per server, requests/s with wrk on another CPU,
// CPU per request against the reference's, requests per wake-up there and in the timed runs
// (at the same connections), and with the kernel pass, syscalls per request in both.
function capacityTables (entry) {
  const modes = entry.modes.map(mode => mode.mode).filter(mode => entry.capacity.some(run => run.mode === mode))
  const servers = [...new Set(entry.capacity.map(run => run.server))]
  const timed = (server, mode, connections) => entry.modes.find(each => each.mode === mode)?.rows
    .find(row => row.server === server)?.cells.find(cell => cell?.connections === connections) ?? null
  const callsText = calls =>
    (calls?.perRequest != null ? formatCallsPerRequest(calls) : calls?.failure ? 'failed' : '?')
  const pair = (apart, inTurns) => `${apart}, ${inTurns}`
  return modes.map(mode => {
    const runs = entry.capacity.filter(run => run.mode === mode)
    const syscalled = runs.some(run => run.syscalls)
    const header = ['server', 'req/s', `CPU × ${entry.reference}, user share`, 'req/wake-up: apart, timed',
      ...(syscalled ? ['syscalls/request: apart, timed'] : [])]
    const rows = servers.map(server => {
      const run = runs.find(each => each.server === server)
      const blank = Array(header.length - 2).fill('')
      if (!run) return [server, '', ...blank]
      if (!run.ok) return [server, 'FAILED', ...blank]
      const inTurns = timed(server, mode, run.connections)
      const perWakeUp = value => (value != null ? formatNumber(value) : '?')
      return [
        server,
        `${formatNumber(Math.round(run.requestsPerSecond))}${run.clientBound ? ' c' : ''}`,
        withUserShare(run.cpuVsReference != null ? `${formatNumber(run.cpuVsReference)}×` : '', run.userShare),
        pair(perWakeUp(run.requestsPerWakeUp), perWakeUp(inTurns?.requestsPerWakeUp)),
        // and the kernel pass's in the timed placement
        ...(syscalled ? [pair(callsText(run.syscalls), callsText(kernelEntryOf(entry.kernel, run, true)))] : [])
      ]
    })
    const title = `Capacity, ${mode === 'close' ? 'Connection: close' : 'keep-alive'}: one run per server at ` +
      `${runs[0].connections} connections with wrk on another CPU (c: client-bound, the server used under 90% of ` +
      `its CPU); CPU per request against ${entry.reference}'s run (one run each, no interval) and the share of ` +
      'the server\'s in user space; requests per wake-up there and in the timed runs' +
      (syscalled ? CAPACITY_CALLS : entry.kernel?.length ? CAPACITY_NO_CALLS : '')
    return { title, header, rows, align: header.map((_, i) => (i === 0 ? 'l' : 'r')) }
  })
}

// bench.js's summary when a run is done: a table per mode, then how well it repeats.
function terminal (results) {
  if (!results.http) return []
  const sets = [{ label: results.runId, results }]
  const [entry] = httpData(sets)
  const own = httpOwnText(results.http.repeatability)
  return [...answerText(httpAnswer(sets), ANSWER), ...httpTables(entry).flatMap(({ title, header, rows, align }) => ['', `${title}:`, ...textTable([header, ...rows], align).map(line => line.trimEnd())]),
    ...latencyTerminal(entry.latency, entry.reference), ...kernelTerminal(entry.kernel), ...(own ? ['', own] : [])]
}

function httpMarkdown (entry, compare = false) {
  return [...httpTables(entry).flatMap(({ title, header, rows, align }) => [`## ${compare ? `${md(entry.set)}: ` : ''}${md(title)}`, '', markdownTable(header, rows.map(row => row.map(md)), align), '']),
    ...latencyMarkdown(entry.latency, entry.meaning.latency, entry.reference, compare ? `${md(entry.set)}: ` : ''),
    ...kernelMarkdown(entry.kernel, `${compare ? `${md(entry.set)}: ` : ''}Syscalls per request at full speed`)]
}

// An http run's CSV: a cell (server, mode, connections) per row, and per set when runs
// are compared.
const HTTP_CSV_COLUMNS = [
  ['runId', row => row.set],
  ['server', row => row.server],
  ['runtime', row => row.runtime],
  ['mode', row => row.mode],
  ['connections', row => row.connections],
  ['runs', row => row.runs],
  ['failedRuns', row => row.failedRuns],
  ['requestsPerSecondMedian', row => round(row.requestsPerSecond?.median, 1)],
  ['requestsPerSecondBest', row => round(row.requestsPerSecond?.best, 1)],
  ['requestsPerSecondMin', row => round(row.requestsPerSecond?.min, 1)],
  ['shareOfReference', row => round(row.vsReference?.estimate, 4)],
  ['shareOfReferenceLow', row => round(row.vsReference?.low, 4)],
  ['shareOfReferenceHigh', row => round(row.vsReference?.high, 4)],
  ['latencyP50Us', row => round(row.latencyUs?.p50, 1)],
  ['latencyP99Us', row => round(row.latencyUs?.p99, 1)],
  ['latencyMaxUs', row => round(row.latencyUs?.max, 1)],
  ['cpuPerRequestUs', row => round(row.cpuPerRequestUs, 3)],
  // the page's answer: the server's CPU per request against the reference's, with its interval
  // at its level, and why the page does not quote it, where it does not
  ['cpuVsReference', row => round(row.cpuVsReference?.estimate, 4)],
  ['cpuVsReferenceLow', row => round(row.cpuVsReference?.low, 4)],
  ['cpuVsReferenceHigh', row => round(row.cpuVsReference?.high, 4)],
  ['cpuVsReferenceLevel', row => round(row.cpuVsReference?.level, 4)],
  ['unquoted', row => answerUnquotedReason(row) ?? ''],
  // § on the page: each keep-alive request of this server opened a connection
  ['connectEach', row => connectsEach(row)],
  ['userShare', row => round(row.userShare?.share, 3)],
  ['userShareCpuSeconds', row => row.userShare?.cpuSeconds],
  ['serverCpuShare', row => round(row.serverCpuShare, 3)],
  ['clientBound', row => row.clientBound],
  ['requestsPerWakeUp', row => round(row.requestsPerWakeUp, 2)],
  ['minorFaultsPerRequest', row => round(row.faultsPerRequest, 3)],
  ['threads', row => row.threads],
  ['maxRssKiB', row => row.maxRssKiB],
  ['syscallsPerRequest', row => round(row.syscalls?.perRequest, 3)],
  ['syscallsWorkPerRequest', row => round(row.syscalls?.work, 3)],
  ['syscallsUpkeepPerRequest', row => round(row.syscalls?.upkeep, 3)],
  ...KERNEL_CSV_COLUMNS
]

// Whether the figures repeat: each set's own (its cells' interleaved halves), and each
// later set against the first by the two-run criteria (experiments/http/repeatability.js), each with
// its sentence; a figure the sets hold nothing for is null.
function repeatabilityData (sets) {
  return {
    own: sets.map(set => ({ set: set.label, result: set.results.http?.repeatability ?? null, text: httpOwnText(set.results.http?.repeatability) })),
    twoRuns: repeatPairs(sets).map(([first, other]) => {
      const labels = [first.label, other.label]
      const differ = methodDifference([first, other], set => set.results.http?.placement ?? 'apart', 'placements')
      if (differ) return { sets: labels, result: null, text: differ }
      const measured = first.results.http && other.results.http
      const result = measured ? httpRepeatability(first.results.http, other.results.http) : null
      return { sets: labels, result, text: result && httpCriterionText(result, labels) }
    })
  }
}

// sets: labelled results sets.
function shape (sets) {
  const http = httpData(sets)
  return {
    subtitle: `${http[0].modes[0]?.rows.length ?? 0} hello-world servers under wrk, keep-alive and Connection: close, ${measuredOn(sets[0])}`,
    answer: httpAnswer(sets),
    http,
    repeatability: repeatabilityData(sets),
    failures: failureList(sets, failure => require('./index').failureLabel(failure)),
    findings: findings(sets)
  }
}

// What an http run's numbers depend on beyond the machine: the load and the loopback's limits.
function contextRows (set) {
  const context = set.context ?? {}
  const preset = context.options?.http ?? null
  const { wrk = null, httpPin: pin = null, loopback = null } = context
  return [
    ['load', `${wrk ?? 'wrk (version not recorded)'}: one thread${pin ? ` on CPU ${pin.client}, the server pinned to CPU ${pin.server} (placement ${context.httpPlacement ?? 'apart'})` : ''}`],
    ['runs per cell', preset ? `${(preset.processes ?? 1) === 1 ? 'one server process' : `${preset.processes} server processes`}, ${preset.runs} wrk runs of ${preset.seconds} s each, after a check and a warm-up; connections ${preset.connections.join(', ')}` : null],
    ['strace pass', preset ? `${preset.straceRequests.small} and ${preset.straceRequests.large} requests per server and mode, each in a new process` : null],
    ['loopback', loopback ? `listen backlog limit (somaxconn) ${loopback.somaxconn}, client ports ${loopback.ipLocalPortRange?.join('–') ?? '?'}, tcp_tw_reuse ${loopback.tcpTwReuse}` : null],
    v8FlagsRow(context.httpServers),
    straceRow(context)
  ]
}

// Which servers ran with a V8 default changed (SERVER_V8_FLAGS), read from the commands the
// run recorded, so that a reader of the page sees it beside the figures; runs from before
// the flags have none.
function v8FlagsRow (servers = []) {
  const flagged = servers.filter(server => SERVER_V8_FLAGS.some(flag => server.command?.includes(flag)))
  if (!flagged.length) return ['V8 servers\' flags', null]
  const flags = SERVER_V8_FLAGS.filter(flag => flagged.some(server => server.command.includes(flag)))
  return ['V8 servers\' flags', `${flags.join(' ')} (${flagged.map(server => server.name).join(', ')}): ` +
    'the lab\'s rounds leave each server idle between its runs, which a server under steady load ' +
    'never is (docs/db.md, "The memory reducer")']
}

// Where its pass ran (lib/placement.js): wrk's CPU and the server's.
const pinText = pin => pin.wrk === pin.server ? `wrk and the server on CPU ${pin.server}` : `wrk on CPU ${pin.wrk}, the server on CPU ${pin.server}`

// The context, then the runs that failed; the cells' marks (cell-marks.js) are in their
// tables.
function runContextSection (data) {
  return contextSection(data, failedRuns(data.failures, data.compare))
}

const sections = [
  ['answer', 'The answer', data => answerHtml(data.answer, {
    ...ANSWER,
    trust: trustLine(data.repeatability.own, own => httpTrust(own.result), data.compare,
      data.repeatability.twoRuns.map(pair => firstSentence(pair.text)))
  }), data => answerChart(data.answer, ANSWER)],
  ['http', 'What a request costs', httpSection, data => data.http.map(entry => ({ set: entry.set, reference: entry.reference, modes: entry.modes.map(mode => ({ mode: mode.mode, chart: mode.chart })) }))],
  ['context', 'Context', runContextSection]
]

function markdown (data) {
  const out = [...answerMarkdown(data.answer, ANSWER), ...data.http.flatMap(entry => httpMarkdown(entry, data.compare))]
  if (data.http.length) {
    out.push(...findingLines(data.findings, data.compare), '')
    out.push(...repeatabilityLines(data.repeatability.own, data.compare))
    for (const pair of data.repeatability.twoRuns) if (pair.text) out.push(md(pair.text), '')
  }
  return [...out, ...failedRunsMarkdown(data.failures, data.compare), ...contextMarkdown(data)]
}

// A cell (server, mode, connections) per row, with its server's syscalls per request in that mode.
const csv = data => ({
  columns: HTTP_CSV_COLUMNS,
  rows: data.http.flatMap(entry => entry.modes.flatMap(mode => mode.rows.flatMap(row => row.cells.filter(Boolean)
    .map(cell => ({ ...cell, set: entry.set, syscalls: row.syscalls, kernel: kernelOf(entry.kernel, cell) })))))
})

// Two runs' agreement is in the report's notes (repeatabilityData), not on the terminal.
const agreement = () => []

module.exports = {
  callSeries,
  requestsText,
  formatCallsPerRequest,
  shape,
  contextRows,
  v8FlagsRow,
  pinText,
  sections,
  browser: path.join(__dirname, 'report-browser.js'),
  markdown,
  csv,
  terminal,
  agreement,
  machineFigures: require('./machines').machineFigures
}
