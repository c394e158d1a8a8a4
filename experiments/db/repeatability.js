'use strict'
// Whether the db experiment's figures repeat: the server's CPU per request against the
// reference's (the lead figure), the server's CPU per request and all CPU per request
// (server, backends, database upkeep, wrk, rest), between two runs and between the halves
// of one (lib/repeatability.js), and the server's calls of work per request between two
// runs. The machine's drift moves the CPU per request of every server of a round alike,
// and their ratios not at all.
const { formatNumber } = require('../../lib/report/format')
const { GOAL, EPSILON, withinGoal, usable, nearestRank, criterion, ownText, criterionText } = require('../../lib/repeatability')

// Calls of work are whole calls per query, or a share of one where queries share a
// flush: a move of more than this per query is more than timing. Per query, so that a
// request of 20 queries is held to what 20 requests of one are.
const WORK_GOAL_CALLS = 0.1

const cellKey = cell => `${cell.server}\t${cell.endpoint}\t${cell.connections}`
const where = cell => ({ server: cell.server, endpoint: cell.endpoint, connections: cell.connections })

function dbRepeatability (dbA, dbB) {
  const others = new Map((dbB?.cells ?? []).map(cell => [cellKey(cell), cell]))
  const pairs = (dbA?.cells ?? []).map(cell => [cell, others.get(cellKey(cell))]).filter(([, other]) => other)
  const part = pick => criterion(pairs.filter(([x, y]) => usable(pick(x)) && pick(x) > 0 && usable(pick(y))).map(([x, y]) => ({ ...where(x), a: pick(x), b: pick(y) })))
  const vsReference = part(cell => cell.serverVsReference?.estimate)
  const cpu = part(cell => cell.cpuPerRequestUs?.server)
  const total = part(cell => cell.cpuPerRequestUs ? Object.values(cell.cpuPerRequestUs).reduce((sum, value) => sum + value, 0) : null)
  const traced = (dbA?.syscalls ?? []).map(x => [x, (dbB?.syscalls ?? []).find(y => y.server === x.server && y.endpoint === x.endpoint)])
    .filter(([x, y]) => usable(x.self?.work) && usable(y?.self?.work))
  const workCells = traced.map(([x, y]) => {
    const move = Math.abs(y.self.work - x.self.work)
    const queries = x.queries ?? 1
    return { server: x.server, endpoint: x.endpoint, a: x.self.work, b: y.self.work, move, perQuery: move / queries, within: move / queries <= WORK_GOAL_CALLS + EPSILON }
  })
  const work = {
    cells: workCells,
    within: workCells.filter(cell => cell.within).length,
    total: workCells.length,
    maxMove: workCells.length ? Math.max(...workCells.map(cell => cell.perQuery)) : null,
    goal: { calls: WORK_GOAL_CALLS },
    met: workCells.length ? workCells.every(cell => cell.within) : null
  }
  const judged = [vsReference.met, cpu.met, total.met, work.met].filter(met => met !== null)
  return { vsReference, cpu, total, work, met: judged.length ? judged.every(Boolean) : null }
}

// The run's own: how far the halves of each cell's runs moved, the server's CPU against the
// reference's, server CPU and all CPU per request, quoted at the goal's share of cells.
function dbHalves (cells) {
  const rows = cells.filter(cell => cell.halves?.vsReference || cell.halves?.cpu || cell.halves?.total).map(cell => ({ ...where(cell), vsReference: cell.halves.vsReference ?? null, cpu: cell.halves.cpu, total: cell.halves.total }))
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
    quotable: [vsReferenceQuotedPercent, cpuQuotedPercent, totalQuotedPercent].every(percent => percent === null || quotable(percent)) && cpuQuotedPercent !== null,
    cells: rows
  }
}

function dbOwnText (own) {
  if (!own) return null
  return [
    ownText('the server\'s CPU per request against the reference\'s', own.vsReferenceQuotedPercent, own.goalPercent),
    ownText('the server\'s CPU per request', own.cpuQuotedPercent, own.goalPercent),
    ownText('all CPU per request (server, database, wrk, rest)', own.totalQuotedPercent, own.goalPercent)
  ].filter(Boolean).join(' ') || null
}

function dbCriterionText (result, labels) {
  if (!result) return null
  const parts = [
    criterionText(`${labels[1]} against ${labels[0]}: the server's CPU per request against the reference's`, result.vsReference),
    criterionText('The server\'s CPU per request', result.cpu),
    criterionText('All CPU per request', result.total),
    result.work.total ? `The server's calls of work moved by at most ${formatNumber(result.work.maxMove)} a query (goal: ${WORK_GOAL_CALLS} for every server and endpoint, ${result.work.within} of ${result.work.total} within): ${result.work.met ? 'met' : 'not met'}.` : null
  ].filter(Boolean)
  return parts.length ? parts.join(' ') : null
}

module.exports = { dbRepeatability, dbHalves, dbOwnText, dbCriterionText }
