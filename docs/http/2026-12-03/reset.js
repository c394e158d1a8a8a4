'use strict'
// Six connections to a server on 127.0.0.1, reset by the client as the lab's check resets
// them (three with half a request sent, three after a whole one).
//   node docs/http/2026-12-03/reset.js PORT
const net = require('node:net')
const { runScript, UsageError } = require('../../script-args')

const port = text => {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 65535) {
    throw new UsageError(`PORT must be a TCP port from 1 to 65535, not '${text}'`)
  }
  return Number(text)
}

function resetSix ([text]) {
  let left = 6
  for (let i = 0; i < 6; i++) {
    const socket = net.connect(port(text), '127.0.0.1', () => {
      socket.write(i < 3 ? 'GET / HTTP/1.1\r\nHost: x\r\n' : 'GET / HTTP/1.1\r\nHost: x\r\n\r\n')
      setTimeout(() => {
        socket.resetAndDestroy()
        if (--left === 0) setTimeout(() => process.exit(0), 100)
      }, 50)
    })
    socket.on('error', () => {})
  }
}

runScript(module, { args: [1, 1], check: ([text]) => port(text), run: resetSix })
