// The strided variant tried beside studies/disturb.js's memcpy streamer (2026-11-28): one
// increment a cache line over a buffer of `bytes`, so that every line is read and written
// through the caches (a large memcpy may store around them). Run as
//   chrt --idle 0 taskset -c CPU node docs/reproducibility/2026-11-28/stride.js BYTES
const bytes = Number(process.argv[2])
const lines = new Uint8Array(bytes)
lines.fill(1)
for (;;) {
  for (let i = 0; i < bytes; i += 64) lines[i]++
}
