'use strict'
// How a V8 server's collections go with its CPU per request, run by run, within one process:
// per server and endpoint, its ok timed runs' collections per 1,000 requests (V8's
// --trace-gc) and CPU per request, and their Pearson r; per run, the median r.
// Usage: node docs/db/2026-11-30/gc-rounds.js RUN.jsonl[.gz]... [--each]
const { median } = require('../../../lib/stats')
const { runScript, readableFile, readJsonLines, need } = require('../../script-args')

const LOG = 'a db run\'s all.jsonl (or .jsonl.gz)'
const dbRuns = file =>
  need(readJsonLines(file, LOG).filter(record => record.phase === 'db'), file, 'db runs', LOG)
function pearson (xs, ys) {
  const mean = values => values.reduce((sum, value) => sum + value, 0) / values.length
  const [mx, my] = [mean(xs), mean(ys)]
  let [sxy, sxx, syy] = [0, 0, 0]
  xs.forEach((x, i) => {
    sxy += (x - mx) * (ys[i] - my)
    sxx += (x - mx) ** 2
    syy += (ys[i] - my) ** 2
  })
  return sxy / Math.sqrt(sxx * syy)
}

function main (files, { each }) {
  // every log read before the first is reported
  const logs = files.map(dbRuns)
  for (const [i, file] of files.entries()) {
    // a run measured again (its CPUs shared) is not kept; its replacement is
    const kept = logs[i].filter(record => record.phase === 'db' && record.ok &&
      !record.superseded && record.gc?.how)
    const processes = new Map()
    for (const record of kept) {
      const key = `${record.program} /${record.endpoint}`
      processes.set(key, [...(processes.get(key) ?? []), record])
    }
    const lines = []
    const rs = []
    for (const [key, runs] of processes) {
      if (runs.length < 3) continue
      const collections = runs.map(run => run.gc.perThousandRequests)
      const cpuUs = runs.map(run => run.server.cpuNs / run.wrk.requests / 1000)
      const r = pearson(collections, cpuUs)
      if (Number.isFinite(r)) rs.push(r)
      lines.push(`${key.padEnd(42)} r ${Number.isFinite(r) ? r.toFixed(2) : '-'}  collections per 1,000: ` +
        `${collections.map(value => value.toFixed(2)).join(' ')}  µs: ${cpuUs.map(value => value.toFixed(1)).join(' ')}`)
    }
    console.log(`${file}: median r ${median(rs).toFixed(2)} over ${rs.length} V8 server processes`)
    if (each) console.log(lines.join('\n'))
  }
}

runScript(module, { args: [1, Infinity], each: readableFile, flags: { each: { type: 'boolean' } }, run: main })
