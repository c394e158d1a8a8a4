'use strict'
// The http experiment's plan and its measurement, step by step.
//
// A cell is a server, a mode and a count of connections. Its runs come from `processes`
// server processes per server and mode, `runs` wrk runs (rounds) each: where a server's
// figure moves is between its processes as much as between the runs of one (on an Intel
// VM, 2.3% between runs of one process and 1.6% between processes and runs, at the
// median cell), and one process per server and mode could not tell a slow process from
// a slow server (docs/http.md: a just-epoll process ran 30% slower in every run).
//
// Mode by mode, process by process: every server of the mode is started, checked in both
// modes and warmed up (wrk runs at the most connections, at least the preset's warmup.min,
// until the last two agree within WARMUP_AGREE in the cell's figure and V8's optimizing
// compiles, where it has them, have all but stopped, warmupSettled, at most warmup.max;
// --quick makes one and checks nothing),
// then the rounds run, each one wrk run of every server at every count, in one order and
// the next round in the other. Every server's run of a round is paired with c-epoll's of
// the same round, measured seconds apart, so that the machine's drift between cells
// cancels in the ratio. Then every process stops and the next set starts. A JIT's tiers
// and V8's young generation take seconds of load to settle: node-http with Connection:
// close went 9.3k, 13.5k, 16.5k, 19.1k, 21.9k req/s over its first five 1 s runs. The
// warm-up's runs are timed too (CPU per request), so that what each process did over
// its runs can be classified (lib/steady.js). Where wrk and the server run is the run's
// placement (servers.js PLACEMENTS; docs/placement.md): by default both on one CPU, and
// every server's run beside c-epoll's, the two pairs taking turns in slices
// (interleave.js), so that each ratio to C is taken in the same moment.
//
// The strace pass: per server and mode, the server under `strace -f -c` answers a count
// of requests from sendRequests at STRACE_CONNECTIONS, once at `small` and once at
// `large` requests, each in a new process; syscalls per request are the difference of
// the two runs' counts over the difference of their requests, so start-up, idle and
// exit, which both runs make, cancel.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { shellQuote } = require('../../lib/pipeline')
const { parseStraceSummary, callCounts } = require('../../lib/strace')
const { userNs, userForeign, benchUserNs, stealNs, stealBetween } = require('../../lib/foreign')
const { CLK_TCK } = require('../../lib/procfs')
const { MODES, REFERENCE, serverArgv, freePort, startServer, apartPin } = require('./servers')
const { runInterleaved, turnsRecord } = require('./interleave')
const { checkLoad, checkResets, sendRequests } = require('./client')
const {
  wrkArgv, runWrk, parseWrk, wrkFailure, loadFor, sharedLoad, LONGEST_RUN_SECONDS, WRK_TIMEOUT_SECONDS, WRK_GRACE_MS
} = require('./wrk')
const { processCpu, childrenUserNs, childrenCpuNs, cpuBetween } = require('./cpu')
const {
  ohaArgv, parseOha, ohaFailure, holdsRate, requestTimes, steadyLatency, TIMED_RATES
} = require('./oha')
const { parseGcTrace, parseJscGcLog, summariseGc, collectionsAfter } = require('../../lib/gctrace')
const { countOptimizingCompiles } = require('../../lib/jittrace')
const { runtimes } = require('../../lib/runtimes')
const { traceProcesses, insideWindow, parseProfile, windowCalls, profileProblem } = require('../../lib/sysprof')
const { formatPercent } = require('../../lib/report/format')
const { median } = require('../../lib/stats')

const PHASE = 'http'
const STRACE_PHASE = 'http-strace'
// The kernel pass (lib/sysprof.js, docs/kernel.md): each cell's load once more, with the
// server's syscalls counted by eBPF probes at full speed, in the last timed processes
const KERNEL_PHASE = 'http-kernel'
// Where wrk shares the server's CPU, one run more of every server and mode at the most
// connections with wrk on another CPU, in the last server processes: requests/s at the
// server's capacity, and what CPU per request is when a busy server answers many requests
// per wake-up (docs/placement.md: a different figure, not a better one)
const CAPACITY_PHASE = 'http-capacity'
// The latency pass (experiments/http/oha.js, docs/http.md): per mode, after the capacity
// runs, in the last timed server processes (every server process starts with V8's
// --trace-gc, a line per collection, which moved no server's CPU per request in a test in
// turns; Bun, whose log costs it CPU, runs the pass in a traced process of its own:
// processTrace); then, server by server, oha at each count of connections and each rate,
// oha on the capacity runs' other CPU, so that the load's own CPU time does not queue the
// server's answers. The rates are the same for every server of a mode: shares of the median
// of what c-epoll answered in its timed runs, all its processes' (a resumed run's from its
// log), two significant digits. Its capacity run, wrk apart, moved 90,000-144,000 req/s
// keep-alive over 17 runs of a Zen 4 VM where the medians of its timed runs moved
// 66,000-77,000 (docs/http.md, 2026-12-07). Processes of their own cost a default run 1.6
// minutes of starts and warm-ups.
const LATENCY_PHASE = 'http-latency'
const WARMUP_AGREE = 0.05
const STRACE_CONNECTIONS = 16
const PRESETS = {
  default: {
    processes: 2,
    // 3 timed runs: with the warm-up's 2 or more a process has the 5 values lib/steady.js
    // needs before it can classify it; at 2, 15 to 19 of a run's 40 processes were too short.
    // A third warm-up run instead costs half as much, but a step between the warm-up's runs,
    // back to back, and the timed runs, a round apart, then leaves 2 runs at the new level: no
    // steady state for 21% of processes that held still under a host's moments of 3% and a
    // run's own noise of 1%, against 8% (docs/http.md, 2026-12-04)
    runs: 3,
    seconds: 1,
    // the page's answer is at the most connections; 1 and 16 (--connections 1,16,128) took
    // two thirds of the timed runs and the kernel pass, 4.3 of a run's 21 minutes (docs/http.md)
    connections: [128],
    warmup: { min: 2, max: 8 },
    straceRequests: { small: 1000, large: 4000 },
    // the thttpd study's 20, 100 and 1000 connections at one rate, 15% of c-epoll's timed
    // runs' rate (until 2026-12-07 10% of its capacity run: on two Zen 4 VMs the new rate is
    // some 15% lighter keep-alive on average, 5-10% heavier with Connection: close): oha's own CPU
    // (12-40 µs a request, docs/http.md) stays under half of its CPU, the blocking servers
    // hold it and mini_httpd holds it with close only. --rates 5,20 gives two rates. 1.2 s
    // a cell (2 until 2026-12-04: the 48 s saved pay for the third timed run): on the Zen 4
    // VM some 13,000 requests a cell with keep-alive, 2,500 with Connection: close, whose
    // p99.9 is then its 2nd- to 13th-longest request
    latency: { connections: [20, 100, 1000], rateShares: [0.15], seconds: 1.2 }
  },
  // a smoke test within a minute: one warm-up run and one timed run per cell, no intervals
  quick: {
    processes: 1,
    runs: 1,
    seconds: 1,
    connections: [16],
    warmup: { min: 1, max: 1 },
    straceRequests: { small: 250, large: 1000 },
    latency: { connections: [20], rateShares: [0.05], seconds: 1 }
  }
}

function planHttp (selected, options, pin = apartPin(), capacityPin = apartPin()) {
  const steps = []
  const { runs, connections, straceRequests } = options.http
  const processes = options.http.processes ?? 1
  const warmupConnections = Math.max(...connections)
  // placement interleaved: every timed run of a server but the reference's has the
  // reference's pair beside it, taking turns (experiments/http/interleave.js)
  const reference = options.placement === 'interleaved' ? selected.find(server => server.name === REFERENCE) : null
  // one wrk run of a cell: its server at a count of connections, in a process and round
  const cellStep = ({ phase, server, mode, count, process, round, run, group }) => ({
    phase,
    program: server,
    server,
    mode,
    connections: count,
    warmupConnections,
    blockSize: null,
    process,
    round,
    run,
    warmup: 0,
    pin,
    // every server process (processTrace says how), so that the latency pass can run in the
    // last timed ones
    gcTrace: true,
    peers: selected,
    partner: phase === PHASE && reference && server !== reference ? reference : null,
    group,
    label: `${group}: ${server.name}, ${count} connection${count === 1 ? '' : 's'}${phase === PHASE && reference && server !== reference ? `, beside ${REFERENCE}` : ''}`
  })
  for (const mode of options.modes) {
    for (let serverProcess = 0; serverProcess < processes; serverProcess++) {
      for (let round = 0; round < runs; round++) {
        const run = serverProcess * runs + round
        const order = run % 2 === 0 ? selected : [...selected].reverse()
        const group = `${mode}: processes ${serverProcess + 1} of ${processes}, round ${round + 1} of ${runs}`
        for (const count of connections) {
          for (const server of order) {
            steps.push(cellStep({ phase: PHASE, server, mode, count, process: serverProcess, round, run, group }))
          }
        }
      }
    }
    // the capacity runs: the last processes still up, wrk moved to its own CPU
    const capacityRuns = capacityPin.client !== pin.client && capacityPin.client !== capacityPin.server
    if (capacityRuns) {
      for (const server of selected) {
        const where = { server, mode, count: warmupConnections, process: processes - 1, round: 0, run: 0 }
        steps.push({ ...cellStep({ phase: CAPACITY_PHASE, ...where, group: `capacity, ${mode}` }), pin: capacityPin })
      }
    }
    // then each cell's load once more under the probes, in those processes too (warmed
    // up, their timed runs done): a generation of their own cost the default run 2.6 minutes
    // of starts and warm-ups
    if (options.kernel) {
      for (const count of connections) {
        for (const server of selected) {
          const where = { server, mode, count, process: processes - 1, round: 0, run: 0 }
          steps.push(cellStep({ phase: KERNEL_PHASE, ...where, group: `kernel, ${mode}` }))
        }
      }
      // and the capacity runs' load once more under the probes, wrk on its own CPU: the
      // syscalls per request of the regime they measure, where a busy server batches, beside
      // the timed placement's (the issue asks for both: a different figure, not a better one)
      if (capacityRuns) {
        for (const server of selected) {
          const where = { server, mode, count: warmupConnections, process: processes - 1, round: 0, run: 0 }
          const step = cellStep({ phase: KERNEL_PHASE, ...where, group: `kernel, ${mode}, wrk apart` })
          steps.push({ ...step, pin: capacityPin, apart: true })
        }
      }
    }
    if (options.latency) {
      const { connections: counts, rateShares } = options.http.latency ?? PRESETS.default.latency
      for (const server of selected) {
        for (const count of counts) {
          for (const rateShare of rateShares) {
            const where = { server, mode, count, process: processes - 1, round: 0, run: 0, group: `latency, ${mode}` }
            steps.push({
              ...cellStep({ phase: LATENCY_PHASE, ...where }),
              pin: capacityPin,
              rateShare,
              rateFrom: TIMED_RATES,
              label: `latency, ${mode}: ${server.name}, ${count} connections, ` +
                `${formatPercent(rateShare)} of ${REFERENCE}'s timed rate`
            })
          }
        }
      }
    }
  }
  if (options.strace) {
    for (const mode of options.modes) {
      for (const server of selected) {
        for (const requests of [straceRequests.small, straceRequests.large]) {
          const group = `strace ${server.name}, ${mode}`
          steps.push({ phase: STRACE_PHASE, program: server, server, mode, connections: STRACE_CONNECTIONS, requests, blockSize: null, run: 0, warmup: 0, pin, group, label: `${group}, ${requests} requests` })
        }
      }
    }
  }
  return steps
}

// a latency run whose trace would cost its timed runs CPU: a traced process beside them
const processOf = step => `${step.server.name}\t${step.mode}\t${step.process ?? 0}` +
  (processTrace(step, LATENCY_PHASE).apart ? '\ttraced' : '')
const serverOf = step => `${step.server.name}\t${step.mode}`
const generationOf = step => `${step.mode}\t${step.process ?? 0}`
const SERVER_STARTS = 2
const STOPPED_BEFORE_START = 'the bench was stopped before this server started'

// The running servers of the steps being measured: every server of a mode's processes
// (a generation) kept up across its rounds, and stopped before the next generation
// starts. bench.js calls measureStep for each step in order and close() when it stops; a
// stop asked for (`interrupted`) ends a warm-up between its wrk runs; `note` shows which
// server is starting, being checked or warmed up.
function httpSession (interrupted = () => false) {
  const running = new Map()
  // a server that failed to start, its check or its warm-up gets one more start (the
  // next step's) before the rest of its steps fail at once, in every later generation too:
  // a failure that recurs is not waited for again
  const failedStarts = new Map()
  const stopProcess = async key => {
    const current = running.get(key)
    if (current?.started) await current.started.stop()
    if (current) current.started = null
  }
  const close = async () => {
    for (const key of [...running.keys()]) await stopProcess(key)
    running.clear()
  }
  const gaveUp = step => (failedStarts.get(serverOf(step))?.count ?? 0) >= SERVER_STARTS
  const startOne = async (step, options, note) => {
    const key = processOf(step)
    const current = running.get(key)
    if (current && (!current.failure || current.failedRun || gaveUp(step))) return current
    // a stop asked for starts nothing more: the step in hand fails, and the bench, stopping,
    // logs it not (lib/measure-steps.js)
    if (interrupted()) {
      return { key, step, failure: STOPPED_BEFORE_START, started: null, warmupRates: [] }
    }
    await stopProcess(key)
    const fresh = {
      key,
      step,
      failure: null,
      failedRun: false,
      started: null,
      unannouncedClose: false,
      warmupRates: [],
      warmupCpuUs: [],
      warmupAgreed: null
    }
    running.set(key, fresh)
    if (gaveUp(step)) {
      fresh.failure = `it failed ${SERVER_STARTS} starts: ${failedStarts.get(serverOf(step)).reason}`
      return fresh
    }
    const what = `${step.server.name}, process ${(step.process ?? 0) + 1}`
    try {
      fresh.port = await freePort()
      note(`${what}: starting`)
      const traced = processTrace(step, LATENCY_PHASE).trace
      fresh.trace = traced
      fresh.started = await startServer(step.server, {
        port: fresh.port,
        prefix: ['taskset', '-c', String(step.pin.server), ...(traced?.prefix ?? [])],
        timeoutMs: options.timeoutSeconds * 1000,
        v8Flags: traced?.v8Flags ?? [],
        env: traced?.env ?? {}
      })
      note(`${what}: checking its answers`)
      for (const mode of MODES) {
        const keepsAlive = !step.server.closesConnections
        const { problem, unannouncedCloses } = await checkLoad(fresh.port, mode, { keepsAlive })
        if (problem) throw new Error(`${mode}: ${problem}`)
        if (mode === step.mode) fresh.unannouncedClose = unannouncedCloses > 0
      }
      // its clients' resets survived, and its error path taken before its warm-up
      const afterResets = await checkResets(fresh.port, step.mode)
      if (afterResets) throw new Error(afterResets)
      note(`${what}: warming up at ${step.warmupConnections ?? step.connections} connections`)
      // in turns with the reference's pair where its timed runs will be (placement
      // interleaved), so that its warm-up and its runs are one sequence of ratios to C
      // (a peer started for another's step carries that step's partner: the reference
      // itself warms up alone)
      const partner = step.partner && step.partner !== step.server ? running.get(processOf({ ...step, server: step.partner })) : null
      const inTurns = partner?.started && !partner.failure ? { server: partner, step: { ...step, server: step.partner, program: step.partner } } : null
      fresh.warmupAgreed = await warmUp(fresh, { ...step, connections: step.warmupConnections ?? step.connections }, options.http, interrupted, inTurns)
    } catch (err) {
      fresh.failure = err.message
      failedStarts.set(serverOf(step), { count: (failedStarts.get(serverOf(step))?.count ?? 0) + 1, reason: err.message })
      await stopProcess(key)
    }
    return fresh
  }
  const serverFor = async (step, options, note = () => {}) => {
    for (const [key, other] of running) {
      if (generationOf(other.step) !== generationOf(step)) {
        await stopProcess(key)
        running.delete(key)
      }
    }
    // every server of the generation started, checked and warmed up before its first
    // round, so that no timed run has a server starting just before it; the reference
    // first where the others warm up in turns with it
    const peers = [...(step.peers ?? [step.server])].sort((a, b) => (b === step.partner) - (a === step.partner))
    for (const [i, peer] of peers.entries()) {
      if (interrupted()) break
      const peerStep = { ...step, server: peer, program: peer }
      await startOne(peerStep, options, text => note(`${text} (${i} of ${peers.length} up)`))
    }
    return startOne(step, options, note)
  }
  // a process whose run failed is left in whatever state it is in: its remaining runs
  // fail with its reason, and the next generation starts the server afresh
  const failRun = async (step, failure) => {
    const current = running.get(processOf(step))
    if (!current) return
    await stopProcess(current.key)
    Object.assign(current, { failure: `process ${(step.process ?? 0) + 1} failed a run before this one: ${failure}`, failedRun: true })
  }
  // whether a stop was asked for: a step whose servers were warming up when it came ends
  // there, not with a timed run that would be thrown away (measureStep)
  return { serverFor, failRun, close, stopping: interrupted, timedRates: timedRatesStore() }
}

// Whether a warm-up has settled after its latest run: its last two runs agree within
// WARMUP_AGREE in the figure the cell quotes, the server's CPU per request over the
// reference's beside it where the runs take turns (`ratios`), else the server's CPU per
// request (`cpuUs`); wrk's rate only where neither is known. wrk's rate is the pair's
// (client and server), and the host's speed moves it: on a noisy VM node-http's rate
// agreed within 4% (18.3k, 19.1k req/s) while its CPU per request fell 13% and its ratio to
// c-epoll's 22% (4.94, 3.86), still warming up (docs/http.md, 2026-12-01). Where the
// server's optimizing compiles are counted (`compiles`, one count a run), its JIT must be
// done too (compilerSettled). Returns { settled, basis } (basis 'ratio', 'cpu' or 'rate':
// what the last two were compared by).
function warmupSettled ({ rates, cpuUs = [], ratios = [], compiles = [] }, min = 2) {
  const lastTwo = values => {
    const pair = values.slice(-2)
    return pair.length === 2 && pair.every(value => Number.isFinite(value) && value > 0) ? pair : null
  }
  const [basis, pair] = [['ratio', ratios], ['cpu', cpuUs], ['rate', rates]]
    .map(([name, values]) => [name, lastTwo(values)])
    .find(([, values]) => values) ?? [null, null]
  if (rates.length < Math.max(min, 2) || !pair) return { settled: false, basis }
  const [previous, last] = pair
  const agreed = Math.abs(last - previous) <= WARMUP_AGREE * previous
  return { settled: agreed && compilerSettled(compiles), basis }
}

// Whether a server's JIT is done after a warm-up run: each of its last JIT_QUIET_RUNS runs
// finished at most JIT_QUIET_SHARE of the optimizing compiles of all its warm-up runs up to it,
// or JIT_QUIET_FLOOR (V8's --trace-opt, lib/jittrace.js); true where they were not counted.
// Two runs can agree while V8 still compiles the code every request runs: node-http with
// Connection: close agreed within 3% (96.6, 99.2 µs a request) in a run in which V8 finished
// more optimizing compiles than in the two before it, and its first timed run then cost
// 2.15× c-epoll's CPU per request, its next nine 1.59-1.77×. One quiet run is not enough:
// Node's servers compile most in their first two runs, and a second wave in their fourth to
// sixth, often after a quieter run (TurboFan taking larger functions); a rule of one run at
// 5% let 23 of 32 Node processes on into such a wave, two runs at 2% none (docs/http.md,
// 2026-12-01).
const JIT_QUIET_RUNS = 2
const JIT_QUIET_SHARE = 0.02
const JIT_QUIET_FLOOR = 2
// A run's compiles (`count`) are a settled JIT's: at most JIT_QUIET_SHARE of its process's
// compiles up to and with that run (`upTo`), or at most JIT_QUIET_FLOOR.
const quietCompiles = (count, upTo) => count <= Math.max(JIT_QUIET_FLOOR, JIT_QUIET_SHARE * upTo)
function compilerSettled (compiles) {
  if (compiles.length === 0 || !compiles.every(Number.isFinite)) return true
  if (compiles.length < JIT_QUIET_RUNS) return false
  const upTo = run => compiles.slice(0, run + 1).reduce((sum, count) => sum + count, 0)
  const quiet = run => quietCompiles(compiles[run], upTo(run))
  return Array.from({ length: JIT_QUIET_RUNS }, (_, back) => compiles.length - 1 - back).every(quiet)
}
// quietCompiles's rule turned round, in the words of the mark's title and its finding, which
// are built from it so that they cannot drift from what marks a run (compilesRecord).
const COMPILING_RULE = `over ${formatPercent(JIT_QUIET_SHARE)} of its process's optimizing compiles ` +
  `so far and over ${JIT_QUIET_FLOOR}`

// A timed run's record of V8's optimizing compiles (http and db alike): each warm-up run's
// (warmupSettled), this run's, and whether it was timed while V8 still compiled: more
// compiles in it than a warm-up may end on (quietCompiles, COMPILING_RULE), against its
// process's so far, warm-up and timed runs (server.compilesSoFar, which this adds the run's
// to: call it once a run). Nothing for a process that does not trace them. The warm-up does
// not stop V8 for good: db's V8 servers, whether their warm-ups settled or ran out (at most 3
// runs, or 8), went on so in 15-19 of 28 processes (docs/db.md, 2026-12-01), and such a
// cell's figure holds the compiler's work: the report marks it.
function compilesRecord (server, compiles) {
  if (compiles === null) {
    return server.trace?.compiles ? { warmupCompiles: server.warmupCompiles } : {}
  }
  const warmup = server.warmupCompiles ?? []
  const before = server.compilesSoFar ?? warmup.reduce((sum, count) => sum + count, 0)
  server.compilesSoFar = before + compiles
  return { warmupCompiles: warmup, compiles, compiling: !quietCompiles(compiles, server.compilesSoFar) }
}

// wrk runs until the warm-up settles (warmupSettled): true when it did, false when `max`
// runs never did (the cell's runs say so), null when one run was all it asked.
// Each run's requests/s goes to server.warmupRates and the server's CPU per request (µs)
// to server.warmupCpuUs, the start of the process's sequence (lib/steady.js). A run that
// answers nothing, or answers too late for wrk, was too short for its load (wrk.js
// loadFor): it is run again, twice as long, up to LONGEST_RUN_SECONDS.
// `preset`: the experiment's { seconds, warmup } (the db experiment's servers warm up so too).
// `inTurns`: { server, step } of the reference's pair to take turns with (interleave.js);
// then the rates are over the time this pair ran, and each run's CPU per request over the
// reference's goes to server.warmupRatios.
async function warmUp (server, step, preset, interrupted, inTurns = null) {
  const rates = server.warmupRates
  server.warmupCpuUs ??= []
  server.warmupRatios ??= []
  server.warmupCompiles ??= []
  // the optimizing compiles each counted run finished, where the process traces them: a run
  // run again for being too short adds its own to the next one's
  let window = collectionsFrom(server.started, server.trace)
  // the next run's duration and wrk's timeout: the preset's, longer where a run was too short
  let runLoad = { seconds: preset.seconds, timeoutSeconds: undefined }
  const { min, max } = preset.warmup ?? PRESETS.default.warmup
  while (rates.length < max && !interrupted()) {
    const load = { ...preset, ...runLoad }
    const timeoutMs = load.seconds * 1000 + WRK_GRACE_MS
    const before = processCpu(server.started.pid)
    const partnerBefore = inTurns ? processCpu(inTurns.server.started.pid) : null
    const [wrk, partnerWrk] = inTurns
      ? await runInterleaved([
        { argv: wrkArgv(step, server.port, { http: load }) },
        { argv: wrkArgv(inTurns.step, inTurns.server.port, { http: load }) }
      ], { timeoutMs })
      : [await runWrk(wrkArgv(step, server.port, { http: load }), timeoutMs)]
    const after = processCpu(server.started.pid)
    const partnerAfter = inTurns ? processCpu(inTurns.server.started.pid) : null
    const output = parseWrk(wrk.stdout)
    const failure = wrkFailure({ wrk, output, exited: server.started.exited(), unannouncedClose: server.unannouncedClose ?? false, connections: step.connections, seconds: load.seconds })
    // a run too short for its load answers nothing, or answers late: the next is longer
    const tooShort = output.requests === 0 || (output.errors.timeout > 0 && failure?.startsWith('wrk counted socket errors'))
    if (failure && tooShort && load.seconds < LONGEST_RUN_SECONDS) {
      const doubled = { seconds: Math.min(LONGEST_RUN_SECONDS, load.seconds * 2) }
      runLoad = output.requestsPerSecond > 0
        ? loadFor(doubled, step.connections, output.requestsPerSecond)
        : { ...doubled, timeoutSeconds: Math.min(LONGEST_RUN_SECONDS, 2 * (load.timeoutSeconds ?? WRK_TIMEOUT_SECONDS)) }
      continue
    }
    if (failure) throw new Error(`warm-up run ${rates.length + 1}: ${failure}`)
    const rate = inTurns && wrk.runningNs > 0 ? output.requests / (wrk.runningNs / 1e9) : output.requestsPerSecond
    rates.push(rate)
    const cpuUs = before && after ? cpuBetween(before, after).cpuNs / output.requests / 1000 : null
    server.warmupCpuUs.push(cpuUs)
    const compiles = window.compiles()
    if (compiles !== null) server.warmupCompiles.push(compiles)
    window = collectionsFrom(server.started, server.trace)
    if (inTurns) {
      // the reference's side of the turn: a ratio only where its run answered
      const theirs = parseWrk(partnerWrk.stdout)
      const theirCpuUs = partnerBefore && partnerAfter && theirs.requests > 0
        ? cpuBetween(partnerBefore, partnerAfter).cpuNs / theirs.requests / 1000
        : null
      server.warmupRatios.push(cpuUs !== null && theirCpuUs ? cpuUs / theirCpuUs : null)
    }
    runLoad = loadFor(preset, step.connections, rate)
    if (rates.length >= min && rates.length < 2) return null
    const figures = {
      rates,
      cpuUs: server.warmupCpuUs,
      ratios: inTurns ? server.warmupRatios : [],
      compiles: server.warmupCompiles
    }
    const { settled, basis } = warmupSettled(figures, min)
    server.warmupBasis = basis
    if (settled) return true
  }
  return rates.length < 2 ? null : false
}

// One step: a wrk run of a cell (timed, capacity or kernel pass), a latency pass run or a run
// of the strace pass. Resolves to { record, stopped } as experiments/stdio/measure.js's measure
// does; `note` shows the servers' start-up and warm-up as they go. A timed run's record goes to
// the session's store of rates, as a resumed run's logged one does (timedRatesStore).
async function measureStep (step, options, session, runDir, note = () => {}) {
  if (step.phase === STRACE_PHASE) return { record: await measureStrace(step, options, runDir), stopped: false }
  if (step.phase === LATENCY_PHASE) return measureLatency(step, options, session, note)
  const result = await measureWrk(step, options, session, runDir, note)
  if (step.phase === PHASE) session.timedRates.keep(step, result.record)
  return result
}

// A wrk run of a cell, under the probes for the kernel pass, with the reference's pair beside
// it where the placement takes turns.
async function measureWrk (step, options, session, runDir, note) {
  const server = await session.serverFor(step, options, note)
  if (session.stopping?.()) {
    const record = { phase: step.phase, program: step.server.name, ok: false, failure: 'stopped before its run' }
    return { record, stopped: true }
  }
  const base = {
    phase: step.phase,
    program: step.server.name,
    mode: step.mode,
    connections: step.connections,
    blockSize: null,
    process: step.process ?? 0,
    round: step.round ?? step.run,
    run: step.run,
    // a kernel-pass run with wrk on another CPU, as the capacity runs place it
    ...(step.apart ? { apart: true } : {})
  }
  // placement interleaved: the reference's server, its pair taking turns with this one's
  const partnerStep = step.partner ? { ...step, server: step.partner, program: step.partner } : null
  const partner = partnerStep ? await session.serverFor(partnerStep, options, note) : null
  // the load this step's connections need at the rate its warm-up found (wrk.js loadFor),
  // the longer of the two where a pair runs beside it, so that both run the same time
  const load = sharedLoad(options.http, step.connections, [server, partner])
  const runOptions = { ...options, http: { ...options.http, ...load } }
  const command = shellQuote(wrkArgv(step, server.port ?? '{port}', runOptions))
  const failed = failure => ({ record: { ...base, ok: false, failure, command, at: new Date().toISOString() }, stopped: false })
  if (server.failure) return failed(server.failure)
  if (partner?.failure) return failed(`${REFERENCE}, which runs beside it, failed: ${partner.failure}`)
  const pid = server.started.pid
  const cpus = [...new Set([step.pin.client, step.pin.server])]
  const before = processCpu(pid)
  const partnerBefore = partner ? processCpu(partner.started.pid) : null
  const tracing = step.phase === KERNEL_PHASE ? await startTracing(step, pid, runDir) : null
  if (tracing && !tracing.ok) {
    const failure = `kernel pass: ${tracing.failure}`
    const record = { ...base, ok: false, failure, command, at: new Date().toISOString() }
    return { record, stopped: false }
  }
  // the tracer's window (a throw in it kills the tracer), from the collections on
  const {
    collections, wrk, partnerWrk, windowNs, userBefore, userAfter, stealBefore, stealAfter, wrkUserNs, benchUser
  } = await insideWindow(tracing, async () => {
    // the run's collections where its process traces them (processTrace)
    const collections = collectionsFrom(server.started, processTrace(step, LATENCY_PHASE).trace)
    // the CPUs' time around the run alone: the tracer's start and stop, and the bench's reading
    // of every process of the server, are outside it
    const userBefore = userNs(cpus)
    const stealBefore = stealNs(cpus)
    const wrkUserBefore = childrenUserNs()
    const benchUserBefore = benchUserNs()
    const windowStart = process.hrtime.bigint()
    const timeoutMs = runOptions.http.seconds * 1000 + WRK_GRACE_MS
    const [wrk, partnerWrk = null] = partner
      ? await runInterleaved([
        { argv: wrkArgv(step, server.port, runOptions) },
        { argv: wrkArgv(partnerStep, partner.port, runOptions) }
      ], { timeoutMs })
      : [await runWrk(wrkArgv(step, server.port, runOptions), timeoutMs)]
    const windowNs = Number(process.hrtime.bigint() - windowStart)
    return {
      collections,
      wrk,
      partnerWrk,
      windowNs,
      userBefore,
      userAfter: userNs(cpus),
      stealBefore,
      stealAfter: stealNs(cpus),
      wrkUserNs: childrenUserNs() - wrkUserBefore,
      benchUser: benchUserNs() - benchUserBefore
    }
  })
  const traced = tracing ? await tracing.stop() : null
  const after = processCpu(pid)
  const partnerAfter = partner ? processCpu(partner.started.pid) : null
  const output = parseWrk(wrk.stdout)
  const gc = collections.end(output.requests ?? 0, loadSpanNs({ seconds: output.seconds, windowNs }))
  const compiles = collections.compiles()
  const kernel = traced ? kernelCounts(traced, output.requests) : null
  const ran = { wrk, output, exited: server.started.exited(), unannouncedClose: server.unannouncedClose }
  const partnerOutput = partnerWrk ? parseWrk(partnerWrk.stdout) : null
  const partnerFailure = partner
    ? wrkFailure({ wrk: partnerWrk, output: partnerOutput, exited: partner.started.exited(), unannouncedClose: partner.unannouncedClose, connections: step.connections, seconds: runOptions.http.seconds })
    : null
  if (partnerFailure) await session.failRun(partnerStep, partnerFailure)
  const serverFailure = wrkFailure({ ...ran, connections: step.connections, seconds: runOptions.http.seconds }) ??
    (partnerFailure ? `${REFERENCE}, which ran beside it: ${partnerFailure}` : null)
  // the tracer's own problem fails this run, not the process, whose later runs (the latency
  // pass's) are as good as they were
  const failure = serverFailure ?? kernel?.problem ?? null
  if (serverFailure) await session.failRun(step, serverFailure)
  const record = {
    ...base,
    ok: failure === null,
    failure,
    command,
    wallNs: wrk.wallNs,
    wrk: output,
    // the run's duration and wrk's timeout, from its load
    load,
    // what the hypervisor took from the run's CPUs meanwhile (lib/steal.js)
    steal: stealBetween(cpus, stealBefore, stealAfter),
    unannouncedClose: server.unannouncedClose,
    // the warm-up's wrk runs before the first run of this server process, req/s, whether
    // its last two agreed, and in what (warmupSettled's basis)
    warmupRates: server.warmupRates,
    warmupCpuUs: server.warmupCpuUs,
    // placement interleaved: its warm-up runs' CPU per request over the reference's beside it
    ...(partner ? { warmupRatios: server.warmupRatios } : {}),
    warmupAgreed: server.warmupAgreed,
    warmupBasis: server.warmupBasis ?? null,
    ...compilesRecord(server, compiles),
    server: before && after ? cpuBetween(before, after) : null,
    // placement interleaved: the time this pair was let run, and the reference's pair beside
    // it, measured alike (its wrk's command is this one's with the reference's port)
    ...(partner
      ? turnsRecord(wrk, partnerWrk, {
        program: REFERENCE,
        wrk: partnerOutput,
        server: partnerBefore && partnerAfter ? cpuBetween(partnerBefore, partnerAfter) : null
      })
      : {}),
    ...(kernel?.counts ? { kernel: kernel.counts, rawFile: tracing.rawFile } : {}),
    ...(gc ? { gc } : {}),
    at: new Date().toISOString()
  }
  // what else ran on wrk's and the server's CPUs meanwhile: bench.js measures such a run again
  // (the reference's pair beside it is no one else)
  if (record.server) {
    // a server whose processes ended in the run (mini_httpd's child per connection) has user
    // time its CPU never counted as such: that CPU cannot be checked (lib/foreign.js)
    const readings = [record.server, record.partner?.server].filter(Boolean)
    const serverUserNs = readings.some(reading => reading.reapedTicks > 0)
      ? null
      : readings.reduce((sum, reading) => sum + reading.userTicks, 0) * (1e9 / CLK_TCK)
    const ownUserNs = cpus.map(cpu => cpu === step.pin.server && serverUserNs === null
      ? null
      : (cpu === step.pin.client ? wrkUserNs : 0) + (cpu === step.pin.server ? serverUserNs : 0))
    record.foreign = userForeign({ cpus, before: userBefore, after: userAfter, windowNs, ownUserNs, benchUser })
  }
  if (record.ok && record.server === null) Object.assign(record, { ok: false, failure: 'the server\'s CPU time could not be read from /proc' })
  if (record.ok && partner && record.partner.server === null) Object.assign(record, { ok: false, failure: `the CPU time of ${REFERENCE}, which ran beside it, could not be read from /proc` })
  return { record, stopped: wrk.signal === 'SIGINT' }
}

// How a server process traces its collector (processTrace says which processes do): V8's
// --trace-gc (Node, Deno, the host), JavaScriptCore's log (Bun), or null where there is no
// collector or no trace of it. A V8 process also traces its optimizing compiles
// (--trace-opt, `compiles` counts them in a stretch of its output), so that its warm-up
// waits for them (warmupSettled); it prints 3-4 lines a compile, none once its code is done.
function gcTraceOf (server) {
  const runtime = runtimes[server.runtime]
  // V8 prints its trace with C's stdio, which holds 4 KiB at a time in a pipe: a run would
  // take the lines of runs before it. Line-buffered, each line leaves as it is printed.
  if (runtime.v8Flags && server.command.includes('{v8flags}')) {
    const prefix = ['stdbuf', '-oL', '-eL']
    const v8Flags = ['--trace-gc', '--trace-opt']
    const compiles = countOptimizingCompiles
    return { how: 'V8 --trace-gc', prefix, v8Flags, env: {}, parse: parseGcTrace, compiles }
  }
  // JavaScriptCore's log goes to stderr, unbuffered. It cost Bun 2-8% of its CPU per request
  // with keep-alive at 128 connections in each of the six pairs of processes of two runs of
  // studies/gc-trace-cost.js (docs/http.md); V8's trace, nothing its pairs could tell.
  if (runtime.engine === 'jsc') {
    const env = { BUN_JSC_logGC: '1' }
    return { how: 'BUN_JSC_logGC=1', prefix: [], v8Flags: [], env, parse: parseJscGcLog, costsCpu: true }
  }
  return null
}

// How a step's server process traces its collector (step.gcTrace): every process where the
// trace costs nothing measurable; where it does, the timed runs' processes run untraced and
// the latency pass (`latencyPhase`) starts a traced process of its own (`apart`).
function processTrace (step, latencyPhase) {
  const trace = step.gcTrace ? gcTraceOf(step.server) : null
  if (!trace?.costsCpu) return { trace, apart: false }
  return step.phase === latencyPhase ? { trace, apart: true } : { trace: null, apart: false }
}

// The whole lines a server has printed since `from` ({ stdout, stderr } offsets into what it
// printed), and where the next read starts: a line cut by a read is read whole next time.
function printedSince (started, from = { stdout: 0, stderr: 0 }) {
  const now = started.output()
  const end = (text, start) => Math.max(start, text.lastIndexOf('\n') + 1)
  const to = { stdout: end(now.stdout, from.stdout), stderr: end(now.stderr, from.stderr) }
  return { text: now.stdout.slice(from.stdout, to.stdout) + now.stderr.slice(from.stderr, to.stderr), to }
}

// The collections a traced server process prints from now on (`traced`: gcTraceOf's, or
// null), and its optimizing compiles where it traces them: what it printed before, between
// other servers' runs, is passed over, and so are the steps of a marking begun before now
// (lib/gctrace.js collectionsAfter: V8 stamps its lines in ms since its isolate began, taken
// here as since the process was spawned, which comes a few ms sooner, so that a marking begun
// in those first ms of the window counts as begun before it).
// `end(answered, loadNs)` gives the window's figures (gcInWindow, its share of `loadNs`, the
// time the server was under load: loadSpanNs) and how they were traced, or null for a process
// whose collector is not traced.
function collectionsFrom (started, traced) {
  const { to: printed } = traced ? printedSince(started) : { to: null }
  // a process with no spawn time (a test's) cuts nothing
  const fromMs = started.spawnedAtMs == null ? -Infinity : performance.now() - started.spawnedAtMs
  const end = (answered, loadNs) => {
    if (!traced) return null
    const inWindow = traced.parse(printedSince(started, printed).text)
    const { events, markingsBegunBefore, stepsLeftOutMs } = collectionsAfter(inWindow, fromMs)
    // costsCpu: the run's process paid for its trace (Bun's log), which its latency holds
    return {
      how: traced.how,
      costsCpu: Boolean(traced.costsCpu),
      ...gcInWindow(events, answered, loadNs),
      markingsBegunBefore,
      stepsLeftOutMs
    }
  }
  // the optimizing compiles it has finished since, where it traces them (V8), else null
  const compiles = () => traced?.compiles ? traced.compiles(printedSince(started, printed).text) : null
  return { end, compiles }
}

// Why a server's row has no GC figures.
function noGcReason (server) {
  return runtimes[server.runtime].noGcTrace ?? 'no trace of its collector'
}

// The time a server was under load in a run, which a share of it paused is of: the load's own
// length, as wrk or oha report it, else the window around the load's process, its start and
// exit included. Where runs take turns (interleave.js) wrk's length holds its partner's turns
// too, as the collections counted do (a review: its own turns alone held half the window's).
const loadSpanNs = ({ seconds, windowNs }) => (seconds > 0 ? seconds * 1e9 : windowNs)

// Collections in a window of a run: their count per 1,000 answered requests, the share of
// the load's span (loadSpanNs) the world was stopped, the longest pause, and counts by kind.
function gcInWindow (events, answered, loadNs) {
  const { collections, totalPauseMs, maxPauseMs, byKind } = summariseGc(events)
  return {
    collections,
    perThousandRequests: answered > 0 ? collections / answered * 1000 : null,
    pausedShare: totalPauseMs * 1e6 / loadNs,
    // what that share is of (runs before 2026-12-07, evening, had the load process's window)
    spanNs: loadNs,
    totalPauseMs,
    // JavaScriptCore's cycles stop the world in increments: the longest increment
    longestPauseMs: events.some(event => event.longestPauseMs != null)
      ? Math.max(...events.map(event => event.longestPauseMs ?? event.pauseMs))
      : maxPauseMs,
    byKind
  }
}

// A latency pass run: oha at the step's rate and connections, the server's CPU and its
// collections over the run. The rate is step.rateShare of what the reference answered in
// its timed runs of the mode, all its processes' (step.rateFrom, capacityOf).
async function measureLatency (step, options, session, note) {
  const server = await session.serverFor(step, options, note)
  const referenceRow = step.peers.find(peer => peer.name === REFERENCE)
  const referenceStep = referenceRow ? { ...step, server: referenceRow, program: referenceRow } : null
  const reference = referenceStep ? await session.serverFor(referenceStep, options, note) : null
  const { seconds } = options.http.latency ?? PRESETS.default.latency
  return runAtShare(step, {
    server,
    reference,
    timedRates: referenceStep && session.timedRates.of(referenceStep),
    referenceName: REFERENCE,
    seconds,
    // process: the timed one the pass ran in, or, apart, the traced one beside it
    fields: {
      phase: LATENCY_PHASE,
      program: step.server.name,
      mode: step.mode,
      process: step.process,
      tracedApart: processTrace(step, LATENCY_PHASE).apart,
      round: 0
    },
    failRun: failure => session.failRun(step, failure)
  })
}

// A session's timed runs' requests/s, for the latency pass's rates (capacityOf): per server and
// group (http's mode, db's endpoint), over all of its processes (http's two: twice the runs a
// median, which moved less than the last process's on one Zen 4 VM and a little more on another,
// docs/http.md), by run. `keep` takes a timed step's record, this session's or a resumed run's
// logged one (`seed`, so that its pass asks what the whole run would have), where the step ran
// alone (not in turns with a partner) at the most connections (the warm-up's count): a try
// measured again replaces its first, and one that failed drops it, as the log keeps them. `of`
// is a server's Map of run to requests/s.
function timedRatesStore () {
  const byGroup = new Map()
  const of = step => {
    const key = `${step.server.name} ${step.endpoint ?? step.mode}`
    if (!byGroup.has(key)) byGroup.set(key, new Map())
    return byGroup.get(key)
  }
  const keep = (step, record) => {
    const most = step.warmupConnections ?? step.connections
    if (step.partner || step.connections !== most) return
    const requestsPerSecond = record.ok ? record.wrk?.requestsPerSecond : null
    if (Number.isFinite(requestsPerSecond)) of(step).set(step.run, requestsPerSecond)
    else of(step).delete(step.run)
  }
  // timedSteps: the plan's timed steps; records: the log's runs kept; cellKey: the experiment's
  const seed = (timedSteps, records, cellKey) => {
    const runKey = each => `${cellKey(each)}\t${each.run}`
    const kept = records.filter(record => record.ok && !record.superseded)
    const ran = new Map(kept.map(record => [runKey(record), record]))
    for (const step of timedSteps) {
      const record = ran.get(runKey(step))
      if (record) keep(step, record)
    }
  }
  return { keep, seed, of }
}

// Where a latency pass takes its rates from (step.rateFrom): the median of the reference's
// timed runs (TIMED_RATES; `timedRates`, a Map of timedRatesStore's): its warm-up's last run
// moved C's /db rate from 45,917 to 31,641 req/s between two runs back to back, the medians of
// its timed runs 42,800 and 43,900 (docs/db.md); c-epoll's capacity run, wrk apart, 90,000 to
// 144,000 req/s where its timed runs' median held 66,000-77,000 (docs/http.md). Else, where no
// timed run of it was kept (in a resumed run's log or this session), its warm-up's last. Runs
// before 2026-12-07 took http's from the capacity run ('capacity'). { rate, from, runs (the
// timed runs' count) }.
function capacityOf (reference, rateFrom, timedRates) {
  const timed = [...(timedRates?.values() ?? [])]
  if (rateFrom === TIMED_RATES && timed.length) {
    return { rate: median(timed), from: TIMED_RATES, runs: timed.length }
  }
  return { rate: reference?.warmupRates?.at(-1) ?? null, from: 'warm-up' }
}

// A latency pass run (the http and db experiments'): its rate, step.rateShare of what the
// reference answered in its timed runs (`timedRates`), else at the end of its process's
// (`reference`) warm-up (capacityOf), the same for every server; oha's command; then the run,
// or why there was none. `referenceName`: whose rate it is; `fields`: the record's own;
// `path`: the page asked for.
async function runAtShare (step, options) {
  const { server, reference, timedRates, referenceName, seconds, fields, failRun } = options
  const urlPath = options.path ?? '/'
  const { rate: capacity, from, runs } = capacityOf(reference, step.rateFrom, timedRates)
  const rate = capacity ? roundRate(step.rateShare * capacity) : null
  // each answered request, for the latency once every connection is open (oha.js steadyLatency)
  const requestsFile = path.join(os.tmpdir(), `syscall-lab-oha-${process.pid}-${++ohaRuns}.db`)
  const argv = ohaArgv({
    requestsFile,
    cpu: step.pin.client,
    rate: rate ?? '{rate}',
    connections: step.connections,
    seconds,
    mode: step.mode,
    port: server.port ?? '{port}',
    path: urlPath
  })
  const base = {
    ...fields,
    connections: step.connections,
    blockSize: null,
    run: 0,
    rateShare: step.rateShare,
    rate,
    // the rates' source (capacityOf), in the reference's process
    capacity: capacity
      ? {
          program: referenceName,
          requestsPerSecond: capacity,
          connections: step.warmupConnections,
          from,
          ...(runs ? { runs } : {})
        }
      : null,
    pin: step.pin,
    seconds,
    command: shellQuote(argv)
  }
  const failed = failure => ({ record: { ...base, ok: false, failure, at: new Date().toISOString() }, stopped: false })
  if (server.failure) return failed(server.failure)
  if (!capacity) {
    const why = reference?.failure ? `failed: ${reference.failure}` : 'did not run'
    const source = step.rateFrom === TIMED_RATES ? 'timed runs and warm-up' : 'warm-up'
    return failed(`no rate: ${referenceName}'s ${source}, whose requests/s set the rates, ${why}`)
  }
  try {
    return await ohaAtRate(step, server.started, argv, base, { seconds, rate, failRun, requestsFile })
  } finally {
    fs.rmSync(requestsFile, { force: true })
  }
}
let ohaRuns = 0

// oha's report with `steady`: each request read back from oha's file (oha.js requestTimes), with
// keep-alive those due once every connection has opened and answered once (oha.js
// steadyLatency), with Connection: close every request (each opens one, and its connect is its
// cost), timed from oha's stamps with their lateness beside; or with `steadyProblem`, why not,
// its figures then oha's own, connects and all.
function withSteadyLatency (output, step, requestsFile, rate) {
  if (!output) return output
  const requests = requestTimes(requestsFile, rate)
  if (requests === null) return { ...output, steady: null, steadyProblem: `oha's ${requestsFile} could not be read` }
  if (requests.length !== output.answered) {
    const problem = `oha's file holds ${requests.length} requests of ${output.answered}`
    return { ...output, steady: null, steadyProblem: problem }
  }
  return { ...output, steady: steadyLatency(requests, step.mode === 'close' ? 0 : step.connections) }
}

// One oha run against a warmed-up server process (the http and db latency passes): its
// latency from intended send times, the server's CPU and its collections over the run, oha's
// own CPU and the hypervisor's steal. `base`: the record's fields so far; `failRun`: what
// to do with a process that answered wrongly, hung or died (it serves no more runs).
async function ohaAtRate (step, started, argv, base, { seconds, rate, failRun, requestsFile }) {
  const traced = gcTraceOf(step.server)
  // how the server was started: its collector's trace among its flags or its environment
  const environment = Object.entries(traced?.env ?? {}).map(([name, value]) => `${name}=${value} `).join('')
  const record = { ...base, serverCommand: environment + shellQuote(started.argv) }
  // the run's own collections, read before a failed run stops the process
  const collections = collectionsFrom(started, traced)
  const cpus = [...new Set([step.pin.client, step.pin.server])]
  const stealBefore = stealNs(cpus)
  const before = processCpu(started.pid)
  const ohaBefore = childrenCpuNs()
  const windowStart = process.hrtime.bigint()
  const run = await runWrk(argv, seconds * 1000 + WRK_GRACE_MS)
  const windowNs = Number(process.hrtime.bigint() - windowStart)
  const after = processCpu(started.pid)
  const ohaCpuNs = childrenCpuNs() - ohaBefore
  const stealAfter = stealNs(cpus)
  const output = withSteadyLatency(parseOha(run.stdout), step, requestsFile, rate)
  const failure = ohaFailure({ run, output, exited: started.exited() }) ??
    (before && after ? null : 'the server\'s CPU time could not be read from /proc')
  const gc = collections.end(output?.answered ?? 0, loadSpanNs({ seconds: output?.seconds, windowNs }))
  if (failure) await failRun(failure)
  Object.assign(record, {
    ok: failure === null,
    failure,
    wallNs: windowNs,
    oha: output,
    holdsRate: output && failure === null ? holdsRate(output, rate, seconds) : null,
    server: before && after ? cpuBetween(before, after) : null,
    // oha's own CPU time (user and system, 10 ms ticks): what the load cost
    ohaCpuNs,
    // what the hypervisor took from oha's and the server's CPUs meanwhile: a VM descheduled
    // for milliseconds puts them into every request then in flight (lib/steal.js)
    steal: stealBetween(cpus, stealBefore, stealAfter),
    gc: gc ?? { how: null, reason: noGcReason(step.server) },
    at: new Date().toISOString()
  })
  return { record, stopped: run.signal === 'SIGINT' }
}

// A rate to two significant digits: 12,345 req/s is asked as 12,000.
function roundRate (rate) {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(rate)) - 1)
  return Math.max(1, Math.round(rate / unit) * unit)
}

// Where a kernel-pass run's profile goes in its run folder (gzipped after), by its cell.
const kernelRawFile = step => path.join('kernel',
  `http-${step.server.name}-${step.mode}-${step.connections}${step.apart ? '-apart' : ''}.json`)

// The probes on a server process and its children, for one wrk run: sysprof pinned where
// the server runs (its calibration measures that CPU), its profile kept in runDir/kernel/, gzipped.
async function startTracing (step, pid, runDir) {
  const rawFile = kernelRawFile(step)
  fs.mkdirSync(path.join(runDir, 'kernel'), { recursive: true })
  const placed = { prefix: ['taskset', '-c', String(step.pin.server)] }
  const tracer = await traceProcesses([pid], path.join(runDir, rawFile), placed)
  if (!tracer.ok) return tracer
  return { ok: true, rawFile: `${rawFile}.gz`, stop: tracer.stop, kill: tracer.kill }
}

// A window's syscalls, every thread and child of the server, per request: each call's count,
// failures and time on the CPU in the kernel (p50, the probes' floor included).
function kernelCounts (traced, requests) {
  if (!traced.ok) return { problem: `kernel pass: ${traced.failure}` }
  const profile = parseProfile(traced.text)
  const problem = profileProblem(profile)
  if (problem) return { problem }
  const syscalls = windowCalls(profile)
  const { floorNs, threads, processes } = profile
  return { counts: { requests, floorNs, threads, processes, syscalls } }
}

// One run of the strace pass: the server under strace -f -c answers step.requests
// requests, then gets SIGTERM; its summary is kept in runDir/strace/.
async function measureStrace (step, options, runDir) {
  const file = path.join(runDir, 'strace', `http-${step.server.name}-${step.mode}-${step.requests}.txt`)
  const prefix = ['taskset', '-c', String(step.pin.server), 'strace', '-qq', '-f', '-c', '-o', file, '--']
  const port = await freePort()
  const base = { phase: STRACE_PHASE, program: step.server.name, mode: step.mode, connections: step.connections, requests: step.requests, blockSize: null, run: step.run, command: shellQuote([...prefix, ...serverArgv(step.server, port)]) }
  let started = null
  let failure = null
  try {
    started = await startServer(step.server, { port, prefix, traced: true, timeoutMs: options.timeoutSeconds * 1000 })
    const load = await sendRequests(port, { mode: step.mode, connections: step.connections, requests: step.requests, timeoutMs: options.timeoutSeconds * 1000 })
    if (load.problem) failure = load.problem
  } catch (err) {
    failure = err.message
  }
  const stopped = started ? await started.stop() : null
  if (!failure && stopped && !stopped.clean) failure = `the server did not exit 0 on SIGTERM under strace (${stopped.signal ?? stopped.code})`
  let summary = null
  if (!failure) {
    try {
      summary = parseStraceSummary(fs.readFileSync(file, 'utf8'))
    } catch (err) {
      failure = `no strace summary: ${err.message}`
    }
  }
  const syscalls = summary ? callCounts(summary) : null
  const totalCalls = summary?.totalCalls ?? null
  return { ...base, ok: failure === null, failure, syscalls, totalCalls, at: new Date().toISOString() }
}

module.exports = {
  PHASE,
  STRACE_PHASE,
  KERNEL_PHASE,
  kernelRawFile,
  CAPACITY_PHASE,
  LATENCY_PHASE,
  STOPPED_BEFORE_START,
  STRACE_CONNECTIONS,
  PRESETS,
  planHttp,
  httpSession,
  measureStep,
  warmUp,
  warmupSettled,
  compilesRecord,
  COMPILING_RULE,
  compilerSettled,
  roundRate,
  gcInWindow,
  gcTraceOf,
  collectionsFrom,
  loadSpanNs,
  processTrace,
  runAtShare,
  capacityOf,
  timedRatesStore
}
