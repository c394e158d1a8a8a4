// wc/wc.js as the body of a function (docs/calls.md, "What is left"): its top-level
// let and const become the function's locals instead of the script context's slots.
// Run by Node, not the host: one line that says what runs it (lib/cli.js notACommand).
if (typeof just === 'undefined') {
  require('../../lib/cli').notACommand('wc-in-a-function.js', 'it is a reader bench.js runs in the lab\'s V8 host, a row of ' +
    'docs/calls/extra-wrapped.js; run LAB_EXTRA_PROGRAMS=docs/calls/extra-wrapped.js node bench.js --only just-sync-wrapped ... ' +
    '(by hand: build/just-host docs/calls/wc-in-a-function.js BLOCKSIZE < FILE)')
  process.exit()
}
(function () {
// just-sync: the study's listing. Blocking read(2) on stdin into one ArrayBuffer.
// read() gets all four arguments: just(js) 0.1.x reads 0 bytes when given only (fd, buf).
  const { print, error, exit, sys, net } = just
  const { read } = net
  const { strerror, errno, STDIN_FILENO } = sys
  const blocksize = parseInt(just.args[2] || 65536, 10)
  const buf = new ArrayBuffer(blocksize)
  let size = 0
  let reads = 0
  let n = read(STDIN_FILENO, buf, 0, blocksize)
  while (n > 0) {
    reads++
    size += n
    n = read(STDIN_FILENO, buf, 0, blocksize)
  }
  if (n < 0) {
    error(`read: ${strerror(errno())} (${errno()})`)
    exit(1)
  }
  print(`size ${size} reads ${reads} blocksize ${blocksize}`)
})()
