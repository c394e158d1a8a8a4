'use strict'
// Placement: the plan for each count of CPUs, a refused pin and its fallback, the CPUs
// this process may use, and the placement a run records in its context.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { allowedCpus, placementPlan, checkedPlacement, placementNote } = require('../../lib/placement')
const { parseOptions, plan } = require('../../bench')

test('the CPUs this process may use, from Cpus_allowed_list', () => {
  assert.deepEqual(allowedCpus('Name:\tx\nCpus_allowed_list:\t0-2,5,7-8\n'), [0, 1, 2, 5, 7, 8])
  assert.deepEqual(allowedCpus(''), [0], 'unreadable: CPU 0')
})

test('2 CPUs: the readers and the server on the last, wrk and the bench on the first', () => {
  const twoCpus = placementPlan([0, 1])
  assert.deepEqual(twoCpus.shared, { feeder: 1, reader: 1 })
  assert.deepEqual(twoCpus.apart, { feeder: 0, reader: 1 })
  assert.deepEqual(twoCpus.sharedBatch, { feeder: 1, reader: 1, policy: 'batch' })
  assert.deepEqual(twoCpus.http, { client: 0, server: 1 })
  assert.equal(twoCpus.system, null)
  assert.equal(twoCpus.driver, 0)
  assert.deepEqual(twoCpus.unreliable, [])
})

test('3 CPUs or more: the first is kept for the system', () => {
  const four = placementPlan([0, 1, 2, 3])
  assert.equal(four.system, 0)
  assert.equal(four.driver, 0)
  assert.deepEqual(four.http, { client: 2, server: 3 })
  assert.deepEqual(four.shared, { feeder: 3, reader: 3 })
  const three = placementPlan([4, 6, 9])
  assert.deepEqual([three.system, three.http.client, three.http.server], [4, 6, 9])
})

test('one CPU: everything on it, and the run says what that leaves unreliable', () => {
  const one = placementPlan([3])
  assert.deepEqual(one.http, { client: 3, server: 3 })
  assert.equal(one.driver, null)
  assert.match(one.unreliable.join(' '), /requests\/s/)
  assert.match(placementNote({ plan: one, refused: [] }), /^one CPU \(3\) for everything: unreliable here are/)
})

test('a refused pin: one line naming the CPUs the lab may use, then the plan from those', () => {
  const checked = checkedPlacement([0, 1, 2], cpu => (cpu === 2 ? 'sched_setaffinity: Invalid argument' : null))
  assert.deepEqual(checked.plan.cpus, [0, 1])
  assert.deepEqual(checked.plan.http, { client: 0, server: 1 })
  const note = placementNote(checked)
  assert.equal(note.split('\n').length, 1)
  assert.match(note, /cannot pin to CPU 2 \(sched_setaffinity: Invalid argument\); the lab may use CPU 0, 1/)
  const none = checkedPlacement([0, 1], () => 'refused')
  assert.deepEqual(none.plan.cpus, [0], 'none took: the first, unpinned in effect, and said')
  assert.match(placementNote(none), /cannot pin to CPU 0, 1/)
  assert.equal(placementNote(checkedPlacement([0, 1], () => null)), null, 'nothing to say')
})

test('every step of a stdio run is pinned, and each round has its own order of readers', () => {
  const options = { ...parseOptions(['--sizes', '256', '--runs', '4', '--id', 'seeded']), strace: true, gc: false }
  const programs = ['c', 'just-sync', 'node-sync', 'deno-sync', 'bun-ffi'].map(name => ({ name, runtime: 'node', honoursBlockSize: true }))
  const placement = placementPlan([0, 1])
  const steps = plan(options, { runnable: programs }, { ptrace: { available: true } }, placement)
  assert.ok(steps.every(step => step.pin), 'no step is free')
  assert.ok(steps.filter(step => step.phase === 'timing').every(step => step.pin === placement.shared))
  const orders = [0, 1, 2, 3].map(run => steps.filter(step => step.phase === 'timing' && step.run === run).map(step => step.program.name).join())
  assert.ok(new Set(orders).size > 1, `the same order every round: ${orders[0]}`)
  const again = plan(options, { runnable: programs }, { ptrace: { available: true } }, placement)
  assert.deepEqual(again.map(step => step.program.name), steps.map(step => step.program.name), 'one run id, one plan (a resume plans the same)')
  const apart = plan({ ...options, pin: true }, { runnable: programs }, { ptrace: { available: true } }, placement)
  assert.ok(apart.filter(step => step.phase === 'timing').every(step => step.pin === placement.apart), '--pin: dd and the reader apart')
})

test('the profile pass: dd and the reader on the cost pass\'s CPU at SCHED_BATCH, as recorded', () => {
  const options = { ...parseOptions(['--sizes', '256', '--runs', '1', '--id', 'seeded']), strace: false, gc: false }
  const programs = ['c', 'node-sync'].map(name => ({ name, runtime: 'node', honoursBlockSize: true }))
  const placement = placementPlan([0, 1])
  const probes = { ptrace: { available: false }, perf: { available: true } }
  const steps = plan(options, { runnable: programs }, probes, placement)
  const profiled = steps.filter(step => step.phase.startsWith('profile'))
  assert.ok(profiled.length >= 4, `profile steps: ${profiled.length}`)
  assert.ok(profiled.every(step => step.pin === placement.sharedBatch))
  const { passes } = require('../../experiments/stdio')
  assert.deepEqual(passes(options, placement).profile, { feeder: 1, reader: 1, policy: 'batch' },
    'what the run records')
})

test('--cost-policy batch: the cost runs at SCHED_BATCH on their CPU, the fast-path checks as before', () => {
  const placement = placementPlan([0, 1])
  const { passes, select } = require('../../experiments/stdio')
  for (const [args, policy] of [[[], undefined], [['--cost-policy', 'batch'], 'batch']]) {
    const given = ['--sizes', '256', '--runs', '1', '--only', 'c', '--only', 'just-fast', ...args]
    const options = { ...parseOptions(given), strace: false, gc: false }
    const steps = plan(options, select(options, null), { ptrace: { available: false } }, placement)
    const cost = steps.filter(step => step.phase === 'cost')
    assert.ok(cost.length > 0)
    assert.ok(cost.every(step => step.pin.feeder === 1 && step.pin.reader === 1 && step.pin.policy === policy),
      args.join(' '))
    const checks = steps.filter(step => step.phase === 'fastpath')
    assert.ok(checks.length > 0 && checks.every(step => step.pin === placement.shared), 'fast-path checks')
    assert.equal(passes(options, placement).cost.policy, policy, 'what the run records')
    assert.equal(passes(options, placement).kernel.policy, policy, 'the kernel pass runs as a cost run')
    const withBpf = { ptrace: { available: false }, bpf: { available: true } }
    const kernelSteps = plan(options, select(options, null), withBpf, placement)
      .filter(step => step.phase === 'kernel')
    assert.ok(kernelSteps.length > 0 && kernelSteps.every(step => step.pin.policy === policy), 'kernel steps')
  }
})
