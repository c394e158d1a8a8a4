'use strict'
// The lab's experiments, each in a folder of its own behind one interface (see
// experiments/stdio/index.js). Shared code finds an experiment here and never asks
// which one it holds.
const experiments = [require('./stdio'), require('./calls'), require('./http')]

const DEFAULT_EXPERIMENT = 'stdio'

function byName (name) {
  return experiments.find(experiment => experiment.name === name) ?? null
}

// The experiment whose run made a results.json; runs from before there were several are stdio's.
function ofResults (results) {
  return byName(results?.experiment ?? DEFAULT_EXPERIMENT)
}

module.exports = { experiments, byName, ofResults, DEFAULT_EXPERIMENT }
