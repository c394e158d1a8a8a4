'use strict'
// Six connections to a server on 127.0.0.1, reset by the client as the lab's check resets
// them (three with half a request sent, three after a whole one).
//   node docs/http/2026-12-03/reset.js PORT
const net = require('node:net')
const port = Number(process.argv[2])
let left = 6
for (let i = 0; i < 6; i++) {
  const socket = net.connect(port, '127.0.0.1', () => {
    socket.write(i < 3 ? 'GET / HTTP/1.1\r\nHost: x\r\n' : 'GET / HTTP/1.1\r\nHost: x\r\n\r\n')
    setTimeout(() => {
      socket.resetAndDestroy()
      if (--left === 0) setTimeout(() => process.exit(0), 100)
    }, 50)
  })
  socket.on('error', () => {})
}
