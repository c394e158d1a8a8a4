'use strict'
// The db experiment's figures for a comparison of machines (lib/report/machines.js): as
// http's (experiments/http/machines.js), by the server's own CPU per request against
// serverVsReference, per endpoint, queries and connections.
const { serverFigures } = require('../http/machines')

function machineFigures (set) {
  const db = set.results.db ?? { cells: [] }
  return serverFigures({
    cells: db.cells,
    reference: db.reference,
    what: 'the server\'s own CPU per request',
    where: cell => `/${cell.endpoint}${cell.queries > 1 ? ` ×${cell.queries}` : ''}, ${cell.connections} conn.`,
    cpu: cell => cell.cpuPerRequestUs?.server,
    ratio: cell => cell.serverVsReference,
    // runs from before the option ran alone (experiments/db/index.js)
    method: `placement ${db.placement ?? 'alone'}`
  })
}

module.exports = { machineFigures }
