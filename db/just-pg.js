// The db experiment's server on the lab's V8 host: http/just-epoll.js's loop (one thread,
// just.factory.loop, keep-alive) answering /db, /queries and /fortunes from PostgreSQL
// through the lab's own wire-protocol client, db/pg.js, with DB_POOL connections over the
// Unix socket. Every DB_PREPARED and DB_PIPELINE combination runs (db/pg.js says how).
// Usage: just-host db/just-pg.js PORT, with PGHOST (the socket's folder), PGPORT, PGUSER,
// PGDATABASE, DB_POOL, DB_PREPARED and DB_PIPELINE set; prints "listening 127.0.0.1:PORT"
// once every connection is open and, when prepared, has parsed both statements.
const { print, error, exit, args, env, sys, net } = just
const { socket, setsockopt, bind, listen, accept4, read, write, close } = net
const { AF_INET, SOCK_STREAM, SOCK_NONBLOCK, SOCK_CLOEXEC, SOL_SOCKET, SO_REUSEADDR, EAGAIN } = net
const { loop } = just.factory
const { EPOLLIN, EPOLLOUT } = just.loop
const pg = just.load(args[1].replace(/[^/]*$/, '') + 'pg.js')

const port = Number(args[2])
const { PGHOST, PGPORT, PGUSER, PGDATABASE, DB_POOL, DB_PREPARED, DB_PIPELINE } = env()
const poolSize = Number(DB_POOL)
if (!(Number.isInteger(poolSize) && poolSize >= 1) || !/^[01]$/.test(DB_PREPARED) || !/^[01]$/.test(DB_PIPELINE) || !PGHOST) {
  error('just-pg: PGHOST must be set, DB_POOL a count, DB_PREPARED and DB_PIPELINE 0 or 1')
  exit(2)
}
const prepared = DB_PREPARED === '1'
// the session's name lets a test find this server's backends in pg_stat_activity
const settings = { host: PGHOST, port: Number(PGPORT || 5432), user: PGUSER, database: PGDATABASE, application: `just-pg ${sys.pid()}`, pipeline: DB_PIPELINE === '1' }
const world = pg.statement('SELECT id, randomnumber FROM world WHERE id = $1', prepared ? 'world' : '')
const fortune = pg.statement('SELECT id, message FROM fortune', prepared ? 'fortune' : '')

const REQUEST_BYTES = 4096
const NOT_FOUND = 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'
const FAILED = 'HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n'
const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const pool = []
let turn = 0
// Each HTTP connection, by fd: what it has read of requests, and its answers in order.
const connections = []
let out = new Uint8Array(65536)

// The index of the first "\r\n\r\n" in bytes[from, end), or -1.
function headersEnd (bytes, from, end) {
  for (let i = from + 3; i < end; i++) {
    if (bytes[i] === 10 && bytes[i - 1] === 13 && bytes[i - 2] === 10 && bytes[i - 3] === 13) return i - 3
  }
  return -1
}

// The request line's target ("/queries?q=5"), between its first two spaces.
function target (bytes, start, end) {
  const from = bytes.indexOf(32, start) + 1
  let to = from
  while (to < end && bytes[to] !== 32) to++
  return sys.readUtf8(bytes, from, to)
}

// q missing, not a number or below 1 is 1; above 500 is 500.
function count (target) {
  const q = /[?&]q=([^&]*)/.exec(target)
  return Math.min(500, Math.max(1, (q && parseInt(q[1], 10)) || 1))
}

const page = (type, body) => `HTTP/1.1 200 OK\r\nContent-Type: ${type}\r\nContent-Length: ${sys.utf8Length(body)}\r\n\r\n${body}`
const json = row => `{"id":${row[0]},"randomNumber":${row[1]}}`
const escape = text => text.replace(/[&<>"']/g, c => ESCAPES[c])

// The pool's connections take queries in turn.
function query (statement, params, callback) {
  turn = turn + 1 === pool.length ? 0 : turn + 1
  pool[turn].query(statement, params, callback)
}

function randomWorld (callback) {
  query(world, [1 + Math.floor(Math.random() * 10000)], (err, rows) => callback(err, rows && rows[0]))
}

function worlds (n, callback) {
  const rows = new Array(n)
  let left = n
  let failure = null
  for (let i = 0; i < n; i++) {
    randomWorld((err, row) => {
      failure = failure || err
      rows[i] = row
      if (--left === 0) callback(failure, rows)
    })
  }
}

function fortunes (callback) {
  query(fortune, [], (err, rows) => {
    if (err) return callback(err)
    rows.push([0, 'Additional fortune added at request time.'])
    // UTF-16 order: code-point order except for characters above U+FFFF against
    // U+E000..U+FFFF, which no fortune has
    rows.sort((a, b) => a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)
    let html = '<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>'
    for (const [id, message] of rows) html += `<tr><td>${id}</td><td>${escape(message)}</td></tr>`
    callback(null, html + '</table></body></html>')
  })
}

// Answers one request; its answer waits in line behind those of earlier requests.
function answer (connection, target) {
  const slot = { text: null }
  connection.answers.push(slot)
  const done = text => {
    slot.text = text
    send(connection)
  }
  const path = target.split('?')[0]
  if (path === '/db') randomWorld((err, row) => done(err ? FAILED : page('application/json', json(row))))
  else if (path === '/queries') worlds(count(target), (err, rows) => done(err ? FAILED : page('application/json', `[${rows.map(json).join(',')}]`)))
  else if (path === '/fortunes') fortunes((err, html) => done(err ? FAILED : page('text/html; charset=utf-8', html)))
  else done(NOT_FOUND)
}

// Writes every answer ready at the head of the line, in one write; what the socket does
// not take waits for EPOLLOUT.
function send (connection) {
  const { answers } = connection
  let size = 0
  while (!connection.closed && answers.length > 0 && answers[0].text !== null) {
    const text = answers.shift().text
    if (size + 3 * text.length > out.length) {
      const bigger = new Uint8Array(2 * (size + 3 * text.length))
      bigger.set(out.subarray(0, size))
      out = bigger
    }
    size = sys.writeUtf8(text, out, size)
  }
  if (size === 0) return
  if (connection.unsent) return waitToWrite(connection, out.slice(0, size))
  const n = write(connection.fd, out.buffer, 0, size)
  if (n === size) return
  if (n < 0 && sys.errno() !== EAGAIN) return drop(connection)
  waitToWrite(connection, out.slice(Math.max(n, 0), size))
}

function waitToWrite (connection, bytes) {
  if (connection.unsent) {
    const both = new Uint8Array(connection.unsent.length + bytes.length)
    both.set(connection.unsent)
    both.set(bytes, connection.unsent.length)
    bytes = both
  } else {
    loop.update(connection.fd, EPOLLIN | EPOLLOUT)
  }
  connection.unsent = bytes
}

function onWritable (connection) {
  const { unsent } = connection
  const n = write(connection.fd, unsent.buffer, 0, unsent.length)
  if (n < 0 && sys.errno() !== EAGAIN) return drop(connection)
  if (n < unsent.length) {
    connection.unsent = unsent.slice(Math.max(n, 0))
    return
  }
  connection.unsent = null
  loop.update(connection.fd, EPOLLIN)
}

// close(2) takes the fd out of the epoll set; answers still to come for the connection
// are dropped when they come.
function drop (connection) {
  close(connection.fd)
  connection.closed = true
  connections[connection.fd] = null
}

function onReadable (connection) {
  const { fd, buffer, bytes } = connection
  for (;;) {
    const room = REQUEST_BYTES - connection.used
    const n = read(fd, buffer, connection.used, room)
    if (n === 0 || (n < 0 && sys.errno() !== EAGAIN)) return drop(connection)
    if (n < 0) return
    const end = connection.used + n
    let start = 0
    let at
    while ((at = headersEnd(bytes, start, end)) >= 0) {
      answer(connection, target(bytes, start, at))
      start = at + 4
    }
    bytes.copyWithin(0, start, end)
    connection.used = end - start
    if (connection.closed) return
    if (connection.used === REQUEST_BYTES) return drop(connection)
    // a read that did not fill its room emptied the socket
    if (n < room) return
  }
}

function onEvents (fd, events) {
  const connection = connections[fd]
  // dropped by an earlier callback of this poll (a failed write of a database answer)
  if (!connection) return
  if (events & EPOLLOUT) onWritable(connection)
  if (!connection.closed && events & ~EPOLLOUT) onReadable(connection)
}

function onConnection () {
  let fd
  while ((fd = accept4(listener, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
    const buffer = new ArrayBuffer(REQUEST_BYTES)
    connections[fd] = { fd, buffer, bytes: new Uint8Array(buffer), used: 0, answers: [], unsent: null, closed: false }
    loop.add(fd, onEvents, EPOLLIN)
  }
}

function fail (message) {
  error(`just-pg: ${message}`)
  exit(1)
}

// Opens the pool, prepares the statements on every connection when asked, then listens.
let waiting = poolSize * (prepared ? 3 : 1)
function opened (err) {
  if (err) fail(`database: ${err.message}`)
  if (--waiting === 0) serve()
}
for (let i = 0; i < poolSize; i++) {
  const db = pg.connect(settings, err => {
    opened(err)
    db.onLost = err => fail(`database connection lost: ${err.message}`)
    if (prepared) for (const statement of [world, fortune]) db.prepare(statement, opened)
  })
  pool.push(db)
}

let listener
function serve () {
  listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0)
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, 1)
  if (listener < 0 || bind(listener, '127.0.0.1', port) < 0 || listen(listener, 1024) < 0 || loop.add(listener, onConnection, EPOLLIN) < 0) {
    fail(`cannot listen on 127.0.0.1:${port}: ${sys.strerror(sys.errno())}`)
  }
  print(`listening 127.0.0.1:${port}`)
}
// SIGTERM ends the process at once, status 0: the kernel closes its sockets, and each
// backend ends when it sees its connection closed.
sys.exitOnSigterm()
sys.ignoreSigpipe()
