'use strict'
// The http experiment's bench for real (bench.js --experiment http): a server that
// answers wrong fails its runs, bad options are refused with one line, and a tiny real
// run goes through to its report.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { bench, assertRefused } = require('../helpers')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const http = { ...require('../../experiments/http/servers'), ...require('../../experiments/http/client'), ...require('../../experiments/http/wrk'), ...require('../../experiments/http/cpu'), ...require('../../experiments/http/measure'), ...require('../../experiments/http/summary') }

test('a server that answers wrong is a failed run with its reason, never timed, and so is its strace run', async () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'http-fail-'))
  const broken = { name: 'broken-wrong-body', runtime: 'node', file: 'test/fixtures/http-broken.js', command: ['{runtime}', '{file}', 'wrong-body', '{port}'] }
  const session = http.httpSession()
  try {
    const options = { http: { ...http.PRESETS.quick, runs: 1 }, modes: http.MODES, strace: true, timeoutSeconds: 10 }
    const steps = http.planHttp([broken], options, http.apartPin())
    const timed = await http.measureStep(steps[0], options, session, out)
    assert.equal(timed.record.ok, false)
    assert.equal(timed.record.failure, 'keep-alive: request 1 was answered "Hello, World?", not "Hello, World!"')
    assert.match(timed.record.command, /^taskset -c \d+ wrk -t1 -c16 -d1s --timeout 2s --latency http:\/\/127\.0\.0\.1:\d+\/$/)
    fs.mkdirSync(path.join(out, 'strace'))
    const traced = await http.measureStep(steps.find(step => step.phase === http.STRACE_PHASE), options, session, out)
    assert.equal(traced.record.ok, false)
    assert.match(traced.record.failure, /^request \d+ was answered "Hello, World\?", not "Hello, World!"$/)
    assert.equal(traced.record.syscalls, null)
  } finally {
    await session.close()
    fs.rmSync(out, { recursive: true, force: true })
  }
})

test('bench.js --experiment http: options it does not take, bad connection counts, unknown servers, one line each', () => {
  assertRefused(bench(['--experiment', 'http', '--sizes', '256']), /^bench\.js: --sizes is an option of the stdio experiment, not of http: add --experiment stdio, or drop --sizes; see node bench\.js --help$/)
  assertRefused(bench(['--experiment', 'http', '--connections', '0']), /^bench\.js: --connections must be a whole number of at least 1, not '0'$/)
  assertRefused(bench(['--experiment', 'http', '--connections', '16,x']), /^bench\.js: --connections must be a whole number of at least 1, not 'x'$/)
  assertRefused(bench(['--experiment', 'http', '--connections', '4096']), /^bench\.js: --connections 4096 is more than 1024; give counts from 1 to 1024$/)
  assertRefused(bench(['--experiment', 'http', '--connections', '']), /^bench\.js: --connections is empty; give connection counts such as 1,16,128/)
  assertRefused(bench(['--experiment', 'http', '--only', 'nope']), /^bench\.js: --only nope matches no server of the http experiment; they are: c-blocking, c-epoll, /)
  assertRefused(bench(['--experiment', 'http', '--runs', '0']), /^bench\.js: --runs must be a whole number of at least 1, not '0'$/)
  assertRefused(bench(['--experiment', 'http', '--placement', 'together']), /^bench\.js: --placement must be interleaved, shared or apart, not 'together'$/)
  const rates = value => bench(['--experiment', 'http', '--rates', value])
  assertRefused(rates('0'), /^bench\.js: --rates must be a whole number of at least 1, not '0'$/)
  assertRefused(rates('150'),
    /^bench\.js: --rates 150 is more than c-epoll's rate in its timed runs; give per cents from 1 to 100$/)
  assertRefused(rates(''), new RegExp('^bench\\.js: --rates is empty; give rates in whole per cent of ' +
    'c-epoll\'s rate in its timed runs, such as 5,20, or leave --rates out for its default$'))
  assertRefused(bench(['--connections', '16']), /^bench\.js: --connections is an option of the http and db experiments, not of stdio: add --experiment http or db, or drop --connections; see node bench\.js --help$/)
})

test('bench.js --experiment http measures two servers under wrk and strace, analyse.js reports them, and a run cut short resumes', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'http-test-'))
  try {
    const result = bench(['--experiment', 'http', '--quick', '--only', 'c-blocking', '--runs', '1', '--connections', '2', '--out', out, '--id', 'tiny', '--report'])
    assert.equal(result.status, 0, result.stdout + result.stderr)
    assert.match(result.stdout, /^Keep-alive: median requests\/s/m)
    assert.match(result.stdout, /^c-epoll +\d+/m)
    const run = path.join(out, 'tiny')
    const results = JSON.parse(fs.readFileSync(path.join(run, 'results.json'), 'utf8'))
    assert.equal(results.experiment, 'http')
    assert.deepEqual(results.http.cells.map(cell => `${cell.mode} ${cell.server} ${cell.runs}`), ['keep-alive c-blocking 1', 'keep-alive c-epoll 1', 'close c-blocking 1', 'close c-epoll 1'])
    for (const cell of results.http.cells) {
      assert.ok(cell.requestsPerSecond.median > 0 && cell.cpuPerRequestUs > 0 && cell.threads === 1, JSON.stringify(cell))
    }
    // c-blocking's loop is accept, read, write, close: four calls a request, exactly
    const blocking = results.http.syscalls.find(entry => entry.server === 'c-blocking' && entry.mode === 'close')
    assert.deepEqual(blocking.byCall.map(call => [call.name, call.perRequest]), [['accept', 1], ['close', 1], ['read', 1], ['write', 1]])
    assert.equal(results.failures.length, 0)
    const context = JSON.parse(fs.readFileSync(path.join(run, 'context.json'), 'utf8'))
    assert.deepEqual(context.httpServers.map(server => server.name), ['c-blocking', 'c-epoll'])
    // the default placement: wrk on the server's CPU, c-blocking in turns with c-epoll,
    // recorded with the pass's CPUs
    assert.equal(context.httpPlacement, 'interleaved')
    assert.equal(context.httpPin.client, context.httpPin.server)
    assert.deepEqual(context.placement.passes.http, { wrk: context.httpPin.client, server: context.httpPin.server })
    assert.equal(results.http.placement, 'interleaved')
    for (const cell of results.http.cells) {
      assert.ok(cell.requestsPerWakeUp > 0 && cell.clientBound === null, JSON.stringify(cell))
      // in turns: no latency quoted, a ratio to c-epoll from the pair beside it
      assert.equal(cell.latencyUs === null, cell.server === 'c-blocking', JSON.stringify(cell))
    }
    const records = fs.readFileSync(path.join(run, 'all.jsonl'), 'utf8').trim().split('\n').map(line => JSON.parse(line))
    const inTurns = records.filter(record => record.phase === 'http' && record.program === 'c-blocking')
    assert.ok(inTurns.length > 0 && inTurns.every(record => record.partner.program === 'c-epoll' && record.runningNs > 0 && record.interleaved.turns >= 2), JSON.stringify(inTurns[0]))
    // and, where there is another CPU, a capacity run per server and mode with wrk on it
    if (context.placement.cpus.length >= 2) {
      assert.deepEqual(results.http.capacity.map(entry => `${entry.mode} ${entry.server} ${entry.ok}`).sort(),
        ['close c-blocking true', 'close c-epoll true', 'keep-alive c-blocking true', 'keep-alive c-epoll true'])
    } else {
      assert.equal(results.http.capacity, null)
    }
    // the latency pass: oha at one rate per mode, the same for both servers, from c-epoll's
    // timed run in the last timed processes (--quick: one)
    assert.match(context.httpLatency.oha, /^oha \d+\.\d+\.\d+$/)
    const latency = results.http.latency
    assert.deepEqual(latency.runs.map(run => `${run.mode} ${run.server} ${run.connections} ${run.ok}`).sort(),
      ['close c-blocking 20 true', 'close c-epoll 20 true', 'keep-alive c-blocking 20 true', 'keep-alive c-epoll 20 true'])
    for (const mode of ['keep-alive', 'close']) {
      const runs = latency.runs.filter(run => run.mode === mode)
      assert.equal(new Set(runs.map(run => run.rate)).size, 1)
      assert.equal(latency.rates[mode].capacity.program, 'c-epoll')
    }
    for (const run of latency.runs) {
      assert.ok(run.rate > 0 && run.answered > 0 && run.latencyMs.p50 <= run.latencyMs.p999 && run.latencyMs.p999 <= run.latencyMs.max, JSON.stringify(run))
      assert.equal(run.gc.how, null)
    }
    // the rates from c-epoll's timed run in the same processes
    const title = '^Latency at \\d+ req/s, keep-alive \\(5% of the \\d+ req/s c-epoll answered in its timed run at 2'
    assert.ok(new RegExp(title, 'm').test(result.stdout), result.stdout)
    assert.match(result.stdout, /^Latency at .* connections\): p50 \/ p99 \/ p99\.9 \/ max in ms/m)
    assert.match(context.wrk, /^wrk \S+ \[\w+\]$/)
    const page = fs.readFileSync(path.join(run, 'report.html'), 'utf8')
    assert.ok(page.includes('id="http"') && page.includes('id="chart-http-syscalls-1"'))
    assert.ok(!page.includes('id="throughput"') && !page.includes('id="headline"'), 'no stdio sections')
    assert.match(fs.readFileSync(path.join(run, 'results.md'), 'utf8'), /^## Keep-alive: median requests\/s/m)
    assert.ok(page.includes('<h3>Latency at fixed rates</h3>') && /<caption>Latency at \d+ req\/s, Connection: close/.test(page))
    assert.match(fs.readFileSync(path.join(run, 'results.csv'), 'utf8'), /^runId,server,runtime,mode,connections,/)

    // cut short after two runs, as by Ctrl-C: a resume measures the rest, and only that
    const log = path.join(run, 'all.jsonl')
    // the records kept: a step measured again after foreign CPU time also left one superseded
    const kept = text => text.trim().split('\n').filter(line => !JSON.parse(line).superseded)
    const lines = kept(fs.readFileSync(log, 'utf8'))
    fs.writeFileSync(log, lines.slice(0, 2).join('\n') + '\n')
    const resumed = bench(['--resume', run])
    assert.equal(resumed.status, 0, resumed.stdout + resumed.stderr)
    assert.match(resumed.stdout, new RegExp(`resuming .*, 2 of ${lines.length} runs already done`))
    const after = kept(fs.readFileSync(log, 'utf8')).map(line => JSON.parse(line))
    assert.equal(after.length, lines.length)
    assert.deepEqual(after.slice(0, 2), lines.slice(0, 2).map(line => JSON.parse(line)))
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(run, 'results.json'), 'utf8')).http.cells.map(cell => `${cell.mode} ${cell.server} ${cell.runs}`), results.http.cells.map(cell => `${cell.mode} ${cell.server} ${cell.runs}`))

    // keep-alive's latency runs lost: the resumed pass, in new processes, asks a share of
    // c-epoll's timed run in the log, not of a warm-up there
    const lost = record => record.phase === 'http-latency' && record.mode === 'keep-alive'
    const cut = after.filter(record => !lost(record)).map(record => JSON.stringify(record))
    fs.writeFileSync(log, cut.join('\n') + '\n')
    const epollTimed = after.find(record => record.phase === 'http' && record.program === 'c-epoll' &&
      record.mode === 'keep-alive')
    const again = bench(['--resume', run])
    assert.equal(again.status, 0, again.stdout + again.stderr)
    const pass = kept(fs.readFileSync(log, 'utf8')).map(line => JSON.parse(line)).filter(lost)
    const fromLog = ({ capacity }) => capacity.from === 'timed' && capacity.runs === 1 &&
      capacity.requestsPerSecond === epollTimed.wrk.requestsPerSecond
    assert.ok(pass.length === 2 && pass.every(fromLog), JSON.stringify(pass.map(record => record.capacity)))
  } finally {
    fs.rmSync(out, { recursive: true, force: true })
  }
})
