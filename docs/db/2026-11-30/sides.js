'use strict'
// What each side of a request cost in db runs, per endpoint: the median over the timed runs
// of the server's, its backends' and wrk's CPU per request, for the C servers (c-libpq)
// and for the others apart. Where every JIT server's CPU per request moved between two runs
// and C's did not, it shows whether wrk and the database, beside them, moved too
// (docs/db.md, "The memory reducer").
//
//   node docs/db/2026-11-30/sides.js RUN/all.jsonl[.gz]...
const { median } = require('../../../lib/stats')
const { runScript, readableFile, readJsonLines, need } = require('../../script-args')

const LOG = 'a db run\'s all.jsonl (or .jsonl.gz)'
const timedRuns = file => {
  const records = readJsonLines(file, LOG)
    // a try that shared its CPUs with other work was measured again: its second try counts
    .filter(record => record.phase === 'db' && record.ok && !record.foreign?.disturbed)
  return need(records, file, 'db runs', LOG)
}

function main (files) {
  const perRequestUs = (ns, record) => ns / record.wrk.requests / 1000
  // every log read before the first is reported
  const logs = files.map(timedRuns)
  console.log('median µs per request over the timed runs: server, backends, wrk')
  for (const [i, file] of files.entries()) {
    const records = logs[i]
    console.log(file)
    for (const endpoint of [...new Set(records.map(record => record.endpoint))]) {
      const line = [['C', true], ['the others', false]].map(([label, isC]) => {
        const runs = records.filter(record =>
          record.endpoint === endpoint && record.program.startsWith('c-libpq') === isC)
        const parts = [
          runs.map(run => perRequestUs(run.server.cpuNs, run)),
          runs.map(run => perRequestUs(run.backends.cpuNs, run)),
          runs.map(run => perRequestUs(run.wrkCpuNs, run))
        ].map(values => median(values).toFixed(2))
        return `${label} ${parts.join(', ')}`
      })
      console.log(`  /${endpoint}: ${line.join('; ')}`)
    }
  }
}

runScript(module, { args: [1, Infinity], each: readableFile, run: main })
