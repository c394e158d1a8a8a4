'use strict'
// What the latency pass's rate could follow, run by run: c-epoll's requests/s in its capacity
// run (wrk on another CPU, the rate's source until 2026-12-07) against the median of its timed
// runs alone at the most connections (wrk on its CPU), over all its processes (the source since)
// and over the last one's, per mode; then, over the runs given, each source's range and the
// median of its moves between runs next to each other in time (by their first record's time).
// Usage: node docs/http/2026-12-07-rates/rates.js A/all.jsonl B/all.jsonl...  (or .jsonl.gz)
const path = require('node:path')
const { runScript, readableFile, readJsonLines, need } = require('../../script-args')
const { dataPoints } = require('../../../lib/run-log')
const { median } = require('../../../lib/stats')
const { REFERENCE } = require('../../../experiments/http/servers')
const { PHASE, CAPACITY_PHASE } = require('../../../experiments/http/measure')

const LOG = 'an http run\'s all.jsonl (or .jsonl.gz)'
const MODES = ['keep-alive', 'close']
const SOURCES = ['capacity', 'timed', 'last process']
const thousands = value => `${(value / 1000).toFixed(1)}k`

// { at, rates: { mode: { capacity, timed, 'last process', runs } } } of one log, req/s
function ratesOf (file) {
  const logged = dataPoints(readJsonLines(file, LOG))
  const records = logged.filter(record => record.ok && record.program === REFERENCE)
  const timedRuns = records.some(record => record.phase === PHASE) ? records : null
  need(timedRuns, file, `timed runs of ${REFERENCE}`, LOG)
  const rates = {}
  for (const mode of MODES) {
    const timed = records.filter(record => record.phase === PHASE && record.mode === mode && !record.partner)
    const capacity = records.find(record => record.phase === CAPACITY_PHASE && record.mode === mode)
    if (!timed.length || !capacity) continue
    const most = Math.max(...timed.map(record => record.connections))
    const atMost = timed.filter(record => record.connections === most)
    const last = Math.max(...atMost.map(record => record.process))
    const rateOf = record => record.wrk.requestsPerSecond
    rates[mode] = {
      capacity: rateOf(capacity),
      timed: median(atMost.map(rateOf)),
      'last process': median(atMost.filter(record => record.process === last).map(rateOf)),
      runs: atMost.map(rateOf)
    }
  }
  need(Object.keys(rates).length ? rates : null, file, `timed and capacity runs of ${REFERENCE}`, LOG)
  return { at: logged.map(record => record.at).filter(Boolean).sort()[0] ?? '', rates }
}

function main (files) {
  const all = files.map(file => ({ file, ...ratesOf(file) }))
    .sort((a, b) => a.at.localeCompare(b.at))
  console.log(`# node docs/http/2026-12-07-rates/rates.js ${files.join(' ')}`)
  for (const { file, at, rates } of all) {
    const name = `${path.basename(path.dirname(file))}/${path.basename(file)}`
    const modeLine = ([mode, each]) => `\n  ${mode}: capacity ${thousands(each.capacity)}, timed median ` +
      `${thousands(each.timed)} (runs ${each.runs.map(thousands).join(' ')}), last process ` +
      `${thousands(each['last process'])}`
    console.log(`${name} (${at.slice(0, 16)})` + Object.entries(rates).map(modeLine).join(''))
  }
  for (const mode of MODES) {
    const runs = all.map(({ rates }) => rates[mode]).filter(Boolean)
    if (runs.length < 2) continue
    console.log(`\n${mode}, ${runs.length} runs:`)
    for (const source of SOURCES) {
      const values = runs.map(each => each[source])
      const moves = values.slice(1).map((value, i) => Math.abs(value / values[i] - 1) * 100)
      const [low, high] = [Math.min(...values), Math.max(...values)]
      console.log(`  ${source.padEnd(12)} ${thousands(low)}-${thousands(high)} ` +
        `(largest/smallest ${(high / low).toFixed(2)}), move between runs given one after another: ` +
        `median ${median(moves).toFixed(1)}%, largest ${Math.max(...moves).toFixed(1)}%`)
    }
  }
}

runScript(module, { args: [2, Infinity], each: readableFile, run: main })
