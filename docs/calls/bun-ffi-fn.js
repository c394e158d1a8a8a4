'use strict'
// bun-ffi with its loop in a function (docs/calls.md, the loop-in-a-function runs).
// Run by Node, not Bun: one line that says what runs it (lib/cli.js notACommand). bun:ffi is
// required once Bun is known to run it: a static import fails in Node before any line runs.
if (typeof Bun === 'undefined') {
  require('../../lib/cli').notACommand('bun-ffi-fn.js', 'it is a reader bench.js runs in Bun, a row of docs/calls/extra.js; run ' +
    'LAB_EXTRA_PROGRAMS=docs/calls/extra.js node bench.js --only bun-ffi-fn ... (by hand: bun docs/calls/bun-ffi-fn.js BLOCKSIZE < FILE)')
  process.exit()
}
const { dlopen, ptr } = require('bun:ffi')
const libc = dlopen('libc.so.6', { read: { args: ['i32', 'ptr', 'u64'], returns: 'i64_fast' } }).symbols
function count (read, fd, bufPtr, blocksize) {
  let size = 0
  let reads = 0
  let n = read(fd, bufPtr, blocksize)
  while (n > 0) { reads++; size += n; n = read(fd, bufPtr, blocksize) }
  return { size, reads, n }
}
const blocksize = parseInt(Bun.argv[2] || 65536, 10)
const buf = new Uint8Array(blocksize)
const { size, reads, n } = count(libc.read, 0, ptr(buf), blocksize)
if (n < 0) process.exit(1)
console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
