'use strict'
// The stdio experiment's report: the report members of the experiment interface
// (experiments/index.js), each from the module that makes it.
const path = require('node:path')
const { shape, contextRows, pinText, ladderProblem } = require('./report-data')
const { sections } = require('./report-html')
const { markdown, csv, terminal, agreement } = require('./report-text')
const { machineFigures } = require('./machines')

module.exports = {
  shape,
  // analyse.js --ladder: a calls run, whose no-op calls the profile table sets each reader's
  // call into its runtime against
  beside: { ladder: { experiment: 'calls', problem: ladderProblem } },
  contextRows,
  pinText,
  sections,
  browser: path.join(__dirname, 'report-browser.js'),
  markdown,
  csv,
  terminal,
  agreement,
  machineFigures
}
