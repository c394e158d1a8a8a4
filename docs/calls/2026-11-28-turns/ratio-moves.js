'use strict'
// How far each variant's rungs against C's moved between two calls runs, given their folders.
//   node docs/calls/2026-11-28-turns/ratio-moves.js RUN-A RUN-B
const path = require('node:path')
const { runScript, folderWith, readJson, need, UsageError } = require('../../script-args')

const RUN = 'a calls run\'s folder'
const ladderOf = dir => {
  const file = path.join(dir, 'results.json')
  const ladder = need(readJson(file, RUN).ladder, file, 'calls ladder', RUN)
  // a ladder with its rows, which is what is read of it
  need(Array.isArray(ladder.rows) ? ladder.rows : null, file, 'calls ladder rows', RUN)
  return ladder
}

function main (dirs) {
  const [a, b] = dirs.map(ladderOf)
  const moves = []
  for (const row of a.rows) {
    if (!row.vsC) continue
    // a variant only one run measured has no move
    const other = b.rows.find(r => r.variant === row.variant)
    if (!other?.vsC) continue
    for (const rung of Object.keys(row.vsC).filter(rung => other.vsC[rung])) {
      const move = Math.abs(other.vsC[rung].estimate / row.vsC[rung].estimate - 1) * 100
      moves.push({ v: row.variant, rung, m: move })
    }
  }
  if (moves.length === 0) {
    throw new UsageError(`${dirs[0]} and ${dirs[1]} share no variant's rungs against C's; ` +
      'give two calls runs of the same variants')
  }
  const m = moves.map(x => x.m).sort((x, y) => x - y)
  const q = p => m[Math.ceil(p * m.length) - 1]
  const within = limit => m.filter(x => x <= limit).length
  console.log(`${m.length} ratios: within 1% ${within(1)}, within 2% ${within(2)}, ` +
    `median ${q(0.5).toFixed(2)}%, p90 ${q(0.9).toFixed(2)}%, max ${m.at(-1).toFixed(2)}%`)
  console.log(moves.filter(x => x.m > 5).map(x => `${x.v} ${x.rung} ${x.m.toFixed(1)}`).join('; '))
}

runScript(module, { args: [2, 2], each: folderWith(['results.json'], RUN), distinct: true, run: main })
