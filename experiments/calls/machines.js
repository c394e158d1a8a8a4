'use strict'
// The calls experiment's figures for a comparison of machines (lib/report/machines.js):
// each variant's rungs, C's in ns, every other variant's over C's (the ladder's difference
// to C, process by process, with its interval; the difference of two medians, without one,
// for an older ladder) and as a share of C's (the reciprocal of the ladder's ratio to C,
// with its interval; the ratio of the medians for an older ladder).
const { BASELINE } = require('../stdio/programs')
const { difference, reciprocal, shareOfPoints } = require('../../lib/report/machines')
const { RUNGS, findVariant } = require('./ladder')
const { pairedRatio, pairedDifference } = require('../../lib/stats')
const { estimate } = require('../stdio/cost')

// A rung whose call is not C's of that name: sched_yield in getppid's place (c-yield and the
// WASI hosts, whose bun-wasi answers it without the kernel: 8 ns, "2203%" of C's getppid) and
// a ring's NOP. Its ns stand; set over C's getppid they would read as a share of one call
// against another's. → what the rung calls instead, or null where it is C's call.
const unlikeC = (row, rung) => {
  const variant = findVariant(row.variant)
  if (rung !== 'syscall') return null
  if (variant?.yields) return 'sched_yield, not getppid'
  return variant?.ring ? 'a ring\'s NOP, not getppid' : null
}

function machineFigures (set) {
  const rows = set.results.ladder?.rows ?? []
  const base = rows.find(row => row.variant === BASELINE)
  // the C each process of a row was set against, as its ratios to C are (ladder.js againstC):
  // the ladder of C's it took turns with, else C's process of its index
  const pairedC = (row, rung) => (row.pairing === 'slices' ? row.partnerByProcess?.[rung] : base?.byProcess?.[rung])
  return {
    what: 'CPU per call, the ladder\'s rungs',
    unit: 'ns',
    baseline: BASELINE,
    rows: rows.flatMap(row => RUNGS.map(rung => {
      // C itself, or a rung of another call than C's: its ns alone
      const unlike = row === base ? null : unlikeC(row, rung)
      const alone = row === base || Boolean(unlike)
      return {
        item: row.variant,
        runtime: row.runtime,
        at: rung,
        atLabel: rung,
        // the comparison sets its ns side by side and judges nothing of it
        ...(unlike ? { notCompared: unlike } : {}),
        absolute: row.rungs?.[rung] ?? null,
        over: alone
          ? null
          : row.overC?.[rung] ??
            (row.overC ? null : difference(row.rungs?.[rung]?.estimate, base?.rungs?.[rung]?.estimate)),
        // a ladder from before the ratios to C: the ratio of the two medians
        share: alone
          ? null
          : reciprocal(row.vsC?.[rung]) ??
            (row.vsC ? null : shareOfPoints(row.rungs?.[rung]?.estimate, base?.rungs?.[rung]?.estimate)),
        // each process's median, for pooling several runs of one machine
        rounds: row.byProcess?.[rung] && (alone || (base?.byProcess?.[rung] && pairedC(row, rung)))
          ? {
              mine: row.byProcess[rung],
              base: alone ? null : base.byProcess[rung],
              paired: alone ? null : pairedC(row, rung)
            }
          : null
      }
    })),
    fromRounds
  }
}

// The rung's figures from its processes, as the ladder makes them from one run's: the
// median with the sign test's interval, and the difference and the share from each process
// against the C it was set against (`paired`: its partner in turns, else C's process of its
// index, `base`; pooled keys name the run too, so a process is paired only within its run).
function fromRounds (mine, base, paired = base) {
  const values = Object.values(mine)
  if (!base) return { absolute: estimate(values), over: null, share: null }
  const against = paired ?? base
  const pairs = Object.keys(mine).filter(process => process in against)
  const [mineOf, againstOf] = [pairs.map(process => mine[process]), pairs.map(process => against[process])]
  return {
    absolute: estimate(values),
    over: pairs.length ? pairedDifference(mineOf, againstOf) : null,
    share: reciprocal(pairedRatio(mineOf, againstOf))
  }
}

module.exports = { machineFigures }
