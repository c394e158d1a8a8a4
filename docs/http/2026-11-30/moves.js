'use strict'
// How far each cell of two http runs moved (experiments/http/repeatability.js, the figures
// `node analyse.js A B` judges), with the 90th percentile and the largest move: the ratio to
// c-epoll's CPU per request, and CPU per request itself (docs/http.md, 2026-11-30).
//
//   node docs/http/2026-11-30/moves.js A/results.json[.gz] B/results.json[.gz]
const { httpRepeatability } = require('../../../experiments/http/repeatability')
const { nearestRank } = require('../../../lib/repeatability')
const { runScript, readableFile, readJson, need } = require('../../script-args')

const RESULTS = 'an http run\'s results.json (or .json.gz)'
// a run's http part (a results.json, or that part alone)
const load = file => {
  const results = readJson(file, RESULTS)
  // a results.json names its experiment (a stdio run's has cells of its own); the part alone not
  const http = results.experiment === undefined ? results : results.http
  need(http?.cells, file, 'http cells', RESULTS)
  return http
}

function main (files) {
  const judged = httpRepeatability(load(files[0]), load(files[1]))
  console.log(`${files[0]} against ${files[1]}`)
  for (const [part, label] of [['ratio', 'ratio to c-epoll\'s'], ['cpu', 'CPU per request']]) {
    const { cells, within, total } = judged[part]
    const moves = cells.map(cell => cell.movePercent)
    const p90 = nearestRank(moves, 0.9)
    console.log(`${label}: ${within} of ${total} within 5%, 90th percentile ${p90.toFixed(2)}%, ` +
      `largest ${Math.max(...moves).toFixed(2)}%`)
    for (const cell of cells) {
      const mark = cell.within ? '' : '  over 5%'
      const figures = `${cell.a.toFixed(3)} ${cell.b.toFixed(3)} ${cell.movePercent.toFixed(2)}%`
      console.log(`  ${cell.name.padEnd(36)} ${figures}${mark}`)
    }
  }
}

runScript(module, { args: [2, 2], each: readableFile, distinct: true, run: main })
