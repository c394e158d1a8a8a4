'use strict'
// Each server process's timed runs in a db run's log, in order: the seconds it sat idle
// before the run (other servers' runs meanwhile), its own CPU per request and, where its
// collector was traced, the collections the run caught. It shows what an idle gap does to
// the next run (docs/db.md, "The memory reducer").
//
//   node docs/db/2026-11-30/gaps.js RUN/all.jsonl[.gz] [--only NAME]...
const { runScript, readableFile, readJsonLines, need, UsageError } = require('../../script-args')

const LOG = 'a db run\'s all.jsonl (or .jsonl.gz)'

function main ([file], values) {
  const timed = readJsonLines(file, LOG)
    // a try that shared its CPUs with other work was measured again: its second try counts
    .filter(record => record.phase === 'db' && record.ok && !record.foreign?.disturbed)
  const all = need(timed, file, 'db runs', LOG)
  // a name that matches no server of the log: said, not an empty table (a review)
  const names = [...new Set(all.map(record => record.program))]
  const unknown = (values.only ?? []).filter(name => !names.includes(name))
  if (unknown.length) {
    throw new UsageError(`--only ${unknown.join(', ')}: no such server in ${file}; ` +
      `it has ${names.join(', ')}`)
  }
  const records = all.filter(record => !values.only || values.only.includes(record.program))

  const byProcess = new Map()
  for (const record of records) {
    const key = `${record.program} /${record.endpoint}`
    if (!byProcess.has(key)) byProcess.set(key, [])
    byProcess.get(key).push(record)
  }
  console.log('per run: idle seconds before it, the server\'s µs per request [collections in the run]')
  for (const [key, runs] of byProcess) {
    const cells = runs.map((run, i) => {
      // `at` is when a run's record was written, just after it ended
      const sinceLast = i === 0 ? null : (Date.parse(run.at) - Date.parse(runs[i - 1].at)) / 1000
      const idle = sinceLast === null ? '-' : (sinceLast - run.wallNs / 1e9).toFixed(0)
      const us = (run.server.cpuNs / run.wrk.requests / 1000).toFixed(1)
      const gc = run.gc ? ` [${run.gc.collections}]` : ''
      return `${idle.padStart(3)}s ${us.padStart(6)}${gc}`
    })
    console.log(`${key.padEnd(42)} ${cells.join('  ')}`)
  }
}

runScript(module, { args: [1, 1], each: readableFile, flags: { only: { type: 'string', multiple: true, takes: 'a server\'s name' } }, run: main })
