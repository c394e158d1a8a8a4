'use strict'
// Whether db's pairs would agree better without the runs timed while V8 still compiled. Each
// log's timed runs are marked as the lab marks them since 2026-12-01 (experiments/http/measure.js
// compilesRecord, replayed by compiling-marks.js), then every cell summarised twice
// (experiments/db/summary.js): with every run, as the report quotes it, and without the
// marked runs. For each pair of logs (first and second, third and fourth, ...), how many cells'
// server CPU per request against C's moved by at most 5% between the two runs, over all
// cells, V8's servers' (Node, Deno, the host), and those marked in either run.
//
//   node docs/db/2026-12-01/drop-compiling.js A/all.jsonl[.gz] B/all.jsonl[.gz] [C D ...]
const path = require('node:path')
const { runScript, readableFile, readJson, readJsonLines, UsageError } = require('../../script-args')
const { markCompiling } = require('../../http/2026-12-01/compiling-marks')
const { summariseDb } = require('../../../experiments/db/summary')
const { dataPoints } = require('../../../lib/run-log')
const { PHASE } = require('../../../experiments/db/measure')

const LOG = 'a db run\'s all.jsonl (or .jsonl.gz) of 2026-12-01 or later, its context.json beside it'
const V8 = new Set(['node', 'deno', 'just'])

// The log's data points, each timed run with `compiling` as the lab would have recorded it
// (compiling-marks.js, over every record in the log's order, superseded tries too).
function marked (file) {
  const records = dataPoints(markCompiling(readJsonLines(file, LOG)))
  if (!records.some(record => record.phase === PHASE && typeof record.compiling === 'boolean')) {
    throw new UsageError(`${file} holds no db server whose compiles were counted; give ${LOG}`)
  }
  return records
}

// The context.json beside a log (db-dN.jsonl.gz beside db-dN-context.json, or in its folder).
function contextOf (file) {
  const beside = file.replace(/(?:\/all)?\.jsonl(?:\.gz)?$/,
    ending => (ending.startsWith('/all') ? '/context.json' : '-context.json'))
  return readJson(beside, `the context.json of ${path.basename(file)}`)
}

const cellsOf = (records, context, drop) => new Map(
  summariseDb(drop ? records.filter(record => record.compiling !== true) : records, context).cells
    .filter(cell => cell.serverVsReference?.estimate)
    .map(cell => [`/${cell.endpoint} ${cell.connections} ${cell.server}`, cell]))

// `marked`: the cells marked in either run with every run kept
function compare (a, b, marked) {
  const tally = { all: [0, 0], v8: [0, 0], marked: [0, 0] }
  for (const [key, first] of a) {
    const second = b.get(key)
    if (!second) continue
    const within = Math.abs(second.serverVsReference.estimate / first.serverVsReference.estimate - 1) <= 0.05
    const count = name => { tally[name][0] += within ? 1 : 0; tally[name][1]++ }
    count('all')
    if (V8.has(first.runtime)) count('v8')
    if (marked.has(key)) count('marked')
  }
  const text = ([within, of]) => `${within} of ${of}`
  return `${text(tally.all)} cells within 5% (V8's ${text(tally.v8)}, marked in either run ${text(tally.marked)})`
}

function main (files) {
  if (files.length % 2) throw new UsageError(`give the logs in pairs, not ${files.length}`)
  const runs = files.map(file => ({ file, records: marked(file), context: contextOf(file) }))
  for (let i = 0; i < runs.length; i += 2) {
    const [a, b] = [runs[i], runs[i + 1]]
    const names = `${path.basename(a.file)} and ${path.basename(b.file)}`
    const [first, second] = [a, b].map(run => cellsOf(run.records, run.context, false))
    const marked = new Set([...first, ...second]
      .filter(([, cell]) => cell.flags?.includes('compiling')).map(([key]) => key))
    const every = compare(first, second, marked)
    const kept = compare(cellsOf(a.records, a.context, true), cellsOf(b.records, b.context, true), marked)
    console.log(`${names}: every run: ${every}; without the marked runs: ${kept}`)
  }
}

runScript(module, { args: [2, Infinity], each: readableFile, run: main })
