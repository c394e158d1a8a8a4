'use strict'
// What the analysis scripts beside the dated studies share in reading their command line, so
// that each answers as the lab's tools do (lib/cli.js): --help prints its usage, and a flag it
// does not take, the wrong number of arguments, a bad value or a file it cannot read is one
// line, `NAME: what is wrong; how to fix (usage: ...)`, exit 2.
//
// A script's usage is the first line of its header comment that runs it as `node docs/...`
// (up to a gap of two spaces, where a note may follow): the header stays its one source.
// --help prints that line, then the rest of the header.
//
//   runScript(module, { args, each, flags, check, run })
//     args    [min, max]: how many arguments it takes (max Infinity: no bound)
//     each    a check of every argument (readableFile, or folderWith(names)), or a list of
//             checks by position
//     flags   its flags as lib/option-schema.js rows take them: { calm: { type: 'boolean' } }
//     check   (args, flags) => throws a UsageError for a bad value, before run
//     run     (args, flags, stopped) => the script's work; a UsageError it throws ends it as
//             above
//     measures  true for a script that starts what must be stopped (a cluster, a server):
//             Ctrl-C or SIGTERM no longer ends the process but makes stopped() true, for run
//             to stop what it started and end; the exit code is then 130 (lib/cli.js)
//
// What a script is given may exist and be readable yet be of the wrong kind: a README for a
// results.json, a run of another experiment, a .gz that is not gzip. That is the user's slip,
// not the script's bug, so it too is one line naming the file and what to give, where a bare
// JSON.parse or a missing field would end in a stack. The readers take `what` the file should
// have been, as folderWith does ('a db run\'s results.json (or .json.gz)'):
//
//   readJson(file, what)        the JSON object the file holds
//   readJsonLines(file, what)   a log's JSON objects, a line each (blank lines skipped)
//   okRecordsOf(run, phase, what)
//                               a run folder's records of a phase that ran right, as kept
//   need(part, file, lacks, what)
//                               part, the piece of it the script reads (results.db?.cells),
//                               unless missing: then `FILE holds no LACKS; give WHAT`
//
// Both readers gunzip a file whose name ends .gz, as the runs kept beside the studies are.
const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')
const { UsageError, wholeNumber, firstRepeat } = require('../lib/options')
const { parseCommandLine } = require('../lib/option-schema')
const { runCli, notACommand } = require('../lib/cli')
const { dataPoints } = require('../lib/run-log')

const LAB = path.join(__dirname, '..')

// The header's comment lines (past a 'use strict'), and the usage line among them.
function headerOf (file) {
  const own = `node ${path.relative(LAB, file).split(path.sep).join('/')}`
  const lines = []
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '\'use strict\'') continue
    if (!line.startsWith('//')) break
    lines.push(line.replace(/^\/\/ ?/, ''))
  }
  const at = lines.findIndex(line => line.includes(`${own} `) || line.endsWith(own))
  if (at === -1) throw new Error(`${file}: its header has no line that runs it as ${own}`)
  const usage = lines[at].slice(lines[at].indexOf(own)).split(/\s{2,}/)[0].trim()
  // the usage line itself is not said twice; one with a note or other words is kept
  const alone = lines[at].trim().replace(/^usage:\s*/i, '') === usage
  const rest = lines.filter((line, i) => !(alone && i === at))
  while (rest.length && rest[rest.length - 1].trim() === '') rest.pop()
  return { usage, help: [`usage: ${usage}`, ...rest.map(line => line.trim() ? `  ${line}` : '')].join('\n') }
}

// Why `file` cannot be read as a file, or null.
function problemOf (file) {
  try {
    if (fs.statSync(file).isDirectory()) return `${file} is a folder`
    fs.accessSync(file, fs.constants.R_OK)
    return null
  } catch (err) {
    return `cannot read ${file} (${err.code ?? err.message})`
  }
}

// The checks of an argument: each returns it, or throws a UsageError that names the fix.
function readableFile (file) {
  const problem = problemOf(file)
  if (problem) throw new UsageError(`${problem}; give a file that exists and may be read`)
  return file
}

// A folder that holds `names` (a run's results.json, its all.jsonl ...); `what` says which.
function folderWith (names, what = `a folder that holds ${names.join(' and ')}`) {
  return dir => {
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
      throw new UsageError(`${dir} is not a folder; give ${what}`)
    }
    for (const name of names) {
      const problem = problemOf(path.join(dir, name))
      if (problem) throw new UsageError(`${problem}; give ${what}`)
    }
    return dir
  }
}

// A parser's or gunzip's message on one line: JSON.parse quotes the text it stopped in,
// newlines and control characters too.
const oneLine = message => message.replace(/[\s\p{Cc}]+/gu, ' ').trim()

// The text of `file`, gunzipped where its name ends .gz.
function textOf (file, what) {
  const problem = problemOf(file)
  if (problem) throw new UsageError(`${problem}; give ${what}`)
  const bytes = fs.readFileSync(file)
  if (!file.endsWith('.gz')) return bytes.toString('utf8')
  try {
    return zlib.gunzipSync(bytes).toString('utf8')
  } catch (err) {
    throw new UsageError(`${file} is not gzip (${oneLine(err.message)}); give ${what}`)
  }
}

// One JSON object from `text`, `where` naming it in a refusal (a file, or a line of one). What
// the scripts read is always an object: a bare list, number or string is a file of another kind.
function objectOf (text, where, what) {
  let value
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw new UsageError(`${where} is not JSON (${oneLine(err.message)}); give ${what}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`
    throw new UsageError(`${where} holds ${kind}, not a JSON object; give ${what}`)
  }
  return value
}

// The JSON object `file` holds.
function readJson (file, what) {
  return objectOf(textOf(file, what), file, what)
}

// A log such as all.jsonl: a JSON object a line; a line that is not one is named by its number.
// A last line without its newline that is not JSON is a record cut short by a bench killed
// mid-append, left out as lib/run-log.js readLog leaves it out for analyse.js.
function readJsonLines (file, what) {
  const lines = textOf(file, what).split('\n')
  const records = []
  lines.forEach((line, i) => {
    if (line.trim() === '') return
    // a bench stopped mid-append cuts its log's last line, after the lines it wrote whole; a
    // file whose one line is not JSON is no such log
    const cutShort = i === lines.length - 1 && records.length > 0
    try {
      records.push(objectOf(line, `${file} line ${i + 1}`, what))
    } catch (err) {
      if (!cutShort || !(err instanceof UsageError) || !/ is not JSON /.test(err.message)) throw err
    }
  })
  return records
}

// A part is missing where it is undefined or null, or an empty list: a run that holds no cells,
// or a log with none of the records the script reads, is not the run it asks for.
function need (part, file, lacks, what) {
  if (part === undefined || part === null || (Array.isArray(part) && part.length === 0)) {
    throw new UsageError(`${file} holds no ${lacks}; give ${what}`)
  }
  return part
}

// A whole number given as an argument, by lib/options.js's rule (its message names the
// argument, not a flag); `max` bounds a count that a slip of a few digits would make a run of
// days (a review: 99999999999 trials taken).
function wholeArgument (text, name, min = 1, max = undefined) {
  try {
    return wholeNumber(text, name, min, max)
  } catch (err) {
    throw new UsageError(err.message.replace(`--${name}`, name))
  }
}

// The most trials a simulation of docs/ is given: fifty times the 20,000 they default to.
const MAX_TRIALS = 1000000

// Why `args` are too few or too many for [min, max], or null.
function countProblem (args, [min, max]) {
  if (args.length >= min && args.length <= max) return null
  const count = min === max ? `${min}` : max === Infinity ? `${min} or more` : `${min} ${max === min + 1 ? 'or' : 'to'} ${max}`
  const takes = max === 0 ? 'no arguments' : `${count} argument${max === 1 ? '' : 's'}`
  const fix = args.length < min ? 'add what is missing' : `drop ${args.slice(max).map(arg => `'${arg}'`).join(' ')}`
  return `takes ${takes}, not ${args.length}; ${fix}`
}

// `distinct`: the arguments are runs to set against each other, and one given twice would
// agree with itself to the last digit (a review: "22 of 22 within 5%, largest 0.00%").
function runScript (script, {
  args: range = [0, 0], each = null, flags = {}, check = () => {}, run, measures = false, distinct = false
}) {
  const file = script.filename
  const name = path.basename(file)
  const { usage, help } = headerOf(file)
  const tool = usage.split(' ')[1]
  const rows = Object.entries({ ...flags, help: { type: 'boolean' } }).map(([flag, row]) => ({ name: flag, ...row }))
  // every refusal ends with the usage, which says what to give
  const withUsage = work => (...inputs) => {
    try {
      return work(...inputs)
    } catch (err) {
      if (err instanceof UsageError) throw new UsageError(`${err.message} (usage: ${usage})`)
      throw err
    }
  }
  const parse = argv => {
    const { values, positionals } = parseCommandLine(argv, rows, { tool, positionals: true })
    if (values.help) return { help: true }
    const problem = countProblem(positionals, range)
    if (problem) throw new UsageError(problem)
    positionals.forEach((arg, i) => (Array.isArray(each) ? each[i] : each)?.(arg))
    const twice = distinct && firstRepeat(positionals, arg => path.resolve(arg))
    if (twice) throw new UsageError(`${twice} is given twice; compare two different runs`)
    check(positionals, values)
    return { args: positionals, flags: values }
  }
  // a run that lacks a field this script reads (a run of another experiment, an older lab's)
  // fails on it as a TypeError: one line that says so, not a stack (a review)
  const lacking = err => {
    if (!(err instanceof TypeError)) throw err
    throw new UsageError(`what was given lacks what ${name} reads (${err.message}); ` +
      `give what its usage names (usage: ${usage})`)
  }
  const readable = work => (...inputs) => {
    try {
      const result = work(...inputs)
      return typeof result?.then === 'function' ? result.catch(lacking) : result
    } catch (err) {
      return lacking(err)
    }
  }
  runCli({
    name,
    usage: help,
    parse: withUsage(parse),
    run: readable(withUsage(({ args, flags }, stopped) => run(args, flags, stopped))),
    measures
  })
}

// A script that reads one or more logs and says something of each, `--each` for every line:
// `replay(file, each)` for each file given, in turn.
function runOnEachLog (script, replay) {
  runScript(script, {
    args: [1, Infinity],
    each: readableFile,
    flags: { each: { type: 'boolean' } },
    run: (files, flags) => files.forEach(file => replay(file, flags.each))
  })
}

// A run folder's records of one phase that ran right, as the lab keeps them (lib/run-log.js
// dataPoints: a try measured again is left out), or refused as a folder lacking them.
function okRecordsOf (run, phase, what) {
  const log = path.join(run, 'all.jsonl')
  const records = dataPoints(readJsonLines(log, what)).filter(record => record.phase === phase && record.ok)
  return need(records.length ? records : null, log, `${phase} runs`, what)
}

module.exports = {
  MAX_TRIALS,
  okRecordsOf,
  runScript,
  runOnEachLog,
  readableFile,
  folderWith,
  wholeArgument,
  readJson,
  readJsonLines,
  need,
  UsageError
}

if (require.main === module) {
  notACommand('script-args.js', 'it holds what the scripts of docs/ share in reading their command line; ' +
    'run one of them, as node docs/db/2026-11-30/common.js --help')
}
