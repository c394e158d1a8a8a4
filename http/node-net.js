// Node without its HTTP layer: net sockets, each complete request (its header block;
// a GET has no body) answered with the same bytes; a request asking for Connection: close
// gets an answer saying so, and the connection closes.
// Usage: node http/node-net.js PORT; prints "listening 127.0.0.1:PORT".
const net = require('node:net')
const port = Number(process.argv[2])
const answer = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHello, World!')
const closingAnswer = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 13\r\nConnection: close\r\n\r\nHello, World!')
const server = net.createServer(socket => {
  let pending = ''
  socket.on('data', chunk => {
    pending += chunk.latin1Slice()
    let end
    while ((end = pending.indexOf('\r\n\r\n')) >= 0) {
      const head = pending.slice(0, end)
      pending = pending.slice(end + 4)
      if (/\r\nconnection: *close/i.test(head)) {
        socket.end(closingAnswer)
        return
      }
      socket.write(answer)
    }
  })
  socket.on('error', () => socket.destroy())
})
server.listen(port, '127.0.0.1', () => console.log(`listening 127.0.0.1:${port}`))
process.on('SIGTERM', () => process.exit(0))
