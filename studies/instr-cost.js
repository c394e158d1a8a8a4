'use strict'
// What a read costs each reader in user-space instructions, counted by valgrind
// (callgrind) instead of timed. A count does not move with the machine's mood: where
// the VM's timings wander by more than the host's whole difference from C (README, "The
// lab's V8 host against C"), this still tells 16 instructions from 65. What it leaves
// out is the kernel's side of a read (entry, copy, exit), which valgrind cannot see and
// which is the same call whoever makes it. Run with Node, alone or not:
//
//   node studies/instr-cost.js [--only NAME ...] [--sizes 256,4096,65536] [--reads 65536]
//
// Each reader runs twice at each block size, fed by dd through a pipe: --reads blocks,
// then twice as many. (instructions of the long run - of the short one) / (the reads
// between) is the cost of one read: start-up and compiling are in both runs and
// cancel, provided the short run is long enough for V8 to have optimised the loop
// (65536 reads are; a few thousand are not, and the figure then carries compiling).
// V8 runs single-threaded in the host, so the count does not depend on when a helper
// thread compiled; one run per size is enough.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { commandLine, parseOutput } = require('../experiments/stdio/programs')
const { runPipeline, ddFeeder, shellQuote } = require('../lib/pipeline')
const { parseStudyOptions, readersAgainstC, blockSizes, printAgainstC, signed } = require('./per-read')
const { UsageError, wholeNumber } = require('../lib/options')
const { runCli, RunFailed } = require('../lib/cli')
const { twoSizeFit } = require('../lib/stats')
const { verify } = require('../experiments/stdio/measure')

const DEFAULTS = { only: ['c', 'just-sync', 'just-fast'], sizes: '256,4096,65536', reads: '65536' }
const USAGE = `usage: node studies/instr-cost.js [--only NAME ...] [--sizes A,B,...] [--reads N]
  User-space instructions per read of each reader against C's, counted by valgrind.
  --only NAME     a reader to count besides C (repeatable; default: ${DEFAULTS.only.slice(1).join(', ')}); '*'
                  stands for any run of characters (--only 'just-*'), and a reader a pattern
                  picks that cannot run here or reads chunks of its own size is skipped
  --sizes A,B,... block sizes, powers of two (default ${DEFAULTS.sizes})
  --reads N       reads of the short run; the long run makes twice as many (default ${DEFAULTS.reads})
  --help          this text
  VALGRIND=/path/to/valgrind picks the valgrind to run.`
const VALGRIND = process.env.VALGRIND || 'valgrind'
// --smc-check=all: V8 writes and patches the code it runs; valgrind must notice.
// --vgdb=no: no gdbserver, whose pipes valgrind would leave in /tmp after every run.
const VALGRIND_ARGS = ['--tool=callgrind', '--smc-check=all', '--vgdb=no', '--callgrind-out-file=/dev/null']
const TIMEOUT_MS = 600000

// The options, and valgrind checked before anything runs.
function parseOptions (argv) {
  const spec = { only: { type: 'string', multiple: true }, sizes: { type: 'string' }, reads: { type: 'string' } }
  return parseStudyOptions(argv, spec, USAGE, values => {
    const options = {
      ...readersAgainstC(values.only ?? DEFAULTS.only),
      sizes: blockSizes(values.sizes ?? DEFAULTS.sizes),
      reads: wholeNumber(values.reads ?? DEFAULTS.reads, 'reads')
    }
    checkValgrind()
    return options
  })
}

function checkValgrind () {
  const probe = spawnSync(VALGRIND, ['--version'], { encoding: 'utf8' })
  if (probe.error || probe.status !== 0) {
    throw new UsageError(`cannot run ${VALGRIND} (${probe.error?.code ?? `exit ${probe.status}`}): apt-get install valgrind (./setup.sh --test installs it), or set VALGRIND=/path/to/valgrind`)
  }
}

// `dd | valgrind reader` through lib/pipeline.js's pipe-run, which kills the whole
// pipeline on a timeout or a stop; valgrind's own messages go to a file of their own.
// Resolves to the reader's instruction count and reads, or null when stopped.
async function countRun (program, blockSize, reads) {
  const argv = commandLine(program, blockSize)
  const bytes = reads * blockSize
  const feeder = ddFeeder(bytes, blockSize)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-instr-'))
  const logFile = path.join(dir, 'valgrind.log')
  const counted = [VALGRIND, ...VALGRIND_ARGS, `--log-file=${logFile}`, ...argv]
  const command = `${shellQuote(feeder)} | ${shellQuote(counted)}`
  try {
    const result = await runPipeline({ feeder, reader: counted, timeoutMs: TIMEOUT_MS, pin: null })
    if (result.stoppedBy) return null
    const output = parseOutput(program, result.stdout)
    const failure = verify({ program, blockSize, bytes, timeoutSeconds: TIMEOUT_MS / 1000 }, result, output)
    if (failure) throw new RunFailed(`${command}: ${failure}`)
    const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''
    const collected = /Collected : (\d+)/.exec(log)
    if (!collected) throw new RunFailed(`${command}: valgrind reported no instruction count (${log.trim().split('\n').pop() || 'no output'})`)
    return { instructions: Number(collected[1]), reads: output.reads }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

// Rows for every block size counted in full; a stop ends it at the run under way.
async function measure (options, stopped) {
  const rows = []
  for (const blockSize of options.sizes) {
    const sizeRows = []
    for (const program of options.readers) {
      const short = await countRun(program, blockSize, options.reads)
      const long = short && await countRun(program, blockSize, 2 * options.reads)
      if (!long || stopped()) return rows
      const fit = twoSizeFit({ large: [long.instructions], small: [short.instructions], unitsBetween: long.reads - short.reads })
      sizeRows.push({ program: program.name, blockSize, perRead: fit.perUnit })
    }
    rows.push(...sizeRows)
  }
  return rows
}

function print (rows) {
  printAgainstC(rows, {
    heading: 'program        block  instructions/read  vs C',
    cost: row => row.perRead.toFixed(1).padStart(17),
    versus: (row, c) => ` ${signed(row.perRead - c.perRead)}`
  })
}

// parse (lib/cli.js) → count → print.
async function main (options, stopped) {
  for (const skip of options.skipped) console.error(`instr-cost.js: ${skip}`)
  const rows = await measure(options, stopped)
  if (rows.length) print(rows)
  if (stopped()) console.error(`instr-cost.js: interrupted; ${rows.length ? 'the block sizes counted in full are above' : 'nothing was counted in full'}`)
  return 0
}

runCli({ name: 'instr-cost.js', usage: USAGE, parse: parseOptions, run: main, measures: true })
