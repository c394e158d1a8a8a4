'use strict'
// lib/wait.js: a wait with a limit, and hurry(), which a second Ctrl-C calls to cut every
// grace short (lib/pipeline.js stopOnSignals). hurry() holds for the rest of the process, so
// the tests before it in this file wait as a first stop would.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { within, hurry } = require('../../lib/wait')

const never = new Promise(() => {})

test('within gives the value when the promise comes first, or done: false at the limit', async () => {
  assert.deepEqual(await within(Promise.resolve(7), 10000), { done: true, value: 7 })
  const begun = Date.now()
  assert.deepEqual(await within(never, 50), { done: false })
  assert.ok(Date.now() - begun >= 45)
})

test('hurry ends the waits under way at once, and every wait after it', async () => {
  const begun = Date.now()
  const pending = within(never, 60000)
  setTimeout(hurry, 20)
  assert.deepEqual(await pending, { done: false })
  assert.deepEqual(await within(never, 60000), { done: false })
  assert.ok(Date.now() - begun < 5000, `${Date.now() - begun} ms`)
  // what has already ended still says so
  assert.deepEqual(await within(Promise.resolve('ended'), 60000), { done: true, value: 'ended' })
})
