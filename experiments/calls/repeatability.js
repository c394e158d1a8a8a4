'use strict'
// Whether the call ladder repeats, to the percent its rungs are quoted at: C's rungs in ns,
// every other variant's as its ratio to C's, process by process of the same round (the
// machine's drift between two runs moves C's rungs, and cancels in the ratios).
const { formatNumber } = require('../../lib/report/format')
const { EPSILON, usable } = require('../../lib/repeatability')
const { predictedMove, reach } = require('../../lib/variance')
const { median } = require('../../lib/stats')
const { BASELINE } = require('../stdio/programs')
const { RUNGS } = require('./ladder')

// Every rung within 1% (issue 35's goal for the ladder).
const GOAL = { percent: 1, share: 1 }

const figureOf = (row, rung) => row.variant === BASELINE ? row.rungs[rung]?.estimate : row.vsC?.[rung]?.estimate

// Two runs' ladders: { cells: [{ variant, rung, a, b, movePercent, within }], within,
// total, maxMovePercent, medianMovePercent, goal, met }.
function callsRepeatability (ladderA, ladderB) {
  const cells = []
  for (const row of ladderA?.rows ?? []) {
    const other = ladderB?.rows.find(entry => entry.variant === row.variant)
    for (const rung of RUNGS) {
      const [a, b] = [figureOf(row, rung), other && figureOf(other, rung)]
      if (!usable(a) || !usable(b) || a === 0) continue
      const movePercent = Math.abs(b / a - 1) * 100
      cells.push({ variant: row.variant, rung, a, b, movePercent, within: movePercent <= GOAL.percent + EPSILON })
    }
  }
  const moves = cells.map(cell => cell.movePercent)
  const within = cells.filter(cell => cell.within).length
  return {
    cells,
    within,
    total: cells.length,
    medianMovePercent: moves.length ? median(moves) : null,
    maxMovePercent: moves.length ? Math.max(...moves) : null,
    goal: { ...GOAL },
    met: cells.length ? within === cells.length : null
  }
}

// What a second run of the same design would move each rung by, 95 times in 100, from
// the variance this run measured at each level (lib/variance.js reach), and how many
// processes would bring every rung within the goal.
function reachable (ladder) {
  const { processes, rounds } = ladder.counts ?? {}
  if (!processes || !rounds) return null
  const rungs = ladder.rows.flatMap(row => RUNGS.filter(rung => row.variance?.[rung]).map(rung => ({ variant: row.variant, rung, parts: row.variance[rung] })))
  const all = reach(rungs.map(entry => entry.parts), { processes, rounds, goalPercent: GOAL.percent, share: GOAL.share })
  if (!all) return null
  const worst = rungs.map(entry => ({ ...entry, movePercent: predictedMove(entry.parts, { processes, rounds }) })).reduce((a, b) => (b.movePercent > a.movePercent ? b : a))
  const most = reach(rungs.map(entry => entry.parts), { processes, rounds, goalPercent: GOAL.percent, share: 0.9 })
  return { processes, rounds, quotedPercent: most.quotedPercent, worst: { ...worst, processesNeeded: all.processesNeeded }, reachable: all.reachable }
}

function callsCriterionText (result, labels) {
  if (!result || result.total === 0) return null
  return `${labels[1]} against ${labels[0]}: C's rungs in ns and every other variant's against C's moved by at most ${GOAL.percent}% in ${result.within} of ${result.total} rungs (goal: every rung): ${result.met ? 'met' : 'not met'}; median ${formatNumber(result.medianMovePercent)}%, at most ${formatNumber(result.maxMovePercent)}%.`
}

function reachableText (reach) {
  if (!reach) return null
  const { worst } = reach
  const where = `${worst.variant}'s ${worst.rung}`
  if (reach.reachable) return `From the variance this run measured, a second run of ${reach.processes} processes of ${reach.rounds} rounds would keep every rung within ${GOAL.percent}% (95 times in 100; at most ±${formatNumber(worst.movePercent)}%, ${where}).`
  return `On this machine the goal of every rung within ${GOAL.percent}% is out of reach at ${reach.processes} processes of ${reach.rounds} rounds: from the variance this run measured, a second run would move 9 rungs in 10 by up to ±${formatNumber(reach.quotedPercent)}% and ${where} by up to ±${formatNumber(worst.movePercent)}% (95 times in 100); --processes ${worst.processesNeeded} would bring it within ${GOAL.percent}%, at about ${formatNumber(worst.processesNeeded / reach.processes)} times the ladder's time.`
}

module.exports = { callsRepeatability, reachable, callsCriterionText, reachableText, GOAL }
