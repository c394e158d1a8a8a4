// Bun's idiomatic server: Bun.serve, the same 13 bytes for every request.
// Usage: bun http/bun.js PORT; prints "listening 127.0.0.1:PORT".
const port = Number(Bun.argv[2])
Bun.serve({ hostname: '127.0.0.1', port, fetch: () => new Response('Hello, World!') })
console.log(`listening 127.0.0.1:${port}`)
process.on('SIGTERM', () => process.exit(0))
