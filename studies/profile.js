'use strict'
// Where each reader's ns per read go, against C's (issue 50): in each round, every reader
// runs twice with the cost pass's bytes and dd's fixed 64 KiB blocks, dd on the other CPU:
// once as the cost pass measures it, for its CPU per read, and once under perf (lib/perf.js),
// whose samples of the read loop fall into the same buckets for every runtime
// (experiments/stdio/profile.js). A bucket's ns per read is its share of the samples times
// the unprofiled run's CPU per read; the rounds' spread says how well it repeats.
// Apart, not on the cost pass's one CPU: there the reader sleeps each time the pipe empties,
// and perf's timer (cpu-clock, these VMs have no counters) fires when it is switched back in,
// so that samples pile up in finish_task_switch (61% of C's, 2.5% apart; docs/profile.md). Each
// profile's perf script text is kept gzipped in --out, for speedscope, Firefox Profiler or
// FlameGraph.
//
//   node studies/profile.js [--only node-sync] [--sizes 256] [--rounds 2] [--out DIR]
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const zlib = require('node:zlib')
const { spawnSync } = require('node:child_process')
const { BASELINE, commandLine } = require('../experiments/stdio/programs')
const { measure } = require('../experiments/stdio/measure')
const { costBytes, COST_SAMPLE_MS } = require('../experiments/stdio/plan')
const { PRESETS } = require('../experiments/stdio/options')
const { slopePerRead } = require('../experiments/stdio/cost')
const { BUCKETS, attribute } = require('../experiments/stdio/profile')
const { perfRecordArgv, perfScriptArgv, parsePerfScript, probePerf } = require('../lib/perf')
const { runtimes } = require('../lib/runtimes')
const { parseStudyOptions, readersAgainstC, blockSizes } = require('./per-read')
const { wholeNumber, UsageError } = require('../lib/options')
const { runCli, RunFailed } = require('../lib/cli')
const { placementPlan, allowedCpus, pinSelf } = require('../lib/placement')
const { shellQuote, ddFeeder } = require('../lib/pipeline')
const { FIXED_FEEDER_BLOCK } = require('../experiments/stdio/measure')
const { median } = require('../lib/stats')

const USAGE = `usage: node studies/profile.js [options]
  each reader's CPU per read split into the same buckets as C's, from perf's samples
  --only NAME      a reader to set beside C (repeatable; default node-sync)
  --sizes LIST     block sizes (default 256)
  --rounds N       rounds; every reader once, profiled and not, in each (default 2)
  --out DIR        where the gzipped perf script texts go (default: a folder in /tmp)`
const SPEC = {
  only: { type: 'string', multiple: true },
  sizes: { type: 'string' },
  rounds: { type: 'string' },
  out: { type: 'string' }
}
// V8's own perf map names its JIT code; its interpreted frames get native ones
const V8_PERF_FLAGS = ['--perf-basic-prof', '--interpreted-frames-native-stack']

function options (values) {
  const perf = probePerf()
  if (!perf.available) throw new UsageError(`no profile: ${perf.reason}`)
  const { readers } = readersAgainstC(values.only ?? ['node-sync'])
  const out = path.resolve(values.out ?? fs.mkdtempSync(path.join(os.tmpdir(), 'profile-')))
  fs.mkdirSync(out, { recursive: true })
  return {
    readers,
    sizes: blockSizes(values.sizes ?? '256'),
    rounds: wholeNumber(values.rounds ?? '2', 'rounds', 1),
    out
  }
}

// The reader's command line under perf, with V8's perf flags where its runtime takes them.
function profiledArgv (program, blockSize, dataFile) {
  const flags = runtimes[program.runtime].v8Flags ? V8_PERF_FLAGS : []
  return [...perfRecordArgv(dataFile), ...commandLine(program, blockSize, flags)]
}

// One profiled run: dd and the reader under perf on the cost pass's CPU; its samples in
// buckets, and the perf script text kept gzipped.
function profiledRun (program, blockSize, bytes, pin, keepAs) {
  // a folder of its own: V8 with its perf flags may leave isolate logs where it runs
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'profile-run-'))
  const dataFile = path.join(scratch, 'perf.data')
  const feeder = `taskset -c ${pin.feeder} ${shellQuote(ddFeeder(bytes, FIXED_FEEDER_BLOCK))}`
  const reader = `taskset -c ${pin.reader} ${shellQuote(profiledArgv(program, blockSize, dataFile))}`
  try {
    const ran = spawnSync('sh', ['-c', `${feeder} | ${reader}`], { cwd: scratch, encoding: 'utf8', timeout: 300000 })
    if (ran.status !== 0) throw new RunFailed(`${program.name} under perf failed (exit ${ran.status}): ${ran.stderr.trim().split('\n')[0]}`)
    const [perf, ...args] = perfScriptArgv(dataFile)
    const script = spawnSync(perf, args, { encoding: 'utf8', maxBuffer: 1 << 30 })
    if (script.status !== 0) throw new RunFailed(`perf script failed: ${script.stderr.trim().split('\n')[0]}`)
    fs.writeFileSync(keepAs, zlib.gzipSync(script.stdout))
    const samples = parsePerfScript(script.stdout)
    // V8's perf maps, read now, are left in /tmp by every process that wrote one
    for (const pid of new Set(samples.map(sample => sample.pid))) fs.rmSync(`/tmp/perf-${pid}.map`, { force: true })
    const binary = path.basename(commandLine(program, blockSize)[0])
    return attribute(samples, { binary, native: program.runtime === 'native' })
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
}

async function costRun (program, blockSize, bytes, run, pin) {
  const step = { phase: 'cost', program, blockSize, bytes, run, warmup: 0, pin, ownFeeder: true, sampleMs: COST_SAMPLE_MS }
  const { record } = await measure(step, run, { timeoutSeconds: 120, feeder: 'fixed' }, os.tmpdir())
  if (!record.ok) throw new RunFailed(`${program.name} @ ${blockSize} failed: ${record.failure}`)
  return slopePerRead(record)
}

const ns = value => (value === null ? '–' : value.toFixed(0))

async function main ({ readers, sizes, rounds, out }) {
  const plan = placementPlan(allowedCpus())
  pinSelf(plan)
  const pin = plan.apart
  console.log(`dd on CPU ${pin.feeder}, each reader on CPU ${pin.reader}; this tool on CPU ${plan.driver}; ${rounds} rounds; profiles in ${out}`)
  for (const blockSize of sizes) {
    const bytes = costBytes(PRESETS.default, blockSize)
    // per reader, per round: { cpuNs, buckets: { key: ns } }
    const results = new Map(readers.map(program => [program.name, []]))
    for (let run = 0; run < rounds; run++) {
      for (const program of readers) {
        const cpuNs = await costRun(program, blockSize, bytes, run, pin)
        const profile = profiledRun(program, blockSize, bytes, pin, path.join(out, `${program.name}-${blockSize}-${run + 1}.txt.gz`))
        const buckets = Object.fromEntries(BUCKETS.map(({ key }) => [key, (profile.buckets[key].share ?? 0) * cpuNs]))
        results.get(program.name).push({ cpuNs, samples: profile.samples, buckets, top: profile.buckets })
      }
    }
    print(blockSize, readers, results)
  }
  return 0
}

function print (blockSize, readers, results) {
  const medianOf = (name, key) => median(results.get(name).map(round => round.buckets[key]))
  console.log(`\n${blockSize} B: ns per read by bucket, median of the rounds (each round: the share of perf's samples × the cost-pass run's CPU per read)`)
  console.log(`  ${'bucket'.padEnd(46)}${readers.map(program => program.name.padStart(16)).join('')}`)
  for (const { key, label } of BUCKETS) {
    console.log(`  ${label.padEnd(46)}${readers.map(program => ns(medianOf(program.name, key)).padStart(16)).join('')}`)
  }
  console.log(`  ${'CPU per read (cost pass)'.padEnd(46)}${readers.map(program => ns(median(results.get(program.name).map(round => round.cpuNs))).padStart(16)).join('')}`)
  console.log(`  ${'samples in the read loop'.padEnd(46)}${readers.map(program => String(median(results.get(program.name).map(round => round.samples))).padStart(16)).join('')}`)
  for (const program of readers.filter(program => program.name !== BASELINE)) {
    console.log(`\n  ${program.name} against C: ${BUCKETS.map(({ key, label }) => {
      const difference = medianOf(program.name, key) - medianOf(BASELINE, key)
      return Math.abs(difference) >= 5 ? `${difference > 0 ? '+' : ''}${difference.toFixed(0)} ${label}` : null
    }).filter(Boolean).join('; ')}`)
    const last = results.get(program.name).at(-1).top
    for (const { key, label } of BUCKETS) {
      if (last[key].samples === 0) continue
      console.log(`    ${label}: ${last[key].top.map(([frame, count]) => `${frame} ${count}`).join(', ')}`)
    }
    // how well it repeats: each bucket's spread between the rounds, in ns
    const moves = BUCKETS.map(({ key }) => {
      const values = results.get(program.name).map(round => round.buckets[key])
      return [key, Math.max(...values) - Math.min(...values)]
    }).filter(([, move]) => move >= 1)
    if (results.get(program.name).length > 1) console.log(`    rounds apart by: ${moves.map(([key, move]) => `${key} ${move.toFixed(0)} ns`).join(', ')}`)
  }
}

if (require.main === module) {
  runCli({ name: 'profile.js', usage: USAGE, parse: argv => parseStudyOptions(argv, SPEC, USAGE, options), run: main, measures: true })
}

module.exports = { profiledArgv }
