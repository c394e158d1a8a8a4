'use strict'
// Where a reader's failure will come again, so that bench.js does not run the steps there
// but logs them failed, with the reason (lib/measure-steps.js): a step that would fail as
// its reader failed before costs nothing, and its cell is still counted failed.
const { PHASES } = require('./phases')
const { cellKey } = require('./plan')
const { isTimeout } = require('./measure')

// The passes that run the reader as its row's command line has it, with nothing around it:
// strace, the kernel pass's probes, --trace-gc and the fast-path check's tracing flags
// slow a reader, and can stop one that runs fine without them.
const BARE_PASSES = new Set([
  PHASES.startup, PHASES.timing, PHASES.timingQuarter, PHASES.cost, PHASES.kernelUntraced
])

// A reader at a block size, whatever the pass.
const readerKey = step => `${step.program.name ?? step.program}\t${step.blockSize}`

// The places a step (or a record) is at: its reader at its block size, then its cell.
function keys (step) {
  return [readerKey(step), cellKey(step)]
}

// Those of a failed record's places where its failure will come again, each with the
// reason a step not run there is logged with.
// At its cell, any failure: the same command on the same bytes hangs, crashes or miscounts
// again (every step of a cell runs alike).
// At its reader and block size, in every later pass, a hang of a bare pass: a run that
// reached --timeout (120 s by default, far beyond the seconds a run is planned to take) is
// stuck, not slow, and stuck it is in every pass, which reads the same blocks; and each
// such run costs a whole timeout. A crash or a wrong answer is
// not carried across passes: each costs one run's time, a pass changes the bytes read
// (start-up reads none) and what runs around the reader, and a crash may be the machine's
// (the OOM killer, for another process's memory), so carrying it could drop cells that
// measure. A hang under a tracer (above) may be the tracer's, and stays in its cell.
function at (record) {
  const cell = { key: cellKey(record), reason: record.failure }
  if (!isTimeout(record.failure) || !BARE_PASSES.has(record.phase)) return [cell]
  const hung = `hung at ${record.blockSize} B in the ${record.phase} pass: not run again`
  return [{ key: readerKey(record), reason: hung }, cell]
}

module.exports = { recurring: { keys, at } }
