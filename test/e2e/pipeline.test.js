'use strict'
// Nothing of a run outlives it: readers that leave processes holding their stdout, or hang,
// through lib/pipeline.js and through the real bench, stopped by its timeout, by SIGTERM or
// SIGINT, and by SIGKILL of bench itself. Every process a test starts carries a marker in its
// environment (LAB_TEST_MARKER, inherited by pipe-run, dd, the reader and anything the reader
// starts, whatever session it moves to), so a leftover is found by reading /proc.
const { test, describe, before, afterEach } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const crypto = require('node:crypto')
const { spawn, spawnSync } = require('node:child_process')

const { runPipeline, ddFeeder, stopCurrentPipeline } = require('../../lib/pipeline')

const ROOT = path.resolve(__dirname, '..', '..')
const { waitFor } = require('../helpers')
const FIXTURES = path.join(__dirname, '..', 'fixtures')
const EXTRA = path.join(FIXTURES, 'extra-programs.js')
const LEAVES_CHILD = path.join(FIXTURES, 'wc-leaves-child.sh')
const HANGS = path.join(FIXTURES, 'wc-hangs.sh')
const LEFT_TWO = 'reader left 2 process(es) running after it exited'
// What these tests guard against is a wait without end: each test has one.
const DEADLINE = { timeout: 60000 }

// Live (not zombie) processes whose environment carries the marker: { pid, argv }.
function marked (marker) {
  const wanted = `LAB_TEST_MARKER=${marker}`
  const found = []
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8')
      if (/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) continue
      if (!fs.readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(wanted)) continue
      found.push({ pid: Number(name), argv: fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean) })
    } catch {
      // gone between the listing and the read
    }
  }
  return found
}

const names = processes => processes.map(p => path.basename(p.argv[0] ?? '?'))

// Each test's marker and temp folder; afterEach kills what a failing test left and removes the folder.
let current = null
function fresh () {
  current = { marker: crypto.randomBytes(8).toString('hex'), dir: fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-pipeline-')), children: [] }
  return current
}
afterEach(() => {
  if (!current) return
  for (const child of current.children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  for (const { pid } of marked(current.marker)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  fs.rmSync(current.dir, { recursive: true, force: true })
  delete process.env.LAB_TEST_MARKER
  current = null
})

// runPipeline spawns pipe-run with this process's environment: the marker goes in it for one call.
async function pipelineMarked (marker, options) {
  process.env.LAB_TEST_MARKER = marker
  try {
    return await runPipeline(options)
  } finally {
    delete process.env.LAB_TEST_MARKER
  }
}

function benchArgs (only, out, extra = []) {
  return [path.join(ROOT, 'bench.js'), '--only', only, '--sizes', '4096', '--runs', '1', '--warmup', '0', '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'run', ...extra]
}

function benchEnv (marker) {
  return { ...process.env, LAB_EXTRA_PROGRAMS: EXTRA, LAB_TEST_MARKER: marker }
}

function benchSync (run, only, extra) {
  return spawnSync(process.execPath, benchArgs(only, run.dir, extra), { cwd: ROOT, encoding: 'utf8', env: benchEnv(run.marker), timeout: 50000, killSignal: 'SIGKILL' })
}

function benchAsync (run, only, extra) {
  const child = spawn(process.execPath, benchArgs(only, run.dir, extra), { cwd: ROOT, env: benchEnv(run.marker), stdio: ['ignore', 'pipe', 'pipe'] })
  run.children.push(child)
  child.output = ''
  child.stdout.on('data', chunk => { child.output += chunk })
  child.stderr.on('data', chunk => { child.output += chunk })
  child.closed = new Promise(resolve => child.on('close', (code, signal) => resolve({ code, signal })))
  return child
}

// Resolves to the close event's { code, signal }, or fails when it has not come within deadlineMs.
function closedWithin (child, deadlineMs, what) {
  let timer
  const late = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: bench still running ${deadlineMs} ms later; its output: ${child.output}`)), deadlineMs)
  })
  return Promise.race([child.closed, late]).finally(() => clearTimeout(timer))
}

const readJson = file => JSON.parse(fs.readFileSync(file, 'utf8'))
const failures = run => readJson(path.join(run.dir, 'run', 'results.json')).failures.map(failure => [failure.phase, failure.reason])

before(() => {
  const made = spawnSync('make', ['-s', 'all'], { cwd: ROOT, encoding: 'utf8' })
  assert.equal(made.status, 0, `make failed (run ./setup.sh first): ${made.stderr}`)
})

describe('pipe-run leaves nothing behind', () => {
  test('a clean reader leaves nothing', DEADLINE, async () => {
    const run = fresh()
    const result = await pipelineMarked(run.marker, { feeder: ddFeeder(1 << 20, 65536), reader: [path.join(ROOT, 'build', 'wc-c'), '4096'], timeoutMs: 60000, pin: null })
    assert.equal(result.stdout, 'size 1048576 reads 256 blocksize 4096\n')
    assert.equal(result.leftBehind, 0)
  })

  test('a reader that exits 0 but leaves two processes holding its stdout: counted, killed, and the run returns', DEADLINE, async () => {
    const run = fresh()
    const result = await pipelineMarked(run.marker, { feeder: ddFeeder(1 << 20, 65536), reader: [LEAVES_CHILD], timeoutMs: 60000, pin: null })
    assert.equal(result.stdout.trim(), '1048576')
    assert.equal(result.reader.exit, 0)
    assert.ok(!result.timedOut && !result.stoppedBy)
    // one left in the reader's process group, one in a session of its own
    assert.equal(result.leftBehind, 2)
    assert.deepEqual(marked(run.marker), [], 'pipe-run reaped all it killed before it exited')
  })

  test('a reader that hangs: the timeout kills it, dd, and what it started in another session', DEADLINE, async () => {
    const run = fresh()
    const result = await pipelineMarked(run.marker, { feeder: ddFeeder(1 << 20, 65536), reader: [HANGS], timeoutMs: 500, pin: null })
    assert.equal(result.timedOut, true)
    assert.equal(result.reader.signal, 9)
    assert.equal(result.feeder.signal, 9)
    // the process group's members died with it; the one in its own session is what was left
    assert.equal(result.leftBehind, 1)
    assert.deepEqual(marked(run.marker), [])
  })

  test('a stop while a hanging reader runs ends every process of the run', DEADLINE, async () => {
    const run = fresh()
    const running = pipelineMarked(run.marker, { feeder: ddFeeder(1 << 20, 65536), reader: [HANGS], timeoutMs: 60000, pin: null })
    await waitFor(() => names(marked(run.marker)).filter(name => name === 'sleep').length === 2, 10000, 'the reader and its child')
    stopCurrentPipeline()
    const result = await running
    assert.equal(result.stoppedBy, 15)
    assert.deepEqual(marked(run.marker), [])
  })
})

describe('bench.js with a reader that leaves processes or hangs', () => {
  test('leaving processes behind fails every run with the reason, and none is left running', DEADLINE, () => {
    const run = fresh()
    const result = benchSync(run, 'fixture-leaves-child')
    assert.equal(result.status, 1, result.stderr + result.stdout)
    assert.deepEqual(failures(run), [['startup', LEFT_TWO], ['timing', LEFT_TWO]])
    assert.match(result.stdout, /reader left 2 process\(es\) running after it exited/)
    assert.deepEqual(marked(run.marker), [])
  })

  test('--timeout 2: a hanging reader fails as timed out, and none of it is left running', DEADLINE, () => {
    const run = fresh()
    const result = benchSync(run, 'fixture-hangs', ['--timeout', '2'])
    assert.equal(result.status, 1, result.stderr + result.stdout)
    assert.deepEqual(failures(run), [['startup', 'timed out after 2 s'], ['timing', 'timed out after 2 s']])
    assert.deepEqual(marked(run.marker), [])
  })

  for (const signal of ['SIGTERM', 'SIGINT']) {
    test(`${signal} while a hanging reader runs: bench stops with 130 and leaves nothing running`, DEADLINE, async () => {
      const run = fresh()
      const child = benchAsync(run, 'fixture-hangs')
      await waitFor(() => names(marked(run.marker)).filter(name => name === 'sleep').length === 2 || child.exitCode !== null, 30000, 'the reader and its child')
      assert.equal(child.exitCode, null, `bench ended before the reader ran: ${child.output}`)
      child.kill(signal)
      const { code } = await closedWithin(child, 5000, signal)
      assert.equal(code, 130, child.output)
      assert.match(child.output, /resume with: node bench\.js --resume /)
      assert.deepEqual(marked(run.marker), [])
    })
  }

  test('SIGKILL of bench: pipe-run, dd, the reader and its child all die too', DEADLINE, async () => {
    const run = fresh()
    // The start-up run (empty input, so dd is gone at once) times out; in the timing run dd
    // blocks on the pipe the reader never reads, for long enough to be seen.
    const child = benchAsync(run, 'fixture-hangs', ['--timeout', '3'])
    const everyone = ['dd', 'pipe-run', 'sleep', 'sleep']
    await waitFor(() => {
      const seen = names(marked(run.marker)).filter(name => name !== 'node').sort()
      return JSON.stringify(seen) === JSON.stringify(everyone.slice().sort()) || child.exitCode !== null
    }, 30000, `${everyone.join(', ')} of the timing run`)
    assert.equal(child.exitCode, null, `bench ended before the timing run: ${child.output}`)
    child.kill('SIGKILL')
    await closedWithin(child, 5000, 'SIGKILL')
    await waitFor(() => marked(run.marker).length === 0, 5000, 'no process of the run left')
  })
})
