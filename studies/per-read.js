'use strict'
// What the per-read tools share (studies/file-cost.js, studies/instr-cost.js, and the block
// sizes of studies/paired-cost.js): their options' parsing, which readers, at which block
// sizes, compared with C, and their table. An option error is one line with the tool's
// usage line, exit 2 (lib/cli.js).
const { programs, findProgram, unavailableReason, BASELINE } = require('../experiments/stdio/programs')
const { parseBlockSizeOption } = require('../experiments/stdio/options')
const fs = require('node:fs')
const path = require('node:path')
const { UsageError, matchOnly, outDirProblem, outFileProblem, firstRepeat } = require('../lib/options')
const { parseCommandLine, refuseEmpty } = require('../lib/option-schema')
const { RunFailed, notACommand } = require('../lib/cli')
const { probeBpf } = require('../lib/sysprof')

// The command line read as bench.js reads its own (lib/option-schema.js), with --help,
// then `options(values)`: { help: true }, or the tool's options. An error in the tool's
// own checks is a UsageError ending with the usage's first line; a bug in them is not.
// An empty value is refused, as bench.js refuses one; a --raw log is checked before
// anything is measured, since the records are written as they come.
function parseStudyOptions (argv, spec, usage, options) {
  // --raw is every study's log file (checked below); other rows may say what they take
  const rows = Object.entries({ ...spec, help: { type: 'boolean' } })
    .map(([name, row]) => ({ name, ...(name === 'raw' ? { takes: 'a file' } : {}), ...row }))
  const tool = /^usage: node (\S+)/.exec(usage)?.[1] ?? 'the tool'
  const { values } = parseCommandLine(argv, rows, { tool })
  if (values.help) return { help: true }
  try {
    refuseEmpty(values, rows)
    const rawProblem = values.raw === undefined
      ? null
      : outFileProblem(values.raw) ?? rawLogProblem(values.raw)
    if (rawProblem) throw new UsageError(`--raw ${values.raw}: ${rawProblem}`)
    return options(values)
  } catch (err) {
    // a check's refusal (a UsageError, or an Error it threw with its message) is the usage's;
    // a TypeError or the like is a bug, and stays one, with its stack
    if (!(err instanceof UsageError) && err.constructor !== Error) throw err
    throw new UsageError(`${err.message} (${usage.split('\n')[0]})`)
  }
}

// A study's --out DIR: checked as bench.js checks its own, and made only when the work
// starts, so that a refused command leaves no folder behind. The folder's path, or null.
function outFolderOption (dir) {
  if (dir === undefined) return null
  const problem = outDirProblem(dir)
  if (problem) throw new UsageError(`--out ${dir}: ${problem}`)
  return path.resolve(dir)
}

// Why an existing --raw file is no log a study appends to, or null: a log of JSON lines, a
// record a line, may be added to; a run's results.json or README.md may not (a review: both
// were taken, and the run's results.json then failed analyse.js as corrupt).
function rawLogProblem (file) {
  if (!fs.existsSync(file) || fs.statSync(file).size === 0) return null
  const firstLine = fs.readFileSync(file, 'utf8').split('\n', 1)[0]
  let record = null
  try {
    record = JSON.parse(firstLine)
  } catch {}
  const aRecord = record !== null && typeof record === 'object' && !Array.isArray(record)
  if (aRecord && !('cells' in record)) return null
  return 'is there and is no log of a study (a JSON record a line); give a new file, or one a study wrote'
}

// A study's --raw FILE log (null: none): each run appended as it is measured, so that a stop
// or a failure loses none, and a log that exists (a committed one, a study's earlier session)
// keeps what it holds, as the other studies' logs do. stopped() is the error a stop ends the
// study with, which lib/cli.js prints as "stopped (N runs measured, in FILE)". failed(...) is
// the error a failed run ends it with: a stop's, when the failure came from the stop.
const SIGNAL_IN_FLIGHT_MS = 200

function studyLog (raw) {
  let kept = 0
  const stopped = () => new RunFailed(`${kept} runs measured${raw ? `, in ${raw}` : ''}`)
  return {
    keep (record) {
      if (raw) fs.appendFileSync(raw, JSON.stringify(record) + '\n')
      kept++
    },
    stopped,
    // Ctrl-C reaches the whole process group: a server or wrk it ends fails the run in flight,
    // and that failure can reach us before our own SIGINT handler has run, so a run that
    // fails waits for a signal already on its way before it calls itself a failure.
    async failed (isStopped, message) {
      if (!isStopped()) await new Promise(resolve => setTimeout(resolve, SIGNAL_IN_FLIGHT_MS))
      return isStopped() ? stopped() : new RunFailed(message)
    }
  }
}

// C is the yardstick: always measured, once, first. --only's patterns (lib/options.js)
// pick the others. Every reader must read blocks of the size asked for, or it has no
// cost per read of that size, and must run here, and in the tool's way (`cannot(program)`
// says why not, or null): one --only names is refused if not, one a pattern picks is
// skipped, with why.
function readersAgainstC (patterns, cannot = () => null) {
  const names = programs.map(program => program.name)
  const { picked, named, unmatched } = matchOnly(names, patterns)
  if (unmatched.length) throw new Error(`--only ${unmatched[0]} matches no program; the programs are: ${names.join(', ')}`)
  const readers = []
  const skipped = []
  for (const name of [BASELINE, ...picked.filter(name => name !== BASELINE)]) {
    const program = findProgram(name)
    const reason = unavailableReason(program)
    const why = !program.honoursBlockSize
      ? 'reads in chunks of its own size, so it has no cost per read of a given size'
      : reason ? `cannot run here: ${reason}` : cannot(program)
    if (!why) readers.push(program)
    else if (name === BASELINE || named.has(name)) throw new Error(`${name} ${why}${program.honoursBlockSize ? '' : ': leave it out'}`)
    else skipped.push(`skipping ${name}: it ${why}`)
  }
  return { readers, skipped }
}

// A study that traces with the lab's eBPF probes refuses before its first run where they cannot
// attach, in the probe's one line, as bench.js skips its kernel pass saying why.
function needProbes () {
  const bpf = probeBpf()
  if (!bpf.available) throw new UsageError(`the probes cannot run here: ${bpf.reason}`)
}

// --sizes A,B,...: each a block size; one named twice would be measured twice (a review)
function blockSizes (text) {
  const sizes = text.split(',').map(size => parseBlockSizeOption(size))
  const twice = firstRepeat(sizes)
  if (twice !== undefined) throw new UsageError(`--sizes names ${twice} twice; name each size once`)
  return sizes
}

// A row per reader and block size, C's row first at each size. cost(row) is the figure;
// versus(row, c) what the row adds to C's, left blank on C's own row.
function printAgainstC (rows, { heading, cost, versus }) {
  console.log(heading)
  for (const row of rows) {
    const c = rows.find(other => other.program === BASELINE && other.blockSize === row.blockSize)
    console.log(`${row.program.padEnd(14)} ${String(row.blockSize).padStart(5)}  ${cost(row)} ${row === c ? '' : versus(row, c)}`.trimEnd())
  }
}

const signed = (value, digits = 1) => `${value < 0 ? '' : '+'}${value.toFixed(digits)}`
// A table's figure, or '-' where there is none (one run cannot be halved)
const fixed = (value, digits) => value === null || value === undefined ? '-' : value.toFixed(digits)

module.exports = {
  parseStudyOptions, outFolderOption, studyLog, readersAgainstC, blockSizes, needProbes, printAgainstC, signed, fixed
}

if (require.main === module) {
  notACommand('per-read.js', 'it holds what the studies share (their options, their readers against ' +
    'C); run one of them, as node studies/file-cost.js')
}
