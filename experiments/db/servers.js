'use strict'
// The db experiment's servers: one listing per client in db/, each run as the variants
// its client allows (named prepared statements or the unnamed one parsed on every query;
// many queries in flight on a connection or one), one row each. Every server follows the
// contract of docs/db.md: it answers /db, /queries?q=N and /fortunes from the database
// the environment names (PGHOST, PGPORT, PGUSER, PGDATABASE), opens DB_POOL connections
// before it prints "listening 127.0.0.1:PORT", and exits 0 on SIGTERM.
const { unavailableReason } = require('../../lib/rows')
const { shellQuote } = require('../../lib/pipeline')
const { serverArgv, loadReason } = require('../http/servers')
const { postgresReason } = require('./postgres')

// Each client with the variants it allows, [prepared, pipelined] pairs, and why it allows
// no others (docs/db-clients.md has the sources read).
const BOTH = [[true, true], [true, false], [false, true], [false, false]]
// postgres.js sends an unnamed statement's Parse/Describe and waits for its types before
// its Bind/Execute/Sync: an unnamed query is never pipelined.
const NO_UNNAMED_PIPELINE = [[true, true], [true, false], [false, false]]
const clients = [
  {
    server: 'c-libpq',
    runtime: 'native',
    file: 'db/c-libpq.c',
    command: ['{build}/db-c-libpq', '{port}'],
    built: ['libpq/libpq.a'],
    variants: BOTH,
    note: 'the floor: one thread, epoll, libpq 18 (db/libpq) non-blocking, its pipeline mode ' +
      'when pipelined'
  },
  {
    server: 'just-pg',
    runtime: 'just',
    file: 'db/just-pg.js',
    command: ['{runtime}', '{v8flags}', '{file}', '{port}'],
    variants: BOTH,
    needs: ['net.connect', 'factory.loop'],
    note: 'just-epoll with the lab\'s own PostgreSQL wire client in JavaScript (db/pg.js)'
  },
  {
    server: 'node-pg',
    runtime: 'node',
    file: 'db/node-pg.js',
    command: ['{runtime}', '{v8flags}', '{file}', '{port}'],
    variants: BOTH,
    note: 'node:http and pg (its pipeline option when pipelined)'
  },
  {
    server: 'node-postgres',
    runtime: 'node',
    file: 'db/node-postgres.js',
    command: ['{runtime}', '{v8flags}', '{file}', '{port}'],
    variants: NO_UNNAMED_PIPELINE,
    note: 'node:http and postgres.js'
  },
  // Bun.sql pipelines a prepared query unless told otherwise by a variable it reads at
  // start, and never pipelines an unnamed one
  {
    server: 'bun',
    runtime: 'bun',
    file: 'db/bun.js',
    command: ['{runtime}', '{file}', '{port}'],
    variants: NO_UNNAMED_PIPELINE,
    serialEnv: { BUN_FEATURE_FLAG_DISABLE_SQL_AUTO_PIPELINING: '1' },
    note: 'Bun.serve and Bun.sql'
  },
  {
    server: 'deno',
    runtime: 'deno',
    file: 'db/deno.js',
    command: [
      '{runtime}', 'run', '{v8flags}', '--no-lock', '--cached-only', '--allow-net', '--allow-env',
      '--allow-read', '--allow-write', '{file}', '{port}'
    ],
    variants: NO_UNNAMED_PIPELINE,
    note: 'Deno.serve and postgres.js from npm'
  }
]

const variantName = (prepared, pipelined) => `${prepared ? 'prepared' : 'unnamed'}-${pipelined ? 'pipelined' : 'serial'}`

// A client's first variant is its lead, the one /fortunes is measured with (rendering
// a page costs the same whichever statement fetched its rows). Unnamed statements one at
// a time run only when --only asks for them, where the client also pipelines them: the
// other three variants already answer both questions, prepared or not and pipelined or not.
const servers = clients.flatMap(({ variants, serialEnv = {}, ...client }) => variants.map(([prepared, pipelined], index) => ({
  ...client,
  name: `${client.server}-${variantName(prepared, pipelined)}`,
  prepared,
  pipelined,
  lead: index === 0,
  optional: !prepared && !pipelined && variants.some(([p, q]) => !p && q),
  env: { DB_PREPARED: prepared ? '1' : '0', DB_PIPELINE: pipelined ? '1' : '0', ...(prepared && !pipelined ? serialEnv : {}) }
})))

// The server every other is set against: C with libpq, prepared and pipelined.
const REFERENCE = 'c-libpq-prepared-pipelined'

// Why a server cannot run here, or null: its runtime, wrk, or PostgreSQL missing.
const serverReason = server => unavailableReason(server) ?? loadReason() ?? postgresReason()

function listing () {
  return servers.map(server => {
    const reason = serverReason(server)
    const env = Object.entries(server.env).map(([name, value]) => `${name}=${value}`).join(' ')
    return { name: server.name, runtime: server.runtime, available: reason === null, unavailable: reason, kind: server.note, command: `${env} ${shellQuote(serverArgv(server, '{port}'))}` }
  })
}

module.exports = { servers, clients, REFERENCE, serverReason, listing, variantName }
