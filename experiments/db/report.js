'use strict'
// The db experiment's report: per endpoint, a row per server with its requests/s, its CPU
// per request split between the server, its database backends and the rest, and the
// syscalls per request of the server and of its backends; the findings say it in words.
// Its interface: experiments/index.js.
const path = require('node:path')
const { findings } = require('./findings')
const {
  formatNumber, formatShare, escapeMarkdown: md, userShareText, withUserShare, userShareTitle
} = require('../../lib/report/format')
const {
  Markup, html, why, shareHtml, trustLine, firstSentence, leadFindings, repeatabilityNotes, contextSection, failedRuns
} = require('../../lib/report/markup')
const { markdownTable, textTable, round, findingLines, repeatabilityLines, failedRunsMarkdown, contextMarkdown } = require('../../lib/report/plain')
const { straceRow, failureList, syscallsMissingReason, measuredOn } = require('../../lib/report/context')
const { kernelTerminal, kernelMarkdown, kernelHtml, kernelOf, KERNEL_CSV_COLUMNS } = require('../http/report-kernel')
const { latencyTerminal, latencyMarkdown, latencyHtml } = require('../http/report-latency')
const { levelsText } = require('../../lib/stats')
const { unquotedReason } = require('../../lib/steady')
const { marksHtml, marksLetters, MARKS_LEGEND } = require('../http/cell-marks')
const { dbRepeatability, dbOwnText, dbTrust, dbCriterionText } = require('./repeatability')
const { repeatPairs, methodDifference } = require('../../lib/machine')
const { PARTS } = require('./summary')
const { referenceUnsteadyReason, unsteadyRatioReason, atMostConnections } = require('./quoting')
const { straceCounts } = require('./measure')
const { ENDPOINTS } = require('./check')
const { callSeries, formatCallsPerRequest, v8FlagsRow, requestsText } = require('../http/report')
const { answer, answerHtml, answerMarkdown, answerText, answerChart } = require('../../lib/report/answer')

// The page's answer: per set and endpoint, at the most connections, each server's CPU per
// request (the server's own, every thread) against C's, paired round by round; a cell
// whose process reached no steady state, or that failed, is not quoted.
const ANSWER = {
  id: 'answer',
  title: 'The answer: what a query costs the server against C',
  axis: reference => `server CPU per request, × ${reference}'s`,
  note: 'each server\'s own CPU per request against the C server\'s (libpq) at the most ' +
    'connections: the median of the ratios of its runs to C\'s taken in turns with them (placement ' +
    'interleaved), else of the same round, and its interval over the runs of this server ' +
    'process (another process may differ beyond it: what varies between processes shows only ' +
    'between runs)'
}

// The variants' questions per client (experiments/db/summary.js variantDifferences): an
// unnamed statement against a prepared one at /db, one query in flight against
// pipelining at /queries; each the server's and the backends' CPU ratio with its interval.
const VARIANT_QUESTIONS = [
  { question: 'prepared', endpoint: 'db', title: 'unnamed ÷ prepared, /db' },
  { question: 'pipelined', endpoint: 'queries', title: 'one in flight ÷ pipelined, /queries' }
]
const ratioText = interval => interval ? formatShare(interval) : ''

// What a placement other than the default changes, said in every label of the answer's chart
const PLACEMENT_LABELS = { interleaved: ', in turns with C', 'one-cpu': ', on one CPU with wrk and the database' }

// A cell's server against the reference's as a table shows it: its share, or why the answer
// does not quote it (a process of it, or of the reference, reached no steady state; its
// endpoint's cells), results.json keeping the figure.
function againstReference (cell, format, cells) {
  const reason = unsteadyRatioReason(cells, cell)
  return reason ? `not quoted: ${reason}` : format(cell.serverVsReference)
}
const cellsOf = endpoint => endpoint.rows.map(row => row.cell).filter(Boolean)

function variantTable (sets) {
  const header = ['set', 'client', ...VARIANT_QUESTIONS.flatMap(({ title }) => [`${title}: server`, 'backends'])]
  const rows = sets.filter(set => set.results.db).flatMap(set => {
    const variants = atMostConnections(set.results.db.variants, set.results.db.cells)
    // a client's pipelined pair where it has one, else its pair with one query in flight
    const entry = (client, { question, endpoint }) => {
      const pairs = variants.filter(item => item.client === client && item.question === question && item.endpoint === endpoint)
      return pairs.find(item => !item.with.endsWith('serial')) ?? pairs[0]
    }
    const clients = [...new Set(variants.map(item => item.client))]
    return clients.map(client => [set.label, client, ...VARIANT_QUESTIONS.flatMap(question => {
      const found = entry(client, question)
      const serial = found?.question === 'prepared' && found.with.endsWith('serial') ? ', one in flight' : ''
      if (found?.unsteady?.length) return [`not quoted: ${found.unsteady.join(' and ')} not steady`, '']
      return [found ? `${ratioText(found.server)}${serial}` : '', found ? ratioText(found.backends) : '']
    })]).filter(row => row.slice(2).some(Boolean))
  })
  const shown = sets.length > 1 ? header : header.slice(1)
  const intervals = sets.filter(set => set.results.db)
    .flatMap(set => atMostConnections(set.results.db.variants, set.results.db.cells))
    .flatMap(item => [item.server, item.backends])
  return { header: shown, rows: rows.map(row => (sets.length > 1 ? row : row.slice(1))), levels: levelsText(intervals) }
}

function variantsHtml ({ header, rows, levels }) {
  if (rows.length === 0) return ''
  const heading = (name, i) => html`<th scope="col"${i > 0 ? new Markup(' class="num"') : ''}>${name}</th>`
  return html`<div class="table-wrap"><table class="variants">
    <caption>What the variants change, per client: the CPU per request of the server and of its backends, the one variant's over the other's, at the most connections (median of the ratios of the same rounds, and its ${levels} interval)</caption>
    <thead><tr>${header.map(heading)}</tr></thead>
    <tbody>${rows.map(([first, ...rest]) => html`<tr><th scope="row">${first}</th>${rest.map(cell => html`<td class="num">${cell}</td>`)}</tr>`)}</tbody>
  </table></div>`
}

function dbAnswer (sets) {
  const groups = sets.filter(set => set.results.db).flatMap(set => {
    const results = set.results.db
    return results.endpoints.filter(endpoint => results.cells.some(cell => cell.endpoint === endpoint)).map(endpoint => {
      const cells = atMostConnections(results.cells).filter(cell => cell.endpoint === endpoint)
      const count = cells[0].connections
      const reference = cells.find(cell => cell.server === results.reference)
      return {
        label: `${sets.length > 1 ? `${set.label}: ` : ''}/${endpoint}, ${count} connections` +
          (PLACEMENT_LABELS[results.placement] ?? ''),
        reference: results.reference,
        figure: 'server CPU per request',
        entries: cells.filter(cell => cell !== reference).map(cell => ({
          name: cell.server,
          interval: cell.serverVsReference ?? null,
          unquoted: unquotedReason(cell) ?? referenceUnsteadyReason(cells, cell),
          native: cell.runtime === 'native'
        }))
      }
    })
  })
  return answer(groups)
}

const PART_NAMES = { server: 'server', backends: 'database backends', databaseUpkeep: 'database upkeep', wrk: 'wrk', rest: 'rest (kernel, bench)' }
const TOP_CALLS = 8

// A cell's CPU per request of one part (server, backends, ...) in µs, the server's with the
// share of it in user space: "29.4, 62% user".
// A part under a hundredth of a µs (the cluster's upkeep over a run: 0.00035 µs) is said to be
// so: beside the server's tens of µs its digits tell a reader nothing.
const partText = (cell, part) => {
  if (!cell?.cpuPerRequestUs) return ''
  const value = cell.cpuPerRequestUs[part]
  const us = value > 0 && value < 0.01 ? '<0.01' : formatNumber(value)
  return part === 'server' ? withUserShare(us, cell.serverUserShare) : us
}

// The same as a cell of the page: the server's share and its requests per wake-up on lines of
// their own, what the share rests on in its tooltip.
function partCell (cell, part) {
  if (part !== 'server' || !cell?.cpuPerRequestUs) return html`<td class="num">${partText(cell, part)}</td>`
  const userShare = cell.serverUserShare
  const title = userShare ? html` title="${userShareTitle(userShare)}"` : ''
  const share = userShare ? html`<br><span class="interval">${userShareText(userShare)}</span>` : ''
  const wakeUps = cell.requestsPerWakeUp != null
    ? html`<br><span class="interval">${formatNumber(cell.requestsPerWakeUp)} req/wake-up</span>`
    : ''
  return html`<td class="num"${title}>${formatNumber(cell.cpuPerRequestUs.server)}${share}${wakeUps}</td>`
}

// "4 + 0.3": calls of work, then upkeep (waits, failed tries, memory), which follows timing.
const callsText = entry => entry?.perRequest != null ? formatCallsPerRequest(entry) : entry?.noise ? 'noise' : 'not traced'

// Per set and endpoint: a row per server at the most connections (the busiest, whose CPU
// per request is least inflated by waiting), with every count's requests/s.
function dbData (sets) {
  return sets.filter(set => set.results.db).map(set => {
    const results = set.results.db
    const names = [...new Set([...results.cells.map(cell => cell.server), ...results.syscalls.map(entry => entry.server)])]
    const endpoints = results.endpoints.filter(endpoint => results.cells.some(cell => cell.endpoint === endpoint) || results.syscalls.some(entry => entry.endpoint === endpoint)).map(endpoint => {
      const connections = [...new Set(results.cells.filter(cell => cell.endpoint === endpoint).map(cell => cell.connections))].sort((a, b) => a - b)
      const busiest = connections[connections.length - 1]
      const rows = names.filter(server => results.cells.some(cell => cell.server === server && cell.endpoint === endpoint) || results.syscalls.some(entry => entry.server === server && entry.endpoint === endpoint)).map(server => ({
        server,
        cells: connections.map(count => results.cells.find(cell => cell.server === server && cell.endpoint === endpoint && cell.connections === count) ?? null),
        cell: results.cells.find(cell => cell.server === server && cell.endpoint === endpoint && cell.connections === busiest) ?? null,
        syscalls: results.syscalls.find(entry => entry.server === server && entry.endpoint === endpoint) ?? null
      }))
      const measured = rows.filter(row => row.cell?.cpuPerRequestUs)
      const missing = syscallsMissingReason(set)
      return {
        endpoint,
        connections,
        busiest,
        rows,
        chart: {
          cpu: { categories: measured.map(row => row.server), series: PARTS.map(([part]) => ({ name: PART_NAMES[part], part, data: measured.map(row => row.cell.cpuPerRequestUs[part]) })) },
          serverCalls: callSeries(rows, row => row.syscalls?.self, missing, TOP_CALLS, results.reference),
          backendCalls: callSeries(rows, row => row.syscalls?.backends, missing, TOP_CALLS, results.reference)
        }
      }
    })
    const { meaning, reference, preset, pin, placement, order, database, kernel, latency } = results
    // the kernel pass's entries, the server's and then its backends' (named so)
    const kernelEntries = kernel
      ? [...kernel.server, ...kernel.backends.map(entry => ({ ...entry, server: `${entry.server} backends` }))]
      : null
    return {
      set: set.label,
      meaning,
      reference,
      preset,
      pin,
      placement,
      order,
      database,
      endpoints,
      kernel,
      kernelEntries,
      latency: latency ?? null
    }
  })
}

const endpointTitle = endpoint => endpoint.endpoint === 'queries' ? '/queries?q=20 (20 queries a request)' : `/${endpoint.endpoint}`

function dbSection (data) {
  let index = 0
  const table = (entry, endpoint) => {
    const at = index++
    const endpointCells = cellsOf(endpoint)
    const wakeUps = wakeUpsCounted(endpoint) ? ' and its requests per wake-up' : ''
    const caption = `${endpointTitle(endpoint)}: per server, requests/s (median of ${entry.preset?.runs ?? '?'} ` +
      `wrk runs of ${entry.preset?.seconds ?? '?'} s) by connections; at ${endpoint.busiest} connections the ` +
      `CPU per request by process in µs (the server's with the share of it in user space${wakeUps}), ` +
      'and the server\'s ' +
      `against ${entry.reference}'s (${levelsText(endpoint.rows.map(row => row.cell?.serverVsReference))} ` +
      'interval); syscalls per request, work + upkeep'
    return html`<div class="grid two">
    <div class="chart small" id="chart-db-cpu-${at}"></div>
    ${endpoint.chart.serverCalls.missing ? why([{ set: 'No syscalls per request', reason: endpoint.chart.serverCalls.missing }]) : html`<div class="chart small" id="chart-db-calls-${at}"></div>`}
  </div>
  <div class="table-wrap"><table class="db dense">
    <caption>${data.compare ? html`${entry.set}: ` : ''}${caption}</caption>
    <thead><tr><th scope="col">server</th>${endpoint.connections.map(count => html`<th scope="col" class="num">${count} conn. req/s</th>`)}${PARTS.map(([part]) => html`<th scope="col" class="num">${PART_NAMES[part]} µs</th>`)}<th scope="col" class="num">server vs ${entry.reference}</th><th scope="col" class="num">server syscalls</th><th scope="col" class="num">backend syscalls</th></tr></thead>
    <tbody>${endpoint.rows.map(row => html`<tr>
      <th scope="row">${row.server}</th>
      ${row.cells.map(cell => html`<td class="num wraps">${!cell
        ? ''
        : !cell.requestsPerSecond ? 'failed' : requestsText(cell)}${cell ? marksHtml(cell) : ''}</td>`)}
      ${PARTS.map(([part]) => partCell(row.cell, part))}
      <td class="num wraps">${row.cell?.serverVsReference
        ? againstReference(row.cell, shareHtml, endpointCells)
        : row.server === entry.reference ? 'reference' : ''}</td>
      <td class="num">${callsText(row.syscalls?.self)}</td>
      <td class="num">${callsText(row.syscalls?.backends)}</td>
    </tr>`)}</tbody>
  </table></div>`
  }
  const first = data.db[0]
  const orderText = first.order === 'spread'
    ? 'Every round takes each endpoint in turn, every server process up from the first round to the last'
    : 'Each endpoint\'s rounds run together, its server processes stopped before the next endpoint\'s start'
  const serverPin = first.pin?.server ?? '?'
  const pinnedText = first.placement === 'interleaved'
    ? `each server is pinned to CPU ${serverPin}, where every timed run of it takes turns with a run of ` +
      `${first.reference} in slices of 50 ms (both wrks stopped and continued in turn, the servers never)`
    : first.placement === 'one-cpu'
      ? 'each server is pinned to the same CPU, one at a time, so that no wake-up crosses CPUs'
      : `the server is pinned alone to CPU ${serverPin}`
  const methodText = 'Every server\'s answers to /db, /queries and /fortunes were checked against the ' +
    'database\'s rows and TechEmpower\'s exact fortunes page before it was timed. ' +
    `${first.database?.version ?? 'PostgreSQL'} runs with wrk on CPU ${first.pin?.client ?? '?'}; ` +
    `${pinnedText}; each server opens ${first.database?.pool ?? '?'} database connections over a Unix ` +
    `socket. ${orderText}.`
  const userShareNote = first.meaning.serverUserShare
    ? `; the server's user share: ${first.meaning.serverUserShare}`
    : ''
  return html`<section id="db">
    <h2>What a database query costs: servers answering from PostgreSQL</h2>
    ${leadFindings(data.findings, data.compare)}
    <p class="note">${methodText}
      ${first.meaning.requestsPerSecond}. CPU per request: ${first.meaning.cpuPerRequestUs}${userShareNote}; marked
      client-bound where ${first.meaning.serverCpuShare}.
      Requests per wake-up: ${first.meaning.requestsPerWakeUp ?? 'not counted in this run'}.
      Syscalls per request: ${first.meaning.syscallsPerRequest}.</p>
    ${repeatabilityNotes(data.repeatability, data.compare)}
    ${variantsHtml(data.variants)}
    ${data.db.map(entry => [
      ...entry.endpoints.map(endpoint => table(entry, endpoint)),
      latencyHtml(entry.latency, entry.meaning.latency, entry.reference),
      kernelHtml(entry.kernelEntries)
    ])}
  </section>`
}

// Whether an endpoint's table has requests per wake-up to show (runs from before they were
// counted have none)
const wakeUpsCounted = endpoint => endpoint.rows.some(row => row.cell?.requestsPerWakeUp != null)
const wakeUpsText = cell => (cell?.requestsPerWakeUp != null ? formatNumber(cell.requestsPerWakeUp) : '')

function dbTables (entry) {
  return entry.endpoints.map(endpoint => {
    const endpointCells = cellsOf(endpoint)
    const wakeUps = wakeUpsCounted(endpoint)
    const header = ['server', ...endpoint.connections.map(count => `${count} conn. req/s`),
      ...PARTS.map(([part]) => `${PART_NAMES[part]} µs${part === 'server' ? ', user share' : ''}`),
      ...(wakeUps ? ['server req/wake-up'] : []), 'server vs ref.', 'server syscalls', 'backend syscalls']
    const rows = endpoint.rows.map(row => [
      row.server,
      ...row.cells.map(cell => !cell
        ? ''
        : !cell.requestsPerSecond ? 'FAILED' : `${requestsText(cell)}${marksLetters(cell)}`),
      ...PARTS.map(([part]) => partText(row.cell, part)),
      ...(wakeUps ? [wakeUpsText(row.cell)] : []),
      row.cell?.serverVsReference ? againstReference(row.cell, formatShare, endpointCells) : '',
      callsText(row.syscalls?.self),
      callsText(row.syscalls?.backends)
    ])
    const title = `${endpointTitle(endpoint)}: median requests/s (${MARKS_LEGEND}), CPU per request by ` +
      `process at ${endpoint.busiest} connections (the ` +
      `server's with the share of it in user space)${wakeUps ? ', its requests per wake-up' : ''}, ` +
      `the server's against ${entry.reference}'s ` +
      `(${levelsText(endpoint.rows.map(row => row.cell?.serverVsReference))} interval), syscalls per ` +
      'request (work + upkeep)'
    return { title, header, rows, align: header.map((_, i) => (i === 0 ? 'l' : 'r')) }
  })
}

function terminal (results) {
  if (!results.db) return []
  const sets = [{ label: results.runId, results }]
  const [entry] = dbData(sets)
  const own = dbOwnText(results.db.repeatability)
  const variants = variantTable(sets)
  const variantLines = variants.rows.length ? ['', `What the variants change, per client (CPU per request, the one variant's over the other's; ${variants.levels} intervals):`, ...textTable([variants.header, ...variants.rows], variants.header.map((_, i) => (i ? 'r' : 'l'))).map(line => line.trimEnd())] : []
  return [...answerText(dbAnswer(sets), ANSWER), ...variantLines, ...dbTables(entry).flatMap(({ title, header, rows, align }) => ['', `${title}:`, ...textTable([header, ...rows], align).map(line => line.trimEnd())]),
    ...latencyTerminal(entry.latency, entry.reference), ...kernelTerminal(entry.kernelEntries),
    ...(own ? ['', own] : [])]
}

const DB_CSV_COLUMNS = [
  ['runId', row => row.set],
  ['server', row => row.server],
  ['client', row => row.client],
  ['runtime', row => row.runtime],
  ['prepared', row => row.prepared],
  ['pipelined', row => row.pipelined],
  ['endpoint', row => row.endpoint],
  ['queriesPerRequest', row => row.queries],
  ['connections', row => row.connections],
  ['pool', row => row.pool],
  ['runs', row => row.runs],
  ['failedRuns', row => row.failedRuns],
  ['requestsPerSecondMedian', row => round(row.requestsPerSecond?.median, 1)],
  ['requestsPerSecondMin', row => round(row.requestsPerSecond?.min, 1)],
  ['requestsPerSecondMax', row => round(row.requestsPerSecond?.max, 1)],
  ['latencyP99Us', row => round(row.latencyUs?.p99, 1)],
  ...PARTS.map(([part]) => [`cpuPerRequestUs_${part}`, row => round(row.cpuPerRequestUs?.[part], 3)]),
  ['serverVsReference', row => round(row.serverVsReference?.estimate, 4)],
  ['serverVsReferenceLow', row => round(row.serverVsReference?.low, 4)],
  ['serverVsReferenceHigh', row => round(row.serverVsReference?.high, 4)],
  ['serverUserShare', row => round(row.serverUserShare?.share, 3)],
  ['serverUserShareCpuSeconds', row => row.serverUserShare?.cpuSeconds],
  ['serverMinorFaultsPerRequest', row => round(row.faultsPerRequest, 3)],
  ['serverRequestsPerWakeUp', row => round(row.requestsPerWakeUp, 2)],
  ['serverCpuShare', row => round(row.serverCpuShare, 3)],
  ['clientBound', row => row.clientBound],
  ['serverSyscallsWork', row => round(row.syscalls?.self?.work, 3)],
  ['serverSyscallsUpkeep', row => round(row.syscalls?.self?.upkeep, 3)],
  ['backendSyscallsWork', row => round(row.syscalls?.backends?.work, 3)],
  ['backendSyscallsUpkeep', row => round(row.syscalls?.backends?.upkeep, 3)],
  ...KERNEL_CSV_COLUMNS,
  ['kernelBackendWorkPerRequest', row => round(row.kernelBackends?.work, 3)],
  ['kernelBackendUpkeepPerRequest', row => round(row.kernelBackends?.upkeep, 3)]
]

function repeatabilityData (sets) {
  return {
    own: sets.map(set => ({ set: set.label, result: set.results.db?.repeatability ?? null, text: dbOwnText(set.results.db?.repeatability) })),
    twoRuns: repeatPairs(sets).map(([first, other]) => {
      const labels = [first.label, other.label]
      // a run from before the option ran alone (index.js): not a placement of its own (a review)
      const placementOf = set => set.results.db?.placement ?? 'alone'
      const differ = methodDifference([first, other], placementOf, 'placements')
      if (differ) return { sets: labels, result: null, text: differ }
      const result = first.results.db && other.results.db ? dbRepeatability(first.results.db, other.results.db) : null
      return { sets: labels, result, text: result && dbCriterionText(result, labels) }
    })
  }
}

function shape (sets) {
  const db = dbData(sets)
  return {
    subtitle: `${db[0]?.endpoints[0]?.rows.length ?? 0} servers answering from PostgreSQL under wrk, ${measuredOn(sets[0])}`,
    answer: dbAnswer(sets),
    variants: variantTable(sets),
    db,
    repeatability: repeatabilityData(sets),
    failures: failureList(sets, failure => require('./index').failureLabel(failure)),
    findings: findings(sets)
  }
}

function contextRows (set) {
  const context = set.context ?? {}
  const preset = context.options?.db ?? null
  const { wrk = null, dbPin: pin = null, database = null, dbClients = null } = context
  return [
    ['load', `${wrk ?? 'wrk (version not recorded)'}: one thread${pin ? ` on CPU ${pin.client}, the database on CPU ${pin.database}, the server pinned to CPU ${pin.server}` : ''}`],
    ['database', database ? `${database.version ?? 'PostgreSQL (version not recorded)'}, a cluster of the run's own over a ${database.transport}: ${Object.entries(database.settings ?? {}).map(([name, value]) => `${name}=${value}`).join(', ')}` : null],
    ['clients', dbClients
      ? Object.entries(dbClients).map(([name, version]) => `${name} ${version ?? '(not installed)'}`).join(', ') +
        ' from npm; Bun\'s Bun.SQL and the host\'s and C\'s libpq in their own versions'
      : null],
    ['runs per cell', preset ? `${preset.runs} wrk runs of ${preset.seconds} s against one server process with a pool of ${preset.pool}, after a check and a warm-up; connections ${preset.connections.join(', ')}` : null],
    ['strace pass', preset
      ? `${straceCountsText(preset)} requests per server, strace attached to the timed server ` +
        'process and its backends'
      : null],
    v8FlagsRow(context.dbServers),
    straceRow(context)
  ]
}

// "100 and 400 (/queries: 10 and 40)": the strace pass's counts at each endpoint it ran
function straceCountsText (preset) {
  const byEndpoint = preset.endpoints
    .map(endpoint => [endpoint, straceCounts(endpoint, preset.straceRequests).join(' and ')])
  const [, most] = byEndpoint.find(([endpoint]) => !ENDPOINTS[endpoint].rows) ?? byEndpoint[0]
  const others = byEndpoint.filter(([, counts]) => counts !== most)
    .map(([endpoint, counts]) => `/${endpoint}: ${counts}`)
  return `${most}${others.length ? ` (${others.join('; ')})` : ''}`
}

const pinText = pin => pin.wrk === pin.server
  ? `wrk, the database and the server on CPU ${pin.server}`
  : `wrk and the database on CPU ${pin.wrk}, the server on CPU ${pin.server}`

function runContextSection (data) {
  return contextSection(data, failedRuns(data.failures, data.compare))
}

const sections = [
  ['answer', 'The answer', data => answerHtml(data.answer, {
    ...ANSWER,
    trust: trustLine(data.repeatability.own, own => dbTrust(own.result), data.compare,
      data.repeatability.twoRuns.map(pair => firstSentence(pair.text)))
  }), data => answerChart(data.answer, ANSWER)],
  ['db', 'What a query costs', dbSection, data => data.db.map(entry => ({ set: entry.set, endpoints: entry.endpoints.map(endpoint => ({ endpoint: endpoint.endpoint, chart: endpoint.chart })) }))],
  ['context', 'Context', runContextSection]
]

function markdown (data) {
  const variants = data.variants.rows.length ? ['## What the variants change, per client', '', `The one variant's CPU per request over the other's, medians of the ratios of the same rounds with their ${data.variants.levels} intervals.`, '', markdownTable(data.variants.header, data.variants.rows.map(row => row.map(md)), data.variants.header.map((_, i) => (i ? 'r' : 'l'))), ''] : []
  const out = [...answerMarkdown(data.answer, ANSWER), ...variants, ...data.db.flatMap(entry => dbTables(entry).flatMap(({ title, header, rows, align }) => [`## ${data.compare ? `${md(entry.set)}: ` : ''}${md(title)}`, '', markdownTable(header, rows.map(row => row.map(md)), align), '']))]
  for (const entry of data.db) {
    const prefix = data.compare ? `${md(entry.set)}: ` : ''
    out.push(...latencyMarkdown(entry.latency, entry.meaning.latency, entry.reference, prefix))
    out.push(...kernelMarkdown(entry.kernelEntries, `${data.compare ? `${md(entry.set)}: ` : ''}Syscalls per request at full speed`))
  }
  if (data.db.length) {
    out.push(...findingLines(data.findings, data.compare), '')
    out.push(...repeatabilityLines(data.repeatability.own, data.compare))
    for (const pair of data.repeatability.twoRuns) if (pair.text) out.push(md(pair.text), '')
  }
  return [...out, ...failedRunsMarkdown(data.failures, data.compare), ...contextMarkdown(data)]
}

const csv = data => ({
  columns: DB_CSV_COLUMNS,
  rows: data.db.flatMap(entry => entry.endpoints.flatMap(endpoint => endpoint.rows.flatMap(row => row.cells.filter(Boolean).map(cell => ({
    ...cell,
    set: entry.set,
    syscalls: row.syscalls,
    kernel: kernelOf(entry.kernel?.server, cell),
    kernelBackends: kernelOf(entry.kernel?.backends, cell)
  })))))
})

const agreement = () => []

module.exports = {
  shape,
  contextRows,
  pinText,
  sections,
  browser: path.join(__dirname, 'report-browser.js'),
  markdown,
  csv,
  terminal,
  agreement,
  variantTable,
  machineFigures: require('./machines').machineFigures
}
