'use strict'
// Profiles the host's db server at /fortunes under wrk: a cluster of the lab's own
// (experiments/db/postgres.js) and wrk on CPU 0, the server on CPU 1, 64 connections, 3 s of
// warm-up, then perf's samples of the server for 3 s of a 6 s run. Run as root. V8 10.2's
// --perf-basic-prof also logs, to /dev/null here; its /tmp/perf-PID.map is perf's to read.
//   node docs/db/2026-12-04-utf8/profile.js OUT.data
//   perf report -i OUT.data --no-children --sort symbol --stdio
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')
const ROOT = path.resolve(__dirname, '..', '..', '..')
const { startPostgres, USER, DATABASE } = require(path.join(ROOT, 'experiments/db/postgres'))
const { freePort } = require(path.join(ROOT, 'experiments/http/servers'))
const { runScript } = require('../../script-args')

async function main (out) {
  const db = await startPostgres({ cpu: 0, connections: 64 })
  let server = null
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
    // taskset execs the host, so the child's pid is the server's
    server = spawn('taskset', ['-c', '1', path.join(ROOT, 'build/just-host'), '--perf-basic-prof',
      '--interpreted-frames-native-stack', '--logfile=/dev/null', '--no-logfile-per-isolate',
      path.join(ROOT, 'db/just-pg.js'), String(port)],
    { env, stdio: ['ignore', 'pipe', 'inherit'] })
    await new Promise(resolve => server.stdout.on('data', d => String(d).includes('listening') && resolve()))
    const url = `http://127.0.0.1:${port}/fortunes`
    spawnSync('taskset', ['-c', '0', 'wrk', '-t1', '-c64', '-d3s', url], { stdio: 'inherit' })
    const wrk = spawn('taskset', ['-c', '0', 'wrk', '-t1', '-c64', '-d6s', url], { stdio: 'inherit' })
    await new Promise(resolve => setTimeout(resolve, 1000))
    spawnSync('perf', ['record', '-e', 'cpu-clock', '-F', '4999', '-g', '-p', String(server.pid), '-o', out,
      '--', 'sleep', '3'], { stdio: 'inherit' })
    await new Promise(resolve => wrk.on('exit', resolve))
  } finally {
    server?.kill('SIGKILL')
    await db.stop()
  }
}

runScript(module, { args: [1, 1], run: ([out]) => main(out) })
