'use strict'
// The network path's servers (experiments/http/servers.js, http/): each answers right over a real socket
// in both modes and exits 0 on SIGTERM; a server that answers wrong, closes early, never
// answers, never gets ready or dies is caught, each with its reason.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')

const ROOT = path.join(__dirname, '..', '..')

const http = { ...require('../../experiments/http/servers'), ...require('../../experiments/http/client'), ...require('../../experiments/http/wrk'), ...require('../../experiments/http/cpu'), ...require('../../experiments/http/measure'), ...require('../../experiments/http/summary') }
const { unavailableReason } = require('../../lib/rows')
const { optionalMissing } = require('../../lib/runtimes')

const broken = behaviour => ({ name: `broken-${behaviour}`, runtime: 'node', file: 'test/fixtures/http-broken.js', command: ['{runtime}', '{file}', behaviour, '{port}'] })

async function withServer (server, run) {
  const port = await http.freePort()
  const started = await http.startServer(server, { port })
  try {
    return await run(port)
  } finally {
    await started.stop()
  }
}

for (const server of http.servers) {
  // wasmer passes no signal on to its module: SIGTERM ends it, which is its clean stop;
  // mini_httpd exits 1 on SIGTERM, by its own handler
  const code = server.sigtermExitCode ?? 0
  const stopped = server.endsBySigterm ? { code: null, signal: 'SIGTERM', clean: true } : { code, signal: null, clean: true }
  const ends = server.endsBySigterm ? 'is ended by SIGTERM' : `exits ${code} on SIGTERM`
  test(`${server.name} answers every request right, keep-alive and Connection: close, and ${ends}`, async (t) => {
    const reason = unavailableReason(server)
    // a runtime that only an optional set-up installs, or none here can (Winter.js): skipped, with why
    if (reason && optionalMissing(server.runtime)) return t.skip(reason)
    if (reason) assert.fail(`${server.name} cannot run: ${reason}`)
    const port = await http.freePort()
    const started = await http.startServer(server, { port })
    try {
      const keepsAlive = !server.closesConnections
      for (const mode of http.MODES) assert.equal(await http.checkServer(port, mode, { keepsAlive }), null, mode)
      for (const mode of http.MODES) {
        assert.equal(await http.checkResets(port, mode), null, `${mode}, after resets`)
      }
      const load = await http.sendRequests(port, { mode: 'keep-alive', connections: 4, requests: 50 })
      assert.deepEqual(load, { problem: null, unannouncedCloses: 0 })
    } finally {
      assert.deepEqual(await started.stop(), stopped)
    }
  })
}

// nginx answers in a worker beside its master, mini_httpd in a child per connection: a
// server's CPU time must hold all of them. Checked against the kernel's own sum, which this
// process gets in its children's time once it has waited for the server: the server's
// whole life, of which the readings around the load leave out only start and stop.
for (const name of ['nginx', 'mini-httpd']) {
  test(`${name}'s CPU time holds every process it answers in`, async () => {
    const server = http.servers.find(row => row.name === name)
    const reason = unavailableReason(server)
    if (reason) assert.fail(`${name} cannot run: ${reason}`)
    const lifeBefore = http.childrenCpuNs()
    const port = await http.freePort()
    const started = await http.startServer(server, { port })
    const before = http.processCpu(started.pid)
    const load = await http.sendRequests(port, { mode: 'close', connections: 4, requests: 2000 })
    const after = http.processCpu(started.pid)
    assert.equal((await started.stop()).clean, true)
    assert.equal(load.problem, null)
    const life = http.childrenCpuNs() - lifeBefore
    const between = http.cpuBetween(before, after)
    assert.ok(between.processes >= 2, `${between.processes} processes`)
    // the kernel's sum is in ticks of 10 ms; starting and stopping take a few ms more
    const tick = 1e7
    assert.ok(between.cpuNs <= life + tick && between.cpuNs >= life - 5 * tick,
      `${between.cpuNs / 1e6} ms between the readings, ${life / 1e6} ms in the server's life`)
  })
}

test('a close that the answer does not announce is counted, not failed; a wrong answer under load stops it', async () => {
  const unannounced = await withServer(broken('closes-unannounced'), port => http.sendRequests(port, { mode: 'close', connections: 3, requests: 10, timeoutMs: 1000 }))
  assert.deepEqual(unannounced, { problem: null, unannouncedCloses: 10 })
  const wrong = await withServer(broken('wrong-body'), port => http.sendRequests(port, { mode: 'keep-alive', connections: 3, requests: 10, timeoutMs: 1000 }))
  assert.match(wrong.problem, /^request \d+ was answered "Hello, World\?", not "Hello, World!"$/)
})

test('a wrong answer, a closed or silent connection, a kept one: each a failed check with its reason', async () => {
  const cases = [
    ['wrong-body', 'keep-alive', /^request 1 was answered "Hello, World\?", not "Hello, World!"$/],
    ['not-found', 'close', /^request 1 was answered 404, not 200$/],
    ['closes-early', 'keep-alive', /^the server closed the connection without an answer$/],
    ['half-answer', 'close', /^the server closed the connection mid-answer: /],
    ['never-answers', 'keep-alive', /^no whole answer within 1 s$/],
    ['two-answers', 'keep-alive', /^request 1 was answered with 52 bytes more than one response$/],
    ['ignores-close', 'close', /^request 1 asked for Connection: close, but the server left the connection open$/],
    ['no-length', 'close', /^the answer has Content-Length null, not a length$/],
    ['one-answer-per-connection', 'keep-alive', /^no whole answer within 1 s$/]
  ]
  for (const [behaviour, mode, reason] of cases) {
    const got = await withServer(broken(behaviour), port => http.checkServer(port, mode, { timeoutMs: 1000 }))
    assert.match(got ?? 'null', reason, behaviour)
  }
  // a server that a client's reset ends: the check after the resets finds no one listening
  const afterResets = await withServer(broken('dies-on-reset'), async port => {
    assert.equal(await http.checkServer(port, 'keep-alive', { timeoutMs: 1000 }), null)
    return http.checkResets(port, 'keep-alive', { timeoutMs: 1000 })
  })
  // its end found at the next connection, or at the check after the resets
  const reset = /^after (a client reset its connection|6 connections reset by the client): /
  assert.match(afterResets ?? 'null', reset)
  // the same servers pass what they do right
  assert.equal(await withServer(broken('ignores-close'), port => http.checkServer(port, 'keep-alive', { timeoutMs: 1000 })), null)
  // a close in keep-alive, announced: a server that closes every connection (c-blocking) passes,
  // one said to keep them open fails, where wrk would have followed it without an error
  const announced = keepsAlive => withServer(broken('closes-announced'),
    port => http.checkServer(port, 'keep-alive', { timeoutMs: 1000, keepsAlive }))
  assert.equal(await announced(false), null)
  assert.match(await announced(true) ?? 'null',
    /^request 1 was answered Connection: close in keep-alive, by a server that keeps /)
})

// The port's listener gone: what a refused server leaves once it is killed. A deadline, not a
// count of tries: a killed server's exit, which closes its socket, can wait on a busy machine.
async function nothingListens (port) {
  for (const deadline = Date.now() + 10000; Date.now() < deadline;) {
    const problem = await http.checkServer(port, 'close', { timeoutMs: 1000 })
    if (/ECONNREFUSED/.test(problem ?? '')) return true
    await new Promise(resolve => setTimeout(resolve, 20))
  }
  return false
}

test('a server that never gets ready, dies at start or names another port is refused and killed', async () => {
  const port = await http.freePort()
  // never-ready and wrong-port listen on the port, and are gone once refused
  await assert.rejects(http.startServer(broken('never-ready'), { port, timeoutMs: 1000 }), /^Error: broken-never-ready printed no ready line within 1 s/)
  assert.ok(await nothingListens(port), 'never-ready left listening')
  await assert.rejects(http.startServer(broken('dies'), { port }), /^Error: broken-dies exited 3 before it listened: dies: on purpose$/)
  await assert.rejects(http.startServer(broken('wrong-port'), { port }), new RegExp(`^Error: broken-wrong-port says it listens on port ${port + 1}, not ${port}$`))
  assert.ok(await nothingListens(port), 'wrong-port left listening')
})

test('a server refused under strace is killed with strace: no tracee left behind', async () => {
  const port = await http.freePort()
  const prefix = ['strace', '-qq', '-f', '-o', '/dev/null', '--']
  await assert.rejects(http.startServer(broken('wrong-port'), { port, prefix, traced: true }), new RegExp(`^Error: broken-wrong-port says it listens on port ${port + 1}, not ${port}$`))
  assert.ok(await nothingListens(port), 'the tracee was left listening')
  await assert.rejects(http.startServer(broken('never-ready'), { port, prefix, traced: true, timeoutMs: 1000 }), /printed no ready line/)
  assert.ok(await nothingListens(port), 'the tracee was left listening')
})

test('a server that fails to start is started once more, then its steps fail without a start', async () => {
  const starts = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'http-starts-')), 'starts')
  process.env.HTTP_BROKEN_STARTS = starts
  try {
    const session = http.httpSession()
    const pin = http.apartPin()
    const step = { server: broken('dies'), mode: 'keep-alive', connections: 1, pin }
    const options = { timeoutSeconds: 5, http: http.PRESETS.quick }
    for (let i = 0; i < 4; i++) assert.match((await session.serverFor(step, options)).failure, /^broken-dies exited 3 before it listened/)
    await session.close()
    assert.equal(fs.readFileSync(starts, 'utf8'), 'dies\ndies\n')
  } finally {
    delete process.env.HTTP_BROKEN_STARTS
    fs.rmSync(path.dirname(starts), { recursive: true, force: true })
  }
})

// A stop asked for while a generation's servers start (Ctrl-C in a warm-up) once went on to
// start the step's own server, seconds late
test('a stop asked for while peers start: the step\'s own server is not started, its step fails', async () => {
  const starts = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'http-starts-')), 'starts')
  process.env.HTTP_BROKEN_STARTS = starts
  try {
    // the stop comes once the first peer has tried its start
    const session = http.httpSession(() => fs.existsSync(starts))
    const first = broken('dies')
    const own = { ...broken('dies'), name: 'broken-dies-too' }
    const pin = http.apartPin()
    const step = { server: own, peers: [first, own], mode: 'keep-alive', connections: 1, pin }
    const options = { timeoutSeconds: 5, http: http.PRESETS.quick }
    assert.equal((await session.serverFor(step, options)).failure, http.STOPPED_BEFORE_START)
    await session.close()
    assert.equal(fs.readFileSync(starts, 'utf8'), 'dies\n')
  } finally {
    delete process.env.HTTP_BROKEN_STARTS
    fs.rmSync(path.dirname(starts), { recursive: true, force: true })
  }
})

test('a server that ignores SIGTERM is killed, and its stop says it was not clean', { timeout: 20000 }, async () => {
  const port = await http.freePort()
  const started = await http.startServer(broken('ignores-sigterm'), { port })
  const stopped = await started.stop()
  assert.deepEqual(stopped, { code: null, signal: 'SIGKILL', clean: false })
})

// lib/pipeline.js stopOnSignals and lib/wait.js: a first Ctrl-C waits out a server's grace to end
// (5 s), a second cuts it short and kills it, in a process of its own as bench.js is.
test('a second Ctrl-C kills at once the server the first one was waiting for', { timeout: 20000 }, async () => {
  const script = `
    const { stopOnSignals } = require('./lib/pipeline')
    const http = require('./experiments/http/servers')
    const stopped = stopOnSignals()
    const server = ${JSON.stringify(broken('ignores-sigterm'))}
    http.freePort().then(port => http.startServer(server, { port })).then(started => {
      console.log('pid ' + started.pid)
      const poll = setInterval(() => {
        if (!stopped()) return
        clearInterval(poll)
        console.log('stopping')
        const begun = Date.now()
        started.stop()
          .then(result => console.log('stopped ' + result.signal + ' after ' + (Date.now() - begun) + ' ms'))
      }, 10)
    })`
  const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', chunk => { stderr += chunk })
  const seen = pattern => new Promise(resolve => child.stdout.on('data', chunk => {
    stdout += chunk
    if (pattern.test(stdout)) resolve()
  }))
  await seen(/^pid \d+$/m)
  const pid = Number(/^pid (\d+)$/m.exec(stdout)[1])
  child.kill('SIGINT')
  await seen(/^stopping$/m)
  await new Promise(resolve => setTimeout(resolve, 300))
  child.kill('SIGINT')
  const code = await new Promise(resolve => child.on('exit', resolve))
  assert.equal(code, 0, stderr)
  assert.equal(stderr, 'SIGINT again: killing what is left now, without waiting for it to end\n')
  const [, signal, ms] = /^stopped (\w+) after (\d+) ms$/m.exec(stdout) ?? []
  assert.equal(signal, 'SIGKILL', stdout)
  // the grace (servers.js STOP_MS), which a server that ignores SIGTERM would have run out, cut
  // at the second signal: killed before it ended (the code's own limit, not a machine's speed)
  assert.ok(Number(ms) < http.STOP_MS, `the stop took ${ms} ms, its grace ${http.STOP_MS}`)
  assert.throws(() => process.kill(pid, 0), /ESRCH/, 'the server is gone')
})

test('a server killed takes every process under it along: no worker is left running', { timeout: 20000 }, async () => {
  const port = await http.freePort()
  const started = await http.startServer(broken('worker-ignores-sigterm'), { port })
  const worker = Number(/worker (\d+)/.exec(started.output().stdout)[1])
  assert.doesNotThrow(() => process.kill(worker, 0), 'the worker runs')
  assert.equal((await started.stop()).signal, 'SIGKILL')
  const gone = () => { try { process.kill(worker, 0); return false } catch { return true } }
  for (let tries = 0; tries < 40 && !gone(); tries++) await new Promise(resolve => setTimeout(resolve, 50))
  const outlived = !gone()
  if (outlived) process.kill(worker, 'SIGKILL')
  assert.ok(!outlived, `worker ${worker} outlived its server`)
})
