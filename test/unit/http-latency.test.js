'use strict'
// The http experiment's latency pass without a server: oha's command line and report,
// what fails a run and what only says the server cannot sustain its rate, the plan's steps,
// the collections of a window, and the summary and tables the report makes of them.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const os = require('node:os')
const { spawnSync } = require('node:child_process')
const {
  ohaArgv, parseOha, ohaFailure, holdsRate, HOLDS_SHARE, TIMED_RATES
} = require('../../experiments/http/oha')
const {
  planHttp, roundRate, gcInWindow, processTrace, collectionsFrom, loadSpanNs, gcTraceOf, capacityOf, timedRatesStore,
  PRESETS, LATENCY_PHASE, CAPACITY_PHASE, PHASE
} = require('../../experiments/http/measure')
const { servers, serverArgv } = require('../../experiments/http/servers')
const { servers: dbServers } = require('../../experiments/db/servers')
const { summariseHttp } = require('../../experiments/http/summary')
const { latencyTables } = require('../../experiments/http/report-latency')
const { parseJscGcLog } = require('../../lib/gctrace')
const experiment = require('../../experiments/http')

const fixture = name => fs.readFileSync(path.join(__dirname, '..', 'fixtures', name), 'utf8')
const row = name => servers.find(server => server.name === name)

test('ohaArgv: a fixed rate over the connections, latency from intended send times, pinned', () => {
  const argv = ohaArgv({ cpu: 0, rate: 7200, connections: 100, seconds: 2, mode: 'keep-alive', port: 8080 })
  assert.deepEqual(argv.slice(0, 3), ['taskset', '-c', '0'])
  const text = argv.join(' ')
  assert.match(text, /^taskset -c 0 env TOKIO_WORKER_THREADS=1 \S+ --no-tui --output-format json -q 7200 --latency-correction -w -c 100 -z 2s http:\/\/127\.0\.0\.1:8080\/$/)
  assert.ok(!argv.includes('--disable-keepalive'))
  assert.ok(ohaArgv({ cpu: 0, rate: 1, connections: 1, seconds: 1, mode: 'close', port: 1 }).includes('--disable-keepalive'))
})

test('parseOha: answers, errors, rate and percentiles in ms; anything else is no report', () => {
  const report = parseOha(fixture('oha-report.json'))
  assert.equal(report.answered, 19992)
  assert.deepEqual(report.errors, {})
  assert.ok(Math.abs(report.latencyMs.p50 - 0.142491) < 1e-9)
  assert.ok(Math.abs(report.latencyMs.p999 - 3.633748) < 1e-9)
  assert.ok(Math.abs(report.latencyMs.max - 3.694596) < 1e-9)
  assert.ok(report.latencyMs.p50 < report.latencyMs.p99 && report.latencyMs.p99 < report.latencyMs.p999)
  assert.equal(parseOha('not json'), null)
  assert.equal(parseOha('{"summary": {}}'), null)
})

test('ohaFailure: a wrong status, failed requests, no report or an exit fail the run; too few answers do not', () => {
  const run = { code: 0, signal: null, timedOut: false, stdout: '', stderr: '' }
  const good = parseOha(fixture('oha-report.json'))
  assert.equal(ohaFailure({ run, output: good, exited: false }), null)
  assert.equal(ohaFailure({ run, output: good, exited: true }), 'the server exited during the run')
  assert.equal(ohaFailure({ run, output: null, exited: false }), 'oha printed no report: ""')
  const exitedTwo = { ...run, code: 2, stderr: 'error: bad\n' }
  assert.equal(ohaFailure({ run: exitedTwo, output: null, exited: false }), 'oha exited 2: error: bad')
  const notFound = { ...good, statusCodes: { 200: 10, 404: 3 } }
  assert.equal(ohaFailure({ run, output: notFound, exited: false }), 'answers with status 404 (3)')
  const reset = { ...good, errors: { 'connection reset': 4 } }
  assert.equal(ohaFailure({ run, output: reset, exited: false }), '4 requests failed: connection reset (4)')
  // 19,992 of 20,000 asked holds 10,000 req/s for 2 s; half of them does not
  assert.equal(holdsRate(good, 10000, 2), true)
  assert.equal(holdsRate({ ...good, answered: 10000 }, 10000, 2), false)
  assert.equal(holdsRate({ ...good, answered: Math.ceil(HOLDS_SHARE * 20000) }, 10000, 2), true)
  // every request answered, but late: 1,090 of 1,100 over 1.36 s, 799 req/s (a review's server)
  assert.equal(holdsRate({ ...good, answered: 1090, requestsPerSecond: 799 }, 1100, 1), false)
})

test('roundRate: two significant digits', () => {
  assert.equal(roundRate(72243 * 0.1), 7200)
  assert.equal(roundRate(12345), 12000)
  assert.equal(roundRate(987), 990)
  assert.equal(roundRate(42), 42)
  assert.equal(roundRate(0.2), 1)
})

test('planHttp: the latency pass, per mode, in the last timed processes after their capacity runs, load apart', () => {
  const selected = [row('c-epoll'), row('node-net')]
  // two rates, so that a cell's key must tell them apart
  const http = { ...PRESETS.default, latency: { ...PRESETS.default.latency, rateShares: [0.05, 0.2] } }
  const options = { http, modes: ['keep-alive', 'close'], latency: true, placement: 'interleaved' }
  const pin = { client: 1, server: 1 }
  const apart = { client: 0, server: 1 }
  const plan = planHttp(selected, options, pin, apart)
  const steps = plan.filter(step => step.phase === LATENCY_PHASE)
  const { connections, rateShares } = http.latency
  assert.deepEqual(connections, [20, 100, 1000])
  assert.equal(steps.length, 2 * selected.length * connections.length * rateShares.length)
  for (const step of steps) {
    assert.deepEqual(step.pin, apart)
    assert.equal(step.partner, null)
    assert.equal(step.process, PRESETS.default.processes - 1)
    assert.equal(step.peers, selected)
    assert.equal(step.rateFrom, TIMED_RATES)
  }
  // every server process starts traced: the pass runs in processes the timed runs started
  assert.ok(plan.filter(step => step.server && step.phase !== 'http-strace').every(step => step.gcTrace === true))
  // a mode's pass after that mode's timed runs (its rates come from c-epoll's) and capacity
  // runs, and before the next mode's timed runs, whose processes replace these
  for (const mode of options.modes) {
    const at = (phase, which) => plan[which](step => step.phase === phase && step.mode === mode)
    const firstLatency = at(LATENCY_PHASE, 'findIndex')
    assert.ok(plan.findLastIndex(step => step.phase === CAPACITY_PHASE && step.mode === mode) < firstLatency)
    assert.ok(plan.findLastIndex(step => step.phase === PHASE && step.mode === mode) < firstLatency)
  }
  const lastKeepAlive = plan.findLastIndex(step => step.phase === LATENCY_PHASE && step.mode === 'keep-alive')
  assert.ok(lastKeepAlive < plan.findIndex(step => step.phase === PHASE && step.mode === 'close'))
  // every step its own cell, so a resume knows which ran
  assert.equal(new Set(steps.map(experiment.cellKey)).size, steps.length)
  // server by server, so that one server's runs follow one another
  const perServer = connections.length * rateShares.length
  assert.deepEqual(steps.slice(0, 2 * perServer).map(step => step.server.name),
    [...Array(perServer).fill('c-epoll'), ...Array(perServer).fill('node-net')])
  assert.equal(planHttp(selected, { ...options, latency: false }, pin, apart).filter(step => step.phase === LATENCY_PHASE).length, 0)
  // wrk apart from the server already (no capacity runs): the rates from the timed runs too
  const apartPlan = planHttp(selected, { ...options, placement: 'apart' }, apart, apart)
  assert.equal(apartPlan.some(step => step.phase === CAPACITY_PHASE), false)
  assert.ok(apartPlan.filter(step => step.phase === LATENCY_PHASE).every(step => step.rateFrom === TIMED_RATES))
})

test('serverArgv: V8 flags where a server\'s runtime takes them, in its form; nothing elsewhere', () => {
  const flags = ['--trace-gc']
  assert.deepEqual(serverArgv(row('node-net'), 1, flags).slice(1, 3), ['--no-memory-reducer', '--trace-gc'])
  assert.deepEqual(serverArgv(row('deno'), 1, flags).slice(1, 3), ['run', '--v8-flags=--no-memory-reducer,--trace-gc'])
  assert.ok(!serverArgv(row('node-net'), 1).includes('--trace-gc'))
  assert.ok(!serverArgv(row('node-net'), 1).some(part => part.includes('{v8flags}')))
  assert.equal(serverArgv(row('c-epoll'), 1, flags).length, serverArgv(row('c-epoll'), 1).length)
})

test('every V8 server, http\'s and db\'s, runs without the memory reducer, whatever else it is given', () => {
  const v8Rows = [...servers, ...dbServers].filter(server => server.command.includes('{v8flags}'))
  assert.deepEqual([...new Set(v8Rows.map(server => server.runtime))].sort(), ['deno', 'just', 'node'])
  for (const server of v8Rows) {
    const argv = serverArgv(server, 1).join(' ')
    const flag = server.runtime === 'deno' ? / --v8-flags=--no-memory-reducer / : / --no-memory-reducer /
    assert.match(argv, flag, server.name)
  }
  for (const server of [...servers, ...dbServers].filter(server => !v8Rows.includes(server))) {
    assert.ok(!serverArgv(server, 1).join(' ').includes('memory-reducer'), server.name)
  }
})

test('the report\'s context names the V8 servers run with a default changed, from their commands', () => {
  const { v8FlagsRow } = require('../../experiments/http/report')
  const recorded = ['c-epoll', 'node-net', 'deno', 'bun']
    .map(name => ({ name, runtime: row(name).runtime, command: serverArgv(row(name), '{port}').join(' ') }))
  const [label, text] = v8FlagsRow(recorded)
  assert.equal(label, 'V8 servers\' flags')
  assert.match(text, /^--no-memory-reducer \(node-net, deno\): /)
  // a run from before the flag, or one with no V8 server: no row
  const withoutFlags = command => command.replace(/--v8-flags=\S*|--no-memory-reducer/, '')
  const unflagged = recorded.map(server => ({ ...server, command: withoutFlags(server.command) }))
  assert.equal(v8FlagsRow(unflagged)[1], null)
  assert.equal(v8FlagsRow(undefined)[1], null)
})

test('collectionsFrom: a run\'s own collections, none printed before it, a line cut at its start read whole', () => {
  const lines = fixture('gc/node-alloc.log').split('\n').filter(line => line.startsWith('['))
  const printed = { stdout: '', stderr: '' }
  const started = { output: () => ({ ...printed }) }
  const traced = gcTraceOf(row('node-net'))
  // two collections between other servers' runs, and half of a third still being written
  printed.stdout = `${lines[0]}\n${lines[1]}\n${lines[2].slice(0, 20)}`
  const window = collectionsFrom(started, traced)
  printed.stdout += `${lines[2].slice(20)}\n${lines[3]}\nlistening 127.0.0.1:1\n${lines[4].slice(0, 10)}`
  const gc = window.end(2000, 1e9)
  assert.equal(gc.how, 'V8 --trace-gc')
  // the cut line is whole in the window, the line still being written is left to the next
  assert.equal(gc.collections, 2)
  assert.equal(gc.perThousandRequests, 1)
  // a process whose collector is not traced: nothing to say
  assert.equal(collectionsFrom(started, null).end(2000, 1e9), null)
})

test('collectionsFrom: a marking begun before the window, by the process\'s start, is cut at it', () => {
  const close = (actual, expected) => assert.ok(Math.abs(actual - expected) < 1e-6, `${actual} is not ${expected}`)
  // the host's mark-sweep at 117 ms, its marking begun 8 ms before (1.9 ms of steps)
  const line = fixture('gc/just-host-alloc.log').split('\n').find(each => each.includes('Mark-sweep'))
  const printed = { stdout: '', stderr: '' }
  const traced = gcTraceOf(row('node-net'))
  const gcOf = spawnedAgoMs => {
    const started = { output: () => ({ ...printed }), spawnedAtMs: performance.now() - spawnedAgoMs }
    printed.stdout = ''
    const window = collectionsFrom(started, traced)
    printed.stdout = `${line}\n`
    return window.end(1000, 1e9)
  }
  // opened at about 113 ms of the process: some 4 of the marking's 8 ms in the window
  const straddled = gcOf(113)
  assert.equal(straddled.markingsBegunBefore, 1)
  assert.ok(straddled.stepsLeftOutMs > 0.5 && straddled.stepsLeftOutMs < 1.5, String(straddled.stepsLeftOutMs))
  close(straddled.totalPauseMs + straddled.stepsLeftOutMs, 3.9 + 1.9)
  // opened at 0 ms: all of it in the window
  const whole = gcOf(0)
  assert.deepEqual([whole.markingsBegunBefore, whole.stepsLeftOutMs], [0, 0])
  close(whole.totalPauseMs, 3.9 + 1.9)
})

test('loadSpanNs: the time a server was under load, which its share paused is of', () => {
  assert.equal(loadSpanNs({ seconds: 1.01, windowNs: 1.2e9 }), 1.01e9)
  assert.equal(loadSpanNs({ seconds: null, windowNs: 1.2e9 }), 1.2e9)
  assert.equal(loadSpanNs({ seconds: 0, windowNs: 1.2e9 }), 1.2e9)
  // the record says what its share is of
  assert.equal(gcInWindow([{ kind: 'Scavenge', pauseMs: 1 }], 1000, 1.01e9).spanNs, 1.01e9)
})

test('collectionsFrom: a V8 process\'s optimizing compiles in the window, none before it', () => {
  const compile = f =>
    `[completed compiling 0x1 <JSFunction ${f} (sfi = 0x2)> (target TURBOFAN_JS) - took 0.1, 0.5, 0.0 ms]`
  const printed = { stdout: `listening 127.0.0.1:1\n${compile('a')}\n`, stderr: '' }
  const started = { output: () => ({ ...printed }) }
  const window = collectionsFrom(started, gcTraceOf(row('node-net')))
  assert.equal(window.compiles(), 0)
  printed.stdout += `${compile('b')}\n${compile('c')}\n${compile('d').slice(0, 30)}`
  assert.equal(window.compiles(), 2)
  // Bun traces no compiles, an untraced process nothing
  assert.equal(collectionsFrom(started, gcTraceOf(row('bun'))).compiles(), null)
  assert.equal(collectionsFrom(started, null).compiles(), null)
})

test('parseJscGcLog: a cycle from START to END, its pause the sum of its increments', () => {
  const events = parseJscGcLog(fixture('gc/bun-logGC.txt'))
  assert.deepEqual(events.map(event => event.kind), ['Eden collection', 'Full collection', 'Eden collection', 'Eden collection'])
  assert.deepEqual(events.map(event => event.generation), ['young', 'old', 'young', 'young'])
  // the first cycle's three increments: p=2.015478, 0.794346 and 3.403736 ms
  assert.ok(Math.abs(events[0].pauseMs - (2.015478 + 0.794346 + 3.403736)) < 1e-9)
  assert.equal(events[0].longestPauseMs, 3.403736)
  assert.ok(Math.abs(events[0].heapBeforeMB - 8838 / 1024) < 1e-9)
  assert.deepEqual(parseJscGcLog('no collections here\n'), [])
})

test('gcInWindow: per 1,000 requests, the share paused, the longest pause', () => {
  const events = [{ kind: 'Scavenge', pauseMs: 1 }, { kind: 'Scavenge', pauseMs: 3 }, { kind: 'Mark-Compact', pauseMs: 6 }]
  const gc = gcInWindow(events, 4000, 2e9)
  assert.equal(gc.collections, 3)
  assert.equal(gc.perThousandRequests, 0.75)
  assert.equal(gc.pausedShare, 10 / 2000)
  assert.equal(gc.longestPauseMs, 6)
  assert.deepEqual(gc.byKind.Scavenge, { count: 2, totalPauseMs: 4, maxPauseMs: 3 })
  // JavaScriptCore's: the longest increment, not the longest cycle
  assert.equal(gcInWindow([{ kind: 'Eden collection', pauseMs: 6, longestPauseMs: 3.4 }], 1000, 1e9).longestPauseMs, 3.4)
  // V8's: an incremental marking's biggest step, where it is longer than its final pause
  const marked = [{ kind: 'Mark-Compact', pauseMs: 1.5, stepsMs: 4, biggestStepMs: 2.5 }]
  assert.equal(gcInWindow(marked, 1000, 1e9).longestPauseMs, 2.5)
})

// oha opens each connection with the first request it sends on it, its connect in that
// request's latency, and the requests due meanwhile queue behind the connects: keep-alive's
// percentiles are of the requests due once every connection has answered once (a review
// found the first requests the whole of a 1000-connection cell's p99)
test('steadyLatency: the requests due once every connection is open, percentiles as oha takes them', () => {
  const { steadyLatency, requestTimes } = require('../../experiments/http/oha')
  // two connects answered at 30 and 45 ms; a request due at 10 ms waited behind them
  const requests = [
    { stampMs: 0, endMs: 30, latencyMs: 30 },
    { stampMs: 0, endMs: 45, latencyMs: 45 },
    { stampMs: 10, endMs: 46, latencyMs: 36 },
    ...Array.from({ length: 100 }, (_, i) => ({ stampMs: 45 + i, endMs: 46 + i + i / 100, latencyMs: i + 1 }))
  ]
  const steady = steadyLatency(requests, 2)
  const percentiles = { p50: 51, p90: 91, p99: 100, p999: 100, max: 100 }
  const unstampedFigures = { lateMs: null, fromDueMs: null }
  assert.deepEqual(steady, { latencyMs: percentiles, ...unstampedFigures, requests: 100, leftOut: 3, fromMs: 45 })
  // a request due before the steady part, its timer waking after it began, is the start's
  const wokeLate = [...requests.slice(0, 3), { stampMs: 46, dueMs: 44, endMs: 47, latencyMs: 1 }, ...requests.slice(3)]
  assert.deepEqual([steadyLatency(wokeLate, 2).requests, steadyLatency(wokeLate, 2).leftOut], [100, 4])
  const connects = [{ stampMs: 0, endMs: 3, latencyMs: 3 }, { stampMs: 0, endMs: 2, latencyMs: 2 }]
  assert.equal(steadyLatency(connects, 2), null, 'nothing left after the connects')
  // Connection: close, where each request opens its connection: every request kept
  const close = steadyLatency(requests, 0)
  assert.deepEqual([close.requests, close.leftOut, close.fromMs, close.latencyMs.max], [103, 0, null, 100])
  // oha's SQLite file (start, start_latency_correction: when its timer woke, end), read in the
  // order oha scheduled the requests, at 10 req/s: due every 100 ms from the schedule's start
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oha-db-'))
  const ohaFile = (name, rows) => {
    const file = path.join(dir, name)
    const made = spawnSync('python3', ['-c', 'import sqlite3, sys, json\n' +
      'c = sqlite3.connect(sys.argv[1])\n' +
      'c.execute("CREATE TABLE oha (start REAL, start_latency_correction REAL, end REAL, duration REAL)")\n' +
      'c.executemany("INSERT INTO oha VALUES (?, ?, ?, ?)", json.loads(sys.argv[2])); c.commit()',
    file, JSON.stringify(rows)])
    assert.equal(made.status, 0, String(made.stderr))
    return file
  }
  const ms = times => times.map(each => Object.values(each).map(value => (value === null ? null : Math.round(value))))
  try {
    // [stamp, due, end, latency from the stamp, lateness]: the second request's timer woke 30 ms
    // late, which its 2 ms leave out; the third was sent late (its connection busy), which oha
    // charges
    const file = ohaFile('r.db', [[0.3, 0.2, 0.303, 0.103], [0.0, 0.0, 0.05, 0.05], [0.131, 0.13, 0.132, 0.002]])
    assert.deepEqual(ms(requestTimes(file, 10)), [[0, 0, 50, 50, 0], [130, 100, 132, 2, 30], [200, 200, 303, 103, 0]])
    // the schedule's start: no stamp comes before its due time, though the first be late too
    const allLate = ohaFile('late.db', [[0.011, 0.01, 0.02, 0.01], [0.111, 0.11, 0.12, 0.01], [0.24, 0.24, 0.25, 0.01]])
    assert.deepEqual(ms(requestTimes(allLate, 10)),
      [[10, 10, 20, 10, 0], [110, 110, 120, 10, 0], [240, 210, 250, 10, 30]])
    // without oha's stamps (no --latency-correction) each is timed from its send, lateness unknown
    const unstamped = ohaFile('none.db', [[0.2, null, 0.25, 0.05], [0.1, null, 0.12, 0.02]])
    assert.deepEqual(ms(requestTimes(unstamped, 10)), [[100, 100, 120, 20, null], [200, 200, 250, 50, null]])
    // beside the percentiles from the stamps, the lateness and the percentiles from due times
    const late = steadyLatency(requestTimes(file, 10), 1)
    assert.deepEqual(late.lateMs, { p50: 30, p99: 30, p999: 30, max: 30 })
    assert.deepEqual([late.latencyMs.p50, late.fromDueMs.p50, late.fromDueMs.max].map(Math.round), [103, 103, 103])
    assert.deepEqual([late.latencyMs.max, late.fromDueMs.p90].map(Math.round), [103, 103])
    assert.equal(requestTimes(path.join(dir, 'missing.db'), 10), null)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

// A latency pass record: 10% of c-epoll's 72,000 req/s asked over 2 s, the server's CPU 5 µs a
// request and oha's 12, no steal, no collector
const CAPACITY = { program: 'c-epoll', requestsPerSecond: 72000, connections: 128, from: 'capacity' }
const LATENCY_MS = { p50: 0.1, p90: 0.2, p99: 0.5, p999: 3, max: 4 }
const latencyRecord = (program, connections, answered, extra = {}) => ({
  phase: LATENCY_PHASE,
  program,
  mode: 'keep-alive',
  connections,
  rateShare: 0.1,
  rate: 7200,
  capacity: CAPACITY,
  seconds: 2,
  pin: { client: 0, server: 1 },
  ok: true,
  failure: null,
  wallNs: 2e9,
  holdsRate: answered >= 0.98 * 14400,
  oha: { answered, latencyMs: LATENCY_MS },
  server: { cpuNs: answered * 5000 },
  ohaCpuNs: answered * 12000,
  steal: { cpus: [0, 1], ticks: 0, clkTck: 100 },
  gc: { how: null, reason: 'C: no garbage collector' },
  ...extra
})

test('the summary and its tables: the same rates for every server, "cannot sustain" never quoted as latency', () => {
  const capacity = CAPACITY
  const record = latencyRecord
  const latency = LATENCY_MS
  const records = [
    record('c-epoll', 20, 14400),
    record('node-net', 20, 7000, {
      gc: { how: 'V8 --trace-gc', collections: 3, perThousandRequests: 0.43, pausedShare: 0.001, longestPauseMs: 0.6 }
    }),
    {
      phase: LATENCY_PHASE,
      program: 'bun',
      mode: 'keep-alive',
      connections: 20,
      rateShare: 0.1,
      rate: 7200,
      capacity,
      ok: false,
      failure: '3 requests failed: connection reset (3)'
    }
  ]
  const context = { options: { http: PRESETS.default, modes: ['keep-alive'] }, httpLatency: { oha: 'oha 1.16.0' } }
  const { latency: summary } = summariseHttp(records, context)
  assert.equal(summary.tool, 'oha 1.16.0')
  assert.deepEqual(summary.rates['keep-alive'],
    { mode: 'keep-alive', capacity, rates: [{ rateShare: 0.1, rate: 7200, others: [] }] })
  const [epoll, node, bun] = summary.runs
  assert.equal(epoll.holdsRate, true)
  assert.equal(epoll.cpuPerRequestUs, 5)
  assert.equal(epoll.ohaCpuPerRequestUs, 12)
  assert.equal(epoll.steal, false)
  assert.equal(node.holdsRate, false)
  assert.equal(bun.failure, '3 requests failed: connection reset (3)')
  const [table] = latencyTables(summary)
  assert.deepEqual(table.header, ['server', '20 conn.', 'CPU µs/req @20', 'GC @20: /1k req, paused, longest'])
  assert.match(table.title, /^Latency at 7200 req\/s, keep-alive \(10% of the 72000 req\/s c-epoll answered in its /)
  assert.match(table.title, /answered in its capacity run at 128 connections\)/)
  // runs whose pass took its rates from c-epoll's warm-up say so
  const fromWarmUp = { ...summary.rates['keep-alive'], capacity: { ...capacity, from: undefined } }
  const older = { ...summary, rates: { 'keep-alive': fromWarmUp } }
  assert.match(latencyTables(older)[0].title, /of the 72000 req\/s c-epoll answered at the end of its warm-up at 128/)
  const cell = server => table.rows.find(each => each[0] === server)[1]
  assert.equal(cell('c-epoll'), '0.1 / 0.5 / 3 / 4')
  assert.match(cell('node-net'), /^cannot sustain \(answered 49%\)$/)
  assert.match(cell('bun'), /^FAILED: 3 requests failed/)
  assert.equal(table.rows.find(each => each[0] === 'c-epoll').at(-1), 'no collector')
  assert.match(table.rows.find(each => each[0] === 'node-net').at(-1), /^0\.43 \/ 0\.1% \/ 0\.6 ms$/)
  // the finding: the tail of those that held the rate, who could not, who failed
  const { findings } = require('../../experiments/http/findings')
  const text = findings([{ label: 'run', results: { http: summariseHttp(records, context) } }]).map(finding => finding.text).find(line => line.startsWith('Latency'))
  assert.match(text, new RegExp('Keep-alive at 7200 req/s \\(10% of the 72000 req/s c-epoll answered in its ' +
    'capacity run\\), 20 connections: p99\\.9 c-epoll 3 ms; cannot sustain it: node-net \\(answered 49%\\); ' +
    'failed: bun\\. Longest GC pause at 20 connections: node-net 0\\.6 ms\\.$'))
  // since 2026-12-07, from c-epoll's timed runs: the finding says so
  const timedSource = { capacity: { ...capacity, from: TIMED_RATES, runs: 6 } }
  const fromTimed = summariseHttp(records.map(each => ({ ...each, ...timedSource })), context)
  const timedText = findings([{ label: 'run', results: { http: fromTimed } }]).map(finding => finding.text)
    .find(line => line.startsWith('Latency'))
  assert.match(timedText, /\(10% of the 72000 req\/s c-epoll answered at the median of its 6 timed runs\), 20 conn/)
  // c-epoll started again (a failed start, or a resume before 2026-12-07): another rate, beside the first
  const again = summariseHttp([...records, record('node-http', 20, 14000, { rate: 7000, capacity: { ...capacity, requestsPerSecond: 70000 } })], context).latency
  assert.deepEqual(again.rates['keep-alive'].rates, [{ rateShare: 0.1, rate: 7200, others: [7000] }])
  assert.match(latencyTables(again)[0].title, /^Latency at 7200 and 7000 req\/s, keep-alive/)
  // a run whose process paid for its collector's log (Bun's) is marked by its server's name,
  // and the note under the tables says what that costs (a review: Bun's latency held it unsaid)
  const figures = { collections: 2, perThousandRequests: 0.3, pausedShare: 0.001, longestPauseMs: 1 }
  const bunGc = { how: 'BUN_JSC_logGC=1', costsCpu: true, ...figures }
  const traced = summariseHttp([records[0], record('bun', 20, 14400, { gc: bunGc })], context).latency
  assert.deepEqual(latencyTables(traced)[0].rows.map(row => row[0]), ['c-epoll', 'bun †'])
  const { latencyMarkdown } = require('../../experiments/http/report-latency')
  const note = /†: its collector's log was on in these runs/
  assert.match(latencyMarkdown(traced, 'meaning', 'c-epoll').join('\n'), note)
  assert.doesNotMatch(latencyMarkdown(summary, 'meaning', 'c-epoll').join('\n'), /†/)
  // a run whose oha file was read: its steady percentiles, and the note says they leave the connects out
  const steadyOha = {
    answered: 14400,
    requestsPerSecond: 7190,
    latencyMs: latency,
    steady: { latencyMs: { ...latency, p99: 0.4 }, requests: 14380, leftOut: 20 }
  }
  const read = summariseHttp([record('c-epoll', 20, 14400, { oha: steadyOha })], context).latency
  const [readRun] = read.runs
  assert.deepEqual([readRun.latencyMs.p99, readRun.connectsIncluded, readRun.connectsLeftOut], [0.4, false, 20])
  const readNote = latencyMarkdown(read, 'meaning', 'c-epoll').join('\n')
  assert.match(readNote, /each connection's first request is left out of the percentiles/)
  assert.doesNotMatch(readNote, /In these runs, oha opens/)
  // since: the requests due while the connects went on are left out too, and the note says so
  const untilOpen = { ...steadyOha, steady: { ...steadyOha.steady, leftOut: 45, fromMs: 12.5 } }
  const open = summariseHttp([record('c-epoll', 20, 14400, { oha: untilOpen })], context).latency
  assert.deepEqual([open.runs[0].connectsLeftOut, open.runs[0].steadyFromMs], [45, 12.5])
  const openNote = latencyMarkdown(open, 'meaning', 'c-epoll').join('\n')
  assert.match(openNote, /the percentiles are of the requests due once every connection had opened and answered once/)
  assert.doesNotMatch(openNote, /each connection's first request is left out/)
  // beside Connection: close runs, which leave nothing out and have no steady part (a run of
  // 2026-12-06 said the older note for them)
  const closeRun = record('c-epoll', 20, 14400, { mode: 'close', oha: { ...steadyOha, steady: undefined } })
  const withClose = summariseHttp([record('c-epoll', 20, 14400, { oha: untilOpen }), closeRun], context).latency
  assert.match(latencyMarkdown(withClose, 'meaning', 'c-epoll').join('\n'),
    /once every connection had opened and answered once/)
  assert.doesNotMatch(openNote, /Its timer woke/, 'no lateness where oha\'s file gave none')
  // how late oha's timer woke, which the latency holds (oha.js requestTimes), said under the tables
  const stamped = { ...untilOpen, steady: { ...untilOpen.steady, lateMs: { p50: 0.1, p99: 1.5, max: 4 } } }
  const lateRuns = summariseHttp([record('c-epoll', 20, 14400, { oha: stamped })], context).latency
  assert.deepEqual(lateRuns.runs[0].sendLateMs, { p50: 0.1, p99: 1.5, max: 4 })
  assert.match(latencyMarkdown(lateRuns, 'meaning', 'c-epoll').join('\n'), new RegExp(
    'µs over every run\\. Its timer woke 0\\.1 ms after a request was due at the median of a cell, at most 4 ms; ' +
    'the percentiles count from its stamps, as its own do \\(results\\.json keeps them from the due times too\\)\\. ' +
    'c-epoll answered'))
  // what the figures can hold, under the tables: the samples a p99.9 stands on, and the
  // requests that opened a connection, whose connect their latency holds (a review)
  const said = latencyMarkdown(summary, 'meaning', 'c-epoll').join('\n')
  assert.match(said, /a p99\.9 of fewer than 10,000 lies among its 10 longest/)
  assert.match(said, /with keep-alive at 20 connections, 20 requests of a cell of 14400 or more/)
  // a run kept as holding its rate, whose oha answered every request but late, is judged again
  const lateOha = { answered: 14300, requestsPerSecond: 5300, latencyMs: latency }
  const late = record('node-http', 20, 14300, { holdsRate: true, oha: lateOha })
  const [, lateRun] = summariseHttp([records[0], late], context).latency.runs
  assert.equal(lateRun.holdsRate, false)
  const { latencyTables: tables } = require('../../experiments/http/report-latency')
  const lateTable = tables(summariseHttp([records[0], late], context).latency)[0]
  assert.equal(lateTable.rows.find(row => row[0] === 'node-http')[1], 'cannot sustain (answered 99%, 5300 req/s)')
  // a run that could not sustain its rate, its connects in it, brings no note on connects: its
  // percentiles are not shown (a review: mini_httpd's contradicted the note before it)
  const openSustained = summariseHttp([record('c-epoll', 20, 14400, { oha: untilOpen }), late], context).latency
  assert.doesNotMatch(latencyMarkdown(openSustained, 'meaning', 'c-epoll').join('\n'), /holds the connect/)
  // no pass, no summary
  const straceOnly = [record('c-epoll', 20, 14400)].map(each => ({ ...each, phase: 'http-strace', ok: false, requests: 1 }))
  assert.equal(summariseHttp(straceOnly, context).latency, null)
})

// A review: the finding listed servers by one run's p99.9, a ranking a pair of runs did not
// keep; it lists them in the tables' order, and the GC pauses so too
test('the latency finding lists servers in the tables\' order, not by one run\'s tail', () => {
  const { findings } = require('../../experiments/http/findings')
  const tail = (p999, longestPauseMs) => ({
    oha: { answered: 14400, latencyMs: { ...LATENCY_MS, p999 } },
    gc: { how: 'V8 --trace-gc', collections: 2, perThousandRequests: 0.14, pausedShare: 0.001, longestPauseMs }
  })
  const records = [
    latencyRecord('c-epoll', 20, 14400, { oha: { answered: 14400, latencyMs: { ...LATENCY_MS, p999: 9 } } }),
    latencyRecord('node-http', 20, 14400, tail(1, 0.2)),
    latencyRecord('deno', 20, 14400, tail(5, 3))
  ]
  const context = { options: { http: PRESETS.default, modes: ['keep-alive'] }, httpLatency: { oha: 'oha 1.16.0' } }
  const http = summariseHttp(records, context)
  const order = http.latency.runs.map(run => run.server)
  assert.deepEqual(latencyTables(http.latency)[0].rows.map(row => row[0]), order)
  const text = findings([{ label: 'run', results: { http } }]).map(finding => finding.text)
    .find(line => line.startsWith('Latency'))
  assert.match(text, /one run's tail does not rank them/)
  const listed = order.map(server => `${server} ${{ 'c-epoll': 9, 'node-http': 1, deno: 5 }[server]} ms`).join(', ')
  assert.ok(text.includes(`p99.9 ${listed};`) || text.includes(`p99.9 ${listed}.`), text)
  const paused = order.filter(server => server !== 'c-epoll')
    .map(server => `${server} ${{ 'node-http': 0.2, deno: 3 }[server]} ms`).join(', ')
  assert.ok(text.includes(`Longest GC pause at 20 connections: ${paused}.`), text)
})

test('oha behind its schedule: a cell whose stamps came over 3 ms late at the p99.9 is marked and said so', () => {
  const record = (program, lateMs) => latencyRecord(program, 20, 14400, {
    oha: {
      answered: 14400,
      latencyMs: LATENCY_MS,
      steady: lateMs && { latencyMs: LATENCY_MS, leftOut: 20, fromMs: 5, lateMs }
    }
  })
  // its timer's step (up to 2 ms by design), the edge, beyond it, and a run with no stamps read;
  // one behind while the hypervisor took 5% of the two CPUs
  const stolen = {
    ...record('node-net', { p50: 1.2, p99: 5, max: 9 }),
    steal: { cpus: [0, 1], ticks: 20, clkTck: 100 }
  }
  const records = [
    record('c-epoll', { p50: 0.9, p99: 1.9, max: 2 }),
    record('node-http', { p50: 1, p99: 3, max: 3.2 }),
    record('bun', { p50: 1.4, p99: 3.6, max: 7.5 }),
    record('deno', null),
    stolen
  ]
  const context = { options: { http: PRESETS.default, modes: ['keep-alive'] }, httpLatency: { oha: 'oha 1.11.0' } }
  const http = summariseHttp(records, context)
  assert.deepEqual(http.latency.runs.map(run => run.ohaBehind), [false, false, true, null, true])
  assert.match(http.meaning.latency, /oha behind: marked where its stamps came more than 3 ms after their due times/)
  const [table] = latencyTables(http.latency)
  const cell = server => table.rows.find(each => each[0] === server)[1]
  assert.deepEqual(['c-epoll', 'node-http', 'bun', 'deno', 'node-net'].map(cell),
    [...['', '', ' ‡', '', ' * ‡'].map(marks => `0.1 / 0.5 / 3 / 4${marks}`)])
  assert.match(table.title, /; ‡: oha fell behind its schedule, its stamps over 3 ms late at the p99\.9, a wait its /)
  // late at the p99.9, the percentile quoted, though not at the p99: marked (a review: a stall of
  // 9 ms in a cell of 2,280 requests set its p99.9 unmarked)
  const stall = summariseHttp([record('c-epoll', { p50: 0.9, p99: 1.9, p999: 9.4, max: 9.4 })], context)
  assert.equal(stall.latency.runs[0].ohaBehind, true)
  // a table with no such cell says nothing of it
  assert.doesNotMatch(latencyTables(summariseHttp(records.slice(0, 2), context).latency)[0].title, /‡/)
  const { findings } = require('../../experiments/http/findings')
  const text = findings([{ label: 'run', results: { http } }]).map(finding => finding.text)
    .find(line => line.startsWith('Latency'))
  assert.match(text, new RegExp('p99\\.9 c-epoll 3 ms, node-http 3 ms, bun 3 ms \\(oha behind\\), deno 3 ms, ' +
    'node-net 3 ms \\(steal, oha behind\\)'))
  // a table whose rates came from the reference's timed runs says how many
  const timed = latencyRecord('c-epoll', 20, 14400, { capacity: { ...CAPACITY, from: TIMED_RATES, runs: 4 } })
  assert.match(latencyTables(summariseHttp([timed], context).latency)[0].title,
    /\(10% of the 72000 req\/s c-epoll answered at the median of its 4 timed runs at 128 connections\)/)
  const once = latencyRecord('c-epoll', 20, 14400, { capacity: { ...CAPACITY, from: TIMED_RATES, runs: 1 } })
  assert.match(latencyTables(summariseHttp([once], context).latency)[0].title,
    /\(10% of the 72000 req\/s c-epoll answered in its timed run at 128 connections\)/)
})

test('a server that closes every connection is marked in the keep-alive table: each request held a connect', () => {
  const closer = servers.find(server => server.closesConnections).name
  const context = { options: { http: PRESETS.default, modes: ['keep-alive', 'close'] }, httpLatency: {} }
  const records = [latencyRecord('c-epoll', 20, 14400), latencyRecord(closer, 20, 14400),
    latencyRecord(closer, 20, 14400, { mode: 'close' }), latencyRecord('c-epoll', 20, 14400, { mode: 'close' })]
  const http = summariseHttp(records, context)
  assert.deepEqual(http.latency.runs.map(run => run.connectEach), [false, true, false, false])
  const [keepAlive, close] = latencyTables(http.latency)
  assert.deepEqual(keepAlive.rows.map(each => each[0]), ['c-epoll', `${closer} §`])
  assert.match(keepAlive.title, /; §: the server closes each connection after one answer, saying Connection: close/)
  // with Connection: close every server's request opens its connection: nothing to mark
  assert.deepEqual(close.rows.map(each => each[0]), [closer, 'c-epoll'])
  assert.doesNotMatch(close.title, /§/)
  const { findings } = require('../../experiments/http/findings')
  const text = findings([{ label: 'run', results: { http } }]).map(finding => finding.text)
    .find(line => line.startsWith('Latency'))
  assert.match(text, new RegExp(`${closer} 3 ms \\(a connect each\\)`))
  // db's servers keep their connections: latencyRuns marks none without being told
  const { latencyRuns } = require('../../experiments/http/summary')
  assert.equal(latencyRuns(records.slice(1, 2)).runs[0].connectEach, false)
})

test('capacityOf: the median of the reference\'s timed runs, else its warm-up\'s last', () => {
  // its timed runs by run, as the sessions keep them (timedRatesStore)
  const timedRates = new Map([[0, 42000], [1, 29000], [2, 44000], [3, 43000]])
  const reference = { warmupRates: [44000, 31000] }
  assert.deepEqual(capacityOf(reference, TIMED_RATES, timedRates), { rate: 42500, from: TIMED_RATES, runs: 4 })
  // no timed run kept, in a resumed run's log or the session: its warm-up's last
  assert.deepEqual(capacityOf(reference, TIMED_RATES, new Map()), { rate: 31000, from: 'warm-up' })
  assert.deepEqual(capacityOf(reference, 'warm-up', timedRates), { rate: 31000, from: 'warm-up' })
  assert.deepEqual(capacityOf(null, TIMED_RATES), { rate: null, from: 'warm-up' })
  assert.deepEqual(capacityOf({ warmupRates: [] }, TIMED_RATES), { rate: null, from: 'warm-up' })
})

test('timedRatesStore: a server\'s timed runs alone at the most connections, by run, per mode or endpoint', () => {
  const store = timedRatesStore()
  const epoll = { name: 'c-epoll' }
  const step = { server: epoll, mode: 'keep-alive', connections: 128, warmupConnections: 128, run: 0 }
  // a timed run's record as measureStep returns it
  const ran = requestsPerSecond => ({ ok: true, wrk: { requestsPerSecond } })
  store.keep(step, ran(70000))
  // another process's runs (http numbers runs across processes) count beside the first's
  store.keep({ ...step, process: 1, run: 3 }, ran(76000))
  // a try measured again replaces its first
  store.keep({ ...step, process: 1, run: 3 }, ran(75000))
  // another server's run in turns with the reference is not one, nor a run at another count
  const nodeNet = { ...step, server: { name: 'node-net' }, run: 1 }
  store.keep({ ...nodeNet, partner: epoll }, ran(40000))
  store.keep({ ...step, connections: 16, run: 2 }, ran(60000))
  assert.deepEqual([...store.of(step)], [[0, 70000], [3, 75000]])
  assert.equal(store.of(nodeNet).size, 0)
  // another mode, or db's endpoints: kept apart
  store.keep({ ...step, mode: 'close' }, ran(13000))
  const db = { server: epoll, endpoint: 'fortunes', connections: 64, warmupConnections: 64, run: 0 }
  store.keep(db, ran(45000))
  store.keep({ ...db, endpoint: 'db' }, ran(43000))
  assert.deepEqual([...store.of(step)], [[0, 70000], [3, 75000]])
  assert.deepEqual([...store.of({ ...step, mode: 'close' })], [[0, 13000]])
  assert.deepEqual([...store.of(db)], [[0, 45000]])
  // a step planned without the warm-up's count: its own count
  store.keep({ server: epoll, endpoint: 'db', connections: 64, run: 4 }, ran(50000))
  assert.equal(store.of({ ...db, endpoint: 'db' }).get(4), 50000)
  // a try that failed drops the one before it, as the log keeps only the last
  store.keep({ ...step, process: 1, run: 3 }, { ok: false, failure: 'wrk exited with 1' })
  assert.deepEqual([...store.of(step)], [[0, 70000]])
})

// A log's record of a planned step, as measureStep writes one
const loggedRun = (step, requestsPerSecond, extra = {}) => ({
  phase: step.phase,
  program: step.server.name,
  mode: step.mode,
  endpoint: step.endpoint,
  connections: step.connections,
  run: step.run,
  ok: true,
  wrk: { requestsPerSecond },
  ...extra
})

test('timedRatesStore: a resumed run\'s timed runs from its log, matched to the plan\'s steps by cell and run', () => {
  const { cellKey } = experiment
  const selected = [servers.find(each => each.name === 'c-epoll'), servers.find(each => each.name === 'node-net')]
  const options = { http: PRESETS.default, modes: ['keep-alive', 'close'], latency: true, placement: 'interleaved' }
  const timed = planHttp(selected, options, { client: 1, server: 1 }, { client: 0, server: 1 })
    .filter(step => step.phase === PHASE)
  const epollOf = mode => timed.filter(step => step.server.name === 'c-epoll' && step.mode === mode)
  const [first, second, third] = epollOf('keep-alive')
  const netRun = timed.find(step => step.server.name === 'node-net')
  // logged: c-epoll's first keep-alive run; its second failed; its third measured twice, a try
  // superseded (whichever comes first in the records); node-net's run in turns; c-epoll's first
  // close run
  const records = [
    loggedRun(first, 74000),
    loggedRun(second, 1000, { ok: false }),
    loggedRun(third, 76000),
    loggedRun(third, 20000, { superseded: true }),
    loggedRun(netRun, 40000),
    loggedRun(epollOf('close')[0], 13000),
    // a record of no use: ok without wrk's output (an edited log)
    { ...loggedRun(epollOf('close')[1], 0), wrk: null }
  ]
  const store = timedRatesStore()
  store.seed(timed, records, cellKey)
  assert.deepEqual([...store.of(first)], [[first.run, 74000], [third.run, 76000]])
  assert.deepEqual([...store.of(epollOf('close')[0])], [[epollOf('close')[0].run, 13000]])
  assert.equal(store.of(netRun).size, 0)
  assert.deepEqual(capacityOf({ warmupRates: [140000] }, TIMED_RATES, store.of(first)),
    { rate: 75000, from: TIMED_RATES, runs: 2 })
  // a try measured again in this session that failed drops the logged one
  store.keep(third, { ok: false, failure: 'stopped before its run' })
  assert.deepEqual([...store.of(first)], [[first.run, 74000]])

  // db: the same run numbers at /db and /fortunes stay apart
  const dbExperiment = require('../../experiments/db')
  const { planDb, PRESETS: DB_PRESETS, PHASE: DB_PHASE } = require('../../experiments/db/measure')
  const chosen = dbServers.filter(server => server.server === 'c-libpq').slice(0, 2)
  const db = { ...DB_PRESETS.default, runs: 2, endpoints: ['db', 'fortunes'] }
  const dbTimed = planDb(chosen, { db }, { client: 0, server: 1, database: 0 })
    .filter(step => step.phase === DB_PHASE && step.server === chosen[0])
  const byEndpoint = endpoint => dbTimed.filter(step => step.endpoint === endpoint)
  assert.deepEqual(byEndpoint('db').map(step => step.run), byEndpoint('fortunes').map(step => step.run))
  const dbStore = timedRatesStore()
  dbStore.seed(dbTimed, [...byEndpoint('db').map(step => loggedRun(step, 43000)),
    loggedRun(byEndpoint('fortunes')[0], 45000)], dbExperiment.cellKey)
  assert.deepEqual([...dbStore.of(byEndpoint('db')[0]).values()], [43000, 43000])
  assert.deepEqual([...dbStore.of(byEndpoint('fortunes')[0]).values()], [45000])
})

test('without oha the run says so in one line, and plans no latency run', () => {
  const saved = process.env.OHA
  process.env.OHA = '/nonexistent/oha'
  try {
    const [line] = experiment.planNotes({ latency: true })
    assert.match(line, /^no latency pass: OHA=\/nonexistent\/oha is not an executable file: run \.\/setup\.sh, which builds oha [\d.]+ /)
    assert.deepEqual(experiment.planNotes({ latency: false }), [])
    const selected = [row('c-epoll')]
    const options = { ...PRESETS.quick, http: PRESETS.quick, modes: ['keep-alive'], latency: true, strace: false, kernel: false, placement: 'interleaved' }
    const pin = { client: 0, server: 1 }
    const steps = experiment.plan(options, { runnable: selected }, { ptrace: { available: false }, bpf: null, placement: { http: pin } })
    assert.equal(steps.filter(step => step.phase === LATENCY_PHASE).length, 0)
  } finally {
    if (saved === undefined) delete process.env.OHA
    else process.env.OHA = saved
  }
})

test('processTrace: V8 servers traced in every process; Bun\'s log, which costs it CPU, only in a latency ' +
  'process of its own', () => {
  const step = (name, phase) => ({ server: row(name), phase, gcTrace: true })
  assert.deepEqual(processTrace(step('node-net', PHASE), LATENCY_PHASE).trace.v8Flags, ['--trace-gc', '--trace-opt'])
  assert.equal(processTrace(step('node-net', LATENCY_PHASE), LATENCY_PHASE).apart, false)
  assert.deepEqual(processTrace(step('bun', PHASE), LATENCY_PHASE), { trace: null, apart: false })
  const bun = processTrace(step('bun', LATENCY_PHASE), LATENCY_PHASE)
  assert.equal(bun.apart, true)
  assert.deepEqual(bun.trace.env, { BUN_JSC_logGC: '1' })
  assert.deepEqual(processTrace(step('c-epoll', LATENCY_PHASE), LATENCY_PHASE), { trace: null, apart: false })
  const untraced = { ...step('node-net', PHASE), gcTrace: false }
  assert.deepEqual(processTrace(untraced, LATENCY_PHASE), { trace: null, apart: false })
})

test('oha\'s own cost is over every run, and c-epoll\'s share answered is rounded down (a review)', () => {
  const { latencyMarkdown } = require('../../experiments/http/report-latency')
  const context = { options: { http: { ...PRESETS.default, latency: { ...PRESETS.default.latency, seconds: 2 } } } }
  const records = [
    latencyRecord('c-epoll', 20, 14399),
    latencyRecord('node-net', 20, 14400, { ohaCpuNs: 14400 * 30000 })
  ]
  const { latency } = summariseHttp(records, context)
  const said = latencyMarkdown(latency, 'meaning', 'c-epoll').join('\n')
  // c-epoll's oha at 12 µs a request, node-net's at 30; c-epoll answered 14399 of 14400, 99.993%,
  // which rounding to the nearest tenth would make 100.0%
  assert.match(said, /oha's own CPU per request 12–30 µs over every run/)
  assert.match(said, /c-epoll answered 99\.9%–99\.9% of the requests asked/)
})
