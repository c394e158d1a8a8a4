'use strict'
// The http experiment's figures for a comparison of machines (lib/report/machines.js):
// the server's CPU per request, the reference server's in µs, every other server's over
// it (a difference of two medians, without an interval of its own) and as a share of it
// (the reciprocal of cpuVsReference, with its interval; the ratio of the medians for a
// run without it), per mode and connections.
const { difference, reciprocal, shareOfPoints } = require('../../lib/report/machines')
const { CONNECT_EACH } = require('./servers')
const { connectsEach, CONNECT_EACH_LEGEND } = require('./cell-marks')

// A median of runs quoted without an interval.
const point = value => (Number.isFinite(value) ? { estimate: value, low: null, high: null, level: null } : null)

// Servers' cells against their reference server's in the same place, as http's and db's
// results hold them: where(cell) names the place, cpu(cell) its CPU per request and
// ratio(cell) its ratio over the reference's. A cell whose every request opened a connection
// though its mode keeps them carries § (`sign`, shown after its place), as in the run's own
// tables, and the figures say once what § means (`legend`) where a row carries it.
function serverFigures ({ cells, reference, what, where, cpu, ratio, method }) {
  const baseOf = cell => cells.find(other => other.server === reference && where(other) === where(cell))
  const legend = cells.some(connectsEach) ? [CONNECT_EACH_LEGEND] : []
  return {
    what,
    unit: 'µs',
    legend,
    baseline: reference,
    // runs of two placements hold two figures, across machines as within one (a review: the
    // same runs were refused a two-run check and then pooled across machines)
    method,
    rows: cells.map(cell => {
      const own = cell.server === reference
      return {
        item: cell.server,
        runtime: cell.runtime,
        at: where(cell),
        atLabel: where(cell),
        sign: connectsEach(cell) ? CONNECT_EACH.sign : null,
        absolute: point(cpu(cell)),
        over: own ? null : difference(cpu(cell), cpu(baseOf(cell) ?? {})),
        // a run from before rounds paired the runs: the ratio of the two medians
        share: own ? null : reciprocal(ratio(cell)) ?? shareOfPoints(cpu(cell), cpu(baseOf(cell) ?? {}))
      }
    })
  }
}

function machineFigures (set) {
  const http = set.results.http ?? { cells: [] }
  return serverFigures({
    cells: http.cells,
    reference: http.reference,
    what: 'the server\'s CPU per request',
    where: cell => `${cell.mode}, ${cell.connections} conn.`,
    cpu: cell => cell.cpuPerRequestUs,
    ratio: cell => cell.cpuVsReference,
    method: `placement ${http.placement ?? 'apart'}`
  })
}

module.exports = { machineFigures, serverFigures }
