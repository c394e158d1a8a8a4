#!/usr/bin/env node
'use strict'
// analyse.js: turns results/<run-id>/ folders that bench.js wrote into report.html
// (opens from disk: no server, no network), results.md and results.csv. The pipeline:
// parse options → load result sets → shape the data → render each format → write.
const fs = require('node:fs')
const path = require('node:path')

const { shapeReport } = require('./lib/report/data')
const { renderHtml } = require('./lib/report/html')
const { renderMarkdown, renderCsv, renderAgreement } = require('./lib/report/text')
const { writeFileAtomic } = require('./lib/atomic')
const { UsageError, outDirProblem, makeDirs } = require('./lib/options')
const { busyHolder, busyMessage } = require('./lib/run-lock')
const { readLog, planProgress, LOG_FILE } = require('./lib/run-log')
const { writeDerived } = require('./lib/derive')
const { parseCommandLine, refuseEmpty, usageLines } = require('./lib/option-schema')
const { ofResults } = require('./experiments')
const { runCli } = require('./lib/cli')
const { displayPath } = require('./lib/paths')

const RESULTS_ROOT = path.join(__dirname, 'results')
const HIGHCHARTS_DIR = path.join(__dirname, 'node_modules', 'highcharts')
// highcharts-more draws the min–max bands and error bars; offline-exporting lets a
// reader save a chart as PNG or SVG without the Highcharts export server.
const HIGHCHARTS_FILES = ['highcharts.js', 'highcharts-more.js', 'modules/exporting.js', 'modules/offline-exporting.js']

const FORMATS = {
  html: { file: 'report.html', render: renderHtml },
  md: { file: 'results.md', render: renderMarkdown },
  csv: { file: 'results.csv', render: renderCsv }
}

const rows = [
  { name: 'out', type: 'string', metavar: 'DIR', takes: 'a folder', help: ['where the three files go (default: the first results folder)'] },
  { name: 'title', type: 'string', metavar: 'TEXT', takes: 'a title', help: ['the report\'s title (default: syscall-lab: <run-ids>)'] },
  { name: 'incomplete', type: 'boolean', help: ['report a run cut short all the same; its title says how much it holds'] },
  {
    name: 'rederive',
    type: 'boolean',
    help: [
      'measure and report nothing: rewrite each folder\'s results.json (and',
      'the experiment\'s other derived files, such as stdio\'s syscalls.json and',
      'gc.json) from its all.jsonl with the lab\'s current code'
    ]
  },
  { name: 'help', type: 'boolean', help: ['this text'] }
]

const USAGE = [
  'usage: node analyse.js [options] [results/<run-id> ...]',
  '  Writes report.html, results.md and results.csv from one or more runs of bench.js.',
  '  With no folder, analyses the newest run in results/. Several folders (two machines,',
  '  two versions) are compared side by side.',
  '  A run whose log holds fewer runs than its bench planned (stopped, or crashed) is',
  '  refused: finish it with node bench.js --resume, or report it as it is with --incomplete.',
  ...usageLines(rows)
].join('\n')

// Every expected failure is one line naming what is wrong and how to fix it; exit 2.
class AnalyseError extends UsageError {}

function parseOptions (argv) {
  const { values, positionals } = parseCommandLine(argv, rows, { tool: 'analyse.js', positionals: true })
  refuseEmpty(values, rows)
  if (positionals.some(dir => dir.trim() === '')) throw new AnalyseError('a results folder named \'\' (empty); give a results/<run-id> folder that bench.js wrote')
  if (values.rederive && !values.help) {
    const others = ['out', 'title', 'incomplete'].filter(name => values[name] !== undefined)
    if (others.length) throw new AnalyseError(`--rederive rewrites a run's own files and writes no report; drop ${others.map(name => `--${name}`).join(', ')}`)
    if (positionals.length === 0) throw new AnalyseError('--rederive needs the results/<run-id> folders to rewrite')
  }
  return { help: Boolean(values.help), out: values.out ?? null, title: values.title ?? null, incomplete: Boolean(values.incomplete), rederive: Boolean(values.rederive), dirs: positionals }
}

// ---- loading ----

const rederive = dir => `node analyse.js --rederive ${dir} rewrites it from all.jsonl`

function readJson (file, { optional = false, fix }) {
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    if (err.code === 'ENOENT' && optional) return undefined
    if (err.code === 'ENOENT') throw new AnalyseError(`${file} is missing; ${fix}`)
    throw new AnalyseError(`cannot read ${file} (${err.code ?? err.message}); check that it is a file you may read`)
  }
  if (text.trim() === '') throw new AnalyseError(`${file} is empty; ${fix}`)
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new AnalyseError(`${file} is corrupt: not valid JSON (${err.message.split('\n')[0]}); ${fix}`)
  }
}

function isResultsDir (dir) {
  return fs.existsSync(path.join(dir, 'results.json'))
}

function listDir (dir) {
  let stat
  try {
    stat = fs.statSync(dir)
  } catch (err) {
    if (err.code === 'ENOENT') throw new AnalyseError(`no such directory: ${dir}; give a results/<run-id> folder that bench.js wrote`)
    throw new AnalyseError(`cannot read ${dir} (${err.code}); check its permissions`)
  }
  if (!stat.isDirectory()) throw new AnalyseError(`${dir} is not a directory; give the results/<run-id> folder, not a file in it`)
  try {
    return fs.readdirSync(dir)
  } catch (err) {
    throw new AnalyseError(`cannot read ${dir} (${err.code}); check its permissions`)
  }
}

function runsIn (dir) {
  const isDirectory = candidate => {
    try {
      return fs.statSync(candidate).isDirectory()
    } catch {
      return false
    }
  }
  return listDir(dir)
    .map(name => path.join(dir, name))
    .filter(candidate => isDirectory(candidate) && isResultsDir(candidate))
}

// Newest by the date bench.js recorded: a fresh checkout gives every committed run
// the same modification time.
function newestRun (dir) {
  const runs = fs.existsSync(dir) ? runsIn(dir) : []
  if (runs.length === 0) throw new AnalyseError(`no run to analyse in ${dir}; run node bench.js first, or name a results folder`)
  const dated = runs.map(run => {
    let date = null
    try {
      date = Date.parse(JSON.parse(fs.readFileSync(path.join(run, 'context.json'), 'utf8')).date)
    } catch {}
    return { run, time: Number.isFinite(date) ? date : fs.statSync(path.join(run, 'results.json')).mtimeMs }
  })
  return dated.reduce((a, b) => (b.time > a.time ? b : a)).run
}

function loadResultSet (dir) {
  const entries = listDir(dir)
  if (entries.length === 0) throw new AnalyseError(`${dir} is empty; run node bench.js to measure, or give another results folder`)
  if (!entries.includes('results.json')) {
    const runs = runsIn(dir)
    if (runs.length) throw new AnalyseError(`${dir} holds runs, not results; give one of them, e.g. ${runs[runs.length - 1]}`)
    throw new AnalyseError(`${dir} is not a results directory (no results.json); give a results/<run-id> folder that bench.js wrote`)
  }
  const file = name => path.join(dir, name)
  const results = readJson(file('results.json'), { fix: rederive(dir) })
  const experiment = results && typeof results === 'object' ? ofResults(results) : null
  if (!experiment) throw new AnalyseError(`${file('results.json')} is not a bench.js results file (no experiment of this lab's); ${rederive(dir)}`)
  const shapeProblem = experiment.resultsProblem(results)
  if (shapeProblem) throw new AnalyseError(`${file('results.json')} is not a bench.js results file (${shapeProblem}); ${rederive(dir)}`)
  if (!experiment.measured(results)) throw new AnalyseError(`${dir} holds no measured cells; finish the run with node bench.js --resume ${dir}`)
  const outdated = experiment.outdated?.(results)
  if (outdated) throw new AnalyseError(`${file('results.json')} was summarised by an older lab, ${outdated}; ${entries.includes(LOG_FILE) ? rederive(dir) : `without its ${LOG_FILE} it cannot be rewritten: measure it again`}`)
  const context = readJson(file('context.json'), { fix: 'bench.js writes it when a run starts: restore it, or measure again' })
  if (!context || typeof context !== 'object') throw new AnalyseError(`${file('context.json')} is not a bench.js context file; restore it, or measure again`)
  // the experiment's other derived files, each with a cells list
  const missing = {}
  const derived = {}
  for (const [what, name] of Object.entries(experiment.derivedFiles ?? {})) {
    const value = readJson(file(name), { optional: true, fix: rederive(dir) })
    if (value === undefined) {
      missing[what] = `there is no ${name} in ${dir}`
      derived[what] = null
      continue
    }
    if (!value || typeof value !== 'object' || !Array.isArray(value.cells)) throw new AnalyseError(`${file(name)} is not a bench.js ${what} file (no cells list); ${rederive(dir)}`)
    derived[what] = value
  }
  // without its log (a folder of derived files alone) a run cannot tell how much it holds
  const progress = entries.includes(LOG_FILE) ? planProgress(context, readLog(dir, { makeError: message => new AnalyseError(message) })) : null
  return { dir, name: path.basename(dir), context, results, ...derived, missing, progress }
}

const isIncomplete = set => set.progress !== null && set.progress.logged < set.progress.planned
const describeProgress = ({ logged, planned }) => `${logged} of the ${planned} runs its bench planned`

function loadHighcharts () {
  const manifest = path.join(HIGHCHARTS_DIR, 'package.json')
  if (!fs.existsSync(manifest)) throw new AnalyseError(`Highcharts is not installed (no ${HIGHCHARTS_DIR}); run ./setup.sh`)
  const version = JSON.parse(fs.readFileSync(manifest, 'utf8')).version
  const scripts = HIGHCHARTS_FILES.map(name => {
    const file = path.join(HIGHCHARTS_DIR, name)
    if (!fs.existsSync(file)) throw new AnalyseError(`${file} is missing; reinstall with ./setup.sh`)
    return { name, text: fs.readFileSync(file, 'utf8') }
  })
  return { highcharts: { version, scripts } }
}

// ---- writing ----

function writeOutputs (outDir, rendered) {
  try {
    makeDirs(outDir)
  } catch (err) {
    throw new AnalyseError(`cannot create ${outDir} (${err.code}); give a writable --out`)
  }
  const written = []
  for (const [file, text] of rendered) {
    const target = path.join(outDir, file)
    try {
      writeFileAtomic(target, text)
    } catch (err) {
      throw new AnalyseError(`cannot write ${target} (${err.code}); give a writable --out`)
    }
    written.push(target)
  }
  return written
}

// Every run folder given (else the newest), refused while a bench.js is writing it:
// it would be reported half-measured, and its results.json may be rewritten mid-read.
function runDirs (options) {
  const dirs = options.dirs.length ? options.dirs.map(dir => path.resolve(dir)) : [newestRun(RESULTS_ROOT)]
  for (const dir of dirs) {
    const holder = busyHolder(dir)
    if (holder) throw new AnalyseError(`${busyMessage(dir, holder)}, then ${options.rederive ? 'rederive' : 'analyse'} it`)
  }
  return dirs
}

function run (options) {
  return options.rederive ? rederiveRuns(options) : report(options)
}

// parse (lib/cli.js) → load the result sets → shape → render each format → write.
function report (options) {
  const dirs = runDirs(options)
  // --out is checked before any work: on proc, say, recursive mkdir would retry for ever.
  const outDir = path.resolve(options.out ?? dirs[0])
  const checkOut = () => {
    const problem = outDirProblem(outDir)
    if (problem) throw new AnalyseError(`${options.out ? `--out ${options.out}` : `cannot write the report into ${outDir}`}: ${problem}`)
  }
  if (options.out) checkOut()
  const sets = dirs.map(loadResultSet)
  // runs of two experiments share no figure to set side by side
  const experimentOf = set => ofResults(set.results).name
  const other = sets.find(set => experimentOf(set) !== experimentOf(sets[0]))
  if (other) throw new AnalyseError(`${other.dir} is a run of the ${experimentOf(other)} experiment and ${sets[0].dir} of ${experimentOf(sets[0])}; compare runs of one experiment`)
  const cutShort = sets.filter(isIncomplete)
  if (cutShort.length && !options.incomplete) {
    const [set] = cutShort
    throw new AnalyseError(`${set.dir} is incomplete: its log holds ${describeProgress(set.progress)}; finish it with node bench.js --resume ${displayPath(set.dir)}, or report it as it is with --incomplete`)
  }
  if (!options.out) checkOut()
  const data = shapeReport(sets, { title: options.title })
  if (cutShort.length) data.title += ` (incomplete: ${cutShort.map(set => `${set.name} holds ${describeProgress(set.progress)}`).join('; ')})`
  const assets = loadHighcharts()
  const rendered = Object.values(FORMATS).map(format => [format.file, format.render(data, assets)])
  const written = writeOutputs(outDir, rendered)
  for (const file of written) console.log(`wrote ${displayPath(file)}`)
  for (const line of renderAgreement(data)) console.log(line)
  return 0
}

// What bench.js writes after every group of runs, written again from the log alone: after
// a change to an experiment's summary, or when a derived file was lost. Nothing is measured.
function rederiveRuns (options) {
  const dirs = runDirs(options)
  for (const dir of dirs) {
    const entries = listDir(dir)
    if (!entries.includes(LOG_FILE)) throw new AnalyseError(`${dir} has no ${LOG_FILE}, the log the other files are derived from; give a run folder bench.js wrote`)
    const context = readJson(path.join(dir, 'context.json'), { fix: 'bench.js writes it when a run starts: restore it, or measure again' })
    if (!context || typeof context.options !== 'object' || context.options === null) throw new AnalyseError(`${path.join(dir, 'context.json')} is not a bench.js context file (no options); restore it, or measure again`)
    const records = readLog(dir, { makeError: message => new AnalyseError(message) })
    const files = writeDerived(dir, records, context)
    console.log(`rewrote ${files.join(', ').replace(/, ([^,]+)$/, ' and $1')} in ${displayPath(dir)} from the ${records.length} runs of its ${LOG_FILE}`)
    const progress = planProgress(context, records)
    if (progress && progress.logged < progress.planned) console.log(`note: it holds ${describeProgress(progress)}; finish it with node bench.js --resume ${displayPath(dir)}`)
  }
  return 0
}

if (require.main === module) runCli({ name: 'analyse.js', usage: USAGE, parse: parseOptions, run })

module.exports = { parseOptions, report, rederiveRuns, loadResultSet, newestRun, loadHighcharts, FORMATS, AnalyseError, HIGHCHARTS_FILES }
