'use strict'
// Within one calls run: for each variant in turns with C, how its processes and C's overlapped,
// over its processes after the first (the first's C is sized from the default rounds): the
// rounds C was asked for (* where the cap cut them), when C and the variant said their warm-up
// was over (readyMs; runs before 2026-12-06 have none), how long C waited for the variant's
// warm-up (heldMs), and how long the one that ended last ran on alone (aloneMs), least to most.
//   node docs/calls/2026-12-06-ready/overlap.js RUN-DIR
const path = require('node:path')
const { runScript, folderWith, readJsonLines, UsageError } = require('../../script-args')

const RUN = 'a calls run\'s folder'
const span = values => {
  const known = values.filter(Number.isFinite)
  if (known.length === 0) return '-'
  const [least, most] = [Math.min(...known), Math.max(...known)]
  return least === most ? `${Math.round(least)}` : `${Math.round(least)}-${Math.round(most)}`
}

function main ([dir]) {
  const file = path.join(dir, 'all.jsonl')
  const records = readJsonLines(file, RUN)
    .filter(record => record.phase === 'ladder' && record.partner && !record.superseded)
  if (records.length === 0) throw new UsageError(`${file} holds no ladder runs in turns with C; give ${RUN}`)
  const columns = ['C\'s rounds', 'C ready', 'it ready', 'C held', 'alone']
  const header = columns.map(name => name.padStart(12)).join('')
  console.log(`${'variant'.padEnd(14)}${header}  (ms; processes after the first)`)
  for (const variant of new Set(records.map(record => record.program))) {
    const mine = records.filter(record => record.program === variant)
    const firstRun = Math.min(...mine.map(record => record.run))
    const later = mine.filter(record => record.ok && record.run !== firstRun)
    if (later.length === 0) continue
    const rounds = span(later.map(run => run.partner.roundsAsked)) + (later.some(run => run.partner.capped) ? '*' : '')
    const cells = [
      rounds,
      span(later.map(run => run.partner.readyMs)),
      span(later.map(run => run.readyMs)),
      span(later.map(run => run.partner.heldMs)),
      span(later.map(run => Math.max(run.aloneMs, run.partner.aloneMs)))
    ]
    console.log(`${variant.padEnd(14)}${cells.map(cell => cell.padStart(12)).join('')}`)
  }
}

runScript(module, { args: [1, 1], each: [folderWith(['all.jsonl'], RUN)], run: main })
