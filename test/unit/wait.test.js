'use strict'
// lib/wait.js: a wait with a limit, and hurry(), which a second Ctrl-C calls to cut every
// grace short (lib/pipeline.js stopOnSignals). hurry() holds for the rest of the process, so
// the tests before it in this file wait as a first stop would.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { within, hurry } = require('../../lib/wait')

const never = new Promise(() => {})

// The clock is node:test's: a wait's limit is its timer's, told by ticking it, never by how long
// the test took (a review: "at least 45 ms" and "under 5 s" timed the machine, not the code).
// a real turn of the event loop, taken before any clock is mocked: every promise that can settle
// without a timer has settled by then, however many steps it takes
const realImmediate = setImmediate
const settledYet = async promise => {
  let settled = false
  promise.then(() => { settled = true })
  await new Promise(resolve => realImmediate(resolve))
  return settled
}

// a guard, not a measure: with the clock mocked, a wait that never ended would hold the test forever
const LIMIT = { timeout: 10000 }
test('within gives the value when the promise comes first, or done: false at the limit', LIMIT, async t => {
  t.mock.timers.enable(['setTimeout'])
  assert.deepEqual(await within(Promise.resolve(7), 10000), { done: true, value: 7 })
  const waiting = within(never, 50)
  t.mock.timers.tick(49)
  assert.equal(await settledYet(waiting), false, 'ended before its limit')
  t.mock.timers.tick(1)
  assert.deepEqual(await waiting, { done: false })
})

test('hurry ends the waits under way at once, and every wait after it', LIMIT, async t => {
  t.mock.timers.enable(['setTimeout'])
  const pending = within(never, 60000)
  assert.equal(await settledYet(pending), false)
  // no tick: only hurry can end it
  hurry()
  assert.deepEqual(await pending, { done: false })
  // a wait begun after it ends on the next turn of the clock, not at its own limit
  const later = within(never, 60000)
  t.mock.timers.tick(0)
  assert.deepEqual(await later, { done: false })
  // what has already ended still says so
  assert.deepEqual(await within(Promise.resolve('ended'), 60000), { done: true, value: 'ended' })
})
