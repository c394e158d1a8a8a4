'use strict'
// C's CPU per read in each of its turns beside the readers' unprofiled runs of the profile pass
// (the pace the pass sets every reader at is their median), in the order they ran, and how many
// took over 530 ns.
//   node docs/profile/2026-11-30-amd/turns.js RUN...
const path = require('node:path')
const { pairFigures } = require('../../../experiments/stdio/cost')
const { median } = require('../../../lib/stats')
const { runScript, folderWith, readJsonLines, need } = require('../../script-args')

const RUN = 'a stdio run\'s folder'
// a run's unprofiled runs of the profile pass
const profilePass = run => {
  const log = path.join(run, 'all.jsonl')
  const pass = readJsonLines(log, RUN).filter(record => record.phase === 'profile-cpu')
  return need(pass, log, 'profile pass runs', RUN)
}

function main (runs) {
  // every run read before the first is reported
  const passes = runs.map(profilePass)
  for (const [i, run] of runs.entries()) {
    const turns = passes[i].filter(record => record.ok && record.partner)
      .map(pairFigures).filter(Boolean).map(pair => pair.cNs)
    const slow = turns.filter(ns => ns > 530).length
    console.log(`${path.basename(run)}: ${turns.length} turns, ${slow} over 530 ns, ` +
      `median ${median(turns).toFixed(0)}; ` +
      `in order: ${turns.map(ns => ns.toFixed(0)).join(' ')}`)
  }
}

runScript(module, { args: [1, Infinity], each: folderWith(['all.jsonl'], RUN), run: main })
