'use strict'
// Whether the db experiment's figures repeat: the server's CPU per request against the
// reference's (the lead figure), the server's CPU per request and all CPU per request
// (server, backends, database upkeep, wrk, rest), between two runs and between the halves
// of one (lib/repeatability.js), and the server's calls of work per request between two
// runs. The machine's drift moves the CPU per request of every server of a round alike,
// and their ratios not at all.
const {
  GOAL, EPSILON, withinGoal, usable, nearestRank, criterion, pairByKey, lostCells, lostText, ownText, ownTrust,
  criterionText, workText
} = require('../../lib/repeatability')
const { unsteadyRatioReason } = require('./quoting')

// Calls of work are whole calls per query, or a share of one where queries share a
// flush: a move of more than this per query is more than timing. Per query, so that a
// request of 20 queries is held to what 20 requests of one are.
const WORK_GOAL_CALLS = 0.1

const cellKey = cell => `${cell.server}\t${cell.endpoint}\t${cell.connections}`
const where = ({ server, endpoint, connections }) =>
  ({ server, endpoint, connections, name: `${server} /${endpoint} ${connections} conn.` })

// A cell or a traced server either run failed or lacks is a missing cell
// (lib/repeatability.js); serverVsReference only where a run gave the cell one (the
// reference server has none against itself).
function dbRepeatability (dbA, dbB) {
  const pairs = pairByKey(dbA?.cells, dbB?.cells, cellKey)
  const part = (pick, among = pairs) =>
    criterion(among.map(([x, y]) => ({ ...where(x ?? y), a: x ? pick(x) : null, b: y ? pick(y) : null })))
  const referenced = pairs.filter(pair => pair.some(cell => cell?.serverVsReference))
  const vsReference = part(cell => cell.serverVsReference?.estimate, referenced)
  // issue 46's goal for db counts steady cells: those neither run leaves unquoted because a
  // process of the cell, or the reference's at its endpoint, reached no steady state. A cell
  // failed or missing stays in, against the goal.
  const unsteady = (cell, cells) => Boolean(cell) && unsteadyRatioReason(cells, cell) !== null
  const steadyPairs = referenced.filter(([x, y]) => !unsteady(x, dbA.cells) && !unsteady(y, dbB.cells))
  const vsReferenceSteady = {
    ...part(cell => cell.serverVsReference?.estimate, steadyPairs),
    unsteady: referenced.length - steadyPairs.length
  }
  const cpu = part(cell => cell.cpuPerRequestUs?.server)
  const total = part(cell => cell.cpuPerRequestUs ? Object.values(cell.cpuPerRequestUs).reduce((sum, value) => sum + value, 0) : null)
  const traced = pairByKey(dbA?.syscalls, dbB?.syscalls, entry => `${entry.server}\t${entry.endpoint}`)
  const workCells = traced.map(([x, y]) => {
    const { server, endpoint } = x ?? y
    const [a, b] = [x?.self?.work, y?.self?.work]
    const move = usable(a) && usable(b) ? Math.abs(b - a) : null
    const queries = (x ?? y).queries ?? 1
    const perQuery = move === null ? null : move / queries
    const within = perQuery !== null && perQuery <= WORK_GOAL_CALLS + EPSILON
    return { server, endpoint, name: `${server} /${endpoint}`, a, b, move, perQuery, within }
  })
  const movedWork = workCells.filter(cell => cell.move !== null)
  const missingWork = workCells.filter(cell => cell.move === null)
    .map(cell => ({ ...cell, in: ['a', 'b'].filter(side => !usable(cell[side])) }))
  const work = {
    cells: movedWork,
    missing: missingWork,
    within: movedWork.filter(cell => cell.within).length,
    total: workCells.length,
    maxMove: movedWork.length ? Math.max(...movedWork.map(cell => cell.perQuery)) : null,
    goal: { calls: WORK_GOAL_CALLS },
    met: workCells.length ? missingWork.length === 0 && movedWork.every(cell => cell.within) : null
  }
  const judged = [vsReference.met, cpu.met, total.met, work.met].filter(met => met !== null)
  return { vsReference, vsReferenceSteady, cpu, total, work, met: judged.length ? judged.every(Boolean) : null }
}

// The run's own: how far the halves of each cell's runs moved, the server's CPU against the
// reference's, server CPU and all CPU per request, quoted at the goal's share of cells.
// A cell it measured and could not halve (its runs failed) is lost, and keeps the run from
// being quoted as repeating (lib/repeatability.js lostCells).
function dbHalves (cells) {
  const halved = cell => Boolean(cell.halves?.vsReference || cell.halves?.cpu || cell.halves?.total)
  const lost = lostCells(cells, halved, cell => where(cell).name)
  const rows = cells.filter(halved).map(cell =>
    ({ ...where(cell), vsReference: cell.halves.vsReference ?? null, cpu: cell.halves.cpu, total: cell.halves.total }))
  const quoted = part => nearestRank(rows.filter(row => row[part]).map(row => row[part].movePercent), GOAL.share)
  const quotable = percent => percent !== null && withinGoal(percent)
  const vsReferenceQuotedPercent = quoted('vsReference')
  const cpuQuotedPercent = quoted('cpu')
  const totalQuotedPercent = quoted('total')
  return {
    vsReferenceQuotedPercent,
    cpuQuotedPercent,
    totalQuotedPercent,
    goalPercent: GOAL.percent,
    vsReferenceQuotable: quotable(vsReferenceQuotedPercent),
    cpuQuotable: quotable(cpuQuotedPercent),
    totalQuotable: quotable(totalQuotedPercent),
    quotable: [vsReferenceQuotedPercent, cpuQuotedPercent, totalQuotedPercent]
      .every(percent => percent === null || quotable(percent)) && cpuQuotedPercent !== null && lost.length === 0,
    lost,
    cells: rows
  }
}

function dbOwnText (own) {
  if (!own) return null
  return [
    lostText(own.lost),
    ownText('the server\'s CPU per request against the reference\'s', own.vsReferenceQuotedPercent,
      own.vsReferenceQuotable, own.goalPercent),
    ownText('the server\'s CPU per request', own.cpuQuotedPercent, own.cpuQuotable, own.goalPercent),
    ownText('all CPU per request (server, database, wrk, rest)', own.totalQuotedPercent, own.totalQuotable,
      own.goalPercent)
  ].filter(Boolean).join(' ') || null
}

// The answer's trust line: its lead figure, each server's CPU against the reference's.
const dbTrust = own =>
  (own ? ownTrust('ratios', own.vsReferenceQuotedPercent, own.vsReferenceQuotable, own.goalPercent, own.lost) : null)

function dbCriterionText (result, labels) {
  if (!result) return null
  const parts = [
    criterionText(`${labels[1]} against ${labels[0]}: the server's CPU per request against the reference's`,
      result.vsReference, labels),
    result.vsReferenceSteady && result.vsReferenceSteady.unsteady > 0
      ? criterionText(`Of the steady cells (leaving out ${result.vsReferenceSteady.unsteady} that a run did ` +
        'not quote, their process or the reference\'s still moving), the same', result.vsReferenceSteady, labels)
      : null,
    criterionText('The server\'s CPU per request', result.cpu, labels),
    criterionText('All CPU per request', result.total, labels),
    workText('The server\'s calls of work moved by at most',
      `a query (goal: ${WORK_GOAL_CALLS} for every server and endpoint`, result.work, labels)
  ].filter(Boolean)
  return parts.length ? parts.join(' ') : null
}

module.exports = { dbRepeatability, dbHalves, dbOwnText, dbTrust, dbCriterionText }
