// bun-ffi with its loop at the top level of the module: wc/bun-ffi.js's form otherwise.
// For docs/programs.md's measurement of where the loop belongs. Run by Bun, not Node (its
// bun:ffi import fails in Node before any line runs): bun docs/fastest/bun-ffi-top.js BLOCKSIZE < FILE
import { dlopen, ptr } from 'bun:ffi'
const { read } = dlopen('libc.so.6', { read: { args: ['i32', 'ptr', 'u64'], returns: 'i32' } }).symbols
const blocksize = parseInt(Bun.argv[2] || 65536, 10)
const buf = new Uint8Array(new ArrayBuffer(blocksize))
const address = ptr(buf)
let size = 0
let reads = 0
let n = read(0, address, blocksize)
while (n > 0) {
  reads++
  size += n
  n = read(0, address, blocksize)
}
if (n < 0) process.exit(1)
console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
