'use strict'
// The network path's servers (issue 18; the wrk bench that times them is not built
// yet): one table of hello-world servers, one file each in http/, and what the bench
// will do before timing any of them: start one on a free port of 127.0.0.1, wait for
// its ready line, check its answers over a real socket in both modes, and stop it.
// Every server answers every request with status 200 and the 13 bytes "Hello, World!"
// (Content-Length: 13), prints "listening 127.0.0.1:PORT" once it listens, and exits 0
// on SIGTERM.
const fs = require('node:fs')
const net = require('node:net')
const { spawn, spawnSync } = require('node:child_process')
const path = require('node:path')
const { expandCommand, unavailableReason } = require('../../lib/programs')
const { shellQuote } = require('../../lib/pipeline')
const { parseStraceSummary } = require('../../lib/strace')
const { median, ratioInterval } = require('../../lib/stats')
const { allowedCpus, placementPlan } = require('../../lib/placement')
const { userNs, userForeign } = require('../../lib/foreign')
const { CLK_TCK, statFields } = require('../../lib/procfs')

const BODY = 'Hello, World!'
const READY_LINE = /^listening 127\.0\.0\.1:(\d+)$/m
const MODES = ['keep-alive', 'close']
// Requests the keep-alive check sends, one after the other, on one connection.
const KEEP_ALIVE_REQUESTS = 3

// {port} is the port the server must listen on.
const servers = [
  { name: 'c-blocking', runtime: 'native', file: 'http/c-blocking.c', command: ['{build}/http-c-blocking', '{port}'], note: 'the classic listing: accept, read, write, close, one connection at a time; says Connection: close' },
  { name: 'c-epoll', runtime: 'native', file: 'http/c-epoll.c', command: ['{build}/http-c-epoll', '{port}'], note: 'the ceiling: one thread, epoll, keep-alive, each readable connection answered in one write' },
  { name: 'just-blocking', runtime: 'just', file: 'http/just-blocking.js', command: ['{runtime}', '{file}', '{port}'], needs: ['net.socket', 'net.setsockopt', 'net.bind', 'net.listen', 'net.accept4', 'net.read', 'net.write', 'net.close', 'sys.exitOnSigterm'], note: 'c-blocking on the lab\'s V8 host, call for call: net.accept4, net.read, net.write, net.close as fast API calls' },
  { name: 'just-epoll', runtime: 'just', file: 'http/just-epoll.js', command: ['{runtime}', '{file}', '{port}'], needs: ['net.socket', 'net.setsockopt', 'net.bind', 'net.listen', 'net.accept4', 'net.read', 'net.write', 'net.close', 'sys.exitOnSigterm', 'factory.loop'], note: 'c-epoll on the lab\'s V8 host, call for call: the host\'s epoll loop calling a JS callback per readable connection' },
  { name: 'node-http', runtime: 'node', file: 'http/node-http.js', command: ['{runtime}', '{file}', '{port}'], note: 'http.createServer' },
  { name: 'node-net', runtime: 'node', file: 'http/node-net.js', command: ['{runtime}', '{file}', '{port}'], note: 'net sockets, no HTTP layer' },
  { name: 'bun', runtime: 'bun', file: 'http/bun.js', command: ['{runtime}', '{file}', '{port}'], note: 'Bun.serve' },
  { name: 'deno', runtime: 'deno', file: 'http/deno.js', command: ['{runtime}', 'run', '--allow-net', '{file}', '{port}'], note: 'Deno.serve' }
]

function serverArgv (server, port) {
  return expandCommand(server, { '{port}': String(port) })
}

// A port of 127.0.0.1 that nothing listens on now: the kernel's choice for port 0.
function freePort () {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.on('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

// Starts a server and resolves once it has printed its ready line for `port`, to
// { child, stop }; rejects, having killed it, when it exits first or stays silent
// for timeoutMs. stop() sends SIGTERM and resolves to { code, signal, clean }, clean when
// it exited 0 within STOP_MS (else it is killed).
const STOP_MS = 5000

// prefix: what the server's command runs under (taskset, strace); with `traced` the
// server is the child of that prefix's process (strace's tracee), and stop() signals it.
function startServer (server, { port, timeoutMs = 10000, prefix = [], traced = false }) {
  const [command, ...args] = [...prefix, ...serverArgv(server, port)]
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let settled = false
    const exited = new Promise(resolve => child.on('exit', (code, signal) => resolve({ code, signal })))
    const fail = reason => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signalServer(child, traced, 'SIGKILL')
      reject(new Error(reason))
    }
    const timer = setTimeout(() => fail(`${server.name} printed no ready line within ${timeoutMs / 1000} s (stdout: ${JSON.stringify(stdout.slice(0, 200))})`), timeoutMs)
    child.on('error', err => fail(`cannot start ${server.name}: ${err.message}`))
    child.stderr.on('data', chunk => { stderr += chunk })
    child.stdout.on('data', chunk => {
      stdout += chunk
      const ready = READY_LINE.exec(stdout)
      if (!ready || settled) return
      if (Number(ready[1]) !== port) return fail(`${server.name} says it listens on port ${ready[1]}, not ${port}`)
      settled = true
      clearTimeout(timer)
      resolve({ child, pid: traced ? childPid(child.pid) : child.pid, stop: () => stopServer(child, exited, traced) })
    })
    exited.then(({ code, signal }) => fail(`${server.name} exited ${signal ?? code} before it listened: ${stderr.trim().split('\n').pop() || 'no message'}`))
  })
}

async function stopServer (child, exited, traced) {
  if (child.exitCode === null && child.signalCode === null) signalServer(child, traced, 'SIGTERM')
  const timer = new Promise(resolve => setTimeout(() => resolve(null), STOP_MS))
  const result = await Promise.race([exited, timer])
  if (result) return { ...result, clean: result.code === 0 }
  signalServer(child, traced, 'SIGKILL')
  return { ...(await exited), clean: false }
}

// A traced server is signalled itself: strace follows its tracee out, but strace killed
// leaves its tracee running, so SIGKILL goes to both, the server first.
function signalServer (child, traced, signal) {
  const tracee = traced ? childPid(child.pid) : null
  try {
    if (tracee) process.kill(tracee, signal)
  } catch {} // it has just exited
  if (!tracee || signal === 'SIGKILL') child.kill(signal)
}

// The first child of process `pid` (strace's tracee), or null.
function childPid (pid) {
  try {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)
    return children[0] ? Number(children[0]) : null
  } catch {
    return null
  }
}

// One response at the start of `bytes` (a latin1 string): null while incomplete, else
// { status, headers (names lower-cased), body, rest }; throws on what is no HTTP/1.1
// response with a Content-Length.
function parseResponse (bytes) {
  const end = bytes.indexOf('\r\n\r\n')
  if (end < 0) return null
  const [statusLine, ...lines] = bytes.slice(0, end).split('\r\n')
  const status = /^HTTP\/1\.1 (\d{3})(?: .*)?$/.exec(statusLine)
  if (!status) throw new Error(`the status line is ${JSON.stringify(statusLine)}, not HTTP/1.1's`)
  const headers = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon <= 0) throw new Error(`a header line is ${JSON.stringify(line)}`)
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  if (!/^\d+$/.test(headers['content-length'] ?? '')) throw new Error(`the answer has Content-Length ${JSON.stringify(headers['content-length'] ?? null)}, not a length`)
  const length = Number(headers['content-length'])
  if (bytes.length < end + 4 + length) return null
  return { status: Number(status[1]), headers, body: bytes.slice(end + 4, end + 4 + length), rest: bytes.slice(end + 4 + length) }
}

const request = close => `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n${close ? 'Connection: close\r\n' : ''}\r\n`

// Whether the server on `port` answers right in `mode` (experiments/http/http.js's MODES): null if
// it does, else why not, one sentence. keep-alive: KEEP_ALIVE_REQUESTS requests one after
// the other on one connection (a server that answers Connection: close and closes is
// followed onto a new one); close: one request saying Connection: close, which must be
// answered and the connection closed by the server.
async function checkServer (port, mode, { timeoutMs = 3000 } = {}) {
  return (await checkLoad(port, mode, { timeoutMs })).problem
}

// checkServer's requests, answered as sendRequests answers.
function checkLoad (port, mode, { timeoutMs = 3000 } = {}) {
  if (!MODES.includes(mode)) throw new Error(`no mode ${mode}`)
  return sendRequests(port, { mode, connections: 1, requests: mode === 'close' ? 1 : KEEP_ALIVE_REQUESTS, timeoutMs })
}

// Sends `requests` requests over `connections` connections at once, each request sent
// when its connection's last answer has come, and checks every answer as checkServer
// does. Resolves to { problem: null or why not (the first), unannouncedCloses: how many
// answers to Connection: close did not say Connection: close }. RFC 9112 9.6 says a
// server SHOULD say so; Bun.serve does not, and wrk, which keeps a connection whose
// answer does not say close, then counts the server's close as a read error. The
// strace pass's load: a count of requests, where wrk's is a duration.
async function sendRequests (port, { mode, connections, requests, timeoutMs = 3000 }) {
  if (!MODES.includes(mode)) throw new Error(`no mode ${mode}`)
  let sent = 0
  let problem = null
  let unannouncedCloses = 0
  const worker = async () => {
    let connection = null
    try {
      // the other workers set problem and advance sent while this one awaits
      // eslint-disable-next-line no-unmodified-loop-condition
      while (problem === null && sent < requests) {
        const index = ++sent
        connection ??= await connect(port, timeoutMs)
        connection.socket.write(request(mode === 'close'))
        const response = await connection.next()
        const wrong = answerProblem(response, index)
        if (wrong) throw new Error(wrong)
        const closing = /(^|,)\s*close\s*($|,)/i.test(response.headers.connection ?? '')
        if (mode === 'close' || closing) {
          if (!(await connection.closed())) throw new Error(`request ${index}${mode === 'close' ? ' asked for Connection: close, but' : ' was answered Connection: close, but'} the server left the connection open`)
          if (!closing) unannouncedCloses++
          connection = null
        }
      }
    } catch (err) {
      problem ??= err.message
    } finally {
      connection?.socket.destroy()
    }
  }
  await Promise.all(Array.from({ length: Math.min(connections, requests) }, worker))
  return { problem, unannouncedCloses }
}

function answerProblem (response, index) {
  if (response.status !== 200) return `request ${index} was answered ${response.status}, not 200`
  if (response.body !== BODY) return `request ${index} was answered ${JSON.stringify(response.body)}, not ${JSON.stringify(BODY)}`
  if (response.rest !== '') return `request ${index} was answered with ${response.rest.length} bytes more than one response`
  return null
}

// A connection whose next() resolves to the next whole response, and closed() to
// whether the server closes it within the timeout; both reject on a socket error, on
// the server closing mid-response, and on silence past the timeout.
function connect (port, timeoutMs) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' })
    let bytes = ''
    let ended = false
    let failed = null
    let waiter = null
    const settle = () => {
      if (!waiter) return
      try {
        if (waiter.kind === 'closed') {
          if (ended || failed) finish(null, true)
          return
        }
        if (failed) return finish(failed)
        const response = parseResponse(bytes)
        if (response) {
          bytes = response.rest
          finish(null, response)
        } else if (ended) {
          finish(new Error(bytes === '' ? 'the server closed the connection without an answer' : `the server closed the connection mid-answer: ${JSON.stringify(bytes.slice(0, 80))}`))
        }
      } catch (err) {
        finish(err)
      }
    }
    const finish = (err, value) => {
      const current = waiter
      waiter = null
      clearTimeout(current.timer)
      if (err) current.reject(err)
      else current.resolve(value)
    }
    const wait = kind => new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (kind === 'closed') finish(null, false)
        else finish(new Error(`no whole answer within ${timeoutMs / 1000} s${bytes ? `: got ${JSON.stringify(bytes.slice(0, 80))}` : ''}`))
      }, timeoutMs)
      waiter = { kind, resolve, reject, timer }
      settle()
    })
    socket.setEncoding('latin1')
    socket.on('data', chunk => {
      bytes += chunk
      settle()
    })
    socket.on('end', () => {
      ended = true
      settle()
    })
    const connecting = setTimeout(() => socket.destroy(new Error(`no connection within ${timeoutMs / 1000} s`)), timeoutMs)
    socket.on('error', err => {
      clearTimeout(connecting)
      failed = new Error(`socket error: ${err.message}`)
      if (waiter) settle()
      else reject(new Error(`cannot connect to 127.0.0.1:${port}: ${err.message}`))
    })
    socket.on('connect', () => {
      clearTimeout(connecting)
      resolve({ socket, next: () => wait('response'), closed: () => wait('closed') })
    })
  })
}

// ---- the bench (bench.js --experiment http) ----
//
// A cell is a server, a mode and a count of connections. Its runs are wrk runs, one
// after the other, against one server process per server and mode, which bench.js starts
// for the first of them: it checks the server's answers in both modes, then warms it up
// with wrk runs at the most connections until two in a row agree within WARMUP_AGREE (at
// most the preset's warmup.max runs; --quick makes one and checks nothing). A JIT's tiers and V8's young generation, which grows with the
// allocation rate, take seconds of load to settle: node-http with Connection: close went
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
const PHASE = 'http'
const STRACE_PHASE = 'http-strace'
const WARMUP_AGREE = 0.05
const STRACE_CONNECTIONS = 16
const PRESETS = {
  default: { runs: 4, seconds: 1, connections: [1, 16, 128], warmup: { min: 2, max: 8 }, straceRequests: { small: 1000, large: 4000 } },
  // a smoke test within a minute: one warm-up run and one timed run per cell, no intervals
  quick: { runs: 1, seconds: 1, connections: [16], warmup: { min: 1, max: 1 }, straceRequests: { small: 250, large: 1000 } }
}
// wrk's own timeout per request, and what a wrk run may take beyond its duration.
const WRK_TIMEOUT_SECONDS = 2
const WRK_GRACE_MS = 10000

// Server and client CPUs (lib/placement.js): the last this process may use, and the one
// before it (one CPU: both).
function apartPin (status) {
  return placementPlan(allowedCpus(status)).http
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
      current.warmupAgreed = await warmUp(current, { ...step, connections: step.warmupConnections ?? step.connections }, options, interrupted)
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
async function warmUp (server, step, options, interrupted) {
  const rates = server.warmupRates
  const { min, max } = options.http.warmup ?? PRESETS.default.warmup
  while (rates.length < max && !interrupted()) {
    const wrk = await runWrk(wrkArgv(step, server.port, options), options.http.seconds * 1000 + WRK_GRACE_MS)
    const output = parseWrk(wrk.stdout)
    const exited = server.started.child.exitCode !== null || server.started.child.signalCode !== null
    const failure = wrkFailure({ wrk, output, exited, unannouncedClose: server.unannouncedClose, connections: step.connections, seconds: options.http.seconds })
    if (failure) throw new Error(`warm-up run ${rates.length + 1}: ${failure}`)
    rates.push(output.requestsPerSecond)
    const [before, last] = rates.slice(-2)
    if (rates.length >= min && rates.length < 2) return null
    if (rates.length >= min && Math.abs(last - before) <= WARMUP_AGREE * before) return true
  }
  return rates.length < 2 ? null : false
}

function wrkArgv (step, port, options) {
  return ['taskset', '-c', String(step.pin.client), 'wrk', '-t1', `-c${step.connections}`, `-d${options.http.seconds}s`, '--timeout', `${WRK_TIMEOUT_SECONDS}s`, '--latency',
    ...(step.mode === 'close' ? ['-H', 'Connection: close'] : []), `http://127.0.0.1:${port}/`]
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
  const exited = server.started.child.exitCode !== null || server.started.child.signalCode !== null
  const output = parseWrk(wrk.stdout)
  const failure = wrkFailure({ wrk, output, exited, unannouncedClose: server.unannouncedClose, connections: step.connections, seconds: options.http.seconds })
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

function runWrk (argv, timeoutMs) {
  return new Promise(resolve => {
    const started = process.hrtime.bigint()
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let timedOut = false
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL') }, timeoutMs)
    child.stdout.on('data', chunk => { stdout += chunk })
    child.stderr.on('data', chunk => { stderr += chunk })
    child.on('error', err => { stderr += err.message })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, timedOut, stdout, stderr, wallNs: Number(process.hrtime.bigint() - started) })
    })
  })
}

// The CPU time of each thread of `pid` (each task's schedstat: ns on a CPU, user and
// system alike, exact where /proc/PID/stat counts ticks of 10 ms), the process's user and
// system ticks (which keep the time of threads that have ended), its threads and its peak
// resident memory; null once it has gone.
function processCpu (pid) {
  try {
    const taskNs = {}
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      try {
        taskNs[task] = Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0])
      } catch {} // a thread that ended between the listing and the read
    }
    const fields = statFields(pid)
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    return {
      taskNs,
      userTicks: Number(fields[11]),
      systemTicks: Number(fields[12]),
      threads: Object.keys(taskNs).length,
      maxRssKiB: Number(/^VmHWM:\s*(\d+)/m.exec(status)?.[1] ?? NaN)
    }
  } catch {
    return null
  }
}

// The user time of this process's children that it has waited for (wrk, once its run
// has ended), from /proc/self/stat's cutime, in ticks of 10 ms.
function childrenUserNs () {
  return Number(statFields('self')[13]) * (1e9 / CLK_TCK)
}

// The server's CPU time between two readings of processCpu. A thread that ended between
// them takes its schedstat with it, so then the process's ticks count instead: they keep
// an ended thread's time, to 10 ms. A thread born and ended between the readings is in
// neither list: ticks beyond the threads' sum by more than TICKS_SLACK say it was there.
const TICKS_SLACK = 2
function cpuBetween (before, after) {
  const ended = Object.keys(before.taskNs).filter(task => !(task in after.taskNs))
  const ticks = (after.userTicks + after.systemTicks) - (before.userTicks + before.systemTicks)
  const threadsNs = Object.entries(after.taskNs).reduce((sum, [task, ns]) => sum + ns - (before.taskNs[task] ?? 0), 0)
  const fromTicks = ended.length > 0 || ticks * (1e9 / CLK_TCK) > threadsNs + TICKS_SLACK * (1e9 / CLK_TCK)
  return {
    cpuNs: fromTicks ? ticks * (1e9 / CLK_TCK) : threadsNs,
    cpuFrom: fromTicks ? 'ticks' : 'schedstat',
    threadsEnded: ended.length,
    userTicks: after.userTicks - before.userTicks,
    systemTicks: after.systemTicks - before.systemTicks,
    clkTck: CLK_TCK,
    threads: after.threads,
    maxRssKiB: after.maxRssKiB
  }
}

const UNIT_US = { us: 1, ms: 1000, s: 1e6 }
const duration = (number, unit) => Number(number) * UNIT_US[unit]

// wrk --latency's report: { requests, seconds, requestsPerSecond, latencyUs: { mean,
// max, p50, p75, p90, p99 }, errors: { connect, read, write, timeout }, non2xx }, each
// null where the report lacks it.
function parseWrk (text) {
  const latency = /^\s*Latency\s+([\d.]+)(us|ms|s)\s+[\d.]+(?:us|ms|s)\s+([\d.]+)(us|ms|s)/m.exec(text)
  const percentile = p => {
    const match = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(text)
    return match ? duration(match[1], match[2]) : null
  }
  const done = /^\s*(\d+) requests in ([\d.]+)(us|ms|s|m)/m.exec(text)
  const rate = /^Requests\/sec:\s*([\d.]+)/m.exec(text)
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text)
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(text)
  return {
    requests: done ? Number(done[1]) : null,
    seconds: done ? (done[3] === 'm' ? Number(done[2]) * 60 : duration(done[2], done[3]) / 1e6) : null,
    requestsPerSecond: rate ? Number(rate[1]) : null,
    latencyUs: latency ? { mean: duration(latency[1], latency[2]), max: duration(latency[3], latency[4]), p50: percentile(50), p75: percentile(75), p90: percentile(90), p99: percentile(99) } : null,
    errors: errors ? { connect: Number(errors[1]), read: Number(errors[2]), write: Number(errors[3]), timeout: Number(errors[4]) } : { connect: 0, read: 0, write: 0, timeout: 0 },
    non2xx: non2xx ? Number(non2xx[1]) : 0
  }
}

// Why a wrk run of `seconds` is no data point, or null. A server whose answers to
// Connection: close do not say so (sendRequests) makes wrk count one read error per
// request in close mode, and at most one more per connection in flight when the run
// ends: those alone are allowed it. wrk stopped by SIGINT exits 0 with a report of the
// time it ran: a run shorter than asked is no run of its cell.
const WRK_SHORTEST = 0.9
function wrkFailure ({ wrk, output, exited, unannouncedClose, connections, seconds }) {
  if (wrk.signal === 'SIGINT') return 'interrupted'
  if (wrk.timedOut) return `wrk did not finish within its duration and ${WRK_GRACE_MS / 1000} s`
  if (exited) return 'the server exited during the run'
  if (wrk.code !== 0) return `wrk exited ${wrk.signal ?? wrk.code}: ${wrk.stderr.trim().split('\n').pop() || 'no message'}`
  if (output.requests === null || output.requestsPerSecond === null || output.latencyUs === null) return `wrk printed no request count, rate or latency: ${JSON.stringify(wrk.stdout.slice(0, 200))}`
  if (output.requests === 0) return 'wrk completed no request'
  if (output.seconds < WRK_SHORTEST * seconds) return `wrk ran ${output.seconds} s of the ${seconds} s asked (stopped by a signal?)`
  if (output.non2xx) return `${output.non2xx} of ${output.requests} answers were not 2xx or 3xx`
  const { connect, read, write, timeout } = output.errors
  const allowedReads = unannouncedClose ? output.requests + connections : 0
  if (connect || write || timeout || read > allowedReads) return `wrk counted socket errors: connect ${connect}, read ${read}${unannouncedClose ? ` (${allowedReads} allowed: the server's closes are unannounced)` : ''}, write ${write}, timeout ${timeout}`
  return null
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

// Why the load cannot be made here (wrk or taskset missing), or null.
function loadReason () {
  for (const [tool, fix] of [['wrk', 'apt-get install wrk, or run ./setup.sh'], ['taskset', 'apt-get install util-linux']]) {
    const found = (process.env.PATH ?? '').split(':').some(dir => {
      try {
        fs.accessSync(path.join(dir || '.', tool), fs.constants.X_OK)
        return true
      } catch {
        return false
      }
    })
    if (!found) return `${tool} is not installed (${fix})`
  }
  return null
}

function listing () {
  return servers.map(server => {
    const reason = unavailableReason(server) ?? loadReason()
    return { name: server.name, runtime: server.runtime, available: reason === null, unavailable: reason, kind: server.note, command: shellQuote(serverArgv(server, '{port}')) }
  })
}

// What an http run's numbers depend on beyond the servers: wrk's version, the CPUs,
// and the loopback's limits (the listen backlog, the ports a client may use, whether
// ports in TIME_WAIT are reused), which set how far Connection: close can go.
function httpContext (runnable, pin = apartPin()) {
  const read = file => {
    try {
      return fs.readFileSync(file, 'utf8').trim()
    } catch {
      return null
    }
  }
  const number = file => {
    const text = read(file)
    return text === null ? null : Number(text)
  }
  let wrk = null
  try {
    // wrk -v prints its version and exits 1
    // "wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012 Will Glozer"
    wrk = /^wrk \S+ \[\w+\]/.exec(spawnSync('wrk', ['-v'], { encoding: 'utf8' }).stdout)?.[0] ?? null
  } catch {}
  return {
    httpServers: runnable.map(server => ({ name: server.name, runtime: server.runtime, command: shellQuote(serverArgv(server, '{port}')) })),
    httpPin: pin,
    wrk,
    loopback: {
      somaxconn: number('/proc/sys/net/core/somaxconn'),
      ipLocalPortRange: read('/proc/sys/net/ipv4/ip_local_port_range')?.split(/\s+/).map(Number) ?? null,
      tcpTwReuse: number('/proc/sys/net/ipv4/tcp_tw_reuse')
    }
  }
}

// ---- the summary ----

const { interleavedHalves, httpHalves } = require('../../lib/repeatability')

// Below this share of one CPU over a wrk run, the server waited for wrk: the run
// measured the client as much as the server.
const CLIENT_BOUND_SHARE = 0.9
// The server every other is set against, by mode: the ceiling of keep-alive.
const REFERENCE = 'c-epoll'

// Calls whose count follows timing, not how many requests there are: a wait returns once
// for however many requests are ready, a futex or a sleep wakes a thread for however many
// tasks, and a runtime's memory calls (mmap, mprotect, madvise ...) come from its JIT and
// its garbage collector, which run on their own clock. These, and every call that fails
// (accept4 or read with EAGAIN once the queue is empty), are a server's upkeep: their
// counts move from run to run, and strace's own slowness changes them. The other calls
// that succeed are the work each request takes.
const UPKEEP_CALLS = new Set([
  'epoll_wait', 'epoll_pwait', 'epoll_pwait2', 'poll', 'ppoll', 'select', 'pselect6', 'futex', 'sched_yield', 'nanosleep', 'clock_nanosleep',
  'mmap', 'munmap', 'mremap', 'mprotect', 'madvise', 'brk'
])
// Calls that do one job under other names, so that a server that answers with sendto is
// not read as making one call more, and one less, than a server that answers with write.
const CALL_ROLES = {
  accept: 'accept',
  accept4: 'accept',
  read: 'receive',
  readv: 'receive',
  recvfrom: 'receive',
  recvmsg: 'receive',
  write: 'send',
  writev: 'send',
  sendto: 'send',
  sendmsg: 'send'
}

const MEANING = {
  requestsPerSecond: 'wrk\'s requests/s, one thread on its own CPU, the server on the other; best, median and range of the runs, against one server process per server and mode, checked and warmed up (wrk runs until two agree within 5%)',
  vsReference: `the median of every ratio of this cell's runs to ${REFERENCE}'s in the same mode and connections (Hodges-Lehmann) and its interval, at the level it carries (level); null below 4 runs a side`,
  cpuPerRequestUs: 'the server\'s CPU time over a run, every thread (/proc/PID/task/*/schedstat), over the requests wrk completed; median of the runs',
  serverCpuShare: `that CPU time over wrk's wall time: below ${CLIENT_BOUND_SHARE} the server waited for wrk (client-bound)`,
  syscallsPerRequest: `(calls in the larger strace run - calls in the smaller) / (requests between them), every thread (strace -f -c), ${STRACE_CONNECTIONS} connections, so start-up and exit cancel; as work (the calls that succeed, but for ${[...UPKEEP_CALLS].join(', ')}) plus upkeep (those, and failed calls), whose count follows timing, not requests`
}

function summariseHttp (records, context) {
  const runs = records.filter(record => record.phase === PHASE)
  const traced = records.filter(record => record.phase === STRACE_PHASE)
  if (runs.length === 0 && traced.length === 0) return null
  const cells = []
  for (const key of [...new Set(runs.map(run => `${run.mode}\t${run.connections}\t${run.program}`))]) {
    const [mode, connections, server] = key.split('\t')
    cells.push(httpCell(server, mode, Number(connections), runs.filter(run => `${run.mode}\t${run.connections}\t${run.program}` === key)))
  }
  for (const cell of cells) {
    const reference = cells.find(other => other.server === REFERENCE && other.mode === cell.mode && other.connections === cell.connections)
    cell.vsReference = reference && cell.server !== REFERENCE ? ratioInterval(cell.rates, reference.rates) : null
  }
  const syscalls = syscallsPerRequest(traced)
  return {
    meaning: MEANING,
    reference: REFERENCE,
    preset: context.options.http ?? null,
    modes: context.options.modes ?? MODES,
    pin: context.httpPin ?? null,
    cells,
    syscalls,
    floors: syscallFloors(syscalls),
    // how far CPU per request and requests/s moved between the interleaved halves of each
    // cell's runs: the run's own repeatability (lib/repeatability.js)
    repeatability: httpHalves(cells)
  }
}

function httpCell (server, mode, connections, runs) {
  const ok = runs.filter(run => run.ok)
  const rates = ok.map(run => run.wrk.requestsPerSecond)
  const at = values => (values.length ? median(values) : null)
  const shares = ok.map(run => run.server.cpuNs / run.wallNs)
  return {
    server,
    runtime: servers.find(row => row.name === server)?.runtime ?? null,
    mode,
    connections,
    runs: ok.length,
    failedRuns: runs.length - ok.length,
    rates,
    requestsPerSecond: rates.length ? { best: Math.max(...rates), median: median(rates), min: Math.min(...rates), max: Math.max(...rates) } : null,
    latencyUs: ok.length ? { p50: at(ok.map(run => run.wrk.latencyUs.p50)), p99: at(ok.map(run => run.wrk.latencyUs.p99)), max: Math.max(...ok.map(run => run.wrk.latencyUs.max)) } : null,
    cpuPerRequestUs: at(ok.map(run => run.server.cpuNs / run.wrk.requests / 1000)),
    serverCpuShare: at(shares),
    clientBound: shares.length ? median(shares) < CLIENT_BOUND_SHARE : null,
    threads: ok.length ? Math.max(...ok.map(run => run.server.threads)) : null,
    maxRssKiB: ok.length ? Math.max(...ok.map(run => run.server.maxRssKiB)) : null,
    unannouncedClose: ok.some(run => run.unannouncedClose),
    unsteady: ok.some(run => run.warmupAgreed === false),
    // a kept run during which something else used the run's CPUs
    flags: ok.some(run => run.foreign?.disturbed === true) ? ['disturbed'] : [],
    // the medians of the interleaved halves of its runs (0, 2 ... against 1, 3 ...)
    halves: {
      cpu: interleavedHalves(ok, run => run.server.cpuNs / run.wrk.requests / 1000, median),
      rate: interleavedHalves(ok, run => run.wrk.requestsPerSecond, median)
    }
  }
}

// Per server and mode, from its two strace runs: { server, mode, connections, requests:
// { small, large }, perRequest, work, upkeep, byCall: [{ name, perRequest, failed, upkeep }]
// (largest first, those of at least MIN_SHOWN per request either way), workByRole,
// noisyCalls, noise, traceFailed (a strace run of the pair failed) }.
// perRequest = work + upkeep: work counts the calls that succeeded, but for UPKEEP_CALLS;
// upkeep the UPKEEP_CALLS and every failed call. A call made fewer times in the larger run
// is run-to-run noise, named in noisyCalls. perRequest is null (and noise says why)
// when either run failed or the larger made fewer calls than the smaller.
const MIN_SHOWN = 0.005
function syscallsPerRequest (traced) {
  const out = []
  for (const key of [...new Set(traced.map(run => `${run.program}\t${run.mode}`))]) {
    const [server, mode] = key.split('\t')
    const pair = traced.filter(run => `${run.program}\t${run.mode}` === key)
    const small = pair.filter(run => run.ok).sort((a, b) => a.requests - b.requests)[0]
    const large = pair.filter(run => run.ok).sort((a, b) => b.requests - a.requests)[0]
    const entry = { server, mode, connections: pair[0].connections, requests: null, perRequest: null, work: null, upkeep: null, byCall: [], workByRole: [], noisyCalls: [], noise: null, traceFailed: false }
    out.push(entry)
    if (!small || !large || small.requests === large.requests) {
      entry.traceFailed = pair.some(run => !run.ok)
      entry.noise = `needs strace runs at two request counts; ${pair.filter(run => !run.ok).map(run => `${run.requests} requests failed: ${run.failure}`).join('; ') || 'one is missing'}`
      continue
    }
    const between = large.requests - small.requests
    entry.requests = { small: small.requests, large: large.requests }
    const total = (large.totalCalls - small.totalCalls) / between
    if (total < 0) {
      entry.noise = `the run of ${large.requests} requests made ${small.totalCalls - large.totalCalls} fewer calls than the run of ${small.requests}`
      continue
    }
    // counts are summed before they are divided, so that whole calls stay whole
    const row = (run, name) => run.syscalls.find(item => item.name === name) ?? { calls: 0, errors: 0 }
    const names = [...new Set([...large.syscalls, ...small.syscalls].map(item => item.name))]
    const deltas = names.map(name => ({
      name,
      calls: row(large, name).calls - row(small, name).calls,
      errors: row(large, name).errors - row(small, name).errors,
      upkeep: UPKEEP_CALLS.has(name)
    }))
    const workCalls = deltas.filter(delta => !delta.upkeep).reduce((sum, delta) => sum + delta.calls - delta.errors, 0)
    entry.perRequest = total
    entry.work = workCalls / between
    entry.upkeep = (large.totalCalls - small.totalCalls - workCalls) / between
    entry.byCall = deltas.map(delta => ({ name: delta.name, perRequest: delta.calls / between, failed: delta.errors / between, upkeep: delta.upkeep }))
      .filter(call => Math.abs(call.perRequest) >= MIN_SHOWN || Math.abs(call.failed) >= MIN_SHOWN)
      .sort((a, b) => b.perRequest - a.perRequest || a.name.localeCompare(b.name))
    entry.noisyCalls = entry.byCall.filter(call => call.perRequest <= -MIN_SHOWN || call.failed <= -MIN_SHOWN).map(call => call.name)
    // the work by job: { role, calls (the names this server used), work }, grouped before
    // the jobs of under MIN_SHOWN a request are left out
    const roles = new Map()
    for (const delta of deltas.filter(item => !item.upkeep && item.calls - item.errors !== 0)) {
      const role = CALL_ROLES[delta.name] ?? delta.name
      const entryOf = roles.get(role) ?? { role, calls: [], done: 0 }
      entryOf.calls.push(delta.name)
      entryOf.done += delta.calls - delta.errors
      roles.set(role, entryOf)
    }
    entry.workByRole = [...roles.values()].map(({ role, calls, done }) => ({ role, calls, work: done / between }))
      .filter(role => role.work >= MIN_SHOWN)
      .sort((a, b) => b.work - a.work || a.role.localeCompare(b.role))
  }
  return out
}

// The fewest calls of work per request of a C server, by mode: the floor the others are
// read against (their upkeep, which follows timing, is no floor).
function syscallFloors (syscalls) {
  const floors = {}
  for (const entry of syscalls) {
    if (entry.perRequest === null || servers.find(row => row.name === entry.server)?.runtime !== 'native') continue
    if (!floors[entry.mode] || entry.work < floors[entry.mode].work) floors[entry.mode] = { server: entry.server, work: entry.work, perRequest: entry.perRequest }
  }
  return floors
}

module.exports = { servers, MODES, BODY, PHASE, STRACE_PHASE, PRESETS, STRACE_CONNECTIONS, serverArgv, freePort, startServer, checkServer, sendRequests, parseResponse, apartPin, planHttp, httpSession, measureStep, parseWrk, wrkFailure, wrkArgv, summariseHttp, syscallsPerRequest, cpuBetween, loadReason, listing, httpContext, CLIENT_BOUND_SHARE, REFERENCE }
