'use strict'
// How often noise alone passes lib/steady.js's drift rule: sequences of independent normal
// values (spread as a coefficient of variation), classified; the share whose last segment
// is called drifting, and the share that ends without a steady state for any reason.
// Usage: node docs/db/2026-11-30/drift-noise.js [trials, default 20000]
const { classify } = require('../../../lib/steady')
const { seededRandom } = require('../../../lib/stats')

const trials = Number(process.argv[2] ?? 20000)
const random = seededRandom(20261130)
const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
for (const runs of [6, 7, 8, 9]) {
  const cells = [0.03, 0.05, 0.08, 0.12].map(spread => {
    let drifting = 0
    let unsteady = 0
    for (let trial = 0; trial < trials; trial++) {
      const { kind, trend } = classify(Array.from({ length: runs }, () => 100 * (1 + spread * normal())))
      if (trend) drifting++
      if (kind === 'no steady state') unsteady++
    }
    return `spread ${spread * 100}%: ${(100 * drifting / trials).toFixed(1)}% drifting, ` +
      `${(100 * unsteady / trials).toFixed(1)}% no steady state`
  })
  console.log(`${runs} runs (${runs - 1} tested): ${cells.join('; ')}`)
}
