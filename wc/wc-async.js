// just-async: stdin made non-blocking, read from an epoll callback. Level-triggered
// reads once per wake-up; with "et" as the second argument it is edge-triggered and
// must drain the pipe until EAGAIN, or epoll never wakes it again.
const { print, error, exit, sys, net } = just
const { read, O_NONBLOCK } = net
const { strerror, errno, fcntl, F_GETFL, F_SETFL, STDIN_FILENO } = sys
const { EPOLLIN, EPOLLET } = just.loop
const { loop } = just.factory
const EAGAIN = 11
const blocksize = parseInt(just.args[2] || 65536, 10)
const edgeTriggered = just.args[3] === 'et'
const buf = new ArrayBuffer(blocksize)
let size = 0
let reads = 0

function onReadable (fd) {
  let n = read(fd, buf, 0, blocksize)
  while (n > 0) {
    reads++
    size += n
    if (!edgeTriggered) return
    n = read(fd, buf, 0, blocksize)
  }
  if (n < 0 && errno() === EAGAIN) return
  loop.remove(fd)
  if (n < 0) {
    error(`read: ${strerror(errno())} (${errno()})`)
    exit(1)
  }
  print(`size ${size} reads ${reads} blocksize ${blocksize}`)
}

fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL, 0) | O_NONBLOCK)
if (loop.add(STDIN_FILENO, onReadable, edgeTriggered ? EPOLLIN | EPOLLET : EPOLLIN) < 0) {
  error(`read: ${strerror(errno())} (${errno()})`)
  exit(1)
}
