'use strict'
// How often each run's readers at SCHED_BATCH on one CPU (the profile pass's, profiled and
// not) were switched out involuntarily, against their voluntary switches (pipe-run's rusage),
// in bands, with the tries the lab measured again among them; the runs above a tenth named.
//   node docs/profile/2026-12-07-spells/switches.js RUN...
const path = require('node:path')
const { runScript, folderWith, readJsonLines, need } = require('../../script-args')

const RUN = 'a stdio run\'s folder'
const BANDS = [0.01, 0.03, 0.1, 0.3, 1, Infinity]

const batchRuns = run => {
  const log = path.join(run, 'all.jsonl')
  const records = readJsonLines(log, RUN).filter(record => record.pin?.policy === 'batch' &&
    record.reader?.voluntaryCs > 0 && Number.isFinite(record.reader?.involuntaryCs))
  return need(records.length ? records : null, log, 'runs at SCHED_BATCH with their switches', RUN)
}

function main (runs) {
  const counts = BANDS.map(() => 0)
  const named = []
  let total = 0
  for (const run of runs) {
    for (const record of batchRuns(run)) {
      const share = record.reader.involuntaryCs / record.reader.voluntaryCs
      counts[BANDS.findIndex(band => share < band)]++
      total++
      if (share > 0.1) {
        named.push(`${path.basename(run)} ${record.phase} ${record.program} round ${record.run + 1}: ` +
          `${record.reader.involuntaryCs} of ${record.reader.voluntaryCs}` +
          `${record.superseded ? ' (measured again)' : ''}`)
      }
    }
  }
  console.log(`# node docs/profile/2026-12-07-spells/switches.js ${runs.join(' ')}`)
  console.log(`${total} runs at SCHED_BATCH; involuntary switches as a share of the voluntary:`)
  BANDS.forEach((band, i) => console.log(`  under ${band === Infinity ? 'any' : band}: ${counts[i]}` +
    (i ? ` (from ${BANDS[i - 1]})` : '')))
  console.log(named.join('\n'))
}

runScript(module, { args: [1, Infinity], each: folderWith(['all.jsonl'], RUN), run: main })
