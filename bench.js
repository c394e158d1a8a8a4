#!/usr/bin/env node
'use strict'
// bench.js: runs one experiment (experiments/) and writes results/<run-id>/. The
// pipeline: parse the options → the experiment → open and lock the run → plan its
// steps → measure what is pending → derive the results → print them.
const fs = require('node:fs')
const path = require('node:path')

const { displayPath } = require('./lib/paths')
const { runtimes } = require('./lib/runtimes')
const { UsageError } = require('./lib/options')
const { runCli } = require('./lib/cli')
const { benchOptions } = require('./lib/bench-options')
const { openRun, lockRun, resumedContext, refuseOtherMachine, refuseOtherPlacement } = require('./lib/run-folder')
const { readLog, dataPoints, runsByPhase } = require('./lib/run-log')
const { writeDerived } = require('./lib/derive')
const { measurePending } = require('./lib/measure-steps')
const { printListing, printDisturbance, printFailures } = require('./lib/bench-print')
const { probePtrace } = require('./lib/strace')
const { probeBpf } = require('./lib/sysprof')
const { probePerf } = require('./lib/perf')
const { allowedCpus, placementPlan, checkedPlacement, placementNote, pinSelf } = require('./lib/placement')
const { collectContext, machineFacts } = require('./lib/context')
const { machineName } = require('./lib/machine')
const { seededShuffle } = require('./lib/stats')
const { writeJsonAtomic } = require('./lib/atomic')
const { renderTerminal } = require('./lib/report/text')
const registry = require('./experiments')

// The experiments, handed to the shared code that needs them (lib/ knows none by itself),
// with bench.js's options of them.
const lab = { ...registry, ...benchOptions(registry) }
const { experiments, byName } = lab
const { parseOptions, usage, rerunCommand } = lab

// What the tests' fake step (test/fake-step.js) stands in for: `measurer`, the
// experiments' sessions, (experiment, options, runDir, interrupted) → { measure(step,
// run), close() }, which then start no reader and no server; `placement`, the CPUs
// (lib/placement.js checkedPlacement's answer), given by a caller whose process bench
// then leaves where it is; `quiet(cpus, stopped)`, the wait for quiet CPUs before a disturbed
// step is measured again; `bpf`, whether the kernel pass may attach its probes; and `perf`,
// whether the profile pass may sample.
async function main (parsed, interrupted,
  { measurer = null, placement = null, quiet = undefined, bpf = null, perf = null } = {}) {
  // a table an experiment loads (LAB_EXTRA_PROGRAMS) may be refused before anything runs
  for (const experiment of experiments) experiment.check?.()
  if (parsed.list) {
    printListing(byName(parsed.experiment).list(parsed.values), parsed.json)
    return 0
  }
  const run = await prepareRun(parsed, interrupted, { measurer, placement, bpf, perf })
  if (run === null) {
    console.log('\ninterrupted before the first run, while it asked what the machine allows: ' +
      'nothing measured or written')
    return 130
  }
  const done = await measurePending(run, interrupted, quiet)
  writeDerived(run.runDir, run.records, run.context, run.experiment)
  if (interrupted() || run.stoppedOutside) {
    const how = interrupted()
      ? 'interrupted'
      : 'stopped: a process it measured was ended by a signal from outside bench.js'
    console.log(`\n${how}: ${run.alreadyDone + done} of ${run.steps.length} runs measured and kept in ${run.runDir}`)
    console.log(`resume with: node bench.js --resume ${displayPath(run.runDir)}`)
    return 130
  }
  const results = readJson(path.join(run.runDir, 'results.json'))
  console.log(renderTerminal(results, run.options.sizes, run.experiment, run.runDir))
  printDisturbance(results.disturbance)
  printFailures(results.failures, run.runDir, run.options, run.selection.runnable, lab)
  console.log(`\nresults: ${displayPath(run.runDir)}`)
  if (parsed.report) writeReport(run.runDir)
  else console.log(`report: node analyse.js ${displayPath(run.runDir)}`)
  // Failed runs are kept out of the results, but a script calling bench should know.
  return results.failures.length ? 1 : 0
}

// A new run's folder, made for it, once nothing was written there: a folder the user made
// with files of their own stays as it was.
function removeIfEmpty (dir) {
  if (fs.readdirSync(dir).length === 0) fs.rmdirSync(dir)
}

// Everything before the first run: the folder, what it measures and its lock, the
// context with the runs its plan holds (analyse.js tells a finished run from one cut
// short by them), and which of the plan's runs the log does not hold yet.
async function prepareRun (parsed, interrupted, { measurer, placement: given, bpf: givenBpf, perf: givenPerf }) {
  const { runDir, options, resumed, recorded, began } = openRun(parsed, lab)
  const experiment = byName(options.experiment)
  const selection = experiment.select(options, recorded)
  const placement = given ?? checkedPlacement()
  // read once: the refusal and the context must describe the same machine
  const here = machineFacts(placement.plan.cpus)
  const machineNote = resumed ? refuseOtherMachine(began, here, runDir) : null
  if (resumed) refuseOtherPlacement(began, experiment.passes(options, placement.plan), runDir)
  if (machineNote) console.log(`note: ${machineNote}`)
  const lock = lockRun(runDir, resumed)
  for (const skip of selection.skipped) console.log(`skipping ${skip.program}: ${skip.reason}`)
  const ptrace = options.strace ? probePtrace() : { available: false, reason: 'skipped with --no-strace' }
  // only an experiment with a kernel pass has the option; the rest never probe
  const kernel = experiment.wantsKernel?.(options) ?? options.kernel
  const bpf = kernel ? givenBpf ?? probeBpf() : { available: false, reason: 'skipped: no kernel pass asked for' }
  const profiled = experiment.wantsProfile?.(options) ?? false
  const perf = profiled ? givenPerf ?? probePerf() : { available: false, reason: 'skipped: no profile pass asked for' }
  // a stop while the probes ran (Ctrl-C reaches their process group) killed them too: their
  // verdicts are not the machine's, and a context that kept them would say so for good. The
  // probes ran synchronously, so the stop's handler runs only once the event loop turns:
  // let it, before asking.
  await new Promise(resolve => setImmediate(resolve))
  if (interrupted()) {
    lock.release()
    if (!resumed) removeIfEmpty(runDir)
    return null
  }
  if (options.strace && !ptrace.available) console.log(`no syscall profiles: ${ptrace.reason}`)
  if (kernel && !bpf.available) console.log(`no kernel pass: ${bpf.reason}`)
  if (profiled && !perf.available) console.log(`no profile pass: ${perf.reason}`)
  for (const line of experiment.planNotes?.(options) ?? []) console.log(line)

  const records = readLog(runDir, { makeError: message => new UsageError(message), repair: true, experiment })
  const { runnable, skipped } = selection
  const gcUnavailable = Object.fromEntries(runnable.filter(program => !runtimes[program.runtime].v8Flags)
    .map(program => [program.name, runtimes[program.runtime].noGcTrace]))
  const note = placementNote(placement)
  if (note) console.log(note)
  const driverPinned = given ? false : pinSelf(placement.plan)
  const cpuPlan = placement.plan
  const steps = plan(options, selection, { ptrace, bpf, perf }, cpuPlan)
  // the machine read on the CPUs the passes may use, as the plan found them before the bench
  // pinned itself
  const collected = {
    runId: path.basename(runDir),
    options,
    programs: runnable,
    ptrace,
    bpf,
    perf,
    gcUnavailable,
    skipped,
    machine: here
  }
  const now = {
    ...collectContext(collected),
    placement: { cpus: cpuPlan.cpus, system: cpuPlan.system, driver: driverPinned ? cpuPlan.driver : null, passes: experiment.passes(options, cpuPlan), refused: placement.refused, unreliable: cpuPlan.unreliable, shuffleSeed: options.id },
    ...experiment.context(options, selection, cpuPlan)
  }
  const begun = resumed ? resumedContext(readJson(path.join(runDir, 'context.json')), now) : now
  const context = { ...begun, plannedRuns: runsByPhase(steps) }
  if (now.lab.commit === null) console.log('the lab\'s commit is unknown, so the run cannot say which code measured it: install git (apt-get install git) or set LAB_COMMIT=<commit>; in Docker, build the image with --build-arg LAB_COMMIT=$(git rev-parse --short HEAD)')
  writeJsonAtomic(path.join(runDir, 'context.json'), context)

  const runsLogged = new Map()
  const cellKey = experiment.cellKey
  const kept = dataPoints(records)
  for (const record of kept) runsLogged.set(cellKey(record), (runsLogged.get(cellKey(record)) ?? 0) + 1)
  const pending = steps.filter(step => (runsLogged.get(cellKey(step)) ?? 0) <= step.run)
  const alreadyDone = steps.length - pending.length
  const doneText = alreadyDone ? `, ${alreadyDone} of ${steps.length} runs already done` : ''
  console.log(`${resumed ? 'resuming' : 'writing'} ${runDir} on ${machineName(now)}: ` +
    `${experiment.describe(options, selection)}${doneText}`)
  // a resumed run's log goes to the session too: what it measured may set what is measured next
  // (the http and db latency passes' rates)
  const log = { steps, records: kept }
  const session = measurer
    ? measurer(experiment, options, runDir, interrupted)
    : experiment.session(options, runDir, interrupted, log)
  const recurring = experiment.recurring ?? null
  return { runDir, experiment, options, selection, context, records, steps, pending, alreadyDone, session, cellKey, recurring }
}

// Every step of a run, in order: the experiment's plan on the CPUs of lib/placement.js,
// its readers shuffled each round by a generator seeded with the run's id, so that a
// resumed run plans the same steps.
function plan (options, selection, probes, placement = placementPlan(allowedCpus())) {
  const shuffle = seededShuffle(options.id ?? '')
  return byName(options.experiment).plan(options, selection, { ...probes, placement, shuffle })
}

// The report is analyse.js's job; a failure there must not hide the bench's results.
function writeReport (runDir) {
  const analyse = require('./analyse')
  try {
    analyse.report(analyse.parseOptions([runDir]))
  } catch (err) {
    if (!(err instanceof analyse.AnalyseError)) throw err
    console.log(`analyse.js: ${err.message}`)
  }
}

function readJson (file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'))
}

if (require.main === module) runCli({ name: 'bench.js', usage: usage(), parse: parseOptions, run: main, measures: true })

module.exports = { main, parseOptions, usage, plan, cellCommand: rerunCommand }
