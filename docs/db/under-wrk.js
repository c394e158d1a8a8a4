'use strict'
// What the db profiles of 2026-12-04 share (2026-12-04-utf8/profile.js and
// 2026-12-04-commits/profile.js): a cluster of the lab's own (experiments/db/postgres.js) and
// wrk on CPU 0, a server on CPU 1 with a pool of 4 prepared, pipelined connections, wrk's 64
// connections at one page: 3 s of warm-up, then a run of 6 s, one second into which
// `record(server, db)` takes its samples (for 3 s). Run as root.
//
// A stop (Ctrl-C, SIGTERM: `stopped()` true, docs/script-args.js `measures`) ends the profile
// at the next wait, and what it started goes with it: wrk, the server, the cluster's folder
// and shared memory, and a V8 server's perf map, which only a finished profile needs.
const fs = require('node:fs')
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')
const ROOT = path.resolve(__dirname, '..', '..')
const { startPostgres, USER, DATABASE } = require(path.join(ROOT, 'experiments/db/postgres'))
const { freePort } = require(path.join(ROOT, 'experiments/http/servers'))
const { RunFailed, notACommand } = require(path.join(ROOT, 'lib/cli'))
const { spawnWithParent } = require(path.join(ROOT, 'lib/pipeline'))
const { UsageError, outFileProblem } = require(path.join(ROOT, 'lib/options'))

const POLL_MS = 100
const STOPPED = 'stopped before its run under wrk ended'
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))
const ended = child => child.exitCode !== null || child.signalCode !== null

// Waits until `done()`, or fails: a stop asked for, `child` gone first (`whyGone` says what
// it should have done), or `withinMs` past (`late` says what did not happen).
async function waitUntil (done, { child, whyGone, stopped, withinMs = Infinity, late }) {
  const deadline = Date.now() + withinMs
  while (!done()) {
    if (stopped()) throw new RunFailed(STOPPED)
    if (whyGone && ended(child)) throw new RunFailed(`${whyGone} (exit ${child.exitCode ?? child.signalCode})`)
    if (Date.now() > deadline) throw new RunFailed(late)
    await sleep(POLL_MS)
  }
}

// wrk's 64 connections at `url` for `seconds`, on CPU 0.
const wrkAt = (url, seconds) =>
  spawn('taskset', ['-c', '0', 'wrk', '-t1', '-c64', `-d${seconds}s`, url], { stdio: 'inherit' })

// wrk ended, and well: a wrk that failed (a refused connection, a missing wrk) profiled an
// idle server, which the profile did not say
async function wrkEnded (wrk, stopped) {
  await waitUntil(() => ended(wrk), { stopped })
  if (wrk.exitCode !== 0) throw new RunFailed(`wrk exited ${wrk.exitCode ?? wrk.signalCode}: its lines above say why`)
}

// The profile's OUT.data checked before anything starts: a folder there, or one that cannot
// be written in, once cost a whole run for a perf that failed at its end.
function outData (file) {
  const problem = outFileProblem(file)
  const named = file === '' ? 'OUT.data' : file
  if (problem) throw new UsageError(`${file && problem.startsWith(file) ? '' : `${named}: `}${problem}`)
  return file
}

// perf record with `args`, its output on this terminal; a perf that failed fails the profile.
function perfRecord (args) {
  const result = spawnSync('perf', ['record', ...args], { stdio: 'inherit' })
  if (result.error) throw new RunFailed(`perf did not start (${result.error.code}): apt-get install linux-perf`)
  if (result.status !== 0) {
    throw new RunFailed(`perf record exited ${result.status ?? result.signal}: its lines above say why`)
  }
}

// argv: port → the server's command line (setpriv and taskset exec it, so the child's pid is
// the server's)
async function underWrk ({ argv, page, record, stopped }) {
  const db = await startPostgres({ cpu: 0, connections: 64 })
  let server = null
  let wrk = null
  let recorded = false
  try {
    const port = await freePort()
    const env = {
      ...process.env,
      PGHOST: db.folder,
      PGPORT: String(db.port),
      PGUSER: USER,
      PGDATABASE: DATABASE,
      DB_POOL: '4',
      DB_PREPARED: '1',
      DB_PIPELINE: '1'
    }
    // setpriv: the server dies with this script however it ends, as the lab's servers do
    server = spawnWithParent(['taskset', '-c', '1', ...argv(port)], { env, stdio: ['ignore', 'pipe', 'inherit'] })
    server.on('error', () => {}) // an exec that failed shows as its exit below
    let listening = false
    server.stdout.on('data', data => { listening ||= String(data).includes('listening') })
    const whyGone = 'the server exited before it listened'
    const late = 'the server did not listen within 60 s'
    await waitUntil(() => listening, { child: server, whyGone, stopped, withinMs: 60000, late })
    const url = `http://127.0.0.1:${port}${page}`
    wrk = wrkAt(url, 3)
    await wrkEnded(wrk, stopped)
    wrk = wrkAt(url, 6)
    // a second into the run, or a stop
    const recordAt = Date.now() + 1000
    await waitUntil(() => Date.now() >= recordAt, { stopped })
    record(server, db)
    recorded = true
    await wrkEnded(wrk, stopped)
  } finally {
    if (wrk && !ended(wrk)) wrk.kill('SIGKILL')
    server?.kill('SIGKILL')
    // a V8 server's map is for perf report to read: of no use to a profile that did not end
    if (server && (stopped() || !recorded)) fs.rmSync(`/tmp/perf-${server.pid}.map`, { force: true })
    await db.stop()
  }
}

module.exports = { underWrk, outData, perfRecord, ROOT, USER }

if (require.main === module) {
  notACommand('under-wrk.js', 'it holds what the db profiles of 2026-12-04 share; run one of them, as ' +
    'node docs/db/2026-12-04-utf8/profile.js --help')
}
