'use strict'
// Whether a db pair moved by more than its runs' own rounds foretell: per cell, the spread of
// one round's ratio to C within each run (the standard deviation of its log over the rounds),
// the move of the cell's figure (the median of its rounds' ratios) that this spread alone
// would give between two runs, and the move seen. Also the rounds a cell would need for 90%
// of cells to stay within 5% if that spread were all.
// Usage: node docs/db/2026-11-30/round-spread.js A/results.json B/results.json
const fs = require('node:fs')
const { median } = require('../../../lib/stats')

const REFERENCE = 'c-libpq-prepared-pipelined'
const cellsOf = file => new Map(JSON.parse(fs.readFileSync(file, 'utf8')).db.cells
  .map(cell => [`${cell.endpoint}\t${cell.server}`, cell]))
const [a, b] = process.argv.slice(2).map(cellsOf)
const deviation = values => {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1))
}
// a round's log ratio: the server's run against C's run of the same round and endpoint
const logRatios = (cells, cell) => {
  const reference = cells.get(`${cell.endpoint}\t${REFERENCE}`)
  return cell.serverCpu.map((cpu, round) => Math.log(cpu / reference.serverCpu[round]))
}
// the median of n normal values has 1.2533 times the mean's deviation; two runs' difference
// √2 times one's; the median of |a normal| is 0.6745 of its deviation
const MEDIAN_EFFICIENCY = 1.2533
const rows = []
for (const [key, first] of a) {
  const second = b.get(key)
  if (first.server === REFERENCE || !second) continue
  if (!first.serverVsReference?.estimate || !second.serverVsReference?.estimate) continue
  const spread = Math.sqrt((deviation(logRatios(a, first)) ** 2 + deviation(logRatios(b, second)) ** 2) / 2)
  const rounds = Math.min(first.serverCpu.length, second.serverCpu.length)
  rows.push({
    spread,
    foretold: 0.6745 * Math.SQRT2 * MEDIAN_EFFICIENCY * spread / Math.sqrt(rounds),
    moved: Math.abs(Math.log(second.serverVsReference.estimate / first.serverVsReference.estimate))
  })
}
const percent = value => `${(100 * value).toFixed(1)}%`
const spread = median(rows.map(row => row.spread))
// 90% within 5%: a pair's difference with a deviation of ln(1.05) / 1.645
const oneRun = Math.log(1.05) / 1.645 / Math.SQRT2
console.log(`${rows.length} cells quoted in both runs`)
console.log(`one round's ratio to C within a run: a deviation of ${percent(spread)} (the median cell)`)
console.log(`the figure's move between the runs: median ${percent(median(rows.map(row => row.moved)))}, ` +
  `foretold by the rounds' spread alone ${percent(median(rows.map(row => row.foretold)))}`)
console.log(`rounds a cell needs for 90% within 5% at that spread: ${Math.ceil((MEDIAN_EFFICIENCY * spread / oneRun) ** 2)}`)
