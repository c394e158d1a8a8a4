'use strict'
// The db experiment over a real PostgreSQL, started by these tests and left behind never:
// the cluster's life (seeded, pinned, stopped with nothing left, swept after a killed
// bench), the answer checks against broken servers, every server of the table answering
// right in each of its variants, servers kept running side by side, a database that dies
// mid-run, and bench end to end, including Ctrl-C.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')

const { startPostgres, postgresVersion, sweepStale, worldNumbers, FOLDER_PREFIX, BIN_DIR } = require('../../experiments/db/postgres')
const { checkDbServer, ENDPOINTS } = require('../../experiments/db/check')
const { servers, serverReason } = require('../../experiments/db/servers')
const { dbSession, measureStep, planDb, PRESETS, LATENCY_PHASE } = require('../../experiments/db/measure')
const { TIMED_RATES } = require('../../experiments/http/oha')
const { STOPPED_BEFORE_START } = require('../../experiments/http/measure')
const { ohaReason } = require('../../experiments/http/oha')
const { freePort, startServer } = require('../../experiments/http/servers')
const { sendRequests } = require('../../experiments/http/client')
const { parseGcTrace } = require('../../lib/gctrace')
const { optionalMissing } = require('../../lib/runtimes')

const ROOT = path.resolve(__dirname, '..', '..')
const BENCH = path.join(ROOT, 'bench.js')
const BROKEN = { name: 'db-broken', runtime: 'node', file: 'test/fixtures/db-broken.js', command: ['{runtime}', '{file}', '{port}'] }
// the Node running the tests, not the lab's measured Node: the fixture needs none of it
const brokenServer = { ...BROKEN, command: [process.execPath, '{file}', '{port}'] }

let database
let scratch

before(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'db-test-'))
  database = await startPostgres({ cpu: 0 })
})

after(async () => {
  if (database) await database.stop()
  fs.rmSync(scratch, { recursive: true, force: true })
  assert.deepEqual(leftovers(), [], 'no cluster, folder or segment left by any test')
})

const psql = (sql, env = database.env) => spawnSync(path.join(BIN_DIR, 'psql'), ['-X', '-A', '-t', '-c', sql], { env: { ...process.env, ...env }, encoding: 'utf8' })

// The processes other than this one, with their parent and command line, from /proc (a fresh
// machine may lack pgrep). An exited process not yet reaped has no command line.
function processes () {
  return fs.readdirSync('/proc').filter(name => /^\d+$/.test(name) && Number(name) !== process.pid).flatMap(pid => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
      return [{ pid, parent, command }]
    } catch {
      return [] // gone meanwhile
    }
  })
}

// The processes whose command line holds `text`, as "PID COMMAND".
const processesWith = text => processes().filter(({ command }) => command.includes(text))
  .map(({ pid, command }) => `${pid} ${command}`)

// What a cluster of the lab's leaves: folders, postgres processes running from them.
function leftovers () {
  const folders = fs.readdirSync(os.tmpdir()).filter(name => name.startsWith(FOLDER_PREFIX) && (!database || path.join(os.tmpdir(), name) !== database.folder))
  const processes = processesWith(FOLDER_PREFIX).filter(line => line.includes('postgres') && (!database || !line.includes(database.folder)))
  return [...folders, ...processes]
}

function segments () {
  return fs.readFileSync('/proc/sysvipc/shm', 'utf8').trim().split('\n').slice(1).map(line => line.trim().split(/\s+/)[1])
}

test('the cluster: seeded with TechEmpower\'s tables, benchmark settings, pinned, over a Unix socket in its own folder', () => {
  const counts = psql('SELECT count(*) FROM world; SELECT count(*) FROM fortune; SELECT randomnumber FROM world WHERE id = 7; SHOW fsync; SHOW jit; SHOW autovacuum')
  assert.equal(counts.status, 0, counts.stderr)
  const world = worldNumbers()
  assert.deepEqual(counts.stdout.trim().split('\n'), ['10000', '12', String(world[7]), 'off', 'off', 'off'])
  assert.equal(database.env.PGHOST, database.folder)
  assert.ok(fs.existsSync(path.join(database.folder, `.s.PGSQL.${database.port}`)))
  assert.notEqual(database.port, 5432, 'never the package\'s own cluster\'s port')
  assert.match(spawnSync('taskset', ['-pc', String(database.pid)], { encoding: 'utf8' }).stdout, /list: 0$/m)
  assert.match(postgresVersion(), /^postgres \(PostgreSQL\) 15\./)
})

test('a stopped cluster leaves no process, folder or shared-memory segment', async () => {
  const before = segments()
  const other = await startPostgres()
  const segment = segments().find(id => !before.includes(id))
  assert.ok(segment, 'PostgreSQL made a System V segment')
  await other.stop()
  assert.equal(fs.existsSync(other.folder), false)
  assert.equal(segments().includes(segment), false)
  assert.deepEqual(processesWith(other.folder), [], 'no process of it')
})

test('a killed bench: its cluster dies with it, and the next start sweeps its folder', async () => {
  const child = spawn(process.execPath, ['-e', `require(${JSON.stringify(path.join(ROOT, 'experiments/db/postgres.js'))}).startPostgres().then(db => console.log(db.folder))`], { stdio: ['ignore', 'pipe', 'inherit'] })
  const folder = await new Promise(resolve => child.stdout.once('data', chunk => resolve(chunk.toString().trim())))
  assert.ok(fs.existsSync(folder))
  const exited = new Promise(resolve => child.on('exit', resolve))
  child.kill('SIGKILL')
  // reaped, as a shell reaps a killed bench: until then its pid still answers
  await exited
  const deadline = Date.now() + 10000
  while (processesWith(folder).length && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 100))
  assert.deepEqual(processesWith(folder), [], 'the postmaster died with the bench')
  sweepStale()
  assert.equal(fs.existsSync(folder), false)
})

test('PostgreSQL missing: one line that names it and the fix, exit 2, nothing started', () => {
  const result = spawnSync(process.execPath, [BENCH, '--experiment', 'db', '--quick', '--out', scratch], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, SYSCALL_LAB_PG_BIN: '/nonexistent/bin' } })
  assert.equal(result.status, 2, result.stderr + result.stdout)
  const lines = result.stderr.trim().split('\n')
  assert.equal(lines.length, 1)
  assert.match(lines[0], /PostgreSQL 15 is not installed: no \/nonexistent\/bin\/initdb \(apt-get install postgresql-15, or run \.\/setup\.sh; in the image: \.\/setup\.sh --runtime-only --db\)/)
  assert.deepEqual(fs.readdirSync(scratch), [])
})

async function checkOf (server, env = {}) {
  const port = await freePort()
  const started = await startServer(server, { port, env: { ...database.env, DB_POOL: '4', ...env } })
  try {
    return await checkDbServer(port, database.world)
  } finally {
    const stopped = await started.stop()
    assert.equal(stopped.clean, true, `${server.name} exits 0 on SIGTERM`)
  }
}

test('the checks: a right server passes; each wrong answer fails with what differs', async () => {
  assert.equal(await checkOf(brokenServer, { BROKEN: 'none' }), null)
  const cases = {
    escape: /^GET \/fortunes: answer 1 is not the expected fortunes page: they differ at character \d+: got ".*<script>.*", expected ".*&lt;script&gt;.*"$/,
    count: /^GET \/queries\?q=20: answer 1 has 19 rows, not 20 rows$/,
    type: /^GET \/db: answer \d+ has Content-Type "text\/plain", not application\/json$/,
    fixed: /^GET \/db: 32 answers drew only 1 distinct ids: the ids must be random in 1\.\.10000$/,
    repeated: /^GET \/queries\?q=20: answer 1 holds only 1 distinct ids in its 20 rows: each row must come from a query of its own/,
    status: /^GET \/db: answer \d+ has status 500, not 200$/,
    exit: /^GET \/fortunes: .*(closed|socket error)/
  }
  for (const [broken, expected] of Object.entries(cases)) {
    const port = await freePort()
    const started = await startServer(brokenServer, { port, env: { BROKEN: broken } })
    try {
      assert.match(await checkDbServer(port, database.world) ?? 'no problem', expected, broken)
    } finally {
      await started.stop()
    }
  }
})

test('every server of the table answers right in each of its variants, and exits 0 on SIGTERM', async () => {
  // every server runs here but one whose runtime only an optional set-up installs
  const cannot = servers.filter(server => serverReason(server) !== null && !optionalMissing(server.runtime))
  assert.deepEqual(cannot.map(server => `${server.name}: ${serverReason(server)}`), [])
  const runnable = servers.filter(server => serverReason(server) === null)
  for (const server of runnable) assert.equal(await checkOf(server, server.env), null, server.name)
})

// TechEmpower's rule since its Round 21 (FrameworkBenchmarks issues 7019 and 7289): each query
// its own implicit transaction, a Sync after every Bind and Execute, pipelined or not. A Sync
// shared by a batch of queries commits them as one and saves the backends their commits
// (docs/db.md). PostgreSQL counts commits (pg_stat_database.xact_commit), a backend's by the
// time it exits. A server's connections commit some of their own (their start, prepared
// statements) and so does the read of the count: each server runs twice, with no requests and
// with them, and the difference is its queries' commits.
const COMMIT_REQUESTS = 10
const COMMITS = 'SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()'
const commitCount = () => Number(psql(COMMITS).stdout)

// The postmaster's children serving a client over its socket ("postgres: USER DB [local] ..."),
// from /proc: asking PostgreSQL would commit transactions of its own. An exited child not yet
// reaped has no command line, and its counts are in.
const clientBackends = () => processes()
  .filter(({ parent, command }) => parent === database.pid && command.includes('[local]'))

// The commits a server's run makes, its backends gone: with `requests` /queries?q=20 at once.
async function commitsOf (server, requests) {
  const before = commitCount()
  const port = await freePort()
  const started = await startServer(server, { port, env: { ...database.env, DB_POOL: '4', ...server.env } })
  try {
    if (requests > 0) {
      const load = { mode: 'keep-alive', connections: requests, requests, path: ENDPOINTS.queries.path }
      const { problem } = await sendRequests(port, { ...load, check: () => null })
      assert.equal(problem, null, server.name)
    }
  } finally {
    await started.stop()
  }
  const deadline = Date.now() + 10_000
  while (clientBackends().length > 0 && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 50))
  assert.deepEqual(clientBackends(), [], `${server.name}'s backends exit with it`)
  return commitCount() - before
}

test('every pipelined server commits each query on its own, as TechEmpower asks', async () => {
  const pipelined = servers.filter(server => server.pipelined && serverReason(server) === null)
  const cannot = servers.filter(server =>
    server.pipelined && serverReason(server) !== null && !optionalMissing(server.runtime))
  assert.deepEqual(cannot.map(server => server.name), [])
  const queries = COMMIT_REQUESTS * ENDPOINTS.queries.rows
  for (const server of pipelined) {
    const idle = await commitsOf(server, 0)
    const committed = await commitsOf(server, COMMIT_REQUESTS) - idle
    assert.ok(committed >= queries, `${server.name}: ${committed} commits for ${queries} queries`)
  }
})

test('a database that dies mid-run: the cells fail with its reason, the next server gets a new one, nothing is left', async () => {
  const runDir = fs.mkdtempSync(path.join(scratch, 'run-'))
  fs.mkdirSync(path.join(runDir, 'strace'))
  const options = { timeoutSeconds: 20, db: { ...PRESETS.quick, warmup: { min: 1, max: 1 } } }
  const session = dbSession(options)
  const [server, other] = servers.filter(row => row.server === 'c-libpq')
  const step = (row, run) => ({ phase: 'db', program: row, server: row, endpoint: 'db', path: '/db', connections: 8, run, pin: { client: 0, server: 1, database: 0 } })
  try {
    const first = await measureStep(step(server, 0), options, session, runDir)
    assert.equal(first.record.ok, true, first.record.failure)
    assert.ok(first.record.backends.processes >= 4, 'the pool\'s backends were measured')
    const folder = session.database.folder
    process.kill(session.database.pid, 'SIGKILL')
    const second = await measureStep(step(server, 1), options, session, runDir)
    assert.equal(second.record.ok, false)
    assert.match(second.record.failure, /PostgreSQL exited|server exited|database/i)
    const third = await measureStep(step(other, 0), options, session, runDir)
    assert.equal(third.record.ok, true, third.record.failure)
    assert.notEqual(session.database.folder, folder, 'a new cluster')
    // the process whose run failed is not started again: its remaining runs fail with its reason
    const fourth = await measureStep(step(server, 2), options, session, runDir)
    assert.equal(fourth.record.ok, false)
    assert.match(fourth.record.failure, /^it failed a run before this one: (PostgreSQL exited|.*server exited|.*database)/i)
  } finally {
    await session.close()
  }
  assert.deepEqual(leftovers(), [])
})

// as in http's session (test/e2e/http.test.js): Ctrl-C in a peer's warm-up once went on to
// start the step's own server
test('a stop asked for while peers start: the step\'s own server is not started, its step fails', async () => {
  const options = { timeoutSeconds: 20, db: { ...PRESETS.quick, warmup: { min: 1, max: 1 } } }
  // the stop comes once the first peer is up, with the database it started
  let session = null
  session = dbSession(options, () => Boolean(session.database))
  const [first, own] = servers.filter(row => row.server === 'c-libpq')
  const pin = { client: 0, server: 1, database: 0 }
  const cell = row => ({ program: row, server: row, endpoint: 'db', path: ENDPOINTS.db.path, connections: 8, pin })
  const running = processesWith('build/db-c-libpq')
  try {
    const server = await session.serverFor({ ...cell(own), phase: 'db', run: 0, peers: [cell(first), cell(own)] })
    assert.equal(server.failure, STOPPED_BEFORE_START)
    const started = processesWith('build/db-c-libpq').filter(pid => !running.includes(pid))
    assert.equal(started.length, 1, 'the first peer alone')
  } finally {
    await session.close()
  }
  assert.deepEqual(leftovers(), [])
})

test('a session starts every server of an endpoint before its rounds, keeps them running, tells their backends apart, and stops them when the endpoint changes', async () => {
  const runDir = fs.mkdtempSync(path.join(scratch, 'run-'))
  fs.mkdirSync(path.join(runDir, 'strace'))
  const options = { timeoutSeconds: 20, db: { ...PRESETS.quick, warmup: { min: 1, max: 1 } } }
  const session = dbSession(options)
  const rows = servers.filter(row => row.server === 'c-libpq').slice(0, 2)
  const cell = (row, endpoint) => ({ program: row, server: row, endpoint, path: ENDPOINTS[endpoint].path, connections: 8, pin: { client: 0, server: 1, database: 0 } })
  const step = (row, endpoint, run) => ({ ...cell(row, endpoint), phase: 'db', run, peers: rows.map(peer => cell(peer, endpoint)) })
  try {
    const pids = new Map()
    for (const run of [0, 1]) {
      for (const row of run === 0 ? rows : [...rows].reverse()) {
        const { record } = await measureStep(step(row, 'db', run), options, session, runDir)
        assert.equal(record.ok, true, record.failure)
        assert.equal(record.backends.processes, options.db.pool, `${row.name}: its own backends only`)
        // the first step started every server of the endpoint, each with its own backends
        if (run === 0 && row === rows[0]) assert.equal(session.backendsOf(step(rows[1], 'db', 0)).length, options.db.pool, 'the second server is up before its first run')
        const pid = (await session.serverFor(step(row, 'db', run))).started.pid
        if (run === 1) assert.equal(pid, pids.get(row.name), `${row.name}: one process across the rounds`)
        pids.set(row.name, pid)
      }
    }
    // placement interleaved: the second server's run takes turns with the first's, each
    // server and its backends measured apart, in the same processes
    const inTurns = (await measureStep({ ...step(rows[1], 'db', 2), partner: rows[0] }, options, session, runDir)).record
    assert.equal(inTurns.ok, true, inTurns.failure)
    assert.equal(inTurns.partner.program, rows[0].name)
    assert.deepEqual([inTurns.backends.processes, inTurns.partner.backends.processes], [options.db.pool, options.db.pool])
    assert.ok(inTurns.partner.wrk.requests > 0 && inTurns.partner.server.cpuNs > 0 && inTurns.partner.backends.cpuNs > 0)
    assert.ok(inTurns.interleaved.turns >= 2 && inTurns.runningNs > 0 && inTurns.partner.runningNs > 0, JSON.stringify(inTurns.interleaved))
    assert.equal((await session.serverFor(step(rows[0], 'db', 2))).started.pid, pids.get(rows[0].name), 'the partner is the first server\'s own process')
    const owned = rows.map(row => session.backendsOf(step(row, 'db', 2)))
    assert.deepEqual(owned.map(pidsOf => pidsOf.length), [options.db.pool, options.db.pool])
    assert.equal(owned[0].filter(pid => owned[1].includes(pid)).length, 0, 'no backend is both servers\'')
    const { record } = await measureStep(step(rows[0], 'queries', 0), options, session, runDir)
    assert.equal(record.ok, true, record.failure)
    const alive = pid => fs.existsSync(`/proc/${pid}`)
    assert.deepEqual([...pids.values(), ...owned.flat()].filter(alive), [], '/db\'s servers and their backends are gone')
    assert.equal(record.backends.processes, options.db.pool, 'the new server\'s backends, none of the old')
  } finally {
    await session.close()
  }
  assert.deepEqual(leftovers(), [])
})

const SPREAD_TITLE = 'order spread: every round takes every endpoint in turn, in processes per server ' +
  'and endpoint kept up from the first round to the last'
test(SPREAD_TITLE, async () => {
  const runDir = fs.mkdtempSync(path.join(scratch, 'run-'))
  fs.mkdirSync(path.join(runDir, 'strace'))
  const db = { ...PRESETS.quick, runs: 2, endpoints: ['db', 'queries'], warmup: { min: 1, max: 1 } }
  const options = { timeoutSeconds: 20, order: 'spread', db }
  const rows = servers.filter(row => row.server === 'c-libpq').slice(0, 2)
  const steps = planDb(rows, options, { client: 0, server: 1, database: 0 })
  assert.deepEqual(steps.map(step => `${step.endpoint} ${step.run}`),
    ['db 0', 'db 0', 'queries 0', 'queries 0', 'queries 1', 'queries 1', 'db 1', 'db 1'])
  const session = dbSession(options)
  const pids = new Map()
  try {
    for (const step of steps) {
      const { record } = await measureStep(step, options, session, runDir)
      assert.equal(record.ok, true, record.failure)
      assert.equal(record.backends.processes, db.pool, `${step.group}: its own backends only`)
      const pid = (await session.serverFor(step)).started.pid
      const key = `${step.endpoint} ${step.server.name}`
      if (pids.has(key)) assert.equal(pid, pids.get(key), `${key}: one process across the rounds`)
      pids.set(key, pid)
      // the first step started every process of the run, each with its own pool
      if (step === steps[0]) {
        for (const peer of step.peers) assert.equal(session.backendsOf(peer).length, db.pool, `${peer.group} is up`)
      }
    }
    assert.equal(new Set(pids.values()).size, 4, 'a process per server and endpoint')
    assert.ok([...pids.values()].every(pid => fs.existsSync(`/proc/${pid}`)), 'every process up to the last round')
  } finally {
    await session.close()
  }
  assert.deepEqual([...pids.values()].filter(pid => fs.existsSync(`/proc/${pid}`)), [], 'stopped with the session')
  assert.deepEqual(leftovers(), [])
})

const LATENCY_TITLE = 'the latency pass: oha on /fortunes at a share of the reference\'s timed rate, in the ' +
  '/fortunes processes after their timed runs, a V8 server\'s collector traced from its start'
test(LATENCY_TITLE, async () => {
  assert.equal(ohaReason(), null, 'oha is built by ./setup.sh')
  const runDir = fs.mkdtempSync(path.join(scratch, 'run-'))
  fs.mkdirSync(path.join(runDir, 'strace'))
  // /fortunes here, /db in the quick run below (its preset's)
  const latencyLoad = { ...PRESETS.quick.latency, endpoints: ['fortunes'] }
  const db = { ...PRESETS.quick, endpoints: ['fortunes'], warmup: { min: 1, max: 1 }, latency: latencyLoad }
  const options = { timeoutSeconds: 20, db, latency: true }
  const rows = ['c-libpq-prepared-pipelined', 'node-pg-prepared-pipelined']
    .map(name => servers.find(row => row.name === name))
  const reason = serverReason(rows[1])
  assert.equal(reason, null, `node-pg cannot run here: ${reason}`)
  const pin = { client: 0, server: 1, database: 0 }
  const steps = planDb(rows, options, pin)
  const latency = steps.filter(step => step.phase === LATENCY_PHASE)
  // one run per client, count of connections and rate, after the endpoint's timed runs
  assert.deepEqual(latency.map(step => [step.server.name, step.endpoint, step.connections, step.rateShare]),
    rows.map(row => [row.name, 'fortunes', latencyLoad.connections[0], latencyLoad.rateShares[0]]))
  assert.ok(steps.indexOf(latency[0]) > steps.findLastIndex(step => step.phase === 'db'))
  const session = dbSession(options)
  try {
    // the reference's timed run, whose requests/s set the rates, measured again as a disturbed
    // try is (the second replaces the first), then node-pg's
    const referenceStep = steps.find(step => step.phase === 'db' && step.server === rows[0])
    const firstTry = (await measureStep(referenceStep, options, session, runDir)).record
    const referenceTimed = (await measureStep(referenceStep, options, session, runDir)).record
    assert.ok(firstTry.ok && referenceTimed.ok, firstTry.failure ?? referenceTimed.failure)
    const timedStep = steps.find(step => step.phase === 'db' && step.server === rows[1])
    const timed = (await measureStep(timedStep, options, session, runDir)).record
    assert.equal(timed.ok, true, timed.failure)
    const timedServer = await session.serverFor(timedStep)
    const timedPid = timedServer.started.pid
    // the timed run's own collections: the check's and the warm-up's, printed before, are not its
    const printed = parseGcTrace(timedServer.started.output().stdout + timedServer.started.output().stderr)
    assert.equal(timed.gc.how, 'V8 --trace-gc')
    assert.ok(timed.gc.collections > 0 && timed.gc.collections < printed.length,
      `${timed.gc.collections} of ${printed.length}`)
    const records = []
    for (const step of latency) records.push((await measureStep(step, options, session, runDir)).record)
    for (const record of records) {
      assert.equal(record.ok, true, `${record.program}: ${record.failure}`)
      assert.equal(record.capacity.requestsPerSecond, referenceTimed.wrk.requestsPerSecond)
      assert.deepEqual([record.capacity.from, record.capacity.runs], [TIMED_RATES, 1])
      assert.ok(record.rate > 0)
      assert.equal(record.rate, records[0].rate, 'the same rate for every server')
      assert.match(record.command, /-q \d+ --latency-correction .*\/fortunes$/)
      assert.equal(record.endpoint, 'fortunes')
      assert.ok(record.oha.answered > 0 && record.server.cpuNs > 0 && typeof record.holdsRate === 'boolean')
    }
    assert.deepEqual(records[0].gc, { how: null, reason: records[0].gc.reason })
    assert.equal(records[1].gc.how, 'V8 --trace-gc')
    assert.match(records[1].serverCommand, / --no-memory-reducer --trace-gc /)
    assert.deepEqual(records.map(record => record.tracedApart), [false, false])
    assert.ok(records[1].gc.collections >= 0 && records[1].gc.pausedShare >= 0)
    // the timed run's process, still up
    const latencyPid = (await session.serverFor(latency[1])).started.pid
    assert.equal(latencyPid, timedPid)
    assert.equal(fs.existsSync(`/proc/${timedPid}`), true)
  } finally {
    await session.close()
  }
  assert.deepEqual(leftovers(), [])
})

test('bench --experiment db --quick: every endpoint measured, syscalls of server and backends, nothing left running', () => {
  const result = spawnSync(process.execPath, [BENCH, '--experiment', 'db', '--quick', '--only', 'c-libpq-prepared-serial', '--out', scratch, '--id', 'quick'], { cwd: ROOT, encoding: 'utf8', timeout: 240000 })
  assert.equal(result.status, 0, result.stderr + result.stdout)
  const results = JSON.parse(fs.readFileSync(path.join(scratch, 'quick', 'results.json'), 'utf8'))
  assert.equal(results.experiment, 'db')
  // /fortunes once per client, with its first variant
  assert.deepEqual(results.db.cells.map(cell => `${cell.endpoint} ${cell.server}`).sort(), ['db c-libpq-prepared-pipelined', 'db c-libpq-prepared-serial', 'fortunes c-libpq-prepared-pipelined', 'queries c-libpq-prepared-pipelined', 'queries c-libpq-prepared-serial'])
  for (const cell of results.db.cells) {
    assert.equal(cell.runs, 1, `${cell.server} ${cell.endpoint}`)
    assert.ok(cell.cpuPerRequestUs.server > 0 && cell.cpuPerRequestUs.backends > 0)
  }
  // strace's pass on each server and endpoint where ptrace is allowed (a review: the loop below
  // held for none), else none and the context says why
  const { ptrace } = JSON.parse(fs.readFileSync(path.join(scratch, 'quick', 'context.json'), 'utf8'))
  if (ptrace?.available) assert.ok(results.db.syscalls.length > 0, 'no strace pass')
  else assert.ok(results.db.syscalls.length === 0 && ptrace?.reason, `no pass, and why: ${JSON.stringify(ptrace)}`)
  for (const entry of results.db.syscalls) {
    assert.ok(entry.self.work >= 2, `${entry.server} ${entry.endpoint}: its server's work ${entry.self.work}`)
    assert.ok(entry.backends.work >= 1, `${entry.server} ${entry.endpoint}: its backends' work ${entry.backends.work}`)
  }
  // a kernel pass run keeps its tracer's CPU time apart from wrk's (a review, 2026-12-07: wrk's
  // held it); a timed run has no tracer
  const logged = fs.readFileSync(path.join(scratch, 'quick', 'all.jsonl'), 'utf8').trim().split('\n')
    .map(line => JSON.parse(line))
  const kernelRuns = logged.filter(each => each.phase === 'db-kernel' && each.ok)
  // where the machine's probes run, the pass ran (else its context says why not)
  const { bpf } = JSON.parse(fs.readFileSync(path.join(scratch, 'quick', 'context.json'), 'utf8'))
  if (bpf?.available) assert.ok(kernelRuns.length > 0, 'the kernel pass ran')
  else assert.ok(kernelRuns.length === 0 && bpf?.reason, `no pass, and why: ${JSON.stringify(bpf)}`)
  for (const record of kernelRuns) {
    assert.ok(Number.isFinite(record.tracerCpuNs) && record.tracerCpuNs >= 0, JSON.stringify(record.tracerCpuNs))
    assert.ok(Number.isFinite(record.wrkCpuNs) && record.wrkCpuNs >= 0)
    // no rest under the probes: the tracer reaped after the window holds its start before it
    assert.equal(record.restCpuNs, null)
  }
  assert.ok(logged.filter(each => each.phase === 'db').every(each => !('tracerCpuNs' in each)))
  // by default one server at a time (docs/db.md says why)
  assert.equal(results.db.placement, 'alone')
  assert.ok(results.db.cells.every(cell => cell.inTurns === false))
  const context = JSON.parse(fs.readFileSync(path.join(scratch, 'quick', 'context.json'), 'utf8'))
  assert.deepEqual(context.placement.passes.db, { wrk: 0, database: 0, server: 1 })
  assert.equal(context.dbPlacement, 'alone')
  assert.match(context.database.version, /PostgreSQL\) 15/)
  // the clients from npm, as package-lock.json pins them (a review: no run named them)
  const locked = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')).packages
  assert.deepEqual(context.dbClients,
    { pg: locked['node_modules/pg'].version, postgres: locked['node_modules/postgres'].version })
  // the latency pass: the reference on /db, the run's one rate, or the one line saying why not
  if (ohaReason() === null) {
    assert.deepEqual(results.db.latency.runs.map(run => [run.server, run.ok]), [['c-libpq-prepared-pipelined', true]])
    assert.equal(context.dbLatency.rateShares[0], PRESETS.quick.latency.rateShares[0])
  } else {
    assert.equal(results.db.latency, null)
    assert.match(result.stdout + result.stderr, /no latency pass: oha is not installed/)
  }
  assert.deepEqual(leftovers(), [])
})

test('--placement one-cpu: the server, wrk, oha and the database on one CPU, recorded and said so', () => {
  const args = ['--experiment', 'db', '--quick', '--placement', 'one-cpu', '--only', 'c-libpq-prepared-serial',
    '--endpoints', 'db', '--no-strace', '--no-kernel', '--out', scratch, '--id', 'one-cpu']
  const result = spawnSync(process.execPath, [BENCH, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 240000 })
  assert.equal(result.status, 0, result.stderr + result.stdout)
  const run = path.join(scratch, 'one-cpu')
  const context = JSON.parse(fs.readFileSync(path.join(run, 'context.json'), 'utf8'))
  const cpu = context.placement.passes.db.server
  assert.deepEqual(context.placement.passes.db, { wrk: cpu, database: cpu, server: cpu })
  assert.deepEqual(context.dbPin, { client: cpu, server: cpu, database: cpu })
  assert.equal(context.dbPlacement, 'one-cpu')
  const records = fs.readFileSync(path.join(run, 'all.jsonl'), 'utf8').trim().split('\n').map(line => JSON.parse(line))
  const timed = records.filter(record => record.phase === 'db')
  assert.ok(timed.length >= 2 && timed.every(record => record.ok), JSON.stringify(timed.map(r => r.failure)))
  const pinned = new RegExp(`^taskset -c ${cpu} `)
  for (const record of records.filter(record => record.command)) assert.match(record.command, pinned)
  // oha too (./setup.sh builds it): the latency pass's runs are among those commands
  assert.equal(ohaReason(), null, 'oha is built by ./setup.sh')
  assert.ok(records.some(record => record.phase === LATENCY_PHASE))
  const results = JSON.parse(fs.readFileSync(path.join(run, 'results.json'), 'utf8'))
  assert.equal(results.db.placement, 'one-cpu')
  assert.ok(results.db.cells.every(cell => cell.cpuPerRequestUs.server > 0 && cell.inTurns === false))
  const report = spawnSync(process.execPath, [path.join(ROOT, 'analyse.js'), run], { cwd: ROOT, encoding: 'utf8' })
  assert.equal(report.status, 0, report.stderr)
  const page = fs.readFileSync(path.join(run, 'report.html'), 'utf8')
  assert.match(page, /each server is pinned to the same CPU, one at a time, so that no wake-up crosses CPUs/)
  // the answer's chart names the placement where its ratios are drawn
  assert.match(page, /\/db, \d+ connections, on one CPU with wrk and the database/)
  const where = `one thread on CPU ${cpu}, the database on CPU ${cpu}, the server pinned to CPU ${cpu}`
  assert.match(page, new RegExp(where))
  assert.deepEqual(leftovers(), [])
})

test('Ctrl-C mid-run: the bench stops, keeps what it measured, and leaves no server, cluster or folder', async () => {
  const servers = () => processesWith('build/db-c-libpq')
  const running = servers()
  const child = spawn(process.execPath, [BENCH, '--experiment', 'db', '--quick', '--only', 'c-libpq-prepared-serial', '--out', scratch, '--id', 'stopped'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', chunk => { output += chunk })
  // the second group's progress line: the first group's runs are logged by then
  await new Promise((resolve, reject) => {
    const started = Date.now()
    const timer = setInterval(() => {
      const second = /^step (\d+) of/gm
      const steps = [...output.matchAll(second)].map(match => Number(match[1]))
      if (steps.length >= 2 || Date.now() - started > 120000) {
        clearInterval(timer)
        if (steps.length >= 2) resolve()
        else reject(new Error(`no second group within 120 s: ${output}`))
      }
    }, 50)
  })
  child.kill('SIGINT')
  const code = await new Promise(resolve => child.on('exit', resolve))
  assert.notEqual(output.match(/interrupted: \d+ of \d+ runs measured and kept/), null, output)
  // lib/cli.js's exit on an interrupted run, as bench.test.js asserts it
  assert.equal(code, 130, output)
  assert.deepEqual(servers().filter(pid => !running.includes(pid)), [], 'no server left')
  assert.deepEqual(leftovers(), [])
  // --resume measures the rest, with the servers the run began with
  const resumed = spawnSync(process.execPath, [BENCH, '--resume', path.join(scratch, 'stopped')], { cwd: ROOT, encoding: 'utf8', timeout: 240000 })
  assert.equal(resumed.status, 0, resumed.stderr + resumed.stdout)
  const results = JSON.parse(fs.readFileSync(path.join(scratch, 'stopped', 'results.json'), 'utf8'))
  assert.equal(results.db.cells.length, 5)
  assert.ok(results.db.cells.every(cell => cell.runs === 1))
  assert.deepEqual(leftovers(), [])
})
