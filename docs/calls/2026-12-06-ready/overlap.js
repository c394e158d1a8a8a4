'use strict'
// Within one calls run: for each variant in turns with C, how its processes and C's overlapped,
// over its processes after the first (the first's C is sized from the default rounds): the
// rounds C was asked for, how long C waited for the variant's warm-up (heldMs) or the variant
// for C's, and how long the one that ended last ran on alone (aloneMs), least to most.
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
    .filter(record => record.phase === 'ladder' && record.ok && record.partner && !record.superseded)
  if (records.length === 0) throw new UsageError(`${file} holds no ladder runs in turns with C; give ${RUN}`)
  console.log('variant: C\'s rounds asked; ms C held; ms the variant held; ms the last to end ran alone' +
    ' (processes after the first)')
  for (const variant of new Set(records.map(record => record.program))) {
    const later = records.filter(record => record.program === variant).slice(1)
    if (later.length === 0) continue
    console.log(`  ${variant.padEnd(14)} ${span(later.map(run => run.partner.roundsAsked)).padStart(6)}` +
      `  ${span(later.map(run => run.partner.heldMs)).padStart(9)}  ${span(later.map(run => run.heldMs)).padStart(7)}` +
      `  ${span(later.map(run => Math.max(run.aloneMs, run.partner.aloneMs))).padStart(9)}`)
  }
}

runScript(module, { args: [1, 1], each: [folderWith(['all.jsonl'], RUN)], run: main })
