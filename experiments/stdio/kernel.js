'use strict'
// The kernel pass (docs/kernel.md): how much of a reader's CPU time per read is spent
// inside read(2). Each reader that honours the block size runs as in the cost pass (the
// same bytes, dd's fixed blocks, both on the cost pass's CPU) under build/sysprof, which
// times every read of stdin on the CPU between sys_enter and sys_exit, without the spells
// the reader was switched out (lib/sysprof.js). Less the probes' own floor, that is the
// kernel's time per read; the headline's CPU per read less it is the rest: the runtime's
// own code, and the entry, exit and mitigations around the call.
// C also runs untraced in each round, beside its traced run, for what the probes cost.
const path = require('node:path')
const { PHASES } = require('./phases')
const { BASELINE } = require('./programs')
const { median, medianInterval, differenceInterval } = require('../../lib/stats')
const { parseProfile, callSummary, bySyscall, profileProblem } = require('../../lib/sysprof')

// The kernel pass's steps: rounds of every honouring reader at every cost size, shuffled
// each round, after the cost pass and on its CPU; C's untraced run follows its traced one.
function kernelSteps (options, selected, { pin, shuffle, bytesOf }) {
  const honouring = selected.filter(program => program.honoursBlockSize)
  const sizes = honouring.length ? options.costSizes ?? [] : []
  const steps = []
  for (let run = 0; run < (options.kernelRounds ?? 0) && sizes.length; run++) {
    const group = `kernel, round ${run + 1} of ${options.kernelRounds}`
    for (const blockSize of sizes) {
      for (const program of shuffle(honouring)) {
        const where = { blockSize, bytes: bytesOf(blockSize), run, warmup: 0, pin, ownFeeder: true, group }
        const label = `${group}: ${program.name} @ ${blockSize}`
        steps.push({ phase: PHASES.kernel, program, ...where, label })
        if (program.name !== BASELINE) continue
        steps.push({ phase: PHASES.kernelUntraced, program, ...where, label: `${label} (untraced)` })
      }
    }
  }
  return steps
}

const KERNEL_PHASES = [PHASES.kernel, PHASES.kernelUntraced]

const rawFileName = step => path.join('kernel', `${step.program.name}-${step.blockSize}-${step.run + 1}.json`)

// The calls that do a reader's reading: read(2)s of stdin (splice(2)s from it for
// limit-splice), or a ring reader's io_uring_enter(2)s, which submit its reads and wait.
const RING_CALL = 'io_uring_enter'
const readingCalls = program => program.ring
  ? call => call.name === RING_CALL
  : call => call.watchedFd

// What a traced run keeps: the calls that did its reading as the kernel timed them, their
// kernel time per read of the reader's (kernelPerReadNs: a host that reads stdin in chunks
// of its own, or a ring, makes fewer calls than reads), every syscall it made, and why it
// cannot be quoted (null when it can).
function kernelRecord (text, { program, reads }) {
  let profile
  try {
    profile = parseProfile(text)
  } catch (err) {
    return { problem: `the kernel pass wrote no profile: ${err.message}` }
  }
  const calls = callSummary(profile, readingCalls(program))
  const problem = profileProblem(profile) ??
    (calls === null ? `the kernel saw no ${program.ring ? RING_CALL : 'read of stdin'}` : null) ??
    (!program.ring && !program.hostChunks && calls.count < reads
      ? `the kernel saw ${calls.count} reads of stdin, the reader says ${reads}`
      : null)
  if (calls === null) return { problem }
  const syscalls = bySyscall(profile).map(({ percentiles, ...row }) => row)
  const kernel = {
    floorNs: profile.floorNs,
    lost: profile.lost,
    processes: profile.processes,
    threads: profile.threads,
    readingCall: [...new Set(profile.calls.filter(readingCalls(program)).map(call => call.name))].join(', '),
    calls,
    kernelPerReadNs: calls.kernelNs * calls.count / reads,
    // the reader's CPU per read under the probes, the tracer's own load left out
    tracedCpuPerReadNs: profile.commandCpuNs === null ? null : profile.commandCpuNs / reads,
    syscalls
  }
  return { problem, kernel }
}

// CPU per read over the whole run, from the reader's rusage (its start-up included: C's is
// a few hundred µs against a run of 0.1 s or more); under the probes, as sysprof measured
// its command, without the probes' loading and calibration.
const cpuPerRead = record => record.phase === PHASES.kernel
  ? record.kernel.tracedCpuPerReadNs
  : (record.reader.userUs + record.reader.sysUs) * 1000 / record.output.reads

// Each reader's time inside read(2) at each cost size, beside its headline CPU per read:
// the median of its rounds with the interval of that median (lib/stats.js), the rest of its
// CPU per read, and how it stands against C's kernel time at the size. And what the probes
// cost C per read (traced against untraced, round by round).
// rejected: the cells whose reader was caught reading otherwise than it says, or whose fast
// path was not taken (summary.js rejectedCells), by cell: left out with their reason, as the
// headline fails them, so that no figure of this pass stands for a reader that failed.
function summariseKernel (records, headline, rejected = new Map()) {
  const key = record => `${record.program}\t${record.blockSize}`
  const passRuns = records.filter(record => record.phase === PHASES.kernel)
  if (passRuns.length === 0) return null
  const traced = passRuns.filter(record => record.ok && !rejected.has(key(record)))
  const left = new Map()
  for (const { program, blockSize } of passRuns) {
    const cell = key({ program, blockSize })
    if (rejected.has(cell) && !left.has(cell)) left.set(cell, { program, blockSize, reason: rejected.get(cell) })
  }
  const cells = new Map()
  for (const record of traced) {
    const cell = key(record)
    if (!cells.has(cell)) cells.set(cell, { program: record.program, blockSize: record.blockSize, runs: [] })
    cells.get(cell).runs.push(record)
  }
  // each cell's failed rounds, counted once: a cell that kept some says how many; one whose
  // every round failed has no figure, and is named with its first failure, not only counted
  // among the run's failures
  const failed = new Map()
  for (const record of passRuns.filter(each => !each.ok)) {
    const cell = key(record)
    if (!failed.has(cell)) {
      const { program, blockSize, failure = null } = record
      failed.set(cell, { program, blockSize, rounds: 0, failure })
    }
    failed.get(cell).rounds += 1
  }
  const lost = [...failed].filter(([cell]) => !cells.has(cell) && !left.has(cell)).map(([, cell]) => cell)
  const kernelOf = runs => runs.map(run => run.kernel.kernelPerReadNs)
  const out = []
  for (const cell of cells.values()) {
    const kernelNs = kernelOf(cell.runs)
    const sameCell = entry => entry.program === cell.program && entry.blockSize === cell.blockSize
    const cpu = headline?.cells.find(sameCell)
    const cpuPerReadNs = cpu?.cpuPerReadNs?.estimate ?? null
    const estimate = median(kernelNs)
    const base = cell.program === BASELINE ? null : cells.get(`${BASELINE}\t${cell.blockSize}`)
    const againstC = base ? differenceInterval(kernelNs, kernelOf(base.runs)) : null
    out.push({
      program: cell.program,
      blockSize: cell.blockSize,
      rounds: cell.runs.length,
      // its rounds that failed, which its figures leave out (each is in the run's failures)
      failedRounds: failed.get(key(cell))?.rounds ?? 0,
      kernelNs: { estimate, interval: medianInterval(kernelNs) },
      readingCall: cell.runs[0].kernel.readingCall,
      // per call, not per read of the reader's: on the CPU (probes' floor included), on
      // the wall, and how often one was switched out
      callsPerRead: median(cell.runs.map(run => run.kernel.calls.count / run.output.reads)),
      onCpuNs: median(cell.runs.map(run => run.kernel.calls.onCpuNs)),
      wallNs: median(cell.runs.map(run => run.kernel.calls.wallNs)),
      floorNs: median(cell.runs.map(run => run.kernel.floorNs)),
      switchesPerCall: median(cell.runs.map(run => run.kernel.calls.switchesPerCall)),
      percentiles: medianPercentiles(cell.runs),
      cpuPerReadNs,
      restNs: cpuPerReadNs === null ? null : cpuPerReadNs - estimate,
      kernelShare: cpuPerReadNs === null ? null : estimate / cpuPerReadNs,
      againstC
    })
  }
  return {
    meaning: 'time on the CPU inside the calls that read stdin (read(2); a ring\'s ' +
      'io_uring_enter(2)), from sys_enter to sys_exit, less the probes\' own floor (a null ' +
      'syscall\'s time under them), per read of the reader\'s; median of rounds',
    pin: traced[0]?.pin ?? null,
    cells: out.sort(inHeadlineOrder(headline)),
    tracerCost: tracerCost(records),
    failures: records.filter(record => KERNEL_PHASES.includes(record.phase) && !record.ok).length,
    rejected: [...left.values()],
    lost
  }
}

// The headline's order (C first, then by runtime), size by size; a reader it lacks last.
function inHeadlineOrder (headline) {
  const order = [...new Set((headline?.cells ?? []).map(cell => cell.program))]
  const rank = program => (order.includes(program) ? order.indexOf(program) : order.length)
  return (a, b) => a.blockSize - b.blockSize || rank(a.program) - rank(b.program) ||
    a.program.localeCompare(b.program)
}

// Each percentile of a cell's reads, the median over its rounds.
function medianPercentiles (runs) {
  const names = Object.keys(runs[0].kernel.calls.percentiles)
  const of = name => median(runs.map(run => run.kernel.calls.percentiles[name]))
  return Object.fromEntries(names.map(name => [name, of(name)]))
}

// What the probes add to C's CPU per read, at each size: each round's traced run against
// its untraced one, over the whole run (rusage), and the median of those differences.
function tracerCost (records) {
  const bySize = new Map()
  for (const record of records) {
    if (!KERNEL_PHASES.includes(record.phase) || record.program !== BASELINE || !record.ok) continue
    if (cpuPerRead(record) === null) continue
    const key = `${record.blockSize}\t${record.run}`
    bySize.set(key, { ...bySize.get(key), [record.phase]: cpuPerRead(record), blockSize: record.blockSize })
  }
  const sizes = new Map()
  for (const pair of bySize.values()) {
    if (pair[PHASES.kernel] === undefined || pair[PHASES.kernelUntraced] === undefined) continue
    if (!sizes.has(pair.blockSize)) sizes.set(pair.blockSize, [])
    sizes.get(pair.blockSize).push(pair)
  }
  return [...sizes].sort((a, b) => a[0] - b[0]).map(([blockSize, pairs]) => {
    const added = pairs.map(pair => pair[PHASES.kernel] - pair[PHASES.kernelUntraced])
    return {
      program: BASELINE,
      blockSize,
      pairs: pairs.length,
      untracedNs: median(pairs.map(pair => pair[PHASES.kernelUntraced])),
      tracedNs: median(pairs.map(pair => pair[PHASES.kernel])),
      addedNs: { estimate: median(added), interval: medianInterval(added) }
    }
  })
}

module.exports = { kernelSteps, kernelRecord, summariseKernel, rawFileName, KERNEL_PHASES }
