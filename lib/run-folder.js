'use strict'
// A run's folder: made new, or opened again by --resume, every check done before
// anything is written; then locked, so that one bench at a time writes it.
const fs = require('node:fs')
const path = require('node:path')
const { ROOT, displayPath } = require('./paths')
const { UsageError, SAFE_NAME, outDirProblem, makeDirs } = require('./options')
const { acquireRunLock, busyHolder, busyMessage } = require('./run-lock')
const { isStrings } = require('./option-schema')
const { machineIdentity, sameMachine } = require('./machine')

// Where the run goes and with what options, all checked before anything is written:
// a new run's folder must be one bench may make and hold no run yet; a resumed run's
// context must hold every option bench needs and name programs the table still has.
// lab: the experiments' registry with bench.js's options of it (lib/bench-options.js).
function openRun (parsed, lab) {
  if (parsed.resume) return openResumed(parsed.resume, lab, parsed.experiment)
  const problem = outDirProblem(parsed.out)
  if (problem) throw new UsageError(`--out ${parsed.out}: ${problem}`)
  const runDir = path.join(parsed.out, parsed.id)
  if (fs.existsSync(runDir) && !fs.statSync(runDir).isDirectory()) throw new UsageError(`${runDir} is a file, not a run folder; pick another --id or --out`)
  // a bench measuring there now is the answer, as for a resume: its context.json, written a
  // moment after its lock, would otherwise make this a finished run to pick another --id for
  const holder = busyHolder(runDir)
  if (holder) throw new UsageError(busyMessage(runDir, holder))
  refuseHeldRun(runDir)
  return { runDir, options: parsed, resumed: false, recorded: null }
}

// A folder holding any file of a run (its log, gzipped as the docs keep theirs, its context
// or its results) is not written over: a new run would replace what it holds.
const RUN_FILES = ['all.jsonl', 'all.jsonl.gz', 'context.json', 'results.json']
function refuseHeldRun (runDir) {
  const held = RUN_FILES.filter(name => fs.existsSync(path.join(runDir, name)))
  if (held.length === 0) return
  const resumable = held.includes('all.jsonl') && held.includes('context.json')
  throw new UsageError(`${runDir} already holds a run (${held.join(', ')}); ` +
    (resumable
      ? `continue it with --resume ${displayPath(runDir)}, or pick another --id`
      : 'pick another --id or --out'))
}

function openResumed (given, lab, experiment = null) {
  let runDir
  if (fs.existsSync(given)) runDir = path.resolve(given)
  else if (SAFE_NAME.test(given)) runDir = path.join(ROOT, 'results', given)
  else throw new UsageError(`--resume ${given}: no such folder; give a run folder's path, or its name in results/`)
  if (fs.existsSync(runDir) && !fs.statSync(runDir).isDirectory()) throw new UsageError(`--resume ${given}: ${runDir} is a file; give the run folder that holds it`)
  // a bench still writing the run is the answer, before what it has not written yet (its
  // context comes a moment after its lock)
  const holder = busyHolder(runDir)
  if (holder) throw new UsageError(busyMessage(runDir, holder))
  const contextFile = path.join(runDir, 'context.json')
  if (!fs.existsSync(contextFile)) throw new UsageError(`--resume ${given}: no ${contextFile}; give a run folder bench.js made`)
  let context
  try {
    context = JSON.parse(fs.readFileSync(contextFile, 'utf8'))
  } catch (err) {
    throw new UsageError(`--resume: ${contextFile} is not valid JSON (${err.message.split('\n')[0]}); ` +
      'restore it from a copy of the run, or start a new run')
  }
  const problem = resumedContextProblem(context, lab)
  if (problem) throw new UsageError(`--resume: ${contextFile} ${problem}: it is not a whole context of bench.js's; restore it, or start a new run`)
  const folderProblem = outDirProblem(runDir)
  if (folderProblem) throw new UsageError(`--resume ${given}: ${folderProblem}`)
  const options = lab.resumedOptions(context.options)
  if (experiment !== null && experiment !== options.experiment) {
    throw new UsageError(`--resume ${given} is a run of the ${options.experiment} experiment, not of ` +
      `${experiment}: drop --experiment, or resume another run`)
  }
  const recorded = lab.byName(options.experiment).recorded(context, options)
  return { runDir, options, resumed: true, recorded, began: context }
}

// What a resume takes from context.json, checked at the start, so that a context cut
// short or edited by hand is refused there, not met as a TypeError mid-run: the options
// by the schema's rows and the experiment's stored fields, and the programs it measured.
function resumedContextProblem (context, lab) {
  if (!context || typeof context !== 'object' || Array.isArray(context)) return 'is not an object'
  const options = context.options
  if (!options || typeof options !== 'object' || Array.isArray(options)) return 'has no options'
  const problem = lab.storedProblem(options)
  if (problem) return problem
  if (!Array.isArray(context.programs) || context.programs.length === 0) return 'has no list of the programs it measured'
  const badProgram = context.programs.find(program => typeof program?.name !== 'string' || !SAFE_NAME.test(program.name))
  if (badProgram !== undefined) return `lists a program ${JSON.stringify(badProgram?.name ?? badProgram)}, which is no program's name`
  if (context.extraPrograms !== undefined && !(Array.isArray(context.extraPrograms) && context.extraPrograms.every(extra => typeof extra?.module === 'string' && isStrings(extra.programs)))) {
    return 'has extraPrograms that are not a list of { module, programs }'
  }
  return null
}

// Makes the run folder and takes its lock, after every check that could refuse the run.
function lockRun (runDir, resumed) {
  makeDirs(runDir)
  const lock = acquireRunLock(runDir, { makeError: message => new UsageError(message), note: message => console.log(`note: ${message}`) })
  // a bench that finished while this one was starting has left a run here
  if (!resumed) refuseHeldRun(runDir)
  return lock
}

// A resumed run keeps the context it began with (when, which commit, which runtimes:
// its first runs were measured so) and adds each resume: when, with which commit, and
// which runtimes' versions differ from the start, since runs from both now sit side
// by side.
function resumedContext (original, now) {
  const runtimesChanged = Object.keys(now.runtimes ?? {}).filter(name => JSON.stringify(now.runtimes[name]) !== JSON.stringify(original.runtimes?.[name]))
  const resume = { date: now.date, lab: now.lab, runtimesChanged }
  return { ...original, resumedAt: [...(original.resumedAt ?? []), resume] }
}

// A run resumed on another machine would hold two machines' figures in one table, where no
// page could tell them apart; and the VM a session lands on can change between two sittings
// (docs/reproducibility.md, the correction of 2026-12-01). Called before the run is locked or
// its log repaired, so that a refused run is left as it was. here: this machine's facts, as
// lib/context.js machineFacts records them. Returns a note where the run's context records no
// machine (an older lab's), which no check can then tell.
function refuseOtherMachine (began, here, runDir) {
  const beganOn = machineIdentity(began)
  if (Object.keys(beganOn.facts).length === 0) {
    return `${displayPath(runDir)} records no machine, so whether it is resumed on the one it began on cannot be told`
  }
  const hereOn = machineIdentity({ machine: here })
  const { same, differing } = sameMachine(beganOn, hereOn)
  if (same) return null
  throw new UsageError(`--resume ${displayPath(runDir)}: the run began on ${beganOn.slug} and this machine is ` +
    `${hereOn.slug} (${differing.join(', ')} ${differing.length === 1 ? 'differs' : 'differ'}), so its figures ` +
    'would mix two machines; start a new run')
}

// A run whose passes this lab now places otherwise (the profile pass's dd, moved beside the
// reader at SCHED_BATCH on 2026-12-05) would pool runs of two placements in one figure, which
// its page would describe as one. Called beside refuseOtherMachine. passes: where each pass
// runs now (the experiment's passes); a pass the run did not record is not compared.
function refuseOtherPlacement (began, passes, runDir) {
  const recorded = began.placement?.passes ?? {}
  const words = pin => Object.entries(pin ?? {}).map(([key, value]) => `${key} ${value}`).join(', ')
  const moved = Object.keys(passes).filter(pass => pass in recorded &&
    JSON.stringify(recorded[pass]) !== JSON.stringify(passes[pass]))
  if (moved.length === 0) return
  const what = moved.map(pass => `${pass}: ${words(recorded[pass])}, now ${words(passes[pass])}`).join('; ')
  throw new UsageError(`--resume ${displayPath(runDir)}: the run placed its passes as this lab no longer does ` +
    `(${what}), so its runs would mix two placements; start a new run`)
}

module.exports = { openRun, lockRun, resumedContext, refuseOtherMachine, refuseOtherPlacement }
