'use strict'
// The stdio experiment: every stdin reader of its table (programs.js) across block
// sizes, fed by dd: start-up, timing, the cost pass (the headline: CPU per read against
// C), strace and --trace-gc. Its interface is the one experiments/index.js describes.
const path = require('node:path')
const { programs, listing, withNodeVersions, extraModules, checkTable, BASELINE } = require('./programs')
const { UsageError, makeDirs } = require('../../lib/options')
const { shellQuote } = require('../../lib/pipeline')
const { rerunArgs } = require('../../lib/option-schema')
const { isRecordList } = require('../../lib/results')
const { ZeroFile } = require('./zero-file')
const { rows, derivedStored, PRESETS, LATER_OPTIONS, parseBlockSizeOption, parseNodeVersion } = require('./options')
const { plan, costSteps, costRunPin, cellKey, quarterBytes, COST_SIZES } = require('./plan')
const { select, recorded } = require('./select')
const { PHASES, PROFILE_PHASES, LOGGED_PHASES } = require('./phases')
const { measure, feederBlockSize } = require('./measure')
const { recurring } = require('./recurring')
const { summariseResults, summariseSyscalls, summariseGcResults, rejectedCells } = require('./summary')
const { summariseProfile, profileBytes, profileLeastReads, PROFILE_WINDOW_S, reattributed } = require('./profile')
const { dataPoints } = require('../../lib/run-log')
const { slopePerRead, windowSpan, pairFigures, costRunBytes } = require('./cost')

function configure (options, values) {
  for (const name of ['rounds', 'cost-policy', 'cost-pairing']) {
    if (values[name] !== undefined && !options.cost) {
      throw new UsageError(`--${name} sets the cost pass, which --no-cost skips: drop one of them`)
    }
  }
  // the kernel and profile passes run at the cost pass's sizes, beside its rounds: skipped
  // by --no-cost as by their own --no-kernel and --no-profile
  for (const [pass, rows] of [['kernel', ['kernel-rounds']], ['profile', ['profile-rounds', 'profile-ms']]]) {
    const given = rows.find(name => values[name] !== undefined)
    if (given && !options.cost) {
      throw new UsageError(`--${given} sets the ${pass} pass, which runs at the cost pass's sizes and --no-cost ` +
        'skips: drop one of them')
    }
    if (given && !options[pass]) {
      throw new UsageError(`--${given} sets the ${pass} pass, which --no-${pass} skips: drop one of them`)
    }
  }
  // a profiled run reads for --profile-ms, and starts, stops and pays perf's cost besides:
  // one whose window alone is --timeout or longer fails every profiled cell
  if (options.profile && options.profileMs >= options.timeoutSeconds * 1000) {
    throw new UsageError(`--profile-ms ${options.profileMs}: a profiled run reads that long, so it cannot end ` +
      `within --timeout ${options.timeoutSeconds} s; give a --timeout of more than ${options.profileMs / 1000} ` +
      '(twice that is safe) or a shorter --profile-ms')
  }
  if (options.pin && options.feeder === 'file') {
    throw new UsageError('--pin places dd, which --feeder file does not run: drop one of them')
  }
  const preset = PRESETS[options.preset]
  const costSizes = options.sizes.filter(size => COST_SIZES.includes(size))
  Object.assign(options, {
    costSizes: options.cost ? (costSizes.length ? costSizes : [options.sizes[0]]) : [],
    minMiB: preset.minMiB,
    maxMiB: preset.maxMiB,
    readsPerRun: preset.readsPerRun,
    straceMiB: preset.straceMiB
  })
  if (options.marginal) {
    const tooFew = options.sizes.find(blockSize => quarterBytes(options, blockSize) === null)
    if (tooFew) throw new UsageError(`--marginal at ${tooFew} B needs at least 8 of dd's ${feederBlockSize(options, tooFew)}-byte blocks per run: give a larger --mib`)
  }
  return options
}

// --list at the first of --sizes (default 65536), with --node's versioned rows.
function list (values) {
  const blockSize = values.sizes === undefined ? 65536 : parseBlockSizeOption(values.sizes.split(',')[0])
  const nodeVersions = values.node === undefined ? [] : values.node.split(',').map(parseNodeVersion)
  return listing(withNodeVersions(programs, nodeVersions), blockSize)
}

// A run's steps measured one by one, into folders for the profiles' raw output;
// --feeder file's inputs are made once and removed when the run ends.
function session (options, runDir) {
  makeDirs(path.join(runDir, PHASES.strace))
  makeDirs(path.join(runDir, PHASES.gc))
  makeDirs(path.join(runDir, PHASES.fastPath))
  const zeroFiles = { whole: new ZeroFile(), quarter: new ZeroFile() }
  // each reader's CPU per read from this run's cost pass, which sizes its later cost runs,
  // its kernel runs and its profile runs: the figure of the try the log kept of its last cost
  // step. A try that shared its CPUs with other work is measured again (lib/measure-steps.js),
  // so a try's figure counts only once the next step begins; the try that replaces it is
  // given the bytes the first had.
  const costs = new Map()
  const lastTry = new Map()
  const bytesGiven = new Map()
  const cell = step => `${step.program.name}\t${step.blockSize}`
  return {
    measure: async (step, run) => {
      const tryKey = `${step.phase}\t${cell(step)}\t${run}`
      const pending = lastTry.get(cell(step))
      if (pending && pending.tryKey !== tryKey) {
        costs.set(cell(step), pending.cpuPerReadNs)
        lastTry.delete(cell(step))
      }
      // only the run under perf needs --profile-ms's samples; the unprofiled run beside it
      // measures the CPU per read they are scaled by, which its default length measures well
      const profiled = step.phase === PHASES.profile
      const windowS = profiled ? options.profileMs / 1000 : PROFILE_WINDOW_S
      const leastReads = profiled ? profileLeastReads(options.profileRounds) : 0
      const cpuPerReadNs = costs.get(cell(step)) ?? null
      // the cost and kernel passes' runs of the slowest readers, shortened (costRunBytes)
      const bytes = bytesGiven.get(tryKey) ?? (PROFILE_PHASES.includes(step.phase)
        ? profileBytes(step, cpuPerReadNs, windowS, leastReads)
        : [PHASES.cost, PHASES.kernel].includes(step.phase) ? costRunBytes(step, cpuPerReadNs) : undefined)
      bytesGiven.set(tryKey, bytes)
      const sized = bytes === undefined ? step : { ...step, bytes }
      const measured = await measure(sized, run, options, runDir, zeroFiles)
      if (step.phase === PHASES.cost && measured.record.ok) {
        lastTry.set(cell(step), { tryKey, cpuPerReadNs: slopePerRead(measured.record) })
      }
      return measured
    },
    close: async () => {
      zeroFiles.whole.remove()
      zeroFiles.quarter.remove()
    }
  }
}

// Where each pass ran (lib/placement.js): dd and the reader share the last CPU, but for
// the timing pass under --pin.
function placementPasses (options, placement) {
  const timing = options.pin ? placement.apart : placement.shared
  return {
    startup: timing,
    timing,
    ...(options.cost ? { cost: costRunPin(options, placement.shared), fastPath: placement.shared } : {}),
    ...(options.kernel ? { kernel: costRunPin(options, placement.shared) } : {}),
    // one CPU at the default policy lies under a timer's samples, which pile up where the
    // reader is switched back in, every few pages; at SCHED_BATCH it is once a pipe's worth
    ...(options.profile ? { profile: placement.sharedBatch } : {}),
    ...(options.strace || options.gc ? { profiles: placement.shared } : {})
  }
}

function context (options, selection, placement) {
  return {
    // the modules of LAB_EXTRA_PROGRAMS, so that a resume can say what to set again
    extraPrograms: extraModules,
    costPin: options.cost
      ? { cpu: placement.shared.reader, policy: costRunPin(options, placement.shared).policy }
      : null
  }
}

function describe (options, { runnable }) {
  return `${runnable.length} programs, sizes ${options.sizes.join(',')}, ${options.runs} runs, feeder ${options.feeder}`
}

// runDir: the run's folder, whose raw files (the GC traces) fill what older records lack.
function derive (records, context, runDir) {
  return {
    'results.json': summariseResults(records, context, runDir),
    'syscalls.json': summariseSyscalls(records, context),
    'gc.json': summariseGcResults(records, context, runDir),
    'profile.json': summariseProfile(dataPoints(records), { slopePerRead, windowSpan, pairFigures },
      rejectedCells(dataPoints(records)))
  }
}

// For analyse.js --rederive: the profiled runs' samples attributed again by today's rules
// from the perf script texts the run kept (profile.js reattributed), so that a rule mended
// later reaches a run measured before it; every other record as it was.
function refresh (records, runDir) {
  return records.map(record => (record.phase === PHASES.profile ? reattributed(record, runDir, windowSpan) : record))
}

// The bench that measures one cell (a program at a block size) as `options` did: the
// options that shape a run, the Node version of a versioned row, and the module of a row
// from LAB_EXTRA_PROGRAMS.
function rerun (options, { program, blockSize }, runnable) {
  const args = ['--only', program, '--sizes', blockSize]
  const major = /@(\d+)$/.exec(program)
  if (major) args.push('--node', major[1])
  args.push(...rerunArgs(options, rows, options.preset))
  const module = runnable.find(row => row.name === program)?.module
  return { env: module ? `LAB_EXTRA_PROGRAMS=${shellQuote([module])} ` : '', args }
}

const failureLabel = failure => `@ ${failure.blockSize}`

module.exports = {
  name: 'stdio',
  phases: LOGGED_PHASES,
  about: ['the stdin readers across block sizes (the default)'],
  options: rows,
  stored: derivedStored,
  later: LATER_OPTIONS,
  PRESETS,
  BASELINE,
  check: checkTable,
  configure,
  list,
  select,
  recorded,
  plan: (options, { runnable }, environment) => plan(options, runnable, environment),
  costSteps,
  cellKey,
  // a reader that failed at a cell, or hung at a size, is not run there again
  recurring,
  session,
  context,
  passes: placementPasses,
  describe,
  derive,
  refresh,
  // the kernel pass runs at the cost pass's sizes: without them there is none to ask BPF for
  wantsKernel: options => options.kernel && options.costSizes.length > 0,
  // the profile pass runs at the cost pass's smallest size: perf is asked for only then
  wantsProfile: options => options.profile && options.costSizes.length > 0,
  derivedFiles: { syscalls: 'syscalls.json', gc: 'gc.json', profile: 'profile.json' },
  resultsProblem: results => isRecordList(results.cells) ? null : 'no list of cells',
  measured: results => results.cells.length > 0,
  rerun,
  failureLabel,
  get report () { return require('./report') }
}
