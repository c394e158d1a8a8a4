'use strict'
// A table of a run's terminal output: its lines from two below the title (past the header) to
// the first blank line or the line after the table, for days.js and profile-days.js.
const fs = require('node:fs')

function tableLines (file, title) {
  const lines = fs.readFileSync(file, 'utf8').split('\n')
  const start = lines.findIndex(line => line.startsWith(title)) + 2
  const end = lines.findIndex((line, i) => i >= start && (line.trim() === '' || line.startsWith('On this machine')))
  return lines.slice(start, end === -1 ? undefined : end)
}

module.exports = { tableLines }

if (require.main === module) {
  require('../../../lib/cli').notACommand('terminal.js', 'it holds what days.js and profile-days.js share; run ' +
    'one of them, as node docs/reproducibility/2026-11-30-amd-noisy/days.js --help')
}
