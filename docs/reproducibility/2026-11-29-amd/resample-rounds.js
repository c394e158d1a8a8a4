'use strict'
// Would fewer cost rounds keep the repeatability goal? Draws k of each run's rounds (without
// replacement), 2,000 times, and counts the pairs of draws whose medians of each cell's
// round-by-round share of C kept every share within 2 points, and those that met the lab's
// goal (experiments/stdio/cost.js GOAL: all but one cell in 30 within 2 points, none over 3).
// RUN_A and RUN_B are the runs' folders.
//   node docs/reproducibility/2026-11-29-amd/resample-rounds.js RUN_A RUN_B
const path = require('node:path')
const { median, seededShuffle } = require('../../../lib/stats')
const { GOAL } = require('../../../experiments/stdio/cost')
const { runScript, folderWith, readJson, need } = require('../../script-args')

const RUN = 'a stdio run\'s folder'
const cellsOf = dir => {
  const file = path.join(dir, 'results.json')
  return need(readJson(file, RUN).headline?.cells, file, 'stdio cells', RUN)
}

function main (dirs) {
  const [a, b] = dirs.map(cellsOf)
  const key = cell => `${cell.program}@${cell.blockSize}`
  const inB = new Map(b.map(cell => [key(cell), cell]))
  const sharesOf = cell => cell.byRound.map(round => round.shareOfC).filter(share => share !== null)
  const pairs = a.filter(cell => cell.program !== 'c' && inB.has(key(cell)))
    .map(cell => ({ a: sharesOf(cell), b: sharesOf(inB.get(key(cell))) }))
    .filter(pair => pair.a.length && pair.b.length)

  // a seeded shuffle, so that the output repeats
  const shuffle = seededShuffle('resample-rounds')
  const draw = (values, k) => shuffle(values).slice(0, k)

  console.log(`# node docs/reproducibility/2026-11-29-amd/resample-rounds.js ${dirs.join(' ')}`)
  const TRIALS = 2000
  const allowed = Math.floor(pairs.length / GOAL.cellsPerAllowance)
  console.log(`${pairs.length} cells: the goal allows ${allowed} over ${GOAL.points} points, none over ${GOAL.never}`)
  for (const k of [6, 8, 10, 12, 14, 16, 20]) {
    const trials = k === 20 ? 1 : TRIALS
    let every = 0
    let goal = 0
    for (let trial = 0; trial < trials; trial++) {
      const moves = pairs.map(pair => Math.abs(median(draw(pair.a, k)) - median(draw(pair.b, k))) * 100)
      const above = moves.filter(move => move > GOAL.points).length
      if (above === 0) every++
      if (above <= allowed && moves.every(move => move <= GOAL.never)) goal++
    }
    const percent = count => `${(100 * count / trials).toFixed(1)}%`
    console.log(`${k} rounds: every share within ${GOAL.points} points in ${percent(every)} of pairs, ` +
      `the goal met in ${percent(goal)}`)
  }
}

runScript(module, { args: [2, 2], each: folderWith(['results.json'], RUN), distinct: true, run: main })
