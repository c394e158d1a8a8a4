'use strict'
// The context of each run the report shows: what ran where, as labelled rows, and its
// failed runs. The run's experiment (its report, experiments/<name>/report.js) gives
// the rows on how it measured and says where each of its passes ran.
const { formatNumber } = require('./format')
const { STEAL_SHARE } = require('../steal')
const { machineIdentity } = require('../machine')
const { displayPath } = require('../paths')
const { disturbanceText, DISTURBANCE_LABEL } = require('../foreign')

// One resume of a run: older runs logged only its date.
function describeResume (resume) {
  if (typeof resume === 'string') return resume
  const changed = resume.runtimesChanged?.length ? `, other versions of ${resume.runtimesChanged.join(', ')}` : ''
  return `${resume.date} (lab commit ${resume.lab?.commit ?? '?'}${resume.lab?.dirty ? ', uncommitted changes' : ''}${changed})`
}

// report: the set's experiment's ({ contextRows(set), pinText(pin) }).
function contextOf (set, report) {
  const context = set.context ?? {}
  const shaped = {
    label: set.label,
    runId: context.runId ?? set.results.runId ?? null,
    // as the user would type it: a committed page names results/reference, not this clone's path
    dir: set.dir ? displayPath(set.dir) : null,
    date: context.date ?? null,
    resumedAt: context.resumedAt ?? [],
    lab: context.lab ?? null,
    machine: context.machine ?? null,
    runtimes: Object.entries(context.runtimes ?? {}).map(([name, runtime]) => ({ name, label: runtime.label, version: runtime.version, binary: runtime.binary })),
    compiler: context.compiler ?? null,
    host: context.host ?? null,
    skipped: context.skipped ?? [],
    stealShare: set.results.stealShare ?? null,
    placement: context.placement ?? null,
    disturbance: set.results.disturbance ?? null
  }
  shaped.rows = contextRows(shaped, report.contextRows(set), report.pinText)
  return shaped
}

// The context as labelled lines, in the order a reader checks them: what ran where.
function contextRows (context, measured, pinText) {
  const machine = context.machine ?? {}
  const lines = [
    ['run', context.runId],
    ['date', context.date],
    ['machine', [machine.cpuModel, machine.cores && `${machine.cores} cores`, machine.memoryBytes && `${formatNumber(machine.memoryBytes / 2 ** 30)} GiB`, machine.container ? 'container' : null].filter(Boolean).join(', ')],
    ['os', machine.os],
    ['kernel', machine.uname ?? machine.kernel],
    ['cpu governor', machine.cpuGovernor ?? 'not reported'],
    ...machineFactorRows(machine),
    ['VM steal', context.stealShare === null ? 'not recorded' : `${stealPercent(context.stealShare)} of the CPUs' time during the runs (cells above ${Math.round(STEAL_SHARE * 100)}% are flagged steal)`],
    ['placement', placementText(context.placement, pinText)],
    [DISTURBANCE_LABEL, disturbanceText(context.disturbance)],
    ['compiler', context.compiler ? `${context.compiler.version ?? ''} (${context.compiler.flags ?? ''})` : null],
    ...context.runtimes.map(runtime => [runtime.label ?? runtime.name, runtime.version]),
    ...measured,
    ['V8 host', context.host?.version ? `${context.host.version} (${context.host.selectedBy ?? ''})` : null],
    ['skipped programs', context.skipped.length ? context.skipped.map(skip => `${skip.program}: ${skip.reason}`).join('; ') : null],
    ['resumed', context.resumedAt.length ? context.resumedAt.map(describeResume).join('; ') : null],
    ['lab commit', labCommitText(context.lab)],
    ['bench.js arguments', context.lab?.bench ? context.lab.bench.join(' ') : null]
  ]
  return lines.filter(([, value]) => value !== null && value !== undefined && value !== '')
}

// Whether strace ran, and which: a row of every experiment's measured rows (context.json's).
function straceRow (context) {
  return ['strace', context.ptrace?.available ? context.strace : `not run: ${context.ptrace?.reason ?? 'unknown'}`]
}

// Where each pass ran (lib/placement.js), each pass's CPUs as its experiment says them;
// runs from before it was recorded say so.
function placementText (placement, pinText) {
  if (!placement) return 'not recorded (a run from before every pass was pinned)'
  const passes = Object.entries(placement.passes ?? {}).map(([pass, pin]) => `${pass}: ${pinText(pin)}`)
  const kept = [placement.system !== null ? `CPU ${placement.system} kept for the system` : null, placement.driver !== null ? `the bench on CPU ${placement.driver}` : null]
  const caveats = [...(placement.refused ?? []).map(entry => `CPU ${entry.cpu} refused (${entry.reason})`), ...(placement.unreliable ?? []).map(what => `unreliable: ${what}`)]
  return [passes.join('; '), ...kept, ...caveats].filter(Boolean).join('; ')
}

// Steal is mostly under a percent: whole percents would show it all as 0%.
const stealPercent = share => `${formatNumber(share * 100)}%`

// What makes a syscall dearer on one machine than another (lib/context.js): a line each,
// and of the vulnerabilities only those the kernel says the CPU has.
function machineFactorRows (machine) {
  const recorded = value => value ?? 'not recorded'
  const switches = machine.mitigationSwitches
  const vulnerabilities = machine.vulnerabilities
  const affected = Object.entries(vulnerabilities ?? {}).filter(([, state]) => state && state !== 'Not affected')
  return [
    ['clock source', recorded(machine.clockSource)],
    ['transparent huge pages', recorded(machine.transparentHugePages)],
    ['mitigation switches', switches ? (switches.length ? switches.join(' ') : 'none on the kernel command line') : 'not recorded'],
    // every syscall's entry runs them (docs/machines.md)
    ['seccomp', machine.seccomp === undefined ? 'not recorded' : (machine.seccomp ?? 'not readable')],
    ...(vulnerabilities
      ? (affected.length ? affected.map(([name, state]) => [`vulnerability ${name}`, state]) : [['vulnerabilities', 'none the CPU is affected by']])
      : [['vulnerabilities', 'not recorded']])
  ]
}

// Every failed run of the sets, each with where it ran as its experiment says it.
function failureList (sets, where) {
  return sets.flatMap(set => (set.results.failures ?? []).map(failure => ({ set: set.label, ...failure, where: where(failure) })))
}

// Why a set has no syscall counts from its strace pass.
function syscallsMissingReason (set) {
  if (set.missing?.syscalls) return set.missing.syscalls
  const ptrace = set.syscalls?.ptrace ?? set.context?.ptrace
  if (ptrace && ptrace.available === false) return `strace did not run: ${ptrace.reason ?? 'no reason recorded'}`
  return 'the strace pass recorded no profile (every strace run failed; see the failures)'
}

// The lab's commit a run was measured at, and whether its tree had changes no commit
// holds: a figure from such a run cannot be traced to code anyone can check out.
function labCommitText (lab) {
  if (!lab) return null
  return `${lab.commit ?? '?'}${lab.dirty ? ' (uncommitted changes)' : ''}`
}

// The date, machine and commit a one-set report's heading gives: the machine there, since two
// runs of one name (an "AMD EPYC VM") may be two machines whose figures differ. Its key's slug
// tells them apart; the context table says how.
function measuredOn (set) {
  const commit = labCommitText(set.context?.lab)
  const machine = set.context?.machine ? ` on ${machineIdentity(set.context).slug}` : ''
  return `measured ${set.context?.date ?? 'on an unrecorded date'}${machine}${commit ? ` at lab commit ${commit}` : ''}`
}

module.exports = {
  contextOf, straceRow, failureList, syscallsMissingReason, stealPercent, measuredOn, labCommitText
}
