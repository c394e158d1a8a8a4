'use strict'
// wc/wc.js in a function, for LAB_EXTRA_PROGRAMS (docs/calls.md, "What is left").
module.exports = [
  { name: 'just-sync-wrapped', runtime: 'just', file: 'docs/calls/wc-in-a-function.js', command: ['{runtime}', '{v8flags}', '{file}', '{bs}'], honoursBlockSize: true, note: 'wc.js in a function' }
]
