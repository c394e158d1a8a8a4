'use strict'
// Does a calls run's own figure foretell what a second run moves (issue 47's goal: the pair's
// 90th percentile within what each run said, and what it said at most twice that)? Given
// pairs of calls runs' results, prints per pair the 90th percentile of what moved (the lab's
// criterion: C's rungs in ns, every other variant's against C's) and what each run said by
// three splits of its processes into halves, each half's median against the other's over √2:
// the lab's (even processes against odd ones, which interleave in time), early against late
// (the first half of the processes in time against the second) and, rung by rung, the larger
// of the two, the lab's own figure since.
//   node docs/calls/2026-12-05-halves/halves.js A1 B1 [A2 B2 ...]
// (each a calls run's results.json, or .json.gz as kept beside the studies)
const { runScript, readableFile, readJson, need, UsageError } = require('../../script-args')
const { ladderHalves, ownHalves } = require('../../../experiments/calls/ladder')
const { callsRepeatability } = require('../../../experiments/calls/repeatability')
const { nearestRank, HALVINGS, foretellTally } = require('../../../lib/repeatability')

const RUN = 'a calls run\'s results.json (or .json.gz)'

// Each split's moves, rung by rung, as a second run's (over √2); the larger is the lab's own
// figure since 2026-12-05 (ladder.js ownHalves).
function said (rows) {
  const moves = cells => cells.map(cell => cell.movePercent / Math.SQRT2)
  return {
    'even/odd': moves(ladderHalves(rows)),
    'early/late': moves(ladderHalves(rows, HALVINGS.earlyLate)),
    larger: moves(ownHalves(rows))
  }
}

const format = value => value.toFixed(2).padStart(6)

function main (files) {
  if (files.length % 2) throw new UsageError(`give runs in pairs, not ${files.length} files`)
  const ladders = files.map(file => need(readJson(file, RUN).ladder, file, 'calls ladder', RUN))
  for (const [file, ladder] of files.map((file, i) => [file, ladders[i]])) {
    need(Array.isArray(ladder.rows) ? ladder.rows : null, file, 'calls ladder rows', RUN)
  }
  const tally = foretellTally()
  console.log('pair'.padEnd(48) + 'moved p90' + '  split: each run said (p90), foretold?')
  for (let i = 0; i < files.length; i += 2) {
    const [a, b] = [ladders[i], ladders[i + 1]]
    const moved = callsRepeatability(a, b).cells.map(cell => cell.movePercent)
    const movedP90 = nearestRank(moved, 0.9)
    const [saidA, saidB] = [said(a.rows), said(b.rows)]
    const parts = Object.keys(saidA)
      .map(split => tally.add(split, [saidA, saidB].map(run => nearestRank(run[split], 0.9)), movedP90))
    const name = `${files[i].split('/').slice(-2).join('/')} ${files[i + 1].split('/').at(-1)}`
    console.log(`${name.padEnd(48)}${format(movedP90)}   ${parts.join('; ')}`)
  }
  console.log('')
  for (const line of tally.lines()) console.log(line)
}

runScript(module, { args: [2, Infinity], each: readableFile, run: main })
