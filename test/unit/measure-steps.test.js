'use strict'
// The progress line of the measuring loop (lib/measure-steps.js) while a step waits: which
// reader it waits on, and for how long of its timeout.
const { test } = require('node:test')
const assert = require('node:assert/strict')

const { progressLine, waitingLabel, whileWaiting } = require('../../lib/measure-steps')

const nodeAt256 = { phase: 'timing', program: { name: 'node-sync' }, blockSize: 256 }

test('a step that waits names its reader at its block size, and the seconds of its timeout', () => {
  assert.equal(waitingLabel(nodeAt256, 45, 120), 'waiting on node-sync@256: 45 s of 120 s')
  const label = `timing @ 256, run 1 of 10: ${waitingLabel(nodeAt256, 45, 120)}`
  const line = progressLine({ runsDone: 140, runsTotal: 616, elapsedMs: 8 * 60e3, label })
  assert.equal(line, 'step 141 of 616, 8m00s elapsed, ETA 27m12s  ' +
    'timing @ 256, run 1 of 10: waiting on node-sync@256: 45 s of 120 s')
})

test('a step of a server, without a block size, names the server; past one run\'s timeout, says so', () => {
  const server = { phase: 'http', program: 'c-epoll', blockSize: null }
  assert.equal(waitingLabel(server, 12, 120), 'waiting on c-epoll: 12 s of 120 s')
  // a cost run too short for its slope is run again longer, within the one try
  const longer = 'waiting on node-sync@256: 130 s (each run times out at 120 s)'
  assert.equal(waitingLabel(nodeAt256, 130, 120), longer)
})

test('the waiting line: from 10 s on, every second, a log\'s every 30 s; none after the try', async () => {
  // a clock that moves only when the test says: one tick a second, while the timer runs
  let now = 0
  let tick = null
  const clock = { now: () => now, every: (ms, fn) => { tick = fn; return () => { tick = null } } }
  let finish
  const shown = []
  const show = (label, logged) => shown.push([label, logged])
  const waiting = whileWaiting(nodeAt256, 120, show, () => new Promise(resolve => { finish = resolve }), clock)
  const seconds = count => { for (let s = 0; s < count; s++) { now += 1000; tick?.() } }
  seconds(9)
  assert.deepEqual(shown, [])
  seconds(21)
  assert.equal(shown.length, 21)
  assert.deepEqual(shown[0], ['waiting on node-sync@256: 10 s of 120 s', false])
  const logged = shown.filter(([, due]) => due)
  assert.deepEqual(logged, [['waiting on node-sync@256: 30 s of 120 s', true]])
  finish('the record')
  assert.equal(await waiting, 'the record')
  assert.equal(tick, null, 'the timer stopped with the try')
  seconds(5)
  assert.equal(shown.length, 21)
})
