'use strict'
// Does C's pace in a process's turns, taken as a control variate, hold a ladder's ratios to C
// better than the lab's median of ratios? Per variant and rung, over the run's processes: the
// variant's log ns against its partner C's log ns, a Theil-Sen slope β (1: the two slowed
// alike), and the variant's ns predicted at the run's median C pace, over that pace. Prints
// each pair's ratios within 1% and 2% both ways, then each rung's figures and slopes.
//   node docs/calls/2026-11-30-noisy/control-variate.js A.jsonl[.gz] B.jsonl[.gz]
// (a run's all.jsonl, or its ladder records as kept here: ladder-n1.jsonl.gz, ladder-n2.jsonl.gz)
const { median } = require('../../../lib/stats')
const { runScript, readableFile, readJsonLines, need } = require('../../script-args')

const RUNGS = ['noop', 'syscall', 'empty-read', 'read-256']
const LOG = 'a calls run\'s all.jsonl (or .jsonl.gz), or its ladder records'

function load (file) {
  const records = readJsonLines(file, LOG)
    .filter(record => record.phase === 'ladder' && record.ok && record.partner)
  return need(records, file, 'ladder runs in turns with C', LOG)
}

function theilSen (x, y) {
  const slopes = []
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) if (x[j] !== x[i]) slopes.push((y[j] - y[i]) / (x[j] - x[i]))
  }
  return median(slopes)
}

function figures (file) {
  const byVariant = new Map()
  for (const record of load(file)) byVariant.set(record.program, [...(byVariant.get(record.program) ?? []), record])
  const out = new Map()
  for (const [variant, records] of byVariant) {
    for (const rung of RUNGS) {
      const own = records.map(record => Math.log(median(record.rounds.map(round => round[rung]))))
      const c = records.map(record => Math.log(median(record.partner.rounds.map(round => round[rung]))))
      const lab = median(own.map((value, i) => Math.exp(value - c[i])))
      const slope = theilSen(c, own)
      const pace = median(c)
      const adjusted = Math.exp(median(own.map((value, i) => value - slope * (c[i] - pace))) - pace)
      out.set(`${variant} ${rung}`, { lab, adjusted, slope })
    }
  }
  return out
}

function main ([fileA, fileB]) {
  const a = figures(fileA)
  const b = figures(fileB)
  const keys = [...a.keys()].filter(key => b.has(key))
  for (const kind of ['lab', 'adjusted']) {
    const moves = keys.map(key => 100 * Math.abs(a.get(key)[kind] / b.get(key)[kind] - 1))
    console.log(`${kind.padEnd(8)}: within 1% ${moves.filter(m => m <= 1).length}, within 2% ` +
      `${moves.filter(m => m <= 2).length} of ${moves.length}; median move ${median(moves).toFixed(2)}%, ` +
      `largest ${Math.max(...moves).toFixed(1)}%`)
  }
  console.log('variant rung             lab: A, B        adjusted: A, B     slope β: A, B')
  for (const key of keys) {
    const [x, y] = [a.get(key), b.get(key)]
    console.log(`${key.padEnd(22)} ${x.lab.toFixed(3).padStart(7)} ${y.lab.toFixed(3).padStart(7)}   ` +
      `${x.adjusted.toFixed(3).padStart(7)} ${y.adjusted.toFixed(3).padStart(7)}   ` +
      `${x.slope.toFixed(2).padStart(5)} ${y.slope.toFixed(2).padStart(5)}`)
  }
}

runScript(module, { args: [2, 2], each: readableFile, run: main })
