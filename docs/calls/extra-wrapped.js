'use strict'
// wc/wc.js in a function, for LAB_EXTRA_PROGRAMS (docs/calls.md, "What is left").
module.exports = [
  { name: 'just-sync-wrapped', runtime: 'just', file: 'docs/calls/wc-in-a-function.js', command: ['{runtime}', '{v8flags}', '{file}', '{bs}'], honoursBlockSize: true, note: 'wc.js in a function' }
]

if (require.main === module) {
  require('../../lib/cli').notACommand('extra-wrapped.js', 'it is a table of extra rows for bench.js; run ' +
    'LAB_EXTRA_PROGRAMS=docs/calls/extra-wrapped.js node bench.js --only just-sync-wrapped ...')
}
