'use strict'
// As if a run had two processes a cell: two runs' figures for each cell (the geometric mean of
// their ratios to C) against two other runs', and how many cells agree within 5%.
// Usage: node docs/db/2026-11-30/combine.js A/results.json+B/results.json C/results.json+D/results.json
const { runScript, readableFile, readJson, need } = require('../../script-args')

const RESULTS = 'a db run\'s results.json (or .json.gz)'
const figuresOf = file => new Map(need(readJson(file, RESULTS).db?.cells, file, 'db cells', RESULTS)
  .filter(cell => cell.serverVsReference?.estimate)
  .map(cell => [`/${cell.endpoint} ${cell.server}`, Math.log(cell.serverVsReference.estimate)]))
function combined (files) {
  const runs = files.map(figuresOf)
  const out = new Map()
  for (const key of runs[0].keys()) {
    const logs = runs.map(run => run.get(key))
    if (logs.some(value => value === undefined)) continue
    out.set(key, logs.reduce((sum, value) => sum + value, 0) / logs.length)
  }
  return out
}

function main (sides) {
  const [a, b] = sides.map(side => combined(side.split('+')))
  const moves = [...a].filter(([key]) => b.has(key)).map(([key, value]) => Math.abs(b.get(key) - value))
  console.log(`${moves.filter(move => move <= Math.log(1.05)).length} of ${moves.length} cells within 5%`)
}

runScript(module, { args: [2, 2], each: side => side.split('+').forEach(readableFile), run: main })
