'use strict'
// Where a read's ns go (issue 50): perf script's text read back (lib/perf.js), and each
// sample put in the bucket its stack says (experiments/stdio/profile.js), on profiles recorded
// on the lab's VM (test/fixtures/perf: C's reader and node-sync at 256 B, dd on the other
// CPU, perf record -e cpu-clock -F 997 -g; node-sync with V8's --perf-basic-prof; bun-ffi's
// at -F 4999, a quarter of its read loop, its JIT code named by its jitdump, the jitdump of
// another run beside it; deno-sync's, a sixth of its loop, at -F 4999 with V8's perf map;
// wasmtime's and wasmtime-aot's, 500 samples of the middle of their loops at -F 4999, with
// wasmtime's perf map, on the Zen 3 VM on 2026-12-02).
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const zlib = require('node:zlib')
const { spawnSync } = require('node:child_process')
const { parsePerfScript, readJitdump, perfMapsFromJitdumps } = require('../../lib/perf')
const { BUCKETS, bucketOf, readWindow, attribute } = require('../../experiments/stdio/profile')
const { UsageError } = require('../../lib/options')

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'perf')
const fixture = name =>
  parsePerfScript(zlib.gunzipSync(fs.readFileSync(path.join(FIXTURES, `${name}.txt.gz`))).toString())
const K = symbol => ({ symbol, dso: '[kernel.kallsyms]' })
const U = (symbol, dso = '/work/main/build/node/26.12.1/bin/node') => ({ symbol, dso })
const NODE = { binary: 'node', native: false }

test('perf script read back: a sample per header, its frames leaf first, offsets dropped', () => {
  const samples = fixture('c-256')
  assert.equal(samples.length, 440)
  const [first] = samples
  assert.equal(first.comm, 'wc-c')
  assert.ok(first.pid > 0 && first.tid === first.pid && first.timeS > 0)
  assert.ok(samples.every(sample => sample.frames.length > 0))
  assert.ok(samples.every((sample, i) => i === 0 || sample.timeS >= samples[i - 1].timeS), 'in time order')
  const reading = samples.find(sample => sample.frames.some(frame => frame.symbol === 'vfs_read'))
  // leaf first: the kernel's frames, then libc's wrapper that entered it
  const firstUser = reading.frames.findIndex(frame => frame.dso !== '[kernel.kallsyms]')
  assert.ok(firstUser > 0 && reading.frames[0].dso === '[kernel.kallsyms]')
  assert.match(reading.frames[firstUser].dso, /libc/)
  assert.ok(samples.flatMap(sample => sample.frames).every(frame => !/\+0x/.test(frame.symbol)))
})

test('a stack\'s bucket: the kernel by what it was doing, user space by the nearest frame that says whose', () => {
  const libc = '/usr/lib/x86_64-linux-gnu/libc.so.6'
  const tracing = 'v8::platform::tracing::TracingController::GetCategoryGroupEnabled'
  const js = 'JS:o* /work/main/wc/node-sync.js:1:1'
  const fastApi = 'JS:*\'validateAndConvertFastIntegerArg node:internal/ffi/fast-api:88:42'
  const denoRead = 'JS:+\'readSync ext:deno_io/12_io.js:1:1515'
  const nodeWasi = 'JS:~start node:wasi:120:8'
  const denoWasi = 'JS:*\'fd_read ext:deno_node/wasi.ts:1:3829'
  const C_READER = { binary: 'wc-c', native: true }
  // [stack, leaf first; its bucket (a key alone, or { key, frame }); the reader, Node's by default]
  const cases = [
    [[K('_copy_to_iter'), K('anon_pipe_read'), K('vfs_read'), K('ksys_read'), K('do_syscall_64'),
      K('entry_SYSCALL_64_after_hwframe'), U('read', libc)], { key: 'kernelRead', frame: 'vfs_read' }],
    // the reader waiting on an empty pipe is switching, whatever called the wait
    [[K('finish_task_switch.isra.0'), K('__schedule'), K('schedule'), K('anon_pipe_read'), K('vfs_read')],
      { key: 'switching', frame: 'scheduler, in read(2)' }],
    [[K('finish_task_switch.isra.0'), K('__schedule'), K('schedule'), K('exit_to_user_mode_loop')],
      { key: 'switching', frame: 'scheduler' }],
    // switched on the way back from a read: the feeder's turn; from a futex the runtime's
    // code made to wake another of its threads: that hand-off, the runtime's (a review)
    [[K('finish_task_switch.isra.0'), K('__schedule'), K('schedule'), K('exit_to_user_mode_loop'),
      U('read', libc), U('main', '/work/main/build/wc-c')], { key: 'switching', frame: 'scheduler' }, C_READER],
    [[K('finish_task_switch.isra.0'), K('__schedule'), K('schedule'), K('exit_to_user_mode_loop'),
      U('syscall', libc), U('futures_task::waker::wake_by_ref_arc_raw', '/w/build/wasmer/bin/wasmer')],
    { key: 'binding', frame: 'scheduler, after a syscall' }, { binary: 'wasmer', native: false }],
    [[K('do_syscall_64'), K('entry_SYSCALL_64_after_hwframe'), U('read', 'libc.so.6')],
      { key: 'entryExit', frame: 'do_syscall_64' }],
    [[K('do_madvise'), K('__x64_sys_madvise'), K('do_syscall_64')], { key: 'other', frame: 'syscall madvise' }],
    // another syscall, charged to the runtime's code that made it past libc's wrapper (a
    // review: a WASI host's futex hand-off went to "everything else")
    [[K('futex_wake'), K('__x64_sys_futex'), K('do_syscall_64'), U('syscall', libc),
      U('std::sys::sync::mutex::futex::Mutex::wake', '/w/build/wasmer/bin/wasmer')],
    { key: 'binding', frame: 'syscall futex' }, { binary: 'wasmer', native: false }],
    // unwound no further than libc's wrapper: a runtime's own native code made it
    [[K('futex_wake'), K('__x64_sys_futex'), K('do_syscall_64'), U('syscall', libc)],
      { key: 'binding', frame: 'syscall futex' }, { binary: 'wasmer', native: false }],
    [[K('futex_wake'), K('__x64_sys_futex'), K('do_syscall_64'), U('syscall', libc)],
      { key: 'other', frame: 'syscall futex' }, C_READER],
    [[K('do_madvise'), K('__x64_sys_madvise'), K('do_syscall_64'), U('madvise', libc),
      U('v8::internal::MemoryAllocator::Free')], { key: 'gc', frame: 'syscall madvise' }],
    [[K('do_mmap'), K('__x64_sys_mmap'), K('do_syscall_64'), U('mmap64', libc),
      U('v8::internal::JSArrayBuffer::Allocate')], { key: 'buffer', frame: 'syscall mmap' }],
    [[K('do_epoll_wait'), K('__x64_sys_epoll_wait'), K('do_syscall_64'), U('epoll_wait', libc), U('uv__io_poll')],
      { key: 'binding', frame: 'syscall epoll_wait' }],
    [[K('clear_page_erms'), K('exc_page_fault'), K('asm_exc_page_fault')],
      { key: 'other', frame: 'kernel: asm_exc_page_fault' }],
    [[U('read', libc), U('uv__fs_work')], { key: 'entryExit', frame: 'read' }],
    // strcmp says nothing: its caller, Node's tracing check, is the binding's
    [[U('__strcmp_evex', 'libc.so.6'), U(tracing), U('node::fs::Read')], { key: 'binding', frame: tracing }],
    [[U('v8::internal::Scavenger::Process'), U('v8::internal::Heap::Scavenge')], 'gc'],
    // the collectors by their classes, not whatever starts with Heap (a review)
    [[U('v8::internal::HeapObject::SizeFromMap'), U('node::fs::Read')],
      { key: 'binding', frame: 'v8::internal::HeapObject::SizeFromMap' }],
    [[U('v8::internal::Sweeper::RawSweep'), U('v8::platform::DefaultJobWorker::Run')], 'gc'],
    [[U('v8::internal::MainMarkingVisitor<v8::internal::MarkingState>::VisitPointers')], 'gc'],
    [[U('v8::internal::ArrayBufferSweeper::Finish')], 'gc'],
    // work on a syscall's way out with no handler under it: entry and exit (a review: rseq's
    // notification, 200 ns of a wasmer read, went to "everything else")
    [[K('__rseq_handle_notify_resume'), K('exit_to_user_mode_loop'), K('syscall_exit_to_user_mode'),
      K('do_syscall_64'), K('entry_SYSCALL_64_after_hwframe')],
    { key: 'entryExit', frame: '__rseq_handle_notify_resume' }],
    [[K('__seccomp_filter'), K('syscall_trace_enter'), K('do_syscall_64'), K('entry_SYSCALL_64_after_hwframe')],
      'entryExit'],
    // Debian's liburing, stripped: the ring's wrapper (a review: 33 ns of c-uring's read in "other")
    [[U('[unknown]', '/usr/lib/x86_64-linux-gnu/liburing.so.2.3'), U('main', '/work/main/build/wc-c-uring')],
      { key: 'entryExit', frame: '[unknown] (liburing)' }, { binary: 'wc-c-uring', native: true }],
    [[U('v8::internal::JSTypedArray::GetBuffer'), U('node::fs::Read')], 'buffer'],
    [[U(js, '/tmp/perf-1.map')], { key: 'loop', frame: js }],
    [[U('Builtins_LoadIC')], 'loop'],
    // the runtime's own JavaScript, by its script, is its side of the call: Node's FFI checks
    // (a review: node-ffi's loop was mostly them), Deno's readSync; a builtin is whose
    // JavaScript called it
    [[U(fastApi, '/tmp/perf-1.map'), U(js, '/tmp/perf-1.map')], { key: 'binding', frame: fastApi }],
    [[U(denoRead, '/tmp/perf-1.map'), U('Script:~ file:///w/wc/deno-sync.js:1:1', '/tmp/perf-1.map')],
      { key: 'binding', frame: denoRead }, { binary: 'deno', native: false }],
    [[U('Builtins_LoadIC'), U(fastApi, '/tmp/perf-1.map'), U(js, '/tmp/perf-1.map')],
      { key: 'binding', frame: 'Builtins_LoadIC' }],
    [[U('Builtins_LoadIC'), U(js, '/tmp/perf-1.map'), U(fastApi, '/tmp/perf-1.map')],
      { key: 'loop', frame: 'Builtins_LoadIC' }],
    // a WebAssembly module's code is the reader's loop compiled, though node:wasi started it;
    // V8's wrapper out of it to an import goes with it, the import (Deno's WASI) the runtime's
    [[U('JS:wasm-function[9]-9-liftoff', '/tmp/perf-1.map'), U(nodeWasi, '/tmp/perf-1.map')],
      { key: 'loop', frame: 'JS:wasm-function[9]-9-liftoff' }],
    [[U('JS:wasm-to-js-<anonymous>-none', '/tmp/perf-1.map'),
      U('JS:wasm-function[15]-15-turbofan', '/tmp/perf-1.map'), U(nodeWasi, '/tmp/perf-1.map')],
    { key: 'loop', frame: 'JS:wasm-to-js-<anonymous>-none' }],
    [[U(denoWasi, '/tmp/perf-1.map'), U('JS:wasm-to-js-<anonymous>-none', '/tmp/perf-1.map'),
      U('JS:wasm-function[15]-15-turbofan', '/tmp/perf-1.map')], { key: 'binding', frame: denoWasi },
    { binary: 'deno', native: false }],
    // a wait in an event loop's poll is the pipe empty; a wait in a futex, a runtime's threads
    // handing a read over, is the runtime's (a review: wasmer's were "the feeder's turn")
    [[K('finish_task_switch.isra.0'), K('__schedule'), K('schedule_hrtimeout_range'), K('do_epoll_wait'),
      K('__x64_sys_epoll_wait'), K('do_syscall_64'), U('epoll_wait', libc), U('uv__io_poll')],
    { key: 'switching', frame: 'scheduler, in epoll_wait' }],
    [[K('finish_task_switch.isra.0'), K('__schedule'), K('schedule'), K('futex_wait_queue'),
      K('__x64_sys_futex'), K('do_syscall_64'), U('syscall', libc),
      U('tokio::runtime::park::Inner::park', '/w/build/wasmer/bin/wasmer')],
    { key: 'binding', frame: 'syscall futex, scheduler' }, { binary: 'wasmer', native: false }],
    [[U('Builtins_CallApiCallbackOptimizedNoProfiling')], 'binding'],
    // C's own binary is its loop, not a runtime's binding
    [[U('main', '/work/main/build/wc-c')], { key: 'loop', frame: 'main' }, C_READER],
    [[U('[unknown]', '[unknown]')], { key: 'other', frame: 'unknown frames' }],
    // a stripped runtime's own code is its binding, not the JavaScript that called it
    [[U('[unknown]', '/w/deno/deno'), U('[unknown]', '/w/deno/deno'), U(js, '/tmp/perf-1.map')],
      { key: 'binding', frame: '[unknown] (deno)' }, { binary: 'deno', native: false }],
    // and in its stripped library: the host's libnode, wasmtime's (a review)
    [[U('[unknown]', '/usr/lib/x86_64-linux-gnu/libnode.so.108'), U(js, '/tmp/perf-1.map')],
      { key: 'binding', frame: '[unknown] (libnode.so.108)' }, { binary: 'just-host', native: false }],
    // a WebAssembly host's code that carries out WASI's calls is its binding; the module's
    // compiled code, named by wasmtime's perf map, its loop
    [[U('<wasmtime_wasi::cli::worker_thread_stdin::WasiStdin as InputStream>::read', '_libwasmtime.so')],
      'binding', { binary: 'python3', native: false }],
    [[U('<bytes::bytes_mut::BytesMut>::split_to', '/w/build/wasmtime-py/wasmtime/linux-x86_64/_libwasmtime.so')],
      'binding', { binary: 'python3', native: false }],
    [[U('wasm[0]::function[12]', '/tmp/perf-7.map')], 'loop', { binary: 'python3', native: false }]
  ]
  for (const [stack, expected, reader = NODE] of cases) {
    const bucket = bucketOf(stack, reader)
    const leaf = stack[0].symbol
    if (typeof expected === 'string') assert.equal(bucket.key, expected, leaf)
    else assert.deepEqual(bucket, expected, leaf)
  }
})

test('the read loop\'s window cuts start-up and exit: from the first read of stdin to the last', () => {
  const samples = fixture('node-sync-256')
  const window = readWindow(samples)
  assert.ok(window.length > 200 && window.length < samples.length, `${window.length} of ${samples.length}`)
  const isRead = sample => sample.frames.some(frame => frame.symbol === 'vfs_read' || frame.symbol === 'ksys_read')
  assert.ok(isRead(window[0]) && isRead(window.at(-1)))
  assert.ok(!samples.slice(0, samples.indexOf(window[0])).some(isRead), 'no read before the window')
  assert.deepEqual(readWindow([{ timeS: 1, frames: [U('main', 'wc-c')] }]), [])
})

test('C\'s read is the kernel\'s and the syscall\'s: no binding, no GC, little else', () => {
  const { samples, buckets } = attribute(fixture('c-256'), { binary: 'wc-c', native: true })
  assert.equal(samples, 440)
  assert.deepEqual(Object.keys(buckets), BUCKETS.map(bucket => bucket.key))
  assert.equal(Object.values(buckets).reduce((sum, bucket) => sum + bucket.samples, 0), samples)
  assert.ok(buckets.kernelRead.share > 0.6, `kernel ${buckets.kernelRead.share}`)
  assert.ok(buckets.entryExit.share > 0.1)
  assert.equal(buckets.binding.samples + buckets.gc.samples + buckets.buffer.samples, 0)
  assert.ok(buckets.other.share < 0.05)
  assert.equal(buckets.kernelRead.top[0][0], 'vfs_read')
})

test('node-sync\'s read: Node\'s fs binding, its JavaScript from V8\'s perf map, the buffer\'s checks', () => {
  const { buckets } = attribute(fixture('node-sync-256'), NODE)
  assert.ok(buckets.binding.share > 0.1, `binding ${buckets.binding.share}`)
  assert.equal(buckets.binding.top[0][0], 'node::fs::Read')
  assert.ok(buckets.loop.top.some(([frame]) => frame.startsWith('JS:')), 'JavaScript named by the perf map')
  assert.ok(buckets.buffer.samples > 0)
  const named = Object.entries(buckets).filter(([key]) => key !== 'other')
    .reduce((sum, [, bucket]) => sum + bucket.samples, 0)
  assert.ok(buckets.other.samples / (named + buckets.other.samples) < 0.05, 'almost every sample named')
})

test('bun-ffi\'s read: its loop JSC\'s FTL code, named by its jitdump; its stripped binary the binding', () => {
  const { samples, buckets, unnamed } = attribute(fixture('bun-ffi-256'), { binary: 'bun.exe', native: false })
  assert.equal(samples, 683)
  assert.deepEqual(buckets.loop.top[0], ['JSC-FTL: count#CNuZhZ', 12])
  assert.deepEqual(buckets.binding.top, [['[unknown] (bun.exe)', 2]])
  assert.deepEqual(unnamed, { samples: 2, share: 2 / 683, top: [['bun.exe', 2]] })
  assert.ok(buckets.kernelRead.share > 0.7)
})

test('deno-sync\'s read: its op in Deno\'s stripped binary the binding, its JavaScript named by V8\'s map', () => {
  const { samples, buckets, unnamed } = attribute(fixture('deno-sync-256'), { binary: 'deno', native: false })
  assert.equal(samples, 486)
  assert.deepEqual(buckets.binding.top, [['[unknown] (deno)', 64]])
  assert.deepEqual(unnamed, { samples: 64, share: 64 / 486, top: [['deno', 64]] })
  assert.ok(buckets.loop.top[0][0].startsWith('JS:o* file:///'), 'the loop, named by the map')
  assert.equal(buckets.gc.samples + buckets.other.samples, 1)
})

// wasmtime from PyPI's wheel, run by python3 (wc/wasi.py): its JIT's code named by its perf
// map, a precompiled module's (wasmtime-aot, a .cwasm) by the module file's own symbol table,
// which perf reads as it would a library's. Either is the module's own code: the reader's loop.
const WASMTIME = { binary: 'python3.11', native: false }
test('wasmtime\'s read: the module\'s code the loop, from its perf map or its .cwasm; its Rust the binding', () => {
  for (const [name, dso] of [['wasmtime-256', /^\/tmp\/perf-\d+\.map$/], ['wasmtime-aot-256', /\/wc\.cwasm$/]]) {
    const samples = fixture(name)
    const { buckets } = attribute(samples, WASMTIME)
    const loop = buckets.loop.top.map(([frame]) => frame)
    const moduleCode = /^(wasm\[0\]::|signatures\[\d+\]::)/
    assert.ok(loop.length > 0 && loop.every(frame => moduleCode.test(frame)), `${name}: ${loop}`)
    assert.ok(buckets.loop.share > 0.03, `${name}: loop ${buckets.loop.share}`)
    // where the module's functions are mapped from: the JIT's map, or the precompiled file
    const moduleFrames = samples.flatMap(sample => sample.frames)
      .filter(frame => /^wasm\[0\]::function/.test(frame.symbol))
    assert.ok(moduleFrames.length > 0 && moduleFrames.every(frame => dso.test(frame.dso)), name)
    // WASI's calls are wasmtime's Rust (its stdin worker's tokio too), in the wheel's library
    assert.ok(buckets.binding.share > 0.4, `${name}: binding ${buckets.binding.share}`)
    // (its own unnamed code there, and the syscalls it makes, its stdin worker's futex, and
    // the scheduler's time in them: its threads handing a read over, not the pipe empty)
    const wasmtimes = /wasmtime|tokio|^syscall \w+(, scheduler)?$|^scheduler, after a syscall$/
    assert.ok(buckets.binding.top.every(([frame]) => wasmtimes.test(frame)), JSON.stringify(buckets.binding.top))
    assert.equal(buckets.kernelRead.top[0][0], 'vfs_read')
  }
})

// A jitdump of records built here: a code load (its name, then code bytes), a move.
function jitdump (records, pid = 42) {
  const header = Buffer.alloc(40)
  header.writeUInt32LE(0x4A695444, 0)
  header.writeUInt32LE(1, 4)
  header.writeUInt32LE(40, 8)
  header.writeUInt32LE(pid, 20)
  const record = ({ move, start, size = 0x10, name = '', index, to }) => {
    const body = Buffer.alloc(move ? 48 : 40 + name.length + 1 + size)
    body.writeBigUInt64LE(BigInt(index), move ? 40 : 32)
    body.writeBigUInt64LE(BigInt(start), 16) // a load's address, or where a move is from
    if (move) body.writeBigUInt64LE(BigInt(to), 24)
    else {
      body.writeBigUInt64LE(BigInt(size), 24)
      body.write(name, 40)
    }
    const head = Buffer.alloc(16)
    head.writeUInt32LE(move ? 1 : 0, 0)
    head.writeUInt32LE(16 + body.length, 4)
    return Buffer.concat([head, body])
  }
  return Buffer.concat([header, ...records.map(record)])
}

test('a jitdump read back: the code loaded at its end, each range\'s latest load, moves followed', () => {
  const recorded = readJitdump(zlib.gunzipSync(fs.readFileSync(path.join(FIXTURES, 'bun-ffi-256.jit.dump.gz'))))
  assert.equal(recorded.pid, 15508)
  assert.equal(recorded.code.length, 111)
  assert.deepEqual(recorded.code.filter(code => code.name.includes('count#')).map(code => code.name.split(':')[0]),
    ['JSC-Baseline', 'JSC-DFG', 'JSC-FTL', 'JSC-FTL'])
  const built = readJitdump(jitdump([
    { start: 0x1000, name: 'a', index: 1 },
    { start: 0x2000, name: 'b', index: 2 },
    { start: 0x1008, name: 'c', index: 3 }, // a's memory used again
    { move: true, start: 0x2000, to: 0x3000, index: 2 }
  ]))
  assert.deepEqual(built, {
    pid: 42,
    code: [{ start: 0x3000n, size: 0x10n, name: 'b' }, { start: 0x1008n, size: 0x10n, name: 'c' }]
  })
  // code moved onto another's memory leaves only the moved code there
  const onto = readJitdump(jitdump([
    { start: 0x1000, name: 'a', index: 1 },
    { start: 0x2000, name: 'b', index: 2 },
    { move: true, start: 0x1000, to: 0x2008, index: 1 }
  ]))
  assert.deepEqual(onto.code, [{ start: 0x2008n, size: 0x10n, name: 'a' }])
  // a writer stopped in the middle of a record leaves what it finished
  const whole = jitdump([{ start: 0x1000, name: 'a', index: 1 }, { start: 0x2000, name: 'b', index: 2 }])
  assert.deepEqual(readJitdump(whole.subarray(0, whole.length - 5)).code.map(code => code.name), ['a'])
  // a record whose size is too short for its fields, or whose name runs past it, ends the reading
  const short = Buffer.from(whole)
  short.writeUInt32LE(16 + 30, 40 + 4)
  assert.deepEqual(readJitdump(short).code, [])
  const unended = jitdump([{ start: 0x1000, name: 'a', index: 1 }])
  unended.fill(0x61, 40 + 16 + 40)
  assert.deepEqual(readJitdump(unended).code, [])
  assert.throws(() => readJitdump(Buffer.alloc(64)), /not a little-endian jitdump/)
})

test('jitdumps as perf maps: one per process, an earlier process\'s map of the pid replaced', t => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jitdump-'))
  const pids = [4000000 + process.pid % 100000, 4100000 + process.pid % 100000]
  t.after(() => {
    fs.rmSync(dir, { recursive: true, force: true })
    for (const pid of pids) fs.rmSync(`/tmp/perf-${pid}.map`, { force: true })
  })
  const load = { start: 0xabc0, size: 0x20, name: 'JSC-FTL: f', index: 1 }
  fs.writeFileSync(path.join(dir, `jit-7-${pids[0]}.dump`), jitdump([load], pids[0]))
  fs.writeFileSync(path.join(dir, `jit-8-${pids[1]}.dump`), jitdump([{ start: 0x10, name: 'g', index: 1 }], pids[1]))
  fs.writeFileSync(`/tmp/perf-${pids[1]}.map`, 'a stale line\n')
  fs.writeFileSync(path.join(dir, 'isolate-0x1-v8.log'), '')
  assert.deepEqual(perfMapsFromJitdumps(dir).sort(), pids.map(pid => `/tmp/perf-${pid}.map`))
  assert.equal(fs.readFileSync(`/tmp/perf-${pids[0]}.map`, 'utf8'), 'abc0 20 JSC-FTL: f\n')
  assert.equal(fs.readFileSync(`/tmp/perf-${pids[1]}.map`, 'utf8'), '10 10 g\n')
  // a dump that cannot be read takes the maps written before it with it
  for (const pid of pids) fs.rmSync(`/tmp/perf-${pid}.map`)
  fs.writeFileSync(path.join(dir, 'jit-9-9.dump'), Buffer.alloc(64))
  assert.throws(() => perfMapsFromJitdumps(dir), /not a little-endian jitdump/)
  assert.deepEqual(pids.filter(pid => fs.existsSync(`/tmp/perf-${pid}.map`)), [])
})

test('against the ladder: a reader\'s binding and loop over C\'s, against its no-op call over C\'s', () => {
  const { ladderCheck } = require('../../experiments/stdio/profile')
  const cellOf = (program, binding, loop) => ({ program, buckets: { binding: { ns: binding }, loop: { ns: loop } } })
  const c = cellOf('c', 0, 8)
  const rung = (variant, ns, boundary) => ({ variant, boundary, rungs: { noop: { estimate: ns } } })
  const ladder = [rung('c', 3, 'a direct call'), rung('node-ffi', 30, 'node:ffi'), rung('bun-ffi', 2, 'bun:ffi'),
    rung('deno-sync', 5, 'Deno.dlopen'), rung('node-wasi', 26, 'node:wasi: args_sizes_get')]
  assert.deepEqual(ladderCheck(cellOf('node-ffi', 0, 130), c, ladder),
    { profiledNs: 122, ladderNs: 27, boundary: 'node:ffi', disagrees: true }, 'the read converts its buffer')
  assert.equal(ladderCheck(cellOf('node-ffi', 0, 40), c, ladder).disagrees, false, '32 against 27: within a fifth')
  assert.equal(ladderCheck(cellOf('bun-ffi', 3, 9), c, ladder).disagrees, false, '4 against −1: within 5 ns')
  assert.equal(ladderCheck(cellOf('bun-ffi', 3, 10), c, ladder).disagrees, true, '5 against −1')
  // a read that crosses another boundary than its namesake's no-op: Deno's op, a WASI call
  assert.equal(ladderCheck(cellOf('deno-sync', 0, 40), c, ladder), null, 'an op, not Deno.dlopen')
  assert.equal(ladderCheck(cellOf('node-wasi', 120, 40), c, ladder), null, 'fd_read, not args_sizes_get')
  assert.equal(ladderCheck(cellOf('just-fast', 5, 8), c, ladder), null, 'no such variant in this ladder')
  assert.equal(ladderCheck(c, c, ladder), null, 'C against itself')
  // a ladder with each variant's ns over the C beside it takes that difference, not the
  // difference of the medians of processes that ran apart
  const paired = ladder.map(row => row.variant === 'node-ffi' ? { ...row, overC: { noop: { estimate: 29 } } } : row)
  assert.equal(ladderCheck(cellOf('node-ffi', 0, 130), c, paired).ladderNs, 29)
})

// lib/perf.js's probe in a process of its own, which reads PERF= as it loads
function probeWithPerf (perf) {
  const code = 'console.log(JSON.stringify(require("./lib/perf").probePerf()))'
  const probe = spawnSync(process.execPath, ['-e', code],
    { cwd: path.join(__dirname, '..', '..'), env: { ...process.env, PERF: perf }, encoding: 'utf8' })
  assert.equal(probe.status, 0, probe.stderr)
  return JSON.parse(probe.stdout)
}

test('perf missing: one line that names the fix', () => {
  const answer = probeWithPerf('/nowhere/perf')
  assert.equal(answer.available, false)
  assert.match(answer.reason, /^\/nowhere\/perf is not installed: apt-get install linux-perf/)
  assert.ok(!answer.reason.includes('\n'))
})

test('perf refused: the line after perf\'s "Error:" says why, under seccomp and at paranoid 4', () => {
  const { refusalReason } = require('../../lib/perf')
  const said = name => fs.readFileSync(path.join(FIXTURES, `refused-${name}.txt`), 'utf8')
  // recorded on the lab's VM under test/fixtures/seccomp-deny.c perf: perf's failed tries come first
  assert.equal(refusalReason(said('seccomp'), 255), 'No permission to enable cpu-clock event.')
  // as perf prints it where kernel.perf_event_paranoid is above 2 (Debian's kernels)
  assert.equal(refusalReason(said('paranoid'), 255),
    'Access to performance monitoring and observability operations is limited.')
  assert.equal(refusalReason('perf: some other trouble\n', 1), 'perf: some other trouble')
  assert.equal(refusalReason('', 139), 'exit 139')
})

// `perf evlist -v` of a probe's recording, recorded on the lab's VM: as root, and as an
// unprivileged user at kernel.perf_event_paranoid 2, where perf quietly asked for cpu-clock:u
test('perf that left the kernel out of its events is told apart from perf that kept it', () => {
  const { excludesKernel } = require('../../lib/perf')
  const said = name => fs.readFileSync(path.join(FIXTURES, `evlist-${name}.txt`), 'utf8')
  assert.equal(excludesKernel(said('user-only')), true)
  assert.equal(excludesKernel(said('kernel-too')), false)
  const keptOnPurpose = said('kernel-too').replace('exclude_guest: 1', 'exclude_guest: 1, exclude_kernel: 0')
  assert.equal(excludesKernel(keptOnPurpose), false)
  // a side-band event of newer perf's, in user space only, beside a cpu-clock that keeps the kernel
  const sideBand = 'dummy:u: type: 1, size: 128, exclude_kernel: 1, exclude_hv: 1, mmap: 1\n'
  assert.equal(excludesKernel(said('kernel-too') + sideBand), false)
})

// The probe whole, root or not: a stand-in perf (PERF=) answers as the real one did on the
// lab's VM, refusing, recording cpu-clock:u quietly, or keeping the kernel
test('perf\'s probe: a refusal, a user-space-only recording and a good one, each told as such', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-fake-perf-'))
  try {
    const probeWith = (recordExit, evlistFixture) => {
      const fake = path.join(dir, `perf-${recordExit}-${evlistFixture}`)
      const evlist = path.join(FIXTURES, `evlist-${evlistFixture}.txt`)
      fs.writeFileSync(fake, [
        '#!/bin/sh',
        'case "$1" in',
        '  --version) echo "perf version 6.1.192" ;;',
        `  record) [ ${recordExit} = 0 ] || { echo "Error:" >&2;`,
        `      echo "No permission to enable cpu-clock event." >&2; exit ${recordExit}; }`,
        '    while [ $# -gt 0 ] && [ "$1" != -o ]; do shift; done; echo data > "$2" ;;',
        `  evlist) cat '${evlist}' ;;`,
        'esac', ''].join('\n'), { mode: 0o755 })
      return probeWithPerf(fake)
    }
    const refused = probeWith(255, 'kernel-too')
    assert.equal(refused.available, false)
    assert.match(refused.reason, /^perf may not sample here \(No permission to enable cpu-clock event\.\): run as root/)
    const userOnly = probeWith(0, 'user-only')
    assert.equal(userOnly.available, false)
    assert.match(userOnly.reason, /^perf may sample user space only here \(kernel\.perf_event_paranoid is \S+, /)
    assert.match(userOnly.reason, /CAP_PERFMON \(CAP_SYS_ADMIN before Linux 5\.8\)/)
    for (const answer of [refused, userOnly]) assert.ok(!answer.reason.includes('\n'), answer.reason)
    assert.deepEqual(probeWith(0, 'kernel-too'), { available: true, version: 'perf version 6.1.192' })
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('the profile pass\'s plan: C and every honouring reader at the least size, SCHED_BATCH; none without perf', () => {
  const { parseOptions, plan } = require('../../bench')
  const { placementPlan } = require('../../lib/placement')
  const options = parseOptions(['--only', 'node-sync', '--only', 'coreutils', '--quick'])
  const selection = require('../../experiments/stdio').select(options, null)
  const probes = perf => ({ ptrace: { available: false }, bpf: { available: false }, perf })
  const placement = placementPlan([0, 1])
  const steps = plan(options, selection, probes({ available: true }), placement)
    .filter(step => step.phase.startsWith('profile'))
  // coreutils reads in its own chunks: no cost per read of a size, no profile; the readers'
  // order within a round is shuffled, a reader's two runs are side by side
  const pairs = steps.map(step => [step.phase, step.program.name, step.blockSize, step.run])
  assert.deepEqual([...pairs].sort(), [
    ['profile', 'c', 256, 0], ['profile', 'node-sync', 256, 0],
    ['profile-cpu', 'c', 256, 0], ['profile-cpu', 'node-sync', 256, 0]])
  assert.equal(steps[0].program, steps[1].program)
  assert.ok(steps.every(step => step.pin === placement.sharedBatch), 'dd on the reader\'s CPU, both at SCHED_BATCH')
  const unprofiled = steps.filter(step => step.phase === 'profile-cpu')
  assert.ok(unprofiled.every(step => step.sampleMs > 0), 'the unprofiled run sampled for its slope')
  // every reader's unprofiled run takes turns with C (--cost-pairing slices, the default); C's not
  assert.deepEqual(unprofiled.map(step => [step.program.name, step.partner?.name ?? null]).sort(),
    [['c', null], ['node-sync', 'c']])
  const rounds = parseOptions(['--only', 'node-sync', '--quick', '--cost-pairing', 'rounds'])
  assert.ok(plan(rounds, selection, probes({ available: true }), placement)
    .filter(step => step.phase === 'profile-cpu').every(step => !step.partner), 'or none, with rounds')
  assert.deepEqual(plan(options, selection, probes({ available: false, reason: 'no perf' }), placement)
    .filter(step => step.phase.startsWith('profile')), [])
  const skipped = parseOptions(['--only', 'node-sync', '--quick', '--no-profile'])
  const profiledSteps = plan(skipped, selection, probes({ available: true }), placement)
    .filter(step => step.phase.startsWith('profile'))
  assert.deepEqual(profiledSteps, [])
})

test('profile rounds: each reader\'s two runs in every round, which goes first alternating', () => {
  const { profileSteps } = require('../../experiments/stdio/profile')
  const programs = [{ name: 'c', honoursBlockSize: true }, { name: 'node-sync', honoursBlockSize: true },
    { name: 'coreutils', honoursBlockSize: false }]
  const where = { pin: { feeder: 0, reader: 1 }, bytes: 1 << 20, sampleMs: 1 }
  const steps = profileSteps({ costSizes: [4096, 256], profileRounds: 2 }, programs, where)
  assert.deepEqual(steps.map(step => [step.run, step.program.name, step.phase, step.blockSize]), [
    [0, 'c', 'profile', 256], [0, 'c', 'profile-cpu', 256],
    [0, 'node-sync', 'profile', 256], [0, 'node-sync', 'profile-cpu', 256],
    [1, 'c', 'profile-cpu', 256], [1, 'c', 'profile', 256],
    [1, 'node-sync', 'profile-cpu', 256], [1, 'node-sync', 'profile', 256]])
  assert.ok(steps.every(step => step.sampleMs === 1), 'both runs sampled: the profiled one for perf\'s own cost')
  assert.deepEqual(profileSteps({ costSizes: [], profileRounds: 2 }, programs, { pin: {}, bytes: 1, sampleMs: 1 }), [])
})

test('perf script\'s period: the CPU ns a sample stands for, null in texts without it', () => {
  const [sample] = parsePerfScript('wc-c 25865/25865 64007.878623:     200040 \n\t    164a2 main (/w/wc-c)\n')
  assert.deepEqual([sample.timeS, sample.periodNs, sample.frames],
    [64007.878623, 200040, [{ symbol: 'main', dso: '/w/wc-c' }]])
  assert.equal(fixture('c-256')[0].periodNs, null)
})

test('a window by time: the samples of the slope\'s span, on the clock perf was told to use', () => {
  const samples = fixture('c-256')
  const [from, to] = [samples[100].timeS, samples[200].timeS]
  const profile = attribute(samples, { binary: 'wc-c', native: true }, { fromNs: from * 1e9, toNs: to * 1e9 })
  assert.equal(profile.window, 'slope')
  assert.equal(profile.samples, samples.filter(sample => sample.timeS >= from && sample.timeS <= to).length)
  assert.equal(profile.periodNs, null, 'no periods in this older text')
  assert.equal(attribute(samples, { binary: 'wc-c', native: true }).window, 'reads')
})

test('the flame graph\'s tree: frames root first, as wide as their samples, coloured by whose code', () => {
  const { stackTree } = require('../../experiments/stdio/profile')
  const window = readWindow(fixture('node-sync-256'))
  const tree = stackTree(window, NODE, 1)
  // a frame's samples are at least its children's: the gap is its own
  const check = nodes => nodes.forEach(([name, samples, , , children]) => {
    assert.ok(children.reduce((sum, child) => sum + child[1], 0) <= samples, name)
    check(children)
  })
  check(tree)
  assert.equal(tree.reduce((sum, node) => sum + node[1], 0), window.length, 'every sample under one root or another')
  const find = (nodes, name) => nodes.flatMap(node => (node[0] === name ? [node] : find(node[4], name)))
  const bucket = name => BUCKETS[find(tree, name)[0][2]].key
  assert.equal(bucket('node::fs::Read'), 'binding')
  assert.equal(bucket('vfs_read'), 'kernelRead')
  assert.equal(find(tree, 'vfs_read')[0][3], 1, 'a kernel frame says so')
  assert.equal(find(tree, 'node::fs::Read')[0][3], 0)
  // a frame below the least samples is left out
  const pruned = stackTree(window, NODE, 20)
  const all = nodes => nodes.flatMap(node => [node, ...all(node[4])])
  assert.ok(all(pruned).every(node => node[1] >= 20) && all(pruned).length < all(tree).length)
})

test('against C: the kernel\'s frames by their path from the syscall, user frames by name', () => {
  const { againstC } = require('../../experiments/stdio/profile')
  // [name, ns, bucket, kernel, children]
  const pipeRead = ns => ['pipe_read', ns, 0, 1, []]
  const kernel = (ns, pipe) => ['entry_SYSCALL_64', ns, 1, 1, [['vfs_read', ns - 10, 0, 1, [pipeRead(pipe)]]]]
  const cTree = [['main', 300, 4, 0, [['read', 290, 1, 0, [kernel(280, 200)]]]]]
  const libcRead = ['read', 400, 1, 0, [kernel(390, 150)]]
  const nodeTree = [['node::Start', 800, 3, 0, [['node::fs::Read', 700, 3, 0, [libcRead]]]]]
  const { tree, shrank } = againstC(nodeTree, cTree)
  const change = (nodes, name) => nodes.flatMap(node => (node[0] === name ? [node[5]] : change(node[4], name)))
  assert.deepEqual(change(tree, 'node::fs::Read'), [700], 'a frame C has not: all of it grew')
  assert.deepEqual(change(tree, 'read'), [110], 'libc\'s read, by name under any caller')
  assert.deepEqual(change(tree, 'vfs_read'), [110])
  assert.deepEqual(change(tree, 'pipe_read'), [-50], 'the same kernel path, shrunk')
  assert.deepEqual(shrank, [['main', -300], ['pipe_read', -50]])
})

test('profile.json: a bucket\'s ns per read, its share times the unprofiled CPU per read, over rounds', () => {
  const { summariseProfile } = require('../../experiments/stdio/profile')
  const profile = attribute(fixture('c-256'), { binary: 'wc-c', native: true })
  // four rounds of C: the profiled run's own CPU per read (perf's cost) and the unprofiled one's
  const cpus = [250, 260, 240, 255]
  const records = cpus.flatMap((cpu, run) => [
    {
      ...{ phase: 'profile', program: 'c', blockSize: 256, run, ok: true },
      ...{ rawFile: `profile/c-256-${run + 1}.txt.gz`, profile, cpu: cpu + 30 }
    },
    { phase: 'profile-cpu', program: 'c', blockSize: 256, run, ok: true, cpu }
  ]).concat({
    phase: 'profile', program: 'node-sync', blockSize: 256, run: 0, ok: false, failure: 'perf sampled no read of stdin'
  })
  const tools = { slopePerRead: record => record.cpu, windowSpan: () => null, pairFigures: () => null }
  const { buckets, cells } = summariseProfile(records, tools)
  assert.deepEqual(buckets.map(bucket => bucket.key), BUCKETS.map(bucket => bucket.key))
  const [c, node] = cells
  assert.equal(c.ok, true)
  assert.equal(c.rounds, 4)
  assert.equal(c.cpuPerReadNs, 252.5, 'the median of the rounds')
  assert.deepEqual([c.cpuPerReadInterval.low, c.cpuPerReadInterval.high], [240, 260])
  assert.ok(c.cpuPerReadInterval.level > 0.87 && c.cpuPerReadInterval.level < 0.88, 'four rounds\' range: 87.5%')
  assert.equal(c.profilerCostNs, 30, 'perf\'s own cost: profiled against not, round by round')
  assert.equal(c.sampledShare, null, 'no periods, no span: nothing to say how much of the CPU the samples saw')
  assert.deepEqual(c.traceFiles, [1, 2, 3, 4].map(run => `profile/c-256-${run}.txt.gz`))
  for (const [key, bucket] of Object.entries(c.buckets)) {
    assert.ok(Math.abs(bucket.ns - profile.buckets[key].share * 252.5) < 1e-9, key)
  }
  // the ns per read in frames with no name: their share of the samples times the CPU per read
  assert.deepEqual(c.unnamed, { ns: 0, top: [] })
  const bun = attribute(fixture('bun-ffi-256'), { binary: 'bun.exe', native: false })
  const withBun = records.map(record => (record.profile ? { ...record, profile: bun } : record))
  const { unnamed } = summariseProfile(withBun, tools).cells[0]
  assert.ok(Math.abs(unnamed.ns - 2 / 683 * 252.5) < 1e-9, `${unnamed.ns}`)
  assert.deepEqual(unnamed.top, [['bun.exe', 8]], 'over the rounds')
  const total = Object.values(c.buckets).reduce((sum, bucket) => sum + bucket.ns, 0)
  assert.ok(Math.abs(total - 252.5) < 1e-9, 'the buckets add up to the CPU per read')
  const rootNs = c.tree.reduce((sum, node) => sum + node[1], 0)
  assert.ok(rootNs <= 252.5 + 0.05 && rootNs > 0.99 * 252.5, `the flame graph's roots add up to it too: ${rootNs}`)
  assert.deepEqual([node.ok, node.failure], [false, 'perf sampled no read of stdin'])
  // a profile without its unprofiled run has no ns to share out
  const profiledOnly = records.filter(record => record.phase === 'profile')
  const alone = summariseProfile(profiledOnly, { ...tools, slopePerRead: () => null }).cells[0]
  assert.deepEqual([alone.ok, alone.failure], [false, 'its round\'s unprofiled run failed, or gave no CPU per read'])
  // a run from before the pass counted samples with no name says nothing of them
  const before = records.map(record =>
    (record.profile ? { ...record, profile: { ...profile, unnamed: undefined } } : record))
  assert.equal(summariseProfile(before, tools).cells[0].unnamed, null)
})

test('what perf\'s samples saw: their periods against the CPU the run\'s clock counted in the same window', () => {
  const { summariseProfile } = require('../../experiments/stdio/profile')
  const profile = { ...attribute(fixture('c-256'), { binary: 'wc-c', native: true }), window: 'slope' }
  // a noisy round: the slope left the window's mean CPU per read (1,000 ns over 1,000 reads)
  // by a fifth, while perf's periods there add up to 990 µs, 99% of what the clock counted
  const records = [
    { phase: 'profile', program: 'c', blockSize: 256, run: 0, ok: true, profile: { ...profile, periodNs: 990e3 } },
    { phase: 'profile-cpu', program: 'c', blockSize: 256, run: 0, ok: true }
  ]
  const tools = {
    slopePerRead: record => (record.phase === 'profile' ? 1200 : 900),
    windowSpan: () => ({ fromNs: 0, toNs: 2e6, cpuNs: 1e6, reads: 1000 }),
    pairFigures: () => null
  }
  const [c] = summariseProfile(records, tools).cells
  assert.ok(Math.abs(c.sampledShare - 0.99) < 1e-12, `${c.sampledShare}`)
  assert.equal(c.profilerCostNs, 300, 'perf\'s cost stays slope against slope')
})

test('a helper thread whose stack names nothing is named by its thread: JSC\'s JITWorker; a GC helper\'s is GC', () => {
  const libc = '/usr/lib/x86_64-linux-gnu/libc.so.6'
  const unnamed = [U('[unknown]', '[unknown]'), U('start_thread', libc)]
  const sample = (comm, tid) => ({ comm, pid: 10, tid, timeS: 1, periodNs: 200000, frames: unnamed })
  const reading = { ...sample('bun', 10), frames: [K('vfs_read'), U('read', libc)] }
  const window = [reading, sample('JITWorker', 11), sample('HeapHelper', 12), sample('bun', 10), reading]
  const { buckets } = attribute(window,
    { binary: 'bun', native: false })
  assert.deepEqual(buckets.other.top, [['thread JITWorker', 1], ['start_thread (libc.so.6)', 1]],
    'the main thread\'s nameless stack stays as it is')
  assert.deepEqual(buckets.gc.top, [['thread HeapHelper', 1]])
  // in a stripped binary too: the helper's stack has no name but its file's
  const stripped = [U('[unknown]', '/w/bun.exe'), U('start_thread', libc)]
  const helper = { ...sample('JITWorker', 11), frames: stripped }
  const main = { ...sample('bun', 10), frames: stripped }
  const inBinary = attribute([reading, helper, main, reading], { binary: 'bun.exe', native: false }).buckets
  assert.deepEqual(inBinary.other.top, [['thread JITWorker', 1]])
  assert.deepEqual(inBinary.binding.top, [['[unknown] (bun.exe)', 1]])
})

test('a profile run\'s bytes: 0.2 s of the reader\'s CPU in the window, between 8 MiB and the cost run\'s', () => {
  const { profileBytes } = require('../../experiments/stdio/profile')
  const step = { blockSize: 256, bytes: 64 << 20 }
  assert.equal(profileBytes(step, null), 64 << 20, 'before the cost pass has measured it: the cost run\'s')
  assert.equal(profileBytes(step, 400), 64 << 20, 'C: more than the cost run would take')
  assert.equal(profileBytes(step, 10000), 8 << 20, 'wasmer: the least')
  const bytes = profileBytes(step, 1300)
  assert.ok(bytes > 8 << 20 && bytes < 64 << 20 && bytes % 65536 === 0)
  assert.ok(Math.abs(bytes / 256 * 0.68 * 1300e-9 - 0.2) < 0.001, 'a fifth of a second of the window')
  // --profile-ms 1000: five times the samples for every reader, the floor and the cap too
  const longer = profileBytes(step, 1300, 1)
  assert.ok(longer % 65536 === 0 && Math.abs(longer - 5 * bytes) <= 5 * 65536, `${longer} against ${5 * bytes}`)
  assert.equal(profileBytes(step, 400, 1), 5 * (64 << 20))
  assert.equal(profileBytes(step, 10000, 1), 5 * (8 << 20))
  assert.equal(profileBytes(step, null, 1), 5 * (64 << 20))
})

test('a profiled run\'s least reads: a 50-ns bucket within 5 ns by its samples, however slow the read', () => {
  const { profileBytes, profileLeastReads, PRECISION } = require('../../experiments/stdio/profile')
  const { proportionInterval } = require('../../lib/stats')
  const { FREQUENCY } = require('../../lib/perf')
  const least = profileLeastReads(4)
  // 421,770 reads a round over 4 rounds at 4,999 samples a second; fewer samples, more reads
  const at4999 = least * FREQUENCY / 4999
  assert.ok(at4999 > 415000 && at4999 < 430000, `${least} reads a round over 4 rounds at ${FREQUENCY} Hz`)
  assert.ok(Math.abs(profileLeastReads(1) - 4 * least) <= 4, 'one round reads what four do between them')
  // the interval it was set by: wasmer's read of 5.4 µs, a bucket of 50 ns, over 4 rounds
  for (const readNs of [200, 5400, 20000]) {
    const samples = Math.round(4 * least * readNs * FREQUENCY / 1e9)
    const sampled = proportionInterval(Math.round(samples * 50 / readNs), samples)
    const halfNs = Math.max(sampled.high - sampled.estimate, sampled.estimate - sampled.low) * readNs
    assert.ok(halfNs <= PRECISION.floorNs * 1.02, `${readNs} ns: ±${halfNs} ns`)
    // no more reads than that asks: a bucket that is a small share of the read is at the target
    if (readNs >= 5400) assert.ok(halfNs > PRECISION.floorNs * 0.95, `${readNs} ns: ±${halfNs} ns`)
  }
  const step = { blockSize: 256, bytes: 64 << 20 }
  // wasmer: the floor, not 600 ms of its CPU, as reads in the window (68% of the run), where
  // the samples are counted: the fewest whole 64 KiB blocks that hold them
  const floor = profileBytes(step, 5400, 0.6, least)
  const windowReads = bytes => bytes / 256 * 0.68
  assert.ok(windowReads(floor) >= least && windowReads(floor - 65536) < least, `${floor} bytes`)
  assert.equal(profileBytes(step, 195, 0.6, least), 3 * (64 << 20), 'C: the cap, as before')
  assert.equal(profileBytes(step, 5400, 0.6, 0), profileBytes(step, 5400, 0.6), 'no floor asked: as before')
  // the floor never passes the cap: one round of wasmer at 200 ms (--quick)
  assert.equal(profileBytes(step, 5400, 0.2, profileLeastReads(1)), 64 << 20)
  assert.equal(profileBytes(step, null, 0.6, least), 3 * (64 << 20), 'before the cost pass: the cap')
})

test('bench.js\'s lines for the profile pass: each reader\'s ns over C, the largest buckets first', () => {
  const { terminal } = require('../../experiments/stdio/report-text')
  const run = path.join(__dirname, '..', 'fixtures', 'profiled', 'profile-sample')
  const results = JSON.parse(fs.readFileSync(path.join(run, 'results.json'), 'utf8'))
  const lines = terminal(results, [256], run)
  const at = lines.findIndex(line => line.startsWith('Where a read\'s ns go at 256 B'))
  assert.ok(at > 0, 'the profile\'s table is printed')
  const rows = lines.slice(at + 2, at + 7).map(line => line.trim().split(/\s+/)[0])
  assert.deepEqual(rows, ['c', 'just-fast', 'bun-ffi', 'deno-sync', 'node-sync'], 'C, then by CPU per read')
  assert.match(lines[at + 6], /^node-sync .* \+\d+ binding \(node::fs::Read\)/)
  // then how sure its buckets are: this run has one round a reader, so only its samples say
  assert.match(lines[at + 7],
    /^How sure the buckets are, .*: one round a reader gives no range, .*; by perf's samples alone/)
  // then how to set the fast calls against a calls run's ladder
  assert.match(lines[at + 8],
    /^The binding's bucket of just-fast and bun-ffi is not set against .*--ladder CALLS-RUN\.$/)
  // a run without a profile pass prints none
  assert.ok(!terminal(results, [256], null).some(line => line.startsWith('Where a read')))
  // what the pass lost is said beneath it, and a reader of fewer rounds is named in the
  // title (a review: both were said on the page alone, the title giving C's count for all)
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'profile-lost-'))
  try {
    for (const file of fs.readdirSync(run)) fs.cpSync(path.join(run, file), path.join(copy, file), { recursive: true })
    const profile = JSON.parse(fs.readFileSync(path.join(copy, 'profile.json'), 'utf8'))
    const node = profile.cells.find(cell => cell.program === 'node-sync')
    Object.assign(node, { failedRounds: [{ run: 1, failure: 'perf sampled no read of stdin' }] })
    const bun = profile.cells.find(cell => cell.program === 'bun-ffi')
    Object.assign(bun, { rounds: 1 })
    const hung = { program: 'deno-ffi', blockSize: 256, ok: false, failure: 'it hung', failedRounds: [], rounds: 0 }
    profile.cells.push(hung)
    fs.writeFileSync(path.join(copy, 'profile.json'), JSON.stringify(profile))
    const said = terminal(results, [256], copy)
    // (a review: "median of 2 rounds" said of buckets that are shares of the rounds' pooled samples)
    const title = new RegExp('; 2 rounds \\(bun-ffi 1\\): a reader\'s CPU per read the median of its rounds\', ' +
      'a bucket its share of their samples times it;')
    assert.ok(said.some(line => title.test(line)), said.join('\n'))
    assert.ok(said.includes('Failed, no buckets: deno-ffi (it hung). Rounds that failed, left out of their ' +
      'reader\'s figures: node-sync\'s round 2 (perf sampled no read of stdin).'), said.join('\n'))
    // C's profile failed: nothing is over C, and what failed is said still (a review: it was
    // all left unsaid)
    Object.assign(profile.cells.find(cell => cell.program === 'c'), { ok: false, failure: 'perf was killed' })
    fs.writeFileSync(path.join(copy, 'profile.json'), JSON.stringify(profile))
    const withoutC = terminal(results, [256], copy)
    assert.ok(withoutC.includes('Where a read\'s ns go: no reader\'s buckets over C\'s, ' +
      'as C\'s profile has none. ' +
      'Failed, no buckets: c (perf was killed) and deno-ffi (it hung). Rounds that failed, left out of ' +
      'their reader\'s figures: node-sync\'s round 2 (perf sampled no read of stdin).'), withoutC.join('\n'))
  } finally {
    fs.rmSync(copy, { recursive: true, force: true })
  }
})

// A review: wasmtime-aot's +21 ns over C read "+233 binding; +32 buffer; +27 other", as if its
// read cost 292 ns more; what shrank (its kernel read, its way in and out) was left unsaid.
test('where a reader\'s ns over C\'s go: what grew most, the largest\'s frame, then what shrank most', () => {
  const { whereOverC } = require('../../experiments/stdio/report-text')
  const overC = {
    binding: 262, buffer: 32, other: 27, loop: 4, gc: 6, kernelRead: -176, entryExit: -97, switching: -30
  }
  const top = { binding: [['syscall futex, scheduler', 900]], kernelRead: [['vfs_read', 10]] }
  assert.equal(whereOverC(overC, top), '+262 binding (syscall futex, scheduler); +32 buffer; +27 other; ' +
    '−176 kernel read; −97 entry, exit')
  // a reader cheaper than C in every bucket that moved: no frame, its own top one no cause
  assert.equal(whereOverC({ kernelRead: -40, loop: 2 }, top), '−40 kernel read')
})

test('paced by C: each round\'s CPU per read against C\'s in its turns, at C\'s pace over the pass', () => {
  const { summariseProfile } = require('../../experiments/stdio/profile')
  const c = attribute(fixture('c-256'), { binary: 'wc-c', native: true })
  const node = attribute(fixture('node-sync-256'), NODE)
  // a host that slowed the second round by half: the reader's and C's turns alike
  const turns = [{ ns: 800, cNs: 400 }, { ns: 1200, cNs: 600 }]
  const records = [0, 1].flatMap(run => [
    { phase: 'profile', program: 'c', blockSize: 256, run, ok: true, profile: c, cpu: 450 },
    { phase: 'profile-cpu', program: 'c', blockSize: 256, run, ok: true, cpu: [400, 600][run] },
    { phase: 'profile', program: 'node-sync', blockSize: 256, run, ok: true, profile: node, cpu: 1300 },
    {
      phase: 'profile-cpu', program: 'node-sync', blockSize: 256, run, ok: true, partner: { ok: true }, turn: turns[run]
    }
  ])
  const tools = {
    slopePerRead: record => record.cpu ?? null, windowSpan: () => null, pairFigures: record => record.turn ?? null
  }
  const [cCell, nodeCell] = summariseProfile(records, tools).cells
  assert.equal(cCell.cpuPerReadNs, 500, 'C at the pace of its turns: their median')
  assert.deepEqual([nodeCell.cpuPerReadNs, nodeCell.pacedByC], [1000, true],
    'twice C\'s in both rounds: twice the pace')
  assert.equal(nodeCell.ownNs, 1000, 'as measured: 800 and 1200')
  assert.equal(nodeCell.profilerCostNs, 300, 'perf\'s cost against the runs as measured')
  assert.ok(Math.abs(nodeCell.buckets.binding.ns - node.buckets.binding.share * 1000) < 1e-9)
  // a reader the lab rejected is a failed cell, with the reason, and no buckets
  const refused = summariseProfile(records, tools, new Map([[`${nodeCell.program}\t${nodeCell.blockSize}`, 'its fast path was not taken']]))
  const refusedNode = refused.cells.find(cell => cell.program === nodeCell.program)
  assert.deepEqual([refusedNode.ok, refusedNode.failure, refusedNode.buckets], [false, 'its fast path was not taken', undefined])
  assert.equal(refused.cells.find(cell => cell.program === cCell.program).ok, true)
})

test('the buckets add up to the CPU per read: each its share of every round\'s samples', () => {
  const { summariseProfile } = require('../../experiments/stdio/profile')
  const c = attribute(fixture('c-256'), { binary: 'wc-c', native: true })
  const node = attribute(fixture('node-sync-256'), NODE)
  // two rounds whose samples split unlike each other: medians of buckets taken apart would
  // not add up
  const records = [[node, 900], [c, 1100]].flatMap(([profile, cpu], run) => [
    { phase: 'profile', program: 'node-sync', blockSize: 256, run, ok: true, profile, cpu: cpu + 100 },
    { phase: 'profile-cpu', program: 'node-sync', blockSize: 256, run, ok: true, cpu }
  ])
  const tools = { slopePerRead: record => record.cpu ?? null, windowSpan: () => null, pairFigures: () => null }
  const [cell] = summariseProfile(records, tools).cells
  assert.equal(cell.cpuPerReadNs, 1000)
  const sum = Object.values(cell.buckets).reduce((total, bucket) => total + bucket.ns, 0)
  assert.ok(Math.abs(sum - 1000) < 1e-9, `the buckets add up to ${sum}`)
  const pooled = (node.buckets.binding.samples + c.buckets.binding.samples) / (node.samples + c.samples)
  assert.ok(Math.abs(cell.buckets.binding.ns - pooled * 1000) < 1e-9)
  // a round whose unprofiled run is missing fails: another round's never stands in for it
  const lacking = summariseProfile(records.filter(record => !(record.phase === 'profile-cpu' && record.run === 1)), tools).cells[0]
  assert.deepEqual([lacking.rounds, lacking.cpuPerReadNs, lacking.failedRounds.map(round => round.run)], [1, 900, [1]])
})

test('a loop\'s samples in V8\'s slow API calls: node-sync\'s binding is one, C has none', () => {
  const { slowPathReason } = require('../../experiments/stdio/profile')
  const node = attribute(fixture('node-sync-256'), NODE)
  const c = attribute(fixture('c-256'), { binary: 'wc-c', native: true })
  // fs.readSync's binding is a C++ callback with no fast function: nearly every sample of its loop
  assert.ok(node.slowApiCalls.share > 0.5, JSON.stringify(node.slowApiCalls))
  assert.equal(node.slowApiCalls.countable, true, 'Node names its builtins')
  assert.deepEqual(c.slowApiCalls, { samples: 0, share: 0, countable: false })
  const records = profile => [{ phase: 'profile', program: 'x', blockSize: 256, run: 0, ok: true, profile }]
  assert.match(slowPathReason(records(node), 'x'),
    /^the profile pass found \d+\.\d% of the \d+ samples of its read loop in V8's slow API calls \(Builtins_CallApiCallback…\), over 5%: a slow call runs beside its fast one$/)
  assert.equal(slowPathReason(records(c), 'x'), null)
  // a profile from before the pass counted them says nothing
  assert.equal(slowPathReason(records({ ...node, slowApiCalls: undefined }), 'x'), null)
  // npm's Deno is stripped: no builtin named anywhere in its run, so a slow call could not be
  // seen, and the count says so rather than 0%
  const { slowApiShare, slowApiText } = require('../../experiments/stdio/profile')
  const deno = attribute(fixture('deno-sync-256'), { binary: 'deno', native: false })
  assert.deepEqual([deno.slowApiCalls.samples, deno.slowApiCalls.countable], [0, false])
  const denoShare = slowApiShare(records(deno), 'x')
  assert.equal(denoShare.countable, false)
  assert.match(slowApiText(denoShare), /^no V8 builtin named in its run \(a stripped binary\): slow API calls in its read loop could not be counted$/)
  // a round logged before it was kept is asked of its perf script text
  const older = records({ ...node, slowApiCalls: { samples: 0, share: 0 } })
  assert.equal(slowApiShare(older, 'x', () => 'node 1/1 1.0: 1\n  7f00 Builtins_JSEntry (node)\n').countable, true)
  assert.equal(slowApiShare(older, 'x', () => 'deno 1/1 1.0: 1\n  7f00 [unknown] (deno)\n').countable, false)
  assert.equal(slowApiShare(older, 'x').countable, null, 'no text: unknown')
})

test('how sure the buckets are: the rounds\' range and the samples alone, against a tenth or 5 ns', () => {
  const { bucketPrecision, profilePrecision } = require('../../experiments/stdio/profile')
  const { precisionText } = require('../../experiments/stdio/report-text')
  const bucket = (ns, low, high, samples) => ({ ns, interval: { low, high, level: 0.875 }, samples })
  // 10,000 samples of a read of 1,000 ns: a bucket's share p has a Wilson half-width of about
  // 1.96 √(p(1 − p) / 10,000), times 1,000 ns
  const steady = {
    program: 'node-sync',
    cpuPerReadNs: 1000,
    buckets: {
      kernelRead: bucket(500, 480, 530, 5000), // the rounds ±30 of a 50 ns target, the samples ±9.8
      binding: bucket(300, 250, 310, 3000), // the rounds −50 of 30: the rounds moved, the samples ±9
      loop: bucket(20, 15, 26, 200), // ±6 of 5 ns, and the samples ±2.7: the rounds moved
      gc: bucket(3, 0, 8, 120), // under the 5 ns floor: not counted
      other: bucket(177, 170, 180, 1680)
    }
  }
  const few = {
    program: 'wasmer',
    cpuPerReadNs: 10000,
    // 1,000 samples: a 40 ns bucket (p 0.004), Wilson's interval 16 to 102 ns, its wider side 62 ns;
    // 5 ns asks about (62 / 5)² times the samples
    buckets: { buffer: bucket(40, 38, 42, 4), other: bucket(9960, 9900, 9990, 996) }
  }
  const byKey = Object.fromEntries(bucketPrecision(steady).map(entry => [entry.key, entry]))
  assert.deepEqual(Object.keys(byKey), ['kernelRead', 'binding', 'loop', 'other'])
  assert.equal(byKey.kernelRead.targetNs, 50)
  assert.equal(byKey.kernelRead.roundsNs, 30)
  assert.equal(byKey.kernelRead.within, true)
  assert.ok(Math.abs(byKey.kernelRead.samplingNs - 9.8) < 0.2, byKey.kernelRead.samplingNs)
  assert.equal(byKey.binding.within, false)
  assert.equal(byKey.binding.samplingWithin, true)
  assert.equal(byKey.loop.targetNs, 5)
  assert.equal(byKey.loop.within, false)
  assert.equal(byKey.loop.samplesNeeded, null)
  const [buffer] = bucketPrecision(few)
  assert.equal(buffer.samplingWithin, false)
  // the half-width falls as the square root of the samples
  assert.ok(Math.abs(buffer.samplingNs - 62) < 1, buffer.samplingNs)
  assert.ok(Math.abs(buffer.samplesNeeded / 1000 - (buffer.samplingNs / 5) ** 2) < 1, buffer.samplesNeeded)

  const pass = profilePrecision([steady, few, { program: 'bun', ok: false, failure: 'crashed' }])
  assert.equal(pass.buckets, 6)
  assert.equal(pass.withRounds, 6)
  assert.equal(pass.within, 4)
  assert.equal(pass.samplingWithin, 5)
  assert.equal(pass.roundsMoved, 2)
  assert.deepEqual(pass.levels, [0.875])
  assert.deepEqual(pass.shortOfSamples.map(entry => `${entry.program} ${entry.key}`), ['wasmer buffer'])
  const text = precisionText(pass)
  assert.match(text, /by their rounds' range \(87\.5%\), 4 of the 6 buckets of 5 ns or more; by perf's samples alone/)
  assert.match(text, /Of the 2 the rounds miss, 2 hold by their samples/)
  const short = '1 bucket short of samples: wasmer\'s buffer (1,000 samples; about 160,000 would do).'
  assert.ok(text.endsWith(short), text)

  // one round a reader: no range, so nothing is known to hold by the rounds
  const noRange = { ns: 500, interval: null, samples: 5000 }
  const oneRound = profilePrecision([{ ...steady, buckets: { kernelRead: noRange } }])
  assert.equal(oneRound.withRounds, 0)
  assert.match(precisionText(oneRound), /one round a reader gives no range/)
  assert.equal(profilePrecision([]), null)
  assert.equal(precisionText(null), '')
})

test('the page says where each run\'s profile put dd: at SCHED_BATCH as recorded, else on the other CPU', () => {
  const { profilePlacement, profilePlacementText } = require('../../experiments/stdio/profile')
  const profilePin = { feeder: 1, reader: 1, policy: 'batch' }
  const batch = profilePlacement({ placement: { passes: { profile: profilePin } } })
  const apart = profilePlacement({ placement: { passes: { profile: { feeder: 0, reader: 1 } } } })
  assert.equal(batch.batch, true)
  assert.match(batch.why,
    /^dd on the reader's CPU, both at SCHED_BATCH, so that the reader is switched out once a pipe's worth/)
  assert.match(batch.why, /: its reads cost less than the headline's, whose switches they leave out$/)
  const bothBatch = profilePlacement({
    placement: { passes: { profile: profilePin } },
    costPin: { cpu: 1, policy: 'batch' }
  })
  assert.match(bothBatch.why, /: its reads are the headline's$/, '--cost-policy batch: the headline switches alike')
  assert.match(bothBatch.subtitle, /^one switch a pipe's worth: its reads are the headline's$/)
  assert.equal(apart.batch, false)
  assert.match(apart.why, /: its reads cost more than the headline's$/)
  assert.deepEqual(profilePlacement({}), apart, 'a run that recorded no placement ran before the change: apart')
  assert.equal(profilePlacementText([{ set: 'a', placement: batch }, { set: 'b', placement: batch }]), batch.why,
    'said once')
  const across = profilePlacementText([{ set: 'old', placement: apart }, { set: 'new', placement: batch }])
  assert.match(across, /^in old, dd on the other CPU: .*; in new, dd on the reader's CPU, both at SCHED_BATCH/)
})

// analyse.js --rederive attributes a run's profiles again from the perf script texts it
// kept, so that a rule mended later reaches a run measured before it
test('a profiled record attributed again from its kept perf script text; as it was without one', () => {
  const { reattributed } = require('../../experiments/stdio/profile')
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reattributed-'))
  try {
    fs.mkdirSync(path.join(runDir, 'profile'))
    fs.copyFileSync(path.join(FIXTURES, 'c-256.txt.gz'), path.join(runDir, 'profile', 'c-256-1.txt.gz'))
    const stale = { samples: 1, buckets: {} }
    const rawFile = 'profile/c-256-1.txt.gz'
    const record = { phase: 'profile', program: 'c', blockSize: 256, ok: true, rawFile, profile: stale }
    const again = reattributed(record, runDir, () => null)
    assert.deepEqual(again.profile, attribute(fixture('c-256'), { binary: 'wc-c', native: true }))
    assert.equal(record.profile, stale, 'the record read is left as it was')
    const gone = { ...record, rawFile: 'profile/none.txt.gz' }
    assert.equal(reattributed(gone, runDir, () => null), gone)
    const failed = { ...record, ok: false }
    assert.equal(reattributed(failed, runDir, () => null), failed)
    // a kept text cut short: one line naming it and the fix, nothing rewritten (a review: a
    // stack trace of zlib's, no file named)
    const whole = fs.readFileSync(path.join(runDir, rawFile))
    fs.writeFileSync(path.join(runDir, rawFile), whole.subarray(0, whole.length / 2))
    const named = `${path.basename(runDir)}/profile/c-256-1.txt.gz`
    assert.throws(() => reattributed(record, runDir, () => null), err => err instanceof UsageError &&
      err.message.startsWith(`${named} cannot be read (unexpected end of file): `) &&
      err.message.endsWith('to keep c\'s profiled run as it was attributed when measured'))
  } finally {
    fs.rmSync(runDir, { recursive: true, force: true })
  }
})

// The kernel pass's time inside read(2) counts the on-CPU part of a wait there, which the
// profile puts in switching: the check adds those waits to the kernel's bucket (a review: the
// bucket alone fell below the pass in 21 of 25 readers)
test('against the kernel pass: the kernel\'s bucket and the waits inside read(2), against eBPF\'s time there', () => {
  const { kernelCheck } = require('../../experiments/stdio/report-data')
  const cell = {
    program: 'node-sync',
    blockSize: 256,
    buckets: {
      kernelRead: { ns: 100 },
      switching: { ns: 30, top: [['scheduler, in read(2)', 20], ['scheduler', 10]] }
    }
  }
  const kernel = { cells: [{ program: 'node-sync', blockSize: 256, kernelNs: { estimate: 125 } }] }
  const check = kernelCheck(cell, kernel)
  assert.ok(Math.abs(check.ratio - 120 / 125) < 1e-9, String(check.ratio))
  // the waits it added, which the page's title names beside the bucket (a review: it said
  // "this bucket is 99% of it" where the bucket was 87%)
  assert.ok(Math.abs(check.waitNs - 20) < 1e-9, String(check.waitNs))
  assert.equal(check.disagrees, false)
  assert.equal(kernelCheck({ ...cell, program: 'c' }, kernel), null, 'no kernel pass for it')
})
