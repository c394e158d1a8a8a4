'use strict'
// The latency pass's load for real: oha at a fixed rate against a server that stops for 1 s
// once. A load that waits for each answer (wrk, oha without a rate) holds back its next
// requests during the stall and charges it to the few then in flight; requests sent on
// schedule and timed from their intended send times charge it to every request the rate
// meant to send meanwhile, so the stall shows far below p99.9.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { ohaArgv, ohaReason, parseOha, ohaFailure, holdsRate } = require('../../experiments/http/oha')
const { startServer, freePort } = require('../../experiments/http/servers')
const { runWrk } = require('../../experiments/http/wrk')

const stalling = { name: 'stalls-once', runtime: 'node', file: 'test/fixtures/http-broken.js', command: ['{runtime}', '{file}', 'stalls-once', '{port}'] }

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

test('the latency pass: rates from c-epoll\'s warm-up, the same for every server, collectors traced', async () => {
  const http = { ...require('../../experiments/http/servers'), ...require('../../experiments/http/measure') }
  const pick = name => http.servers.find(server => server.name === name)
  const selected = [pick('c-epoll'), pick('node-net'), pick('bun')]
  const options = { http: http.PRESETS.quick, modes: ['keep-alive'], latency: true, timeoutSeconds: 20 }
  const steps = http.planHttp(selected, options, http.apartPin(), http.apartPin())
    .filter(step => step.phase === http.LATENCY_PHASE)
  const session = http.httpSession()
  try {
    const records = []
    for (const step of steps) records.push((await http.measureStep(step, options, session, null)).record)
    assert.deepEqual(records.map(record => [record.program, record.ok]), [['c-epoll', true], ['node-net', true], ['bun', true]], JSON.stringify(records.map(record => record.failure)))
    const [epoll, node, bun] = records
    assert.equal(new Set(records.map(record => record.rate)).size, 1)
    assert.equal(epoll.rate, http.roundRate(epoll.capacity.requestsPerSecond * http.PRESETS.quick.latency.rateShares[0]))
    assert.equal(epoll.gc.how, null)
    assert.match(epoll.gc.reason, /no garbage collector/)
    assert.equal(node.gc.how, 'V8 --trace-gc')
    assert.match(node.serverCommand, / --trace-gc .*http\/node-net\.js \d+$/)
    assert.equal(bun.gc.how, 'BUN_JSC_logGC=1')
    assert.match(bun.serverCommand, /^BUN_JSC_logGC=1 taskset /)
    for (const record of records) {
      assert.ok(record.oha.answered > 0 && record.server.cpuNs > 0 && record.ohaCpuNs >= 0, JSON.stringify(record))
      assert.ok(Number.isFinite(record.gc.collections ?? 0) && record.steal !== undefined)
    }
  } finally {
    await session.close()
  }
})
