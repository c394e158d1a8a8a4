'use strict'
// Where each db run's latency pass took its rates: per run and endpoint, the reference's
// requests/s in its warm-up and in its own timed runs (at the warm-up's count of connections,
// not beside another server), their median, and the rate the pass asked with the source it
// names; then the latency cells where oha fell behind its schedule (fellBehind).
//   node docs/db/2026-12-07-latency/rates.js RUN...
const path = require('node:path')
const { runScript, folderWith, okRecordsOf } = require('../../script-args')
const { median } = require('../../../lib/stats')
const { REFERENCE } = require('../../../experiments/db/servers')
const { fellBehind } = require('../../../experiments/http/oha')

const RUN = 'a db run\'s folder with its latency pass'
const thousands = value => Math.round(value).toLocaleString('en-US')

function runLines (run) {
  const timed = okRecordsOf(run, 'db', RUN)
  const latency = okRecordsOf(run, 'db-latency', RUN)
  const lines = [...new Set(latency.map(record => record.endpoint))].map(endpoint => {
    const own = timed.filter(record => record.program === REFERENCE && record.endpoint === endpoint &&
      record.connections === record.warmupConnections && !record.partner)
    const rates = own.map(record => record.wrk.requestsPerSecond)
    const warmUp = (own[0]?.warmupRates ?? []).map(thousands).join(', ')
    const middle = rates.length ? thousands(median(rates)) : '-'
    const asked = latency.find(record => record.endpoint === endpoint && record.capacity)
    const from = asked && `${thousands(asked.capacity.requestsPerSecond)} (${asked.capacity.from})`
    const source = asked ? `${thousands(asked.rate)} req/s from ${from}` : 'nothing'
    return `${path.basename(run)} /${endpoint}: warm-up ${warmUp}; timed ` +
      `${rates.map(thousands).join(', ')}, median ${middle}; the pass asked ${source}`
  })
  const behind = latency.filter(record => fellBehind(record.oha?.steady?.lateMs))
  lines.push(`  oha behind in ${behind.length} of ${latency.length} cells` +
    behind.map(record => `\n    ${record.program} /${record.endpoint} ${record.connections} connections: ` +
      `p99 ${record.oha.steady.lateMs.p99.toFixed(2)} ms late`).join(''))
  return lines
}

// every run read before a line is printed: a folder of the wrong kind is one line, alone
function main (runs) {
  const lines = runs.flatMap(runLines)
  console.log([`# node docs/db/2026-12-07-latency/rates.js ${runs.join(' ')}`, ...lines].join('\n'))
}

runScript(module, { args: [1, Infinity], each: folderWith(['all.jsonl'], RUN), run: main })
