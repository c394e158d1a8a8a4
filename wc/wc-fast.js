// just-fast: wc.js in the fastest call shape the lab's host offers. The buffer's
// address is taken once (sys.address) and every read is net.readRaw(fd, address,
// len): a V8 fast API call that is read(2) and little else, nothing to look up or
// check per call. just-host only: real just(js) has neither binding.
const { print, error, exit, sys, net } = just
if (typeof net.readRaw !== 'function' || typeof sys.address !== 'function') {
  error('wc-fast.js: this host has no just.net.readRaw/just.sys.address (only the lab\'s build/just-host has them)')
  exit(2)
}
const { readRaw } = net
const { strerror, errno, STDIN_FILENO } = sys
const blocksize = parseInt(just.args[2] || 65536, 10)
const buf = new ArrayBuffer(blocksize) // stays referenced: the address is only valid while buf lives
const address = sys.address(buf)
let size = 0
let reads = 0
let n = readRaw(STDIN_FILENO, address, blocksize)
while (n > 0) {
  reads++
  size += n
  n = readRaw(STDIN_FILENO, address, blocksize)
}
if (n < 0) {
  error(`read: ${strerror(errno())} (${errno()})`)
  exit(1)
}
print(`size ${size} reads ${reads} blocksize ${blocksize}`)
