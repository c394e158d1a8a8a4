'use strict'
// The lab's PostgreSQL client for its V8 host: the frontend/backend protocol, version 3,
// over the host's socket bindings and epoll loop, as just(js) once had. Loaded with
// just.load('db/pg.js'), a file of its own so it can be tested alone
// (test/e2e/pg-wire.test.js).
//
//   const db = connect({ host: '/tmp/pg', port: 5432, user, database, pipeline }, err => ...)
//   const world = statement('SELECT id, randomnumber FROM world WHERE id = $1', 'world')
//   db.query(world, [42], (err, rows) => ...)   rows: [[42, 5318]], an array per row
//
// - A named statement is parsed and described once per connection (db.prepare, or its
//   first query), then each query is Bind/Execute/Sync. The unnamed statement (name '')
//   is Parse/Bind/Execute/Sync on every query, plus a Describe while its column types
//   are unknown.
// - Parameters and results travel as text, as libpq sends and returns them by default:
//   every type has a text form, the C server (db/c-libpq.c) puts the same bytes on the
//   wire, and an integer parses from its digits without making a string. int2, int4,
//   oid, float4 and float8 become numbers and bool a boolean; the rest stays a string
//   (int8 too, which a number cannot always hold).
// - Every query ends with its own Sync, so an error fails that query alone: the backend
//   skips to the Sync, answers ReadyForQuery, and the connection goes on.
// - pipeline: true (the default) writes each query as it comes; false keeps one query in
//   flight and writes the next when ReadyForQuery comes. Either way what is written in a
//   turn of the event loop goes out in one write(2) at its end (a microtask: the host
//   drains them after every epoll_wait), or sooner if the buffer fills.
// - A connection lost (read 0, a read or write error, a FATAL error) fails every pending
//   query with the reason, then calls db.onLost(err).
// V8 alone has no TextEncoder or TextDecoder: UTF-8 is the host's (sys.writeUtf8 ...).
const { net, sys } = just
const { loop } = just.factory
const { EPOLLIN, EPOLLOUT } = just.loop
const { EAGAIN, EINPROGRESS, SOL_SOCKET, SO_ERROR } = net

const OUT_BYTES = 65536
const IN_BYTES = 65536
const PROTOCOL_3_0 = 196608
// What a column's text becomes, by its type's OID (pg_type); any other stays a string.
const VALUE_OF_TYPE = { 16: 'bool', 21: 'int', 23: 'int', 26: 'int', 700: 'float', 701: 'float' }
const AUTH_METHODS = { 2: 'Kerberos V5', 3: 'cleartext password', 5: 'MD5 password', 7: 'GSSAPI', 9: 'SSPI', 10: 'SASL (SCRAM)' }
const code = letter => letter.charCodeAt(0)
// The backend's messages, by type byte.
const AUTHENTICATION = code('R')
const PARAMETER_STATUS = code('S')
const BACKEND_KEY_DATA = code('K')
const READY_FOR_QUERY = code('Z')
const PARSE_COMPLETE = code('1')
const BIND_COMPLETE = code('2')
const CLOSE_COMPLETE = code('3')
const PARAMETER_DESCRIPTION = code('t')
const ROW_DESCRIPTION = code('T')
const NO_DATA = code('n')
const DATA_ROW = code('D')
const COMMAND_COMPLETE = code('C')
const EMPTY_QUERY_RESPONSE = code('I')
const ERROR_RESPONSE = code('E')
const NOTICE_RESPONSE = code('N')
const NOTIFICATION_RESPONSE = code('A')
// Execute the unnamed portal for all its rows, then Sync: the same 15 bytes every query.
const EXECUTE_SYNC = new Uint8Array([code('E'), 0, 0, 0, 9, 0, 0, 0, 0, 0, code('S'), 0, 0, 0, 4])

// ---- UTF-8 ----

// The host's codec, V8's own (host/bindings.cc): writeUtf8(text, bytes, at) -> where the
// bytes end, a lone surrogate as U+FFFD; readUtf8(bytes, start, end) -> the text, what
// starts no valid sequence as U+FFFD; utf8Length(text).
const { writeUtf8, readUtf8, utf8Length } = sys

// Where the C string at bytes[at] ends (its NUL) in a message that ends at end; a string
// the message cuts short ends with it, so a malformed message reads as text, not past it.
function stringEnd (bytes, at, end) {
  const zero = bytes.indexOf(0, at)
  return zero < 0 || zero > end ? end : zero
}

function utf8Bytes (text) {
  const bytes = new Uint8Array(utf8Length(text))
  writeUtf8(text, bytes, 0)
  return bytes
}

function writeInteger (value, bytes, at) {
  if (value < 0) {
    bytes[at++] = 45 // '-'
    value = -value
  }
  let last = at
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) last++
  for (let i = last; i >= at; i--) {
    bytes[i] = 48 + value % 10
    value = Math.floor(value / 10)
  }
  return last + 1
}

function readInteger (bytes, at, end) {
  const negative = bytes[at] === 45
  let value = 0
  for (let i = negative ? at + 1 : at; i < end; i++) value = value * 10 + bytes[i] - 48
  return negative ? -value : value
}

// ---- statements and connections ----

// A statement; the name '' is the unnamed statement, parsed anew with every query.
// types: its columns' type OIDs, once a Describe has told them.
function statement (sql, name = '') {
  return { sql, name, sqlBytes: utf8Bytes(sql), nameBytes: utf8Bytes(name), types: null }
}

class Connection {
  constructor (pipeline) {
    this.fd = -1
    this.pipeline = pipeline
    this.out = new ArrayBuffer(OUT_BYTES)
    this.outBytes = new Uint8Array(this.out)
    this.outView = new DataView(this.out)
    this.outLength = 0
    this.waitingToWrite = false
    this.flushQueued = false
    this.in = new ArrayBuffer(IN_BYTES)
    this.inBytes = new Uint8Array(this.in)
    this.inView = new DataView(this.in)
    this.inLength = 0
    // Requests in order: [head, unsent) are written and wait for their ReadyForQuery,
    // [unsent, length) wait for their turn (pipeline false).
    this.queue = []
    this.head = 0
    this.unsent = 0
    this.prepared = new Set()
    this.parameters = {}
    this.backendPid = 0
    this.onLost = null
  }

  // Parses and describes a named statement on this connection; callback(err).
  prepare (statement, callback) {
    this.enqueue({ kind: 'prepare', statement, params: null, callback, rows: null, error: null, parses: false })
  }

  // callback(err, rows), rows an array of values per row.
  query (statement, params, callback) {
    this.enqueue({ kind: 'query', statement, params, callback, rows: [], error: null, parses: false })
  }

  // Ends the session (Terminate) and closes the socket; requests still pending fail.
  close () {
    if (this.fd < 0) return
    this.reserve(5)
    this.outBytes[this.outLength] = code('X')
    this.outView.setInt32(this.outLength + 1, 4)
    net.write(this.fd, this.out, 0, this.outLength + 5)
    this.end(new Error('the connection was closed'))
  }

  enqueue (request) {
    if (this.fd < 0) return request.callback(new Error('the connection is closed'))
    this.queue.push(request)
    if (this.pipeline || this.unsent === this.head) this.send()
  }

  // Writes the next unsent request's messages into the output buffer. A named statement
  // is parsed, and described for its column types, on its first use on this connection;
  // the unnamed one on every use, and described while its types are unknown.
  send () {
    const request = this.queue[this.unsent++]
    const { statement } = request
    const named = statement.name !== ''
    if (request.kind === 'prepare' || !named || !this.prepared.has(statement.name)) {
      request.parses = true
      if (named) this.prepared.add(statement.name)
      this.writeParse(statement)
      if (named) this.writeDescribe(code('S'), statement.nameBytes)
    }
    if (request.kind === 'prepare') {
      this.finish(this.begin(code('S'), 0)) // Sync
    } else {
      this.writeBind(statement, request.params)
      if (!named && !statement.types) this.writeDescribe(code('P'), statement.nameBytes)
      this.reserve(EXECUTE_SYNC.length)
      this.outBytes.set(EXECUTE_SYNC, this.outLength)
      this.outLength += EXECUTE_SYNC.length
    }
    scheduleFlush(this)
  }

  // ---- writing: a message is its type byte, its length (itself included), its body

  // Room for size more bytes: what is buffered goes out first, and the buffer grows only
  // for a message larger than it.
  reserve (size) {
    if (this.outLength + size <= this.out.byteLength) return
    this.flush()
    if (this.outLength + size <= this.out.byteLength) return
    const bigger = new ArrayBuffer(2 * (this.outLength + size))
    new Uint8Array(bigger).set(this.outBytes.subarray(0, this.outLength))
    this.out = bigger
    this.outBytes = new Uint8Array(bigger)
    this.outView = new DataView(bigger)
  }

  // Begins a message of at most size body bytes at outLength; returns where its body goes.
  begin (type, size) {
    this.reserve(5 + size)
    this.outBytes[this.outLength] = type
    return this.outLength + 5
  }

  // Ends the message begun at outLength, whose body ends at end.
  finish (end) {
    this.outView.setInt32(this.outLength + 1, end - this.outLength - 1)
    this.outLength = end
  }

  writeCString (bytes, at) {
    this.outBytes.set(bytes, at)
    this.outBytes[at + bytes.length] = 0
    return at + bytes.length + 1
  }

  // The StartupMessage has no type byte: its length, the protocol's version, then
  // parameters' names and values, an empty name last.
  writeStartup (parameters) {
    let text = ''
    for (const [name, value] of Object.entries(parameters)) text += `${name}\0${value}\0`
    const body = utf8Bytes(text + '\0')
    this.reserve(8 + body.length)
    this.outView.setInt32(this.outLength, 8 + body.length)
    this.outView.setInt32(this.outLength + 4, PROTOCOL_3_0)
    this.outBytes.set(body, this.outLength + 8)
    this.outLength += 8 + body.length
  }

  writeParse ({ nameBytes, sqlBytes }) {
    let at = this.begin(code('P'), nameBytes.length + sqlBytes.length + 4)
    at = this.writeCString(nameBytes, at)
    at = this.writeCString(sqlBytes, at)
    this.outView.setInt16(at, 0) // no parameter types given: the backend infers them
    this.finish(at + 2)
  }

  // Describe a statement ('S') or a portal ('P').
  writeDescribe (what, nameBytes) {
    const at = this.begin(code('D'), nameBytes.length + 2)
    this.outBytes[at] = what
    this.finish(this.writeCString(nameBytes, at + 1))
  }

  // Binds the unnamed portal to the statement, every parameter and result in text.
  writeBind (statement, params) {
    let size = statement.nameBytes.length + 8
    for (const value of params) size += 4 + (typeof value === 'number' ? 24 : value == null ? 0 : 3 * String(value).length)
    let at = this.begin(code('B'), size)
    const bytes = this.outBytes
    const view = this.outView
    bytes[at++] = 0 // the unnamed portal
    at = this.writeCString(statement.nameBytes, at)
    view.setInt32(at, params.length) // no parameter format codes (all text), the count
    at += 4
    for (const value of params) {
      if (value == null) {
        view.setInt32(at, -1)
        at += 4
        continue
      }
      const start = at + 4
      at = Number.isSafeInteger(value) ? writeInteger(value, bytes, start) : writeUtf8(String(value), bytes, start)
      view.setInt32(start - 4, at - start)
    }
    view.setInt16(at, 0) // no result format codes: all text
    this.finish(at + 2)
  }

  // Writes what is buffered; what the socket does not take waits for EPOLLOUT.
  flush () {
    if (this.fd < 0 || this.outLength === 0 || this.waitingToWrite) return
    let n = net.write(this.fd, this.out, 0, this.outLength)
    if (n === this.outLength) {
      this.outLength = 0
      return
    }
    if (n < 0) {
      if (sys.errno() !== EAGAIN) return this.lost(new Error(`write: ${sys.strerror(sys.errno())}`))
      n = 0
    }
    this.outBytes.copyWithin(0, n, this.outLength)
    this.outLength -= n
    this.waitingToWrite = true
    loop.update(this.fd, EPOLLIN | EPOLLOUT)
  }

  onWritable () {
    this.waitingToWrite = false
    loop.update(this.fd, EPOLLIN)
    this.flush()
  }

  // ---- reading

  onReadable () {
    for (;;) {
      const room = this.in.byteLength - this.inLength
      const n = net.read(this.fd, this.in, this.inLength, room)
      if (n === 0) return this.lost(new Error('the server closed the connection'))
      if (n < 0) {
        if (sys.errno() === EAGAIN) return
        return this.lost(new Error(`read: ${sys.strerror(sys.errno())}`))
      }
      this.inLength += n
      this.parse()
      // a read that did not fill its room emptied the socket
      if (this.fd < 0 || n < room) return
    }
  }

  // Handles every whole message read; a partial one moves to the buffer's start, and the
  // buffer grows if that message is larger than it.
  parse () {
    const bytes = this.inBytes
    let at = 0
    while (this.inLength - at >= 5) {
      const end = at + 1 + this.inView.getInt32(at + 1)
      if (end > this.inLength) break
      this.message(bytes[at], at + 5, end)
      if (this.fd < 0) return
      at = end
    }
    bytes.copyWithin(0, at, this.inLength)
    this.inLength -= at
    const needed = this.inLength >= 5 ? 1 + this.inView.getInt32(1) : 0
    if (needed > this.in.byteLength) {
      const bigger = new ArrayBuffer(2 * needed)
      new Uint8Array(bigger).set(bytes.subarray(0, this.inLength))
      this.in = bigger
      this.inBytes = new Uint8Array(bigger)
      this.inView = new DataView(bigger)
    }
  }

  // One message from the backend, its body bytes[at, end). It answers the request at the
  // queue's head, which its ReadyForQuery completes.
  message (type, at, end) {
    const request = this.queue[this.head]
    switch (type) {
      case DATA_ROW: return request.rows.push(this.dataRow(request.statement.types, at))
      case READY_FOR_QUERY: return this.complete()
      case ROW_DESCRIPTION: return (request.statement.types = this.rowTypes(at))
      case NO_DATA: return (request.statement.types = [])
      case ERROR_RESPONSE: return this.errorResponse(request, at, end)
      case AUTHENTICATION: return this.authentication(this.inView.getInt32(at))
      case PARAMETER_STATUS: {
        const zero = stringEnd(this.inBytes, at, end)
        this.parameters[readUtf8(this.inBytes, at, zero)] = readUtf8(this.inBytes, Math.min(zero + 1, end - 1), end - 1)
        return
      }
      case BACKEND_KEY_DATA: return (this.backendPid = this.inView.getInt32(at))
      case PARSE_COMPLETE: case BIND_COMPLETE: case CLOSE_COMPLETE: case PARAMETER_DESCRIPTION:
      case COMMAND_COMPLETE: case EMPTY_QUERY_RESPONSE: case NOTICE_RESPONSE: case NOTIFICATION_RESPONSE:
        return
      default: this.lost(new Error(`unexpected message '${String.fromCharCode(type)}' from the server`))
    }
  }

  complete () {
    const request = this.queue[this.head]
    this.queue[this.head++] = undefined
    if (this.head === this.queue.length) {
      this.queue.length = 0
      this.head = this.unsent = 0
    } else if (this.head >= 1024 && 2 * this.head >= this.queue.length) {
      // a pipeline that never runs dry would otherwise grow the queue for ever
      this.queue.splice(0, this.head)
      this.unsent -= this.head
      this.head = 0
    }
    if (!this.pipeline && this.unsent < this.queue.length) this.send()
    request.callback(request.error, request.rows)
  }

  // The type OIDs of a RowDescription's columns.
  rowTypes (at) {
    const types = new Array(this.inView.getInt16(at))
    at += 2
    for (let i = 0; i < types.length; i++) {
      at = this.inBytes.indexOf(0, at) + 1 // past the column's name
      types[i] = this.inView.getInt32(at + 6) // past its table's OID and column number
      at += 18
    }
    return types
  }

  dataRow (types, at) {
    const bytes = this.inBytes
    const view = this.inView
    const row = new Array(view.getInt16(at))
    at += 2
    for (let i = 0; i < row.length; i++) {
      const length = view.getInt32(at)
      at += 4
      if (length < 0) {
        row[i] = null
        continue
      }
      const value = types && VALUE_OF_TYPE[types[i]]
      if (value === 'int') row[i] = readInteger(bytes, at, at + length)
      else if (value === 'bool') row[i] = bytes[at] === 116 // 't'
      else if (value === 'float') row[i] = Number(readUtf8(bytes, at, at + length))
      else row[i] = readUtf8(bytes, at, at + length)
      at += length
    }
    return row
  }

  // An ErrorResponse's fields (a type byte and a string each) as an Error with the
  // backend's message; a FATAL or PANIC one ends the connection.
  errorResponse (request, at, end) {
    const bytes = this.inBytes
    const fields = {}
    while (at < end && bytes[at] !== 0) {
      const zero = stringEnd(bytes, at + 1, end)
      fields[String.fromCharCode(bytes[at])] = readUtf8(bytes, at + 1, zero)
      at = zero + 1
    }
    const error = new Error(fields.M)
    Object.assign(error, { severity: fields.V || fields.S, code: fields.C, detail: fields.D, hint: fields.H, position: fields.P })
    if (error.severity === 'FATAL' || error.severity === 'PANIC') return this.lost(error)
    if (request.parses && request.statement.name !== '') this.prepared.delete(request.statement.name)
    request.error = request.error || error
  }

  authentication (method) {
    if (method === 0) return // AuthenticationOk: trust
    const name = AUTH_METHODS[method] || `method ${method}`
    this.lost(new Error(`the server asks for ${name} authentication; this client does trust only`))
  }

  // Closes the socket; every request still pending fails with error.
  end (error) {
    loop.remove(this.fd)
    net.close(this.fd)
    this.fd = -1
    const pending = this.queue.slice(this.head)
    this.queue = []
    this.head = this.unsent = 0
    for (const request of pending) request.callback(error)
  }

  lost (error) {
    if (this.fd < 0) return
    this.end(error)
    if (this.onLost) this.onLost(error)
  }
}

// Connections with messages to write in this turn of the loop, written at its end.
const dirty = []

function scheduleFlush (connection) {
  if (connection.flushQueued) return
  connection.flushQueued = true
  if (dirty.push(connection) === 1) Promise.resolve().then(flushAll)
}

function flushAll () {
  for (let i = 0; i < dirty.length; i++) {
    dirty[i].flushQueued = false
    dirty[i].flush()
  }
  dirty.length = 0
}

// Opens a connection and starts its session; callback(err) once it is ready for queries
// or has failed. host is a Unix socket's folder (starting with '/', as libpq reads PGHOST:
// the socket is host/.s.PGSQL.port) or an IPv4 address; application names the session
// in pg_stat_activity.
function connect ({ host, port = 5432, user, database = user, application = '', pipeline = true }, callback) {
  const db = new Connection(pipeline)
  const unix = host.startsWith('/')
  const address = unix ? `${host}/.s.PGSQL.${port}` : host
  const failed = message => {
    const error = new Error(`${unix ? address : `${address}:${port}`}: ${message}`)
    if (db.fd >= 0) return db.end(error)
    Promise.resolve().then(() => callback(error))
  }
  db.fd = net.socket(unix ? net.AF_UNIX : net.AF_INET, net.SOCK_STREAM | net.SOCK_NONBLOCK | net.SOCK_CLOEXEC, 0)
  if (db.fd < 0) {
    failed(`socket: ${sys.strerror(sys.errno())}`)
    return db
  }
  const connected = net.connect(db.fd, address, port) === 0
  if (!connected && sys.errno() !== EINPROGRESS) {
    const reason = sys.strerror(sys.errno())
    net.close(db.fd)
    db.fd = -1
    failed(`connect: ${reason}`)
    return db
  }
  // A connect in progress ends when the socket turns writable; SO_ERROR says how.
  let connecting = !connected
  loop.add(db.fd, (fd, events) => {
    if (connecting) {
      connecting = false
      const error = net.getsockopt(fd, SOL_SOCKET, SO_ERROR)
      if (error !== 0) return failed(`connect: ${sys.strerror(error < 0 ? sys.errno() : error)}`)
      return db.onWritable()
    }
    if (events & EPOLLOUT) db.onWritable()
    if (db.fd >= 0 && events & ~EPOLLOUT) db.onReadable()
  }, connecting ? EPOLLOUT : EPOLLIN)
  db.waitingToWrite = connecting
  db.queue.push({ kind: 'startup', statement: null, params: null, callback, rows: null, error: null, parses: false })
  db.unsent = 1
  db.writeStartup({ user, database, application_name: application, client_encoding: 'UTF8' })
  scheduleFlush(db)
  return db
}

module.exports = { connect, statement }
