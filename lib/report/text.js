'use strict'
// The report's plain-text forms, each written by its experiment (experiments/<name>/
// report.js): results.md (its figures, findings and the context, for a README or an
// issue) and results.csv (a row per cell, for a spreadsheet), both from the data
// lib/report/data.js shaped; and the tables bench.js prints when a run is done, from
// results.json. The data carries its experiment's report module (data.report).
const { escapeMarkdown: md, csvField } = require('./format')
const { machinesMarkdown, machinesTerminal, machinesCsv, failedTargetsMarkdown } = require('./machines-text')

function renderMarkdown (data) {
  const machines = data.machines ? machinesMarkdown(data.machines) : []
  const experiment = data.report.markdown(data)
  // one run's heading says when and from which commit it was measured, as the page does
  const heading = data.compare || !data.subtitle ? [] : [md(data.subtitle), '']
  return [`# ${md(data.title)}`, '', ...heading, ...failedTargetsMarkdown(data.failedTargets), ...machines,
    ...experiment].join('\n')
}

const csvText = (header, rows) =>
  [header, ...rows].map(cells => cells.map(csvField).join(',')).join('\r\n') + '\r\n'

function renderCsv (data) {
  const { columns, rows } = data.report.csv(data)
  return csvText(columns.map(([name]) => name), rows.map(row => columns.map(([, pick]) => pick(row))))
}

// machines.csv, beside results.csv when runs of several machines are compared.
function renderMachinesCsv (data) {
  const { columns, rows } = machinesCsv(data.machines)
  return csvText(columns, rows)
}

// bench.js's summary when a run is done, as the run's experiment (its caller's) gives it.
// runDir: the run's folder, whose derived files beside results.json an experiment may print
function renderTerminal (results, sizes, experiment, runDir = null) {
  return experiment.report.terminal(results, sizes, runDir).join('\n')
}

// What analyse.js prints beside the files when runs are compared: how far they agree.
function renderAgreement (data) {
  const machines = data.machines ? machinesTerminal(data.machines) : []
  return [...machines, ...data.report.agreement(data)]
}

module.exports = { renderMarkdown, renderCsv, renderMachinesCsv, renderTerminal, renderAgreement }
