'use strict'
// What a read costs each reader with no pipe in the way: every reader reads the same
// file from tmpfs (lib/zero-file.js), so it never sleeps waiting for dd nor wakes it,
// and its CPU time is the call plus the kernel's copy. bench.js's pipe runs add dd's pace and the
// wake-ups, which at sizes where reader and dd run at about the same speed magnify
// small differences (README, "The lab's V8 host against C"). Run with Node, alone:
//
//   node studies/file-cost.js [--only NAME ...] [--sizes 256,1024,4096] [--mib 1024]
//                          [--rounds 7] [--pin]
//
// CPU time per read comes from two sizes of input, the whole --mib and a quarter of it:
// (median CPU of the full runs - median CPU of the quarter runs) / the reads between
// them, so whatever a run pays once (start-up, compiling, first touches) cancels out.
// The rounds interleave the programs so slow spells of the machine hit all alike; ±
// is the half-ranges of both sizes' runs, per read. Large blocks make few reads, so
// they need more bytes (--mib 4096).
const { parseArgs } = require('node:util')
const { commandLine, parseOutput } = require('../lib/programs')
const { runPipeline, stopOnSignals, PIN_APART } = require('../lib/pipeline')
const { readersAgainstC, blockSizes, printAgainstC, signed } = require('./per-read')
const { wholeNumber } = require('../lib/options')
const { median, twoSizeFit } = require('../lib/stats')
const { ZeroFile, withStdinFrom } = require('../lib/zero-file')
const { verify } = require('../bench')

const DEFAULTS = { only: ['c', 'just-sync', 'just-fast'], sizes: '256,1024,4096', mib: '1024', rounds: '7' }
const TIMEOUT_MS = 120000

function parseOptions (argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string', multiple: true },
      sizes: { type: 'string' },
      mib: { type: 'string' },
      rounds: { type: 'string' },
      pin: { type: 'boolean' }
    }
  })
  return {
    programs: readersAgainstC(values.only ?? DEFAULTS.only),
    sizes: blockSizes(values.sizes ?? DEFAULTS.sizes),
    bytes: wholeNumber(values.mib ?? DEFAULTS.mib, 'mib') * 2 ** 20,
    rounds: wholeNumber(values.rounds ?? DEFAULTS.rounds, 'rounds'),
    pin: values.pin ? PIN_APART : null
  }
}

// One reader run with `input` as its stdin; pipe-run times it ("true" is the feeder
// of a pipe nobody reads). Returns the reader's CPU time in ns and its reads.
async function cpuOfRun (program, blockSize, input, bytes, pin) {
  const argv = commandLine(program, blockSize)
  const result = await runPipeline({ feeder: ['true'], reader: withStdinFrom(input, argv), timeoutMs: TIMEOUT_MS, pin })
  if (result.stoppedBy) return null
  const output = parseOutput(program, result.stdout)
  const failure = verify({ program, blockSize, bytes, timeoutSeconds: TIMEOUT_MS / 1000 }, result, output)
  if (failure) throw new Error(`${argv.join(' ')} < ${input}: ${failure}${result.timedOut ? ': give a smaller --mib' : ''}`)
  return { cpuNs: (result.reader.userUs + result.reader.sysUs) * 1000, reads: output.reads }
}

// Rows for every block size measured in full; a stop ends it at the next run.
async function measure (options, inputs, stopped) {
  const rows = []
  for (const blockSize of options.sizes) {
    const samples = new Map(options.programs.map(program => [program.name, { quarter: [], full: [], reads: { quarter: 0, full: 0 } }]))
    for (let round = 0; round < options.rounds; round++) {
      for (const program of options.programs) {
        if (stopped()) return rows
        const sample = samples.get(program.name)
        const quarter = await cpuOfRun(program, blockSize, inputs.quarter, options.bytes / 4, options.pin)
        const full = quarter && await cpuOfRun(program, blockSize, inputs.full, options.bytes, options.pin)
        if (!full) return rows
        sample.quarter.push(quarter.cpuNs)
        sample.full.push(full.cpuNs)
        sample.reads = { quarter: quarter.reads, full: full.reads }
      }
    }
    for (const program of options.programs) {
      const { quarter, full, reads } = samples.get(program.name)
      const fit = twoSizeFit({ large: full, small: quarter, unitsBetween: reads.full - reads.quarter })
      rows.push({
        program: program.name,
        blockSize,
        cpuPerReadNs: fit.perUnit,
        plusMinusNs: fit.plusMinus,
        // were reads all that cost, a quarter of the input would cost a quarter as much
        fixedCostsDominate: median(quarter) > median(full) / 2
      })
    }
  }
  return rows
}

function print (rows) {
  printAgainstC(rows, {
    heading: 'program        block  CPU/read           vs C',
    cost: row => `${row.cpuPerReadNs.toFixed(1)} ± ${row.plusMinusNs.toFixed(1)} ns${row.fixedCostsDominate ? '°' : ''}`.padEnd(19),
    versus: (row, c) => `${signed(row.cpuPerReadNs - c.cpuPerReadNs)} ns, ${(c.cpuPerReadNs / row.cpuPerReadNs * 100).toFixed(1)}% of C's speed`
  })
  if (rows.some(row => row.fixedCostsDominate)) {
    console.log('° what a run pays once (start-up, compiling) is over a third of a full run\'s CPU time, so the figure is mostly noise: give a larger --mib')
  }
}

async function main () {
  let options
  try {
    options = parseOptions(process.argv.slice(2))
  } catch (err) {
    console.error(`file-cost.js: ${err.message} (usage: node studies/file-cost.js [--only NAME ...] [--sizes A,B,...] [--mib N] [--rounds N] [--pin])`)
    return 2
  }
  const stopped = stopOnSignals()
  const inputs = { full: new ZeroFile(), quarter: new ZeroFile() }
  try {
    const files = { full: await inputs.full.of(options.bytes), quarter: await inputs.quarter.of(options.bytes / 4) }
    const rows = stopped() ? [] : await measure(options, files, stopped)
    if (rows.length) print(rows)
    if (stopped()) {
      console.error(`file-cost.js: interrupted; ${rows.length ? 'the block sizes measured in full are above' : 'nothing was measured in full'}`)
      return 130
    }
    return 0
  } finally {
    inputs.full.remove()
    inputs.quarter.remove()
  }
}

main().then(code => { process.exitCode = code }, err => {
  console.error(`file-cost.js: ${err.message}`)
  process.exitCode = 1
})
