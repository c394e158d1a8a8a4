'use strict'
// The call ladder (bench.js --experiment calls): where a read's cost goes in each
// runtime. One table of variants below drives it; each variant's ladder program
// (calls/) times four rungs in one process, each a loop of calls timed by the process's
// CPU clock after a warm-up that gets the loop compiled:
//   noop        a call into C that returns its argument: the boundary alone
//   syscall     getppid(2) through the same boundary: the boundary and a syscall's
//               entry and exit, with no work in the kernel
//   empty-read  read(2) of /dev/null (0 bytes, at once) the way the runtime's reader
//               reads: the runtime's read path and the kernel's, with no bytes
//   read-256    read(2) of 256 bytes of a full pipe, as the stdin reader reads it
// A ring variant (ring: true) climbs the same rungs through io_uring: its syscall rung is
// an IORING_OP_NOP, handed over and waited for by one io_uring_enter, and its reads are
// IORING_OP_READs so handed over; its parts are taken against c-uring's, the ring's floor.
// Each process runs the rungs in rounds; a process's figure is the median of its rounds
// and a variant's the median of its processes, with the sign test's interval over
// processes (lib/stats.js): each process has its own start-up, memory layout and JIT
// decisions, which rounds within one process cannot show.
//
// dd feeds the pipe, on the ladder's own CPU (the last the lab may use), as the stdin
// bench's cost pass feeds its readers, so that the ladder's read-256 and that pass's
// CPU per read at 256 B measure one thing two ways: the calls experiment runs that pass
// at 256 B for each variant's stdin reader, and the report compares the two.
const fs = require('node:fs')
const path = require('node:path')
const { BUILD } = require('../../lib/paths')
const { findProgram, BASELINE } = require('../stdio/programs')
const { expandCommand, unavailableReason: rowUnavailableReason } = require('../../lib/rows')
const { runPipeline, runAlternating, firstTurn, partnerRecord, ddFeeder, shellQuote } = require('../../lib/pipeline')
const { SLICE_MS } = require('../stdio/cost')
const { median, medianInterval, pairedRatio, pairedDifference } = require('../../lib/stats')
const { components } = require('../../lib/variance')
const { runSteal } = require('../../lib/steal')
const { lostCells, HALVINGS } = require('../../lib/repeatability')
const { pipelineForeign } = require('../../lib/foreign')
const { FIXED_FEEDER_BLOCK, pipelineFailure } = require('../stdio/measure')

const PHASE = 'ladder'
// the fast-path check of each variant's fast loops (experiments/calls/fastpath.js)
const FAST_PHASE = 'ladder-fastpath'
const RUNGS = ['noop', 'syscall', 'empty-read', 'read-256']
const BLOCK = 256
// What calls/ladder.mjs (and calls/c.c, calls/just.js) read before the rounds, to warm up.
const WARMUP_READS = 1024 * 128
// An interval wider than this either side of the median is marked [wide]: a rung's figure
// that one run cannot pin down (a width mark, not the goal, which asks every rung within 1% of
// itself between two runs: experiments/calls/repeatability.js).
const WIDE_SHARE = 0.05
// A process still warming up in its first timed round: that round cost more than this many
// times the median of its later ones, and only they are its figure. Bun's no-op tiers up to
// FTL during that round in 2 to 4 of 10 processes (3-4 ns, then 1.4-1.8: docs/calls.md,
// 2026-11-29), and counted, such processes moved its halves by 44% (2026-12-06).
const WARMING_RATIO = 1.25
// A decomposition further than this from the measured read does not add up.
const ADDS_UP_SHARE = 0.10

// The host's bindings the just ladders use, beyond those every just reader has.
const JUST_NEEDS = [
  'host.noop', 'host.getppid', 'host.cpuNs', 'fs.open', 'net.read', 'net.readRaw', 'net.close',
  'sys.address', 'sys.readUtf8'
]

// What every ladder needs built besides its runtime (make builds them; ./setup.sh runs
// make), unless its variant names its own `libraries`: the ring variants of C, Bun and
// Deno call the one ring of libladder-uring.so (calls/uring.c), built where liburing is.
const NATIVE_PARTS = { native: ['libladder.so'], node: ['ladder.node'], bun: ['libladder.so'], deno: ['libladder.so'], just: [] }
const RING_LIBRARIES = ['libladder.so', 'libladder-uring.so']

// The WASI variants (wasi: true) climb the rungs through a WASI host: calls/c.c built for
// wasm32-wasi with calls/wasi.c, run by the stdin readers' hosts (wc/wasi.mjs, wc/wasi.py,
// wasmer). Their no-op is args_sizes_get, a WASI call that makes no syscall; their syscall
// sched_yield, WASI's only bare one (yields: their parts are taken as decompose says);
// their reads fd_read. C's ladder with sched_yield(2) in getppid's place (c-yield) runs
// beside them, for sched_yield's price from C. noSyscall: the host answers sched_yield
// without the kernel, so that rung is its WASI layer alone (test/e2e/calls.test.js checks
// each host's claim under strace). Deno preopens a folder for node:wasi only with every
// permission: --allow-all, for /dev/null.
const WASI_LADDER = ['ladder-wasi.wasm']
const WASMER_HOST_DEV = ['--mapdir', '/host-dev:/dev', '--env', 'LADDER_NULL=/host-dev/null']
const wasiVariants = [
  {
    name: 'node-wasi',
    runtime: 'node',
    file: 'wc/wasi.mjs',
    command: ['{runtime}', '{file}', '--dev', '{build}/ladder-wasi.wasm'],
    boundary: 'node:wasi (uvwasi): args_sizes_get',
    read: 'fd_read through node:wasi',
    stdin: 'node-wasi'
  },
  {
    name: 'bun-wasi',
    runtime: 'bun',
    file: 'wc/wasi.mjs',
    command: ['{runtime}', '{file}', '--dev', '{build}/ladder-wasi.wasm'],
    noSyscall: 'Bun\'s node:wasi returns from sched_yield without a syscall',
    boundary: 'Bun\'s node:wasi (JavaScript): args_sizes_get',
    read: 'fd_read through Bun\'s node:wasi',
    stdin: 'bun-wasi'
  },
  {
    name: 'deno-wasi',
    runtime: 'deno',
    file: 'wc/wasi.mjs',
    command: ['{runtime}', 'run', '--allow-all', '{file}', '--dev', '{build}/ladder-wasi.wasm'],
    boundary: 'Deno\'s node:wasi (uvwasi): args_sizes_get',
    read: 'fd_read through Deno\'s node:wasi (stdin buffered)',
    stdin: 'deno-wasi'
  },
  {
    name: 'wasmtime',
    runtime: 'wasmtime',
    file: 'wc/wasi.py',
    command: ['{runtime}', '{file}', '--dev', '{build}/ladder-wasi.wasm'],
    noSyscall: 'wasmtime\'s WASI returns from sched_yield without a syscall',
    boundary: 'wasmtime\'s WASI: args_sizes_get',
    read: 'fd_read through wasmtime (stdin buffered, files through a thread pool)',
    stdin: 'wasmtime'
  },
  {
    name: 'wasmtime-aot',
    runtime: 'wasmtime',
    file: 'wc/wasi.py',
    command: ['{runtime}', '{file}', '--dev', '{build}/ladder-wasi.cwasm'],
    libraries: ['ladder-wasi.cwasm'],
    noSyscall: 'wasmtime\'s WASI returns from sched_yield without a syscall',
    boundary: 'wasmtime\'s WASI, precompiled: args_sizes_get',
    read: 'fd_read through wasmtime (stdin buffered, files through a thread pool)',
    stdin: 'wasmtime-aot'
  },
  // wasmer keeps a /dev of its own in memory: the host's is mapped to /host-dev
  {
    name: 'wasmer',
    runtime: 'wasmer',
    file: 'calls/wasi.c',
    command: ['{runtime}', 'run', ...WASMER_HOST_DEV, '{build}/ladder-wasi-clock.wasm', '--'],
    libraries: ['ladder-wasi-clock.wasm'],
    boundary: 'wasmer\'s WASI: args_sizes_get',
    read: 'fd_read through wasmer (stdin buffered)',
    stdin: 'wasmer'
  },
  {
    name: 'wasmer-llvm',
    runtime: 'wasmer',
    file: 'calls/wasi.c',
    command: ['{runtime}', 'run', ...WASMER_HOST_DEV, '{build}/ladder-wasi-clock.wasmu', '--'],
    libraries: ['ladder-wasi-clock.wasmu'],
    needs: ['llvm'],
    boundary: 'wasmer\'s WASI, compiled by LLVM: args_sizes_get',
    read: 'fd_read through wasmer (stdin buffered)',
    stdin: 'wasmer-llvm'
  }
].map(variant => ({ libraries: WASI_LADDER, ...variant, wasi: true, yields: true, floor: 'c-yield' }))

// Each variant: how its ladder runs (a command like experiments/stdio/programs.js's, {runtime} its
// runtime's binary, {file} its ladder, {build} the build folder), what its boundary and
// its reads are, and the stdin reader (experiments/stdio/programs.js) that reads as its
// read-256 does (Bun and Deno have no ring reader of stdin: their ring variants have none).
// `fast`: the loops (by the name of the function that holds each) whose calls its boundary
// makes fast, asked of its engine before the timed processes (experiments/calls/fastpath.js);
// `fastWrapper`, where the runtime's FFI function is JavaScript that holds the fast call;
// `fastTargets`, on V8, the C function each loop's fast call must reach (named in the ladder's
// memory: experiments/stdio/fastpath.js nameFastCalls), and `fastTargetFiles`, for a function
// of a library, the file it is in: where binutils cannot name the calls, a loop whose fast
// calls all lie in other files (a helper of the runtime's own) still fails.
const JUST_TARGETS = { noop: 'host::ladder::FastNoop', syscall: 'host::ladder::FastGetppid' }
const FFI_TARGETS = { noop: 'ladder_noop', syscall: 'ladder_getppid', readFfi: 'read' }
const FFI_TARGET_FILES = { noop: 'libladder.so', syscall: 'libladder.so', readFfi: 'libc.so.6' }
const variants = [
  { name: 'c', runtime: 'native', file: 'calls/c.c', command: ['{build}/ladder-c'], boundary: 'a direct call into libladder.so', read: 'read(2)', stdin: 'c' },
  {
    name: 'just-fast',
    runtime: 'just',
    file: 'calls/just.js',
    command: ['{runtime}', '--allow-natives-syntax', '{file}', 'fast'],
    needs: JUST_NEEDS,
    fast: ['noop', 'syscall', 'readRaw'],
    fastTargets: { ...JUST_TARGETS, readRaw: 'host::net::FastReadRaw' },
    boundary: 'V8 fast API call (just.host.noop)',
    read: 'net.readRaw',
    stdin: 'just-fast'
  },
  {
    name: 'just-sync',
    runtime: 'just',
    file: 'calls/just.js',
    command: ['{runtime}', '--allow-natives-syntax', '{file}', 'sync'],
    needs: JUST_NEEDS,
    fast: ['noop', 'syscall', 'read'],
    fastTargets: { ...JUST_TARGETS, read: 'host::net::FastTransfer4<&host::net::ReadOp, &host::net::read_calls>' },
    boundary: 'V8 fast API call (just.host.noop)',
    read: 'net.read',
    stdin: 'just-sync'
  },
  { name: 'just-slow', runtime: 'just', file: 'calls/just.js', command: ['{runtime}', '--allow-natives-syntax', '--no-turbo-fast-api-calls', '{file}', 'sync'], needs: JUST_NEEDS, boundary: 'V8 API callback (FunctionCallbackInfo)', read: 'net.read, slow callback', stdin: null },
  {
    name: 'node',
    runtime: 'node',
    file: 'calls/node.mjs',
    command: ['{runtime}', '--allow-natives-syntax', '{file}', 'addon'],
    boundary: 'Node-API addon (build/ladder.node)',
    read: 'fs.readSync',
    stdin: 'node-sync'
  },
  {
    name: 'node-ffi',
    runtime: 'node',
    file: 'calls/node.mjs',
    command: ['{runtime}', '--allow-natives-syntax', '--disable-warning=ExperimentalWarning', '{file}', 'ffi'],
    needs: ['ffi'],
    libraries: ['ladder.node', 'libladder.so'],
    boundary: 'node:ffi (V8 fast API call)',
    fast: ['noop', 'syscall', 'readFfi'],
    fastTargets: FFI_TARGETS,
    fastTargetFiles: FFI_TARGET_FILES,
    // node:ffi's functions call C through a JavaScript function of Node's own
    // (experiments/calls/fastpath.js throughWrapper)
    fastWrapper: 'invoke',
    read: 'libc read(2) through node:ffi',
    stdin: 'node-ffi'
  },
  { name: 'bun-ffi', runtime: 'bun', file: 'calls/bun.mjs', command: ['{runtime}', '{file}', 'ffi'], fast: ['noop', 'syscall', 'read'], boundary: 'bun:ffi', read: 'libc read(2) through bun:ffi', stdin: 'bun-ffi' },
  {
    name: 'deno-sync',
    runtime: 'deno',
    file: 'calls/deno.mjs',
    command: ['{runtime}', 'run', '--allow-ffi', '--allow-read', '--v8-flags=--allow-natives-syntax', '{file}', 'sync'],
    fast: ['noop', 'syscall'],
    fastTargets: { noop: FFI_TARGETS.noop, syscall: FFI_TARGETS.syscall },
    fastTargetFiles: { noop: FFI_TARGET_FILES.noop, syscall: FFI_TARGET_FILES.syscall },
    boundary: 'Deno.dlopen',
    read: 'Deno.stdin.readSync',
    stdin: 'deno-sync'
  },
  {
    name: 'deno-ffi',
    runtime: 'deno',
    file: 'calls/deno.mjs',
    command: ['{runtime}', 'run', '--allow-ffi', '--allow-read', '--v8-flags=--allow-natives-syntax', '{file}', 'ffi'],
    fast: ['noop', 'syscall', 'readFfi'],
    fastTargets: FFI_TARGETS,
    fastTargetFiles: FFI_TARGET_FILES,
    boundary: 'Deno.dlopen',
    read: 'libc read(2) through Deno.dlopen',
    stdin: 'deno-ffi'
  },
  { name: 'c-uring', runtime: 'native', file: 'calls/c.c', command: ['{build}/ladder-c-uring'], ring: true, libraries: RING_LIBRARIES, boundary: 'a direct call into libladder.so', read: 'IORING_OP_READ through libladder-uring.so\'s ring (liburing)', stdin: 'c-uring' },
  {
    name: 'just-uring',
    runtime: 'just',
    file: 'calls/just.js',
    command: ['{runtime}', '--allow-natives-syntax', '{file}', 'uring'],
    needs: [...JUST_NEEDS, 'uring.setup', 'uring.nop', 'uring.read'],
    fast: ['noop', 'ringNop', 'ringRead'],
    fastTargets: { noop: JUST_TARGETS.noop, ringNop: 'host::uring::FastNop', ringRead: 'host::uring::FastRead' },
    ring: true,
    boundary: 'V8 fast API call (just.host.noop)',
    read: 'just.uring.read through io_uring',
    stdin: 'just-uring'
  },
  { name: 'bun-uring', runtime: 'bun', file: 'calls/bun.mjs', command: ['{runtime}', '{file}', 'uring'], fast: ['noop', 'syscall', 'read'], ring: true, libraries: RING_LIBRARIES, boundary: 'bun:ffi', read: 'IORING_OP_READ through bun:ffi into libladder-uring.so', stdin: null },
  {
    name: 'deno-uring',
    runtime: 'deno',
    file: 'calls/deno.mjs',
    command: ['{runtime}', 'run', '--allow-ffi', '--allow-read', '--v8-flags=--allow-natives-syntax', '{file}',
      'uring'],
    fast: ['noop', 'syscall', 'readFfi'],
    fastTargets: { noop: 'ladder_noop', syscall: 'ladder_uring_nop', readFfi: 'ladder_uring_read' },
    fastTargetFiles: { noop: 'libladder.so', syscall: 'libladder-uring.so', readFfi: 'libladder-uring.so' },
    ring: true,
    libraries: RING_LIBRARIES,
    boundary: 'Deno.dlopen',
    read: 'IORING_OP_READ through Deno.dlopen into libladder-uring.so',
    stdin: null
  },
  {
    name: 'c-yield',
    runtime: 'native',
    file: 'calls/c.c',
    command: ['{build}/ladder-c-yield'],
    boundary: 'a direct call into libladder.so',
    read: 'read(2), with sched_yield(2) for the syscall',
    yields: true,
    stdin: 'c'
  },
  ...wasiVariants
]
// The floor a ring variant's parts are taken against.
const RING_FLOOR = 'c-uring'

// Where a rung's figure moves (lib/variance.js): between processes as much as between the
// rounds of one, or more (on an Intel VM, 1 to 2% between rounds and 2 to 5% between
// processes; on an AMD EPYC VM 5 to 10% at both levels), so the default spends its time
// on processes: ten, of two rounds each, which is what Kalibera and Jones's cost model
// asks when a process costs about what a round does. 120 000 calls time Node's empty read
// (~460 ns) for 55 ms and the no-op (10 times as many calls) for at least 1.7 ms, on a clock
// of ns; the WASI hosts' empty reads, 12 to 23 µs through wasmtime and wasmer, take 1.4 to
// 2.8 s a round, most of a default run with wasmer's rows (14½ to 15¼ minutes on the Zen 4
// VM against 8 to 9 without; at 200 000 calls the ladder took 99 s of a 157 s run on the AMD
// EPYC VM of 2026-11-27, before the WASI rows).
const PRESETS = {
  default: { processes: 10, rounds: 2, calls: 120_000, reads: 1 << 16 },
  quick: { processes: 6, rounds: 2, calls: 100_000, reads: 1 << 16 }
}

// The variant a variant is set against, which runs whenever it does: its own floor (the
// WASI variants' c-yield, for sched_yield), the ring's for a ring variant, else C's.
function floorOf (variant) {
  return variant?.floor ?? (variant?.ring ? RING_FLOOR : BASELINE)
}

function findVariant (name) {
  return variants.find(variant => variant.name === name)
}

// The argv of a variant's ladder with its counts.
function ladderArgv (variant, { rounds, calls, reads }) {
  return [...expandCommand(variant), String(rounds), String(calls), String(reads)]
}

// What stops a variant from running here, naming the fix; null if nothing: what stops
// any row of the lab's (its runtime, its executable, its file, the bindings it needs),
// then the native parts it calls.
function unavailableReason (variant) {
  const reason = rowUnavailableReason(variant)
  if (reason !== null) return reason
  const missing = (variant.libraries ?? NATIVE_PARTS[variant.runtime]).find(file => !fs.existsSync(path.join(BUILD, file)))
  return missing ? `${path.join(BUILD, missing)} is not built: run ./setup.sh (or make)` : null
}

// The variants as `bench.js --experiment calls --list` shows them.
function listing (counts) {
  return variants.map(variant => {
    const reason = unavailableReason(variant)
    return { name: variant.name, runtime: variant.runtime, available: reason === null, unavailable: reason, boundary: variant.boundary, read: variant.read, stdin: variant.stdin, command: shellQuote(ladderArgv(variant, counts)) }
  })
}

// The bytes dd sends one ladder process: the warm-up's reads and every round's.
function ladderBytes ({ rounds, reads }) {
  return (WARMUP_READS + rounds * reads) * BLOCK
}

// The options' counts, refused when dd's 64 KiB blocks cannot carry them exactly.
function checkCounts (counts) {
  if (ladderBytes(counts) % FIXED_FEEDER_BLOCK !== 0) return `the ladder's reads per round must be a multiple of ${FIXED_FEEDER_BLOCK / BLOCK} (dd sends whole ${FIXED_FEEDER_BLOCK / 1024} KiB blocks)`
  return null
}

// One process of a variant's ladder, dd feeding it on the shared CPU; the record bench
// logs. A run is a data point only if every loop was compiled, every call answered right
// and the ladder read every byte dd sent.
async function measureLadder (step, options) {
  const counts = options.ladder
  const bytes = ladderBytes(counts)
  const feeder = ddFeeder(bytes, FIXED_FEEDER_BLOCK, Boolean(step.partner))
  const reader = ladderArgv(step.variant, counts)
  const spec = { feeder, reader, timeoutMs: options.timeoutSeconds * 1000, pin: step.pin }
  const { result, partner } = step.partner
    ? await runWithPartner(step, spec, options)
    : { result: await runPipeline(spec), partner: null }
  const output = parseLadder(result.stdout)
  let failure = ladderFailure({ result, output, counts, bytes, timeoutSeconds: options.timeoutSeconds })
  if (failure === null && partner && !partner.record.ok) {
    failure = `its partner, ${partner.record.program}, failed: ${partner.record.failure}`
  }
  const record = {
    phase: PHASE,
    program: step.variant.name,
    blockSize: BLOCK,
    run: step.run,
    bytes,
    ok: failure === null,
    failure,
    command: `${shellQuote(feeder)} | ${shellQuote(reader)}`,
    wallNs: result.wallNs,
    steal: runSteal(result.stealTicks, result.clkTck, step.pin),
    foreign: pipelineForeign(result, step.pin, partner?.result),
    reader: result.reader,
    feeder: result.feeder,
    compiled: output.compiled,
    rounds: output.rounds,
    output: output.total,
    ...(partner
      ? {
          sliceMs: SLICE_MS,
          turns: result.turns,
          aloneMs: result.aloneMs,
          readyMs: result.readyMs,
          heldMs: result.heldMs,
          partner: partner.record
        }
      : {}),
    at: new Date().toISOString()
  }
  if (record.ok && partner) {
    partnerRounds.set(step.variant.name, roundsToMatch(output.rounds, partner.record.rounds, counts))
  }
  return { record, stopped: Boolean(result.stoppedBy) || Boolean(partner?.result.stoppedBy) }
}

// --ladder-pairing slices: a variant's ladder takes turns of SLICE_MS with a ladder of C's
// on its CPU (experiments/stdio/cost.js says why, and how long a turn), from the moment both
// have warmed up (runAlternating's readyWhen: the first ready waits for the other), C's given
// as many rounds as should last as long as the variant's rounds, from the variant's last pair
// (roundsToMatch); the variant's own count of rounds for its first process. A process's rungs
// are then set against its partner's medians, whose rounds took turns with its own; each
// record keeps when each said its warm-up was over (readyMs), how long it waited for the
// other's (heldMs) and how long the one that ended last ran on alone (aloneMs).
const partnerRounds = new Map()
// C's rounds at most: beside wasmer's 2 rounds of some 3.7 s each, C's of 73 ms need about
// 100 (with 40, as before C waited for warm-ups, wasmer's second round ran alone); dd then
// sends C 2.2 GB at most.
const MAX_PARTNER_ROUNDS = 128

// C's rounds that last as long as the variant's rounds did: the CPU time of its rounds (the
// ns of each rung times its calls, as calls/ladder.mjs, just.js and c.c count them) over a
// round of C's. Warm-ups take no part: each is done before the two take turns. (Before they
// waited for each other, C's rounds had to fill the variant's whole process, start-up and
// warm-up too.)
function roundsToMatch (variantRounds, cRounds, { calls, reads }) {
  const counts = { noop: 10 * calls, syscall: calls, 'empty-read': calls, 'read-256': reads }
  const roundNs = round => RUNGS.reduce((sum, rung) => sum + round[rung] * counts[rung], 0)
  return variantRounds.reduce((sum, round) => sum + roundNs(round), 0) / median(cRounds.map(roundNs))
}

// The rounds C is asked for from a guess: whole, at least one, at most MAX_PARTNER_ROUNDS.
const partnerRoundsOf = guess => Math.max(1, Math.min(MAX_PARTNER_ROUNDS, Math.round(guess)))

async function runWithPartner (step, spec, options) {
  const counts = options.ladder
  const guess = partnerRounds.get(step.variant.name) ?? counts.rounds
  const rounds = partnerRoundsOf(guess)
  const partnerCounts = { ...counts, rounds }
  const bytes = ladderBytes(partnerCounts)
  const feeder = ddFeeder(bytes, FIXED_FEEDER_BLOCK, true)
  const reader = ladderArgv(step.partner, partnerCounts)
  const pair = [spec, { ...spec, feeder, reader }]
  const [result, partnerResult] = await runAlternating(pair, SLICE_MS, firstTurn(step.run), { readyWhen: LADDER_READY })
  const output = parseLadder(partnerResult.stdout)
  const { timeoutSeconds } = options
  const failure = ladderFailure({ result: partnerResult, output, counts: partnerCounts, bytes, timeoutSeconds })
  const record = {
    ...partnerRecord(step.partner.name, { feeder, reader }, partnerResult, failure),
    roundsAsked: rounds,
    // fewer than would have lasted the variant's rounds
    capped: rounds < Math.round(guess),
    rounds: output.rounds
  }
  return { result, partner: { result: partnerResult, record } }
}

const ROUND_LINE = new RegExp(`^round (\\d+) ${RUNGS.map(rung => `${rung} (\\d+(?:\\.\\d+)?)`).join(' ')}$`)
const COMPILED_LINE = new RegExp(`^compiled ${RUNGS.map(rung => `${rung} (yes|no|native|unknown)`).join(' ')}$`)
const TOTAL_LINE = /^size (\d+) reads (\d+) blocksize (\d+)$/
// the compiled line in what a ladder has printed so far: its warm-up is over
const LADDER_READY = new RegExp(COMPILED_LINE.source, 'm')

// A ladder's stdout: { compiled: { noop: 'yes', ... } | null, rounds: [{ noop, syscall,
// 'empty-read', 'read-256' } ns per call], total: { size, reads, blockSize } | null }.
function parseLadder (stdout) {
  const parsed = { compiled: null, rounds: [], total: null }
  for (const line of stdout.split('\n')) {
    const compiled = COMPILED_LINE.exec(line)
    const round = ROUND_LINE.exec(line)
    const total = TOTAL_LINE.exec(line)
    if (compiled) parsed.compiled = Object.fromEntries(RUNGS.map((rung, i) => [rung, compiled[i + 1]]))
    if (round) parsed.rounds.push(Object.fromEntries(RUNGS.map((rung, i) => [rung, Number(round[i + 2])])))
    if (total) parsed.total = { size: Number(total[1]), reads: Number(total[2]), blockSize: Number(total[3]) }
  }
  return parsed
}

function ladderFailure ({ result, output, counts, bytes, timeoutSeconds }) {
  const failed = pipelineFailure(result, timeoutSeconds, 'ladder')
  if (failed) return failed
  if (output.compiled === null) return `ladder printed no compiled line: ${JSON.stringify(result.stdout.slice(0, 200))}`
  const cold = RUNGS.find(rung => output.compiled[rung] === 'no')
  if (cold) return `${cold}: its loop was not compiled after warm-up`
  if (output.rounds.length !== counts.rounds) return `ladder printed ${output.rounds.length} rounds, not ${counts.rounds}`
  if (output.total === null) return 'ladder printed no size line'
  if (output.total.size !== bytes) return `ladder counted ${output.total.size} bytes, ${bytes} were sent`
  const reads = WARMUP_READS + counts.rounds * counts.reads
  if (output.total.reads !== reads) return `ladder made ${output.total.reads} reads of the pipe, not ${reads}`
  return null
}

// The calls experiment's plan for the ladder: `processes` processes of each variant, in rounds
// (process p of every variant before process p + 1 of any), on one CPU.
// With options.ladderPairing 'slices', every variant's process but C's takes turns with
// one of C's (runWithPartner).
function planLadder (selected, options, pin) {
  const steps = []
  const c = findVariant(BASELINE)
  for (let run = 0; run < options.ladder.processes; run++) {
    const group = `ladder, process ${run + 1} of ${options.ladder.processes}`
    for (const variant of selected) {
      const partner = options.ladderPairing === 'slices' && variant !== c ? c : null
      const label = `${group}: ${variant.name}${partner ? ', in turns with C' : ''}`
      const where = { blockSize: BLOCK, run, warmup: 0, pin }
      steps.push({ phase: PHASE, program: variant, variant, ...where, partner, group, label })
    }
  }
  return steps
}

// ---- the summary ----

const MEANING = 'ns of CPU time per call (the process\'s, every thread; clock_gettime(CLOCK_PROCESS_CPUTIME_ID)), ' +
  'each rung a loop of calls after a warm-up that compiled it; a process\'s figure is the median of its rounds, ' +
  `less a first round still warming up (above ${WARMING_RATIO} times the median of the later ones), ` +
  'a variant\'s the median of its processes with the interval of the sign test over processes, at the level it carries (level)'

// Each variant's rungs, its decomposition, and the check against the cost pass:
// { meaning, counts, rows: [{ variant, runtime, boundary, read, processes, failedRuns,
// rungs: { noop: { estimate, low, high, wide }, ... }, baseline, parts: { boundary,
// syscall, readPath, kernelRead } , predicted, gap, addsUp, stdin: { program,
// cpuPerReadNs, agrees } }] } or null when the run has no ladder.
function summariseLadder (records, context, headline) {
  const runs = records.filter(record => record.phase === PHASE)
  if (runs.length === 0) return null
  const names = [...new Set(runs.map(run => run.program))]
  const checks = records.filter(record => record.phase === FAST_PHASE)
  const rows = names.map(name => {
    const fastPath = fastPathOf(checks.filter(check => check.program === name))
    // a variant whose fast path did not hold measured another form: no process of it counts
    const own = runs.filter(run => run.program === name)
    const row = ladderRow(name, fastPath?.failure ? own.map(run => ({ ...run, ok: false })) : own)
    return { ...row, fastPath }
  })
  const c = rows.find(row => row.variant === BASELINE)
  for (const row of rows) {
    const variant = findVariant(row.variant)
    const floor = variant?.yields ? c : rows.find(other => other.variant === floorOf(variant))
    row.baseline = row === floor
    // C's parts from the C that ran beside the row; a ring's floor (c-uring) ran beside none
    decompose(row, floor === c ? cOfRow(row, c) : floor, { yields: variant?.yields })
  }
  for (const row of rows) compareWithCost(row, headline)
  for (const row of rows) {
    row.vsC = row === c ? null : againstC(row, c)
    row.overC = row === c ? null : againstC(row, c, pairedDifference)
  }
  const vsCMeaning = rows.some(row => row.pairing === 'slices') ? VS_C_PAIRED_MEANING : VS_C_MEANING
  const counts = context.options.ladder
  const halves = ownHalves(rows)
  // a rung the run measured and could not halve (its processes failed) counts against it
  const halved = new Set(halves.map(cell => `${cell.variant} ${cell.rung}`))
  const rungs = rows.flatMap(row => RUNGS.map(rung => `${row.variant} ${rung}`))
  const halvesLost = lostCells(rungs, rung => halved.has(rung), rung => rung)
  return { meaning: MEANING, vsCMeaning, counts, pin: context.costPin ?? null, rows, halves, halvesLost }
}

// What a variant's fast-path checks found: { loops: [{ loop, engaged, summary, reason,
// viaWrapper, target (the C function its fast call was found to reach, or null) }],
// failure (the first check's that failed, or null) }, or null where none ran.
function fastPathOf (checks) {
  if (checks.length === 0) return null
  const loops = checks.flatMap(check => (check.fastPath ?? [])
    .map(({ loop, engaged, summary, reason, viaWrapper = null, target = null }) =>
      ({ loop, engaged, summary, reason, viaWrapper, target })))
  return { loops, failure: checks.find(check => !check.ok)?.failure ?? null }
}

const VS_C_MEANING = 'each rung against C\'s, process by process of the same round (process p of every variant runs before process p + 1 of any, seconds apart): the median of the ratios and its interval, so that the machine\'s drift over the run moves neither side of a ratio'

const VS_C_PAIRED_MEANING = 'each rung against C\'s, process by process, each process of a variant ' +
  `taking turns of ${SLICE_MS} ms with a ladder of C's on its CPU, set against that ladder's ` +
  'medians: the median of the ratios and its interval, so that what moves the machine within ' +
  'the second or so both ran moves neither side of a ratio'

// A variant's rungs against C's, process by process: { rung: interval of `paired` (lib/stats
// pairedRatio, how many times; pairedDifference, ns over) }. Each process's C is its
// partner's where it took turns with one, else C's process of its index.
function againstC (row, c, paired = pairedRatio) {
  const cOf = rung => row.pairing === 'slices' ? row.partnerByProcess[rung] : c?.byProcess[rung]
  if (!c && row.pairing !== 'slices') return null
  return Object.fromEntries(RUNGS.map(rung => {
    const pairs = Object.keys(row.byProcess[rung]).filter(run => run in cOf(rung))
    return [rung, paired(pairs.map(run => row.byProcess[rung][run]), pairs.map(run => cOf(rung)[run]))]
  }))
}

// The C a row is taken against in ns: where its processes took turns with C's ladder, that
// ladder's (the median of its processes' medians), measured in the same moments as the
// row's, not C's own processes, which ran alone (a review: C's getppid 172 ns alone, 176 to
// 188 in turns with the variants of results/reference-calls); else C's own row.
function cOfRow (row, c) {
  if (row === c || row.pairing !== 'slices') return c
  const rungs = Object.fromEntries(RUNGS.map(rung => {
    const medians = Object.values(row.partnerByProcess[rung] ?? {})
    return [rung, medians.length ? { estimate: median(medians) } : null]
  }))
  return { variant: BASELINE, rungs }
}

function ladderRow (name, runs) {
  const variant = findVariant(name)
  const ok = runs.filter(run => run.ok)
  const rungs = {}
  const byProcess = {}
  const variance = {}
  // each process's partner, C's ladder in turns with it: its median by the process's index
  const partnerByProcess = {}
  // each rung's processes still warming up in their first timed round, by index; and the
  // processes whose partner, C's ladder in turns with it, was
  const warming = {}
  const partnerWarming = {}
  for (const rung of RUNGS) {
    // each process's ns of this rung, round by round in the order they ran
    const rounds = ok.map(run => run.rounds.map(round => round[rung]))
    const perProcess = rounds.map(ns => median(steadyRounds(ns)))
    warming[rung] = ok.filter((run, i) => firstRoundWarming(rounds[i])).map(run => run.run)
    byProcess[rung] = Object.fromEntries(ok.map((run, i) => [run.run, perProcess[i]]))
    const partnered = ok.filter(run => run.partner?.rounds?.length)
    const partnerRounds = partnered.map(run => run.partner.rounds.map(round => round[rung]))
    partnerByProcess[rung] = Object.fromEntries(partnered
      .map((run, i) => [run.run, median(steadyRounds(partnerRounds[i]))]))
    partnerWarming[rung] = partnered.filter((run, i) => firstRoundWarming(partnerRounds[i])).map(run => run.run)
    // every round, a warming one too: where the variance lives, warm-up included
    variance[rung] = components(rounds)
    const interval = perProcess.length ? medianInterval(perProcess) ?? { estimate: median(perProcess), low: null, high: null } : null
    const spread = interval && Math.max(interval.estimate - interval.low, interval.high - interval.estimate)
    rungs[rung] = interval && {
      ...interval,
      best: Math.min(...rounds.flat()),
      wide: interval.low === null || spread > WIDE_SHARE * interval.estimate
    }
  }
  return {
    variant: name,
    runtime: variant?.runtime ?? null,
    ring: variant?.ring === true,
    wasi: variant?.wasi === true,
    floor: floorOf(variant),
    noSyscall: variant?.noSyscall ?? null,
    boundary: variant?.boundary ?? null,
    read: variant?.read ?? null,
    processes: ok.length,
    failedRuns: runs.length - ok.length,
    compiled: ok[0]?.compiled ?? null,
    rungs,
    // each process's median by its index, and where the rung's variance lives
    byProcess,
    pairing: ok.some(run => run.partner) ? 'slices' : 'processes',
    partnerByProcess,
    warming,
    partnerWarming,
    variance
  }
}

// Whether a process's first timed round still paid for its warm-up (WARMING_RATIO): a rung's
// ns round by round, in the order they ran.
function firstRoundWarming ([first, ...later]) {
  return later.length > 0 && first > WARMING_RATIO * median(later)
}

// A process's rounds of a rung that count: all, but a first round still warming up.
const steadyRounds = rounds => (firstRoundWarming(rounds) ? rounds.slice(1) : rounds)

// Each rung's median over one half of its processes against the other half's (C's in ns, the
// others' ratios to C): what a second run of as many processes would move by, at √2 the
// spread of a run's median of all of them. `halving`: lib/repeatability.js HALVINGS's evenOdd
// (the default) or earlyLate; the processes run in order of their index, every variant's
// process p before any's p + 1.
function ladderHalves (rows, halving = HALVINGS.evenOdd) {
  const c = rows.find(row => row.variant === BASELINE)
  const cells = []
  for (const row of rows) {
    for (const rung of RUNGS) {
      const cOf = row.pairing === 'slices' ? row.partnerByProcess[rung] : c?.byProcess[rung]
      const runs = Object.keys(row.byProcess[rung]).filter(run => row === c || (cOf && run in cOf))
      const value = run => row === c ? row.byProcess[rung][run] : row.byProcess[rung][run] / cOf[run]
      const halfOf = halving(runs)
      const halves = [0, 1].map(half => runs.filter(run => halfOf(run) === half).map(value))
      if (halves.some(half => half.length === 0)) continue
      const [a, b] = halves.map(median)
      cells.push({ variant: row.variant, rung, a, b, movePercent: Math.abs(b / a - 1) * 100 })
    }
  }
  return cells
}

// The run's own repeatability, rung by rung: the larger of its two halvings' moves (even
// against odd processes, early against late: lib/repeatability.js HALVINGS). A second run
// carries both the processes' spread and the drift, and either halving may be the larger at a
// rung: over ten pairs of runs (quiet and noisy, three kinds of VM) the larger foretold its
// pair in 16 of 20 runs, even/odd alone in 10 and early/late in 10, each of those saying less
// than moved in 8 and 9 (docs/calls.md, 2026-12-05). `by` says which set the rung's figure.
function ownHalves (rows) {
  const key = cell => `${cell.variant} ${cell.rung}`
  const late = new Map(ladderHalves(rows, HALVINGS.earlyLate).map(cell => [key(cell), cell.movePercent]))
  return ladderHalves(rows).map(cell => {
    const driftPercent = late.get(key(cell)) ?? null
    const drift = driftPercent !== null && driftPercent > cell.movePercent
    return {
      ...cell,
      processesPercent: cell.movePercent,
      driftPercent,
      movePercent: drift ? driftPercent : cell.movePercent,
      by: drift ? 'drift' : 'processes'
    }
  })
}

// Where the read's ns go, from the rungs' medians, in four parts that add up to what
// the ladder predicts for a 256-byte read:
//   boundary    the no-op call
//   syscall     getppid minus the no-op: a syscall's entry and exit
//   readPath    what this runtime's empty read costs beyond a bare syscall, less what C's
//               does (the kernel's own read path, which C's reads pay too): the
//               runtime's read binding; 0 for C
//   kernelRead  C's 256-byte read minus C's getppid: the kernel's work for the read
//               (the read path, the copy, the pipe's wake-ups), the same in every runtime
// predicted = their sum; the measured read-256 should be within 10% of it (addsUp):
// the runtime adds to a 256-byte read what it adds to an empty one. A ring variant's
// `c` is c-uring: its syscall part is a NOP's round trip through the ring, and its kernel
// read the ring's. The floor itself (C, c-uring) adds up by construction, its parts
// summing to its own read: its addsUp is null and `baseline` true, so that no count of
// what added up includes it.
//
// A variant whose syscall rung is sched_yield (yields: c-yield and the WASI variants) has no
// getppid, and sched_yield does the scheduler's work besides (a host may even answer it
// alone): its syscall part is C's, and its read path its empty read less its no-op, beyond
// C's. The sum, and so the check, is the same either way; sched_yield itself is set against
// c-yield's in the findings.
function decompose (row, c, { yields = false } = {}) {
  const at = (of, rung) => of?.rungs[rung]?.estimate ?? null
  const [noop, syscall, emptyRead] = ['noop', 'syscall', 'empty-read'].map(rung => at(row, rung))
  const [cNoop, cSyscall, cEmptyRead, cRead] = RUNGS.map(rung => at(c, rung))
  if ([noop, syscall, emptyRead, cNoop, cSyscall, cEmptyRead, cRead, at(row, 'read-256')].includes(null)) {
    Object.assign(row, { parts: null, predicted: null, gap: null, addsUp: null })
    return
  }
  const parts = yields
    ? {
        boundary: noop,
        syscall: cSyscall - cNoop,
        readPath: (emptyRead - noop) - (cEmptyRead - cNoop),
        kernelRead: cRead - cSyscall
      }
    : {
        boundary: noop,
        syscall: syscall - noop,
        readPath: (emptyRead - syscall) - (cEmptyRead - cSyscall),
        kernelRead: cRead - cSyscall
      }
  const predicted = parts.boundary + parts.syscall + parts.readPath + parts.kernelRead
  const measured = at(row, 'read-256')
  const addsUp = row === c ? null : Math.abs(measured - predicted) <= ADDS_UP_SHARE * measured
  Object.assign(row, { parts, predicted, gap: measured - predicted, addsUp })
}

// The ladder's read-256 against the cost pass's CPU per read at 256 B for the stdin
// reader that reads the same way: they agree when the ladder's median lies inside that
// cell's interval.
function compareWithCost (row, headline) {
  const program = findVariant(row.variant)?.stdin ?? null
  const cell = headline?.cells.find(entry => entry.program === program && entry.blockSize === BLOCK)
  const read = row.rungs['read-256']
  if (!program || !cell?.cpuPerReadNs || !read) {
    row.stdin = program ? { program, cpuPerReadNs: null, agrees: null } : null
    return
  }
  const { estimate, low, high } = cell.cpuPerReadNs
  row.stdin = { program, cpuPerReadNs: cell.cpuPerReadNs, agrees: low === null ? null : read.estimate >= low && read.estimate <= high, differenceNs: read.estimate - estimate }
}

// The stdin readers whose cost pass the calls experiment runs: each variant's, C's first.
function stdinPrograms (selected) {
  const names = [BASELINE, ...selected.map(variant => variant.stdin).filter(Boolean)]
  return [...new Set(names)].map(name => findProgram(name))
}

module.exports = {
  variants,
  findVariant,
  floorOf,
  listing,
  RUNGS,
  RING_FLOOR,
  PHASE,
  FAST_PHASE,
  PRESETS,
  BLOCK,
  WARMUP_READS,
  ladderArgv,
  ladderHalves,
  ownHalves,
  steadyRounds,
  WARMING_RATIO,
  ladderBytes,
  roundsToMatch,
  partnerRoundsOf,
  checkCounts,
  unavailableReason,
  measureLadder,
  parseLadder,
  ladderFailure,
  planLadder,
  summariseLadder,
  decompose,
  stdinPrograms
}
