'use strict'
// Where should wrk, the db server and PostgreSQL run on 2 CPUs? Per placement and server,
// interleaved rounds of one 1 s wrk run of /db each (one server process per placement and
// server, checked and warmed up as bench.js does), and per cell: the median requests/s, the
// server's and the backends' CPU per request, how far the interleaved halves of the runs
// moved apart (the run's own repeatability), and how much of its CPU the server used.
//
//   alone     the server alone on CPU 1; wrk and the database on CPU 0 (bench.js's)
//   with-db   the server and the database on CPU 1; wrk alone on CPU 0
//   with-wrk  the server and wrk on CPU 1; the database alone on CPU 0
//
//   node studies/db-placement.js [--runs 8] [--connections 64] [--raw FILE]
const fs = require('node:fs')
const { runCli, RunFailed } = require('../lib/cli')
const { wholeNumber } = require('../lib/options')
const { parseStudyOptions } = require('./per-read')
const { dbSession, measureStep, PRESETS } = require('../experiments/db/measure')
const { servers } = require('../experiments/db/servers')
const { median } = require('../lib/stats')
const { interleavedHalves } = require('../lib/repeatability')

const PLACEMENTS = {
  alone: { client: 0, server: 1, database: 0 },
  'with-db': { client: 0, server: 1, database: 1 },
  'with-wrk': { client: 1, server: 1, database: 0 }
}
const SERVERS = ['c-libpq-prepared-pipelined', 'c-libpq-prepared-serial', 'node-pg-prepared-serial', 'node-postgres-prepared-pipelined']

const USAGE = `usage: node studies/db-placement.js [--runs N] [--connections N] [--raw FILE]
  --runs N           interleaved rounds per placement and server (default 8)
  --connections N    wrk's connections (default 64)
  --raw FILE         every run's record, a JSON line each
  --help             this text`

function parseOptions (argv) {
  const spec = { runs: { type: 'string' }, connections: { type: 'string' }, raw: { type: 'string' } }
  return parseStudyOptions(argv, spec, USAGE, values => ({
    runs: wholeNumber(values.runs ?? '8', 'runs'),
    connections: wholeNumber(values.connections ?? '64', 'connections'),
    raw: values.raw ?? null
  }))
}

async function main ({ runs, connections, raw }) {
  const options = { timeoutSeconds: 60, db: { ...PRESETS.default } }
  const records = []
  const runDir = fs.mkdtempSync('/tmp/db-placement-')
  fs.mkdirSync(`${runDir}/strace`)
  for (const [placement, pin] of Object.entries(PLACEMENTS)) {
    // one database per placement, pinned as the placement says; a server process per
    // server, kept across the interleaved rounds
    const session = dbSession(options)
    try {
      for (let run = 0; run < runs; run++) {
        for (const name of SERVERS) {
          const server = servers.find(row => row.name === name)
          const step = { phase: 'db', program: server, server, endpoint: 'db', path: '/db', connections, run, pin }
          const { record } = await measureStep(step, options, session, runDir)
          if (!record.ok) throw new RunFailed(`${placement} ${name}: ${record.failure}`)
          records.push({ ...record, placement })
        }
      }
    } finally {
      await session.close()
    }
  }
  if (raw) fs.writeFileSync(raw, records.map(record => JSON.stringify(record)).join('\n') + '\n')
  fs.rmSync(runDir, { recursive: true, force: true })
  console.log('placement  server                              req/s  server µs  backends µs  halves: server  backends  server CPU share')
  for (const placement of Object.keys(PLACEMENTS)) {
    for (const name of SERVERS) {
      const cell = records.filter(record => record.placement === placement && record.program === name)
      const per = pick => cell.map(record => pick(record) / record.wrk.requests / 1000)
      const halves = pick => interleavedHalves(cell, record => pick(record) / record.wrk.requests / 1000, median)?.movePercent
      console.log([placement.padEnd(9), name.padEnd(34), String(Math.round(median(cell.map(record => record.wrk.requestsPerSecond)))).padStart(6),
        median(per(record => record.server.cpuNs)).toFixed(2).padStart(9), median(per(record => record.backends.cpuNs)).toFixed(2).padStart(11),
        `${halves(record => record.server.cpuNs).toFixed(1)}%`.padStart(14), `${halves(record => record.backends.cpuNs).toFixed(1)}%`.padStart(9),
        median(cell.map(record => record.server.cpuNs / record.wallNs)).toFixed(2).padStart(17)].join(' '))
    }
  }
  return 0
}

runCli({ name: 'db-placement.js', usage: USAGE, parse: parseOptions, run: main, measures: true })
