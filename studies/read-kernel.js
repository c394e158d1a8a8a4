'use strict'
// Why read(2) costs some readers more than C's in the kernel (docs/kernel.md): C's reader
// with one thing changed at a time (build/read-kernel, studies/read-kernel.c), beside C's
// own and Node's fs.readSync reader, each under the kernel pass's probes.
//
//   node studies/read-kernel.js [--rounds N] [--mib N] [--sizes A,B]
//
// Each round runs every variant once at each size, in a shuffled order, dd and the reader
// on one CPU, as the kernel pass does. The figure is the time on the CPU inside read(2) per
// call, less the probes' floor (lib/sysprof.js); each variant's difference from C's is the
// median of its rounds' differences from the same round's C, with that median's interval.
const path = require('node:path')
const fs = require('node:fs')
const os = require('node:os')
const { runPipeline, ddFeeder } = require('../lib/pipeline')
const { allowedCpus } = require('../lib/placement')
const { median, medianInterval, seededShuffle } = require('../lib/stats')
const { sysprofArgv, parseProfile, callSummary } = require('../lib/sysprof')
const { BUILD } = require('../lib/paths')
const { commandLine, findProgram, parseOutput } = require('../experiments/stdio/programs')
const { verify } = require('../experiments/stdio/measure')
const { parseStudyOptions, blockSizes, needProbes } = require('./per-read')
const { runCli, RunFailed } = require('../lib/cli')
const { UsageError, repeatCount, mibCount } = require('../lib/options')

const USAGE = `usage: node studies/read-kernel.js [--rounds N] [--mib N] [--sizes A,B]
  what makes read(2) dearer for some readers than for C's: C's reader with one thing
  changed at a time, beside C's and node-sync, under the kernel pass's probes
  --rounds N       rounds; every variant once at each size in each, shuffled (default 6)
  --mib N          MiB a run reads (default 64)
  --sizes A,B      block sizes, powers of two (default 256,4096)
  --help           this text`
const READER = path.join(BUILD, 'read-kernel')
// what each variant changes from C's reader
const VARIANTS = {
  c: [],
  'c, 1 idle thread': ['threads', '1'],
  'c, 8 idle threads': ['threads', '8'],
  'c, spin 1000 after each read': ['spin', '1000'],
  'c, buffer at page offset 16': ['offset', '16'],
  // where Node 26's Buffer of 4 KiB sat in its runs (strace -e raw=read: 0x...f80)
  'c, buffer at page offset 3968': ['offset', '3968'],
  'c, 256 KiB written after each read': ['touch', '256'],
  'c, as Node: 8 threads, spin, offset 3968': ['threads', '8', 'spin', '1000', 'offset', '3968'],
  'c, as Node, and 256 KiB written': ['threads', '8', 'spin', '1000', 'offset', '3968', 'touch', '256']
}
const NODE = 'node-sync'

function parse (argv) {
  const spec = { rounds: { type: 'string' }, mib: { type: 'string' }, sizes: { type: 'string' } }
  return parseStudyOptions(argv, spec, USAGE, values => ({
    rounds: repeatCount(values.rounds ?? '6', 'rounds', 1),
    mib: mibCount(values.mib ?? '64', 'mib', 1),
    sizes: blockSizes(values.sizes ?? '256,4096')
  }))
}

async function run (options, stopped) {
  if (!fs.existsSync(READER)) throw new UsageError(`${READER} is not built: run make`)
  needProbes()
  const cpu = allowedCpus().at(-1)
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'read-kernel-'))
  const profileFile = path.join(scratch, 'profile.json')
  const argvOf = (name, size) => (name === NODE
    ? commandLine(findProgram(NODE), size)
    : [READER, String(size), ...VARIANTS[name]])
  const names = [...Object.keys(VARIANTS), NODE]
  const shuffle = seededShuffle('read-kernel')
  const kernelNs = new Map()
  const at = (name, size) => `${name}\t${size}`
  try {
    for (let round = 0; round < options.rounds && !stopped(); round++) {
      for (const size of options.sizes) {
        for (const name of shuffle(names)) {
          const reader = [...sysprofArgv(profileFile, { fd: 0 }), ...argvOf(name, size)]
          const bytes = options.mib * (1 << 20)
          const result = await runPipeline({ feeder: ddFeeder(bytes, 65536), reader, timeoutMs: 120000, pin: { feeder: cpu, reader: cpu } })
          // a run is a figure only where it ended cleanly and counted every byte, as the lab's
          // passes ask of theirs (experiments/stdio/measure.js verify; a review: the exit alone)
          const program = name === NODE ? findProgram(NODE) : { name, honoursBlockSize: true }
          const failure = verify({ program, bytes, blockSize: size, timeoutSeconds: 120 }, result,
            parseOutput(program, result.stdout))
          if (failure) throw new RunFailed(`${name} at ${size}: ${failure}`)
          const profile = parseProfile(fs.readFileSync(profileFile, 'utf8'))
          if (!profile.complete) throw new RunFailed(`${name} at ${size}: the probes lost ${profile.lost} event(s)`)
          const reads = callSummary(profile, call => call.watchedFd)
          if (!reads || !Number.isFinite(reads.kernelNs)) {
            throw new RunFailed(`${name} at ${size}: the probes saw no read of stdin, so its time in ` +
              'read(2) is unknown')
          }
          if (!kernelNs.has(at(name, size))) kernelNs.set(at(name, size), [])
          kernelNs.get(at(name, size)).push(reads.kernelNs)
          console.error(`round ${round + 1}, ${size} B: ${name} ${reads.kernelNs.toFixed(1)} ns`)
        }
      }
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
  console.log(`time on the CPU inside read(2) per call, less the probes' floor; ${options.mib} MiB a run, ` +
    `dd and the reader on CPU ${cpu}; ${options.rounds} rounds`)
  for (const size of options.sizes) {
    console.log(`\n${size} B     kernel ns/read  over C's (median of round-by-round differences, interval)`)
    const base = kernelNs.get(at('c', size)) ?? []
    for (const name of names) {
      const values = kernelNs.get(at(name, size)) ?? []
      if (!values.length) continue
      const over = values.map((value, round) => value - base[round]).filter(Number.isFinite)
      const interval = medianInterval(over)
      const range = interval ? ` [${interval.low.toFixed(0)}, ${interval.high.toFixed(0)}] at ${(interval.level * 100).toFixed(1)}%` : ''
      const overText = name === 'c' ? '' : `${median(over) >= 0 ? '+' : ''}${median(over).toFixed(0)}${range}`
      console.log(`${name.padEnd(42)} ${median(values).toFixed(0).padStart(6)}  ${overText}`)
    }
  }
  return 0
}

if (require.main === module) runCli({ name: 'read-kernel.js', usage: USAGE, parse, run, measures: true })
