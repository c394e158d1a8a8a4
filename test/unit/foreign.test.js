'use strict'
// Foreign CPU time, in this process: the arithmetic from hand-made readings, and the
// count of disturbed steps a run reports.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const {
  foreignTime, pipelineForeign, userNs, userForeign, benchCpu, benchUserNs, noiseGauge, disturbanceOf, FLOOR_NS,
  thresholdText, uncheckedText,
  disturbanceText, DISTURBED_SHARE, MAX_REMEASURES, NOISE_LEAST, NOISE_FACTOR,
  PREEMPTED_SHARE, PREEMPTED_LEAST, ONE_THREAD_LEAST
} = require('../../lib/foreign')
const { CLK_TCK } = require('../../lib/procfs')
const { summariseResults } = require('../../experiments/stdio/summary')
const { planProgress } = require('../../lib/run-log')

test('foreign time: each CPU\'s busy time less the step\'s own, and the worst CPU decides', () => {
  // 100 ms on 2 CPUs: CPU 0 busy 30 ms of which 27 ms the step's own, CPU 1 busy 50 of 50
  const step = foreignTime({ source: 'cpuidle', windowNs: 100e6, perCpu: [{ cpu: 0, busyNs: 30e6, ownNs: 27e6 }, { cpu: 1, busyNs: 50e6, ownNs: 50e6 }] })
  assert.deepEqual([step.busyNs, step.ownNs, step.foreignNs], [80e6, 77e6, 3e6])
  assert.equal(step.share, 0.03, 'CPU 0\'s 3 ms of 100, not 3 of the two CPUs\' 200')
  assert.equal(step.disturbed, false, 'exactly the threshold share is not above it')
  assert.equal(foreignTime({ source: 'cpuidle', windowNs: 100e6, perCpu: [{ cpu: 0, busyNs: 31e6, ownNs: 27e6 }] }).disturbed, true, '4 ms, 4%')
  // a short step: 50% foreign, but 1 ms is under the floor of what can be told apart
  assert.equal(foreignTime({ source: 'cpuidle', windowNs: 2e6, perCpu: [{ cpu: 1, busyNs: 2e6, ownNs: 1e6 }] }).disturbed, false)
  // /proc/stat's ticks: 15 ms foreign of a 100 ms step is under the 20 ms floor of 10 ms ticks
  assert.equal(foreignTime({ source: 'stat', windowNs: 100e6, perCpu: [{ cpu: 1, busyNs: 100e6, ownNs: 85e6 }] }).disturbed, false)
  assert.equal(foreignTime({ source: 'stat', windowNs: 100e6, perCpu: [{ cpu: 1, busyNs: 100e6, ownNs: 75e6 }] }).disturbed, true)
  // rounding can make own time exceed busy time: never negative foreign time
  assert.equal(foreignTime({ source: 'cpuidle', windowNs: 100e6, perCpu: [{ cpu: 1, busyNs: 90e6, ownNs: 91e6 }] }).foreignNs, 0)
  assert.equal(foreignTime({ source: 'cpuidle', windowNs: 100e6, perCpu: [{ cpu: 1, busyNs: NaN, ownNs: 1 }] }), null, 'an unreadable CPU')
})

test('a pipeline\'s own time is its reader\'s and feeder\'s on the CPU each was pinned to, and that CPU\'s steal', () => {
  const result = {
    wallNs: 100e6,
    cpuIdle: { source: 'stat', cpus: [0, 1], idle_ns: [70e6, 10e6] },
    stealTicks: [5, 1],
    clkTck: 100,
    reader: { userUs: 50000, sysUs: 10000 },
    feeder: { userUs: 5000, sysUs: 15000 }
  }
  const apart = pipelineForeign(result, { feeder: 0, reader: 1 })
  assert.equal(apart.ownNs, 20e6 + 50e6 + 60e6 + 10e6, 'dd and CPU 0\'s five ticks of steal; the reader and CPU 1\'s one')
  assert.equal(apart.foreignNs, 20e6, 'CPU 0: 30 ms busy, all dd\'s and steal\'s; CPU 1: 90 ms busy, 70 the reader\'s and steal\'s')
  assert.equal(apart.share, 0.2)
  const shared = pipelineForeign({ ...result, cpuIdle: { source: 'cpuidle', cpus: [1], idle_ns: [10e6] } }, { feeder: 1, reader: 1 })
  assert.equal(shared.ownNs, 90e6)
  assert.equal(shared.foreignNs, 0)
  assert.equal(pipelineForeign({ ...result, cpuIdle: null }, { feeder: 1, reader: 1 }), null, 'no reading')
  assert.equal(pipelineForeign(result, null), null, 'an unpinned run')
})

test('two pipelines that took turns are one step: the longer\'s window, both pipelines\' time its own', () => {
  const usage = (userUs, sysUs) => ({ userUs, sysUs })
  const pin = { feeder: 1, reader: 1 }
  // the reader's run: 100 ms, CPU 1 idle 5 ms of it; C's run beside it: 60 ms
  const mine = { wallNs: 100e6, cpuIdle: { source: 'cpuidle', cpus: [1], idle_ns: [5e6] }, stealTicks: [0, 0], clkTck: 100, reader: usage(40000, 10000), feeder: usage(0, 10000) }
  const partner = { wallNs: 60e6, cpuIdle: { source: 'cpuidle', cpus: [1], idle_ns: [2e6] }, stealTicks: [0, 0], clkTck: 100, reader: usage(10000, 15000), feeder: usage(0, 5000) }
  const alone = pipelineForeign(mine, pin)
  assert.equal(alone.disturbed, true, 'alone, C\'s 30 ms would be foreign')
  const pair = pipelineForeign(mine, pin, partner)
  assert.equal(pair.windowNs, 100e6, 'the longer window')
  assert.equal(pair.ownNs, 60e6 + 30e6)
  assert.equal(pair.foreignNs, 5e6, '95 ms busy, 90 of it the two pipelines\'')
  assert.deepEqual(pipelineForeign(partner, pin, mine), pair, 'whichever is given first')
  assert.equal(pipelineForeign(mine, pin, { ...partner, reader: null }), null, 'a partner that never ran')
})

// The profile pass of 2026-12-07: calm runs of C's reader at SCHED_BATCH switched 12,286
// times voluntarily (once a pipe's worth) and 16 to 53 times not; node-sync's run in a spell
// 8,415 and 62,240, with 0.24% foreign time.
test('a batch pipeline whose reader another task switched out is disturbed, foreign time or not', () => {
  const usage = (voluntaryCs, involuntaryCs) => ({ userUs: 40000, sysUs: 50000, voluntaryCs, involuntaryCs })
  const idle = { source: 'cpuidle', cpus: [1], idle_ns: [10e6] }
  const feeder = { userUs: 0, sysUs: 0 }
  const run = reader => ({ wallNs: 100e6, cpuIdle: idle, stealTicks: [0, 0], clkTck: 100, reader, feeder })
  const batch = { feeder: 1, reader: 1, policy: 'batch' }
  const calm = pipelineForeign(run(usage(12286, 53)), batch)
  assert.equal(calm.disturbed, false)
  assert.equal(calm.preempted, undefined)
  const spell = pipelineForeign(run(usage(8415, 62240)), batch)
  assert.equal(spell.foreignNs, 0, 'no foreign time to see')
  assert.equal(spell.disturbed, true)
  assert.deepEqual(spell.preempted, { involuntaryCs: 62240, voluntaryCs: 8415 })
  // just over and at the share
  assert.equal(pipelineForeign(run(usage(2000, 2000 * PREEMPTED_SHARE + 1)), batch).disturbed, true)
  assert.equal(pipelineForeign(run(usage(2000, 2000 * PREEMPTED_SHARE)), batch).disturbed, false)
  // a short run's few switches are too few to judge, however many of its voluntary ones
  assert.equal(pipelineForeign(run(usage(0, PREEMPTED_LEAST)), batch).disturbed, false)
  assert.equal(pipelineForeign(run(usage(0, PREEMPTED_LEAST + 1)), batch).disturbed, true)
  // at the default policy the reader is switched out at every wake-up of its feeder: no judge
  assert.equal(pipelineForeign(run(usage(8415, 62240)), { feeder: 1, reader: 1 }).disturbed, false)
  // in turns with C: either reader switched out makes the step disturbed
  const pair = pipelineForeign(run(usage(12286, 53)), batch, run(usage(8415, 62240)))
  assert.equal(pair.disturbed, true)
  assert.deepEqual(pair.preempted, { involuntaryCs: 62240, voluntaryCs: 8415 })
  assert.deepEqual(pipelineForeign(run(usage(8415, 62240)), batch, run(usage(12286, 53))).preempted,
    { involuntaryCs: 62240, voluntaryCs: 8415 }, 'the variant\'s reader as well as C\'s')
  // CPUs that could not be read: the switches still judge the step, and nothing else does
  const unread = pipelineForeign({ ...run(usage(8415, 62240)), cpuIdle: null }, batch)
  const preempted = { involuntaryCs: 62240, voluntaryCs: 8415 }
  assert.deepEqual(unread, { cpus: [1], source: 'switches', windowNs: 100e6, preempted, disturbed: true })
  assert.equal(noiseGauge().judge(unread), unread, 'not the residuals\' to judge')
  // in turns, the longer pipeline's window, whichever was switched out
  const longer = { ...run(usage(12286, 53)), wallNs: 160e6, cpuIdle: null }
  assert.equal(pipelineForeign({ ...run(usage(8415, 62240)), cpuIdle: null }, batch, longer).windowNs, 160e6)
  assert.equal(pipelineForeign({ ...run(usage(12286, 53)), cpuIdle: null }, batch), null)
  assert.equal(pipelineForeign({ ...run(usage(8415, 62240)), cpuIdle: null }, { feeder: 1, reader: 1 }), null)
  // a pipeline whose reader never ran has no switches to judge
  assert.equal(pipelineForeign({ ...run(null), cpuIdle: null }, batch), null)
  assert.equal(disturbanceOf([{ foreign: unread }]).preempted, 1)
  // the noise gauge's judgement by residuals never clears it
  const byStat = { source: 'stat', cpus: [1], idle_ns: [10e6] }
  const stat = pipelineForeign({ ...run(usage(8415, 62240)), cpuIdle: byStat }, batch)
  assert.equal(noiseGauge().judge(stat).disturbed, true)
  // and a run says how many of its disturbed tries were these
  const log = [{ foreign: spell }, { foreign: calm }]
  assert.equal(disturbanceOf(log).preempted, 1)
  assert.match(disturbanceText(disturbanceOf(log)), new RegExp('^1 try of 2 steps saw other work on their ' +
    'CPUs \\(above 3% of their time\\) or had their reader switched out by it \\(involuntary switches ' +
    'above 10% of the voluntary ones, at SCHED_BATCH: 1; the wait for quiet CPUs cannot see such ' +
    'work\\); 0 measured again'))
})

// wasmer's reader at SCHED_BATCH: its main thread did 1.51 s of its 3.0 s, its tokio workers
// the rest (2026-12-08), and a profiled run in which it yielded the CPU to them switched 537,267
// times involuntarily to 1,978,179 voluntarily (2026-12-07, pI).
test('a reader that shares its work between threads is judged by its foreign time, not its switches', () => {
  const idle = { source: 'cpuidle', cpus: [1], idle_ns: [10e6] }
  const reader = busiestThreadNs => ({
    userUs: 1.5e6, sysUs: 1.5e6, voluntaryCs: 1978179, involuntaryCs: 537267, busiestThreadNs
  })
  const feeder = { userUs: 0, sysUs: 0 }
  const samples = [[1e9, 0, 0], [3e9, 199e6, 3e9]]
  const run = (busiestThreadNs, cpuIdle = idle) =>
    ({ wallNs: 3.1e9, cpuIdle, stealTicks: [0, 0], clkTck: 100, feeder, reader: reader(busiestThreadNs), samples })
  const batch = { feeder: 1, reader: 1, policy: 'batch' }
  const threaded = pipelineForeign(run(1.51e9), batch)
  assert.equal(threaded.disturbed, false)
  assert.equal(threaded.preempted, undefined)
  // just under and at the share of one thread
  assert.equal(pipelineForeign(run(ONE_THREAD_LEAST * 3e9 - 1), batch).disturbed, false)
  assert.equal(pipelineForeign(run(ONE_THREAD_LEAST * 3e9), batch).disturbed, true)
  // its busiest thread unknown (not sampled): its switches judge it, as any reader's
  assert.equal(pipelineForeign({ ...run(1.51e9), samples: null }, batch).disturbed, true)
  assert.equal(pipelineForeign(run(undefined), batch).disturbed, true)
  // foreign time still judges it
  const busy = { ...idle, idle_ns: [0] }
  assert.equal(pipelineForeign({ ...run(1.51e9, busy), wallNs: 4e9 }, batch).disturbed, true)
  // CPUs that could not be read, and no switches to judge: nothing to say
  assert.equal(pipelineForeign(run(1.51e9, null), batch), null)
})

test('http\'s foreign time is the user time of its CPUs beyond wrk\'s and the server\'s', () => {
  const text = 'cpu  1 2 3 4\ncpu0 100 20 7 9 0 0 0 0 0 0\ncpu1 300 0 9 9 0 0 0 0 0 0\nintr 5\n'
  assert.deepEqual(userNs([0, 1], text), [120 * 1e9 / CLK_TCK, 300 * 1e9 / CLK_TCK])
  assert.deepEqual(userNs([1, 2], text).map(Number.isNaN), [false, true], 'a CPU /proc/stat lacks')
  // one second: CPU 0 ran 600 ms of user time, wrk 500 of it; CPU 1 ran 900, the server 890
  const step = userForeign({ cpus: [0, 1], before: [0, 0], after: [600e6, 900e6], windowNs: 1e9, ownUserNs: [500e6, 890e6] })
  assert.equal(step.source, 'stat')
  assert.equal(step.share, 0.1)
  assert.equal(step.disturbed, true)
  assert.equal(userForeign({ cpus: [0, 1], before: [0, 0], after: [510e6, 900e6], windowNs: 1e9, ownUserNs: [500e6, 890e6] }).disturbed, false, 'a tick either way')
})

test('the bench\'s own user time is the step\'s own on the one CPU it is pinned to, and foreign elsewhere', () => {
  assert.equal(benchCpu('Name:\tnode\nCpus_allowed:\t1\nCpus_allowed_list:\t0\n'), 0)
  assert.equal(benchCpu('Cpus_allowed_list:\t3\n'), 3)
  assert.equal(benchCpu('Cpus_allowed_list:\t0-1\n'), null, 'not pinned: its time cannot be placed')
  assert.equal(benchCpu('Cpus_allowed_list:\t0,2\n'), null)
  assert.equal(benchCpu(null), null, 'no /proc')
  assert.ok(benchUserNs() > 0 && Number.isFinite(benchUserNs()))
  // CPU 0 ran 600 ms of user time, wrk 500 of it and the bench 100: nothing foreign where the
  // bench is pinned, 100 ms where it is not
  const step = {
    cpus: [0, 1], before: [0, 0], after: [600e6, 890e6], windowNs: 1e9, ownUserNs: [500e6, 890e6], benchUser: 100e6
  }
  assert.equal(userForeign({ ...step, benchOn: 0 }).foreignNs, 0)
  assert.equal(userForeign({ ...step, benchOn: 1 }).foreignNs, 100e6)
  assert.equal(userForeign({ ...step, benchOn: null }).foreignNs, 100e6)
})

// A step of a second on CPUs 0 and 1 whose user time beyond its processes' was `residualsMs`.
const userStep = residualsMs => userForeign({
  cpus: [0, 1],
  before: [0, 0],
  after: residualsMs.map(ms => 500e6 + ms * 1e6),
  windowNs: 1e9,
  ownUserNs: [500e6, 500e6],
  benchOn: null
})

test('the check by user time is judged against its own error, heard below zero CPU by CPU', () => {
  const noise = noiseGauge()
  // 50 ms on CPU 0: past 3% and the floor of 20 ms, disturbed while nothing has been heard
  assert.equal(noise.judge(userStep([50, 0])).disturbed, true)
  // its error on CPU 0, heard from steps whose time there fell short of their processes'
  for (let i = 0; i < NOISE_LEAST - 1; i++) noise.hear(userStep([-20 - (i % 3) * 10, 0]))
  assert.equal(noise.judge(userStep([50, 0])).disturbed, true, `fewer than ${NOISE_LEAST} heard`)
  noise.hear(userStep([-20, 0]))
  // 20 of 20-40 ms below zero: a median of 30, a floor of NOISE_FACTOR times it on CPU 0 only
  const judged = noise.judge(userStep([50, 0]))
  assert.deepEqual(judged.noiseFloorsNs, [NOISE_FACTOR * 30e6, 0])
  assert.equal(judged.disturbed, false, 'within the error heard on CPU 0')
  assert.equal(noise.judge(userStep([NOISE_FACTOR * 30 + 10, 0])).disturbed, true, 'beyond it')
  assert.equal(noise.judge(userStep([0, 50])).disturbed, true, 'CPU 1 has been heard of nothing')
  // a few large shortfalls (a server whose children's time the kernel counts as user time)
  // move the median little
  for (let i = 0; i < 3; i++) noise.hear(userStep([-300, 0]))
  assert.ok(noise.judge(userStep([0, 0])).noiseFloorsNs[0] <= NOISE_FACTOR * 30e6)
  assert.equal(noise.judge(userStep([300, 0])).disturbed, true, 'a busy loop\'s 30% still shows')
  // positive residuals tell nothing of the error: they may be a neighbour's
  const quietGauge = noiseGauge()
  for (let i = 0; i < 40; i++) quietGauge.hear(userStep([200, 0]))
  assert.deepEqual(quietGauge.judge(userStep([50, 0])).noiseFloorsNs, [0, 0])
  // a try judged disturbed is not heard: a burst on CPU 1 moved CPU 0's residual as well
  const burstGauge = noiseGauge()
  for (let i = 0; i < NOISE_LEAST; i++) burstGauge.hear(burstGauge.judge(userStep([-160, 830])))
  assert.deepEqual(burstGauge.judge(userStep([50, 0])).noiseFloorsNs, [0, 0])
  // the pipelines' exact idle time is judged as before
  const exact = { ...foreignTime({ source: 'cpuidle', windowNs: 1e9, perCpu: [{ cpu: 1, busyNs: 50e6, ownNs: 0 }] }) }
  assert.deepEqual(noise.judge(exact), exact)
  assert.equal(noise.judge(null), null)
})

// Records as bench.js logs them: a disturbed step measured again leaves a superseded try.
const record = (run, disturbed, superseded = false) => ({
  phase: 'timing',
  program: 'c',
  blockSize: 256,
  run,
  bytes: 1 << 20,
  ok: true,
  wallNs: 1e8,
  command: 'x',
  reader: { userUs: 1, sysUs: 1, maxRssKb: 1 },
  feeder: { userUs: 1, sysUs: 1 },
  output: { size: 1 << 20, reads: 4096, blockSize: 256 },
  foreign: { share: disturbed ? 0.4 : 0.001, disturbed, cpus: [1] },
  ...(superseded ? { superseded: true } : {})
})

test('a run counts its disturbed steps, and a superseded try is never a data point', () => {
  const log = [record(0, false), record(1, true, true), record(1, true, true), record(1, false), record(2, true)]
  assert.deepEqual(disturbanceOf(log),
    {
      threshold: disturbanceOf([]).threshold,
      ...{ steps: 3, disturbed: 3, preempted: 0, remeasured: 2, keptDisturbed: 1, unchecked: 0 }
    })
  assert.equal(disturbanceOf([]).threshold.share, DISTURBED_SHARE)
  assert.equal(disturbanceOf([]).threshold.maxRemeasures, MAX_REMEASURES)
  const results = summariseResults(log, { runId: 'r', options: { feeder: 'fixed', runs: 3 } })
  assert.equal(results.cells[0].runs, 3, 'runs 0, 1 (its last try) and 2')
  assert.equal(results.disturbance.remeasured, 2)
  assert.deepEqual(planProgress({ plannedRuns: { timing: 3 } }, log), { planned: 3, logged: 3 })
})

test('steal of a step that is no one pipeline: /proc/stat\'s steal column at both ends, in ticks', () => {
  const { stealNs, stealBetween } = require('../../lib/foreign')
  const stat = steal => `cpu  1 2 3 4 5 6 7 ${2 * steal} 0 0\ncpu0 1 2 3 4 5 6 7 ${steal} 0 0\ncpu1 1 2 3 4 5 6 7 ${steal + 1} 0 0\n`
  // 10 ms ticks: 5 and 6 ticks, then 8 and 9
  const before = stealNs([0, 1], stat(5))
  const after = stealNs([0, 1], stat(8))
  assert.deepEqual(before, [50e6, 60e6])
  assert.deepEqual(stealBetween([0, 1], before, after), { cpus: [0, 1], ticks: 6, clkTck: 100 })
  // a CPU /proc/stat has no line for: no record rather than a made-up one
  assert.equal(stealBetween([0, 7], stealNs([0, 7], stat(5)), stealNs([0, 7], stat(8))), null)
})

// A stop once waited out the whole quiet wait (4 s), longer than a caller's grace before
// SIGKILL, which left the run's lock behind.
test('the wait for quiet CPUs samples them until a stop comes, and not after', async () => {
  const { waitForQuiet } = require('../../lib/foreign')
  let slept = 0
  // a few ms a sample, as a real one takes: a window of µs can look busy for its whole wait
  const sleep = ms => { slept++; return new Promise(resolve => setTimeout(resolve, Math.min(ms, 5))) }
  const asked = []
  await waitForQuiet([0], () => false, ms => { asked.push(ms); return sleep(ms) })
  assert.ok(slept >= 1, 'it samples the CPUs')
  // /proc/stat counts ticks of 10 ms: in a sample too short, the floor of 20 ms, not the share
  // of 3%, decides, and only 12% shows in 250 ms
  assert.ok(asked.every(ms => ms * 1e6 * DISTURBED_SHARE >= FLOOR_NS.stat), `samples of ${asked[0]} ms`)
  slept = 0
  await waitForQuiet([0], () => true, sleep)
  assert.equal(slept, 0, 'a stop ends it before its first sample')
  // a stop that comes mid-wait, the CPUs busy (this process spinning through each sample, on
  // whichever CPU it is given: every one it may run on is watched): no sample after it (a
  // review: only a stop before the first was tested)
  let samples = 0
  const spin = ms => {
    samples++
    const until = performance.now() + ms
    while (performance.now() < until);
    return Promise.resolve()
  }
  await waitForQuiet(require('../../lib/placement').allowedCpus(), () => samples >= 2, spin)
  assert.equal(samples, 2, 'sampled on after the stop, or took the spinning CPUs for quiet')
})

// mini_httpd's children, which live between the timer's samples, read as all user time: its
// CPU read 110-170 ms of user time a second while its processes claimed 720-870 ms.
test('a CPU whose own user time cannot be told is not checked, nor heard as the check\'s error', () => {
  const step = { cpus: [0, 1], before: [0, 0], after: [300e6, 150e6], windowNs: 1e9, benchOn: null }
  const apart = userForeign({ ...step, ownUserNs: [290e6, null] })
  assert.deepEqual([apart.cpus, apart.uncheckedCpus, apart.residualsNs, apart.disturbed], [[0], [1], [10e6], false])
  assert.equal(userForeign({ ...step, ownUserNs: [100e6, null] }).disturbed, true, 'wrk\'s CPU is still checked')
  const shared = userForeign({ ...step, ownUserNs: [null, null] })
  assert.deepEqual([shared.cpus, shared.uncheckedCpus, shared.disturbed], [[], [0, 1], false])
  const noise = noiseGauge()
  for (let i = 0; i < NOISE_LEAST; i++) noise.hear(noise.judge(userForeign({ ...step, ownUserNs: [300e6, null] })))
  assert.deepEqual(noise.judge(userStep([0, 50])).noiseFloorsNs, [0, 0], 'nothing heard of CPU 1')
  const logged = [{ foreign: shared }, { foreign: apart }, { foreign: userStep([0, 0]) }]
  assert.equal(disturbanceOf(logged).unchecked, 2)
  assert.match(uncheckedText(disturbanceOf(logged)), /^2 steps had a CPU the check could not see/)
  assert.equal(uncheckedText(disturbanceOf([{ foreign: userStep([0, 0]) }])), null)
})

test('a run says the floors its check\'s own error set, the largest on each CPU', () => {
  const judged = floors => ({ foreign: { ...userStep([0, 0]), noiseFloorsNs: floors } })
  const disturbance = disturbanceOf([judged([0, 0]), judged([52e6, 40e6]), judged([48e6, 0])])
  assert.deepEqual(disturbance.threshold.noiseFloorsNs, { 0: 52e6, 1: 40e6 })
  assert.equal(thresholdText(disturbance.threshold),
    'above 3% of their time, and above 4 times the check\'s own error heard in the run, up to 52 ms on CPU 0 ' +
    'and 40 ms on CPU 1')
  assert.equal(thresholdText(disturbanceOf([judged([0, 0])]).threshold), 'above 3% of their time')
})

// Where the bench is pinned is read from /proc/self/status when a caller does not say: in a
// process pinned to CPU 0, its own user time there is its own.
test('the bench\'s own time is placed on the CPU it is pinned to, read from /proc', () => {
  const { execFileSync } = require('node:child_process')
  const script = `const { userForeign } = require(${JSON.stringify(require.resolve('../../lib/foreign'))})
    const f = userForeign({ cpus: [0, 1], before: [0, 0], after: [600e6, 500e6], windowNs: 1e9,
      ownUserNs: [500e6, 500e6], benchUser: 100e6 })
    process.stdout.write(String(f.foreignNs))`
  const out = execFileSync('taskset', ['-c', '0', process.execPath, '-e', script], { encoding: 'utf8' })
  assert.equal(out, '0')
})
