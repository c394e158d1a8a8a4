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

const { runPipeline, runHeld, ddFeeder, stopCurrentPipeline, PIPE_RUN } = require('../../lib/pipeline')
const { allowedCpus } = require('../../lib/placement')
const { probePerf } = require('../../lib/perf')

const ROOT = path.resolve(__dirname, '..', '..')
const { waitFor, readRuns } = require('../helpers')
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

// extra: options added to the run's own; those named in `instead` (sizes, runs, warmup, the
// cost pass's options) replace its
function benchArgs (only, out, extra = [], instead = {}) {
  const { sizes = '4096', runs = '1', warmup = '0', cost = ['--no-cost'] } = instead
  const own = ['--sizes', sizes, '--runs', runs, '--warmup', warmup, '--no-strace', '--no-gc', ...cost]
  return [path.join(ROOT, 'bench.js'), '--only', only, ...own, '--out', out, '--id', 'run', ...extra]
}

function benchEnv (marker) {
  return { ...process.env, LAB_EXTRA_PROGRAMS: EXTRA, LAB_TEST_MARKER: marker }
}

function benchSync (run, only, extra, instead) {
  return spawnSync(process.execPath, benchArgs(only, run.dir, extra, instead), { cwd: ROOT, encoding: 'utf8', env: benchEnv(run.marker), timeout: 50000, killSignal: 'SIGKILL' })
}

function benchAsync (run, only, extra, instead) {
  const child = spawn(process.execPath, benchArgs(only, run.dir, extra, instead), { cwd: ROOT, env: benchEnv(run.marker), stdio: ['ignore', 'pipe', 'pipe'] })
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
// why a step of a reader that hung before at its size was not run
const hungAt = (blockSize, phase) => `hung at ${blockSize} B in the ${phase} pass: not run again`

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
    // and seen so from outside: no process of its marker left
    assert.deepEqual(marked(run.marker), [])
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
    const result = await pipelineMarked(run.marker,
      { feeder: ddFeeder(1 << 20, 65536), reader: [HANGS], timeoutMs: 2000, pin: null })
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

// A placement's policy (lib/placement.js sharedBatch) reaches both processes of the pipeline.
describe('a placement\'s scheduling policy', () => {
  // the 41st field of /proc/PID/stat is the policy: 0 SCHED_OTHER, 3 SCHED_BATCH
  const policyOf = who => `echo ${who} $(cut -d' ' -f41 /proc/$$/stat)`
  const spec = pin => ({
    feeder: ['sh', '-c', policyOf('feeder')],
    reader: ['sh', '-c', `cat; ${policyOf('reader')}`],
    timeoutMs: 60000,
    pin
  })
  const cpu = allowedCpus().at(-1)

  test('--policy batch: dd and the reader both at SCHED_BATCH; without it, the default', DEADLINE, async () => {
    const run = fresh()
    const batch = await pipelineMarked(run.marker, spec({ feeder: cpu, reader: cpu, policy: 'batch' }))
    assert.equal(batch.stdout, 'feeder 3\nreader 3\n')
    const plain = await pipelineMarked(run.marker, spec({ feeder: cpu, reader: cpu }))
    assert.equal(plain.stdout, 'feeder 0\nreader 0\n')
  })

  test('a pipe-run that does not know what it is given (one built before): the error says run make', DEADLINE,
    async () => {
      const run = fresh()
      await assert.rejects(pipelineMarked(run.marker, spec({ feeder: cpu, reader: cpu, policy: 'fifo' })),
        new RegExp('^Error: pipe-run gave no result \\(exit 125\\): usage: pipe-run .*; \\S+pipe-run ' +
          'may be older than lib/pipe-run\\.c: run make$', 's'))
    })

  test('a policy pipe-run does not know: its usage, exit 125', () => {
    const run = spawnSync(PIPE_RUN, ['--policy', 'fifo', '--', 'true', '--', 'true'], { encoding: 'utf8' })
    assert.equal(run.status, 125)
    assert.match(run.stderr, /^usage: pipe-run .*\[--policy batch\]/)
  })
})

// A held run (the fast-path check's, to name a reader's fast calls in its memory): the reader,
// fed everything, waits alive for more until it has been looked at, then ends as any does.
describe('a pipeline held open once fed', () => {
  test('look sees the reader alive after all was written; then it ends with the count', DEADLINE, async () => {
    const run = fresh()
    const holdFile = path.join(run.dir, 'held')
    const reader = [path.join(ROOT, 'build', 'wc-c'), '4096']
    const seen = []
    const look = pid => {
      seen.push({ argv: fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0], held: fs.existsSync(holdFile) })
      return 'looked'
    }
    process.env.LAB_TEST_MARKER = run.marker
    let held
    try {
      const feeder = ddFeeder(1 << 20, 65536)
      held = await runHeld({ feeder, reader, timeoutMs: 60000, pin: null }, holdFile, look)
    } finally {
      delete process.env.LAB_TEST_MARKER
    }
    assert.deepEqual(seen, [{ argv: reader[0], held: true }], 'looked at once, at the reader, while held')
    assert.equal(held.seen, 'looked')
    assert.equal(held.result.stdout, 'size 1048576 reads 256 blocksize 4096\n')
    assert.equal(held.result.feeder.exit, 0)
    assert.equal(held.result.reader.exit, 0)
    assert.equal(fs.existsSync(holdFile), false)
    assert.deepEqual(marked(run.marker), [])
  })

  test('an orphan of the reader on the same pipe, adopted by pipe-run, is not taken for it', DEADLINE, async () => {
    const run = fresh()
    const holdFile = path.join(run.dir, 'held')
    // the subshell forks sleep with the pipe as its stdin and exits: pipe-run adopts the sleep
    const reader = ['sh', '-c', '(sleep 30 <&0 &); exec cat > /dev/null']
    const feeder = ddFeeder(1 << 20, 65536)
    let seen = null
    process.env.LAB_TEST_MARKER = run.marker
    try {
      await runHeld({ feeder, reader, timeoutMs: 60000, pin: null }, holdFile, pid => {
        seen = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]
      })
    } finally {
      delete process.env.LAB_TEST_MARKER
    }
    assert.equal(seen, 'cat')
    assert.deepEqual(marked(run.marker), [], 'the orphan killed with the run')
  })

  test('a look that throws still lets the reader end, and nothing is left', DEADLINE, async () => {
    const run = fresh()
    const holdFile = path.join(run.dir, 'held')
    const feeder = ddFeeder(1 << 16, 65536)
    const spec = { feeder, reader: [path.join(ROOT, 'build', 'wc-c'), '4096'], timeoutMs: 60000, pin: null }
    process.env.LAB_TEST_MARKER = run.marker
    try {
      await assert.rejects(runHeld(spec, holdFile, () => { throw new Error('looked wrong') }), /looked wrong/)
    } finally {
      delete process.env.LAB_TEST_MARKER
    }
    await waitFor(() => marked(run.marker).length === 0, 10000, 'the pipeline to end')
    assert.equal(fs.existsSync(holdFile), false)
  })

  test('a reader that fails before its feeder holds is not looked at', DEADLINE, async () => {
    const run = fresh()
    const holdFile = path.join(run.dir, 'held')
    let looked = false
    const feeder = ddFeeder(1 << 20, 65536)
    const spec = { feeder, reader: ['false'], timeoutMs: 60000, pin: null }
    process.env.LAB_TEST_MARKER = run.marker
    let held
    try {
      held = await runHeld(spec, holdFile, () => { looked = true })
    } finally {
      delete process.env.LAB_TEST_MARKER
    }
    assert.equal(looked, false)
    assert.equal(held.seen, null)
    assert.equal(held.result.reader.exit, 1)
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
    assert.deepEqual(failures(run), [['startup', 'timed out after 2 s'], ['timing', hungAt(4096, 'startup')]])
    assert.deepEqual(marked(run.marker), [])
  })

  // Start-up runs at the largest size, so a reader that hangs at both sizes times out there
  // at 65536 B and first in the timing pass at 4096 B, each time in the cell's warm-up run;
  // every other step of it is not run.
  const TWO_SIZES = {
    sizes: '4096,65536', runs: '2', warmup: '1', cost: ['--rounds', '2', '--no-kernel', '--profile-rounds', '1']
  }
  const EVERY_PASS = ['--marginal', '--mib', '1', '--timeout', '1']
  const notRun = [
    ['startup', 65536, 1, hungAt(65536, 'startup')],
    ['timing-quarter', 4096, 0, hungAt(4096, 'timing')],
    ['timing', 4096, 1, hungAt(4096, 'timing')], ['timing-quarter', 4096, 1, hungAt(4096, 'timing')],
    ['timing', 65536, 0, hungAt(65536, 'startup')], ['timing-quarter', 65536, 0, hungAt(65536, 'startup')],
    ['timing', 65536, 1, hungAt(65536, 'startup')], ['timing-quarter', 65536, 1, hungAt(65536, 'startup')],
    ['cost', 4096, 0, hungAt(4096, 'timing')], ['cost', 65536, 0, hungAt(65536, 'startup')],
    ['cost', 4096, 1, hungAt(4096, 'timing')], ['cost', 65536, 1, hungAt(65536, 'startup')]
  ]
  // the profile pass (where perf may sample) profiles C beside the reader, as its yardstick:
  // the hanging reader's steps there are not run either
  // whether perf samples here: asked once (each probe runs perf record, a second or more)
  const perfSamples = probePerf().available
  if (perfSamples) {
    notRun.push(['profile', 4096, 0, hungAt(4096, 'timing')], ['profile-cpu', 4096, 0, hungAt(4096, 'timing')])
  }
  const hangs = log => log.filter(record => record.program === 'fixture-hangs')
  const timeouts = log => hangs(log).filter(record => !record.skipped)
    .map(record => [record.phase, record.blockSize, record.failure])
  const notRunIn = log => hangs(log).filter(record => record.skipped)
    .map(record => [record.phase, record.blockSize, record.run, record.failure])
  const oneTimeoutEachSize = [['startup', 65536, 'timed out after 1 s'], ['timing', 4096, 'timed out after 1 s']]

  test('a reader that hangs costs one timeout a size, whatever the pass: the rest fail unrun', DEADLINE, () => {
    const run = fresh()
    const result = benchSync(run, 'fixture-hangs', [...EVERY_PASS, '--report'], TWO_SIZES)
    assert.equal(result.status, 1, result.stderr + result.stdout)
    const log = readRuns(path.join(run.dir, 'run', 'all.jsonl'))
    assert.deepEqual(timeouts(log), oneTimeoutEachSize)
    const hung = hangs(log).filter(record => !record.skipped)
    assert.ok(hung.every(record => record.warmup === true && record.run === 0), 'a warm-up\'s hang is its step\'s')
    assert.deepEqual(notRunIn(log), notRun)
    assert.ok(hangs(log).every(record => record.ok === false))
    // C's profile, beside it, is C's own: run, and kept
    const yardstick = log.filter(record => record.program === 'c' && !record.superseded)
    const profiled = perfSamples ? [['profile', true], ['profile-cpu', true]] : []
    assert.deepEqual(yardstick.map(record => [record.phase, record.ok]), profiled)
    // each cell the skipped steps leave failed is listed once, and counted failed in its pass
    const results = readJson(path.join(run.dir, 'run', 'results.json'))
    const listed = results.failures.map(failure => [failure.phase, failure.blockSize, failure.reason, failure.skippedSteps])
    assert.deepEqual(listed, [
      ['startup', 65536, 'timed out after 1 s', 1], ['timing', 4096, 'timed out after 1 s', 1],
      ['timing-quarter', 4096, hungAt(4096, 'timing'), 1], ['timing', 65536, hungAt(65536, 'startup'), 1],
      ['timing-quarter', 65536, hungAt(65536, 'startup'), 1],
      ['cost', 4096, hungAt(4096, 'timing'), 1], ['cost', 65536, hungAt(65536, 'startup'), 1],
      // its profile at the cost pass's smallest size, where perf may sample: one step each
      ...(perfSamples
        ? ['profile', 'profile-cpu'].map(phase => [phase, 4096, hungAt(4096, 'timing'), undefined])
        : [])
    ])
    const failedCells = cells => cells.map(cell => [cell.blockSize, cell.flags.includes('failed'), cell.failedRuns])
    assert.deepEqual(failedCells(results.cells), [[4096, true, 2], [65536, true, 2]])
    assert.deepEqual(failedCells(results.headline.cells), [[4096, true, 2], [65536, true, 2]])
    assert.match(result.stdout, /- timing fixture-hangs @ 65536: hung at 65536 B in the startup pass: not run again/)
    const report = fs.readFileSync(path.join(run.dir, 'run', 'results.md'), 'utf8')
    assert.match(report, /cost fixture-hangs at 4 KiB, run 0: hung at 4096 B in the timing pass: not run again/)
    assert.deepEqual(marked(run.marker), [])
  })

  test('a resumed run remembers where its reader hung: no second timeout at a size', DEADLINE, async () => {
    const run = fresh()
    const child = benchAsync(run, 'fixture-hangs', EVERY_PASS, TWO_SIZES)
    const logFile = path.join(run.dir, 'run', 'all.jsonl')
    // stopped in the timing run at 4096 B, after the start-up's timeout was logged
    // whole lines only: a line being appended may be cut
    const startupLogged = () => fs.existsSync(logFile) && fs.readFileSync(logFile, 'utf8').split('\n').length - 1 === 2
    await waitFor(startupLogged, 30000, 'the start-up runs logged')
    child.kill('SIGTERM')
    const { code } = await closedWithin(child, 5000, 'SIGTERM')
    assert.equal(code, 130, child.output)
    const resume = [path.join(ROOT, 'bench.js'), '--resume', path.join(run.dir, 'run')]
    const resumed = spawnSync(process.execPath, resume, {
      cwd: ROOT, encoding: 'utf8', env: benchEnv(run.marker), timeout: 40000, killSignal: 'SIGKILL'
    })
    assert.equal(resumed.status, 1, resumed.stderr + resumed.stdout)
    const log = readRuns(logFile)
    assert.deepEqual(timeouts(log), oneTimeoutEachSize)
    assert.deepEqual(notRunIn(log), notRun)
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
    // two sizes: start-up at the larger, so that the reader is run again at the smaller
    const child = benchAsync(run, 'fixture-hangs', ['--timeout', '3'], { sizes: '4096,65536' })
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
