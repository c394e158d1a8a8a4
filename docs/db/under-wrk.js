'use strict'
// What the db profiles of 2026-12-04 share (2026-12-04-utf8/profile.js and
// 2026-12-04-commits/profile.js): a cluster of the lab's own (experiments/db/postgres.js) and
// wrk on CPU 0, a server on CPU 1 with a pool of 4 prepared, pipelined connections, wrk's 64
// connections at one page: 3 s of warm-up, then a run of 6 s, one second into which
// `record(server, db)` takes its samples (for 3 s). Run as root.
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')
const ROOT = path.resolve(__dirname, '..', '..')
const { startPostgres, USER, DATABASE } = require(path.join(ROOT, 'experiments/db/postgres'))
const { freePort } = require(path.join(ROOT, 'experiments/http/servers'))

// argv: port → the server's command line (taskset execs it, so the child's pid is the server's)
async function underWrk ({ argv, page, record }) {
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
    server = spawn('taskset', ['-c', '1', ...argv(port)], { env, stdio: ['ignore', 'pipe', 'inherit'] })
    await new Promise(resolve => server.stdout.on('data', d => String(d).includes('listening') && resolve()))
    const url = `http://127.0.0.1:${port}${page}`
    spawnSync('taskset', ['-c', '0', 'wrk', '-t1', '-c64', '-d3s', url], { stdio: 'inherit' })
    const wrk = spawn('taskset', ['-c', '0', 'wrk', '-t1', '-c64', '-d6s', url], { stdio: 'inherit' })
    await new Promise(resolve => setTimeout(resolve, 1000))
    record(server, db)
    await new Promise(resolve => wrk.on('exit', resolve))
  } finally {
    server?.kill('SIGKILL')
    await db.stop()
  }
}

module.exports = { underWrk, ROOT, USER }
