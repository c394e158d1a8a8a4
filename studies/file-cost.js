'use strict'
// What a read costs each reader with no pipe in the way: every reader reads the same
// file from tmpfs (experiments/stdio/zero-file.js), so it never sleeps waiting for dd nor wakes it,
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
const { commandLine, parseOutput, fileFeedReason } = require('../experiments/stdio/programs')
const { runPipeline, PIN_APART } = require('../lib/pipeline')
const { parseStudyOptions, readersAgainstC, blockSizes, printAgainstC, signed } = require('./per-read')
const { repeatCount, mibCount } = require('../lib/options')
const { runCli, RunFailed } = require('../lib/cli')
const { median, twoSizeFit } = require('../lib/stats')
const { ZeroFile, withStdinFrom } = require('../experiments/stdio/zero-file')
const { verify } = require('../experiments/stdio/measure')

const DEFAULTS = { only: ['c', 'just-sync', 'just-fast'], sizes: '256,1024,4096', mib: '1024', rounds: '7' }
const TIMEOUT_MS = 120000
const USAGE = `usage: node studies/file-cost.js [--only NAME ...] [--sizes A,B,...] [--mib N] [--rounds N] [--pin]
  CPU time per read of each reader against C's, every reader reading a file of zeros in tmpfs.
  --only NAME     a reader to measure besides C (repeatable; default: ${DEFAULTS.only.slice(1).join(', ')}); '*'
                  stands for any run of characters (--only 'just-*'), and a reader a pattern
                  picks that cannot run here, reads chunks of its own size or cannot
                  read a file is skipped
  --sizes A,B,... block sizes, powers of two (default ${DEFAULTS.sizes})
  --mib N         MiB a full run reads; a quarter run reads a quarter (default ${DEFAULTS.mib})
  --rounds N      rounds, each running every reader at a size once (default ${DEFAULTS.rounds})
  --pin           pin the reader to CPU 1
  --help          this text`

function parseOptions (argv) {
  const spec = { only: { type: 'string', multiple: true }, sizes: { type: 'string' }, mib: { type: 'string' }, rounds: { type: 'string' }, pin: { type: 'boolean' } }
  return parseStudyOptions(argv, spec, USAGE, values => ({
    ...readersAgainstC(values.only ?? DEFAULTS.only, program => fileFeedReason(program) && `cannot read a file: ${fileFeedReason(program)}`),
    sizes: blockSizes(values.sizes ?? DEFAULTS.sizes),
    bytes: mibCount(values.mib ?? DEFAULTS.mib, 'mib') * 2 ** 20,
    rounds: repeatCount(values.rounds ?? DEFAULTS.rounds, 'rounds'),
    pin: values.pin ? PIN_APART : null
  }))
}

// One reader run with `input` as its stdin; pipe-run times it ("true" is the feeder
// of a pipe nobody reads). Returns the reader's CPU time in ns and its reads.
async function cpuOfRun (program, blockSize, input, bytes, pin) {
  const argv = commandLine(program, blockSize)
  const result = await runPipeline({ feeder: ['true'], reader: withStdinFrom(input, argv), timeoutMs: TIMEOUT_MS, pin })
  if (result.stoppedBy) return null
  const output = parseOutput(program, result.stdout)
  const failure = verify({ program, blockSize, bytes, timeoutSeconds: TIMEOUT_MS / 1000 }, result, output)
  if (failure) throw new RunFailed(`${argv.join(' ')} < ${input}: ${failure}${result.timedOut ? ': give a smaller --mib' : ''}`)
  return { cpuNs: (result.reader.userUs + result.reader.sysUs) * 1000, reads: output.reads }
}

// Rows for every block size measured in full; a stop ends it at the next run.
async function measure (options, inputs, stopped) {
  const rows = []
  for (const blockSize of options.sizes) {
    const samples = new Map(options.readers.map(program => [program.name, { quarter: [], full: [], reads: { quarter: 0, full: 0 } }]))
    for (let round = 0; round < options.rounds; round++) {
      for (const program of options.readers) {
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
    for (const program of options.readers) {
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

// parse (lib/cli.js) → make the two input files → measure → print.
async function main (options, stopped) {
  for (const skip of options.skipped) console.error(`file-cost.js: ${skip}`)
  const inputs = { full: new ZeroFile(), quarter: new ZeroFile() }
  try {
    const files = { full: await inputs.full.of(options.bytes), quarter: await inputs.quarter.of(options.bytes / 4) }
    const rows = stopped() ? [] : await measure(options, files, stopped)
    if (rows.length) print(rows)
    if (stopped()) console.error(`file-cost.js: interrupted; ${rows.length ? 'the block sizes measured in full are above' : 'nothing was measured in full'}`)
    return 0
  } finally {
    inputs.full.remove()
    inputs.quarter.remove()
  }
}

runCli({ name: 'file-cost.js', usage: USAGE, parse: parseOptions, run: main, measures: true })
