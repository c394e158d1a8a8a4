'use strict'
// How much of a db pair's moves is one shift of a whole endpoint: per endpoint, the median
// move of the servers' ratios to C between two runs, and how many stay within 5% before
// and after it is taken away.
// Usage: node docs/db/2026-11-30/common.js A/results.json B/results.json
const { median } = require('../../../lib/stats')
const { runScript, readableFile, readJson, need } = require('../../script-args')

const RESULTS = 'a db run\'s results.json (or .json.gz)'
const ratios = file => new Map(need(readJson(file, RESULTS).db?.cells, file, 'db cells', RESULTS)
  .filter(cell => cell.serverVsReference?.estimate)
  .map(cell => [`${cell.endpoint}\t${cell.server}`, cell.serverVsReference.estimate]))

function main (files) {
  const [a, b] = files.map(ratios)
  let before = 0
  let after = 0
  let cells = 0
  for (const endpoint of ['db', 'queries', 'fortunes']) {
    const keys = [...a.keys()].filter(key => key.startsWith(`${endpoint}\t`) && b.has(key))
    const moves = keys.map(key => b.get(key) / a.get(key) - 1)
    const common = median(moves)
    const within = list => list.filter(move => Math.abs(move) <= 0.05).length
    const rest = moves.map(move => move - common)
    console.log(`/${endpoint}: ${keys.length} cells, common shift ${(100 * common).toFixed(1)}%, within 5%: ` +
      `${within(moves)}, after the shift is taken away: ${within(rest)}`)
    before += within(moves)
    after += within(rest)
    cells += keys.length
  }
  console.log(`all: ${before} of ${cells} within 5%, ${after} after each endpoint's shift is taken away`)
}

runScript(module, { args: [2, 2], each: readableFile, distinct: true, run: main })
