'use strict'
// Node reading stdin through libuv's file path: fs.read, asynchronous, from the file's
// position, one block at a time. For studies/node-libuv-uring.sh, which asks whether
// libuv takes io_uring for it.
//   node studies/node-fs-read.js [blocksize]
const fs = require('node:fs')
const blocksize = parseInt(process.argv[2] || '65536', 10)
const buf = Buffer.allocUnsafe(blocksize)
let size = 0
let reads = 0
function next () {
  fs.read(0, buf, 0, blocksize, null, (err, n) => {
    if (err) {
      console.error(`read: ${err.message}`)
      process.exit(1)
    }
    if (n === 0) return console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
    size += n
    reads++
    next()
  })
}
next()
