'use strict'
// The stdio experiment's strace pass: one run, three views.
const { parseStraceSummary } = require('../../lib/strace')

// ---- one run, three views ----
//
// The pass runs each reader once per input size under `strace -C -f -s 0`: every call
// of every thread, one line each, then the same summary table -c writes. From that one
// run come the summary of every thread, the main thread's own counts (the lines of the
// first pid: what strace without -f would count), and what each read of stdin asked for
// and returned. Counting the main thread in the same run as every thread keeps its count
// within theirs, which two separate runs did not. And strace -c alone counts calls, not
// bytes, mixed with start-up's reads (ld.so reading libraries, a runtime its scripts and
// /proc), which outnumber a run's reads of stdin at large block sizes: a reader reading
// four blocks a call hides behind them, but not from its reads of fd 0 counted one by
// one, each with its return value. The trace lines are one per call (16384 reads at 4 MiB
// in 256-byte blocks), too many to keep for every cell: bench.js keeps the summary and
// the record keeps the counts, including a histogram of each read of stdin's return.
const READ_FAMILY = ['read', 'readv', 'pread64', 'preadv', 'preadv2', 'splice']

function profileArgv (outFile) {
  return ['strace', '-qq', '-C', '-f', '-s', '0', '-e', 'signal=none', '-o', outFile]
}

// The summary table at the end of a -C file, as strace -c alone would have written it.
function summaryPart (text) {
  const at = text.search(/^% time /m)
  return at === -1 ? '' : text.slice(at)
}

// With -f, a call another thread interrupts is split in two lines:
//   1234 read(0,  <unfinished ...>
//   1234 <... read resumed>""..., 65536) = 65536
// and a call's text is the two halves joined. With -s 0 a buffer prints as ""... and
// an iovec may print as [...], so the arguments split at commas, save iovecs.
const TRACE_LINE = /^(?:(\d+)\s+)?(.*)$/
const CALL = /^(\w+)\((\d+),/
const CALL_NAME = /^(\w+)\(/
const RESUMED = /^<\.\.\. (\w+) resumed>(.*)$/
const UNFINISHED = ' <unfinished ...>'
const RESULT = /\)\s+=\s+(-?\d+|\?)/

// A call's arguments as strace printed them, whole; and split at their commas (an iovec's
// own commas split too: askedBytes reads those from the whole).
const argumentsText = text => text.slice(text.indexOf('(') + 1).split(/\)\s+=/)[0]
const argumentsOf = text => argumentsText(text).split(',').map(part => part.trim())

// The bytes a call asked for; null where strace left the iovec out.
function askedBytes (name, text) {
  const args = argumentsText(text)
  if (['readv', 'preadv', 'preadv2'].includes(name)) {
    const lengths = [...args.matchAll(/iov_len=(\d+)/g)].map(match => Number(match[1]))
    return lengths.length ? lengths.reduce((a, b) => a + b, 0) : null
  }
  const asked = Number(argumentsOf(text)[name === 'splice' ? 4 : 2])
  return Number.isInteger(asked) ? asked : null
}

// The descriptors that are stdin, as the trace shows them made: 0, its copies (dup, dup2,
// dup3, fcntl's F_DUPFD: Deno reads its stdin stream from such a copy) and /dev/stdin or
// /proc/self/fd/0 opened, each until it is closed or its number is handed out again, or an
// exec closes it (a copy made close-on-exec). Each process has its table: a child forked
// (fork, vfork, clone without CLONE_FILES) starts with a copy of its parent's, and what it
// closes is its own; a thread (CLONE_FILES) shares its parent's. A pid seen before the call
// that made it returned is taken for a thread of the first process, as almost every one is.
// follow(pid, name, callText, result) takes each call as it returns, in the order strace
// wrote them: a number handed out again while a split close waits to print its end is caught
// by the call that hands it out.
const COPIES = {
  dup: args => ({ from: args[0], to: null, cloexec: false }),
  dup2: args => ({ from: args[0], to: args[1], cloexec: false }),
  dup3: args => ({ from: args[0], to: args[1], cloexec: /O_CLOEXEC/.test(args[2] ?? '') }),
  fcntl: args => (/^F_DUPFD(_CLOEXEC)?$/.test(args[1])
    ? { from: args[0], to: null, cloexec: args[1] === 'F_DUPFD_CLOEXEC' }
    : null)
}
// calls that hand back a descriptor of their own, as their result or (PAIRS) in an array
const OPENS = ['open', 'openat', 'openat2', 'creat', 'socket', 'accept', 'accept4', 'epoll_create',
  'epoll_create1', 'eventfd', 'eventfd2', 'signalfd', 'signalfd4', 'timerfd_create', 'inotify_init',
  'inotify_init1', 'memfd_create', 'io_uring_setup', 'pidfd_open', 'perf_event_open', 'userfaultfd',
  'fanotify_init']
const PAIRS = ['pipe', 'pipe2', 'socketpair']
const FORKS = ['clone', 'clone3', 'fork', 'vfork']
const STDIN_PATH = /"\/(dev\/stdin|proc\/self\/fd\/0)"/
function stdinDescriptors () {
  // a table: stdin's descriptors, and which of them an exec closes
  const table = (fds = ['0'], cloexec = []) => ({ fds: new Set(fds), cloexec: new Set(cloexec) })
  const tables = new Map()
  let first = null
  const tableOf = pid => {
    first ??= pid
    if (!tables.has(pid)) tables.set(pid, pid === first ? table() : tableOf(first))
    return tables.get(pid)
  }
  const drop = (own, fd) => {
    own.fds.delete(fd)
    own.cloexec.delete(fd)
  }
  const closeRange = (own, [low, high, flags = '0']) => {
    const inRange = fd => Number(fd) >= Number(low) && Number(fd) <= Number(high)
    for (const fd of [...own.fds].filter(inRange)) {
      if (/CLOSE_RANGE_CLOEXEC/.test(flags)) own.cloexec.add(fd)
      else drop(own, fd)
    }
  }
  const follow = (pid, name, callText, result) => {
    const own = tableOf(pid)
    const args = argumentsOf(callText)
    if (name === 'close') return drop(own, args[0])
    if (name === 'close_range') return closeRange(own, args)
    if (!/^\d+$/.test(result)) return
    if (FORKS.includes(name)) {
      const shares = name !== 'fork' && name !== 'vfork' && /CLONE_FILES/.test(callText)
      if (result !== '0') tables.set(result, shares ? own : table(own.fds, own.cloexec))
      return
    }
    if (name === 'execve' || name === 'execveat') {
      for (const fd of own.cloexec) own.fds.delete(fd)
      own.cloexec.clear()
      return
    }
    if (name === 'fcntl' && args[1] === 'F_SETFD' && own.fds.has(args[0])) {
      if (/FD_CLOEXEC/.test(args[2] ?? '')) own.cloexec.add(args[0])
      else own.cloexec.delete(args[0])
      return
    }
    if (PAIRS.includes(name)) {
      for (const fd of /\[(\d+), (\d+)\]/.exec(argumentsText(callText))?.slice(1) ?? []) drop(own, fd)
      return
    }
    const copy = COPIES[name]?.(args)
    const opensStdin = OPENS.includes(name) && STDIN_PATH.test(callText)
    if ((copy && own.fds.has(copy.from)) || opensStdin) {
      own.fds.add(result)
      if (copy ? copy.cloexec : /O_CLOEXEC/.test(callText)) own.cloexec.add(result)
      else own.cloexec.delete(result)
    } else if (copy || OPENS.includes(name)) {
      drop(own, copy?.to ?? result)
    }
  }
  return { has: (pid, fd) => tableOf(pid).fds.has(fd), follow }
}

// { stdin: { read: { calls, dataCalls, bytes, maxBytes, maxAsked, errors, returned: { '256': 4096, '0': 1 } } },
//   otherCalls, ring, mainThread }: stdin's calls are those on its descriptors
//   (stdinDescriptors); otherCalls are the read family's calls on other descriptors
// (start-up's); ring is { enters, submitted }, the io_uring_enter calls that returned and
// the submissions they took;
// mainThread is the first pid's calls, shaped as parseStraceSummary's
// result without its times. A call that never returned (exit_group, a thread killed
// mid-call) is left out, as strace -c leaves it out.
function parseTrace (text) {
  const stdin = {}
  const stdinFds = stdinDescriptors()
  const ring = { enters: 0, submitted: 0 }
  let otherCalls = 0
  let mainPid = null
  const main = new Map()
  const pending = new Map()
  const count = (name, callText) => {
    const result = RESULT.exec(callText)?.[1] ?? '?'
    const entry = stdin[name] ??= { calls: 0, dataCalls: 0, bytes: 0, maxBytes: 0, maxAsked: 0, errors: 0, returned: {} }
    entry.calls++
    entry.returned[result] = (entry.returned[result] ?? 0) + 1
    const asked = askedBytes(name, callText)
    entry.maxAsked = asked === null || entry.maxAsked === null ? null : Math.max(entry.maxAsked, asked)
    const bytes = Number(result)
    if (result === '?' || bytes < 0) entry.errors++
    else if (bytes > 0) {
      entry.dataCalls++
      entry.bytes += bytes
      entry.maxBytes = Math.max(entry.maxBytes, bytes)
    }
  }
  for (const line of text.split('\n')) {
    if (/^% time /.test(line)) break
    const [, pid = '', body] = TRACE_LINE.exec(line)
    const resumed = RESUMED.exec(body)
    const key = `${pid} ${resumed?.[1]}`
    const callText = resumed ? (pending.has(key) ? pending.get(key) + resumed[2] : null) : body
    if (resumed) pending.delete(key)
    const call = callText === null ? null : CALL_NAME.exec(callText)
    if (!call) continue
    mainPid ??= pid
    if (!resumed && body.endsWith(UNFINISHED)) {
      pending.set(`${pid} ${call[1]}`, body.slice(0, -UNFINISHED.length))
      continue
    }
    const result = RESULT.exec(callText)?.[1] ?? '?'
    if (pid === mainPid && result !== '?') {
      const row = main.get(call[1]) ?? { name: call[1], calls: 0, errors: 0, seconds: null, usecsPerCall: null, percentTime: null }
      row.calls++
      if (Number(result) < 0) row.errors++
      main.set(call[1], row)
    }
    if (call[1] === 'io_uring_enter' && Number(result) >= 0) {
      ring.enters++
      ring.submitted += Number(result)
    }
    stdinFds.follow(pid, call[1], callText, result)
    if (!READ_FAMILY.includes(call[1])) continue
    const fd = CALL.exec(callText)?.[2]
    if (!stdinFds.has(pid, fd)) otherCalls++
    else count(call[1], callText)
  }
  const syscalls = [...main.values()].sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name))
  const calls = name => main.get(name)?.calls ?? 0
  const mainThread = {
    syscalls,
    totalCalls: syscalls.reduce((sum, row) => sum + row.calls, 0),
    totalErrors: syscalls.reduce((sum, row) => sum + row.errors, 0),
    totalSeconds: null,
    threadsStarted: calls('clone') + calls('clone3'),
    reads: calls('read')
  }
  return { stdin, otherCalls, ring, mainThread }
}

// The three views of one `strace -C -f` file.
function parseProfileRun (text) {
  const { stdin, otherCalls, ring, mainThread } = parseTrace(text)
  return { allThreads: parseStraceSummary(summaryPart(text)), mainThread, readTrace: { stdin, otherCalls, ring } }
}

// Why the kernel's view of a run disagrees with the reader's claims, or null. An honest
// reader reads stdin with the calls its row names (readSyscalls, read(2) unless it says
// otherwise), those calls bring every byte sent, and the reader's own count of reads is
// the number of calls that brought data (an EAGAIN or the 0 at the end reads no block).
// A row that honours the block size asks for at most that many bytes a call: asking for
// more is reading in larger blocks even where the pipe, holding less, hands back less.
// A WASI host that reads in chunks of its own (hostChunks) is held to the bytes alone.
function readTraceProblem ({ trace, program, blockSize, bytes, reads }) {
  if (program.ring) return ringTraceProblem({ trace, reads, inFlight: ringDepth(program, blockSize) })
  const allowed = program.readSyscalls ?? ['read']
  const used = Object.keys(trace.stdin)
  const stray = used.filter(name => !allowed.includes(name))
  if (stray.length) {
    return `strace saw the reader read stdin with ${stray.join(', ')}, but its row says ${allowed.join(', ')}: correct readSyscalls in its row if that is how it reads`
  }
  const sum = key => used.reduce((total, name) => total + trace.stdin[name][key], 0)
  const family = used.join('/') || allowed.join('/')
  if (sum('bytes') !== bytes) {
    return `strace saw ${sum('bytes')} bytes come through ${family} on stdin, but ${bytes} were sent and the reader counted them all: it reads stdin some other way`
  }
  // A host that reads in chunks of its own (hostChunks) makes fewer, larger reads than the
  // module it hands them to: the bytes are all the kernel can vouch for.
  if (program.hostChunks) return null
  if (program.honoursBlockSize) {
    const most = key => used.reduce((top, name) => (top === null || trace.stdin[name][key] === null ? null : Math.max(top, trace.stdin[name][key])), 0)
    const asked = most('maxAsked')
    const got = most('maxBytes')
    const brought = `${sum('dataCalls')} ${family} calls brought the ${bytes} bytes`
    if (asked !== null && asked > blockSize) {
      return `strace saw the reader ask for up to ${asked} bytes a call, more than the ${blockSize}-byte blocks its row claims to read in (${brought})`
    }
    if (got > blockSize) {
      return `strace saw ${family} calls bring up to ${got} bytes a call, more than the ${blockSize}-byte blocks its row claims to read in (${brought}; blocks of ${blockSize} take ${Math.ceil(bytes / blockSize)} at least)`
    }
  }
  if (reads !== null && reads !== undefined && reads !== sum('dataCalls')) {
    return `the reader says it made ${reads} reads, but strace saw ${sum('dataCalls')} ${family} calls bring data`
  }
  return null
}

// The reads a ring reader keeps in flight at a block size: its window's worth, at least
// one, as wc/uring.c's window mode counts them.
function ringDepth (program, blockSize) {
  return program.ringWindow ? Math.max(1, Math.floor(program.ringWindow / blockSize)) : 1
}

// A reader through io_uring: a read's descriptor, buffer and length travel in the ring's
// shared memory, which strace does not decode, so neither the bytes nor the block size
// can be checked against the kernel. What strace does see is every io_uring_enter and the
// submissions it took: one read a block, and one more for each read in flight when one
// met the end (each of them meets it too). A read(2) of stdin beside them is reading some
// other way.
function ringTraceProblem ({ trace, reads, inFlight = 1 }) {
  const used = Object.keys(trace.stdin)
  if (used.length) return `strace saw the reader read stdin with ${used.join(', ')}, but its row reads through io_uring`
  if (reads === null || reads === undefined) return null
  const ends = inFlight === 1 ? 'one that met the end' : `the ${inFlight} in flight that met the end`
  if (trace.ring.submitted !== reads + inFlight) return `the reader says it made ${reads} reads, but strace saw io_uring_enter take ${trace.ring.submitted} submissions (the reads and ${ends} make ${reads + inFlight})`
  return null
}

module.exports = { profileArgv, summaryPart, parseTrace, parseProfileRun, readTraceProblem, ringDepth }
