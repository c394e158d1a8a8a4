// deno-ffi: libc read(2) through Deno.dlopen, in the form Deno's FFI calls fast.
// Deno hands a 64-bit parameter (usize: size_t) to V8's fast call as a BigInt, and a
// Number there leaves the fast call for libffi's slow path every time
// (ext/ffi/turbocall.rs; denoland/deno PR 23983): so the length is a BigInt.
// A `pointer` goes through as it is, where a `buffer` is looked up every call; the
// buffer's address is taken once, which holds because Deno keeps every typed array's
// bytes off V8's moving heap (ext/ffi/ir.rs). The loop is in a function, so that V8
// keeps its counters in registers. errno is read through __errno_location right after
// the call, before any other libc call on this thread can overwrite it.
const libc = Deno.dlopen('libc.so.6', {
  read: { parameters: ['i32', 'pointer', 'usize'], result: 'isize' },
  __errno_location: { parameters: [], result: 'pointer' },
  strerror: { parameters: ['i32'], result: 'pointer' }
}).symbols
const STDIN_FILENO = 0

function count (read, fd, address, length) {
  let size = 0
  let reads = 0
  let n = read(fd, address, length)
  while (n > 0n) {
    reads++
    size += Number(n)
    n = read(fd, address, length)
  }
  return { size, reads, n }
}

const blocksize = parseInt(Deno.args[0] || 65536, 10)
// At the top level, so that it lives as long as its address is used.
const buf = new Uint8Array(blocksize)
const address = Deno.UnsafePointer.of(buf)
const { size, reads, n } = count(libc.read, STDIN_FILENO, address, BigInt(blocksize))
if (n < 0n) {
  const errno = new Deno.UnsafePointerView(libc.__errno_location()).getInt32()
  console.error(`read: ${Deno.UnsafePointerView.getCString(libc.strerror(errno))} (${errno})`)
  Deno.exit(1)
}
console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
