// The call ladder in the lab's V8 host: the no-op and getppid as the host's own
// bindings (just.host.noop, just.host.getppid: V8 fast API calls once TurboFan compiles
// the loop, the plain callback before, or always with --no-turbo-fast-api-calls), the
// reads as its readers make them: `fast` through net.readRaw (wc/wc-fast.js), `sync`
// through net.read (wc/wc.js), `uring` through a ring (wc/wc-uring.js), whose syscall
// rung is then an IORING_OP_NOP through the ring (just.uring.nop). Run with
// --allow-natives-syntax, to ask V8 whether each loop was optimised. The host runs
// classic scripts and has no module loader, so this is calls/ladder.mjs's harness
// again, line for line where it can be (see there why).
const { host, net, sys, fs } = just
const BLOCK = 256
const WARMUP_CALLS = 1024
const WARMUP_COUNT = 128
const EXTRA_WARMUPS = 16

function noop (call, count) {
  for (let i = 0; i < count; i++) if (call(i) !== i) return i
  return count
}
function syscall (call, parent, count) {
  for (let i = 0; i < count; i++) if (call() !== parent) return i
  return count
}
function readRaw (call, fd, address, length, answer, count) {
  for (let i = 0; i < count; i++) if (call(fd, address, length) !== answer) return i
  return count
}
function ringNop (call, ring, count) {
  for (let i = 0; i < count; i++) if (call(ring) !== 0) return i
  return count
}
function ringRead (call, ring, fd, address, length, answer, count) {
  for (let i = 0; i < count; i++) if (call(ring, fd, address, length) !== answer) return i
  return count
}
function read (call, fd, buf, length, answer, count) {
  for (let i = 0; i < count; i++) if (call(fd, buf, 0, length) !== answer) return i
  return count
}

const fail = (message, code) => {
  just.error(message)
  just.exit(code)
}
const [form, ...argv] = just.args.slice(2)
const devNull = fs.open('/dev/null', fs.O_RDONLY)
if (devNull < 0) fail(`open /dev/null: ${sys.strerror(sys.errno())}`, 1)
const buf = new ArrayBuffer(BLOCK)
const address = sys.address(buf)
const ringOf = () => {
  const ring = just.uring?.setup(1) ?? -1
  if (ring < 0) fail(`io_uring_setup: ${just.uring ? sys.strerror(sys.errno()) : 'this host has no just.uring'}`, 1)
  return ring
}
const forms = {
  fast: () => ({ 'empty-read': [readRaw, net.readRaw, devNull, address, 1, 0], 'read-256': [readRaw, net.readRaw, 0, address, BLOCK, BLOCK] }),
  sync: () => ({ 'empty-read': [read, net.read, devNull, buf, 1, 0], 'read-256': [read, net.read, 0, buf, BLOCK, BLOCK] }),
  uring: () => {
    const ring = ringOf()
    return { syscall: [ringNop, just.uring.nop, ring], 'empty-read': [ringRead, just.uring.read, ring, devNull, address, 1, 0], 'read-256': [ringRead, just.uring.read, ring, 0, address, BLOCK, BLOCK] }
  }
}
if (!forms[form]) fail(`usage: build/just-host --allow-natives-syntax calls/just.js fast|sync|uring ROUNDS CALLS READS, not '${form}'`, 2)
// The parent's pid as the kernel lists it in /proc/self/stat ("pid (comm) state ppid ...",
// comm free to hold spaces and parentheses, so after its last ')'), not from the binding the
// rung times: a getppid that answered wrong alike every call would agree with itself.
function parentPid () {
  const fd = fs.open('/proc/self/stat', fs.O_RDONLY)
  if (fd < 0) fail(`open /proc/self/stat: ${sys.strerror(sys.errno())}`, 1)
  const bytes = new Uint8Array(1024)
  const length = net.read(fd, bytes)
  net.close(fd)
  const stat = length > 0 ? sys.readUtf8(bytes, 0, length) : ''
  const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  if (!(parent > 0)) fail(`/proc/self/stat gave no parent's pid: ${JSON.stringify(stat)}`, 1)
  return parent
}
// the ring's form gives its own syscall rung (a NOP through the ring), which needs no parent
const rungs = {
  noop: [noop, host.noop],
  ...(form === 'uring' ? {} : { syscall: [syscall, host.getppid, parentPid()] }),
  ...forms[form]()
}

const [rounds, calls, count] = argv.map(Number)
if (argv.length !== 3 || ![rounds, calls, count].every(n => Number.isSafeInteger(n) && n > 0)) fail('usage: ROUNDS CALLS READS (whole numbers above 0)', 2)
const counts = { noop: 10 * calls, syscall: calls, 'empty-read': calls, 'read-256': count }
let piped = 0
const time = (name, count) => {
  const [loop, ...args] = rungs[name]
  const start = host.cpuNs()
  const right = loop(...args, count)
  const ns = (host.cpuNs() - start) / count
  if (right !== count) fail(`${name}: call ${right + 1} of ${count} returned the wrong answer (${sys.strerror()})`, 1)
  if (name === 'read-256') piped += count
  return ns
}
for (const name of Object.keys(rungs)) {
  for (let call = 0; call < WARMUP_CALLS; call++) time(name, WARMUP_COUNT)
}
// %-syntax only parses in code compiled after --allow-natives-syntax, so not in this file's own text
// eslint-disable-next-line no-new-func
const status = new Function('f', 'return %GetOptimizationStatus(f)')
const coldFunction = x => x
coldFunction(0)
// TurboFan's bit, as calls/ladder.mjs's v8Compiled reads it, once its compiles are in
const turbofanBit = (status(coldFunction) & ~1) >> 1
// eslint-disable-next-line no-new-func
const finishCompiles = new Function('%FinalizeOptimization()')
const compiled = name => {
  finishCompiles()
  return status(rungs[name][0]) & turbofanBit ? 'yes' : 'no'
}
// more warm-up for a rung still cold, but the pipe's, as calls/ladder.mjs gives it
for (let extra = 0; extra < EXTRA_WARMUPS; extra++) {
  const cold = Object.keys(rungs).filter(name => name !== 'read-256' && compiled(name) === 'no')
  if (cold.length === 0) break
  for (const name of cold) {
    for (let call = 0; call < WARMUP_CALLS; call++) time(name, WARMUP_COUNT)
  }
}
const states = Object.keys(rungs).map(name => [name, compiled(name)])
just.print(`compiled ${states.flat().join(' ')}`)
const cold = states.find(([, state]) => state === 'no')
if (cold) fail(`${cold[0]}: its loop was not compiled by the optimising tier after warm-up`, 1)
for (let r = 1; r <= rounds; r++) {
  just.print(`round ${r} ${Object.keys(rungs).map(name => `${name} ${time(name, counts[name]).toFixed(3)}`).join(' ')}`)
}
let left = 0
for (let n; (n = net.read(0, buf, 0, BLOCK)) > 0;) left += n
just.print(`size ${piped * BLOCK + left} reads ${piped} blocksize ${BLOCK}`)
