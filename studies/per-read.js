'use strict'
// What the per-read tools share (studies/file-cost.js, studies/instr-cost.js, and the block
// sizes of studies/paired-cost.js): which readers, at which block sizes, compared with C,
// and their table. Option errors are plain Errors whose message names the fix; each
// tool prints it on one line with its usage, exit 2.
const { findProgram, unavailableReason, BASELINE } = require('../lib/programs')
const { parseBlockSize } = require('../lib/blocksize')

// C is the yardstick: always measured, once, first. Every reader must read blocks of
// the size asked for, or it has no cost per read of that size.
function readersAgainstC (names) {
  const unique = [BASELINE, ...new Set(names)].filter((name, index) => name !== BASELINE || index === 0)
  return unique.map(name => {
    const program = findProgram(name)
    if (!program) throw new Error(`no program '${name}': see node bench.js --list for the names`)
    if (!program.honoursBlockSize) throw new Error(`${name} reads in chunks of its own size, so it has no cost per read of a given size: leave it out`)
    const reason = unavailableReason(program)
    if (reason) throw new Error(`${name} cannot run here: ${reason}`)
    return program
  })
}

function blockSizes (text) {
  return text.split(',').map(parseBlockSize)
}

// A row per reader and block size, C's row first at each size. cost(row) is the figure;
// versus(row, c) what the row adds to C's, left blank on C's own row.
function printAgainstC (rows, { heading, cost, versus }) {
  console.log(heading)
  for (const row of rows) {
    const c = rows.find(other => other.program === BASELINE && other.blockSize === row.blockSize)
    console.log(`${row.program.padEnd(14)} ${String(row.blockSize).padStart(5)}  ${cost(row)} ${row === c ? '' : versus(row, c)}`.trimEnd())
  }
}

const signed = (value, digits = 1) => `${value < 0 ? '' : '+'}${value.toFixed(digits)}`

module.exports = { readersAgainstC, blockSizes, printAgainstC, signed }
