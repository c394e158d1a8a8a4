'use strict'
// What moves a db server's CPU per request from one timed run to the next within its process,
// in runs of the default placement (rounds; the server alone on CPU 1). Each run's figure is
// taken as a log about its process's mean; over every process but the reference's with 3 runs
// or more, for C's servers and the others apart:
//   spread       the root mean square of those moves (about their process's mean of 4 or 5
//                runs, so about a tenth under each run's own standard deviation)
//   reference    the slope and correlation of a run's move on the reference's run of the same
//                round (c-libpq-prepared-pipelined, seconds away): the host's pace, where the
//                round's runs shared it
//   batching     the same on the log of the run's requests per scheduler slice of the server
//                (schedstat's count): how many requests each wake-up found
//   mark-compact the mean move of runs in which V8 finished a mark-compact, and of the others
//                (Node, Deno and the host; a run's collections from its --trace-gc)
//
//   node docs/db/2026-12-01/run-moves.js RUN/all.jsonl[.gz]...
const { runScript, readableFile, readJsonLines, UsageError } = require('../../script-args')
const { dataPoints } = require('../../../lib/run-log')
const { mean, centredFit } = require('../../../lib/stats')

const LOG = 'a db run\'s all.jsonl (or .jsonl.gz) of the default placement, from 2026-11-29 or later'
const REFERENCE = 'c-libpq-prepared-pipelined'

const cpuOf = run => run.server.cpuNs / run.wrk.requests
const timed = run => run.ok && run.phase === 'db' && !run.partner && run.wrk?.requests > 0 &&
  run.server?.cpuNs > 0
const markCompacts = run => Object.entries(run.gc?.byKind ?? {})
  .filter(([kind]) => /Mark-Compact/.test(kind)).reduce((sum, [, { count }]) => sum + count, 0)

// the slope of the run's moves on another's, and their correlation
function fit (points) {
  const line = centredFit(points)
  return line ? `${line.slope.toFixed(2)}, r ${line.r.toFixed(2)}` : 'none'
}

function main (files) {
  const percent = value => `${(value * 100).toFixed(1)}%`
  for (const file of files) {
    const runs = dataPoints(readJsonLines(file, LOG)).filter(timed)
    if (runs.length === 0) throw new UsageError(`${file} holds no timed db run; give ${LOG}`)
    const cellOf = run => `${run.endpoint} ${run.connections}`
    const referenceMove = new Map()
    const processes = new Map()
    for (const run of runs) {
      const key = `${run.program} ${cellOf(run)}`
      if (!processes.has(key)) processes.set(key, [])
      processes.get(key).push(run)
    }
    const moves = (list, figure) => {
      const values = list.map(figure)
      const centre = mean(values)
      return values.map(value => value - centre)
    }
    for (const [key, list] of processes) {
      if (!key.startsWith(`${REFERENCE} `)) continue
      moves(list, run => Math.log(cpuOf(run))).forEach((move, i) =>
        referenceMove.set(`${cellOf(list[i])} ${list[i].run}`, move))
    }
    const kinds = { 'C\'s servers': [], 'the others': [] }
    for (const [key, list] of processes) {
      if (key.startsWith(`${REFERENCE} `) || list.length < 3) continue
      const own = moves(list, run => Math.log(cpuOf(run)))
      const batching = moves(list, run => Math.log(run.wrk.requests / (run.server.slices || NaN)))
      const kind = list[0].program.startsWith('c-') ? 'C\'s servers' : 'the others'
      list.forEach((run, i) => kinds[kind].push({
        own: own[i],
        reference: referenceMove.get(`${cellOf(run)} ${run.run}`),
        batching: batching[i],
        markCompact: run.gc?.byKind ? markCompacts(run) > 0 : null
      }))
    }
    for (const [kind, points] of Object.entries(kinds)) {
      if (points.length === 0) continue
      const spread = Math.sqrt(mean(points.map(point => point.own ** 2)))
      const against = pick => fit(points.filter(point => Number.isFinite(pick(point)))
        .map(point => [pick(point), point.own]))
      const withGc = points.filter(point => point.markCompact === true)
      const withoutGc = points.filter(point => point.markCompact === false)
      const gcText = withGc.length && withoutGc.length
        ? `; mark-compact ${percent(mean(withGc.map(point => point.own)))} (${withGc.length} runs), ` +
          `none ${percent(mean(withoutGc.map(point => point.own)))} (${withoutGc.length})`
        : ''
      console.log(`${file} ${kind}: ${points.length} runs, spread ${percent(spread)}; reference ` +
        `${against(point => point.reference)}; batching ${against(point => point.batching)}${gcText}`)
    }
  }
}

runScript(module, { args: [1, Infinity], each: readableFile, run: main })
