'use strict'
// Whether a fixed young generation steadies a V8 server's rounds: per run (results.json) and
// server, the deviation of the log of its server CPU per request over its kept rounds, of its
// ratio to C's in the same round, and its figure against C. Runs with and without
// DENO_V8_FLAGS=--min-semi-space-size=16 (docs/db.md says which is which).
// Usage: node docs/db/2026-11-30/semi-space.js RUN/results.json[.gz]...
const path = require('node:path')
const { runScript, readableFile, readJson, need } = require('../../script-args')

const REFERENCE = 'c-libpq-prepared-pipelined'
const RESULTS = 'a db run\'s results.json (or .json.gz)'
const deviation = values => {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1))
}
const percent = value => `${(100 * value).toFixed(1)}%`

// a run's cells, and C's among them (each run read before the first is reported)
function cellsOf (file) {
  const cells = need(readJson(file, RESULTS).db?.cells, file, 'db cells', RESULTS)
  const reference = cells.find(cell => cell.server === REFERENCE)
  return { cells, reference: need(reference, file, `cell of ${REFERENCE}`, RESULTS) }
}

function main (files) {
  const runs = files.map(cellsOf)
  for (const [i, file] of files.entries()) {
    const { cells, reference } = runs[i]
    const cpuOf = (cell, round) => cell.serverCpu[cell.rounds.indexOf(round)]
    console.log(`${path.basename(file).startsWith('results') ? path.basename(path.dirname(file)) : path.basename(file)}:`)
    for (const cell of cells.filter(each => each !== reference)) {
      const rounds = cell.rounds.filter(round => reference.rounds.includes(round))
      const ratios = rounds.map(round => Math.log(cpuOf(cell, round) / cpuOf(reference, round)))
      console.log(`  ${cell.server.padEnd(26)} ${String(cell.serverCpu.length).padStart(2)} rounds kept, ` +
        `own CPU per request ${percent(deviation(cell.serverCpu.map(Math.log)))}, ` +
        `its ratio to C ${percent(deviation(ratios))}, figure ${cell.serverVsReference?.estimate?.toFixed(2) ?? '-'}×`)
    }
  }
}

runScript(module, { args: [1, Infinity], each: readableFile, run: main })
