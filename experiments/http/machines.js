'use strict'
// The http experiment's figures for a comparison of machines (lib/report/machines.js):
// the server's CPU per request, the reference server's in µs, every other server's over
// it (a difference of two medians, without an interval of its own) and as a share of it
// (the reciprocal of cpuVsReference, with its interval; the ratio of the medians for a
// run without it), per mode and connections.
const { difference, reciprocal, shareOfPoints } = require('../../lib/report/machines')

function machineFigures (set) {
  const http = set.results.http ?? { cells: [] }
  const where = cell => `${cell.mode}, ${cell.connections} conn.`
  const baseOf = cell => http.cells.find(other =>
    other.server === http.reference && other.mode === cell.mode && other.connections === cell.connections)
  return {
    what: 'the server\'s CPU per request',
    unit: 'µs',
    baseline: http.reference,
    rows: http.cells.map(cell => {
      const own = cell.server === http.reference
      return {
        item: cell.server,
        runtime: cell.runtime,
        at: where(cell),
        atLabel: where(cell),
        absolute: point(cell.cpuPerRequestUs),
        over: own ? null : difference(cell.cpuPerRequestUs, baseOf(cell)?.cpuPerRequestUs),
        // a run from before rounds paired the runs: the ratio of the two medians
        share: own
          ? null
          : reciprocal(cell.cpuVsReference) ?? shareOfPoints(cell.cpuPerRequestUs, baseOf(cell)?.cpuPerRequestUs)
      }
    })
  }
}

// A median of runs quoted without an interval.
const point = value => (Number.isFinite(value) ? { estimate: value, low: null, high: null, level: null } : null)

module.exports = { machineFigures, point }
