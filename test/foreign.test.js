'use strict'
// Foreign CPU time: the arithmetic from hand-made readings, pipe-run's readings of the
// CPUs' idle time (cpuidle, or /proc/stat's ticks), a real run disturbed by a busy loop
// pinned to the reader's CPU, and the count of disturbed steps a run reports.
const { test, before } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')
const { PIPE_RUN, runPipeline, ddFeeder } = require('../lib/pipeline')
const { foreignTime, pipelineForeign, userNs, userForeign, disturbanceOf, DISTURBED_SHARE, MAX_REMEASURES } = require('../lib/foreign')
const { CLK_TCK } = require('../lib/procfs')
const { summariseResults } = require('../experiments/stdio/summary')
const { planProgress } = require('../lib/run-log')
const { sharedCpuPin } = require('../lib/pipeline')

const ROOT = path.join(__dirname, '..')

before(() => {
  const made = spawnSync('make', ['-s', 'all'], { cwd: ROOT, encoding: 'utf8' })
  assert.equal(made.status, 0, `make failed (run ./setup.sh first): ${made.stderr}`)
})

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

test('a pinned run reports its CPUs\' idle time, an unpinned one none', () => {
  const run = spawnSync(PIPE_RUN, ['--pin-feeder', '0', '--pin-reader', '0', '--', 'true', '--', 'true'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe', 'pipe'] })
  const result = JSON.parse(run.output[3])
  assert.deepEqual(result.cpu_idle.cpus, [0])
  assert.ok(['cpuidle', 'stat'].includes(result.cpu_idle.source))
  assert.ok(result.cpu_idle.idle_ns[0] >= 0)
  const unpinned = JSON.parse(spawnSync(PIPE_RUN, ['--', 'true', '--', 'true'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe', 'pipe'] }).output[3])
  assert.equal(unpinned.cpu_idle, undefined)
})

test('without cpuidle, /proc/stat\'s idle and iowait ticks stand in', () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-foreign-'))
  try {
    const stat = path.join(scratch, 'stat')
    fs.writeFileSync(stat, 'cpu  1 1 1 1 1 1 1 1 0 0\ncpu0 5 0 4 300 20 0 1 0 0 0\n')
    const run = spawnSync(PIPE_RUN, ['--proc-stat', stat, '--cpuidle', path.join(scratch, 'none'), '--pin-feeder', '0', '--pin-reader', '0', '--', 'true', '--', 'sh', '-c', `printf 'cpu0 5 0 4 310 25 0 1 0 0 0\\n' > '${stat}'`],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe', 'pipe'] })
    const result = JSON.parse(run.output[3])
    assert.equal(result.cpu_idle.source, 'stat')
    assert.deepEqual(result.cpu_idle.idle_ns, [15 * 1e9 / result.clk_tck], '10 idle and 5 iowait ticks')
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
})

// The lab's own CPU for the cost pass, loaded by a busy loop pinned there while a reader
// runs: the run must come out disturbed; the loop takes about half the CPU.
test('a busy loop pinned to the reader\'s CPU makes the run disturbed', async () => {
  const pin = sharedCpuPin()
  const loop = spawn('taskset', ['-c', String(pin.reader), 'sh', '-c', 'while :; do :; done'], { stdio: 'ignore' })
  try {
    await new Promise(resolve => setTimeout(resolve, 100))
    const result = await runPipeline({ feeder: ddFeeder(64 << 20, 65536), reader: [path.join(ROOT, 'build', 'wc-c'), '256'], timeoutMs: 60000, pin })
    assert.equal(result.reader.exit, 0, result.stderr)
    const foreign = pipelineForeign(result, pin)
    assert.ok(foreign.disturbed, `foreign ${JSON.stringify(foreign)}`)
    assert.ok(foreign.share > 0.2, `the loop had ${foreign.share} of the CPU`)
  } finally {
    loop.kill('SIGKILL')
  }
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
  assert.deepEqual(disturbanceOf(log), { threshold: disturbanceOf([]).threshold, steps: 3, disturbed: 3, remeasured: 2, keptDisturbed: 1 })
  assert.equal(disturbanceOf([]).threshold.share, DISTURBED_SHARE)
  assert.equal(disturbanceOf([]).threshold.maxRemeasures, MAX_REMEASURES)
  const results = summariseResults(log, { runId: 'r', options: { feeder: 'fixed', runs: 3 } })
  assert.equal(results.cells[0].runs, 3, 'runs 0, 1 (its last try) and 2')
  assert.equal(results.disturbance.remeasured, 2)
  assert.deepEqual(planProgress({ plannedRuns: { timing: 3 } }, log), { planned: 3, logged: 3 })
})

// The cost pass's sampling: pipe-run reads the reader's CPU time and bytes read as it runs.
test('pipe-run --sample-ms: the reader\'s CPU ns and the bytes dd wrote, rising through the run', async () => {
  const result = await runPipeline({ feeder: ddFeeder(32 << 20, 65536), reader: [path.join(ROOT, 'build', 'wc-c'), '256'], timeoutMs: 60000, pin: sharedCpuPin(), sampleMs: 1 })
  assert.equal(result.reader.exit, 0, result.stderr)
  assert.ok(result.samples.length >= 8, `${result.samples.length} samples`)
  for (let i = 1; i < result.samples.length; i++) {
    assert.ok(result.samples[i][0] >= result.samples[i - 1][0], 'CPU time never falls')
    assert.ok(result.samples[i][1] >= result.samples[i - 1][1], 'nor bytes written')
  }
  assert.ok(result.samples[result.samples.length - 1][1] <= 32 << 20, 'no more than dd sends')
  const unsampled = await runPipeline({ feeder: ['true'], reader: ['true'], timeoutMs: 60000 })
  assert.equal(unsampled.samples, null)
})
