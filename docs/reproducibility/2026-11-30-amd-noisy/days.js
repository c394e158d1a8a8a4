'use strict'
// Each reader's share of C at 256 B, 4 KiB and 64 KiB as the runs' terminal output printed it
// (whole points; its interval to a tenth), a quiet day's pair beside a noisy day's, and how far
// the mean of each pair moved from the one day to the other, in points.
//   node docs/reproducibility/2026-11-30-amd-noisy/days.js QUIET-A.txt QUIET-B.txt NOISY-A.txt NOISY-B.txt
const { tableLines } = require('./terminal')
const { runScript, readableFile, need } = require('../../script-args')

const TITLE = 'Per read, CPU time against C'
const OUTPUT = 'a stdio run\'s terminal output'

// the cost pass's table: "program runtime  256: ns/read, over C, % of C  4K: ...  64K: ..."
function shares (file) {
  const byProgram = new Map()
  for (const line of tableLines(file, TITLE)) {
    const program = line.split(/\s+/)[0]
    const cells = [...line.matchAll(/(\d+), [+-][\d.]+, (\d+)% \(([\d.]+)–([\d.]+)%\)/g)]
    byProgram.set(program, program === 'c'
      ? { ns: line.trim().split(/\s+/).slice(-3).map(Number), shares: [100, 100, 100] }
      : { ns: cells.map(cell => Number(cell[1])), shares: cells.map(cell => Number(cell[2])) })
  }
  // C's row, what every share is of: a file without the table has none
  need(byProgram.get('c'), file, `table '${TITLE}' with a row of c`, OUTPUT)
  return byProgram
}

function main (files) {
  const runs = files.map(shares)
  const sizes = ['256 B', '4 KiB', '64 KiB']
  const mean = (a, b) => (a + b) / 2
  console.log('C\'s ns per read (256 B, 4 KiB, 64 KiB): ' +
    runs.map((run, i) => `${files[i].replace(/.*\//, '')} ${run.get('c').ns.join(', ')}`).join('; '))
  console.log('reader'.padEnd(16) + sizes.map(size => `${size}: quiet pair, noisy pair, move`.padEnd(44)).join(''))
  const moves = []
  for (const program of runs[0].keys()) {
    if (program === 'c' || runs.some(run => !run.get(program)?.shares.length)) continue
    const cells = sizes.map((_, i) => {
      const [qa, qb, na, nb] = runs.map(run => run.get(program).shares[i])
      const move = mean(na, nb) - mean(qa, qb)
      moves.push({ program, size: sizes[i], move })
      return `${qa}, ${qb}  ${na}, ${nb}  ${move >= 0 ? '+' : ''}${move.toFixed(1)}`.padEnd(44)
    })
    console.log(program.padEnd(16) + cells.join(''))
  }
  const absolute = moves.map(({ move }) => Math.abs(move)).sort((a, b) => a - b)
  const within = limit => absolute.filter(move => move <= limit).length
  console.log(`${moves.length} shares: the noisy pair's mean within 2 points of the quiet pair's in ` +
    `${within(2)}, within 5 in ${within(5)}; the median move ${absolute[absolute.length >> 1].toFixed(1)}` +
    `, the largest ${absolute.at(-1).toFixed(1)} points (whole points as printed)`)
}

runScript(module, { args: [4, 4], each: readableFile, run: main })
