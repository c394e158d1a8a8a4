'use strict'
// Whether a db cell's ratio to the reference can be quoted, beside its own steadiness
// (lib/steady.js): the page's tables and answer, and the two-run criterion, ask alike.
const { unsteadyCellReason, WARMUP_UNSETTLED } = require('../../lib/steady')
const { REFERENCE } = require('./servers')

// Why a cell's ratio to the reference is not quoted though its own process steadied: the
// reference's own process at that endpoint and connections reached no steady state, and every
// ratio to a figure still moving moves with it (2026-12-02: C's /queries fell from 68.6 to 60.7 µs
// through one run and shifted that endpoint's ratios by 4.7%, docs/db.md). A cell in turns with
// the reference is set against its run of the same moment, and a reference has no ratio: null.
function referenceUnsteadyReason (cells, cell) {
  if (cell.inTurns || !cell.serverVsReference) return null
  const reference = cells.find(other => other.server === REFERENCE && other.endpoint === cell.endpoint &&
    other.connections === cell.connections)
  const why = reference ? unsteadyCellReason(reference) : null
  if (why === null) return null
  if (why === WARMUP_UNSETTLED) return 'the reference\'s warm-up never settled'
  return why === 'no steady state'
    ? 'the reference reached no steady state'
    : 'the reference\'s runs were too few to classify'
}

// Why a cell's ratio is not quoted for steadiness, its own process's or the reference's; null
// where neither keeps it out (a failed cell is another matter: lib/steady.js unquotedReason).
function unsteadyRatioReason (cells, cell) {
  return unsteadyCellReason(cell) ?? referenceUnsteadyReason(cells, cell)
}

// The items (cells, the variants' pairs) at their endpoint's most connections in `cells`, the
// count the page's answer, its tables and its findings quote: the others' ratios are another
// load's, and a count where a pair is missing is not the most for it.
function atMostConnections (items, cells = items) {
  const most = new Map()
  for (const { endpoint, connections } of cells) {
    most.set(endpoint, Math.max(most.get(endpoint) ?? 0, connections))
  }
  return items.filter(item => item.connections === most.get(item.endpoint))
}

module.exports = { referenceUnsteadyReason, unsteadyRatioReason, atMostConnections }
