'use strict'
// Whether the http experiment's figures repeat: CPU per request, requests/s where the
// server set the pace, and calls of work per request, between two runs and between the
// halves of one (lib/repeatability.js).
const {
  GOAL, EPSILON, withinGoal, usable, nearestRank, criterion, pairByKey, lostCells, lostText, ownText, ownTrust,
  criterionText, workText
} = require('../../lib/repeatability')
const { formatNumber } = require('../../lib/report/format')
const { REFERENCE } = require('./servers')

// Calls of work per request are a whole number of calls each request takes, which two runs
// on the lab's VM agreed on within 0.02 (docs/http.md); more than 0.05 is a server doing
// other work, not timing.
const WORK_GOAL_CALLS = 0.05
// Two http runs: CPU per request in every cell, requests/s only where neither run was
// client-bound (there it measures wrk as much as the server), and calls of work per
// request per server and mode, which must all move by at most WORK_GOAL_CALLS.
// A cell or a traced server either run failed or lacks is a missing cell
// (lib/repeatability.js).
function httpRepeatability (httpA, httpB) {
  const key = cell => `${cell.server}\t${cell.mode}\t${cell.connections}`
  const pairs = pairByKey(httpA?.cells, httpB?.cells, key)
  const where = ({ server, mode, connections }) =>
    ({ server, mode, connections, name: `${server} ${mode} ${connections} conn.` })
  const cpuOf = cell => (usable(cell?.cpuPerRequestUs) && cell.cpuPerRequestUs > 0 ? cell.cpuPerRequestUs : null)
  const cpu = criterion(pairs.map(([x, y]) => ({ ...where(x ?? y), a: cpuOf(x), b: cpuOf(y) })))
  // the ratio to the reference's CPU per request, the answer the page opens on: on a VM
  // whose speed moves through the day it holds where CPU per request cannot
  const ratioOf = cell => (usable(cell?.cpuVsReference?.estimate) && cell.cpuVsReference.estimate > 0 ? cell.cpuVsReference.estimate : null)
  // (judged where both runs have ratios: runs too short for an interval have none)
  const compared = pairs.filter(pair => pair.some(cell => cell && cell.server !== httpA?.reference && cell.server !== httpB?.reference))
  const hasRatios = http => http?.cells?.some(cell => ratioOf(cell) !== null)
  const ratio = hasRatios(httpA) && hasRatios(httpB)
    ? criterion(compared.map(([x, y]) => ({ ...where(x ?? y), a: ratioOf(x), b: ratioOf(y) })))
    : null
  // requests/s where the server, not wrk, set the pace in each run that measured the cell
  // (clientBound false: wrk apart, the server's CPU full), as a run's own halves judge them;
  // a cell a run failed (no rate) stays, and counts as missing. Where the two run together
  // (placements shared, interleaved: clientBound null) the rate is the pair's, not judged.
  const failed = cell => !cell || !(cell.requestsPerSecond?.median > 0)
  const serverPaced = pairs.filter(pair => pair.every(cell => failed(cell) || cell.clientBound === false) &&
    pair.some(cell => cell?.clientBound === false))
  const rateOf = cell => (cell?.requestsPerSecond?.median > 0 ? cell.requestsPerSecond.median : null)
  const rate = criterion(serverPaced.map(([x, y]) => ({ ...where(x ?? y), a: rateOf(x), b: rateOf(y) })))
  const traced = pairByKey(httpA?.syscalls, httpB?.syscalls, entry => `${entry.server}\t${entry.mode}`)
  const workCells = traced.map(([x, y]) => {
    const { server, mode } = x ?? y
    const [a, b] = [x?.work, y?.work]
    const move = usable(a) && usable(b) ? Math.abs(b - a) : null
    const within = move !== null && move <= WORK_GOAL_CALLS + EPSILON
    return { server, mode, name: `${server} ${mode}`, a, b, move, within }
  })
  const missingWork = workCells.filter(cell => cell.move === null)
    .map(cell => ({ ...cell, in: ['a', 'b'].filter(side => !usable(cell[side])) }))
  const movedWork = workCells.filter(cell => cell.move !== null)
  const work = {
    cells: movedWork,
    missing: missingWork,
    within: movedWork.filter(cell => cell.within).length,
    total: workCells.length,
    maxMove: movedWork.length ? Math.max(...movedWork.map(cell => cell.move)) : null,
    goal: { calls: WORK_GOAL_CALLS },
    met: workCells.length ? missingWork.length === 0 && movedWork.every(cell => cell.within) : null
  }
  // a part with no cells to judge (every cell client-bound, no strace pass) neither meets nor fails
  const judged = [cpu.met, ratio?.met ?? null, rate.met, work.met].filter(met => met !== null)
  const gcStates = gcStatesMoved(ratio ?? cpu, pairs, key)
  const faults = faultsMoved(ratio ?? cpu, pairs, key)
  return { cpu, ratio, rate, work, gcStates, faults, met: judged.length ? judged.every(Boolean) : null }
}

// A move of minor page faults per request that says the server's memory behaved otherwise:
// by a quarter, and by at least half a fault a request (Deno's processes with Connection:
// close took 4 to 14 as glibc's malloc gave its heap's top back and took it again; C's
// servers none).
const FAULTS_MOVE = { share: 0.25, perRequest: 0.5 }
// to a hundredth of a fault a request: a server that reuses its memory shows 0, not 0.00017
const formatFaults = perRequest => formatNumber(Math.round(perRequest * 100) / 100)
const faultsDiffer = (a, b) => Math.abs(b - a) >= FAULTS_MOVE.perRequest &&
  Math.abs(b - a) >= FAULTS_MOVE.share * Math.min(a, b)
// The cells that moved past the goal whose page faults per request moved with them (summary.js
// faultsPerRequest); null where a run counted none.
function faultsMoved (judged, pairs, key) {
  const byKey = new Map(pairs.map(pair => [key(pair[0] ?? pair[1]), pair]))
  const pairOf = cell => byKey.get(key(cell)) ?? []
  const counted = judged.cells.filter(cell => pairOf(cell).every(each => usable(each?.faultsPerRequest)))
  if (counted.length === 0) return null
  const moved = counted.filter(cell => !cell.within)
  const differing = moved.map(cell => ({ ...cell, faults: pairOf(cell).map(each => each.faultsPerRequest) }))
    .filter(({ faults: [a, b] }) => faultsDiffer(a, b))
  return { moved: moved.length, differing }
}

// The cells that moved past the goal whose V8 processes were in other GC states in the two
// runs (summary.js gcStatesOf: a different share of them collected the old generation), which
// is then a change of V8's state, not of the measurement; null where no cell's GC was traced.
function gcStatesMoved (judged, pairs, key) {
  const byKey = new Map(pairs.map(pair => [key(pair[0] ?? pair[1]), pair]))
  const pairOf = cell => byKey.get(key(cell)) ?? []
  const shareOld = states => states.oldGeneration / states.processes
  const traced = judged.cells.filter(cell => pairOf(cell).every(each => each?.gcStates))
  if (traced.length === 0) return null
  const moved = traced.filter(cell => !cell.within)
  const differing = moved.filter(cell => {
    const [x, y] = pairOf(cell)
    return shareOld(x.gcStates) !== shareOld(y.gcStates)
  }).map(cell => ({ ...cell, states: pairOf(cell).map(each => each.gcStates) }))
  return { moved: moved.length, differing }
}

// The http run's own: the halves' medians of CPU per request in every cell, and of
// requests/s where the server, not wrk, set the pace. A cell with several processes is
// halved by process (its even processes against its odd, summary.js processHalves), else by
// run within its one process, where the halves cannot see what another process does: on the
// http reference run of commit 46d28de (`git show a9bcf7c:results/reference-http/all.jsonl`),
// one process a cell, the halves of CPU per request moved by 3.9% at the median (13.3% at the
// 90th percentile), where a second run moved by 13% at the median; pinned, on 2026-11-25, the
// halves said ±2.3% and ±4.6% where a second run kept 27 of 48 cells within 5% (docs/http.md).
// Where the runs took turns with the reference's (placement interleaved), the halves of
// each cell's ratios to it too: the page's answer. Then the ratio decides whether the run
// can be quoted, and CPU per request, which moves with the machine's own speed, is said beside it.
// A cell the run measured and could not halve in the answer's figure (its runs failed; in
// turns, a server's cell with a kept run that had no reference beside it, whose ratio the
// answer still quotes: until a review of 2026-12-07 it left the ratio's figure unseen) is
// lost, and keeps the run from being quoted as repeating (lib/repeatability.js lostCells).
function httpHalves (cells, reference = REFERENCE) {
  const halved = cell => Boolean(cell.halves?.cpu || cell.halves?.rate || cell.halves?.ratio)
  const inRatios = cells.some(cell => cell.halves?.ratio)
  const ratioLost = cell => inRatios && cell.server !== reference && halved(cell) && !cell.halves.ratio
  const why = cell => (ratioLost(cell) ? ` (no ratio: a kept run without ${reference} beside it)` : '')
  const lost = lostCells(cells, cell => halved(cell) && !ratioLost(cell),
    cell => `${cell.server} ${cell.mode} ${cell.connections} conn.${why(cell)}`)
  const rows = cells.filter(halved).map(cell => ({
    server: cell.server,
    mode: cell.mode,
    connections: cell.connections,
    clientBound: cell.clientBound,
    cpu: cell.halves.cpu,
    ratio: cell.halves.ratio ?? null,
    rate: cell.clientBound === false ? cell.halves.rate : null
  }))
  const quoted = part => nearestRank(rows.filter(row => row[part]).map(row => row[part].movePercent), GOAL.share)
  const cpuQuotedPercent = quoted('cpu')
  const ratioQuotedPercent = quoted('ratio')
  const rateQuotedPercent = quoted('rate')
  const cpuQuotable = cpuQuotedPercent !== null && withinGoal(cpuQuotedPercent)
  const ratioQuotable = ratioQuotedPercent === null ? null : withinGoal(ratioQuotedPercent)
  const rateQuotable = rateQuotedPercent === null ? null : withinGoal(rateQuotedPercent)
  const answerQuotable = (ratioQuotable ?? cpuQuotable) && lost.length === 0
  return {
    cpuQuotedPercent,
    ratioQuotedPercent,
    rateQuotedPercent,
    goalPercent: GOAL.percent,
    cpuQuotable,
    ratioQuotable,
    rateQuotable,
    quotable: answerQuotable && rateQuotable !== false,
    lost,
    cells: rows
  }
}

// The answer's trust line: its ratios to c-epoll's, or CPU per request where a run took none.
function httpTrust (own) {
  if (!own) return null
  return own.ratioQuotedPercent !== null
    ? ownTrust('ratios', own.ratioQuotedPercent, own.ratioQuotable, own.goalPercent, own.lost)
    : ownTrust('figures', own.cpuQuotedPercent, own.cpuQuotable, own.goalPercent, own.lost)
}

// http halves a cell by process where it had several (experiments/http/summary.js processHalves)
const HTTP_HALVES = 'halves: its even processes against its odd, or with one process its even runs against its odd'

function httpOwnText (own) {
  if (!own) return null
  return [
    lostText(own.lost),
    ownText('the ratio of each server\'s CPU per request to c-epoll\'s (taken in turns)',
      own.ratioQuotedPercent, own.ratioQuotable, own.goalPercent, HTTP_HALVES),
    // beside ratios, CPU per request is not the answer: it moves with the machine's own speed
    ownText(own.ratioQuotedPercent === null
      ? 'CPU per request'
      : 'CPU per request in µs, which moves with the machine\'s own speed (the answer is its ratio to c-epoll, above)',
    own.cpuQuotedPercent, own.cpuQuotable, own.goalPercent, HTTP_HALVES),
    ownText('requests/s where the server was the limit', own.rateQuotedPercent, own.rateQuotable,
      own.goalPercent, HTTP_HALVES)
  ].filter(Boolean).join(' ') || null
}

function httpCriterionText (result, labels) {
  if (!result) return null
  const against = `${labels[1]} against ${labels[0]}:`
  // The ratio is the answer and leads, since the page's pair line quotes the first sentence;
  // CPU per request in µs follows it, as httpOwnText orders them.
  const parts = result.ratio?.total
    ? [criterionText(`${against} each server's ratio of CPU per request to c-epoll's`, result.ratio, labels),
        criterionText('CPU per request in µs, which moves with the machine\'s own speed,', result.cpu, labels)]
    : [criterionText(`${against} CPU per request`, result.cpu, labels)]
  parts.push(
    criterionText('Requests/s, cells neither run was client-bound in,', result.rate, labels),
    workText('Calls of work per request moved by at most',
      `(goal: ${WORK_GOAL_CALLS} for every server and mode`, result.work, labels),
    gcStatesText(result.gcStates, labels),
    faultsText(result.faults, labels))
  const said = parts.filter(Boolean)
  return said.length ? said.join(' ') : null
}

// Which of the cells that moved past the goal had V8 in other GC states in the two runs.
function gcStatesText (gcStates, labels) {
  if (!gcStates?.differing.length) return null
  const named = gcStates.differing.map(({ name, movePercent, states }) => `${name}, ${formatNumber(movePercent)}%: ` +
    states.map((each, run) => `${each.oldGeneration} of ${each.processes} in ${labels[run]}`).join(', '))
  return `Of the ${gcStates.moved} cells that moved past the goal, ${gcStates.differing.length} had their V8 ` +
    'processes in other GC states in the two runs (those that collected the old generation in their runs: ' +
    `${named.join('; ')}): V8 chose the state in each process, and the move is V8's, not the measurement's.`
}

// Which of the cells that moved past the goal took other counts of page faults per request.
function faultsText (faults, labels) {
  if (!faults?.differing.length) return null
  const named = faults.differing.map(({ name, movePercent, faults: counts }) =>
    `${name}, ${formatNumber(movePercent)}%: ` +
    counts.map((count, run) => `${formatFaults(count)} in ${labels[run]}`).join(', '))
  return `Of the ${faults.moved} cells that moved past the goal, ${faults.differing.length} took other counts ` +
    `of minor page faults a request in the two runs (${named.join('; ')}): the server's memory, mapped ` +
    'afresh by the kernel, moved with its cost.'
}

module.exports = { faultsDiffer, formatFaults, httpRepeatability, httpHalves, httpOwnText, httpTrust, httpCriterionText }
