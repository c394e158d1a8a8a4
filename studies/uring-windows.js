'use strict'
// c-uring's window mode (wc/uring.c) at windows of 4 to 64 KiB, as extra rows for the
// stdio bench, to choose c-uring-window's window (docs/io_uring.md):
//   LAB_EXTRA_PROGRAMS=studies/uring-windows.js node bench.js --only c --only c-uring-fixed \
//     --only 'study-uring-window-*' --sizes 256,4096,65536 --runs 1 --warmup 0 --no-strace --no-gc
module.exports = [4, 8, 16, 32, 64].map(kib => ({
  name: `study-uring-window-${kib}k`,
  runtime: 'native',
  file: 'wc/uring.c',
  command: ['{build}/wc-uring', '{bs}', 'window', String(kib * 1024)],
  honoursBlockSize: true,
  ring: true,
  ringWindow: kib * 1024,
  note: `c-uring-fixed with ${kib} KiB of reads in flight`
}))

if (require.main === module) {
  require('../lib/cli').notACommand('uring-windows.js', 'it is a table of extra rows for bench.js; run ' +
    'LAB_EXTRA_PROGRAMS=studies/uring-windows.js node bench.js --only \'study-uring-window-*\' ...')
}
