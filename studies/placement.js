'use strict'
// Where should dd and the reader run so that the reader's CPU time per read reproduces?
// bench.js's cost pass (experiments/stdio/cost.js) puts both on one CPU; this measures why. Each
// round runs every reader under every placement, a full and a quarter run back to back,
// and a reader's CPU per read is (CPU of the full run - CPU of the quarter run) / the
// reads between, as in the cost pass:
//
//   free     no pinning: the scheduler puts dd and the reader where it likes
//   apart    dd on CPU 0, the reader on CPU 1 (bench.js --pin)
//   shared   dd and the reader on one CPU (the cost pass)
//   file     no pipe and no dd: stdin a file of zeros in tmpfs, the reader on that CPU
//
//   node studies/placement.js [--only NAME ...] [--sizes 256] [--mib 64] [--rounds 10] [--raw FILE]
//
// Per placement and reader it prints the median, lowest and highest CPU per read over
// the rounds and their spread, and the share of C's speed with its 95% interval (every
// round against every one of C's, as the headline). --raw FILE appends every run as a
// JSON line.
const fs = require('node:fs')
const { commandLine, parseOutput, fileFeedReason } = require('../experiments/stdio/programs')
const { runPipeline, ddFeeder, PIN_APART, sharedCpuPin } = require('../lib/pipeline')
const { parseStudyOptions, readersAgainstC, blockSizes } = require('./per-read')
const { repeatCount, mibCount } = require('../lib/options')
const { runCli, RunFailed } = require('../lib/cli')
const { median, ratioInterval } = require('../lib/stats')
const { ZeroFile, withStdinFrom } = require('../experiments/stdio/zero-file')
const { verify, FIXED_FEEDER_BLOCK } = require('../experiments/stdio/measure')

const DEFAULTS = { only: ['c', 'just-sync', 'node-sync', 'deno-sync'], sizes: '256', mib: '64', rounds: '10' }
const PLACEMENTS = ['free', 'apart', 'shared', 'file']
const TIMEOUT_MS = 120000
const USAGE = `usage: node studies/placement.js [--only NAME ...] [--sizes A,B,...] [--mib N] [--rounds N] [--raw FILE]
  Each reader's CPU time per read, and its share of C's, with dd and the reader free, on two
  CPUs, on one CPU, and with no pipe (a file of zeros in tmpfs).
  --only NAME     a reader to measure besides C (repeatable; default: ${DEFAULTS.only.slice(1).join(', ')});
                  '*' stands for any run of characters; a reader that cannot read a file is skipped
  --sizes A,B,... block sizes, powers of two (default ${DEFAULTS.sizes})
  --mib N         MiB a full run reads; a quarter run reads a quarter (default ${DEFAULTS.mib})
  --rounds N      rounds, each running every reader in every placement once (default ${DEFAULTS.rounds})
  --raw FILE      append every run to FILE as a JSON line
  --help          this text`

function parseOptions (argv) {
  const spec = { only: { type: 'string', multiple: true }, sizes: { type: 'string' }, mib: { type: 'string' }, rounds: { type: 'string' }, raw: { type: 'string' } }
  return parseStudyOptions(argv, spec, USAGE, values => ({
    ...readersAgainstC(values.only ?? DEFAULTS.only, program => fileFeedReason(program) && `cannot read a file: ${fileFeedReason(program)}`),
    sizes: blockSizes(values.sizes ?? DEFAULTS.sizes),
    bytes: mibCount(values.mib ?? DEFAULTS.mib, 'mib') * 2 ** 20,
    rounds: repeatCount(values.rounds ?? DEFAULTS.rounds, 'rounds', 1),
    raw: values.raw ?? null
  }))
}

// The pipeline of one run in a placement; the file placement's stdin is `file`.
function pipelineOf (placement, argv, bytes, file) {
  const shared = sharedCpuPin()
  if (placement === 'file') return { feeder: ['true'], reader: withStdinFrom(file, argv), pin: shared }
  const pin = { free: null, apart: PIN_APART, shared }[placement]
  return { feeder: ddFeeder(bytes, FIXED_FEEDER_BLOCK), reader: argv, pin }
}

async function run (program, blockSize, placement, bytes, file, raw) {
  const argv = commandLine(program, blockSize)
  const result = await runPipeline({ ...pipelineOf(placement, argv, bytes, file), timeoutMs: TIMEOUT_MS })
  if (result.stoppedBy) return null
  const output = parseOutput(program, result.stdout)
  const failure = verify({ program, blockSize, bytes, timeoutSeconds: TIMEOUT_MS / 1000 }, result, output)
  if (failure) throw new RunFailed(`${program.name} at ${blockSize} (${placement}): ${failure}`)
  const record = { program: program.name, blockSize, placement, bytes, cpuNs: (result.reader.userUs + result.reader.sysUs) * 1000, reads: output.reads, reader: result.reader, at: new Date().toISOString() }
  if (raw) fs.appendFileSync(raw, JSON.stringify(record) + '\n')
  return record
}

// CPU per read by round, per block size, placement and reader; a stop ends it early.
async function measure (options, files, stopped) {
  const perRead = new Map()
  for (const blockSize of options.sizes) {
    for (let round = 0; round < options.rounds; round++) {
      for (const placement of PLACEMENTS) {
        for (const program of options.readers) {
          if (stopped()) return perRead
          const quarter = await run(program, blockSize, placement, options.bytes / 4, files.quarter, options.raw)
          const full = quarter && await run(program, blockSize, placement, options.bytes, files.full, options.raw)
          if (!full) return perRead
          const key = `${blockSize}\t${placement}\t${program.name}`
          if (!perRead.has(key)) perRead.set(key, { values: [], switches: [] })
          perRead.get(key).values.push((full.cpuNs - quarter.cpuNs) / (full.reads - quarter.reads))
          perRead.get(key).switches.push(full.reader.voluntaryCs + full.reader.involuntaryCs)
        }
      }
    }
  }
  return perRead
}

function print (options, perRead) {
  console.log('size  placement  reader       CPU ns/read: median  lowest  highest  spread   share of C (95% interval)   switches')
  for (const blockSize of options.sizes) {
    for (const placement of PLACEMENTS) {
      const c = perRead.get(`${blockSize}\t${placement}\tc`)
      for (const program of options.readers) {
        const entry = perRead.get(`${blockSize}\t${placement}\t${program.name}`)
        if (!entry) continue
        const { values, switches } = entry
        const [low, high] = [Math.min(...values), Math.max(...values)]
        const share = program.name === 'c' || !c ? null : ratioInterval(c.values, values)
        const shareText = share ? `${(share.estimate * 100).toFixed(1)}% (${(share.low * 100).toFixed(1)}-${(share.high * 100).toFixed(1)}%)` : ''
        console.log(`${String(blockSize).padEnd(5)} ${placement.padEnd(10)} ${program.name.padEnd(12)} ${median(values).toFixed(0).padStart(19)} ${low.toFixed(0).padStart(7)} ${high.toFixed(0).padStart(8)} ${((high / low - 1) * 100).toFixed(0).padStart(6)}%   ${shareText.padEnd(27)} ${median(switches).toFixed(0).padStart(8)}`)
      }
    }
  }
}

// parse (lib/cli.js) → make the two input files → measure → print.
async function main (options, stopped) {
  for (const skip of options.skipped) console.error(`placement.js: ${skip}`)
  const inputs = { full: new ZeroFile(), quarter: new ZeroFile() }
  try {
    const files = { full: await inputs.full.of(options.bytes), quarter: await inputs.quarter.of(options.bytes / 4) }
    const perRead = stopped() ? new Map() : await measure(options, files, stopped)
    if (perRead.size) print(options, perRead)
    if (stopped()) console.error('placement.js: interrupted; what was measured is above')
    return 0
  } finally {
    inputs.full.remove()
    inputs.quarter.remove()
  }
}

runCli({ name: 'placement.js', usage: USAGE, parse: parseOptions, run: main, measures: true })
