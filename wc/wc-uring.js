// just-uring: wc-fast.js's loop through io_uring. The ring is set up once; each read is
// uring.read(ring, fd, address, len), a V8 fast API call that prepares one
// IORING_OP_READ, hands it over and waits for it in one io_uring_enter, and reaps its
// completion: one crossing a read, as net.readRaw is, so this and just-fast differ by the
// ring against read(2). just-host only, built with liburing.
const { print, error, exit, sys, uring } = just
if (typeof uring?.read !== 'function' || typeof sys.address !== 'function') {
  error('wc-uring.js: this host has no just.uring (only the lab\'s build/just-host built with liburing has it)')
  exit(2)
}

function count (ring, fd, address, blocksize) {
  const { read } = uring
  let size = 0
  let reads = 0
  let n = read(ring, fd, address, blocksize)
  while (n > 0) {
    reads++
    size += n
    n = read(ring, fd, address, blocksize)
  }
  return { size, reads, n }
}

function fail (call) {
  error(`${call}: ${sys.strerror(sys.errno())} (${sys.errno()})`)
  exit(1)
}

const blocksize = parseInt(just.args[2] || 65536, 10)
// a closed stdin would become the ring's own descriptor, and be read as one
if (sys.fcntl(sys.STDIN_FILENO, sys.F_GETFD) < 0) fail('read')
const ring = uring.setup(1)
if (ring < 0) fail('io_uring_setup')
// at the top level, so that buf outlives every read of its address (wc-fast.js says why)
const buf = new ArrayBuffer(blocksize)
const { size, reads, n } = count(ring, sys.STDIN_FILENO, sys.address(buf), blocksize)
if (n < 0) fail('read')
print(`size ${size} reads ${reads} blocksize ${blocksize}`)
