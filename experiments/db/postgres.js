'use strict'
// The db experiment's PostgreSQL: Debian's postgresql-15, a cluster of its own made for
// each run in a temporary folder, seeded with TechEmpower's tables, and gone with the run.
//
// - initdb refuses root, so as root the cluster belongs to the `postgres` user (Debian's
//   package makes it) or `nobody`; the bench's servers reach it as root through a Unix
//   socket in the folder, made world-writable, or through 127.0.0.1 on a free port.
// - Debian's own 15/main cluster on 5432 is neither used nor touched: the port is free
//   and the socket folder is the run's.
// - Nothing outlives the run. The cluster is stopped with a fast shutdown, then its
//   System V segment (the one IPC object PostgreSQL 15 keeps outside its folder) is
//   removed if it is left, then the folder. The postmaster runs in its own process group,
//   so the terminal's Ctrl-C reaches the bench, which stops it in order; it dies with the
//   bench (setpriv --pdeathsig) if the bench is killed; and a folder such a kill leaves is
//   removed by the next start (sweepStale).
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { spawnWithParent } = require('../../lib/pipeline')
const { freePort } = require('../http/servers')
const { seededRandom } = require('../../lib/stats')
const { within } = require('../../lib/wait')
const { isExecutable, findOnPath } = require('../../lib/runtimes')
const { readText, commandLine } = require('../../lib/procfs')
const { FORTUNES, WORLD_ROWS } = require('./expected')

const BIN_DIR = process.env.SYSCALL_LAB_PG_BIN ?? '/usr/lib/postgresql/15/bin'
const FOLDER_PREFIX = 'syscall-lab-pg-'
const USER = 'benchmarkdbuser'
const DATABASE = 'hello_world'
const WORLD_SEED = 20261125
const READY_MS = 30000
const STOP_MS = 10000

// Settings for a benchmark, not for keeping data: what a query costs, not what a
// durable commit does. The tables are read-only, so autovacuum would only add noise;
// JIT would compile nothing these plans need, in some backends and not others.
const SETTINGS = {
  listen_addresses: '127.0.0.1',
  unix_socket_permissions: '0777',
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  jit: 'off',
  autovacuum: 'off',
  // the floor: postgresSettings raises it to hold every pool a run keeps open at once
  max_connections: '200',
  shared_buffers: '128MB',
  huge_pages: 'off',
  // dynamic shared memory as files in the cluster's folder, so it goes with the folder
  dynamic_shared_memory_type: 'mmap',
  log_min_messages: 'warning'
}

// The settings of a cluster whose clients hold `connections` at once, with room for the
// lab's own psql and checks.
const postgresSettings = (connections = 0) => ({ ...SETTINGS, max_connections: String(Math.max(Number(SETTINGS.max_connections), connections + 20)) })

// Why no cluster can be made here, or null.
function postgresReason () {
  const missing = ['initdb', 'postgres', 'psql'].map(program => path.join(BIN_DIR, program)).find(file => !isExecutable(file))
  // the image leaves it out unless a run asks for it (docs/image.md)
  if (missing) return `PostgreSQL 15 is not installed: no ${missing} (apt-get install postgresql-15, or run ./setup.sh; in the image: ./setup.sh --runtime-only --db)`
  if (!findOnPath('setpriv')) return 'setpriv is not installed (apt-get install util-linux)'
  return null
}

// The user the cluster runs as: this process's own, or an unprivileged one for root.
function clusterOwner () {
  if (process.getuid() !== 0) return { name: os.userInfo().username, uid: process.getuid(), gid: process.getgid() }
  const passwd = fs.readFileSync('/etc/passwd', 'utf8').split('\n').map(line => line.split(':'))
  for (const name of ['postgres', 'nobody']) {
    const entry = passwd.find(fields => fields[0] === name)
    if (entry) return { name, uid: Number(entry[2]), gid: Number(entry[3]) }
  }
  throw new Error('running as root, and no postgres or nobody user to own the cluster (initdb refuses root): run ./setup.sh, or useradd postgres')
}

// PostgreSQL's version line, e.g. "postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)".
function postgresVersion () {
  return spawnSync(path.join(BIN_DIR, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout?.trim() || null
}

// World's randomNumber column, by id (index 0 unused): the same table on every run.
function worldNumbers () {
  const random = seededRandom(WORLD_SEED)
  const numbers = new Int32Array(WORLD_ROWS + 1)
  for (let id = 1; id <= WORLD_ROWS; id++) numbers[id] = 1 + Math.floor(random() * 10000)
  return numbers
}

const sqlText = text => `'${text.replaceAll("'", "''")}'`

function seedScript (numbers) {
  const rows = []
  for (let id = 1; id <= WORLD_ROWS; id++) rows.push(`${id}\t${numbers[id]}`)
  return [
    'CREATE TABLE world (id integer NOT NULL, randomnumber integer NOT NULL DEFAULT 0, PRIMARY KEY (id));',
    'COPY world (id, randomnumber) FROM STDIN;',
    ...rows,
    '\\.',
    'CREATE TABLE fortune (id integer NOT NULL, message varchar(2048) NOT NULL, PRIMARY KEY (id));',
    `INSERT INTO fortune (id, message) VALUES ${FORTUNES.map(({ id, message }) => `(${id}, ${sqlText(message)})`).join(', ')};`,
    'VACUUM ANALYZE;',
    ''
  ].join('\n')
}

// Starts a seeded cluster, the postmaster and every process it forks pinned to `cpu`
// (null: unpinned), with room for `connections` clients at once. Resolves to the database: { env (PGHOST, PGPORT, PGUSER, PGDATABASE),
// pid, folder, port, world (randomNumber by id), alive(), logTail(), stop() }; rejects with one line naming what failed, having removed what it made.
async function startPostgres ({ cpu = null, timeoutMs = READY_MS, connections = 0 } = {}) {
  const reason = postgresReason()
  if (reason) throw new Error(reason)
  sweepStale()
  const owner = clusterOwner()
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), FOLDER_PREFIX))
  fs.writeFileSync(path.join(folder, 'bench.pid'), `${process.pid}\n`)
  fs.chmodSync(folder, 0o755)
  fs.chownSync(folder, owner.uid, owner.gid)
  const data = path.join(folder, 'data')
  const logFile = path.join(folder, 'postgres.log')
  let child = null
  let exited = null
  const database = {
    folder,
    alive: () => child !== null && child.exitCode === null && child.signalCode === null,
    logTail: () => logTail(logFile),
    stop: () => stopCluster(child, exited, folder)
  }
  try {
    const asOwner = { uid: owner.uid, gid: owner.gid, encoding: 'utf8', env: { PATH: process.env.PATH, LC_ALL: 'C' }, timeout: timeoutMs }
    const initdb = spawnSync(path.join(BIN_DIR, 'initdb'), ['-D', data, '-U', USER, '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'], asOwner)
    if (initdb.status !== 0) throw new Error(`initdb failed: ${lastLine(initdb.stderr) || initdb.error?.message || `exit ${initdb.status}`}`)
    database.port = await freePort()
    const settings = Object.entries(postgresSettings(connections)).flatMap(([name, value]) => ['-c', `${name}=${value}`])
    const pin = cpu === null ? [] : ['taskset', '-c', String(cpu)]
    const log = fs.openSync(logFile, 'a')
    fs.fchownSync(log, owner.uid, owner.gid)
    const postgres = [...pin, path.join(BIN_DIR, 'postgres'), '-D', data, '-k', folder,
      '-p', String(database.port), ...settings]
    child = spawnWithParent(postgres, {
      uid: owner.uid, gid: owner.gid, env: asOwner.env, stdio: ['ignore', log, log], detached: true
    })
    fs.closeSync(log)
    exited = new Promise(resolve => child.on('exit', (code, signal) => resolve({ code, signal })))
    child.on('error', () => {})
    database.pid = child.pid
    await waitReady(database, logFile, timeoutMs)
    database.env = { PGHOST: folder, PGPORT: String(database.port), PGUSER: USER, PGDATABASE: DATABASE }
    database.world = worldNumbers()
    const psql = (db, args, input) => spawnSync(path.join(BIN_DIR, 'psql'), ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', folder, '-p', String(database.port), '-U', USER, '-d', db, ...args], { input, encoding: 'utf8', timeout: timeoutMs, env: { PATH: process.env.PATH } })
    for (const [db, args, input] of [['postgres', ['-c', `CREATE DATABASE ${DATABASE}`]], [DATABASE, ['-f', '-'], seedScript(database.world)]]) {
      const result = psql(db, args, input)
      if (result.status !== 0) throw new Error(`seeding the database failed: ${lastLine(result.stderr) || result.error?.message || `psql exited ${result.status}`}`)
    }
    return database
  } catch (err) {
    await database.stop()
    throw err
  }
}

// Waits for the log's ready line; a postmaster that exits or stays silent fails with
// the log's last line.
async function waitReady (database, logFile, timeoutMs) {
  const started = performance.now()
  for (;;) {
    if (/database system is ready to accept connections/.test(readText(logFile))) return
    if (!database.alive()) throw new Error(`PostgreSQL exited at start: ${logTail(logFile) || 'no log'}`)
    if (performance.now() - started > timeoutMs) {
      throw new Error(`PostgreSQL was not ready within ${timeoutMs / 1000} s: ${logTail(logFile) || 'no log'}`)
    }
    await new Promise(resolve => setTimeout(resolve, 25))
  }
}

const lastLine = text => (text ?? '').trim().split('\n').pop().trim()
const logTail = file => lastLine(readText(file).split('\n').filter(line => !/^\s*$/.test(line)).slice(-1)[0])

// The System V segment postmaster.pid names ("key id" on its 7th line), or null.
function segmentOf (folder) {
  const line = readText(path.join(folder, 'data', 'postmaster.pid')).split('\n')[6]
  const id = line?.trim().split(/\s+/)[1]
  return id && /^\d+$/.test(id) ? Number(id) : null
}

function segmentExists (id) {
  return readText('/proc/sysvipc/shm').split('\n').some(line => line.trim().split(/\s+/)[1] === String(id))
}

// Fast shutdown, then immediate, then SIGKILL to the whole group; then the segment if
// left, then the folder. Resolves once all are gone.
async function stopCluster (child, exited, folder) {
  const segment = segmentOf(folder)
  if (child && child.exitCode === null && child.signalCode === null) {
    for (const [signal, waitMs] of [['SIGINT', STOP_MS], ['SIGQUIT', STOP_MS / 2], ['SIGKILL', STOP_MS]]) {
      killGroup(child.pid, signal)
      if ((await within(exited, waitMs)).done) break
    }
  }
  // a postmaster that died first leaves its backends to notice; SIGKILL takes any left
  if (child) killGroup(child.pid, 'SIGKILL')
  removeSegment(segment)
  fs.rmSync(folder, { recursive: true, force: true })
}

function killGroup (pid, signal) {
  try {
    process.kill(-pid, signal)
  } catch {} // already gone
}

function removeSegment (id) {
  if (id !== null && segmentExists(id)) spawnSync('ipcrm', ['-m', String(id)], { stdio: 'ignore' })
}

// Folders of clusters whose bench is gone (killed before it could stop them): their
// postmaster, if still up, is stopped at once, then the segment and the folder go.
function sweepStale () {
  let names = []
  try {
    names = fs.readdirSync(os.tmpdir()).filter(name => name.startsWith(FOLDER_PREFIX))
  } catch {}
  for (const name of names) {
    const folder = path.join(os.tmpdir(), name)
    const benchPid = Number(readText(path.join(folder, 'bench.pid')).trim())
    if (benchPid && processAlive(benchPid)) continue
    const postmaster = Number(readText(path.join(folder, 'data', 'postmaster.pid')).split('\n')[0])
    if (postmaster && processAlive(postmaster) && commandLine(postmaster).includes(folder)) killGroup(postmaster, 'SIGKILL')
    removeSegment(segmentOf(folder))
    fs.rmSync(folder, { recursive: true, force: true })
  }
}

function processAlive (pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return err.code === 'EPERM'
  }
}

module.exports = { startPostgres, postgresReason, postgresVersion, postgresSettings, sweepStale, worldNumbers, USER, DATABASE, BIN_DIR, FOLDER_PREFIX }
