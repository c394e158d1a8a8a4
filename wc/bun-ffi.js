// bun-ffi: libc read(2) through bun:ffi, in the form JavaScriptCore calls fast: once its
// DFG or FTL tier compiles the loop, each call is a CallFFI node straight into read
// (bun:ffi's engine-native calls, oven-sh/bun PR 35246; docs/api/ffi.md).
// The length is a u64, as size_t is. The result is read as an i32, which holds any count
// up to the block size and -1 and is boxed inline, where i64_fast costs a call into C++
// each read. The buffer is a view of its own ArrayBuffer: JavaScriptCore keeps a small
// typed array's bytes in its heap and copies them out once something asks for its buffer,
// which would leave an address taken by ptr() behind (oven-sh/bun issue 32054); a view of
// an ArrayBuffer has its bytes where they stay. The address is taken once, and the loop
// is in a function, so its counters are not module variables loaded and stored each read.
// errno is read through __errno_location right after the call, before any other libc
// call on this thread can overwrite it.
import { dlopen, ptr, read as peek } from 'bun:ffi'
const libc = dlopen('libc.so.6', {
  read: { args: ['i32', 'ptr', 'u64'], returns: 'i32' },
  __errno_location: { args: [], returns: 'ptr' },
  strerror: { args: ['i32'], returns: 'cstring' }
}).symbols
const STDIN_FILENO = 0

function count (read, fd, address, length) {
  let size = 0
  let reads = 0
  let n = read(fd, address, length)
  while (n > 0) {
    reads++
    size += n
    n = read(fd, address, length)
  }
  return { size, reads, n }
}

const blocksize = parseInt(Bun.argv[2] || 65536, 10)
// At the top level, so that it lives as long as its address is used.
const buf = new Uint8Array(new ArrayBuffer(blocksize))
const { size, reads, n } = count(libc.read, STDIN_FILENO, ptr(buf), blocksize)
if (n < 0) {
  const errno = peek.i32(libc.__errno_location(), 0)
  console.error(`read: ${libc.strerror(errno)} (${errno})`)
  process.exit(1)
}
console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
