'use strict'
// experiments/http/interleave.js: two wrks taking turns, and never one left stopped.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const { runInterleaved } = require('../../experiments/http/interleave')
const { childrenOf } = require('../../lib/procfs')

// A process's state letter from /proc (T: stopped), or null once it has gone.
function stateOf (pid) {
  try {
    return /\) (\S)/.exec(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))[1]
  } catch {
    return null
  }
}

test('two wrks take turns: one stopped while the other runs, each let run part of the time', async () => {
  // stand-ins for wrk: a process that lives 0.6 s and prints which it is
  const pairs = [0, 1].map(i => ({ argv: ['sh', '-c', `sleep 0.6; echo pair ${i}`] }))
  const running = runInterleaved(pairs, { timeoutMs: 5000, sliceMs: 50 })
  const seen = []
  for (let i = 0; i < 10; i++) {
    await new Promise(resolve => setTimeout(resolve, 20))
    seen.push(childrenOf(process.pid).map(stateOf))
  }
  const results = await running
  // a moment into the run, one of the two is stopped and the other not
  assert.ok(seen.some(states => states.length === 2 && states.filter(state => state === 'T').length === 1), JSON.stringify(seen))
  assert.deepEqual(results.map(result => [result.code, result.stdout.trim(), result.timedOut]), [[0, 'pair 0', false], [0, 'pair 1', false]])
  for (const result of results) {
    assert.ok(result.turns >= 2, `turns ${result.turns}`)
    assert.ok(result.runningNs > 0 && result.runningNs < result.wallNs, `${result.runningNs} of ${result.wallNs}`)
  }
  // the turns share the time the two lived: together no more than the longer one
  assert.ok(results[0].runningNs + results[1].runningNs <= Math.max(...results.map(result => result.wallNs)) + 1e6)
})

test('a wrk that outlives its time is continued and killed; the other ends on its own', async () => {
  const pairs = [{ argv: ['sleep', '30'] }, { argv: ['sh', '-c', 'sleep 0.2'] }]
  const results = await runInterleaved(pairs, { timeoutMs: 600, sliceMs: 50 })
  assert.equal(results[0].timedOut, true)
  assert.equal(results[0].signal, 'SIGKILL')
  assert.deepEqual([results[1].timedOut, results[1].code], [false, 0])
  assert.deepEqual(childrenOf(process.pid), [])
})
