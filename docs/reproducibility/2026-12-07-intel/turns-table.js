'use strict'
// C's CPU per read at 256 B in runs taken in turns, each kind of turn against the first kind's
// run of the same turn: FOLDER holds the runs KIND1, KIND2, ... of each kind (quiet1, mem1,
// spin1, quiet2, ...), as turns.sh and timed.sh write them.
//   node docs/reproducibility/2026-12-07-intel/turns-table.js FOLDER KIND KIND...
const fs = require('node:fs')
const path = require('node:path')
const { slopePerRead } = require('../../../experiments/stdio/cost')
const { median } = require('../../../lib/stats')
const { runScript, readJsonLines, need, UsageError } = require('../../script-args')

const FOLDER = 'a folder of runs named KIND1, KIND2, ... (turns.sh\'s)'
const ns = value => value.toFixed(1)

// the median and range of C's cost rounds in the run KIND+TURN, or null where it is absent
function roundsOf (folder, run) {
  const log = path.join(folder, run, 'all.jsonl')
  if (!fs.existsSync(log)) return null
  const cost = readJsonLines(log, FOLDER).filter(record => record.phase === 'cost' && record.ok)
  const perRead = need(cost, log, 'cost pass runs', FOLDER).map(record => slopePerRead(record))
  return { median: median(perRead), low: Math.min(...perRead), high: Math.max(...perRead), rounds: perRead.length }
}

function main ([folder, ...kinds]) {
  if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`${folder} is not a folder; give ${FOLDER}`)
  }
  const turns = []
  for (let turn = 1; kinds.some(kind => fs.existsSync(path.join(folder, `${kind}${turn}`))); turn++) {
    turns.push(Object.fromEntries(kinds.map(kind => [kind, roundsOf(folder, `${kind}${turn}`)])))
  }
  if (turns.length === 0) throw new UsageError(`${folder} holds no run named ${kinds[0]}1; give ${FOLDER}`)
  console.log(`C's read of 256 B, ns: each run's median of its cost rounds (range); against ${kinds[0]} of its turn`)
  turns.forEach((runs, i) => {
    const base = runs[kinds[0]]
    console.log(`turn ${i + 1}: ` + kinds.map(kind => {
      const run = runs[kind]
      if (!run) return `${kind} none`
      const against = base && kind !== kinds[0] ? ` ${((run.median / base.median - 1) * 100).toFixed(1)}%` : ''
      return `${kind} ${ns(run.median)} (${ns(run.low)}-${ns(run.high)})${against}`
    }).join('; '))
  })
  for (const kind of kinds.slice(1)) {
    const moves = turns.filter(runs => runs[kind] && runs[kinds[0]])
      .map(runs => (runs[kind].median / runs[kinds[0]].median - 1) * 100)
    console.log(`${kind} against ${kinds[0]}, turn by turn: median ${median(moves).toFixed(1)}%, ` +
      `${Math.min(...moves).toFixed(1)}% to ${Math.max(...moves).toFixed(1)}% over ${moves.length} turns`)
  }
}

runScript(module, { args: [2, Infinity], run: main })
