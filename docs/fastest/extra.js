'use strict'
// The other forms of docs/programs.md's "Each runtime's fastest form", for LAB_EXTRA_PROGRAMS:
// the fastest rows as they were before, and with their loops at the top level.
const row = (name, runtime, file, command, note) => ({ name, runtime, file: `docs/fastest/${file}`, command, honoursBlockSize: true, note })
const DENO = ['{runtime}', 'run', '--allow-ffi', '{v8flags}', '{file}', '{bs}']
module.exports = [
  row('bun-ffi-before', 'bun', 'bun-ffi-before.js', ['{runtime}', '{file}', '{bs}'], 'bun-ffi as it was before'),
  row('deno-ffi-before', 'deno', 'deno-ffi-before.js', DENO, 'deno-ffi as it was before: a Number length'),
  row('deno-ffi-top', 'deno', 'deno-ffi-top.js', DENO, 'deno-ffi\'s fast form, the loop at the top level'),
  row('bun-ffi-top', 'bun', 'bun-ffi-top.js', ['{runtime}', '{file}', '{bs}'], 'bun-ffi\'s form, the loop at the top level')
]

if (require.main === module) {
  require('../../lib/cli').notACommand('extra.js', 'it is a table of extra rows for bench.js; run ' +
    'LAB_EXTRA_PROGRAMS=docs/fastest/extra.js node bench.js --only \'*-before\' --only \'*-top\' ...')
}
