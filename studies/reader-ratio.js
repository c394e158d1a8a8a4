'use strict'
// One reader's CPU per read against another's, from a stdio run's cost pass, at each
// block size: the headline sets every reader against C's read(2); this sets any two, such
// as the host's ring reader against C's (just-uring against c-uring). The ratio is the
// Hodges-Lehmann median of every pair of one round of each, with its interval at its
// true level, as the headline's share of C is.
//
//   node studies/reader-ratio.js RUN READER AGAINST
const fs = require('node:fs')
const path = require('node:path')
const { levelText } = require('../lib/stats')
const { headlineCell, cellRatio } = require('../experiments/stdio/cost')

function main (args) {
  if (args.length !== 3) throw new Error('usage: node studies/reader-ratio.js RUN READER AGAINST (a stdio run\'s folder and two of its readers)')
  const [run, reader, against] = args
  const file = path.join(run, 'results.json')
  let results
  try {
    results = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch (err) {
    throw new Error(`cannot read ${file} (${err.code ?? err.message}); give the folder of a stdio run`)
  }
  const cells = results.headline?.cells
  if (!Array.isArray(cells)) throw new Error(`${file} has no cost pass (a stdio run without --no-cost)`)
  for (const name of [reader, against]) {
    if (!cells.some(cell => cell.program === name)) throw new Error(`${run} measured no ${name}; it measured ${[...new Set(cells.map(cell => cell.program))].join(', ')}`)
  }
  console.log(`${reader}'s CPU per read against ${against}'s, ${run}:`)
  for (const blockSize of [...new Set(cells.map(cell => cell.blockSize))].sort((a, b) => a - b)) {
    const mine = headlineCell(results.headline, reader, blockSize)
    const theirs = headlineCell(results.headline, against, blockSize)
    const ratio = mine && theirs ? cellRatio(mine, theirs) : null
    if (!ratio) {
      console.log(`  ${blockSize} B: too few rounds, or a failed cell`)
      continue
    }
    const percent = value => `${(value * 100).toFixed(1)}%`
    console.log(`  ${blockSize} B: ${percent(ratio.estimate)} (${percent(ratio.low)}–${percent(ratio.high)}, ${levelText(ratio.level)} interval), ${mine.byRound.length} rounds against ${theirs.byRound.length}`)
  }
}

try {
  main(process.argv.slice(2))
} catch (err) {
  console.error(`reader-ratio.js: ${err.message}`)
  process.exit(2)
}
