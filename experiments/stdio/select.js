'use strict'
// Which stdin readers a stdio run measures: those --only picks from experiments/stdio/programs.js's
// table, or, on a resume, those its run began with.
const { programs, withNodeVersions, unavailableReason, fileFeedReason } = require('./programs')
const { UsageError, matchOnly } = require('../../lib/options')

// A resume runs the programs its run began with (`recorded`), not whatever --only would
// pick from today's table; each of them must still run here. A program --only names must
// run here too; one a pattern picks is skipped, as is one of the whole table, if not.
function select (options, recorded = null) {
  const table = withNodeVersions(programs, options.nodeVersions ?? [])
  const names = table.map(program => program.name)
  const { picked, named, unmatched } = recorded ? { picked: [], named: new Set(), unmatched: [] } : matchOnly(names, options.only)
  if (unmatched.length) {
    // a versioned row exists only for the Nodes --node names
    const [, row, major] = /^(.+)@(\d+)$/.exec(unmatched[0]) ?? []
    if (row && names.includes(row)) {
      throw new UsageError(`--only ${unmatched[0]} is ${row} on Node ${major}, a row only --node ${major} adds: ` +
        `add --node ${major}`)
    }
    throw new UsageError(`--only ${unmatched[0]} matches no program; the programs are: ${names.join(', ')}`)
  }
  const chosen = recorded ?? (options.only.length ? table.filter(program => picked.includes(program.name)) : table)
  const skipped = []
  const runnable = []
  for (const program of chosen) {
    const reason = unavailableReason(program)
    const notFromFile = options.feeder === 'file' ? fileFeedReason(program) : null
    if (reason !== null && recorded) throw new UsageError(`cannot resume: ${program.name}, which this run measured, cannot run here: ${reason}`)
    if (reason !== null && named.has(program.name)) throw new UsageError(`cannot run ${program.name}: ${reason}`)
    if (reason !== null) skipped.push({ program: program.name, reason })
    else if (notFromFile !== null) skipped.push({ program: program.name, reason: `not with --feeder file: ${notFromFile}` })
    else runnable.push(program)
  }
  if (runnable.length === 0) throw new UsageError(`no program left to run: ${skipped.map(skip => `${skip.program}, ${skip.reason}`).join('; ')}`)
  return { runnable, skipped }
}

// The rows of the programs a run measured, from today's table; one it no longer has
// (an extra program not loaded, a row since removed) stops the resume, naming the fix.
function recorded (context, options) {
  const table = withNodeVersions(programs, options.nodeVersions)
  const names = context.programs.map(program => program.name)
  const missing = names.filter(name => !table.some(row => row.name === name))
  if (missing.length) {
    const modules = [...new Set((context.extraPrograms ?? []).filter(extra => extra.programs.some(name => missing.includes(name))).map(extra => extra.module))]
    const fix = modules.length
      ? `set LAB_EXTRA_PROGRAMS=${modules.join(':')} as when it started`
      : `define them again (in experiments/stdio/programs.js, or a module in LAB_EXTRA_PROGRAMS), or resume with the lab at ${context.lab?.commit ? `commit ${context.lab.commit}` : 'the commit it was measured with'}`
    throw new UsageError(`cannot resume: this run measured ${missing.join(', ')}, which ${missing.length === 1 ? 'is' : 'are'} not defined now; ${fix}`)
  }
  return names.map(name => table.find(row => row.name === name))
}

module.exports = { select, recorded }
