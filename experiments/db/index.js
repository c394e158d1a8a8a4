'use strict'
// The db experiment: servers per runtime answering TechEmpower's /db, /queries and
// /fortunes from a PostgreSQL the bench starts (experiments/db/postgres.js), under wrk:
// requests/s, CPU per request split between the server, the database and the rest, and
// syscalls per request for the server and its backends. Its interface is the one
// experiments/index.js describes.
const path = require('node:path')
const fs = require('node:fs')
const { UsageError, wholeNumber, repeatCount, makeDirs } = require('../../lib/options')
const { pickRows, namedRows, recordedRows } = require('../../lib/rows')
const { rerunArgs, skipRow, choiceRow, isWhole } = require('../../lib/option-schema')
const { sharedResults, isRecordList } = require('../../lib/results')
const { dataPoints } = require('../../lib/run-log')
const { shellQuote } = require('../../lib/pipeline')
const { ROOT } = require('../../lib/paths')
const { serverArgv, httpContext } = require('../http/servers')
const { servers, REFERENCE, serverReason, listing } = require('./servers')
const {
  PHASE, STRACE_PHASE, KERNEL_PHASE, LATENCY_PHASE, PRESETS, PLACEMENTS, ORDERS, dbPin, connectionsAtOnce, planDb,
  dbSession, measureStep, latencyEndpointsOf
} = require('./measure')
const { ohaReason, latencyContext, latencyPlanNotes } = require('../http/oha')
const { formatPercent } = require('../../lib/report/format')
const { postgresVersion, postgresSettings } = require('./postgres')
const { ENDPOINTS } = require('./check')
const { summariseDb } = require('./summary')
const { connectionCounts } = require('../http/wrk')

// Every server of an endpoint holds its pool at once, and the latency pass's traced process
// one beside them: 22 pools of 64, 1,408 backends, is as many as --pool may ask a run's plan
// to hold open at once (with --order spread, every endpoint's servers), counted from the
// servers --only names (configure); the database's max_connections is sized by a plan of
// every server (measure.js connectionsAtOnce), so it holds any such run.
const MAX_POOL = 64
const MAX_BACKENDS = (servers.length + 1) * MAX_POOL

const rows = [
  {
    name: 'runs',
    type: 'string',
    metavar: 'N',
    takes: 'a whole number',
    help: ['wrk runs of 1 s per cell (default {default}, --quick {quick})'],
    parse: text => repeatCount(text, 'runs'),
    preset: { default: PRESETS.default.runs, quick: PRESETS.quick.runs },
    stored: [isWhole(1), 'a whole number of at least 1'],
    rerun: true
  },
  {
    name: 'connections',
    type: 'string',
    metavar: 'A,B,...',
    takes: 'connection counts such as 16,64',
    help: ['wrk\'s connections, one cell each (default {default}; --quick {quick})'],
    parse: text => connectionCounts(text),
    preset: { default: PRESETS.default.connections, quick: PRESETS.quick.connections }
  },
  {
    name: 'endpoints',
    type: 'string',
    metavar: 'NAME,...',
    takes: `endpoints among ${Object.keys(ENDPOINTS).join(', ')}`,
    help: [`the endpoints, one cell each: ${Object.entries(ENDPOINTS).map(([name, { path }]) => `${name} (${path})`).join(', ')} (default all)`],
    parse: text => {
      const names = [...new Set(text.split(',').map(name => name.trim()))]
      const unknown = names.find(name => !(name in ENDPOINTS))
      if (unknown !== undefined) throw new UsageError(`--endpoints ${JSON.stringify(unknown)} is no endpoint; give some of ${Object.keys(ENDPOINTS).join(', ')}`)
      return Object.keys(ENDPOINTS).filter(name => names.includes(name))
    },
    preset: { default: PRESETS.default.endpoints, quick: PRESETS.quick.endpoints }
  },
  {
    name: 'pool',
    type: 'string',
    metavar: 'N',
    takes: `a whole number from 1 to ${MAX_POOL}`,
    help: ['database connections each server opens (default {default})'],
    parse: text => {
      const pool = wholeNumber(text, 'pool', 1)
      if (pool > MAX_POOL) throw new UsageError(`--pool ${pool} is more than ${MAX_POOL}; give 1 to ${MAX_POOL}`)
      return pool
    },
    preset: { default: PRESETS.default.pool, quick: PRESETS.quick.pool }
  },
  // alone by default: on this lab's VMs turns did not steady db's ratios as they did http's
  // (docs/db.md, "Placement")
  choiceRow({
    name: 'placement',
    choices: PLACEMENTS,
    help: [
      'how the servers take the server\'s CPU: alone, one server at a time (default); interleaved,',
      `each run beside ${REFERENCE}'s, the two servers' loads taking turns in slices of 50 ms (each`,
      'server against C in the same moment); or one-cpu, one server at a time on the CPU of wrk',
      'and the database, no wake-up crossing CPUs'
    ]
  }),
  choiceRow({
    name: 'order',
    choices: ORDERS,
    help: [
      'when each endpoint\'s rounds run: endpoint, each endpoint\'s rounds together (default); or',
      'spread, every round taking every endpoint in turn, all server processes up at once'
    ]
  }),
  skipRow('strace', 'skip the syscall profile pass'),
  skipRow('kernel', 'skip the kernel pass (eBPF: syscalls per request at full speed)'),
  skipRow('latency', 'skip the latency pass (oha at fixed rates on /db and /fortunes, --quick /db)')
]

const stored = {
  db: [value => isWhole(1)(value?.runs) && isWhole(1)(value?.seconds) && isWhole(1)(value?.pool) && Array.isArray(value?.connections) && value.connections.length > 0 && value.connections.every(isWhole(1)) && Array.isArray(value?.endpoints) && value.endpoints.every(name => name in ENDPOINTS) && isWhole(1)(value?.straceRequests?.small) && value.straceRequests.large > value.straceRequests.small, 'the db experiment\'s { runs, seconds, pool, connections, endpoints, straceRequests }']
}

function configure (options) {
  const { connections, endpoints, pool, ...rest } = options
  const db = { ...PRESETS[options.preset], connections, endpoints, pool, runs: options.runs }
  const configured = { ...rest, db }
  // the servers --only names, before asking which can run here: a bound for the pools
  const backends = connectionsAtOnce(configured, namedRows(servers, options.only ?? [], REFERENCE))
  if (backends > MAX_BACKENDS) {
    const most = Math.floor(MAX_BACKENDS / (backends / pool))
    throw new UsageError(`--pool ${pool}${options.order === 'spread' ? ' with --order spread' : ''} ` +
      `may hold up to ${backends} database connections open at once, more than ${MAX_BACKENDS}; ` +
      `give --pool ${most} or less${options.order === 'spread' ? ', or --order endpoint' : ''}`)
  }
  return configured
}

// The servers --only picks, the reference's always: every other is set against it.
function select (options, recorded = null) {
  return pickRows(servers, options.only, {
    recorded,
    always: REFERENCE,
    reasonOf: serverReason,
    matchesNone: (pattern, names) => `--only ${pattern} matches no server of the db experiment; they are: ${names.join(', ')}`,
    cannotRun: (server, reason) => `cannot run the server ${server.name}: ${reason}`
  })
}

function recorded (context) {
  const names = Array.isArray(context.programs) ? context.programs.map(program => program?.name) : []
  return recordedRows(servers, names, { context, what: missing => `the server${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`, source: 'experiments/db/servers.js' })
}

function plan (options, { runnable }, { ptrace, bpf, placement }) {
  const passes = {
    strace: options.strace && ptrace.available,
    kernel: options.kernel && bpf?.available,
    latency: options.latency && ohaReason() === null
  }
  return planDb(runnable, { ...options, ...passes }, dbPin(placement.http, options.placement))
}

function cellKey (step) {
  const program = step.program.name ?? step.program
  return [step.phase, program, step.endpoint, step.connections, step.requests ?? '', step.rateShare ?? ''].join('\t')
}

// A resumed run's log (`log`, bench.js) gives the latency pass the reference's timed runs it holds.
function session (options, runDir, interrupted, log = null) {
  makeDirs(path.join(runDir, 'strace'))
  const running = dbSession(options, interrupted)
  if (log) running.timedRates.seed(log.steps.filter(step => step.phase === PHASE), log.records, cellKey)
  return {
    measure: (step, run, note) => measureStep(step, options, running, runDir, note),
    close: () => running.close()
  }
}

// The PostgreSQL clients of npm the servers run (Bun's is its own, in Bun's version), as
// installed from package-lock.json: a run names the code it measured.
const NPM_CLIENTS = ['pg', 'postgres']
function clientVersions () {
  return Object.fromEntries(NPM_CLIENTS.map(name => {
    // its package.json read from its folder: postgres's exports do not name it
    const file = path.join(ROOT, 'node_modules', name, 'package.json')
    try {
      return [name, JSON.parse(fs.readFileSync(file, 'utf8')).version]
    } catch {
      return [name, null]
    }
  }))
}

// What a db run's numbers depend on beyond the servers: PostgreSQL's version and
// settings, the pool, the clients, wrk, and where each process ran.
function context (options, { runnable }, placement) {
  const { wrk, loopback } = httpContext(runnable, placement.http)
  const pin = dbPin(placement.http, options.placement)
  return {
    dbServers: runnable.map(server => ({ name: server.name, runtime: server.runtime, prepared: server.prepared, pipelined: server.pipelined, command: `${Object.entries(server.env).map(([name, value]) => `${name}=${value}`).join(' ')} DB_POOL=${options.db.pool} ${shellQuote(serverArgv(server, '{port}'))}` })),
    dbPin: pin,
    dbPlacement: options.placement,
    dbOrder: options.order,
    // runs measured in rounds of every server, which the summary pairs round by round
    // (a run from before rounds lacks it and is not paired)
    dbRounds: true,
    wrk,
    loopback,
    database: {
      version: postgresVersion(),
      settings: postgresSettings(connectionsAtOnce(options)),
      transport: 'Unix socket',
      pool: options.db.pool
    },
    dbClients: clientVersions(),
    dbLatency: latencyContext(options.latency, options.db.latency, { client: pin.client, server: pin.server })
  }
}

function describe (options, { runnable }) {
  const turns = (options.placement === 'interleaved' ? `, each in turns with ${REFERENCE}'s` : '') +
    (options.placement === 'one-cpu' ? ', each on one CPU with wrk and the database' : '') +
    (options.order === 'spread' ? ', every round over every endpoint' : '')
  const { endpoints, connections, pool, seconds } = options.db
  return `${runnable.length} servers, endpoints ${endpoints.join(', ')}, connections ` +
    `${connections.join(',')}, a pool of ${pool}, ${options.runs} wrk runs of ${seconds} s per cell` +
    `${turns}${options.latency && ohaReason() === null ? latencyText(options.db.latency, endpoints) : ''}` +
    `${options.strace ? ', and the strace pass' : ''}`
}

const latencyText = (latency, measured) => {
  const endpoints = latencyEndpointsOf(latency).filter(endpoint => measured.includes(endpoint))
  if (endpoints.length === 0) return ''
  return `, the latency pass (oha on ${endpoints.map(endpoint => `/${endpoint}`).join(' and ')} at ` +
    `${latency.rateShares.map(formatPercent).join(' and ')} of ${REFERENCE}'s timed rate, connections ` +
    `${latency.connections.join(',')})`
}

function derive (logged, context) {
  const shared = sharedResults(logged, context, ['endpoint', 'connections', 'requests', 'rateShare'], 'db')
  return { 'results.json': { ...shared, db: summariseDb(dataPoints(logged), context) } }
}

// A failed cell measured again: its server with the reference, its endpoint, at its
// count of connections (a failed strace run: at the run's counts), with the run's pool.
function rerun (options, { phase, program, endpoint, connections }) {
  const args = program !== REFERENCE ? ['--only', program] : []
  // a strace or latency run's connections are its pass's own, not a --connections of the timed runs
  const ownCounts = phase === STRACE_PHASE || phase === LATENCY_PHASE
  const counts = ownCounts ? options.db.connections.join(',') : connections
  args.push('--endpoints', endpoint, '--connections', counts, '--pool', String(options.db.pool),
    ...rerunArgs(options, rows, options.preset))
  return { env: '', args }
}

const failureLabel = failure => `${failure.endpoint}, ${failure.connections} connections` +
  (failure.requests ? `, ${failure.requests} requests` : '') +
  (failure.rateShare ? `, at ${formatPercent(failure.rateShare)} of ${REFERENCE}'s timed rate` : '')

module.exports = {
  name: 'db',
  phases: [PHASE, STRACE_PHASE, KERNEL_PHASE, LATENCY_PHASE],
  about: [
    'servers answering TechEmpower\'s /db, /queries and /fortunes from a PostgreSQL',
    'the bench starts: requests/s, CPU per request split between server, database',
    'and the rest, syscalls per request; --only takes a server\'s whole name or a pattern',
    `of its client: ${[...new Set(servers.map(server => `${server.server}-*`))].join(', ')} (--list names them all)`
  ],
  options: rows,
  stored,
  // runs from before the latency pass had none
  later: { kernel: false, placement: 'alone', latency: false, order: 'endpoint' },
  // what the run leaves out that it was asked for, said before it starts
  planNotes: options => latencyPlanNotes(options.latency),
  configure,
  list: () => listing(),
  select,
  recorded,
  plan,
  cellKey,
  session,
  context,
  passes: (options, placement) => {
    const { client, database, server } = dbPin(placement.http, options.placement)
    return { db: { wrk: client, database, server } }
  },
  describe,
  derive,
  resultsProblem: results => (results.db === undefined
    ? 'no db summary'
    : results.db !== null && !isRecordList(results.db.cells) ? 'a db summary without its list of cells' : null),
  measured: results => results.db?.cells.length > 0,
  rerun,
  failureLabel,
  PHASE,
  get report () { return require('./report') }
}
