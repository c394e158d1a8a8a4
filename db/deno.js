// Deno with postgres.js from npm behind Deno.serve: TechEmpower's /db, /queries and /fortunes.
// Usage, from the project root:
//   deno run --no-lock --cached-only --allow-net --allow-env --allow-read --allow-write db/deno.js PORT
// with PGHOST (the Unix socket's folder), PGPORT, PGUSER, PGDATABASE, DB_POOL, DB_PREPARED and
// DB_PIPELINE set; prints "listening 127.0.0.1:PORT" once every connection is open and, when
// prepared, has parsed both statements. 'postgres' resolves through package.json to the
// node_modules npm installed, so nothing is fetched (--cached-only) nor written (--no-lock);
// connecting to a Unix socket takes --allow-read and --allow-write.
// The same client as node-postgres.js, so the same combinations: max_pipeline: 0 is one query
// in flight, and DB_PREPARED=0 with DB_PIPELINE=1 is refused, for postgres.js sends an unprepared
// query's Bind/Execute/Sync only once its parameter types come back, taking no other query
// meanwhile (node_modules/postgres/src/connection.js, build(): describeFirst; execute()).
import postgres from 'postgres'

const port = Number(Deno.args[0])
const { PGHOST, PGPORT, PGUSER, PGDATABASE, DB_POOL, DB_PREPARED, DB_PIPELINE } = Deno.env.toObject()
const poolSize = Number(DB_POOL)
if (!(poolSize >= 1) || !/^[01]$/.test(DB_PREPARED) || !/^[01]$/.test(DB_PIPELINE)) {
  console.error('deno: DB_POOL must be a count, DB_PREPARED and DB_PIPELINE 0 or 1')
  Deno.exit(2)
}
const prepared = DB_PREPARED === '1'
const pipelined = DB_PIPELINE === '1'
if (pipelined && !prepared) {
  console.error('deno: DB_PREPARED=0 with DB_PIPELINE=1 cannot run: postgres.js ' +
    'waits for each unprepared query\'s parameter types before sending the next')
  Deno.exit(2)
}

function fail (error) {
  console.error(`deno: database: ${error.message}`)
  Deno.exit(1)
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

const json = value => new Response(JSON.stringify(value), { headers: { 'Content-Type': 'application/json' } })
const routes = {
  '/db': async () => json(await world()),
  '/queries': async search => json(await Promise.all(Array.from({ length: count(search) }, world))),
  '/fortunes': async () => new Response(fortunesPage(await fortuneRows()), {
    headers: { 'Content-Type': 'text/html; charset=utf-8' }
  })
}

// Connections open lazily, one per query while none is idle: poolSize queries at once open
// them all, and a second round finds each idle in turn, so both statements reach every one.
try {
  await Promise.all(Array.from({ length: poolSize }, () => worldRow(1)))
  await Promise.all(Array.from({ length: poolSize }, fortuneRows))
} catch (error) {
  console.error(`deno: cannot connect to ${PGHOST}/.s.PGSQL.${PGPORT}: ${error.message}`)
  Deno.exit(1)
}

Deno.serve({
  hostname: '127.0.0.1',
  port,
  onListen: () => console.log(`listening 127.0.0.1:${port}`)
}, request => {
  const url = new URL(request.url)
  const route = routes[url.pathname]
  return route ? route(url.search).catch(fail) : new Response(null, { status: 404 })
})
Deno.addSignalListener('SIGTERM', async () => {
  ending = true
  await sql.end()
  Deno.exit(0)
})
