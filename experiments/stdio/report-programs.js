'use strict'
// What the report needs to know about a program beyond its results: its runtime and
// whether it honours the block size. A run records the table as it was (context.programs);
// runs made before it did fall back on the lab's current table, and a name neither knows
// is still reported, just without a runtime.
const { runtimes } = require('../../lib/runtimes')
const { findProgram, BASELINE } = require('./programs')

function programInfo (name, context) {
  const program = context?.programs?.find(row => row.name === name) ?? findProgram(name)
  const runtimeName = program?.runtime ?? null
  const runtimeLabel = runtimeName ? (context?.runtimes?.[runtimeName]?.label ?? runtimes[runtimeName]?.label ?? runtimeName) : null
  return {
    name,
    runtime: runtimeName,
    runtimeLabel,
    honoursBlockSize: program ? program.honoursBlockSize : null,
    // runs from before the table said so: today's row
    ring: (program?.ring ?? findProgram(name)?.ring) === true,
    ringWindow: program?.ringWindow ?? null,
    // a WASI row is WebAssembly whichever runtime hosts it: never a JavaScript reader
    wasi: (program?.wasi ?? findProgram(name)?.wasi) === true,
    hostChunks: program?.hostChunks ?? findProgram(name)?.hostChunks ?? null,
    javascript: runtimeName !== null && ['v8', 'jsc'].includes(runtimes[runtimeName]?.engine) &&
      (program?.wasi ?? findProgram(name)?.wasi) !== true,
    note: program?.note ?? null
  }
}

// Programs in the order bench.js measured them, which is the table's order.
function programsOf (set) {
  return [...new Set(set.results.cells.map(cell => cell.program))]
}

module.exports = { BASELINE, programInfo, programsOf }
