'use strict'
// The calls experiment: each variant's call ladder (experiments/calls/ladder.js), then
// stdio's cost pass at 256 B for the stdin readers that read as the ladders do, so that
// the two measures of a read meet in one run. Its interface is the one
// experiments/stdio/index.js describes; the cost pass it asks of stdio through that.
const { UsageError, repeatCount } = require('../../lib/options')
const { unavailableReason, pickRows, recordedRows } = require('../../lib/rows')
const { shellQuote } = require('../../lib/pipeline')
const { isRecordList } = require('../../lib/results')
const { rerunArgs, choiceRow, isWhole } = require('../../lib/option-schema')
const stdio = require('../stdio')
const { PHASES, QUARTER_PHASE } = require('../stdio/phases')
const ladder = require('./ladder')
const { fastPathSteps, measureFastPath } = require('./fastpath')

const BASELINE = stdio.BASELINE
const LADDER_PAIRINGS = ['slices', 'processes']

const rows = [
  {
    name: 'processes',
    type: 'string',
    metavar: 'N',
    takes: 'a whole number',
    help: ['ladder processes per variant (default {default}, --quick {quick})'],
    parse: text => repeatCount(text, 'processes'),
    preset: { default: ladder.PRESETS.default.processes, quick: ladder.PRESETS.quick.processes },
    rerun: true,
    get: options => options.ladder.processes
  },
  choiceRow({
    name: 'ladder-pairing',
    choices: LADDER_PAIRINGS,
    help: [
      'slices: each variant\'s ladder takes turns with one of C\'s on its CPU, 5 ms each,',
      'and its rungs are set against that one\'s (default; docs/calls.md)',
      'processes: every ladder apart, each against C\'s process of the same index'
    ]
  }),
  {
    ...stdio.options.find(row => row.name === 'rounds'),
    help: ['rounds of the cost pass at 256 B (default {default}; --quick {quick})']
  }
]

const stored = {
  ladder: [value => ['processes', 'rounds', 'calls', 'reads'].every(key => isWhole(1)(value?.[key])) && ladder.checkCounts(value) === null, 'the ladder\'s { processes, rounds, calls, reads }'],
  costSizes: stdio.stored.costSizes
}

// The ladder's counts, and the options stdio's cost pass reads: at 256 B, no other pass.
function configure (options) {
  const { processes, ...rest } = options
  const preset = stdio.PRESETS[options.preset]
  const configured = {
    ...rest,
    sizes: [ladder.BLOCK],
    nodeVersions: [],
    runs: 0,
    cost: true,
    costSizes: [ladder.BLOCK],
    // its shares of C as the stdin bench takes them (docs/method.md)
    costPairing: 'slices',
    ladder: { ...ladder.PRESETS[options.preset], processes },
    warmup: 0,
    feeder: 'fixed',
    mib: null,
    marginal: false,
    pin: false,
    strace: false,
    gc: false,
    minMiB: preset.minMiB,
    maxMiB: preset.maxMiB,
    readsPerRun: preset.readsPerRun,
    straceMiB: preset.straceMiB
  }
  const problem = ladder.checkCounts(configured.ladder)
  if (problem) throw new UsageError(problem)
  return configured
}

// The variants --only picks, C's always: every other variant's parts are taken against
// it; and the stdin readers of its cost pass. A resume measures the variants its run
// began with (`recorded`).
function select (options, recorded = null) {
  const { runnable: variants, skipped } = pickRows(ladder.variants, options.only, {
    recorded,
    always: BASELINE,
    reasonOf: ladder.unavailableReason,
    matchesNone: (pattern, names) => `--only ${pattern} matches no variant of the call ladder; they are: ${names.join(', ')}`,
    cannotRun: (variant, reason) => `cannot run the ladder of ${variant.name}: ${reason}`
  })
  // a variant's parts are taken against its floor (the ring's, WASI's), which then runs too
  const floors = [...new Set(variants.map(ladder.floorOf))].map(ladder.findVariant)
  for (const floor of floors.filter(floor => !variants.includes(floor))) {
    const reason = ladder.unavailableReason(floor)
    const why = `the floor of other variants, so their parts are not taken: ${reason}`
    if (reason === null) variants.push(floor)
    else skipped.push({ program: floor.name, reason: why })
  }
  const runnable = ladder.stdinPrograms(variants).filter(program => {
    const reason = unavailableReason(program)
    if (reason !== null) skipped.push({ program: program.name, reason: `its cost pass cannot run: ${reason}` })
    return reason === null
  })
  return { runnable, variants, skipped }
}

// A calls run's variants, from today's table.
function recorded (context) {
  const names = Array.isArray(context.ladderVariants) ? context.ladderVariants.map(variant => variant?.name) : []
  if (names.length === 0) throw new UsageError('--resume: its context.json lists no ladder variants; start a new run')
  return recordedRows(ladder.variants, names, { context, what: missing => `the ladder of ${missing.join(', ')}`, source: 'experiments/calls/ladder.js' })
}

// The ladders' fast-path checks first: the timed processes of a variant whose fast path did
// not hold are not run (recurring), and none of its processes counts (summariseLadder).
function plan (options, { runnable, variants }, { placement, shuffle }) {
  return [
    ...fastPathSteps(variants, placement.shared),
    ...ladder.planLadder(variants, options, placement.shared),
    ...stdio.costSteps(options, runnable, placement.shared, shuffle)
  ]
}

// Where a failure will come again: stdio's places, and a variant's ladder after its
// fast-path check failed, whose processes would time another form than the one named.
const checkKey = name => `${ladder.FAST_PHASE}\t${name}`
const recurring = {
  keys: step => [...stdio.recurring.keys(step), ...(step.phase === ladder.PHASE ? [checkKey(step.variant.name)] : [])],
  at: record => [
    ...stdio.recurring.at(record),
    ...(record.phase === ladder.FAST_PHASE
      ? [{ key: checkKey(record.program), reason: `not run: its fast-path check failed (${record.failure})` }]
      : [])
  ]
}

function session (options, runDir, interrupted) {
  const readers = stdio.session(options, runDir, interrupted)
  const own = {
    [ladder.PHASE]: step => ladder.measureLadder(step, options),
    [ladder.FAST_PHASE]: step => measureFastPath(step, options, runDir)
  }
  return {
    measure: (step, run) => own[step.phase]?.(step) ?? readers.measure(step, run),
    close: readers.close
  }
}

function context (options, { variants }, placement) {
  return {
    costPin: { cpu: placement.shared.reader },
    ladderVariants: variants.map(variant => ({ name: variant.name, runtime: variant.runtime, command: shellQuote(ladder.ladderArgv(variant, options.ladder)) }))
  }
}

function describe (options, { runnable, variants }) {
  return `the call ladder of ${variants.length} variants, ${options.ladder.processes} processes each, and the cost pass at 256 B of ${runnable.length} readers`
}

// stdio's files, its results with the ladder checked against its headline.
function derive (records, context, runDir) {
  const files = stdio.derive(records, context, runDir)
  const results = files['results.json']
  return { ...files, 'results.json': { ...results, ladder: ladder.summariseLadder(records, context, results.headline) } }
}

// A failed ladder or reader's cost pass measured again: the ladder of the variant (or of
// the variant whose stdin reader it is) with C's.
function rerun (options, { program }) {
  const variant = ladder.findVariant(program) ?? ladder.variants.find(entry => entry.stdin === program)
  const args = variant && variant.name !== BASELINE ? ['--only', variant.name] : []
  args.push(...rerunArgs(options, rows, options.preset))
  return { env: '', args }
}

module.exports = {
  name: 'calls',
  // its own, and the cost pass's (stdio's costSteps: the cost rounds, the fastest readers'
  // checks; an older run's quarter runs)
  phases: [ladder.PHASE, ladder.FAST_PHASE, PHASES.cost, PHASES.fastPath, QUARTER_PHASE],
  about: [
    'the call ladder, each runtime\'s ns for a no-op call into C,',
    'a getppid(2), an empty read and a 256-byte read of the pipe, and the',
    'cost pass at 256 B for the stdin readers that read alike (variants:',
    `${ladder.variants.map(variant => variant.name).join(', ')})`
  ],
  options: rows,
  stored,
  later: { ladderPairing: 'processes' },
  configure,
  list: () => ladder.listing(ladder.PRESETS.default),
  select,
  recorded,
  plan,
  cellKey: stdio.cellKey,
  recurring,
  session,
  context,
  passes: (options, placement) => ({ ladder: placement.shared, cost: placement.shared, fastPath: placement.shared }),
  describe,
  derive,
  derivedFiles: stdio.derivedFiles,
  resultsProblem: results => {
    if (results.ladder === undefined) return 'no ladder'
    if (results.ladder !== null && !isRecordList(results.ladder.rows)) return 'a ladder without its list of rows'
    return isRecordList(results.cells) ? null : 'no list of its cost pass\'s cells'
  },
  measured: results => Boolean(results.ladder),
  rerun,
  failureLabel: stdio.failureLabel,
  get report () { return require('./report') }
}
