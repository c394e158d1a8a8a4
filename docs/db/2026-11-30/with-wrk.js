'use strict'
// Whether a db server's CPU per request moves with wrk's, run by run: per server, Pearson's
// r between the logs of the two over every timed /db run at 64 connections of the runs
// given.
// Usage: node docs/db/2026-11-30/with-wrk.js RUN.jsonl.gz ...
const { median, mean } = require('../../../lib/stats')
const { runScript, readableFile, readJsonLines, need } = require('../../script-args')

const LOG = 'a db run\'s all.jsonl (or .jsonl.gz)'
const dbRuns = file =>
  need(readJsonLines(file, LOG).filter(record => record.phase === 'db'), file, 'db runs', LOG)

function main (files) {
  const byServer = new Map()
  for (const file of files) {
    for (const run of dbRuns(file)) {
      const timedDb = run.phase === 'db' && run.endpoint === 'db' && run.connections === 64
      if (!timedDb || !run.ok || !run.wrkCpuNs) continue
      const requests = run.wrk.requests
      const pairs = byServer.get(run.program) ?? []
      pairs.push([Math.log(run.server.cpuNs / requests), Math.log(run.wrkCpuNs / requests)])
      byServer.set(run.program, pairs)
    }
  }
  const pearson = pairs => {
    const [mx, my] = [mean(pairs.map(([x]) => x)), mean(pairs.map(([, y]) => y))]
    const sum = f => pairs.reduce((total, pair) => total + f(pair), 0)
    const spread = Math.sqrt(sum(([x]) => (x - mx) ** 2) * sum(([, y]) => (y - my) ** 2))
    return sum(([x, y]) => (x - mx) * (y - my)) / spread
  }
  const rs = []
  for (const [server, pairs] of byServer) {
    const r = pearson(pairs)
    rs.push(r)
    console.log(`${server.padEnd(34)} r ${r.toFixed(2)} over ${pairs.length} runs`)
  }
  console.log(`median r ${median(rs).toFixed(2)}, from ${Math.min(...rs).toFixed(2)} to ${Math.max(...rs).toFixed(2)}`)
}

runScript(module, { args: [1, Infinity], each: readableFile, run: main })
