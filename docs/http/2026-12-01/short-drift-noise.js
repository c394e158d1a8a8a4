'use strict'
// How often noise alone makes lib/steady.js call a 5-run process "no steady state": a first
// run (the process's start) at 1, 1.5 or 2 times the level, then 4 runs of independent
// normal noise (spread as a coefficient of variation) at the level; the share classified
// no steady state, and the share left too short to classify (lib/steady.js movingUntested).
//
//   node docs/http/2026-12-01/short-drift-noise.js [trials, default 20000]
const { classify } = require('../../../lib/steady')
const { seededRandom, normalFrom } = require('../../../lib/stats')
const { runScript, wholeArgument, MAX_TRIALS } = require('../../script-args')

function main ([text = '20000']) {
  const trials = Number(text)
  const random = seededRandom(20261201)
  const normal = normalFrom(random)
  for (const start of [1, 1.5, 2]) {
    const cells = [0.03, 0.05, 0.08, 0.12].map(spread => {
      let unsteady = 0
      let untold = 0
      for (let trial = 0; trial < trials; trial++) {
        const values = [100 * start * (1 + spread * normal())]
        for (let run = 1; run < 5; run++) values.push(100 * (1 + spread * normal()))
        const classes = classify(values)
        if (classes.kind === 'no steady state') unsteady++
        if (classes.kind === null) untold++
      }
      const share = count => `${(100 * count / trials).toFixed(1)}%`
      return `spread ${spread * 100}%: ${share(unsteady)} no steady state, ${share(untold)} too short to classify`
    })
    console.log(`first run ${start}× the level: ${cells.join('; ')}`)
  }
}

runScript(module, { args: [0, 1], each: [text => wholeArgument(text, 'trials', 1, MAX_TRIALS)], run: main })
