'use strict'
// Whether a run's figures repeat: between two runs of the lab (the two-run criterion), and
// within one run, between the interleaved halves of each cell's runs (the run's own figure,
// which a reader of one results folder can quote without a second run beside it).
const { median } = require('./stats')
const { findProgram } = require('./programs')
const { formatNumber } = require('./report/format')

// A figure repeats when it moves by at most GOAL.percent in at least GOAL.share of the
// cells: one cell caught by a slow spell of the VM does not fail a run, a machine whose
// every cell wanders does.
const GOAL = { percent: 5, share: 0.9 }
// Calls of work per request are a whole number of calls each request takes, which two runs
// on the lab's VM agreed on within 0.02 (docs/http.md); more than 0.05 is a server doing
// other work, not timing.
const WORK_GOAL_CALLS = 0.05
// Moves are ratios of measured floats: 105 against 100 must count as 5%, not 5.000000000000004%.
const EPSILON = 1e-9

const movePercent = (a, b) => Math.abs(b / a - 1) * 100
const withinGoal = percent => percent <= GOAL.percent + EPSILON
const usable = value => typeof value === 'number' && Number.isFinite(value)

// The least move that at least `share` of the cells do not exceed (the nearest rank), so
// that a quoted figure within the goal says exactly that the goal's share of cells met it.
function nearestRank (values, share) {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil(share * sorted.length - EPSILON) - 1)]
}

// A program that reads the block size it is given; a Node row measured per version
// (node-sync@22) is its version-less row's program.
function honoursBlockSize (program) {
  return (findProgram(program) ?? findProgram(String(program).split('@')[0]))?.honoursBlockSize === true
}

// cells: [{ ..., a, b }] of the figure in run a and in run b.
function criterion (cells) {
  const rows = cells.map(cell => {
    const move = movePercent(cell.a, cell.b)
    return { ...cell, movePercent: move, within: withinGoal(move) }
  })
  const moves = rows.map(row => row.movePercent)
  const within = rows.filter(row => row.within).length
  return {
    cells: rows,
    within,
    total: rows.length,
    medianMovePercent: moves.length ? median(moves) : null,
    maxMovePercent: moves.length ? Math.max(...moves) : null,
    goal: { ...GOAL },
    met: rows.length ? within >= GOAL.share * rows.length - EPSILON : null
  }
}

// Two runs of the stdio experiment: each honoured cell's best-of-runs steady-state MB/s
// (end-to-end where start-up could not be taken out) in one against the other.
function throughputRepeatability (resultsA, resultsB) {
  const figure = cell => cell?.best?.steadyThroughputMBps ?? cell?.best?.throughputMBps ?? null
  const cells = []
  for (const cell of resultsA.cells ?? []) {
    if (!honoursBlockSize(cell.program)) continue
    const other = (resultsB.cells ?? []).find(entry => entry.program === cell.program && entry.blockSize === cell.blockSize)
    const [a, b] = [figure(cell), figure(other)]
    if (usable(a) && a > 0 && usable(b)) cells.push({ program: cell.program, blockSize: cell.blockSize, a, b })
  }
  // The moves signed: where most cells moved one way, the machine's speed moved (the
  // host's load, its clock), which absolute MB/s cannot cancel and shares of C do
  const signed = cells.map(cell => (cell.b - cell.a) / cell.a * 100)
  return { ...criterion(cells), signedMovePercent: signed.length ? median(signed) : null }
}

// Two http runs: CPU per request in every cell, requests/s only where neither run was
// client-bound (there it measures wrk as much as the server), and calls of work per
// request per server and mode, which must all move by at most WORK_GOAL_CALLS.
function httpRepeatability (httpA, httpB) {
  const key = cell => `${cell.server}\t${cell.mode}\t${cell.connections}`
  const others = new Map((httpB?.cells ?? []).map(cell => [key(cell), cell]))
  const pairs = (httpA?.cells ?? []).map(cell => [cell, others.get(key(cell))]).filter(([, other]) => other)
  const where = cell => ({ server: cell.server, mode: cell.mode, connections: cell.connections })
  const cpu = criterion(pairs.filter(([x, y]) => usable(x.cpuPerRequestUs) && x.cpuPerRequestUs > 0 && usable(y.cpuPerRequestUs))
    .map(([x, y]) => ({ ...where(x), a: x.cpuPerRequestUs, b: y.cpuPerRequestUs })))
  const rate = criterion(pairs.filter(([x, y]) => x.requestsPerSecond?.median > 0 && y.requestsPerSecond && x.clientBound === false && y.clientBound === false)
    .map(([x, y]) => ({ ...where(x), a: x.requestsPerSecond.median, b: y.requestsPerSecond.median })))
  const traced = (httpA?.syscalls ?? []).map(x => [x, (httpB?.syscalls ?? []).find(y => y.server === x.server && y.mode === x.mode)])
    .filter(([x, y]) => usable(x.work) && usable(y?.work))
  const workCells = traced.map(([x, y]) => {
    const move = Math.abs(y.work - x.work)
    return { server: x.server, mode: x.mode, a: x.work, b: y.work, move, within: move <= WORK_GOAL_CALLS + EPSILON }
  })
  const work = {
    cells: workCells,
    within: workCells.filter(cell => cell.within).length,
    total: workCells.length,
    maxMove: workCells.length ? Math.max(...workCells.map(cell => cell.move)) : null,
    goal: { calls: WORK_GOAL_CALLS },
    met: workCells.length ? workCells.every(cell => cell.within) : null
  }
  // a part with no cells to judge (every cell client-bound, no strace pass) neither meets nor fails
  const judged = [cpu.met, rate.met, work.met].filter(met => met !== null)
  return { cpu, rate, work, met: judged.length ? judged.every(Boolean) : null }
}

// A cell's runs in two interleaved halves, even and odd run indices, so that a slow spell
// or a drift over the cell's minutes lands in both; each half summed up by `pick` (the best
// or the median of its runs). Null with fewer than one usable run a half. Runs without
// distinct indices (records made by hand, older logs) are halved by their order.
function interleavedHalves (runs, value, pick) {
  const halves = [[], []]
  const indexed = runs.every(run => Number.isInteger(run.run)) && new Set(runs.map(run => run.run)).size === runs.length
  runs.forEach((run, position) => {
    const index = indexed ? run.run : position
    const figure = value(run)
    if (usable(figure)) halves[index % 2].push(figure)
  })
  if (halves[0].length === 0 || halves[1].length === 0) return null
  const [a, b] = halves.map(pick)
  if (!(a > 0)) return null
  return { a, b, movePercent: movePercent(a, b), runs: halves.map(half => half.length) }
}

// The run's own repeatability of its throughput: the nearest-rank 90th percentile of the
// halves' moves over the honoured cells. Each half is the best of half the runs, and the
// best of fewer runs is the noisier (a lucky run is likelier among more), so two halves of
// best-of-five move more than two runs' best-of-ten would from the noise within a run: an
// upper estimate of that. On the reference run of 2026-11-24's 6 runs a cell, unpinned
// (`git show a9bcf7c:results/reference/all.jsonl`, 99 honoured cells) the 90th
// percentile of the move was 27.5% for best of 1 against 1, 10.8% for 2 against 2, 10.1%
// for 3 against 3 (medians 5.1%, 3.8%, 2.9%). What the halves cannot see is what changes
// between runs: that run against its twin (docs/reproducibility/d), best of 6 against 6,
// moved by 22.9% at the 90th percentile (median 7.3%), where the halves said 10.1%. Pinned,
// at 10 runs, the runs of 2026-11-25 said ±2.9% to ±3.6% by their halves, and a second run
// moved 93 of 99 cells by at most 5%, or, where the machine's speed moved between them,
// 48 (docs/reproducibility.md). So a run too noisy by its halves is too noisy; one within
// the goal by its halves still needs the two-run criterion (throughputRepeatability).
function throughputHalves (cells) {
  const rows = cells.filter(cell => cell.halves && honoursBlockSize(cell.program)).map(cell => ({
    program: cell.program, blockSize: cell.blockSize, a: cell.halves.a, b: cell.halves.b, movePercent: cell.halves.movePercent, within: withinGoal(cell.halves.movePercent)
  }))
  const quotedPercent = nearestRank(rows.map(row => row.movePercent), GOAL.share)
  return { quotedPercent, goalPercent: GOAL.percent, quotable: quotedPercent !== null && withinGoal(quotedPercent), cells: rows }
}

// The http run's own: the halves' medians of CPU per request in every cell, and of
// requests/s where the server, not wrk, set the pace. Both halves come from one server
// process, so they cannot see what another process does: on the http reference run of
// commit 46d28de (`git show a9bcf7c:results/reference-http/all.jsonl`) the halves of CPU
// per request moved by 3.9% at the median (13.3% at the 90th percentile), where a second
// run moved by 13% at the median; pinned, on 2026-11-25, the halves said ±2.3% and ±4.6%
// where a second run kept 27 of 48 cells within 5% (docs/http.md).
function httpHalves (cells) {
  const rows = cells.filter(cell => cell.halves?.cpu || cell.halves?.rate).map(cell => ({
    server: cell.server,
    mode: cell.mode,
    connections: cell.connections,
    clientBound: cell.clientBound,
    cpu: cell.halves.cpu,
    rate: cell.clientBound === false ? cell.halves.rate : null
  }))
  const quoted = part => nearestRank(rows.filter(row => row[part]).map(row => row[part].movePercent), GOAL.share)
  const cpuQuotedPercent = quoted('cpu')
  const rateQuotedPercent = quoted('rate')
  const cpuQuotable = cpuQuotedPercent !== null && withinGoal(cpuQuotedPercent)
  const rateQuotable = rateQuotedPercent === null ? null : withinGoal(rateQuotedPercent)
  return { cpuQuotedPercent, rateQuotedPercent, goalPercent: GOAL.percent, cpuQuotable, rateQuotable, quotable: cpuQuotable && rateQuotable !== false, cells: rows }
}

// What a run says of its own repeatability, in a sentence; null without a figure.
function ownText (what, percent, goalPercent = GOAL.percent) {
  if (percent === null || percent === undefined) return null
  return withinGoal(percent)
    ? `On this machine, today, ${what} repeats within ±${formatNumber(percent)}% (the 90th percentile of the moves between each cell's interleaved halves of runs; goal ±${goalPercent}%).`
    : `This machine was too noisy to quote ${what} (±${formatNumber(percent)}%, goal ±${goalPercent}%).`
}

function throughputOwnText (own) {
  return own ? ownText('the best run\'s steady-state MB/s', own.quotedPercent, own.goalPercent) : null
}

function httpOwnText (own) {
  if (!own) return null
  return [ownText('CPU per request', own.cpuQuotedPercent, own.goalPercent), ownText('requests/s where the server was the limit', own.rateQuotedPercent, own.goalPercent)].filter(Boolean).join(' ') || null
}

// The two-run criteria in a sentence each.
function criterionText (what, result) {
  if (!result || result.total === 0) return null
  return `${what} moved by at most ${result.goal.percent}% in ${result.within} of ${result.total} cells (goal: ${Math.round(result.goal.share * 100)}%): ${result.met ? 'met' : 'not met'}; median ${formatNumber(result.medianMovePercent)}%, at most ${formatNumber(result.maxMovePercent)}%.`
}

function throughputCriterionText (result, labels) {
  const text = criterionText(`${labels[1]} against ${labels[0]}: the best run's steady-state MB/s of the honoured cells`, result)
  const signed = result?.signedMovePercent
  if (!text || signed === null || signed === undefined) return text
  return `${text} Signed, the median move was ${signed >= 0 ? '+' : ''}${formatNumber(signed)}%${Math.abs(signed) > result.goal.percent / 2 ? ': most cells moved one way, so the machine itself ran at another speed' : ''}.`
}

function httpCriterionText (result, labels) {
  if (!result) return null
  const parts = [
    criterionText(`${labels[1]} against ${labels[0]}: CPU per request`, result.cpu),
    criterionText('Requests/s, cells neither run was client-bound in,', result.rate),
    result.work.total ? `Calls of work per request moved by at most ${formatNumber(result.work.maxMove)} (goal: ${WORK_GOAL_CALLS} for every server and mode, ${result.work.within} of ${result.work.total} within): ${result.work.met ? 'met' : 'not met'}.` : null
  ].filter(Boolean)
  return parts.length ? parts.join(' ') : null
}

module.exports = {
  GOAL,
  WORK_GOAL_CALLS,
  movePercent,
  nearestRank,
  honoursBlockSize,
  interleavedHalves,
  throughputRepeatability,
  httpRepeatability,
  throughputHalves,
  httpHalves,
  ownText,
  throughputOwnText,
  httpOwnText,
  throughputCriterionText,
  httpCriterionText
}
