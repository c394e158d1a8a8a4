'use strict'
// Each variant's 256-byte read against C's in each calls run given (its results.json, or
// .json.gz): the figures README quotes for the pair c5 and c6.
//   node docs/calls/2026-12-06-ready/read-ratios.js RESULTS...
const { runScript, readableFile, readJson, need } = require('../../script-args')

const RESULTS = 'a calls run\'s results.json (or .json.gz)'

function main (files) {
  const ladders = files.map(file => need(readJson(file, RESULTS).ladder?.rows, file, 'calls ladder rows', RESULTS))
  console.log(`the 256-byte read against C's: ${files.join(', ')}`)
  for (const row of ladders[0].filter(each => each.vsC?.['read-256'])) {
    const ratios = ladders.map(rows => rows.find(each => each.variant === row.variant)?.vsC?.['read-256']?.estimate)
    console.log(`${row.variant.padEnd(14)} ${ratios.map(ratio => ratio ? `${ratio.toFixed(3)}×` : 'none').join('  ')}`)
  }
}

runScript(module, { args: [1, Infinity], each: readableFile, run: main })
