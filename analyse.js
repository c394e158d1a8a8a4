#!/usr/bin/env node
'use strict'
// analyse.js: turns results/<run-id>/ folders that bench.js wrote into report.html
// (opens from disk: no server, no network), results.md and results.csv. The pipeline:
// parse options → load result sets → shape the data → render each format → write.
const fs = require('node:fs')
const path = require('node:path')

const { shapeReport } = require('./lib/report/data')
const { incomparable } = require('./lib/report/machines')
const { groupByMachine, machineIdentity, sameMachine } = require('./lib/machine')
const { isRecordList } = require('./lib/results')
const { failedTargetLines } = require('./lib/report/machines-text')
const { renderHtml } = require('./lib/report/html')
const { renderMarkdown, renderCsv, renderMachinesCsv, renderAgreement } = require('./lib/report/text')
const { writeFileAtomic } = require('./lib/atomic')
const { UsageError, outDirProblem, makeDirs } = require('./lib/options')
const { busyHolder, busyMessage } = require('./lib/run-lock')
const { readLog, planProgress, rederiveFix, LOG_FILE } = require('./lib/run-log')
const { writeDerived } = require('./lib/derive')
const { parseCommandLine, refuseEmpty, usageLines } = require('./lib/option-schema')
const { ofResults, byName, DEFAULT_EXPERIMENT } = require('./experiments')
const { runCli } = require('./lib/cli')
const { displayPath } = require('./lib/paths')

const RESULTS_ROOT = path.join(__dirname, 'results')
const HIGHCHARTS_DIR = path.join(__dirname, 'node_modules', 'highcharts')
// highcharts-more draws the min–max bands and error bars; xrange the flame graphs;
// offline-exporting lets a reader save a chart as PNG or SVG without the Highcharts export
// server.
const HIGHCHARTS_FILES = ['highcharts.js', 'highcharts-more.js', 'modules/xrange.js', 'modules/exporting.js',
  'modules/offline-exporting.js']

const FORMATS = {
  html: { file: 'report.html', render: renderHtml },
  md: { file: 'results.md', render: renderMarkdown },
  csv: { file: 'results.csv', render: renderCsv },
  // a row per figure per machine, when runs of several machines are compared
  machines: { file: 'machines.csv', render: renderMachinesCsv, when: data => data.machines }
}

// What a fleet target that measured nothing leaves in its folder instead of a run
// (fleet/playbook.yml): { target, reason, experiment? }.
const FAILED_TARGET = 'target-failed.json'

const rows = [
  {
    name: 'out',
    type: 'string',
    metavar: 'DIR',
    takes: 'a folder',
    help: [
      'where the files go (default: a run\'s own folder; for a comparison,',
      'a folder of its own under results/comparisons/)'
    ]
  },
  { name: 'title', type: 'string', metavar: 'TEXT', takes: 'a title', help: ['the report\'s title (default: syscall-lab: <run-ids>)'] },
  { name: 'incomplete', type: 'boolean', help: ['report a run cut short all the same; its title says how much it holds'] },
  {
    name: 'ladder',
    type: 'string',
    metavar: 'RUN',
    takes: 'a calls run\'s folder',
    help: [
      'a calls run\'s folder: a stdio report\'s profile table sets each reader\'s',
      'call into its runtime against that ladder\'s no-op call of the same variant'
    ]
  },
  {
    name: 'rederive',
    type: 'boolean',
    help: [
      'measure and report nothing: rewrite each folder\'s results.json (and',
      'the experiment\'s other derived files, such as stdio\'s syscalls.json and',
      'gc.json) from its all.jsonl with the lab\'s current code'
    ]
  },
  {
    name: 'machines',
    type: 'boolean',
    help: [
      'report nothing: list the runs under each folder given (default:',
      'results/) by machine, with each machine\'s key, so that a fleet\'s or',
      'a year\'s runs can be picked for a comparison'
    ]
  },
  { name: 'help', type: 'boolean', help: ['this text'] }
]

const USAGE = [
  'usage: node analyse.js [options] [results/<run-id> | FOLDER-OF-RUNS ...]',
  '  Writes report.html, results.md and results.csv from one or more runs of bench.js.',
  '  With no folder, analyses the newest run in results/. Several runs are compared side by',
  '  side: runs of one machine by the two-run repeatability criterion, runs of several',
  '  machines (their machine keys differ: CPU, kernel, mitigations, hypervisor, clock',
  '  source, container) as a comparison of machines, one column each, with machines.csv.',
  '  A folder of runs (a fleet\'s, results/fleet/<id>/<target>/<run-id>/) stands for every run',
  '  under it, one report per experiment.',
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
  if (values.machines && !values.help) {
    const others = ['out', 'title', 'incomplete', 'rederive', 'ladder'].filter(name => values[name] !== undefined)
    if (others.length) {
      const dropped = others.map(name => `--${name}`).join(', ')
      throw new AnalyseError(`--machines lists runs and writes nothing; drop ${dropped}`)
    }
  }
  if (values.rederive && !values.help) {
    const others = ['out', 'title', 'incomplete', 'ladder'].filter(name => values[name] !== undefined)
    if (others.length) throw new AnalyseError(`--rederive rewrites a run's own files and writes no report; drop ${others.map(name => `--${name}`).join(', ')}`)
    if (positionals.length === 0) throw new AnalyseError('--rederive needs the results/<run-id> folders to rewrite')
  }
  return {
    help: Boolean(values.help),
    machines: Boolean(values.machines),
    out: values.out ?? null,
    title: values.title ?? null,
    incomplete: Boolean(values.incomplete),
    ladder: values.ladder ?? null,
    rederive: Boolean(values.rederive),
    dirs: positionals
  }
}

// ---- loading ----

function readJson (file, { optional = false, fix }) {
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    if (err.code === 'ENOENT' && optional) return undefined
    if (err.code === 'ENOENT') throw new AnalyseError(`${file} is missing; ${fix}`)
    if (err.code === 'EISDIR') throw new AnalyseError(`${file} is a folder, not a file; ${fix}`)
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

// Newest by the date bench.js recorded: a fresh checkout gives every committed run
// the same modification time.
function newestRun (dir) {
  // the runs directly in it, as bench.js writes them
  const runs = fs.existsSync(dir) ? runsUnder(dir, 1).runs : []
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
    // a run stopped before its first results were written still holds its context and log
    if (entries.includes('context.json')) {
      throw new AnalyseError(`${dir} holds a run stopped before its first results (no results.json); ` +
        `node bench.js --resume ${dir} measures the rest`)
    }
    if (entries.includes('results.json.gz')) {
      throw new AnalyseError(`${dir} holds results.json.gz, not results.json; gunzip it ` +
        `(gunzip -k ${path.join(dir, 'results.json.gz')}) and give the folder again`)
    }
    throw new AnalyseError(`${dir} is not a results directory (no results.json); give a results/<run-id> folder that bench.js wrote`)
  }
  const file = name => path.join(dir, name)
  const results = readJson(file('results.json'), { fix: rederiveFix(dir) })
  const experiment = results && typeof results === 'object' ? ofResults(results) : null
  if (!experiment) {
    throw new AnalyseError(`${file('results.json')} is not a bench.js results file (no experiment of this lab's); ` +
      rederiveFix(dir))
  }
  // every experiment's failed runs, as lib/results.js lists them
  const shapeProblem = results.failures !== undefined && !isRecordList(results.failures)
    ? 'its failures are not a list of runs'
    : experiment.resultsProblem(results)
  if (shapeProblem) {
    throw new AnalyseError(`${file('results.json')} is not a bench.js results file (${shapeProblem}); ` +
      rederiveFix(dir))
  }
  if (!experiment.measured(results)) throw new AnalyseError(`${dir} holds no measured cells; finish the run with node bench.js --resume ${dir}`)
  const outdated = experiment.outdated?.(results)
  if (outdated) {
    throw new AnalyseError(`${file('results.json')} was summarised by an older lab, ${outdated}; ${rederiveFix(dir)}`)
  }
  const context = readJson(file('context.json'), { fix: 'bench.js writes it when a run starts: restore it, or measure again' })
  // the same test --rederive makes: a context without its options says nothing of the run
  if (!context || typeof context !== 'object' || typeof context.options !== 'object' || context.options === null) {
    throw new AnalyseError(`${file('context.json')} is not a bench.js context file (no options); ` +
      'restore it, or measure again')
  }
  // a results.json copied in from another run would be reported under this run's name
  const ran = context.options?.experiment ?? DEFAULT_EXPERIMENT
  const restore = 'put back the run\'s own files' +
    (entries.includes(LOG_FILE) ? ` (${rederiveFix(dir)}, if context.json is the run's)` : ', or measure it again')
  if (ran !== experiment.name) {
    throw new AnalyseError(`${file('results.json')} is of the ${experiment.name} experiment but ` +
      `${file('context.json')} of ${ran}: they are not of one run; ${restore}`)
  }
  if (results.runId && context.runId && results.runId !== context.runId) {
    throw new AnalyseError(`${file('results.json')} is of the run ${results.runId} but ` +
      `${file('context.json')} of ${context.runId}: they are not of one run; ${restore}`)
  }
  // the experiment's other derived files, each with a cells list
  const missing = {}
  const derived = {}
  for (const [what, name] of Object.entries(experiment.derivedFiles ?? {})) {
    const value = readJson(file(name), { optional: true, fix: rederiveFix(dir) })
    if (value === undefined) {
      missing[what] = `there is no ${name} in ${dir}`
      derived[what] = null
      continue
    }
    if (!value || typeof value !== 'object' || !Array.isArray(value.cells)) {
      throw new AnalyseError(`${file(name)} is not a bench.js ${what} file (no cells list); ${rederiveFix(dir)}`)
    }
    derived[what] = value
  }
  // without its log (a folder of derived files alone) a run cannot tell how much it holds
  const progress = entries.includes(LOG_FILE)
    ? planProgress(context, readLog(dir, { makeError: message => new AnalyseError(message), experiment }))
    : null
  // the set's experiment goes with it to the shared code that shapes and renders it
  return { dir, name: path.basename(dir), context, results, ...derived, missing, progress, experiment }
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

// The runs under a folder that holds runs, not results (a fleet's, results/ itself), a
// few levels down, and the fleet targets that left a failure instead of a run.
const FOLDER_DEPTH = 3
function runsUnder (dir, depth = FOLDER_DEPTH) {
  const found = { runs: [], failed: [] }
  if (depth === 0) return found
  for (const name of listDir(dir).sort()) {
    const child = path.join(dir, name)
    if (name === FAILED_TARGET) {
      found.failed.push(failedTarget(child))
      continue
    }
    let isDirectory = false
    try {
      isDirectory = fs.statSync(child).isDirectory()
    } catch {}
    if (!isDirectory) continue
    if (isResultsDir(child)) {
      // a target stopped part-way: its bench wrote results.json as it stopped, and the fleet its
      // failure beside it; named as the failure, kept, not compared as a run (a review: the
      // failure went unread and the part-run refused the whole merged report)
      const failure = path.join(child, FAILED_TARGET)
      if (fs.existsSync(failure)) found.failed.push(failedTarget(failure))
      else found.runs.push(child)
      continue
    }
    const below = runsUnder(child, depth - 1)
    found.runs.push(...below.runs)
    found.failed.push(...below.failed)
  }
  return found
}

function failedTarget (file) {
  const fix = 'the fleet writes it when a target fails; run the fleet again, or delete it'
  const value = readJson(file, { fix })
  if (!value || typeof value.target !== 'string' || typeof value.reason !== 'string') {
    throw new AnalyseError(`${file} is not a fleet target's failure (no target and reason); ${fix}`)
  }
  return { target: value.target, reason: value.reason, experiment: value.experiment ?? null }
}

// Every run folder given (else the newest), a folder of runs standing for the runs under
// it; each refused while a bench.js is writing it: it would be reported half-measured,
// and its results.json may be rewritten mid-read.
function runDirs (options) {
  const given = options.dirs.length ? options.dirs.map(dir => path.resolve(dir)) : [newestRun(RESULTS_ROOT)]
  const dirs = []
  const folders = []
  const failed = []
  // a run found under a folder of runs, by that folder: where a run given twice came from
  const under = new Map()
  for (const dir of given) {
    if (options.rederive || isResultsDir(dir) || listDir(dir).length === 0) {
      dirs.push(dir)
      continue
    }
    const found = runsUnder(dir)
    if (found.runs.length === 0 && found.failed.length === 0) {
      dirs.push(dir)
      continue
    }
    if (found.runs.length === 0) {
      const [first] = found.failed
      throw new AnalyseError(`${dir} holds no run: every fleet target failed, ` +
        `${first.target} with ${first.reason}; mend it and run the fleet again`)
    }
    folders.push(dir)
    dirs.push(...found.runs)
    for (const run of found.runs) under.set(run, dir)
    failed.push(...found.failed)
  }
  // a run set against itself would agree with itself, and say it repeats
  const real = dirs.map(dir => fs.existsSync(dir) ? fs.realpathSync(dir) : dir)
  const twice = real.findIndex((dir, i) => real.indexOf(dir) !== i)
  if (twice !== -1) {
    const same = dirs.filter((dir, i) => real[i] === real[twice])
    const found = [...new Set(same.map(dir => under.get(dir)).filter(Boolean))]
    const where = found.length ? ` (found under ${found.join(' and ')})` : ''
    throw new AnalyseError(`${dirs[twice]} is given twice${where}; compare two different runs`)
  }
  // and so would a copy of a run: one run id begun at one moment is one run, wherever it lies
  if (!options.rederive) {
    // a context that cannot be read is left to the loading, which names its fault
    const begun = dirs.map(dir => {
      try {
        const context = JSON.parse(fs.readFileSync(path.join(dir, 'context.json'), 'utf8'))
        return context?.runId && context?.date ? `${context.runId} ${context.date}` : null
      } catch {
        return null
      }
    })
    const copy = begun.findIndex((key, i) => key !== null && begun.indexOf(key) !== i)
    if (copy !== -1) {
      const original = dirs[begun.indexOf(begun[copy])]
      const run = begun[copy].replace(' ', ', begun ')
      throw new AnalyseError(`${dirs[copy]} is a copy of ${original} (the run ${run}); compare two different runs`)
    }
  }
  for (const dir of dirs) {
    const holder = busyHolder(dir)
    if (holder) throw new AnalyseError(`${busyMessage(dir, holder)}, then ${options.rederive ? 'rederive' : 'analyse'} it`)
  }
  return { dirs, folders, failed }
}

// A comparison's own folder, so that no run's report is overwritten by it: named after
// the folder of runs it was given, else after its runs.
const COMPARISONS = path.join(RESULTS_ROOT, 'comparisons')
function comparisonDir (dirs, folders) {
  if (folders.length === 1 && dirs.every(dir => dir.startsWith(folders[0] + path.sep))) {
    return path.join(COMPARISONS, path.basename(folders[0]))
  }
  const name = dirs.map(dir => path.basename(dir).replace(/[^\w.-]+/g, '_')).join('-vs-')
  return path.join(COMPARISONS, name.length <= 80 ? name : `${name.slice(0, 60)}-and-${dirs.length - 1}-more`)
}

function run (options) {
  if (options.machines) return listMachines(options)
  return options.rederive ? rederiveRuns(options) : report(options)
}

// The index of runs by machine: computed from each run's context.json whenever asked,
// so runs keep the paths they were written to (results/reference, results/<run-id>,
// results/fleet/<id>/<target>/<run-id>) and an older lab's runs are keyed all the same.
function listMachines (options) {
  const folders = options.dirs.length ? options.dirs.map(dir => path.resolve(dir)) : [RESULTS_ROOT]
  const runs = []
  for (const folder of folders) {
    if (!fs.existsSync(folder)) {
      throw new AnalyseError(`no such directory: ${folder}; give a folder of runs, or run node bench.js first`)
    }
    runs.push(...(isResultsDir(folder) ? [folder] : runsUnder(folder).runs))
  }
  if (runs.length === 0) {
    throw new AnalyseError(`no run under ${folders.join(', ')}; run node bench.js first, or name a folder of runs`)
  }
  const sets = runs.map(dir => {
    const file = path.join(dir, 'context.json')
    const context = readJson(file, { fix: 'bench.js writes it when a run starts: restore it, or measure again' })
    // as loadResultSet's test: a context of another shape is named, not met as a TypeError
    if (!context || typeof context !== 'object' || Array.isArray(context)) {
      throw new AnalyseError(`${file} is not a bench.js context file; restore it, or measure again`)
    }
    const results = readJson(path.join(dir, 'results.json'), { fix: rederiveFix(dir) })
    return { dir, context, experiment: ofResults(results)?.name ?? '?' }
  })
  for (const group of groupByMachine(sets)) {
    const { identity } = group
    const machine = group.sets[0].context.machine ?? {}
    const older = identity.olderLab ? `; keyed without ${identity.missing.join(', ')} (an older lab's run)` : ''
    const facts = `${machine.cpuModel ?? 'unknown CPU'}, ${machine.cores ?? '?'} cores, ` +
      `${machine.kernel ?? 'unknown kernel'}`
    console.log(`${identity.slug}: ${facts}; key ${identity.key}${older}`)
    for (const set of group.sets) {
      const day = typeof set.context.date === 'string' ? set.context.date.slice(0, 10) : ''
      console.log(`  ${set.experiment.padEnd(6)} ${day.padEnd(10)} ${displayPath(set.dir)}`)
    }
  }
  return 0
}

// parse (lib/cli.js) → load the result sets → shape → render each format → write.
function report (options) {
  const { dirs, folders, failed } = runDirs(options)
  // --out is checked before any work: on proc, say, recursive mkdir would retry for ever.
  const compared = dirs.length > 1 || folders.length > 0
  const outDir = path.resolve(options.out ?? (compared ? comparisonDir(dirs, folders) : dirs[0]))
  const checkOut = () => {
    const problem = outDirProblem(outDir)
    if (problem) throw new AnalyseError(`${options.out ? `--out ${options.out}` : `cannot write the report into ${outDir}`}: ${problem}`)
  }
  if (options.out) checkOut()
  const sets = dirs.map(loadResultSet)
  const groups = byExperiment(sets)
  // runs of two experiments share no figure to set side by side; a folder of runs gives
  // a report for each experiment it holds
  if (groups.length > 1 && folders.length === 0) {
    const [first, other] = groups.map(group => group.sets[0])
    throw new AnalyseError(`${other.dir} is a run of the ${group(other)} experiment and ` +
      `${first.dir} of ${group(first)}; compare runs of one experiment`)
  }
  const cutShort = sets.filter(isIncomplete)
  if (cutShort.length && !options.incomplete) {
    const [set] = cutShort
    throw new AnalyseError(`${set.dir} is incomplete: its log holds ${describeProgress(set.progress)}; finish it with node bench.js --resume ${displayPath(set.dir)}, or report it as it is with --incomplete`)
  }
  if (!options.out) checkOut()
  const beside = besideRuns(options, groups)
  const assets = loadHighcharts()
  for (const { name, sets: experimentSets } of groups) {
    // a failure is shown with its experiment's report, or with every report when its
    // experiment has none (its runs all failed)
    const measured = groups.map(entry => entry.name)
    const failedTargets = failed.filter(target =>
      !target.experiment || target.experiment === name || !measured.includes(target.experiment))
    const data = shapeReport(experimentSets, { title: options.title, failedTargets, beside })
    const problem = data.machines && incomparable(data.machines)
    if (problem) throw new AnalyseError(`${name}: ${problem}`)
    const ownCutShort = cutShort.filter(set => experimentSets.includes(set))
    if (ownCutShort.length) {
      const held = ownCutShort.map(set => `${set.name} holds ${describeProgress(set.progress)}`)
      data.title += ` (incomplete: ${held.join('; ')})`
    }
    const rendered = Object.values(FORMATS).filter(format => !format.when || format.when(data))
      .map(format => [format.file, format.render(data, assets)])
    const written = writeOutputs(groups.length > 1 ? path.join(outDir, name) : outDir, rendered)
    if (groups.length > 1) console.log(`${name}: ${experimentSets.length} run${experimentSets.length > 1 ? 's' : ''}`)
    for (const file of written) console.log(`wrote ${displayPath(file)}`)
    for (const line of failedTargetLines(failedTargets)) console.log(`fleet target ${line}`)
    for (const line of renderAgreement(data)) console.log(line)
  }
  return 0
}

const group = set => set.experiment.name

// Runs of another experiment that a report sets its figures against (an experiment's
// report.beside: { option: { experiment whose run it takes, problem(own sets): why they take
// none } }):
// --ladder's calls run, for stdio's profile table, of the same machine as every run it is
// set beside. → { option: its result set }.
function besideRuns (options, groups) {
  if (!options.ladder) return {}
  const takers = groups.filter(entry => entry.sets[0].experiment.report.beside?.ladder)
  if (takers.length === 0) {
    throw new AnalyseError('--ladder sets a calls run against a stdio run\'s profile pass, and these are runs of ' +
      `${groups.map(entry => entry.name).join(' and ')}; give it with a stdio run`)
  }
  const [{ sets: own }] = takers
  const wanted = own[0].experiment.report.beside.ladder
  const problem = wanted.problem(own)
  if (problem) throw new AnalyseError(`--ladder: ${problem}`)
  const set = loadResultSet(path.resolve(options.ladder))
  if (group(set) !== wanted.experiment) {
    throw new AnalyseError(`--ladder ${options.ladder} is a run of the ${group(set)} experiment; ` +
      `give a run of node bench.js --experiment ${wanted.experiment}`)
  }
  // another machine's ns say nothing of this one's
  for (const run of own) {
    const machines = sameMachine(machineIdentity(run.context), machineIdentity(set.context))
    if (!machines.same) {
      throw new AnalyseError(`--ladder ${options.ladder} ran on another machine than ${run.name} (its ` +
        `${machines.differing.join(', ')} differ); give a calls run of the same machine`)
    }
  }
  return { ladder: set }
}

// The sets by experiment, in the order each was first given.
function byExperiment (sets) {
  const groups = []
  for (const set of sets) {
    const name = group(set)
    const found = groups.find(entry => entry.name === name)
    if (found) found.sets.push(set)
    else groups.push({ name, sets: [set] })
  }
  return groups
}

// What bench.js writes after every group of runs, written again from the log alone: after
// a change to an experiment's summary, or when a derived file was lost. Nothing is measured.
function rederiveRuns (options) {
  const { dirs } = runDirs(options)
  for (const dir of dirs) {
    const entries = listDir(dir)
    if (!entries.includes(LOG_FILE)) {
      // the docs keep their runs' logs gzipped beside their results
      const gzipped = entries.includes(`${LOG_FILE}.gz`)
        ? `; gunzip its ${LOG_FILE}.gz first`
        : '; give a run folder bench.js wrote'
      throw new AnalyseError(`${dir} has no ${LOG_FILE}, the log the other files are derived from${gzipped}`)
    }
    const context = readJson(path.join(dir, 'context.json'),
      { fix: 'bench.js writes it when a run starts: restore it, or measure again' })
    if (!context || typeof context.options !== 'object' || context.options === null) throw new AnalyseError(`${path.join(dir, 'context.json')} is not a bench.js context file (no options); restore it, or measure again`)
    // a cut last line is a run the log lost: the derived files are rewritten without it
    let cutBytes = 0
    const experiment = byName(context.options.experiment ?? DEFAULT_EXPERIMENT)
    if (!experiment) {
      throw new AnalyseError(`${path.join(dir, 'context.json')} names experiment ` +
        `${JSON.stringify(context.options.experiment)}, which this lab has not; give a run of this lab's`)
    }
    const records = readLog(dir, {
      makeError: message => new AnalyseError(message),
      onCutTail: bytes => { cutBytes = bytes },
      experiment
    })
    // a log with no run in it (emptied, or one line of something else) would rewrite every
    // derived file as a run that measured nothing (a review: results.json of 316 KB became
    // 426 bytes, exit 0): what was derived from it is worth more than the log's state
    if (records.length === 0) {
      const cut = cutBytes ? ' (its one line is cut off or not a record)' : ''
      throw new AnalyseError(`${path.join(dir, LOG_FILE)} holds no run${cut}, ` +
        'so its derived files are left as they were; restore it from a copy of the run')
    }
    // its files are rewritten in place: a folder this user cannot write in is said before
    const unwritable = outDirProblem(dir)
    if (unwritable) throw new AnalyseError(`--rederive ${dir}: ${unwritable}`)
    let files
    try {
      // what the experiment reads again from the raw files its runs kept (stdio's profiles)
      files = writeDerived(dir, experiment.refresh?.(records, dir) ?? records, context, experiment)
    } catch (err) {
      if (!err.code || !err.derivedFile) throw err
      throw new AnalyseError(`--rederive ${dir}: cannot write ${err.derivedFile} (${err.code}); make it a file ` +
        'this user may replace, then rederive it')
    }
    console.log(`rewrote ${files.join(', ').replace(/, ([^,]+)$/, ' and $1')} in ${displayPath(dir)} from the ${records.length} runs of its ${LOG_FILE}`)
    if (cutBytes) {
      console.log(`note: the last line of its ${LOG_FILE} was cut off mid-write (${cutBytes} bytes) and is left out; ` +
        `node bench.js --resume ${displayPath(dir)} measures that run again`)
    }
    const progress = planProgress(context, records)
    if (progress && progress.logged < progress.planned) console.log(`note: it holds ${describeProgress(progress)}; finish it with node bench.js --resume ${displayPath(dir)}`)
  }
  return 0
}

if (require.main === module) runCli({ name: 'analyse.js', usage: USAGE, parse: parseOptions, run })

module.exports = { parseOptions, report, rederiveRuns, loadResultSet, newestRun, loadHighcharts, FORMATS, AnalyseError, HIGHCHARTS_FILES }
