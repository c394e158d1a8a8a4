'use strict'
// Tests for db/pg.js, the lab's PostgreSQL wire-protocol client, run by the host against a
// real PostgreSQL the suite starts (experiments/db/postgres.js) and stops, and for
// db/just-pg.js, the host's db server built on it.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const { spawn, spawnSync } = require('node:child_process')
const fs = require('node:fs')
const net = require('node:net')
const os = require('node:os')
const path = require('node:path')

const ROOT = path.resolve(__dirname, '..', '..')
const HOST = path.join(ROOT, 'build', 'just-host')
const PG_JS = path.join(ROOT, 'db', 'pg.js')
const SERVER = path.join(ROOT, 'db', 'just-pg.js')
const { startPostgres } = require('../../experiments/db/postgres')
// The PostgreSQL under test, as the PG* variables a client reads.
let database = null
let cluster = null
let dir

before(async () => {
  const make = spawnSync('make', ['-C', path.join(ROOT, 'host')], { encoding: 'utf8' })
  if (!fs.existsSync(HOST) || make.status !== 0) {
    assert.fail(`build/just-host is missing or stale: run make first (make -C host)\n${make.stdout || ''}${make.stderr || ''}`)
  }
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-wire-'))
  cluster = await startPostgres()
  database = cluster.env
})

after(async () => {
  if (cluster) await cluster.stop()
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

// What every client script starts with: the client, the database's settings, open() to
// connect (an error ends the script), finish() to print a result, and `written`, what the
// client wrote, one string of message types per write(2) ('PDS' is Parse, Describe, Sync;
// the StartupMessage, which has no type, is left out).
const PRELUDE = `
const pg = just.load(${JSON.stringify(PG_JS)})
const { PGHOST, PGPORT, PGUSER, PGDATABASE } = just.env()
const settings = { host: PGHOST, port: Number(PGPORT), user: PGUSER, database: PGDATABASE }
function open (options, then) {
  const db = pg.connect({ ...settings, ...options }, err => {
    if (err) throw err
    then(db)
  })
  return db
}
function finish (result) {
  just.print(JSON.stringify(result))
  just.exit(0)
}
const written = []
const write = just.net.write
just.net.write = (fd, buffer, offset, length) => {
  const bytes = new Uint8Array(buffer, offset, length)
  const view = new DataView(buffer, offset, length)
  let types = ''
  for (let at = bytes[0] === 0 ? view.getInt32(0) : 0; at < length; at += 1 + view.getInt32(at + 1)) types += String.fromCharCode(bytes[at])
  if (types) written.push(types)
  return write(fd, buffer, offset, length)
}
const world = pg.statement('SELECT id, randomnumber FROM world WHERE id = $1', 'world')
const unnamedWorld = pg.statement('SELECT id, randomnumber FROM world WHERE id = $1')
`

// Runs a client script in the host; resolves to its result, the JSON it printed.
async function client (t, name, source, env = {}) {
  const file = path.join(dir, name)
  fs.writeFileSync(file, PRELUDE + source)
  const child = spawn(HOST, [file], { env: { ...process.env, ...database, ...env } })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', chunk => { stdout += chunk })
  child.stderr.on('data', chunk => { stderr += chunk })
  const code = await new Promise(resolve => child.on('close', resolve))
  assert.equal(code, 0, `${name} exited ${code}: ${stderr}`)
  return JSON.parse(stdout)
}

// Every test talks to the suite's database: started in before(), or the suite has already
// failed there.
function needsDatabase () {
  assert.ok(database, 'the suite\'s PostgreSQL is running')
  return true
}

// A Unix socket's folder where a fake server answers like PostgreSQL: answer(socket,
// bytes) gets what the client sends.
async function fakeServer (answer) {
  const folder = fs.mkdtempSync(path.join(dir, 'fake-'))
  const server = net.createServer(socket => socket.on('data', bytes => answer(socket, bytes)))
  await new Promise(resolve => server.listen(path.join(folder, '.s.PGSQL.5432'), resolve))
  return { host: folder, close: () => server.close() }
}

const message = (type, body) => {
  const head = Buffer.alloc(5)
  head.write(type)
  head.writeInt32BE(4 + body.length, 1)
  return Buffer.concat([head, body])
}
const int32 = n => {
  const bytes = Buffer.alloc(4)
  bytes.writeInt32BE(n)
  return bytes
}
const AUTH_OK = message('R', int32(0))
const READY = message('Z', Buffer.from('I'))

test('startup with trust: AuthenticationOk, the session\'s parameters, its backend, ReadyForQuery; close() ends it', async t => {
  if (!needsDatabase(t)) return
  const result = await client(t, 'startup.js', `
    open({}, db => {
      db.query(pg.statement('SELECT pg_backend_pid(), current_user, current_database()'), [], (err, rows) => {
        const session = { err, rows, pid: db.backendPid, parameters: db.parameters }
        db.close()
        db.query(world, [1], err => finish({ ...session, afterClose: err.message, written }))
      })
    })
  `)
  assert.equal(result.err, null)
  assert.deepEqual(result.rows, [[result.pid, database.PGUSER, database.PGDATABASE]])
  assert.ok(result.pid > 0)
  assert.equal(result.parameters.client_encoding, 'UTF8')
  assert.equal(result.parameters.session_authorization, database.PGUSER)
  assert.match(result.parameters.server_version, /^\d+/)
  assert.equal(result.afterClose, 'the connection is closed')
  assert.deepEqual(result.written, ['PBDES', 'X'])
})

test('a connection that cannot start: its callback gets one error naming the socket or the server\'s reason', async t => {
  if (!needsDatabase(t)) return
  const result = await client(t, 'cannot-start.js', `
    const failures = []
    const tried = (err) => {
      failures.push(err.message)
      if (failures.length === 3) finish(failures)
    }
    pg.connect({ ...settings, host: ${JSON.stringify(dir)} }, tried)
    pg.connect({ ...settings, database: 'no_such_database' }, tried)
    pg.connect({ ...settings, host: '127.0.0.1', port: 1 }, tried)
  `)
  assert.deepEqual(result.sort(), [
    '127.0.0.1:1: connect: Connection refused',
    'database "no_such_database" does not exist',
    `${dir}/.s.PGSQL.${database.PGPORT}: connect: No such file or directory`
  ].sort())
})

test('any authentication but trust is refused with a clear error', async t => {
  const methods = { 3: 'cleartext password', 5: 'MD5 password', 10: 'SASL (SCRAM)' }
  for (const [method, name] of Object.entries(methods)) {
    const fake = await fakeServer(socket => socket.write(message('R', Buffer.concat([int32(Number(method)), Buffer.alloc(4)]))))
    const result = await client(t, 'auth.js', `
      pg.connect({ host: ${JSON.stringify(fake.host)}, user: 'u' }, err => finish(err.message))
    `)
    fake.close()
    assert.equal(result, `the server asks for ${name} authentication; this client does trust only`)
  }
})

test('a named statement is parsed once per connection, the unnamed one on every query; rows come back typed', async t => {
  if (!needsDatabase(t)) return
  const result = await client(t, 'prepared.js', `
    const turns = []
    open({}, db => {
      db.prepare(world, err => turns.push(['prepared', err, world.types]))
      let left = 3
      for (const id of [1, 2, 3]) {
        db.query(world, [id], (err, rows) => {
          turns.push(['named', err, rows])
          if (--left === 0) unnamed(db)
        })
      }
    })
    function unnamed (db) {
      written.push('|')
      db.query(unnamedWorld, [1], (err, rows) => turns.push(['unnamed', err, rows]))
      db.query(unnamedWorld, [2], (err, rows) => {
        turns.push(['unnamed', err, rows])
        written.push('|')
        db.query(unnamedWorld, [3], (err, rows) => turns.push(['unnamed', err, rows]))
        db.query(pg.statement('SELECT name FROM pg_prepared_statements'), [], (err, rows) => {
          turns.push(['statements', err, rows])
          written.push('|')
          // a second connection's first query of the named statement prepares it there
          open({}, other => other.query(world, [3], (err, rows) => {
            turns.push(['other', err, rows])
            finish({ turns, written })
          }))
        })
      })
    }
  `)
  const [prepared, ...rest] = result.turns
  assert.deepEqual(prepared, ['prepared', null, [23, 23]])
  const named = rest.slice(0, 3).map(([, err, rows]) => [err, rows.length, rows[0][0]])
  assert.deepEqual(named, [[null, 1, 1], [null, 1, 2], [null, 1, 3]])
  const byId = new Map(rest.slice(0, 3).map(([, , rows]) => rows[0]))
  for (const [kind, err, rows] of rest.slice(3, 5).concat(rest.slice(5, 6), rest.slice(7))) {
    assert.equal(err, null, kind)
    assert.equal(rows.length, 1, kind)
    assert.ok(Number.isInteger(rows[0][1]), kind)
    assert.equal(rows[0][1], byId.get(rows[0][0]), kind)
  }
  assert.deepEqual(rest[6], ['statements', null, [['world']]])
  // One write a turn: Parse/Describe/Sync once, then Bind/Execute/Sync per query; the
  // unnamed statement's Parse every time, with a Describe while its types are unknown.
  assert.deepEqual(result.written.join(' '), 'PDSBESBESBES | PBDESPBDES | PBESPBDES | PDBES')
})

test('pipelining: many queries go out in one write before any answer, and come back in order', async t => {
  if (!needsDatabase(t)) return
  const result = await client(t, 'pipeline.js', `
    const answers = []
    open({}, db => {
      db.prepare(world, () => {
        written.length = 0
        for (let id = 1; id <= 1000; id++) db.query(world, [id], (err, rows) => answers.push(err ? err.message : rows[0][0]))
        db.query(world, [1], () => oneAtATime())
      })
    })
    // with pipeline false, one query in flight: a write each
    function oneAtATime () {
      const pipelined = written.slice()
      written.length = 0
      open({ pipeline: false }, db => {
        db.prepare(world, () => {
          written.length = 0
          const order = []
          for (let id = 1; id <= 20; id++) db.query(world, [id], (err, rows) => order.push(rows[0][0]))
          db.query(world, [1], () => finish({ answers, pipelined, order, oneAtATime: written }))
        })
      })
    }
  `)
  assert.deepEqual(result.answers, Array.from({ length: 1000 }, (_, i) => i + 1))
  assert.deepEqual(result.pipelined, ['BES'.repeat(1001)])
  assert.deepEqual(result.order, Array.from({ length: 20 }, (_, i) => i + 1))
  assert.deepEqual(result.oneAtATime, Array(21).fill('BES'))
})

test('pipelining: more than the buffer holds goes out in several writes, still in order', async t => {
  if (!needsDatabase(t)) return
  const result = await client(t, 'big-pipeline.js', `
    open({}, db => {
      const answers = []
      for (let n = 0; n < 5000; n++) db.query(unnamedWorld, [1 + n % 10000], (err, rows) => answers.push(err ? err.message : rows[0][0]))
      db.query(world, [1], () => finish({ answers, writes: written.length }))
    })
  `)
  assert.deepEqual(result.answers, Array.from({ length: 5000 }, (_, n) => 1 + n % 10000))
  assert.ok(result.writes >= 5, `${result.writes} writes of 64 KiB at most for about 400 KB`)
})

test('an error fails its query alone, with the server\'s message, and the connection goes on', async t => {
  if (!needsDatabase(t)) return
  const result = await client(t, 'errors.js', `
    const answers = []
    const answer = (err, rows) => answers.push(err ? [err.message, err.code, err.severity] : rows)
    const missing = pg.statement('SELECT * FROM no_such_table', 'missing')
    open({}, db => {
      db.query(world, [1], answer)
      db.query(pg.statement('SELEC 1'), [], answer)
      db.query(pg.statement('SELECT 1 / $1::int'), [0], answer)
      db.query(missing, [], answer)
      db.query(missing, [], answer)
      db.query(pg.statement('SELECT $1::int'), ['not a number'], answer)
      db.query(world, [2], (err, rows) => {
        answer(err, rows)
        db.query(missing, [], answer)
        db.query(world, [3], (err, rows) => {
          answer(err, rows)
          finish({ answers, written })
        })
      })
    })
  `)
  const [first, syntax, division, missing, pipelinedMissing, notNumber, second, missingAgain, third] = result.answers
  assert.equal(first[0][0], 1)
  assert.deepEqual(syntax, ['syntax error at or near "SELEC"', '42601', 'ERROR'])
  assert.deepEqual(division, ['division by zero', '22012', 'ERROR'])
  assert.deepEqual(missing, ['relation "no_such_table" does not exist', '42P01', 'ERROR'])
  // written with the first, before its Parse had failed, it binds a statement never made
  assert.deepEqual(pipelinedMissing, ['prepared statement "missing" does not exist', '26000', 'ERROR'])
  assert.deepEqual(notNumber, ['invalid input syntax for type integer: "not a number"', '22P02', 'ERROR'])
  assert.equal(second[0][0], 2)
  // the failed Parse left no statement behind, so a later query parses it again
  assert.deepEqual(missingAgain, missing)
  assert.equal(third[0][0], 3)
  assert.deepEqual(result.written, ['PDBESPBDESPBDESPDBESBESPBDESBES', 'PDBESBES'])
})

test('a dead connection: every pending query fails with the reason, onLost is called once, later queries fail at once', async t => {
  if (!needsDatabase(t)) return
  const result = await client(t, 'terminated.js', `
    const answers = []
    const lost = []
    open({}, db => {
      db.onLost = err => {
        lost.push([err.message, err.code])
        db.query(world, [4], err => finish({ answers, lost, after: err.message }))
      }
      const answer = (err, rows) => answers.push(err ? err.message : rows)
      db.query(world, [1], answer)
      db.query(pg.statement('SELECT pg_terminate_backend(pg_backend_pid())'), [], answer)
      db.query(world, [2], answer)
      db.query(world, [3], answer)
    })
  `)
  const reason = 'terminating connection due to administrator command'
  assert.equal(result.answers[0][0][0], 1)
  assert.deepEqual(result.answers.slice(1), [reason, reason, reason])
  assert.deepEqual(result.lost, [[reason, '57P01']])
  assert.equal(result.after, 'the connection is closed')
})

test('a dead connection: the server closes it (read 0) with queries pending', async t => {
  // A fake server starts the session, then closes on the first query.
  const fake = await fakeServer((socket, bytes) => bytes.readInt32BE(4) === 196608 ? socket.write(Buffer.concat([AUTH_OK, READY])) : socket.end())
  const result = await client(t, 'closed.js', `
    const answers = []
    const db = pg.connect({ host: ${JSON.stringify(fake.host)}, user: 'u' }, err => {
      db.onLost = err => finish({ answers, lost: err.message })
      for (const id of [1, 2]) db.query(world, [id], err => answers.push(err.message))
    })
  `)
  fake.close()
  const reason = 'the server closed the connection'
  assert.deepEqual(result, { answers: [reason, reason], lost: reason })
})

test('a string its message cuts short: a ParameterStatus, an ErrorResponse without NULs', async t => {
  // After the startup, a ParameterStatus whose value lacks its NUL (and a second with no
  // value at all), then to the query an ErrorResponse whose message lacks its NUL.
  const fake = await fakeServer((socket, bytes) => socket.write(bytes.readInt32BE(4) === 196608
    ? Buffer.concat([AUTH_OK, message('S', Buffer.from('a\0b')), message('S', Buffer.from('c')), READY])
    : Buffer.concat([message('E', Buffer.from('SERROR\0Mcut short')), READY])))
  const result = await client(t, 'cut.js', `
    const db = pg.connect({ host: ${JSON.stringify(fake.host)}, user: 'u' }, err => {
      db.query(world, [1], err => { finish({ parameters: db.parameters, error: err.message }) })
    })
  `)
  fake.close()
  assert.deepEqual(result, { parameters: { a: '', c: '' }, error: 'cut short' })
})

test('UTF-8 round trip: Japanese text, an em dash and more as parameters and from the fortune table, exactly', async t => {
  if (!needsDatabase(t)) return
  const texts = ['フレームワークのベンチマーク', 'A list is only as strong as its weakest link. — Donald Knuth', 'é, ß, Ω, 😀, and <&>', 'é'.repeat(50000)]
  const result = await client(t, 'utf8.js', `
    const texts = ${JSON.stringify(texts)}
    const echo = pg.statement('SELECT $1::text, length($1::text), octet_length($1::text)', 'echo')
    const answers = []
    open({}, db => {
      for (const text of texts) db.query(echo, [text], (err, rows) => answers.push(err ? err.message : rows[0]))
      db.query(pg.statement('SELECT message FROM fortune WHERE id IN (8, 12) ORDER BY id'), [], (err, rows) => finish({ answers, fortunes: rows }))
    })
  `)
  assert.deepEqual(result.answers, texts.map(text => [text, [...text].length, Buffer.byteLength(text)]))
  assert.deepEqual(result.fortunes, [[texts[1]], [texts[0]]])
})

// ---- db/just-pg.js ----

const EXPECTED_FORTUNES = '<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr><tr><td>11</td><td>&lt;script&gt;alert(&quot;This should not be displayed in a browser alert box.&quot;);&lt;/script&gt;</td></tr><tr><td>4</td><td>A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1</td></tr><tr><td>5</td><td>A computer program does what you tell it to do, not what you want it to do.</td></tr><tr><td>2</td><td>A computer scientist is someone who fixes things that aren&#39;t broken.</td></tr><tr><td>8</td><td>A list is only as strong as its weakest link. — Donald Knuth</td></tr><tr><td>0</td><td>Additional fortune added at request time.</td></tr><tr><td>3</td><td>After enough decimal places, nobody gives a damn.</td></tr><tr><td>7</td><td>Any program that runs right is obsolete.</td></tr><tr><td>10</td><td>Computers make very fast, very accurate mistakes.</td></tr><tr><td>6</td><td>Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen</td></tr><tr><td>9</td><td>Feature: A bug with seniority.</td></tr><tr><td>1</td><td>fortune: No such file or directory</td></tr><tr><td>12</td><td>フレームワークのベンチマーク</td></tr></table></body></html>'

function freePort () {
  return new Promise((resolve, reject) => {
    const server = net.createServer().on('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

// Starts the server; resolves once it has printed its ready line (or ended).
async function startServer (env) {
  const port = await freePort()
  const child = spawn(HOST, [SERVER, String(port)], { cwd: ROOT, env: { ...process.env, ...database, ...env } })
  const server = { child, port, stdout: '', stderr: '', code: null }
  child.stdout.on('data', chunk => { server.stdout += chunk })
  child.stderr.on('data', chunk => { server.stderr += chunk })
  server.exited = new Promise(resolve => child.on('close', code => resolve((server.code = code))))
  const deadline = Date.now() + 20000
  while (!server.stdout.includes('\n') && server.code === null && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 20))
  return server
}

// Sends raw bytes (requests, possibly pipelined or cut anywhere) and resolves to all the
// connection got back, once `answers` answers have come.
function exchange (port, chunks, answers) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let got = Buffer.alloc(0)
    socket.on('error', reject)
    socket.on('data', bytes => {
      got = Buffer.concat([got, bytes])
      if ((got.toString('latin1').match(/HTTP\/1\.1 /g) || []).length === answers && complete(got)) {
        socket.end()
        resolve(got.toString())
      }
    })
    const send = async () => {
      for (const chunk of chunks) {
        socket.write(chunk)
        await new Promise(resolve => setTimeout(resolve, 30))
      }
    }
    socket.on('connect', send)
  })
}

// Whether the last answer in bytes has all of its body.
function complete (bytes) {
  const text = bytes.toString('latin1')
  const last = text.lastIndexOf('HTTP/1.1 ')
  const headers = text.indexOf('\r\n\r\n', last)
  if (headers < 0) return false
  return bytes.length - headers - 4 >= Number(/Content-Length: (\d+)/.exec(text.slice(last, headers))[1])
}

test('db/just-pg.js answers /db, /queries and /fortunes in all four DB_PREPARED x DB_PIPELINE combinations, in order, and exits 0 on SIGTERM', async t => {
  if (!needsDatabase(t)) return
  for (const prepared of ['1', '0']) {
    for (const pipeline of ['1', '0']) {
      const combination = `DB_PREPARED=${prepared} DB_PIPELINE=${pipeline}`
      const server = await startServer({ DB_POOL: '3', DB_PREPARED: prepared, DB_PIPELINE: pipeline })
      try {
        assert.equal(server.stdout, `listening 127.0.0.1:${server.port}\n`, `${combination}: ${server.stderr}`)
        const base = `http://127.0.0.1:${server.port}`
        const db = await fetch(`${base}/db`)
        assert.equal(db.headers.get('content-type'), 'application/json')
        const row = await db.json()
        assert.deepEqual(Object.keys(row), ['id', 'randomNumber'])
        assert.ok(row.id >= 1 && row.id <= 10000 && Number.isInteger(row.randomNumber), combination)
        for (const [q, count] of [['', 1], ['?q=', 1], ['?q=abc', 1], ['?q=0', 1], ['?q=-4', 1], ['?q=3', 3], ['?q=20', 20], ['?q=501', 500], ['?q=100000', 500]]) {
          const rows = await (await fetch(`${base}/queries${q}`)).json()
          assert.equal(rows.length, count, `${combination} /queries${q}`)
          for (const row of rows) assert.ok(row.id >= 1 && row.id <= 10000 && Number.isInteger(row.randomNumber))
        }
        const fortunes = await fetch(`${base}/fortunes`)
        assert.equal(fortunes.headers.get('content-type'), 'text/html; charset=utf-8')
        assert.equal(await fortunes.text(), EXPECTED_FORTUNES, combination)
        const missing = await fetch(`${base}/nope`)
        assert.equal(missing.status, 404)
        assert.equal(await missing.text(), '')
        // pipelined, and a request cut in two
        const raw = await exchange(server.port, ['GET /queries?q=2 HTTP/1.1\r\nHost: x\r\n\r\nGET /nope HTTP/1.1\r\n\r\nGET /fortunes HTTP/1.1\r\n\r\nGET /d', 'b HTTP/1.1\r\n\r\n'], 4)
        const answers = raw.split(/(?=HTTP\/1\.1 )/)
        assert.deepEqual(answers.map(answer => answer.split('\r\n')[0]), ['HTTP/1.1 200 OK', 'HTTP/1.1 404 Not Found', 'HTTP/1.1 200 OK', 'HTTP/1.1 200 OK'])
        assert.equal(JSON.parse(answers[0].split('\r\n\r\n')[1]).length, 2)
        assert.ok(answers[2].endsWith(EXPECTED_FORTUNES))
        assert.match(answers[3], /\r\n\r\n\{"id":\d+,"randomNumber":\d+\}$/)
      } finally {
        server.child.kill('SIGTERM')
      }
      assert.equal(await server.exited, 0, combination)
      assert.equal(server.stderr, '')
    }
  }
})

test('db/just-pg.js: a lost database connection ends it with one line, exit 1', async t => {
  if (!needsDatabase(t)) return
  const server = await startServer({ DB_POOL: '2', DB_PREPARED: '1', DB_PIPELINE: '1' })
  assert.match(server.stdout, /^listening /, server.stderr)
  const terminated = await client(t, 'terminate-server.js', `
    const backends = pg.statement('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1')
    open({}, db => db.query(backends, ['just-pg ${server.child.pid}'], (err, rows) => finish(err ? err.message : rows)))
  `)
  // both of its backends were asked to end; the server exits on the first loss, and its
  // other backend may then be gone before its own termination comes (false)
  assert.equal(terminated.length, 2)
  assert.ok(terminated.some(([ended]) => ended === true), JSON.stringify(terminated))
  assert.equal(await server.exited, 1)
  assert.equal(server.stderr, 'just-pg: database connection lost: terminating connection due to administrator command\n')
})

test('db/just-pg.js: a database it cannot reach is one line, exit 1; settings it cannot use, exit 2', async t => {
  if (!needsDatabase(t)) return
  const unreachable = await startServer({ PGHOST: dir, DB_POOL: '2', DB_PREPARED: '1', DB_PIPELINE: '1' })
  assert.equal(await unreachable.exited, 1)
  assert.equal(unreachable.stdout, '')
  assert.equal(unreachable.stderr, `just-pg: database: ${dir}/.s.PGSQL.${database.PGPORT}: connect: No such file or directory\n`)
  for (const env of [{ DB_POOL: '0' }, { DB_POOL: 'x' }, { DB_PREPARED: 'yes' }, { DB_PIPELINE: '' }]) {
    const refused = await startServer({ DB_POOL: '2', DB_PREPARED: '1', DB_PIPELINE: '1', ...env })
    assert.equal(await refused.exited, 2, JSON.stringify(env))
    assert.equal(refused.stderr, 'just-pg: PGHOST must be set, DB_POOL a count, DB_PREPARED and DB_PIPELINE 0 or 1\n')
  }
})
