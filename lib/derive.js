'use strict'
// The files derived from a run's log (results.json, and whatever else its experiment
// derives), replaced whole, so that they can always be written again from the log: by
// bench.js after every group of runs, and by analyse.js --rederive.
const path = require('node:path')
const { writeJsonAtomic } = require('./atomic')
const { byName, DEFAULT_EXPERIMENT } = require('../experiments')

function writeDerived (runDir, records, context) {
  const files = byName(context.options.experiment ?? DEFAULT_EXPERIMENT).derive(records, context, runDir)
  for (const [file, content] of Object.entries(files)) writeJsonAtomic(path.join(runDir, file), content)
  return Object.keys(files)
}

module.exports = { writeDerived }
