'use strict'
// Each profiled run's CPU per read three ways over the slope's window: the slope of its
// clock (what perf's cost is taken from), that clock's mean (its CPU there over the reads) and
// what perf's samples there stand for (their periods over the reads), with the last two's ratio.
// A try the lab measured again (its step disturbed) is left out, as the lab leaves it out.
//   node docs/profile/2026-12-04-amd/seen.js RUN...
const path = require('node:path')
const { slopePerRead, windowSpan } = require('../../../experiments/stdio/cost')
const { runScript, folderWith, okRecordsOf } = require('../../script-args')

const RUN = 'a stdio run\'s folder'
const profiledRuns = run => okRecordsOf(run, 'profile', RUN)

function main (runs) {
  const ratios = []
  for (const [run, records] of runs.map(run => [run, profiledRuns(run)])) {
    for (const record of records) {
      const span = windowSpan(record)
      if (span === null || !Number.isFinite(record.profile?.periodNs)) continue
      const [mean, sampled] = [span.cpuNs / span.reads, record.profile.periodNs / span.reads]
      const slope = slopePerRead(record)
      ratios.push([sampled / mean, slope / mean])
      console.log(`${path.basename(run)} ${record.program} round ${record.run}: slope ${slope.toFixed(1)}, ` +
        `mean ${mean.toFixed(1)}, sampled ${sampled.toFixed(1)} (${(sampled / mean).toFixed(3)} of the mean)`)
    }
  }
  const range = values => `${Math.min(...values).toFixed(3)}-${Math.max(...values).toFixed(3)}`
  console.log(`${ratios.length} runs: sampled over mean ${range(ratios.map(([seen]) => seen))}, ` +
    `slope over mean ${range(ratios.map(([, slope]) => slope))}`)
}

runScript(module, { args: [1, Infinity], each: folderWith(['all.jsonl'], RUN), run: main })
