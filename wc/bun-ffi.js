// bun-ffi: libc read(2) through bun:ffi, in the form JavaScriptCore calls fast: once its
// DFG or FTL tier compiles the loop, each call is a CallFFI node straight into read
// (read's declaration and the buffer, and why: wc/bun-ffi-read.js). The address is taken
// once, and the loop is in a function, so its counters are not module variables loaded
// and stored each read. errno is read through __errno_location right after the call,
// before any other libc call on this thread can overwrite it.
import { dlopen, ptr, read as peek } from 'bun:ffi'
import { readDeclaration, readBuffer } from './bun-ffi-read.js'
const libc = dlopen('libc.so.6', {
  read: readDeclaration,
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
const buf = readBuffer(blocksize)
const { size, reads, n } = count(libc.read, STDIN_FILENO, ptr(buf), blocksize)
if (n < 0) {
  const errno = peek.i32(libc.__errno_location(), 0)
  console.error(`read: ${libc.strerror(errno)} (${errno})`)
  process.exit(1)
}
console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
