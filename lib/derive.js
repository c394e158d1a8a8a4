'use strict'
// The files derived from a run's log (results.json, and whatever else its experiment
// derives), replaced whole, so that they can always be written again from the log: by
// bench.js after every group of runs, and by analyse.js --rederive.
const path = require('node:path')
const { writeJsonAtomic } = require('./atomic')

// experiment: the run's (experiments/<name>/index.js), which its caller hands over.
function writeDerived (runDir, records, context, experiment) {
  const files = experiment.derive(records, context, runDir)
  for (const [file, content] of Object.entries(files)) {
    try {
      writeJsonAtomic(path.join(runDir, file), content)
    } catch (err) {
      // which file could not be written, for a caller's one line (a rename's error names both)
      err.derivedFile = path.join(runDir, file)
      throw err
    }
  }
  return Object.keys(files)
}

module.exports = { writeDerived }
