// Per profile run (the seven JavaScript readers and C at 256 B), C's CPU per read at the pass's
// pace, perf's own cost and samples a round per reader, and the kernel's bucket of C and
// node-sync, from each run's profile.json.
//   node docs/profile/2026-11-30-amd/hz-table.js RUN...
const path = require('path')
const { runScript, folderWith, readJson, need } = require('../../script-args')

const order = ['c', 'just-fast', 'just-sync', 'node-sync', 'node-ffi', 'deno-sync', 'deno-ffi', 'bun-ffi']
const RUN = 'a profile run\'s folder'

// a run's ok profile cells by reader, C's and node-sync's among them, and its context
function readRun (run) {
  const file = path.join(run, 'profile.json')
  const cells = need(readJson(file, RUN).cells, file, 'profile cells', RUN).filter(each => each.ok)
  const cell = Object.fromEntries(cells.map(each => [each.program, each]))
  for (const program of ['c', 'node-sync']) {
    need(cell[program], file, `ok profile cell of ${program}`, RUN)
  }
  const contextFile = path.join(run, 'context.json')
  const context = readJson(contextFile, RUN)
  need(context.date, contextFile, 'date', RUN)
  return { cell, context }
}

function main (runs) {
  // every run read before the first is reported
  const read = runs.map(readRun)
  console.log('run, start (UTC), C\'s ns per read | perf\'s cost, ns per read | samples a round | ' +
    `kernel bucket, c and node-sync; readers in the order ${order.join(' ')}`)
  for (const [i, run] of runs.entries()) {
    const { cell, context } = read[i]
    // a reader that failed in this run: "-"
    const each = field => order.map(program => (cell[program] ? Math.round(field(cell[program])) : '-')).join(' ')
    console.log(`${path.basename(run).padEnd(4)} ${context.date.slice(11, 19)} C ${cell.c.cpuPerReadNs.toFixed(0)} | ` +
      `${each(c => c.profilerCostNs)} | ${each(c => c.samples)} | ` +
      `${Math.round(cell.c.buckets.kernelRead.ns)} ${Math.round(cell['node-sync'].buckets.kernelRead.ns)}`)
  }
}

runScript(module, {
  args: [1, Infinity], each: folderWith(['profile.json', 'context.json'], RUN), run: main
})
