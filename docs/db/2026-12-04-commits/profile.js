'use strict'
// How much of PostgreSQL's backends' CPU goes to starting and committing transactions while
// a server answers /queries?q=20 (issue 46): C's floor at cff3dc2e ended a batch of queries
// with one Sync, so its backends committed once a batch, and since 46897b47 ends each query
// with its own, as the host's client does, whose backends commit each query. A cluster of
// the lab's own (experiments/db/postgres.js) and wrk on CPU 0, the server on CPU 1, 64
// connections, 3 s of warm-up, then perf's samples of every backend for 3 s of a 6 s run,
// with DWARF call graphs (Debian builds PostgreSQL without frame pointers; its exported
// functions are named by its dynamic symbols). Run as root.
//   node docs/db/2026-12-04-commits/profile.js c|host OUT.data
//   perf report -i OUT.data --children --sort symbol --stdio
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { underWrk, outData, perfRecord, ROOT, USER } = require('../under-wrk')
const { runScript } = require('../../script-args')
const { UsageError } = require(path.join(ROOT, 'lib/options'))
const { RunFailed } = require(path.join(ROOT, 'lib/cli'))

const SERVERS = {
  c: port => [path.join(ROOT, 'build/db-c-libpq'), String(port)],
  host: port => [path.join(ROOT, 'build/just-host'), path.join(ROOT, 'db/just-pg.js'), String(port)]
}

// The postmaster's children that serve the pool's connections (its other children, the
// checkpointer and the like, have their role in their title).
function backends (postmaster) {
  const children = spawnSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' }).stdout
  return children.split('\n').filter(Boolean).filter(pid => {
    const title = spawnSync('ps', ['-o', 'args=', '-p', pid], { encoding: 'utf8' }).stdout
    return title.includes(USER)
  })
}

const main = (serverName, out, stopped) => underWrk({
  argv: SERVERS[serverName],
  stopped,
  page: '/queries?q=20',
  record: (server, db) => {
    const pids = backends(db.pid)
    if (pids.length === 0) throw new RunFailed('no backend of the pool found under the postmaster')
    perfRecord(['-e', 'cpu-clock', '-F', '999', '--call-graph', 'dwarf', '-p', pids.join(','),
      '-o', out, '--', 'sleep', '3'])
  }
})

function serverNamed (name) {
  if (!Object.hasOwn(SERVERS, name)) throw new UsageError(`no server ${JSON.stringify(name)}: give c or host`)
}

runScript(module, {
  args: [2, 2],
  each: [name => name, outData],
  check: ([serverName]) => serverNamed(serverName),
  measures: true,
  run: ([serverName, out], flags, stopped) => main(serverName, out, stopped)
})
