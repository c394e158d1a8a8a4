'use strict'
// The strace pass, in this process: the read trace that checks each reader's claims
// against what the kernel saw, syscalls per MiB from two input sizes, and a cell its read
// trace caught.
const { test, describe } = require('node:test')
const assert = require('node:assert/strict')

const { parseTrace, parseProfileRun, readTraceProblem } = require('../../experiments/stdio/strace')
const { summariseResults, summariseSyscalls } = require('../../experiments/stdio/summary')
const findings = require('../../experiments/stdio/findings')

// Lines as strace -C -f -s 0 -o FILE writes them: start-up reads on other descriptors,
// a read of stdin split by another thread, an EAGAIN, the end of input, then the summary.
const TRACE = [
  '4100 read(3, ""..., 832)               = 832',
  '4100 pread64(3, ""..., 784, 64)        = 784',
  '4100 read(0, ""..., 256)               = 256',
  '4100 read(0,  <unfinished ...>',
  '4101 read(5,  <unfinished ...>',
  '4100 <... read resumed>""..., 256)     = 256',
  '4101 <... read resumed>""..., 32)      = 16',
  '4100 read(0, 0x7f00, 256)              = -1 EAGAIN (Resource temporarily unavailable)',
  '4100 read(0, ""..., 256)               = 128',
  '4100 read(0, "", 256)                  = 0',
  '4101 futex(0x7f00, FUTEX_WAKE_PRIVATE, 1) = 0',
  '4100 exit_group(0)                     = ?',
  '4100 +++ exited with 0 +++',
  '% time     seconds  usecs/call     calls    errors syscall',
  '------ ----------- ----------- --------- --------- ----------------',
  ' 90.00    0.000900          90        10         1 read',
  ' 10.00    0.000100         100         1           futex',
  '------ ----------- ----------- --------- --------- ----------------',
  '100.00    0.001000          90        11         1 total'
].join('\n')

const C_ROW = { name: 'c', honoursBlockSize: true }

describe('the read trace', () => {
  test('keeps the calls on stdin, joins split calls, and counts what each returned', () => {
    const trace = parseTrace(TRACE)
    assert.equal(trace.otherCalls, 3)
    assert.deepEqual(trace.stdin, {
      read: { calls: 5, dataCalls: 3, bytes: 640, maxBytes: 256, maxAsked: 256, errors: 1, returned: { 256: 2, '-1': 1, 128: 1, 0: 1 } }
    })
  })

  test('one run gives every thread\'s summary and the main thread\'s own counts', () => {
    const { allThreads, mainThread, readTrace } = parseProfileRun(TRACE)
    assert.equal(allThreads.totalCalls, 11)
    // the first pid's calls that returned: exit_group never did, and -c leaves it out too
    assert.deepEqual(mainThread.syscalls.map(row => [row.name, row.calls, row.errors]), [['read', 6, 1], ['pread64', 1, 0]])
    assert.deepEqual([mainThread.totalCalls, mainThread.totalErrors, mainThread.reads], [7, 1, 6])
    assert.ok(mainThread.totalCalls <= allThreads.totalCalls)
    assert.equal(readTrace.stdin.read.dataCalls, 3)
  })

  test('an honest reader passes; each claim the kernel contradicts is named', () => {
    const trace = parseTrace(TRACE)
    assert.equal(readTraceProblem({ trace, program: C_ROW, blockSize: 256, bytes: 640, reads: 3 }), null)
    assert.match(readTraceProblem({ trace, program: C_ROW, blockSize: 128, bytes: 640, reads: 3 }),
      /ask for up to 256 bytes a call, more than the 128-byte blocks its row claims to read in \(3 read calls brought the 640 bytes\)/)
    assert.equal(readTraceProblem({ trace, program: { ...C_ROW, honoursBlockSize: false }, blockSize: 128, bytes: 640, reads: 3 }), null, 'a row that picks its own chunks claims no block size')
    assert.match(readTraceProblem({ trace, program: C_ROW, blockSize: 256, bytes: 640, reads: 5 }), /says it made 5 reads, but strace saw 3 read calls bring data/)
    assert.match(readTraceProblem({ trace, program: C_ROW, blockSize: 256, bytes: 1024, reads: 3 }), /strace saw 640 bytes come through read on stdin, but 1024 were sent/)
    assert.match(readTraceProblem({ trace, program: { ...C_ROW, readSyscalls: ['splice'] }, blockSize: 256, bytes: 640, reads: 3 }), /read stdin with read, but its row says splice/)
  })

  test('a copy of stdin is stdin until it is closed or its number handed out again', () => {
    // Deno reads its stdin stream from a copy it makes by fcntl, and closes it at the end
    const trace = parseTrace([
      '9 fcntl(0, F_DUPFD_CLOEXEC, 3)  = 21',
      '9 fcntl(5, F_DUPFD_CLOEXEC, 3)  = 22',
      '9 dup(21)                       = 23',
      '9 dup2(0, 24)                   = 24',
      '9 fcntl(0, F_GETFL)             = 25',
      '9 dup(0)                        = -1 EMFILE (Too many open files)',
      '9 openat(AT_FDCWD, "/dev/stdin", O_RDONLY) = 26',
      '9 read(21, ""..., 65536)        = 65536',
      '9 read(23, ""..., 65536)        = 100',
      '9 read(24, ""..., 65536)        = 1',
      '9 read(26, ""..., 65536)        = 2',
      '9 read(22, ""..., 4096)         = 4096',
      '9 read(25, ""..., 4096)         = 8',
      '9 read(21, "", 65536)           = 0',
      // a close split by another thread, whose open is handed the number before the close ends
      '9 close(21 <unfinished ...>',
      '10 openat(AT_FDCWD, "/etc/hosts", O_RDONLY) = 21',
      '10 read(21, ""..., 4096)        = 200',
      '9 <... close resumed>)          = 0',
      '9 dup2(22, 24)                  = 24',
      '9 read(24, ""..., 4096)         = 50',
      '9 pipe2([26, 27], O_CLOEXEC)    = 0',
      '9 read(26, ""..., 4096)         = 3',
      '9 read(23, "", 65536)           = 0'
    ].join('\n'))
    assert.deepEqual(trace.stdin.read, {
      calls: 6,
      dataCalls: 4,
      bytes: 65639,
      maxBytes: 65536,
      maxAsked: 65536,
      errors: 0,
      returned: { 65536: 1, 100: 1, 1: 1, 2: 1, 0: 2 }
    })
    assert.equal(trace.otherCalls, 5, 'fds 22 and 25, 21 once closed and opened again, 24 replaced, 26 a pipe')
  })

  test('stdin closed, or replaced, is stdin no more; close_range closes its copies', () => {
    const reads = lines => parseTrace(lines.join('\n')).stdin.read?.bytes ?? 0
    const closed = parseTrace('7 close(0) = 0\n7 read(0, 0x7f00, 4096) = -1 EBADF (Bad file descriptor)\n')
    assert.deepEqual([closed.stdin, closed.otherCalls], [{}, 1])
    const hosts = '7 openat(AT_FDCWD, "/etc/hosts", O_RDONLY) = 0'
    assert.equal(reads(['7 close(0) = 0', hosts, '7 read(0, ""..., 4096) = 200']), 0)
    assert.equal(reads(['7 dup2(5, 0) = 0', '7 read(0, ""..., 4096) = 200']), 0)
    assert.equal(reads(['7 dup(0) = 9', '7 close_range(3, 4294967295, 0) = 0', '7 read(9, ""..., 4096) = 200']), 0)
    const cloexec = '7 close_range(3, 4294967295, CLOSE_RANGE_CLOEXEC) = 0'
    assert.equal(reads(['7 dup(0) = 9', cloexec, '7 read(9, ""..., 4096) = 200']), 200)
    assert.equal(reads(['7 dup(0) = 9', '7 close_range(3, 8, 0) = 0', '7 read(9, ""..., 4096) = 200']), 200)
  })

  const TABLES = 'each process has its table: a forked child\'s closes are its own, a thread\'s shared; ' +
    'exec closes close-on-exec copies'
  test(TABLES, () => {
    const reads = lines => parseTrace(lines.join('\n')).stdin.read?.bytes ?? 0
    const read9 = (pid, bytes) => `${pid} read(0, ""..., 4096) = ${bytes}`
    // a child forked without CLONE_FILES closes its copy of stdin; its parent still reads it
    const forked = '7 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD) = 8'
    assert.equal(reads([forked, '8 close(0) = 0', read9(7, 100)]), 100)
    assert.equal(reads(['7 fork() = 8', '8 close(0) = 0', read9(7, 100), read9(8, 5)]), 100,
      'and its own reads of 0 are not')
    assert.equal(reads(['7 vfork() = 8', '8 close(0) = 0', read9(7, 100)]), 100)
    // a thread shares the table: its close is the process's
    const thread = '7 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD, exit_signal=0}, 88) = 8'
    assert.equal(reads([thread, '8 close(0) = 0', read9(7, 100)]), 0)
    // a thread whose clone strace had not yet printed is taken for one of the first process
    assert.equal(reads(['8 close(0) = 0', read9(7, 100)]), 0)
    // a child's copy made after the fork is its own
    assert.equal(reads([forked, '8 dup(0) = 9', '7 read(9, ""..., 4096) = 100']), 0)
    assert.equal(reads([forked, '8 dup(0) = 9', '8 read(9, ""..., 4096) = 100']), 100)
    // an exec closes the copies made close-on-exec, and keeps the others
    const exec = '7 execve("/bin/cat", ["cat"], 0x7ffd /* 20 vars */) = 0'
    const read = (fd, bytes) => `7 read(${fd}, ""..., 4096) = ${bytes}`
    assert.equal(reads(['7 dup3(0, 9, O_CLOEXEC) = 9', exec, read(9, 100)]), 0)
    assert.equal(reads(['7 fcntl(0, F_DUPFD_CLOEXEC, 3) = 9', exec, read(9, 100)]), 0)
    assert.equal(reads(['7 dup(0) = 9', '7 fcntl(9, F_SETFD, FD_CLOEXEC) = 0', exec, read(9, 100)]), 0)
    assert.equal(reads(['7 dup(0) = 9', '7 close_range(3, 9, CLOSE_RANGE_CLOEXEC) = 0', exec, read(9, 100)]), 0)
    assert.equal(reads(['7 openat(AT_FDCWD, "/dev/stdin", O_RDONLY|O_CLOEXEC) = 9', exec, read(9, 100)]), 0)
    assert.equal(reads(['7 dup(0) = 9', exec, read(9, 100)]), 100)
    assert.equal(reads(['7 fcntl(0, F_DUPFD_CLOEXEC, 3) = 9', '7 fcntl(9, F_SETFD, 0) = 0', exec, read(9, 100)]), 100)
    assert.equal(reads(['7 dup3(0, 9, O_CLOEXEC) = 9', '7 dup2(0, 9) = 9', exec, read(9, 100)]), 100,
      'dup2 makes a copy that an exec keeps')
    const failedExec = '7 execve("/nonexistent", ["x"], 0x7ffd) = -1 ENOENT (No such file)'
    assert.equal(reads(['7 dup3(0, 9, O_CLOEXEC) = 9', failedExec, read(9, 100)]), 100, 'a failed exec closes nothing')
  })

  test('a WASI host that reads in chunks of its own is held to the bytes alone', () => {
    const trace = parseTrace('7 read(0, "..."..., 8192) = 8192\n7 read(0, "", 8192) = 0\n')
    const row = { name: 'deno-wasi', honoursBlockSize: true, wasi: true, hostChunks: '8 KiB at a time' }
    // the module made 32 fd_reads of 256 bytes; the kernel saw one read of 8 KiB
    assert.equal(readTraceProblem({ trace, program: row, blockSize: 256, bytes: 8192, reads: 32 }), null)
    assert.match(readTraceProblem({ trace, program: row, blockSize: 256, bytes: 16384, reads: 64 }), /strace saw 8192 bytes come through read on stdin, but 16384 were sent/)
    assert.match(readTraceProblem({ trace, program: { ...row, hostChunks: undefined }, blockSize: 256, bytes: 8192, reads: 32 }), /ask for up to 8192 bytes a call/)
  })

  test('a call whose iovec strace leaves out is judged by what it returned', () => {
    const trace = parseTrace('7 preadv2(0, [...], 1, -1, RWF_NOWAIT) = 65536\n7 preadv2(0, [...], 1, -1, RWF_NOWAIT) = 0\n')
    assert.equal(trace.stdin.preadv2.maxAsked, null)
    const row = { honoursBlockSize: true, readSyscalls: ['preadv2'] }
    assert.equal(readTraceProblem({ trace, program: row, blockSize: 65536, bytes: 65536, reads: 1 }), null)
    assert.match(readTraceProblem({ trace, program: row, blockSize: 4096, bytes: 65536, reads: 16 }), /bring up to 65536 bytes a call, more than the 4096-byte blocks .*take 16 at least/)
  })
})

// The strace records of one cell: a run per size, with every thread's and the main
// thread's totals ({ 'main@1': 291, 'all@1': 291, ... }, sizes in MiB); with old: true,
// as runs from before the two-size pass logged them, a run per mode.
function straceRecords (program, blockSize, totals, { old = false } = {}) {
  const profile = totalCalls => ({ syscalls: [], totalCalls, threadsStarted: 0 })
  const sizes = [...new Set(Object.keys(totals).map(key => Number(key.split('@')[1])))]
  const base = mib => ({ phase: 'strace', program, blockSize, bytes: mib << 20, ok: true, rawFile: `strace/${program}-${blockSize}-${mib}M.txt` })
  if (old) return Object.entries(totals).map(([key, totalCalls]) => ({ ...base(Number(key.split('@')[1])), straceMode: key.split('@')[0], strace: profile(totalCalls) }))
  return sizes.map(mib => ({ ...base(mib), strace: profile(totals[`all@${mib}`]), mainThread: profile(totals[`main@${mib}`]), readTrace: { stdin: {}, otherCalls: 0 } }))
}

describe('syscalls per MiB', () => {
  const context = { runId: 'x', options: { feeder: 'fixed', runs: 1 }, ptrace: { available: true } }

  test('from the difference between two sizes; noise is named, never printed', () => {
    const records = [
      ...straceRecords('c', 4096, { 'main@1': 291, 'all@1': 291, 'main@3': 803, 'all@3': 803 }),
      // helper threads made more calls in the smaller run: below zero
      ...straceRecords('deno-ffi', 4096, { 'main@1': 900, 'all@1': 1400, 'main@3': 1400, 'all@3': 1300 }),
      // both differences positive, but the main thread's above every thread's
      ...straceRecords('bun-stream', 4096, { 'main@1': 330, 'all@1': 360, 'main@3': 400, 'all@3': 420 })
    ]
    const { cells, perMiBMeaning } = summariseSyscalls(records, context)
    assert.match(perMiBMeaning, /larger run - calls in the smaller/)
    const cell = program => cells.find(entry => entry.program === program)
    assert.deepEqual(cell('c').syscallsPerMiB, { mainThread: 256, allThreads: 256, noise: null })
    assert.deepEqual([cell('c').bytes, cell('c').smallBytes], [3 << 20, 1 << 20])
    assert.deepEqual(cell('deno-ffi').syscallsPerMiB, { mainThread: 250, allThreads: null, noise: 'every thread made 100 calls fewer reading 3 MiB than 1 MiB: run-to-run noise, not a rate' })
    assert.deepEqual(cell('bun-stream').syscallsPerMiB, { mainThread: 35, allThreads: null, noise: 'the helper threads made 10 calls fewer reading 3 MiB than 1 MiB, which would put every thread\'s rate (30) below the main thread\'s (35): run-to-run noise, not a rate' })

    // the finding ranks only rates: the two readers whose rate is noise are not in it
    const sentence = findings.extraSyscalls({ results: { cells: [] }, syscalls: { cells: [...cells, { ...cell('c'), program: 'just-sync', syscallsPerMiB: { mainThread: 512, allThreads: 512, noise: null } }] } })
    assert.equal(sentence, 'At 4 KiB, just-sync makes 2× C\'s syscalls per MiB read (every thread, start-up\'s calls cancelled).')
  })

  // one of its two runs failed: the other's totals stand, and the rate it lacks is said to be
  // lost, with the reason, not left blank (a review)
  test('a cell with one run failed says which and why, and its page says the rate is lost', () => {
    const [small, large] = straceRecords('c', 4096, { 'main@1': 291, 'all@1': 291, 'main@3': 803, 'all@3': 803 })
    const failed = { ...small, ok: false, failure: 'reader killed by signal SIGSEGV' }
    const { cells } = summariseSyscalls([failed, large], context)
    assert.deepEqual(cells[0].failedRuns, ['its run of 1 MiB failed: reader killed by signal SIGSEGV'])
    assert.deepEqual(cells[0].syscallsPerMiB, { mainThread: null, allThreads: null, noise: null })
    assert.equal(cells[0].allThreads.totalCalls, 803)
    const { perMiBText } = require('../../experiments/stdio/report-html')
    const shown = String(perMiBText({ perMiBAll: null, failed: cells[0].failedRuns.join('; ') }))
    assert.match(shown, /title="its run of 1 MiB failed: reader killed by signal SIGSEGV">lost: a run failed</)
    assert.deepEqual(summariseSyscalls([small, large], context).cells[0].failedRuns, [])
  })

  test('a run from before the two-size pass keeps its profile and gets no rate', () => {
    const { cells } = summariseSyscalls(straceRecords('c', 4096, { 'main@4': 1067, 'all@4': 1067 }, { old: true }), context)
    assert.deepEqual(cells[0].syscallsPerMiB, { mainThread: null, allThreads: null, noise: null })
    assert.equal(cells[0].mainThread.totalCalls, 1067)
    assert.equal(cells[0].smallBytes, null)
  })
})

test('summariseResults: a cell caught by its read trace fails, whatever its timed runs did', () => {
  const run = { phase: 'timing', program: 'c', blockSize: 4096, bytes: 1 << 20, feederBlockSize: 65536, ok: true, wallNs: 1e6, reader: { userUs: 1, sysUs: 1, maxRssKb: 1, voluntaryCs: 0, involuntaryCs: 0 }, feeder: { userUs: 1, sysUs: 1 }, output: { size: 1 << 20, reads: 256, blockSize: 4096 } }
  const caught = { phase: 'strace', program: 'c', blockSize: 4096, bytes: 1 << 20, ok: false, failure: 'strace saw …', readTrace: { stdin: {}, otherCalls: 0 }, command: 'dd … | strace …' }
  const crashed = { ...caught, blockSize: 65536, readTrace: undefined, failure: 'reader killed by signal SIGSEGV' }
  const results = summariseResults([run, { ...run, blockSize: 65536 }, caught, crashed], { runId: 'x', options: { feeder: 'fixed', runs: 1 } })
  const [at4k, at64k] = results.cells
  assert.deepEqual([at4k.flags, at4k.rejected, at4k.best], [['failed'], 'strace saw …', undefined])
  assert.equal(at64k.rejected, undefined, 'a trace that crashed checked nothing: it is a listed failure, not a verdict')
  assert.deepEqual(results.failures.map(failure => [failure.phase, failure.blockSize, failure.command]), [['strace', 4096, 'dd … | strace …'], ['strace', 65536, 'dd … | strace …']])
})
