// The call ladder in Deno, in both of the lab's Deno readers' forms: the no-op and
// getppid through Deno.dlopen into build/libladder.so (calls/native.c); the reads
// through Deno's own readSync (`sync`, as wc/deno-sync.js makes them) or through
// Deno.dlopen's libc read(2) (`ffi`, as wc/deno-ffi.js). In `uring`, the syscall and
// the reads go through the ring of build/libladder-uring.so (calls/uring.c), as
// calls/c.c's c-uring makes them. Run with --v8-flags=--allow-natives-syntax, to ask V8
// whether each loop was optimised.
import process from 'node:process'
import { runLadder, noop, syscall, ringSymbols, ringRungs, v8Compiled, openedOrExit, BLOCK } from './ladder.mjs'
import { readDeclaration, readBuffer } from '../wc/deno-ffi-read.js'

const [form, ...argv] = Deno.args
const build = name => new URL(`../build/${name}`, import.meta.url)
const ladder = Deno.dlopen(build('libladder.so'), {
  ladder_noop: { parameters: ['i32'], result: 'i32' },
  ladder_getppid: { parameters: [], result: 'i32' },
  ladder_cpu_ns: { parameters: [], result: 'f64' }
}).symbols
// read declared where wc/deno-ffi.js declares it: a pointer taken once and a BigInt
// length, which keep Deno's fast call (its isize result is a BigInt too).
const libc = Deno.dlopen('libc.so.6', {
  read: readDeclaration,
  open: { parameters: ['buffer', 'i32'], result: 'i32' }
}).symbols
// Deno 2's files have no fd to give FFI, so the ffi and ring forms open their own.
const devNull = Deno.openSync('/dev/null')
const devNullFd = () => openedOrExit(libc.open(new TextEncoder().encode('/dev/null\0'), 0), '/dev/null')
const buf = readBuffer(BLOCK)
const bufAddress = Deno.UnsafePointer.of(buf)
const one = buf.subarray(0, 1)

// The read loops, as noop and syscall in calls/ladder.mjs: what they call as arguments,
// and a count of the calls that answered right. readSync answers null where read(2)
// returned 0, at the end of a file. Two loops of readSync, one for each class: /dev/null is an
// FsFile, stdin a Stdin, and one loop for both would see two receivers at its call, where
// wc/deno-sync.js's loop sees Deno.stdin alone (a review: the pipe's rung then measured a
// polymorphic call the reader does not make).
function readSyncFile (file, buf, answer, count) {
  for (let i = 0; i < count; i++) if (file.readSync(buf) !== answer) return i
  return count
}
function readSyncStdin (stdin, buf, answer, count) {
  for (let i = 0; i < count; i++) if (stdin.readSync(buf) !== answer) return i
  return count
}
function readFfi (call, fd, buf, length, answer, count) {
  for (let i = 0; i < count; i++) if (call(fd, buf, length) !== answer) return i
  return count
}

// Each form's syscall and reads; the ring's library is opened only by the form that uses it.
const getppid = [syscall, ladder.ladder_getppid, process.ppid]
const forms = {
  sync: () => ({
    syscall: getppid,
    'empty-read': [readSyncFile, devNull, one, null],
    'read-256': [readSyncStdin, Deno.stdin, buf, BLOCK]
  }),
  ffi: () => ({
    syscall: getppid,
    'empty-read': [readFfi, libc.read, devNullFd(), bufAddress, 1n, 0n],
    'read-256': [readFfi, libc.read, 0, bufAddress, BigInt(BLOCK), BigInt(BLOCK)]
  }),
  uring: () => {
    // the address taken once, as deno-ffi's read takes it: a `buffer` is looked up every call
    const symbols = Object.entries(ringSymbols('pointer'))
      .map(([name, [parameters, result]]) => [name, { parameters, result }])
    const ring = Deno.dlopen(build('libladder-uring.so'), Object.fromEntries(symbols)).symbols
    return ringRungs(ring, readFfi, devNullFd(), bufAddress)
  }
}
if (!forms[form]) {
  console.error(`usage: deno run --allow-ffi --allow-read calls/deno.mjs sync|ffi|uring ROUNDS CALLS READS, not '${form}'`)
  Deno.exit(2)
}
const rungs = { noop: [noop, ladder.ladder_noop], ...forms[form]() }

runLadder({
  argv,
  rungs,
  cpuNs: ladder.ladder_cpu_ns,
  compiled: v8Compiled(rungs),
  drain: () => {
    let left = 0
    for (let n; (n = Deno.stdin.readSync(buf)) !== null;) left += n
    return left
  }
})
