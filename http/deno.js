// Deno's idiomatic server: Deno.serve, the same 13 bytes for every request.
// Usage: deno run --allow-net http/deno.js PORT; prints "listening 127.0.0.1:PORT".
const port = Number(Deno.args[0])
Deno.serve({ hostname: '127.0.0.1', port, onListen: () => console.log(`listening 127.0.0.1:${port}`) }, () => new Response('Hello, World!'))
Deno.addSignalListener('SIGTERM', () => Deno.exit(0))
