'use strict'
// A run folder's log: all.jsonl holds a line per run, appended as the run is measured
// (the files derived from it: lib/derive.js).
const fs = require('node:fs')
const path = require('node:path')

const LOG_FILE = 'all.jsonl'

// The log's records ([] when there is none). Only its last line can be cut short (a bench
// killed mid-append): it is left out, and with `repair` (for the writer about to append)
// cut off the file; onCutTail(bytes) hears of it, for a reader that should say so. A bad
// line elsewhere is corruption: throws makeError(message).
// experiment (optional): { name, phases }, the experiment its context.json names: a record of
// a phase it never makes (another experiment's run, a line that is no run) is refused, before
// anything is derived from or appended to a log of another kind.
function readLog (runDir, { makeError, repair = false, onCutTail = () => {}, experiment = null }) {
  const file = path.join(runDir, LOG_FILE)
  if (!fs.existsSync(file)) return []
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    if (err.code === 'EISDIR') throw makeError(`${file} is a folder, not a run's log; put back the run's own all.jsonl`)
    throw makeError(`cannot read ${file} (${err.code ?? err.message}); ` +
      'give this user read access to it, or run as its owner')
  }
  const lines = text.split('\n')
  const records = []
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === '') continue
    const record = parsedRecord(lines[i])
    if (record && experiment && !experiment.phases.includes(record.phase)) {
      const what = typeof record.phase === 'string' ? `a run of phase '${record.phase}'` : 'a record with no phase'
      throw makeError(`${file} holds ${what} at line ${i + 1}, which no run of the ${experiment.name} ` +
        'experiment its context.json names makes: restore the run\'s own context.json and log, or measure again')
    }
    if (record) {
      records.push(record)
      // a whole record cut off just before its newline: the next append would join it
      if (i === lines.length - 1 && repair) fs.appendFileSync(file, '\n')
      continue
    }
    if (i === lines.length - 1) {
      if (repair) fs.truncateSync(file, Buffer.byteLength(text) - Buffer.byteLength(lines[i]))
      onCutTail(Buffer.byteLength(lines[i]))
      break
    }
    // every other line is a run measured: say which line, and keep them
    throw makeError(`${file} is corrupt at line ${i + 1} (not a record of a run); delete or mend that ` +
      'line and the rest of the run is read again (analyse.js, --rederive, --resume)')
  }
  return records
}

// Whether a JSON value is a record: an object, not null nor a list.
const isRecord = value => value !== null && typeof value === 'object' && !Array.isArray(value)

// A line's record: a JSON object, or null for anything else (a line cut short, text, a
// JSON value of another kind), which no reader of the log could take for a run.
function parsedRecord (line) {
  try {
    const value = JSON.parse(line)
    return isRecord(value) ? value : null
  } catch {
    return null
  }
}

// The log's data points: a disturbed try measured again (lib/measure-steps.js) stays in
// the log, superseded, and is no data point.
function dataPoints (records) {
  return records.filter(record => !record.superseded)
}

// The runs a plan holds, by phase, as bench.js records them in context.plannedRuns.
function runsByPhase (runs) {
  const counts = {}
  for (const { phase } of runs) counts[phase] = (counts[phase] ?? 0) + 1
  return counts
}

// How much of its plan a run's log holds: { planned, logged } runs (those of phases
// logged beyond their plan, as when a resume could no longer trace, not counted against
// the rest), or null for a run that recorded no plan (made before bench.js recorded one).
function planProgress (context, records) {
  const planned = context?.plannedRuns
  if (!planned || typeof planned !== 'object') return null
  const logged = runsByPhase(dataPoints(records))
  let done = 0
  let total = 0
  for (const [phase, count] of Object.entries(planned)) {
    total += count
    done += Math.min(count, logged[phase] ?? 0)
  }
  return { planned: total, logged: done }
}

// The fix for a run's derived file gone wrong: rewritten from the run's log, where it kept one.
const rederiveFix = runDir => (fs.existsSync(path.join(runDir, LOG_FILE))
  ? `node analyse.js --rederive ${runDir} rewrites it from ${LOG_FILE}`
  : `without its ${LOG_FILE} it cannot be rewritten: measure it again`)

module.exports = { readLog, dataPoints, runsByPhase, planProgress, rederiveFix, isRecord, LOG_FILE }
