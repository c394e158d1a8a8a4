// node-bindings: Node's internal libuv pipe, below the streams layer (as the study did).
// libuv allocates each chunk (64 KiB), so the block size is only echoed.
// onread gets no buffer at EOF and on error; which one it was is in streamBaseState.
// It gets the chunk libuv allocated, which a short read does not fill (Node 26 hands over
// the whole allocation): the bytes read are streamBaseState's too, as Node's own
// onStreamRead takes them (lib/internal/stream_base_commons.js).
/* eslint-disable n/no-deprecated-api -- process.binding is the layer this reader measures */
const { Pipe } = process.binding('pipe_wrap')
const { streamBaseState, kReadBytesOrError } = process.binding('stream_wrap')
const { UV_EOF } = process.binding('uv')
const { getSystemErrorMap } = require('node:util')
const { fstatSync } = require('node:fs')
const { errno } = require('node:os').constants
const blocksize = parseInt(process.argv[2] || 65536, 10)
let size = 0
let reads = 0

function fail (err) {
  const [, message] = getSystemErrorMap().get(err) || ['', 'unknown error']
  process.stderr.write(`read: ${message} (${-err})\n`)
  process.exit(1)
}

// libuv aborts the whole process when epoll refuses the fd, which it does for a
// directory or a regular file: only a pipe or a socket gets as far as the Pipe.
const stat = fstatSync(0)
if (stat.isDirectory()) fail(-errno.EISDIR)
if (!stat.isFIFO() && !stat.isSocket()) fail(-errno.EPERM)

const stdin = new Pipe(0)
const opened = stdin.open(0)
if (opened < 0) fail(opened)
stdin.onread = buf => {
  if (buf) {
    reads++
    size += streamBaseState[kReadBytesOrError]
    return
  }
  const result = streamBaseState[kReadBytesOrError]
  stdin.close()
  if (result !== UV_EOF) fail(result)
  console.log(`size ${size} reads ${reads} blocksize ${blocksize}`)
}
const started = stdin.readStart()
if (started < 0) fail(started)
