'use strict'
// What bench.js prints beside the results' own summary: --list's rows, how often other
// work disturbed the measured CPUs, and each failed run with the commands that re-run it.
const path = require('node:path')
const { LOG_FILE } = require('./run-log')
const { counted } = require('./report/format')
const { disturbanceText, DISTURBANCE_LABEL } = require('./foreign')

function printListing (rows, json) {
  if (json) {
    console.log(JSON.stringify(rows, null, 2))
    return
  }
  for (const row of rows) {
    const status = row.available ? 'ok' : `unavailable: ${row.unavailable}`
    const kind = row.boundary ? `${row.boundary}; reads: ${row.read}` : row.kind ?? (row.honoursBlockSize ? 'honours bs' : 'own chunks')
    console.log(`${row.name.padEnd(14)} ${kind}  ${status}`)
    console.log(`${''.padEnd(14)} $ ${row.command}`)
  }
}

// The foreign-time summary, printed only when a step was disturbed or unchecked: a quiet
// run's "none" belongs in the report, not in the terminal's closing lines.
function printDisturbance (disturbance) {
  if (!disturbance?.disturbed && !disturbance?.unchecked) return
  console.log(`\n${DISTURBANCE_LABEL}: ${disturbanceText(disturbance)}`)
}

// Each failure with the pipeline that reproduces it, then, once per failed cell, the
// bench that measures that cell again as this run did. lab: the experiments' registry with
// bench.js's options of it (lib/bench-options.js).
function printFailures (failures, runDir, options, runnable, lab) {
  if (failures.length === 0) return
  const experiment = lab.byName(options.experiment)
  console.log(`\n${counted(failures.length, 'failed run')}; each is excluded from the results ` +
    `(details in ${path.join(runDir, LOG_FILE)}):`)
  for (const failure of failures) {
    const skipped = failure.skippedSteps ? ` (its ${failure.skippedSteps} later step${failure.skippedSteps === 1 ? '' : 's'} at this cell skipped: the failure would recur)` : ''
    console.log(`- ${failure.phase} ${failure.program} ${experiment.failureLabel(failure)}: ${failure.reason}${skipped}`)
    console.log(`  re-run: ${failure.command}`)
  }
  const commands = [...new Set(failures.map(failure => lab.rerunCommand(options, failure, runnable)))]
  console.log(`measure ${commands.length === 1 ? 'the failed cell' : 'a failed cell'} again in the lab:`)
  for (const command of commands) console.log(`  ${command}`)
}

module.exports = { printListing, printDisturbance, printFailures }
