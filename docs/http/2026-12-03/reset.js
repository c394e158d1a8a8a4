'use strict'
// Six connections to a server on 127.0.0.1, reset by the client as the lab's check resets
// them (three with half a request sent, three after a whole one).
//   node docs/http/2026-12-03/reset.js PORT
const net = require('node:net')
const { runScript, UsageError } = require('../../script-args')
const { RunFailed } = require('../../../lib/cli')

const port = text => {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 65535) {
    throw new UsageError(`PORT must be a TCP port from 1 to 65535, not '${text}'`)
  }
  return Number(text)
}

// Resolves once all six are reset; a connection that fails first (nothing listens on PORT)
// ends the script with that failure, as no reset was made.
function resetSix ([text]) {
  const one = i => new Promise((resolve, reject) => {
    const socket = net.connect(port(text), '127.0.0.1', () => {
      socket.write(i < 3 ? 'GET / HTTP/1.1\r\nHost: x\r\n' : 'GET / HTTP/1.1\r\nHost: x\r\n\r\n')
      setTimeout(() => {
        socket.resetAndDestroy()
        resolve()
      }, 50)
    })
    socket.on('error', err => reject(new RunFailed(`cannot connect to 127.0.0.1:${text} ` +
      `(${err.code ?? err.message}); start the server on that port first`)))
  })
  // the last resets reach the server before the script ends
  return Promise.all([0, 1, 2, 3, 4, 5].map(one)).then(() => new Promise(resolve => setTimeout(resolve, 100)))
}

runScript(module, { args: [1, 1], check: ([text]) => port(text), run: resetSix })
