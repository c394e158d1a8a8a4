'use strict'
// The db experiment's plan and its measurement, step by step.
//
// One PostgreSQL serves the whole run (experiments/db/postgres.js), started by the first
// step and stopped with the session. A cell is a server (a client and its variant), an
// endpoint and a count of connections. Cells run in rounds of one run of every server, so
// that the servers one table compares are measured alike as the machine's speed drifts;
// each round takes every endpoint in turn (order spread) or each endpoint's rounds come
// together (order endpoint). Every server keeps running across its rounds, one process per
// server and endpoint, started, checked on every endpoint (experiments/db/check.js) and
// warmed up as the http experiment's are. Each server's backends are told apart from the
// others' by when they opened (databaseKeeper).
//
// CPU per request is split by process: the server (every thread), the database's
// backends that serve the server's connections, the database's own upkeep (postmaster,
// checkpointer, writers), wrk, and the rest of the measured CPUs' busy time (the kernel's
// softirq work for the loopback and the Unix sockets, the bench's own process).
//
// The strace pass: per server and endpoint, after its timed runs, strace -f -c attached
// to the same server process and a second to its backends while it answers a count of
// requests, once at `small` and once at `large`; syscalls per request are the difference
// of the counts over the difference of requests.
const fs = require('node:fs')
const path = require('node:path')
const { shellQuote } = require('../../lib/pipeline')
const { parseStraceSummary, attachArgv, straceDuring, callCounts } = require('../../lib/strace')
const { userNs, busyNs, userForeign, benchUserNs, stealNs, stealBetween } = require('../../lib/foreign')
const { CLK_TCK, childrenOf, commandLine } = require('../../lib/procfs')
const { freePort, startServer } = require('../http/servers')
const { sendRequests, survivesResets } = require('../http/client')
const { wrkArgv, runWrk, parseWrk, wrkFailure, sharedLoad, WRK_GRACE_MS } = require('../http/wrk')
const { runInterleaved, turnsRecord } = require('../http/interleave')
const { processCpu, readProcess, childrenUserNs, childrenCpuNs, cpuBetween } = require('../http/cpu')
const {
  warmUp, processTrace, runAtShare, collectionsFrom, loadSpanNs, compilesRecord, timedRatesStore,
  STOPPED_BEFORE_START
} = require('../http/measure')
const { TIMED_RATES } = require('../http/oha')
const { formatPercent } = require('../../lib/report/format')
const { startPostgres, USER, DATABASE } = require('./postgres')
const { traceProcesses, insideWindow, parseProfile, windowCalls, profileProblem } = require('../../lib/sysprof')
const { servers, REFERENCE } = require('./servers')
const { ENDPOINTS, checkDbServer, endpointCheck } = require('./check')

const PHASE = 'db'
const STRACE_PHASE = 'db-strace'
// The kernel pass (lib/sysprof.js, docs/kernel.md): one more wrk run of each cell in the
// same server processes, the server's and its backends' syscalls counted by eBPF probes
const KERNEL_PHASE = 'db-kernel'
// The latency pass (as the http experiment's, docs/http.md): after an endpoint's timed and
// kernel runs, in the same server processes (started with their collectors traced; Bun's,
// whose trace costs CPU, in a traced process of its own: processTrace), each client's first
// variant under oha on the endpoint at fixed rates, the same for every server (a share of what
// the reference answered in its timed runs there: measureLatency), on the client's CPU beside the
// database; at the preset's endpoints (its latency.endpoints), those a run measures.
// Processes of their own cost a default run 20 s of starts and warm-ups.
const LATENCY_PHASE = 'db-latency'
// runs from before the pass took its endpoints from the preset ran it on /db alone
const latencyEndpointsOf = latency => latency?.endpoints ?? ['db']
const MODE = 'keep-alive'
const STRACE_CONNECTIONS = 16
// /queries?q=20 traces a tenth of the requests /db does: twice the queries
const STRACE_QUERIES_SCALE = 10
// At most 3 warm-up runs a server: 4 took the default run past the 6 minutes it then took. A
// server whose last two never agreed within 5% in its CPU per request (warmUp's
// warmupSettled) is found so by its runs' classification (lib/steady.js).
// The latency pass's load (--no-latency skips it): the http experiment's counts of connections
// (the thttpd study's 20, 100 and 1000), runs of 2 s (http's are 1.2 s), at one share of the
// reference's timed rate, on /db and on /fortunes, TechEmpower's page of rows (/queries'
// twenty queries a request left out: some 40 s more, past the 8 minutes a default run may take)
const PRESETS = {
  default: {
    runs: 4,
    seconds: 1,
    connections: [64],
    endpoints: ['db', 'queries', 'fortunes'],
    pool: 4,
    warmup: { min: 2, max: 3 },
    // strace runs a request's calls at a fraction of their speed: 300 requests between the
    // two runs resolve a call per request to 0.0033 (/queries: 30 of 20 queries each)
    straceRequests: { small: 100, large: 400 },
    latency: { endpoints: ['db', 'fortunes'], connections: [20, 100, 1000], rateShares: [0.1], seconds: 2 }
  },
  quick: {
    runs: 1,
    seconds: 1,
    connections: [16],
    endpoints: ['db', 'queries', 'fortunes'],
    pool: 4,
    warmup: { min: 1, max: 1 },
    straceRequests: { small: 40, large: 160 },
    latency: { endpoints: ['db'], connections: [20], rateShares: [0.1], seconds: 1 }
  }
}

// wrk and the database on one CPU, the server alone on the other (docs/db.md says why);
// placement one-cpu: all three on the server's CPU, so that no request's wake-up crosses CPUs
const dbPin = (httpPin, placement = 'alone') => placement === 'one-cpu'
  ? { client: httpPin.server, server: httpPin.server, database: httpPin.server }
  : { client: httpPin.client, server: httpPin.server, database: httpPin.client }

// How the servers share the server's CPU (docs/db.md), the default first:
// alone        one server at a time
// interleaved  each timed run beside REFERENCE's, both servers on the server's CPU and both
//              wrks with the database on the other, the two loads taking turns in slices
//              (experiments/http/interleave.js): a server and C in the same moment
// one-cpu      one server at a time, sharing its CPU with wrk and the database (dbPin)
const PLACEMENTS = ['alone', 'interleaved', 'one-cpu']

// When each endpoint's rounds run (docs/db.md), the default first:
// endpoint  each endpoint's rounds together, its processes stopped before the next's start
// spread    each round takes every endpoint in turn, so that a slow minute falls on one
//           round of every endpoint, not on every round of one; every server process of
//           the run is up from the first round to the last (it did no better)
const ORDERS = ['endpoint', 'spread']

function planDb (selected, options, pin) {
  const steps = []
  const { runs, connections, endpoints, straceRequests } = options.db
  const spread = options.order === 'spread'
  // /fortunes with one variant per client, its first (the reference for its own client, whose
  // timed runs set the latency pass's rates): the page costs the same to render whichever
  // statement fetched its rows
  const reference = selected.find(server => server.name === REFERENCE) ?? null
  const firsts = firstVariants(selected, server => server, reference)
  // the servers kept up together: the whole run's (spread) or the endpoint's
  const cellOf = (endpoint, server) => {
    const group = `${endpoint}: ${server.name}`
    const generation = spread ? 'run' : endpoint
    const { path } = ENDPOINTS[endpoint]
    const where = { endpoint, path, blockSize: null, warmup: 0, pin, group, generation }
    // every server process with its collector traced where that costs nothing measurable
    // (processTrace), so that the latency pass can run in the /db processes
    const warmupConnections = Math.max(...connections)
    return { program: server, server, ...where, gcTrace: true, warmupConnections }
  }
  const cellsOf = new Map(endpoints.map(endpoint =>
    [endpoint, (endpoint === 'fortunes' ? firsts : selected).map(server => cellOf(endpoint, server))]))
  const everyCell = [...cellsOf.values()].flat()
  // Rounds of one run per server, every server started before the first and kept
  // running: the servers a table compares share the machine's drift, run for run. Each
  // round goes the other way from the one before, so that a drift across the rounds
  // weighs on every server alike.
  const timedRounds = (cells, peers) => {
    for (const count of connections) {
      for (let run = 0; run < runs; run++) {
        for (const cell of run % 2 === 0 ? cells : [...cells].reverse()) {
          const inTurns = options.placement === 'interleaved' && reference && cell.server !== reference
          const partner = inTurns ? reference : null
          const label = `${cell.group}, ${count} connection${count === 1 ? '' : 's'}, ` +
            `run ${run + 1} of ${runs}${partner ? `, in turns with ${REFERENCE}` : ''}`
          steps.push({ ...cell, phase: PHASE, peers, partner, connections: count, run, label })
        }
      }
    }
  }
  if (spread) timedRounds(everyCell, everyCell)
  for (const [endpoint, cells] of cellsOf) {
    const peers = spread ? everyCell : cells
    if (!spread) timedRounds(cells, peers)
    // under the probes, in the same server processes, each cell's load once more
    if (options.kernel) {
      for (const count of connections) {
        for (const cell of cells) {
          const label = `${cell.group}, kernel, ${count} connection${count === 1 ? '' : 's'}`
          steps.push({ ...cell, phase: KERNEL_PHASE, peers, connections: count, run: 0, label })
        }
      }
    }
    if (options.latency && latencyEndpointsOf(options.db.latency).includes(endpoint)) {
      steps.push(...latencySteps(cells, peers, reference, options.db.latency))
    }
    // traced in the same server processes once the timed rounds are done; a request of
    // many queries takes as many calls as that many requests of one, so fewer are sent
    if (!options.strace) continue
    for (const cell of cells) {
      for (const requests of straceCounts(endpoint, straceRequests)) {
        const label = `${cell.group}, strace, ${requests} requests`
        steps.push({ ...cell, phase: STRACE_PHASE, connections: STRACE_CONNECTIONS, requests, run: 0, label })
      }
    }
  }
  return steps
}

// The strace pass's two request counts at an endpoint: a request of many queries takes as many
// calls as that many requests of one, so fewer are sent (/queries?q=20: a tenth).
function straceCounts (endpoint, straceRequests) {
  const scale = Math.min(ENDPOINTS[endpoint].rows ?? 1, STRACE_QUERIES_SCALE)
  return [straceRequests.small, straceRequests.large].map(count => Math.ceil(count / scale))
}

// Of `items` (servers, or cells by their `serverOf`), each client's first variant, in their
// order; the reference for its own client, so that its timed runs, which set the latency
// pass's rates, are measured at each of the pass's endpoints.
function firstVariants (items, serverOf, reference) {
  const clientOf = item => serverOf(item).server
  const firstOf = client => items.find(item => serverOf(item) === reference && clientOf(item) === client) ??
    items.find(item => clientOf(item) === client)
  return items.filter(item => firstOf(clientOf(item)) === item)
}

// The latency pass's runs in the endpoint's server processes, once its timed and kernel runs
// are done: each client's first variant, the reference's client by the reference, whose
// timed runs set the rates.
function latencySteps (cells, peers, reference, { connections: counts, rateShares }) {
  const rows = firstVariants(cells, cell => cell.server, reference)
  const steps = []
  for (const cell of rows) {
    for (const count of counts) {
      for (const rateShare of rateShares) {
        const label = `latency: ${cell.server.name}, /${cell.endpoint}, ${count} connections, ` +
          `${formatPercent(rateShare)} of ${REFERENCE}'s timed rate`
        const where = { connections: count, rateShare, run: 0, rateFrom: TIMED_RATES }
        steps.push({ ...cell, ...where, phase: LATENCY_PHASE, peers, label })
      }
    }
  }
  return steps
}

// The processes of a cluster: the backends of the bench's database (one per connection a
// server opened) and the rest (postmaster, checkpointer, writers, launchers), by pid.
function clusterProcesses (postmaster) {
  const children = childrenOf(postmaster)
  const backends = []
  const upkeep = [postmaster]
  for (const pid of children) {
    const title = commandLine(pid)
    if (title.startsWith(`postgres: ${USER} ${DATABASE} `)) backends.push(pid)
    else upkeep.push(pid)
  }
  return { backends, upkeep }
}

// The CPU time of a set of processes between two readings, summed; a process gone by the
// second reading counts what it had at the first, so none is counted twice. Each is read
// alone: the postmaster's processes are its backends and upkeep, counted apart.
function readGroup (pids) {
  return new Map(pids.map(pid => [pid, readProcess(pid)]).filter(([, cpu]) => cpu))
}
function groupBetween (before, after) {
  let cpuNs = 0
  let userTicks = 0
  for (const [pid, first] of before) {
    const last = after.get(pid)
    if (!last) continue
    const between = cpuBetween(first, last)
    cpuNs += between.cpuNs
    userTicks += between.userTicks
  }
  return { cpuNs, userTicks, processes: before.size }
}

// a server's process: one per endpoint, and a traced one beside it for a latency run whose
// trace would cost the timed runs CPU (processTrace); the processes of a generation are up
// together (planDb)
const generationOf = step => step.generation ?? step.endpoint
const processOf = step => `${step.server.name}\t${step.endpoint}` +
  (processTrace(step, LATENCY_PHASE).apart ? '\ttraced' : '')
const SERVER_STARTS = 2
// How long a stopped server's backends may take to notice and exit.
const BACKENDS_EXIT_MS = 5000

// Every server process of a generation keeps its pool open while its rounds run, the latency
// pass's traced processes (processTrace) theirs beside them: the pool times the most processes
// the plan of `selected` keeps up at once (its steps' processes per generation). Until a review
// of 2026-12-07 this counted every server of the table at every endpoint and a traced process
// per latency endpoint, whatever --only, /fortunes's one variant a client and --no-latency left
// out, and refused pools the run could hold (--order spread --endpoints db --pool 64).
const connectionsAtOnce = (options, selected = servers) => {
  const generations = new Map()
  for (const step of planDb(selected, options, {})) {
    const generation = generationOf(step)
    if (!generations.has(generation)) generations.set(generation, new Set())
    generations.get(generation).add(processOf(step))
  }
  return options.db.pool * Math.max(0, ...[...generations.values()].map(processes => processes.size))
}

// The run's database: started by the first step that needs it, pinned where that step
// says, and started afresh when it has died (failure() then says how it ended). It knows
// which server opened each backend: a backend no server owns yet was opened by the
// server that claim() names, since servers open connections only while they are started,
// checked, warmed up or measured, one at a time.
function databaseKeeper (options) {
  let database = null
  let failure = null
  const owners = new Map()
  return {
    async ensure (pin) {
      if (database?.alive()) return database
      if (database) {
        failure = `PostgreSQL exited during the run: ${database.logTail() || 'no log'}`
        await database.stop()
        database = null
        owners.clear()
      }
      database = await startPostgres({ cpu: pin.database, timeoutMs: options.timeoutSeconds * 1000, connections: connectionsAtOnce(options) })
      return database
    },
    get current () { return database },
    failure: () => failure,
    // The backends of the server `key` names, with any no server owns yet.
    claim (key) {
      const { backends } = clusterProcesses(database.pid)
      for (const pid of owners.keys()) if (!backends.includes(pid)) owners.delete(pid)
      for (const pid of backends) if (!owners.has(pid)) owners.set(pid, key)
      return backends.filter(pid => owners.get(pid) === key)
    },
    // Resolves once the backends of a stopped server have exited, so that none is taken
    // for the next server's.
    async release (key) {
      const pids = [...owners].filter(([, owner]) => owner === key).map(([pid]) => pid)
      const started = performance.now()
      while (pids.some(pid => commandLine(pid) !== '') && performance.now() - started < BACKENDS_EXIT_MS) {
        await new Promise(resolve => setTimeout(resolve, 10))
      }
      for (const pid of pids) owners.delete(pid)
    },
    async close () {
      if (database) await database.stop()
      database = null
      owners.clear()
    }
  }
}

// The running servers of the steps being measured, one process per server and endpoint,
// kept until the steps move to another generation (planDb), with the database. A server that
// failed to start, its check or its warm-up gets one more start before the rest of its steps
// fail.
function dbSession (options, interrupted = () => false) {
  const databases = databaseKeeper(options)
  const running = new Map()
  const failedStarts = new Map()
  const stopProcess = async server => {
    if (!server.started) return
    const sameDatabase = server.database === databases.current && server.database.alive()
    // what it opened since it was last measured is its own too
    if (sameDatabase) databases.claim(server.key)
    await server.started.stop()
    server.started = null
    if (sameDatabase) await databases.release(server.key)
  }
  const stopServer = async key => {
    const server = running.get(key)
    running.delete(key)
    if (server) await stopProcess(server)
  }
  // a process that failed a run stays failed (failRun); one that failed its start is given
  // SERVER_STARTS; a running one is usable while its database is the one up
  const usable = server => server.failedRun || (server.failure
    ? failedStarts.get(server.key) >= SERVER_STARTS
    : server.database === databases.current && server.database.alive())
  const serverFor = async (step, note = () => {}) => {
    for (const other of [...running.values()]) if (other.generation !== generationOf(step)) await stopServer(other.key)
    // every server of the generation started, checked and warmed up before its rounds
    // begin, so that no timed run has a server starting just before it
    const peers = step.peers ?? []
    for (const [i, peer] of peers.entries()) {
      if (interrupted()) break
      await serverOf(peer, text => note(`${text} (${i} of ${peers.length} up)`))
    }
    return serverOf(step, note)
  }
  const serverOf = async (step, note = () => {}) => {
    const key = processOf(step)
    const server = running.get(key)
    if (server && usable(server)) return server
    // a stop asked for starts nothing more, as in http's session
    if (interrupted()) {
      const generation = generationOf(step)
      const never = { failure: STOPPED_BEFORE_START, started: null, warmupRates: [] }
      return { key, generation, ...never }
    }
    await stopServer(key)
    const current = {
      key,
      generation: generationOf(step),
      failure: null,
      started: null,
      warmupRates: [],
      warmupCpuUs: [],
      warmupAgreed: null
    }
    running.set(key, current)
    const what = `/${step.endpoint}: ${step.server.name}`
    try {
      if (!databases.current?.alive()) note('starting PostgreSQL')
      const database = await databases.ensure(step.pin)
      current.database = database
      const port = await freePort()
      current.port = port
      note(`${what}: starting`)
      // its collector traced (V8's --trace-gc; Bun's log in the latency pass's process)
      const traced = processTrace(step, LATENCY_PHASE).trace
      current.trace = traced
      current.started = await startServer(step.server, {
        port,
        prefix: ['taskset', '-c', String(step.pin.server), ...(traced?.prefix ?? [])],
        timeoutMs: options.timeoutSeconds * 1000,
        v8Flags: traced?.v8Flags ?? [],
        env: { ...serverEnv(step.server, database, options), ...(traced?.env ?? {}) }
      })
      note(`${what}: checking every endpoint`)
      const timeoutMs = options.timeoutSeconds * 1000
      const problem = await checkDbServer(port, database.world, { timeoutMs })
      if (problem) throw new Error(problem)
      // its clients' resets survived, and its error path taken before its warm-up (client.js)
      const check = () => checkDbServer(port, database.world, { timeoutMs })
      const afterResets = await survivesResets(port, check, { path: ENDPOINTS.db.path, timeoutMs })
      if (afterResets) throw new Error(afterResets)
      note(`${what}: warming up at ${step.warmupConnections ?? step.connections} connections`)
      current.warmupAgreed = await warmUp(current, { ...step, mode: MODE, connections: step.warmupConnections ?? step.connections }, options.db, interrupted)
      // its backends, before the next server opens its own
      databases.claim(key)
    } catch (err) {
      current.failure = databases.failure() && !databases.current?.alive() ? databases.failure() : err.message
      failedStarts.set(key, (failedStarts.get(key) ?? 0) + 1)
      // stopped at once: a failed server waits for no round, and its backends are no one's
      await stopProcess(current)
    }
    return current
  }
  return {
    serverFor,
    // the reference's timed runs' requests/s, for the latency pass's rates
    timedRates: timedRatesStore(),
    // the backends of a step's server: its own, with any it opened since it was last asked
    backendsOf: step => databases.claim(processOf(step)),
    ensureDatabase: pin => databases.ensure(pin),
    get database () { return databases.current },
    // a process whose run failed is stopped, and its remaining runs fail with its reason, as
    // http's do (experiments/http/measure.js): a process started again after a crash would
    // carry on its cell's sequence as if it were the one the sequence began with
    failRun: async (step, failure) => {
      const server = running.get(processOf(step))
      if (!server) return
      await stopProcess(server)
      Object.assign(server, { failure: `it failed a run before this one: ${failure}`, failedRun: true })
    },
    close: async () => {
      for (const key of [...running.keys()]) await stopServer(key)
      await databases.close()
    }
  }
}

const serverEnv = (server, database, options) => ({ ...database.env, ...server.env, DB_POOL: String(options.db.pool) })

// One step: a wrk run of a cell (timed or kernel pass), a latency pass run or a run of the
// strace pass. A timed run's record goes to the session's store of rates, as a resumed run's
// logged one does (timedRatesStore).
async function measureStep (step, options, session, runDir, note = () => {}) {
  if (step.phase === STRACE_PHASE) return { record: await measureStrace(step, options, session, runDir), stopped: false }
  if (step.phase === LATENCY_PHASE) return measureLatency(step, options, session, note)
  const result = await measureWrk(step, options, session, runDir, note)
  if (step.phase === PHASE) session.timedRates.keep(step, result.record)
  return result
}

// A wrk run of a cell, under the probes for the kernel pass, in turns with the reference's
// pair where the placement takes them.
async function measureWrk (step, options, session, runDir, note) {
  const server = await session.serverFor(step, note)
  const base = {
    phase: step.phase,
    program: step.server.name,
    endpoint: step.endpoint,
    connections: step.connections,
    blockSize: null,
    run: step.run
  }
  // placement interleaved: the reference's server of this endpoint, its load taking turns
  // with this one's
  const partnerStep = step.partner
    ? { ...step, server: step.partner, program: step.partner, partner: null }
    : null
  const partner = partnerStep ? await session.serverFor(partnerStep, note) : null
  // the load this step's connections need at the rate its warm-up found (experiments/http/wrk.js
  // loadFor), the longer of the two where the reference's runs beside it
  const load = { ...options.db, ...sharedLoad(options.db, step.connections, [server, partner]) }
  const argv = wrkArgv({ ...step, mode: MODE }, server.port ?? '{port}', { http: load })
  const failed = failure => ({
    record: { ...base, ok: false, failure, command: shellQuote(argv), at: new Date().toISOString() },
    stopped: false
  })
  if (server.failure) return failed(server.failure)
  if (partner?.failure) return failed(`${REFERENCE}, which runs beside it, failed: ${partner.failure}`)
  const pid = server.started.pid
  const cluster = { backends: session.backendsOf(step), upkeep: clusterProcesses(server.database.pid).upkeep }
  const theirs = partner ? { pid: partner.started.pid, backends: session.backendsOf(partnerStep) } : null
  const cpus = [...new Set([step.pin.client, step.pin.server, step.pin.database])]
  const readings = () => ({
    server: processCpu(pid),
    backends: readGroup(cluster.backends),
    upkeep: readGroup(cluster.upkeep),
    partner: theirs ? { server: processCpu(theirs.pid), backends: readGroup(theirs.backends) } : null,
    children: childrenCpuNs(),
    childrenUser: childrenUserNs(),
    benchUser: benchUserNs(),
    user: userNs(cpus),
    busy: busyNs(cpus),
    steal: stealNs(cpus)
  })
  const tracing = step.phase === KERNEL_PHASE ? await startTracing(step, [pid, ...cluster.backends], runDir) : null
  if (tracing && !tracing.ok) {
    const failure = `kernel pass: ${tracing.failure}`
    const record = { ...base, ok: false, failure, command: shellQuote(argv), at: new Date().toISOString() }
    return { record, stopped: false }
  }
  // the tracer's window (a throw in it kills the tracer), from the collections on
  const { collections, before, windowStart, wrk, partnerWrk, wrkDone, wrkDoneCpu } = await insideWindow(tracing,
    async () => {
      // the run's collections where its process traces them (processTrace)
      const collections = collectionsFrom(server.started, processTrace(step, LATENCY_PHASE).trace)
      const before = readings()
      const windowStart = process.hrtime.bigint()
      const timeoutMs = load.seconds * 1000 + WRK_GRACE_MS
      const [wrk, partnerWrk = null] = partner
        ? await runInterleaved([
          { argv },
          { argv: wrkArgv({ ...partnerStep, mode: MODE }, partner.port, { http: load }) }
        ], { timeoutMs })
        : [await runWrk(argv, timeoutMs)]
      // wrk's user time, before the tracer is reaped: the tracer's own, on the server's CPU, is
      // the step's own there, where it is pinned
      const wrkDone = childrenUserNs()
      return { collections, before, windowStart, wrk, partnerWrk, wrkDone, wrkDoneCpu: childrenCpuNs() }
    })
  const traced = tracing ? await tracing.stop() : null
  const after = readings()
  const windowNs = Number(process.hrtime.bigint() - windowStart)
  const output = parseWrk(wrk.stdout)
  const gc = collections.end(output.requests ?? 0, loadSpanNs({ seconds: output.seconds, windowNs }))
  const compiles = collections.compiles()
  const kernel = traced ? kernelCounts(traced, output.requests, cluster.backends) : null
  const exited = server.started.exited()
  const partnerOutput = partnerWrk ? parseWrk(partnerWrk.stdout) : null
  const partnerFailure = partner
    ? wrkFailure({
      wrk: partnerWrk,
      output: partnerOutput,
      exited: partner.started.exited(),
      unannouncedClose: false,
      connections: step.connections,
      seconds: load.seconds
    })
    : null
  if (partnerFailure) await session.failRun(partnerStep, partnerFailure)
  const served = { wrk, output, exited, unannouncedClose: false, connections: step.connections, seconds: load.seconds }
  let serverFailure = wrkFailure(served) ??
    (partnerFailure ? `${REFERENCE}, which ran beside it: ${partnerFailure}` : null)
  if (!serverFailure && !server.database.alive()) {
    serverFailure = `PostgreSQL exited during the run: ${server.database.logTail() || 'no log'}`
  }
  // the tracer's own problem fails this run, not the process, whose later runs (the latency
  // pass's, the strace pass's) are as good as they were
  const failure = serverFailure ?? kernel?.problem ?? null
  if (serverFailure) await session.failRun(step, serverFailure)
  // a connection the server reopened during the run is its own, not the next server's
  else session.backendsOf(step)
  const serverCpu = before.server && after.server ? cpuBetween(before.server, after.server) : null
  const backends = groupBetween(before.backends, after.backends)
  const upkeep = groupBetween(before.upkeep, after.upkeep)
  const partnerCpu = partner && before.partner.server && after.partner.server
    ? {
        server: cpuBetween(before.partner.server, after.partner.server),
        backends: groupBetween(before.partner.backends, after.partner.backends)
      }
    : null
  // wrk's alone: the tracer, reaped after it, is its own (until a review of 2026-12-07 a kernel
  // pass run's wrkCpuNs held it)
  const wrkNs = wrkDoneCpu - before.children
  const tracerNs = after.children - wrkDoneCpu
  const busy = after.busy.reduce((sum, ns, i) => sum + ns - before.busy[i], 0)
  const record = {
    ...base,
    ok: failure === null,
    failure,
    command: shellQuote(argv),
    wallNs: wrk.wallNs,
    wrk: output,
    load: { seconds: load.seconds, timeoutSeconds: load.timeoutSeconds ?? null },
    // what the hypervisor took from the run's CPUs meanwhile (lib/steal.js)
    steal: stealBetween(cpus, before.steal, after.steal),
    warmupRates: server.warmupRates,
    warmupCpuUs: server.warmupCpuUs,
    // the count the warm-up ran at: a cell at another belongs to another sequence
    warmupConnections: step.warmupConnections ?? step.connections,
    warmupAgreed: server.warmupAgreed,
    warmupBasis: server.warmupBasis ?? null,
    ...compilesRecord(server, compiles),
    server: serverCpu,
    pool: options.db.pool,
    backends,
    databaseUpkeep: upkeep,
    // wrk's CPU time: both wrks' where the reference's ran beside it
    wrkCpuNs: wrkNs,
    // the kernel pass's tracer (build/sysprof), where it ran: its whole life, its start before
    // the window included (40-60 ms a run in a --quick run, 2026-12-07)
    ...(tracing ? { tracerCpuNs: tracerNs } : {}),
    // the measured CPUs' busy time that no measured process had: the kernel's network
    // work in softirq, the bench itself, anything else; none under the probes, where the
    // tracer's time reaped after the window holds its start before it (it came out at -42 to
    // -141 ms a run, 2026-12-07)
    restCpuNs: serverCpu && !tracing
      ? busy - serverCpu.cpuNs - backends.cpuNs - upkeep.cpuNs - wrkNs -
        (partnerCpu ? partnerCpu.server.cpuNs + partnerCpu.backends.cpuNs : 0)
      : null,
    // placement interleaved: the time this server's load was let run, and the reference's
    // beside it, measured alike (its wrk's command is this one's with the reference's port)
    ...(partner
      ? turnsRecord(wrk, partnerWrk, {
        program: REFERENCE,
        wrk: partnerOutput,
        server: partnerCpu?.server ?? null,
        backends: partnerCpu?.backends ?? null
      })
      : {}),
    ...(kernel?.counts ? { kernel: kernel.counts, rawFile: tracing.rawFile } : {}),
    ...(gc ? { gc } : {}),
    at: new Date().toISOString()
  }
  if (serverCpu) {
    const tick = 1e9 / CLK_TCK
    // the reference's server and backends beside it are no one else
    const serversTicks = serverCpu.userTicks + (partnerCpu?.server.userTicks ?? 0)
    const databaseTicks = backends.userTicks + upkeep.userTicks + (partnerCpu?.backends.userTicks ?? 0)
    const own = cpu => (cpu === step.pin.server ? serversTicks * tick : 0) +
      (cpu === step.pin.database ? databaseTicks * tick : 0)
    // wrk and the tracer have been waited for by now: their user time is in this process's cutime
    const wrkUser = wrkDone - before.childrenUser
    const tracerUser = after.childrenUser - wrkDone
    const ownUserNs = cpus.map(cpu => own(cpu) + (cpu === step.pin.client ? wrkUser : 0) +
      (cpu === step.pin.server ? tracerUser : 0))
    const benchUser = after.benchUser - before.benchUser
    record.foreign = userForeign({ cpus, before: before.user, after: after.user, windowNs, ownUserNs, benchUser })
  }
  if (record.ok && (serverCpu === null || backends.processes === 0)) Object.assign(record, { ok: false, failure: serverCpu === null ? 'the server\'s CPU time could not be read from /proc' : 'the server has no database backend: it opened no connection' })
  if (record.ok && partner && partnerCpu === null) {
    const failure = `the CPU time of ${REFERENCE}, which ran beside it, could not be read from /proc`
    Object.assign(record, { ok: false, failure })
  }
  return { record, stopped: wrk.signal === 'SIGINT' }
}

// A latency pass run: oha on the step's endpoint at its rate and connections
// (experiments/http/oha.js), the server's CPU and collections over the run. The rate is
// step.rateShare of the median requests/s of the reference's timed runs at the endpoint (a
// resumed run's from its log too; its warm-up's last run where no timed run was kept).
async function measureLatency (step, options, session, note) {
  const server = await session.serverFor(step, note)
  const referenceRow = step.peers.map(peer => peer.server).find(row => row.name === REFERENCE)
  const referenceStep = referenceRow ? { ...step, server: referenceRow, program: referenceRow } : null
  const reference = referenceStep ? await session.serverFor(referenceStep, note) : null
  const { record, stopped } = await runAtShare({ ...step, mode: MODE }, {
    server,
    reference,
    timedRates: referenceStep && session.timedRates.of(referenceStep),
    referenceName: REFERENCE,
    seconds: options.db.latency.seconds,
    path: step.path,
    // tracedApart: run in a traced process beside the timed one, not in it
    fields: {
      phase: LATENCY_PHASE,
      program: step.server.name,
      endpoint: step.endpoint,
      mode: MODE,
      tracedApart: processTrace(step, LATENCY_PHASE).apart
    },
    failRun: failure => session.failRun(step, failure)
  })
  // a connection the server reopened during the run is its own, not the next server's
  if (record.ok) session.backendsOf(step)
  return { record, stopped }
}

// The probes on the server and its backends for one wrk run, sysprof on the server's CPU;
// the profile is kept in runDir/kernel/, gzipped.
async function startTracing (step, pids, runDir) {
  const rawFile = path.join('kernel', `db-${step.server.name}-${step.endpoint}-${step.connections}.json`)
  fs.mkdirSync(path.join(runDir, 'kernel'), { recursive: true })
  const placed = { prefix: ['taskset', '-c', String(step.pin.server)] }
  const tracer = await traceProcesses(pids, path.join(runDir, rawFile), placed)
  if (!tracer.ok) return tracer
  return { ok: true, rawFile: `${rawFile}.gz`, stop: tracer.stop, kill: tracer.kill }
}

// A window's syscalls per request, the server's (its threads and children) apart from its
// backends'; each call's count, failures and median time on the CPU in the kernel.
function kernelCounts (traced, requests, backendPids) {
  if (!traced.ok) return { problem: `kernel pass: ${traced.failure}` }
  const profile = parseProfile(traced.text)
  const problem = profileProblem(profile)
  if (problem) return { problem }
  const isBackend = call => backendPids.includes(call.tgid)
  const server = { requests, syscalls: windowCalls(profile, call => !isBackend(call)) }
  const backends = { requests, syscalls: windowCalls(profile, isBackend) }
  return { counts: { requests, floorNs: profile.floorNs, server, backends } }
}

// One run of the strace pass, in the server process the cell's timed runs used (or a new
// one, checked and warmed up alike): strace -f -c attached to every thread of the server and
// the processes under it, on the server's CPU, a second to its backends, on the database's;
// step.requests requests; both detached, which writes their summaries to runDir/strace/.
// Start-up and exit are in no count, and what attaching and detaching cost is in both runs
// of a pair, so the difference cancels it. A server that answers wrongly or exits is closed;
// a strace that cannot attach fails this run alone.
async function measureStrace (step, options, session, runDir) {
  const name = `db-${step.server.name}-${step.endpoint}-${step.requests}`
  const files = { server: path.join(runDir, 'strace', `${name}.txt`), backends: path.join(runDir, 'strace', `${name}-backends.txt`) }
  const server = await session.serverFor(step)
  const pid = server.started?.pid ?? '{pid}'
  const prefix = cpu => ['taskset', '-c', String(cpu)]
  const base = {
    phase: STRACE_PHASE,
    program: step.server.name,
    endpoint: step.endpoint,
    connections: step.connections,
    requests: step.requests,
    blockSize: null,
    run: step.run,
    command: shellQuote([...prefix(step.pin.server), ...attachArgv([pid], files.server)])
  }
  const record = (failure, calls = {}) => ({
    ...base,
    ok: failure === null,
    failure,
    server: calls.server ?? null,
    backends: calls.backends ?? null,
    at: new Date().toISOString()
  })
  if (server.failure) return record(server.failure)
  const backends = session.backendsOf(step)
  if (backends.length === 0) {
    const failure = 'the server has no database backend: it opened no connection'
    await session.failRun(step, failure)
    return record(failure)
  }
  const timeoutMs = options.timeoutSeconds * 1000
  const targets = [
    { pids: [pid], file: files.server, prefix: prefix(step.pin.server) },
    { pids: backends, file: files.backends, prefix: prefix(step.pin.database) }
  ]
  const load = {
    mode: MODE,
    connections: step.connections,
    requests: step.requests,
    timeoutMs,
    path: step.path,
    check: endpointCheck(step.endpoint, server.database.world)
  }
  const answered = async () => (await sendRequests(server.port, load)).problem
  const { tracerFailure, workFailure } = await straceDuring(targets, answered, { timeoutMs })
  const serverFailure = workFailure ?? (server.started.exited() ? 'the server exited during the strace run' : null)
  if (serverFailure) await session.failRun(step, serverFailure)
  if (serverFailure || tracerFailure) return record(serverFailure ?? tracerFailure)
  try {
    const read = file => {
      const summary = parseStraceSummary(fs.readFileSync(file, 'utf8'))
      return { syscalls: callCounts(summary), totalCalls: summary.totalCalls }
    }
    return record(null, { server: read(files.server), backends: read(files.backends) })
  } catch (err) {
    return record(`no strace summary: ${err.message}`)
  }
}

module.exports = {
  PHASE,
  STRACE_PHASE,
  KERNEL_PHASE,
  LATENCY_PHASE,
  latencyEndpointsOf,
  STRACE_CONNECTIONS,
  PRESETS,
  PLACEMENTS,
  ORDERS,
  MODE,
  dbPin,
  connectionsAtOnce,
  straceCounts,
  planDb,
  dbSession,
  measureStep
}
