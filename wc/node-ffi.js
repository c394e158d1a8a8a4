// node-ffi: libc read(2) through node:ffi (Node 26), in the form V8 calls fast: once
// TurboFan compiles the loop, each call is a V8 fast API call straight into read
// (doc/api/ffi.md, "Call paths"; nodejs/node PR 63068).
// size_t is 64 bits, so the length is a uint64, given as a BigInt: 26.10 takes no Number
// there (lib/internal/ffi/fast-api.js). The result is read as an int32, which holds any
// count up to the block size and -1; rax's upper half is then unused.
// A Buffer argument would be turned into its address by a slow call every time (the
// fast path takes one only where it is the sole argument): the address is taken once,
// of a buffer that Node allocates off V8's heap, where it does not move.
const { dlopen, getRawPointer, getInt32 } = require('node:ffi')
const { functions: libc } = dlopen('libc.so.6', {
  read: { arguments: ['int32', 'pointer', 'uint64'], return: 'int32' },
  __errno_location: { arguments: [], return: 'pointer' }
})
const { getSystemErrorMessage } = require('node:util')
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

const blocksize = parseInt(process.argv[2] || 65536, 10)
// At the top level, so that it lives as long as its address is used.
const buf = Buffer.allocUnsafeSlow(blocksize)
const { size, reads, n } = count(libc.read, STDIN_FILENO, getRawPointer(buf), BigInt(blocksize))
if (n < 0) {
  // errno before anything else can call into libc and overwrite it
  const errno = getInt32(libc.__errno_location())
  process.stderr.write(`read: ${getSystemErrorMessage(-errno)} (${errno})\n`)
  process.exit(1)
}
console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
