// Bun with its built-in Bun.SQL behind Bun.serve: TechEmpower's /db, /queries and /fortunes.
// Usage: bun db/bun.js PORT, with PGHOST (the Unix socket's folder), PGPORT, PGUSER,
// PGDATABASE, DB_POOL, DB_PREPARED and DB_PIPELINE set; prints "listening 127.0.0.1:PORT"
// once every connection is open and, when prepared, has parsed both statements.
// Bun.SQL pipelines prepared queries on a connection and never unnamed ones: prepare: false
// makes its connections use the unnamed statement, which its canPipeline() refuses (Bun's
// src/sql/postgres/PostgresSQLConnection.zig). The one switch for prepared queries is the
// environment variable BUN_FEATURE_FLAG_DISABLE_SQL_AUTO_PIPELINING=1, read only as Bun starts,
// so DB_PREPARED=1 DB_PIPELINE=0 runs when Bun was started with it, and is refused otherwise;
// DB_PREPARED=0 DB_PIPELINE=1 is refused.
const port = Number(Bun.argv[2])
const { PGHOST, PGPORT, PGUSER, PGDATABASE, DB_POOL, DB_PREPARED, DB_PIPELINE } = process.env
const poolSize = Number(DB_POOL)
if (!(poolSize >= 1) || !/^[01]$/.test(DB_PREPARED) || !/^[01]$/.test(DB_PIPELINE)) {
  console.error('bun: DB_POOL must be a count, DB_PREPARED and DB_PIPELINE 0 or 1')
  process.exit(2)
}
const prepared = DB_PREPARED === '1'
const pipelined = DB_PIPELINE === '1'
const pipeliningOff = process.env.BUN_FEATURE_FLAG_DISABLE_SQL_AUTO_PIPELINING === '1'
if (pipelined && !prepared) {
  console.error('bun: DB_PREPARED=0 with DB_PIPELINE=1 cannot run: Bun.SQL never pipelines unnamed statements')
  process.exit(2)
}
if (prepared && pipelined === pipeliningOff) {
  console.error(`bun: DB_PREPARED=1 with DB_PIPELINE=${DB_PIPELINE} needs Bun started with` +
    ` BUN_FEATURE_FLAG_DISABLE_SQL_AUTO_PIPELINING=${pipelined ? 'unset' : '1'}`)
  process.exit(2)
}

function fail (error) {
  console.error(`bun: database: ${error.message}`)
  process.exit(1)
}

// Bun.SQL reopens lost connections on its own; losing one must fail the run instead. It also
// retries an unreachable server for connectionTimeout seconds (30 by default) before failing.
// Connections live for the whole run, idle or not: a run keeps its servers waiting while
// the others are measured.
let ending = false
const sql = new Bun.SQL({
  path: `${PGHOST}/.s.PGSQL.${PGPORT}`,
  username: PGUSER,
  database: PGDATABASE,
  max: poolSize,
  prepare: prepared,
  connectionTimeout: 5,
  idleTimeout: 0,
  maxLifetime: 0,
  onclose: error => ending || fail(error ?? new Error('a connection closed'))
})

const worldRow = (id, db = sql) => db`SELECT id, randomnumber FROM world WHERE id = ${id}`
const fortuneRows = (db = sql) => db`SELECT id, message FROM fortune`

async function world () {
  const [row] = await worldRow(1 + Math.floor(Math.random() * 10000))
  return { id: row.id, randomNumber: row.randomnumber }
}

function count (search) {
  return Math.min(500, Math.max(1, parseInt(new URLSearchParams(search).get('q'), 10) || 1))
}

const escapes = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const escape = text => text.replace(/[&<>"']/g, c => escapes[c])

function fortunesPage (fortunes) {
  fortunes.push({ id: 0, message: 'Additional fortune added at request time.' })
  fortunes.sort((a, b) => a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  return '<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table>' +
    '<tr><th>id</th><th>message</th></tr>' +
    fortunes.map(f => `<tr><td>${f.id}</td><td>${escape(f.message)}</td></tr>`).join('') +
    '</table></body></html>'
}

const json = value => new Response(JSON.stringify(value), { headers: { 'Content-Type': 'application/json' } })
// a failed query fails the run, as every server's does
const guarded = handler => request => handler(request).catch(fail)
// Bun.serve's own router (Bun 1.2.3+), its documentation's way to route, matched in native
// code (bun.com/docs/runtime/http/routing); what no route matches goes to fetch, a 404
const routes = {
  '/db': guarded(async () => json(await world())),
  '/queries': guarded(async request =>
    json(await Promise.all(Array.from({ length: count(new URL(request.url).search) }, world)))),
  '/fortunes': guarded(async () => new Response(fortunesPage(await fortuneRows()), {
    headers: { 'Content-Type': 'text/html; charset=utf-8' }
  }))
}

// A reserved connection is held by one caller alone, so poolSize reservations at once are
// poolSize distinct connections, each given both statements before the pool gets them back.
const connections = await Promise.all(Array.from({ length: poolSize }, () => sql.reserve()))
  .catch(error => {
    console.error(`bun: cannot connect to ${PGHOST}/.s.PGSQL.${PGPORT}: ${error.message}`)
    process.exit(1)
  })
for (const connection of connections) {
  await worldRow(1, connection)
  await fortuneRows(connection)
  connection.release()
}

Bun.serve({
  hostname: '127.0.0.1',
  port,
  routes,
  fetch: () => new Response(null, { status: 404 })
})
console.log(`listening 127.0.0.1:${port}`)
process.on('SIGTERM', async () => {
  ending = true
  await sql.close()
  process.exit(0)
})
