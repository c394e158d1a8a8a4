'use strict'
// When each phase of a run began and ended, in seconds from the run's first record, from the
// `at` times of its all.jsonl. --spent adds the time each phase took: every gap between a
// record and the one before it, counted to the phase of the later one (the work that record
// ended: a timed run's warm-up and its process's start go to that run's phase). Phases
// interleave (http runs each mode's passes in turn), so a phase's span is not its time.
//
//   node docs/method/2026-12-02/phases.js [--spent] RUN/all.jsonl[.gz]
const { runScript, readableFile, readJsonLines, need } = require('../../script-args')

const LOG = 'a run\'s all.jsonl (or .jsonl.gz)'

function main ([file], { spent: withSpent = false }) {
  const records = need(readJsonLines(file, LOG).filter(record => record.at && record.phase), file, 'timed records', LOG)
  const phases = new Map()
  const spent = new Map()
  let previous = null
  for (const { phase, at } of records) {
    const time = Date.parse(at)
    const [first, last] = phases.get(phase) ?? [time, time]
    phases.set(phase, [Math.min(first, time), Math.max(last, time)])
    spent.set(phase, (spent.get(phase) ?? 0) + (previous === null ? 0 : time - previous))
    previous = time
  }
  const start = Math.min(...[...phases.values()].map(([first]) => first))
  for (const [phase, [first, last]] of phases) {
    const took = withSpent ? `, ${Math.round(spent.get(phase) / 1000)} s spent` : ''
    console.log(`${phase}: ${Math.round((first - start) / 1000)} s to ${Math.round((last - start) / 1000)} s${took}`)
  }
}

runScript(module, {
  args: [1, 1],
  each: readableFile,
  flags: { spent: { type: 'boolean' } },
  run: main
})
