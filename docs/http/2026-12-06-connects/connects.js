'use strict'
// Each latency run of an http run's log: oha's own percentiles (each connection's first
// request, which opened it, among them) beside those of its steady part (the run's `steady`,
// experiments/http/oha.js steadyLatency): the requests after each connection's first in runs
// before 256da9ca, since then those due once every connection had answered once (from fromMs);
// since the night of 2026-12-06 with how late oha's timer woke (at 63511ca1 the steady part was
// timed from the due times, since 836e3a59 from oha's stamps again).
//   node docs/http/2026-12-06-connects/connects.js RUN/all.jsonl[.gz]
const { runScript, readableFile, readJsonLines, need } = require('../../script-args')

const LOG = 'an http run\'s all.jsonl (or .jsonl.gz) with a latency pass'
const ms = values => values.map(value => value.toFixed(2)).join(' / ')

function main ([file]) {
  const runs = need(readJsonLines(file, LOG).filter(record => record.phase === 'http-latency' && record.ok),
    file, 'latency runs', LOG)
  console.log('server     mode       conn.  p50 / p99 / p99.9 / max in ms: oha\'s own | its steady part')
  for (const run of runs) {
    const all = run.oha.latencyMs
    const steady = run.oha.steady
    const after = steady
      ? `${ms([steady.latencyMs.p50, steady.latencyMs.p99, steady.latencyMs.p999, steady.latencyMs.max])} ` +
        `(${steady.leftOut} of ${run.oha.answered} left out` +
        `${Number.isFinite(steady.fromMs) ? `, from ${steady.fromMs.toFixed(1)} ms` : ''}` +
        // since the night of 2026-12-06: how late oha's timer woke
        `${steady.lateMs ? `; timer late p50 ${ms([steady.lateMs.p50])}, p99 ${ms([steady.lateMs.p99])}` : ''})`
      : '- (every request opens its connection)'
    console.log(`${run.program.padEnd(10)} ${run.mode.padEnd(10)} ${String(run.connections).padStart(5)}  ` +
      `${ms([all.p50, all.p99, all.p999, all.max])} | ${after}`)
  }
}

runScript(module, { args: [1, 1], each: readableFile, run: main })
