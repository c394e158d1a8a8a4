'use strict'
// Where each reader's ns per read go, against C's (issue 50): the stdio profile pass alone
// (experiments/stdio/profile.js), its steps and its summary, for the readers named. In each
// round every reader runs with the cost pass's bytes and dd's fixed 64 KiB blocks, dd on the
// reader's CPU, both at SCHED_BATCH (the pass's placement, lib/placement.js sharedBatch), once
// unprofiled, for its CPU per read, and once under perf (lib/perf.js), whose samples of the read
// loop fall into the same buckets for every runtime. A bucket's ns per read is its share of the
// samples times the unprofiled run's CPU per read; the rounds give each figure its interval.
// At the default policy dd and the reader switch every few pages, and perf's timer (cpu-clock,
// these VMs have no counters) fires as the reader is switched back in, so that samples pile up
// in finish_task_switch (18% of C's, 3% at SCHED_BATCH; docs/profile.md); with dd on the other
// CPU every read's wake-ups cross CPUs, whose cost jumps with the host. Each
// profile's perf script text is kept gzipped in --out, for speedscope, Firefox Profiler or
// FlameGraph.
//
//   node studies/profile.js [--only node-sync] [--sizes 256] [--rounds 2] [--out DIR]
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { BASELINE } = require('../experiments/stdio/programs')
const { probePerf } = require('../lib/perf')
const { measure } = require('../experiments/stdio/measure')
const { costBytes, COST_SAMPLE_MS } = require('../experiments/stdio/plan')
const { PRESETS } = require('../experiments/stdio/options')
const { slopePerRead, windowSpan, pairFigures } = require('../experiments/stdio/cost')
const { BUCKETS, profileSteps, summariseProfile, ladderCheck } = require('../experiments/stdio/profile')
const { parseStudyOptions, outFolderOption, readersAgainstC, blockSizes } = require('./per-read')
const { UsageError, makeDirs, repeatCount } = require('../lib/options')
const { runCli, RunFailed } = require('../lib/cli')
const { placementPlan, allowedCpus, pinSelf } = require('../lib/placement')
const { readJson } = require('../docs/script-args')

const USAGE = `usage: node studies/profile.js [options]
  each reader's CPU per read split into the same buckets as C's, from perf's samples
  --only NAME      a reader to set beside C (repeatable; default node-sync)
  --sizes LIST     block sizes (default 256)
  --rounds N       rounds; every reader once, profiled and not, in each (default 2)
  --ladder RUN     a calls run's folder: each reader's call into its runtime against the
                   ladder's no-op call of the same variant
  --out DIR        where the gzipped perf script texts go (default: a folder in /tmp)
  --help           this text`
const SPEC = {
  only: { type: 'string', multiple: true },
  sizes: { type: 'string' },
  rounds: { type: 'string' },
  ladder: { type: 'string' },
  out: { type: 'string', takes: 'a folder' }
}

// What the command line says is checked before what the machine allows, so that a mistake
// in it is named wherever perf may not sample.
function options (values) {
  const out = outFolderOption(values.out)
  const given = {
    sizes: blockSizes(values.sizes ?? '256'),
    rounds: repeatCount(values.rounds ?? '2', 'rounds', 1),
    ladder: values.ladder === undefined ? null : ladderRows(values.ladder),
    out
  }
  const perf = probePerf()
  if (!perf.available) throw new UsageError(`no profile: ${perf.reason}`)
  return { readers: readersAgainstC(values.only ?? ['node-sync']).readers, ...given }
}

// A calls run's ladder: its rows, or a one-line refusal (a results.json that is not JSON
// once printed two; docs/script-args.js reads it, gzipped too, and names the fix)
function ladderRows (dir) {
  const folder = path.resolve(dir)
  const file = ['results.json', 'results.json.gz'].map(name => path.join(folder, name)).find(fs.existsSync) ??
    path.join(folder, 'results.json')
  const results = readJson(file, 'a calls run\'s results.json (--ladder names its folder)')
  if (!Array.isArray(results?.ladder?.rows)) {
    throw new UsageError(`--ladder: ${file} holds no call ladder: name a run of node bench.js --experiment calls`)
  }
  return results.ladder.rows
}

const ns = value => (value === null || value === undefined ? '–' : value.toFixed(0))
const range = interval =>
  (interval && Number.isFinite(interval.low) ? `${ns(interval.low)}–${ns(interval.high)}` : '')

// The pass's own steps and summary (experiments/stdio/profile.js), every run in `out`
async function main ({ readers, sizes, rounds, ladder, out: given }, stopped) {
  const out = given ?? fs.mkdtempSync(path.join(os.tmpdir(), 'profile-'))
  makeDirs(out)
  const plan = placementPlan(allowedCpus())
  // where this tool ran is part of the method: unpinned, it is said so, not "CPU null"
  const pinned = pinSelf(plan)
  const pin = plan.sharedBatch
  const own = pinned ? `this tool on CPU ${plan.driver}` : 'this tool unpinned (one CPU, or taskset refused)'
  console.log(`dd and each reader on CPU ${pin.reader}, both at SCHED_BATCH; ${own}; ` +
    `${rounds} rounds; profiles in ${out}`)
  for (const blockSize of sizes) {
    const bytes = costBytes(PRESETS.default, blockSize)
    const steps = profileSteps({ costSizes: [blockSize], profileRounds: rounds }, readers,
      { pin, bytes, sampleMs: COST_SAMPLE_MS })
    const records = []
    for (const step of steps) {
      // a stop asked for between steps ends the tool there, not after every step left
      if (stopped()) throw new RunFailed(`stopped before ${step.label}; the runs so far are in ${out}`)
      const { record } = await measure(step, step.run, { timeoutSeconds: 300, feeder: 'fixed' }, out)
      if (!record.ok) throw new RunFailed(`${step.label} failed: ${record.failure}`)
      records.push(record)
    }
    const summary = summariseProfile(records, { slopePerRead, windowSpan, pairFigures })
    print(blockSize, readers, summary)
    if (ladder) printLadder(summary, ladder)
  }
  return 0
}

function print (blockSize, readers, { cells }) {
  const cellOf = program => cells.find(cell => cell.program === program.name)
  console.log(`\n${blockSize} B: ns per read by bucket, the median of the rounds and their interval ` +
    '(each round: the share of perf\'s samples × the unprofiled run\'s CPU per read)')
  // a row of the table: its label, then each reader's figure
  const row = (label, text) => {
    console.log(`  ${label.padEnd(46)}${readers.map(program => text(cellOf(program)).padStart(18)).join('')}`)
  }
  row('bucket', cell => cell.program)
  for (const { key, label } of BUCKETS) {
    row(label, cell => `${ns(cell.buckets[key].ns)} ${range(cell.buckets[key].interval)}`.trim())
  }
  row('CPU per read (unprofiled)', cell => `${ns(cell.cpuPerReadNs)} ${range(cell.cpuPerReadInterval)}`.trim())
  row('perf\'s own cost per read', cell => `${ns(cell.profilerCostNs)} ${range(cell.profilerCostInterval)}`.trim())
  row('samples: share of the window\'s CPU',
    cell => (cell.sampledShare === null ? '–' : cell.sampledShare.toFixed(3)))
  row('samples in the window, median', cell => String(cell.samples))
  const base = cells.find(cell => cell.program === BASELINE)
  for (const cell of readers.map(cellOf).filter(cell => cell !== base)) {
    console.log(`\n  ${cell.program} against C: ${BUCKETS.map(({ key, label }) => {
      const difference = cell.buckets[key].ns - base.buckets[key].ns
      return Math.abs(difference) >= 5 ? `${difference > 0 ? '+' : ''}${difference.toFixed(0)} ${label}` : null
    }).filter(Boolean).join('; ')}`)
    for (const { key, label } of BUCKETS.filter(({ key }) => cell.buckets[key].samples > 0)) {
      console.log(`    ${label}: ${cell.buckets[key].top.map(([frame, count]) => `${frame} ${count}`).join(', ')}`)
    }
    if (cell.shrankAgainstC?.length) {
      const shrank = cell.shrankAgainstC.map(([frame, change]) => `${frame} ${ns(change)}`).join(', ')
      console.log(`    C's frames that shrank: ${shrank}`)
    }
  }
}

// Each reader's call into its runtime against the ladder's no-op call
// (experiments/stdio/profile.js's ladderCheck, which the page's profile table shows too)
function printLadder ({ cells }, ladder) {
  const base = cells.find(cell => cell.program === BASELINE)
  console.log('\n  the call into the runtime, over C\'s: the profile\'s binding and loop against the ' +
    'ladder\'s no-op call')
  for (const cell of cells.filter(each => each !== base)) {
    const check = ladderCheck(cell, base, ladder)
    if (!check) {
      console.log(`    ${cell.program}: not set against it (its read crosses another boundary than its ` +
        'namesake\'s no-op, or the ladder has no such variant or no C)')
      continue
    }
    console.log(`    ${cell.program}: ${ns(check.profiledNs)} ns in the profile, ${check.ladderNs.toFixed(1)} in the ` +
      `ladder${check.disagrees ? ': more than a fifth apart' : ''} (${check.boundary})`)
  }
}

if (require.main === module) {
  const parse = argv => parseStudyOptions(argv, SPEC, USAGE, options)
  runCli({ name: 'profile.js', usage: USAGE, parse, run: main, measures: true })
}
