'use strict'
// C's CPU per read at 256 B in each run's cost rounds, quiet and beside the memory streamer in
// turns: median and range of the ten rounds. node memory-table.js [FOLDER of quiet1..3, mem1..3]
const fs = require('node:fs')
const path = require('node:path')
const { slopePerRead } = require('../../../experiments/stdio/cost')
const folder = process.argv[2] || '/tmp/w/mem'
const median = xs => {
  const sorted = [...xs].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
for (const turn of [1, 2, 3]) {
  for (const kind of ['quiet', 'mem']) {
    const log = fs.readFileSync(path.join(folder, `${kind}${turn}`, 'all.jsonl'), 'utf8')
    const records = log.split('\n').filter(Boolean).map(line => JSON.parse(line))
    const cost = records.filter(record => record.phase === 'cost' && record.ok).map(record => slopePerRead(record))
    const redone = records.filter(record => record.phase === 'cost' && record.foreign?.disturbed).length
    console.log(`${kind}${turn}`.padEnd(7), 'rounds', cost.length, 'median', median(cost).toFixed(1),
      'range', Math.min(...cost).toFixed(1), '-', Math.max(...cost).toFixed(1), 'disturbed steps', redone)
  }
}
