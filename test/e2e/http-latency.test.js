'use strict'
// The latency pass's load for real: oha at a fixed rate against a server that stops for 1 s
// once. A load that waits for each answer (wrk, oha without a rate) holds back its next
// requests during the stall and charges it to the few then in flight; requests sent on
// schedule and timed from their intended send times charge it to every request the rate
// meant to send meanwhile, so the stall shows far below p99.9.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const { ohaArgv, ohaReason, parseOha, ohaFailure, holdsRate, TIMED_RATES } = require('../../experiments/http/oha')
const { startServer, freePort } = require('../../experiments/http/servers')
const { runWrk } = require('../../experiments/http/wrk')

const stalling = {
  name: 'stalls-once',
  runtime: 'node',
  file: 'test/fixtures/http-broken.js',
  command: ['{runtime}', '{file}', 'stalls-once', '{port}']
}

test('oha at a fixed rate charges a 1 s stall to the requests sent during it, and holds its rate', async () => {
  assert.equal(ohaReason(), null, 'oha is built by ./setup.sh')
  const port = await freePort()
  const server = await startServer(stalling, { port })
  try {
    // 2,000 req/s over 20 connections for 3 s: the stall comes at the 500th request
    const rate = 2000
    const seconds = 3
    const run = await runWrk(ohaArgv({ cpu: 0, rate, connections: 20, seconds, mode: 'keep-alive', port }), 30000)
    const output = parseOha(run.stdout)
    assert.equal(ohaFailure({ run, output, exited: server.exited() }), null, run.stderr)
    const { p50, p90, p999, max } = output.latencyMs
    // the stall itself, at p99.9 and the longest request
    assert.ok(p999 >= 900 && max >= 950 && max < 2000, JSON.stringify(output.latencyMs))
    // and a second's worth of requests, a third of the run, waited behind it: a closed loop
    // would have charged it to its 20 connections' requests alone, 0.3% of 6,000
    assert.ok(p90 >= 300, JSON.stringify(output.latencyMs))
    assert.ok(p50 < p90, JSON.stringify(output.latencyMs))
    // once it answers again, it catches up: the rate held
    assert.ok(holdsRate(output, rate, seconds), `answered ${output.answered} of ${rate * seconds}`)
  } finally {
    await server.stop()
  }
})

// The capacity runs need wrk on a CPU of its own
const oneCpu = () => {
  const { client, server } = require('../../experiments/http/servers').apartPin()
  return client === server ? 'one CPU: no capacity runs' : false
}

test('the latency pass: in the capacity runs\' processes, rates from c-epoll\'s timed run, the same for every ' +
  'server, collectors traced', { skip: oneCpu() }, async () => {
  const http = { ...require('../../experiments/http/servers'), ...require('../../experiments/http/measure') }
  const pick = name => http.servers.find(server => server.name === name)
  const selected = [pick('c-epoll'), pick('node-net'), pick('bun')]
  const options = {
    http: http.PRESETS.quick, modes: ['keep-alive'], latency: true, timeoutSeconds: 20, placement: 'shared'
  }
  const apart = http.apartPin()
  const shared = { client: apart.server, server: apart.server }
  const steps = http.planHttp(selected, options, shared, apart)
  const capacitySteps = steps.filter(step => step.phase === http.CAPACITY_PHASE)
  const latencySteps = steps.filter(step => step.phase === http.LATENCY_PHASE)
  const epollTimed = steps.find(step => step.phase === http.PHASE && step.server.name === 'c-epoll')
  const session = http.httpSession()
  try {
    const timed = (await http.measureStep(epollTimed, options, session, null)).record
    assert.ok(timed.ok, timed.failure)
    const capacity = []
    for (const step of capacitySteps) capacity.push((await http.measureStep(step, options, session, null)).record)
    assert.ok(capacity.every(record => record.ok), JSON.stringify(capacity.map(record => record.failure)))
    // a timed run's own collections where its process traces them: node-net's, not bun's
    // untraced timed process, nor c-epoll, which has no collector
    assert.deepEqual(capacity.map(record => record.gc?.how ?? null), [null, 'V8 --trace-gc', null])
    assert.ok(capacity[1].gc.collections > 0, JSON.stringify(capacity[1].gc))
    // one at a time, as the bench asks: a session starts no server twice at once
    const pidsOf = async steps => {
      const pids = []
      for (const step of steps) pids.push((await session.serverFor(step, options)).started.pid)
      return pids
    }
    const pids = () => pidsOf(latencySteps)
    const before = await pids()
    const records = []
    for (const step of latencySteps) records.push((await http.measureStep(step, options, session, null)).record)
    assert.deepEqual(records.map(record => [record.program, record.ok]),
      [['c-epoll', true], ['node-net', true], ['bun', true]], JSON.stringify(records.map(record => record.failure)))
    // the processes the capacity runs measured, not new ones; bun's log costs it CPU, so its
    // timed process runs untraced and its latency runs in a traced process of its own
    const capacityPids = await pidsOf(capacitySteps)
    assert.deepEqual(before.slice(0, 2), capacityPids.slice(0, 2))
    assert.notEqual(before[2], capacityPids[2])
    assert.deepEqual(await pids(), before)
    const [epoll, node, bun] = records
    assert.equal(new Set(records.map(record => record.rate)).size, 1)
    // c-epoll's timed run, wrk on its CPU, not its capacity run apart
    assert.deepEqual([epoll.capacity.from, epoll.capacity.runs], [TIMED_RATES, 1])
    assert.equal(epoll.capacity.requestsPerSecond, timed.wrk.requestsPerSecond)
    assert.equal(epoll.rate, http.roundRate(epoll.capacity.requestsPerSecond * http.PRESETS.quick.latency.rateShares[0]))
    assert.equal(epoll.gc.how, null)
    assert.match(epoll.gc.reason, /no garbage collector/)
    assert.equal(node.gc.how, 'V8 --trace-gc')
    assert.match(node.serverCommand, / --no-memory-reducer --trace-gc .*http\/node-net\.js \d+$/)
    assert.equal(bun.gc.how, 'BUN_JSC_logGC=1')
    assert.deepEqual(records.map(record => record.tracedApart), [false, false, true])
    assert.match(bun.serverCommand, /^BUN_JSC_logGC=1 taskset /)
    for (const record of records) {
      assert.ok(record.oha.answered > 0 && record.server.cpuNs > 0 && record.ohaCpuNs >= 0, JSON.stringify(record))
      assert.ok(record.steal.cpus.length > 0, JSON.stringify(record.steal))
      // each answered request read back from oha's file, each connection's first and those
      // due before every connection had answered once left out of the percentiles (their
      // latency holds the connects), the file removed
      const { steady } = record.oha
      assert.ok(steady?.leftOut >= record.connections && steady.fromMs > 0, JSON.stringify(record.oha))
      assert.equal(steady.leftOut + steady.requests, record.oha.answered, JSON.stringify(record.oha))
      // from oha's stamps, as its own; beside them how late each stamp came after the request's
      // due time on oha's schedule, and the percentiles from the due times, each that much later
      assert.ok(steady.latencyMs.p99 <= record.oha.latencyMs.max, JSON.stringify(record.oha))
      const { lateMs, fromDueMs } = steady
      assert.ok(lateMs && lateMs.p50 >= 0 && lateMs.p50 <= lateMs.p99 && lateMs.p99 <= lateMs.max,
        JSON.stringify(steady))
      for (const at of ['p50', 'p99', 'max']) {
        assert.ok(fromDueMs[at] >= steady.latencyMs[at] && fromDueMs[at] <= steady.latencyMs[at] + lateMs.max,
          JSON.stringify(steady))
      }
      assert.match(record.command, / --db-url \S+syscall-lab-oha-\d+-\d+\.db /)
      assert.equal(fs.existsSync(record.command.match(/--db-url (\S+)/)[1]), false, 'oha\'s file removed')
    }
  } finally {
    await session.close()
  }
})

test('a resumed run\'s latency pass takes its rate from c-epoll\'s timed run in the log, else its warm-up',
  { skip: oneCpu() }, async () => {
    const http = { ...require('../../experiments/http/servers'), ...require('../../experiments/http/measure') }
    const { cellKey } = require('../../experiments/http/index')
    const selected = ['c-epoll', 'node-net'].map(name => http.servers.find(server => server.name === name))
    const options = {
      http: http.PRESETS.quick, modes: ['keep-alive'], latency: true, timeoutSeconds: 20, placement: 'shared'
    }
    const apart = http.apartPin()
    const steps = http.planHttp(selected, options, { client: apart.server, server: apart.server }, apart)
    const timedSteps = steps.filter(step => step.phase === http.PHASE)
    const latencySteps = steps.filter(step => step.phase === http.LATENCY_PHASE)
    const measureAll = async (session, which) => {
      const records = []
      for (const step of which) records.push((await http.measureStep(step, options, session, null)).record)
      return records
    }
    // the run before the stop: c-epoll's timed run logged
    const before = http.httpSession()
    let logged
    try {
      logged = await measureAll(before, timedSteps.filter(step => step.server.name === 'c-epoll'))
      assert.ok(logged[0].ok, logged[0].failure)
    } finally {
      await before.close()
    }
    // resumed: new processes, whose warm-up had wrk apart (the pass's placement)
    const resumed = http.httpSession()
    try {
      resumed.timedRates.seed(timedSteps, logged, cellKey)
      const records = await measureAll(resumed, latencySteps)
      assert.deepEqual(records.map(record => record.ok), [true, true], JSON.stringify(records.map(r => r.failure)))
      for (const record of records) {
        assert.deepEqual([record.capacity.from, record.capacity.runs], [TIMED_RATES, 1])
        assert.equal(record.capacity.requestsPerSecond, logged[0].wrk.requestsPerSecond)
      }
    } finally {
      await resumed.close()
    }
    // a log without them: the warm-up's last run, and the record says so
    const bare = http.httpSession()
    try {
      const records = await measureAll(bare, latencySteps)
      assert.ok(records.every(record => record.capacity.from === 'warm-up' &&
        record.capacity.requestsPerSecond > 0), JSON.stringify(records.map(record => record.capacity)))
      assert.equal(records[0].rate, records[1].rate)
    } finally {
      await bare.close()
    }
  })

// A server of the test's own beside c-epoll, through the pass's steps as the bench takes them.
async function latencyRecords (behaviour, runs = 1) {
  const http = { ...require('../../experiments/http/servers'), ...require('../../experiments/http/measure') }
  const row = {
    name: behaviour,
    runtime: 'node',
    file: 'test/fixtures/http-broken.js',
    command: ['{runtime}', '{v8flags}', '{file}', behaviour, '{port}']
  }
  const selected = [http.servers.find(server => server.name === 'c-epoll'), row]
  const rateShares = Array.from({ length: runs }, (_, i) => 0.05 + i * 0.01)
  const preset = { ...http.PRESETS.quick, latency: { connections: [20], rateShares, seconds: 1 } }
  const options = { http: preset, modes: ['keep-alive'], latency: true, timeoutSeconds: 20 }
  const steps = http.planHttp(selected, options, http.apartPin(), http.apartPin())
    .filter(step => step.phase === http.LATENCY_PHASE && step.server === row)
  const session = http.httpSession()
  try {
    const records = []
    for (const step of steps) records.push((await http.measureStep(step, options, session, null)).record)
    return records
  } finally {
    await session.close()
  }
}

test('a run\'s collections are its own: the trace is read line by line as the server prints it', async () => {
  // V8 prints --trace-gc through C's stdio, 4 KiB at a time into a pipe unless line-buffered:
  // then the first run would show none of its collections and a later one those of others
  const records = await latencyRecords('allocates', 2)
  for (const record of records) {
    assert.equal(record.ok, true, record.failure)
    assert.match(record.serverCommand, / stdbuf -oL -eL .* --trace-gc /)
    // 256 KiB a request, at least 50 requests a run: several young collections in every run
    assert.ok(record.gc.collections >= 3 && record.gc.byKind.Scavenge?.count >= 3, JSON.stringify(record.gc))
    assert.ok(record.gc.perThousandRequests > 0 && record.gc.pausedShare > 0 && record.gc.pausedShare < 1)
  }
})

test('a server that dies during a latency run is a failed run with its reason, and its next runs fail too', async () => {
  const records = await latencyRecords('dies-mid-run', 2)
  assert.deepEqual(records.map(record => record.ok), [false, false])
  assert.equal(records[0].failure, 'the server exited during the run')
  assert.match(records[1].failure, /^process \d+ failed a run before this one: the server exited during the run$/)
})
