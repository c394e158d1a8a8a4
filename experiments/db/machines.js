'use strict'
// The db experiment's figures for a comparison of machines (lib/report/machines.js):
// the server's own CPU per request, the reference server's in µs, every other server's
// over it (a difference of two medians, without an interval of its own) and as a share
// of it (the reciprocal of serverVsReference, with its interval), per endpoint, queries
// and connections.
const { difference, reciprocal } = require('../../lib/report/machines')
const { point } = require('../http/machines')

function machineFigures (set) {
  const db = set.results.db ?? { cells: [] }
  const where = cell => `/${cell.endpoint}${cell.queries > 1 ? ` ×${cell.queries}` : ''}, ${cell.connections} conn.`
  const same = (a, b) => a.endpoint === b.endpoint && a.queries === b.queries && a.connections === b.connections
  const baseOf = cell => db.cells.find(other => other.server === db.reference && same(other, cell))
  return {
    what: 'the server\'s own CPU per request',
    unit: 'µs',
    baseline: db.reference,
    rows: db.cells.map(cell => {
      const own = cell.server === db.reference
      return {
        item: cell.server,
        runtime: cell.runtime,
        at: where(cell),
        atLabel: where(cell),
        absolute: point(cell.cpuPerRequestUs?.server),
        over: own ? null : difference(cell.cpuPerRequestUs?.server, baseOf(cell)?.cpuPerRequestUs?.server),
        share: own ? null : reciprocal(cell.serverVsReference)
      }
    })
  }
}

module.exports = { machineFigures }
