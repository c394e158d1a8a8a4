'use strict'
// A db run's log summarised: per cell (server, endpoint, connections) requests/s and CPU
// per request by process, against the reference server; per server and endpoint, the
// server's and its backends' syscalls per request from the strace pass; and the two
// questions of the variants, per client: prepared against unnamed, pipelined against one
// query in flight.
const { median, summarise, ratioInterval, pairedRatio } = require('../../lib/stats')
const { interleavedHalves } = require('../../lib/repeatability')
const { processClasses, steadyRuns, cellSteadiness, unsteadyCell } = require('../../lib/steady')
const {
  pairCalls, kernelPerRequest, latencyRuns, wrkLatency, cellFlags, gcStatesOf, faultsOf, LATENCY_WORDS,
  FAULTS_MEANING
} = require('../http/summary')
const { servers, REFERENCE } = require('./servers')
const {
  PHASE, STRACE_PHASE, KERNEL_PHASE, LATENCY_PHASE, STRACE_CONNECTIONS, latencyEndpointsOf
} = require('./measure')
const { ENDPOINTS } = require('./check')
const { userShareOfRuns, requestsPerSlice, USER_SHARE_MEANING, SLICES_WORDS } = require('../http/cpu')
const { dbHalves } = require('./repeatability')

// Below this share of its CPU over a wrk run, the server waited: for wrk or for the
// database, which share the other CPU. Requests/s then measure that CPU, not the server.
const CLIENT_BOUND_SHARE = 0.9

// CPU per request, each process's part: µs of CPU over the requests wrk completed. In a
// run beside the reference's (placement interleaved) the server and its backends are its
// own, and what the two loads shared (the database's upkeep, both wrks, the rest) is
// split by the time each load was let run.
const ownShare = run => run.partner && run.runningNs > 0
  ? run.runningNs / (run.runningNs + run.partner.runningNs)
  : 1
const PARTS = [
  ['server', run => run.server.cpuNs],
  ['backends', run => run.backends.cpuNs],
  ['databaseUpkeep', run => run.databaseUpkeep.cpuNs * ownShare(run)],
  ['wrk', run => run.wrkCpuNs * ownShare(run)],
  ['rest', run => Math.max(0, run.restCpuNs) * ownShare(run)]
]

// A run's requests/s: over the time its load was let run where it took turns.
const rateOf = run => run.partner && run.runningNs > 0
  ? run.wrk.requests / (run.runningNs / 1e9)
  : run.wrk.requestsPerSecond
// The server's CPU over the time its load ran: in turns, the time its load was let run.
const serverShare = run => run.server.cpuNs / (run.partner ? run.runningNs : run.wallNs)
// The reference's side of a run that took turns with it, as a run of its own.
const partnerRun = run => ({
  ...run,
  program: run.partner.program,
  wrk: run.partner.wrk,
  server: run.partner.server,
  backends: run.partner.backends,
  runningNs: run.partner.runningNs
})
const ratioOf = run => run.partner?.server && run.partner.wrk?.requests > 0
  ? serverCpuPerRequest(run) / serverCpuPerRequest(partnerRun(run))
  : null

const MEANING = {
  requestsPerSecond: 'wrk\'s requests/s, one thread on the CPU it shares with the database, the ' +
    'server alone on the other (placement interleaved: over the time its load was let run, taking ' +
    'turns with the reference\'s; one-cpu: the server on that CPU too); best, median and range ' +
    'of the runs, against one server process per server and endpoint, checked and warmed up (wrk ' +
    'runs until two in a row agree within 5% in the server\'s CPU per request)',
  cpuPerRequestUs: 'CPU time over a run over the requests wrk completed, median of the runs, by ' +
    'process: the server (every thread), the backends serving its connections, the database\'s ' +
    'upkeep processes, wrk, and the rest of their CPUs\' busy time (the kernel\'s network work, ' +
    'the bench); in turns with the reference, the parts both loads shared (upkeep, wrk, the rest) ' +
    'split by the time each load ran',
  serverVsReference: `the median of the ratios of this cell's server CPU per request to ${REFERENCE}'s at the ` +
    `same endpoint and connections, run by run: placement interleaved, against ${REFERENCE}'s ` +
    'load taking turns with it in the same run; else of the same round (measured a few seconds ' +
    'apart); and its interval, at the level it carries (the range of 4 or 5 ratios, the sign ' +
    'test\'s from 6); below 4 rounds the median alone, with no interval. Runs measured cell ' +
    'after cell, before rounds: the median of every ratio of the two cells\' runs ' +
    '(Hodges-Lehmann) and its interval',
  serverUserShare: USER_SHARE_MEANING,
  requestsPerWakeUp: `the requests wrk completed over ${SLICES_WORDS}; median of the runs. A ` +
    'server wakes for wrk\'s requests and for its database\'s answers: below 1 where a request ' +
    'waits on answers in turn (/queries), many where a busy server finds much waiting. The server ' +
    'alone on its CPU (the default), each wake-up comes from the other CPU; placement one-cpu, wrk ' +
    'and the database fill the server\'s CPU between its turns, and it answers more a wake-up: ' +
    'another regime, a different figure (docs/db.md, "One CPU for the server")',
  faultsPerRequest: FAULTS_MEANING,
  serverCpuShare: `the server's CPU time over wrk's wall time: below ${CLIENT_BOUND_SHARE} the ` +
    'server waited (client-bound: wrk and the database, on one CPU, set the pace); placement ' +
    'one-cpu, wrk and the database take the rest of the server\'s CPU by design, and no cell is marked',
  machineSpeed: 'per endpoint and connections, each round\'s offset: the median over the servers ' +
    'of a server\'s CPU per request in that round against its own median over the rounds (every ok ' +
    'run, warm-up included): where the servers grew dearer together, the host was busier',
  syscallsPerRequest: `(calls in the larger strace run - calls in the smaller) / (requests between them), every thread (strace -f -c), ${STRACE_CONNECTIONS} connections, for the server and, by a second strace attached to them, its backends; as work (the calls that succeed, but for waits, futexes and memory calls) plus upkeep (those, and failed calls)`
}

// What the latency pass's tables hold, at the endpoints it ran on
const latencyMeaning = endpoints => `oha on ${endpoints.map(endpoint => `/${endpoint}`).join(' and ')} at ` +
  `fixed rates, the same for every server (shares of what ${REFERENCE} answered there at the median ` +
  'of its timed runs, a resumed run\'s from its log too, wrk at the most connections; at the end of ' +
  'its warm-up in runs before commit 5820d5a6 and where no timed run of it was kept), ' +
  `${LATENCY_WORDS.onSchedule}, ` +
  `oha on the database's CPU: ${LATENCY_WORDS.fromIntended}; one run per client (its first variant), ` +
  `count of connections and rate, ${LATENCY_WORDS.processes}; ${LATENCY_WORDS.cannotSustain}; CPU per ` +
  `request is the server's alone, not its backends'; ${LATENCY_WORDS.gc}; ${LATENCY_WORDS.steal}. ` +
  LATENCY_WORDS.once

function summariseDb (records, context) {
  const runs = records.filter(record => record.phase === PHASE)
  const traced = records.filter(record => record.phase === STRACE_PHASE)
  const latencyRecords = records.filter(record => record.phase === LATENCY_PHASE)
  const latency = latencyRuns(latencyRecords, context.dbLatency)
  if (runs.length === 0 && traced.length === 0 && latency === null) return null
  const keyOf = run => `${run.endpoint}\t${run.connections}\t${run.program}`
  // wrk on the server's own CPU (placement one-cpu): it takes the rest of that CPU by design
  const loadBeside = context.dbPin ? context.dbPin.client === context.dbPin.server : false
  const cells = [...new Set(runs.map(keyOf))].map(key => {
    const [endpoint, connections, server] = key.split('\t')
    const own = runs.filter(run => keyOf(run) === key)
    return dbCell(server, endpoint, Number(connections), own, loadBeside)
  })
  const inRounds = context.dbRounds === true
  const against = inRounds ? roundsAgainst : (a, b, pick) => ratioInterval(pick(a), pick(b))
  for (const cell of cells) {
    const reference = cells.find(other => other.server === REFERENCE && other.endpoint === cell.endpoint && other.connections === cell.connections)
    const mine = reference && cell.server !== REFERENCE
    if (cell.inTurns) {
      // each run against the reference's load beside it, in the same moment
      cell.serverVsReference = pairedRatio(cell.serverCpu, cell.partnerServerCpu)
      cell.halves.vsReference = interleavedHalves(cell.keptRuns.filter(run => ratioOf(run) !== null), ratioOf, median)
      continue
    }
    cell.serverVsReference = mine ? against(cell, reference, serverCpuOf) : null
    cell.halves.vsReference = mine && inRounds ? interleavedHalves(sameRounds(cell, reference, serverCpuOf), pair => pair.a / pair.b, median) : null
  }
  // the http experiment's arithmetic, once for the server's calls and once for its backends'
  const tracedKey = run => `${run.program}\t${run.endpoint}`
  const syscalls = [...new Set(traced.map(tracedKey))].map(key => {
    const pair = traced.filter(run => tracedKey(run) === key)
    const [server, endpoint] = key.split('\t')
    const self = pairCalls(pair, run => run.server)
    return { server, endpoint, queries: queriesOf(endpoint), connections: pair[0].connections, requests: self.requests, self, backends: pairCalls(pair, run => run.backends) }
  })
  // the same at full speed, from the kernel: the server's, then its backends', each beside
  // strace's (null without the pass)
  const kernelRuns = records.filter(record => record.phase === KERNEL_PHASE)
  const straced = (run, part) => {
    const entry = syscalls.find(other => other.server === run.program && other.endpoint === run.endpoint)
    return entry ? { ...entry[part], connections: entry.connections } : null
  }
  const kernel = kernelRuns.length
    ? {
        server: kernelPerRequest(kernelRuns, run => straced(run, 'self'), run => run.kernel.server),
        // a backend's connection is the pool's, opened before the window: none of wrk's edges
        backends: kernelPerRequest(kernelRuns, run => straced(run, 'backends'), run => run.kernel.backends)
          .map(entry => ({ ...entry, connectionsPerRequest: null }))
      }
    : null
  const preset = context.options?.db ?? null
  for (const cell of cells) delete cell.keptRuns
  return {
    // the endpoints the latency pass ran on, named in its meaning (a run that measured fewer
    // endpoints than its preset gives the pass ran it on those alone)
    meaning: {
      ...MEANING,
      latency: latencyMeaning(latencyRecords.length
        ? [...new Set(latencyRecords.map(record => record.endpoint))]
        : latencyEndpointsOf(context.dbLatency))
    },
    reference: REFERENCE,
    preset,
    endpoints: preset?.endpoints ?? Object.keys(ENDPOINTS),
    pin: context.dbPin ?? null,
    // runs from before --placement took one server at a time
    placement: context.dbPlacement ?? 'alone',
    // runs from before --order ran each endpoint's rounds together
    order: context.dbOrder ?? 'endpoint',
    database: context.database ?? null,
    cells,
    syscalls,
    kernel,
    // the latency pass: oha on /db at fixed rates (null without it)
    latency,
    variants: variantDifferences(cells, against),
    repeatability: dbHalves(cells),
    // runs from before rounds numbered each cell's runs apart: no round was shared
    machineSpeed: inRounds ? machineSpeedByRound(runs) : []
  }
}

// The machine's own speed, round by round: every server runs the same code in each round of
// its endpoint, so a round that found the servers dearer together found the host busier
// (cache, memory bandwidth, a shared core), though no steal or foreign CPU time shows. Per
// endpoint and connections, each round's offset: the median, over the servers with two rounds
// or more, of the server's CPU per request in that round against its own median over the
// rounds; a round that fewer than two servers ran says nothing of the machine. Every ok run
// counts, warm-up and drift included: a server's steady state is its own question, the
// machine's speed is this one. [{ endpoint, connections, rounds: [{ round,
// offset, servers }] }], rounds in the order they ran.
function machineSpeedByRound (runs) {
  const groups = new Map()
  for (const run of runs.filter(each => each.ok && each.wrk?.requests > 0)) {
    const key = `${run.endpoint}\t${run.connections}`
    if (!groups.has(key)) groups.set(key, new Map())
    const byServer = groups.get(key)
    if (!byServer.has(run.program)) byServer.set(run.program, new Map())
    byServer.get(run.program).set(run.run, Math.log(serverCpuPerRequest(run)))
  }
  return [...groups].map(([key, byServer]) => {
    const [endpoint, connections] = key.split('\t')
    const deviations = new Map()
    for (const byRound of byServer.values()) {
      if (byRound.size < 2) continue
      const own = median([...byRound.values()])
      for (const [round, value] of byRound) {
        if (!deviations.has(round)) deviations.set(round, [])
        deviations.get(round).push(value - own)
      }
    }
    const rounds = [...deviations].sort((a, b) => a[0] - b[0])
      .filter(([, each]) => each.length >= 2)
      .map(([round, each]) => ({ round, offset: Math.exp(median(each)) - 1, servers: each.length }))
    return { endpoint, connections: Number(connections), rounds }
  }).filter(group => group.rounds.length >= 2)
}

const queriesOf = endpoint => ENDPOINTS[endpoint]?.rows ?? 1
const serverCpuOf = cell => cell.serverCpu
const backendCpuOf = cell => cell.backendCpu

// Cell a's figures beside cell b's, round by round, where both measured a round.
function sameRounds (a, b, pick) {
  const theirs = new Map(b.rounds.map((round, i) => [round, pick(b)[i]]))
  return a.rounds.map((round, i) => ({ run: round, a: pick(a)[i], b: theirs.get(round) })).filter(pair => pair.b !== undefined)
}

function roundsAgainst (a, b, pick) {
  const pairs = sameRounds(a, b, pick)
  return pairedRatio(pairs.map(pair => pair.a), pairs.map(pair => pair.b))
}

// One server process per server and endpoint, its rounds its runs (lib/steady.js); its
// warm-up begins the sequence of the cell at the count it ran at, not of one at another
// (--connections 16,64 warms up at 64), where the log says which (since 2026-12-06).
const where = {
  processOf: () => 0,
  roundOf: run => run.run,
  warmupOf: run => (run.warmupConnections === undefined || run.warmupConnections === run.connections
    ? run.warmupCpuUs
    : [])
}
const serverCpuPerRequest = run => run.server.cpuNs / run.wrk.requests / 1000

function dbCell (server, endpoint, connections, runs, loadBeside) {
  const all = runs.filter(run => run.ok).sort((a, b) => a.run - b.run)
  const classes = processClasses(runs, { value: serverCpuPerRequest, ...where })
  const steadiness = cellSteadiness(classes)
  // the runs of the process's steady state, when it reached one
  const ok = steadyRuns(all, classes, where)
  const rates = ok.map(rateOf)
  const at = values => (values.length ? median(values) : null)
  const perRequest = pick => ok.map(run => pick(run) / run.wrk.requests / 1000)
  const shares = ok.map(serverShare)
  // placement interleaved: every kept run took turns with the reference's, whose server
  // CPU per request in the same run it is set against
  const inTurns = ok.length > 0 && ok.every(run => ratioOf(run) !== null)
  const row = servers.find(item => item.name === server)
  return {
    server,
    client: row?.server ?? null,
    runtime: row?.runtime ?? null,
    prepared: row?.prepared ?? null,
    pipelined: row?.pipelined ?? null,
    endpoint,
    queries: queriesOf(endpoint),
    connections,
    pool: ok[0]?.pool ?? null,
    runs: ok.length,
    failedRuns: runs.length - all.length,
    beforeSteady: all.length - ok.length,
    rates,
    requestsPerSecond: rates.length ? { best: Math.max(...rates), median: median(rates), min: Math.min(...rates), max: Math.max(...rates) } : null,
    latencyUs: wrkLatency(ok),
    // each run's server CPU per request, for the intervals against other cells, by round
    rounds: ok.map(run => run.run),
    serverCpu: perRequest(run => run.server.cpuNs),
    backendCpu: perRequest(run => run.backends.cpuNs),
    inTurns,
    ...(inTurns
      ? {
          partnerServerCpu: ok.map(run => serverCpuPerRequest(partnerRun(run))),
          partnerBackendCpu: ok.map(run => run.partner.backends.cpuNs / run.partner.wrk.requests / 1000)
        }
      : {}),
    cpuPerRequestUs: ok.length ? Object.fromEntries(PARTS.map(([part, pick]) => [part, at(perRequest(pick))])) : null,
    serverCpuShare: at(shares),
    serverUserShare: userShareOfRuns(ok.map(run => run.server)),
    requestsPerWakeUp: at(ok.map(run => requestsPerSlice(run.wrk.requests, run.server))
      .filter(value => value !== null)),
    faultsPerRequest: at(ok.map(faultsOf).filter(faults => faults !== null)),
    // no cell is marked where wrk shares the server's CPU: it waits for wrk by design
    clientBound: shares.length && !loadBeside ? median(shares) < CLIENT_BOUND_SHARE : null,
    threads: ok.length ? Math.max(...ok.map(run => run.server.threads)) : null,
    maxRssKiB: ok.length ? Math.max(...ok.map(run => run.server.maxRssKiB)) : null,
    unsteady: unsteadyCell(steadiness, ok),
    steadiness,
    processClasses: classes,
    // one process: only the rounds' level shows within the run (its server CPU per
    // request's standard deviation, percent of the mean); the processes' shows between runs
    roundPercent: ok.length >= 2 ? 100 * summarise(ok.map(serverCpuPerRequest)).cv : null,
    ...cellFlags(ok),
    gcStates: gcStatesOf(ok),
    halves: {
      cpu: interleavedHalves(ok, run => run.server.cpuNs / run.wrk.requests / 1000, median),
      total: interleavedHalves(ok, run => PARTS.reduce((sum, [, pick]) => sum + pick(run), 0) / run.wrk.requests / 1000, median),
      rate: interleavedHalves(ok, rateOf, median)
    },
    // not in results.json: the runs behind the halves of the ratio
    keptRuns: ok
  }
}

// Per client, endpoint and connections, the variants set against each other where the
// client has both: prepared against unnamed (at the same pipelining) and pipelined
// against serial (prepared alike). Each: the ratio of the server's CPU per request and
// of its backends', with intervals (unnamed over prepared, serial over pipelined, as
// serverVsReference is), and the requests/s of both.
function variantDifferences (cells, against) {
  const out = []
  const find = (cell, prepared, pipelined) => cells.find(other => other.client === cell.client && other.endpoint === cell.endpoint && other.connections === cell.connections && other.prepared === prepared && other.pipelined === pipelined && other.runs > 0)
  for (const cell of cells.filter(item => item.runs > 0)) {
    if (cell.prepared) {
      const unnamed = find(cell, false, cell.pipelined)
      if (unnamed) out.push(difference('prepared', cell, unnamed, against))
    }
    if (cell.pipelined) {
      const serial = find(cell, cell.prepared, false)
      if (serial) out.push(difference('pipelined', cell, serial, against))
    }
  }
  return out
}

function difference (question, better, other, against) {
  return {
    question,
    client: better.client,
    endpoint: better.endpoint,
    connections: better.connections,
    with: better.server,
    without: other.server,
    server: against(other, better, serverCpuOf),
    backends: against(other, better, backendCpuOf),
    // the servers of the two that the answer does not quote as one number (lib/steady.js
    // unsteadyCell): their ratio is kept, and not quoted either
    unsteady: [better, other].filter(cell => cell.unsteady).map(cell => cell.server),
    serverUs: [better.cpuPerRequestUs.server, other.cpuPerRequestUs.server],
    backendsUs: [better.cpuPerRequestUs.backends, other.cpuPerRequestUs.backends],
    requestsPerSecond: [better.requestsPerSecond.median, other.requestsPerSecond.median]
  }
}

module.exports = {
  summariseDb, machineSpeedByRound, PARTS, CLIENT_BOUND_SHARE, rateOf, ratioOf, serverShare
}
