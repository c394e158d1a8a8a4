// node-fs-binding: process.binding('fs').read, the binding that fs.readSync calls, without
// lib/fs.js's checks of its arguments; a C++ API callback either way, with no fast API
// call (src/node_file.cc). Position -1 reads from the current offset; a sixth argument
// would make it asynchronous. It throws on an error, as fs.readSync does.
/* eslint-disable n/no-deprecated-api */
const { read } = process.binding('fs')
const blocksize = parseInt(process.argv[2] || 65536, 10)
const buf = Buffer.allocUnsafeSlow(blocksize)

function count (fd) {
  let size = 0
  let reads = 0
  let n = read(fd, buf, 0, blocksize, -1)
  while (n > 0) {
    reads++
    size += n
    n = read(fd, buf, 0, blocksize, -1)
  }
  return { size, reads }
}

try {
  const { size, reads } = count(0)
  console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
} catch (err) {
  process.stderr.write(`read: ${err.message.replace(/^\w+: /, '').replace(/, read$/, '')} (${-err.errno})\n`)
  process.exit(1)
}
