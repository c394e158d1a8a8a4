'use strict'
// Each stdio pair: how many shares of C moved within 2 points and the largest move between
// the two runs, beside the cells each run foretold past the goal's 3 points (issue 47;
// docs/reproducibility.md, 2026-12-06, midday). pairs.txt beside it is its output for the
// pairs there, run from docs/reproducibility.
//
//   node docs/reproducibility/2026-12-06-never/never-pairs.js A B [A B ...]
const { headlineRepeatability } = require('../../../experiments/stdio/cost')
const { runScript, readableFile, readJson, need, UsageError } = require('../../script-args')

const RESULTS = 'a stdio run\'s results.json (or .json.gz)'
const load = file => {
  const results = readJson(file, RESULTS)
  need(results?.headline?.repeatability?.predictedMovePoints, file, 'a headline with its own figure', RESULTS)
  return results
}

// the cells a run foretold past 3 points, or '-'
const pastThree = run => run.headline.repeatability.predictedMovePoints.filter(cell => cell.points > 3 + 1e-9)
  .map(cell => `${cell.program}@${cell.blockSize} ${cell.points.toFixed(1)}`).join(', ') || '-'

function main (files) {
  for (let i = 0; i < files.length; i += 2) {
    const [a, b] = [load(files[i]), load(files[i + 1])]
    const result = headlineRepeatability(a.headline, b.headline)
    const top = [...result.cells].sort((x, y) => y.movePoints - x.movePoints)[0]
    const names = `${files[i].split('/').slice(-2).join('/')} + ${files[i + 1].split('/').pop()}`
    console.log(`${names}: within 2 ${result.within2} of ${result.total}, largest ${top.movePoints.toFixed(2)} ` +
      `(${top.program}@${top.blockSize}); past 3 foretold: ${pastThree(a)} | ${pastThree(b)}`)
  }
}

runScript(module, {
  args: [2, Infinity],
  each: readableFile,
  check: files => {
    if (files.length % 2) throw new UsageError('give the runs in pairs: an even number of files')
  },
  run: main
})
