'use strict'
// The fake step, as hyperfine's MockExecutor is to its runs: bench.js's main, in this
// process, with a measurer that starts no reader, ladder, server, wrk or strace. Each
// step gets a record shaped as the real ones of its phase (experiments/stdio/measure.js,
// experiments/calls/ladder.js measureLadder, experiments/http/measure.js and
// experiments/db/measure.js measureStep),
// with figures from a seeded generator that the experiments' summaries can summarise.
// The tests of options, of resuming and of the plan run bench through it; whatever only
// the real programs can show stays in test/e2e/.
const path = require('node:path')

const { seededRandom } = require('../lib/stats')
const { BASELINE, commandLine } = require('../experiments/stdio/programs')
const { ddFeeder, shellQuote } = require('../lib/pipeline')
const { runSteal } = require('../lib/steal')
const { foreignTime } = require('../lib/foreign')
const { summariseGc } = require('../lib/gctrace')
const { PHASES } = require('../experiments/stdio/phases')
const { feederBlockSize, inputLabel, FIXED_FEEDER_BLOCK } = require('../experiments/stdio/measure')
const ladder = require('../experiments/calls/ladder')
const {
  PHASE: HTTP_PHASE, STRACE_PHASE: HTTP_STRACE_PHASE, KERNEL_PHASE: HTTP_KERNEL_PHASE,
  CAPACITY_PHASE: HTTP_CAPACITY_PHASE, LATENCY_PHASE: HTTP_LATENCY_PHASE, kernelRawFile
} = require('../experiments/http/measure')
const { wrkArgv } = require('../experiments/http/wrk')
const { TIMED_RATES } = require('../experiments/http/oha')
const { ENDPOINTS } = require('../experiments/db/check')
const db = require('../experiments/db/measure')
const { REFERENCE: DB_REFERENCE } = require('../experiments/db/servers')

const ROOT = path.resolve(__dirname, '..')
const BENCH = path.join(ROOT, 'bench.js')
const TESTS = __dirname
const FIXTURES = path.join(__dirname, 'fixtures')

// What a real step of each kind costs, roughly as the lab's machine measures it: C's read,
// any other reader's, start-up, and a server's request.
const READ_NS = { baseline: 250, other: 400 }
// the share of a read that the fake kernel pass finds in read(2), and its probes' floor
const KERNEL_SHARE = 0.6
const FLOOR_NS = 150
const STARTUP_CPU_NS = { baseline: 1e6, other: 40e6 }
const REQUEST_CPU_NS = 8000
const REQUESTS_PER_SECOND = 100000
// Every sampled cost run has this many samples, evenly over its bytes: enough for
// experiments/stdio/cost.js's slope window (30% to 98% of stdin, 8 samples at least).
const COST_SAMPLES = 50
const CLK_TCK = 100

// fakeStep({ seed, fail, disturb, stopAfter, stopInQuiet }) → { measurer, interrupted, quiet, measured, waits }
//   measurer     main's measurer: (experiment, options, runDir, interrupted) →
//                { measure(step, run), close() }, as an experiment's session
//   fail         (step, run) → a reason the step's run fails with, or null
//   disturb      (step, run) → true when this try of the step shares its CPUs with other
//                work: its record's foreign time is well over the threshold
//   quiet        main's wait for quiet CPUs, which returns at once; waits lists its CPUs
//   stopAfter    after this many runs logged, the next is stopped in flight, as by Ctrl-C:
//                it resolves stopped and interrupted() is true from then on
//   stopInQuiet  a stop comes during the first wait for quiet CPUs
//   measured     every run measured, warm-ups (run -1) too: { phase, program, blockSize, run }
function fakeStep (behaviour = {}) {
  const { seed = 1, fail = () => null, disturb = () => false, stopAfter = Infinity, stopInQuiet = false } = behaviour
  const random = seededRandom(seed)
  const measured = []
  const waits = []
  let logged = 0
  let stopped = false
  const jitter = () => 1 + (random() - 0.5) * 0.02

  function measure (step, run, options) {
    const record = { ...recordOf(step, run, options, jitter), at: new Date().toISOString() }
    const reason = fail(step, run)
    if (reason) Object.assign(record, { ok: false, failure: reason })
    if (record.foreign && disturb(step, run)) record.foreign = busyCpus(record.foreign)
    measured.push({ phase: step.phase, program: step.program.name, blockSize: step.blockSize, run })
    if (run >= 0 && logged >= stopAfter) stopped = true
    if (stopped) return { record: { ...record, ok: false, failure: 'interrupted' }, stopped: true }
    if (run >= 0) logged++
    return { record, stopped: false }
  }

  const measurer = (experiment, options) => ({
    measure: async (step, run) => measure(step, run, options),
    close: async () => {}
  })
  // as lib/foreign.js's, it is told of a stop by the function it is given
  const quiet = async (cpus, interrupted) => {
    waits.push(cpus)
    if (stopInQuiet) stopped = true
    if (stopInQuiet && !interrupted()) throw new Error('the wait for quiet CPUs cannot hear of a stop')
    return 0
  }
  // BPF as the kernel pass finds it: allowed, whatever this machine allows
  const bpf = { available: true, reason: null }
  // the profile pass samples real stacks, which a fake step has none of (test/e2e/profile.test.js)
  const perf = { available: false, reason: 'the fake step has no stacks to sample' }
  return { measurer, interrupted: () => stopped, quiet, bpf, perf, measured, waits }
}

function recordOf (step, run, options, jitter) {
  const shape = SHAPES[step.phase]
  if (!shape) throw new Error(`the fake step has no record for the phase ${step.phase}`)
  return shape(step, run, options, jitter)
}

const isBaseline = name => name === BASELINE
const cpusOf = pin => [...new Set(Object.values(pin ?? {}))]

// A process's rusage as pipe-run reports it, for this much CPU time.
const usage = cpuNs => ({ exit: 0, signal: 0, userUs: Math.round(cpuNs / 5000), sysUs: Math.round(cpuNs * 4 / 5000), maxRssKb: 2048, voluntaryCs: 4, involuntaryCs: 2 })

// The pinned CPUs, busy with the step's own processes alone: no steal, nothing foreign.
function quietCpus (pin, wallNs, ownNs, source = 'cpuidle') {
  const cpus = cpusOf(pin)
  return {
    steal: runSteal(new Array(Math.max(...cpus, 0) + 1).fill(0), CLK_TCK, pin ?? null),
    foreign: cpus.length ? foreignTime({ source, windowNs: wallNs, perCpu: cpus.map(cpu => ({ cpu, busyNs: ownNs, ownNs })) }) : null
  }
}

// The same CPUs, where other work took half the window of each, and at least
// FOREIGN_NS, above every floor: a try that lib/foreign.js calls disturbed.
const FOREIGN_NS = 50e6
function busyCpus (quiet) {
  const foreignNs = Math.max(FOREIGN_NS, quiet.windowNs / 2)
  return foreignTime({ source: quiet.source, windowNs: Math.max(quiet.windowNs, foreignNs), perCpu: quiet.cpus.map(cpu => ({ cpu, busyNs: foreignNs, ownNs: 0 })) })
}

// A run of a stdin reader (start-up, timing and its quarter runs, cost, strace, gc).
function readerRun (step, run, options, jitter) {
  const program = step.program
  const kind = isBaseline(program.name) ? 'baseline' : 'other'
  const fromFile = options.feeder === 'file' && !step.ownFeeder
  const feederBlock = fromFile ? null : step.bytes === 0 || step.ownFeeder ? FIXED_FEEDER_BLOCK : feederBlockSize(options, step.blockSize)
  const chunk = program.honoursBlockSize ? step.blockSize : FIXED_FEEDER_BLOCK
  const reads = Math.ceil(step.bytes / chunk)
  const readNs = READ_NS[kind] * jitter()
  const cpuNs = STARTUP_CPU_NS[kind] * jitter() + reads * readNs
  const wallNs = Math.round(cpuNs * 1.1)
  const argv = commandLine(program, step.blockSize)
  const profiled = [PHASES.strace, PHASES.gc, PHASES.fastPath].includes(step.phase)
  const { steal, foreign } = quietCpus(step.pin, wallNs, cpuNs)
  return {
    phase: step.phase,
    program: program.name,
    blockSize: step.blockSize,
    run,
    bytes: step.bytes,
    feederBlockSize: feederBlock,
    ok: true,
    failure: null,
    command: fromFile ? `${shellQuote(argv)} < /dev/shm/zeros` : `${shellQuote(ddFeeder(step.bytes, feederBlock))} | ${shellQuote(argv)}`,
    wallNs,
    steal,
    foreign: profiled ? null : foreign,
    reader: usage(cpuNs),
    feeder: usage(wallNs / 10),
    output: program.output === 'count-only' ? { size: step.bytes, reads: null, blockSize: null } : { size: step.bytes, reads, blockSize: step.blockSize },
    ...(step.sampleMs ? { samples: costSamples(step.bytes, cpuNs - reads * readNs, readNs / step.blockSize) } : {}),
    ...(step.phase === PHASES.strace ? straceProfile(step, reads) : {}),
    ...(step.phase === PHASES.gc ? { rawFile: path.join('gc', `${program.name}-${step.blockSize}.log`), gc: summariseGc([]) } : {}),
    ...(step.phase === PHASES.fastPath ? fastPathCheck(step) : {})
  }
}

// A run of the kernel pass (experiments/stdio/kernel.js): the reader's run, with its
// reads as the probes timed them, KERNEL_SHARE of each read in the kernel.
function kernelRun (step, run, options, jitter) {
  const record = readerRun(step, run, options, jitter)
  const reads = record.output.reads
  const readNs = READ_NS[isBaseline(step.program.name) ? 'baseline' : 'other'] * jitter()
  const kernelNs = readNs * KERNEL_SHARE
  const percentiles = { p10: kernelNs + FLOOR_NS - 10, p50: kernelNs + FLOOR_NS, p90: kernelNs + FLOOR_NS + 20, p99: 1000 }
  return {
    ...record,
    rawFile: path.join('kernel', `${step.program.name}-${step.blockSize}-${run + 1}.json`),
    kernel: {
      floorNs: FLOOR_NS,
      lost: 0,
      processes: 1,
      threads: 1,
      readingCall: 'read',
      calls: { count: reads + 1, onCpuNs: kernelNs + FLOOR_NS, kernelNs, wallNs: kernelNs + FLOOR_NS, switchesPerCall: 0, percentiles, buckets: [] },
      kernelPerReadNs: kernelNs * (reads + 1) / reads,
      // the probes' cost: what they add to C's read, a floor's worth on each side
      tracedCpuPerReadNs: (record.reader.userUs + record.reader.sysUs) * 1000 / reads + 2 * FLOOR_NS,
      syscalls: [{ name: 'read', count: reads + 1, errors: 0, onCpuNs: (kernelNs + FLOOR_NS) * (reads + 1), wallNs: 0, switches: 0 }]
    }
  }
}

// A fastest reader's fast-path check, as experiments/stdio/measure.js records one that engaged.
function fastPathCheck (step) {
  const summary = `the fake engine compiled ${step.program.fastest.loop}() with a fast call`
  return {
    rawFile: path.join(PHASES.fastPath, `${step.program.name}-${step.blockSize}.txt`),
    fastPath: { engaged: true, reason: null, summary, evidence: { engine: 'fake', loop: step.program.fastest.loop } }
  }
}

// [the reader's CPU ns, the bytes dd has written], every so many bytes: a straight line.
function costSamples (bytes, startNs, nsPerByte) {
  return Array.from({ length: COST_SAMPLES }, (_, i) => {
    const written = Math.round(bytes * i / (COST_SAMPLES - 1))
    return [Math.round(startNs + written * nsPerByte), written]
  })
}

// What experiments/stdio/strace.js's parseProfileRun makes of a reader's trace: a read per block and
// a dozen calls of start-up, one thread.
function straceProfile (step, reads) {
  const row = (name, calls) => ({ name, calls, errors: 0, seconds: calls * 1e-6, usecsPerCall: 1, percentTime: 0 })
  const syscalls = [row('read', reads + 1), row('mmap', 8), row('close', 2), row('openat', 2)]
  const summary = rows => ({ syscalls: rows, totalCalls: rows.reduce((sum, entry) => sum + entry.calls, 0), totalErrors: 0, totalSeconds: rows.reduce((sum, entry) => sum + entry.seconds, 0), threadsStarted: 0, reads: reads + 1 })
  return {
    rawFile: path.join('strace', `${step.program.name}-${step.blockSize}-${inputLabel(step.bytes)}.txt`),
    strace: summary(syscalls),
    mainThread: summary(syscalls.map(entry => ({ ...entry, seconds: null, usecsPerCall: null, percentTime: null }))),
    readTrace: { stdin: { read: { calls: reads + 1, dataCalls: reads, bytes: step.bytes, maxBytes: step.blockSize, maxAsked: step.blockSize, errors: 0, returned: { [step.blockSize]: reads, 0: 1 } } }, otherCalls: 2 }
  }
}

// One process of a variant's call ladder.
function ladderRun (step, run, options, jitter) {
  const counts = options.ladder
  const bytes = ladder.ladderBytes(counts)
  const rungNs = { noop: 3, syscall: 200, 'empty-read': 225, 'read-256': 440 }
  const boundary = isBaseline(step.variant.name) ? 1 : 10
  const rounds = Array.from({ length: counts.rounds }, () => Object.fromEntries(ladder.RUNGS.map(rung => [rung, (rungNs[rung] + boundary) * jitter()])))
  const cpuNs = counts.rounds * counts.calls * ladder.RUNGS.length * (rungNs['read-256'] + boundary)
  const wallNs = Math.round(cpuNs * 1.1)
  const feeder = ddFeeder(bytes, FIXED_FEEDER_BLOCK)
  return {
    phase: ladder.PHASE,
    program: step.variant.name,
    blockSize: ladder.BLOCK,
    run,
    bytes,
    ok: true,
    failure: null,
    command: `${shellQuote(feeder)} | ${shellQuote(ladder.ladderArgv(step.variant, counts))}`,
    wallNs,
    ...quietCpus(step.pin, wallNs, cpuNs),
    reader: usage(cpuNs),
    compiled: Object.fromEntries(ladder.RUNGS.map(rung => [rung, step.variant.runtime === 'native' ? 'native' : 'yes'])),
    rounds,
    output: { size: bytes, reads: ladder.WARMUP_READS + counts.rounds * counts.reads, blockSize: ladder.BLOCK }
  }
}

// A ladder's fast-path check (experiments/calls/fastpath.js): every loop held.
function ladderCheckRun (step, run) {
  return {
    phase: ladder.FAST_PHASE,
    program: step.variant.name,
    blockSize: ladder.BLOCK,
    run,
    loops: step.loops,
    ok: true,
    failure: null,
    command: `fake check of ${step.variant.name}`,
    rawFile: path.join(ladder.FAST_PHASE, `${step.variant.name}.txt.gz`),
    fastPath: step.loops.map(loop =>
      ({ loop, engaged: true, reason: null, summary: `the fake engine compiled ${loop}() fast` })),
    wallNs: 1e8
  }
}

// A timed wrk run against a server process that was checked and warmed up (or a capacity
// run); beside the reference's pair, taking turns with it, where the step says so: each
// pair let run half the time.
function wrkRun (step, run, options, jitter) {
  const seconds = options.http.seconds
  const rate = REQUESTS_PER_SECOND * jitter()
  const requests = Math.round(rate * seconds)
  const cpuNs = requests * REQUEST_CPU_NS
  const wallNs = Math.round(seconds * 1e9)
  const ticks = Math.round(cpuNs * CLK_TCK / 1e9)
  const server = { cpuNs, cpuFrom: 'schedstat', threadsEnded: 0, slices: Math.round(requests / 4), userTicks: Math.round(ticks / 5), systemTicks: ticks - Math.round(ticks / 5), clkTck: CLK_TCK, threads: 1, maxRssKiB: 4096 }
  const turns = step.partner
    ? {
        runningNs: wallNs / 2,
        interleaved: { sliceMs: 50, turns: 10 },
        partner: { program: step.partner.name, wrk: { requests: Math.round(requests / 2), requestsPerSecond: rate / 2 }, server: { ...server, cpuNs: cpuNs / 2.4 }, runningNs: wallNs / 2 }
      }
    : {}
  return {
    phase: step.phase,
    program: step.server.name,
    mode: step.mode,
    connections: step.connections,
    blockSize: null,
    run,
    ok: true,
    failure: null,
    command: shellQuote(wrkArgv(step, '{port}', options)),
    wallNs,
    wrk: { requests, seconds, requestsPerSecond: rate, latencyUs: { mean: 150, max: 900, p50: 120, p75: 160, p90: 200, p99: 400 }, errors: { connect: 0, read: 0, write: 0, timeout: 0 }, non2xx: 0 },
    unannouncedClose: false,
    warmupRates: [rate, rate],
    warmupAgreed: true,
    server,
    ...turns,
    foreign: quietCpus(step.pin, wallNs, cpuNs, 'stat').foreign
  }
}

// A wrk run of the kernel pass: the timed run's, with the server's calls as the probes
// counted them: a read and a write a request, and an epoll_wait every tenth.
function kernelWrkRun (step, run, options, jitter) {
  const record = wrkRun(step, run, options, jitter)
  const requests = record.wrk.requests
  const calls = [['read', requests, 900], ['write', requests, 2000], ['epoll_wait', Math.round(requests / 10), 300]]
  return {
    ...record,
    phase: HTTP_KERNEL_PHASE,
    ...(step.apart ? { apart: true } : {}),
    rawFile: kernelRawFile(step),
    kernel: {
      requests,
      floorNs: FLOOR_NS,
      threads: 1,
      processes: 1,
      syscalls: calls.map(([name, count, p50Ns]) => ({ name, calls: count, errors: 0, onCpuNs: count * p50Ns, p50Ns }))
    }
  }
}

// A latency pass run: oha at the step's share of the reference's 50,000 req/s, the median of
// its 6 timed runs, every request answered, a collection per 1,000 requests for a server on V8.
const LATENCY_CAPACITY = 50000
const TIMED_SOURCE = { from: TIMED_RATES, runs: 6 }
function ohaRun (step, run, options, jitter) {
  const { seconds } = options.http.latency
  const rate = Math.round(step.rateShare * LATENCY_CAPACITY)
  const answered = rate * seconds
  const cpuNs = answered * REQUEST_CPU_NS * 4 * jitter()
  const onV8 = ['node', 'deno', 'just'].includes(step.server.runtime)
  const collections = onV8 ? Math.round(answered / 1000) : 0
  return {
    phase: step.phase,
    program: step.server.name,
    mode: step.mode,
    connections: step.connections,
    blockSize: null,
    process: step.process,
    tracedApart: step.server.runtime === 'bun',
    round: 0,
    run,
    rateShare: step.rateShare,
    rate,
    capacity: {
      program: 'c-epoll', requestsPerSecond: LATENCY_CAPACITY, connections: step.warmupConnections, ...TIMED_SOURCE
    },
    pin: step.pin,
    seconds,
    command: `oha -q ${rate} -c ${step.connections}`,
    ok: true,
    failure: null,
    wallNs: seconds * 1e9,
    oha: { answered, statusCodes: { 200: answered }, errors: {}, seconds, requestsPerSecond: rate, latencyMs: { p50: 0.1, p90: 0.2, p99: 0.4 * jitter(), p999: 1.5, max: 2 } },
    holdsRate: true,
    server: { cpuNs, cpuFrom: 'schedstat', threadsEnded: 0, slices: answered, userTicks: 1, systemTicks: 1, clkTck: CLK_TCK, threads: 1, maxRssKiB: 4096 },
    ohaCpuNs: answered * 12000,
    steal: quietCpus(step.pin, seconds * 1e9, cpuNs).steal,
    gc: onV8
      ? { how: 'V8 --trace-gc', collections, perThousandRequests: collections / answered * 1000, pausedShare: collections * 0.5e6 / (seconds * 1e9), totalPauseMs: collections * 0.5, longestPauseMs: 0.9, byKind: {} }
      : { how: null, reason: 'no garbage collector' }
  }
}

// A timed wrk run of a db server (experiments/db/measure.js measureStep): the http run's,
// with its endpoint; its backends' CPU, a query's worth of BACKEND_CPU_NS a request (the
// endpoint's rows where it asks for many), and the cluster's upkeep; wrk's CPU, and the rest
// of the CPUs' busy time; beside the reference's, in turns with it, where the step says so.
const BACKEND_CPU_NS = 6000
function dbRun (step, run, options, jitter) {
  const load = { http: options.db }
  const timed = wrkRun({ ...step, mode: db.MODE, partner: null }, run, load, jitter)
  const { requests } = timed.wrk
  const queries = ENDPOINTS[step.endpoint].rows ?? 1
  const backends = cpuNs =>
    ({ cpuNs, userTicks: Math.round(cpuNs * CLK_TCK / 1e9 / 2), processes: options.db.pool })
  const turns = step.partner
    ? {
        runningNs: timed.wallNs / 2,
        interleaved: { sliceMs: 50, turns: 10 },
        partner: {
          program: step.partner.name,
          wrk: { ...timed.wrk, requests: Math.round(requests / 2) },
          server: { ...timed.server, cpuNs: timed.server.cpuNs / 2.4 },
          backends: backends(requests / 2 * queries * BACKEND_CPU_NS),
          runningNs: timed.wallNs / 2
        }
      }
    : {}
  const { mode, unannouncedClose, warmupAgreed, ...shared } = timed
  return {
    ...shared,
    endpoint: step.endpoint,
    load: { seconds: options.db.seconds, timeoutSeconds: null },
    steal: quietCpus(step.pin, timed.wallNs, timed.server.cpuNs).steal,
    warmupCpuUs: [REQUEST_CPU_NS / 1000, REQUEST_CPU_NS / 1000],
    warmupAgreed,
    warmupBasis: 'cpu',
    pool: options.db.pool,
    backends: backends(requests * queries * BACKEND_CPU_NS * jitter()),
    databaseUpkeep: { cpuNs: 1e6, userTicks: 0, processes: 5 },
    wrkCpuNs: requests * 3000,
    restCpuNs: requests * 500,
    ...turns
  }
}

// A db run of the kernel pass: the timed run's, the server's calls and its backends' as the
// probes counted them: a read and a write a request each, and a query's send and receive.
function dbKernelRun (step, run, options, jitter) {
  const record = dbRun(step, run, options, jitter)
  const requests = record.wrk.requests
  const queries = requests * (ENDPOINTS[step.endpoint].rows ?? 1)
  const calls = rows => rows.map(([name, count, p50Ns]) =>
    ({ name, calls: count, errors: 0, onCpuNs: count * p50Ns, p50Ns }))
  return {
    ...record,
    rawFile: path.join('kernel', `db-${step.server.name}-${step.endpoint}-${step.connections}.json.gz`),
    kernel: {
      requests,
      floorNs: FLOOR_NS,
      server: {
        requests,
        syscalls: calls([['read', requests + queries, 900], ['write', requests + queries, 2000]])
      },
      backends: { requests, syscalls: calls([['recvfrom', queries, 700], ['sendto', queries, 1500]]) }
    }
  }
}

// A db server and its backends under strace -f -c (experiments/db/measure.js measureStrace),
// answering step.requests requests: the server an HTTP read and write a request and a query's
// send and receive, each backend a query's receive and send; forty calls of attaching.
function dbServerTrace (step, run) {
  const queries = step.requests * (ENDPOINTS[step.endpoint].rows ?? 1)
  const counts = rows => {
    const syscalls = [...rows, ['mmap', 40]].map(([name, calls]) => ({ name, calls, errors: 0 }))
    return { syscalls, totalCalls: syscalls.reduce((sum, entry) => sum + entry.calls, 0) }
  }
  return {
    phase: db.STRACE_PHASE,
    program: step.server.name,
    endpoint: step.endpoint,
    connections: step.connections,
    requests: step.requests,
    blockSize: null,
    run,
    command: `strace -f -c -p {pid}: ${step.server.name}`,
    ok: true,
    failure: null,
    server: counts([['read', step.requests + queries], ['write', step.requests + queries]]),
    backends: counts([['recvfrom', queries], ['sendto', queries]]),
    at: new Date().toISOString()
  }
}

// A db latency pass run: oha on /db, as the http pass's, at a share of the reference's rate.
function dbOhaRun (step, run, options, jitter) {
  const { process: _, round, ...record } = ohaRun(step, run, { http: { latency: options.db.latency } }, jitter)
  return {
    ...record,
    endpoint: step.endpoint,
    mode: db.MODE,
    capacity: {
      program: DB_REFERENCE, requestsPerSecond: LATENCY_CAPACITY, connections: step.warmupConnections, ...TIMED_SOURCE
    }
  }
}

// A server under strace -f -c answering step.requests requests: accept, read, write and
// close each, and forty calls of start-up and exit.
function serverTrace (step, run) {
  const syscalls = [['accept4', step.requests], ['read', step.requests], ['write', step.requests], ['close', step.requests], ['mmap', 40]].map(([name, calls]) => ({ name, calls, errors: 0 }))
  return {
    phase: HTTP_STRACE_PHASE,
    program: step.server.name,
    mode: step.mode,
    connections: step.connections,
    requests: step.requests,
    blockSize: null,
    run,
    command: `strace -qq -f -c -- ${step.server.name}`,
    ok: true,
    failure: null,
    syscalls,
    totalCalls: syscalls.reduce((sum, entry) => sum + entry.calls, 0)
  }
}

const SHAPES = {
  [PHASES.startup]: readerRun,
  [PHASES.timing]: readerRun,
  [PHASES.timingQuarter]: readerRun,
  [PHASES.cost]: readerRun,
  [PHASES.strace]: readerRun,
  [PHASES.gc]: readerRun,
  [PHASES.fastPath]: readerRun,
  [PHASES.kernel]: kernelRun,
  [PHASES.kernelUntraced]: readerRun,
  [ladder.PHASE]: ladderRun,
  [ladder.FAST_PHASE]: ladderCheckRun,
  [HTTP_PHASE]: wrkRun,
  [HTTP_CAPACITY_PHASE]: wrkRun,
  [HTTP_STRACE_PHASE]: serverTrace,
  [HTTP_KERNEL_PHASE]: kernelWrkRun,
  [HTTP_LATENCY_PHASE]: ohaRun,
  [db.PHASE]: dbRun,
  [db.KERNEL_PHASE]: dbKernelRun,
  [db.STRACE_PHASE]: dbServerTrace,
  [db.LATENCY_PHASE]: dbOhaRun
}

// Runs `node bench.js ARGS` in this process, with env added to the environment, measured
// by `step`, and resolves to what spawnSync gives: { status, stdout, stderr }. The lab is
// loaded afresh for each call, as a new process would load it under env; its exit handlers
// (the run folder's lock) run when it is done, as at a process's exit. Bench is given the
// placement for CPUs 0 and 1, whatever the machine, and so leaves the test runner's
// process unpinned.
async function runBench (args, { env = {}, step = fakeStep() } = {}) {
  const saved = { argv: process.argv, cwd: process.cwd(), env: Object.fromEntries(Object.keys(env).map(name => [name, process.env[name]])), exitHandlers: process.listeners('exit') }
  const output = { stdout: '', stderr: '' }
  const restoreStreams = ['stdout', 'stderr'].map(name => capture(process[name], text => { output[name] += text }))
  Object.assign(process.env, env)
  process.argv = [process.execPath, BENCH, ...args]
  process.chdir(ROOT)
  let status
  try {
    forgetLab()
    const { placementPlan } = require('../lib/placement')
    const { main, parseOptions, usage } = require(BENCH)
    const { runTool } = require('../lib/cli')
    const given = {
      measurer: step.measurer,
      placement: { plan: placementPlan([0, 1]), refused: [] },
      quiet: step.quiet,
      bpf: step.bpf,
      perf: step.perf
    }
    const run = parsed => main(parsed, step.interrupted, given)
    status = await runTool({ name: 'bench.js', usage: usage(), parse: parseOptions, run }, args)
  } finally {
    for (const handler of process.listeners('exit')) if (!saved.exitHandlers.includes(handler)) handler()
    for (const restore of restoreStreams) restore()
    for (const [name, value] of Object.entries(saved.env)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
    process.argv = saved.argv
    process.chdir(saved.cwd)
    forgetLab()
  }
  return { status, ...output }
}

// Every module but the tests' own and the installed packages', dropped from require's
// cache so that the next require loads it as a new process would.
function forgetLab () {
  const kept = file => file.includes(`${path.sep}node_modules${path.sep}`) || (file.startsWith(TESTS + path.sep) && !file.startsWith(FIXTURES + path.sep))
  for (const file of Object.keys(require.cache)) if (!kept(file)) delete require.cache[file]
}

// What bench writes as text goes to `take`; anything else (the test runner's own
// reports, which it writes as buffers) passes through. Returns the restore.
function capture (stream, take) {
  const write = stream.write
  stream.write = function (chunk, ...rest) {
    if (typeof chunk !== 'string') return write.call(this, chunk, ...rest)
    take(chunk)
    const done = rest.find(arg => typeof arg === 'function')
    if (done) process.nextTick(done)
    return true
  }
  return () => { stream.write = write }
}

module.exports = { fakeStep, runBench }
