'use strict'
// Each V8 server process of one cell, in http runs' logs: its median CPU per request over
// c-epoll's beside it, and how many collections of V8's old generation its timed runs made.
//   node docs/http/2026-12-03/gc-states.js SERVER MODE LOG...   e.g. node-http close h-h1.jsonl.gz
const { runScript, readJsonLines, UsageError } = require('../../script-args')
const { oldCollections } = require('../../../lib/gctrace')
const { median } = require('../../../lib/stats')

const LOG = 'an http run\'s all.jsonl (or .jsonl.gz)'
const cpuPerRequest = side => side.server.cpuNs / side.wrk.requests

function main ([server, mode, ...logs]) {
  for (const log of logs) {
    const runs = readJsonLines(log, LOG).filter(run => run.phase === 'http' && run.ok && !run.superseded &&
      run.program === server && run.mode === mode && run.partner)
    if (runs.length === 0) throw new UsageError(`${log} holds no timed run of ${server} (${mode}); give a log of one`)
    for (const process of [...new Set(runs.map(run => run.process))]) {
      const own = runs.filter(run => run.process === process)
      const ratio = median(own.map(run => cpuPerRequest(run) / cpuPerRequest(run.partner)))
      const old = own.map(run => oldCollections(run.gc))
      const requests = own.reduce((sum, run) => sum + run.wrk.requests, 0)
      const perThousand = old.includes(null)
        ? 'untraced'
        : (1000 * old.reduce((a, b) => a + b, 0) / requests).toFixed(3)
      console.log(`${log}  process ${process}  ${ratio.toFixed(2)}× c-epoll  old-generation collections ` +
        `${old.join(', ')} (${perThousand} per 1,000 requests)`)
    }
  }
}

runScript(module, { args: [3, Infinity], run: main })
