'use strict'
// Does a db server's CPU per request move with its requests per wake-up? Per cell of two runs'
// logs (the timed runs that ran right, tries measured again left out): the server's CPU per
// request (µs) and its requests per wake-up (wrk's requests over the timeslices of the server's
// threads), each run's median and the move between them, then each run of the first log; and,
// over the cells, how often the two moved the same way between the runs and by how much.
// Usage: node docs/db/2026-12-07-wakeups/by-run.js A/all.jsonl B/all.jsonl  (or .jsonl.gz)
const { runScript, readableFile, readJsonLines, need } = require('../../script-args')
const { dataPoints } = require('../../../lib/run-log')
const { median } = require('../../../lib/stats')
const { requestsPerSlice } = require('../../../experiments/http/cpu')

const LOG = 'a db run\'s all.jsonl (or .jsonl.gz)'

function cellsOf (file) {
  const runs = dataPoints(readJsonLines(file, LOG))
    .filter(record => record.phase === 'db' && record.ok &&
      requestsPerSlice(record.wrk.requests, record.server) !== null)
  need(runs.length ? runs : null, file, 'timed db runs with the server\'s timeslices', LOG)
  const cells = new Map()
  for (const run of runs) {
    const key = `${run.program} /${run.endpoint} ${run.connections}`
    if (!cells.has(key)) cells.set(key, [])
    cells.get(key).push({
      us: run.server.cpuNs / run.wrk.requests / 1000,
      perWakeUp: requestsPerSlice(run.wrk.requests, run.server)
    })
  }
  return cells
}

const movePercent = (a, b) => 100 * (b / a - 1)
const signed = value => `${value >= 0 ? '+' : ''}${value.toFixed(1)}%`

function main ([fileA, fileB]) {
  const [a, b] = [fileA, fileB].map(cellsOf)
  const moves = []
  for (const [key, runsA] of a) {
    const runsB = b.get(key)
    if (!runsB) continue
    const [usA, usB] = [runsA, runsB].map(runs => median(runs.map(run => run.us)))
    const [wakeA, wakeB] = [runsA, runsB].map(runs => median(runs.map(run => run.perWakeUp)))
    moves.push({ us: movePercent(usA, usB), perWakeUp: movePercent(wakeA, wakeB) })
    const each = runsA.map(run => `${run.us.toFixed(1)}/${run.perWakeUp.toFixed(1)}`).join(' ')
    const us = `µs ${usA.toFixed(1)} ${usB.toFixed(1)} ${signed(movePercent(usA, usB)).padStart(7)}`
    const wake = `req/wake-up ${wakeA.toFixed(2)} ${wakeB.toFixed(2)} ${signed(movePercent(wakeA, wakeB)).padStart(7)}`
    console.log(`${key.padEnd(46)} ${us}  ${wake}` +
      `  A's runs (µs/req a wake-up) ${each}`)
  }
  // a server that batched more in run B should cost less a request there: opposite signs
  const opposite = moves.filter(move => move.us * move.perWakeUp < 0).length
  const big = moves.filter(move => Math.abs(move.us) > 5)
  const bigOpposite = big.filter(move => move.us * move.perWakeUp < 0 && Math.abs(move.perWakeUp) > 5).length
  console.log(`\n${moves.length} cells in both; CPU per request and requests per wake-up moved opposite ` +
    `ways in ${opposite}; of the ${big.length} cells whose CPU per request moved over 5%, ${bigOpposite} had ` +
    'requests per wake-up move over 5% the other way')
}

runScript(module, { args: [2, 2], each: readableFile, distinct: true, run: main })
