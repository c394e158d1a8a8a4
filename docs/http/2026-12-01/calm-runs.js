'use strict'
// Would a cell's ratio to the reference hold better between two runs if it came only from the
// runs where the reference beside it ran at its calm pace? A run's pace is the reference's CPU
// per request in it over the 10th percentile of the reference's over every run of its mode and
// connections in that log; a run is calm where its pace is at most BAND (1.1: within 10% of the
// calm pace). For each pair of logs: how many cells' median ratio moved by at most 5% with every
// run, and with the calm runs only (a cell with no calm run in either log counted as missed). The median
// of a cell's every run is this script's, not the page's figure (which pairs runs of a round).
//
//   node docs/http/2026-12-01/calm-runs.js BAND A/all.jsonl[.gz] B/all.jsonl[.gz] [C D ...]
const { runScript, readableFile, readJsonLines, UsageError } = require('../../script-args')
const { dataPoints } = require('../../../lib/run-log')
const { median } = require('../../../lib/stats')

const LOG = 'an http run\'s all.jsonl (or .jsonl.gz) from 2026-11-28 or later, in turns with c-epoll'
const WITHIN = 0.05

const cpuOf = side => side.server.cpuNs / side.wrk.requests
const inTurns = run => run.ok && run.phase === 'http' && run.partner?.server &&
  run.partner.wrk?.requests > 0 && run.wrk?.requests > 0

// Each cell's median ratio over every run, and over its calm runs (null where none was calm).
function cellsOf (file, band) {
  const runs = dataPoints(readJsonLines(file, LOG)).filter(inTurns)
  if (runs.length === 0) {
    throw new UsageError(`${file} holds no run in turns with c-epoll; give ${LOG}`)
  }
  const calmPace = new Map()
  // a cell is a server in a mode at a count of connections; its reference's pace is theirs
  const groupOf = run => `${run.mode} ${run.connections}`
  for (const group of new Set(runs.map(groupOf))) {
    const paces = runs.filter(run => groupOf(run) === group).map(run => cpuOf(run.partner))
      .sort((a, b) => a - b)
    calmPace.set(group, paces[Math.floor(0.1 * (paces.length - 1))])
  }
  const cells = new Map()
  for (const run of runs) {
    const key = `${run.program} ${groupOf(run)}`
    if (!cells.has(key)) cells.set(key, { every: [], calm: [] })
    const ratio = cpuOf(run) / cpuOf(run.partner)
    cells.get(key).every.push(ratio)
    if (cpuOf(run.partner) / calmPace.get(groupOf(run)) <= band) cells.get(key).calm.push(ratio)
  }
  return new Map([...cells].map(([key, { every, calm }]) =>
    [key, {
      every: median(every), calm: calm.length ? median(calm) : null, kept: calm.length, of: every.length
    }]))
}

function main ([bandText, ...files]) {
  const band = Number(bandText)
  const held = (a, b) => a != null && b != null && Math.abs(a / b - 1) <= WITHIN
  for (let i = 0; i < files.length; i += 2) {
    const [a, b] = [cellsOf(files[i], band), cellsOf(files[i + 1], band)]
    const shared = [...a.keys()].filter(key => b.has(key))
    const count = pick => shared.filter(key => held(pick(a.get(key)), pick(b.get(key)))).length
    const kept = [...a.values(), ...b.values()]
    const uncalm = shared.filter(key => a.get(key).calm === null || b.get(key).calm === null).length
    console.log(`${files[i]} and ${files[i + 1]}: within 5%, every run ${count(cell => cell.every)} ` +
      `of ${shared.length}; calm runs (pace at most ${band}) ${count(cell => cell.calm)} of ` +
      `${shared.length}, from ${kept.reduce((sum, cell) => sum + cell.kept, 0)} of ` +
      `${kept.reduce((sum, cell) => sum + cell.of, 0)} runs; ${uncalm} cells with no calm run in ` +
      'one log')
  }
}

function check ([bandText, ...files]) {
  const band = Number(bandText)
  if (!(band >= 1)) {
    throw new UsageError('BAND must be a number of at least 1 (1.1: within 10% of the calm pace), ' +
      `not '${bandText}'`)
  }
  if (files.length % 2) throw new UsageError('give the logs in pairs: A B [C D ...]')
  files.forEach(readableFile)
}

runScript(module, { args: [3, Infinity], check, run: main })
