// node-sync: fs.readSync straight into one Buffer, the block size honoured.
// If stdin was left non-blocking by whoever opened it, readSync throws EAGAIN:
// wait a millisecond and retry rather than count that as an error.
const fs = require('node:fs')
const blocksize = parseInt(process.argv[2] || 65536, 10)
const buf = Buffer.allocUnsafe(blocksize)
const pause = new Int32Array(new SharedArrayBuffer(4))
let size = 0
let reads = 0

function readBlock () {
  for (;;) {
    try {
      return fs.readSync(0, buf, 0, blocksize, null)
    } catch (err) {
      if (err.code === 'EOF') return 0
      if (err.code !== 'EAGAIN') throw err
      Atomics.wait(pause, 0, 0, 1)
    }
  }
}

try {
  let n = readBlock()
  while (n > 0) {
    reads++
    size += n
    n = readBlock()
  }
} catch (err) {
  process.stderr.write(`read: ${err.message} (${-err.errno})\n`)
  process.exit(1)
}
console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
