'use strict'
// Within one run: does a reader's share of C move with the machine's speed? Each round of a cell
// took the reader in turns with a run of C; C's pace in those moments is the reader's ns per read
// times its share. Per cell, the least-squares slope of the share (points) over the log of C's
// pace, given per 10% slower C, and Spearman's rank correlation between the two. C's own
// measurement noise alone makes the correlation positive (a C run that reads slow raises the
// share), so a negative one is the machine's, where C's pace spread widely enough to show it.
//   node docs/reproducibility/2026-11-30-amd-noisy/within-run.js RUN-DIR [BLOCK-SIZE]
const path = require('node:path')
const { mean, leastSquaresSlope } = require('../../../lib/stats')
const { runScript, folderWith, wholeArgument, readJson, need, UsageError } = require('../../script-args')

const RUN = 'a stdio run\'s folder'

// Pearson's correlation; over ranks, Spearman's
function correlation (x, y) {
  const [mx, my] = [mean(x), mean(y)]
  const sum = f => x.reduce((total, _, i) => total + f(i), 0)
  return sum(i => (x[i] - mx) * (y[i] - my)) / Math.sqrt(sum(i => (x[i] - mx) ** 2) * sum(i => (y[i] - my) ** 2))
}
const ranks = values => {
  const order = values.map((value, i) => [value, i]).sort((a, b) => a[0] - b[0])
  const out = []
  order.forEach(([, i], rank) => { out[i] = rank })
  return out
}

function main ([dir, size = '256']) {
  const file = path.join(dir, 'results.json')
  const results = readJson(file, RUN)
  need(results.headline?.cells, file, 'stdio cells', RUN)
  // a size the run does not hold is said, not counted as "0 of 0 cells" (a review)
  const sizes = [...new Set(results.headline.cells.map(cell => cell.blockSize))]
  if (!sizes.includes(Number(size))) {
    throw new UsageError(`${dir} holds ${sizes.join(', ')} B, not ${size}; give one of them`)
  }
  console.log(`${results.runId}, ${size} B: each reader's share of C against C's pace in its turns, round by round`)
  let negative = 0
  let cells = 0
  for (const cell of results.headline.cells.filter(c => c.blockSize === Number(size) && c.pairing === 'slices')) {
    const rounds = cell.byRound.filter(round => round.shareOfC)
    if (rounds.length < 6) continue
    const logPace = rounds.map(round => Math.log(round.cpuPerReadNs * round.shareOfC))
    const share = rounds.map(round => 100 * round.shareOfC)
    const slope = leastSquaresSlope(logPace.map((x, i) => [x, share[i]]))
    const rho = correlation(ranks(logPace), ranks(share))
    const [low, high] = [Math.min(...logPace), Math.max(...logPace)].map(Math.exp)
    cells++
    if (rho <= -0.5) negative++
    console.log(`${cell.program.padEnd(16)} C ${low.toFixed(0)}-${high.toFixed(0)} ns  ` +
      `${(slope * Math.log(1.1)).toFixed(2).padStart(6)} points per 10% slower C  rho ${rho.toFixed(2)}`)
  }
  console.log(`${negative} of ${cells} cells with a rank correlation of -0.5 or below`)
}

runScript(module, {
  args: [1, 2],
  each: [folderWith(['results.json'], RUN), size => wholeArgument(size, 'BLOCK-SIZE')],
  run: main
})
