'use strict'
// Where should wrk, the db server and PostgreSQL run on 2 CPUs? Per placement and server,
// interleaved rounds of one 1 s wrk run of /db each (one server process per placement and
// server, checked and warmed up as bench.js does), and per cell: the median requests/s, the
// server's and the backends' CPU per request, how far the interleaved halves of the runs
// moved apart (the run's own repeatability), how much of its CPU the server used, and the
// server's CPU per request against C's: its median, its CV over the rounds and how far its
// halves moved.
//
//   alone        the server alone on CPU 1; wrk and the database on CPU 0
//   with-db      the server and the database on CPU 1; wrk alone on CPU 0
//   with-wrk     the server and wrk on CPU 1; the database alone on CPU 0
//   interleaved  alone's CPUs, each run taking turns with C's in slices of 50 ms (bench.js's)
//   one-cpu      the server, wrk and the database on CPU 1: no wake-up crosses CPUs
//   one-cpu-interleaved  one-cpu's CPU, each run taking turns with C's
//
//   node studies/db-placement.js [--runs 8] [--connections 64] [--placements a,b] [--raw FILE]
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { runCli, RunFailed } = require('../lib/cli')
const { UsageError, repeatCount, firstRepeat } = require('../lib/options')
const { parseStudyOptions, studyLog, fixed } = require('./per-read')
const { dbSession, measureStep, dbPin, PRESETS } = require('../experiments/db/measure')
const { allowedCpus, placementPlan, pinSelf } = require('../lib/placement')
const { servers, REFERENCE, serverReason } = require('../experiments/db/servers')
const { rateOf, ratioOf, serverShare } = require('../experiments/db/summary')
const { median, summarise } = require('../lib/stats')
const { interleavedHalves } = require('../lib/repeatability')
const { connectionCount } = require('../experiments/http/wrk')

// Each placement's CPUs, from the bench's own pair (placementPlan's http: wrk's CPU and the
// server's), so that the study measures where bench.js does.
const PLACEMENTS = {
  alone: { pin: http => dbPin(http, 'alone') },
  'with-db': { pin: ({ client, server }) => ({ client, server, database: server }) },
  'with-wrk': { pin: ({ client, server }) => ({ client: server, server, database: client }) },
  interleaved: { pin: http => dbPin(http, 'alone'), turns: true },
  'one-cpu': { pin: http => dbPin(http, 'one-cpu') },
  'one-cpu-interleaved': { pin: http => dbPin(http, 'one-cpu'), turns: true }
}
const SERVERS = ['c-libpq-prepared-pipelined', 'c-libpq-prepared-serial', 'node-pg-prepared-serial', 'node-postgres-prepared-pipelined']

const USAGE = `usage: node studies/db-placement.js [--runs N] [--connections N] [--placements A,B] [--raw FILE]
  --runs N           interleaved rounds per placement and server (default 8)
  --connections N    wrk's connections (default 64)
  --placements A,B   some of ${Object.keys(PLACEMENTS).join(', ')} (default all)
  --raw FILE         every run's record, a JSON line each
  --help             this text`

function parseOptions (argv) {
  const spec = {
    runs: { type: 'string' },
    connections: { type: 'string' },
    placements: { type: 'string' },
    raw: { type: 'string' }
  }
  return parseStudyOptions(argv, spec, USAGE, values => {
    const options = {
      runs: repeatCount(values.runs ?? '8', 'runs'),
      connections: connectionCount(values.connections ?? '64'),
      placements: placementsOf(values.placements),
      raw: values.raw ?? null
    }
    // refused before PostgreSQL starts where a server, its client or the database cannot run
    for (const name of SERVERS) {
      const reason = serverReason(servers.find(server => server.name === name))
      if (reason) throw new Error(`cannot run the server ${name}: ${reason}`)
    }
    return options
  })
}

function placementsOf (text) {
  if (text === undefined) return Object.keys(PLACEMENTS)
  const names = text.split(',').map(name => name.trim())
  const unknown = names.find(name => !(name in PLACEMENTS))
  if (unknown !== undefined) {
    const known = Object.keys(PLACEMENTS).join(', ')
    throw new UsageError(`--placements ${JSON.stringify(unknown)} is no placement; give some of ${known}`)
  }
  // one given twice would be measured twice in each round, its two sessions set side by side
  const twice = firstRepeat(names)
  if (twice !== undefined) throw new UsageError(`--placements names ${twice} twice; name each once`)
  return names
}

async function main ({ runs, connections, placements, raw }, stopped) {
  // the placements set the server apart from wrk and the database: two CPUs at least, and
  // this tool, which sends wrk its turns every 50 ms, on neither's (a review found it wandering)
  const plan = placementPlan(allowedCpus())
  if (plan.cpus.length < 2) {
    throw new UsageError(`this process may use CPU ${plan.cpus.join(',')} only; the placements need two: ` +
      'run it where two CPUs are allowed (taskset -c 0,1, or a container with two)')
  }
  if (!pinSelf(plan)) throw new RunFailed(`taskset could not pin this tool to CPU ${plan.driver}: install util-linux`)
  console.log(`this tool on CPU ${plan.driver}; wrk's CPU ${plan.http.client}, the server's ${plan.http.server}`)
  const options = { timeoutSeconds: 60, db: { ...PRESETS.default } }
  const records = []
  const log = studyLog(raw)
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'db-placement-'))
  fs.mkdirSync(`${runDir}/strace`)
  const reference = servers.find(row => row.name === REFERENCE)
  try {
    await measurePlacements({ runs, connections, placements },
      { options, records, log, runDir, reference, stopped, plan })
  } finally {
    fs.rmSync(runDir, { recursive: true, force: true })
  }
  printTable(placements, records)
  return 0
}

async function measurePlacements ({ runs, connections, placements }, during) {
  const { options, records, log, runDir, reference, stopped, plan } = during
  for (const placement of placements) {
    const { turns = false } = PLACEMENTS[placement]
    const pin = PLACEMENTS[placement].pin(plan.http)
    // one database per placement, pinned as the placement says; a server process per
    // server, kept across the interleaved rounds
    const session = dbSession(options, stopped)
    try {
      for (let run = 0; run < runs; run++) {
        for (const name of SERVERS) {
          const server = servers.find(row => row.name === name)
          const partner = turns && name !== REFERENCE ? reference : null
          const step = {
            phase: 'db', program: server, server, endpoint: 'db', path: '/db', connections, run, pin, partner
          }
          if (stopped()) throw log.stopped()
          const { record } = await measureStep(step, options, session, runDir)
          // a stop fails the run in flight (Ctrl-C reaches wrk too): it is a stop, not a failure
          if (!record.ok) throw await log.failed(stopped, `${placement} ${name}: ${record.failure}`)
          // where every process of it ran: the placement's CPUs, and this tool's
          records.push({ ...record, placement, pin, driverCpu: plan.driver })
          log.keep(records[records.length - 1])
        }
      }
    } finally {
      await session.close()
    }
  }
}

function printTable (placements, records) {
  console.log('placement            server                              req/s  server µs  backends µs' +
    '  halves: server  backends  server CPU share  × C  CV of × C  halves: × C')
  for (const placement of placements) {
    for (const name of SERVERS) {
      const cell = records.filter(record => record.placement === placement && record.program === name)
      const per = pick => cell.map(record => pick(record) / record.wrk.requests / 1000)
      const moved = value => interleavedHalves(cell, value, median)?.movePercent
      const halves = pick => moved(record => pick(record) / record.wrk.requests / 1000)
      const ratios = cell.map(record => ratioToC(record, records))
      const ratioHalves = moved(record => ratioToC(record, records))
      console.log([placement.padEnd(19), name.padEnd(34), String(Math.round(median(cell.map(rateOf)))).padStart(6),
        median(per(record => record.server.cpuNs)).toFixed(2).padStart(9),
        median(per(record => record.backends.cpuNs)).toFixed(2).padStart(11),
        `${fixed(halves(record => record.server.cpuNs), 1)}%`.padStart(14),
        `${fixed(halves(record => record.backends.cpuNs), 1)}%`.padStart(9),
        median(cell.map(serverShare)).toFixed(2).padStart(17),
        name === REFERENCE ? '' : median(ratios).toFixed(3).padStart(5),
        name === REFERENCE ? '' : `${fixed(100 * summarise(ratios).cv, 1)}%`.padStart(10),
        // one round cannot be halved
        name === REFERENCE ? '' : `${fixed(ratioHalves, 1)}%`.padStart(12)].join(' '))
    }
  }
}

// A run's server CPU per request against C's: the C run beside it (in turns), else C's run
// of the same round in the same placement.
function ratioToC (record, records) {
  if (record.partner) return ratioOf(record)
  const perRequest = run => run.server.cpuNs / run.wrk.requests
  const c = records.find(other => other.placement === record.placement &&
    other.program === REFERENCE && other.run === record.run)
  return perRequest(record) / perRequest(c)
}

runCli({ name: 'db-placement.js', usage: USAGE, parse: parseOptions, run: main, measures: true })
