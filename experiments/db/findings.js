'use strict'
// The db experiment's findings, each from its cells and strace pass: what the server's
// side of a query costs against C with libpq, what the database's side costs, what
// prepared statements and pipelining change, and the syscalls per request against the
// floor the protocol allows.
const { formatNumber, formatPercent, listJoin } = require('../../lib/report/format')
const { levelsText } = require('../../lib/stats')

const intervalText = interval => interval ? `${formatPercent(interval.estimate)} (${formatPercent(interval.low)}–${formatPercent(interval.high)})` : 'no interval'
const us = value => `${formatNumber(value)} µs`

const DB_FINDINGS = [
  // the lead: each client's server CPU per request against C's, where the pace was set
  // by wrk and the database on the other CPU (client-bound) as much as by the server;
  // each with its first variant (prepared and pipelined where it can), the others'
  // differences are the next findings'
  function serverCost (db) {
    const lines = []
    for (const endpoint of db.endpoints) {
      const count = Math.max(...db.cells.filter(cell => cell.endpoint === endpoint).map(cell => cell.connections))
      const firsts = new Set(db.cells.filter(cell => cell.endpoint === endpoint && cell.connections === count && cell.cpuPerRequestUs && cell.client !== null).map(cell => db.cells.find(other => other.client === cell.client && other.endpoint === endpoint && other.connections === count && other.cpuPerRequestUs).server))
      const cells = db.cells.filter(cell => cell.endpoint === endpoint && cell.connections === count && cell.cpuPerRequestUs && (firsts.has(cell.server) || cell.client === null))
      const reference = cells.find(cell => cell.server === db.reference)
      if (!reference || cells.length < 2) continue
      const others = cells.filter(cell => cell !== reference).sort((a, b) => a.cpuPerRequestUs.server - b.cpuPerRequestUs.server)
      lines.push(`/${endpoint === 'queries' ? `queries (${reference.queries} queries a request)` : endpoint}, ${count} connections: ${db.reference}'s server takes ${us(reference.cpuPerRequestUs.server)} of CPU a request, its backends ${us(reference.cpuPerRequestUs.backends)}; the other clients' servers, each in its first variant, take ${listJoin(others.map(cell => `${cell.server} ${cell.serverVsReference ? intervalText(cell.serverVsReference) : formatPercent(cell.cpuPerRequestUs.server / reference.cpuPerRequestUs.server)}`))} of it (${levelsText(others.map(cell => cell.serverVsReference))} intervals of the ratio).`)
    }
    return lines.length ? lines.join(' ') : null
  },
  function preparedStatements (db) {
    const parts = db.variants.filter(entry => entry.question === 'prepared' && entry.endpoint === 'db').map(entry =>
      `${entry.client}${entry.with.endsWith('serial') ? ' (one query in flight)' : ''}: the unnamed statement costs its server ${intervalText(entry.server)} and its backends ${intervalText(entry.backends)} of what the prepared one does (${us(entry.serverUs[1])} against ${us(entry.serverUs[0])}; backends ${us(entry.backendsUs[1])} against ${us(entry.backendsUs[0])})`)
    return parts.length ? `Parsing every query, /db: ${listJoin(parts)}.` : null
  },
  function pipelining (db) {
    const parts = db.variants.filter(entry => entry.question === 'pipelined' && entry.endpoint === 'queries').map(entry =>
      `${entry.client}: one query in flight costs its server ${intervalText(entry.server)} and its backends ${intervalText(entry.backends)} of what pipelining does, at ${formatNumber(Math.round(entry.requestsPerSecond[1]))} against ${formatNumber(Math.round(entry.requestsPerSecond[0]))} req/s`)
    return parts.length ? `Pipelining, /queries: ${listJoin(parts)}.` : null
  },
  // what the protocol allows: an HTTP read and write, a database send and receive per
  // request; pipelined, k queries share a send and a receive
  function syscallFloor (db) {
    const entries = db.syscalls.filter(entry => entry.endpoint === 'db' && entry.self?.perRequest != null).sort((a, b) => a.self.work - b.self.work)
    if (!entries.length) return null
    return `Server syscalls of work per /db request (4 is one HTTP read and write and one database send and receive; pipelined, k queries sharing a flush make it 2 + 2/k): ${listJoin(entries.map(entry => `${entry.server} ${formatNumber(entry.self.work)}${entry.backends?.work != null ? ` (its backends ${formatNumber(entry.backends.work)})` : ''}`))}.`
  }
]

// sets: labelled results sets; each set's findings in order.
function findings (sets) {
  return sets.filter(set => set.results.db).flatMap(set => DB_FINDINGS.map(finding => finding(set.results.db)).filter(Boolean).map(text => ({ set: set.label, text })))
}

module.exports = { findings }
