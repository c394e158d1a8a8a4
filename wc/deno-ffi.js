// deno-ffi: libc read(2) through Deno.dlopen, in the form Deno's FFI calls fast: a BigInt
// length, a pointer taken once (read's declaration and the buffer, and why:
// wc/deno-ffi-read.js). The loop is in a function, so that V8 keeps its counters in
// registers. errno is read through __errno_location right after the call, before any
// other libc call on this thread can overwrite it.
import { readDeclaration, readBuffer } from './deno-ffi-read.js'
const libc = Deno.dlopen('libc.so.6', {
  read: readDeclaration,
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
const buf = readBuffer(blocksize)
const address = Deno.UnsafePointer.of(buf)
const { size, reads, n } = count(libc.read, STDIN_FILENO, address, BigInt(blocksize))
if (n < 0n) {
  const errno = new Deno.UnsafePointerView(libc.__errno_location()).getInt32()
  console.error(`read: ${Deno.UnsafePointerView.getCString(libc.strerror(errno))} (${errno})`)
  Deno.exit(1)
}
console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
