'use strict'
// Runs of several machines (lib/machine.js, lib/report/machines.js): the machine key and
// the same/different decision, the pairs the two-run criterion is for, and the
// comparison's arithmetic, every expected number worked out by hand beside it.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')

const { machineIdentity, sameMachine, groupByMachine, repeatPairs, methodDifference } = require('../../lib/machine')
const {
  compareMachines, carries, pool, difference, reciprocal, incomparable, CARRY
} = require('../../lib/report/machines')
const stdioFigures = require('../../experiments/stdio/machines').machineFigures
const callsFigures = require('../../experiments/calls/machines').machineFigures
const { summaryText, machinesMarkdown, machinesHtml, machinesCsv } = require('../../lib/report/machines-text')

const close = (actual, expected, message) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${message}: ${actual}, not ${expected}`)

const AMD = {
  kernel: '6.18.44',
  cpuModel: 'AMD EPYC',
  cpu: { vendor: 'AuthenticAMD', family: 25, model: 17, stepping: 1, microcode: '0x1' },
  cores: 2,
  cpusAllowed: '0,1',
  memoryBytes: 24 * 2 ** 30,
  container: false,
  vulnerabilities: { retbleed: 'Not affected', spectre_v2: 'Mitigation: Retpolines' },
  mitigationSwitches: [],
  hypervisor: 'KVM',
  clockSource: 'tsc',
  seccomp: 'none'
}
const INTEL = {
  ...AMD,
  cpuModel: 'Intel(R) Xeon(R) Processor',
  cpu: { ...AMD.cpu, vendor: 'GenuineIntel', family: 6, model: 106 },
  vulnerabilities: { ...AMD.vulnerabilities, retbleed: 'Vulnerable' }
}
const context = (machine, extra = {}) => ({
  machine,
  lab: { commit: 'abc' },
  runtimes: { node: { version: 'v24.21.0' } },
  ...extra
})

test('the machine key digests the facts that set a syscall\'s price, in any order, and nothing else', () => {
  const a = machineIdentity(context(AMD))
  // the same facts written in another order: the same key
  const reordered = Object.fromEntries(Object.entries(AMD).reverse())
  reordered.vulnerabilities = { spectre_v2: 'Mitigation: Retpolines', retbleed: 'Not affected' }
  assert.equal(machineIdentity(context(reordered)).key, a.key)
  // memory, microcode and the runtimes' versions are not the machine
  const other = machineIdentity(context(
    { ...AMD, memoryBytes: 8 * 2 ** 30, cpu: { ...AMD.cpu, microcode: '0x2' } },
    { runtimes: { node: { version: 'v26' } } }
  ))
  assert.equal(other.key, a.key)
  // each fact of the key moves it
  for (const change of [
    { kernel: '6.1.0' }, { cores: 4 }, { cpusAllowed: '1' }, { clockSource: 'kvm-clock' },
    { container: true }, { hypervisor: 'Xen' }, { mitigationSwitches: ['mitigations=off'] },
    { vulnerabilities: { ...AMD.vulnerabilities, retbleed: 'Vulnerable' } }, { seccomp: '1 filter' }
  ]) {
    assert.notEqual(
      machineIdentity(context({ ...AMD, ...change })).key, a.key, JSON.stringify(change)
    )
  }
  assert.match(a.key, /^[0-9a-f]{12}$/)
  assert.equal(a.slug, `amd-epyc-2c-${a.key.slice(0, 8)}`)
  assert.equal(machineIdentity(context(INTEL)).slug.startsWith('intel-xeon-2c-'), true)
  assert.deepEqual([a.missing, a.olderLab], [[], false])
})

// A review: a container's seccomp filter, which every syscall runs, was no fact of the key
test('seccomp: read from /proc, a filter in the key, none leaving the key as it was', () => {
  const { seccompFilters } = require('../../lib/context')
  const status = (mode, filters) => `Name:\tnode\nSeccomp:\t${mode}\n` +
    (filters === undefined ? '' : `Seccomp_filters:\t${filters}\n`) + 'Speculation_Store_Bypass:\tvulnerable\n'
  assert.deepEqual([status(0, 0), status(1, 0), status(2, 1), status(2, 3), status(2)].map(seccompFilters),
    ['none', 'strict', '1 filter', '3 filters', 'filters'])
  // a kernel without seccomp has no such line, and no filters
  assert.equal(seccompFilters('Name:\tnode\n'), 'none')
  assert.equal(seccompFilters(null), null)
  // unreadable: not recorded, as an older lab's run
  assert.ok(machineIdentity(context({ ...AMD, seccomp: null })).missing.includes('seccomp'))
  // a machine without filters keeps the key it had before the fact was recorded
  const { seccomp, ...before } = AMD
  assert.equal(machineIdentity(context(AMD)).key, machineIdentity(context(before)).key)
  // an older run of it, which fits both it and a filtered run, is a group of its own, whose
  // key is the first's: its slug tells the two groups apart
  const groups = groupByMachine([
    { label: 'none', context: context(AMD) },
    { label: 'older', context: context(before) },
    { label: 'filter', context: context({ ...AMD, seccomp: '1 filter' }) }
  ])
  const slugs = groups.map(group => group.identity.slug)
  assert.equal(new Set(slugs).size, 3, slugs.join(', '))
  const older = groups.find(group => group.sets[0].label === 'older').identity
  assert.equal(older.slug, `${machineIdentity(context(AMD)).slug}-older`)
  // a filtered run of it is another machine, and the fact is named
  const filtered = sameMachine(machineIdentity(context(AMD)), machineIdentity(context({ ...AMD, seccomp: '1 filter' })))
  assert.deepEqual([filtered.same, filtered.differing], [false, ['seccomp']])
})

test('a container is known by any of its managers\' signs, and a bare machine by none', () => {
  const { containerSign } = require('../../lib/context')
  const none = { exists: () => false, read: () => null, env: {}, namespace: () => 'pid:[4026531836]' }
  assert.equal(containerSign(none), null)
  const sign = given => containerSign({ ...none, ...given })
  assert.equal(sign({ exists: file => file === '/run/.containerenv' }), '/run/.containerenv')
  assert.equal(sign({ exists: file => file === '/run/systemd/container' }), '/run/systemd/container')
  // LXC: PID 1's environment
  const environ = 'PATH=/usr/bin\0container=lxc\0TERM=linux'
  assert.equal(sign({ read: file => (file === '/proc/1/environ' ? environ : null) }), 'PID 1\'s container=lxc')
  // containerd (Kubernetes) and CRI-O by their cgroup (v1) paths
  const cgroups = {
    kubepods: '12:memory:/kubepods/burstable/pod1234/0123abcd\n0::/',
    'cri-containerd': '4:cpu:/system.slice/containerd.service/cri-containerd-0123abcd.scope',
    crio: '3:cpuset:/kubepods.slice/crio-0123abcd.scope'
  }
  for (const [name, text] of Object.entries(cgroups)) {
    assert.match(sign({ read: file => (file === '/proc/self/cgroup' ? text : null) }) ?? '', new RegExp(name))
  }
  // a VM's own cgroups, a manager's name nowhere in them, are no container's
  const vm = '4:memory:/process_api/f58c6199\n1:cpu:/\n0::/'
  assert.equal(sign({ read: file => (file === '/proc/self/cgroup' ? vm : null) }), null)
  assert.equal(sign({ env: { KUBERNETES_SERVICE_HOST: '10.0.0.1' } }), 'KUBERNETES_SERVICE_HOST')
  // containerd's under cgroup v2, its cgroup namespace showing 0::/ alone: its PID namespace
  const v2 = { read: file => (file === '/proc/self/cgroup' ? '0::/' : null), namespace: () => 'pid:[4026532201]' }
  assert.equal(sign(v2), 'PID namespace pid:[4026532201]')
  // one that cannot be read says nothing
  assert.equal(sign({ namespace: () => null }), null)
})

test('the kernel command line\'s mitigation switches: each of them, nothing else, init\'s part left out', () => {
  const { mitigationSwitches } = require('../../lib/context')
  const cmdline = 'BOOT_IMAGE=/vmlinuz root=/dev/vda1 nopti spectre_v2=off quiet mitigations=off ' +
    'pti_extra=1 retbleed=auto,nosmt -- nopti single'
  assert.deepEqual(mitigationSwitches(cmdline), ['nopti', 'spectre_v2=off', 'mitigations=off', 'retbleed=auto,nosmt'])
  assert.deepEqual(mitigationSwitches('console=ttyS0 reboot=k panic=1'), [])
})

test('an arm64 core is known by its implementer, architecture, part, variant and revision', () => {
  const { cpuId } = require('../../lib/context')
  const graviton = 'processor\t: 0\nBogoMIPS\t: 2100.00\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\n' +
    'CPU architecture: 8\nCPU variant\t: 0x1\nCPU part\t: 0xd40\nCPU revision\t: 1\n'
  const arm = cpuId(graviton)
  assert.deepEqual(arm, { vendor: 'implementer 0x41', family: 8, model: '0xd40', stepping: 'r1p1', microcode: null })
  // its key tells it from another core of the same implementer
  const other = cpuId(graviton.replace('0xd40', '0xd0c'))
  assert.notEqual(machineIdentity({ machine: { ...AMD, cpu: arm } }).key,
    machineIdentity({ machine: { ...AMD, cpu: other } }).key)
  // every core alike (a Graviton's): one part, as the first core says
  assert.deepEqual(cpuId(`${graviton}\n${graviton.replace('processor\t: 0', 'processor\t: 1')}`), arm)
  // big.LITTLE: each kind of core, in the CPUs' order (the first core's alone named the chip)
  const little = graviton.replace('0xd40', '0xd05').replace('CPU variant\t: 0x1', 'CPU variant\t: 0x2')
  const big = graviton.replace('0xd40', '0xd0b').replace('processor\t: 0', 'processor\t: 4')
  const mixed = cpuId(`${little}\n${little.replace('processor\t: 0', 'processor\t: 1')}\n${big}`)
  assert.deepEqual([mixed.model, mixed.stepping], ['0xd05+0xd0b', 'r2p1+r1p1'])
  assert.equal(cpuId('processor\t: 0\n'), null)
  assert.equal(cpuId('vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\nstepping\t: 8\n').model, 143)
})

test('a run from an older lab is keyed from what its context has, and says so', () => {
  const { cpu, hypervisor, cpusAllowed, ...older } = AMD
  const identity = machineIdentity(context(older))
  assert.deepEqual(identity.missing, ['cpuId', 'cpusAllowed', 'hypervisor'])
  assert.equal(identity.olderLab, true)
  // against a newer run of the same machine: the same by every fact both have, and the
  // facts that could not be compared are named
  const decision = sameMachine(identity, machineIdentity(context(AMD)))
  assert.deepEqual(decision, {
    same: true,
    differing: [],
    unknown: ['CPU family, model, stepping', 'CPUs allowed', 'hypervisor']
  })
  // a context without any machine: keyed all the same, nothing refused
  assert.deepEqual(machineIdentity({}).missing.length, 11)
  // but one machine with none: what every lab records is missing (a review: it was the same
  // machine as any other, so two machines' runs were judged as one measured twice)
  const none = sameMachine(machineIdentity({}), machineIdentity(context(AMD)))
  assert.equal(none.same, false)
  assert.ok(none.differing.includes('CPU model (not recorded)'), none.differing.join(', '))
})

// A review: an older run without a cpuId, then a Zen 3 and a Zen 4 alike in all else, became
// one machine given in that order and two given in another
test('runs group by machine whatever order they are given in', () => {
  const { cpu, ...older } = AMD
  const zen4 = { ...AMD, cpu: { ...AMD.cpu, family: 25, model: 17 } }
  const zen3 = { ...AMD, cpu: { ...AMD.cpu, family: 25, model: 1 } }
  const sets = { old: older, zen3, zen4 }
  // each order's groups as sorted lists of labels, the lists sorted: the same whatever the order
  const grouping = order => groupByMachine(order.map(label => ({ label, context: context(sets[label]) })))
    .map(group => group.sets.map(set => set.label).sort().join(' ')).sort()
  const orders = [['old', 'zen3', 'zen4'], ['zen3', 'old', 'zen4'], ['zen4', 'zen3', 'old']]
  const first = grouping(orders[0])
  for (const order of orders) assert.deepEqual(grouping(order), first, order.join(' '))
  // every run in one group exactly, and the two CPUs never in the same one
  assert.deepEqual(first.join(' ').split(' ').sort(), ['old', 'zen3', 'zen4'])
  assert.ok(first.every(group => !(group.includes('zen3') && group.includes('zen4'))), first.join(' | '))
  // the older run fits both CPUs, which its facts cannot tell apart: a machine of its own
  assert.deepEqual(first, ['old', 'zen3', 'zen4'])
  // beside one of them alone it joins it, its group in the order the runs were given
  const pair = groupByMachine(['old', 'zen4'].map(label => ({ label, context: context(sets[label]) })))
  assert.deepEqual(pair.map(group => group.sets.map(set => set.label)), [['old', 'zen4']])
  // keyed by its best-recorded run, saying what one of its runs lacks
  assert.equal(pair[0].identity.key, machineIdentity(context(zen4)).key)
  assert.deepEqual(pair[0].identity.missing, ['cpuId'])
  assert.equal(pair[0].identity.olderLab, true)
  // two older runs beside both CPUs: one machine of their own, a pair for the two-run check
  const two = { ...sets, old2: older }
  for (const order of [['old', 'zen3', 'old2', 'zen4'], ['zen4', 'old2', 'zen3', 'old']]) {
    const groups = groupByMachine(order.map(label => ({ label, context: context(two[label]) })))
    assert.deepEqual(groups.map(group => group.sets.map(set => set.label).sort().join(' ')).sort(),
      ['old old2', 'zen3', 'zen4'], order.join(' '))
  }
})

test('same or different machine: the facts that differ are named', () => {
  const decision = sameMachine(machineIdentity(context(AMD)), machineIdentity(context(INTEL)))
  assert.deepEqual(decision, {
    same: false,
    differing: ['CPU model', 'CPU family, model, stepping', 'mitigations'],
    unknown: []
  })
})

test('the two-run criterion pairs each machine\'s first run with its later ones, never two machines', () => {
  const sets = ['a1', 'i1', 'a2', 'i2', 'a3']
    .map(label => ({ label, context: context(label[0] === 'a' ? AMD : INTEL) }))
  assert.deepEqual(
    groupByMachine(sets).map(group => group.sets.map(set => set.label)),
    [['a1', 'a2', 'a3'], ['i1', 'i2']]
  )
  assert.deepEqual(
    repeatPairs(sets).map(pair => pair.map(set => set.label)),
    [['a1', 'a2'], ['a1', 'a3'], ['i1', 'i2']]
  )
  assert.deepEqual(repeatPairs(sets.slice(0, 2)), [])
})

test('a pair measured two ways is named as such; one way, it is left to the two-run criterion', () => {
  const placementOf = set => set.placement
  const [a, b, c] = [['a', 'alone'], ['b', 'one-cpu'], ['c', 'alone']]
    .map(([label, placement]) => ({ label, placement }))
  assert.equal(methodDifference([a, b], placementOf, 'placements'),
    'a and b ran in different placements (alone and one-cpu): two figures, not one measured twice, so no two-run check')
  assert.equal(methodDifference([a, c], placementOf, 'placements'), null)
})

test('carries: within 10% of the larger, or intervals sharing a point', () => {
  assert.equal(CARRY.percent, 10)
  const at = (estimate, low = null, high = null) => ({ estimate, low, high })
  // +77 against +81: 4/81 = 4.9% apart
  const near = carries([at(77), at(81)])
  assert.equal(near.carries, true)
  close(near.spreadPercent, 4 / 81 * 100, 'spread')
  // exactly 10% apart carries, 10.1% does not
  assert.equal(carries([at(90), at(100)]).carries, true)
  assert.equal(carries([at(89.9), at(100)]).carries, false)
  // +250 against +488: far apart, and intervals apart
  assert.equal(carries([at(250, 240, 260), at(488, 470, 500)]).carries, false)
  // far apart but intervals share a point (wide intervals): carries, by overlap
  const wide = carries([at(100, 60, 130), at(125, 120, 140)])
  assert.deepEqual([wide.carries, wide.close, wide.overlap], [true, false, true])
  // three machines: every pair must be close; one outlier breaks it
  assert.equal(carries([at(100), at(95), at(91)]).carries, true)
  assert.equal(carries([at(100), at(95), at(80)]).carries, false)
  // negative figures (a reader cheaper than C): by the larger magnitude
  assert.equal(carries([at(-148), at(-140)]).carries, true)
  // one machine, or none: nothing to test
  assert.equal(carries([at(100), null]), null)
})

test('pool without rounds: the median of the runs\' estimates and no interval, never the union of theirs', () => {
  // an interval spanning theirs would widen with every run, and carry more the more runs
  // there were; with no rounds to compute one from, the pooled figure has none and can
  // carry only by its value
  const pooled = pool([
    { estimate: 10, low: 9, high: 11, level: 0.95 },
    { estimate: 14, low: 13, high: 16, level: 0.959 },
    null
  ])
  assert.deepEqual(pooled, { estimate: 12, low: null, high: null, level: null, runs: 2, pooled: 'estimates' })
  assert.deepEqual(
    pool([{ estimate: 3, low: null, high: null }, { estimate: 5, low: 4, high: 6 }]),
    { estimate: 4, low: null, high: null, level: null, runs: 2, pooled: 'estimates' }
  )
  assert.deepEqual(pool([{ estimate: 3, low: 2, high: 4, level: 0.95 }]), { estimate: 3, low: 2, high: 4, level: 0.95, runs: 1 })
  assert.equal(pool([null, undefined]), null)
  assert.deepEqual(difference(30.5, 24), { estimate: 6.5, low: null, high: null, level: null })
  // a ratio over the baseline of 1.25 (0.8 to 2) is a share of 0.8 (0.5 to 1.25)
  assert.deepEqual(
    reciprocal({ estimate: 1.25, low: 0.8, high: 2, level: 0.95 }),
    { estimate: 0.8, low: 0.5, high: 1.25, level: 0.95 }
  )
})

// a stdio results set with the headline's cells as the comparison reads them
const interval = (estimate, half) => ({
  estimate, low: estimate - half, high: estimate + half, level: 0.95
})
function stdioSet (label, machine, cells, extra = {}) {
  return {
    label,
    context: context(machine, extra),
    results: {
      experiment: 'stdio',
      headline: {
        cells: cells.map(([program, runtime, blockSize, cpu, over, share]) => ({
          program,
          runtime,
          blockSize,
          cpuPerReadNs: interval(cpu, 1),
          overheadNs: over === null ? null : interval(over, 2),
          shareOfC: share === null ? null : interval(share, 0.01)
        }))
      }
    }
  }
}

test('a comparison of machines: C\'s ns per machine, then each reader over C and as a share, and which carried', () => {
  // AMD: C 292 ns, bun-ffi 373 (+81, 78%), node-sync 507 (+215, 58%)
  // Intel: C 163 ns, bun-ffi 240 (+77, 68%), node-sync 346 (+183, 47%)
  const amd = stdioSet('ref', AMD, [
    ['c', 'native', 256, 292, null, null],
    ['bun-ffi', 'bun', 256, 373, 81, 0.78],
    ['node-sync', 'node', 256, 507, 215, 0.58]
  ])
  const intel = stdioSet('q1', INTEL, [
    ['c', 'native', 256, 163, null, null],
    ['bun-ffi', 'bun', 256, 240, 77, 0.68],
    ['node-sync', 'node', 256, 346, 183, 0.47]
  ], { runtimes: { node: { version: 'v22' } } })
  const comparison = compareMachines([amd, intel], stdioFigures)
  assert.deepEqual(comparison.machines.map(machine => machine.runs), [['ref'], ['q1']])
  // what sets the second machine apart from the first, by the key's facts, in the table too
  assert.deepEqual(comparison.machines[0].differsBy, [])
  assert.ok(comparison.machines[1].differsBy.includes('CPU model'), comparison.machines[1].differsBy.join(', '))
  // an older run that fits two machines, a machine of its own: the facts it lacks set it apart
  const { cpu, ...older } = AMD
  const zen3 = { ...AMD, cpu: { ...AMD.cpu, model: 1 } }
  const cells = [['c', 'native', 256, 292, null, null]]
  const three = compareMachines([stdioSet('zen4', AMD, cells), stdioSet('zen3', zen3, cells),
    stdioSet('old', older, cells)], stdioFigures)
  assert.deepEqual(three.machines.map(machine => machine.runs), [['zen4'], ['zen3'], ['old']])
  assert.deepEqual(three.machines[2].differsBy, ['CPU family, model, stepping (not recorded)'])
  const row = item => comparison.rows.find(entry => entry.item === item)
  assert.deepEqual(row('c').absolute.map(value => value.estimate), [292, 163])
  assert.equal(row('c').verdict, null)
  // bun-ffi: +81 and +77 are 4.9% apart: the ns carry; 78% and 68% are 12.8% apart,
  // and their intervals (77–79, 67–69) share no point: the share does not
  assert.equal(row('bun-ffi').verdict, 'over')
  close(row('bun-ffi').carried.share.spreadPercent, 10 / 78 * 100, 'share spread')
  // node-sync: +215 and +183 are 14.9% apart; 58% and 47% are 19% apart: neither
  assert.equal(row('node-sync').verdict, 'neither')
  close(row('node-sync').carried.over.spreadPercent, 32 / 215 * 100, 'over spread')
  // the node versions differ: named beside node's rows, not bun's
  assert.deepEqual(row('node-sync').versions, ['v24.21.0', 'v22'])
  assert.equal(row('bun-ffi').versions, null)
  assert.deepEqual(comparison.counts, {
    both: 0,
    share: 0,
    over: 1,
    neither: 1,
    total: 2,
    tested: { share: 2, over: 2 },
    carried: { share: 0, over: 1 },
    intervalsOnly: { share: 0, over: 0 },
    missing: []
  })
  assert.deepEqual(row('bun-ffi').untested, [])
  assert.deepEqual(
    comparison.byRuntime.map(entry => [entry.runtime, entry.counts.total]),
    [['bun', 1], ['node', 1]]
  )
  // what differs between the records: the CPU, its id and the mitigation, the node version
  const labels = comparison.differences.map(entry => entry.label)
  assert.deepEqual(labels, [
    'CPU model', 'CPU family, model, stepping', 'mitigation: retbleed', 'node version'
  ])
  assert.equal(incomparable(comparison), null)
  // a figure's interval: beside it in results.md, in a span of its own on the page, which a
  // narrow cell sets whole on a line beneath the figure (the tables are built once for both)
  assert.match(machinesMarkdown(comparison).join('\n'),
    /\| bun-ffi \| 256 B \| 373 \(372–374\) \| 240 \(239–241\) \| \+81 \(\+79 to \+83\) \|/)
  const page = String(machinesHtml(comparison))
  assert.match(page, /<td class="num wraps">373 <span class="interval whole">\(372–374\)<\/span><\/td>/)
  assert.match(page, /<td class="num wraps">\+81 <span class="interval whole">\(\+79 to \+83\)<\/span><\/td>/)
  // the share to a tenth, as its interval is: a whole percent could fall outside it
  assert.match(page, /<td class="num wraps">78\.0% <span class="interval whole">\(77\.0–79\.0%\)<\/span><\/td>/)
})

// a stdio set whose cells keep their rounds: [program, runtime, blockSize, ns of each round];
// each cell's own figures are the run's (cost.js), from those rounds
function stdioRoundsSet (label, machine, cells) {
  const { estimate, againstC } = require('../../experiments/stdio/cost')
  const cRounds = cells.find(([program]) => program === 'c')[3]
  return {
    label,
    context: context(machine),
    results: {
      experiment: 'stdio',
      headline: {
        cells: cells.map(([program, runtime, blockSize, rounds]) => ({
          program,
          runtime,
          blockSize,
          cpuPerReadNs: estimate(rounds),
          overheadNs: program === 'c' ? null : againstC(rounds, cRounds, 'difference'),
          shareOfC: program === 'c' ? null : againstC(rounds, cRounds, 'ratio'),
          byRound: rounds.map((ns, run) => ({ run, cpuPerReadNs: ns, shareOfC: cRounds[run] / ns }))
        }))
      }
    }
  }
}

// A review: two copies of one run pooled gave just-fast 16.3 ns over C where the run says 13.1,
// for the pooled rounds were set against C's own cell where the run pairs each with the C
// that took turns with it
test('a run taken in turns with C, pooled with a copy of itself, gives the run\'s own figures', () => {
  const reference = name =>
    JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'results', 'reference', name), 'utf8'))
  const [results, context] = [reference('results.json'), reference('context.json')]
  const set = label => ({ label, context, results })
  const intel = stdioSet('i1', INTEL, [['c', 'native', 256, 163, null, null]])
  const comparison = compareMachines([set('r1'), set('r2'), intel], stdioFigures)
  const paired = results.headline.cells.filter(cell => cell.pairing === 'slices' && cell.blockSize === 256)
  assert.ok(paired.length > 5, 'the reference took turns with C')
  for (const cell of paired) {
    const row = comparison.rows.find(entry => entry.item === cell.program && entry.at === 256)
    // (C beside each round is its share times its ns: equal to the last few bits)
    assert.ok(Math.abs(row.over[0].estimate - cell.overheadNs.estimate) < 1e-9, cell.program)
    assert.ok(Math.abs(row.share[0].estimate - cell.shareOfC.estimate) < 1e-12, cell.program)
    assert.equal(row.over[0].pooled, 'rounds', cell.program)
  }
})

test('several runs of one machine: their rounds pooled, one interval computed from them', () => {
  const { medianInterval, differenceInterval, ratioInterval } = require('../../lib/stats')
  const c = [100, 101, 102, 103, 104, 105]
  // AMD ran bun-ffi 50 ns over C, then 60: each run's interval about its own, their union
  // about 45 to 65; Intel's +64 lies more than 10% from the pooled +55
  const amd1 = stdioRoundsSet('a1', AMD, [['c', 'native', 256, c], ['bun-ffi', 'bun', 256, c.map(ns => ns + 50)]])
  const amd2 = stdioRoundsSet('a2', AMD, [['c', 'native', 256, c], ['bun-ffi', 'bun', 256, c.map(ns => ns + 60)]])
  const intel = stdioRoundsSet('i1', INTEL, [['c', 'native', 256, c], ['bun-ffi', 'bun', 256, c.map(ns => ns + 64)]])
  const comparison = compareMachines([amd1, intel, amd2], stdioFigures)
  const row = comparison.rows.find(entry => entry.item === 'bun-ffi')
  const mine = [...c.map(ns => ns + 50), ...c.map(ns => ns + 60)]
  const base = [...c, ...c]
  const runs = interval => ({ ...interval, runs: 2, pooled: 'rounds' })
  assert.deepEqual(row.absolute[0], runs(medianInterval(mine)))
  assert.deepEqual(row.over[0], runs(differenceInterval(mine, base)))
  assert.deepEqual(row.share[0], runs(ratioInterval(base, mine)))
  // the one interval is narrower than the union of the runs' (45 to 65)
  const [one, two] = [amd1, amd2].map(set => set.results.headline.cells[1].overheadNs)
  assert.ok(row.over[0].low > Math.min(one.low, two.low) && row.over[0].high < Math.max(one.high, two.high))
  // and misses Intel's, which the union met: a second run no longer makes carrying easier
  assert.ok(Math.max(one.high, two.high) >= intel.results.headline.cells[1].overheadNs.low)
  assert.equal(row.carried.over.carries, false)
  // Intel's single run keeps its own figures
  assert.deepEqual(row.over[1], { ...intel.results.headline.cells[1].overheadNs, runs: 1 })
  // a run without rounds (an older results.json): the estimates' median, no interval
  delete amd2.results.headline.cells[1].byRound
  const older = compareMachines([amd1, intel, amd2], stdioFigures).rows.find(entry => entry.item === 'bun-ffi')
  assert.deepEqual([older.over[0].low, older.over[0].pooled, older.over[0].runs], [null, 'estimates', 2])
})

test('the ladder pools its runs\' processes: the share pairs each process with C\'s of the same run', () => {
  const { pairedRatio, medianInterval } = require('../../lib/stats')
  const ladder = (label, machine, c, node) => {
    const rows = [['c', 'native', c], ['node', 'node', node]].map(([variant, runtime, ns]) => ({
      variant,
      runtime,
      rungs: Object.fromEntries(['noop', 'syscall', 'empty-read', 'read-256'].map(rung => [rung, medianInterval(ns)])),
      byProcess: Object.fromEntries(['noop', 'syscall', 'empty-read', 'read-256']
        .map(rung => [rung, Object.fromEntries(ns.map((value, process) => [process, value]))]))
    }))
    rows[1].vsC = Object.fromEntries(['noop', 'syscall', 'empty-read', 'read-256'].map(rung => [rung, pairedRatio(node, c)]))
    return { label, context: context(machine), results: { experiment: 'calls', ladder: { rows } } }
  }
  const c1 = [100, 102, 104, 106, 108, 110]
  const c2 = c1.map(ns => ns * 1.1)
  const comparison = compareMachines([
    ladder('a1', AMD, c1, c1.map(ns => 2 * ns)),
    ladder('a2', AMD, c2, c2.map(ns => 2 * ns)),
    ladder('i1', INTEL, c1, c1.map(ns => 2 * ns))
  ], callsFigures)
  const row = comparison.rows.find(entry => entry.item === 'node' && entry.at === 'syscall')
  // every process of either run is twice C's of the same run: the share is 1/2 exactly
  assert.deepEqual([row.share[0].estimate, row.share[0].low, row.share[0].high, row.share[0].pooled], [0.5, 0.5, 0.5, 'rounds'])
  assert.equal(row.absolute[0].estimate, medianInterval([...c1, ...c2].map(ns => 2 * ns)).estimate)
})

test('a figure that carries only by wide intervals is counted apart, and said so', () => {
  // deno-sync: 74% (interval 60–88%) on AMD and 61% (55–67%) on Intel are 17.6% apart, so
  // beyond 10%, but their intervals share 60–67%: carried, by the intervals only. Its ns
  // over C, +100 (98–102) and +104 (102–106), are 3.8% apart: carried by the values.
  const amd = stdioSet('a1', AMD, [
    ['c', 'native', 256, 290, null, null],
    ['deno-sync', 'deno', 256, 390, 100, 0.74]
  ])
  const intel = stdioSet('i1', INTEL, [
    ['c', 'native', 256, 163, null, null],
    ['deno-sync', 'deno', 256, 267, 104, 0.61]
  ])
  amd.results.headline.cells[1].shareOfC = { estimate: 0.74, low: 0.60, high: 0.88, level: 0.95 }
  intel.results.headline.cells[1].shareOfC = { estimate: 0.61, low: 0.55, high: 0.67, level: 0.95 }
  const comparison = compareMachines([amd, intel], stdioFigures)
  const row = comparison.rows.find(entry => entry.item === 'deno-sync')
  // the verdict is by value: the ns over C carried, the share only by its intervals
  assert.equal(row.verdict, 'over')
  assert.deepEqual([row.carried.share.close, row.carried.share.overlap], [false, true])
  close(row.carried.share.spreadPercent, 13 / 74 * 100, 'share spread')
  assert.deepEqual(comparison.counts.carried, { share: 0, over: 1 })
  assert.deepEqual(comparison.counts.intervalsOnly, { share: 1, over: 0 })
  assert.match(summaryText(comparison), /the share of c carried by value: 0 of 1; by intervals only: 1\./)
  assert.match(summaryText(comparison), /The ns over c carried by value: 1 of 1; by intervals only: 0\./)
  const table = machinesMarkdown(comparison).join('\n')
  assert.match(table, /\| over the baseline \(the share by intervals only\) \|/)
  const csv = machinesCsv(comparison)
  const carriedBy = csv.columns.indexOf('carriedBy')
  const figureOf = csv.columns.indexOf('figure')
  const denoRows = csv.rows.filter(line => line[0] === 'deno-sync')
  assert.deepEqual(
    [...new Set(denoRows.filter(line => line[figureOf] === 'share').map(line => line[carriedBy]))],
    ['intervals']
  )
  assert.deepEqual(
    [...new Set(denoRows.filter(line => line[figureOf] === 'over').map(line => line[carriedBy]))],
    ['values']
  )
})

test('a machine\'s second run is pooled into its column; a reader whose code changed is not tested', () => {
  const amd = stdioSet('a1', AMD, [
    ['c', 'native', 256, 290, null, null],
    ['just-sync', 'just', 256, 302, 12, 0.96]
  ])
  const amd2 = stdioSet('a2', AMD, [
    ['c', 'native', 256, 294, null, null],
    ['just-sync', 'just', 256, 310, 16, 0.95]
  ])
  const digests = digest => ({ programs: [{ name: 'just-sync', sourceSha256: digest }] })
  const intel = stdioSet('i1', INTEL, [
    ['c', 'native', 256, 163, null, null],
    ['just-sync', 'just', 256, 177, 14, 0.92]
  ])
  const pooled = compareMachines([amd, intel, amd2], stdioFigures)
  const row = pooled.rows.find(entry => entry.item === 'just-sync')
  // AMD, runs without rounds: the median of 12 and 16 is 14, without an interval; Intel
  // 14 (12–16): the ns carry by value; shares 0.955 and 0.92: 3.7% apart, carry
  assert.deepEqual(
    row.over.map(value => [value.estimate, value.low, value.high, value.runs]),
    [[14, null, null, 2], [14, 12, 16, 1]]
  )
  assert.equal(row.verdict, 'both')
  // a run without a share (an older ladder had no ratio to C): the share untested, said so
  const { shareOfC, ...noShare } = intel.results.headline.cells[1]
  const older = {
    ...intel,
    results: {
      ...intel.results,
      headline: { cells: [intel.results.headline.cells[0], { ...noShare, shareOfC: null }] }
    }
  }
  const untested = compareMachines([amd, older], stdioFigures)
  const olderRow = untested.rows.find(entry => entry.item === 'just-sync')
  // a1's +12 against i1's +14 are 14% apart: the ns carry by their intervals only
  assert.deepEqual([olderRow.verdict, olderRow.untested], ['neither', ['share']])
  assert.deepEqual(
    [untested.counts.tested, untested.counts.carried, untested.counts.intervalsOnly],
    [{ share: 0, over: 1 }, { share: 0, over: 0 }, { share: 0, over: 1 }]
  )
  const changed = compareMachines([
    { ...amd, context: { ...amd.context, ...digests('aaaa') } },
    { ...intel, context: { ...intel.context, ...digests('bbbb') } }
  ], stdioFigures)
  const changedRow = changed.rows.find(entry => entry.item === 'just-sync')
  assert.deepEqual(
    [changedRow.codeDiffers, changedRow.verdict, changed.counts.total],
    [true, null, 0]
  )
  // a machine's second run, its code changed: read too (a review: only a machine's first run
  // was, so the change went unsaid)
  const laterChanged = compareMachines([
    { ...amd, context: { ...amd.context, ...digests('aaaa') } },
    { ...amd, label: 'a2', context: { ...amd.context, ...digests('cccc') } },
    { ...intel, context: { ...intel.context, ...digests('aaaa') } }
  ], stdioFigures)
  assert.equal(laterChanged.rows.find(entry => entry.item === 'just-sync').codeDiffers, true)
})

test('a row measured on one machine only is named, counted in every total, and given no verdict', () => {
  const amd = stdioSet('a1', AMD, [
    ['c', 'native', 256, 290, null, null],
    ['bun-ffi', 'bun', 256, 373, 81, 0.78],
    ['node-ffi', 'node', 256, 400, 110, 0.72]
  ])
  const intel = stdioSet('i1', INTEL, [
    ['c', 'native', 256, 163, null, null],
    ['bun-ffi', 'bun', 256, 240, 77, 0.68]
  ])
  const comparison = compareMachines([amd, intel], stdioFigures)
  const row = comparison.rows.find(entry => entry.item === 'node-ffi')
  assert.deepEqual([row.verdict, row.missingOn], [null, [comparison.machines[1].name]])
  assert.equal(comparison.counts.total, 2)
  assert.deepEqual(comparison.counts.missing.map(entry => [entry.item, entry.atLabel]), [['node-ffi', '256 B']])
  assert.match(summaryText(comparison), /carried by value: 1 of 2; by intervals only: 0\./)
  assert.match(summaryText(comparison), new RegExp(`1 missing: node-ffi @ 256 B \\(not on ${comparison.machines[1].name}\\)`))
  // the chart says so under the row's name, where its one bar alone would not
  const { machinesChart } = require('../../lib/report/machines-text')
  const chart = machinesChart(comparison)
  const notesOf = category => chart.unquoted[chart.categories.indexOf(category)]
  assert.deepEqual(notesOf('node-ffi @ 256 B'), [`missing on ${comparison.machines[1].name}`])
  assert.deepEqual(notesOf('bun-ffi @ 256 B'), [])
})

test('runs that share no measured figure are not compared, with what each measured', () => {
  const amd = stdioSet('a1', AMD, [['c', 'native', 256, 290, null, null]])
  const intel = stdioSet('i1', INTEL, [['c', 'native', 4096, 500, null, null]])
  assert.match(incomparable(compareMachines([amd, intel], stdioFigures)),
    /^the runs share no measured figure \(a1 at 256 B; i1 at 4 KiB\); compare runs made with the same sizes/)
  // runs with no headline at all (--no-cost): what machines are compared by is named (a review)
  assert.equal(incomparable(compareMachines([stdioSet('a1', AMD, []), stdioSet('i1', INTEL, [])], stdioFigures)),
    'no run measured CPU per read(2), the headline, which machines are compared by; compare runs that did')
})

test('runs of two cost policies are not compared or pooled, with which ran which way', () => {
  const cells = [['c', 'native', 256, 240, null, null], ['node-sync', 'node', 256, 670, 430, 0.355]]
  const batch = { options: { costPolicy: 'batch' } }
  const across = compareMachines([stdioSet('a1', AMD, cells), stdioSet('i1', INTEL, cells, batch)], stdioFigures)
  assert.equal(incomparable(across), 'the runs measured two ways (a1 at the default policy, in rounds apart ' +
    'from C; i1 at SCHED_BATCH, in rounds apart from C), whose figures do not pool or compare; compare runs ' +
    'measured one way')
  const pooled = [stdioSet('a1', AMD, cells), stdioSet('a2', AMD, cells, batch), stdioSet('i1', INTEL, cells)]
  assert.match(incomparable(compareMachines(pooled, stdioFigures)),
    /^the runs measured two ways \(a1, i1 at the default policy, in rounds apart from C; a2 at SCHED_BATCH, /)
  assert.equal(incomparable(compareMachines([stdioSet('a1', AMD, cells, batch), stdioSet('i1', INTEL, cells, batch)],
    stdioFigures)), null, 'one way on both')
  // in turns with C against rounds apart: two ways too (a review: the pairing went unasked)
  const slices = { options: { costPairing: 'slices' } }
  assert.match(incomparable(compareMachines([stdioSet('a1', AMD, cells, slices), stdioSet('i1', INTEL, cells)],
    stdioFigures)), /^the runs measured two ways \(a1 at the default policy, in turns with C; i1 at the default/)
})

// A review: http's and db's runs of two placements, refused a two-run check on one machine,
// were pooled and judged across machines
test('http and db runs of two placements are not compared across machines either', () => {
  const httpFigures = require('../../experiments/http/machines').machineFigures
  const dbFigures = require('../../experiments/db/machines').machineFigures
  const cell = server => ({ server, runtime: 'native', mode: 'keep-alive', connections: 128, cpuPerRequestUs: 10 })
  const httpSet = (label, machine, placement) => ({
    label,
    context: context(machine),
    results: { http: { reference: 'c-epoll', placement, cells: [cell('c-epoll'), cell('bun')] } }
  })
  assert.match(incomparable(compareMachines([httpSet('h1', AMD, 'interleaved'), httpSet('h2', INTEL)], httpFigures)),
    /^the runs measured two ways \(h1 placement interleaved; h2 placement apart\)/)
  assert.equal(incomparable(compareMachines([httpSet('h1', AMD, 'interleaved'), httpSet('h2', INTEL, 'interleaved')],
    httpFigures)), null)
  const dbCell = server =>
    ({ server, runtime: 'native', endpoint: 'db', queries: 1, connections: 64, cpuPerRequestUs: { server: 10 } })
  const reference = 'c-libpq-prepared-pipelined'
  const dbSet = (label, machine, placement) => ({
    label,
    context: context(machine),
    results: { db: { reference, placement, cells: [dbCell(reference), dbCell('bun')] } }
  })
  assert.match(incomparable(compareMachines([dbSet('d1', AMD, 'one-cpu'), dbSet('d2', INTEL)], dbFigures)),
    /^the runs measured two ways \(d1 placement one-cpu; d2 placement alone\)/)
})

test('the ladder across machines: C\'s rung in ns, others over it and as the reciprocal of their ratio to C', () => {
  const rung = estimate => ({ estimate, low: estimate - 1, high: estimate + 1, level: 0.978 })
  const ladder = (c, node, ratio) => ({
    results: {
      experiment: 'calls',
      ladder: {
        rows: [
          {
            variant: 'c',
            runtime: 'native',
            rungs: { noop: rung(2), syscall: rung(c), 'empty-read': rung(c), 'read-256': rung(c) }
          },
          {
            variant: 'node',
            runtime: 'node',
            rungs: {
              noop: rung(10), syscall: rung(node), 'empty-read': rung(node), 'read-256': rung(node)
            },
            vsC: {
              syscall: { estimate: ratio, low: ratio - 0.1, high: ratio + 0.1, level: 0.978 }
            }
          }
        ]
      }
    }
  })
  const figures = callsFigures(ladder(175, 300, 1.6))
  const syscall = figures.rows.find(row => row.item === 'node' && row.at === 'syscall')
  // over C: 300 − 175 = 125, without an interval; share: 1/1.6 = 0.625 (1/1.7 to 1/1.5)
  assert.deepEqual(syscall.over, { estimate: 125, low: null, high: null, level: null })
  close(syscall.share.estimate, 0.625, 'share')
  close(syscall.share.low, 1 / 1.7, 'low')
  close(syscall.share.high, 1 / 1.5, 'high')
  // a rung without a ratio: no share
  assert.equal(figures.rows.find(row => row.item === 'node' && row.at === 'noop').share, null)
  // an older ladder, without ratios to C: the ratio of the medians, 175/300, no interval
  const older = ladder(175, 300, 1.6)
  delete older.results.ladder.rows[1].vsC
  const olderSyscall = callsFigures(older).rows
    .find(row => row.item === 'node' && row.at === 'syscall')
  assert.deepEqual(olderSyscall.share, { estimate: 175 / 300, low: null, high: null, level: null })
  // a syscall rung of another call than C's getppid (bun-wasi's sched_yield, answered without
  // the kernel: 8 ns; a ring's NOP): its ns, and no share of C's nor ns over it (a review found
  // bun-wasi at "2203%" of C, its bar stretching the chart's axis past every other)
  for (const variant of ['bun-wasi', 'c-yield', 'c-uring']) {
    const unlike = ladder(175, 8, 0.045)
    Object.assign(unlike.results.ladder.rows[1], { variant })
    const rows = callsFigures(unlike).rows.filter(row => row.item === variant)
    const own = rows.find(row => row.at === 'syscall')
    assert.equal(own.absolute.estimate, 8, variant)
    assert.equal(own.over, null, variant)
    assert.equal(own.share, null, variant)
    assert.notEqual(rows.find(row => row.at === 'read-256').over, null, `${variant}: its reads are C's calls`)
  }
  // across machines such a rung lacks nothing: its ns side by side, not compared, not missing
  const unlikeOn = machine => {
    const set = ladder(175, 8, 0.045)
    Object.assign(set.results.ladder.rows[1], { variant: 'bun-wasi', runtime: 'bun' })
    return { label: machine.cpuModel, context: context(machine), results: set.results }
  }
  const comparison = compareMachines([unlikeOn(AMD), unlikeOn(INTEL)], callsFigures)
  const yields = comparison.rows.find(row => row.item === 'bun-wasi' && row.at === 'syscall')
  assert.deepEqual([yields.notCompared, yields.missingOn, yields.verdict], ['sched_yield, not getppid', [], null])
  assert.equal(comparison.counts.missing.length, 0)
  assert.equal(comparison.counts.total, 3, 'bun-wasi\'s other three rungs, by their ns over C\'s')
  assert.match(machinesMarkdown(comparison).join('\n'), /not compared: sched\\_yield, not getppid/,
    'escaped for Markdown')
  const { machinesChart } = require('../../lib/report/machines-text')
  assert.ok(!machinesChart(comparison).categories.includes('bun-wasi @ syscall'))
})

test('two ladders taken in turns with C, pooled: each process set against its own partner, as one run is', () => {
  // node's processes 0 and 1 took turns with ladders of C's of 100 and 200 ns, where C's own
  // processes 0 and 1 read 200 and 100: a ratio of 2 in every process, against its partner
  const run = () => ({
    results: {
      experiment: 'calls',
      ladder: {
        rows: [
          { variant: 'c', runtime: 'native', byProcess: { syscall: { 0: 200, 1: 100 } } },
          {
            variant: 'node',
            runtime: 'node',
            pairing: 'slices',
            byProcess: { syscall: { 0: 200, 1: 400 } },
            partnerByProcess: { syscall: { 0: 100, 1: 200 } }
          }
        ]
      }
    }
  })
  const [a, b] = [run(), run()].map(callsFigures)
  const row = figures => figures.rows.find(entry => entry.item === 'node' && entry.at === 'syscall')
  assert.deepEqual(row(a).rounds.paired, { 0: 100, 1: 200 })
  const { pooledRow } = require('../../lib/report/machines')
  const pooled = pooledRow([a, b], { item: 'node', at: 'syscall' })
  close(pooled.share.estimate, 0.5, 'every process at twice its partner')
  // over C: the medians of node's processes and of C's own, 300 − 150
  close(pooled.over.estimate, 150, 'over C\'s own processes')
})

// A review: a server that opens a connection a request under keep-alive was marked § in its
// run's tables but not across machines, where its figure read as a kept connection's
test('a connect each carries § across machines, and the comparison says once what it means', () => {
  const httpFigures = require('../../experiments/http/machines').machineFigures
  const cell = (server, extra = {}) =>
    ({ server, runtime: 'native', mode: 'keep-alive', connections: 128, cpuPerRequestUs: 10, ...extra })
  const httpSet = (label, machine, cells) => ({
    label,
    context: context(machine),
    results: { http: { reference: 'c-epoll', placement: 'interleaved', cells } }
  })
  // c-blocking told by its definition (a run before cells said so), bun by its cell
  const cells = [cell('c-epoll'), cell('c-blocking'), cell('bun', { connectEach: false })]
  const comparison = compareMachines([httpSet('h1', AMD, cells), httpSet('h2', INTEL, cells)], httpFigures)
  const row = server => comparison.rows.find(each => each.item === server)
  assert.deepEqual([row('c-blocking').sign, row('bun').sign], ['§', null])
  // the place stays the place, for a spreadsheet joining runs of labs before the sign
  assert.deepEqual([row('c-blocking').atLabel, row('bun').atLabel], ['keep-alive, 128 conn.', 'keep-alive, 128 conn.'])
  assert.equal(comparison.legend.length, 1)
  assert.match(comparison.legend[0], /^§: a connect each, the server closes each connection/)
  const markdown = machinesMarkdown(comparison).join('\n')
  assert.match(markdown, /one column per machine\. §: a connect each, /)
  assert.match(markdown, /\| c-blocking \| keep-alive, 128 conn\. § \|/)
  assert.match(String(machinesHtml(comparison)), /one column per machine\.\s+§: a connect each/)
  assert.match(String(machinesHtml(comparison)),
    /<th scope="row">c-blocking<\/th><td class="whole">keep-alive, 128 conn\. §</)
  const { machinesTerminal } = require('../../lib/report/machines-text')
  const terminal = machinesTerminal(comparison)
  assert.ok(terminal.some(line => /c-blocking @ keep-alive, 128 conn\. §/.test(line)), terminal.join('\n'))
  assert.match(terminal.at(-1), /^ {2}§: a connect each, the server closes each connection/)
  const csv = machinesCsv(comparison)
  const [at, sign] = ['at', 'sign'].map(name => csv.columns.indexOf(name))
  const csvRow = server => csv.rows.find(each => each[0] === server)
  assert.deepEqual([csvRow('c-blocking')[at], csvRow('c-blocking')[sign], csvRow('bun')[sign]],
    ['keep-alive, 128 conn.', '§', ''])
  // close's cells, or servers that keep their connections, carry no sign and no legend
  const kept = compareMachines([httpSet('h1', AMD, [cell('c-epoll'), cell('bun')]),
    httpSet('h2', INTEL, [cell('c-epoll'), cell('bun')])], httpFigures)
  assert.deepEqual(kept.legend, [])
  assert.doesNotMatch(machinesMarkdown(kept).join('\n'), /§/)
  assert.doesNotMatch(machinesTerminal(kept).join('\n'), /§/)
})

test('http and db across machines: the reference server\'s µs, others over it and as a share', () => {
  const httpFigures = require('../../experiments/http/machines').machineFigures
  const dbFigures = require('../../experiments/db/machines').machineFigures
  const cell = (server, cpuPerRequestUs, cpuVsReference) => ({
    server,
    runtime: server.split('-')[0],
    mode: 'keep-alive',
    connections: 16,
    cpuPerRequestUs,
    cpuVsReference
  })
  const http = httpFigures({
    results: {
      http: {
        reference: 'c-epoll',
        cells: [
          cell('c-epoll', 24),
          cell('node-http', 52, { estimate: 2, low: 1.6, high: 2.5, level: 0.875 })
        ]
      }
    }
  })
  const node = http.rows.find(row => row.item === 'node-http')
  // 52 − 24 = 28 µs over; the share the reciprocal of 2 (1/2.5 to 1/1.6)
  assert.deepEqual(
    [node.at, node.over.estimate, node.share.estimate, node.share.low, node.share.high],
    ['keep-alive, 16 conn.', 28, 0.5, 0.4, 0.625]
  )
  assert.deepEqual(http.rows[0].absolute, { estimate: 24, low: null, high: null, level: null })
  // a run before rounds: no ratio, so 24/52 from the medians
  const older = httpFigures({
    results: { http: { reference: 'c-epoll', cells: [cell('c-epoll', 24), cell('node-http', 52)] } }
  })
  close(older.rows[1].share.estimate, 24 / 52, 'share of the medians')
  const dbCell = (server, own, ratio) => ({
    server,
    runtime: 'node',
    endpoint: 'queries',
    queries: 20,
    connections: 64,
    cpuPerRequestUs: { server: own, backends: 9 },
    serverVsReference: ratio
  })
  const db = dbFigures({
    results: {
      db: {
        reference: 'c-libpq',
        cells: [
          dbCell('c-libpq', 15),
          dbCell('node-pg', 27, { estimate: 1.8, low: 1.5, high: 3, level: 0.875 })
        ]
      }
    }
  })
  assert.deepEqual([db.rows[1].at, db.rows[1].over.estimate], ['/queries ×20, 64 conn.', 12])
  close(db.rows[1].share.estimate, 1 / 1.8, 'db share')
})
