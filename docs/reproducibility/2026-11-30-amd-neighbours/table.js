'use strict'
// The turns of turns.sh and mem-turns.sh as a table: per run, C's CPU per read at 256 B and
// each reader's share of C (the cost pass in turns with C, 6 rounds), in the order they ran.
//   node docs/reproducibility/2026-11-30-amd-neighbours/table.js
const path = require('node:path')
const { median } = require('../../../lib/stats')
const { runScript } = require('../../script-args')

const runs = [
  ...[1, 2, 3, 4].flatMap(i => [`mem-q${i}`, `mem-m${i}`]),
  ...[1, 2, 3, 4].flatMap(i => [`idle${i}`, `spin${i}`, `stream${i}`])
]
const neighbour = name => name.startsWith('mem-q') || name.startsWith('idle')
  ? 'none'
  : name.startsWith('spin') ? 'a busy loop' : 'the streamer'

function main () {
  const byNeighbour = new Map()
  for (const name of runs) {
    const { headline } = require(path.join(__dirname, `${name}.json`))
    const c = headline.cells.find(cell => cell.program === 'c').cpuPerReadNs.estimate
    const shares = headline.cells.filter(cell => cell.program !== 'c')
      .map(cell => [cell.program, 100 * cell.shareOfC.estimate])
    console.log(`${name.padEnd(9)} CPU 0: ${neighbour(name).padEnd(12)} C ${c.toFixed(0)} ns  ` +
      shares.map(([program, share]) => `${program} ${share.toFixed(1)}%`).join('  '))
    const key = neighbour(name)
    if (!byNeighbour.has(key)) byNeighbour.set(key, { c: [], shares: new Map() })
    const group = byNeighbour.get(key)
    group.c.push(c)
    for (const [program, share] of shares) group.shares.set(program, [...(group.shares.get(program) ?? []), share])
  }
  console.log('\nmedian (range) by what ran on CPU 0:')
  for (const [key, { c, shares }] of byNeighbour) {
    const range = values =>
      `${median(values).toFixed(1)} (${Math.min(...values).toFixed(1)}-${Math.max(...values).toFixed(1)})`
    console.log(`${key.padEnd(12)} runs ${c.length}: C ${range(c)} ns; ` +
      [...shares].map(([program, values]) => `${program} ${range(values)}%`).join('; '))
  }
}

runScript(module, { run: main })
