'use strict'
// The server processes whose class the drift rule of 2026-11-30 changes: each process's
// sequence as a run's results.json recorded it, classified again with the current
// lib/steady.js.
// Usage: node docs/db/2026-11-30/reclass.js RUN/results.json ...
const path = require('node:path')
const { classify } = require('../../../lib/steady')
const { runScript, readableFile, readJson, need } = require('../../script-args')

const RESULTS = 'a db or http run\'s results.json (or .json.gz)'
const cellsOf = file => {
  const results = readJson(file, RESULTS)
  return need((results.db ?? results.http)?.cells, file, 'db or http cells', RESULTS)
}

function main (files) {
  let changed = 0
  let total = 0
  const runs = files.map(cellsOf)
  for (const [i, file] of files.entries()) {
    for (const cell of runs[i]) {
      for (const entry of cell.processClasses ?? []) {
        total++
        const now = classify(entry.sequence)
        if (now.kind === entry.kind) continue
        changed++
        const { trend } = now
        const drift = trend ? ` (${trend.direction} ${(100 * trend.share).toFixed(0)}%, p ${trend.p.toFixed(3)})` : ''
        const where = `${path.basename(path.dirname(file))} ${cell.server ?? cell.program} ${cell.endpoint ?? cell.mode}`
        const sequence = entry.sequence.map(value => value.toFixed(1)).join(' ')
        console.log(`${where}: ${entry.kind} -> ${now.kind}${drift}: ${sequence}`)
      }
    }
  }
  console.log(`${changed} of ${total} processes change class`)
}

runScript(module, { args: [1, Infinity], each: readableFile, run: main })
