'use strict'
// Which figure over a ladder's processes holds best between two calls runs: each variant's rung
// against C's is, per process, its median over C's in turns with it; the run's figure is the
// median of those over the processes. Here the median against the mean, the Hodges-Lehmann
// estimate and the 20% trimmed mean, each rung's move between the runs, and how many held
// within 2% (the goal). Bun's no-op is bimodal across processes (docs/calls.md), which a mean
// would seem to suit.
// Usage: node docs/calls/2026-11-30/estimators.js RUN-A/results.json[.gz] RUN-B/results.json[.gz]
const { median } = require('../../../lib/stats')
const { runScript, readableFile, readJson, need, UsageError } = require('../../script-args')

const RESULTS = 'a calls run\'s results.json (or .json.gz)'
// a ladder with its rows, which is what is read of it
const load = file => {
  const ladder = need(readJson(file, RESULTS).ladder, file, 'calls ladder', RESULTS)
  need(Array.isArray(ladder.rows) ? ladder.rows : null, file, 'calls ladder rows', RESULTS)
  return ladder
}
const mean = values => values.reduce((sum, value) => sum + value, 0) / values.length
// the median of every pair's mean, each value with itself too (Hodges and Lehmann 1963)
function hodgesLehmann (values) {
  const averages = []
  values.forEach((x, i) => values.slice(i).forEach(y => averages.push((x + y) / 2)))
  return median(averages)
}
function trimmedMean (values, share = 0.2) {
  const sorted = [...values].sort((a, b) => a - b)
  const cut = Math.floor(sorted.length * share)
  return mean(sorted.slice(cut, sorted.length - cut))
}
const ESTIMATORS = { median, mean, 'Hodges-Lehmann': hodgesLehmann, '20% trimmed mean': trimmedMean }

// each rung's ratio per process, the variant's against its partner's (C's, in turns with it)
function processRatios (ladder) {
  const ratios = new Map()
  for (const row of ladder.rows) {
    if (!row.vsC || row.pairing !== 'slices') continue
    for (const rung of Object.keys(row.vsC)) {
      const partner = row.partnerByProcess[rung]
      const runs = Object.keys(row.byProcess[rung]).filter(run => run in partner)
      ratios.set(`${row.variant} ${rung}`, runs.map(run => row.byProcess[rung][run] / partner[run]))
    }
  }
  return ratios
}

function main (files) {
  const [a, b] = files.map(file => processRatios(load(file)))
  // rungs taken in turns with C, with 4 processes or more in both runs: none, and there is
  // nothing to say (a review: "0 of 0 within 2%, median move NaN%")
  const shared = [...a].filter(([key, values]) => values.length >= 4 && b.get(key)?.length >= 4)
  if (shared.length === 0) {
    throw new UsageError('the two runs share no rung taken in turns with C in 4 processes or more; ' +
      'give two calls runs of the default preset (--ladder-pairing slices)')
  }
  for (const [name, estimate] of Object.entries(ESTIMATORS)) {
    const moves = shared.map(([key, values]) => ({ key, move: Math.abs(estimate(b.get(key)) / estimate(values) - 1) }))
    const above = moves.filter(({ move }) => move > 0.02)
    const percent = value => `${(100 * value).toFixed(1)}%`
    console.log(`${name}: ${moves.length - above.length} of ${moves.length} within 2%, median move ` +
      `${percent(median(moves.map(({ move }) => move)))}, largest ` +
      `${percent(Math.max(...moves.map(({ move }) => move)))}; above 2%: ` +
      above.map(({ key, move }) => `${key} ${percent(move)}`).join(', '))
  }
}

runScript(module, { args: [2, 2], each: readableFile, distinct: true, run: main })
