'use strict'
// Shapes one or more results sets (what bench.js wrote into results/<run-id>/) into
// what the report shows: the part their experiment shapes (the series of every chart,
// the tables, the findings: experiments/<name>/report.js shape) and each run's context.
// Pure functions of the parsed JSON, so every number can be checked by hand against a
// results folder; reading files and writing the report live in analyse.js, which hands
// each set over with its experiment (set.experiment: experiments/<name>/index.js).
const { contextOf } = require('./context')
const { groupByMachine } = require('../machine')
const { compareMachines } = require('./machines')

// Two machines' runs can share a run-id; the report needs a distinct name for each.
function labelSets (sets) {
  const seen = new Map()
  return sets.map(set => {
    const base = set.context?.runId || set.results?.runId || set.name || 'run'
    const count = (seen.get(base) ?? 0) + 1
    seen.set(base, count)
    return { ...set, label: count === 1 ? base : `${base} #${count}` }
  })
}

// The experiment a report shows: the one every set is a run of (analyse.js refuses to
// compare runs of two).
function experimentOf (sets) {
  const [first, ...rest] = sets.map(set => set.experiment)
  if (!first || rest.some(experiment => experiment !== first)) {
    throw new Error('a report shows runs of one experiment, each set handed over with it')
  }
  return first
}

// beside: runs of other experiments the report sets its figures against, by name (analyse.js)
function shapeReport (inputSets, { title, failedTargets = [], beside = {} } = {}) {
  const sets = labelSets(inputSets)
  const experiment = experimentOf(sets)
  // runs of one machine are checked for repeatability by their experiment's report;
  // runs of several are a comparison of machines first
  const acrossMachines = groupByMachine(sets).length > 1 && experiment.report.machineFigures
  return {
    machines: acrossMachines ? compareMachines(sets, experiment.report.machineFigures) : null,
    ...experiment.report.shape(sets, beside),
    title: title || `syscall-lab: ${sets.map(set => set.label).join(' vs ')}`,
    compare: sets.length > 1,
    // fleet targets that measured nothing (analyse.js, fleet/): each with its reason
    failedTargets,
    sets: sets.map(set => set.label),
    experiment: experiment.name,
    // the experiment's report module, which renders the shaped data (lib/report/html.js,
    // text.js)
    report: experiment.report,
    contexts: sets.map(set => contextOf(set, experiment.report))
  }
}

module.exports = { shapeReport, labelSets }
