'use strict'
// Where a reader's CPU time per read goes (issue 50): each sample of a reader's run under
// perf (lib/perf.js), from its first read of stdin to its last, put in one of a few buckets
// that are the same for every runtime, so that a runtime's buckets stand beside C's.
// A sample's bucket is decided by its stack: in the kernel by what the kernel was doing (the
// read, a switch to the feeder and back, a syscall's entry and exit, something else); in user
// space by the frame nearest the leaf that says whose code it is (libc's syscall wrapper,
// GC, buffer handling, the reader's own loop, the runtime's binding). A frame that says
// nothing (strcmp, malloc, an unnamed one) leaves the sample to its caller.

const { PHASES } = require('./phases')

// The profile pass's steps: at the cost pass's smallest size, every reader that honours the
// block size, C first, on its own (dd on the other CPU: a timer's samples on one CPU pile up
// where the reader is switched back in, docs/profile.md): its run under perf, then its run
// unprofiled in the same placement, whose CPU per read the samples' shares divide.
function profileSteps (options, selected, { pin, bytes, sampleMs }) {
  const blockSize = Math.min(...(options.costSizes ?? []))
  if (!Number.isFinite(blockSize)) return []
  const group = `profile @ ${blockSize}`
  return selected.filter(program => program.honoursBlockSize).flatMap(program => {
    const where = { program, blockSize, bytes, run: 0, warmup: 0, pin, ownFeeder: true, group }
    return [
      { phase: PHASES.profile, ...where, label: `${group}: ${program.name}` },
      { phase: PHASES.profileCpu, ...where, sampleMs, label: `${group}: ${program.name} (unprofiled)` }
    ]
  })
}

const BUCKETS = [
  { key: 'kernelRead', label: 'the kernel\'s read(2)' },
  { key: 'entryExit', label: 'syscall entry and exit, libc\'s wrapper' },
  { key: 'switching', label: 'switching: the pipe empty, the feeder\'s turn' },
  { key: 'binding', label: 'the runtime\'s binding or FFI' },
  { key: 'loop', label: 'the reader\'s own loop (JavaScript, or C\'s)' },
  { key: 'buffer', label: 'buffer handling' },
  { key: 'gc', label: 'GC' },
  { key: 'other', label: 'everything else' }
]

const KERNEL = '[kernel.kallsyms]'
// a pattern that matches any of `names` (each may hold \w* and the like), whole or as a word
const anyOf = (names, { whole = true } = {}) => new RegExp(`^(${names.join('|')})${whole ? '$' : '\\b'}`)
const SCHEDULER = anyOf(['finish_task_switch', '__schedule', 'schedule', 'schedule_timeout', '__switch_to',
  'context_switch', 'pipe_wait', 'prepare_to_wait_event', 'asm_sysvec_reschedule_ipi', 'sysvec_reschedule_ipi'],
{ whole: false })
const READ_HANDLER = anyOf(['ksys_read', 'vfs_read', '__x64_sys_read', '__x64_sys_readv', 'do_readv', 'vfs_readv',
  '__x64_sys_splice', '__do_sys_splice', 'do_splice', '__do_splice', '__do_sys_io_uring_enter',
  '__x64_sys_io_uring_enter', 'io_issue_sqe', 'io_read'])
const SYSCALL_HANDLER = /^(__x64_sys_|__do_sys_|__se_sys_)(\w+)$/
// the way in and out of every syscall, the mitigations' thunks among them
const ENTRY_EXIT = anyOf(['do_syscall_64', 'entry_SYSCALL_64\\w*', 'syscall_exit_to_user_mode\\w*', 'x64_sys_call',
  'exit_to_user_mode\\w*', 'syscall_return_via_sysret', 'srso_\\w+', '__pfx_\\w+', '__x86_indirect_thunk_\\w+',
  '__x86_return_thunk', 'entry_untrain_ret', 'clear_bhb_loop', 'fpregs_restore_userregs', 'switch_fpu_return',
  'restore_fpregs_from_fpstate'])
// libc's (and liburing's) side of a syscall: the wrapper that enters the kernel
const LIBC_SYSCALL = anyOf(['read', '__libc_read', '__read', '__GI___libc_read', '__read_nocancel', 'readv', 'splice',
  'syscall', '__GI___pthread_(en|dis)able_asynccancel', '__pthread_(en|dis)able_asynccancel', 'io_uring_enter',
  '__sys_io_uring_enter2?', '__io_uring_submit_and_wait', 'io_uring_submit_and_wait'])
const GC = new RegExp('(v8::internal::(Heap|Scavenger|ScavengerCollector|MarkCompact|MinorMarkSweep|GCTracer|' +
  'ConcurrentMarking|IncrementalMarking|MarkingVisitor|MemoryAllocator|PagedSpace|NewSpace|SemiSpace)|' +
  'Builtins_RecordWrite|JSC::(Heap|SlotVisitor|MarkedSpace|MarkedBlock|GCActivityCallback))')
const BUFFER = /(ArrayBuffer|TypedArray|ArrayBufferView|BackingStore|Uint8Array|memcpy|memmove|memset)/
// JIT code named by a perf map, and V8's builtins that run JavaScript (ICs, the interpreter)
const JS_SYMBOL = new RegExp('^(JS:|LazyCompile:|Function:|Script:|Builtin:|RegExp:|' +
  'Builtins_(?!CallApiCallback|CEntry|CallFunction_ReceiverIsAny))')
const JIT_DSO = /(perf-\d+\.map|\[JIT\]|jitted-)/
// the runtime's side of a call into native code: V8's API callbacks, Node's bindings,
// libuv, FFI trampolines
const BINDING = new RegExp('^(node::|uv_|uv__|v8::|napi_|ffi_|Builtins_CallApiCallback|Builtins_CEntry|' +
  'Builtins_CallFunction|just::|deno_|op_|Deno|JSC::|FFI|bun)')
const MEANINGLESS = anyOf(['\\[unknown\\]', '__strcmp\\w*', 'strcmp@plt', '__errno_location(@plt)?', 'malloc',
  'free', 'cfree', '_int_malloc', '_int_free', '__libc_malloc', '__libc_free', 'operator new', 'operator delete'])

// A sample's bucket and the frame that decided it (the name "everything else" shows).
// binary: the reader's executable's file name; native: whether that binary is the reader's
// own code (C's readers), whose frames are then its loop, not a runtime's binding.
function bucketOf (frames, { binary, native }) {
  const leaf = frames[0]
  if (leaf?.dso === KERNEL) {
    const kernelFrames = frames.filter(frame => frame.dso === KERNEL)
    if (kernelFrames.some(frame => SCHEDULER.test(frame.symbol))) return { key: 'switching', frame: 'scheduler' }
    const read = kernelFrames.find(frame => READ_HANDLER.test(frame.symbol))
    if (read) return { key: 'kernelRead', frame: read.symbol }
    const handler = kernelFrames.find(frame => SYSCALL_HANDLER.test(frame.symbol))
    if (handler) return { key: 'other', frame: `syscall ${SYSCALL_HANDLER.exec(handler.symbol)[2]}` }
    if (kernelFrames.every(frame => ENTRY_EXIT.test(frame.symbol))) return { key: 'entryExit', frame: leaf.symbol }
    // a page fault, an interrupt: named by the kernel's outermost frame
    return { key: 'other', frame: `kernel: ${kernelFrames.at(-1).symbol}` }
  }
  for (const frame of frames) {
    const { symbol, dso } = frame
    if (dso === KERNEL) continue
    if (LIBC_SYSCALL.test(symbol) && /libc|liburing|ld-linux/.test(dso)) return { key: 'entryExit', frame: symbol }
    if (GC.test(symbol)) return { key: 'gc', frame: symbol }
    if (BUFFER.test(symbol)) return { key: 'buffer', frame: symbol }
    if (JS_SYMBOL.test(symbol) || JIT_DSO.test(dso)) return { key: 'loop', frame: symbol }
    if (MEANINGLESS.test(symbol)) continue
    const own = binary && dso.split('/').pop() === binary
    if (own && native) return { key: 'loop', frame: symbol }
    if (BINDING.test(symbol) || own) return { key: 'binding', frame: symbol }
  }
  const named = frames.find(frame => !MEANINGLESS.test(frame.symbol))
  return { key: 'other', frame: named ? `${named.symbol} (${named.dso.split('/').pop()})` : 'unknown frames' }
}

// The steady read loop: the samples from the first that reads stdin (a read handler in the
// kernel) to the last, so that start-up and exit are cut away.
function readWindow (samples) {
  const readsStdin = frame => frame.dso === KERNEL && READ_HANDLER.test(frame.symbol)
  const reading = samples.filter(sample => sample.frames.some(readsStdin))
  if (reading.length === 0) return []
  const [first, last] = [reading[0].timeS, reading.at(-1).timeS]
  return samples.filter(sample => sample.timeS >= first && sample.timeS <= last)
}

const TOP_FRAMES = 5

// A run's samples in buckets: { samples, windowS, buckets: { key: { samples, share, top:
// [[frame, samples]] } } }, over the read loop's window.
function attribute (samples, reader) {
  const window = readWindow(samples)
  const buckets = Object.fromEntries(BUCKETS.map(bucket => [bucket.key, { samples: 0, frames: new Map() }]))
  for (const sample of window) {
    const { key, frame } = bucketOf(sample.frames, reader)
    buckets[key].samples++
    buckets[key].frames.set(frame, (buckets[key].frames.get(frame) ?? 0) + 1)
  }
  const total = window.length
  return {
    samples: total,
    windowS: total ? window.at(-1).timeS - window[0].timeS : 0,
    buckets: Object.fromEntries(Object.entries(buckets).map(([key, bucket]) => [key, {
      samples: bucket.samples,
      share: total ? bucket.samples / total : null,
      top: [...bucket.frames].sort((a, b) => b[1] - a[1]).slice(0, TOP_FRAMES)
    }]))
  }
}

// profile.json: per reader at the profile pass's size, its buckets in ns per read (each
// bucket's share of the read loop's samples × the unprofiled run's CPU per read), their
// samples and top frames, and the perf script text it came from (traceFile).
function summariseProfile (records, slopePerRead) {
  const cells = []
  for (const record of records.filter(entry => entry.phase === PHASES.profile)) {
    const beside = records.find(entry => entry.phase === PHASES.profileCpu && entry.program === record.program &&
      entry.blockSize === record.blockSize && entry.ok)
    const cpuPerReadNs = beside ? slopePerRead(beside) : null
    const unscaled = cpuPerReadNs === null ? 'its unprofiled run gave no CPU per read' : null
    const failure = record.ok ? unscaled : record.failure
    const cell = {
      program: record.program,
      blockSize: record.blockSize,
      ok: failure === null,
      failure,
      traceFile: record.rawFile ?? null
    }
    if (record.profile) {
      Object.assign(cell, {
        samples: record.profile.samples,
        windowS: record.profile.windowS,
        cpuPerReadNs,
        buckets: Object.fromEntries(Object.entries(record.profile.buckets).map(([key, bucket]) => [key, {
          ...bucket,
          ns: cpuPerReadNs === null || bucket.share === null ? null : bucket.share * cpuPerReadNs
        }]))
      })
    }
    cells.push(cell)
  }
  return { buckets: BUCKETS, cells }
}

module.exports = { BUCKETS, bucketOf, readWindow, attribute, profileSteps, summariseProfile }
