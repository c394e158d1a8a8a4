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
const { spawn } = require('node:child_process')
const { expandCommand } = require('./programs')

const BODY = 'Hello, World!'
const READY_LINE = /^listening 127\.0\.0\.1:(\d+)$/m
const MODES = ['keep-alive', 'close']
// Requests the keep-alive check sends, one after the other, on one connection.
const KEEP_ALIVE_REQUESTS = 3

// {port} is the port the server must listen on.
const servers = [
  { name: 'c-blocking', runtime: 'native', file: 'http/c-blocking.c', command: ['{build}/http-c-blocking', '{port}'], note: 'the classic listing: accept, read, write, close, one connection at a time; says Connection: close' },
  { name: 'c-epoll', runtime: 'native', file: 'http/c-epoll.c', command: ['{build}/http-c-epoll', '{port}'], note: 'the ceiling: one thread, epoll, keep-alive, each readable connection answered in one write' },
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
    const exited = new Promise(resolveExit => child.on('exit', (code, signal) => resolveExit({ code, signal })))
    const fail = reason => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      child.kill('SIGKILL')
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
  if (child.exitCode === null && child.signalCode === null) {
    const tracee = traced ? childPid(child.pid) : null
    if (tracee) process.kill(tracee, 'SIGTERM')
    else child.kill('SIGTERM')
  }
  const timer = new Promise(resolve => setTimeout(() => resolve(null), STOP_MS))
  const result = await Promise.race([exited, timer])
  if (result) return { ...result, clean: result.code === 0 }
  child.kill('SIGKILL')
  return { ...(await exited), clean: false }
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

// Whether the server on `port` answers right in `mode` (lib/http.js's MODES): null if
// it does, else why not, one sentence. keep-alive: KEEP_ALIVE_REQUESTS requests one after
// the other on one connection (a server that answers Connection: close and closes is
// followed onto a new one); close: one request saying Connection: close, which must be
// answered and the connection closed by the server.
async function checkServer (port, mode, { timeoutMs = 3000 } = {}) {
  if (!MODES.includes(mode)) throw new Error(`no mode ${mode}`)
  return (await sendRequests(port, { mode, connections: 1, requests: mode === 'close' ? 1 : KEEP_ALIVE_REQUESTS, timeoutMs })).problem
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
    const wait = kind => new Promise((resolveWait, rejectWait) => {
      const timer = setTimeout(() => {
        if (kind === 'closed') finish(null, false)
        else finish(new Error(`no whole answer within ${timeoutMs / 1000} s${bytes ? `: got ${JSON.stringify(bytes.slice(0, 80))}` : ''}`))
      }, timeoutMs)
      waiter = { kind, resolve: resolveWait, reject: rejectWait, timer }
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

module.exports = { servers, MODES, BODY, serverArgv, freePort, startServer, checkServer, sendRequests, parseResponse }
