'use strict'
// How often the headline's two-run tests cry wolf: with nothing changed between two runs,
// how often does the repeatability criterion (experiments/stdio/cost.js headlineRepeatability: a
// share of C moved by more than 2 points) call a cell unrepeatable, and the shift test
// (the rank test on the two runs' rounds' shares, at 5%) call it shifted? Nothing is
// measured: it resamples the cost-pass rounds of the kept back-to-back runs
// (docs/reproducibility/{a,b,c,d}, the 2026-11-25 runs of 10 rounds as e and f, and of
// 20 rounds 2026-11-25-b as g and results/reference as h):
//
//   node studies/agreement-calibration.js [--resamples 2000] [--rounds 10] [--seed 1] [--pool pair|run]
//
// A pool is every round of one block size of one kept pair (a and b, or c and d: 20 rounds;
// --pool run: of each kept run alone, 10). A round is the unit drawn, every reader's and
// C's full and quarter runs of it together, so the pseudo-runs keep what a real run keeps:
// each round's readers met the same spell of the machine. Two pseudo-runs draw --rounds
// rounds each, with replacement, from one pool, so they come from one distribution: every
// alarm is a false one. Each pair of pseudo-runs goes through summariseHeadline and
// headlineRepeatability, as two real runs do, and through the first pseudo-run's own
// repeatability (its interleaved halves), to set the move it foretells beside the moves
// the pseudo-runs made. Rounds drawn twice tie, which the rank test corrects for.
const fs = require('node:fs')
const path = require('node:path')
const { summariseHeadline, headlineRepeatability, PHASE, QUARTER_PHASE } = require('../experiments/stdio/cost')
const { median, mean, seededRandom, SIGNIFICANCE } = require('../lib/stats')
const { wholeNumber, UsageError, repeatCount } = require('../lib/options')
const { runCli } = require('../lib/cli')
const { parseStudyOptions } = require('./per-read')

const ROOT = path.join(__dirname, '..')
// The kept runs, by pair: each run's cost-pass records and its context.
const KEPT = {
  ab: [['a', 'docs/reproducibility/a/cost.jsonl', 'docs/reproducibility/a/context.json'], ['b', 'docs/reproducibility/b/cost.jsonl', 'docs/reproducibility/b/context.json']],
  cd: [['c', 'docs/reproducibility/c/cost.jsonl', 'docs/reproducibility/c/context.json'], ['d', 'docs/reproducibility/d/cost.jsonl', 'docs/reproducibility/d/context.json']],
  // the slope within one run, every pass pinned, disturbed steps measured again: 10 rounds
  ef: [['e', 'docs/reproducibility/2026-11-25-10-rounds-a/cost.jsonl', 'docs/reproducibility/2026-11-25-10-rounds-a/context.json'], ['f', 'docs/reproducibility/2026-11-25-10-rounds-b/cost.jsonl', 'docs/reproducibility/2026-11-25-10-rounds-b/context.json']],
  // and 20 (the reference run, a2, and the run before it)
  gh: [['g', 'docs/reproducibility/2026-11-25-b/cost.jsonl', 'docs/reproducibility/2026-11-25-b/context.json'], ['h', 'results/reference/all.jsonl', 'results/reference/context.json']]
}
const DEFAULTS = { resamples: '2000', rounds: '10', seed: '1', pool: 'pair' }
const USAGE = `usage: node studies/agreement-calibration.js [--resamples N] [--rounds N] [--seed N] [--pool pair|run]
  False-alarm rates of the headline's two-run criterion and shift test, from pseudo-runs
  resampled out of the kept runs' rounds, two of one pool at a time.
  --resamples N   pairs of pseudo-runs per pool (default ${DEFAULTS.resamples})
  --rounds N      rounds per pseudo-run (default ${DEFAULTS.rounds}, the cost pass's)
  --seed N        seed of the draws (default ${DEFAULTS.seed}); one seed, the same figures
  --pool pair     a pool is both runs of a kept pair (default); run: each kept run alone`

// The command line read as the other studies read theirs (studies/per-read.js): --opt=value
// too, and every refusal one line that names the fix.
function parseOptions (argv) {
  const text = { type: 'string' }
  return parseStudyOptions(argv, { resamples: text, rounds: text, seed: text, pool: text }, USAGE, values => {
    const options = { ...DEFAULTS, ...values }
    if (!['pair', 'run'].includes(options.pool)) {
      throw new UsageError(`--pool must be pair or run, not '${options.pool}'`)
    }
    return {
      resamples: repeatCount(options.resamples, 'resamples'),
      // rankTest needs 4 rounds a side, the halves 8 rounds
      rounds: repeatCount(options.rounds, 'rounds', 4),
      seed: wholeNumber(options.seed, 'seed', 0),
      pool: options.pool
    }
  })
}

function readRun ([name, log, context]) {
  const records = fs.readFileSync(path.join(ROOT, log), 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line))
    .filter(record => record.phase === PHASE || record.phase === QUARTER_PHASE)
  return { name, records, context: JSON.parse(fs.readFileSync(path.join(ROOT, context), 'utf8')) }
}

// Per block size, the pool's rounds: each the records of one round of one kept run.
function roundsBySize (runs) {
  const bySize = new Map()
  for (const run of runs) {
    for (const record of run.records) {
      if (!bySize.has(record.blockSize)) bySize.set(record.blockSize, new Map())
      const key = `${run.name}\t${record.run}`
      const rounds = bySize.get(record.blockSize)
      if (!rounds.has(key)) rounds.set(key, [])
      rounds.get(key).push(record)
    }
  }
  return new Map([...bySize].map(([size, rounds]) => [size, [...rounds.values()]]))
}

function pseudoRun (pool, rounds, random) {
  const records = []
  for (const sizeRounds of pool.values()) {
    for (let run = 0; run < rounds; run++) {
      const drawn = sizeRounds[Math.floor(random() * sizeRounds.length)]
      for (const record of drawn) records.push({ ...record, run })
    }
  }
  return records
}

function calibrate (name, runs, options, random) {
  const pool = roundsBySize(runs)
  const context = { ...runs[0].context, options: { ...runs[0].context.options, costRounds: options.rounds } }
  const tally = { cells: 0, above: 0, beyondNever: 0, tested: 0, shifted: 0, notMet: 0, orderDiffers: 0, moves: [], foretold: [] }
  for (let i = 0; i < options.resamples; i++) {
    const first = summariseHeadline(pseudoRun(pool, options.rounds, random), context)
    const second = summariseHeadline(pseudoRun(pool, options.rounds, random), context)
    const result = headlineRepeatability(first, second)
    tally.cells += result.total
    tally.above += result.total - result.within2
    tally.beyondNever += result.cells.filter(cell => cell.movePoints > result.goal.never).length
    tally.tested += result.shift.tested
    tally.shifted += result.shift.shifted
    if (!result.met) tally.notMet++
    if (!result.runtimeOrder.same) tally.orderDiffers++
    tally.moves.push(...result.cells.map(cell => cell.movePoints))
    tally.foretold.push(...(first.repeatability?.predictedMovePoints ?? []).map(cell => cell.points))
  }
  return { name, runs: runs.map(run => run.name), ...tally }
}

const percent = (part, whole) => `${(part / whole * 100).toFixed(1)}%`
const rms = values => Math.sqrt(mean(values.map(value => value * value)))

function report (result, options) {
  console.log(`pool ${result.name} (${result.runs.join(' + ')}), ${options.resamples} pairs of pseudo-runs of ${options.rounds} rounds:`)
  console.log(`  criterion per cell: a share moved more than 2 points in ${percent(result.above, result.cells)} of ${result.cells} cells, more than 3 in ${percent(result.beyondNever, result.cells)}`)
  console.log(`  criterion per pair of runs: goal not met in ${percent(result.notMet, options.resamples)}; runtimes ranked otherwise (ties by test) in ${percent(result.orderDiffers, options.resamples)}`)
  console.log(`  shift test (rank test, at ${SIGNIFICANCE}): noise in ${percent(result.tested - result.shifted, result.tested)} of ${result.tested} cells, shifted in ${percent(result.shifted, result.tested)} (stated: ${percent(1 - SIGNIFICANCE, 1)} noise)`)
  console.log(`  moves, points: median ${median(result.moves).toFixed(2)}, rms ${rms(result.moves).toFixed(2)}; foretold by the first run's halves / √2: median ${median(result.foretold).toFixed(2)}, rms ${rms(result.foretold).toFixed(2)}`)
}

async function main (options) {
  const random = seededRandom(options.seed)
  const pools = Object.entries(KEPT).flatMap(([pair, kept]) => {
    const runs = kept.map(readRun)
    return options.pool === 'pair' ? [[pair, runs]] : runs.map(run => [run.name, [run]])
  })
  const results = pools.map(([name, runs]) => calibrate(name, runs, options, random))
  for (const result of results) report(result, options)
  const sum = field => results.reduce((total, result) => total + result[field], 0)
  console.log(`all pools: the shift test said noise in ${percent(sum('tested') - sum('shifted'), sum('tested'))} of ${sum('tested')} cells (stated ${percent(1 - SIGNIFICANCE, 1)}); ` +
    `the criterion called ${percent(sum('above'), sum('cells'))} of cells moved beyond 2 points and failed ${percent(sum('notMet'), results.length * options.resamples)} of pairs of runs`)
  return 0
}

runCli({ name: 'agreement-calibration.js', usage: USAGE, parse: parseOptions, run: main })
