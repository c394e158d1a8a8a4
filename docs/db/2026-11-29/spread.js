'use strict'
// How much of a db pair's moves the runs within a process explain, and how many runs a cell
// the goal (90% of cells within 5%) would take. A and B are each a run's all.jsonl, gzipped or
// not (db-m1.jsonl.gz and db-m2.jsonl.gz beside this file are db-m1's and db-m2's).
// Each run's log ratio to C's run of the same round; per cell, the variance of one run's log
// ratio within each process (pooled over the two), and how far the two processes' means
// differ beyond what those runs explain.
//   node docs/db/2026-11-29/spread.js A B
const { median, mean, standardDeviation, normalCdf } = require('../../../lib/stats')
const { runScript, readableFile, readJsonLines, need } = require('../../script-args')

const REF = 'c-libpq-prepared-pipelined'
const WITHIN = Math.log(1.05)
const LOG = 'a db run\'s all.jsonl (or .jsonl.gz)'

// { 'program endpoint': Map(run → the server's CPU ns per request) }
function load (file) {
  const runs = new Map()
  const records = readJsonLines(file, LOG).filter(record => record.phase === 'db' && record.ok)
  for (const record of need(records, file, 'db runs', LOG)) {
    const key = `${record.program} ${record.endpoint}`
    if (!runs.has(key)) runs.set(key, new Map())
    runs.get(key).set(record.run, record.server.cpuNs / record.wrk.requests)
  }
  // every cell's ratio is to C's run of the same round
  need(runs.get(`${REF} db`), file, `/db runs of ${REF}`, LOG)
  return runs
}

const variance = values => standardDeviation(values) ** 2
// the spread (one standard deviation) of a normal move that leaves `share` of moves within 5%
function spreadFor (share) {
  let [low, high] = [0, 10]
  for (let step = 0; step < 100; step++) {
    const z = (low + high) / 2
    if (2 * normalCdf(z) - 1 < share) low = z
    else high = z
  }
  return WITHIN / low
}

function main (files) {
  const [a, b] = files.map(load)
  const within = []
  const beyond = []
  const medianMoves = []
  for (const key of a.keys()) {
    const [program, endpoint] = key.split(' ')
    if (program === REF || !b.has(key)) continue
    const logRatios = set => {
      const c = set.get(`${REF} ${endpoint}`)
      return [...set.get(key)].filter(([run]) => c.has(run)).map(([run, ns]) => Math.log(ns / c.get(run)))
    }
    const [x, y] = [logRatios(a), logRatios(b)]
    const w = (variance(x) + variance(y)) / 2
    within.push(w)
    beyond.push((mean(x) - mean(y)) ** 2 / 2 - w / x.length)
    medianMoves.push(Math.abs(median(x) - median(y)))
  }
  const percent = value => `${(100 * value).toFixed(1)}%`
  console.log(`${within.length} cells; one run's log ratio to C's within a process: ` +
    `SD ${percent(Math.sqrt(mean(within)))}; ` +
    `the processes' means beyond it: SD ${percent(Math.sqrt(Math.max(0, mean(beyond))))}`)
  const inside = medianMoves.filter(move => move <= WITHIN).length
  const spread = spreadFor(inside / medianMoves.length)
  const needed = spreadFor(0.9)
  const runs = a.get(`${REF} db`).size
  console.log(`medians of ${runs} runs: ${inside} of ${medianMoves.length} within 5%, a spread of ${percent(spread)} ` +
    `(one SD of the pair's move); 90% within 5% needs ${percent(needed)}: about ` +
    `${Math.ceil(runs * (spread / needed) ** 2)} runs a cell, if the spread falls as the square root of the runs`)
}

runScript(module, { args: [2, 2], each: readableFile, distinct: true, run: main })
