'use strict'
// The stdio experiment's plan: every run of its passes, in order, as steps that
// experiments/stdio/measure.js measures one at a time.
const { PHASES } = require('./phases')
const { runtimes } = require('../../lib/runtimes')
const { feederBlockSize, inputLabel } = require('./measure')
const { uncheckableReason } = require('./fastpath')
const { COST_MAX_BYTES } = require('./cost')
const { kernelSteps } = require('./kernel')
const { profileSteps } = require('./profile')
const { findProgram, BASELINE } = require('./programs')

const MiB = 1 << 20

// The cost pass, the headline (experiments/stdio/cost.js), runs at COST_SIZES: the
// smallest block, where a read's cost shows most, one page, and the study's 64 KiB. Each
// run's reader is sampled every COST_SAMPLE_MS for the slope of its CPU time over its reads.
const COST_SIZES = [256, 4096, 65536]
const COST_READS = 1 << 17
const COST_MIN_MIB = 64
const COST_SAMPLE_MS = 1

function bytesPerRun (options, blockSize) {
  if (options.mib) return options.mib * MiB
  return Math.min(options.maxMiB * MiB, Math.max(options.minMiB * MiB, blockSize * options.readsPerRun))
}

// The bytes of a --marginal run: a quarter of a timed run's, in whole dd blocks (any
// bytes from a file), or null when a run is too short to leave two blocks to a quarter.
function quarterBytes (options, blockSize) {
  const unit = options.feeder === 'file' ? 1 : feederBlockSize(options, blockSize)
  const blocks = Math.floor(bytesPerRun(options, blockSize) / 4 / unit)
  return blocks >= 2 ? blocks * unit : null
}

// A cost round's run: 2^17 reads' worth of bytes, at least 64 MiB and at most 1 GiB
// (--mib N: N MiB). Its window, from 30% to 98% of the bytes, then holds some 90,000
// reads or more, past the JIT's warm-up, and at least 8 samples a millisecond apart
// (about 70 for C at 256 B, the fastest).
// --mib sets it too, but never below COST_MIN_MIB: C reads 64 MiB of 64 KiB blocks in
// about 30 ms here, barely enough samples for a slope, and in 10 ms on a faster CPU,
// too few: such a run is run again longer (experiments/stdio/measure.js).
function costBytes (options, blockSize) {
  if (options.mib) return Math.max(COST_MIN_MIB, options.mib) * MiB
  return Math.min(COST_MAX_BYTES, Math.max(options.minMiB * MiB, blockSize * COST_READS))
}

// Start-up and timing runs go in rounds: at each block size, round r runs every program
// once before round r + 1 starts, so a machine whose speed drifts during the bench (a
// busy neighbour on the host, a throttled CPU) slows every program alike instead of the
// cells that happened to run then. Each step is one run; steps of a group (a round, or
// one profile) share a progress line and a rewrite of the derived files. A cell's
// warm-up runs come before the first of its runs that this bench makes, so a resumed
// cell is warmed again. The cost pass follows (costSteps), then the profiles.
function plan (options, selected, { ptrace, bpf, perf, placement, shuffle }) {
  const costPin = placement.shared
  const timingPin = options.pin ? placement.apart : placement.shared
  const steps = []
  const largest = options.sizes[options.sizes.length - 1]
  // each round runs every program once in each of `runsOf` (a phase and its bytes)
  const rounds = (blockSize, runsOf) => {
    for (let run = 0; run < options.runs; run++) {
      const group = `${runsOf[0].phase} @ ${blockSize}, run ${run + 1} of ${options.runs}`
      for (const program of shuffle(selected)) {
        for (const { phase, bytes } of runsOf) {
          steps.push({ phase, program, blockSize, bytes, run, warmup: options.warmup, pin: timingPin, group, label: `${group}: ${program.name}${phase === runsOf[0].phase ? '' : ` (${phase})`}` })
        }
      }
    }
  }
  rounds(largest, [{ phase: PHASES.startup, bytes: 0 }])
  for (const blockSize of options.sizes) {
    const quarter = options.marginal ? [{ phase: PHASES.timingQuarter, bytes: quarterBytes(options, blockSize) }] : []
    rounds(blockSize, [{ phase: PHASES.timing, bytes: bytesPerRun(options, blockSize) }, ...quarter])
  }
  steps.push(...costSteps(options, selected, costPin, shuffle))
  if (options.kernel && bpf?.available) {
    const bytesOf = blockSize => costBytes(options, blockSize)
    // as a cost run, at its policy
    steps.push(...kernelSteps(options, selected, { pin: costRunPin(options, costPin), shuffle, bytesOf }))
  }
  if (options.profile && perf?.available) {
    // C is every profile's yardstick, measured whether or not --only names it
    const yardstick = selected.some(program => program.name === BASELINE) ? [] : [findProgram(BASELINE)]
    const bytes = costBytes(options, Math.min(...options.costSizes))
    const partner = options.costPairing === 'slices' ? findProgram(BASELINE) : null
    const where = { pin: placement.sharedBatch, bytes, sampleMs: COST_SAMPLE_MS, shuffle, partner }
    steps.push(...profileSteps(options, [...yardstick, ...selected], where))
  }
  const profile = step => {
    const group = `${step.phase} ${step.program.name} @ ${step.blockSize}${step.phase === PHASES.strace ? ` (${inputLabel(step.bytes)})` : ''}`
    steps.push({ ...step, run: 0, warmup: 0, pin: costPin, group, label: group })
  }
  if (options.strace && ptrace.available) {
    for (const program of selected) {
      for (const blockSize of options.sizes) {
        const { small, large } = straceBytes(options, blockSize)
        for (const bytes of [small, large]) profile({ phase: PHASES.strace, program, blockSize, bytes })
      }
    }
  }
  if (options.gc) {
    for (const program of selected.filter(program => runtimes[program.runtime].v8Flags)) {
      for (const blockSize of options.sizes) profile({ phase: PHASES.gc, program, blockSize, bytes: bytesPerRun(options, blockSize) })
    }
  }
  return steps
}

// The cost pass after the timing runs, in rounds of its own: each round runs every
// reader that honours the block size, C among them, once at every cost size, on one CPU
// (costPin), sampled for the slope of its CPU time, unwarmed: the timing runs have loaded
// every binary. A round holds every size so that each cell's rounds spread over the whole
// pass: the machine's state drifts over minutes, and two back-to-back runs whose rounds
// of a size sat within one minute each disagreed on 9 of 30 headline cells (their
// readers' CPU per read moved by up to 6% while C's held within 1%).
// The fast-path check of the fastest readers (fastPathSteps) comes first: whatever runs the
// cost pass (the calls experiment too) checks what it ranks.
function costSteps (options, selected, costPin, shuffle) {
  const steps = fastPathSteps(options, selected, costPin)
  const runPin = costRunPin(options, costPin)
  const honouring = selected.filter(program => program.honoursBlockSize)
  const costSizes = honouring.length ? options.costSizes ?? [] : []
  for (let run = 0; run < options.costRounds && costSizes.length; run++) {
    const group = `cost, round ${run + 1} of ${options.costRounds}`
    for (const blockSize of costSizes) {
      const bytes = costBytes(options, blockSize)
      for (const program of shuffle(honouring)) {
        // --cost-pairing slices: every reader but C takes turns with a run of C
        const paired = options.costPairing === 'slices' && program.name !== BASELINE
        const partner = paired ? findProgram(BASELINE) : null
        const label = `${group}: ${program.name} @ ${blockSize}${partner ? ', in turns with C' : ''}`
        const where = { blockSize, bytes, run, warmup: 0, pin: runPin, ownFeeder: true, sampleMs: COST_SAMPLE_MS }
        steps.push({ phase: PHASES.cost, program, ...where, partner, group, label })
      }
    }
  }
  return steps
}

// A cost run's pin: dd and the reader on one CPU (`pin`), with --cost-policy batch both at
// SCHED_BATCH, where the reader is switched out once a pipe's worth, not every few pages
// (docs/method.md)
const costRunPin = (options, pin) => (options.costPolicy === 'batch' ? { ...pin, policy: 'batch' } : pin)

// The fast-path check (experiments/stdio/fastpath.js) of each fastest reader at each of the
// cost pass's sizes, whose cells it guards: one run each, as long as a cost run, so that
// the JIT has compiled the loop long before the end; before the cost pass, on its CPU.
function fastPathSteps (options, selected, pin) {
  const checked = selected.filter(program => program.fastest && uncheckableReason(program) === null)
  return checked.flatMap(program => (options.costSizes ?? []).map(blockSize => {
    const group = `fast path ${program.name} @ ${blockSize}`
    const bytes = costBytes(options, blockSize)
    const where = { blockSize, bytes, pin, ownFeeder: true }
    return { phase: PHASES.fastPath, program, ...where, run: 0, warmup: 0, group, label: group }
  }))
}

// The cell a run belongs to; its runs are logged in order, so a cell with n runs
// logged has done runs 0 … n - 1. A syscall profile is made at two input sizes; runs
// from before that profiled the main thread and every thread apart (straceMode).
function cellKey (step) {
  return [step.phase, step.program.name ?? step.program, step.blockSize, step.straceMode ?? '', step.phase === PHASES.strace ? step.bytes : ''].join('\t')
}

// The strace pass at each program and block size: one run under strace -C -f at each of
// two input sizes (strace.js: every thread's summary, the main thread's counts and
// each read of stdin, from the one run). Syscalls per MiB come from the difference of the
// two, where start-up's calls (loading, the runtime's own files and threads, exit) are in
// both and cancel (experiments/stdio/summary.js); each run's reads are checked against what the reader
// says it did. The sizes are a quarter and three quarters of straceMiB (1 and 3 MiB by
// default, 256 and 768 KiB with --quick), in whole dd blocks: the difference is half of
// straceMiB. The pass used to run strace -c twice at straceMiB (main thread, then every
// thread) and twice on empty input per program; it now traces half the bytes with two
// start-ups per cell, and printing each call costs about a third more than counting it:
// measured on node-sync and deno-ffi at the nine default sizes, the pass takes no longer.
function straceBytes (options, blockSize) {
  const unit = feederBlockSize(options, blockSize)
  const small = Math.max(unit, Math.floor(options.straceMiB * MiB / 4 / unit) * unit)
  return { small, large: 3 * small }
}

module.exports = {
  plan,
  costSteps,
  costRunPin,
  costBytes,
  COST_SAMPLE_MS,
  cellKey,
  bytesPerRun,
  quarterBytes,
  COST_SIZES
}
