'use strict'
// bench.js end to end on tiny runs, and the pipeline timer under it: every file a run
// writes, readers that miscount or read too much, Ctrl-C and --resume, --marginal,
// --feeder file, and bad input refused.
const { test, describe, before } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')

const { median } = require('../../lib/stats')
const { runPipeline, ddFeeder, stopCurrentPipeline } = require('../../lib/pipeline')
const { zeroFileFolders } = require('../../experiments/stdio/zero-file')
const { slopePerRead, pairFigures, partnerRatio, partnerBytes } = require('../../experiments/stdio/cost')

const ROOT = path.resolve(__dirname, '..', '..')
const { waitFor, bench, readRuns: readLog, readJson, close, tempFolders, FIXTURES } = require('../helpers')
const EXTRA = path.join(FIXTURES, 'extra-programs.js')
const tempDir = tempFolders('syscall-lab-bench-')

before(() => {
  const made = spawnSync('make', ['-s', 'all'], { cwd: ROOT, encoding: 'utf8' })
  assert.equal(made.status, 0, `make failed (run ./setup.sh first): ${made.stderr}`)
})

describe('a cost run too short for its slope', () => {
  test('runs again longer, at once, until it has one; the record keeps the shorter tries', async () => {
    // 1 MiB of 64 KiB blocks: C reads it in well under a millisecond, on any CPU
    const { measure } = require('../../experiments/stdio/measure')
    const { findProgram } = require('../../experiments/stdio/programs')
    const { placementPlan, allowedCpus } = require('../../lib/placement')
    const pin = placementPlan(allowedCpus()).shared
    const program = findProgram('c')
    const step = { phase: 'cost', program, blockSize: 65536, bytes: 1 << 20, run: 0, warmup: 0, pin, ownFeeder: true, sampleMs: 1 }
    const { record } = await measure(step, 0, { feeder: 'fixed', timeoutSeconds: 60 }, tempDir(), null)
    assert.equal(record.ok, true, record.failure)
    assert.notEqual(slopePerRead(record), null)
    assert.equal(record.shortTries[0].bytes, 1 << 20, 'the first try was too short')
    const sizes = [...record.shortTries.map(entry => entry.bytes), record.bytes]
    for (let i = 1; i < sizes.length; i++) {
      assert.ok(sizes[i] >= 2 * sizes[i - 1] && sizes[i] % 65536 === 0, sizes.join(' < '))
    }
    assert.equal(record.output.size, record.bytes, 'the longer run counted every byte')
    assert.equal(record.foreign?.sampler, undefined, 'short, not disturbed')
  })
})

describe('a reader slow on CPU', () => {
  test('its later cost and kernel runs last 0.4 s of its CPU in the window, C\'s with them', () => {
    const { costRunBytes } = require('../../experiments/stdio/cost')
    const out = tempDir()
    // 64 MiB of 64 KiB blocks at 2 ms a read: 2 s of CPU, where 0.4 s in the window will do
    const args = ['--only', 'fixture-burns', '--sizes', '65536', '--mib', '64', '--runs', '1', '--warmup', '0',
      '--rounds', '2', '--kernel-rounds', '1', '--no-strace', '--no-gc', '--no-profile', '--out', out, '--id', 'burns']
    const result = bench(args, { LAB_EXTRA_PROGRAMS: EXTRA })
    assert.equal(result.status, 0, result.stderr + result.stdout)
    const log = readLog(path.join(out, 'burns', 'all.jsonl'))
    const [first, second] = log.filter(record => record.phase === 'cost' && record.program === 'fixture-burns')
    assert.equal(first.ok && second.ok, true, first.failure ?? second.failure)
    // (a first run too short for its slope is run again longer: its tries say why, should it be)
    assert.equal(first.bytes, 64 << 20, 'the first round, before its CPU per read is known: the planned bytes; ' +
      `tries too short: ${JSON.stringify(first.shortTries ?? [])}`)
    const program = { runtime: 'native' }
    assert.equal(second.bytes, costRunBytes({ program, blockSize: 65536, bytes: 64 << 20 }, slopePerRead(first)))
    assert.ok(second.bytes < 24 << 20 && second.bytes % 65536 === 0, `${second.bytes}`)
    // C in turns with it: as long as the shortened run, by the ratio the first pair measured,
    // not as long as the first (whose C a fast CPU can hold at its 16 GiB cap)
    assert.ok(second.partner.bytes < first.partner.bytes, `${second.partner.bytes} against ${first.partner.bytes}`)
    assert.equal(second.partner.bytes, partnerBytes(second.bytes, partnerRatio(first), 65536))
    assert.notEqual(pairFigures(second), null)
    // the kernel pass's run too, by the cost pass's last figure, where BPF may run
    const kernel = log.filter(record => record.phase === 'kernel' && record.program === 'fixture-burns')
    if (readJson(path.join(out, 'burns', 'context.json')).bpf.available) {
      assert.equal(kernel.length, 1)
      assert.equal(kernel[0].bytes, costRunBytes({ program, blockSize: 65536, bytes: 64 << 20 }, slopePerRead(second)))
    } else {
      assert.equal(kernel.length, 0)
    }
  })
})

describe('the pipeline timer', () => {
  test('one pipeline: wall time, each side\'s rusage and the reader\'s output', async () => {
    const result = await runPipeline({ feeder: ddFeeder(1 << 20, 65536), reader: [path.join(ROOT, 'build', 'wc-c'), '4096'], timeoutMs: 60000, pin: null })
    assert.equal(result.stdout, 'size 1048576 reads 256 blocksize 4096\n')
    assert.ok(result.wallNs > 0)
    assert.equal(result.reader.exit, 0)
    assert.equal(result.feeder.exit, 0)
    assert.ok(!result.stoppedBy && !result.timedOut)
  })

  test('a stop at any moment, even while pipe-run is still starting, resolves as stopped', async () => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const running = runPipeline({ feeder: ['sleep', '5'], reader: ['cat'], timeoutMs: 60000, pin: null })
      if (attempt % 2) await new Promise(resolve => setTimeout(resolve, attempt))
      stopCurrentPipeline()
      const result = await running
      assert.ok(result.stoppedBy, `attempt ${attempt}: ${JSON.stringify(result)}`)
    }
  })
})

describe('bench.js end to end', () => {
  test('two programs, two sizes, two runs: every file with its documented fields', () => {
    const out = tempDir()
    const result = bench(['--only', 'c', '--only', 'node-sync', '--sizes', '4096,65536', '--runs', '2', '--rounds', '6', '--warmup', '0', '--mib', '2', '--out', out, '--id', 'tiny'])
    assert.equal(result.status, 0, result.stderr + result.stdout)
    const dir = path.join(out, 'tiny')
    for (const file of ['all.jsonl', 'results.json', 'syscalls.json', 'gc.json', 'context.json']) assert.ok(fs.existsSync(path.join(dir, file)), file)

    // --only takes exact names: c is C's reader alone, not coreutils too
    const log = readLog(path.join(dir, 'all.jsonl'))
    const timing = log.filter(record => record.phase === 'timing')
    assert.equal(timing.length, 2 * 2 * 2)
    for (const record of timing) {
      assert.equal(record.ok, true, record.failure)
      assert.equal(record.bytes, 2 << 20)
      assert.equal(record.feederBlockSize, 65536)
      assert.equal(record.output.size, 2 << 20)
      assert.ok(record.wallNs > 0)
      for (const key of ['userUs', 'sysUs', 'maxRssKb', 'voluntaryCs', 'involuntaryCs']) assert.equal(typeof record.reader[key], 'number', key)
      assert.match(record.command, /^dd if=\/dev\/zero bs=65536 count=32 status=none \| /)
    }
    assert.equal(log.filter(record => record.phase === 'startup').length, 2 * 2)
    // the cost pass: six rounds at each size of both readers, one sampled run each of at
    // least 64 MiB (--mib 2 is too short for a slope), dd and the reader on the CPU
    // context.json names, steal counted on it alone. A CPU that reads 64 MiB too fast for
    // a slope runs it again longer, and the record keeps the shorter try: every run has
    // its slope on any machine.
    const { costPin } = readJson(path.join(dir, 'context.json'))
    const cost = log.filter(record => record.phase.startsWith('cost'))
    assert.equal(cost.length, 2 * 2 * 6)
    for (const record of cost) {
      assert.equal(record.ok, true, record.failure)
      // a run too short for a slope ran again longer, alone or in turns with C (with C's
      // bytes matched first)
      const tries = record.shortTries ?? record.pairTries
      if (tries) {
        assert.equal(tries[0].bytes, 64 << 20)
        assert.ok(record.bytes >= tries[tries.length - 1].bytes, record.bytes)
      } else {
        assert.equal(record.bytes, 64 << 20)
      }
      // every reader but C took turns with C, from the same dd blocks, C verified too
      assert.equal(Boolean(record.partner), record.program !== 'c')
      if (record.partner) {
        assert.equal(record.partner.ok, true, record.partner.failure)
        assert.notEqual(pairFigures(record), null)
      }
      assert.equal(record.bytes % 65536, 0)
      assert.equal(record.feederBlockSize, 65536)
      assert.deepEqual(record.steal.cpus, [costPin.cpu])
      const cell = `${record.program} @ ${record.blockSize}`
      assert.notEqual(slopePerRead(record), null, `${cell}: ${record.samples.length} samples`)
    }

    const results = readJson(path.join(dir, 'results.json'))
    assert.equal(results.cells.length, 4)
    const c4k = results.cells.find(cell => cell.program === 'c' && cell.blockSize === 4096)
    for (const key of ['best', 'wallNs', 'throughputMBps', 'steadyThroughputMBps', 'costPerReadNs', 'reader', 'feederCpuShare', 'flags', 'vsC']) assert.ok(key in c4k, key)
    assert.equal(c4k.reads, 512)
    assert.equal(c4k.vsC.throughput, 1)
    assert.deepEqual(results.failures, [])
    assert.deepEqual(results.headline.sizes, [4096, 65536])
    assert.equal(results.headline.cells.length, 4)
    for (const cell of results.headline.cells) {
      assert.equal(cell.rounds, 6, `${cell.program} @ ${cell.blockSize}`)
      // runs this short say nothing of the cost (the test asserts none): the fields' shape
      const { estimate, low, high } = cell.cpuPerReadNs
      assert.ok(low <= estimate && estimate <= high, `${cell.program} @ ${cell.blockSize}: ${low} ${estimate} ${high}`)
      assert.equal(cell.shareOfC === null, cell.program === 'c')
    }

    const syscalls = readJson(path.join(dir, 'syscalls.json'))
    assert.equal(syscalls.ptrace.available, true)
    const nodeProfile = syscalls.cells.find(cell => cell.program === 'node-sync' && cell.blockSize === 4096)
    assert.ok(nodeProfile.mainThread.reads >= 512, 'node-sync made at least one read(2) per block')
    assert.ok(nodeProfile.allThreads.totalCalls > nodeProfile.mainThread.totalCalls)
    assert.ok(nodeProfile.threads > 1, 'Node starts helper threads')
    assert.equal(syscalls.cells.find(cell => cell.program === 'c' && cell.blockSize === 4096).threads, 1)
    for (const raw of nodeProfile.rawFiles) assert.ok(fs.existsSync(path.join(dir, raw)), raw)
    // per MiB counts reading only: the difference between profiles of two input sizes
    const c4kProfile = syscalls.cells.find(cell => cell.program === 'c' && cell.blockSize === 4096)
    const c4kSmaller = log.find(record => record.phase === 'strace' && record.program === 'c' && record.blockSize === 4096 && record.bytes === c4kProfile.smallBytes)
    assert.equal(c4kProfile.syscallsPerMiB.mainThread, (c4kProfile.mainThread.totalCalls - c4kSmaller.mainThread.totalCalls) / ((c4kProfile.bytes - c4kProfile.smallBytes) / (1 << 20)))
    assert.equal(c4kProfile.syscallsPerMiB.mainThread, 256, 'C makes one read per 4 KiB block and nothing else')

    const gc = readJson(path.join(dir, 'gc.json'))
    assert.deepEqual(gc.cells.map(cell => cell.program), ['node-sync', 'node-sync'])
    assert.ok(fs.existsSync(path.join(dir, gc.cells[0].traceFile)))
    assert.equal(gc.unavailable.c, 'native code: no garbage collector')

    const context = readJson(path.join(dir, 'context.json'))
    assert.equal(context.options.feeder, 'fixed')
    assert.equal(context.options.runs, 2)
    assert.match(context.runtimes.node.version, /^v\d+\./)
    assert.deepEqual(context.programs.map(program => [program.name, program.runtime, program.honoursBlockSize]),
      [['c', 'native', true], ['node-sync', 'node', true]])
    for (const key of ['kernel', 'cpuModel', 'cores']) assert.ok(context.machine[key], key)
    assert.match(result.stdout, /Best steady-state throughput/)
  })

  test('a reader that miscounts is marked failed, excluded, and listed with its command', () => {
    const out = tempDir()
    const result = bench(['--only', 'fixture-miscount', '--sizes', '4096', '--runs', '2', '--warmup', '0', '--mib', '1', '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'wrong'], { LAB_EXTRA_PROGRAMS: EXTRA })
    assert.equal(result.status, 1, 'bench exits 1 when runs failed')
    const results = readJson(path.join(out, 'wrong', 'results.json'))
    const cell = results.cells[0]
    assert.equal(cell.runs, 0)
    assert.equal(cell.failedRuns, 2)
    assert.deepEqual(cell.flags, ['failed'])
    assert.equal(cell.best, undefined)
    // start-up runs on empty input are verified too: it claims 1 byte of nothing. Each
    // failure will recur: measured once a cell, its cell's later run skipped with it
    assert.deepEqual(results.failures.map(failure => [failure.phase, failure.reason, failure.skippedSteps]), [
      ['startup', 'reader counted 1 bytes, 0 were sent', 1],
      ['timing', 'reader counted 1048577 bytes, 1048576 were sent', 1]
    ])
    assert.deepEqual(results.startup, {})
    assert.match(result.stdout, /re-run: dd if=\/dev\/zero bs=65536 count=16 status=none \| .*wc-miscount\.js 4096/)
  })

  test('a reader that reads more than the block size at a time is marked failed, whatever its count', () => {
    const out = tempDir()
    const result = bench(['--only', 'fixture-oversized', '--sizes', '4096', '--runs', '2', '--warmup', '0', '--mib', '1', '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'oversized'], { LAB_EXTRA_PROGRAMS: EXTRA })
    assert.equal(result.status, 1, result.stdout + result.stderr)
    const results = readJson(path.join(out, 'oversized', 'results.json'))
    const cell = results.cells.find(c => c.program === 'fixture-oversized' && c.blockSize === 4096)
    assert.equal(cell.runs, 0)
    assert.deepEqual(cell.flags, ['failed'])
    // measured once; the cell's second run is skipped with its reason
    const timing = results.failures.filter(failure => failure.phase === 'timing')
    assert.deepEqual(timing.map(failure => failure.skippedSteps), [1])
    assert.equal(cell.failedRuns, 2)
    // 1 MiB in reads of up to 16 KiB: 64 reads (more if the pipe hands over less), far
    // fewer than the 256 that 4 KiB blocks take
    for (const failure of timing) {
      const [, reads] = /^reader made (\d+) reads, impossible for 1048576 bytes in blocks of at most 4096$/.exec(failure.reason) ?? []
      assert.ok(reads >= 64 && reads < 256, failure.reason)
    }
  })

  // Ctrl-C while bench asks the machine what it allows (here the kernel pass's probe, made to
  // take 3 s): the probe dies with it, and its answer must not become the run's context.
  test('Ctrl-C during the machine\'s probes: nothing written, nothing measured, exit 130', async () => {
    const out = tempDir()
    const slowProbe = path.join(out, 'sysprof')
    const sysprof = JSON.stringify(path.join(ROOT, 'build', 'sysprof'))
    fs.writeFileSync(slowProbe, `#!/bin/sh\nsleep 3\nexec ${sysprof} "$@"\n`, { mode: 0o755 })
    const args = ['--only', 'c', '--sizes', '256', '--runs', '1', '--warmup', '0', '--mib', '1',
      '--no-strace', '--no-gc',
      '--no-profile', '--out', out, '--id', 'probing']
    const child = spawn(process.execPath, [path.join(ROOT, 'bench.js'), ...args],
      { cwd: ROOT, env: { ...process.env, SYSPROF: slowProbe }, detached: true })
    let stdout = ''
    child.stdout.on('data', chunk => { stdout += chunk })
    const sleeping = () => spawnSync('pgrep', ['-g', String(child.pid), '-x', 'sleep']).status === 0
    await waitFor(() => sleeping() || child.exitCode !== null, 60000, 'the probe under way')
    // Ctrl-C reaches the whole process group, the probe with bench
    process.kill(-child.pid, 'SIGINT')
    const code = await new Promise(resolve => child.on('close', resolve))
    assert.equal(code, 130, stdout)
    assert.match(stdout, /interrupted before the first run, while it asked what the machine allows: nothing measured or written/)
    assert.equal(fs.existsSync(path.join(out, 'probing')), false, 'no run folder left')
  })

  // A process it measured ended from outside (a kill, an OOM kill's SIGKILL, which pipe-run
  // cannot mask): bench stops as an interrupted run does, its resume offered, never as a
  // whole run nor with a stack trace.
  for (const signal of ['SIGTERM', 'SIGKILL']) {
    test(`pipe-run ended by ${signal} from outside: the run stops, says so, offers its resume`, async () => {
      const out = tempDir()
      const args = ['--only', 'fixture-slow', '--sizes', '65536', '--runs', '3', '--warmup', '0', '--mib', '1',
        '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'killed']
      const child = spawn(process.execPath, [path.join(ROOT, 'bench.js'), ...args],
        { cwd: ROOT, env: { ...process.env, LAB_EXTRA_PROGRAMS: EXTRA } })
      let [stdout, stderr] = ['', '']
      child.stdout.on('data', chunk => { stdout += chunk })
      child.stderr.on('data', chunk => { stderr += chunk })
      const pipeRun = () => spawnSync('pgrep', ['-P', String(child.pid), '-x', 'pipe-run'], { encoding: 'utf8' })
        .stdout.trim().split('\n').filter(Boolean).map(Number)
      // a timing run of fixture-slow under way (its reader sleeps between reads)
      await waitFor(() => (/timing @ 65536/.test(stdout) && pipeRun().length > 0) || child.exitCode !== null, 120000,
        'a timing run under way')
      for (const pid of pipeRun()) process.kill(pid, signal)
      const code = await new Promise(resolve => child.on('close', resolve))
      assert.equal(code, 130, stdout + stderr)
      assert.match(stdout, /stopped: a process it measured was ended by a signal from outside bench\.js: \d+ of \d+ runs/)
      assert.match(stdout, /resume with: node bench\.js --resume /)
      assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace')
      const logged = readLog(path.join(out, 'killed', 'all.jsonl'))
      assert.ok(logged.every(record => record.ok), 'the run cut short is not logged')
    })
  }

  test('Ctrl-C keeps every finished run, and --resume completes the run', async () => {
    const out = tempDir()
    const args = ['--only', 'fixture-slow', '--sizes', '65536', '--runs', '3', '--warmup', '0', '--mib', '1', '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'stopped']
    const child = spawn(process.execPath, [path.join(ROOT, 'bench.js'), ...args], { cwd: ROOT, env: { ...process.env, LAB_EXTRA_PROGRAMS: EXTRA } })
    let stdout = ''
    child.stdout.on('data', chunk => { stdout += chunk })
    const log = path.join(out, 'stopped', 'all.jsonl')
    // Polled while bench appends: count only whole lines, a line being written may be cut.
    // A disturbed try (lib/foreign.js) is logged superseded and measured again: wait for a
    // timing run that is a data point.
    const kept = record => record.phase === 'timing' && !record.superseded
    const timingRuns = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').slice(0, -1).map(line => JSON.parse(line)).filter(kept).length : 0)
    // (a bench that dies first must fail the test, not hang it)
    await waitFor(() => timingRuns() >= 1 || child.exitCode !== null, 120000, 'bench\'s first timing run')
    child.kill('SIGINT')
    const code = await new Promise(resolve => child.on('close', resolve))
    assert.equal(code, 130)
    assert.match(stdout, /resume with: node bench\.js --resume /)
    const logged = readLog(log)
    assert.ok(logged.every(record => record.ok), 'the run cut short is not logged')
    const partial = logged.filter(record => record.phase === 'timing').length
    assert.ok(partial >= 1 && partial < 3, `${partial} timing runs before the interrupt`)
    readJson(path.join(out, 'stopped', 'results.json'))

    const resumed = bench(['--resume', path.join(out, 'stopped')], { LAB_EXTRA_PROGRAMS: EXTRA })
    assert.equal(resumed.status, 0, resumed.stderr + resumed.stdout)
    const all = readLog(log)
    assert.deepEqual(all.filter(record => record.phase === 'timing').map(record => record.run), [0, 1, 2])
    assert.equal(all.filter(record => record.phase === 'startup').length, 3)
    assert.equal(readJson(path.join(out, 'stopped', 'results.json')).cells[0].runs, 3)
    // the context it began with is kept, and the resume added to it
    const context = readJson(path.join(out, 'stopped', 'context.json'))
    assert.equal(context.resumedAt.length, 1)
    assert.deepEqual(context.lab.bench, args)
    assert.ok(context.resumedAt[0].date > context.date, 'the resume comes after the start')
    assert.deepEqual(context.resumedAt[0].lab.bench, ['--resume', path.join(out, 'stopped')])
    assert.deepEqual(context.resumedAt[0].runtimesChanged, [])
  })

  test('--marginal: quarter runs logged and verified beside the full ones; marginal figures in the results and the summary', () => {
    const out = tempDir()
    // c by name and coreutils, which reads chunks of its own size, by a pattern that no
    // other reader matches (c* would take the ring readers too)
    const result = bench(['--marginal', '--only', 'c', '--only', 'core*', '--only', 'just-fast', '--sizes', '65536', '--runs', '2', '--warmup', '0', '--mib', '8', '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'marginal'])
    assert.equal(result.status, 0, result.stderr + result.stdout)
    const log = readLog(path.join(out, 'marginal', 'all.jsonl'))
    const quarters = log.filter(record => record.phase === 'timing-quarter')
    assert.equal(quarters.length, 3 * 2)
    for (const record of quarters) {
      assert.equal(record.ok, true, record.failure)
      assert.equal(record.output.size, 2 << 20)
      assert.match(record.command, /^dd if=\/dev\/zero bs=65536 count=32 status=none \| /)
    }
    const results = readJson(path.join(out, 'marginal', 'results.json'))
    const medianWall = (program, phase) => median(log.filter(record => record.program === program && record.phase === phase).map(record => record.wallNs))
    for (const cell of results.cells) {
      assert.equal(cell.marginal.quarterRuns, 2)
      assert.equal(cell.marginal.quarterBytes, 2 << 20)
      // 32 quarter reads of 64 KiB: far too few for a JIT to be done, so marked; coreutils reads its own chunks
      assert.deepEqual([cell.marginal.quarterReads, cell.marginal.fewReads], cell.program === 'coreutils' ? [null, false] : [32, true])
      // the figure from the log: 6 MiB between the sizes over the time between the median runs
      assert.equal(cell.marginal.wallNsBetween, medianWall(cell.program, 'timing') - medianWall(cell.program, 'timing-quarter'))
      // where the full runs took no longer than the quarter ones, there is no figure, not a negative one
      if (cell.marginal.wallNsBetween > 0) close(cell.marginal.throughputMBps, (6 << 20) / 1e6 / (cell.marginal.wallNsBetween / 1e9), 6)
      else assert.equal(cell.marginal.throughputMBps, null)
    }
    const justFast = results.cells.find(cell => cell.program === 'just-fast')
    const c = results.cells.find(cell => cell.program === 'c')
    if (justFast.marginal.throughputMBps !== null && c.marginal.throughputMBps !== null) close(justFast.vsC.marginalThroughput, justFast.marginal.throughputMBps / c.marginal.throughputMBps)
    else assert.equal(justFast.vsC.marginalThroughput ?? null, null)
    const marginalTable = result.stdout.split('Marginal throughput (median runs of the whole and a quarter of the bytes)')[1]
    assert.ok(marginalTable, result.stdout)
    // 8 MiB runs are noise enough that either figure may be missing ('-'); a share of C
    // is printed only when both are there
    const figure = justFast.marginal.throughputMBps === null ? '-' : c.marginal.throughputMBps === null ? '\\d+\\*' : '\\d+ \\d+%\\*'
    assert.match(marginalTable, new RegExp(`^just-fast\\s+${figure}$`, 'm'))
  })

  test('--feeder file: no pipe, the reader reads a tmpfs file; pipe-only readers and wc -c skipped; the file removed', () => {
    const out = tempDir()
    const before = new Set(zeroFileFolders())
    const result = bench(['--feeder', 'file', '--marginal', '--only', 'c', '--only', 'core*', '--only', 'just-fast', '--only', 'just-async', '--sizes', '4096,65536', '--runs', '2', '--warmup', '0', '--mib', '2', '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'file'])
    assert.equal(result.status, 0, result.stderr + result.stdout)
    assert.match(result.stdout, /^skipping coreutils: not with --feeder file: given a regular file, wc -c takes its size from fstat and reads nothing$/m)
    assert.match(result.stdout, /^skipping just-async: not with --feeder file: it reads only a pipe/m)
    const dir = path.join(out, 'file')
    const log = readLog(path.join(dir, 'all.jsonl'))
    assert.deepEqual([...new Set(log.map(record => record.program))], ['c', 'just-fast'])
    const timing = log.filter(record => record.phase === 'timing')
    assert.equal(timing.length, 2 * 2 * 2)
    for (const record of timing) {
      assert.equal(record.ok, true, record.failure)
      assert.equal(record.feederBlockSize, null)
      assert.equal(record.output.size, 2 << 20)
      assert.match(record.command, /^head -c 2097152 \/dev\/zero > \/dev\/shm\/zeros && \S+ .* < \/dev\/shm\/zeros$/)
    }
    for (const record of log.filter(record => record.phase === 'startup')) assert.match(record.command, / < \/dev\/null$/)
    // --marginal's quarter runs read a file of their own size, kept beside the full one
    const quarters = log.filter(record => record.phase === 'timing-quarter')
    assert.equal(quarters.length, 2 * 2 * 2)
    for (const record of quarters) assert.equal(record.ok && record.output.size, 1 << 19, record.failure)
    const results = readJson(path.join(dir, 'results.json'))
    assert.equal(results.cells.length, 4)
    for (const cell of results.cells) assert.ok(!cell.flags.includes('reader-waited') && !cell.flags.includes('feeder-bound'), cell.flags.join())
    assert.equal(readJson(path.join(dir, 'context.json')).options.feeder, 'file')
    assert.deepEqual(zeroFileFolders().filter(name => !before.has(name)), [])
  })

  test('--feeder file: Ctrl-C removes the input file and keeps the runs; --resume makes a new one and finishes', async () => {
    const out = tempDir()
    const before = new Set(zeroFileFolders())
    const args = ['--feeder', 'file', '--only', 'c', '--sizes', '256', '--runs', '12', '--warmup', '0', '--mib', '64', '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'file-stopped']
    const child = spawn(process.execPath, [path.join(ROOT, 'bench.js'), ...args], { cwd: ROOT })
    const log = path.join(out, 'file-stopped', 'all.jsonl')
    // A disturbed try (lib/foreign.js) is logged superseded and measured again: wait for a
    // timing run that is a data point.
    const kept = record => record.phase === 'timing' && !record.superseded
    const timingRuns = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').slice(0, -1).map(line => JSON.parse(line)).filter(kept).length : 0)
    await waitFor(() => timingRuns() >= 1 || child.exitCode !== null, 120000, 'bench\'s first timing run')
    child.kill('SIGINT')
    assert.equal(await new Promise(resolve => child.on('close', resolve)), 130)
    assert.deepEqual(zeroFileFolders().filter(name => !before.has(name)), [])
    const resumed = bench(['--resume', path.join(out, 'file-stopped')])
    assert.equal(resumed.status, 0, resumed.stderr + resumed.stdout)
    const timing = readLog(log).filter(record => record.phase === 'timing')
    assert.equal(timing.length, 12)
    assert.ok(timing.every(record => record.ok && record.output.size === 64 << 20))
    assert.deepEqual(zeroFileFolders().filter(name => !before.has(name)), [])
  })

  describe('bad input: one line that names the fix, exit 2', () => {
    const cases = [
      [['--bogus'], /^bench\.js: unknown option --bogus; see node bench\.js --help$/],
      [['--sizes', '1000'], /block size 1000 is not a power of two: try 1024/],
      [['--sizes', '8'], /block size 8 is out of range/],
      [['--sizes', '4k'], /not a whole number of bytes/],
      [['--runs', '0'], /--runs must be a whole number of at least 1, not '0'/],
      [['--feeder', 'sometimes'], /--feeder must be fixed, matched or file, not 'sometimes'/],
      [['--feeder', 'file', '--only', 'just-async*'], /no program left to run: just-async, not with --feeder file: it reads only a pipe .*; just-async-et, /],
      [['--only', 'cobol'], /--only cobol matches no program; the programs are: c, limit-splice/],
      [['--only', 'bun-ffi'], /cannot run bun-ffi: Bun not found at \/nonexistent\/bun: .*set BUN=/, { BUN: '/nonexistent/bun' }],
      [['--resume', '/nonexistent-run'], /--resume \/nonexistent-run: no such folder; give a run folder's path, or its name in results\//],
      [['--resume', '/'], /--resume \/: no \/context\.json; give a run folder bench\.js made/],
      [['--resume', 'x', '--runs', '3'], /--resume continues a run with its own options; drop --runs/]
    ]
    // a run whose context.json was emptied, its runs logged beside it: restore it, not start
    // again, which would leave what was measured (a review)
    const emptied = path.join(tempDir(), 'emptied')
    fs.mkdirSync(emptied)
    fs.writeFileSync(path.join(emptied, 'context.json'), '')
    fs.writeFileSync(path.join(emptied, 'all.jsonl'), '{"phase":"timing"}\n')
    cases.push([['--resume', emptied], new RegExp(`--resume: ${emptied}/context\\.json is not valid JSON ` +
      '\\(Unexpected end of JSON input\\); restore it from a copy of the run, or start a new run$')])
    for (const [args, message, env] of cases) {
      test(args.join(' '), () => {
        const result = bench(args, env)
        assert.equal(result.status, 2)
        assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
        assert.match(result.stderr.trim(), message)
      })
    }
  })
})
