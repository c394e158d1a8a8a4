// Each stdio pair: its largest move between the runs, and the cells each run foretold past
// the goal's 3 points (issue 47; docs/reproducibility.md, 2026-12-06, midday).
// Usage, from docs/reproducibility: node 2026-12-06-never/never-pairs.js A B [A B ...]
// (results.json[.gz] of each run; pairs.txt beside it is its output for the pairs there).
const fs = require('node:fs')
const zlib = require('node:zlib')
const { headlineRepeatability } = require('../../../experiments/stdio/cost')
const read = file => {
  const raw = fs.readFileSync(file)
  return JSON.parse(file.endsWith('.gz') ? zlib.gunzipSync(raw) : raw)
}
const args = process.argv.slice(2)
for (let i = 0; i < args.length; i += 2) {
  const [a, b] = [read(args[i]), read(args[i + 1])]
  const result = headlineRepeatability(a.headline, b.headline)
  const top = [...result.cells].sort((x, y) => y.movePoints - x.movePoints)[0]
  const past = run => run.headline.repeatability.predictedMovePoints.filter(c => c.points > 3 + 1e-9)
    .map(c => `${c.program}@${c.blockSize} ${c.points.toFixed(1)}`).join(', ') || '-'
  console.log(`${args[i].split('/').slice(-2).join('/')} + ${args[i + 1].split('/').pop()}: within 2 ${result.within2} of ${result.total}, largest ${top.movePoints.toFixed(2)} (${top.program}@${top.blockSize}); past 3 foretold: ${past(a)} | ${past(b)}`)
}
