'use strict'
// Foreign CPU time, read for real: pipe-run's readings of the CPUs' idle time (cpuidle,
// or /proc/stat's ticks), a real run disturbed by a busy loop pinned to the reader's
// CPU, and the cost pass's sampling.
const { test, before } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')
const { PIPE_RUN, runPipeline, ddFeeder } = require('../../lib/pipeline')
const { pipelineForeign } = require('../../lib/foreign')
const { sharedCpuPin } = require('../../lib/pipeline')

const ROOT = path.join(__dirname, '..', '..')

before(() => {
  const made = spawnSync('make', ['-s', 'all'], { cwd: ROOT, encoding: 'utf8' })
  assert.equal(made.status, 0, `make failed (run ./setup.sh first): ${made.stderr}`)
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

// The profile pass's: the reader is perf record, and what it runs is what is sampled.
test('pipe-run --sample-below: the CPU ns of what the reader runs, not the wrapper\'s own', async () => {
  const wcC = path.join(ROOT, 'build', 'wc-c')
  // a shell that waits for its reader: its own CPU time is nearly nil, its child's is the read
  const reader = ['sh', '-c', `${wcC} 256; true`]
  const spec = { feeder: ddFeeder(32 << 20, 65536), reader, timeoutMs: 60000, pin: sharedCpuPin(), sampleMs: 1 }
  const below = await runPipeline({ ...spec, sampleBelow: true })
  const own = await runPipeline(spec)
  assert.equal(below.reader.exit, 0, below.stderr)
  for (let i = 1; i < below.samples.length; i++) {
    assert.ok(below.samples[i][0] >= below.samples[i - 1][0], 'CPU time never falls, the child reaped or not')
  }
  const readerNs = (below.reader.userUs + below.reader.sysUs) * 1000
  const lastBelow = below.samples.at(-1)[0]
  assert.ok(lastBelow > 0.5 * readerNs, `the child's CPU seen: ${lastBelow} of ${readerNs} ns`)
  assert.ok(own.samples.at(-1)[0] < 0.1 * lastBelow, `the shell's own: ${own.samples.at(-1)[0]} ns`)
})

// The busiest thread's share, which tells a reader that shares its work between threads
// (lib/foreign.js ONE_THREAD_LEAST): all of one thread's, and part of two readers' at once.
test('pipe-run --sample-ms: the CPU ns of the reader\'s busiest thread at the last sample', async () => {
  const wcC = path.join(ROOT, 'build', 'wc-c')
  const spec = { feeder: ddFeeder(32 << 20, 65536), timeoutMs: 60000, pin: sharedCpuPin(), sampleMs: 1 }
  const one = await runPipeline({ ...spec, reader: [wcC, '256'] })
  assert.equal(one.reader.exit, 0, one.stderr)
  assert.equal(one.reader.busiestThreadNs, one.samples.at(-1)[0], 'one thread: all of it')
  // two readers at once on the one CPU, each its own input
  const both = `head -c ${32 << 20} /dev/zero | ${wcC} 256 > /dev/null & ${wcC} 256 > /dev/null; wait`
  const two = await runPipeline({ ...spec, reader: ['sh', '-c', both], sampleBelow: true })
  assert.equal(two.reader.exit, 0, two.stderr)
  const share = two.reader.busiestThreadNs / two.samples.at(-1)[0]
  assert.ok(share > 0.2 && share < 0.8, `the busiest of two readers' threads: ${share}`)
  const unsampled = await runPipeline({ ...spec, reader: [wcC, '256'], sampleMs: 0 })
  assert.equal(unsampled.reader.busiestThreadNs, undefined)
})
