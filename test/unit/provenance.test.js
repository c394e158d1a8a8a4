'use strict'
// A run measured from a tree with uncommitted changes says so wherever the report names the
// commit it came from: its heading, its context table, a resume and the machines
// comparison. Such a figure cannot be traced to code anyone can check out.
const { test } = require('node:test')
const assert = require('node:assert/strict')

const { measuredOn, labCommitText, contextOf } = require('../../lib/report/context')
const { recordDifferences } = require('../../lib/report/machines')

const DIRTY = { commit: '52edd10', dirty: true }
const CLEAN = { commit: '52edd10', dirty: false }

test('the heading names the commit and its uncommitted changes', () => {
  assert.equal(measuredOn({ context: { date: '2026-11-27', lab: DIRTY } }),
    'measured 2026-11-27 at lab commit 52edd10 (uncommitted changes)')
  assert.equal(measuredOn({ context: { date: '2026-11-27', lab: CLEAN } }),
    'measured 2026-11-27 at lab commit 52edd10')
  assert.equal(measuredOn({ context: { date: '2026-11-27' } }), 'measured 2026-11-27')
  assert.equal(labCommitText(null), null)
})

test('the heading names the machine by its key, which two VMs of one CPU name differ in', () => {
  const machine = model => ({
    cpuModel: 'AMD EPYC', cores: 2, kernel: '6.18.44', cpu: { vendor: 'AuthenticAMD', family: 25, model, stepping: 1 }
  })
  const zen3 = measuredOn({ context: { date: '2026-12-01', lab: CLEAN, machine: machine(1) } })
  const zen4 = measuredOn({ context: { date: '2026-12-01', lab: CLEAN, machine: machine(17) } })
  assert.match(zen3, /^measured 2026-12-01 on amd-epyc-2c-[0-9a-f]{8} at lab commit 52edd10$/)
  assert.match(zen4, /^measured 2026-12-01 on amd-epyc-2c-[0-9a-f]{8} at lab commit 52edd10$/)
  assert.notEqual(zen3.split(' ')[3], zen4.split(' ')[3], 'the two keys differ')
  assert.match(measuredOn({ context: { date: '2026-11-20', machine: { cpuModel: 'AMD EPYC', cores: 2 } } }),
    /^measured 2026-11-20 on amd-epyc-2c-[0-9a-f]{8}$/)
})

test('the bench names the machine with the CPU model its key digests', () => {
  const { machineName } = require('../../lib/machine')
  const cpu = { vendor: 'AuthenticAMD', family: 25, model: 1, stepping: 1 }
  assert.match(machineName({ machine: { cpuModel: 'AMD EPYC', cores: 2, cpu } }),
    /^amd-epyc-2c-[0-9a-f]{8} \(CPU family 25 model 1\)$/)
  assert.match(machineName({ machine: { cpuModel: 'AMD EPYC', cores: 2 } }), /^amd-epyc-2c-[0-9a-f]{8}$/)
})

test('the context table and a resume say so too', () => {
  const report = { contextRows: () => [], pinText: () => '' }
  const set = {
    label: 'a',
    results: {},
    context: { date: '2026-11-27', lab: DIRTY, resumedAt: [{ date: '2026-11-28', lab: DIRTY }] }
  }
  const rows = Object.fromEntries(contextOf(set, report).rows)
  assert.equal(rows['lab commit'], '52edd10 (uncommitted changes)')
  assert.equal(rows.resumed, '2026-11-28 (lab commit 52edd10, uncommitted changes)')
})

test('the machines comparison tells a dirty tree from its clean commit', () => {
  const machine = lab => ({ identity: { facts: {} }, sets: [{ context: { lab } }] })
  const rows = recordDifferences([machine(DIRTY), machine(CLEAN)])
  assert.deepEqual(rows.find(row => row.label === 'lab commit')?.values,
    ['52edd10 (uncommitted changes)', '52edd10'])
})

test('results.md opens with the heading of the page: the date and the dirty commit', () => {
  const path = require('node:path')
  const { loadResultSet } = require('../../analyse')
  const { shapeReport } = require('../../lib/report/data')
  const { renderMarkdown } = require('../../lib/report/text')
  const set = loadResultSet(path.join(__dirname, '..', 'fixtures', 'results', 'sample'))
  set.context = { ...set.context, date: '2026-11-27', lab: DIRTY }
  const lines = renderMarkdown(shapeReport([set])).split('\n')
  assert.match(lines[2], /measured 2026-11-27 on \S+ at lab commit 52edd10 \(uncommitted changes\)$/)
})

test('the context\'s foreign CPU time: the run\'s floors, CPU by CPU, and the steps it could not check', () => {
  const { disturbanceText, disturbanceOf } = require('../../lib/foreign')
  const foreign = (disturbed, noiseFloorsNs, uncheckedCpus) => ({
    foreign: {
      cpus: [0, 1], residualsNs: [0, 0], disturbed, noiseFloorsNs, ...(uncheckedCpus ? { uncheckedCpus } : {})
    }
  })
  const records = [
    foreign(false, [0, 0], [1]), { ...foreign(true, [30e6, 62e6]), superseded: true }, foreign(false, [30e6, 62e6])
  ]
  assert.equal(disturbanceText(disturbanceOf(records)),
    '1 try of 2 steps saw other work on their CPUs (above 3% of their time, and above 4 times the check\'s own ' +
    'error heard in the run, up to 30 ms on CPU 0 and 62 ms on CPU 1); 1 measured again once the CPUs were quiet; ' +
    '1 step had a CPU the check could not see (a server\'s processes ended in the run: the kernel counts a ' +
    'short-lived process\'s whole time as user time)')
  assert.equal(disturbanceText(disturbanceOf([foreign(false, [0, 0])])),
    'none: no step of 1 saw other work on its CPUs (above 3% of their time)')
})
