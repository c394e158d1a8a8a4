'use strict'
// The http experiment's plan and its measurement, step by step.
//
// A cell is a server, a mode and a count of connections. Its runs are wrk runs, one
// after the other, against one server process per server and mode, which bench.js starts
// for the first of them: it checks the server's answers in both modes, then warms it up
// with wrk runs at the most connections until two in a row agree within WARMUP_AGREE (at
// most the preset's warmup.max runs; --quick makes one and checks nothing). A JIT's
// tiers and V8's young generation, which grows with the allocation rate, take seconds of load to settle: node-http with Connection: close went
// 9.3k, 13.5k, 16.5k, 19.1k, 21.9k req/s over its first five 1 s runs, then held. Servers
// are pinned to one CPU and wrk to the other, so neither takes the other's time. Cells
// run mode by mode, every server in turn, so that the servers compared in one table are
// measured a minute or two apart at most.
//
// The strace pass: per server and mode, the server under `strace -f -c` answers a count
// of requests from sendRequests at STRACE_CONNECTIONS, once at `small` and once at
// `large` requests, each in a new process; syscalls per request are the difference of
// the two runs' counts over the difference of their requests, so start-up, idle and
// exit, which both runs make, cancel.
const fs = require('node:fs')
const path = require('node:path')
const { shellQuote } = require('../../lib/pipeline')
const { parseStraceSummary } = require('../../lib/strace')
const { userNs, userForeign } = require('../../lib/foreign')
const { CLK_TCK } = require('../../lib/procfs')
const { MODES, serverArgv, freePort, startServer, apartPin } = require('./servers')
const { checkLoad, sendRequests } = require('./client')
const { wrkArgv, runWrk, parseWrk, wrkFailure, WRK_GRACE_MS } = require('./wrk')
const { processCpu, childrenUserNs, cpuBetween } = require('./cpu')

const PHASE = 'http'
const STRACE_PHASE = 'http-strace'
const WARMUP_AGREE = 0.05
const STRACE_CONNECTIONS = 16
const PRESETS = {
  default: { runs: 4, seconds: 1, connections: [1, 16, 128], warmup: { min: 2, max: 8 }, straceRequests: { small: 1000, large: 4000 } },
  // a smoke test within a minute: one warm-up run and one timed run per cell, no intervals
  quick: { runs: 1, seconds: 1, connections: [16], warmup: { min: 1, max: 1 }, straceRequests: { small: 250, large: 1000 } }
}

function planHttp (selected, options, pin = apartPin()) {
  const steps = []
  const { runs, connections, straceRequests } = options.http
  for (const mode of options.modes) {
    for (const server of selected) {
      const group = `${mode}: ${server.name}`
      for (const count of connections) {
        for (let run = 0; run < runs; run++) steps.push({ phase: PHASE, program: server, server, mode, connections: count, warmupConnections: Math.max(...connections), blockSize: null, run, warmup: 0, pin, group, label: `${group}, ${count} connection${count === 1 ? '' : 's'}, run ${run + 1} of ${runs}` })
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

const processOf = step => `${step.server.name}\t${step.mode}`
const SERVER_STARTS = 2

// The running server of the steps being measured, kept across the runs of a server and
// mode; bench.js calls measureStep for each step in order and close() when it stops, and
// a stop asked for (`interrupted`) ends a warm-up between its wrk runs.
function httpSession (interrupted = () => false) {
  let current = null
  // a server that failed to start, its check or its warm-up gets one more start (the
  // next step's) before the rest of its steps fail at once
  const failedStarts = new Map()
  const close = async () => {
    if (current?.started) await current.started.stop()
    current = null
  }
  const serverFor = async (step, options) => {
    const key = processOf(step)
    if (current?.key === key && (!current.failure || failedStarts.get(key) >= SERVER_STARTS)) return current
    await close()
    current = { key, failure: null, started: null, unannouncedClose: false, warmupRates: [], warmupAgreed: null }
    try {
      const port = await freePort()
      current.port = port
      current.started = await startServer(step.server, { port, prefix: ['taskset', '-c', String(step.pin.server)], timeoutMs: options.timeoutSeconds * 1000 })
      for (const mode of MODES) {
        const { problem, unannouncedCloses } = await checkLoad(port, mode)
        if (problem) throw new Error(`${mode}: ${problem}`)
        if (mode === step.mode) current.unannouncedClose = unannouncedCloses > 0
      }
      current.warmupAgreed = await warmUp(current, { ...step, connections: step.warmupConnections ?? step.connections }, options.http, interrupted)
    } catch (err) {
      current.failure = err.message
      failedStarts.set(key, (failedStarts.get(key) ?? 0) + 1)
    }
    return current
  }
  return { serverFor, close }
}

// wrk runs until two in a row agree within WARMUP_AGREE: true when they did, false when
// `max` runs never did (the cell's runs say so), null when one run was all it asked.
// `preset`: the experiment's { seconds, warmup } (the db experiment's servers warm up so too).
async function warmUp (server, step, preset, interrupted) {
  const rates = server.warmupRates
  const { min, max } = preset.warmup ?? PRESETS.default.warmup
  while (rates.length < max && !interrupted()) {
    const wrk = await runWrk(wrkArgv(step, server.port, { http: preset }), preset.seconds * 1000 + WRK_GRACE_MS)
    const output = parseWrk(wrk.stdout)
    const failure = wrkFailure({ wrk, output, exited: server.started.exited(), unannouncedClose: server.unannouncedClose ?? false, connections: step.connections, seconds: preset.seconds })
    if (failure) throw new Error(`warm-up run ${rates.length + 1}: ${failure}`)
    rates.push(output.requestsPerSecond)
    const [before, last] = rates.slice(-2)
    if (rates.length >= min && rates.length < 2) return null
    if (rates.length >= min && Math.abs(last - before) <= WARMUP_AGREE * before) return true
  }
  return rates.length < 2 ? null : false
}

// One step: a timed wrk run of a cell, or a run of the strace pass. Resolves to
// { record, stopped } as experiments/stdio/measure.js's measure does.
async function measureStep (step, options, session, runDir) {
  if (step.phase === STRACE_PHASE) return { record: await measureStrace(step, options, runDir), stopped: false }
  const server = await session.serverFor(step, options)
  const base = { phase: PHASE, program: step.server.name, mode: step.mode, connections: step.connections, blockSize: null, run: step.run }
  const command = shellQuote(wrkArgv(step, server.port ?? '{port}', options))
  if (server.failure) return { record: { ...base, ok: false, failure: server.failure, command, at: new Date().toISOString() }, stopped: false }
  const pid = server.started.pid
  const cpus = [...new Set([step.pin.client, step.pin.server])]
  const userBefore = userNs(cpus)
  const before = processCpu(pid)
  const wrkUserBefore = childrenUserNs()
  const windowStart = process.hrtime.bigint()
  const wrk = await runWrk(wrkArgv(step, server.port, options), options.http.seconds * 1000 + WRK_GRACE_MS)
  const after = processCpu(pid)
  const wrkUserNs = childrenUserNs() - wrkUserBefore
  const userAfter = userNs(cpus)
  const windowNs = Number(process.hrtime.bigint() - windowStart)
  const output = parseWrk(wrk.stdout)
  const failure = wrkFailure({ wrk, output, exited: server.started.exited(), unannouncedClose: server.unannouncedClose, connections: step.connections, seconds: options.http.seconds })
  // a server that failed a run may be left in any state: the next run starts it afresh
  if (failure) await session.close()
  const record = {
    ...base,
    ok: failure === null,
    failure,
    command,
    wallNs: wrk.wallNs,
    wrk: output,
    unannouncedClose: server.unannouncedClose,
    // the warm-up's wrk runs before the first run of this server process, req/s, and
    // whether its last two agreed
    warmupRates: server.warmupRates,
    warmupAgreed: server.warmupAgreed,
    server: before && after ? cpuBetween(before, after) : null,
    at: new Date().toISOString()
  }
  // what else ran on wrk's and the server's CPUs meanwhile: bench.js measures such a run again
  if (record.server) {
    const serverUserNs = record.server.userTicks * (1e9 / CLK_TCK)
    const ownUserNs = cpus.map(cpu => (cpu === step.pin.client ? wrkUserNs : 0) + (cpu === step.pin.server ? serverUserNs : 0))
    record.foreign = userForeign({ cpus, before: userBefore, after: userAfter, windowNs, ownUserNs })
  }
  if (record.ok && record.server === null) Object.assign(record, { ok: false, failure: 'the server\'s CPU time could not be read from /proc' })
  return { record, stopped: wrk.signal === 'SIGINT' }
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
  return { ...base, ok: failure === null, failure, syscalls: summary?.syscalls.map(({ name, calls, errors }) => ({ name, calls, errors })) ?? null, totalCalls: summary?.totalCalls ?? null, at: new Date().toISOString() }
}

module.exports = { PHASE, STRACE_PHASE, STRACE_CONNECTIONS, PRESETS, planHttp, httpSession, measureStep, warmUp }
