'use strict'
// How far each server's CPU per request follows the host's pace, as the reference's run beside
// it shows that pace. Runs in turns with the reference (http's default placement, db's
// --placement interleaved) hold, in each record, the server's CPU per request and the
// reference's over the same second. Within each server process, both are taken as logs about
// their process's mean; over every process of a cell in the given logs:
//   follows    the least-squares slope of the server's logs over the reference's: 1 where the
//              server's cost moves as the reference's does, so that their ratio cancels the
//              host's pace; above 1 where the host's pace moves the ratio with it
//   r          the correlation of the two: how much of the server's moves the pace explains
//   spread     the standard deviation of the reference's logs and of the server's (in %)
//
//   node docs/http/2026-12-01/host-pace.js RUN/all.jsonl[.gz]...
const { runScript, readableFile, readJsonLines, UsageError } = require('../../script-args')
const { dataPoints } = require('../../../lib/run-log')
const { mean, centredFit } = require('../../../lib/stats')

const LOG = 'an http run\'s all.jsonl (or .jsonl.gz), or a db run\'s with --placement interleaved'
const TIMED = new Set(['http', 'db'])

const cpuOf = side => side.server.cpuNs / side.wrk.requests
const inTurns = run => run.ok && TIMED.has(run.phase) && run.partner?.server &&
  run.partner.wrk?.requests > 0 && run.wrk?.requests > 0
// a process's runs share their warm-up's figures, which no other process has
const processOf = run => JSON.stringify([run.program, run.mode, run.endpoint, run.connections,
  run.process, run.warmupRates])
const cellOf = run => [run.program, run.mode ?? run.endpoint, `${run.connections} conn.`].join(' ')

function main (files) {
  const cells = new Map()
  for (const file of files) {
    const processes = new Map()
    for (const run of dataPoints(readJsonLines(file, LOG)).filter(inTurns)) {
      const key = processOf(run)
      if (!processes.has(key)) processes.set(key, [])
      processes.get(key).push(run)
    }
    if (processes.size === 0) {
      throw new UsageError(`${file} holds no run in turns with a reference; give ${LOG}`)
    }
    for (const runs of processes.values()) {
      if (runs.length < 2) continue
      const pace = runs.map(run => Math.log(cpuOf(run.partner)))
      const own = runs.map(run => Math.log(cpuOf(run)))
      const [paceMean, ownMean] = [mean(pace), mean(own)]
      const cell = cellOf(runs[0])
      if (!cells.has(cell)) cells.set(cell, [])
      runs.forEach((run, i) => cells.get(cell).push([pace[i] - paceMean, own[i] - ownMean]))
    }
  }
  const percent = value => `${(value * 100).toFixed(1)}%`
  const width = Math.max(...[...cells.keys()].map(cell => cell.length)) + 2
  for (const [cell, points] of [...cells].sort(([a], [b]) => a.localeCompare(b))) {
    const line = centredFit(points)
    if (!line) continue
    console.log(`${cell.padEnd(width)} runs ${String(points.length).padStart(3)}  follows ` +
      `${line.slope.toFixed(2).padStart(5)}  r ${line.r.toFixed(2).padStart(5)}  ` +
      `spread: reference ${percent(line.spreadX)}, server ${percent(line.spreadY)}`)
  }
}

runScript(module, { args: [1, Infinity], each: readableFile, run: main })
