'use strict'
// Whether a ring is allowed here, for machines the tests are not on, and the strace
// pass's check of a reader through io_uring against hand-written traces.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const { uringReason } = require('../../lib/uring')
const { parseTrace, readTraceProblem } = require('../../experiments/stdio/strace')

const NOWHERE = path.join(__dirname, 'no-such-probe')

let scratch
before(() => { scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-uring-unit-')) })
after(() => fs.rmSync(scratch, { recursive: true, force: true }))

test('a ring refused: an old kernel, the switch off, liburing missing or not built; each names the fix', () => {
  const here = { release: '6.18.0', disabled: '0', root: false, probe: NOWHERE, header: NOWHERE }
  assert.match(uringReason({ ...here, release: '5.4.0-150-generic' }), /^the kernel is 5\.4\.0-150-generic, and reads through io_uring need Linux 5\.6 or later$/)
  assert.match(uringReason({ ...here, disabled: '2' }), /kernel\.io_uring_disabled=2\): sysctl -w kernel\.io_uring_disabled=0 allows it$/)
  assert.match(uringReason(here), /^liburing is not installed: apt-get install liburing-dev, then make/)
  assert.equal(uringReason({ ...here, header: __filename }), `${NOWHERE} is not built: run make (./setup.sh runs it)`)
})

// A probe that answers as a refused ring does: its stderr line and exit 1.
function probeSaying (name, line) {
  const file = path.join(scratch, name)
  fs.writeFileSync(file, `#!/bin/sh\necho '${line}' >&2\nexit 1\n`, { mode: 0o755 })
  return file
}

test('a ring the probe is refused: EPERM is seccomp\'s, or the switch\'s at 1 when not root; ENOSYS and the rest say what they say', () => {
  const here = { release: '6.18.0', disabled: '0', root: false, header: __filename }
  const eperm = probeSaying('eperm', 'io_uring_setup: Operation not permitted (1)')
  assert.match(uringReason({ ...here, probe: eperm }), /^io_uring_setup is refused here \(Operation not permitted\): a seccomp profile such as Docker's default blocks io_uring; run the container with --security-opt seccomp=unconfined$/)
  const group = probeSaying('group', 'io_uring_setup: Operation not permitted (1)')
  assert.match(uringReason({ ...here, disabled: '1', probe: group }), /kernel\.io_uring_disabled=1\): run as root, join that group, or sysctl -w kernel\.io_uring_disabled=0$/)
  assert.match(uringReason({ ...here, probe: probeSaying('enosys', 'io_uring_setup: Function not implemented (38)') }), /^io_uring_setup does not exist here \(Function not implemented\): .*; run the container with --security-opt seccomp=unconfined$/)
  assert.equal(uringReason({ ...here, probe: probeSaying('other', 'something else') }), 'a ring could not be set up here: something else')
})

// strace -C -f -s 0 lines of a ring reader: start-up, the ring, its enters, the summary.
const ringTrace = (enters, extra = '') => [
  '100 execve("./wc-uring", ["./wc-uring", "256"], 0x7ffd /* 9 vars */) = 0',
  '100 read(3, ""..., 832) = 832',
  '100 io_uring_setup(1, {flags=0}) = 4',
  ...enters.map(taken => `100 io_uring_enter(4, 1, 1, IORING_ENTER_GETEVENTS, NULL, 8) = ${taken}`),
  extra,
  '100 exit_group(0) = ?',
  '% time     seconds  usecs/call     calls    errors syscall'
].filter(Boolean).join('\n')

// The parts of a parsed trace the check reads.
const traceOf = text => {
  const { stdin, otherCalls, ring } = parseTrace(text)
  return { stdin, otherCalls, ring }
}

test('a ring reader\'s trace: every read one submission, one more for the end; a read(2) of stdin or a count that differs fails it', () => {
  const ring = { name: 'c-uring', ring: true, honoursBlockSize: true }
  const honest = traceOf(ringTrace([1, 1, 1, 1, 1]))
  assert.deepEqual(honest.ring, { enters: 5, submitted: 5 })
  // the bytes and the block size cannot be checked: they are in the ring's memory
  assert.equal(readTraceProblem({ trace: honest, program: ring, blockSize: 256, bytes: 1024, reads: 4 }), null)
  assert.equal(readTraceProblem({ trace: honest, program: ring, blockSize: 256, bytes: 1024, reads: 6 }),
    'the reader says it made 6 reads, but strace saw io_uring_enter take 5 submissions (the reads and one that met the end make 7)')
  // an enter that failed took nothing
  assert.deepEqual(traceOf(ringTrace([1, -4, 1])).ring, { enters: 2, submitted: 2 })
  const withRead = traceOf(ringTrace([1, 1], '100 read(0, ""..., 256) = 256'))
  assert.equal(readTraceProblem({ trace: withRead, program: ring, blockSize: 256, bytes: 512, reads: 1 }), 'strace saw the reader read stdin with read, but its row reads through io_uring')
})

test('a windowed ring reader\'s trace: one more submission for each read in flight at the end, its window over the block size', () => {
  const windowed = { name: 'c-uring-window', ring: true, ringWindow: 16384, honoursBlockSize: true }
  const trace = enters => traceOf(ringTrace(enters))
  // 4 KiB blocks: 4 in flight; 6 reads brought data, and the 4 then in flight met the end
  const four = trace([4, 2, 3, 1])
  assert.equal(readTraceProblem({ trace: four, program: windowed, blockSize: 4096, bytes: 6 * 4096, reads: 6 }), null)
  assert.equal(readTraceProblem({ trace: four, program: windowed, blockSize: 4096, bytes: 6 * 4096, reads: 7 }),
    'the reader says it made 7 reads, but strace saw io_uring_enter take 10 submissions (the reads and the 4 in flight that met the end make 11)')
  // blocks as large as the window or larger: one in flight, as c-uring
  assert.equal(readTraceProblem({ trace: trace([1, 1, 1]), program: windowed, blockSize: 65536, bytes: 2 * 65536, reads: 2 }), null)
  // a window that does not divide: whole blocks only, 16384 / 5000 = 3
  assert.equal(readTraceProblem({ trace: trace([3, 1]), program: windowed, blockSize: 5000, bytes: 5000, reads: 1 }), null)
})
