// wc/bun-ffi.js before issue 34 (commit d8cf1cf), kept for docs/programs.md's before and after.
// Run by Bun, not Node (its bun:ffi import fails in Node before any line runs):
// bun docs/fastest/bun-ffi-before.js BLOCKSIZE < FILE
// bun-ffi: libc read(2) called through bun:ffi into one preallocated buffer.
// errno is read through __errno_location right after the call, before any other
// libc call on this thread can overwrite it.
import { dlopen, ptr, read as peek } from 'bun:ffi'
const libc = dlopen('libc.so.6', {
  read: { args: ['i32', 'ptr', 'u64'], returns: 'i64_fast' },
  __errno_location: { args: [], returns: 'ptr' },
  strerror: { args: ['i32'], returns: 'cstring' }
}).symbols
const STDIN_FILENO = 0
const blocksize = parseInt(Bun.argv[2] || 65536, 10)
const buf = new Uint8Array(blocksize)
const bufPtr = ptr(buf)
let size = 0
let reads = 0
let n = libc.read(STDIN_FILENO, bufPtr, blocksize)
while (n > 0) {
  reads++
  size += n
  n = libc.read(STDIN_FILENO, bufPtr, blocksize)
}
if (n < 0) {
  const errno = peek.i32(libc.__errno_location(), 0)
  console.error(`read: ${libc.strerror(errno)} (${errno})`)
  process.exit(1)
}
console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
