'use strict'
// The report's plain-text forms, each written by its experiment (experiments/<name>/
// report.js): results.md (its figures, findings and the context, for a README or an
// issue) and results.csv (a row per cell, for a spreadsheet), both from the data
// lib/report/data.js shaped; and the tables bench.js prints when a run is done, from
// results.json.
const { byName } = require('../../experiments')
const { experimentOfResults } = require('./data')
const { escapeMarkdown: md, csvField } = require('./format')

function renderMarkdown (data) {
  return [`# ${md(data.title)}`, '', ...byName(data.experiment).report.markdown(data)].join('\n')
}

function renderCsv (data) {
  const { columns, rows } = byName(data.experiment).report.csv(data)
  const lines = [columns.map(([name]) => name).join(',')]
  for (const row of rows) lines.push(columns.map(([, pick]) => csvField(pick(row))).join(','))
  return lines.join('\r\n') + '\r\n'
}

// bench.js's summary when a run is done, as the run's experiment gives it.
function renderTerminal (results, sizes) {
  return experimentOfResults(results).report.terminal(results, sizes).join('\n')
}

// What analyse.js prints beside the files when runs are compared: how far they agree.
function renderAgreement (data) {
  return byName(data.experiment).report.agreement(data)
}

module.exports = { renderMarkdown, renderCsv, renderTerminal, renderAgreement }
