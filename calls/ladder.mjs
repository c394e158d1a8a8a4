// The call ladder's harness, shared by Node, Bun and Deno (calls/node.mjs, bun.mjs,
// deno.mjs; the host, which has no module loader, has its own copy in calls/just.js).
// A runtime gives its four rungs, each a loop of `count` calls that counts the calls
// that answered right, and its clock; the harness warms them, checks every answer,
// times them and prints the lines experiments/calls/ladder.js reads:
//   compiled noop yes syscall yes empty-read yes read-256 yes
//   round 1 noop 2.8 syscall 203.1 empty-read 226.3 read-256 437.7   (ns per call)
//   size N reads N blocksize 256
import os from 'node:os'

export const BLOCK = 256
// Warm-up: each rung's loop called 1024 times on 128 calls: a loop run once, long, is
// compiled on the stack (OSR), which can leave the function itself unoptimised and
// the check below unable to tell; called often, the function is compiled whole.
// 2^17 reads of the pipe, 32 MiB (experiments/calls/ladder.js sends them).
export const WARMUP_CALLS = 1024
export const WARMUP_COUNT = 128
const EXTRA_WARMUPS = 16

// rungs: { noop, syscall, 'empty-read', 'read-256' }: [loop, ...args], where
// loop(...args, count) makes count calls and returns how many of them answered right (the no-op its argument, getppid the parent's pid, a read of /dev/null
// 0, a read of the pipe all 256 bytes), stopping at the first that did not; counts of
// each: 10 × calls, calls, calls and reads. A count, not a sum of answers: a sum that
// outgrows an int32 makes V8 throw the loop's optimised code away mid-run. The loop and
// its arguments, not a closure that calls it: Deno's FFI calls lose their fast path
// when TurboFan inlines the loop into a closure (measured: the no-op 72 ns, not 5.4).
// compiled(name): 'yes', 'no' or 'unknown' once the rung has run warm. drain(): reads
// stdin to its end, returns the bytes left.
export function runLadder ({ argv, rungs, cpuNs, compiled, drain, print = line => console.log(line), fail = exitWith }) {
  const [rounds, calls, reads] = argv.map(Number)
  if (argv.length !== 3 || ![rounds, calls, reads].every(n => Number.isSafeInteger(n) && n > 0)) {
    fail('usage: ROUNDS CALLS READS (whole numbers above 0)', 2)
  }
  const counts = { noop: 10 * calls, syscall: calls, 'empty-read': calls, 'read-256': reads }
  let piped = 0
  const time = (name, count) => {
    const start = cpuNs()
    const [loop, ...args] = rungs[name]
    const right = loop(...args, count)
    const ns = (cpuNs() - start) / count
    if (right !== count) fail(`${name}: call ${right + 1} of ${count} returned the wrong answer`, 1)
    if (name === 'read-256') piped += count
    return ns
  }
  for (const name of Object.keys(rungs)) {
    for (let call = 0; call < WARMUP_CALLS; call++) time(name, WARMUP_COUNT)
  }
  // A JIT that compiles on another thread may not have finished (JavaScriptCore left
  // Bun's getppid loop uncompiled in 3 of 10 processes): more warm-up for the rungs that
  // read no pipe (the pipe's bytes are counted), up to EXTRA_WARMUPS times as much.
  for (let extra = 0; extra < EXTRA_WARMUPS; extra++) {
    const cold = Object.keys(rungs).filter(name => name !== 'read-256' && compiled(name) === 'no')
    if (cold.length === 0) break
    for (const name of cold) {
      for (let call = 0; call < WARMUP_CALLS; call++) time(name, WARMUP_COUNT)
    }
  }
  const states = Object.keys(rungs).map(name => [name, compiled(name)])
  print(`compiled ${states.flat().join(' ')}`)
  const cold = states.find(([, state]) => state === 'no')
  if (cold) fail(`${cold[0]}: its loop was not compiled by the optimising tier after warm-up`, 1)
  for (let r = 1; r <= rounds; r++) {
    print(`round ${r} ${Object.keys(rungs).map(name => `${name} ${time(name, counts[name]).toFixed(3)}`).join(' ')}`)
  }
  const left = drain()
  print(`size ${piped * BLOCK + left} reads ${piped} blocksize ${BLOCK}`)
}

// The ring of build/libladder-uring.so (calls/uring.c) as { symbol: [parameters, result] },
// for a runtime's FFI to declare; `pointer` is that FFI's name for a buffer's address.
export function ringSymbols (pointer) {
  return {
    ladder_uring_setup: [[], 'i32'],
    ladder_uring_nop: [[], 'i32'],
    ladder_uring_read: [['i32', pointer, 'u32'], 'i32']
  }
}

// A ring variant's syscall and reads, through that ring once it is set up (a refusal ends
// the ladder, naming errno, as calls/c.c's does): the ring's NOP in getppid's place,
// and `read`, the runtime's read loop, calling the ring's read.
export function ringRungs (ring, read, devNull, buffer) {
  const result = ring.ladder_uring_setup()
  if (result < 0) {
    const name = Object.entries(os.constants.errno).find(([, number]) => number === -result)?.[0] ?? `errno ${-result}`
    exitWith(`io_uring_setup: ${name}`, 1)
  }
  return {
    syscall: [syscall, ring.ladder_uring_nop, 0],
    'empty-read': [read, ring.ladder_uring_read, devNull, buffer, 1, 0],
    'read-256': [read, ring.ladder_uring_read, 0, buffer, BLOCK, BLOCK]
  }
}

// An fd that libc's open(2) gave through a runtime's FFI, which has no errno to tell why it
// failed: a refusal ends the ladder naming the file, not the empty read's rung with a wrong answer.
export function openedOrExit (fd, path) {
  if (fd < 0) exitWith(`open ${path} through libc's open(2) returned ${fd}: the empty read's rung reads it`, 1)
  return fd
}

// The global process of Node, Bun and Deno 2, not an import of node:process: Node makes
// an ES module of it by reading every property, process.stdin among them, and that
// getter opens stdin as a stream, which makes the pipe non-blocking (reads fail EAGAIN).
function exitWith (message, code) {
  console.error(message)
  globalThis.process.exit(code)
}

// The two rungs every runtime makes alike, through its own boundary; each loop gets
// what it calls as arguments, so the optimised loop holds them, and counts the calls
// that answered right.
export function noop (call, count) {
  for (let i = 0; i < count; i++) if (call(i) !== i) return i
  return count
}

export function syscall (call, parent, count) {
  for (let i = 0; i < count; i++) if (call() !== parent) return i
  return count
}

// For V8 runtimes run with --allow-natives-syntax: compiled(name) for each of rungs'
// loops, by %GetOptimizationStatus: 'yes' once TurboFan compiled it. "Optimised" is not
// enough where Maglev runs (Node 24 on, Deno 2): Deno's noop() after 16 to 200 warm-up calls
// is Maglev's alone and optimised by that bit; the fast-path check, which reads TurboFan's
// graphs, found none for it once in CI. The bits moved in V8 14 (TurboFan's is bit 6 in V8
// 10 to 13, bit 5 from 14 on) but always sit in the order optimised, Maglev, TurboFan,
// interpreted: so the "interpreted" bit of a function run once gives TurboFan's.
export function v8Compiled (rungs) {
  // %-syntax parses only under --allow-natives-syntax, which Bun lacks: it must not be in the file's own text
  // eslint-disable-next-line no-new-func
  const status = new Function('f', 'return %GetOptimizationStatus(f)')
  const coldFunction = x => x
  coldFunction(0)
  const turbofanBit = (status(coldFunction) & ~1) >> 1
  // A compile still on TurboFan's thread is waited for and installed before the status is read:
  // each loop's compile came after 200 to 380 of its 1024 warm-up calls here, and the pipe's
  // loop, whose warm-up cannot be repeated, is the last to run before the check.
  // eslint-disable-next-line no-new-func
  const finishCompiles = new Function('%FinalizeOptimization()')
  return name => {
    finishCompiles()
    return status(rungs[name][0]) & turbofanBit ? 'yes' : 'no'
  }
}
