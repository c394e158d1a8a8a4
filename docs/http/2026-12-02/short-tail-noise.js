'use strict'
// How often noise alone makes lib/steady.js call a process "no steady state" or leave it too
// short to classify, at the lengths http's and db's processes have (4 to 8 values): runs of
// independent normal noise (spread as a coefficient of variation) at one level, after a
// warm-up of 0, 1 or 2 runs at 1.5 times it. Run with the classifier of a commit before and
// after a change to see what the change costs on noise.
//
//   node docs/http/2026-12-02/short-tail-noise.js [trials, default 20000]
const { classify } = require('../../../lib/steady')
const { seededRandom, normalFrom } = require('../../../lib/stats')
const { runScript, wholeArgument, MAX_TRIALS } = require('../../script-args')

function main ([text = '20000']) {
  const trials = Number(text)
  const random = seededRandom(20261202)
  const normal = normalFrom(random)
  const share = count => `${(100 * count / trials).toFixed(1)}%`
  for (const runs of [4, 6, 7, 8]) {
    for (const warm of [0, 1, 2]) {
      const cells = [0.03, 0.05, 0.08, 0.12].map(spread => {
        let unsteady = 0
        let untold = 0
        for (let trial = 0; trial < trials; trial++) {
          const values = Array.from({ length: runs }, (_, run) => (run < warm ? 150 : 100) * (1 + spread * normal()))
          const { kind } = classify(values)
          if (kind === 'no steady state') unsteady++
          if (kind === null) untold++
        }
        return `${spread * 100}%: ${share(unsteady)}, ${share(untold)}`
      })
      console.log(`${runs} runs, ${warm} at 1.5× first; spread: no steady state, too short: ${cells.join('; ')}`)
    }
  }
}

runScript(module, { args: [0, 1], each: [text => wholeArgument(text, 'trials', 1, MAX_TRIALS)], run: main })
