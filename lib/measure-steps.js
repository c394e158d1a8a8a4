'use strict'
// The measuring loop every experiment's steps go through: each pending step measured by
// the experiment's session and appended to the log, a disturbed one measured again once
// its CPUs are quiet, the derived files rewritten after every group, and a stop honoured
// between steps. Prints only its progress line.
const fs = require('node:fs')
const path = require('node:path')
const { LOG_FILE } = require('./run-log')
const { writeDerived } = require('./derive')
const { waitForQuiet, noiseGauge, MAX_REMEASURES } = require('./foreign')

// After this many steps in a row kept disturbed, the machine is taken to be busy for good
// and steps are no longer measured again: a run on it would otherwise never end.
const BUSY_STEPS = 5

// The fields that name a record's cell, which a skipped step's record takes from the step.
const CELL_FIELDS = [
  'phase', 'program', 'blockSize', 'bytes', 'straceMode', 'mode', 'connections', 'endpoint', 'requests'
]

// A step not measured because it would fail as a run failed before (`failed`, whose
// command shows it): logged failed with `reason`, and marked skipped, so that the failure
// is listed once for its cell.
function skippedRecord (step, { failed, reason }) {
  const cell = Object.fromEntries(CELL_FIELDS.filter(field => field in step).map(field => [field, step[field]]))
  cell.program = step.program.name ?? step.program
  const at = new Date().toISOString()
  return { ...cell, run: step.run, ok: false, skipped: true, failure: reason, command: failed.command, at }
}

// Measures the pending runs in order, appending each to the log; a stop ends it at the
// run in flight, which is not logged. Returns how many runs it logged. A cell's warm-up
// runs come before the first of its runs that this bench makes. `quiet(cpus, stopped)` waits until
// the CPUs are quiet or a stop comes (lib/foreign.js waitForQuiet; the tests' fake step
// waits for nothing).
// Where the experiment says where a failure will recur (`recurring`: a reader that hangs,
// crashes or miscounts does so again), the steps there are skipped with its reason, and
// the run keeps its usual time. A warm-up run that fails is its step's failure: the step's
// own run would fail alike, and one hang costs one timeout.
async function measurePending (run, interrupted, quiet = waitForQuiet) {
  const { runDir, experiment, context, records, pending, session, cellKey, recurring = null, options } = run
  const logFile = path.join(runDir, LOG_FILE)
  const startedAt = performance.now()
  let done = 0
  const warmed = new Set()
  // steps in a row still disturbed when kept
  let busySteps = 0
  // where a failure will recur, from the first failure there, this bench's or a resumed
  // run's: { failed, reason }; skipped steps' records repeat one logged before them
  const failedAt = new Map()
  const remember = record => {
    if (recurring === null || record.ok || record.superseded || record.skipped) return
    for (const { key, reason } of recurring.at(record)) {
      if (!failedAt.has(key)) failedAt.set(key, { failed: record, reason })
    }
  }
  // the check for foreign time, judged against its own error heard so far in the run
  const noise = noiseGauge()
  records.forEach(record => {
    remember(record)
    noise.hear(record.foreign)
  })
  const log = record => {
    fs.appendFileSync(logFile, JSON.stringify(record) + '\n')
    records.push(record)
    remember(record)
    noise.hear(record.foreign)
  }
  const judged = result => result.record?.foreign
    ? { ...result, record: { ...result.record, foreign: noise.judge(result.record.foreign) } }
    : result
  try {
    for (const [index, step] of pending.entries()) {
      if (interrupted()) break
      const groupStarts = index === 0 || pending[index - 1].group !== step.group
      const line = { runsDone: done, runsTotal: pending.length, startedAt }
      progress({ ...line, label: process.stdout.isTTY ? step.label : step.group, groupStarts })
      // what a step does before its run (starting and warming up servers) shows as it goes
      const note = text => progress({ ...line, label: `${step.group}: ${text}`, groupStarts: true })
      // what each try of the step waits for, once it has waited long, shows as it goes
      const waiting = (label, logged) => progress({ ...line, label: `${step.group}: ${label}`, groupStarts: logged })
      const measure = async runIndex => judged(await whileWaiting(step, options?.timeoutSeconds, waiting,
        () => session.measure(step, runIndex, note)))
      const known = recurring?.keys(step).map(key => failedAt.get(key)).find(Boolean)
      if (known) {
        log(skippedRecord(step, known))
        done++
        continue
      }
      let warmupFailed = null
      if (!warmed.has(cellKey(step))) {
        warmed.add(cellKey(step))
        for (let w = 0; w < step.warmup && !interrupted() && warmupFailed === null; w++) {
          const warmup = await measure(-1)
          if (warmup.stopped || warmup.record.ok) continue
          warmupFailed = { ...warmup.record, run: step.run, warmup: true }
        }
      }
      if (interrupted()) break
      let { record, stopped } = warmupFailed
        ? { record: warmupFailed, stopped: false }
        : await measure(step.run)
      // A step that something else shared its CPUs with is kept in the log, superseded,
      // and measured again once its CPUs are quiet (lib/foreign.js); on a machine that
      // stays busy, steps are kept flagged instead, and the run says so.
      const retries = busySteps < BUSY_STEPS ? MAX_REMEASURES : 0
      for (let retry = 0; !stopped && !interrupted() && record.ok && record.foreign?.disturbed && retry < retries; retry++) {
        log({ ...keepRawFile(runDir, record, retry), superseded: true })
        await quiet(record.foreign.cpus ?? [], interrupted)
        if (interrupted()) break
        ;({ record, stopped } = await measure(step.run))
      }
      if (record.foreign) busySteps = record.foreign.disturbed ? busySteps + 1 : 0
      if (busySteps === BUSY_STEPS) console.log(`\nthe measured CPUs stayed busy with other work over ${BUSY_STEPS} steps in a row: steps are no longer measured again but kept, flagged 'disturbed'`)
      // a measured process stopped by a signal bench.js did not send (a kill, an OOM kill):
      // the run stops as an interrupted one does, its step unkept, and says so (bench.js)
      if (stopped && !interrupted()) run.stoppedOutside = true
      if (stopped || interrupted()) break
      log(record)
      done++
      // The last group, and one cut short by a stop, are written once after the loop.
      if (index < pending.length - 1 && pending[index + 1].group !== step.group) writeDerived(runDir, records, context, experiment)
    }
  } finally {
    await session.close()
  }
  if (process.stdout.isTTY) process.stdout.write('\n')
  return done
}

// A superseded try's raw file (record.rawFile, in the run's folder) moved aside, named for its
// try (kernel/c-256-1.json → kernel/c-256-1.try1.json), so that the next try, which writes the
// same name, leaves the evidence of the one it replaces; the record names where it went.
function keepRawFile (runDir, record, retry) {
  if (typeof record.rawFile !== 'string') return record
  const dir = path.dirname(record.rawFile)
  const [name, ...extensions] = path.basename(record.rawFile).split('.')
  const moved = path.join(dir, [name, `try${retry + 1}`, ...extensions].join('.'))
  try {
    fs.renameSync(path.join(runDir, record.rawFile), path.join(runDir, moved))
  } catch {
    return record
  }
  return { ...record, rawFile: moved }
}

function formatDuration (ms) {
  const seconds = Math.round(ms / 1000)
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s` : `${seconds}s`
}

function progressLine ({ runsDone, runsTotal, elapsedMs, label }) {
  const eta = runsDone > 0 ? formatDuration((elapsedMs / runsDone) * (runsTotal - runsDone)) : '?'
  return `step ${runsDone + 1} of ${runsTotal}, ${formatDuration(elapsedMs)} elapsed, ETA ${eta}  ${label}`
}

// A terminal keeps one line, rewritten before every run; a log gets one line per group,
// so a ten-minute bench leaves a log that can be read.
function progress ({ runsDone, runsTotal, startedAt, label, groupStarts }) {
  if (!process.stdout.isTTY && !groupStarts) return
  const line = progressLine({ runsDone, runsTotal, elapsedMs: performance.now() - startedAt, label })
  if (process.stdout.isTTY) process.stdout.write(`\r\x1b[K${line}`)
  else process.stdout.write(line + '\n')
}

// A try of a step that has run this long is shown waiting, on a terminal every second, in a
// log every WAITING_LOGGED_EVERY_S: a reader that hangs holds the bench for its whole
// timeout, and the line says which one and how long it has left.
const WAITING_SHOWN_AFTER_S = 10
const WAITING_LOGGED_EVERY_S = 30

// The reader a step runs, at its block size where it has one: 'node-sync@256'.
function stepReader (step) {
  const name = step.program?.name ?? step.program ?? step.phase
  return step.blockSize == null ? name : `${name}@${step.blockSize}`
}

// What a try of a step that has run for `seconds` waits on. A try may hold more than one
// run (a cost run too short for a slope is run again longer), each with its own timeout.
function waitingLabel (step, seconds, timeoutSeconds) {
  const waited = `waiting on ${stepReader(step)}: ${seconds} s`
  if (!timeoutSeconds) return waited
  if (seconds <= timeoutSeconds) return `${waited} of ${timeoutSeconds} s`
  return `${waited} (each run times out at ${timeoutSeconds} s)`
}

// Runs measureTry(), and once it has run for WAITING_SHOWN_AFTER_S, shows what it waits
// on every second: show(label, logged), logged when a log's line is due too.
// The monotonic clock (ms; the VM's wall clock has jumped by seconds mid-run) and a repeating
// timer; a test hands in its own, which Node 18's test runner cannot mock.
const REAL_CLOCK = {
  now: () => performance.now(),
  every (ms, tick) {
    const ticker = setInterval(tick, ms)
    ticker.unref()
    return () => clearInterval(ticker)
  }
}

async function whileWaiting (step, timeoutSeconds, show, measureTry, clock = REAL_CLOCK) {
  const startedAt = clock.now()
  // the log's lines so far, one each WAITING_LOGGED_EVERY_S, however late a tick comes
  let logged = 0
  const stop = clock.every(1000, () => {
    const seconds = Math.floor((clock.now() - startedAt) / 1000)
    if (seconds < WAITING_SHOWN_AFTER_S) return
    const due = Math.floor(seconds / WAITING_LOGGED_EVERY_S) > logged
    if (due) logged = Math.floor(seconds / WAITING_LOGGED_EVERY_S)
    show(waitingLabel(step, seconds, timeoutSeconds), due)
  })
  try {
    return await measureTry()
  } finally {
    stop()
  }
}

module.exports = { measurePending, progressLine, waitingLabel, whileWaiting, BUSY_STEPS }
