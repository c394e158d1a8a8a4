// Node with pg (node-postgres) behind node:http: TechEmpower's /db, /queries and /fortunes.
// Usage: node db/node-pg.js PORT, with PGHOST (the Unix socket's folder), PGPORT, PGUSER,
// PGDATABASE, DB_POOL, DB_PREPARED and DB_PIPELINE set; prints "listening 127.0.0.1:PORT"
// once every connection is open and, when prepared, has parsed both statements.
// Every combination runs. pg sends one query at a time per client unless the client is built
// with { pipeline: true } (node_modules/pg/lib/client.js: _pulseQueryQueue sends the next query
// only once readyForQuery; _pulsePipelinedQueryQueue submits all queued ones). A Pool hands each
// query a client of its own, so pipelining means holding the clients and sharing them out.
const http = require('node:http')
const pg = require('pg')

const port = Number(process.argv[2])
const { PGHOST, PGPORT, PGUSER, PGDATABASE, DB_POOL, DB_PREPARED, DB_PIPELINE } = process.env
const poolSize = Number(DB_POOL)
if (!(poolSize >= 1) || !/^[01]$/.test(DB_PREPARED) || !/^[01]$/.test(DB_PIPELINE)) {
  console.error('node-pg: DB_POOL must be a count, DB_PREPARED and DB_PIPELINE 0 or 1')
  process.exit(2)
}
const prepared = DB_PREPARED === '1'
const pipelined = DB_PIPELINE === '1'

function fail (error) {
  console.error(`node-pg: database: ${error.message}`)
  process.exit(1)
}

// A named query is parsed once per client; an unnamed one on every call. pg sends a query
// without values as a simple Query unless told to use the extended protocol.
const worldText = 'SELECT id, randomnumber FROM world WHERE id = $1'
const fortuneText = 'SELECT id, message FROM fortune'
const worldQuery = id => prepared
  ? { name: 'world', text: worldText, values: [id] }
  : { text: worldText, values: [id] }
const fortuneQuery = prepared
  ? { name: 'fortune', text: fortuneText }
  : { text: fortuneText, queryMode: 'extended' }

// Idle clients are never closed: every connection stays open, and prepared, for the run.
const pool = new pg.Pool({
  host: PGHOST,
  port: PGPORT,
  user: PGUSER,
  database: PGDATABASE,
  max: poolSize,
  idleTimeoutMillis: 0,
  pipeline: pipelined
})
pool.on('error', fail)
pool.on('connect', client => client.on('error', fail))
let query

async function world () {
  const { rows: [row] } = await query(worldQuery(1 + Math.floor(Math.random() * 10000)))
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
  '/fortunes': async () => ['text/html; charset=utf-8', fortunesPage((await query(fortuneQuery)).rows)]
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

async function start () {
  const clients = await Promise.all(Array.from({ length: poolSize }, () => pool.connect()))
  if (prepared) {
    for (const client of clients) {
      await client.query(worldQuery(1))
      await client.query(fortuneQuery)
    }
  }
  if (pipelined) {
    let next = 0
    query = config => clients[next++ % poolSize].query(config)
  } else {
    for (const client of clients) client.release()
    query = config => pool.query(config)
  }
  process.on('SIGTERM', async () => {
    if (pipelined) for (const client of clients) client.release()
    await pool.end()
    process.exit(0)
  })
  server.listen(port, '127.0.0.1', () => console.log(`listening 127.0.0.1:${port}`))
}

start().catch(error => {
  console.error(`node-pg: cannot connect to ${PGHOST}/.s.PGSQL.${PGPORT}: ${error.message}`)
  process.exit(1)
})
