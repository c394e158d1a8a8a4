// The strided variant tried beside studies/disturb.js's memcpy streamer (2026-11-28): one
// increment a cache line over a buffer of `bytes`, so that every line is read and written
// through the caches (a large memcpy may store around them). Run as
//   chrt --idle 0 taskset -c CPU node docs/reproducibility/2026-11-28/stride.js BYTES
const { runScript, wholeArgument, UsageError } = require('../../script-args')

// Checked before the loop, which never ends: the study stops it.
function main ([text]) {
  const bytes = Number(text)
  let lines
  try {
    lines = new Uint8Array(bytes)
  } catch (err) {
    throw new UsageError(`BYTES ${bytes}: ${err.message}; give fewer`)
  }
  lines.fill(1)
  for (;;) {
    for (let i = 0; i < bytes; i += 64) lines[i]++
  }
}

runScript(module, { args: [1, 1], each: [text => wholeArgument(text, 'BYTES')], run: main })
