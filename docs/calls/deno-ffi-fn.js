// deno-ffi with its loop in a function (docs/calls.md, the loop-in-a-function runs).
// Run by Node, not Deno: one line that says what runs it (lib/cli.js notACommand).
if (typeof Deno === 'undefined') {
  require('../../lib/cli').notACommand('deno-ffi-fn.js', 'it is a reader bench.js runs in Deno, a row of docs/calls/extra.js; run ' +
    'LAB_EXTRA_PROGRAMS=docs/calls/extra.js node bench.js --only deno-ffi-fn ... (by hand: deno run --allow-ffi docs/calls/deno-ffi-fn.js BLOCKSIZE < FILE)')
  process.exit()
}
const libc = Deno.dlopen('libc.so.6', { read: { parameters: ['i32', 'buffer', 'usize'], result: 'isize' } }).symbols
function count (read, fd, buf, blocksize) {
  let size = 0
  let reads = 0
  let n = Number(read(fd, buf, blocksize))
  while (n > 0) { reads++; size += n; n = Number(read(fd, buf, blocksize)) }
  return { size, reads, n }
}
const blocksize = parseInt(Deno.args[0] || 65536, 10)
const buf = new Uint8Array(blocksize)
const { size, reads, n } = count(libc.read, 0, buf, blocksize)
if (n < 0) Deno.exit(1)
console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
