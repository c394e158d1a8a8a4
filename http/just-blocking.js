// The classic listing on the lab's V8 host: accept a connection, read its request, send
// the answer, close; one connection at a time and one request each, so it says
// Connection: close (http/c-blocking.c, call for call).
// Usage: just-host http/just-blocking.js PORT; prints "listening 127.0.0.1:PORT".
const { print, error, exit, args, sys, net } = just
const { socket, setsockopt, bind, listen, accept4, read, write, close } = net
const { AF_INET, SOCK_STREAM, SOL_SOCKET, SO_REUSEADDR } = net

const port = Number(args[2])
const answer = bytesOf('HTTP/1.1 200 OK\r\nContent-Length: 13\r\nConnection: close\r\n\r\nHello, World!')
const request = new ArrayBuffer(4096)
const requestBytes = new Uint8Array(request)

// V8 alone has no TextEncoder; the answer is ASCII.
function bytesOf (text) {
  const bytes = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
  return bytes.buffer
}

// Whether bytes[0, end) hold "\r\n\r\n", the end of a GET's request.
function headersEnd (bytes, end) {
  for (let i = 3; i < end; i++) {
    if (bytes[i] === 10 && bytes[i - 1] === 13 && bytes[i - 2] === 10 && bytes[i - 3] === 13) return true
  }
  return false
}

const listener = socket(AF_INET, SOCK_STREAM, 0)
setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, 1)
if (listener < 0 || bind(listener, '127.0.0.1', port) < 0 || listen(listener, 1024) < 0) {
  error(`just-blocking: cannot listen on 127.0.0.1:${port}: ${sys.strerror(sys.errno())}`)
  exit(1)
}
sys.exitOnSigterm()
print(`listening 127.0.0.1:${port}`)
while (true) {
  const client = accept4(listener, 0)
  if (client < 0) continue
  let got = 0
  let n
  while (got < request.byteLength && (n = read(client, request, got, request.byteLength - got)) > 0) {
    got += n
    if (headersEnd(requestBytes, got)) {
      write(client, answer)
      break
    }
  }
  close(client)
}
