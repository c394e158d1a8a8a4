'use strict'
// Where a read's ns go (issue 50): perf script's text read back (lib/perf.js), and each
// sample put in the bucket its stack says (experiments/stdio/profile.js), on profiles recorded
// on the lab's VM (test/fixtures/perf: C's reader and node-sync at 256 B, dd on the other
// CPU, perf record -e cpu-clock -F 997 -g; node-sync with V8's --perf-basic-prof).
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')
const { spawnSync } = require('node:child_process')
const { parsePerfScript } = require('../../lib/perf')
const { BUCKETS, bucketOf, readWindow, attribute } = require('../../experiments/stdio/profile')

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
  const C_READER = { binary: 'wc-c', native: true }
  // [stack, leaf first; its bucket (a key alone, or { key, frame }); the reader, Node's by default]
  const cases = [
    [[K('_copy_to_iter'), K('anon_pipe_read'), K('vfs_read'), K('ksys_read'), K('do_syscall_64'),
      K('entry_SYSCALL_64_after_hwframe'), U('read', libc)], { key: 'kernelRead', frame: 'vfs_read' }],
    // the reader waiting on an empty pipe is switching, whatever called the wait
    [[K('finish_task_switch.isra.0'), K('__schedule'), K('schedule'), K('anon_pipe_read'), K('vfs_read')], 'switching'],
    [[K('do_syscall_64'), K('entry_SYSCALL_64_after_hwframe'), U('read', 'libc.so.6')],
      { key: 'entryExit', frame: 'do_syscall_64' }],
    [[K('do_madvise'), K('__x64_sys_madvise'), K('do_syscall_64')], { key: 'other', frame: 'syscall madvise' }],
    [[K('clear_page_erms'), K('exc_page_fault'), K('asm_exc_page_fault')],
      { key: 'other', frame: 'kernel: asm_exc_page_fault' }],
    [[U('read', libc), U('uv__fs_work')], { key: 'entryExit', frame: 'read' }],
    // strcmp says nothing: its caller, Node's tracing check, is the binding's
    [[U('__strcmp_evex', 'libc.so.6'), U(tracing), U('node::fs::Read')], { key: 'binding', frame: tracing }],
    [[U('v8::internal::Scavenger::Process'), U('v8::internal::Heap::Scavenge')], 'gc'],
    [[U('v8::internal::JSTypedArray::GetBuffer'), U('node::fs::Read')], 'buffer'],
    [[U(js, '/tmp/perf-1.map')], { key: 'loop', frame: js }],
    [[U('Builtins_LoadIC')], 'loop'],
    [[U('Builtins_CallApiCallbackOptimizedNoProfiling')], 'binding'],
    // C's own binary is its loop, not a runtime's binding
    [[U('main', '/work/main/build/wc-c')], { key: 'loop', frame: 'main' }, C_READER],
    [[U('[unknown]', '[unknown]')], { key: 'other', frame: 'unknown frames' }]
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

test('perf missing: one line that names the fix', () => {
  const probe = spawnSync(process.execPath, ['-e', 'console.log(JSON.stringify(require("./lib/perf").probePerf()))'],
    { cwd: path.join(__dirname, '..', '..'), env: { ...process.env, PERF: '/nowhere/perf' }, encoding: 'utf8' })
  const answer = JSON.parse(probe.stdout)
  assert.equal(answer.available, false)
  assert.match(answer.reason, /^\/nowhere\/perf is not installed: apt-get install linux-perf/)
  assert.ok(!answer.reason.includes('\n'))
})

test('the profile pass\'s plan: C and every honouring reader at the least cost size, dd apart; none without perf', () => {
  const { parseOptions, plan } = require('../../bench')
  const { placementPlan } = require('../../lib/placement')
  const options = parseOptions(['--only', 'node-sync', '--only', 'coreutils', '--quick'])
  const selection = require('../../experiments/stdio').select(options, null)
  const probes = perf => ({ ptrace: { available: false }, bpf: { available: false }, perf })
  const placement = placementPlan([0, 1])
  const steps = plan(options, selection, probes({ available: true }), placement)
    .filter(step => step.phase.startsWith('profile'))
  // coreutils reads in its own chunks: no cost per read of a size, no profile
  assert.deepEqual(steps.map(step => [step.phase, step.program.name, step.blockSize]), [
    ['profile', 'c', 256], ['profile-cpu', 'c', 256], ['profile', 'node-sync', 256], ['profile-cpu', 'node-sync', 256]])
  assert.ok(steps.every(step => step.pin.feeder !== step.pin.reader), 'dd on the other CPU')
  const unprofiled = steps.filter(step => step.phase === 'profile-cpu')
  assert.ok(unprofiled.every(step => step.sampleMs > 0), 'the unprofiled run sampled for its slope')
  assert.deepEqual(plan(options, selection, probes({ available: false, reason: 'no perf' }), placement)
    .filter(step => step.phase.startsWith('profile')), [])
  const skipped = parseOptions(['--only', 'node-sync', '--quick', '--no-profile'])
  const profiledSteps = plan(skipped, selection, probes({ available: true }), placement)
    .filter(step => step.phase.startsWith('profile'))
  assert.deepEqual(profiledSteps, [])
})

test('profile.json: each bucket\'s ns per read is its share times the unprofiled run\'s CPU per read', () => {
  const { summariseProfile } = require('../../experiments/stdio/profile')
  const profile = attribute(fixture('c-256'), { binary: 'wc-c', native: true })
  const records = [
    { phase: 'profile', program: 'c', blockSize: 256, ok: true, rawFile: 'profile/c-256.txt.gz', profile },
    { phase: 'profile-cpu', program: 'c', blockSize: 256, ok: true, cpu: 250 },
    { phase: 'profile', program: 'node-sync', blockSize: 256, ok: false, failure: 'perf sampled no read of stdin' }
  ]
  const { buckets, cells } = summariseProfile(records, record => record.cpu)
  assert.deepEqual(buckets.map(bucket => bucket.key), BUCKETS.map(bucket => bucket.key))
  const [c, node] = cells
  assert.equal(c.ok, true)
  assert.equal(c.cpuPerReadNs, 250)
  for (const [key, bucket] of Object.entries(c.buckets)) assert.equal(bucket.ns, profile.buckets[key].share * 250, key)
  const total = Object.values(c.buckets).reduce((sum, bucket) => sum + bucket.ns, 0)
  assert.ok(Math.abs(total - 250) < 1e-9, 'the buckets add up to the CPU per read')
  assert.deepEqual([node.ok, node.failure], [false, 'perf sampled no read of stdin'])
  // a profile without its unprofiled run has no ns to share out
  const alone = summariseProfile(records.filter(record => record.phase === 'profile'), () => 1).cells[0]
  assert.deepEqual([alone.ok, alone.failure], [false, 'its unprofiled run gave no CPU per read'])
})
