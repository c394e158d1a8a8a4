'use strict'
// The kernel pass's arithmetic on recorded profiles (lib/sysprof.js, experiments/stdio/kernel.js,
// experiments/http/summary.js kernelPerRequest), and why the pass is refused. No BPF here:
// test/e2e/sysprof.test.js runs the probes where the machine allows them.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const {
  parseProfile, callSummary, bySyscall, profileProblem, bucketBounds, quantile, probeBpf, insideWindow
} = require('../../lib/sysprof')
const { kernelRecord, summariseKernel, kernelSteps } = require('../../experiments/stdio/kernel')
const { kernelPerRequest } = require('../../experiments/http/summary')
const { PHASES } = require('../../experiments/stdio/phases')
const { tempFolders, readJson, readRuns } = require('../helpers')
const { fakeStep, runBench } = require('../fake-step')

const tempDir = tempFolders('sysprof-')
const near = (actual, expected, share) => assert.ok(Math.abs(actual - expected) <= share * expected, `${actual} is not within ${share * 100}% of ${expected}`)

// build/sysprof on C's reader, 1 MiB of 4 KiB reads (256 reads and the one that sees the end)
const RECORDED = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'sysprof', 'c-4096.json'), 'utf8')
const raw = JSON.parse(RECORDED)

// sysprof.bpf.c's bucket_of, as the probes compute it
function bucketOf (value) {
  if (value < 16) return value
  const exponent = Math.floor(Math.log2(value))
  return exponent * 16 + (Math.floor(value / 2 ** (exponent - 4)) & 15)
}

test('a bucket\'s bounds hold every value the probes put in it, and are within 1/16 of an octave', () => {
  for (const value of [0, 1, 15, 16, 17, 31, 32, 100, 255, 256, 257, 1000, 4095, 123456789]) {
    const { low, high } = bucketBounds(bucketOf(value))
    assert.ok(low <= value && value < high, `${value} in [${low}, ${high})`)
    assert.ok(high - low <= Math.max(1, low / 16), `${value}: width ${high - low}`)
  }
})

test('a quantile is interpolated within its bucket', () => {
  const bucket = bucketOf(200)
  const { low, high } = bucketBounds(bucket)
  assert.equal(quantile([[bucket, 10]], 0.5), low + (high - low) / 2)
  assert.equal(quantile([[bucketOf(5), 1], [bucketOf(7), 1]], 1), 8)
  assert.equal(quantile([], 0.5), null)
})

test('a recorded profile: the calibration child is the floor and nothing else', () => {
  const profile = parseProfile(RECORDED)
  const calibrator = raw.calibration.tgid
  assert.ok(profile.calls.every(call => call.tgid !== calibrator))
  assert.ok(profile.histograms.every(entry => entry.tgid !== calibrator))
  // the floor: the median of the calibrator's getppid calls, within the bucket that holds it
  const buckets = raw.histograms.filter(([tgid, , nr]) => tgid === calibrator && nr === raw.calibration.nr)
    .map(([, , , , bucket, count]) => [bucket, count]).sort((a, b) => a[0] - b[0])
  const total = buckets.reduce((sum, [, count]) => sum + count, 0)
  assert.equal(total, raw.calibration.calls)
  let below = 0
  const middle = buckets.find(([, count]) => (below += count) >= total / 2)
  const { low, high } = bucketBounds(middle[0])
  assert.ok(profile.floorNs >= low && profile.floorNs <= high, `${profile.floorNs} in [${low}, ${high}]`)
  assert.equal(profile.complete, true)
  assert.equal(profileProblem(profile), null)
})

test('a recorded profile: stdin\'s reads, their time per call and the floor taken off', () => {
  const profile = parseProfile(RECORDED)
  const [stdin] = raw.stats.filter(entry => entry.watchedFd)
  const reads = callSummary(profile, call => call.watchedFd)
  assert.equal(reads.count, stdin.count)
  assert.equal(reads.count, 257)
  assert.equal(reads.onCpuNs, stdin.onCpuNs / stdin.count)
  assert.equal(reads.wallNs, stdin.wallNs / stdin.count)
  assert.equal(reads.kernelNs, reads.onCpuNs - profile.floorNs)
  assert.equal(reads.switchesPerCall, stdin.switches / stdin.count)
  assert.equal(reads.buckets.reduce((sum, [, count]) => sum + count, 0), stdin.count)
  assert.ok(reads.percentiles.p10 <= reads.percentiles.p50 && reads.percentiles.p50 <= reads.percentiles.p99)
  // every call is counted once, by name, over every thread
  const calls = bySyscall(profile)
  const rawTotal = raw.stats.filter(entry => entry.tgid !== raw.calibration.tgid).reduce((sum, entry) => sum + entry.count, 0)
  assert.equal(calls.reduce((sum, row) => sum + row.count, 0), rawTotal)
  assert.equal(calls.find(row => row.name === 'read').count, raw.stats.filter(entry => entry.nr === 0 && entry.tgid !== raw.calibration.tgid)
    .reduce((sum, entry) => sum + entry.count, 0))
})

test('a profile that lost events is never complete, and says so', () => {
  const lossy = parseProfile(JSON.stringify({ ...raw, lost: 3 }))
  assert.equal(lossy.complete, false)
  assert.match(profileProblem(lossy), /lost 3 events.*incomplete/)
  const record = kernelRecord(JSON.stringify({ ...raw, lost: 3 }), { program: { name: 'c' }, reads: 256 })
  assert.match(record.problem, /lost 3/)
  assert.throws(() => parseProfile('{"tool":"strace"}'), /not a sysprof profile/)
})

test('a traced run\'s record: its kernel time per read of the reader\'s, and what would fail it', () => {
  const ok = kernelRecord(RECORDED, { program: { name: 'c' }, reads: 256 })
  assert.equal(ok.problem, null)
  assert.equal(ok.kernel.readingCall, 'read')
  assert.equal(ok.kernel.kernelPerReadNs, ok.kernel.calls.kernelNs * 257 / 256)
  assert.equal(ok.kernel.tracedCpuPerReadNs, raw.commandCpuNs / 256)
  // a reader that says it read more than the kernel saw
  assert.match(kernelRecord(RECORDED, { program: { name: 'c' }, reads: 300 }).problem, /the kernel saw 257 reads of stdin, the reader says 300/)
  // a host that reads in chunks of its own makes fewer read(2)s than reads: no failure
  assert.equal(kernelRecord(RECORDED, { program: { name: 'w', hostChunks: true }, reads: 300 }).problem, null)
  // a ring reader reads through io_uring_enter, which C's reader never calls
  assert.match(kernelRecord(RECORDED, { program: { name: 'r', ring: true }, reads: 256 }).problem, /no io_uring_enter/)
  assert.match(kernelRecord('', { program: { name: 'c' }, reads: 1 }).problem, /wrote no profile/)
})

// records as the kernel pass logs them: kernelNs per read, reads, CPU of the run
function record ({ phase = PHASES.kernel, program, blockSize = 256, run, kernelNs = 0, cpuNs, reads = 1000 }) {
  const traced = phase === PHASES.kernel
  return {
    phase,
    program,
    blockSize,
    run,
    ok: true,
    output: { reads },
    reader: { userUs: 0, sysUs: traced ? 0 : cpuNs * reads / 1000 },
    ...(traced
      ? {
          kernel: {
            floorNs: 150,
            readingCall: 'read',
            kernelPerReadNs: kernelNs,
            tracedCpuPerReadNs: cpuNs,
            calls: { count: reads, onCpuNs: kernelNs + 150, wallNs: kernelNs + 160, switchesPerCall: 0, percentiles: { p10: 1, p50: 2, p90: 3, p99: 4 } }
          }
        }
      : {})
  }
}

test('the split: the median of rounds, the rest of the headline\'s CPU per read, C against C', () => {
  const records = []
  for (let run = 0; run < 6; run++) {
    records.push(record({ program: 'c', run, kernelNs: 200 + run, cpuNs: 600 + run }))
    records.push(record({ phase: PHASES.kernelUntraced, program: 'c', run, cpuNs: 400 }))
    records.push(record({ program: 'node-sync', run, kernelNs: 260 + run, cpuNs: 900 }))
  }
  const headline = {
    cells: [
      { program: 'c', blockSize: 256, cpuPerReadNs: { estimate: 390 } },
      { program: 'node-sync', blockSize: 256, cpuPerReadNs: { estimate: 690 } }
    ]
  }
  const kernel = summariseKernel(records, headline)
  const c = kernel.cells.find(cell => cell.program === 'c')
  const node = kernel.cells.find(cell => cell.program === 'node-sync')
  assert.equal(c.kernelNs.estimate, 202.5)
  assert.equal(c.kernelNs.interval.low, 200)
  assert.equal(c.kernelNs.interval.high, 205)
  assert.equal(c.restNs, 390 - 202.5)
  assert.equal(c.kernelShare, 202.5 / 390)
  assert.equal(c.againstC, null)
  assert.equal(node.restNs, 690 - 262.5)
  // every node round 60 ns above C's same-numbered one: the pairwise difference says 60
  assert.equal(node.againstC.estimate, 60)
  // the probes' cost on C: traced (600 + run) against untraced 400, round by round
  assert.deepEqual(kernel.tracerCost.map(cost => [cost.blockSize, cost.pairs, cost.addedNs.estimate]), [[256, 6, 202.5]])
  assert.equal(summariseKernel([], headline), null)
  // a round that failed is left out of its cell's figures and counted there, as well as in
  // the pass's failures
  const lostOne = [...records, { ...record({ program: 'node-sync', run: 6 }), ok: false, failure: 'timed out' }]
  const partly = summariseKernel(lostOne, headline)
  assert.deepEqual(partly.cells.map(cell => [cell.program, cell.rounds, cell.failedRounds]),
    [['c', 6, 0], ['node-sync', 6, 1]])
  assert.equal(partly.failures, 1)
  assert.deepEqual(partly.lost, [])
  // a cell whose every round failed has no figure, and is named with its first failure
  const noneLeft = records.filter(entry => entry.program !== 'node-sync' || entry.phase !== PHASES.kernel)
    .concat([1, 2].map(run => ({ ...record({ program: 'node-sync', run }), ok: false, failure: `exit ${run}` })))
  const gone = summariseKernel(noneLeft, headline)
  assert.deepEqual(gone.cells.map(cell => cell.program), ['c'])
  assert.deepEqual(gone.lost, [{ program: 'node-sync', blockSize: 256, rounds: 2, failure: 'exit 1' }])
  // a reader the lab rejected (its fast path not taken) is left out with its reason
  const refused = summariseKernel(records, headline, new Map([['node-sync\t256', 'its fast path was not taken']]))
  assert.deepEqual(refused.cells.map(cell => cell.program), ['c'])
  assert.deepEqual(refused.rejected, [{ program: 'node-sync', blockSize: 256, reason: 'its fast path was not taken' }])
  assert.deepEqual(kernel.rejected, [])
})

test('the kernel pass plans rounds of every honouring reader at the cost sizes, C untraced beside', () => {
  const programs = [{ name: 'c', honoursBlockSize: true }, { name: 'node-sync', honoursBlockSize: true }, { name: 'coreutils', honoursBlockSize: false }]
  const steps = kernelSteps({ kernelRounds: 2, costSizes: [256, 65536] }, programs, { pin: { reader: 1 }, shuffle: list => list, bytesOf: size => size * 10 })
  assert.equal(steps.length, 2 * 2 * 3)
  assert.ok(steps.every(step => step.program.name !== 'coreutils'))
  assert.equal(steps.filter(step => step.phase === PHASES.kernelUntraced).length, 4)
  assert.ok(steps.every(step => step.bytes === step.blockSize * 10 && step.ownFeeder))
  assert.deepEqual(kernelSteps({ kernelRounds: 0, costSizes: [256] }, programs, { pin: {}, shuffle: list => list, bytesOf: () => 1 }), [])
})

test('syscalls per request at full speed: work, upkeep, and strace beside them', () => {
  const run = {
    program: 'c-epoll',
    mode: 'keep-alive',
    connections: 16,
    ok: true,
    kernel: {
      requests: 1000,
      syscalls: [
        { name: 'read', calls: 1100, errors: 100, p50Ns: 900 },
        { name: 'write', calls: 1000, errors: 0, p50Ns: 2000 },
        { name: 'epoll_wait', calls: 50, errors: 0, p50Ns: 300 }
      ]
    }
  }
  const strace = { connections: 16, perRequest: 3, work: 2, upkeep: 1 }
  const [entry] = kernelPerRequest([run], () => strace)
  assert.equal(entry.where, 'keep-alive')
  assert.equal(entry.perRequest, 2.15)
  assert.equal(entry.work, 2)
  assert.equal(entry.upkeep, 0.15)
  assert.deepEqual(entry.strace, strace)
  assert.deepEqual(entry.byCall.map(call => [call.name, call.perRequest, call.upkeep]),
    [['read', 1.1, false], ['write', 1, false], ['epoll_wait', 0.05, true]])
  // 16 connections over 1,000 requests: 1.6% of them may be the run's start and end, and the
  // table says so; over 100,000 requests it says nothing (a review, 2026-12-07)
  assert.equal(entry.connectionsPerRequest, 0.016)
  const { kernelTerminal } = require('../../experiments/http/report-kernel')
  assert.match(kernelTerminal([entry]).join('\n'), /2 \+ 0\.15 \(conn\.\/req\. 1\.6%\)/)
  const { KERNEL_CSV_COLUMNS } = require('../../experiments/http/report-kernel')
  const csv = Object.fromEntries(KERNEL_CSV_COLUMNS.map(([name, value]) => [name, value({ kernel: entry })]))
  assert.equal(csv.kernelConnectionsPerRequest, 0.016)
  const many = { ...run, kernel: { ...run.kernel, requests: 100000 } }
  assert.doesNotMatch(kernelTerminal(kernelPerRequest([many], () => strace)).join('\n'), /conn\.\/req/)
  const [failed] = kernelPerRequest([{ ...run, ok: false, failure: 'kernel pass: lost 2 event(s)' }], () => null)
  assert.equal(failed.failure, 'kernel pass: lost 2 event(s)')
  assert.equal(kernelPerRequest([], () => null), null)
})

test('BPF refused: one line that names the reason, from sysprof, or the build that is missing', () => {
  const dir = tempDir()
  assert.match(probeBpf(path.join(dir, 'missing')).reason, /not built: \.\/setup\.sh installs libbpf-dev/)
  const refusing = path.join(dir, 'refusing')
  fs.writeFileSync(refusing, '#!/bin/sh\necho "sysprof: BPF refused while loading the probes (Operation not permitted): run as root, or in Docker with --cap-add BPF --cap-add PERFMON" >&2\nexit 97\n', { mode: 0o755 })
  const refused = probeBpf(refusing)
  assert.equal(refused.available, false)
  assert.equal(refused.reason, 'BPF refused while loading the probes (Operation not permitted): run as root, or in Docker with --cap-add BPF --cap-add PERFMON')
  const allowing = path.join(dir, 'allowing')
  fs.writeFileSync(allowing, '#!/bin/sh\necho ok\n', { mode: 0o755 })
  assert.deepEqual(probeBpf(allowing), { available: true, reason: null })
})

test('bench with the kernel pass: the split beside the headline, in every format', async () => {
  const out = tempDir()
  const args = ['--only', 'c', '--only', 'node-sync', '--sizes', '256', '--runs', '1', '--warmup', '0', '--mib', '1',
    '--no-strace', '--no-gc', '--rounds', '6', '--kernel-rounds', '6', '--out', out, '--id', 'k']
  const result = await runBench(args)
  assert.equal(result.status, 0, result.stderr + result.stdout)
  assert.match(result.stdout, /Inside read\(2\), from the kernel/)
  const { kernel } = readJson(path.join(out, 'k', 'results.json'))
  assert.deepEqual(kernel.cells.map(cell => [cell.program, cell.rounds]), [['c', 6], ['node-sync', 6]])
  for (const cell of kernel.cells) {
    // the fake kernel pass puts 60% of each read in read(2): the rest is the other 40%
    near(cell.kernelShare, 0.6, 0.05)
    assert.equal(cell.restNs, cell.cpuPerReadNs - cell.kernelNs.estimate)
    assert.ok(cell.kernelNs.interval.level > 0.95)
  }
  assert.ok(kernel.cells[1].againstC.estimate > 0)
  near(kernel.tracerCost[0].addedNs.estimate, 300, 0.05)
})

test('the kernel pass refused or skipped: one line, and no kernel step', async () => {
  const out = tempDir()
  const step = fakeStep()
  step.bpf = { available: false, reason: 'BPF refused while loading the probes (Operation not permitted): run as root' }
  const args = ['--only', 'c', '--sizes', '256', '--runs', '1', '--warmup', '0', '--mib', '1', '--no-strace', '--no-gc', '--rounds', '1', '--out', out]
  const refused = await runBench([...args, '--id', 'refused'], { step })
  assert.equal(refused.status, 0, refused.stderr)
  assert.match(refused.stdout, /^no kernel pass: BPF refused while loading the probes \(Operation not permitted\): run as root$/m)
  const skipped = await runBench([...args, '--id', 'skipped', '--no-kernel'])
  assert.doesNotMatch(skipped.stdout, /kernel/)
  for (const id of ['refused', 'skipped']) {
    assert.ok(readRuns(path.join(out, id, 'all.jsonl')).every(record => !record.phase.startsWith('kernel')))
    assert.equal(readJson(path.join(out, id, 'results.json')).kernel, null)
  }
  assert.equal(readJson(path.join(out, 'refused', 'context.json')).bpf.available, false)
})

test('http with the kernel pass: each cell\'s calls per request at full speed beside strace\'s', async () => {
  const out = tempDir()
  const result = await runBench(['--experiment', 'http', '--quick', '--only', 'c-blocking', '--out', out, '--id', 'h'])
  assert.equal(result.status, 0, result.stderr + result.stdout)
  const { http } = readJson(path.join(out, 'h', 'results.json'))
  // the fake server: a read and a write a request, an epoll_wait every tenth
  assert.deepEqual(http.kernel.map(entry => `${entry.where} ${entry.connections} ${entry.server}`).sort(), [
    'close 16 c-blocking', 'close 16 c-epoll', 'keep-alive 16 c-blocking', 'keep-alive 16 c-epoll'
  ])
  for (const entry of http.kernel) {
    assert.equal(entry.work, 2)
    near(entry.upkeep, 0.1, 0.01)
    // the fake strace pass: accept, read, write and close a request
    assert.equal(entry.strace.work, 4)
  }
  // and once more beside each capacity run, wrk on its own CPU: the capacity table's
  assert.deepEqual(http.capacity.map(entry => `${entry.mode} ${entry.server} ${entry.syscalls.work}`).sort(), [
    'close c-blocking 2', 'close c-epoll 2', 'keep-alive c-blocking 2', 'keep-alive c-epoll 2'
  ])
  assert.match(result.stdout, /Syscalls per request at full speed/)
  assert.match(result.stdout, /syscalls\/request: apart, timed/)
})

test('insideWindow: a throw inside a tracer\'s window kills the tracer and goes on; a result leaves it', async () => {
  const killed = []
  const tracer = { kill: () => killed.push('tracer') }
  await assert.rejects(insideWindow(tracer, async () => { throw new Error('wrk vanished') }), /wrk vanished/)
  assert.deepEqual(killed, ['tracer'])
  assert.equal(await insideWindow(tracer, async () => 42), 42)
  assert.deepEqual(killed, ['tracer'])
  // no tracer (a step outside the kernel pass): the error alone
  await assert.rejects(insideWindow(null, async () => { throw new Error('no tracer') }), /no tracer/)
})
