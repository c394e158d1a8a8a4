'use strict'
// The call ladder's findings (bench.js --experiment calls), each from its rows: the
// boundary, a syscall's entry and exit, the runtimes' read paths, reads through a ring,
// and the checks. Ring variants climb other rungs (experiments/calls/ladder.js), so the
// syscall's and the read paths' findings leave them to their own.
const { formatNumber, formatSigned, formatPercent, listJoin } = require('../../lib/report/format')
const { BASELINE } = require('../stdio/programs')
const { RING_FLOOR, WARMING_RATIO, floorOf } = require('./ladder')
const { callsRepeatability, reachable, callsCriterionText, reachableText } = require('./repeatability')
const { repeatPairs } = require('../../lib/machine')

// The variants the ladder's rows are measured from (C, c-uring, c-yield), by each row's floor.
const floorsOf = ladder => new Set(ladder.rows.map(floorOf))

// The rows whose parts are taken against C's own ladder: neither a ring's nor WASI's, nor
// C's ladder that is WASI's floor (c-yield), whose parts are C's own.
const direct = ladder => {
  const floors = floorsOf(ladder)
  return ladder.rows.filter(row => floorOf(row) === BASELINE && (row.variant === BASELINE || !floors.has(row.variant)))
}

// Parts that differ by less than this share are one price.
const ALIKE_SHARE = 0.1

const LADDER_FINDINGS = [
  function boundary (ladder) {
    const rows = direct(ladder).filter(row => row.rungs.noop && row.variant !== BASELINE)
    const c = ladder.rows.find(row => row.variant === BASELINE)?.rungs.noop
    if (rows.length === 0 || !c) return null
    const sorted = [...rows].sort((a, b) => a.rungs.noop.estimate - b.rungs.noop.estimate)
    return `A no-op call into C costs ${formatNumber(c.estimate)} ns from C, ${listJoin(sorted.map(row => `${formatNumber(row.rungs.noop.estimate)} from ${row.variant}`))}.`
  },
  function syscall (ladder) {
    const parts = direct(ladder).filter(row => row.parts).map(row => row.parts.syscall)
    if (parts.length < 2) return null
    const [low, high] = [Math.min(...parts), Math.max(...parts)]
    // the kernel's price where every variant pays it alike (within ALIKE_SHARE); where one
    // pays more, its runtime adds to the way in or out, and the sentence says no more
    const alike = high <= low * (1 + ALIKE_SHARE)
      ? `, within ${formatPercent(ALIKE_SHARE)} of each other: the kernel's price, not the runtime's`
      : ''
    return 'A syscall\'s entry and exit (getppid less the no-op) cost ' +
      `${formatNumber(low)} to ${formatNumber(high)} ns across the variants${alike}.`
  },
  function readPath (ladder) {
    const rows = direct(ladder).filter(row => row.parts && row.variant !== BASELINE)
      .sort((a, b) => b.parts.readPath - a.parts.readPath)
    if (rows.length === 0) return null
    const [top] = rows
    return `The runtimes' read paths (an empty read less a bare syscall, beyond C's) are where reads differ: ${listJoin(rows.map(row => `${row.variant} ${formatNumber(row.parts.readPath)} ns`))}; ${top.variant}'s (${top.read}) is ${formatPercent(top.parts.readPath / top.rungs['read-256'].estimate)} of its 256-byte read.`
  },
  // the figure users quote of a read through each runtime: its ns over C's, taken against the
  // C that ran beside it (ladder.js againstC), not C's processes that ran alone
  function readOverC (ladder) {
    const rows = direct(ladder).filter(row => row.overC?.['read-256'] && row.variant !== BASELINE)
      .sort((a, b) => a.overC['read-256'].estimate - b.overC['read-256'].estimate)
    const c = ladder.rows.find(row => row.variant === BASELINE)?.rungs['read-256']
    if (rows.length === 0 || !c) return null
    const over = row => `${row.variant} ${formatSigned(row.overC['read-256'].estimate)}`
    return `A 256-byte read costs C ${formatNumber(c.estimate)} ns, and over C's, process by process against ` +
      `the C that ran beside it: ${listJoin(rows.map(over))} ns.`
  },
  function ring (ladder) {
    const c = ladder.rows.find(row => row.variant === BASELINE)
    const floor = ladder.rows.find(row => row.variant === RING_FLOOR)
    const at = (row, rung) => row?.rungs[rung]?.estimate ?? null
    if ([at(c, 'syscall'), at(c, 'read-256'), at(floor, 'syscall'), at(floor, 'read-256')].includes(null)) return null
    const others = ladder.rows.filter(row => row.ring && row !== floor && at(row, 'read-256') !== null)
    const ringRead = row => `${row.variant}'s ring read ${formatNumber(at(row, 'read-256'))} ns, ` +
      `${formatPercent(at(row, 'read-256') / at(floor, 'read-256'))} of ${RING_FLOOR}'s`
    const theirs = others.length ? `; ${listJoin(others.map(ringRead))}` : ''
    return `Through io_uring, C's round trip with no work (IORING_OP_NOP) costs ${formatNumber(at(floor, 'syscall'))} ns against getppid's ${formatNumber(at(c, 'syscall'))}, and a 256-byte read ${formatNumber(at(floor, 'read-256'))} ns against read(2)'s ${formatNumber(at(c, 'read-256'))}${theirs}.`
  },
  // Through WASI, against C's ladder with sched_yield (c-yield): the call out of the sandbox
  // (args_sizes_get), sched_yield beyond it (or the WASI layer alone, where the host makes
  // no syscall for it), and a 256-byte fd_read against C's read(2) and against the same
  // runtime's FFI read where the ladder has one.
  function wasi (ladder) {
    const floor = ladder.rows.find(row => row.variant === 'c-yield')
    const rows = ladder.rows.filter(row => row.wasi && row.rungs['read-256'])
    const at = (row, rung) => row?.rungs[rung]?.estimate ?? null
    if (!floor || rows.length === 0 || at(floor, 'read-256') === null) return null
    const ffi = row => ladder.rows.find(other =>
      other.runtime === row.runtime && !other.wasi && /ffi/.test(other.variant))
    const calls = listJoin(rows.map(row => `${formatNumber(at(row, 'noop'))} ns on ${row.variant}`))
    const yields = listJoin(rows.map(row => `${formatNumber(at(row, 'syscall'))} on ${row.variant}` +
      (row.noSyscall ? ' (no syscall)' : '')))
    const reads = listJoin(rows.map(row => {
      const own = ffi(row)
      const read = at(own, 'read-256')
      const beside = own && read !== null ? `, ${own.variant}'s ${formatNumber(read)}` : ''
      return `${formatNumber(at(row, 'read-256'))} on ${row.variant}${beside}`
    }))
    return `Through WASI, a call out of the sandbox that makes no syscall (args_sizes_get) costs ${calls}; ` +
      `sched_yield ${yields}, against C's ${formatNumber(at(floor, 'syscall'))} (${floor.variant}); ` +
      `and a 256-byte fd_read ${reads}, against C's read(2) ${formatNumber(at(floor, 'read-256'))} ns ` +
      `(${floor.variant}).`
  },
  function repeats (ladder) {
    return reachableText(reachable(ladder))
  },
  // the first rounds left out (ladder.js steadyRounds), named, so that no round goes uncounted unsaid
  function warming (ladder) {
    const named = (row, byRung, whose) => Object.entries(byRung ?? {})
      .filter(([, processes]) => processes.length > 0)
      .map(([rung, processes]) => `${whose(rung)} in ${processes.length} of ${row.processes}`)
    // C's ladders in turns with a variant's processes lose theirs too, where each process's ratio is taken
    const rungs = ladder.rows.flatMap(row => [
      ...named(row, row.warming, rung => `${row.variant}'s ${rung}`),
      ...named(row, row.partnerWarming, rung => `C's ${rung} in turns with ${row.variant}'s`)
    ])
    if (rungs.length === 0) return null
    return `First timed rounds still warming up, left out of their processes' figures: ${listJoin(rungs)} ` +
      `(each cost more than ${WARMING_RATIO} times the median of its process's later rounds: a runtime ` +
      'still compiling the loop, or a slow spell of the machine).'
  },
  function checks (ladder) {
    // The floors (C, c-uring) add up by construction and are left out; a variant whose
    // rungs are missing counts against the check, named.
    // a results.json before 2026-12-0x marks no floor: the floors its rows name (it read "for 8
    // of 8 variants, , the floor…", the floors counted among them)
    // c-yield, WASI's floor, is C's own ladder with sched_yield taken against the C beside it in
    // turns, two processes: its parts are a real check (+0.63 ns in results/reference-calls), not
    // one by construction, so it is counted (a review of 2026-12-07; the one before had it left
    // out as a floor)
    const floors = floorsOf(ladder)
    const isFloor = row => row.baseline ?? floors.has(row.variant)
    const tested = ladder.rows.filter(row => !isFloor(row))
    const decomposed = tested.filter(row => row.addsUp !== null)
    const missing = tested.filter(row => row.addsUp === null).map(row => row.variant)
    const baselines = ladder.rows.filter(isFloor).map(row => row.variant)
    const compared = ladder.rows.filter(row => row.stdin?.agrees !== null && row.stdin?.agrees !== undefined)
    // where the cost pass ran, a reader whose cell it could not set against (failed, no
    // interval) counts against the comparison, named
    const uncompared = compared.length
      ? ladder.rows.filter(row => row.stdin && !compared.includes(row))
        .map(row => `${row.variant} (${row.stdin.program})`)
      : []
    if (decomposed.length === 0) return null
    const off = decomposed.filter(row => !row.addsUp).map(row => `${row.variant} ${formatSigned(row.gap)} ns`)
    const disagree = compared.filter(row => !row.stdin.agrees).map(row => `${row.variant} ${formatNumber(row.rungs['read-256'].estimate)} against ${row.stdin.program}'s ${formatNumber(row.stdin.cpuPerReadNs.estimate)} ns`)
    const exceptions = [off.length && `not: ${off.join(', ')}`, missing.length && `missing: ${missing.join(', ')}`]
      .filter(Boolean)
    const floorText = `${listJoin(baselines)}, the floor${baselines.length > 1 ? 's' : ''} the others are ` +
      'measured from, adding up by construction'
    return 'The parts add up to the measured 256-byte read within 10% for ' +
      `${decomposed.length - off.length} of ${tested.length} variants` +
      `${exceptions.length ? ` (${exceptions.join('; ')})` : ''}${baselines.length ? `, ${floorText}` : ''}` +
      (compared.length
        ? '; the ladder\'s read lies inside the cost pass\'s interval for ' +
          `${compared.length - disagree.length} of ${compared.length + uncompared.length}` +
          `${costExceptions(disagree, uncompared)}.`
        : '.')
  }
]

// The readers the cost-pass comparison excepts, in parentheses: those outside its interval
// and those it had no interval for; '' with none.
function costExceptions (disagree, uncompared) {
  const parts = [
    disagree.length && `not: ${disagree.join('; ')}`,
    uncompared.length && `missing: ${uncompared.join(', ')}`
  ].filter(Boolean)
  return parts.length ? ` (${parts.join('; ')})` : ''
}

// sets: labelled results sets; the findings of each set that has a ladder, in order.
function findings (sets) {
  const out = []
  for (const set of sets) {
    for (const finding of set.results.ladder ? LADDER_FINDINGS : []) {
      const text = finding(set.results.ladder)
      if (text) out.push({ set: set.label, text })
    }
  }
  // two runs: whether the second repeated the first
  const ladders = sets.filter(set => set.results.ladder)
  for (const [first, other] of repeatPairs(ladders)) {
    const result = callsRepeatability(first.results.ladder, other.results.ladder)
    const text = callsCriterionText(result, [first.label, other.label])
    // pair: the page sets it under the runs' trust, at the top (report.js)
    if (text) out.push({ set: other.label, text, pair: true })
  }
  return out
}

module.exports = { findings }
