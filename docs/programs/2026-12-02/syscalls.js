'use strict'
// The syscalls per chunk of a stdio run's stream readers (the rows named *-stream), by
// thread: the strace pass's rates per read, a read being a chunk the reader counted.
//
//   node docs/programs/2026-12-02/syscalls.js RUN/syscalls.json
const { runScript, readableFile, readJson, need } = require('../../script-args')

const SYSCALLS = 'a stdio run\'s syscalls.json'

function main ([file]) {
  const cells = need(readJson(file, SYSCALLS).cells, file, 'syscall cells', SYSCALLS)
  for (const cell of cells.filter(each => /-stream$/.test(each.program))) {
    for (const thread of ['mainThread', 'allThreads']) {
      const rate = cell.syscallsPerRead?.[thread]
      const calls = rate ? rate.calls.map(call => `${call.name} ${call.calls}`).join(', ') : 'none'
      console.log(`${cell.program} @ ${cell.blockSize}, ${thread}: ${rate?.perRead ?? '-'} calls a chunk: ${calls}`)
    }
  }
}

runScript(module, { args: [1, 1], each: readableFile, run: main })
