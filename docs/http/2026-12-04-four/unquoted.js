'use strict'
// Which cells of http and db runs the lab's classifier as it is now (lib/steady.js) would
// leave unquoted, from each server process's stored sequence: per run, the count, and each such
// cell with its processes' classes and sequences; then how many processes of 4 values there
// were and what became of them. Run at two commits to see what a change to the classifier
// quotes. --classes adds to each run's line how many of its processes fell in each class.
//
//   node docs/http/2026-12-04-four/unquoted.js [--classes] RUN/results.json[.gz]...
const { runScript, readableFile, readJson, need } = require('../../script-args')
const { classify, cellSteadiness, unsteadyReason } = require('../../../lib/steady')

const RESULTS = 'an http or db run\'s results.json (or .json.gz)'

function main (files, { classes: countClasses = false }) {
  let cells = 0
  let unquoted = 0
  const fours = { processes: 0 }
  for (const file of files) {
    const results = readJson(file, RESULTS)
    const all = need(results.http?.cells ?? results.db?.cells, file, 'http or db cells', RESULTS)
    const lines = []
    const kinds = {}
    for (const cell of all.filter(entry => entry.processClasses?.length)) {
      cells++
      const classes = cell.processClasses.map(entry => ({ ...entry, ...classify(entry.sequence) }))
      for (const { kind } of classes) {
        const name = kind ?? 'too short'
        kinds[name] = (kinds[name] ?? 0) + 1
      }
      for (const entry of classes.filter(({ sequence }) => sequence.length === 4)) {
        fours.processes++
        const kind = entry.kind ?? (entry.moving ? `too short, ${entry.moving}` : 'too short')
        fours[kind] = (fours[kind] ?? 0) + 1
      }
      const steadiness = cellSteadiness(classes)
      if (steadiness.steady !== false) continue
      unquoted++
      const where = `${cell.server}, ${cell.mode ?? `/${cell.endpoint}`}, ${cell.connections} connections`
      const processes = classes.map(entry => `process ${entry.process + 1} ${entry.kind ?? 'too short'}` +
        `${entry.moving ? ` (${entry.moving})` : ''}: ${entry.sequence.map(value => value.toPrecision(3)).join(' ')}`)
      lines.push(`  ${where}: ${unsteadyReason(steadiness)}; ${processes.join('; ')}`)
    }
    const kindsText = Object.entries(kinds).map(([kind, count]) => `${kind} ${count}`).join(', ')
    console.log(`${file}: ${lines.length} cells unquoted${countClasses ? ` (processes: ${kindsText})` : ''}`)
    for (const line of lines) console.log(line)
  }
  console.log(`${unquoted} of ${cells} cells unquoted; the processes of 4 values: ${JSON.stringify(fours)}`)
}

runScript(module, {
  args: [1, Infinity],
  each: readableFile,
  flags: { classes: { type: 'boolean' } },
  run: main
})
