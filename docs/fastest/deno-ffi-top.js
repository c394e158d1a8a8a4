// deno-ffi with its loop at the top level: the fast form of wc/deno-ffi.js (a pointer taken
// once, a BigInt length), the loop not in a function. For docs/programs.md's measurement of
// where the loop belongs.
// Run by Node, not Deno: one line that says what runs it (lib/cli.js notACommand).
if (typeof Deno === 'undefined') {
  require('../../lib/cli').notACommand('deno-ffi-top.js', 'it is a reader bench.js runs in Deno, a row of docs/fastest/extra.js; run ' +
    'LAB_EXTRA_PROGRAMS=docs/fastest/extra.js node bench.js --only deno-ffi-top ... (by hand: deno run --allow-ffi docs/fastest/deno-ffi-top.js BLOCKSIZE < FILE)')
  process.exit()
}
const libc = Deno.dlopen('libc.so.6', {
  read: { parameters: ['i32', 'pointer', 'usize'], result: 'isize' }
}).symbols
const blocksize = parseInt(Deno.args[0] || 65536, 10)
const buf = new Uint8Array(blocksize)
const address = Deno.UnsafePointer.of(buf)
const length = BigInt(blocksize)
let size = 0
let reads = 0
let n = libc.read(0, address, length)
while (n > 0n) {
  reads++
  size += Number(n)
  n = libc.read(0, address, length)
}
if (n < 0n) Deno.exit(1)
console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
