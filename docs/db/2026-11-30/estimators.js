'use strict'
// Other figures for a db cell than the lab's (the median of its rounds' ratios to C's run of the
// same round), on pairs of runs: how many cells each keeps within 5% between the runs.
// - ratio of medians: the cell's median CPU per request over C's;
// - the rounds' common part taken out: each round's effect the median (or the mean) over the
//   endpoint's servers of log(CPU per request) against the server's own median (as the page's
//   machine-speed finding takes it), then the cell's median of what is left against C's;
// - calm rounds: the lab's figure from the rounds whose effect is in the lower half, or within
//   3% or 5% of the calmest round, where two or more are left.
// Usage: node docs/db/2026-11-30/estimators.js A/results.json,B/results.json ...
const { median } = require('../../../lib/stats')
const { runScript, readableFile, readJson, need, UsageError } = require('../../script-args')

const REFERENCE = 'c-libpq-prepared-pipelined'
const RESULTS = 'a db run\'s results.json (or .json.gz)'
const groupOf = cell => `${cell.endpoint}\t${cell.connections}`
const cpuAt = (cell, round) => cell.serverCpu[cell.rounds.indexOf(round)]
const mean = values => values.reduce((sum, value) => sum + value, 0) / values.length
function roundEffects (group, average) {
  const rounds = [...new Set(group.flatMap(cell => cell.rounds))]
  return new Map(rounds.map(round => [round, average(group
    .filter(cell => cell.rounds.includes(round) && cell.serverCpu.length > 1)
    .map(cell => Math.log(cpuAt(cell, round)) - median(cell.serverCpu.map(Math.log))))]))
}
const calmRounds = keep => (group) => {
  const effects = roundEffects(group, median)
  return new Set([...effects.keys()].filter(round => keep(effects.get(round), [...effects.values()])))
}
const lowerHalf = (effect, all) => effect <= median(all)
const nearCalmest = margin => (effect, all) => effect - Math.min(...all) <= margin
function pairedFrom (kept) {
  return (cell, reference, group) => {
    const calm = kept(group)
    let rounds = cell.rounds.filter(round => reference.rounds.includes(round))
    if (rounds.filter(round => calm.has(round)).length >= 2) rounds = rounds.filter(round => calm.has(round))
    return Math.exp(median(rounds.map(round => Math.log(cpuAt(cell, round) / cpuAt(reference, round)))))
  }
}
function withoutEffects (average) {
  return (cell, reference, group) => {
    const effects = roundEffects(group, average)
    const level = row => median(row.rounds.map(round => Math.log(cpuAt(row, round)) - effects.get(round)))
    return Math.exp(level(cell) - level(reference))
  }
}
const FIGURES = {
  'the lab\'s': pairedFrom(group => new Set(group.flatMap(cell => cell.rounds))),
  'ratio of medians': (cell, reference) => median(cell.serverCpu) / median(reference.serverCpu),
  'effects out (median)': withoutEffects(median),
  'effects out (mean)': withoutEffects(mean),
  'calm: lower half': pairedFrom(calmRounds(lowerHalf)),
  'calm: within 3%': pairedFrom(calmRounds(nearCalmest(0.03))),
  'calm: within 5%': pairedFrom(calmRounds(nearCalmest(0.05)))
}
function figuresOf (file, figure) {
  const groups = new Map()
  for (const cell of need(readJson(file, RESULTS).db?.cells, file, 'db cells', RESULTS)) {
    groups.set(groupOf(cell), [...(groups.get(groupOf(cell)) ?? []), cell])
  }
  const out = new Map()
  for (const group of groups.values()) {
    const reference = group.find(cell => cell.server === REFERENCE)
    for (const cell of group.filter(each => each.server !== REFERENCE && each.serverVsReference?.estimate)) {
      out.set(`${groupOf(cell)}\t${cell.server}`, figure(cell, reference, group))
    }
  }
  return out
}

// A,B: two runs' results.json, joined by a comma
function pairOfFiles (pair) {
  const files = pair.split(',')
  if (files.length !== 2) throw new UsageError(`'${pair}' is not two files joined by a comma; give A/results.json,B/results.json`)
  files.forEach(readableFile)
}

function main (given) {
  const pairs = given.map(pair => pair.split(','))
  for (const [name, figure] of Object.entries(FIGURES)) {
    let [within, cells] = [0, 0]
    const each = pairs.map(([a, b]) => {
      const [first, second] = [figuresOf(a, figure), figuresOf(b, figure)]
      const moves = [...first].filter(([key]) => second.has(key))
        .map(([key, value]) => Math.abs(Math.log(second.get(key) / value)))
      const held = moves.filter(move => move <= Math.log(1.05)).length
      within += held
      cells += moves.length
      return held
    })
    console.log(`${name.padEnd(22)} ${within} of ${cells} cells within 5% (by pair: ${each.join(', ')})`)
  }
}

runScript(module, { args: [1, Infinity], each: pairOfFiles, run: main })
