// What deno-ffi's read returns once TurboFan has compiled the calls: its declaration from
// wc/deno-ffi-read.js, 200,000 reads of 256 B, the last result's type printed.
//   dd if=/dev/zero bs=256 count=300000 status=none | deno run --allow-ffi docs/fastest/2026-12-02/bigint.js
import { readDeclaration, readBuffer } from '../../../wc/deno-ffi-read.js'
const libc = Deno.dlopen('libc.so.6', { read: readDeclaration }).symbols
const address = Deno.UnsafePointer.of(readBuffer(256))
let n
for (let i = 0; i < 200000; i++) n = libc.read(0, address, 256n)
console.log(typeof n, n)
