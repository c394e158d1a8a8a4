'use strict'
// Which machine a run measured on. A syscall's price is set by the CPU, the kernel and
// its mitigations, the hypervisor, the clock source and whether a container wraps the
// process; two runs that agree on all of them are runs of one machine, whose figures
// should repeat (the two-run criterion), and two that do not are a comparison of
// machines, whose figures are expected to differ. The key is a digest of those facts
// alone: runtime versions, memory and the lab's own commit are not part of it.
const crypto = require('node:crypto')

// The facts that set a syscall's price, in the order the key digests them. Each names
// where context.json keeps it; `since` marks facts an older lab did not record; `digestUnless`,
// the value a fact added later leaves out of the digest, so that a machine's key stays what it
// was where the fact shows nothing new (the runs still compare it: sameMachine).
const KEY_FACTS = [
  { name: 'cpuModel', label: 'CPU model', pick: machine => machine.cpuModel },
  { name: 'cpuId', label: 'CPU family, model, stepping', pick: machine => cpuIdText(machine.cpu), since: true },
  { name: 'cores', label: 'cores', pick: machine => machine.cores },
  // a container's cpuset or a taskset: which CPUs the passes could be placed on
  { name: 'cpusAllowed', label: 'CPUs allowed', pick: machine => machine.cpusAllowed, since: true },
  { name: 'kernel', label: 'kernel', pick: machine => machine.kernel },
  { name: 'vulnerabilities', label: 'mitigations', pick: machine => machine.vulnerabilities },
  { name: 'mitigationSwitches', label: 'mitigation switches', pick: machine => machine.mitigationSwitches },
  { name: 'hypervisor', label: 'hypervisor', pick: machine => machine.hypervisor, since: true },
  { name: 'clockSource', label: 'clock source', pick: machine => machine.clockSource },
  { name: 'container', label: 'container', pick: machine => machine.container },
  // filters run at every syscall's entry (since 2026-12-07, evening; a review)
  // (null: /proc unreadable, so not recorded)
  {
    name: 'seccomp',
    label: 'seccomp',
    pick: machine => machine.seccomp ?? undefined,
    since: true,
    digestUnless: 'none'
  }
]

const cpuIdText = cpu => (cpu && cpu.vendor
  ? `${cpu.vendor} family ${cpu.family} model ${cpu.model} stepping ${cpu.stepping}`
  : undefined)

// Stable whatever order a context's objects were written in.
function canonical (value) {
  if (Array.isArray(value)) return value.map(canonical)
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map(name => [name, canonical(value[name])]))
  }
  return value
}

// A short, readable name for folders and columns: the CPU's words, the cores, and the
// key's first digits, which tell two machines of one CPU model apart.
function machineSlug (machine, digest) {
  const words = String(machine.cpuModel ?? 'unknown cpu')
    .replace(/\((R|TM|tm|r)\)/g, ' ')
    .replace(/@.*$/, ' ')
    .replace(/\b(Processor|CPU|with Radeon.*|\d+-Core)\b/gi, ' ')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .slice(0, 4)
  return [...words, machine.cores ? `${machine.cores}c` : null, digest.slice(0, 8)]
    .filter(Boolean).join('-')
}

// The machine a context names: its key (a digest of KEY_FACTS), a slug, the facts
// themselves, and which of them the context lacked (a run from an older lab is keyed
// from what it has, and says so).
function machineIdentity (context) {
  const machine = context?.machine ?? {}
  const facts = {}
  const digested = {}
  const missing = []
  for (const fact of KEY_FACTS) {
    const value = fact.pick(machine)
    if (value === undefined) missing.push(fact.name)
    else facts[fact.name] = value
    if (value !== undefined && value !== fact.digestUnless) digested[fact.name] = value
  }
  const digest = crypto.createHash('sha256').update(JSON.stringify(canonical(digested)))
    .digest('hex').slice(0, 12)
  return {
    key: digest,
    slug: machineSlug(machine, digest),
    facts,
    missing,
    olderLab: missing.some(name => KEY_FACTS.find(fact => fact.name === name).since)
  }
}

// The machine as bench's first line names it: its slug, and the CPU's family and model, which
// tell two VMs sold under one CPU name apart (an AMD EPYC of Zen 3 or of Zen 4).
function machineName (context) {
  const { slug } = machineIdentity(context)
  const cpu = context?.machine?.cpu
  return cpu?.family == null ? slug : `${slug} (CPU family ${cpu.family} model ${cpu.model})`
}

// The facts the lab's first contexts recorded already: a run without them names no machine.
const FIRST_FACTS = ['cpuModel', 'cores', 'kernel']

// Whether two identities are one machine: every fact both recorded agrees. A fact only
// one of them has (an older lab's run) cannot tell them apart, and is named; one the first
// labs recorded, missing from either, leaves the machine unknown, never the same (a review:
// a run with no machine facts was one machine with every other).
function sameMachine (a, b) {
  const compared = KEY_FACTS.filter(fact => fact.name in a.facts && fact.name in b.facts)
  const differing = compared.filter(fact =>
    JSON.stringify(canonical(a.facts[fact.name])) !== JSON.stringify(canonical(b.facts[fact.name])))
  const unrecorded = KEY_FACTS.filter(fact => FIRST_FACTS.includes(fact.name) && !compared.includes(fact))
  const unknown = KEY_FACTS.filter(fact => !compared.includes(fact)).map(fact => fact.label)
  return {
    same: differing.length === 0 && unrecorded.length === 0,
    differing: [
      ...differing.map(fact => fact.label),
      ...unrecorded.map(fact => `${fact.label} (not recorded)`)
    ],
    unknown
  }
}

// Runs grouped by machine, in the order their first run was given, each group's runs in the
// order given; each set gains its `machine` identity. A run joins a group when sameMachine says
// so of every run in it: a fact one run lacks must not join two that differ in it. The runs
// that record more facts are placed first (then by key, so that the order given does not
// matter), so that a run of an older lab finds every group its facts cannot tell apart: it joins
// the one it fits, and where it fits several it joins the runs alike in that (a group of its
// own, `ambiguous`), whatever order the runs came in (reviews: an older run without a CPU id
// joined whichever of a Zen 3 and a Zen 4 came first). A group's identity is its best-recorded
// run's, with every fact any of its runs lacks (missing, olderLab), which the report names.
function groupByMachine (sets) {
  const placed = sets.map((set, order) =>
    ({ set: { ...set, machine: set.machine ?? machineIdentity(set.context) }, order }))
  const byFacts = [...placed].sort((a, b) => a.set.machine.missing.length - b.set.machine.missing.length ||
    String(a.set.machine.key).localeCompare(String(b.set.machine.key)) || a.order - b.order)
  const groups = []
  const fitting = (group, entry) =>
    group.members.every(member => sameMachine(member.set.machine, entry.set.machine).same)
  for (const entry of byFacts) {
    const fits = groups.filter(group => fitting(group, entry))
    const alike = fits.length > 1 ? fits.filter(group => group.ambiguous) : fits
    if (alike.length === 1) alike[0].members.push(entry)
    // its first run, placed first, the best-recorded: its identity
    else groups.push({ ambiguous: fits.length > 1, members: [entry], best: entry.set.machine })
  }
  for (const group of groups) group.members.sort((a, b) => a.order - b.order)
  groups.sort((a, b) => a.members[0].order - b.members[0].order)
  // an older lab's runs that fit two machines told apart only by a fact the digest leaves out
  // where it shows nothing new (seccomp "none" against a filter) have the key of one of them:
  // their slug says they are not that machine's runs (a review: two columns of one name)
  const sureKeys = new Set(groups.filter(group => !group.ambiguous).map(group => group.best.key))
  return groups.map(({ members, best, ambiguous }) => {
    const machines = members.map(member => member.set.machine)
    const missing = [...new Set(machines.flatMap(machine => machine.missing))]
    const slug = ambiguous && sureKeys.has(best.key) ? `${best.slug}-older` : best.slug
    return {
      identity: { ...best, slug, missing, olderLab: machines.some(machine => machine.olderLab) },
      sets: members.map(member => member.set)
    }
  })
}

// The pairs the two-run criterion is for: each machine's first run against each of its
// later runs. Runs of different machines are never such a pair.
function repeatPairs (sets) {
  return groupByMachine(sets).flatMap(group =>
    group.sets.slice(1).map(other => [group.sets[0], other]))
}

// A pair measured two ways (two placements, say) holds two figures, not one measured twice:
// the sentence that says so in place of the two-run criterion, or null where `methodOf` gives
// both runs the same way.
function methodDifference ([first, other], methodOf, what) {
  const ways = [first, other].map(methodOf)
  if (ways[0] === ways[1]) return null
  return `${first.label} and ${other.label} ran in different ${what} (${ways.join(' and ')}): ` +
    'two figures, not one measured twice, so no two-run check'
}

module.exports = {
  KEY_FACTS,
  machineIdentity,
  machineName,
  sameMachine,
  groupByMachine,
  repeatPairs,
  methodDifference,
  machineSlug
}
