'use strict'
// Each profiled run's samples in the scheduler outside read(2) (the switching bucket's frames
// other than a wait for the pipe: the reader preempted), by the time the run ended, with its
// round and the foreign CPU time the lab saw on its CPU. A single-threaded reader's calm runs
// have 0 to 5 such samples; a run with hundreds was switched out by another task on its CPU.
// A try the lab measured again (its step disturbed) is left out, as the lab leaves it out.
//   node docs/profile/2026-12-07-spells/spells.js RUN...
const path = require('node:path')
const { SCHEDULER_IN_READ } = require('../../../experiments/stdio/profile')
const { runScript, folderWith, okRecordsOf } = require('../../script-args')

const RUN = 'a stdio run\'s folder'
const profiledRuns = run => okRecordsOf(run, 'profile', RUN)

function main (runs) {
  for (const [run, records] of runs.map(run => [run, profiledRuns(run)])) {
    for (const record of records) {
      const top = record.profile?.buckets?.switching?.top ?? []
      // the switching bucket's frames: a wait inside read(2), or the scheduler elsewhere
      const outside = top.filter(([frame]) => frame !== SCHEDULER_IN_READ).reduce((sum, [, n]) => sum + n, 0)
      const foreign = record.foreign?.share
      console.log(`${path.basename(run)} ${record.at.slice(11, 19)} round ${record.run + 1} ` +
        `${record.program.padEnd(16)} outside read(2) ${String(outside).padStart(5)}, ` +
        `foreign ${Number.isFinite(foreign) ? (100 * foreign).toFixed(2) + '%' : '-'}`)
    }
  }
}

runScript(module, { args: [1, Infinity], each: folderWith(['all.jsonl'], RUN), run: main })
