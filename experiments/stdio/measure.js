'use strict'
// Measuring one run: the reader's command line for its phase, the pipeline that feeds
// it, what makes the run a data point (verify), and what its profile passes keep.
// bench.js plans the runs and logs them; the studies' tools time runs of their own and
// verify them here too.
const { PHASES } = require('./phases')
const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')
const { spawnSync } = require('node:child_process')
const { commandLine, parseOutput } = require('./programs')
const { UsageError } = require('../../lib/options')
const {
  runPipeline, runHeld, runAlternating, firstTurn, partnerRecord, ddFeeder, PIN_APART, shellQuote
} = require('../../lib/pipeline')
const { withStdinFrom, scratchFolder, scratchFolders } = require('./zero-file')
const { profileArgv, summaryPart, parseProfileRun, readTraceProblem } = require('./strace')
const { parseGcTrace, summariseGc } = require('../../lib/gctrace')
const { writeFileAtomic } = require('../../lib/atomic')
const { runSteal } = require('../../lib/steal')
const { pipelineForeign } = require('../../lib/foreign')
const {
  slopePerRead, longerCostBytes, windowSamples, windowSpan, MIN_WINDOW_SAMPLES, SLICE_MS, pairFigures,
  partnerRatio, partnerBytes, nextPairBytes
} = require('./cost')
const { checkArgv, verdict, engineOf, nameFastCalls } = require('./fastpath')
const { kernelRecord, rawFileName: kernelFileName } = require('./kernel')
const { sysprofArgv } = require('../../lib/sysprof')
const {
  perfRecordArgv, perfScriptArgv, parsePerfScript, perfMapsFromJitdumps, V8_PERF_FLAGS
} = require('../../lib/perf')
const { attribute, profiledReader } = require('./profile')
const { runtimes } = require('../../lib/runtimes')

const MiB = 1 << 20
// dd's block with the fixed feeder, whatever the reader reads: large enough that dd
// is never what a reader waits for.
const FIXED_FEEDER_BLOCK = 65536

function feederBlockSize (options, blockSize) {
  return options.feeder === 'matched' ? blockSize : FIXED_FEEDER_BLOCK
}

const inputLabel = bytes => (bytes % MiB === 0 ? `${bytes / MiB}M` : `${bytes / 1024}K`)

function rawFileName (step) {
  if (step.phase === PHASES.kernel) return kernelFileName(step)
  if (step.phase === PHASES.gc) return path.join('gc', `${step.program.name}-${step.blockSize}.log`)
  if (step.phase === PHASES.fastPath) return path.join(PHASES.fastPath, `${step.program.name}-${step.blockSize}.txt`)
  if (step.phase === PHASES.profile) return path.join('profile', `${profileName(step)}.txt.gz`)
  return path.join('strace', `${step.program.name}-${step.blockSize}-${inputLabel(step.bytes)}.txt`)
}

// The folder V8 writes a fast-path check's graphs to, removed once they are read.
const graphDir = (step, runDir) => path.join(runDir, PHASES.fastPath, `${step.program.name}-${step.blockSize}.graphs`)

// perf record's own time around its command: 0.3 s for a C reader of 64 MiB here
const PERF_ALLOWANCE_MS = 5000

// A profiled run's files, one set per round. perf's data and the folder it runs in are
// removed once read.
const profileName = step => `${step.program.name}-${step.blockSize}-${step.run + 1}`
const profileData = (step, runDir) => path.join(runDir, 'profile', `${profileName(step)}.data`)
// The folder a profiled run works in, one for each run, made and removed by measure: on tmpfs
// where there is one (zero-file.js's scratchFolder), since JavaScriptCore writes its jitdump
// there and syncs each record to disk: on disk its writer thread took 28-35 of the samples of
// a 64 MiB run of bun-ffi, on tmpfs 3.
const PROFILE_PREFIX = 'syscall-lab-profile-'
const profileWorkDir = () => scratchFolder(PROFILE_PREFIX)
// The folders profiled runs work in and have not yet removed.
const profileWorkDirs = () => scratchFolders(PROFILE_PREFIX)

function readerArgv (step, runDir) {
  if (step.phase === PHASES.gc) return commandLine(step.program, step.blockSize, ['--trace-gc'])
  if (step.phase === PHASES.profile) {
    // each runtime's way to name its JIT code for perf: V8's flags, or the environment
    const { v8Flags, perfEnv = {} } = runtimes[step.program.runtime]
    const env = Object.entries(perfEnv).map(([name, value]) => `${name}=${value}`)
    return [...perfRecordArgv(profileData(step, runDir)), ...(env.length ? ['env', ...env] : []),
      ...commandLine(step.program, step.blockSize, v8Flags ? V8_PERF_FLAGS : [])]
  }
  if (step.phase === PHASES.fastPath) {
    return checkArgv(step.program, step.blockSize, graphDir(step, runDir), commandLine)
  }
  const argv = commandLine(step.program, step.blockSize)
  if (step.phase === PHASES.kernel) return [...sysprofArgv(path.join(runDir, rawFileName(step)), { fd: 0 }), ...argv]
  if (step.phase !== PHASES.strace) return argv
  return [...profileArgv(path.join(runDir, rawFileName(step))), ...argv]
}

// A run stopped by --timeout: its reason, and whether a run's failure is that one.
const timedOutAfter = seconds => `timed out after ${seconds} s`
const isTimeout = failure => typeof failure === 'string' && /^timed out after \d+ s$/.test(failure)

// Why a pipeline did not end as a finished run should (`who` names its reader in the
// reason), or null: every tool that reads stdin through pipe-run asks this first.
function pipelineFailure (result, timeoutSeconds, who = 'reader') {
  if (result.stoppedBy) return 'interrupted'
  if (result.timedOut) return timedOutAfter(timeoutSeconds)
  // pipe-run killed them; a reader whose work goes on after it exits has not finished
  if (result.leftBehind) return `${who} left ${result.leftBehind} process(es) running after it exited`
  if (result.reader.signal) return `${who} killed by signal ${result.reader.signal}`
  if (result.reader.exit !== 0) return `${who} exited ${result.reader.exit}: ${result.stderr.trim().split('\n').pop() || 'no message'}`
  if (result.feeder.exit !== 0) return `feeder (dd) failed: exit ${result.feeder.exit}, signal ${result.feeder.signal}`
  return null
}

// A run is a data point only if the reader exited cleanly and counted every byte.
function verify (step, result, output) {
  const failed = pipelineFailure(result, step.timeoutSeconds)
  if (failed) return failed
  if (output === null) return `reader printed no result line: ${JSON.stringify(result.stdout.slice(0, 200))}`
  if (output.size !== step.bytes) return `reader counted ${output.size} bytes, ${step.bytes} were sent`
  if (output.blockSize !== null && output.blockSize !== step.blockSize) return `reader used block size ${output.blockSize}, asked for ${step.blockSize}`
  if (step.program.honoursBlockSize && step.bytes > 0) {
    const fewest = Math.ceil(step.bytes / step.blockSize)
    if (output.reads < fewest) return `reader made ${output.reads} reads, impossible for ${step.bytes} bytes in blocks of at most ${step.blockSize}`
    if (output.reads > step.bytes) return `reader made ${output.reads} reads for ${step.bytes} bytes`
  }
  return null
}

// One run of a step → { record, stopped }; a profiled run in a folder of its own, removed
// when the run is done, however it ends.
async function measure (step, runIndex, options, runDir, zeroFiles) {
  const workDir = step.phase === PHASES.profile ? profileWorkDir() : null
  try {
    return await measureIn(step, runIndex, options, runDir, zeroFiles, workDir)
  } finally {
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true })
  }
}

// With --feeder file the reader's stdin is a file of zeros (/dev/null when empty):
// one for quarter runs, one for the rest, so alternating runs do not rewrite it; and
// pipe-run's own pipe goes unused ("true" writes nothing to it).
// The cost pass (step.ownFeeder) has its own feeder whatever --feeder says: dd's fixed
// blocks through the pipe, on the reader's CPU (experiments/stdio/cost.js).
// workDir: the folder a profiled run works in (profileWorkDir), else null.
async function measureIn (step, runIndex, options, runDir, zeroFiles, workDir) {
  const fromFile = options.feeder === 'file' && !step.ownFeeder
  const feederBlock = fromFile ? null : step.bytes === 0 || step.ownFeeder ? FIXED_FEEDER_BLOCK : feederBlockSize(options, step.blockSize)
  if (step.phase === PHASES.fastPath) {
    fs.rmSync(graphDir(step, runDir), { recursive: true, force: true })
    fs.mkdirSync(graphDir(step, runDir), { recursive: true })
  }
  if (step.phase === PHASES.kernel) fs.mkdirSync(path.join(runDir, 'kernel'), { recursive: true })
  if (step.phase === PHASES.profile) fs.mkdirSync(path.join(runDir, 'profile'), { recursive: true })
  const argv = readerArgv(step, runDir)
  let feeder, reader, command
  if (fromFile) {
    let input = '/dev/null'
    try {
      if (step.bytes > 0) input = await zeroFiles[step.phase === PHASES.timingQuarter ? 'quarter' : 'whole'].of(step.bytes)
    } catch (err) {
      // a resume keeps the run's --mib: only more room lets it go on
      throw new UsageError(`${err.message}; what was measured is kept in ${runDir}: with more room, ` +
        `node bench.js --resume ${runDir} goes on; a smaller --mib is a new run`)
    }
    feeder = ['true']
    reader = withStdinFrom(input, argv)
    command = step.bytes === 0
      ? `${shellQuote(argv)} < /dev/null`
      : `head -c ${step.bytes} /dev/zero > /dev/shm/zeros && ${shellQuote(argv)} < /dev/shm/zeros`
  } else {
    feeder = ddFeeder(step.bytes, feederBlock, Boolean(step.partner))
    reader = argv
    command = `${shellQuote(feeder)} | ${shellQuote(reader)}`
  }
  // every step of an experiment's plan is pinned; the studies' tools pin with --pin
  const pin = step.pin ?? (options.pin ? PIN_APART : null)
  const cwd = workDir ?? undefined
  // perf record adds its own second or so around the reader (PERF_ALLOWANCE_MS), which a
  // short --timeout must not count as a hang
  const timeoutMs = options.timeoutSeconds * 1000 + (step.phase === PHASES.profile ? PERF_ALLOWANCE_MS : 0)
  // a profiled run's CPU time is its reader's, below perf: what perf's own costs per read
  const sampleBelow = step.phase === PHASES.profile
  const spec = { feeder, reader, timeoutMs, pin, sampleMs: step.sampleMs ?? 0, sampleBelow, cwd }
  const { result, partner, naming } = step.partner
    ? await runWithPartner(step, spec, options)
    : heldForNaming(step)
      ? await runNamingFastCalls(step, spec, runDir)
      : { result: await runPipeline(spec), partner: null }
  const output = parseOutput(step.program, result.stdout)
  const failure = verify({ ...step, timeoutSeconds: options.timeoutSeconds }, result, output)
  const record = {
    phase: step.phase,
    program: step.program.name,
    blockSize: step.blockSize,
    run: runIndex,
    bytes: step.bytes,
    feederBlockSize: feederBlock,
    ok: failure === null,
    failure,
    command,
    // the CPUs its processes were pinned to ({ feeder, reader }), as context.json's placement
    // plans them: the kernel pass's summary names them from here
    pin,
    wallNs: result.wallNs,
    // the VM's steal on the CPUs the run used ({ cpus, ticks, clkTck }; lib/steal.js)
    steal: runSteal(result.stealTicks, result.clkTck, pin),
    // what else ran on the pinned CPUs meanwhile (lib/foreign.js): bench.js measures a
    // disturbed step again. The profile passes count calls and collections, not time.
    foreign: [PHASES.strace, PHASES.gc, PHASES.fastPath].includes(step.phase)
      ? null
      : pipelineForeign(result, pin, partner?.result),
    reader: result.reader,
    feeder: result.feeder,
    output,
    // the cost pass's: [the reader's CPU ns, the bytes dd has written] every step.sampleMs ms
    ...(step.sampleMs ? { samples: result.samples } : {}),
    ...(partner ? { sliceMs: step.sliceMs ?? SLICE_MS, turns: result.turns, partner: partner.record } : {}),
    ...(step.pairTries ? { pairTries: step.pairTries } : {}),
    at: new Date().toISOString()
  }
  if (failure === null && partner && !partner.record.ok) {
    Object.assign(record, { ok: false, failure: `its partner, C, failed: ${partner.record.failure}` })
  }
  // Turns that did not give both a slope over the span they shared: C's bytes were a
  // guess (a cell's first pair), or both runs were too short for this CPU. The pair runs
  // again at once: with C's bytes matched to what it measured, then longer, up to the longest
  // a cost run reads (nextPairBytes). The record keeps the tries (pairTries).
  if (record.ok && partner) {
    const ratio = partnerRatio(record)
    if (ratio !== null) partnerRatios.set(partnerCell(step), ratio)
    if (pairFigures(record) === null) {
      const thisTry = { bytes: step.bytes, partnerBytes: partner.record.bytes, turns: record.turns }
      const tries = [...(step.pairTries ?? []), thisTry]
      const bytes = nextPairBytes(tries, partnerRatios.get(partnerCell(step)) ?? null, FIXED_FEEDER_BLOCK)
      if (bytes !== null) return measure({ ...step, bytes, pairTries: tries }, runIndex, options, runDir, zeroFiles)
      const failure = `its turns with C left too few samples for a slope of both, in ${tries.length} tries`
      Object.assign(record, { ok: false, failure })
    }
  }
  // Too few samples for a slope: the run was too short for this CPU, or other work kept the
  // sampler from sampling. Either way it runs again at once, longer (longerCostBytes): a
  // longer run is never the worse figure, and whether the longer one was disturbed its own
  // foreign time says (lib/foreign.js), as for any run. The record keeps what the shorter
  // tries gave (shortTries); one still too short at the longest fails, named so.
  if (failure === null && step.sampleMs && slopePerRead(record) === null) {
    const shortTry = { bytes: step.bytes, wallNs: record.wallNs, windowSamples: windowSamples(record) }
    const bytes = longerCostBytes(record, feederBlock)
    if (bytes === null) {
      const tooShort = `too short for a slope: ${shortTry.windowSamples} samples in its window at ` +
        `${inputLabel(step.bytes)}, the longest a cost run reads (needs ${MIN_WINDOW_SAMPLES})`
      Object.assign(record, { ok: false, failure: tooShort })
    } else {
      const longer = await measure({ ...step, bytes }, runIndex, options, runDir, zeroFiles)
      longer.record.shortTries = [shortTry, ...(longer.record.shortTries ?? [])]
      return longer
    }
  }
  // A reader whose reads the kernel saw otherwise fails the run, and its cell (experiments/stdio/summary.js),
  // and the whole trace stays as the evidence; an honest reader's file keeps the summary.
  if (failure === null && step.phase === PHASES.strace) {
    record.rawFile = rawFileName(step)
    const traceFile = path.join(runDir, record.rawFile)
    const text = fs.readFileSync(traceFile, 'utf8')
    const { allThreads, mainThread, readTrace } = parseProfileRun(text)
    Object.assign(record, { strace: allThreads, mainThread, readTrace })
    const problem = readTraceProblem({ trace: readTrace, program: step.program, blockSize: step.blockSize, bytes: step.bytes, reads: output.reads })
    if (problem === null) writeFileAtomic(traceFile, summaryPart(text))
    else Object.assign(record, { ok: false, failure: problem })
  }
  // The profile stays whole beside the log, as the evidence of what the record says.
  if (failure === null && step.phase === PHASES.kernel) {
    record.rawFile = rawFileName(step)
    const file = path.join(runDir, record.rawFile)
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''
    const { problem, kernel } = kernelRecord(text, { program: step.program, reads: output.reads })
    if (kernel) record.kernel = kernel
    if (problem) Object.assign(record, { ok: false, failure: problem })
  }
  if (failure === null && step.phase === PHASES.gc) {
    record.rawFile = rawFileName(step)
    const trace = result.stdout.split('\n').filter(line => line.startsWith('[')).join('\n') + '\n'
    writeFileAtomic(path.join(runDir, record.rawFile), trace)
    record.gc = summariseGc(parseGcTrace(trace))
  }
  if (step.phase === PHASES.profile) profileRecord(step, record, runDir, workDir)
  if (step.phase === PHASES.fastPath) {
    // its pipe held open once fed: wallNs and the feeder's usage hold the wait, not dd's alone
    if (naming !== undefined) record.held = true
    if (failure === null) checkFastPath(step, result, record, runDir, naming)
    fs.rmSync(graphDir(step, runDir), { recursive: true, force: true })
  }
  return { record, stopped: Boolean(result.stoppedBy) }
}

// A profiled run's samples: perf script's text kept gzipped beside the log (for speedscope,
// Firefox Profiler, FlameGraph), and in the record the read loop's samples in buckets
// (experiments/stdio/profile.js). perf's data and the perf maps go: V8's, and those made of
// JavaScriptCore's jitdumps (in workDir, the run's folder) for perf script.
function profileRecord (step, record, runDir, workDir) {
  const dataFile = profileData(step, runDir)
  let jitMaps = []
  let mapsRemoved = false
  try {
    if (!record.ok) return
    try {
      jitMaps = perfMapsFromJitdumps(workDir)
    } catch (err) {
      Object.assign(record, { ok: false, failure: `its JIT's names for perf could not be read: ${err.message}` })
      return
    }
    const [perf, ...args] = perfScriptArgv(dataFile)
    const script = spawnSync(perf, args, { encoding: 'utf8', maxBuffer: 1 << 30 })
    if (script.status !== 0) {
      Object.assign(record, { ok: false, failure: `perf script failed: ${`${script.stderr}`.trim().split('\n')[0]}` })
      return
    }
    record.rawFile = rawFileName(step)
    fs.writeFileSync(path.join(runDir, record.rawFile), zlib.gzipSync(script.stdout))
    const samples = parsePerfScript(script.stdout)
    for (const pid of new Set(samples.map(sample => sample.pid))) fs.rmSync(`/tmp/perf-${pid}.map`, { force: true })
    mapsRemoved = true
    // the window the profiled run's own slope is taken over, the steady read loop
    record.profile = attribute(samples, profiledReader(step.program, step.blockSize), windowSpan(record))
    if (record.profile.samples === 0) Object.assign(record, { ok: false, failure: 'perf sampled no read of stdin' })
  } finally {
    // a try that failed, here or before, leaves V8's maps too: found by the pids perf recorded
    // (a review: they stayed in /tmp); its samples are no figure, and a later try's text takes
    // its file's name
    if (!mapsRemoved) removePerfMaps(dataFile)
    for (const map of jitMaps) fs.rmSync(map, { force: true })
    // and the one perf record moved aside (.old) when a longer try of a run too short for
    // its slope wrote the same name before this try's was read
    for (const file of [dataFile, `${dataFile}.old`]) fs.rmSync(file, { force: true })
  }
}

// The perf maps (/tmp/perf-PID.map, V8's) of the processes a perf record sampled, where it
// wrote one.
function removePerfMaps (dataFile) {
  if (!fs.existsSync(dataFile)) return
  const [perf, ...args] = perfScriptArgv(dataFile)
  // perf script's argv with its fields asked again: the pid alone
  const script = spawnSync(perf, [...args.slice(0, -2), '-F', 'pid'],
    { encoding: 'utf8', maxBuffer: 1 << 30 })
  const pids = new Set(`${script.stdout ?? ''}`.split('\n').map(line => line.trim())
    .filter(line => /^\d+$/.test(line)))
  for (const pid of pids) fs.rmSync(`/tmp/perf-${pid}.map`, { force: true })
}

// --cost-pairing slices (experiments/stdio/cost.js): the cost run and a run of C take turns
// on its CPU. C is fed as many bytes as should last as long as the reader's run, by the
// ratio of the two that the cell's last pair measured (the reader's own bytes before that).
const partnerRatios = new Map()
const partnerCell = step => `${step.program.name}\t${step.blockSize}`

// Resolves to { result (the reader's pipe-run result, with its turns), partner: { result,
// record } }: C's run, verified as any run is.
async function runWithPartner (step, spec, options) {
  const bytes = partnerBytes(step.bytes, partnerRatios.get(partnerCell(step)) ?? null, FIXED_FEEDER_BLOCK)
  const feeder = ddFeeder(bytes, FIXED_FEEDER_BLOCK, true)
  const reader = commandLine(step.partner, step.blockSize)
  const sliceMs = step.sliceMs ?? SLICE_MS
  const pair = [spec, { ...spec, feeder, reader }]
  const [result, partnerResult] = await runAlternating(pair, sliceMs, firstTurn(step.run))
  const output = parseOutput(step.partner, partnerResult.stdout)
  const partnerStep = { ...step, program: step.partner, bytes, timeoutSeconds: options.timeoutSeconds }
  const failure = verify(partnerStep, partnerResult, output)
  const record = {
    ...partnerRecord(step.partner.name, { feeder, reader }, partnerResult, failure),
    bytes,
    output,
    samples: partnerResult.samples
  }
  return { result, partner: { result: partnerResult, record } }
}

// A V8 reader's check run is held open (lib/pipeline.js runHeld) so that its fast calls can be
// named in its memory before it ends: a V8 graph gives their targets' addresses alone. The
// check feeds its own dd (plan.js: ownFeeder), whose pipe the hold keeps open.
const heldForNaming = step => step.phase === PHASES.fastPath && engineOf(step.program) === 'v8'

// The held check run: { result, partner: null, naming (nameFastCalls's) }. The feeder ends the
// pipe once the reader has been looked at; the run's command line stays dd's.
async function runNamingFastCalls (step, spec, runDir) {
  const dir = graphDir(step, runDir)
  const look = pid => nameFastCalls(pid, dir, step.program.fastest.loop)
  const { result, seen } = await runHeld(spec, path.join(dir, '.held'), look)
  return { result, partner: null, naming: seen }
}

// A fastest reader whose fast path did not engage fails the run, and every cell of its
// (experiments/stdio/summary.js); the engine's trace stays as the evidence. naming: what the
// held run found its fast calls to reach (null where it was not held).
function checkFastPath (step, result, record, runDir, naming = null) {
  const text = `${result.stdout}\n${result.stderr}`
  record.rawFile = rawFileName(step)
  writeFileAtomic(path.join(runDir, record.rawFile), text)
  const found = verdict(step.program, text, graphDir(step, runDir), naming)
  const { engaged, reason, summary = null, reaches = null, evidence } = found
  record.fastPath = { engaged, reason, summary, reaches, evidence }
  if (!found.engaged) Object.assign(record, { ok: false, failure: `fast path not taken: ${found.reason}` })
}

module.exports = {
  measure,
  verify,
  pipelineFailure,
  isTimeout,
  feederBlockSize,
  inputLabel,
  FIXED_FEEDER_BLOCK,
  profileWorkDirs,
  removePerfMaps
}
