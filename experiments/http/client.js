'use strict'
// The lab's own HTTP/1.1 client: what checks every server's answers before it is timed,
// and the strace pass's load, a count of requests where wrk's is a duration.
const net = require('node:net')
const { MODES, BODY } = require('./servers')

// Requests the keep-alive check sends, one after the other, on one connection.
const KEEP_ALIVE_REQUESTS = 3

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

const request = (close, path = '/') => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${close ? 'Connection: close\r\n' : ''}\r\n`

// Whether the server on `port` answers right in `mode` (MODES): null if
// it does, else why not, one sentence. keep-alive: KEEP_ALIVE_REQUESTS requests one after
// the other on one connection (a server that answers Connection: close and closes is
// followed onto a new one); close: one request saying Connection: close, which must be
// answered and the connection closed by the server.
// keepsAlive: the server must keep its connections open in keep-alive (servers.js).
async function checkServer (port, mode, { timeoutMs = 3000, keepsAlive = false } = {}) {
  return (await checkLoad(port, mode, { timeoutMs, keepsAlive })).problem
}

// checkServer's requests, answered as sendRequests answers.
function checkLoad (port, mode, { timeoutMs = 3000, keepsAlive = false } = {}) {
  if (!MODES.includes(mode)) throw new Error(`no mode ${mode}`)
  const requests = mode === 'close' ? 1 : KEEP_ALIVE_REQUESTS
  return sendRequests(port, { mode, connections: 1, requests, timeoutMs, keepsAlive })
}

// Sends `requests` requests over `connections` connections at once, each request sent
// when its connection's last answer has come, and checks every answer as checkServer
// does. Resolves to { problem: null or why not (the first), unannouncedCloses: how many
// answers to Connection: close did not say Connection: close }. RFC 9112 9.6 says a
// server SHOULD say so; Bun.serve does not, and wrk, which keeps a connection whose
// answer does not say close, then counts the server's close as a read error. The
// strace pass's load: a count of requests, where wrk's is a duration. `path` and `check`
// (response, index) → problem or null ask for another page and judge its answers (the db
// experiment's endpoints).
async function sendRequests (port, {
  mode, connections, requests, timeoutMs = 3000, path = '/', check = answerProblem, keepsAlive = false
}) {
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
        connection.socket.write(request(mode === 'close', path))
        const response = await connection.next()
        const wrong = check(response, index)
        if (wrong) throw new Error(wrong)
        const closing = /(^|,)\s*close\s*($|,)/i.test(response.headers.connection ?? '')
        if (closing && keepsAlive && mode === 'keep-alive') {
          throw new Error(`request ${index} was answered Connection: close in keep-alive, by a server that keeps ` +
            'its connections open (its keep-alive cells would time a connect a request)')
        }
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

// Connections reset by their client (TCP RST), as the end of a wrk run resets some of its own
// (a copy of node-net that printed its errors saw 22 to 59 ECONNRESET in a burst): RESETS with
// half a request to `path` sent, each reset SERVER_READS_MS later (time for the server to read
// it), and RESETS after a whole request's answer. Resolves to null, or why not where a
// connection or an answer before a reset failed; whether the server survived is the check after
// it (checkResets). A server that a client's reset ends then fails its check with that reason,
// not a timed run at random, and the path a reset takes has run before its warm-up, as it will
// after every run.
const RESETS = 3
const SERVER_READS_MS = 20
async function resetConnections (port, { path = '/', timeoutMs = 3000 } = {}) {
  const whole = request(false, path)
  for (const text of [whole.slice(0, whole.indexOf('\r\n') + 2), whole]) {
    for (let reset = 0; reset < RESETS; reset++) {
      let connection
      try {
        connection = await connect(port, timeoutMs)
        connection.socket.write(text)
        if (text === whole) await connection.next()
        else await new Promise(resolve => setTimeout(resolve, SERVER_READS_MS))
      } catch (err) {
        connection?.socket.destroy()
        return `after a client reset its connection: ${err.message}`
      }
      connection.socket.resetAndDestroy()
    }
  }
  return null
}

// resetConnections at `path`, then `check()` (a server's own check: null, or why not): null
// where the server still answers right, else why not.
async function survivesResets (port, check, { path = '/', timeoutMs = 3000 } = {}) {
  const problem = await resetConnections(port, { path, timeoutMs })
  if (problem) return problem
  const after = await check()
  return after && `after ${2 * RESETS} connections reset by the client: ${after}`
}

// survivesResets with checkLoad's requests in `mode` on a new connection as the check.
function checkResets (port, mode, { timeoutMs = 3000 } = {}) {
  return survivesResets(port, async () => (await checkLoad(port, mode, { timeoutMs })).problem, { timeoutMs })
}

module.exports = {
  parseResponse, checkServer, checkLoad, resetConnections, checkResets, survivesResets, sendRequests
}
