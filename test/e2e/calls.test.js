'use strict'
// The call ladder (calls/) for real: every ladder answers right over a real pipe, a
// ladder that misbehaves is a failed run; bench.js --experiment calls refuses what it
// cannot do, lists its variants, and measures a tiny ladder through to its report.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { bench, assertRefused, TINY_LADDER: TINY } = require('../helpers')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const zlib = require('node:zlib')
const { spawnSync } = require('node:child_process')

const calls = require('../../experiments/calls/ladder')
const { sharedCpuPin, shellQuote } = require('../../lib/pipeline')
const { optionalMissing, runtimes } = require('../../lib/runtimes')
const { BUILD } = require('../../lib/paths')

const OPTIONS = { ladder: TINY, timeoutSeconds: 60 }

const step = variant => ({ phase: calls.PHASE, program: variant, variant, run: 0, pin: sharedCpuPin() })

// A runtime only an optional set-up installs (wasmer: ./setup.sh --wasm) skips its
// variants, with the reason; every other variant must run.
function skipReason (variant) {
  const reason = calls.unavailableReason(variant)
  if (reason && optionalMissing(variant.runtime)) return reason
  if (reason) assert.fail(`${variant.name} cannot run: ${reason}`)
  return null
}

// What a ladder says of its loops' code: C's is native; a WebAssembly module's tier is its
// host's to choose, and no host here says; the JavaScript ladders' loops must be optimised.
const compiledState = variant => (variant.wasi ? 'unknown' : variant.runtime === 'native' ? 'native' : 'yes')

for (const variant of calls.variants) {
  test(`the ${variant.name} ladder answers right, every loop compiled, every byte read`, async (t) => {
    const reason = skipReason(variant)
    if (reason) return t.skip(reason)
    const { record } = await calls.measureLadder(step(variant), OPTIONS)
    assert.equal(record.failure, null)
    assert.equal(record.ok, true)
    assert.deepEqual(Object.keys(record.compiled), calls.RUNGS)
    assert.ok(Object.values(record.compiled).every(state => state === compiledState(variant)), JSON.stringify(record.compiled))
    assert.equal(record.rounds.length, TINY.rounds)
    for (const round of record.rounds) {
      for (const rung of calls.RUNGS) assert.ok(round[rung] > 0, `${rung}: ${round[rung]} ns`)
    }
    assert.deepEqual(record.output, { size: calls.ladderBytes(TINY), reads: calls.WARMUP_READS + TINY.rounds * TINY.reads, blockSize: 256 })
    // dd's own CPU time, as the stdio runs record it: whether it set the pace
    const feeder = JSON.stringify(record.feeder)
    assert.ok([record.feeder?.userUs, record.feeder?.sysUs].every(us => Number.isFinite(us) && us >= 0), feeder)
    const feederNs = (record.feeder.userUs + record.feeder.sysUs) * 1000
    assert.ok(feederNs > 0 && feederNs <= record.wallNs, `${feeder} in ${record.wallNs} ns`)
  })
}

// A variant's ladder in turns with C's, as --ladder-pairing slices runs it: C, warmed up first,
// waits for Node's warm-up (its start-up, the addon's load and V8's compiles: some 400 ms
// against C's 130 here), so that the two take turns only in their timed rounds; C's rounds in
// the next process sized to last as long as Node's. Rounds long enough for each line to be
// seen while its ladder still runs.
test('a ladder in turns with C\'s: C waits for its warm-up, then rounds sized to its own', async () => {
  const variant = calls.findVariant('node')
  const counts = { ...TINY, calls: 20000, reads: 8192 }
  const options = { ...OPTIONS, ladder: counts }
  const partnered = run => ({ ...step(variant), run, partner: calls.findVariant('c') })
  const first = await calls.measureLadder(partnered(0), options)
  assert.equal(first.record.failure, null)
  assert.equal(first.record.partner.ok, true, first.record.partner.failure)
  assert.equal(first.record.partner.rounds.length, counts.rounds, 'the variant\'s own rounds the first time')
  const { readyMs, heldMs, partner } = first.record
  assert.ok(partner.readyMs > 0 && readyMs > partner.readyMs, `ready at ${partner.readyMs} and ${readyMs} ms`)
  assert.ok(Math.abs(partner.heldMs - (readyMs - partner.readyMs)) < 1e-6,
    `C held ${partner.heldMs} ms, from its line to Node's`)
  assert.equal(heldMs, 0, 'Node never waited for C')
  const second = await calls.measureLadder(partnered(1), options)
  assert.equal(second.record.failure, null)
  const fit = calls.roundsToMatch(first.record.rounds, first.record.partner.rounds, counts)
  assert.equal(second.record.partner.roundsAsked, calls.partnerRoundsOf(fit))
  assert.equal(second.record.partner.rounds.length, second.record.partner.roundsAsked)
})

// The ladders' fast-path check (experiments/calls/fastpath.js) on each variant that claims
// fast loops: every loop held, named by the engine; and on the host's ladder run with V8's
// fast API calls turned off (just-slow's command), the same loops as just-fast's, the check
// fails, naming the loop and why.
const { missingTools } = require('../../lib/native-code')
const { fastPathSteps, measureFastPath } = require('../../experiments/calls/fastpath')
for (const variant of calls.variants.filter(variant => variant.fast)) {
  test(`the ${variant.name} ladder's fast loops hold: ${variant.fast.join(', ')}`, async (t) => {
    const reason = skipReason(variant)
    if (reason) return t.skip(reason)
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ladder-fastpath-'))
    try {
      const [check] = fastPathSteps([variant], sharedCpuPin())
      const { record } = await measureFastPath(check, OPTIONS, runDir)
      assert.equal(record.failure, null)
      assert.deepEqual(record.fastPath.map(verdict => [verdict.loop, verdict.engaged]),
        variant.fast.map(loop => [loop, true]))
      const engine = variant.runtime === 'bun' ? /CallFFI/ : /fast API call/
      for (const verdict of record.fastPath) assert.match(verdict.summary, engine)
      // V8's fast calls named in the ladder's memory, each the C function the variant names
      if (variant.fastTargets && !missingTools()) {
        assert.deepEqual(record.fastPath.map(verdict => [verdict.loop, verdict.target]),
          variant.fast.map(loop => [loop, variant.fastTargets[loop]]))
        for (const verdict of record.fastPath) {
          assert.doesNotMatch(verdict.reaches, /^not named/)
          assert.match(verdict.reaches, /\((libladder\.so|libladder-uring\.so|libc\.so\.6|just-host)\)/)
        }
        assert.equal(record.held, true)
      }
      // the trace kept as the evidence, V8's graphs not
      assert.ok(zlib.gunzipSync(fs.readFileSync(path.join(runDir, record.rawFile))).length > 0)
      assert.deepEqual(fs.readdirSync(path.join(runDir, calls.FAST_PHASE)), [path.basename(record.rawFile)])
    } finally {
      fs.rmSync(runDir, { recursive: true, force: true })
    }
  })
}

// node:ffi's wrapper: with V8's fast API calls off, neither the loop nor invoke() makes one
test('node-ffi\'s ladder with fast API calls off fails its check, its wrapper no way round', async (t) => {
  const variant = calls.findVariant('node-ffi')
  const reason = skipReason(variant)
  if (reason) return t.skip(reason)
  const at = variant.command.indexOf('{file}')
  const command = [...variant.command.slice(0, at), '--no-turbo-fast-api-calls', ...variant.command.slice(at)]
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ladder-fastpath-'))
  try {
    const [check] = fastPathSteps([{ ...variant, command }], sharedCpuPin())
    const { record } = await measureFastPath(check, OPTIONS, runDir)
    assert.equal(record.ok, false)
    assert.equal(record.failure, 'fast path not taken: TurboFan compiled noop() with no fast API call')
    assert.ok(record.fastPath.every(verdict => !verdict.engaged && verdict.viaWrapper === null),
      JSON.stringify(record.fastPath))
  } finally {
    fs.rmSync(runDir, { recursive: true, force: true })
  }
})

test('a ladder whose calls are not fast fails its fast-path check, naming the loop', async () => {
  const slow = { ...calls.findVariant('just-slow'), fast: calls.findVariant('just-fast').fast.slice(0, 2) }
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ladder-fastpath-'))
  try {
    const [check] = fastPathSteps([slow], sharedCpuPin())
    const { record } = await measureFastPath(check, OPTIONS, runDir)
    assert.equal(record.ok, false)
    assert.equal(record.failure, 'fast path not taken: TurboFan compiled noop() with no fast API call')
    assert.deepEqual(record.fastPath.map(verdict => verdict.engaged), [false, false])
  } finally {
    fs.rmSync(runDir, { recursive: true, force: true })
  }
})

// The WASI variants' syscall rung is sched_yield, which some hosts answer without the
// kernel (noSyscall): strace counts the sched_yield(2) calls of a tiny ladder, every thread
// (--seccomp-bpf: only those calls stop the tracee).
for (const variant of calls.variants.filter(variant => variant.wasi)) {
  const claim = variant.noSyscall ? 'makes no sched_yield(2) a call' : 'makes a sched_yield(2) a call'
  test(`the ${variant.name} ladder's sched_yield ${claim}, as its row says`, async (t) => {
    const reason = skipReason(variant)
    if (reason) return t.skip(reason)
    const counts = { rounds: 1, calls: 1000, reads: 256 }
    const bytes = calls.ladderBytes(counts)
    const script = 'summary=$(mktemp) && trap \'rm -f "$summary"\' EXIT && ' +
      // timeout: spawnSync's own would stop bash alone, and wait on a hung tracee for ever
      `head -c ${bytes} /dev/zero | timeout -k 5 100 strace -f -c --seccomp-bpf -e trace=sched_yield -o "$summary" ` +
      `${shellQuote(calls.ladderArgv(variant, counts))} > /dev/null && cat "$summary"`
    const run = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 120000 })
    assert.equal(run.status, 0, run.stderr)
    const yields = Number(/^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?sched_yield$/m.exec(run.stdout)?.[1] ?? 0)
    // the warm-up's 1024 × 128 calls and the round's 1000; a host's own threads may yield
    // now and then (wasmtime's did, 104 times), never once a call
    const made = 1024 * 128 + counts.calls
    if (variant.noSyscall) assert.ok(yields < made / 100, `${yields} sched_yield calls\n${run.stdout}`)
    else assert.ok(yields >= made, `${yields} sched_yield calls\n${run.stdout}`)
  })
}

test('a variant whose own libraries are not built names the one missing and the fix', () => {
  const unbuilt = { ...calls.findVariant('c'), libraries: ['libladder.so', 'libnowhere.so'] }
  assert.equal(calls.unavailableReason(unbuilt), `${path.join(BUILD, 'libnowhere.so')} is not built: run ./setup.sh (or make)`)
})

// A ladder that is not one: the shell prints what it is told, as a broken ladder might.
function fakeVariant (script) {
  return { name: 'fake', runtime: 'native', file: 'calls/c.c', command: ['sh', '-c', `cat > /dev/null; ${script}`, 'fake'], boundary: 'none', read: 'none', stdin: null }
}

const GOOD_ROUNDS = 'echo "round 1 noop 3 syscall 200 empty-read 220 read-256 440"; echo "round 2 noop 3 syscall 200 empty-read 220 read-256 440"'

const COMPILED = 'echo "compiled noop yes syscall yes empty-read yes read-256 yes"'

const total = `echo "size ${calls.ladderBytes(TINY)} reads ${calls.WARMUP_READS + TINY.rounds * TINY.reads} blocksize 256"`

test('a ladder that fails, stays cold, miscounts or stops short is a failed run, with its reason', async () => {
  const cases = [
    [`${COMPILED}; ${GOOD_ROUNDS}; ${total}`, null],
    ['echo "noop: call 3 of 1000 returned the wrong answer" >&2; exit 1', /^ladder exited 1: noop: call 3 of 1000 returned the wrong answer$/],
    [`echo "compiled noop yes syscall no empty-read yes read-256 yes"; ${GOOD_ROUNDS}; ${total}`, /^syscall: its loop was not compiled after warm-up$/],
    [`${COMPILED}; echo "round 1 noop 3 syscall 200 empty-read 220 read-256 440"; ${total}`, /^ladder printed 1 rounds, not 2$/],
    [`${COMPILED}; ${GOOD_ROUNDS}; echo "size 1024 reads 4 blocksize 256"`, /^ladder counted 1024 bytes, \d+ were sent$/],
    [`${COMPILED}; ${GOOD_ROUNDS}`, /^ladder printed no size line$/],
    [GOOD_ROUNDS, /^ladder printed no compiled line/]
  ]
  for (const [script, failure] of cases) {
    const { record } = await calls.measureLadder(step(fakeVariant(script)), OPTIONS)
    if (failure === null) assert.equal(record.failure, null)
    else assert.match(record.failure ?? '', failure, script)
    assert.equal(record.ok, failure === null)
  }
})

// The ladder's "compiled": TurboFan's, which the fast-path check reads, not Maglev's, which
// Node 24 on and Deno 2 run first and which V8 also calls optimised; and a TurboFan compile
// still on its thread when the ladder asks is waited for, not taken for a cold loop.
test('a loop only Maglev compiled is not compiled to the ladder; one TurboFan compiled, or compiling, is', () => {
  const node = runtimes.node.locate()
  assert.ok(node, 'the lab\'s Node is installed by ./setup.sh')
  const ladder = path.join(__dirname, '..', '..', 'calls', 'ladder.mjs')
  const script = `import { v8Compiled } from ${JSON.stringify(ladder)};
    const maglev = n => n + 1; const turbofan = n => n + 2; const concurrent = n => n + 3;
    const compiled = v8Compiled({ maglev: [maglev], turbofan: [turbofan], concurrent: [concurrent] });
    %PrepareFunctionForOptimization(maglev); maglev(3); %OptimizeMaglevOnNextCall(maglev); maglev(3);
    %PrepareFunctionForOptimization(turbofan); turbofan(3); %OptimizeFunctionOnNextCall(turbofan); turbofan(3);
    %PrepareFunctionForOptimization(concurrent); concurrent(3);
    %OptimizeFunctionOnNextCall(concurrent, 'concurrent'); concurrent(3);
    const queued = %GetOptimizationStatus(concurrent) !== %GetOptimizationStatus(turbofan);
    console.log(%IsMaglevEnabled(), queued, compiled('maglev'), compiled('turbofan'), compiled('concurrent'))`
  // TurboFan's compiles on its thread made to take 500 ms, so that one is still running when asked
  const flags = ['--allow-natives-syntax', '--concurrent-recompilation-delay=500']
  const result = spawnSync(node, [...flags, '--input-type=module', '-e', script], { encoding: 'utf8' })
  assert.equal(result.status, 0, result.stderr)
  const [maglevOn, queued, ...states] = result.stdout.trim().split(' ')
  assert.equal(maglevOn, 'true', `the lab's Node runs Maglev: ${result.stdout}`)
  // the concurrent compile still queued when the ladder asked, else the test proves nothing
  assert.equal(queued, 'true', result.stdout)
  assert.deepEqual(states, ['no', 'yes', 'yes'])
})

test('a ladder that hangs is stopped at the timeout and failed', async () => {
  const { record } = await calls.measureLadder(step(fakeVariant('sleep 30')), { ...OPTIONS, timeoutSeconds: 1 })
  assert.equal(record.ok, false)
  assert.equal(record.failure, 'timed out after 1 s')
})

test('bench.js --experiment calls: options it does not take, unknown variants and experiments, one line each', () => {
  assertRefused(bench(['--experiment', 'calls', '--sizes', '256']), /^bench\.js: --sizes is an option of the stdio experiment, not of calls: add --experiment stdio, or drop --sizes; see node bench\.js --help$/)
  assertRefused(bench(['--experiment', 'calls', '--only', 'nope']), /^bench\.js: --only nope matches no variant of the call ladder; they are: c, just-fast, .*deno-ffi, c-uring, just-uring, bun-uring, deno-uring, c-yield, node-wasi, .*, wasmer-llvm$/)
  assertRefused(bench(['--experiment', 'calls', '--processes', '0']), /^bench\.js: --processes must be a whole number of at least 1, not '0'$/)
  assertRefused(bench(['--processes', '3']), /^bench\.js: --processes is an option of the calls and http experiments, not of stdio: add --experiment calls or http, or drop --processes; see node bench\.js --help$/)
  assertRefused(bench(['--experiment', 'tcp']), /^bench\.js: --experiment must be stdio, calls, http or db, not 'tcp'$/)
  assertRefused(bench(['--experiment', '']), /^bench\.js: --experiment is empty; give stdio, calls, http or db/)
})

test('bench.js --experiment calls --list: every variant, whether it runs here, and its command', () => {
  const result = bench(['--experiment', 'calls', '--list', '--json'])
  assert.equal(result.status, 0, result.stderr)
  const rows = JSON.parse(result.stdout)
  assert.deepEqual(rows.map(row => row.name), calls.variants.map(variant => variant.name))
  for (const row of rows) {
    // wasmer's rows where ./setup.sh --wasm has not run: unavailable, saying how to install it
    if (optionalMissing(row.runtime)) assert.match(row.unavailable, /not found: run \.\/setup\.sh --wasm/)
    else assert.equal(row.available, true, `${row.name}: ${row.unavailable}`)
    assert.match(row.command, / 2 120000 65536$/)
  }
})

test('bench.js --experiment calls measures a tiny ladder and its cost pass, and analyse.js reports it', () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'calls-test-'))
  try {
    const result = bench(['--experiment', 'calls', '--quick', '--only', 'just-fast', '--processes', '1', '--rounds', '1', '--out', out, '--id', 'tiny', '--report'])
    assert.equal(result.status, 0, result.stdout + result.stderr)
    assert.match(result.stdout, /The call ladder: ns of CPU per call/)
    assert.match(result.stdout, /^just-fast .* just-fast \d/m)
    const results = JSON.parse(fs.readFileSync(path.join(out, 'tiny', 'results.json'), 'utf8'))
    assert.equal(results.experiment, 'calls')
    assert.deepEqual(results.ladder.rows.map(row => row.variant), ['c', 'just-fast'])
    assert.deepEqual(results.headline.cells.map(cell => cell.program), ['c', 'just-fast'])
    const context = JSON.parse(fs.readFileSync(path.join(out, 'tiny', 'context.json'), 'utf8'))
    assert.deepEqual(context.ladderVariants.map(variant => variant.name), ['c', 'just-fast'])
    const page = fs.readFileSync(path.join(out, 'tiny', 'report.html'), 'utf8')
    assert.ok(page.indexOf('id="ladder"') < page.indexOf('id="headline"'), 'the ladder first')
    assert.ok(!page.includes('id="throughput"'), 'no stdio sections')
    assert.match(fs.readFileSync(path.join(out, 'tiny', 'results.md'), 'utf8'), /^## The call ladder/m)
  } finally {
    fs.rmSync(out, { recursive: true, force: true })
  }
})
