// deno-sync: Deno.stdin.readSync into one buffer of the block size; null means EOF.
const blocksize = parseInt(Deno.args[0] || 65536, 10)
const buf = new Uint8Array(blocksize)
let size = 0
let reads = 0
try {
  let n = Deno.stdin.readSync(buf)
  while (n !== null) {
    reads++
    size += n
    n = Deno.stdin.readSync(buf)
  }
} catch (err) {
  const errno = /os error (\d+)/.exec(err.message)?.[1] ?? 0
  console.error(`read: ${err.message.replace(/ \(os error \d+\)/, '')} (${errno})`)
  Deno.exit(1)
}
console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
