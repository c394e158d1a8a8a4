'use strict'
// How much a server process's figure moves from one run to the next in http runs: for each
// process classified by its ratio to c-epoll's taken in turns (basis 'ratio'), its noise as
// lib/steady.js takes it (noiseOf: the successive differences' median, scaled to a standard
// deviation) over its median; the quartiles and the 90th percentile, by run and over all.
//
//   node docs/http/2026-12-02/ratio-spread.js RUN/results.json[.gz]...
const { runScript, readableFile, readJson, need } = require('../../script-args')
const { noiseOf } = require('../../../lib/steady')
const { median } = require('../../../lib/stats')

const RESULTS = 'an http run\'s results.json (or .json.gz)'

const quantiles = values => {
  const sorted = [...values].sort((a, b) => a - b)
  return [0.25, 0.5, 0.75, 0.9]
    .map(q => `${(100 * sorted[Math.floor(q * (sorted.length - 1))]).toFixed(1)}%`).join(', ')
}

function main (files) {
  const all = []
  for (const file of files) {
    const cells = need(readJson(file, RESULTS).http?.cells, file, 'http cells', RESULTS)
    const spreads = cells.flatMap(cell => (cell.processClasses ?? [])
      .filter(entry => entry.basis === 'ratio')
      .map(entry => noiseOf(entry.sequence) / Math.abs(median(entry.sequence))))
    all.push(...spreads)
    const spread = spreads.length ? quantiles(spreads) : '-'
    console.log(`${file}: ${spreads.length} processes; quartiles and 90th percentile ${spread}`)
  }
  console.log(`all: ${all.length} processes; quartiles and 90th percentile ${all.length ? quantiles(all) : '-'}`)
}

runScript(module, { args: [1, Infinity], each: readableFile, run: main })
