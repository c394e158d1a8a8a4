'use strict'
// How often noise alone passes lib/steady.js's drift rule: sequences of independent normal
// values (spread as a coefficient of variation), classified; the share in which the rule
// fired (a drift that never settled, or one that settled and so named a warm-up or a
// slowdown), and the share that ends without a steady state for any reason.
// Usage: node docs/db/2026-11-30/drift-noise.js [trials, default 20000]
const { classify } = require('../../../lib/steady')
const { seededRandom, normalFrom } = require('../../../lib/stats')
const { runScript, wholeArgument, MAX_TRIALS } = require('../../script-args')

function main ([text = '20000']) {
  const trials = Number(text)
  const random = seededRandom(20261130)
  const normal = normalFrom(random)
  for (const runs of [6, 7, 8, 9]) {
    const cells = [0.03, 0.05, 0.08, 0.12].map(spread => {
      let unsettled = 0
      let settled = 0
      let unsteady = 0
      for (let trial = 0; trial < trials; trial++) {
        const values = Array.from({ length: runs }, () => 100 * (1 + spread * normal()))
        const classes = classify(values)
        if (classes.trend) unsettled++
        if (classes.settled) settled++
        if (classes.kind === 'no steady state') unsteady++
      }
      const share = count => `${(100 * count / trials).toFixed(1)}%`
      return `spread ${spread * 100}%: drift ${share(unsettled)} never settled, ${share(settled)} settled; ` +
        `${share(unsteady)} no steady state`
    })
    console.log(`${runs} runs (${runs - 1} tested): ${cells.join('; ')}`)
  }
}

runScript(module, { args: [0, 1], each: [text => wholeArgument(text, 'trials', 1, MAX_TRIALS)], run: main })
