'use strict'
// Where a reader's CPU time per read goes (issue 50): each sample of a reader's run under
// perf (lib/perf.js) in the cost pass's window (30% to 98% of stdin), put in one of a few
// buckets that are the same for every runtime, so that a runtime's buckets stand beside C's.
// A sample's bucket is decided by its stack: in the kernel by what the kernel was doing (the
// read, a switch to the feeder and back, a syscall's entry and exit, something else); in user
// space by the frame nearest the leaf that says whose code it is (libc's syscall wrapper,
// GC, buffer handling, the reader's own loop, the runtime's binding). A frame that says
// nothing (strcmp, malloc, an unnamed one) leaves the sample to its caller, but for an unnamed
// one in the runtime's own stripped binary (Bun's, Deno's), which is the runtime's binding.

const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')
const { PHASES } = require('./phases')
const { BASELINE, findProgram, commandLine } = require('./programs')
const { median, fewValuesInterval, proportionInterval, Z_TWO_SIDED } = require('../../lib/stats')
const { FREQUENCY, parsePerfScript } = require('../../lib/perf')
const { windowBytes, windowReadsBytes, wholeBlocks } = require('./cost')
const { policyText } = require('../../lib/placement')
const { sharedOrEach } = require('../../lib/report/format')
const { UsageError } = require('../../lib/options')

// Where a run's profile pass put dd, in words, and why (its context's placement,
// lib/placement.js): beside the reader, both at SCHED_BATCH, since 2026-12-05; runs before,
// which may not record it, on the other CPU. { batch, words, why }
const BATCH_WORDS = `dd on the reader's CPU${policyText('batch')}`
const PROFILE_PLACEMENTS = {
  batch: {
    batch: true,
    words: BATCH_WORDS,
    why: `${BATCH_WORDS}, so that the reader is switched out once a pipe's worth (at the default ` +
      'policy every few pages, where perf\'s samples pile up; with dd on another CPU every read\'s ' +
      'wake-ups cross CPUs, whose cost jumps with the host: docs/profile.md)',
    // and against a headline at the default policy (--cost-policy default)
    againstHeadline: 'its reads cost less than the headline\'s, whose switches they leave out',
    subtitle: 'one switch a pipe\'s worth'
  },
  apart: {
    batch: false,
    words: 'dd on the other CPU',
    why: 'dd on the other CPU: on one CPU the samples pile up where the reader is switched back in ' +
      '(docs/profile.md), and each read that frees the pipe wakes dd there',
    againstHeadline: 'its reads cost more than the headline\'s',
    subtitle: 'so each read that frees the pipe wakes it'
  }
}
// A run's profile placement (its context's), with how its reads stand to the headline's: a
// headline at SCHED_BATCH (--cost-policy batch) has the profile's switches, one a pipe's worth.
function profilePlacement (context) {
  const placement = PROFILE_PLACEMENTS[context?.placement?.passes?.profile?.policy === 'batch' ? 'batch' : 'apart']
  const alike = placement.batch && context?.costPin?.policy === 'batch'
  const againstHeadline = alike ? 'its reads are the headline\'s' : placement.againstHeadline
  return {
    ...placement,
    why: `${placement.why}: ${againstHeadline}`,
    subtitle: `${placement.subtitle}: ${againstHeadline}`
  }
}

// The profile entries' placements said once: one sentence where they share it, each run's
// named where they do not (analyse.js A B across the change).
const profilePlacementText = entries => sharedOrEach(entries, entry => entry.placement.why,
  entry => `in ${entry.set}, ${entry.placement.why}`, '; ')

// The profile pass's steps: at the cost pass's smallest size, every reader that honours the
// block size, C among them, on its own (dd on its CPU, both at SCHED_BATCH: `pin`,
// lib/placement.js sharedBatch; PROFILE_PLACEMENTS says why), in rounds: in each, every reader's
// run under perf and its run unprofiled in the same placement, whose CPU per read the
// samples' shares divide. Which of the two goes first alternates by round.
// partner: C's program where the unprofiled runs take turns with a run of C (--cost-pairing
// slices), so that each reader's CPU per read is set against C's of the same moments.
function profileSteps (options, selected, { pin, bytes, sampleMs, shuffle = list => list, partner = null }) {
  const blockSize = Math.min(...(options.costSizes ?? []))
  if (!Number.isFinite(blockSize)) return []
  const rounds = options.profileRounds ?? 1
  const honouring = selected.filter(program => program.honoursBlockSize)
  const steps = []
  for (let run = 0; run < rounds; run++) {
    const group = `profile @ ${blockSize}, round ${run + 1} of ${rounds}`
    for (const program of shuffle(honouring)) {
      const where = { program, blockSize, bytes, run, warmup: 0, pin, ownFeeder: true, sampleMs, group }
      const turns = partner && program.name !== partner.name ? { partner } : {}
      const unprofiled = `${group}: ${program.name} (unprofiled${turns.partner ? ', in turns with C' : ''})`
      const pair = [
        { phase: PHASES.profile, ...where, label: `${group}: ${program.name}` },
        { phase: PHASES.profileCpu, ...where, ...turns, label: unprofiled }
      ]
      steps.push(...(run % 2 ? pair.reverse() : pair))
    }
  }
  return steps
}

// A profile run's bytes: enough for `windowS` of the reader's CPU in the slope's window at
// the CPU per read the cost pass measured for it (cpuPerReadNs; null before it has), in whole
// 64 KiB blocks, between PROFILE_MIN_BYTES and the cost run's `bytes`, both scaled by
// windowS / PROFILE_WINDOW_S so that --profile-ms scales every reader's samples alike; and
// no fewer than `leastReads` reads in the window, whose samples are the ones counted, where
// the cost run's bytes allow them (profileLeastReads).
// The slow readers need far fewer than the cost run's bytes: wasmer's 10 µs reads of 64 MiB
// took 1.7 s a run, 110 s of a 6-round pass's 347.
// issue 50's target for a bucket's interval: a tenth of it, or 5 ns where that is wider
const PRECISION = { share: 0.1, floorNs: 5 }
const PROFILE_WINDOW_S = 0.2
const PROFILE_MIN_BYTES = 8 << 20
function profileBytes (step, cpuPerReadNs, windowS = PROFILE_WINDOW_S, leastReads = 0) {
  const scale = windowS / PROFILE_WINDOW_S
  const most = wholeBlocks(step.bytes * scale)
  // leastReads are reads in the window, where the samples are counted
  const least = Math.min(most,
    Math.max(wholeBlocks(PROFILE_MIN_BYTES * scale), windowReadsBytes(leastReads, step.blockSize)))
  if (!(cpuPerReadNs > 0)) return most
  return Math.min(most, Math.max(least, windowBytes(windowS, cpuPerReadNs, step.blockSize)))
}

// The reads a profiled run needs however slow its reader. A bucket of b ns per read is a
// share b / t of the samples of a reader whose read costs t ns; over `rounds` runs of n reads
// at f samples a ns of CPU it has s = n·rounds·t·f samples, and the upper half of its Wilson
// interval (bucketPrecision's), in ns, is about z·√(b / (n·rounds·f)) + z² / (2·n·rounds·f)
// for a small share: the reader's CPU per read drops out. A budget of CPU time gives a slow
// reader fewer reads and so wider buckets in ns: wasmer's reads of 5.4 µs, 600 ms of them a
// run, left its kernel read, loop and buffer (40-70 ns) at 8,190 samples over 4 rounds where
// about 43,000 would hold them within 5 ns (docs/profile.md, 2026-12-05). The floor holds a
// bucket at the precision target's knee (PRECISION: 50 ns, its tenth 5 ns) within the target
// by its samples: 529,000 reads a round in the window over 4 rounds, at 3,989 Hz.
function profileLeastReads (rounds) {
  const [z, kneeNs, targetNs] = [Z_TWO_SIDED, PRECISION.floorNs / PRECISION.share, PRECISION.floorNs]
  // u = 1 / √(n·rounds·f), the root of (z² / 2)·u² + z·√b·u = target
  const u = (Math.sqrt(z ** 2 * kneeNs + 2 * z ** 2 * targetNs) - z * Math.sqrt(kneeNs)) / z ** 2
  const samplesPerNs = FREQUENCY / 1e9
  return Math.ceil(1 / (u ** 2 * samplesPerNs) / Math.max(1, rounds))
}

const BUCKETS = [
  { key: 'kernelRead', label: 'the kernel\'s read(2)', short: 'kernel read' },
  { key: 'entryExit', label: 'syscall entry and exit, libc\'s wrapper', short: 'entry, exit' },
  // (the runtime's binding holds its own JavaScript too, and the syscalls it makes: bucketOf)
  { key: 'switching', label: 'switching: waiting for input, or switched out', short: 'switching' },
  { key: 'binding', label: 'the runtime\'s binding or FFI', short: 'binding' },
  { key: 'loop', label: 'the reader\'s own loop (JavaScript, or C\'s)', short: 'loop' },
  { key: 'buffer', label: 'buffer handling', short: 'buffer' },
  { key: 'gc', label: 'GC', short: 'GC' },
  { key: 'other', label: 'everything else', short: 'other' }
]

const KERNEL = '[kernel.kallsyms]'
// the switching bucket's frame for a wait inside read(2), the pipe empty
const SCHEDULER_IN_READ = 'scheduler, in read(2)'
// a pattern that matches any of `names` (each may hold \w* and the like), whole or as a word
const anyOf = (names, { whole = true } = {}) => new RegExp(`^(${names.join('|')})${whole ? '$' : '\\b'}`)
const SCHEDULER = anyOf(['finish_task_switch', '__schedule', 'schedule', 'schedule_timeout', '__switch_to',
  'context_switch', 'pipe_wait', 'prepare_to_wait_event', 'asm_sysvec_reschedule_ipi', 'sysvec_reschedule_ipi'],
{ whole: false })
// and a wait for input in an event loop's poll (the async readers'): the pipe empty too
const WAIT_FOR_INPUT = anyOf(['do_epoll_wait', '__x64_sys_epoll_wait', '__x64_sys_epoll_pwait2?',
  'do_sys_poll', '__x64_sys_poll', '__x64_sys_ppoll', 'do_select', '__x64_sys_select', '__x64_sys_pselect6'])
const READ_HANDLER = anyOf(['ksys_read', 'vfs_read', '__x64_sys_read', '__x64_sys_readv', 'do_readv', 'vfs_readv',
  '__x64_sys_splice', '__do_sys_splice', 'do_splice', '__do_splice', '__do_sys_io_uring_enter',
  '__x64_sys_io_uring_enter', 'io_issue_sqe', 'io_read'])
const SYSCALL_HANDLER = /^(__x64_sys_|__do_sys_|__se_sys_)(\w+)$/
// the way in and out of every syscall, the mitigations' thunks among them
const ENTRY_EXIT = anyOf(['do_syscall_64', 'entry_SYSCALL_64\\w*', 'syscall_exit_to_user_mode\\w*', 'x64_sys_call',
  'exit_to_user_mode\\w*', 'syscall_return_via_sysret', 'srso_\\w+', '__pfx_\\w+', '__x86_indirect_thunk_\\w+',
  '__x86_return_thunk', 'entry_untrain_ret', 'clear_bhb_loop', 'fpregs_restore_userregs', 'switch_fpu_return',
  'restore_fpregs_from_fpstate'])
// the wrappers of the calls that wait for input: a switch on the way back from one is the
// feeder's turn
const INPUT_WRAPPER = anyOf(['read', '__libc_read', '__read', '__GI___libc_read', '__read_nocancel', 'readv',
  'splice', 'epoll_wait', 'epoll_pwait2?'])
// libc's (and liburing's) side of a syscall: the wrapper that enters the kernel
const LIBC_SYSCALL = anyOf(['read', '__libc_read', '__read', '__GI___libc_read', '__read_nocancel', 'readv', 'splice',
  'syscall', '__GI___pthread_(en|dis)able_asynccancel', '__pthread_(en|dis)able_asynccancel', 'io_uring_enter',
  '__sys_io_uring_enter2?', '__io_uring_submit_and_wait', 'io_uring_submit_and_wait', 'epoll_wait', 'epoll_pwait2?'])
// the collectors' classes, each by its name and `::` (a review: `Heap` alone took
// `HeapObject::SizeFromMap`, an object's size, and the sweepers and marking visitors of V8's
// later versions went to the binding through `v8::`)
const GC = new RegExp('(v8::internal::(Heap|HeapAllocator|Scavenger|ScavengerCollector|MarkCompact(Collector)?|' +
  'MinorMarkSweep(Collector)?|GCTracer|ConcurrentMarking|IncrementalMarking|(Main|YoungGeneration|Concurrent)?' +
  'MarkingVisitor|MarkingBarrier|MarkingWorklists?|Sweeper|ArrayBufferSweeper|MemoryAllocator|PagedSpace|' +
  'NewSpace|SemiSpace|LocalHeap|Safepoint|GlobalSafepoint)(<.*>)?::|Builtins_RecordWrite|' +
  'JSC::(Heap|SlotVisitor|MarkedSpace|MarkedBlock|GCActivityCallback)::)')
const BUFFER = /(ArrayBuffer|TypedArray|ArrayBufferView|BackingStore|Uint8Array|memcpy|memmove|memset)/
// JIT code named by a perf map, and V8's builtins that run JavaScript (ICs, the interpreter)
const JS_SYMBOL = new RegExp('^(JS:|LazyCompile:|Function:|Script:|Builtin:|RegExp:|' +
  'Builtins_(?!CallApiCallback|CEntry|CallFunction_ReceiverIsAny))')
// V8's perf map names a function with its script (JS:*readSync node:fs:958:18); a runtime's
// own modules, Node's node: and Deno's ext:, are its side of the call, as its native binding
// is (a review: 39 ns of node-ffi's "+83 ns loop" were node:internal/ffi/fast-api's checks
// of its arguments). JavaScriptCore's jitdump names no script: Bun's own JavaScript stays loop.
const SCRIPTED = /\s(\S+?):\d+(:\d+)?$/
const RUNTIME_SCRIPT = /^(node|ext):/
// a WebAssembly module's function, V8's (JS:wasm-function[9]-9-liftoff) or wasmtime's
// (wasm[0]::function[8]): the reader's loop compiled, whoever's JavaScript started it
const WASM_FUNCTION = /(^|:)wasm-function\[|^wasm\[\d+\]::/
// or a WebAssembly module compiled ahead of time: wasmtime maps a precompiled module (.cwasm,
// wasmtime-aot) from its file, whose symbol table names its functions and trampolines as the
// JIT's perf map does (wasm[0]::function[8]), and writes no map for it
const JIT_DSO = /(perf-\d+\.map|\[JIT\]|jitted-|\.cwasm$)/
// the runtime's side of a call into native code: V8's API callbacks, Node's bindings,
// libuv, FFI trampolines
const BINDING = new RegExp('^(node::|uv_|uv__|v8::|napi_|ffi_|Builtins_CallApiCallback|Builtins_CEntry|' +
  'Builtins_CallFunction|just::|deno_|op_|Deno|JSC::|FFI|bun)')
// a WebAssembly host's own code, which implements WASI's calls for the module: the binding
// between the module and the kernel (wasmtime's Rust, its tokio stdin worker, uvwasi), by
// its name or by the library it is in (wasmtime's _libwasmtime.so holds its crates' code too)
const WASI_HOST = /(wasmtime|wasmer|tokio|uvwasi|wasi_common|cranelift)/
// the libraries a runtime's own native code is in, beside its binary
const RUNTIME_LIBRARY = /^(libnode\.so|_libwasmtime\.so)/
const MEANINGLESS = anyOf(['\\[unknown\\]', '__strcmp\\w*', 'strcmp@plt', '__errno_location(@plt)?', 'malloc',
  'free', 'cfree', '_int_malloc', '_int_free', '__libc_malloc', '__libc_free', 'operator new', 'operator delete'])

// A sample's bucket and the frame that decided it (the name "everything else" shows).
// binary: the reader's executable's file name; native: whether that binary is the reader's
// own code (C's readers), whose frames are then its loop, not a runtime's binding.
function bucketOf (frames, reader) {
  const { binary, native } = reader
  const leaf = frames[0]
  if (leaf?.dso === KERNEL) {
    const kernelFrames = frames.filter(frame => frame.dso === KERNEL)
    const read = kernelFrames.find(frame => READ_HANDLER.test(frame.symbol))
    // a wait inside read(2) is named apart: its time on the CPU is inside the syscall, as the
    // kernel pass counts it (report-data.js kernelCheck); a wait in an event loop's poll is the
    // pipe empty too, and a switch on the way back to user space the reader switched out. A
    // wait in another syscall is that syscall's maker's, below (a review: wasmer's threads
    // handing each read over by futex, 3,200 ns a read, were called "the feeder's turn")
    const handler = kernelFrames.find(frame => SYSCALL_HANDLER.test(frame.symbol))
    const scheduled = kernelFrames.some(frame => SCHEDULER.test(frame.symbol))
    if (scheduled && read) return { key: 'switching', frame: SCHEDULER_IN_READ }
    const polled = kernelFrames.find(frame => WAIT_FOR_INPUT.test(frame.symbol))
    if (scheduled && polled) {
      return { key: 'switching', frame: `scheduler, in ${syscallName(handler) ?? 'a poll'}` }
    }
    const user = frames.filter(each => each.dso !== KERNEL)
    if (scheduled && !handler) {
      // switched on the way back from a syscall the runtime's code made, past a read: the same
      // hand-off as a wait inside it, which the switch on a futex's wake often is (a review:
      // wasmer-llvm's hand-offs went to switching in 2 of 4 rounds, 0 and 1 in the others)
      const after = user[0] && /libc/.test(user[0].dso) && LIBC_SYSCALL.test(user[0].symbol) &&
        !INPUT_WRAPPER.test(user[0].symbol)
      const made = after ? syscallMaker(user, reader) : null
      if (made !== null) return { key: made, frame: 'scheduler, after a syscall' }
      return { key: 'switching', frame: 'scheduler' }
    }
    if (read) return { key: 'kernelRead', frame: read.symbol }
    if (handler) {
      // another syscall is charged to the runtime's code that made it, past libc's wrapper: a
      // WebAssembly host's futex waking its stdin worker, an event loop's epoll_wait, the
      // collector's madvise are how that code does its part of a read (a review: a WASI
      // host's hand-off went three ways, its futex to "everything else")
      const frame = `syscall ${syscallName(handler)}${scheduled ? ', scheduler' : ''}`
      return { key: syscallMaker(user, reader) ?? 'other', frame }
    }
    // the way in or out of a syscall with no handler under it: the entry and exit code, and
    // the work the exit does for the task (rseq, task_work) and the entry's checks (seccomp's
    // filter), which every syscall pays (a review found 200 ns a read of wasmer's in rseq's
    // notification, bucketed as "everything else")
    if (ENTRY_EXIT.test(kernelFrames.at(-1).symbol)) return { key: 'entryExit', frame: leaf.symbol }
    // a page fault, an interrupt: named by the kernel's outermost frame
    return { key: 'other', frame: `kernel: ${kernelFrames.at(-1).symbol}` }
  }
  for (const frame of frames) {
    const { symbol, dso } = frame
    if (dso === KERNEL) continue
    if (LIBC_SYSCALL.test(symbol) && /libc|liburing|ld-linux/.test(dso)) return { key: 'entryExit', frame: symbol }
    // Debian's liburing is stripped: its code, which hands the ring its entries and enters
    // the kernel, is a frame with no name (a review: 33-35 ns of the ring readers' reads
    // went to "everything else" so)
    if (symbol === '[unknown]' && /liburing/.test(dso)) return { key: 'entryExit', frame: '[unknown] (liburing)' }
    if (GC.test(symbol)) return { key: 'gc', frame: symbol }
    if (BUFFER.test(symbol)) return { key: 'buffer', frame: symbol }
    if (JS_SYMBOL.test(symbol) || JIT_DSO.test(dso)) {
      return { key: runtimesScript(frames.slice(frames.indexOf(frame))) ? 'binding' : 'loop', frame: symbol }
    }
    const file = dso.split('/').pop()
    const own = binary && file === binary
    // a frame with no name in a runtime's own stripped binary (Bun's, Deno's) or library (the
    // host's libnode, wasmtime's) is still the runtime's native code, not the JavaScript that
    // called it (a review: the host's and wasmtime's went to their callers or to "everything
    // else" where Bun's and Deno's went to the binding)
    if (symbol === '[unknown]' && !native && (own || RUNTIME_LIBRARY.test(file))) {
      return { key: 'binding', frame: `[unknown] (${file})` }
    }
    if (MEANINGLESS.test(symbol)) continue
    if (own && native) return { key: 'loop', frame: symbol }
    const runtimes = BINDING.test(symbol) || WASI_HOST.test(symbol) || WASI_HOST.test(dso)
    if (runtimes || own) return { key: 'binding', frame: symbol }
  }
  const named = frames.find(frame => !MEANINGLESS.test(frame.symbol))
  return { key: 'other', frame: named ? `${named.symbol} (${named.dso.split('/').pop()})` : 'unknown frames' }
}

// The bucket of the code that made a syscall, past libc's function that entered the kernel
// (read, syscall, epoll_wait, ...): the runtime's binding, its collector or buffer code (an
// allocation's mmap; a review found it went to "everything else"); null for any other. user:
// the sample's frames in user space, leaf first.
function syscallMaker (user, reader) {
  const wrapper = user.findIndex(each => !/libc|ld-linux/.test(each.dso))
  const caller = wrapper < 0 ? [] : user.slice(wrapper)
  const maker = caller.length ? bucketOf(caller, reader).key : null
  if (['binding', 'gc', 'buffer'].includes(maker)) return maker
  // unwound no further than libc's wrapper (libc keeps no frame pointers): in a runtime's
  // process only its native code makes syscalls, JavaScript and WebAssembly none
  const wrapperOnly = user.length > 0 && caller.every(each => MEANINGLESS.test(each.symbol))
  return !reader.native && wrapperOnly ? 'binding' : null
}

// A syscall handler frame's syscall (futex of __x64_sys_futex), or null without one.
const syscallName = handler => handler ? SYSCALL_HANDLER.exec(handler.symbol)[2] : null

// Whether the JavaScript a sample is in is the runtime's own: the nearest of its JavaScript
// frames, leaf first, that names its script (a builtin or an IC names none: it runs for the
// function that called it) is in one of the runtime's modules.
function runtimesScript (frames) {
  for (const { symbol, dso } of frames) {
    if (dso === KERNEL || !(JS_SYMBOL.test(symbol) || JIT_DSO.test(dso))) continue
    if (WASM_FUNCTION.test(symbol)) return false
    const script = SCRIPTED.exec(symbol)?.[1]
    if (script) return RUNTIME_SCRIPT.test(script)
  }
  return false
}

// A runtime's helper thread whose stack names nothing (JavaScriptCore's JITWorker, whose code
// has no symbols) is named by the name the runtime gave the thread; a GC helper's goes to GC.
const GC_THREAD = /(heap|gc|marking|sweep|scaveng)/i
const THREAD_START = /^(start_thread|clone3?|__clone3?) \(/
function sampleBucket (sample, reader) {
  const found = bucketOf(sample.frames, reader)
  const nameless = found.frame === 'unknown frames' || THREAD_START.test(found.frame) ||
    found.frame.startsWith('[unknown]')
  if (!sample.comm || sample.tid === sample.pid || !nameless) return found
  return { key: GC_THREAD.test(sample.comm) ? 'gc' : 'other', frame: `thread ${sample.comm}` }
}

// The reader as bucketOf takes it: { binary: the file perf names its own code by, native:
// whether that is the reader's own code (C's readers) }. npm's bun and deno are links to
// their binaries, and Debian's python3, which runs wasmtime, to python3.11.
function profiledReader (program, blockSize) {
  const command = commandLine(program, blockSize)[0]
  let binary = path.basename(command)
  try {
    binary = path.basename(fs.realpathSync(command))
  } catch {} // a command found on the PATH by name: its name is all there is
  return { binary, native: program.runtime === 'native' }
}

// A profiled run's record with its samples attributed again by today's rules, from the perf
// script text its run kept (record.rawFile, gzipped in runDir); the record as it was where
// the text is gone or its reader is no longer this lab's. For analyse.js --rederive, after a
// rule changed: the attribution otherwise stays the one made when the run was measured.
function reattributed (record, runDir, windowSpan) {
  const program = findProgram(record.program)
  const file = record.rawFile && path.join(runDir, record.rawFile)
  if (!record.ok || !record.profile || !program || !file || !fs.existsSync(file)) return record
  let text
  try {
    text = zlib.gunzipSync(fs.readFileSync(file)).toString()
  } catch (err) {
    // a kept text cut short or damaged: rewriting the run's figures from the rest would mix
    // two attributions, so nothing is rewritten, and the line says which file and what to do
    const name = path.join(path.basename(runDir), record.rawFile)
    throw new UsageError(`${name} cannot be read (${err.message}): ` +
      `restore it from a copy of the run, or move it out of ${path.basename(runDir)} to keep ` +
      `${record.program}'s profiled run as it was attributed when measured`)
  }
  const samples = parsePerfScript(text)
  return { ...record, profile: attribute(samples, profiledReader(program, record.blockSize), windowSpan(record)) }
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
// A flame graph keeps the frames of at least this share of the window's samples: the rest
// are too thin to see, and would make each run's record heavy
const TREE_MIN_SHARE = 0.002

// The window's stacks as a tree, root first: [name, samples, bucket index, kernel (1 or 0),
// children], each frame's children the stacks that went on from it. A frame's bucket is the
// one a sample that ended in it would go to (bucketOf on its path): the colour that says
// whose code it is. A frame with fewer samples than `least` is left out.
function stackTree (window, reader, least) {
  const root = { children: new Map() }
  for (const sample of window) {
    let node = root
    const path = []
    for (const frame of [...sample.frames].reverse()) {
      path.unshift(frame)
      const name = frame.symbol === '[unknown]' ? `[unknown] (${frame.dso.split('/').pop()})` : frame.symbol
      if (!node.children.has(name)) {
        const bucket = BUCKETS.findIndex(({ key }) => key === bucketOf(path, reader).key)
        node.children.set(name, { samples: 0, kernel: frame.dso === KERNEL, bucket, children: new Map() })
      }
      node = node.children.get(name)
      node.samples++
    }
  }
  const shape = children => [...children].filter(([, node]) => node.samples >= least)
    .sort((a, b) => b[1].samples - a[1].samples)
    .map(([name, node]) => [name, node.samples, node.bucket, node.kernel ? 1 : 0, shape(node.children)])
  return shape(root.children)
}

// Whether a reader's ns in frames with no name are worth a line: they round to 1 ns or more.
const shownUnnamed = unnamed => unnamed?.ns >= 0.5

// The file an unnamed frame is in, JIT code under one name whatever its process's pid.
const unnamedIn = dso => (JIT_DSO.test(dso) ? 'JIT code (perf map)' : dso.split('/').pop())

// V8's way into a C++ API function that is no fast API call: a fast call goes from the
// JIT code into the function itself, with none of these frames between.
const V8_SLOW_API_CALL = /^Builtins_CallApiCallback/
const V8_BUILTIN_PREFIX = 'Builtins_'

// A run's samples in buckets: { samples, periodNs (the CPU time they stand for, null from
// perf texts without it), window ('slope' or 'reads': which), windowS,
// buckets: { key: { samples, share, top: [[frame, samples]] } },
// unnamed: { samples, share, top: [[file, samples]] } (the samples whose own frame has no
// name: a stripped binary, JIT code no map names), tree (stackTree's) }, over the read loop's
// window: `span` (the slope's, by the clock perf was told to use), or from the first sample
// that reads stdin to the last. slowApiCalls: the window's samples in V8's slow API calls
// (V8_SLOW_API_CALL), which a fastest reader's loop makes none of where its fast path holds.
function attribute (samples, reader, span = null) {
  const window = span
    ? samples.filter(sample => sample.timeS * 1e9 >= span.fromNs && sample.timeS * 1e9 <= span.toNs)
    : readWindow(samples)
  const buckets = Object.fromEntries(BUCKETS.map(bucket => [bucket.key, { samples: 0, frames: new Map() }]))
  const unnamed = new Map()
  const count = (counts, name) => counts.set(name, (counts.get(name) ?? 0) + 1)
  for (const sample of window) {
    const { key, frame } = sampleBucket(sample, reader)
    buckets[key].samples++
    count(buckets[key].frames, frame)
    const leaf = sample.frames[0]
    if (!leaf || leaf.symbol === '[unknown]') count(unnamed, leaf ? unnamedIn(leaf.dso) : 'no frames')
  }
  const unnamedSamples = [...unnamed.values()].reduce((sum, samples) => sum + samples, 0)
  const total = window.length
  const slow = window.filter(sample => sample.frames.some(frame => V8_SLOW_API_CALL.test(frame.symbol))).length
  // whether the slow calls could be seen at all: a V8 whose binary names its builtins shows
  // some in any run (the interpreter's own are builtins); a stripped one (npm's Deno, the
  // host's libnode) names none, and its slow calls would pass unseen
  const countable = samples.some(sample => sample.frames.some(frame => frame.symbol.startsWith(V8_BUILTIN_PREFIX)))
  const periods = window.map(sample => sample.periodNs)
  return {
    window: span ? 'slope' : 'reads',
    samples: total,
    periodNs: periods.every(Number.isFinite) ? periods.reduce((sum, ns) => sum + ns, 0) : null,
    windowS: total ? window.at(-1).timeS - window[0].timeS : 0,
    buckets: Object.fromEntries(Object.entries(buckets).map(([key, bucket]) => [key, {
      samples: bucket.samples,
      share: total ? bucket.samples / total : null,
      top: [...bucket.frames].sort((a, b) => b[1] - a[1]).slice(0, TOP_FRAMES)
    }])),
    unnamed: {
      samples: unnamedSamples,
      share: total ? unnamedSamples / total : null,
      top: [...unnamed].sort((a, b) => b[1] - a[1]).slice(0, TOP_FRAMES)
    },
    slowApiCalls: { samples: slow, share: total ? slow / total : null, countable },
    tree: stackTree(window, reader, Math.max(1, Math.ceil(TREE_MIN_SHARE * total)))
  }
}

// One round of a reader: its profiled run and the unprofiled run of the same round (any
// round's, for a log from before the pass numbered its rounds) → { run, cpuPerReadNs
// (unprofiled, at C's pace: see below), ownNs (unprofiled, as measured), profiledNs (the
// profiled run's own, perf's cost in it), sampledNs (what perf's samples stand for, per read
// of the window), windowCpuPerReadNs (the CPU its clock counted there, per read), profile } or a
// failure. An unprofiled run that took turns with C gives its CPU per read against C's of the
// same moments; times cPace (C's median over the pass's turns) it is the reader's CPU per
// read at the pass's pace, so that a host's load that slowed the round slows neither. C's own
// is cPace.
function roundOf (record, records, { slopePerRead, windowSpan, pairFigures }, cPace) {
  const sameCell = entry => entry.phase === PHASES.profileCpu && entry.program === record.program &&
    entry.blockSize === record.blockSize && entry.ok
  // another round's run stands in only in a log whose runs have no round numbers: else one
  // round's figure would count twice in the median and its interval
  const numbered = records.some(entry => entry.phase === PHASES.profileCpu && entry.program === record.program &&
    entry.blockSize === record.blockSize && Number.isInteger(entry.run))
  const beside = records.find(entry => sameCell(entry) && entry.run === record.run) ??
    (numbered ? null : records.find(sameCell))
  const pair = beside?.partner ? pairFigures(beside) : null
  const ownNs = pair ? pair.ns : beside ? slopePerRead(beside) : null
  const paced = cPace === null ? ownNs : record.program === BASELINE ? cPace : pair ? pair.ns / pair.cNs * cPace : null
  if (!record.ok) return { run: record.run, failure: record.failure }
  if (ownNs === null || paced === null) {
    return { run: record.run, failure: 'its round\'s unprofiled run failed, or gave no CPU per read' }
  }
  const span = windowSpan(record)
  const { periodNs } = record.profile
  return {
    run: record.run,
    traceFile: record.rawFile ?? null,
    cpuPerReadNs: paced,
    ownNs,
    profiledNs: slopePerRead(record),
    sampledNs: span && periodNs !== null && record.profile.window === 'slope' ? periodNs / span.reads : null,
    // the CPU the reader's own clock counted in the same window, per read: what perf's samples
    // are held against. Not the slope: on a noisy day a run's slope left its window's mean by
    // up to 9% where perf's periods kept within about 2% of it (docs/profile.md, 2026-12-04)
    windowCpuPerReadNs: span ? span.cpuNs / span.reads : null,
    profile: record.profile
  }
}

// ns to a hundredth: a flame graph's frames need no more, and profile.json stays small
const round = ns => Math.round(ns * 100) / 100

// Rounds' trees as one, each frame in ns per read: its share of all the rounds' samples of
// the window × the CPU per read the cell quotes. [name, ns, bucket, kernel, children].
function mergeTrees (rounds, cpuPerReadNs) {
  const merged = new Map()
  const add = (into, tree) => {
    for (const [name, samples, bucket, kernel, children] of tree) {
      if (!into.has(name)) into.set(name, { samples: 0, bucket, kernel, children: new Map() })
      const node = into.get(name)
      node.samples += samples
      add(node.children, children)
    }
  }
  for (const round of rounds) add(merged, round.profile.tree ?? [])
  const nsPerSample = cpuPerReadNs / rounds.reduce((sum, round) => sum + round.profile.samples, 0)
  const shape = nodes => [...nodes].sort((a, b) => b[1].samples - a[1].samples).map(([name, node]) =>
    [name, round(node.samples * nsPerSample), node.bucket, node.kernel, shape(node.children)])
  return shape(merged)
}

// A frame's key for comparing two runtimes' trees: the kernel's frames by their path from
// the kernel's first frame (a read's path through the kernel is the same under any runtime);
// user space's by name: the paths to libc's read differ from runtime to runtime, and the
// frames above it are each runtime's own.
const frameKey = (name, kernelPath) => (kernelPath ? `k${kernelPath}` : `u${name}`)
function keyedNs (tree, into = new Map(), kernelPath = null) {
  for (const [name, ns, , kernel, children] of tree) {
    const inKernel = kernel ? `${kernelPath ?? ''}/${name}` : null
    const key = frameKey(name, inKernel)
    into.set(key, (into.get(key) ?? 0) + ns)
    keyedNs(children, into, inKernel)
  }
  return into
}

// The reader's tree with each frame's ns over C's at the same key (the frames of a
// differential flame graph: grown where positive, shrunk where negative), and C's frames
// that shrank most.
function againstC (tree, cTree) {
  const cNs = keyedNs(cTree)
  const seen = new Map()
  const mark = (nodes, kernelPath = null) => nodes.map(([name, ns, bucket, kernel, children]) => {
    const inKernel = kernel ? `${kernelPath ?? ''}/${name}` : null
    const key = frameKey(name, inKernel)
    // a key met again (the same kernel path under two callers) takes what C's first met left
    const c = Math.max(0, (cNs.get(key) ?? 0) - (seen.get(key) ?? 0))
    seen.set(key, (seen.get(key) ?? 0) + c)
    return [name, ns, bucket, kernel, mark(children, inKernel), round(ns - c)]
  })
  const marked = mark(tree)
  const mine = keyedNs(tree)
  const shrank = [...cNs].map(([key, ns]) => [key, (mine.get(key) ?? 0) - ns])
    .filter(([, change]) => change < -1).sort((a, b) => a[1] - b[1]).slice(0, TOP_FRAMES)
    .map(([key, change]) => [key.slice(1).split('/').pop(), round(change)])
  return { tree: marked, shrank }
}

const PROFILE_FIGURES = ['cpuPerReadNs', 'ownNs', 'profiledNs', 'sampledNs']

// Rounds' [[name, samples]] lists as one, the most sampled first.
function topOf (lists) {
  const top = new Map()
  for (const [name, samples] of lists.flat()) top.set(name, (top.get(name) ?? 0) + samples)
  return [...top].sort((a, b) => b[1] - a[1]).slice(0, TOP_FRAMES)
}

// profile.json: per reader at the profile pass's size, over its rounds (experiments/stdio/
// profile.js's runs, one profiled and one not in each): each bucket's ns per read (its share of
// the read loop's samples of every round × the cell's CPU per read, the median of the rounds'
// unprofiled runs) with the interval of its rounds' own figures (fewValuesInterval); the CPU
// per read, profiled and not, and what
// perf's samples stand for, for the profiler's cost and how much of the CPU the samples saw;
// the frames behind each bucket, the flame graph's tree in ns per read (C's beside it as
// a differential one), and the perf script texts it came from.
// rejected: as the kernel pass's (kernel.js summariseKernel): a cell whose reader failed the
// lab's checks is a failed cell here too, with the reason, never buckets.
function summariseProfile (records, tools, rejected = new Map()) {
  const profiled = records.filter(entry => entry.phase === PHASES.profile)
  const cellKeys = [...new Set(profiled.map(entry => `${entry.program}\t${entry.blockSize}`))]
  // C's CPU per read in every reader's turns, the pace the paired rounds are set at
  const cTurns = records.filter(entry => entry.phase === PHASES.profileCpu && entry.ok && entry.partner)
    .map(tools.pairFigures).filter(Boolean).map(pair => pair.cNs)
  const cPace = cTurns.length ? median(cTurns) : null
  const cells = cellKeys.map(key => {
    const mine = profiled.filter(entry => `${entry.program}\t${entry.blockSize}` === key)
    const all = mine.map(record => roundOf(record, records, tools, cPace))
    const rounds = all.filter(round => !round.failure)
    const failures = all.filter(round => round.failure)
    const refused = rejected.get(key) ?? null
    const cell = {
      program: mine[0].program,
      blockSize: mine[0].blockSize,
      ok: rounds.length > 0 && refused === null,
      failure: refused ?? (rounds.length ? null : failures[0].failure),
      failedRounds: failures.map(round => ({ run: round.run, failure: round.failure })),
      rounds: rounds.length,
      traceFiles: rounds.map(round => round.traceFile).filter(Boolean)
    }
    if (!cell.ok) return cell
    const figure = values => {
      const present = values.filter(Number.isFinite)
      if (present.length === 0) return { ns: null, interval: null }
      return { ns: median(present), interval: fewValuesInterval(present) }
    }
    const cost = figure(rounds.map(round => (round.profiledNs === null ? null : round.profiledNs - round.ownNs)))
    const figures = Object.fromEntries(PROFILE_FIGURES.map(name => [name, figure(rounds.map(round => round[name]))]))
    // C at the pass's pace: the interval of its figure is that of its turns beside every reader
    if (cell.program === BASELINE && cPace !== null) figures.cpuPerReadNs.interval = fewValuesInterval(cTurns)
    const seen = rounds.filter(round => round.sampledNs !== null && round.windowCpuPerReadNs > 0)
    // runs from before the pass counted samples without a name have none
    const withUnnamed = rounds.filter(round => round.profile.unnamed)
    const allSamples = rounds.reduce((sum, round) => sum + round.profile.samples, 0)
    return Object.assign(cell, {
      samples: median(rounds.map(round => round.profile.samples)),
      cpuPerReadNs: figures.cpuPerReadNs.ns,
      cpuPerReadInterval: figures.cpuPerReadNs.interval,
      // the unprofiled runs' own figure, before the pace of C's turns set it
      ownNs: figures.ownNs.ns,
      pacedByC: cPace !== null,
      profiledNs: figures.profiledNs.ns,
      profilerCostNs: cost.ns,
      profilerCostInterval: cost.interval,
      // what share of the CPU the profiled run's clock counted in its window perf's samples
      // there stand for
      sampledShare: seen.length ? median(seen.map(round => round.sampledNs / round.windowCpuPerReadNs)) : null,
      // each bucket's share of all the rounds' samples times the cell's CPU per read, so that
      // the buckets add up to it, as the flame graph's frames do (mergeTrees): medians of
      // each bucket taken apart do not add up to the median of their sums. Its interval is
      // that of its rounds' own figures.
      buckets: Object.fromEntries(BUCKETS.map(({ key }) => {
        const perRound = rounds.map(round => (round.profile.buckets[key].share ?? 0) * round.cpuPerReadNs)
        const samples = rounds.reduce((sum, round) => sum + round.profile.buckets[key].samples, 0)
        const share = allSamples ? samples / allSamples : null
        return [key, {
          ns: share === null ? median(perRound) : share * figures.cpuPerReadNs.ns,
          interval: fewValuesInterval(perRound),
          samples,
          share: share ?? median(rounds.map(round => round.profile.buckets[key].share ?? 0)),
          top: topOf(rounds.map(round => round.profile.buckets[key].top))
        }]
      })),
      // ns per read in frames with no name, and the files they are in
      unnamed: withUnnamed.length
        ? {
            ns: median(withUnnamed.map(round => (round.profile.unnamed.share ?? 0) * round.cpuPerReadNs)),
            top: topOf(withUnnamed.map(round => round.profile.unnamed.top))
          }
        : null,
      tree: mergeTrees(rounds, figures.cpuPerReadNs.ns)
    })
  })
  const base = cells.find(cell => cell.program === BASELINE && cell.ok)
  for (const cell of cells.filter(cell => cell.ok && cell.tree)) {
    if (!base || cell === base) continue
    const { tree, shrank } = againstC(cell.tree, base.tree)
    Object.assign(cell, { tree, shrankAgainstC: shrank })
  }
  return { buckets: BUCKETS, cells }
}

// How sure a cell's buckets are, against issue 50's target: each bucket's interval within a
// tenth of its figure or 5 ns, whichever is wider. Two intervals are set against it: the
// rounds' (what the page gives: the pass's samples and the host's moves between rounds
// together), and what perf's samples alone allow (Wilson's interval of the bucket's share of
// the cell's samples, times its CPU per read), so that a miss says whether more samples would
// narrow it or only a steadier host. Buckets under the target's floor are left out: their
// ns are within it whatever their interval. A bucket whose samples fall short says how many
// would do (the sampling interval narrowing as the square root of the samples).
function bucketPrecision (cell) {
  const buckets = Object.entries(cell.buckets ?? {})
  const all = buckets.reduce((sum, [, bucket]) => sum + (bucket.samples ?? 0), 0)
  return buckets.filter(([, bucket]) => bucket.ns >= PRECISION.floorNs).map(([key, bucket]) => {
    const targetNs = Math.max(PRECISION.share * bucket.ns, PRECISION.floorNs)
    const rounds = bucket.interval && Number.isFinite(bucket.interval.low) ? bucket.interval : null
    const roundsNs = rounds ? Math.max(bucket.ns - rounds.low, rounds.high - bucket.ns) : null
    const sampled = all && Number.isFinite(bucket.samples) ? proportionInterval(bucket.samples, all) : null
    const samplingNs = sampled
      ? Math.max(sampled.estimate - sampled.low, sampled.high - sampled.estimate) * cell.cpuPerReadNs
      : null
    const samplingWithin = samplingNs === null ? null : samplingNs <= targetNs
    return {
      program: cell.program,
      key,
      ns: bucket.ns,
      targetNs,
      roundsNs,
      roundsLevel: rounds?.level ?? null,
      within: roundsNs === null ? null : roundsNs <= targetNs,
      cellSamples: all,
      samplingNs,
      samplingWithin,
      samplesNeeded: samplingWithin === false ? Math.ceil(all * (samplingNs / targetNs) ** 2) : null
    }
  })
}

// The pass's buckets against the target, every measured cell's together: how many of the
// buckets of the floor or more lie within it by their rounds, how many by their samples alone,
// those short of samples (most short first), and the levels of the rounds' intervals.
function profilePrecision (cells) {
  const buckets = cells.filter(cell => cell.ok !== false && cell.buckets).flatMap(bucketPrecision)
  if (buckets.length === 0) return null
  return {
    target: { ...PRECISION },
    buckets: buckets.length,
    withRounds: buckets.filter(bucket => bucket.within !== null).length,
    within: buckets.filter(bucket => bucket.within).length,
    samplingWithin: buckets.filter(bucket => bucket.samplingWithin).length,
    // missed by the rounds though the samples alone hold it: the rounds moved
    roundsMoved: buckets.filter(bucket => bucket.within === false && bucket.samplingWithin).length,
    levels: [...new Set(buckets.map(bucket => bucket.roundsLevel).filter(level => level !== null))],
    shortOfSamples: buckets.filter(bucket => bucket.samplingWithin === false)
      .sort((a, b) => b.samplesNeeded / b.cellSamples - a.samplesNeeded / a.cellSamples)
  }
}

// The runtime's side of a read's call (its binding and its loop: Bun's and Deno's FFI
// trampolines are JIT code) over C's, against a calls run's no-op call over C's: the same
// boundary crossed with nothing to do. Where they are more than a fifth apart, the read's call
// does more than cross it (converts a buffer, checks its arguments). Within 5 ns the two are
// not told apart: a bucket's interval is about that wide.
// Only a reader whose read crosses the boundary its namesake variant's no-op crosses
// (experiments/calls/ladder.js) is set against it: the host's fast API calls and the FFIs.
// Deno's readSync goes through an op where the ladder's deno-sync no-op goes through
// Deno.dlopen; Node's fs.readSync through its own binding where the ladder's Node no-op goes
// through Node-API (its variant is named node); a WASI host's no-op is another WASI call
// (args_sizes_get), taken against another floor.
// ladder: the calls run's rows ({ variant, boundary, rungs: { noop: { estimate } } }).
// → { profiledNs, ladderNs, boundary, disagrees }, or null for a reader it does not take.
const LADDER_AGREEMENT = 0.2
const LADDER_NOISE_NS = 5
const CROSSES_LADDER_BOUNDARY = ['just-fast', 'just-sync', 'node-ffi', 'bun-ffi', 'deno-ffi']
function ladderCheck (cell, base, ladder) {
  if (!CROSSES_LADDER_BOUNDARY.includes(cell.program)) return null
  const noopOf = variant => ladder.find(row => row.variant === variant)
  const [own, c] = [noopOf(cell.program), noopOf(BASELINE)]
  const [ownNs, cNs] = [own?.rungs?.noop?.estimate, c?.rungs?.noop?.estimate]
  if (!base || cell === base || !Number.isFinite(ownNs) || !Number.isFinite(cNs)) return null
  const side = each => each.buckets.binding.ns + each.buckets.loop.ns
  // the ladder's no-op over the C that ran beside it (experiments/calls/ladder.js againstC);
  // a ladder from before those differences, over C's processes apart
  const ladderNs = own.overC?.noop?.estimate ?? ownNs - cNs
  const profiledNs = side(cell) - side(base)
  const disagrees = Math.abs(profiledNs - ladderNs) > Math.max(LADDER_AGREEMENT * Math.abs(ladderNs), LADDER_NOISE_NS)
  return { profiledNs, ladderNs, boundary: own.boundary ?? null, disagrees }
}

// Of `programs`, those ladderCheck would set against a calls run's ladder, in a fixed order.
const ladderCheckable = programs => CROSSES_LADDER_BOUNDARY.filter(program => programs.includes(program))

// Past this share of its read loop's samples in V8's slow API calls, a fastest reader's fast
// path did not hold: the forms the lab calls fastest showed none (0 of 1,313 to 2,862 samples a
// round, Zen 3 VM, 2026-12-01), node-ffi passing its Buffer every call 10.9% (docs/programs.md,
// "The profile pass's cross-check").
const SLOW_API_SHARE = 0.05

// Why the profile pass says a fastest reader's fast path did not hold, or null: its profiled
// rounds' samples pooled, where its engine is V8. The fast-path check reads the compiled
// graph, which can hold a fast call while a slow one runs beside it every turn.
function slowPathReason (records, program) {
  const found = slowApiShare(records, program)
  if (found === null || found.countable === false || found.share <= SLOW_API_SHARE) return null
  return `the profile pass found ${slowApiText(found)} (${V8_SLOW_API_CALL.source.slice(1)}…), over ` +
    `${SLOW_API_SHARE * 100}%: a slow call runs beside its fast one`
}

// A reader's profiled rounds' samples pooled: { share, samples, countable } in V8's slow API
// calls, or null where no round counted them (no profile pass, or one from before it did).
// countable: false where its V8 names none of its builtins, so that no slow call could be
// seen; a round logged before this was kept is asked of its perf script text, where the
// run's folder still holds it (`rawText(record)`, else null: unknown).
function slowApiShare (records, program, rawText = () => null) {
  const rounds = records.filter(record => record.phase === PHASES.profile && record.program === program &&
    record.ok && record.profile?.slowApiCalls)
  const samples = rounds.reduce((sum, record) => sum + record.profile.samples, 0)
  const slow = rounds.reduce((sum, record) => sum + record.profile.slowApiCalls.samples, 0)
  if (!samples) return null
  const countableIn = record => {
    if (record.profile.slowApiCalls.countable !== undefined) return record.profile.slowApiCalls.countable
    const text = rawText(record)
    return text === null ? null : text.includes(` ${V8_BUILTIN_PREFIX}`)
  }
  const each = rounds.map(countableIn)
  const countable = each.includes(false) ? false : each.every(value => value === true) ? true : null
  return { share: slow / samples, samples, countable }
}

function slowApiText ({ share, samples, countable }) {
  if (countable === false) {
    return 'no V8 builtin named in its run (a stripped binary): slow API calls in its read loop ' +
      'could not be counted'
  }
  return `${(100 * share).toFixed(1)}% of the ${samples} samples of its read loop in V8's slow API calls`
}

module.exports = {
  profilePlacement,
  profilePlacementText,
  slowPathReason,
  slowApiShare,
  slowApiText,
  BUCKETS,
  ladderCheck,
  ladderCheckable,
  shownUnnamed,
  bucketPrecision,
  profilePrecision,
  PRECISION,
  PROFILE_WINDOW_S,
  profileBytes,
  profileLeastReads,
  bucketOf,
  SCHEDULER_IN_READ,
  profiledReader,
  reattributed,
  readWindow,
  attribute,
  stackTree,
  againstC,
  profileSteps,
  summariseProfile
}
