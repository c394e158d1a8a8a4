// just-fast: wc.js in the fastest form the lab's host offers. The buffer's address
// is taken once (sys.address) and every read is net.readRaw(fd, address, len): a V8
// fast API call that is read(2) and little else, nothing to look up or check per
// call. The loop is in a function because a classic script's top-level let/const
// live in V8's script context, not in registers: there every turn of the loop loads
// and stores them, checks their tags and a write barrier, ~33 more instructions per
// read (host/README.md). just-host only: real just(js) has neither binding.
const { print, error, exit, sys, net } = just
if (typeof net.readRaw !== 'function' || typeof sys.address !== 'function') {
  error('wc-fast.js: this host has no just.net.readRaw/just.sys.address (only the lab\'s build/just-host has them)')
  exit(2)
}

function count (fd, address, blocksize) {
  const { readRaw } = net
  let size = 0
  let reads = 0
  let n = readRaw(fd, address, blocksize)
  while (n > 0) {
    reads++
    size += n
    n = readRaw(fd, address, blocksize)
  }
  return { size, reads, n }
}

const blocksize = parseInt(just.args[2] || 65536, 10)
// At the top level, so the script context holds it for as long as the script runs: the
// address is only valid while buf lives, and a local that nothing reads after taking its
// address is one optimised code need not keep alive for the collector.
const buf = new ArrayBuffer(blocksize)
const { size, reads, n } = count(sys.STDIN_FILENO, sys.address(buf), blocksize)
if (n < 0) {
  error(`read: ${sys.strerror(sys.errno())} (${sys.errno()})`)
  exit(1)
}
print(`size ${size} reads ${reads} blocksize ${blocksize}`)
