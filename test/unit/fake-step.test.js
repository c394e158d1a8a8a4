'use strict'
// The fake step (test/fake-step.js) that the in-process tests run bench with: each
// experiment summarises its records as it does the real ones, its figures repeat for a
// seed, a step told to fail fails as a real one does, and a stop keeps what was measured.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { readRuns: readLog, readJson, tempFolders, TINY } = require('../helpers')
const { fakeStep, runBench } = require('../fake-step')

const { parseOptions, plan } = require('../../bench')
const { placementPlan } = require('../../lib/placement')
const { programs } = require('../../experiments/stdio/programs')
const { summariseSyscalls } = require('../../experiments/stdio/summary')

const tempDir = tempFolders('syscall-lab-fake-step-')
const near = (actual, expected, share) => assert.ok(Math.abs(actual - expected) <= share * expected, `${actual} is not within ${share * 100}% of ${expected}`)

test('stdio: every pass summarised, the headline from the cost runs\' samples, C\'s reads cheaper than another reader\'s', async () => {
  const out = tempDir()
  const result = await runBench(['--only', 'c', '--only', 'node-sync', '--sizes', '256,4096', '--runs', '2', '--rounds', '4', '--warmup', '1', '--mib', '1', '--marginal', '--no-strace', '--out', out, '--id', 'stdio'])
  assert.equal(result.status, 0, result.stderr + result.stdout)
  const results = readJson(path.join(out, 'stdio', 'results.json'))
  assert.deepEqual(results.failures, [])
  assert.deepEqual(results.cells.map(cell => [cell.program, cell.blockSize, cell.runs, cell.marginal.quarterRuns]), [['c', 256, 2, 2], ['c', 4096, 2, 2], ['node-sync', 256, 2, 2], ['node-sync', 4096, 2, 2]])
  assert.deepEqual(results.headline.cells.map(cell => [cell.program, cell.blockSize, cell.rounds]), [['c', 256, 4], ['node-sync', 256, 4], ['c', 4096, 4], ['node-sync', 4096, 4]])
  for (const cell of results.headline.cells) near(cell.cpuPerReadNs.estimate, cell.program === 'c' ? 250 : 400, 0.02)
  assert.deepEqual(readJson(path.join(out, 'stdio', 'gc.json')).cells.map(cell => [cell.program, cell.blockSize, cell.collections]), [['node-sync', 256, 0], ['node-sync', 4096, 0]])
})

test('stdio\'s strace pass: one read a block, so syscalls per MiB are the reads a MiB takes', async () => {
  const runnable = programs.filter(program => ['c', 'coreutils'].includes(program.name))
  const options = { ...parseOptions(['--sizes', '4096', '--runs', '1', '--no-cost', '--no-gc']), strace: true }
  const steps = plan(options, { runnable }, { ptrace: { available: true } }, placementPlan([0, 1])).filter(step => step.phase === 'strace')
  const session = fakeStep().measurer(null, options)
  const records = []
  for (const step of steps) records.push((await session.measure(step, step.run)).record)
  const { cells } = summariseSyscalls(records, { runId: 'fake', options, ptrace: { available: true } })
  assert.deepEqual(cells.map(cell => [cell.program, cell.syscallsPerMiB.mainThread, cell.syscallsPerMiB.allThreads, cell.threads]), [['c', 256, 256, 1], ['coreutils', 16, 16, 1]])
  // per read of 4 KiB: C one read; wc -c reads 64 KiB at a time, a sixteenth of a read per
  // block; start-up's calls, made in both runs, apart
  const perRead = cells.map(cell => [cell.program, cell.syscallsPerRead.allThreads.perRead, cell.syscallsPerRead.allThreads.calls.map(row => row.name)])
  assert.deepEqual(perRead, [['c', 1, ['read']], ['coreutils', 1 / 16, ['read']]])
  // start-up's calls told apart from the reads' (the line through both runs holds the larger
  // by construction, a review found): the fake's 8 mmaps, 2 opens, 2 closes and the read at EOF
  for (const cell of cells) assert.equal(cell.syscallsPerRead.allThreads.startup, 13, cell.program)
})

test('calls: the ladder and its cost pass summarised, each variant\'s parts adding up', async () => {
  const out = tempDir()
  const result = await runBench(['--experiment', 'calls', '--quick', '--only', 'just-fast', '--processes', '6', '--rounds', '2', '--out', out, '--id', 'calls'])
  assert.equal(result.status, 0, result.stderr + result.stdout)
  const { ladder, headline } = readJson(path.join(out, 'calls', 'results.json'))
  assert.deepEqual(ladder.rows.map(row => [row.variant, row.processes, row.addsUp]),
    [['c', 6, null], ['just-fast', 6, true]])
  assert.deepEqual(headline.cells.map(cell => cell.program), ['c', 'just-fast'])
})

// A variant whose fast-path check failed: its timed processes are not run but logged failed
// with the reason, none counts, and bench.js exits 1 naming the check.
test('calls: a ladder whose fast path did not hold is not timed, and the run fails', async () => {
  const out = tempDir()
  const reason = 'fast path not taken: TurboFan compiled noop() with no fast API call'
  const fail = step => (step.phase === 'ladder-fastpath' ? reason : null)
  const result = await runBench(['--experiment', 'calls', '--quick', '--only', 'just-fast', '--processes', '2',
    '--rounds', '2', '--out', out, '--id', 'calls'], { step: fakeStep({ fail }) })
  assert.equal(result.status, 1, result.stderr + result.stdout)
  assert.match(result.stdout, /ladder-fastpath just-fast @ 256: fast path not taken: TurboFan compiled noop\(\) with no fast API call/)
  const { ladder, failures } = readJson(path.join(out, 'calls', 'results.json'))
  const row = ladder.rows.find(entry => entry.variant === 'just-fast')
  assert.deepEqual([row.processes, row.failedRuns, row.fastPath.failure],
    [0, 2, 'fast path not taken: TurboFan compiled noop() with no fast API call'])
  assert.deepEqual(failures.filter(failure => failure.phase === 'ladder').map(failure => failure.reason),
    ['not run: its fast-path check failed (fast path not taken: TurboFan compiled noop() with no fast API call)'])
  assert.equal(ladder.rows.find(entry => entry.variant === 'c').processes, 2)
})

test('http: every cell and the strace pass summarised, four calls of work a request', async () => {
  const out = tempDir()
  const result = await runBench(['--experiment', 'http', '--quick', '--only', 'c-blocking', '--runs', '4', '--connections', '2,16', '--out', out, '--id', 'http'])
  assert.equal(result.status, 0, result.stderr + result.stdout)
  const { http, failures } = readJson(path.join(out, 'http', 'results.json'))
  assert.deepEqual(failures, [])
  assert.deepEqual(http.cells.map(cell => `${cell.mode} ${cell.connections} ${cell.server} ${cell.runs}`), [
    'keep-alive 2 c-blocking 4', 'keep-alive 2 c-epoll 4', 'keep-alive 16 c-blocking 4', 'keep-alive 16 c-epoll 4',
    'close 2 c-blocking 4', 'close 2 c-epoll 4', 'close 16 c-blocking 4', 'close 16 c-epoll 4'
  ])
  for (const cell of http.cells) assert.ok(cell.server === 'c-epoll' ? cell.vsReference === null : cell.vsReference.low > 0, JSON.stringify(cell))
  assert.deepEqual(http.syscalls.map(entry => [entry.server, entry.mode, entry.work]), [['c-blocking', 'keep-alive', 4], ['c-epoll', 'keep-alive', 4], ['c-blocking', 'close', 4], ['c-epoll', 'close', 4]])
})

test('db: every cell and its passes summarised, each server against C, four calls of work a /db request', async () => {
  const out = tempDir()
  const result = await runBench(['--experiment', 'db', '--quick', '--only', 'c-libpq-prepared-serial', '--runs', '4',
    '--out', out, '--id', 'db'])
  assert.equal(result.status, 0, result.stderr + result.stdout)
  const { db, failures } = readJson(path.join(out, 'db', 'results.json'))
  assert.deepEqual(failures, [])
  // the reference runs beside every server; /fortunes takes each client's first variant
  assert.deepEqual(db.cells.map(cell => `${cell.endpoint} ${cell.connections} ${cell.server} ${cell.runs}`), [
    'db 16 c-libpq-prepared-pipelined 4', 'db 16 c-libpq-prepared-serial 4',
    'queries 16 c-libpq-prepared-pipelined 4', 'queries 16 c-libpq-prepared-serial 4',
    'fortunes 16 c-libpq-prepared-pipelined 4'
  ])
  const serial = db.cells.find(cell => cell.endpoint === 'db' && cell.server === 'c-libpq-prepared-serial')
  assert.ok(serial.serverVsReference.low > 0, JSON.stringify(serial.serverVsReference))
  // a read and a write a request, and a query's send and receive: 2 + 2 per query
  const work = db.syscalls.map(entry => [entry.server, entry.endpoint, entry.self.work, entry.backends.work])
  assert.deepEqual(work, [
    ['c-libpq-prepared-pipelined', 'db', 4, 2], ['c-libpq-prepared-serial', 'db', 4, 2],
    ['c-libpq-prepared-pipelined', 'queries', 42, 40], ['c-libpq-prepared-serial', 'queries', 42, 40],
    ['c-libpq-prepared-pipelined', 'fortunes', 4, 2]
  ])
  assert.ok(db.kernel.server.length > 0 && db.kernel.backends.length > 0)
  assert.deepEqual(db.latency.runs.map(run => [run.server, run.connections, run.ok]),
    [['c-libpq-prepared-pipelined', 20, true]])
})

test('db: a stop keeps what was measured; --resume measures the rest, each step once', async () => {
  const out = tempDir()
  const args = ['--experiment', 'db', '--quick', '--only', 'c-libpq-prepared-serial', '--no-kernel', '--no-latency',
    '--no-strace', '--runs', '2']
  const first = fakeStep({ stopAfter: 5 })
  const stopped = await runBench([...args, '--out', out, '--id', 'db'], { step: first })
  assert.equal(stopped.status, 130, stopped.stderr + stopped.stdout)
  const dir = path.join(out, 'db')
  assert.equal(readLog(path.join(dir, 'all.jsonl')).length, 5)
  const resume = fakeStep()
  const resumed = await runBench(['--resume', dir], { step: resume })
  assert.equal(resumed.status, 0, resumed.stderr + resumed.stdout)
  const runs = readLog(path.join(dir, 'all.jsonl')).filter(record => record.ok)
  const key = record => `${record.endpoint} ${record.program} ${record.run}`
  // 2 runs of 2 servers at /db and /queries, of the reference at /fortunes: each once
  assert.equal(runs.length, 10)
  assert.equal(new Set(runs.map(key)).size, 10)
  assert.deepEqual(readJson(path.join(dir, 'results.json')).failures, [])
})

test('one seed, one set of figures; another seed, others', async () => {
  const figures = async (id, seed) => {
    const out = tempDir()
    const result = await runBench([...TINY, '--out', out, '--id', id], { step: fakeStep({ seed }) })
    assert.equal(result.status, 0, result.stderr + result.stdout)
    return readLog(path.join(out, id, 'all.jsonl')).map(record => [record.wallNs, record.reader.userUs, record.reader.sysUs])
  }
  const first = await figures('first', 7)
  assert.deepEqual(await figures('again', 7), first)
  assert.notDeepEqual(await figures('other', 8), first)
})

test('a step told to fail is a failed run: left out of the results and listed with its command, exit 1', async () => {
  const out = tempDir()
  const step = fakeStep({ fail: (step, run) => (step.phase === 'timing' && run === 1 ? 'reader counted 1 bytes, 1048576 were sent' : null) })
  const result = await runBench(['--only', 'c', '--sizes', '4096', '--runs', '2', '--warmup', '0', '--mib', '1', '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'failed'], { step })
  assert.equal(result.status, 1, result.stderr + result.stdout)
  const results = readJson(path.join(out, 'failed', 'results.json'))
  assert.equal(results.cells[0].runs, 1)
  assert.deepEqual(results.failures.map(failure => [failure.phase, failure.run, failure.reason]), [['timing', 1, 'reader counted 1 bytes, 1048576 were sent']])
  assert.match(result.stdout, /^ {2}re-run: dd if=\/dev\/zero bs=65536 count=16 status=none \| \S+\/wc-c 4096$/m)
})

test('a failure that will recur is measured once: the cell\'s later steps are skipped with its reason, the others run', async () => {
  const out = tempDir()
  // c hangs at 4096 B from its first run on; at 65536 B it reads as it should
  const step = fakeStep({ fail: (step) => (step.phase === 'timing' && step.blockSize === 4096 ? 'reader timed out after 120 s' : null) })
  const result = await runBench(['--only', 'c', '--sizes', '4096,65536', '--runs', '4', '--warmup', '0', '--mib', '1', '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'recurs'], { step })
  assert.equal(result.status, 1, result.stderr + result.stdout)
  // measured once at 4096 B, four times at 65536 B
  assert.deepEqual(step.measured.filter(run => run.phase === 'timing').map(run => `${run.blockSize} ${run.run}`), ['4096 0', '65536 0', '65536 1', '65536 2', '65536 3'])
  const log = readLog(path.join(out, 'recurs', 'all.jsonl')).filter(record => record.phase === 'timing' && record.blockSize === 4096)
  assert.deepEqual(log.map(record => [record.run, record.ok, record.skipped === true, record.failure]), [
    [0, false, false, 'reader timed out after 120 s'], [1, false, true, 'reader timed out after 120 s'],
    [2, false, true, 'reader timed out after 120 s'], [3, false, true, 'reader timed out after 120 s']
  ])
  const results = readJson(path.join(out, 'recurs', 'results.json'))
  assert.deepEqual(results.failures.map(failure => [failure.blockSize, failure.run, failure.skippedSteps]), [[4096, 0, 3]])
  assert.match(result.stdout, /reader timed out after 120 s \(its 3 later steps at this cell skipped: the failure would recur\)/)
})

test('a stop after two runs: exit 130, those two kept, the run in flight left out', async () => {
  const out = tempDir()
  const step = fakeStep({ stopAfter: 2 })
  const result = await runBench(['--only', 'c', '--sizes', '4096', '--runs', '3', '--warmup', '0', '--mib', '1', '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'stopped'], { step })
  assert.equal(result.status, 130, result.stderr + result.stdout)
  assert.match(result.stdout, /^interrupted: 2 of 6 runs measured and kept in /m)
  assert.deepEqual(readLog(path.join(out, 'stopped', 'all.jsonl')).map(record => [record.phase, record.run, record.ok]), [['startup', 0, true], ['startup', 1, true]])
  assert.deepEqual(step.measured.map(run => `${run.phase} ${run.run}`), ['startup 0', 'startup 1', 'startup 2'])
  assert.equal(step.interrupted(), true)
})
