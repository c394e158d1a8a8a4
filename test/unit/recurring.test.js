'use strict'
// Which of a stdio reader's failures bench.js takes to come again
// (experiments/stdio/recurring.js): any at its cell; a hang of a bare pass at its reader and
// block size, in every pass.
const { test } = require('node:test')
const assert = require('node:assert/strict')

const { recurring } = require('../../experiments/stdio/recurring')
const { cellKey } = require('../../experiments/stdio/plan')

const failed = (phase, failure) => ({
  phase, program: 'node-sync', blockSize: 256, bytes: 1 << 20, ok: false, failure
})
const step = phase => ({ phase, program: { name: 'node-sync' }, blockSize: 256, bytes: 1 << 20, run: 0 })
// the reason a step of `phase` is skipped with, after `record` failed, or null when it runs
function skippedWith (record, phase) {
  const places = new Map(recurring.at(record).map(({ key, reason }) => [key, reason]))
  return recurring.keys(step(phase)).map(key => places.get(key)).find(Boolean) ?? null
}

test('a hang in a bare pass recurs in every pass at its reader and size, named so', () => {
  const hang = failed('startup', 'timed out after 120 s')
  for (const phase of ['startup', 'timing', 'timing-quarter', 'cost', 'fastpath', 'kernel', 'strace', 'gc']) {
    assert.equal(skippedWith(hang, phase), 'hung at 256 B in the startup pass: not run again', phase)
  }
  assert.equal(skippedWith(failed('cost', 'timed out after 120 s'), 'strace'), 'hung at 256 B in the cost pass: not run again')
})

test('a hang under a tracer, a crash and a wrong count recur at their cell alone, as they were', () => {
  for (const [phase, failure] of [
    ['strace', 'timed out after 120 s'],
    ['timing', 'reader killed by signal 9'],
    ['timing', 'reader counted 1048577 bytes, 1048576 were sent']
  ]) {
    const record = failed(phase, failure)
    assert.equal(skippedWith(record, phase), failure, `${phase}: ${failure}`)
    for (const other of ['startup', 'cost', 'gc'].filter(name => name !== phase)) {
      assert.equal(skippedWith(record, other), null, `${phase}: ${failure}, then ${other}`)
    }
  }
  // a step is at its cell as its records are
  assert.ok(recurring.keys(step('timing')).includes(cellKey(failed('timing', 'x'))))
})
