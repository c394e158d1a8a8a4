'use strict'
// Whether a db pair moved as far as its runs' own rounds foretell: per cell, the spread of one
// round's ratio to C within each run (the standard deviation of its log over the rounds both
// kept), the move of the cell's figure (the median of those ratios) that this spread alone
// would give between two runs, and the move seen; the rounds a cell that spreads as the median
// cell does would need to stay within 5% nine times in ten; and how the servers' own CPU per
// request spreads over their rounds, C's and the others'.
// Usage: node docs/db/2026-11-30/round-spread.js A/results.json B/results.json
const { median, normalFrom } = require('../../../lib/stats')
const { runScript, readableFile, readJson, need } = require('../../script-args')

const REFERENCE = 'c-libpq-prepared-pipelined'
const RESULTS = 'a db run\'s results.json (or .json.gz)'
const keyOf = (cell, server = cell.server) => `${cell.endpoint}\t${cell.connections}\t${server}`
const cellsOf = file => new Map(need(readJson(file, RESULTS).db?.cells, file, 'db cells', RESULTS)
  .map(cell => [keyOf(cell), cell]))
const deviation = values => {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1))
}
// a round's log ratio as the figure pairs them: against C's run in turns with it (placement
// interleaved), else against C's run of the same round
function logRatios (cells, cell) {
  if (cell.inTurns) return cell.serverCpu.map((cpu, i) => Math.log(cpu / cell.partnerServerCpu[i]))
  const reference = cells.get(keyOf(cell, REFERENCE))
  const cpuOf = (row, round) => row.serverCpu[row.rounds.indexOf(round)]
  return cell.rounds.filter(round => reference.rounds.includes(round))
    .map(round => Math.log(cpuOf(cell, round) / cpuOf(reference, round)))
}

// The deviation of the median of n standard normal values, by simulation with a fixed seed
// (the large-sample 1.2533 / √n is 15% too high at n = 4).
function medianDeviation (n, draws = 40000) {
  let state = 12345
  const uniform = () => {
    state = (state + 0x6D2B79F5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const normal = normalFrom(uniform)
  const medians = Array.from({ length: draws }, () => median(Array.from({ length: n }, normal)))
  return deviation(medians)
}
const medianDeviations = new Map()
const medianDeviationOf = n => {
  if (!medianDeviations.has(n)) medianDeviations.set(n, medianDeviation(n))
  return medianDeviations.get(n)
}

function main (files) {
  const [a, b] = files.map(cellsOf)
  const rows = []
  for (const [key, first] of a) {
    const second = b.get(key)
    if (first.server === REFERENCE || !second) continue
    if (!first.serverVsReference?.estimate || !second.serverVsReference?.estimate) continue
    const [ratiosA, ratiosB] = [logRatios(a, first), logRatios(b, second)]
    if (ratiosA.length < 2 || ratiosB.length < 2) continue
    const spread = Math.sqrt((deviation(ratiosA) ** 2 + deviation(ratiosB) ** 2) / 2)
    // the median of |a normal| is 0.6745 of its deviation
    const foretold = 0.6745 * spread *
      Math.hypot(medianDeviationOf(ratiosA.length), medianDeviationOf(ratiosB.length))
    const moved = Math.abs(Math.log(second.serverVsReference.estimate / first.serverVsReference.estimate))
    rows.push({ spread, foretold, moved })
  }
  const percent = value => `${(100 * value).toFixed(1)}%`
  const spread = median(rows.map(row => row.spread))
  // within 5% nine times in ten: a pair's difference with a deviation of ln(1.05) / 1.645
  const allowed = Math.log(1.05) / 1.645
  let rounds = 2
  while (Math.SQRT2 * spread * medianDeviationOf(rounds) > allowed && rounds < 100) rounds++
  console.log(`${rows.length} cells with a ratio to C in both runs and 2 rounds or more in each`)
  console.log(`one round's ratio to C within a run: a deviation of ${percent(spread)} (the median cell)`)
  console.log(`the figure's move between the runs: median ${percent(median(rows.map(row => row.moved)))}, ` +
    `foretold by the rounds' spread alone ${percent(median(rows.map(row => row.foretold)))}`)
  console.log(`rounds a cell at that spread needs to stay within 5% nine times in ten: ${rounds}`)
  // the servers' own CPU per request over their kept rounds, the deviation of its log
  const ownSpreads = (cells, wanted) => [...cells.values()].filter(cell => wanted(cell.server))
    .filter(cell => cell.serverCpu.length >= 2).map(cell => deviation(cell.serverCpu.map(Math.log)))
  for (const [name, cells] of [['A', a], ['B', b]]) {
    const own = ownSpreads(cells, server => server === REFERENCE)
    const others = ownSpreads(cells, server => server !== REFERENCE)
    console.log(`${name}: the server's own CPU per request over its rounds, a deviation of ` +
      `${own.map(percent).join(', ')} for ${REFERENCE} (by endpoint); the others' ` +
      `${percent(Math.min(...others))} to ${percent(Math.max(...others))}, median ${percent(median(others))}`)
  }
}

runScript(module, { args: [2, 2], each: readableFile, distinct: true, run: main })
