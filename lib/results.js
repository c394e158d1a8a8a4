'use strict'
// What every experiment's results.json holds beside its own figures: the run, the
// experiment, the steal and foreign CPU time its steps saw, and its failed runs.
const { stealShare } = require('./steal')
const { disturbanceOf } = require('./foreign')
const { dataPoints, isRecord } = require('./run-log')

// A failed run as the terminal and the report list it; `cellFields` are the record's
// fields that name its cell beyond its program (stdio's block size, http's mode ...).
// The steps a failure made the run skip (lib/measure-steps.js) are counted with the first
// failure of their cell; a cell whose steps were all skipped (its reader hung in another
// pass) is listed by its first, so that no failed cell goes unlisted.
function failuresOf (records, cellFields = []) {
  const where = record => [record.phase, record.program, ...cellFields.map(field => record[field] ?? null)].join('\t')
  const listed = new Map()
  const failures = []
  for (const record of records.filter(entry => !entry.ok)) {
    const first = listed.get(where(record))
    if (record.skipped && first) {
      first.skippedSteps = (first.skippedSteps ?? 0) + 1
      continue
    }
    const failure = {
      phase: record.phase,
      program: record.program,
      run: record.run,
      reason: record.failure,
      command: record.command,
      ...Object.fromEntries(cellFields.map(field => [field, record[field] ?? null]))
    }
    if (!first) listed.set(where(record), failure)
    failures.push(failure)
  }
  return failures
}

// `logged`: the whole log, superseded tries too, which only the disturbance counts;
// `experiment`: the name of the experiment that summarises, which a run from before runs
// recorded their experiment was a run of.
function sharedResults (logged, context, cellFields, experiment) {
  const records = dataPoints(logged)
  return {
    runId: context.runId,
    experiment: context.options.experiment ?? experiment,
    // the steal of every run that succeeded and measured it (an http or db strace run
    // does not: it is not timed), whatever its phase, over its CPUs' time
    stealShare: stealShare(records.filter(record => record.ok && 'steal' in record)),
    // the steps that saw foreign CPU time on their CPUs, and how many were measured again
    disturbance: disturbanceOf(logged),
    failures: failuresOf(records, cellFields)
  }
}

// Whether `value` is a list of records (objects): a results.json's cells, rows and failures,
// checked before a report reads a field of each.
const isRecordList = value => Array.isArray(value) && value.every(isRecord)

module.exports = { sharedResults, isRecordList }
