// Per profile run (the seven JavaScript readers and C at 256 B), C's CPU per read at the pass's
// pace, perf's own cost and samples a round per reader, and the kernel's bucket of C and
// node-sync, from each run's profile.json.
//   node docs/profile/2026-11-30-amd/hz-table.js RUN...
const fs = require('fs')
const path = require('path')
const { runScript, folderWith } = require('../../script-args')

const order = ['c', 'just-fast', 'just-sync', 'node-sync', 'node-ffi', 'deno-sync', 'deno-ffi', 'bun-ffi']

function main (runs) {
  console.log('run, start (UTC), C\'s ns per read | perf\'s cost, ns per read | samples a round | ' +
    `kernel bucket, c and node-sync; readers in the order ${order.join(' ')}`)
  for (const run of runs) {
    const profile = JSON.parse(fs.readFileSync(path.join(run, 'profile.json'), 'utf8'))
    const context = JSON.parse(fs.readFileSync(path.join(run, 'context.json'), 'utf8'))
    const cell = Object.fromEntries(profile.cells.filter(each => each.ok).map(each => [each.program, each]))
    // a reader that failed in this run: "-"
    const each = field => order.map(program => (cell[program] ? Math.round(field(cell[program])) : '-')).join(' ')
    console.log(`${path.basename(run).padEnd(4)} ${context.date.slice(11, 19)} C ${cell.c.cpuPerReadNs.toFixed(0)} | ` +
      `${each(c => c.profilerCostNs)} | ${each(c => c.samples)} | ` +
      `${Math.round(cell.c.buckets.kernelRead.ns)} ${Math.round(cell['node-sync'].buckets.kernelRead.ns)}`)
  }
}

runScript(module, { args: [1, Infinity], each: folderWith(['profile.json', 'context.json'], 'a profile run\'s folder'), run: main })
