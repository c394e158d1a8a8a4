'use strict'
// The VM's steal time, in this process: a run's share of it, the cell flag decided on all
// of a cell's runs, and the report showing the flag and the machine's factors.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { runSteal, stealShare, STEAL_SHARE } = require('../../lib/steal')
const { summariseResults } = require('../../experiments/stdio/summary')
const { loadResultSet } = require('../../analyse')
const { shapeReport } = require('../../lib/report/data')
const { renderMarkdown } = require('../../lib/report/text')
const { renderHtml } = require('../../lib/report/html')

const close = (actual, expected) => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} is not ${expected}`)

test('a run\'s steal: the pinned CPUs, or all of them', () => {
  assert.deepEqual(runSteal([3, 0, 0, 4], 100, { feeder: 0, reader: 1 }), { cpus: [1, 0], ticks: 3, clkTck: 100 })
  assert.deepEqual(runSteal([3, 0, 0, 4], 100, null), { cpus: [0, 1, 2, 3], ticks: 7, clkTck: 100 })
  assert.deepEqual(runSteal([3, 5], 100, { feeder: 1, reader: 1 }), { cpus: [1], ticks: 5, clkTck: 100 })
  assert.equal(runSteal(null, null, null), null)
})

test('the share: steal over wall time times CPUs, summed over runs', () => {
  const runs = [
    { wallNs: 0.5e9, steal: { cpus: [0, 1], ticks: 2, clkTck: 100 } }, // 20 ms of 1 s of CPU time
    { wallNs: 1.5e9, steal: { cpus: [0, 1], ticks: 4, clkTck: 100 } } // 40 ms of 3 s
  ]
  close(stealShare(runs), 60e6 / 4e9) // 1.5%, where the runs alone are 2% and 1.33%
  close(stealShare([{ wallNs: 0.25e9, steal: { cpus: [1], ticks: 1, clkTck: 100 } }]), 0.04)
  assert.equal(stealShare([...runs, { wallNs: 1e9 }]), null, 'a run without steal: no share')
  assert.equal(stealShare([]), null)
})

// Records as bench.js logs them, with the steal each run saw on 2 CPUs.
const usage = { exit: 0, signal: 0, userUs: 1000, sysUs: 2000, maxRssKb: 5000, voluntaryCs: 10, involuntaryCs: 1 }
const run = (program, phase, wallNs, ticks) => ({
  phase,
  program,
  blockSize: 4096,
  run: 0,
  bytes: phase === 'startup' ? 0 : 1e9,
  feederBlockSize: 65536,
  ok: true,
  failure: null,
  command: 'x',
  wallNs,
  ...(ticks === undefined ? {} : { steal: { cpus: [0, 1], ticks, clkTck: 100 } }),
  reader: usage,
  feeder: { ...usage, userUs: 0, sysUs: 100 },
  output: { size: 1e9, reads: 244141, blockSize: 4096 }
})
const fixtureRun = withSteal => {
  const t = ticks => (withSteal ? ticks : undefined)
  return [
    run('c', 'startup', 0.001e9, t(0)), run('c', 'startup', 0.003e9, t(0)),
    // 60 ms stolen of 2 × 1.1 s: 2.73%, above the threshold
    run('c', 'timing', 0.5e9, t(3)), run('c', 'timing', 0.6e9, t(3)),
    run('node-sync', 'startup', 0.1e9, t(0)), run('node-sync', 'startup', 0.1e9, t(0)), run('node-sync', 'startup', 0.1e9, t(0)),
    // 40 ms of 2 × 2.4 s: 0.83%, below
    run('node-sync', 'timing', 1.1e9, t(2)), run('node-sync', 'timing', 1.3e9, t(2))
  ]
}
const context = { runId: 'steal', options: { feeder: 'fixed', runs: 2 } }

test('a cell whose runs lost more than the share to steal is flagged; one below is not', () => {
  assert.equal(STEAL_SHARE, 0.02)
  const results = summariseResults(fixtureRun(true), context)
  const cell = name => results.cells.find(c => c.program === name)
  close(cell('c').stealShare, 60e6 / 2.2e9)
  assert.ok(cell('c').flags.includes('steal'))
  close(cell('node-sync').stealShare, 40e6 / 4.8e9)
  assert.ok(!cell('node-sync').flags.includes('steal'))
  // every run, start-up runs too: 100 ms of 2 × (0.004 + 1.1 + 0.3 + 2.4) s
  close(results.stealShare, 100e6 / (2 * 3.804e9))
})

test('runs logged before steal was recorded: no share, no flag', () => {
  const results = summariseResults(fixtureRun(false), context)
  for (const cell of results.cells) {
    assert.equal(cell.stealShare, null)
    assert.ok(!cell.flags.includes('steal'))
  }
  assert.equal(results.stealShare, null)
})

const SAMPLE = path.join(__dirname, '..', 'fixtures', 'results', 'sample')
const HIGHCHARTS = { highcharts: { version: 'test', scripts: [] } }

// The committed sample run with one cell flagged and the machine factors of a VM.
function flaggedSample () {
  const set = loadResultSet(SAMPLE)
  const cell = set.results.cells.find(c => c.program === 'c' && c.blockSize === 4096) ?? set.results.cells[0]
  cell.flags = [...cell.flags, 'steal']
  cell.stealShare = 0.0312
  set.results.stealShare = 0.0043
  set.context.machine = {
    ...set.context.machine,
    clockSource: 'kvm-clock',
    transparentHugePages: 'madvise',
    mitigationSwitches: ['mitigations=auto', 'nopti'],
    seccomp: '1 filter',
    vulnerabilities: { meltdown: 'Not affected', spectre_v2: 'Mitigation: Retpolines; STIBP: disabled', mds: 'Vulnerable: Clear CPU buffers attempted, no microcode; SMT Host state unknown' }
  }
  return { set, cell }
}

test('the report: the steal flag where flags show, and the context\'s machine factors and steal', () => {
  const { set, cell } = flaggedSample()
  const data = shapeReport([set])
  const group = data.flags.find(entry => entry.flag === 'steal')
  assert.ok(group, 'steal in the flagged cells')
  assert.deepEqual(group.cells.find(c => c.program === cell.program && c.blockSize === cell.blockSize).detail, 'steal 3.12%')
  const rows = Object.fromEntries(data.contexts[0].rows)
  assert.equal(rows['clock source'], 'kvm-clock')
  assert.equal(rows['transparent huge pages'], 'madvise')
  assert.equal(rows['mitigation switches'], 'mitigations=auto nopti')
  assert.equal(rows.seccomp, '1 filter')
  assert.equal(rows['vulnerability spectre_v2'], 'Mitigation: Retpolines; STIBP: disabled')
  assert.ok(rows['vulnerability mds'].startsWith('Vulnerable'))
  assert.ok(!('vulnerability meltdown' in rows), 'Not affected is left out')
  assert.match(rows['VM steal'], /^0\.43% of the CPUs' time/)

  const md = renderMarkdown(data)
  assert.match(md, /\$ steal/, 'the mark in the legend')
  assert.match(md, /\| VM steal \| 0\.43% of the CPUs' time/)
  assert.match(md, /\| vulnerability spectre\\_v2 \| Mitigation: Retpolines; STIBP: disabled \|/)
  const page = renderHtml(data, HIGHCHARTS)
  assert.match(page, /<span class="flag flag-steal"[^>]*>VM steal<\/span>/)
  assert.match(page, /<th scope="row">clock source<\/th><td>kvm-clock<\/td>/)
})

test('the report of a run from before steal and machine factors were recorded says so', () => {
  const set = loadResultSet(SAMPLE)
  for (const cell of set.results.cells) assert.ok(!cell.flags.includes('steal'))
  const data = shapeReport([set])
  const rows = Object.fromEntries(data.contexts[0].rows)
  assert.equal(rows['VM steal'], 'not recorded')
  assert.ok(!data.flags.some(entry => entry.flag === 'steal'))
  assert.match(renderMarkdown(data), /\| VM steal \| not recorded \|/)
  assert.match(renderHtml(data, HIGHCHARTS), /<th scope="row">VM steal<\/th><td>not recorded<\/td>/)
})
