'use strict'
// The kernel section of the stdio page, as markup: one block size at a time behind buttons,
// every set's charts and table in the panel of their size, and a set compared with another
// that measured a size it did not saying so in that panel.
const { test } = require('node:test')
const assert = require('node:assert/strict')

const {
  kernelData, kernelSection, kernelMarkdown, KERNEL_SIZE_GROUP
} = require('../../experiments/stdio/report-kernel')

const cell = (program, blockSize, kernelNs) => ({
  program,
  blockSize,
  kernelNs: { estimate: kernelNs, interval: { low: kernelNs - 5, high: kernelNs + 5, level: 0.969 } },
  cpuPerReadNs: kernelNs * 2,
  restNs: kernelNs,
  kernelShare: 0.5,
  againstC: null,
  readingCall: 'read',
  callsPerRead: 1,
  percentiles: { p10: kernelNs - 10, p50: kernelNs, p90: kernelNs + 10, p99: kernelNs * 3 },
  switchesPerCall: 0
})
const setOf = (label, sizes) => ({
  label,
  results: {
    kernel: { cells: sizes.flatMap(size => [cell('c', size, 200), cell('node-sync', size, 260)]), tracerCost: [] }
  }
})

// The panels of the section's group: [size, hidden, what it holds], in page order.
function panels (markup) {
  // a size panel's group, size, whether hidden, and its markup up to the next panel or the note
  const PANEL = new RegExp('<div data-size-panel="([^"]+)" data-size="(\\d+)"( hidden)?>([\\s\\S]*?)' +
    '(?=<div data-size-panel=|<p class="note">Intervals)', 'g')
  const found = [...markup.matchAll(PANEL)]
  return found.map(([, group, size, hidden, inside]) => ({
    group,
    size: Number(size),
    hidden: Boolean(hidden),
    charts: [...inside.matchAll(/id="(chart-kernel-[^"]+)"/g)].map(match => match[1]),
    missing: /No kernel pass at/.test(inside)
  }))
}
const buttons = markup => [...markup.matchAll(/data-size-group="([^"]+)"|<button type="button" data-size="(\d+)"/g)]
  .map(([, group, size]) => group ?? Number(size))

test('one run at three sizes: the buttons, and each size\'s charts and table in a panel of its own', () => {
  const markup = String(kernelSection({ kernel: kernelData([setOf('a', [256, 4096, 65536])]) }))
  assert.deepEqual(buttons(markup), [KERNEL_SIZE_GROUP, 256, 4096, 65536])
  assert.deepEqual(panels(markup).map(({ size, hidden, charts }) => [size, hidden, charts]), [
    [256, false, ['chart-kernel-split-0-256', 'chart-kernel-calls-0-256']],
    [4096, true, ['chart-kernel-split-0-4096', 'chart-kernel-calls-0-4096']],
    [65536, true, ['chart-kernel-split-0-65536', 'chart-kernel-calls-0-65536']]
  ])
  assert.equal((markup.match(/<table>/g) ?? []).length, 3, 'a table per size')
})

test('one size: no buttons, its panel shown', () => {
  const markup = String(kernelSection({ kernel: kernelData([setOf('a', [256])]) }))
  assert.deepEqual(buttons(markup), [])
  assert.deepEqual(panels(markup).map(({ size, hidden }) => [size, hidden]), [[256, false]])
})

test('two runs compared, one without a size the other has: its panel at that size says so', () => {
  const markup = String(kernelSection({ kernel: kernelData([setOf('a', [256, 4096]), setOf('b', [256])]) }))
  assert.deepEqual(buttons(markup), [KERNEL_SIZE_GROUP, 256, 4096])
  assert.deepEqual(panels(markup).map(({ size, hidden, charts, missing }) => [size, hidden, charts.length, missing]), [
    [256, false, 2, false], [4096, true, 2, false],
    [256, false, 2, false], [4096, true, 0, true]
  ])
})

// The rest of a read's CPU beyond the kernel's: "≈0" wherever the CPU per read lies inside the
// kernel time's interval, above its estimate as below it (a review: only below said so); the
// percentiles' columns say the probes' floor is in them, as the table's note says it is not
// in the kernel's ns.
test('a rest inside the kernel time\'s interval is ≈0 on either side; the percentiles hold the floor', () => {
  const { splitRow } = require('../../experiments/stdio/report-kernel')
  const at = cpuPerReadNs => splitRow({ ...cell('c', 256, 200), cpuPerReadNs, restNs: cpuPerReadNs - 200 })
  assert.equal(at(203).rest, '≈0', 'above the estimate, inside the interval (195-205)')
  assert.equal(at(197).rest, '≈0', 'below it')
  assert.equal(at(206).rest, '6', 'past its high end')
  assert.equal(at(190).over, true, 'below its low end: the kernel time is over the CPU')
  // the chart draws the table's rule: no rest bar where the table says ≈0 (a review: it drew one)
  const set = setOf('a', [256])
  set.results.kernel.cells[0] = { ...set.results.kernel.cells[0], cpuPerReadNs: 203, restNs: 3 }
  const [{ charts: [chart] }] = kernelData([set])
  assert.deepEqual(chart.rest, [null, 260])
  const markup = String(kernelSection({ kernel: kernelData([setOf('a', [256])]) }))
  assert.match(markup, /p50 ns\/call, floor incl\./)
})

// A cell that lost some of its rounds says how many beside its name; its figures are the rest's.
test('a kernel cell that lost rounds says how many, in every format', () => {
  const { splitRow } = require('../../experiments/stdio/report-kernel')
  const row = splitRow({ ...cell('node-sync', 256, 260), rounds: 4, failedRounds: 2 })
  assert.equal(row.label, 'node-sync (2 of 6 rounds failed)')
  assert.equal(splitRow({ ...cell('c', 256, 200), rounds: 6, failedRounds: 0 }).label, 'c')
  const lostCell = { ...cell('node-sync', 256, 260), rounds: 4, failedRounds: 2 }
  const lost = { label: 'a', results: { kernel: { cells: [lostCell], tracerCost: [] } } }
  assert.match(String(kernelSection({ kernel: kernelData([lost]) })), /node-sync \(2 of 6 rounds failed\)/)
  // one that lost them all has no row: a sentence under the tables names it, in both formats
  const none = { program: 'node-sync', blockSize: 256, rounds: 4, failure: 'exit 1' }
  const gone = { ...lost, results: { kernel: { cells: [cell('c', 256, 200)], tracerCost: [], lost: [none] } } }
  const said = /No figure, every round failed: node-sync at 256 B \(4 rounds; the first: exit 1\)\./
  assert.match(String(kernelSection({ kernel: kernelData([gone]) })), said)
  assert.match(kernelMarkdown({ kernel: kernelData([gone]) }).join('\n'), said)
})
