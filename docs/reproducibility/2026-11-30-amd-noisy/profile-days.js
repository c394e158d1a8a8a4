'use strict'
// The profile pass's largest buckets over C at 256 B as each run's terminal output printed them
// (its three largest, in ns per read at the pass's pace), a quiet day's run beside a noisy
// day's, also as shares of C's read at the same pace (the buckets' ns over C's CPU per read).
//   node docs/reproducibility/2026-11-30-amd-noisy/profile-days.js QUIET.txt NOISY.txt
const { tableLines } = require('./terminal')
const { runScript, readableFile } = require('../../script-args')

function buckets (file) {
  const byProgram = new Map()
  for (const line of tableLines(file, 'Where a read\'s ns go')) {
    const [program, cpu] = line.trim().split(/\s+/)
    const named = Object.fromEntries([...line.matchAll(/\+(\d+) ([a-z][a-z ,]*?[a-z])(?= \(|;|\s*$)/g)]
      .map(match => [match[2], Number(match[1])]))
    byProgram.set(program, { cpu: Number(cpu), named })
  }
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

runScript(module, { args: [2, 2], each: readableFile, run: main })
