import { dlopen, ptr } from 'bun:ffi'
const libc = dlopen('libc.so.6', { read: { args: ['i32', 'ptr', 'u64'], returns: 'i64_fast' } }).symbols
function count (read, fd, bufPtr, blocksize) {
  let size = 0
  let reads = 0
  let n = read(fd, bufPtr, blocksize)
  while (n > 0) { reads++; size += n; n = read(fd, bufPtr, blocksize) }
  return { size, reads, n }
}
const blocksize = parseInt(Bun.argv[2] || 65536, 10)
const buf = new Uint8Array(blocksize)
const { size, reads, n } = count(libc.read, 0, ptr(buf), blocksize)
if (n < 0) process.exit(1)
console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
