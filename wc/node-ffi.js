// node-ffi: libc read(2) through node:ffi (Node 26), in the form V8 calls fast: once
// TurboFan compiles the loop, each call is a V8 fast API call straight into read, the
// length a BigInt uint64, the address of a buffer off V8's heap taken once (read's
// declaration and the buffer, and why: wc/node-ffi-read.js).
const { dlopen, getRawPointer, getInt32 } = require('node:ffi')
const { readDeclaration, readBuffer } = require('./node-ffi-read.js')
const { functions: libc } = dlopen('libc.so.6', {
  read: readDeclaration,
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
const buf = readBuffer(blocksize)
const { size, reads, n } = count(libc.read, STDIN_FILENO, getRawPointer(buf), BigInt(blocksize))
if (n < 0) {
  // errno before anything else can call into libc and overwrite it
  const errno = getInt32(libc.__errno_location())
  process.stderr.write(`read: ${getSystemErrorMessage(-errno)} (${errno})\n`)
  process.exit(1)
}
console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
