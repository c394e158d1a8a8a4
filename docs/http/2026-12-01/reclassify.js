'use strict'
// Each server process of http and db runs classified again by the lab's classifier as it is
// now (lib/steady.js), against the class its run stored when it was derived: the processes
// whose class a change to the classifier moves, with their sequences.
//
//   node docs/http/2026-12-01/reclassify.js RUN/results.json[.gz]...
const { runScript, readableFile, readJson, need } = require('../../script-args')
const { classify } = require('../../../lib/steady')

const RESULTS = 'an http or db run\'s results.json (or .json.gz)'

function main (files) {
  let processes = 0
  let moved = 0
  for (const file of files) {
    const results = readJson(file, RESULTS)
    const cells = need(results.http?.cells ?? results.db?.cells, file, 'http or db cells', RESULTS)
    const lines = []
    for (const cell of cells) {
      for (const entry of cell.processClasses ?? []) {
        processes++
        const now = classify(entry.sequence).kind
        if (now === entry.kind) continue
        moved++
        const where = `${cell.server}, ${cell.mode ?? `/${cell.endpoint}`}, process ${entry.process + 1}`
        const sequence = entry.sequence.map(value => value.toPrecision(3)).join(' ')
        lines.push(`  ${where}: ${entry.kind ?? 'too short'} then, ${now ?? 'too short'} now (${sequence})`)
      }
    }
    console.log(`${file}: ${lines.length} of its processes change class`)
    for (const line of lines) console.log(line)
  }
  console.log(`${moved} of ${processes} processes change class`)
}

runScript(module, { args: [1, Infinity], each: readableFile, run: main })
