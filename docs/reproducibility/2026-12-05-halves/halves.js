'use strict'
// Does a stdio run's own figure foretell what a second run moves (issue 47's goal: the pair's
// 90th percentile within what each run said, and what it said at most twice that)? Given
// pairs of stdio runs' results whose cost pass took turns with C (each round's share of C
// kept in `byRound`), prints per pair the 90th percentile of what the shares moved (the lab's
// criterion, in points) and what each run said by two halvings of its rounds and by the
// larger of the two, cell by cell, each the move all but one cell in 30 stay within, as the
// run quotes it (experiments/stdio/cost.js ownRepeatability): "recorded" is what the run
// itself printed when it ran.
//   node docs/reproducibility/2026-12-05-halves/halves.js A1 B1 [A2 B2 ...]
// (each a stdio run's results.json, or .json.gz as kept beside the studies)
const { runScript, readableFile, readJson, need, UsageError } = require('../../script-args')
const { headlineRepeatability } = require('../../../experiments/stdio/cost')
const { BASELINE } = require('../../../experiments/stdio/programs')
const { nearestRank, HALVINGS, foretellTally } = require('../../../lib/repeatability')
const { median } = require('../../../lib/stats')

const RUN = 'a stdio run\'s results.json (or .json.gz) with its cost pass'
const allButOneIn30 = moves => [...moves].sort((a, b) => a - b)[moves.length - 1 - Math.floor(moves.length / 30)]

// A cell's halves' move over √2, in points, by a halving of its rounds.
function halvedMove (cell, halving) {
  const rounds = cell.byRound.filter(round => round.shareOfC > 0)
  const halfOf = halving(rounds.map(round => round.run))
  const shares = which => rounds.filter(round => halfOf(round.run) === which).map(round => round.shareOfC)
  const [a, b] = [0, 1].map(which => median(shares(which)))
  return Math.abs(a - b) * 100 / Math.SQRT2
}

function said (headline) {
  const cells = headline.cells.filter(cell => cell.program !== BASELINE && cell.byRound?.length)
  const evenOdd = cells.map(cell => halvedMove(cell, HALVINGS.evenOdd))
  const earlyLate = cells.map(cell => halvedMove(cell, HALVINGS.earlyLate))
  return {
    'even/odd': allButOneIn30(evenOdd),
    'early/late': allButOneIn30(earlyLate),
    larger: allButOneIn30(evenOdd.map((move, i) => Math.max(move, earlyLate[i])))
  }
}

const format = value => value.toFixed(2).padStart(5)

function main (files) {
  if (files.length % 2) throw new UsageError(`give runs in pairs, not ${files.length} files`)
  const headlines = files.map(file => need(readJson(file, RUN).headline, file, 'cost pass (headline)', RUN))
  headlines.forEach((headline, i) => {
    if (!headline.cells?.some(cell => cell.byRound?.some(round => round.shareOfC > 0))) {
      throw new UsageError(`${files[i]} keeps no round's share of C (a run from before the cost pass ` +
        'took turns with C); give a newer run')
    }
  })
  const tally = foretellTally()
  for (let i = 0; i < files.length; i += 2) {
    const [a, b] = [headlines[i], headlines[i + 1]]
    const movedP90 = nearestRank(headlineRepeatability(a, b).cells.map(cell => cell.movePoints), 0.9)
    const runs = [said(a), said(b)]
    const recorded = [a, b].map(headline => format(headline.repeatability?.quotedPoints ?? NaN)).join(' ')
    const parts = Object.keys(runs[0]).map(split => tally.add(split, runs.map(run => run[split]), movedP90))
    const moved = `moved p90 ${format(movedP90)} points`
    console.log(`${files[i]} ${files[i + 1]}: ${moved}; recorded ${recorded}; ${parts.join('; ')}`)
  }
  console.log('')
  for (const line of tally.lines()) console.log(line)
}

runScript(module, { args: [2, Infinity], each: readableFile, run: main })
