// The call ladder in Node, in two forms. `addon`: the no-op and getppid through a Node-API
// addon (build/ladder.node, calls/addon.c), the reads through fs.readSync into a pooled
// Buffer, the call and buffer of wc/node-sync.js, Node's idiomatic reader (which also retries
// on EAGAIN, never met by the ladder's blocking pipe). `ffi` (Node 26), Node's
// fastest form: the no-op and getppid through node:ffi into build/libladder.so
// (calls/native.c), the reads through node:ffi's libc read(2) as wc/node-ffi.js makes them:
// V8 fast API calls once TurboFan compiles each loop. Run with --allow-natives-syntax, to ask
// V8 whether each loop was optimised.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import { runLadder, noop, syscall, v8Compiled, BLOCK } from './ladder.mjs'

const require = createRequire(import.meta.url)
const [form, ...argv] = process.argv.slice(2)
const addon = require('../build/ladder.node')
const { readDeclaration, readBuffer } = require('../wc/node-ffi-read.js')
const devNull = fs.openSync('/dev/null', 'r')
// fs.readSync's Buffer as node-sync allocates it; node:ffi's off V8's heap, its address taken once
const syncBuffer = Buffer.allocUnsafe(BLOCK)
const buf = readBuffer(BLOCK)

// The read loops, as noop and syscall in calls/ladder.mjs: what they call as arguments,
// and a count of the calls that answered right.
function readSync (call, fd, buf, length, answer, count) {
  for (let i = 0; i < count; i++) if (call(fd, buf, 0, length, null) !== answer) return i
  return count
}
function readFfi (call, fd, address, length, answer, count) {
  for (let i = 0; i < count; i++) if (call(fd, address, length) !== answer) return i
  return count
}

const forms = {
  addon: () => ({
    noop: [noop, addon.noop],
    syscall: [syscall, addon.getppid, process.ppid],
    'empty-read': [readSync, fs.readSync, devNull, syncBuffer, 1, 0],
    'read-256': [readSync, fs.readSync, 0, syncBuffer, BLOCK, BLOCK]
  }),
  // read declared where wc/node-ffi.js declares it: size_t as a BigInt uint64, the
  // address taken once
  ffi: () => {
    const { dlopen, getRawPointer } = require('node:ffi')
    const ladder = dlopen(new URL('../build/libladder.so', import.meta.url).pathname, {
      ladder_noop: { arguments: ['int32'], return: 'int32' },
      ladder_getppid: { arguments: [], return: 'int32' }
    }).functions
    const { read } = dlopen('libc.so.6', { read: readDeclaration }).functions
    const address = getRawPointer(buf)
    const rungs = {
      noop: [noop, ladder.ladder_noop],
      syscall: [syscall, ladder.ladder_getppid, process.ppid],
      'empty-read': [readFfi, read, devNull, address, 1n, 0],
      'read-256': [readFfi, read, 0, address, BigInt(BLOCK), BLOCK]
    }
    // Each loop compiled by TurboFan first thing, before node:ffi's own invoke() is: left to
    // the warm-up, TurboFan inlined invoke() into noop() in some processes and called it apart
    // in others, by the order the two compiled in (--trace-turbo-inlining: 5 of 6 processes
    // inlined it, none of 8 once invoke() had been warmed first; 16 ns a call against 18.7),
    // where the fast-path check saw it inlined. Compiled first, 6 of 6 inlined it, and so every
    // process runs the form the check names (docs/calls.md).
    for (const name of ['noop', 'syscall', 'empty-read']) compileFirst(rungs[name])
    return rungs
  }
}

// A rung's loop, run a few times on a few calls for its type feedback and then compiled by
// TurboFan at once (V8's natives, under --allow-natives-syntax; %-syntax in a Function, as
// calls/ladder.mjs's v8Compiled, so that the file parses without it).
function compileFirst ([loop, ...args]) {
  // eslint-disable-next-line no-new-func
  const compile = new Function('loop', 'args', '%PrepareFunctionForOptimization(loop); ' +
    'for (let i = 0; i < 3; i++) loop(...args, 16); %OptimizeFunctionOnNextCall(loop); loop(...args, 16)')
  compile(loop, args)
}
if (!forms[form]) {
  console.error(`usage: node --allow-natives-syntax calls/node.mjs addon|ffi ROUNDS CALLS READS, not '${form}'`)
  process.exit(2)
}
const rungs = forms[form]()

runLadder({
  argv,
  rungs,
  cpuNs: addon.cpuNs,
  compiled: v8Compiled(rungs),
  drain: () => {
    let left = 0
    for (let n; (n = fs.readSync(0, buf, 0, BLOCK, null)) > 0;) left += n
    return left
  }
})
