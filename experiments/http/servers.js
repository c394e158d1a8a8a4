'use strict'
// The http experiment's servers: one table of hello-world servers, one file each in
// http/, and how the bench starts one on a free port of 127.0.0.1, waits for its ready
// line and stops it. Every server answers every request with status 200 and the 13
// bytes "Hello, World!" (Content-Length: 13), prints "listening 127.0.0.1:PORT" once it
// listens, and exits 0 on SIGTERM.
const fs = require('node:fs')
const net = require('node:net')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { expandCommand, unavailableReason } = require('../../lib/rows')
const { shellQuote, spawnWithParent } = require('../../lib/pipeline')
const { allowedCpus, placementPlan } = require('../../lib/placement')
const { within } = require('../../lib/wait')
const { findOnPath, runtimes } = require('../../lib/runtimes')
const { childrenOf, descendantsOf } = require('../../lib/procfs')
const { ROOT } = require('../../lib/paths')

const BODY = 'Hello, World!'
const READY_LINE = /^listening 127\.0\.0\.1:(\d+)$/m
const MODES = ['keep-alive', 'close']

// Whether the server so named closes every connection after one answer (closesConnections), so
// that with keep-alive too each request opens a connection and its figures hold a connect each;
// the mark and words every table that shows keep-alive's figures gives it (a review, 2026-12-07).
const connectEach = (name, mode) => mode !== 'close' &&
  servers.some(server => server.name === name && server.closesConnections === true)
const CONNECT_EACH = {
  sign: '§',
  word: 'a connect each',
  means: 'the server closes each connection after one answer, saying Connection: close, so each of its ' +
    'keep-alive requests opens one, its connect in its figures'
}

// {port} is the port the server must listen on; {v8flags}, where a V8 server takes them,
// SERVER_V8_FLAGS and the V8 flags of a run that asks for them (the latency pass's
// --trace-gc), in the form its runtime takes (lib/runtimes.js), and nothing otherwise.
// closesConnections: a server that closes every connection after one answer, saying so; any
// other that says so in keep-alive fails its check, where its keep-alive cells would have
// timed a connect a request unseen (wrk follows an announced close without an error).
const servers = [
  { name: 'c-blocking', runtime: 'native', file: 'http/c-blocking.c', command: ['{build}/http-c-blocking', '{port}'], closesConnections: true, note: 'the classic listing: accept, read, write, close, one connection at a time; says Connection: close' },
  { name: 'c-epoll', runtime: 'native', file: 'http/c-epoll.c', command: ['{build}/http-c-epoll', '{port}'], note: 'the ceiling: one thread, epoll, keep-alive, each readable connection answered in one write' },
  { name: 'just-blocking', runtime: 'just', file: 'http/just-blocking.js', command: ['{runtime}', '{v8flags}', '{file}', '{port}'], needs: ['net.socket', 'net.setsockopt', 'net.bind', 'net.listen', 'net.accept4', 'net.read', 'net.write', 'net.close', 'sys.exitOnSigterm'], closesConnections: true, note: 'c-blocking on the lab\'s V8 host, call for call: net.accept4, net.read, net.write, net.close as fast API calls' },
  { name: 'just-epoll', runtime: 'just', file: 'http/just-epoll.js', command: ['{runtime}', '{v8flags}', '{file}', '{port}'], needs: ['net.socket', 'net.setsockopt', 'net.bind', 'net.listen', 'net.accept4', 'net.read', 'net.write', 'net.close', 'sys.exitOnSigterm', 'factory.loop'], note: 'c-epoll on the lab\'s V8 host, call for call: the host\'s epoll loop calling a JS callback per readable connection' },
  { name: 'node-http', runtime: 'node', file: 'http/node-http.js', command: ['{runtime}', '{v8flags}', '{file}', '{port}'], note: 'http.createServer' },
  { name: 'node-net', runtime: 'node', file: 'http/node-net.js', command: ['{runtime}', '{v8flags}', '{file}', '{port}'], note: 'net sockets, no HTTP layer' },
  { name: 'bun', runtime: 'bun', file: 'http/bun.js', command: ['{runtime}', '{file}', '{port}'], note: 'Bun.serve' },
  { name: 'deno', runtime: 'deno', file: 'http/deno.js', command: ['{runtime}', 'run', '{v8flags}', '--allow-net', '{file}', '{port}'], note: 'Deno.serve' },
  // WebAssembly through WASIX on wasmer (docs/wasm.md): c-blocking as a text module of the
  // lab's, its sockets wasmer's host networking (--net). wasmer 4.4 passes no signal on to
  // a module (SIGTERM and SIGINT end it where they land), so the module cannot exit 0:
  // endsBySigterm takes its end by SIGTERM, and only that, for a clean stop.
  {
    name: 'wasmer-wasix',
    runtime: 'wasmer',
    file: 'http/wasix.wat',
    command: ['{runtime}', 'run', '--net', '{build}/http-wasix.wasm', '--', '{port}'],
    built: ['http-wasix.wasm'],
    needs: ['wasix-net'],
    endsBySigterm: true,
    closesConnections: true,
    note: 'c-blocking through WASIX, call for call: sock_accept_v2, sock_recv, sock_send, fd_close; Cranelift as it loads'
  },
  {
    name: 'wasmer-wasix-llvm',
    runtime: 'wasmer',
    file: 'http/wasix.wat',
    command: ['{runtime}', 'run', '--net', '{build}/http-wasix.wasmu', '--', '{port}'],
    built: ['http-wasix.wasmu'],
    needs: ['wasix-net', 'llvm'],
    endsBySigterm: true,
    closesConnections: true,
    note: 'wasmer-wasix compiled ahead of time by LLVM (wasmer compile --llvm)'
  },
  // Servers users know, from Debian's packages (./setup.sh unpacks them into build/debian),
  // each as its documentation sets it up; what the lab changes and why is in
  // http/nginx.conf and docs/http.md. Neither prints a ready line: the bench waits for the
  // port to take a connection. Each runs in a folder of its own per start ({dir}).
  {
    name: 'nginx',
    runtime: 'nginx',
    file: 'http/nginx.conf',
    command: ['{runtime}', '-p', '{dir}', '-c', '{dir}/nginx.conf', '-e', 'stderr', '-g', 'daemon off;'],
    prepare: (dir, port, file) => fs.writeFileSync(path.join(dir, 'nginx.conf'),
      fs.readFileSync(file, 'utf8').replaceAll('{dir}', dir).replaceAll('{port}', String(port))),
    readyByConnect: true,
    note: 'nginx from Debian: one worker process beside its master, epoll, the body from its ' +
      'configuration (return 200)'
  },
  {
    name: 'mini-httpd',
    runtime: 'mini-httpd',
    command: ['{runtime}', '-D', '-h', '127.0.0.1', '-p', '{port}', '-d', '{dir}'],
    prepare: dir => fs.writeFileSync(path.join(dir, 'index.html'), BODY),
    readyByConnect: true,
    // mini_httpd's handler of SIGTERM logs "exiting due to signal 15" and exits 1
    sigtermExitCode: 1,
    closesConnections: true,
    note: 'mini_httpd from Debian, by thttpd\'s author: a process forked per connection, the body ' +
      'read from index.html; says Connection: close'
  },
  // Listed so that its absence is said, with what was tried: it has no server file until a
  // Winter.js can be had to run one.
  {
    name: 'winterjs',
    runtime: 'winterjs',
    command: ['{runtime}', '{port}'],
    note: 'Winter.js, a JavaScript runtime on wasmer: no registry here serves it'
  }
]

// Every V8 server runs without V8's memory reducer. It watches for "the transition of the
// mutator from high allocation phase to low allocation phase" (src/heap/memory-reducer.h)
// and then shrinks the heap, young generation included. The lab's rounds leave a server
// idle for tens of seconds between its runs, which a server under steady load never is.
// After 35-39 s idle Deno's heap had shrunk from 67 to 9 MB committed, and its next /db run
// cost 23-53% more CPU per request than its others; without the reducer, a run after 34 s
// idle cost what one after 2 s did (docs/db.md, "The memory reducer").
const SERVER_V8_FLAGS = ['--no-memory-reducer']

// {dir} is the folder a server that keeps files (its configuration, its pages) runs in.
function serverArgv (server, port, v8Flags = [], dir = '{dir}') {
  const takesFlags = runtimes[server.runtime].v8Flags
  const flags = takesFlags ? takesFlags([...SERVER_V8_FLAGS, ...v8Flags]) : []
  return expandCommand(server, { '{port}': String(port), '{v8flags}': flags, '{dir}': dir })
}

// A folder of its own for a server that keeps files, written by its row's prepare(dir,
// port, file); readable by all, since a server started as root reads it as nobody.
function serverFolder (server, port) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `syscall-lab-${server.name}-`))
  fs.chmodSync(dir, 0o755)
  server.prepare(dir, port, server.file ? path.resolve(ROOT, server.file) : null)
  return dir
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

// Starts a server and resolves once it has printed its ready line for `port` (or, for a row
// that prints none, readyByConnect, once the port takes a connection), to { child, pid,
// exited() (whether it has ended since), stop }; rejects, having killed it, when it exits
// first or stays silent for timeoutMs. stop() sends SIGTERM and resolves to { code, signal,
// clean }, clean when it exited 0 (or its row's sigtermExitCode) within STOP_MS (or, for a
// row that endsBySigterm, was ended by it), else it is killed. Its folder, if it has one,
// goes once it has exited.
const STOP_MS = 5000
const CONNECT_POLL_MS = 20

// prefix: what the server's command runs under (taskset, strace); with `traced` the
// server is the child of that prefix's process (strace's tracee), and stop() signals it;
// env: variables added to this process's (the db experiment's database and variant);
// v8Flags: V8 flags for a server that takes them ({v8flags}). output() gives what the
// server has printed so far, { stdout, stderr } (a GC trace among them); argv, what ran;
// spawnedAtMs, when (performance.now()).
function startServer (server, { port, timeoutMs = 10000, prefix = [], traced = false, env = {}, v8Flags = [] }) {
  const dir = server.prepare ? serverFolder(server, port) : undefined
  const argv = [...prefix, ...serverArgv(server, port, v8Flags, dir)]
  return new Promise((resolve, reject) => {
    // when it was started, on the clock of performance.now(): a V8 server's trace stamps its
    // lines in ms since its isolate began, a few ms after (collectionsFrom)
    const spawnedAtMs = performance.now()
    // killed with the bench, where no handler of its can stop the server
    const child = spawnWithParent(argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } })
    let stdout = ''
    let stderr = ''
    let settled = false
    const exited = new Promise(resolve => child.on('exit', (code, signal) => resolve({ code, signal })))
    if (dir) exited.then(() => fs.rmSync(dir, { recursive: true, force: true }))
    const fail = reason => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signalServer(child, traced, 'SIGKILL')
      reject(new Error(reason))
    }
    const ready = () => {
      settled = true
      clearTimeout(timer)
      resolve({
        child,
        pid: traced ? childPid(child.pid) : child.pid,
        exited: () => child.exitCode !== null || child.signalCode !== null,
        output: () => ({ stdout, stderr }),
        spawnedAtMs,
        argv,
        stop: () => stopServer(child, exited, traced, server)
      })
    }
    const silence = server.readyByConnect ? 'took no connection on its port' : 'printed no ready line'
    const silent = () => `${server.name} ${silence} within ${timeoutMs / 1000} s (stdout: ` +
      `${JSON.stringify(stdout.slice(0, 200))}, stderr: ${JSON.stringify(stderr.slice(-200))})`
    const timer = setTimeout(() => fail(silent()), timeoutMs)
    child.on('error', err => fail(`cannot start ${server.name}: ${err.message}`))
    child.stderr.on('data', chunk => { stderr += chunk })
    child.stdout.on('data', chunk => {
      stdout += chunk
      // once settled, a server's output (a GC trace) is only kept
      if (settled || server.readyByConnect) return
      const line = READY_LINE.exec(stdout)
      if (!line) return
      if (Number(line[1]) !== port) return fail(`${server.name} says it listens on port ${line[1]}, not ${port}`)
      ready()
    })
    if (server.readyByConnect) awaitPort(port, () => settled).then(open => open && !settled && ready())
    exited.then(({ code, signal }) => fail(`${server.name} exited ${signal ?? code} before it listened: ${stderr.trim().split('\n').pop() || 'no message'}`))
  })
}

// Resolves to true once 127.0.0.1:port takes a connection, or to false once given up
// (`givenUp()`, checked between tries).
async function awaitPort (port, givenUp) {
  while (!givenUp()) {
    const open = await new Promise(resolve => {
      const socket = net.connect(port, '127.0.0.1')
      socket.once('connect', () => { socket.destroy(); resolve(true) })
      socket.once('error', () => resolve(false))
    })
    if (open) return true
    await new Promise(resolve => setTimeout(resolve, CONNECT_POLL_MS))
  }
  return false
}

async function stopServer (child, exited, traced, server) {
  if (child.exitCode === null && child.signalCode === null) signalServer(child, traced, 'SIGTERM')
  const { done, value: result } = await within(exited, STOP_MS)
  const cleanCode = result?.code === 0 || result?.code === server.sigtermExitCode
  const endedBySigterm = server.endsBySigterm === true && result?.signal === 'SIGTERM'
  if (done) return { ...result, clean: cleanCode || endedBySigterm }
  signalServer(child, traced, 'SIGKILL')
  return { ...(await exited), clean: false }
}

// A traced server is signalled itself: strace follows its tracee out, but strace killed
// leaves its tracee running, so SIGKILL goes to both, the server first. SIGKILL, for a
// server that hung or failed, goes to every process under it too (nginx's workers outlive
// their master killed), found before any is killed: once orphaned, they are no one's.
function signalServer (child, traced, signal) {
  const tracee = traced ? childPid(child.pid) : null
  const targets = signal === 'SIGKILL' ? new Set([tracee, ...descendantsOf(child.pid)]) : [tracee]
  for (const pid of targets) {
    try {
      if (pid) process.kill(pid, signal)
    } catch {} // it has just exited
  }
  if (!tracee || signal === 'SIGKILL') child.kill(signal)
}

// The first child of process `pid` (strace's tracee), or null.
const childPid = pid => childrenOf(pid)[0] ?? null

// Server and client CPUs (lib/placement.js): the last this process may use, and the one
// before it (one CPU: both).
function apartPin (status) {
  return placementPlan(allowedCpus(status)).http
}

// The server every other is set against: the ceiling of keep-alive.
const REFERENCE = 'c-epoll'

// Where wrk and the server run (docs/placement.md, studies/http-placement.js):
// interleaved  wrk on the server's CPU, and REFERENCE's pair there too, the two pairs
//              taking turns in slices (experiments/http/interleave.js): a server and C in
//              the same moment, the steadiest ratio on a noisy VM
// shared       wrk on the server's CPU, one server at a time: no cross-CPU wake-up per request
// apart        wrk on the CPU before it: the server alone on its CPU, requests/s at its capacity
const PLACEMENTS = ['interleaved', 'shared', 'apart']
function loadPin (plan, placement) {
  return placement === 'apart' ? plan : { client: plan.server, server: plan.server }
}

// Why the load cannot be made here (wrk or taskset missing), or null.
function loadReason () {
  for (const [tool, fix] of [['wrk', 'apt-get install wrk, or run ./setup.sh'], ['taskset', 'apt-get install util-linux']]) {
    if (!findOnPath(tool)) return `${tool} is not installed (${fix})`
  }
  return null
}

// Why a server cannot be measured here (its runtime, or the load), or null.
const serverReason = server => unavailableReason(server) ?? loadReason()

function listing () {
  return servers.map(server => {
    const reason = serverReason(server)
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

module.exports = {
  servers,
  MODES,
  connectEach,
  CONNECT_EACH,
  BODY,
  REFERENCE,
  PLACEMENTS,
  SERVER_V8_FLAGS,
  STOP_MS,
  serverArgv,
  freePort,
  startServer,
  apartPin,
  loadPin,
  loadReason,
  serverReason,
  listing,
  httpContext
}
