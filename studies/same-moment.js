'use strict'
// Which way of setting a reader's cost run beside C's holds the share of C still on a
// machine whose speed moves (issue 47; docs/method.md, "In the same moment as C"). Each
// trial measures the reader and C once in every design, the designs in an order that
// turns from trial to trial, all on the cost pass's CPU with the cost pass's own code
// (experiments/stdio/measure.js, cost.js):
//   rounds     C's run, then the reader's: separate runs, moments apart (--cost-pairing
//              rounds, less its Hodges-Lehmann over rounds)
//   together   both pipelines at once on the CPU, its scheduler sharing it out
//   slices-N   both at once, taking turns of N ms, the other paused (--cost-pairing slices)
// A design's figure is how far one trial's share of C strays: the spread (coefficient of
// variation) of the trials' shares, with C's own spread beside it, which is the machine's.
// What each design measures shows in C's CPU per read beside its spread: a design in
// which C's read costs other than alone measures another thing.
//
//   node studies/same-moment.js [--only node-sync] [--sizes 256] [--trials 10]
//                               [--designs rounds,together,slices-2,slices-5,slices-10]
const os = require('node:os')
const { findProgram, BASELINE } = require('../experiments/stdio/programs')
const { measure } = require('../experiments/stdio/measure')
const { costBytes, COST_SAMPLE_MS } = require('../experiments/stdio/plan')
const { PRESETS } = require('../experiments/stdio/options')
const { slopePerRead, pairFigures } = require('../experiments/stdio/cost')
const { parseStudyOptions, readersAgainstC, blockSizes } = require('./per-read')
const { repeatCount, firstRepeat } = require('../lib/options')
const { runCli } = require('../lib/cli')
const { placementPlan, allowedCpus, pinSelf } = require('../lib/placement')
const { stopOnSignals } = require('../lib/pipeline')
const { median } = require('../lib/stats')

const USAGE = `usage: node studies/same-moment.js [options]
  the share of C of each reader, measured by each design in turn, and how far it strays
  --only NAME      a reader to set beside C (repeatable; default node-sync)
  --sizes LIST     block sizes (default 256)
  --trials N       trials; every design once in each (default 10)
  --designs LIST   rounds, together, slices-N (N ms turns) (default
                   rounds,together,slices-2,slices-5,slices-10)
  --help           this text`
const DEFAULTS = {
  only: ['node-sync'],
  sizes: '256',
  trials: 10,
  designs: 'rounds,together,slices-2,slices-5,slices-10'
}
const SPEC = {
  only: { type: 'string', multiple: true },
  sizes: { type: 'string' },
  trials: { type: 'string' },
  designs: { type: 'string' }
}

function options (values) {
  const designs = (values.designs ?? DEFAULTS.designs).split(',').map(design => {
    if (design === 'rounds' || design === 'together') return design
    const match = /^slices-(\d+)$/.exec(design)
    if (match && Number(match[1]) > 0) return design
    throw new Error(`--designs takes rounds, together or slices-N (N ms, at least 1), not '${design}'`)
  })
  // a design named twice would be measured twice a trial, its count doubled (a review)
  const twice = firstRepeat(designs)
  if (twice) throw new Error(`--designs names ${twice} twice; name each design once`)
  const { readers } = readersAgainstC(values.only ?? DEFAULTS.only)
  const others = readers.filter(program => program.name !== BASELINE)
  // C is the partner of every reader here: --only c alone leaves nothing to set beside it
  if (others.length === 0) {
    throw new Error('--only names C alone, which every design measures beside a reader; name a reader')
  }
  return {
    readers: others,
    sizes: blockSizes(values.sizes ?? DEFAULTS.sizes),
    trials: repeatCount(values.trials ?? String(DEFAULTS.trials), 'trials', 3),
    designs
  }
}

// One design's share of C for one reader: { share, cNs, ns }, or { failure }.
async function trial (design, program, blockSize, run, pin) {
  const bytes = costBytes(PRESETS.default, blockSize)
  const where = { blockSize, bytes, run, warmup: 0, pin, ownFeeder: true, sampleMs: COST_SAMPLE_MS }
  const step = { phase: 'cost', program, ...where }
  const runOptions = { timeoutSeconds: 120, feeder: 'fixed' }
  if (design === 'rounds') {
    const c = (await measure({ ...step, program: findProgram(BASELINE) }, run, runOptions, os.tmpdir())).record
    const mine = (await measure(step, run, runOptions, os.tmpdir())).record
    if (!c.ok || !mine.ok) return { failure: c.failure ?? mine.failure }
    const [cNs, ns] = [slopePerRead(c), slopePerRead(mine)]
    return { share: cNs / ns, cNs, ns }
  }
  const sliceMs = design === 'together' ? 0 : Number(design.slice('slices-'.length))
  const paired = { ...step, partner: findProgram(BASELINE), sliceMs }
  const { record } = await measure(paired, run, runOptions, os.tmpdir())
  if (!record.ok) return { failure: record.failure }
  const pair = pairFigures(record)
  return { share: pair.cNs / pair.ns, cNs: pair.cNs, ns: pair.ns }
}

const spread = values => {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1)
  return Math.sqrt(variance) / mean
}
const percent = (value, digits = 1) => `${(value * 100).toFixed(digits)}%`

async function main ({ readers, sizes, trials, designs }) {
  const plan = placementPlan(allowedCpus())
  pinSelf(plan)
  const pin = plan.shared
  const stopped = stopOnSignals()
  console.log(`dd and both readers on CPU ${pin.reader}; this tool on CPU ${plan.driver}; ${trials} trials`)
  for (const program of readers) {
    for (const blockSize of sizes) {
      const results = new Map(designs.map(design => [design, []]))
      for (let run = 0; run < trials && !stopped(); run++) {
        // each trial starts one design further on, so none is always first or last
        const order = designs.map((_, i) => designs[(i + run) % designs.length])
        for (const design of order) results.get(design).push(await trial(design, program, blockSize, run, pin))
        const shareText = row => (row.failure ? `failed (${row.failure})` : percent(row.share))
        const last = design => `${design} ${shareText(results.get(design).at(-1))}`
        console.log(`  trial ${run + 1}: ${designs.map(last).join(', ')}`)
      }
      console.log(`${program.name} @ ${blockSize} B against C, ${results.get(designs[0]).length} trials:`)
      console.log('  design        share of C (median)  its spread  C ns/read (median, spread)' +
        '  reader ns/read  failed')
      for (const [design, all] of results) {
        // a failed trial counts against its design, named in the last column
        const rows = all.filter(row => !row.failure)
        if (rows.length < 2) {
          console.log(`  ${design.padEnd(12)}  too few trials measured: ${all.length - rows.length} failed`)
          continue
        }
        const shares = rows.map(row => row.share)
        const cNs = rows.map(row => row.cNs)
        const cText = `${median(cNs).toFixed(0)} (${percent(spread(cNs))})`
        const readerNs = median(rows.map(row => row.ns)).toFixed(0)
        console.log(`  ${design.padEnd(12)}  ${percent(median(shares)).padStart(19)}` +
          `  ${percent(spread(shares)).padStart(10)}  ${cText.padStart(26)}  ${readerNs.padStart(14)}` +
          `  ${String(all.length - rows.length).padStart(6)}`)
      }
    }
  }
  return stopped() ? 130 : 0
}

runCli({
  name: 'same-moment.js',
  usage: USAGE,
  parse: argv => parseStudyOptions(argv, SPEC, USAGE, options),
  run: main
})
