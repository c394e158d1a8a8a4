// bun-stream: Bun's own stdin stream. Bun picks the chunk size, so the block size
// argument is only echoed; "reads" counts chunks.
const blocksize = parseInt(Bun.argv[2] || 65536, 10)
let size = 0
let reads = 0
try {
  for await (const chunk of Bun.stdin.stream()) {
    reads++
    size += chunk.byteLength
  }
} catch (err) {
  console.error(`read: ${err.message} (${-(err.errno ?? 0)})`)
  process.exit(1)
}
console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
