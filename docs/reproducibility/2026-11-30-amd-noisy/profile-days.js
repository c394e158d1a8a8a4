'use strict'
// The profile pass's largest buckets over C at 256 B as each run's terminal output printed them
// (its three largest, in ns per read at the pass's pace), a quiet day's run beside a noisy
// day's, also as shares of C's read at the same pace (the buckets' ns over C's CPU per read).
//   node docs/reproducibility/2026-11-30-amd-noisy/profile-days.js QUIET.txt NOISY.txt
const { tableLines } = require('./terminal')
const { runScript, readableFile, need } = require('../../script-args')

const TITLE = 'Where a read\'s ns go'
const OUTPUT = 'a stdio run\'s terminal output'

function buckets (file) {
  const byProgram = new Map()
  for (const line of tableLines(file, TITLE)) {
    const [program, cpu] = line.trim().split(/\s+/)
    const named = Object.fromEntries([...line.matchAll(/\+(\d+) ([a-z][a-z ,]*?[a-z])(?= \(|;|\s*$)/g)]
      .map(match => [match[2], Number(match[1])]))
    byProgram.set(program, { cpu: Number(cpu), named })
  }
  // C's row, what every bucket is set against: a file without the table has none
  need(byProgram.get('c'), file, `table '${TITLE}' with a row of c`, OUTPUT)
  return byProgram
}

function main (files) {
  const [quiet, noisy] = files.map(buckets)
  const cQuiet = quiet.get('c').cpu
  const cNoisy = noisy.get('c').cpu
  console.log(`C's CPU per read in the pass: ${cQuiet} ns quiet, ${cNoisy} noisy (x${(cNoisy / cQuiet).toFixed(2)})`)
  for (const [program, { cpu, named }] of quiet) {
    const other = noisy.get(program)
    if (program === 'c' || !other) continue
    const cells = Object.keys(named).filter(bucket => bucket in other.named).map(bucket => {
      const [q, n] = [named[bucket], other.named[bucket]]
      return `${bucket} ${q} -> ${n} ns (x${(n / q).toFixed(2)}; of C's read ` +
        `${(100 * q / cQuiet).toFixed(0)}% -> ${(100 * n / cNoisy).toFixed(0)}%)`
    })
    if (cells.length) console.log(`${program.padEnd(16)} CPU ${cpu} -> ${other.cpu}; ${cells.join('; ')}`)
  }
}

runScript(module, { args: [2, 2], each: readableFile, distinct: true, run: main })
