// The call ladder in Bun: the no-op and getppid through bun:ffi into
// build/libladder.so (calls/native.c), the reads through bun:ffi's libc read(2) as
// wc/bun-ffi.js makes them (`ffi`: read's declaration and the buffer from where that
// reader takes them); or, in `uring`, the syscall and the reads through the ring of
// build/libladder-uring.so (calls/uring.c), as calls/c.c's c-uring makes them. bun:jsc
// says whether JavaScriptCore's optimising tiers (DFG, FTL) compiled each loop.
import { dlopen, ptr } from 'bun:ffi'
import { numberOfDFGCompiles } from 'bun:jsc'
import { runLadder, noop, syscall, ringSymbols, ringRungs, openedOrExit, BLOCK } from './ladder.mjs'
import { readDeclaration, readBuffer } from '../wc/bun-ffi-read.js'

const [form, ...argv] = Bun.argv.slice(2)
const build = name => new URL(`../build/${name}`, import.meta.url).pathname
const ladder = dlopen(build('libladder.so'), {
  ladder_noop: { args: ['i32'], returns: 'i32' },
  ladder_getppid: { args: [], returns: 'i32' },
  ladder_cpu_ns: { args: [], returns: 'f64' }
}).symbols
const libc = dlopen('libc.so.6', {
  read: readDeclaration,
  open: { args: ['cstring', 'i32'], returns: 'i32' }
}).symbols
const devNull = openedOrExit(libc.open(Buffer.from('/dev/null\0'), 0), '/dev/null')
const buf = readBuffer(BLOCK)
const bufPtr = ptr(buf)

// The read loop, as noop and syscall in calls/ladder.mjs: what it calls as arguments,
// and a count of the calls that answered right.
function read (call, fd, address, length, answer, count) {
  for (let i = 0; i < count; i++) if (call(fd, address, length) !== answer) return i
  return count
}

// Each form's syscall and reads; the ring's library is opened only by the form that uses it.
const forms = {
  ffi: () => ({
    syscall: [syscall, ladder.ladder_getppid, process.ppid],
    'empty-read': [read, libc.read, devNull, bufPtr, 1, 0],
    'read-256': [read, libc.read, 0, bufPtr, BLOCK, BLOCK]
  }),
  uring: () => {
    const symbols = Object.entries(ringSymbols('ptr')).map(([name, [args, returns]]) => [name, { args, returns }])
    return ringRungs(dlopen(build('libladder-uring.so'), Object.fromEntries(symbols)).symbols, read, devNull, bufPtr)
  }
}
if (!forms[form]) {
  console.error(`usage: bun calls/bun.mjs ffi|uring ROUNDS CALLS READS, not '${form}'`)
  process.exit(2)
}
const rungs = { noop: [noop, ladder.ladder_noop], ...forms[form]() }

runLadder({
  argv,
  rungs,
  cpuNs: ladder.ladder_cpu_ns,
  compiled: name => (numberOfDFGCompiles(rungs[name][0]) > 0 ? 'yes' : 'no'),
  drain: () => {
    let left = 0
    for (let n; (n = libc.read(0, bufPtr, BLOCK)) > 0;) left += n
    return left
  }
})
