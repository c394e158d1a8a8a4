// node-stream: idiomatic process.stdin. Node picks the chunk size (64 KiB reads
// from libuv), so the block size argument is only echoed; "reads" counts chunks.
const { fstatSync } = require('node:fs')
const blocksize = parseInt(process.argv[2] || 65536, 10)

function fail (err) {
  process.stderr.write(`read: ${err.message} (${-err.errno})\n`)
  process.exit(1)
}

// Node hands a script an empty stream, not an error, for a stdin it cannot
// classify (a directory), so a directory must be caught before process.stdin.
if (fstatSync(0).isDirectory()) {
  fail(Object.assign(new Error('EISDIR: illegal operation on a directory'), { errno: -21 }))
}
let size = 0
let reads = 0
process.stdin.on('readable', () => {
  let chunk
  while ((chunk = process.stdin.read()) !== null) {
    reads++
    size += chunk.length
  }
})
process.stdin.on('end', () => {
  console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
})
process.stdin.on('error', fail)
