'use strict'
// experiments/http/interleave.js: two pairs taking turns, and never a process left stopped.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const { spawn } = require('node:child_process')
const { runInterleaved } = require('../../experiments/http/interleave')

// A stand-in server: a process that sleeps until killed.
function sleeper () {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' })
  return child
}

// A process's state letter from /proc (T: stopped), or null once it has gone.
function stateOf (pid) {
  try {
    return /\) (\S)/.exec(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))[1]
  } catch {
    return null
  }
}

test('two pairs take turns: one stopped while the other runs, both continued when they end', async () => {
  const servers = [sleeper(), sleeper()]
  try {
    const pairs = servers.map((server, i) => ({ argv: ['sh', '-c', `sleep 0.6; echo pair ${i}`], serverPid: server.pid }))
    const running = runInterleaved(pairs, { timeoutMs: 5000, sliceMs: 50 })
    // a moment into the run, one of the two servers is stopped
    const seen = []
    for (let i = 0; i < 10; i++) {
      await new Promise(resolve => setTimeout(resolve, 20))
      seen.push(servers.map(server => stateOf(server.pid)))
    }
    const results = await running
    assert.ok(seen.some(states => states.filter(state => state === 'T').length === 1), JSON.stringify(seen))
    assert.deepEqual(results.map(result => [result.code, result.stdout.trim(), result.timedOut]), [[0, 'pair 0', false], [0, 'pair 1', false]])
    for (const result of results) {
      assert.ok(result.turns >= 2, `turns ${result.turns}`)
      assert.ok(result.runningNs > 0 && result.runningNs < result.wallNs, `${result.runningNs} of ${result.wallNs}`)
    }
    // the turns share the time the two wrks lived: together no more than the longer one
    assert.ok(results[0].runningNs + results[1].runningNs <= Math.max(...results.map(result => result.wallNs)) + 1e6)
    assert.ok(servers.every(server => stateOf(server.pid) !== 'T'), 'a server left stopped')
  } finally {
    servers.forEach(server => server.kill('SIGKILL'))
  }
})

test('a wrk that outlives its time is killed, and its server left running, not stopped', async () => {
  const servers = [sleeper(), sleeper()]
  try {
    const pairs = [
      { argv: ['sleep', '30'], serverPid: servers[0].pid },
      { argv: ['sh', '-c', 'sleep 0.2'], serverPid: servers[1].pid }
    ]
    const results = await runInterleaved(pairs, { timeoutMs: 600, sliceMs: 50 })
    assert.equal(results[0].timedOut, true)
    assert.equal(results[0].signal, 'SIGKILL')
    assert.deepEqual([results[1].timedOut, results[1].code], [false, 0])
    assert.ok(servers.every(server => stateOf(server.pid) !== 'T'), 'a server left stopped')
  } finally {
    servers.forEach(server => server.kill('SIGKILL'))
  }
})
