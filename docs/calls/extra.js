'use strict'
// The loop-in-a-function readers of docs/calls.md, for LAB_EXTRA_PROGRAMS.
module.exports = [
  { name: 'bun-ffi-fn', runtime: 'bun', file: 'docs/calls/bun-ffi-fn.js', command: ['{runtime}', '{file}', '{bs}'], honoursBlockSize: true, note: 'bun-ffi, loop in a function' },
  { name: 'deno-ffi-fn', runtime: 'deno', file: 'docs/calls/deno-ffi-fn.js', command: ['{runtime}', 'run', '--allow-ffi', '{v8flags}', '{file}', '{bs}'], honoursBlockSize: true, note: 'deno-ffi, loop in a function' }
]

if (require.main === module) {
  require('../../lib/cli').notACommand('extra.js', 'it is a table of extra rows for bench.js; run ' +
    'LAB_EXTRA_PROGRAMS=docs/calls/extra.js node bench.js --only bun-ffi-fn --only deno-ffi-fn ...')
}
