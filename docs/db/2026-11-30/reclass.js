'use strict'
// The server processes whose class the drift rule of 2026-11-30 changes: each process's
// sequence as a run's results.json recorded it, classified again with the current
// lib/steady.js.
// Usage: node docs/db/2026-11-30/reclass.js RUN/results.json ...
const fs = require('node:fs')
const path = require('node:path')
const { classify } = require('../../../lib/steady')
const { runScript, readableFile } = require('../../script-args')

function main (files) {
  let changed = 0
  let total = 0
  for (const file of files) {
    const results = JSON.parse(fs.readFileSync(file, 'utf8'))
    const experiment = results.db ?? results.http
    for (const cell of experiment?.cells ?? []) {
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
