'use strict'
// How often lib/steady.js calls a server process "no steady state", or too short to classify
// and moving one way (either keeps its cell unquoted), when each moment of the host lands on
// it differently: http's default schedule gives a process its warm-up runs back to back (2,
// the second argument's default; 3 in the design tried and set aside on 2026-12-04 at midday),
// then its timed runs a round apart. Each run is a level times (1 + the moment's shift + the
// run's own noise), the warm-up's runs sharing one moment and each timed run its own. The level
// holds still, or steps by 5, 10 or 20% at the first timed run and holds there (the timed runs
// are then the process's level, which quoting them is right to give), or falls by 5% a run
// from the first run to the last (a process still moving, which quoting must not hide). Run
// with the classifier of a commit before and after a change to see what it costs and keeps.
//
//   node docs/http/2026-12-04-four/moments.js [trials, default 20000] [warm-up runs, default 2]
const { classify } = require('../../../lib/steady')
const { seededRandom, normalFrom } = require('../../../lib/stats')
const { runScript, wholeArgument, MAX_TRIALS } = require('../../script-args')

// [the moments' spread, each run's own], as coefficients of variation: noise alone, then
// moments that a process's runs back to back share
const NOISES = [[0, 0.03], [0, 0.05], [0.03, 0.01], [0.05, 0.01], [0.03, 0.03]]
const STEPS = [0, 0.05, 0.1, 0.2]
const DRIFT = -0.05

function main ([text = '20000', warmupText = '2']) {
  const trials = Number(text)
  const warmupRuns = Number(warmupText)
  const random = seededRandom(20261204)
  const normal = normalFrom(random)
  const share = count => `${(100 * count / trials).toFixed(1)}%`
  for (const timed of [2, 3, 4]) {
    console.log(`${warmupRuns} warm-up runs and ${timed} timed runs; a step that holds, or a drift of ` +
      `${DRIFT * 100}% a run: no steady state, too short and moving`)
    for (const [moment, own] of NOISES) {
      // level(run): the level a run is at, before the moment's shift and its own noise
      const tally = (label, level) => {
        let unsteady = 0
        let moving = 0
        for (let trial = 0; trial < trials; trial++) {
          const warmupMoment = moment * normal()
          const values = Array.from({ length: warmupRuns + timed }, (_, run) =>
            level(run) * (1 + (run < warmupRuns ? warmupMoment : moment * normal()) + own * normal()))
          const { kind, moving: way } = classify(values)
          if (kind === 'no steady state') unsteady++
          if (kind === null && way) moving++
        }
        return `${label}: ${share(unsteady)}, ${share(moving)}`
      }
      const cells = [
        ...STEPS.map(step => tally(`step ${step * 100}%`, run => run < warmupRuns ? 100 : 100 * (1 + step))),
        tally('drift', run => 100 * (1 + DRIFT * run))
      ]
      console.log(`  moments ${moment * 100}%, runs ${own * 100}%: ${cells.join('; ')}`)
    }
  }
}

runScript(module, {
  args: [0, 2],
  each: [
    text => wholeArgument(text, 'trials', 1, MAX_TRIALS),
    text => wholeArgument(text, 'warm-up runs', 1, 1000)
  ],
  run: main
})
