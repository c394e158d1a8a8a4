'use strict'
// The db experiment (experiments/db/) in this process: the fortunes page and the rules
// of /queries, the answer checks naming the first difference, the summary's arithmetic
// (CPU per request by process, against the reference, the variants' ratios, syscalls per
// request of server and backends) against hand-computed numbers, its options and the
// command that measures a failed cell again.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')

const { fortunesHtml, queriesCount, escapeHtml, FORTUNES } = require('../../experiments/db/expected')
const { firstDifference } = require('../../experiments/db/check')
const { summariseDb } = require('../../experiments/db/summary')
const { dbRepeatability } = require('../../experiments/db/repeatability')
const { servers, REFERENCE } = require('../../experiments/db/servers')
const { unavailableReason } = require('../../lib/rows')
const { BUILD } = require('../../lib/paths')
const { planDb, PRESETS, connectionsAtOnce } = require('../../experiments/db/measure')
const { TIMED_RATES } = require('../../experiments/http/oha')
const db = require('../../experiments/db')
const { parseOptions } = require('../../bench')
const { benchOptions } = require('../../lib/bench-options')

// TechEmpower's page, as its verifier holds it, with the two escapes it leaves open
// (" and ') fixed to &quot; and &#39;.
const EXPECTED_FORTUNES = '<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr><tr><td>11</td><td>&lt;script&gt;alert(&quot;This should not be displayed in a browser alert box.&quot;);&lt;/script&gt;</td></tr><tr><td>4</td><td>A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1</td></tr><tr><td>5</td><td>A computer program does what you tell it to do, not what you want it to do.</td></tr><tr><td>2</td><td>A computer scientist is someone who fixes things that aren&#39;t broken.</td></tr><tr><td>8</td><td>A list is only as strong as its weakest link. — Donald Knuth</td></tr><tr><td>0</td><td>Additional fortune added at request time.</td></tr><tr><td>3</td><td>After enough decimal places, nobody gives a damn.</td></tr><tr><td>7</td><td>Any program that runs right is obsolete.</td></tr><tr><td>10</td><td>Computers make very fast, very accurate mistakes.</td></tr><tr><td>6</td><td>Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen</td></tr><tr><td>9</td><td>Feature: A bug with seniority.</td></tr><tr><td>1</td><td>fortune: No such file or directory</td></tr><tr><td>12</td><td>フレームワークのベンチマーク</td></tr></table></body></html>'

test('the fortunes page: all twelve rows and the added one, sorted, escaped, exactly', () => {
  assert.equal(FORTUNES.length, 12)
  assert.equal(fortunesHtml(), EXPECTED_FORTUNES)
  assert.equal(escapeHtml('a & b < c > d " e \' f — フ'), 'a &amp; b &lt; c &gt; d &quot; e &#39; f — フ')
})

test('/queries?q=: missing, zero, below one or not a number is 1; above 500 is 500', () => {
  for (const [text, count] of [['20', 20], ['1', 1], ['0', 1], ['-3', 1], ['abc', 1], ['', 1], [undefined, 1], ['500', 500], ['501', 500], ['99999', 500]]) assert.equal(queriesCount(text), count, String(text))
})

test('a difference is named where it starts, with a little of each side', () => {
  const unescaped = EXPECTED_FORTUNES.replace('&lt;script&gt;', '<script>')
  const at = EXPECTED_FORTUNES.indexOf('&lt;script')
  assert.match(firstDifference(unescaped, EXPECTED_FORTUNES), new RegExp(`^they differ at character ${at}: got ".*<script>alert.*", expected ".*&lt;script&gt;.*"$`))
})

test('the servers\' table: each client\'s variants, the reference among them, and names that say the variant', () => {
  assert.ok(servers.some(server => server.name === REFERENCE && server.prepared && server.pipelined))
  for (const server of servers) {
    assert.equal(server.name, `${server.server}-${server.prepared ? 'prepared' : 'unnamed'}-${server.pipelined ? 'pipelined' : 'serial'}`)
    assert.deepEqual({ DB_PREPARED: server.env.DB_PREPARED, DB_PIPELINE: server.env.DB_PIPELINE }, { DB_PREPARED: server.prepared ? '1' : '0', DB_PIPELINE: server.pipelined ? '1' : '0' })
  }
  assert.equal(new Set(servers.map(server => server.name)).size, servers.length)
})

test('C\'s server without its libpq 18 says cargo builds it, before saying the server is not built', () => {
  const floor = servers.find(server => server.name === REFERENCE)
  assert.deepEqual(floor.built, ['libpq/libpq.a'])
  const unbuilt = { ...floor, built: ['no-such-libpq/libpq.a'] }
  assert.equal(unavailableReason(unbuilt), `${path.join(BUILD, 'no-such-libpq/libpq.a')} is not built: make ` +
    'builds it with cargo 1.63 or newer (./setup.sh, as root, installs Debian\'s cargo-web where there is no ' +
    'cargo, then runs make)')
})

// Four runs of a cell: the server's, the backends', the upkeep's, wrk's and the rest's CPU
// in ns per run, and the requests each run completed.
function runs (server, endpoint, {
  serverNs, backendNs, requests = 10000, rate = 10000, failed = 0, minorFaults = null
}) {
  return serverNs.map((ns, run) => ({
    phase: 'db',
    program: server,
    endpoint,
    connections: 64,
    run,
    ok: run >= failed,
    failure: run >= failed ? null : 'the server exited during the run',
    wallNs: 1e9,
    pool: 4,
    wrk: { requests, requestsPerSecond: rate + run, latencyUs: { p50: 100, p99: 900 + run, max: 2000 } },
    server: { cpuNs: ns, threads: 1, maxRssKiB: 4096, ...(minorFaults ? { minorFaults: minorFaults[run] } : {}) },
    backends: { cpuNs: backendNs[run], processes: 4 },
    databaseUpkeep: { cpuNs: 1000 },
    wrkCpuNs: 50e6,
    restCpuNs: -5e6,
    warmupAgreed: true
  }))
}

const strace = (server, endpoint, requests, serverCalls, backendCalls) => ({
  phase: 'db-strace',
  program: server,
  endpoint,
  connections: 16,
  requests,
  run: 0,
  ok: true,
  server: { syscalls: serverCalls, totalCalls: serverCalls.reduce((sum, call) => sum + call.calls, 0) },
  backends: { syscalls: backendCalls, totalCalls: backendCalls.reduce((sum, call) => sum + call.calls, 0) }
})

test('the summary: CPU per request by process, the server\'s against the reference\'s, the variants\' ratios, syscalls per request', () => {
  const records = [
    // the reference: 10 µs of server CPU a request (1e8 ns over 10,000), 20 µs of backends
    ...runs(REFERENCE, 'db', { serverNs: [1.0e8, 1.0e8, 1.0e8, 1.0e8], backendNs: [2e8, 2e8, 2e8, 2e8] }),
    // the unnamed statement: 12 µs and 30 µs a request, 0.5 to 0.8 page faults a request
    ...runs('c-libpq-unnamed-pipelined', 'db', {
      serverNs: [1.2e8, 1.2e8, 1.2e8, 1.2e8], backendNs: [3e8, 3e8, 3e8, 3e8], minorFaults: [5000, 6000, 7000, 8000]
    }),
    // one failed run of four: its three others count
    ...runs('just-pg-prepared-pipelined', 'db', { serverNs: [9e9, 1.05e8, 1.05e8, 1.05e8], backendNs: [2e8, 2e8, 2e8, 2e8], failed: 1 }),
    // the server's calls: 1000 more requests made 4000 more successful sends and
    // receives, 500 more epoll_waits (upkeep) and 100 more failed reads (upkeep)
    strace(REFERENCE, 'db', 1000, [{ name: 'read', calls: 2100, errors: 100 }, { name: 'sendto', calls: 2000, errors: 0 }, { name: 'epoll_wait', calls: 600, errors: 0 }], [{ name: 'recvfrom', calls: 1000, errors: 0 }, { name: 'sendto', calls: 1000, errors: 0 }]),
    strace(REFERENCE, 'db', 2000, [{ name: 'read', calls: 4200, errors: 200 }, { name: 'sendto', calls: 4000, errors: 0 }, { name: 'epoll_wait', calls: 1100, errors: 0 }], [{ name: 'recvfrom', calls: 1500, errors: 0 }, { name: 'sendto', calls: 1500, errors: 0 }])
  ]
  const summary = summariseDb(records, { options: { db: PRESETS.default } })
  const cell = name => summary.cells.find(item => item.server === name)
  const reference = cell(REFERENCE)
  assert.equal(reference.runs, 4)
  assert.deepEqual(reference.cpuPerRequestUs, { server: 10, backends: 20, databaseUpkeep: 0.0001, wrk: 5, rest: 0 })
  assert.equal(reference.serverVsReference, null)
  assert.equal(reference.queries, 1)
  assert.equal(reference.pool, 4)
  // 1e8 ns over 1 s of wrk's wall time: the server used a tenth of its CPU
  assert.equal(reference.serverCpuShare, 0.1)
  assert.equal(reference.clientBound, true)
  const unnamed = cell('c-libpq-unnamed-pipelined')
  assert.ok(Math.abs(unnamed.serverVsReference.estimate - 1.2) < 1e-12)
  // the server's page faults a request, the median of its runs'; none where runs counted none
  assert.ok(Math.abs(unnamed.faultsPerRequest - 0.65) < 1e-12, unnamed.faultsPerRequest)
  assert.equal(reference.faultsPerRequest, null)
  const host = cell('just-pg-prepared-pipelined')
  assert.equal(host.runs, 3)
  assert.equal(host.failedRuns, 1)
  assert.ok(Math.abs(host.cpuPerRequestUs.server - 10.5) < 1e-9)
  // three runs against four: too few for an interval at its level
  assert.equal(host.serverVsReference, null)
  const prepared = summary.variants.find(entry => entry.question === 'prepared' && entry.client === 'c-libpq')
  assert.equal(prepared.with, REFERENCE)
  assert.equal(prepared.without, 'c-libpq-unnamed-pipelined')
  assert.ok(Math.abs(prepared.server.estimate - 1.2) < 1e-12)
  assert.ok(Math.abs(prepared.backends.estimate - 1.5) < 1e-12)
  assert.deepEqual(prepared.serverUs, [10, 12])
  assert.deepEqual(prepared.unsteady, [])
  // a pair with a cell the answer does not quote: kept, said so in the finding and the table
  const { findings } = require('../../experiments/db/findings')
  const { variantTable } = require('../../experiments/db/report')
  const unsteady = ['c-libpq-unnamed-pipelined']
  const unquoted = { ...summary, variants: summary.variants.map(entry => ({ ...entry, unsteady })) }
  const said = findings([{ label: 'a', results: { db: unquoted } }]).map(finding => finding.text).join('\n')
  assert.doesNotMatch(said, /Parsing every query, \/db: an unnamed statement costs/, 'no range left to give')
  const quoted = findings([{ label: 'a', results: { db: summary } }]).map(finding => finding.text).join('\n')
  assert.match(quoted, /Parsing every query, \/db: an unnamed statement costs the servers 120% \(c-libpq\)/)
  const { rows } = variantTable([{ label: 'a', results: { db: unquoted } }])
  assert.deepEqual(rows.find(row => row[0] === 'c-libpq').slice(1, 3),
    ['not quoted: c-libpq-unnamed-pipelined not steady', ''])
  const [calls] = summary.syscalls
  assert.equal(calls.server, REFERENCE)
  assert.equal(calls.endpoint, 'db')
  assert.deepEqual(calls.requests, { small: 1000, large: 2000 })
  assert.equal(calls.self.work, 4)
  assert.equal(calls.self.upkeep, 0.6)
  assert.equal(calls.backends.work, 1)
  assert.equal(calls.backends.upkeep, 0)
})

test('the kernel pass: the server\'s calls and its backends\' per request at full speed, each beside strace\'s', () => {
  const kernelRun = {
    phase: 'db-kernel',
    program: REFERENCE,
    endpoint: 'db',
    connections: 64,
    run: 0,
    ok: true,
    kernel: {
      requests: 1000,
      server: { requests: 1000, syscalls: [{ name: 'read', calls: 1000, errors: 0, p50Ns: 900 }, { name: 'sendto', calls: 1000, errors: 0, p50Ns: 1500 }, { name: 'epoll_wait', calls: 1000, errors: 0, p50Ns: 800 }] },
      backends: { requests: 1000, syscalls: [{ name: 'recvfrom', calls: 800, errors: 0, p50Ns: 1200 }, { name: 'sendto', calls: 1000, errors: 0, p50Ns: 1300 }, { name: 'epoll_wait', calls: 400, errors: 0, p50Ns: 3000 }] }
    }
  }
  const records = [
    ...runs(REFERENCE, 'db', { serverNs: [1e8, 1e8, 1e8, 1e8], backendNs: [2e8, 2e8, 2e8, 2e8] }),
    strace(REFERENCE, 'db', 1000, [{ name: 'read', calls: 2000, errors: 0 }, { name: 'sendto', calls: 2000, errors: 0 }], [{ name: 'recvfrom', calls: 2000, errors: 0 }, { name: 'sendto', calls: 1000, errors: 0 }, { name: 'epoll_wait', calls: 1000, errors: 0 }]),
    strace(REFERENCE, 'db', 2000, [{ name: 'read', calls: 3000, errors: 0 }, { name: 'sendto', calls: 3000, errors: 0 }], [{ name: 'recvfrom', calls: 4000, errors: 0 }, { name: 'sendto', calls: 2000, errors: 0 }, { name: 'epoll_wait', calls: 2000, errors: 0 }]),
    kernelRun
  ]
  const { kernel } = summariseDb(records, { options: { db: PRESETS.default } })
  const [server] = kernel.server
  assert.deepEqual([server.where, server.connections, server.work, server.upkeep], ['db', 64, 2, 1])
  // strace's pair: 1000 more requests, 1000 more reads and sends, at its 16 connections
  assert.deepEqual(server.strace, { connections: 16, perRequest: 2, work: 2, upkeep: 0 })
  const [backends] = kernel.backends
  assert.deepEqual([backends.work, backends.upkeep], [1.8, 0.4])
  assert.deepEqual([backends.strace.work, backends.strace.upkeep], [3, 1])
  // wrk's 64 connections over 1000 requests are the server's edges, not the pool's backends'
  assert.deepEqual([server.connectionsPerRequest, backends.connectionsPerRequest], [0.064, null])
  assert.equal(summariseDb(records.slice(0, -1), { options: { db: PRESETS.default } }).kernel, null)
})

test('a run in rounds: each cell against the reference round by round, so that a drift moving both moves no ratio; a run from before rounds is not paired', () => {
  // the machine half as fast again in rounds 1 and 3, for both servers alike
  const drift = [1, 1.5, 1, 1.5]
  const own = [1.06, 1.08, 1.07, 1.09]
  const records = [
    ...runs(REFERENCE, 'db', { serverNs: drift.map(d => 1e8 * d), backendNs: drift.map(d => 2e8 * d) }),
    ...runs('just-pg-prepared-pipelined', 'db', { serverNs: drift.map((d, i) => 1e8 * d * own[i]), backendNs: drift.map(d => 2e8 * d) })
  ]
  const inRounds = summariseDb(records, { options: { db: PRESETS.default }, dbRounds: true })
  const host = inRounds.cells.find(cell => cell.server === 'just-pg-prepared-pipelined')
  const close = (actual, expected) => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} against ${expected}`)
  close(host.serverVsReference.estimate, 1.075)
  close(host.serverVsReference.low, 1.06)
  close(host.serverVsReference.high, 1.09)
  // the range of 4 ratios holds their median unless all 4 lie on one side: 1 - 2 / 16
  assert.equal(host.serverVsReference.level, 0.875)
  // even rounds 1.06 and 1.07, odd 1.08 and 1.09: medians 1.065 and 1.085
  close(host.halves.vsReference.movePercent, (1.085 / 1.065 - 1) * 100)
  // the same runs cell after cell: every run against every run, the drift in the interval
  const before = summariseDb(records, { options: { db: PRESETS.default } }).cells.find(cell => cell.server === 'just-pg-prepared-pipelined')
  assert.ok(before.serverVsReference.low < 0.8 && before.serverVsReference.high > 1.5, JSON.stringify(before.serverVsReference))
  assert.equal(before.halves.vsReference, null)
  // the drift is the machine's speed: both servers' rounds 1.5 apart, each side of their own
  // medians (√1.5 from either, on a log scale) in the same rounds; the runs cell after cell
  // shared no rounds, and say nothing
  const offsets = inRounds.machineSpeed[0].rounds.map(round => round.offset)
  assert.equal(offsets.length, 4, `${offsets}`)
  const expected = [1 / Math.sqrt(1.5) - 1, Math.sqrt(1.5) - 1]
  for (const [i, offset] of offsets.entries()) {
    assert.ok(Math.abs(offset - expected[i % 2]) < 0.01, `${offsets}`)
  }
  assert.deepEqual(summariseDb(records, { options: { db: PRESETS.default } }).machineSpeed, [])
  const twice = dbRepeatability(inRounds, inRounds)
  assert.deepEqual([twice.vsReference.within, twice.vsReference.total, twice.vsReference.met], [1, 1, true])
})

test('a run in turns with the reference: each run against the reference\'s load beside it; what both loads shared split by the time each ran', () => {
  // the machine slower by half in runs 1 and 3, for both loads of a run alike
  const drift = [1, 1.5, 1, 1.5]
  const own = [1.06, 1.08, 1.07, 1.09]
  const host = runs('just-pg-prepared-pipelined', 'db', { serverNs: drift.map((d, i) => 1e8 * d * own[i]), backendNs: drift.map(d => 2e8 * d) })
    .map((run, i) => ({
      ...run,
      // its load ran 0.5 s of the run, the reference's 0.25 s: 5,000 and 2,500 requests
      wrk: { ...run.wrk, requests: 5000 },
      runningNs: 5e8,
      partner: { program: REFERENCE, wrk: { requests: 2500 }, server: { cpuNs: 2.5e7 * drift[i] }, backends: { cpuNs: 5e7 * drift[i] }, runningNs: 2.5e8 }
    }))
  const summary = summariseDb(host, { options: { db: PRESETS.default }, dbRounds: true, dbPlacement: 'interleaved' })
  assert.equal(summary.placement, 'interleaved')
  const cell = summary.cells[0]
  const close = (actual, expected) => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} against ${expected}`)
  // its CPU per request (20 µs × drift × own) over the reference's (10 µs × drift)
  assert.equal(cell.inTurns, true)
  close(cell.serverVsReference.estimate, 2 * 1.075)
  close(cell.serverVsReference.low, 2 * 1.06)
  close(cell.serverVsReference.high, 2 * 1.09)
  close(cell.halves.vsReference.movePercent, (1.085 / 1.065 - 1) * 100)
  // requests/s over the time its load ran: 5,000 in 0.5 s
  assert.deepEqual(cell.rates, [10000, 10000, 10000, 10000])
  // wrk's 50 ms of CPU were both loads': two thirds of it to this one, over its 5,000
  close(cell.cpuPerRequestUs.wrk, 50e6 * (2 / 3) / 5000 / 1000)
  assert.equal(cell.keptRuns, undefined, 'the runs behind the halves stay out of results.json')
  // a run stopped in turns has the stops in its latency: none quoted, as in http
  assert.equal(cell.latencyUs, null)
})

test('where the server\'s CPU went: its utime and stime pooled over its runs, in tables, page and CSV', () => {
  const timed = (records, units, cpuFrom = () => 'schedstat') => records.map((record, i) =>
    ({ ...record, server: { ...record.server, userTicks: units[i][0], systemTicks: units[i][1], cpuFrom: cpuFrom(i) } })
  )
  const nodePg = runs('node-pg-prepared-pipelined', 'db',
    { serverNs: [3e8, 3e8, 3e8, 3e8], backendNs: [2e8, 2e8, 2e8, 2e8] })
  const records = [
    // the reference: a run with a process that began and ended within it
    ...timed(runs(REFERENCE, 'db', { serverNs: [1e8, 1e8, 1e8, 1e8], backendNs: [2e8, 2e8, 2e8, 2e8] }),
      [[1, 9], [1, 9], [1, 9], [1, 9]], i => (i === 3 ? 'ticks' : 'schedstat')),
    // 24 user units of 50 over runs whose own shares (0.9, 0.3, 0.5, 0.35) have a mean of 0.51
    // and a median of 0.43
    ...timed(nodePg, [[9, 1], [3, 7], [5, 5], [7, 13]])
  ]
  const summary = summariseDb(records, { options: { db: PRESETS.default } })
  const cell = name => summary.cells.find(item => item.server === name)
  assert.equal(cell(REFERENCE).serverUserShare, null)
  const { share, cpuSeconds, interval } = cell('node-pg-prepared-pipelined').serverUserShare
  assert.deepEqual([share, cpuSeconds, interval.level], [0.48, 0.5, 0.95])
  assert.match(summary.meaning.serverUserShare, /^where the server's CPU time went .*Wilson's at about 95%/)
  const lines = db.report.terminal({ runId: 'r', db: summary })
  const row = server => lines.filter(line => line.startsWith(`${server} `)).at(-1)
  assert.match(row('node-pg-prepared-pipelined'), / 30, 48% user /)
  assert.doesNotMatch(row(REFERENCE), /user/)
  const sets = [{ label: 'r', results: { runId: 'r', db: summary } }]
  const page = String(db.report.sections.find(([id]) => id === 'db')[2](db.report.shape(sets)))
  assert.match(page, new RegExp('<td class="num" title="48% of the server&#39;s 0.5 s of CPU over these runs ' +
    'was user time, ' +
    '[^"]*; about 95% interval 34.7–61.5%">30<br>\\s*<span class="interval">48% user</span></td>'))
  const { columns, rows } = db.report.csv(db.report.shape(sets))
  const column = name => columns.find(([each]) => each === name)[1]
  const mine = rows.find(each => each.server === 'node-pg-prepared-pipelined')
  assert.deepEqual([column('serverUserShare')(mine), column('serverUserShareCpuSeconds')(mine)], [0.48, 0.5])
})

test('requests per wake-up: wrk\'s requests over the server\'s timeslices, median of the runs, in tables, ' +
  'page and CSV', () => {
  const sliced = (records, slices) =>
    records.map((record, i) => ({ ...record, server: { ...record.server, slices: slices[i] } }))
  const flat = ns => [ns, ns, ns, ns]
  const records = [
    // the reference: a thread ended in one run, so its slices are not known (null)
    ...sliced(runs(REFERENCE, 'db', { serverNs: [1e8, 1e8, 1e8, 1e8], backendNs: [2e8, 2e8, 2e8, 2e8] }),
      [5000, 2500, null, 4000]),
    // 10,000 requests over 100, 200, 400 and 250 slices: 100, 50, 25 and 40 a wake-up
    ...sliced(runs('node-pg-prepared-pipelined', 'db', { serverNs: flat(3e8), backendNs: flat(2e8) }),
      [100, 200, 400, 250]),
    // runs from before slices were counted
    ...runs('bun-prepared-pipelined', 'db', { serverNs: flat(2e8), backendNs: flat(2e8) }),
    ...sliced(runs('deno-prepared-pipelined', 'db', { serverNs: flat(2e8), backendNs: flat(2e8) }),
      [1000, 1000, 1000, 1000])
  ]
  const summary = summariseDb(records, { options: { db: PRESETS.default } })
  const cell = name => summary.cells.find(item => item.server === name)
  const perWakeUp = name => cell(name).requestsPerWakeUp
  assert.deepEqual([REFERENCE, 'node-pg-prepared-pipelined', 'bun-prepared-pipelined'].map(perWakeUp),
    [2.5, 45, null])
  assert.match(summary.meaning.requestsPerWakeUp,
    /^the requests wrk completed over the timeslices .*a different figure/)
  const lines = db.report.terminal({ runId: 'r', db: summary })
  assert.ok(lines.some(line => /^server .* server req\/wake-up +server vs ref\./.test(line)))
  // between the rest's µs (0) and the ratio to C: the figure, or nothing where it is not known
  const row = server => lines.filter(line => line.startsWith(`${server} `)).at(-1)
  assert.match(row('node-pg-prepared-pipelined'), / 0 +45 +300\.0% /)
  assert.match(row('bun-prepared-pipelined'), / 0 +200\.0% /)
  const sets = [{ label: 'r', results: { runId: 'r', db: summary } }]
  const page = String(db.report.sections.find(([id]) => id === 'db')[2](db.report.shape(sets)))
  assert.match(page, /<td class="num">30<br><span class="interval">45 req\/wake-up<\/span><\/td>/)
  assert.match(page, /Requests per wake-up: the requests wrk completed/)
  const said = db.report.shape(sets).findings.map(finding => finding.text)
    .find(text => text.includes('per wake-up'))
  assert.match(said, new RegExp(`/db ${REFERENCE} 2\\.5, against 10 \\(deno-prepared-pipelined\\) to 45 ` +
    '\\(node-pg-prepared-pipelined\\)\\. A server that answers more'))
  // one server beside the reference: its figure alone
  const two = summariseDb(records.slice(0, 8), { options: { db: PRESETS.default } })
  const alone = db.report.shape([{ label: 'r', results: { runId: 'r', db: two } }]).findings
  assert.match(alone.find(finding => finding.text.includes('per wake-up')).text,
    new RegExp(`/db ${REFERENCE} 2\\.5, against 45 \\(node-pg-prepared-pipelined\\)\\. `))
  const { columns, rows } = db.report.csv(db.report.shape(sets))
  const csvColumn = columns.find(([each]) => each === 'serverRequestsPerWakeUp')[1]
  const csvOf = name => csvColumn(rows.find(each => each.server === name))
  assert.deepEqual(['node-pg-prepared-pipelined', 'bun-prepared-pipelined'].map(csvOf),
    [45, null])
})

test('the latency pass at two endpoints: a table each, its runs and rate apart, named where it ran; ' +
  'older runs by mode', () => {
  const latencyMs = { p50: 0.4, p90: 1, p99: 2, p999: 5, max: 9 }
  const record = (program, endpoint, rate) => ({
    phase: 'db-latency',
    program,
    endpoint,
    mode: 'keep-alive',
    connections: 20,
    rateShare: 0.1,
    rate,
    capacity: { program: REFERENCE, requestsPerSecond: rate * 10, connections: 64, from: 'warm-up' },
    seconds: 2,
    pin: { client: 0, server: 1 },
    ok: true,
    failure: null,
    wallNs: 2e9,
    oha: { answered: rate * 2, latencyMs },
    server: { cpuNs: rate * 2 * 20000 },
    ohaCpuNs: rate * 2 * 12000,
    steal: { cpus: [0, 1], ticks: 0, clkTck: 100 },
    gc: { how: null, reason: 'C: no garbage collector' }
  })
  const records = [
    record(REFERENCE, 'db', 4500), record('node-pg-prepared-pipelined', 'db', 4500),
    record(REFERENCE, 'fortunes', 4600), record('node-pg-prepared-pipelined', 'fortunes', 4600)
  ]
  const dbLatency = {
    oha: 'oha 1.11.0', endpoints: ['db', 'fortunes'], connections: [20], rateShares: [0.1], seconds: 2
  }
  const summary = summariseDb(records, { options: { db: PRESETS.default }, dbLatency })
  assert.deepEqual(Object.keys(summary.latency.rates), ['db', 'fortunes'])
  assert.deepEqual(summary.latency.runs.map(run => `${run.endpoint} ${run.server} ${run.rate}`), [
    `db ${REFERENCE} 4500`, 'db node-pg-prepared-pipelined 4500',
    `fortunes ${REFERENCE} 4600`, 'fortunes node-pg-prepared-pipelined 4600'
  ])
  assert.match(summary.meaning.latency, /^oha on \/db and \/fortunes at fixed rates/)
  const lines = db.report.terminal({ runId: 'r', db: summary })
  const titles = lines.filter(line => line.startsWith('Latency at '))
  assert.equal(titles.length, 2)
  assert.match(titles[0], /^Latency at 4500 req\/s, \/db, keep-alive \(10% of the 45000 req\/s /)
  assert.match(titles[1], /^Latency at 4600 req\/s, \/fortunes, keep-alive \(10% of the 46000 req\/s /)
  // each table holds its endpoint's runs alone: two servers each
  const rows = lines.filter(line => / 0\.4 \/ 2 \/ 5 \/ 9 /.test(`${line} `))
  assert.equal(rows.length, 4)
  // the endpoints it ran on, not the preset's: a run that measured /fortunes alone
  const fortunesAlone = summariseDb(records.slice(2), { options: { db: PRESETS.default }, dbLatency })
  assert.match(fortunesAlone.meaning.latency, /^oha on \/fortunes at fixed rates/)
  // results.json from before the tables went by endpoint: by mode, its runs naming none
  const { latencyTables } = require('../../experiments/http/report-latency')
  const { endpoint, ...byMode } = summary.latency.rates.db
  const older = {
    ...summary.latency,
    rates: { 'keep-alive': { capacity: byMode.capacity, rates: byMode.rates, endpoint } },
    runs: summary.latency.runs.filter(run => run.endpoint === 'db').map(({ endpoint, ...run }) => run)
  }
  const [table, ...none] = latencyTables(older)
  assert.equal(none.length, 0)
  assert.match(table.title, /^Latency at 4500 req\/s, \/db, keep-alive /)
  assert.equal(table.rows.length, 2)
  // the run's plan names the endpoints it will measure it on
  const described = options =>
    db.describe({ ...options, runs: 4, latency: true, placement: 'alone' }, { runnable: [] })
  const preset = { ...PRESETS.default, latency: { ...PRESETS.default.latency, endpoints: ['db', 'fortunes'] } }
  assert.equal(require('../../experiments/http/oha').ohaReason(), null, 'oha is built by ./setup.sh')
  assert.match(described({ db: preset }), /the latency pass \(oha on \/db and \/fortunes at 10%/)
  assert.match(described({ db: { ...preset, endpoints: ['queries', 'fortunes'] } }),
    /the latency pass \(oha on \/fortunes at 10%/)
  assert.doesNotMatch(described({ db: { ...preset, endpoints: ['queries'] } }), /latency pass/)
})

test('two runs: the server\'s CPU per request and all of it, and calls of work, each against its goal', () => {
  const summaryOf = scale => summariseDb([
    ...runs(REFERENCE, 'db', { serverNs: [1e8, 1e8, 1e8, 1e8].map(ns => ns * scale), backendNs: [2e8, 2e8, 2e8, 2e8] })
  ], { options: { db: PRESETS.default } })
  const same = dbRepeatability(summaryOf(1), summaryOf(1.04))
  assert.equal(same.cpu.within, 1)
  assert.equal(same.met, true)
  const moved = dbRepeatability(summaryOf(1), summaryOf(1.2))
  assert.ok(Math.abs(moved.cpu.maxMovePercent - 20) < 1e-9)
  assert.equal(moved.cpu.met, false)
  assert.equal(moved.met, false)
})

// A ratio to a reference still moving moves with it (2026-12-02: C's /queries fell 12% through
// one run and shifted the endpoint's ratios by 4.7%): not quoted, and left out of the steady cells
// the two-run goal counts, where a failed cell stays in.
test('the warm-up begins the sequence of the cell at its own count of connections only', () => {
  // one process per server and endpoint, warmed up at 64 connections at 10 µs a request; its
  // timed runs at 16 connections cost 14 µs, flat: that step is between counts, not a slowdown
  const record = (connections, run, cpuUs) => ({
    phase: 'db',
    program: 'node-pg-prepared-pipelined',
    endpoint: 'db',
    connections,
    run,
    ok: true,
    failure: null,
    wallNs: 1e9,
    wrk: { requests: 10000, requestsPerSecond: 10000, latencyUs: { p50: 1, p99: 2, max: 3 } },
    server: {
      cpuNs: cpuUs * 1e7, cpuFrom: 'schedstat', slices: 1, userTicks: 1, systemTicks: 1, threads: 1, maxRssKiB: 1
    },
    backends: { cpuNs: 1e7 },
    databaseUpkeep: { cpuNs: 0 },
    wrkCpuNs: 0,
    restCpuNs: 0,
    warmupCpuUs: [10.1, 9.9, 10],
    warmupConnections: 64,
    warmupAgreed: true
  })
  const records = [0, 1].flatMap(run => [record(64, run, 10 + run * 0.1), record(16, run, 14 + run * 0.1)])
  const { cells } = summariseDb(records, { options: { db: { endpoints: ['db'] } } })
  const at = connections => cells.find(cell => cell.connections === connections)
  assert.deepEqual(at(16).processClasses[0].sequence, [14, 14.1])
  assert.deepEqual(at(64).processClasses[0].sequence, [10.1, 9.9, 10, 10, 10.1])
  // the two cells of one flat process alike: both steady
  assert.deepEqual([at(16).unsteady, at(64).unsteady], [false, false])
})

test('a reference that reached no steady state: its endpoint\'s ratios not quoted, nor counted as steady', () => {
  const steadiness = steady => ({ classified: 1, counts: { 'no steady state': steady ? 0 : 1 }, moving: 0, steady })
  const cell = (server, endpoint, ratio, steady = true) => ({
    server,
    endpoint,
    connections: 64,
    steadiness: steadiness(steady),
    requestsPerSecond: { median: 1 },
    cpuPerRequestUs: { server: 10 },
    serverVsReference: ratio === null ? null : { estimate: ratio, low: ratio, high: ratio }
  })
  const runA = {
    cells: [cell(REFERENCE, 'db', null), cell('bun', 'db', 2), cell('deno', 'db', 3),
      cell(REFERENCE, 'queries', null), cell('bun', 'queries', 2)]
  }
  const runB = {
    cells: [cell(REFERENCE, 'db', null), cell('bun', 'db', 2.02), cell('deno', 'db', 3.6),
      cell(REFERENCE, 'queries', null, false), cell('bun', 'queries', 2.3)]
  }
  const { referenceUnsteadyReason } = require('../../experiments/db/quoting')
  assert.equal(referenceUnsteadyReason(runB.cells, runB.cells[4]), 'the reference reached no steady state')
  assert.equal(referenceUnsteadyReason(runB.cells, runB.cells[1]), null)
  assert.equal(referenceUnsteadyReason(runB.cells, { ...runB.cells[4], inTurns: true }), null,
    'a ratio taken in turns with the reference sets each run against its partner of the same moment')
  // no process long enough to classify and a warm-up that never settled (lib/steady.js
  // unsteadyCell): the tables and the pair leave the ratio out, as the answer does
  const { unsteadyRatioReason } = require('../../experiments/db/quoting')
  const { unquotedReason } = require('../../lib/steady')
  const unclassified = { classified: 0, counts: {}, moving: 0, steady: null }
  const unsettled = { ...runB.cells[1], steadiness: unclassified, unsteady: true }
  assert.deepEqual([unsteadyRatioReason(runB.cells, unsettled), unquotedReason(unsettled)],
    ['warm-up never settled', 'warm-up never settled'])
  assert.equal(referenceUnsteadyReason([{ ...unsettled, server: REFERENCE }, runB.cells[1]], runB.cells[1]),
    'the reference\'s warm-up never settled')
  const pair = dbRepeatability(runA, runB)
  assert.deepEqual([pair.vsReference.within, pair.vsReference.total], [1, 3])
  assert.deepEqual([pair.vsReferenceSteady.within, pair.vsReferenceSteady.total, pair.vsReferenceSteady.unsteady],
    [1, 2, 1])
  // a cell that failed in one run is missing, and counts against the steady goal too
  const failed = { cells: runB.cells.map(each => each.server === 'deno' ? { ...each, serverVsReference: null } : each) }
  const { missing } = dbRepeatability(runA, failed).vsReferenceSteady
  assert.deepEqual(missing.map(each => each.name), ['deno /db 64 conn.'])
  const { dbCriterionText } = require('../../experiments/db/repeatability')
  assert.match(dbCriterionText(pair, ['a', 'b']), new RegExp('Of the steady cells \\(leaving out 1 that a run did ' +
    'not quote, their process or the reference\'s still moving\\), the same moved by at most 5% in 1 of 2 cells'))
})

test('the plan: endpoint by endpoint, in rounds of every server that go one way then back, each traced after the rounds; /fortunes with each client\'s first variant', () => {
  const chosen = servers.filter(server => server.server === 'c-libpq').slice(0, 2)
  const pin = { client: 0, server: 1, database: 0 }
  const steps = planDb(chosen, { strace: true, db: { ...PRESETS.default, runs: 3, endpoints: ['db', 'fortunes'] } }, pin)
  const { small, large } = PRESETS.default.straceRequests
  assert.deepEqual(steps.map(step => `${step.endpoint} ${step.server.name} ${step.phase === 'db' ? step.run : step.requests}`), [
    'db c-libpq-prepared-pipelined 0', 'db c-libpq-prepared-serial 0',
    'db c-libpq-prepared-serial 1', 'db c-libpq-prepared-pipelined 1',
    'db c-libpq-prepared-pipelined 2', 'db c-libpq-prepared-serial 2',
    `db c-libpq-prepared-pipelined ${small}`, `db c-libpq-prepared-pipelined ${large}`, `db c-libpq-prepared-serial ${small}`, `db c-libpq-prepared-serial ${large}`,
    'fortunes c-libpq-prepared-pipelined 0', 'fortunes c-libpq-prepared-pipelined 1', 'fortunes c-libpq-prepared-pipelined 2', `fortunes c-libpq-prepared-pipelined ${small}`, `fortunes c-libpq-prepared-pipelined ${large}`
  ])
  assert.ok(steps.every(step => step.path === (step.endpoint === 'db' ? '/db' : '/fortunes') && step.pin === pin))
  // every timed run names the endpoint's servers, started before its first round
  assert.ok(steps.filter(step => step.phase === 'db').every(step => step.peers.map(peer => peer.server.name).join() === (step.endpoint === 'db' ? chosen : chosen.slice(0, 1)).map(server => server.name).join()))
  // a server's timed runs and its strace runs are one group: one server process
  assert.equal(new Set(steps.filter(step => step.endpoint === 'db' && step.server === chosen[0]).map(step => step.group)).size, 1)
  assert.ok(steps.every(step => !step.partner), 'one server at a time unless the placement says turns')
  // placement interleaved: every timed run but the reference's takes turns with it
  const inTurns = planDb(chosen, { strace: true, kernel: true, placement: 'interleaved', db: { ...PRESETS.default, runs: 2, endpoints: ['db'] } }, pin)
  assert.deepEqual(inTurns.map(step => `${step.phase} ${step.server.name} ${step.partner?.name ?? '-'}`), [
    'db c-libpq-prepared-pipelined -', 'db c-libpq-prepared-serial c-libpq-prepared-pipelined',
    'db c-libpq-prepared-serial c-libpq-prepared-pipelined', 'db c-libpq-prepared-pipelined -',
    'db-kernel c-libpq-prepared-pipelined -', 'db-kernel c-libpq-prepared-serial -',
    'db-strace c-libpq-prepared-pipelined -', 'db-strace c-libpq-prepared-pipelined -', 'db-strace c-libpq-prepared-serial -', 'db-strace c-libpq-prepared-serial -'
  ])
  // the latency pass in /db's processes, after its kernel runs and before strace: each
  // client's first variant, the reference for its own client, rates from its timed runs
  const withNode = [...chosen.slice().reverse(), servers.find(server => server.name === 'node-pg-prepared-pipelined')]
  const latency = { connections: [20, 100], rateShares: [0.1], seconds: 2 }
  const db = { ...PRESETS.default, runs: 2, endpoints: ['db', 'fortunes'], latency }
  const withPass = planDb(withNode, { strace: true, kernel: true, latency: true, placement: 'interleaved', db }, pin)
  const phases = withPass.filter(step => step.endpoint === 'db').map(step => step.phase)
  assert.deepEqual([...new Set(phases)], ['db', 'db-kernel', 'db-latency', 'db-strace'])
  assert.equal(phases.lastIndexOf('db-kernel') + 1, phases.indexOf('db-latency'))
  const passSteps = withPass.filter(step => step.phase === 'db-latency')
  assert.deepEqual(passSteps.map(step => `${step.server.name} ${step.connections}`), [
    'c-libpq-prepared-pipelined 20', 'c-libpq-prepared-pipelined 100',
    'node-pg-prepared-pipelined 20', 'node-pg-prepared-pipelined 100'
  ])
  // a preset from before the pass named its endpoints ran it on /db alone
  assert.ok(passSteps.every(step => step.endpoint === 'db' && step.rateFrom === TIMED_RATES &&
    step.peers.length === 3))
  // at each endpoint the preset names that the run measures, in that endpoint's processes
  const twoEndpoints = { ...db, latency: { ...latency, endpoints: ['fortunes', 'queries'] } }
  const both = planDb(withNode,
    { strace: true, kernel: true, latency: true, placement: 'interleaved', db: twoEndpoints }, pin)
  const bothPasses = both.filter(step => step.phase === 'db-latency')
  assert.deepEqual(bothPasses.map(step => `${step.endpoint} ${step.server.name} ${step.connections}`), [
    'fortunes c-libpq-prepared-pipelined 20', 'fortunes c-libpq-prepared-pipelined 100',
    'fortunes node-pg-prepared-pipelined 20', 'fortunes node-pg-prepared-pipelined 100'
  ])
  assert.ok(bothPasses.every(step => step.label.includes(', /fortunes, ') &&
    step.peers.every(peer => peer.endpoint === 'fortunes')))
  // every server process starts with its collector traced, the pass's and the others alike
  assert.ok(withPass.every(step => step.gcTrace === true))
})

const SPREAD_PLAN = 'the plan in order spread: every round takes every endpoint in turn, one way then ' +
  'back, the passes after every round; all processes one generation'
test(SPREAD_PLAN, () => {
  const chosen = servers.filter(server => server.server === 'c-libpq').slice(0, 2)
  const pin = { client: 0, server: 1, database: 0 }
  const db = { ...PRESETS.default, runs: 2, endpoints: ['db', 'fortunes'] }
  const steps = planDb(chosen, { strace: true, kernel: true, order: 'spread', db }, pin)
  const [first, second] = chosen.map(server => server.name)
  const timed = steps.filter(step => step.phase === 'db')
  assert.deepEqual(timed.map(step => `${step.endpoint} ${step.server.name} ${step.run}`), [
    `db ${first} 0`, `db ${second} 0`, `fortunes ${first} 0`,
    `fortunes ${first} 1`, `db ${second} 1`, `db ${first} 1`
  ])
  // the kernel and strace passes once every timed round is done, endpoint by endpoint
  const lastTimed = steps.findLastIndex(step => step.phase === 'db')
  assert.equal(lastTimed, 5)
  assert.deepEqual(steps.slice(lastTimed + 1).map(step => `${step.phase} ${step.endpoint}`), [
    'db-kernel db', 'db-kernel db', 'db-strace db', 'db-strace db', 'db-strace db', 'db-strace db',
    'db-kernel fortunes', 'db-strace fortunes', 'db-strace fortunes'
  ])
  // one generation: every server process of the run is up from the first round, one per
  // server and endpoint
  assert.deepEqual([...new Set(steps.map(step => step.generation))], ['run'])
  for (const step of steps.filter(step => step.phase !== 'db-strace')) {
    assert.deepEqual(step.peers.map(peer => `${peer.endpoint} ${peer.server.name}`),
      [`db ${first}`, `db ${second}`, `fortunes ${first}`])
  }
  // order endpoint: each endpoint a generation of its own
  const together = planDb(chosen, { order: 'endpoint', db }, pin)
  const generations = new Set(together.map(step => `${step.endpoint} ${step.generation}`))
  assert.deepEqual([...generations], ['db db', 'fortunes fortunes'])
  // the pools the plan keeps open at once: every endpoint's processes (/fortunes has each
  // client's first variant), or the busiest endpoint's; until a review of 2026-12-07 every
  // server of the table at every endpoint, and a traced process whether or not one ran
  assert.equal(connectionsAtOnce({ order: 'spread', db }, chosen), 3 * db.pool)
  assert.equal(connectionsAtOnce({ order: 'endpoint', db }, chosen), 2 * db.pool)
  // the latency pass's traced process (Bun's) beside them, where the pass runs
  const withBun = [servers.find(server => server.name === REFERENCE), servers.find(server => server.server === 'bun')]
  const dbOnly = { ...db, endpoints: ['db'] }
  assert.equal(connectionsAtOnce({ order: 'endpoint', latency: true, db: dbOnly }, withBun), 3 * db.pool)
  assert.equal(connectionsAtOnce({ order: 'endpoint', latency: false, db: dbOnly }, withBun), 2 * db.pool)
  // and what --pool may be, by the servers --only names (a run of one server at /db, spread,
  // was refused a pool of 64)
  const spreadAtDb = ['--experiment', 'db', '--order', 'spread', '--endpoints', 'db', '--pool', '64']
  assert.equal(parseOptions(spreadAtDb).db.pool, 64)
  assert.equal(parseOptions(['--experiment', 'db', '--order', 'spread', '--pool', '64',
    '--only', 'c-libpq-prepared-pipelined']).db.pool, 64)
  assert.throws(() => parseOptions(['--experiment', 'db', '--order', 'spread', '--pool', '64']),
    new RegExp('^Error: --pool 64 with --order spread may hold up to \\d+ database connections open at once, ' +
      'more than 1408; give --pool \\d+ or less, or --order endpoint$'))
})

test('a resumed db run from before --order goes on with each endpoint\'s rounds together, as it began', () => {
  const { storedProblem, resumedOptions } = benchOptions(require('../../experiments'))
  const { order, ...older } = parseOptions(['--experiment', 'db', '--quick'])
  assert.equal(order, 'endpoint')
  assert.equal(storedProblem(older), null)
  assert.equal(resumedOptions(older).order, 'endpoint')
  assert.match(storedProblem({ ...older, order: 'random' }), /^has options\.order "random", not endpoint or spread$/)
})

test('placement one-cpu: the server, wrk and the database on the server\'s CPU, recorded and said so', () => {
  const { dbPin } = require('../../experiments/db/measure')
  const { pinText } = require('../../experiments/db/report')
  const httpPin = { client: 0, server: 1 }
  assert.deepEqual(dbPin(httpPin), { client: 0, server: 1, database: 0 })
  assert.deepEqual(dbPin(httpPin, 'alone'), { client: 0, server: 1, database: 0 })
  assert.deepEqual(dbPin(httpPin, 'one-cpu'), { client: 1, server: 1, database: 1 })
  const options = parseOptions(['--experiment', 'db', '--placement', 'one-cpu'])
  assert.equal(options.placement, 'one-cpu')
  assert.deepEqual(db.passes(options, { http: httpPin }).db, { wrk: 1, database: 1, server: 1 })
  const alone = db.passes({ ...options, placement: 'alone' }, { http: httpPin }).db
  assert.deepEqual(alone, { wrk: 0, database: 0, server: 1 })
  assert.equal(pinText({ wrk: 1, database: 1, server: 1 }), 'wrk, the database and the server on CPU 1')
  assert.equal(pinText({ wrk: 0, database: 0, server: 1 }), 'wrk and the database on CPU 0, the server on CPU 1')
  // a server that shares its CPU with wrk and the database by design is not client-bound
  const records = runs(REFERENCE, 'db', { serverNs: [1e8, 1e8, 1e8, 1e8], backendNs: [2e8, 2e8, 2e8, 2e8] })
  const cellIn = dbPlacement => summariseDb(records, {
    options: { db: PRESETS.default }, dbPlacement, dbPin: dbPin(httpPin, dbPlacement)
  }).cells[0]
  assert.equal(cellIn('alone').clientBound, true)
  assert.equal(cellIn('one-cpu').clientBound, null)
  assert.equal(cellIn('one-cpu').serverCpuShare, 0.1)
  assert.throws(() => parseOptions(['--experiment', 'db', '--placement', 'together']),
    /--placement must be alone, interleaved or one-cpu, not 'together'/)
})

test('two runs in different placements are two figures: no two-run check between them', () => {
  const records = runs(REFERENCE, 'db', { serverNs: [1e8, 1e8, 1e8, 1e8], backendNs: [2e8, 2e8, 2e8, 2e8] })
  // one machine's runs: what names a machine (lib/machine.js), the same in each
  const machine = { cpuModel: 'AMD EPYC', cores: 2, kernel: '6.18.0' }
  const set = (label, dbPlacement) => ({
    label,
    context: { machine },
    results: { runId: label, db: summariseDb(records, { options: { db: PRESETS.default }, dbPlacement }) }
  })
  const { twoRuns } = db.report.shape([set('a1', 'alone'), set('o1', 'one-cpu'), set('a2', 'alone')]).repeatability
  assert.deepEqual(twoRuns.map(pair => pair.sets), [['a1', 'o1'], ['a1', 'a2']])
  assert.equal(twoRuns[0].result, null)
  assert.equal(twoRuns[0].text, 'a1 and o1 ran in different placements (alone and one-cpu): two figures, ' +
    'not one measured twice, so no two-run check')
  assert.notEqual(twoRuns[1].result, null)
  assert.match(twoRuns[1].text, /^The server's CPU per request moved by at most 5% in 1 of 1 cells/)
})

test('the default servers: every client\'s variants but its unnamed statements one at a time where it pipelines them', () => {
  const names = db.select({ only: [] }).runnable.map(server => server.name)
  assert.ok(!names.includes('c-libpq-unnamed-serial') && !names.includes('node-pg-unnamed-serial'))
  assert.ok(names.includes('node-postgres-unnamed-serial') && names.includes('c-libpq-unnamed-pipelined'))
  assert.ok(db.select({ only: ['c-libpq-unnamed-serial'] }).runnable.some(server => server.name === 'c-libpq-unnamed-serial'))
})

test('options: bad endpoints, pools and counts are one line each; a failed cell\'s re-run names its server, endpoint and pool', () => {
  const parse = args => parseOptions(['--experiment', 'db', ...args])
  assert.throws(() => parse(['--endpoints', 'db,plaintext']), /--endpoints "plaintext" is no endpoint; give some of db, queries, fortunes/)
  assert.throws(() => parse(['--pool', '0']), /--pool/)
  assert.throws(() => parse(['--pool', '65']), /--pool 65 is more than 64; give 1 to 64/)
  assert.throws(() => parse(['--connections', '2000']), /--connections 2000 is more than 1024/)
  assert.throws(() => parse(['--order', 'random']), /--order must be endpoint or spread, not 'random'/)
  // every endpoint's pools at once: the run's ceiling on database connections holds, by the
  // default plan's 44 processes (the default servers at /db and /queries, a first variant a
  // client at /fortunes, and Bun's traced process at /db and /fortunes)
  assert.throws(() => parse(['--order', 'spread', '--pool', '64']),
    new RegExp('--pool 64 with --order spread may hold up to 2816 database connections open at once, ' +
      'more than 1408; give --pool 32 or less, or --order endpoint'))
  assert.equal(parse(['--order', 'spread', '--pool', '32']).order, 'spread')
  assert.throws(() => parse(['--order', 'spread', '--pool', '33']), /give --pool 32 or less/)
  assert.equal(parse(['--pool', '64']).order, 'endpoint')
  const options = parse(['--endpoints', 'fortunes,db', '--pool', '8'])
  assert.deepEqual(options.db.endpoints, ['db', 'fortunes'])
  assert.equal(options.db.pool, 8)
  const { args } = db.rerun(options, { phase: 'db', program: 'node-pg-prepared-serial', endpoint: 'fortunes', connections: 64 })
  assert.deepEqual(args.slice(0, 8), ['--only', 'node-pg-prepared-serial', '--endpoints', 'fortunes', '--connections', 64, '--pool', '8'])
})

test('a server below C\'s floor is named with its calls and sends beside C\'s; none where its ' +
  'interval reaches 1, it has none, or it calls more', () => {
  const { findings } = require('../../experiments/db/findings')
  const calls = (server, work, sends) => {
    const send = { name: server.startsWith('c-') ? 'sendto' : 'write', perRequest: sends }
    return { server, endpoint: 'queries', self: { work, byCall: [send, { name: 'read', perRequest: work - sends }] } }
  }
  const host = 'just-pg-prepared-pipelined'
  const ratio = high => ({ estimate: 0.77, low: 0.73, high, level: 0.875 })
  const dbResults = ({ high = 0.84, hostWork = 22, extra = {}, cells = [] } = {}) => ({
    reference: REFERENCE,
    cells: [
      { server: host, endpoint: 'queries', connections: 64, serverVsReference: ratio(high), ...extra },
      ...cells
    ],
    syscalls: [calls(REFERENCE, 26.6, 21), calls(host, hostWork, 4.2)],
    variants: [],
    machineSpeed: []
  })
  const below = db => findings([{ label: 'a', results: { db } }]).map(finding => finding.text)
    .filter(text => text.startsWith('Below the floor'))
  assert.deepEqual(below(dbResults()), ['Below the floor: at /queries just-pg-prepared-pipelined costs 0.77× ' +
    '(0.73–0.84×, 87.5%) C\'s server CPU and makes 22 calls of work a request to C\'s 26.6, 4.2 sends to its 21. ' +
    'It answers with fewer calls than C\'s floor, so the ratio says how it calls the kernel, not that its ' +
    'runtime is faster than C (docs/db.md).'])
  assert.deepEqual(below(dbResults({ high: 1.02 })), [])
  // d35 (2026-12-04): node-postgres at /fortunes, 4.53× with no interval, was named below the floor
  assert.deepEqual(below(dbResults({ high: null })), [])
  assert.deepEqual(below(dbResults({ hostWork: 27 })), [])
  // a review (2026-12-07): a cell the answer does not quote, or at fewer connections than the
  // most, which the answer does not quote either, was named
  const unsteady = { steadiness: { steady: false, counts: { 'no steady state': 1 } } }
  assert.deepEqual(below(dbResults({ extra: unsteady })), [])
  const fewer = { server: host, endpoint: 'queries', connections: 16, serverVsReference: ratio(0.84) }
  assert.deepEqual(below(dbResults({ high: 1.02, cells: [fewer] })), [])
})

test('the variants\' table and finding give each pair at its endpoint\'s most connections (a review)', () => {
  const { findings } = require('../../experiments/db/findings')
  const { variantTable } = require('../../experiments/db/report')
  const at = (connections, estimate) => ({
    question: 'prepared',
    client: 'c-libpq',
    endpoint: 'db',
    connections,
    with: REFERENCE,
    without: 'c-libpq-unnamed-pipelined',
    server: { estimate, low: estimate - 0.01, high: estimate + 0.01, level: 0.875 },
    backends: { estimate, low: estimate - 0.01, high: estimate + 0.01, level: 0.875 },
    unsteady: []
  })
  const cells = [16, 64].flatMap(connections => [REFERENCE, 'c-libpq-unnamed-pipelined']
    .map(server => ({ server, endpoint: 'db', connections })))
  const variants = [at(16, 1.05), at(64, 1.5)]
  const results = { reference: REFERENCE, cells, syscalls: [], variants, machineSpeed: [] }
  const { rows } = variantTable([{ label: 'a', results: { db: results } }])
  assert.deepEqual(rows.map(row => row.slice(0, 2)), [['c-libpq', '150.0% (149.0–151.0%)']])
  const said = findings([{ label: 'a', results: { db: results } }]).map(finding => finding.text).join('\n')
  assert.match(said, /an unnamed statement costs the servers 150% \(c-libpq\)/)
  // a pair measured only at fewer connections than its endpoint's most is not shown as the most's
  const lower = { ...results, variants: [at(16, 1.05)] }
  assert.deepEqual(variantTable([{ label: 'a', results: { db: lower } }]).rows, [])
})

test('the page\'s strace row gives each endpoint\'s counts, /queries a tenth (a review)', () => {
  const { contextRows } = require('../../experiments/db/report')
  const row = endpoints => contextRows({
    context: { options: { db: { ...PRESETS.default, endpoints, runs: 4, pool: 4, connections: [64] } } }
  }).find(([name]) => name === 'strace pass')[1]
  assert.match(row(['db', 'queries', 'fortunes']), /^100 and 400 \(\/queries: 10 and 40\) requests per server, /)
  assert.match(row(['queries']), /^10 and 40 requests per server, /)
  // the plan sends what the row says
  const steps = planDb([servers.find(server => server.name === REFERENCE)],
    { strace: true, order: 'endpoint', db: { ...PRESETS.default, endpoints: ['queries'], runs: 1 } }, {})
  assert.deepEqual(steps.filter(step => step.phase === 'db-strace').map(step => step.requests), [10, 40])
})

test('the page names a failed latency run by its rate too, as the bench does (a review)', () => {
  const failure = {
    phase: 'db-latency', program: REFERENCE, endpoint: 'db', connections: 20, rateShare: 0.1, reason: 'x'
  }
  const results = { runId: 'r', db: summariseDb([], { options: { db: PRESETS.default } }), failures: [failure] }
  const sets = [{ label: 'r', results }]
  assert.deepEqual(db.report.shape(sets).failures.map(each => each.where),
    [`db, 20 connections, at 10% of ${REFERENCE}'s timed rate`])
  assert.equal(db.failureLabel(failure), db.report.shape(sets).failures[0].where)
})
