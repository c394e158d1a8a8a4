'use strict'
// When each phase of a run began and ended, in seconds from the run's first record, from the
// `at` times of its all.jsonl.
//
//   node docs/method/2026-12-02/phases.js RUN/all.jsonl[.gz]
const { runScript, readableFile, readJsonLines, need } = require('../../script-args')

const LOG = 'a run\'s all.jsonl (or .jsonl.gz)'

function main ([file]) {
  const records = need(readJsonLines(file, LOG).filter(record => record.at && record.phase), file, 'timed records', LOG)
  const phases = new Map()
  for (const { phase, at } of records) {
    const time = Date.parse(at)
    const [first, last] = phases.get(phase) ?? [time, time]
    phases.set(phase, [Math.min(first, time), Math.max(last, time)])
  }
  const start = Math.min(...[...phases.values()].map(([first]) => first))
  for (const [phase, [first, last]] of phases) {
    console.log(`${phase}: ${Math.round((first - start) / 1000)} s to ${Math.round((last - start) / 1000)} s`)
  }
}

runScript(module, { args: [1, 1], each: readableFile, run: main })
