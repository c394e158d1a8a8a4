'use strict'
// What a run's server processes did (lib/steady.js), in the sentences the http and db
// findings print: how many of each class, the runs left out, and the sequences of those
// that reached no steady state, which a cell is then not quoted without.
const { formatNumber, listJoin } = require('./format')
const { runProcesses } = require('../steady')

// cells: an experiment's summary cells; whereOf(cell) names a cell's process group
// ("bun (close)", "bun /db"); unit: the sequence's unit.
function steadinessFindings (cells, whereOf, unit = 'µs') {
  const processes = runProcesses(cells, whereOf).filter(entry => entry.kind !== null)
  if (processes.length === 0) return []
  const count = kind => processes.filter(entry => entry.kind === kind).length
  const before = cells.reduce((sum, cell) => sum + (cell.beforeSteady ?? 0), 0)
  const classes = `${count('flat')} ran flat, ${count('warm-up')} warmed up, ${count('slowdown')} slowed down and ` +
    `${count('no steady state')} reached no steady state`
  const source = 'Barrett et al.\'s classes, from each process\'s CPU per request over its warm-up and ' +
    'its runs at the most connections'
  const left = before ? `; ${before} runs from before a process's steady state are left out of the figures.` : '.'
  const lines = [`Of ${processes.length} server processes, ${classes} (${source})${left}`]
  const moving = processes.filter(entry => entry.kind === 'no steady state')
  if (moving.length) {
    const unquoted = cells.filter(cell => cell.steadiness?.steady === false).length
    const sequenceOf = entry => entry.sequence.map(value => formatNumber(value)).join(', ')
    const sequences = moving.map(entry => `${entry.where} process ${entry.process + 1}: ${sequenceOf(entry)}`)
    const whose = `whose server process${moving.length === 1 ? '' : 'es'} reached no steady state`
    const order = `CPU per request in ${unit}, in order: ${listJoin(sequences)}`
    lines.push(`Not quoted as one number: ${unquoted} cell${unquoted === 1 ? '' : 's'}, ${whose} (${order}).`)
  }
  return lines
}

module.exports = { steadinessFindings }
