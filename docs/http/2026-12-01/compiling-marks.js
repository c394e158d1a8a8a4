'use strict'
// The timed runs of a log of 2026-12-01 marked as the lab marks them since (experiments/http/
// measure.js compilesRecord: `compiling`), for the replays beside it (jit-replay.js, and
// db's drop-compiling.js). The lab adds every run's compiles to its process's count as the run
// ends, superseded tries and the kernel pass's runs alike, so the replay goes through the log in
// its order, every record with compiles, by process: its server, mode or endpoint, process
// number, and its warm-up (a process started again warms up afresh).
const { compilesRecord } = require('../../../experiments/http/measure')

const processKey = record => JSON.stringify([record.program, record.mode, record.endpoint,
  record.process ?? 0, record.warmupCompiles])

// `records` with `compiling` set on each that counted compiles (copies; the others as they are).
function markCompiling (records) {
  const servers = new Map()
  return records.map(record => {
    if (!Array.isArray(record.warmupCompiles) || !Number.isFinite(record.compiles)) return record
    const key = processKey(record)
    if (!servers.has(key)) {
      servers.set(key, { trace: { compiles: true }, warmupCompiles: record.warmupCompiles })
    }
    return { ...record, compiling: compilesRecord(servers.get(key), record.compiles).compiling }
  })
}

// a module the replays require, no command of its own: run, it says which to run
if (require.main === module) {
  require('../../../lib/cli').notACommand('compiling-marks.js', 'it marks the timed runs for the ' +
    'replays beside it; run node docs/http/2026-12-01/jit-replay.js or docs/db/2026-12-01/drop-compiling.js')
}

module.exports = { markCompiling, processKey }
