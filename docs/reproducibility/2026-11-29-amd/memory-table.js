'use strict'
// C's CPU per read at 256 B in each run's cost rounds, quiet and beside the memory streamer in
// turns: median and range of the ten rounds. FOLDER holds the runs quiet1..3 and mem1..3
// (default /tmp/w/mem).
//   node docs/reproducibility/2026-11-29-amd/memory-table.js [FOLDER]
const path = require('node:path')
const { slopePerRead } = require('../../../experiments/stdio/cost')
const { runScript, folderWith, readJsonLines, need } = require('../../script-args')
const RUNS = ['quiet1', 'mem1', 'quiet2', 'mem2', 'quiet3', 'mem3']
const FOLDER = 'the folder of the runs quiet1..3 and mem1..3'
const median = xs => {
  const sorted = [...xs].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

function main ([folder = '/tmp/w/mem']) {
  // each run's cost pass, every one read before the first is reported
  const passes = new Map(RUNS.map(run => {
    const log = path.join(folder, run, 'all.jsonl')
    const pass = readJsonLines(log, FOLDER).filter(record => record.phase === 'cost')
    return [run, need(pass, log, 'cost pass runs', FOLDER)]
  }))
  for (const turn of [1, 2, 3]) {
    for (const kind of ['quiet', 'mem']) {
      const records = passes.get(`${kind}${turn}`)
      const cost = records.filter(record => record.phase === 'cost' && record.ok).map(record => slopePerRead(record))
      const redone = records.filter(record => record.phase === 'cost' && record.foreign?.disturbed).length
      console.log(`${kind}${turn}`.padEnd(7), 'rounds', cost.length, 'median', median(cost).toFixed(1),
        'range', Math.min(...cost).toFixed(1), '-', Math.max(...cost).toFixed(1), 'disturbed steps', redone)
    }
  }
}

runScript(module, {
  args: [0, 1],
  check: ([folder = '/tmp/w/mem']) => folderWith(RUNS.map(run => `${run}/all.jsonl`), FOLDER)(folder),
  run: main
})
