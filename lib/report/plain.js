'use strict'
// The report's plain text, as every experiment's results.md, results.csv and terminal
// summary write it: tables, the CSV's rounding, and the pieces several experiments share
// (findings as a list, repeatability, failed runs, the context).
const { formatNumber, escapeMarkdown: md, formatRange } = require('./format')

function markdownTable (header, rows, align) {
  const line = cells => `| ${cells.join(' | ')} |`
  return [line(header), line(align.map(a => (a === 'r' ? '--:' : ':--'))), ...rows.map(line)].join('\n')
}

// A table as the terminal prints it, a line per row: each column as wide as its widest
// cell, an 'l' column padded on the right, any other on the left.
function textTable (table, align) {
  const widths = table[0].map((_, i) => Math.max(...table.map(row => row[i].length)))
  return table.map(row => row.map((cellText, i) => (align[i] === 'l' ? cellText.padEnd(widths[i]) : cellText.padStart(widths[i]))).join('  '))
}

function round (value, digits) {
  return value === null || value === undefined ? null : Number(value.toFixed(digits))
}

// An estimate with its interval where it has one: "589 (569–620)".
const nsWithInterval = value => (value
  ? `${formatNumber(value.estimate)}${value.low !== null ? ` (${formatRange(value.low, value.high)})` : ''}`
  : '')

// Findings as a list, each headed by its set when sets are compared.
function findingLines (findings, compare) {
  return findings.map(finding => `- ${compare && finding.set ? `**${md(finding.set)}**: ` : ''}${md(finding.text)}`)
}

// Each set's own repeatability, a paragraph (headed by its set when sets are compared).
function repeatabilityLines (own, compare) {
  return own.filter(entry => entry.text).flatMap(entry => [`${compare ? `**${md(entry.set)}**: ` : ''}${md(entry.text)}`, ''])
}

function failedRunsMarkdown (failures, compare) {
  if (failures.length === 0) return []
  return ['## Failed runs', '',
    ...failures.map(failure => `- ${compare ? `${md(failure.set)}: ` : ''}${md(failure.phase)} ${md(failure.program)} ${failure.where}, run ${failure.run}: ${md(failure.reason)}${failure.skippedSteps ? ` (its ${failure.skippedSteps} later steps at this cell skipped)` : ''}`), '']
}

function contextMarkdown (data) {
  return ['## Context', '', ...data.contexts.flatMap(context => [
    ...(data.compare ? [`### ${md(context.label)}`, ''] : []),
    markdownTable(['', ''], context.rows.map(([key, value]) => [md(key), md(value)]), ['l', 'l']), ''
  ])]
}

module.exports = { markdownTable, textTable, round, nsWithInterval, findingLines, repeatabilityLines, failedRunsMarkdown, contextMarkdown }
