'use strict'
// Whether the runs the report marks as timed while V8 still compiled (compiling-marks.js,
// the lab's rule replayed) cost more than the same process's other timed runs. For each V8
// server process with both kinds of timed run: the median figure of its marked runs over
// the median of its unmarked ones, the figure being what the cell quotes, the server's CPU per
// request over the reference's beside it where the runs took turns (http's and db's default
// placement), else its CPU per request. Then, over the processes, the median of those ratios
// and how many were above 1 (a sign test's two-sided p, the processes independent).
//
//   node docs/http/2026-12-01/marked-cost.js RUN/all.jsonl[.gz]...
const { runScript, readableFile, readJsonLines, UsageError } = require('../../script-args')
const { dataPoints } = require('../../../lib/run-log')
const { median, signTest } = require('../../../lib/stats')
const { markCompiling, processKey } = require('./compiling-marks')

const LOG = 'an http or db run\'s all.jsonl (or .jsonl.gz) of 2026-12-01 or later'
const TIMED = new Set(['http', 'db'])

const cpuOf = (server, wrk) => server.cpuNs / wrk.requests
// A run in turns is set against the reference's beside it; one whose partner was not read has
// no figure (null), rather than a CPU per request among the ratios of its process.
function figureOf (run) {
  if (!run.partner) return cpuOf(run.server, run.wrk)
  return run.partner.server && run.partner.wrk?.requests > 0
    ? cpuOf(run.server, run.wrk) / cpuOf(run.partner.server, run.partner.wrk)
    : null
}

function main (files) {
  // per process with both kinds of run: the median figure of its marked runs, and of the others
  const pairs = { marked: [], unmarked: [] }
  for (const file of files) {
    const processes = new Map()
    for (const run of dataPoints(markCompiling(readJsonLines(file, LOG)))) {
      if (!run.ok || !TIMED.has(run.phase) || typeof run.compiling !== 'boolean') continue
      const figure = figureOf(run)
      if (figure === null) continue
      const key = processKey(run)
      if (!processes.has(key)) processes.set(key, { first: run, marked: [], unmarked: [] })
      processes.get(key)[run.compiling ? 'marked' : 'unmarked'].push(figure)
    }
    if (processes.size === 0) {
      throw new UsageError(`${file} holds no timed run whose compiles were counted; give ${LOG}`)
    }
    for (const { first, marked, unmarked } of processes.values()) {
      if (!marked.length || !unmarked.length) continue
      const [markedMedian, unmarkedMedian] = [median(marked), median(unmarked)]
      pairs.marked.push(markedMedian)
      pairs.unmarked.push(unmarkedMedian)
      const ratio = markedMedian / unmarkedMedian
      const where = [first.program, first.mode, first.endpoint].filter(Boolean).join(' ')
      console.log(`${file} ${where}, process ${(first.process ?? 0) + 1}: ${marked.length} marked, ` +
        `${unmarked.length} not; marked over not ${ratio.toFixed(3)}`)
    }
  }
  const ratios = pairs.marked.map((value, i) => value / pairs.unmarked[i])
  if (ratios.length === 0) {
    console.log('no process had both marked and unmarked timed runs')
    return
  }
  // a tie says neither, and the sign test leaves it out
  const { above, below, p } = signTest(pairs.marked, pairs.unmarked)
  const range = `${Math.min(...ratios).toFixed(3)} to ${Math.max(...ratios).toFixed(3)}`
  console.log(`${ratios.length} processes with both: marked runs' figure over the others' median ` +
    `${median(ratios).toFixed(3)} (from ${range}); ${above} above 1, ${below} below ` +
    `(sign test, two-sided p ${p.toFixed(3)})`)
}

runScript(module, { args: [1, Infinity], each: readableFile, run: main })
