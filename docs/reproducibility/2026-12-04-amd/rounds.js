'use strict'
// Each round's share of C for one reader at one block size, run by run, in the order the
// rounds ran, with its CPU per read: where a share that moved between two runs moved, round by
// round (a spell of the host in some rounds, or every round alike).
//   node docs/reproducibility/2026-12-04-amd/rounds.js READER SIZE A/results.json [B/results.json ...]
// (each a stdio run's results.json, or .json.gz)
const { runScript, readableFile, readJson, need, wholeArgument, UsageError } = require('../../script-args')

const RESULTS = 'a stdio run\'s results.json (or .json.gz)'

// The cell of `reader` at `size` in a run's cells; a reader or size the run never measured
// is the user's slip, named with what the run holds.
function cellOf (cells, reader, size, file) {
  const readers = [...new Set(cells.map(each => each.program))]
  if (!readers.includes(reader)) {
    throw new UsageError(`${file} holds no reader ${reader}; give one of ${readers.join(', ')}`)
  }
  const sizes = cells.filter(each => each.program === reader).map(each => each.blockSize)
  const cell = cells.find(each => each.program === reader && each.blockSize === Number(size))
  if (!cell) throw new UsageError(`${file} holds ${reader} at ${sizes.join(', ')} B, not ${size}; give one of those`)
  return cell
}

function main ([reader, size, ...files]) {
  for (const file of files) {
    const cells = need(readJson(file, RESULTS).headline?.cells, file, 'stdio cells', RESULTS)
    const cell = cellOf(cells, reader, size, file)
    // runs from before 2026-11-25 kept no rounds of their own
    const rounds = need(cell.byRound, file, `rounds of ${reader} at ${size} B`, 'a stdio run made since 2026-11-25')
      .map(round => `${round.run}: ${(100 * round.shareOfC).toFixed(1)}% (${round.cpuPerReadNs.toFixed(0)} ns)`)
    console.log(`${file}: ${reader} at ${size} B, ${(100 * cell.shareOfC.estimate).toFixed(1)}% of C; ` +
      `by round, share (CPU per read): ${rounds.join(', ')}`)
  }
}

runScript(module, {
  args: [3, Infinity],
  check: ([, size, ...files]) => {
    wholeArgument(size, 'SIZE')
    files.forEach(readableFile)
  },
  run: main
})
