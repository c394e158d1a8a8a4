'use strict'
// How far two runs' shares of C moved, in points, cell by cell: how many within 2, the median,
// the 90th percentile (nearest rank, as the runs take theirs) and the largest.
//   node docs/reproducibility/2026-11-30-amd-noisy/pair-moves.js A/results.json B/results.json
// (each a run's results.json, or .json.gz)
const { median } = require('../../../lib/stats')
const { runScript, readableFile, readJson, need } = require('../../script-args')

const RESULTS = 'a stdio run\'s results.json (or .json.gz)'
const cellsOf = file => need(readJson(file, RESULTS).headline?.cells, file, 'stdio cells', RESULTS)

function main ([fileA, fileB]) {
  const [a, b] = [fileA, fileB].map(cellsOf)
  const moves = []
  for (const cell of a.filter(each => each.program !== 'c' && each.shareOfC)) {
    const other = b.find(each => each.program === cell.program && each.blockSize === cell.blockSize)
    if (other?.shareOfC) moves.push(100 * Math.abs(cell.shareOfC.estimate - other.shareOfC.estimate))
  }
  moves.sort((x, y) => x - y)
  const p90 = moves[Math.ceil(0.9 * moves.length) - 1]
  console.log(`${moves.filter(move => move <= 2).length} of ${moves.length} within 2 points; median ` +
    `${median(moves).toFixed(2)}, 90th percentile ${p90.toFixed(2)}, largest ${moves[moves.length - 1].toFixed(2)}`)
}

runScript(module, { args: [2, 2], each: readableFile, distinct: true, run: main })
