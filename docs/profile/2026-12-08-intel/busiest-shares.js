'use strict'
// The share of each profile-pass run's reader CPU that its busiest thread did (pipe-run's
// busiest_thread_ns at its last sample), by reader and phase, over the runs' logs; and the
// runs at SCHED_BATCH whose reader switched involuntarily over a tenth as often as
// voluntarily (and over 100 times), with that share and whether the run was kept: the data
// behind lib/foreign.js ONE_THREAD_LEAST.
//   node docs/profile/2026-12-08-intel/busiest-shares.js LOG...   (all.jsonl, or .jsonl.gz)
const { switchedOut, busiestThreadShare } = require('../../../lib/foreign')
const { runScript, readableFile, readJsonLines, need } = require('../../script-args')

const LOG = 'a stdio run\'s all.jsonl (or .jsonl.gz) from a pipe-run that records busiest_thread_ns'

function main (files) {
  const byCell = new Map()
  const switched = []
  for (const file of files) {
    const profiled = readJsonLines(file, LOG)
      .filter(record => record.phase?.startsWith('profile') && busiestThreadShare(record) !== null)
    const records = need(profiled, file, 'profile runs with a busiest thread', LOG)
    for (const record of records) {
      const cell = `${record.program} ${record.phase}`
      if (!byCell.has(cell)) byCell.set(cell, [])
      byCell.get(cell).push(busiestThreadShare(record))
      if (switchedOut(record.reader)) switched.push({ file, record })
    }
  }
  console.log(`the busiest thread's share of the reader's CPU, least and most: ${files.join(', ')}`)
  const rows = [...byCell].map(([cell, shares]) => [cell, Math.min(...shares), Math.max(...shares)])
  for (const [cell, least, most] of rows.sort((a, b) => a[1] - b[1])) {
    console.log(`${cell.padEnd(32)} ${least.toFixed(3)} ${most.toFixed(3)}`)
  }
  console.log('\nruns whose reader switched involuntarily over a tenth as often as voluntarily:')
  for (const { file, record } of switched) {
    const { involuntaryCs, voluntaryCs } = record.reader
    const fate = record.superseded ? 'measured again' : 'kept'
    console.log(`${file}: ${record.program} ${record.phase} round ${record.run + 1}: ${involuntaryCs} of ` +
      `${voluntaryCs}, busiest thread ${busiestThreadShare(record).toFixed(3)}, ${fate}`)
  }
}

runScript(module, { args: [1, Infinity], each: readableFile, run: main })
