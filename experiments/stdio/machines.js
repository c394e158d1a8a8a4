'use strict'
// The stdio experiment's figures for a comparison of machines (lib/report/machines.js):
// the headline's CPU per read, C's in ns and every other reader's over C and as a share
// of C, each with the interval its run gave it.
const { BASELINE } = require('./programs')
const { sizeName } = require('../../lib/report/format')

function machineFigures (set) {
  const cells = set.results.headline?.cells ?? []
  return {
    what: 'CPU per read(2), the headline',
    unit: 'ns',
    baseline: BASELINE,
    rows: cells.map(cell => ({
      item: cell.program,
      runtime: cell.runtime,
      at: cell.blockSize,
      atLabel: sizeName(cell.blockSize),
      absolute: cell.cpuPerReadNs ?? null,
      over: cell.program === BASELINE ? null : cell.overheadNs ?? null,
      share: cell.program === BASELINE ? null : cell.shareOfC ?? null
    }))
  }
}

module.exports = { machineFigures }
