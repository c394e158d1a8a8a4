'use strict'
// Runs from several machines side by side (analyse.js, when the runs' machine keys
// differ: lib/machine.js). One column per machine, as Phoronix's merged results give one
// entry per system; the baseline's absolute figure first (C's ns per read, C's rung, the
// reference server's CPU per request), then every other row's figure over the baseline
// and as a share of it. Then, per row, which of those two carries from one machine to
// another, by a criterion fixed before any data was looked at (CARRY), so that a reader
// can take the figure that carried and apply it to the baseline measured on their own
// machine. Pure functions of the loaded sets; each experiment says what its figures are
// (report.machineFigures(set)).
const { groupByMachine, sameMachine, KEY_FACTS } = require('../machine')
const { median } = require('../stats')
const { labCommitText } = require('./context')

// The criterion, stated before looking: a figure carries across machines when every
// two machines' values lie within 10% of the larger of them, or when all their
// intervals share a point. Two machines in the same state would pass the first for
// figures known to ±5% (the lab's repeatability goal), so 10% leaves room for the two
// runs' own noise and no more.
const CARRY = { percent: 10 }
const EPSILON = 1e-9

// A difference of two point figures (calls' rungs, http's CPU per request) has no
// interval of its own: the experiments that need one say so by giving none.
function difference (value, base) {
  if (!Number.isFinite(value) || !Number.isFinite(base)) return null
  return { estimate: value - base, low: null, high: null, level: null }
}

// A share of the baseline from a ratio over it (calls' vsC, http's cpuVsReference):
// its reciprocal, the interval's ends swapped.
function reciprocal (ratio) {
  if (!ratio || !(ratio.estimate > 0)) return null
  const flip = end => (end > 0 ? 1 / end : null)
  return { estimate: 1 / ratio.estimate, low: flip(ratio.high), high: flip(ratio.low), level: ratio.level ?? null }
}

// A share of the baseline from two point figures, for runs whose lab paired no rounds
// (an older ladder, http's runs before rounds): base over value, without an interval.
function shareOfPoints (value, base) {
  if (!(value > 0) || !(base > 0)) return null
  return { estimate: base / value, low: null, high: null, level: null }
}

const hasInterval = value => Number.isFinite(value?.low) && Number.isFinite(value?.high)

// Several runs of one machine whose figures came without their rounds (results.json from
// before the lab kept them, http's cells): the median of their estimates, without an
// interval. The union of the runs' intervals would widen with every run, so that more runs
// would make carrying easier; and no interval can be computed without the rounds. Without
// one, the pooled figure can carry only by its value, which more runs cannot loosen.
function pool (values) {
  const present = values.filter(value => Number.isFinite(value?.estimate))
  if (present.length === 0) return null
  if (present.length === 1) return { ...present[0], runs: 1 }
  return {
    estimate: median(present.map(value => value.estimate)),
    low: null,
    high: null,
    level: null,
    runs: present.length,
    pooled: 'estimates'
  }
}

const KINDS = ['absolute', 'over', 'share']
const sameRow = key => row => row.item === key.item && row.at === key.at

// One machine's figures for a row, from each of its runs' figures: the one run's own; or,
// where every run kept the row's rounds (row.rounds: { mine, base }, each value by round,
// and `paired`, the baseline each round was set against where that is not the baseline's
// own round of its index), one figure from all their rounds pooled, computed as the
// experiment computes one run's (figures.fromRounds), round keys prefixed with the run so
// that a round pairs only with its own run's baseline; else pool's median of the estimates.
function pooledRow (runs, key) {
  const found = runs.map(figures => ({ figures, row: figures.rows.find(sameRow(key)) }))
    .filter(entry => entry.row)
  const byKind = pick => Object.fromEntries(KINDS.map(kind => [kind, pick(kind)]))
  if (found.length <= 1) return byKind(kind => pool([found[0]?.row[kind]]))
  const fromRounds = found[0].figures.fromRounds
  if (fromRounds && found.every(entry => entry.row.rounds)) {
    const merged = side => found.every(entry => entry.row.rounds[side])
      ? Object.fromEntries(found.flatMap((entry, run) =>
        Object.entries(entry.row.rounds[side]).map(([round, value]) => [`${run}:${round}`, value])))
      : null
    const figures = fromRounds(merged('mine'), merged('base'), merged('paired'))
    return byKind(kind => (figures[kind] ? { ...figures[kind], runs: found.length, pooled: 'rounds' } : null))
  }
  return byKind(kind => pool(found.map(entry => entry.row[kind])))
}

// Whether one figure carries across the machines that measured it (null below two).
function carries (values) {
  const present = values.filter(value => Number.isFinite(value?.estimate))
  if (present.length < 2) return null
  let spread = 0
  for (const a of present) {
    for (const b of present) {
      const scale = Math.max(Math.abs(a.estimate), Math.abs(b.estimate))
      if (scale > 0) spread = Math.max(spread, Math.abs(a.estimate - b.estimate) / scale * 100)
    }
  }
  const close = spread <= CARRY.percent + EPSILON
  const overlap = present.every(hasInterval) &&
    Math.max(...present.map(value => value.low)) <= Math.min(...present.map(value => value.high)) + EPSILON
  return { carries: close || overlap, spreadPercent: spread, close, overlap }
}

// Which of the two relative figures carried by its values: 'both', 'share', 'over',
// 'neither', of those tested (a figure some machine's run did not give is not tested:
// untestedOf). A figure that carried only by its intervals is not known to carry, so it
// is no part of the verdict; carriedText names it beside.
function verdictOf (share, over) {
  if (!share && !over) return null
  const shareCarried = share?.close === true
  const overCarried = over?.close === true
  if (shareCarried && overCarried) return 'both'
  if (shareCarried) return 'share'
  if (overCarried) return 'over'
  return 'neither'
}

// The runtime's version on each machine, where it differs (named beside its rows): every run
// of a machine's, its versions joined where its runs differ (a review: a machine's later runs
// went unread, a second run under another Node unsaid).
function versionsOf (row, machines) {
  const versions = machines.map(machine => {
    const own = [...new Set(machine.sets.map(set => set.context?.runtimes?.[row.runtime]?.version ?? null))]
      .filter(Boolean)
    return own.length ? own.join(', ') : null
  })
  const distinct = new Set(machines.flatMap(machine =>
    machine.sets.map(set => set.context?.runtimes?.[row.runtime]?.version).filter(Boolean)))
  return distinct.size > 1 ? versions : null
}

// Whether the row's code differed between the runs, any two of any machines: true where two
// recorded different digests of its file (lib/context.js), null where a run recorded none.
function codeDiffers (row, machines) {
  const digests = machines.flatMap(machine => machine.sets.map(set =>
    (set.context?.programs ?? []).find(program => program.name === row.item)?.sourceSha256))
  if (digests.some(digest => !digest)) return null
  return new Set(digests).size > 1
}

// The facts that differ between the machines' records: the key's, then the ones that
// explain a speed, the lab and the options. Each row: [label, value per machine].
const SPEED_FACTS = [
  ['microcode', machine => machine.cpu?.microcode],
  ['caches', machine => machine.caches?.map(cacheText).join(', ')],
  ['frequency, MHz', machine => machine.frequencyMHz],
  ['cpu governor', machine => machine.cpuGovernor],
  ['kernel HZ', machine => machine.hz],
  ['hardware PMU', machine => machine.pmu],
  ['CPU quota', machine => machine.cpuQuota],
  ['memory, GiB', machine => (machine.memoryBytes ? Math.round(machine.memoryBytes / 2 ** 30 * 10) / 10 : undefined)],
  ['os', machine => machine.os],
  ['transparent huge pages', machine => machine.transparentHugePages]
]

// "L1 data 32K", "L2 1024K"
const cacheText = cache =>
  `L${cache.level} ${cache.type === 'Unified' ? '' : `${cache.type.toLowerCase()} `}${cache.size}`

const shown = value => {
  if (value === undefined || value === null) return 'not recorded'
  if (typeof value === 'object') {
    return Array.isArray(value)
      ? value.join(' ')
      : Object.entries(value).map(([name, text]) => `${name}: ${text}`).join('; ')
  }
  return String(value)
}

function recordDifferences (machines) {
  const rows = []
  const push = (label, values) => {
    const texts = values.map(shown)
    if (new Set(texts).size > 1) rows.push({ label, values: texts })
  }
  for (const fact of KEY_FACTS) {
    if (fact.name === 'vulnerabilities') {
      // one row a vulnerability whose state differs, not one row of them all
      const names = new Set(machines.flatMap(machine => Object.keys(machine.identity.facts.vulnerabilities ?? {})))
      for (const name of [...names].sort()) {
        push(`mitigation: ${name}`, machines.map(machine => machine.identity.facts.vulnerabilities?.[name]))
      }
      continue
    }
    push(fact.label, machines.map(machine => machine.identity.facts[fact.name]))
  }
  const recorded = machine => machine.sets[0].context?.machine ?? {}
  for (const [label, pick] of SPEED_FACTS) push(label, machines.map(machine => pick(recorded(machine))))
  const context = machine => machine.sets[0].context ?? {}
  push('lab commit', machines.map(machine => labCommitText(context(machine).lab)))
  push('lab\'s Node', machines.map(machine => context(machine).lab?.node))
  const runtimes = new Set(machines.flatMap(machine => Object.keys(context(machine).runtimes ?? {})))
  for (const name of [...runtimes].sort()) {
    push(`${name} version`, machines.map(machine => context(machine).runtimes?.[name]?.version))
  }
  const options = new Set(machines.flatMap(machine => Object.keys(context(machine).options ?? {})))
  for (const name of [...options].sort().filter(name => !['out', 'id', 'report'].includes(name))) {
    push(`option ${name}`, machines.map(machine => JSON.stringify(context(machine).options?.[name])))
  }
  return rows
}

// What sets a machine apart from another by the key's facts; where none it recorded does (an
// older run that fits several machines, a group of its own: lib/machine.js groupByMachine), the
// facts it lacks, which would (a review: the column was empty for such a group).
function differsBy (first, other) {
  const { differing, unknown } = sameMachine(first, other)
  return differing.length ? differing : unknown.map(label => `${label} (not recorded)`)
}

// sets: labelled results sets, one experiment's; figuresOf: its report.machineFigures.
function compareMachines (sets, figuresOf) {
  const machines = groupByMachine(sets).map(group => ({
    identity: group.identity,
    name: group.identity.slug,
    runs: group.sets.map(set => set.label),
    sets: group.sets,
    figures: group.sets.map(figuresOf)
  }))
  const [{ figures: [first] }] = machines
  // every row any machine measured, in the first machine's order
  const keys = []
  for (const machine of machines) {
    for (const figures of machine.figures) {
      for (const row of figures.rows) {
        if (!keys.some(key => key.item === row.item && key.at === row.at)) keys.push(row)
      }
    }
  }
  const rows = keys.map(key => {
    const pooled = machines.map(machine => pooledRow(machine.figures, key))
    const [absolute, over, share] = KINDS.map(kind => pooled.map(figures => figures[kind]))
    const baseline = key.item === first.baseline
    // a machine that has neither relative figure (the row failed there, or was not run); a
    // row whose experiment gives it none by design (notCompared: why) lacks nothing
    const missingOn = baseline || key.notCompared
      ? []
      : machines.filter((machine, index) => !over[index] && !share[index]).map(machine => machine.name)
    const carried = missingOn.length ? { over: null, share: null } : { over: carries(over), share: carries(share) }
    const differs = codeDiffers(key, machines)
    return {
      item: key.item,
      runtime: key.runtime,
      at: key.at,
      atLabel: key.atLabel,
      // a mark of the row's figure its experiment shows after its place (http's §), or null
      sign: key.sign ?? null,
      baseline,
      absolute,
      over,
      share,
      carried,
      // a reader whose code changed between the runs' labs is not tested: the change,
      // not the machine, could have moved it
      verdict: baseline || differs || key.notCompared ? null : verdictOf(carried.share, carried.over),
      notCompared: key.notCompared ?? null,
      codeDiffers: differs,
      missingOn,
      untested: untestedOf({ carried }),
      versions: versionsOf(key, machines)
    }
  })
  // the rows judged, and those some machine failed or lacks, which count against them
  const shared = rows.filter(row => row.verdict !== null || (!row.baseline && row.missingOn.length))
  return {
    what: first.what,
    unit: first.unit,
    baseline: first.baseline,
    criterion: CARRY,
    machines: machines.map(machine => ({
      name: machine.name,
      key: machine.identity.key,
      runs: machine.runs,
      // how each run measured (figures.method, where the experiment gives one)
      methods: machine.figures.map(figures => figures.method ?? null),
      olderLab: machine.identity.olderLab,
      missing: machine.identity.missing,
      label: machineLabel(machine),
      // what sets it apart from the first machine, by the key's facts: two keys whose rows read
      // alike ("AMD EPYC, 2 cores, 6.18.44") differed in one the table did not show (container)
      differsBy: machine === machines[0] ? [] : differsBy(machines[0].identity, machine.identity)
    })),
    rows,
    // what a sign after a row's place means, where an experiment's rows carry one
    legend: [...new Set(machines.flatMap(machine => machine.figures.flatMap(figures => figures.legend ?? [])))],
    counts: countVerdicts(shared),
    byRuntime: byRuntime(shared),
    differences: recordDifferences(machines),
    // runs of different lab commits that recorded no digest of their readers' code
    codeUnknown: new Set(machines.map(machine => machine.sets[0].context?.lab?.commit)).size > 1 &&
      rows.some(row => row.codeDiffers === null && !row.baseline),
    unknown: unknownFacts(machines)
  }
}

function machineLabel (machine) {
  const facts = machine.sets[0].context?.machine ?? {}
  const cores = facts.cores ? `, ${facts.cores} cores` : ''
  return `${facts.cpuModel ?? 'unknown CPU'}${cores}, ${facts.kernel ?? 'unknown kernel'}`
}

const carriedByIntervalsOnly = carried => Boolean(carried?.carries && !carried.close)

// The figures of a row that some machine's run did not give, so were not tested.
const untestedOf = row => ['share', 'over'].filter(kind => row.carried[kind] === null)

// How many rows each figure was tested in and carried in by its values, and the verdicts.
// A figure whose values lie more than 10% apart carries only by its intervals, which a
// noisy run makes wide: counted apart, not as carried. A row some machine failed or lacks
// counts in the total, named in missing, and carried nothing.
function countVerdicts (rows) {
  const counts = {
    both: 0,
    share: 0,
    over: 0,
    neither: 0,
    total: 0,
    tested: { share: 0, over: 0 },
    carried: { share: 0, over: 0 },
    intervalsOnly: { share: 0, over: 0 },
    missing: []
  }
  for (const row of rows) {
    if (row.missingOn?.length) {
      counts.total += 1
      counts.missing.push({ item: row.item, atLabel: row.atLabel, sign: row.sign, missingOn: row.missingOn })
      continue
    }
    if (!row.verdict) continue
    counts[row.verdict] += 1
    counts.total += 1
    for (const kind of ['share', 'over']) {
      if (row.carried[kind] === null) continue
      counts.tested[kind] += 1
      if (row.carried[kind].close) counts.carried[kind] += 1
      if (carriedByIntervalsOnly(row.carried[kind])) counts.intervalsOnly[kind] += 1
    }
  }
  return counts
}

// Per runtime, at each place it was measured (a size, a rung, a cell): the verdicts.
function byRuntime (rows) {
  const runtimes = [...new Set(rows.map(row => row.runtime))]
  return runtimes.map(runtime => {
    const own = rows.filter(row => row.runtime === runtime)
    return {
      runtime,
      counts: countVerdicts(own),
      rows: own.map(row => ({
        item: row.item,
        atLabel: row.atLabel,
        sign: row.sign,
        verdict: row.verdict,
        untested: row.untested,
        missingOn: row.missingOn
      }))
    }
  })
}

// Facts that could not tell two of the machines apart because a run lacked them.
function unknownFacts (machines) {
  const unknown = new Set()
  for (const a of machines) {
    for (const b of machines) {
      if (a !== b) for (const label of sameMachine(a.identity, b.identity).unknown) unknown.add(label)
    }
  }
  return [...unknown]
}

// Why machines' runs cannot be compared, or null: they measured two ways (figures.method,
// where an experiment gives one: stdio's cost policy), whose figures neither pool within a
// machine nor compare across; or no row was measured on two of them (other sizes, rungs or
// cells chosen by their options).
function incomparable (comparison) {
  const ways = comparison.machines.flatMap(machine => (machine.methods ?? []).map((method, index) =>
    ({ run: machine.runs[index], method })).filter(entry => entry.method))
  const methods = [...new Set(ways.map(entry => entry.method))]
  if (methods.length > 1) {
    const which = methods.map(method =>
      `${ways.filter(entry => entry.method === method).map(entry => entry.run).join(', ')} ${method}`)
    return `the runs measured two ways (${which.join('; ')}), whose figures do not pool or compare; ` +
      'compare runs measured one way'
  }
  const shared = comparison.rows.some(row => row.absolute.filter(Boolean).length > 1)
  if (shared) return null
  // no run measured the figure at all (stdio's with --no-cost): other sizes would not help (a
  // review: it said to compare runs of the same sizes)
  if (!comparison.rows.some(row => row.absolute.some(Boolean))) {
    return `no run measured ${comparison.what}, which machines are compared by; compare runs that did`
  }
  const where = comparison.machines.map((machine, index) => {
    const places = [...new Set(comparison.rows.filter(row => row.absolute[index]).map(row => row.atLabel))]
    return `${machine.runs.join(', ')} at ${places.length ? places.join(', ') : 'nothing'}`
  })
  return `the runs share no measured figure (${where.join('; ')}); ` +
    'compare runs made with the same sizes, rungs or cells'
}

module.exports = {
  CARRY,
  compareMachines,
  incomparable,
  carries,
  pool,
  pooledRow,
  difference,
  reciprocal,
  shareOfPoints,
  verdictOf,
  carriedByIntervalsOnly,
  recordDifferences
}
