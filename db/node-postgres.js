// Node with postgres.js behind node:http: TechEmpower's /db, /queries and /fortunes.
// Usage: node db/node-postgres.js PORT, with PGHOST (the Unix socket's folder), PGPORT, PGUSER,
// PGDATABASE, DB_POOL, DB_PREPARED and DB_PIPELINE set; prints "listening 127.0.0.1:PORT"
// once every connection is open and, when prepared, has parsed both statements.
// postgres.js pipelines by default: a connection takes new queries while fewer than max_pipeline
// wait behind the one running (node_modules/postgres/cjs/src/connection.js, execute()), so
// max_pipeline: 0 means one query in flight. It cannot pipeline unprepared queries: with
// prepare: false a query with parameters is sent as Parse/Describe/Flush, its Bind/Execute/Sync
// only once the parameter types come back, and execute() closes the connection to other queries
// until it is answered (build(): describeFirst). So DB_PREPARED=0 with DB_PIPELINE=1 is refused.
const http = require('node:http')
const postgres = require('postgres')

const port = Number(process.argv[2])
const { PGHOST, PGPORT, PGUSER, PGDATABASE, DB_POOL, DB_PREPARED, DB_PIPELINE } = process.env
const poolSize = Number(DB_POOL)
if (!(poolSize >= 1) || !/^[01]$/.test(DB_PREPARED) || !/^[01]$/.test(DB_PIPELINE)) {
  console.error('node-postgres: DB_POOL must be a count, DB_PREPARED and DB_PIPELINE 0 or 1')
  process.exit(2)
}
const prepared = DB_PREPARED === '1'
const pipelined = DB_PIPELINE === '1'
if (pipelined && !prepared) {
  console.error('node-postgres: DB_PREPARED=0 with DB_PIPELINE=1 cannot run: postgres.js ' +
    'waits for each unprepared query\'s parameter types before sending the next')
  process.exit(2)
}

function fail (error) {
  console.error(`node-postgres: database: ${error.message}`)
  process.exit(1)
}

// postgres.js reconnects on its own; a lost connection must fail the run instead. Connections
// live for the whole run: no idle timeout (its default) and no maximum lifetime.
let ending = false
const sql = postgres({
  path: `${PGHOST}/.s.PGSQL.${PGPORT}`,
  user: PGUSER,
  database: PGDATABASE,
  max: poolSize,
  prepare: prepared,
  max_pipeline: pipelined ? 100 : 0,
  max_lifetime: null,
  onclose: () => ending || fail(new Error('a connection closed'))
})

const worldRow = id => sql`SELECT id, randomnumber FROM world WHERE id = ${id}`
const fortuneRows = () => sql`SELECT id, message FROM fortune`

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

const json = value => ['application/json', JSON.stringify(value)]
const routes = {
  '/db': async () => json(await world()),
  '/queries': async search => json(await Promise.all(Array.from({ length: count(search) }, world))),
  '/fortunes': async () => ['text/html; charset=utf-8', fortunesPage(await fortuneRows())]
}

const server = http.createServer((request, response) => {
  const [path, search] = request.url.split('?')
  const route = routes[path]
  if (!route) {
    response.writeHead(404, { 'Content-Length': 0 }).end()
    return
  }
  route(search).then(([type, text]) => {
    const body = Buffer.from(text)
    response.writeHead(200, { 'Content-Type': type, 'Content-Length': body.length })
    response.end(body)
  }, fail)
})

// Connections open lazily, one per query while none is idle: poolSize queries at once open
// them all, and a second round finds each idle in turn, so both statements reach every one.
async function start () {
  await Promise.all(Array.from({ length: poolSize }, () => worldRow(1)))
  await Promise.all(Array.from({ length: poolSize }, fortuneRows))
  process.on('SIGTERM', async () => {
    ending = true
    await sql.end()
    process.exit(0)
  })
  server.listen(port, '127.0.0.1', () => console.log(`listening 127.0.0.1:${port}`))
}

start().catch(error => {
  console.error(`node-postgres: cannot connect to ${PGHOST}/.s.PGSQL.${PGPORT}: ${error.message}`)
  process.exit(1)
})
