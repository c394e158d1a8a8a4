'use strict'
// Whether the call ladder repeats, to the percent its rungs are quoted at: C's rungs in ns,
// every other variant's as its ratio to C's, process by process of the same round (the
// machine's drift between two runs moves C's rungs, and cancels in the ratios).
const { formatNumber, formatBound } = require('../../lib/report/format')
const { EPSILON, nearestRank, criterion, pairByKey, missingClause, lostText } = require('../../lib/repeatability')
const { BASELINE } = require('../stdio/programs')
const { RUNGS } = require('./ladder')
const { MAX_REPEATS } = require('../../lib/options')

// Every rung within 1% (issue 35's goal for the ladder).
const GOAL = { percent: 1, share: 1 }

const figureOf = (row, rung) => row.variant === BASELINE ? row.rungs[rung]?.estimate : row.vsC?.[rung]?.estimate

// Two runs' ladders: { cells: [{ variant, rung, a, b, movePercent, within }], within,
// total, maxMovePercent, medianMovePercent, goal, met }.
// A variant or rung either run failed or lacks is a missing cell (lib/repeatability.js).
function callsRepeatability (ladderA, ladderB) {
  const cells = pairByKey(ladderA?.rows, ladderB?.rows, row => row.variant).flatMap(([row, other]) =>
    RUNGS.map(rung => {
      const variant = (row ?? other).variant
      const [a, b] = [row && figureOf(row, rung), other && figureOf(other, rung)]
      return { variant, rung, name: `${variant} ${rung}`, a, b }
    }))
  return criterion(cells, GOAL)
}

// What a second run of the same design would move each rung by, foretold from this run's
// halves (the larger of even against odd processes and early against late, ladder.js
// ownHalves; over √2: halves of P/2 processes move apart √2 times as far as two runs of P
// do). The variance components, taken as a mean's, foretold 10 to 16% where three pairs moved
// 4.9 to 10.3% (2026-11-27, docs/reproducibility.md): the medians shrug off the slow rounds a
// mean would carry. Where the goal is out of reach: the processes that would bring every rung
// within it, the spread of a median falling as the square root of its processes; none where
// any rung past the goal moved by the drift through the run (early against late), which more
// processes, a longer run, would not narrow: `drift` is the largest such rung.
function reachable (ladder) {
  const { processes, rounds } = ladder.counts ?? {}
  const rungs = (ladder.halves ?? []).map(cell => ({ ...cell, movePercent: cell.movePercent / Math.SQRT2 }))
  if (!processes || rungs.length === 0) return null
  const lost = ladder.halvesLost ?? []
  const largest = list => list.reduce((a, b) => (b.movePercent > a.movePercent ? b : a))
  const worst = largest(rungs)
  const drifting = rungs.filter(entry => entry.by === 'drift' && entry.movePercent > GOAL.percent + EPSILON)
  const drift = drifting.length ? largest(drifting) : null
  const processesNeeded = drift
    ? null
    : Math.ceil(processes * Math.max(1, (worst.movePercent / GOAL.percent) ** 2))
  return {
    processes,
    rounds,
    quotedPercent: nearestRank(rungs.map(entry => entry.movePercent), 0.9),
    worst: { ...worst, processesNeeded },
    drift,
    reachable: worst.movePercent <= GOAL.percent + EPSILON && lost.length === 0,
    lost
  }
}

function callsCriterionText (result, labels) {
  if (!result || result.total === 0) return null
  const what = `${labels[1]} against ${labels[0]}: C's rungs in ns and every other variant's against C's`
  const moved = `moved by at most ${GOAL.percent}% in ${result.within} of ${result.total} rungs (goal: every rung)`
  const missing = missingClause(result.missing, labels)
  const spread = result.cells.length
    ? `; median ${formatNumber(result.medianMovePercent)}%, at most ${formatBound(result.maxMovePercent)}%`
    : ''
  return `${what} ${moved}${missing}: ${result.met ? 'met' : 'not met'}${spread}.`
}

// What a second run would move: 9 rungs in 10 by up to one figure and the worst rung by up to
// another, or every rung by up to the worst's where the two are the same (or the 90th is not
// known). The trust line, the finding and the text tables say it alike.
function movesText (reach) {
  const { variant, rung, movePercent } = reach.worst
  const worst = `±${formatBound(movePercent)}%`
  const most = reach.quotedPercent === undefined ? null : `±${formatBound(reach.quotedPercent)}%`
  return variant && rung && most && most !== worst
    ? `9 rungs in 10 by up to ${most}, and ${variant}'s ${rung} by up to ${worst}`
    : `every rung by up to ${worst}`
}

function reachableText (reach) {
  if (!reach) return null
  const { worst } = reach
  const where = `${worst.variant}'s ${worst.rung}`
  // the unit the goal is judged in, which the page's ns do not show for the other variants
  const foretold = 'foretold from this run\'s halves of processes, even against odd or early ' +
    'against late, whichever moved more; C\'s rungs in ns, every other variant\'s as its ratio to ' +
    'C\'s, which a change of the machine\'s speed does not move'
  const most = `±${formatBound(worst.movePercent)}%`
  if (reach.lost?.length) {
    return `${lostText(reach.lost)} A second run would move ${movesText(reach)} (${foretold}).`
  }
  if (reach.reachable) {
    return `On this machine, today, a second run of ${reach.processes} processes would keep every rung within ` +
      `±${GOAL.percent}% (at most ${most}, ${where}; ${foretold}).`
  }
  if (worst.processesNeeded === null) {
    // C's rungs are in ns, and moved with the machine; a ratio to C's of the same moments
    // cancels the machine's drift, so what moved there is the variant's own processes
    const drift = reach.drift ?? worst
    const moved = drift.variant === BASELINE
      ? 'the machine drifted through the run, early processes against late, which more processes ' +
        'would not narrow'
      : 'its early processes and its late ones differed against C\'s of the same moments: not the ' +
        'machine\'s drift, which the ratio cancels, but the variant\'s own (as a runtime whose processes ' +
        'take one of two speeds: docs/calls.md), and no count of processes is advised'
    return `On this machine the goal of every rung within ${GOAL.percent}% is out of reach: a second ` +
      `run would move ${movesText(reach)} (${foretold}); at ${drift.variant}'s ${drift.rung} ${moved}.`
  }
  const times = formatNumber(worst.processesNeeded / reach.processes)
  // advice bench would refuse is none: past what --processes takes, it says so
  // an estimate, not a promise: a rung whose processes fall in two modes (Bun's no-op,
  // docs/calls.md) does not narrow as the square root of their count
  const ifSqrt = 'if a median\'s spread fell as the square root of its processes'
  const advice = worst.processesNeeded <= MAX_REPEATS
    ? `${ifSqrt}, --processes ${worst.processesNeeded} would bring every rung within ${GOAL.percent}%, ` +
      `at about ${times} times the ladder's time`
    : `${ifSqrt}, it would take ${worst.processesNeeded} processes, more than --processes takes (${MAX_REPEATS})`
  return `On this machine the goal of every rung within ${GOAL.percent}% is out of reach at ` +
    `${reach.processes} processes: a second run would move ${movesText(reach)} (${foretold}); ${advice}.`
}

// The ladder's trust line: every rung within the goal, its worst rung's foretold move. The
// worst rung is named, and the move of 9 in 10 beside it, where the two differ: one rung of a
// nanosecond can decide the verdict while the page's other figures hold far closer.
function callsTrust (reach) {
  if (!reach) return null
  return {
    quotable: reach.reachable,
    lost: reach.lost?.length ?? 0,
    // in the unit the goal judges, which the page's ns show for C's rungs only
    moves: `${movesText(reach)}, C's rungs in ns and the others as ratios to C's`,
    goal: `±${GOAL.percent}%`
  }
}

module.exports = { callsRepeatability, reachable, callsCriterionText, reachableText, callsTrust, GOAL }
