'use strict'
// Node reading stdin through libuv's file path: fs.read, asynchronous, one block at a
// time, from the file's position, or with `positioned` at explicit offsets (a file only).
// For studies/node-libuv-uring.sh, which asks whether libuv takes io_uring for it.
//   node studies/node-fs-read.js [BLOCKSIZE] [positioned]
const fs = require('node:fs')

// It is run by each measured Node, bare: its arguments checked by hand, as lib/cli.js would.
const USAGE = 'usage: node studies/node-fs-read.js [BLOCKSIZE] [positioned]\n' +
  '  Reads stdin with fs.read, BLOCKSIZE bytes at a time (default 65536), from the file\'s\n' +
  '  position, or with positioned at explicit offsets; prints the bytes and reads.'
const args = process.argv.slice(2)
if (args[0] === '--help') {
  console.log(USAGE)
  process.exit(0)
}
const blocksize = Number(args[0] ?? 65536)
// the first argument it cannot take, named in the one line
const wrong = !/^\d+$/.test(args[0] ?? '1') || !(blocksize >= 1 && blocksize <= 2 ** 30)
  ? `BLOCKSIZE '${args[0]}'`
  : !['positioned', undefined].includes(args[1]) ? `'${args[1]}'` : args.length > 2 ? `'${args[2]}'` : null
if (wrong) {
  console.error(`node-fs-read.js: ${wrong} is not what it takes: give BLOCKSIZE as bytes from 1 to ` +
    `2**30, then positioned or nothing (${USAGE.split('\n')[0]})`)
  process.exit(2)
}
const positioned = args[1] === 'positioned'
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
