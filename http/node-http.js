// Node's idiomatic server: http.createServer, the same 13 bytes for every request.
// Usage: node http/node-http.js PORT; prints "listening 127.0.0.1:PORT".
const http = require('node:http')
const port = Number(process.argv[2])
const body = Buffer.from('Hello, World!')
const server = http.createServer((request, response) => {
  response.writeHead(200, { 'Content-Length': body.length })
  response.end(body)
})
server.listen(port, '127.0.0.1', () => console.log(`listening 127.0.0.1:${port}`))
process.on('SIGTERM', () => process.exit(0))
