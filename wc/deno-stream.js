// deno-stream: idiomatic Deno, Deno.stdin.readable, a web ReadableStream of Uint8Arrays.
// Deno picks the chunk size, so the block size argument is only echoed; "reads" counts chunks.
const blocksize = parseInt(Deno.args[0] || 65536, 10)
let size = 0
let reads = 0
try {
  for await (const chunk of Deno.stdin.readable) {
    reads++
    size += chunk.byteLength
  }
} catch (err) {
  const errno = /os error (\d+)/.exec(err.message)?.[1] ?? 0
  console.error(`read: ${err.message.replace(/ \(os error \d+\)/, '')} (${errno})`)
  Deno.exit(1)
}
console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
