// http/c-epoll.c on the lab's V8 host, call for call: one thread, the host's epoll loop
// (just.factory.loop, level-triggered), keep-alive. Each readable connection's complete
// requests are answered in one write; a request asking for Connection: close gets an
// answer saying so, then the connection closes.
// Usage: just-host http/just-epoll.js PORT; prints "listening 127.0.0.1:PORT".
const { print, error, exit, args, sys, net } = just
const { socket, setsockopt, bind, listen, accept4, read, write, close } = net
const { AF_INET, SOCK_STREAM, SOCK_NONBLOCK, SOCK_CLOEXEC, SOL_SOCKET, SO_REUSEADDR, EAGAIN } = net
const { loop } = just.factory
const { EPOLLIN } = just.loop

const REQUEST_BYTES = 4096
const MAX_ANSWERS = 16
const port = Number(args[2])
const answer = bytesOf('HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHello, World!')
const closingAnswer = bytesOf('HTTP/1.1 200 OK\r\nContent-Length: 13\r\nConnection: close\r\n\r\nHello, World!')
const CLOSE_HEADER = bytesOf('\r\nconnection: close')
const out = new ArrayBuffer(MAX_ANSWERS * closingAnswer.length)
const outBytes = new Uint8Array(out)
// What each connection has read of requests not yet answered, by fd.
const pending = []

// V8 alone has no TextEncoder; these are ASCII.
function bytesOf (text) {
  const bytes = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
  return bytes
}

// The index of the first "\r\n\r\n" in bytes[from, end), or -1.
function headersEnd (bytes, from, end) {
  for (let i = from + 3; i < end; i++) {
    if (bytes[i] === 10 && bytes[i - 1] === 13 && bytes[i - 2] === 10 && bytes[i - 3] === 13) return i - 3
  }
  return -1
}

// Whether bytes[from, end) hold "\r\nconnection: close" in any case (strcasestr).
function asksToClose (bytes, from, end) {
  const last = end - CLOSE_HEADER.length
  // a label is the plain form of strcasestr's two loops; a helper call per byte would cost more
  // eslint-disable-next-line no-labels
  outer: for (let i = from; i <= last; i++) {
    for (let j = 0; j < CLOSE_HEADER.length; j++) {
      const byte = bytes[i + j]
      if (byte !== CLOSE_HEADER[j] && (byte | 0x20) !== CLOSE_HEADER[j]) continue outer // eslint-disable-line no-labels
    }
    return true
  }
  return false
}

// close(2) takes the fd out of the epoll set (no loop.remove: that is one epoll_ctl
// more, which c-epoll does not make); the loop's callback for the fd is replaced when
// the kernel hands the number out again.
function drop (fd) {
  close(fd)
  pending[fd] = null
}

function onReadable (fd) {
  const connection = pending[fd]
  const bytes = connection.bytes
  for (;;) {
    const room = REQUEST_BYTES - 1 - connection.used
    const n = read(fd, connection.buffer, connection.used, room)
    if (n === 0 || (n < 0 && sys.errno() !== EAGAIN)) return drop(fd)
    if (n < 0) return
    const end = connection.used + n
    let start = 0
    let size = 0
    let answers = 0
    let closing = false
    let at
    while (!closing && (at = headersEnd(bytes, start, end)) >= 0) {
      closing = asksToClose(bytes, start, at)
      if (answers++ === MAX_ANSWERS) return drop(fd)
      const reply = closing ? closingAnswer : answer
      outBytes.set(reply, size)
      size += reply.length
      start = at + 4
    }
    bytes.copyWithin(0, start, end)
    connection.used = end - start
    if (answers && write(fd, out, 0, size) !== size) return drop(fd)
    if (closing || connection.used === REQUEST_BYTES - 1) return drop(fd)
    // a read that did not fill its room emptied the socket (as in c-epoll.c)
    if (n < room) return
  }
}

function onConnection () {
  let fd
  while ((fd = accept4(listener, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
    const buffer = new ArrayBuffer(REQUEST_BYTES)
    pending[fd] = { buffer, bytes: new Uint8Array(buffer), used: 0 }
    loop.add(fd, onReadable, EPOLLIN)
  }
}

const listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0)
setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, 1)
if (listener < 0 || bind(listener, '127.0.0.1', port) < 0 || listen(listener, 1024) < 0 || loop.add(listener, onConnection, EPOLLIN) < 0) {
  error(`just-epoll: cannot listen on 127.0.0.1:${port}: ${sys.strerror(sys.errno())}`)
  exit(1)
}
sys.exitOnSigterm()
print(`listening 127.0.0.1:${port}`)
