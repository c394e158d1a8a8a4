'use strict'
// Node reading stdin through libuv's file path: fs.read, asynchronous, one block at a
// time, from the file's position, or with `positioned` at explicit offsets (a file only).
// For studies/node-libuv-uring.sh, which asks whether libuv takes io_uring for it.
//   node studies/node-fs-read.js [blocksize] [positioned]
const fs = require('node:fs')
const blocksize = parseInt(process.argv[2] || '65536', 10)
const positioned = process.argv[3] === 'positioned'
const buf = Buffer.allocUnsafe(blocksize)
let size = 0
let reads = 0
function next () {
  fs.read(0, buf, 0, blocksize, positioned ? size : null, (err, n) => {
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
