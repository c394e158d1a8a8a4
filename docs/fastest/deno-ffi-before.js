// wc/deno-ffi.js before issue 34 (commit d8cf1cf): a Number for the usize length, kept for
// docs/programs.md's before and after.
// deno-ffi: libc read(2) called through Deno.dlopen into one preallocated buffer.
// errno is read through __errno_location right after the call, before any other
// libc call on this thread can overwrite it.
// Run by Node, not Deno: one line that says what runs it (lib/cli.js notACommand).
if (typeof Deno === 'undefined') {
  require('../../lib/cli').notACommand('deno-ffi-before.js', 'it is a reader bench.js runs in Deno, a row of docs/fastest/extra.js; run ' +
    'LAB_EXTRA_PROGRAMS=docs/fastest/extra.js node bench.js --only deno-ffi-before ... (by hand: deno run --allow-ffi docs/fastest/deno-ffi-before.js BLOCKSIZE < FILE)')
  process.exit()
}
const libc = Deno.dlopen('libc.so.6', {
  read: { parameters: ['i32', 'buffer', 'usize'], result: 'isize' },
  __errno_location: { parameters: [], result: 'pointer' },
  strerror: { parameters: ['i32'], result: 'pointer' }
}).symbols
const STDIN_FILENO = 0
const blocksize = parseInt(Deno.args[0] || 65536, 10)
const buf = new Uint8Array(blocksize)
let size = 0
let reads = 0
let n = Number(libc.read(STDIN_FILENO, buf, blocksize))
while (n > 0) {
  reads++
  size += n
  n = Number(libc.read(STDIN_FILENO, buf, blocksize))
}
if (n < 0) {
  const errno = new Deno.UnsafePointerView(libc.__errno_location()).getInt32()
  console.error(`read: ${Deno.UnsafePointerView.getCString(libc.strerror(errno))} (${errno})`)
  Deno.exit(1)
}
console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
