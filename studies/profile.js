'use strict'
// Where each reader's ns per read go, against C's (issue 50), in rounds of the stdio profile
// pass's two runs: every reader with the cost pass's bytes and dd's fixed 64 KiB blocks, dd on
// the other CPU, once as the cost pass measures it, for its CPU per read, and once under perf
// (lib/perf.js), whose samples of the read loop fall into the same buckets for every runtime
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
const { BASELINE } = require('../experiments/stdio/programs')
const { PHASES } = require('../experiments/stdio/phases')
const { probePerf } = require('../lib/perf')
const { measure } = require('../experiments/stdio/measure')
const { costBytes, COST_SAMPLE_MS } = require('../experiments/stdio/plan')
const { PRESETS } = require('../experiments/stdio/options')
const { slopePerRead } = require('../experiments/stdio/cost')
const { BUCKETS } = require('../experiments/stdio/profile')
const { parseStudyOptions, readersAgainstC, blockSizes } = require('./per-read')
const { wholeNumber, UsageError } = require('../lib/options')
const { runCli, RunFailed } = require('../lib/cli')
const { placementPlan, allowedCpus, pinSelf } = require('../lib/placement')
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

// One profiled run, as the profile pass makes it (experiments/stdio/measure.js): its read
// loop's samples in buckets, its perf script text kept gzipped in `out`, named by its round.
async function profiledRun (program, blockSize, bytes, run, pin, out) {
  const step = { phase: PHASES.profile, program, blockSize, bytes, run, warmup: 0, pin, ownFeeder: true }
  const { record } = await measure(step, run, { timeoutSeconds: 300, feeder: 'fixed' }, out)
  if (!record.ok) throw new RunFailed(`${program.name} @ ${blockSize} under perf failed: ${record.failure}`)
  fs.renameSync(path.join(out, record.rawFile), path.join(out, `${program.name}-${blockSize}-${run + 1}.txt.gz`))
  return record.profile
}

async function costRun (program, blockSize, bytes, run, pin) {
  // the pass's run beside each profile, whose CPU per read its samples' shares divide
  const step = {
    phase: PHASES.profileCpu, program, blockSize, bytes, run, warmup: 0, pin, ownFeeder: true, sampleMs: COST_SAMPLE_MS
  }
  const { record } = await measure(step, run, { timeoutSeconds: 120, feeder: 'fixed' }, os.tmpdir())
  if (!record.ok) throw new RunFailed(`${program.name} @ ${blockSize} failed: ${record.failure}`)
  return slopePerRead(record)
}

const ns = value => (value === null ? '–' : value.toFixed(0))

async function main ({ readers, sizes, rounds, out }) {
  const plan = placementPlan(allowedCpus())
  pinSelf(plan)
  const pin = plan.apart
  console.log(`dd on CPU ${pin.feeder}, each reader on CPU ${pin.reader}; this tool on CPU ${plan.driver}; ` +
    `${rounds} rounds; profiles in ${out}`)
  for (const blockSize of sizes) {
    const bytes = costBytes(PRESETS.default, blockSize)
    // per reader, per round: { cpuNs, buckets: { key: ns } }
    const results = new Map(readers.map(program => [program.name, []]))
    for (let run = 0; run < rounds; run++) {
      for (const program of readers) {
        const cpuNs = await costRun(program, blockSize, bytes, run, pin)
        const profile = await profiledRun(program, blockSize, bytes, run, pin, out)
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
  console.log(`\n${blockSize} B: ns per read by bucket, median of the rounds ` +
    '(each round: the share of perf\'s samples × the cost-pass run\'s CPU per read)')
  // a row of the table: its label, then each reader's figure
  const row = (label, text) => {
    console.log(`  ${label.padEnd(46)}${readers.map(program => text(program).padStart(16)).join('')}`)
  }
  row('bucket', program => program.name)
  for (const { key, label } of BUCKETS) row(label, program => ns(medianOf(program.name, key)))
  const medianRound = (program, field) => median(results.get(program.name).map(round => round[field]))
  row('CPU per read (cost pass)', program => ns(medianRound(program, 'cpuNs')))
  row('samples in the read loop', program => String(medianRound(program, 'samples')))
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
    if (results.get(program.name).length > 1) {
      console.log(`    rounds apart by: ${moves.map(([key, move]) => `${key} ${move.toFixed(0)} ns`).join(', ')}`)
    }
  }
}

if (require.main === module) {
  const parse = argv => parseStudyOptions(argv, SPEC, USAGE, options)
  runCli({ name: 'profile.js', usage: USAGE, parse, run: main, measures: true })
}
