'use strict'
// The stdio experiment's figures for a comparison of machines (lib/report/machines.js):
// the headline's CPU per read, C's in ns and every other reader's over C and as a share
// of C, each with the interval its run gave it, and the rounds they came from, so that
// several runs of one machine can be pooled round by round.
const { BASELINE } = require('./programs')
const { sizeName } = require('../../lib/report/format')
const { estimate, againstC } = require('./cost')

function machineFigures (set) {
  const cells = set.results.headline?.cells ?? []
  const baseOf = cell => cells.find(other => other.program === BASELINE && other.blockSize === cell.blockSize)
  return {
    what: 'CPU per read(2), the headline',
    unit: 'ns',
    baseline: BASELINE,
    // runs of two cost policies, or of rounds against runs in turns with C, hold two figures
    // (lib/report/machines.js incomparable; a review: the pairing went unasked)
    method: [
      set.context?.options?.costPolicy === 'batch' ? 'at SCHED_BATCH' : 'at the default policy',
      (set.context?.options?.costPairing ?? 'rounds') === 'slices' ? 'in turns with C' : 'in rounds apart from C'
    ].join(', '),
    rows: cells.map(cell => ({
      item: cell.program,
      runtime: cell.runtime,
      at: cell.blockSize,
      atLabel: sizeName(cell.blockSize),
      absolute: cell.cpuPerReadNs ?? null,
      over: cell.program === BASELINE ? null : cell.overheadNs ?? null,
      share: cell.program === BASELINE ? null : cell.shareOfC ?? null,
      rounds: roundsOf(cell, cell.program === BASELINE ? null : baseOf(cell))
    })),
    fromRounds
  }
}

// A cell's rounds and C's at its size, by round, for pooling several runs of one machine
// (lib/report/machines.js); none from a results.json from before the lab kept them. Where
// its rounds took turns with C (pairing slices), each round's C is the one beside it (its
// share of C times its own ns), `paired`, as the run's own figure pairs them.
function roundsOf (cell, base) {
  const byRun = entry => Object.fromEntries(entry.byRound.map(round => [round.run, round.cpuPerReadNs]))
  if (!cell.byRound || (base && !base.byRound)) return null
  const inTurns = base && cell.pairing === 'slices' && cell.byRound.every(round => round.shareOfC > 0)
  const paired = inTurns
    ? Object.fromEntries(cell.byRound.map(round => [round.run, round.shareOfC * round.cpuPerReadNs]))
    : null
  return { mine: byRun(cell), base: base ? byRun(base) : null, ...(paired ? { paired } : {}) }
}

// The headline's figures from rounds, as cost.js makes them from one run's: round by round
// against the C beside each where they took turns (a review: pooled runs were set against C's
// own cell, every round against every one, where one run's figure pairs them: two copies of
// one run pooled moved just-fast's 13.1 ns over C to 16.3), else every round against C's.
function fromRounds (mine, base, paired = null) {
  const values = Object.values(mine)
  const baseValues = base ? Object.values(base) : null
  if (paired) {
    const runs = Object.keys(mine).filter(run => run in paired)
    return {
      absolute: estimate(values),
      over: estimate(runs.map(run => mine[run] - paired[run])),
      share: estimate(runs.map(run => paired[run] / mine[run]))
    }
  }
  return {
    absolute: estimate(values),
    over: baseValues ? againstC(values, baseValues, 'difference') : null,
    share: baseValues ? againstC(values, baseValues, 'ratio') : null
  }
}

module.exports = { machineFigures }
