'use strict'
// Does a postgres.js server's CPU per request grow with the queries it has served? Its pool
// keeps its busy connections in a Queue (node_modules/postgres/cjs/src/queue.js) whose
// array is emptied only when a shift takes its last item; pipelined, every query shifts a
// busy connection and pushes it back, so under steady load the array grows by a slot a
// query, and remove(), called as a connection changes state, searches all of it. Each
// server below runs in one process through --runs rounds of one 1 s wrk run of /db (the
// db experiment's checks, warm-up, placement and measures), and the study prints each
// process's CPU per request run by run, with the queries it had served by then. The row
// "queue compacted" is the same Node server with postgres.js's Queue replaced by one that
// drops the slots it has passed (studies/postgres-js-compacting-queue.js): if the growth is
// the queue's, that row holds still. node-pg, pipelined, is the control; node-postgres with
// one query in flight is the same client whose pool never shifts a busy connection.
//
//   node studies/postgres-js-queue.js [--runs 12] [--raw FILE]
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { runCli, RunFailed } = require('../lib/cli')
const { repeatCount } = require('../lib/options')
const { parseStudyOptions, studyLog } = require('./per-read')
const { dbSession, measureStep, PRESETS } = require('../experiments/db/measure')
const { servers, serverReason } = require('../experiments/db/servers')
const { trendTest, theilSenSlope, median } = require('../lib/stats')

const COMPACTED = 'node-postgres-prepared-pipelined, queue compacted'
const PRELOAD = path.join(__dirname, 'postgres-js-compacting-queue.js')
const row = name => servers.find(server => server.name === name)
const compacted = () => ({
  ...row('node-postgres-prepared-pipelined'),
  name: COMPACTED,
  env: { ...row('node-postgres-prepared-pipelined').env, NODE_OPTIONS: `--require ${PRELOAD}` }
})
// one query in flight, postgres.js never takes a busy connection: its waiting queries queue
// instead (handler() and onopen() in src/index.js), which nothing searches
const SERVERS = () => [
  row('node-pg-prepared-pipelined'), row('node-postgres-prepared-pipelined'), compacted(),
  row('deno-prepared-pipelined'), row('node-postgres-prepared-serial')
]
// the db experiment's placement: wrk and the database on CPU 0, the server alone on CPU 1
const PIN = { client: 0, server: 1, database: 0 }

const USAGE = `usage: node studies/postgres-js-queue.js [--runs N] [--raw FILE]
  --runs N      rounds of one 1 s run of /db per server, each server one process (default 12)
  --raw FILE    every run's record, a JSON line each
  --help        this text`

function parseOptions (argv) {
  return parseStudyOptions(argv, { runs: { type: 'string' }, raw: { type: 'string' } }, USAGE, values => ({
    runs: repeatCount(values.runs ?? '12', 'runs'),
    raw: values.raw ?? null
  }))
}

async function main ({ runs, raw }, stopped) {
  const chosen = SERVERS()
  for (const server of chosen) {
    const reason = serverReason(server)
    if (reason) throw new RunFailed(`${server.name} cannot run here: ${reason}`)
  }
  const options = { timeoutSeconds: 60, db: { ...PRESETS.default } }
  const log = studyLog(raw)
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'postgres-js-queue-'))
  const records = []
  const session = dbSession(options, stopped)
  try {
    for (let run = 0; run < runs; run++) {
      // each round the other way, as the db experiment's, so that no server always follows another
      const order = run % 2 === 0 ? chosen : [...chosen].reverse()
      for (const server of order) {
        const step = {
          phase: 'db', program: server, server, endpoint: 'db', path: '/db', connections: 64, run, pin: PIN
        }
        if (stopped()) throw log.stopped()
        const { record } = await measureStep(step, options, session, runDir)
        // a stop fails the run in flight (Ctrl-C reaches wrk too): it is a stop, not a failure
        if (!record.ok) throw await log.failed(stopped, `${server.name}, run ${run + 1}: ${record.failure}`)
        records.push(record)
        log.keep(record)
      }
    }
  } finally {
    await session.close()
    fs.rmSync(runDir, { recursive: true, force: true })
  }
  console.log(`CPU per request of each server process over ${runs} runs of 1 s of /db at 64 connections, ` +
    'in the order it ran them; served: the thousands of requests it had answered before the run ' +
    '(its warm-up not counted); drift: the Theil-Sen change per 100,000 requests, over the median, ' +
    'and Kendall\'s two-sided p')
  for (const server of chosen) {
    const own = records.filter(record => record.program === server.name).sort((a, b) => a.run - b.run)
    let served = 0
    const points = own.map(record => {
      const point = { served, us: record.server.cpuNs / record.wrk.requests / 1000 }
      served += record.wrk.requests
      return point
    })
    const perRequest = points.map(point => point.us)
    const { p } = trendTest(perRequest)
    // against the requests served, not the run's place: a slowing server serves fewer a run
    const drift = theilSenSlope(points.map(point => [point.served, point.us])) * 100000 / median(perRequest)
    console.log(`\n${server.name}: drift ${(100 * drift).toFixed(1)}% per 100,000 requests ` +
      `(Kendall's p = ${p.toFixed(4)})`)
    console.log(points.map(point => `  ${(point.served / 1000).toFixed(0).padStart(5)}k served: ` +
      `${point.us.toFixed(1)} µs`).join('\n'))
  }
  return 0
}

runCli({ name: 'postgres-js-queue.js', usage: USAGE, parse: parseOptions, run: main, measures: true })
