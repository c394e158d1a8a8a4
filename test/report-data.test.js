'use strict'
// The report's data shaping and findings, checked against the committed fixture
// (test/fixtures/results/sample: c, coreutils, just-sync, node-stream, bun-ffi and
// deno-sync at 256 B, 4 KiB and 64 KiB, 2 runs of 64 MiB; sample-nostrace: the same
// without the strace pass). Expected numbers are worked out by hand from the
// fixture's JSON; each comment names the fields they come from.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')

const { loadResultSet } = require('../analyse')
const { shapeReport, labelSets, sawtooth, BASELINE } = require('../lib/report-data')
const findings = require('../lib/findings')
const { sizeLabel, sizeName, formatNumber, formatPercent, formatShare, formatRatio, escapeHtml, jsonForScript, escapeMarkdown, csvField } = require('../lib/report-format')

const FIXTURES = path.join(__dirname, 'fixtures', 'results')
const sample = () => loadResultSet(path.join(FIXTURES, 'sample'))
const noStrace = () => loadResultSet(path.join(FIXTURES, 'sample-nostrace'))
const PROGRAMS = ['c', 'coreutils', 'just-sync', 'node-stream', 'bun-ffi', 'deno-sync']
const MiB = 1 << 20

const close = (actual, expected, message) => assert.ok(Math.abs(actual - expected) < 1e-6 * Math.max(1, Math.abs(expected)), `${message ?? ''} ${actual} ≠ ${expected}`)

test('block sizes read as the study wrote them', () => {
  assert.deepEqual([256, 1024, 4096, 65536, 1 << 20].map(sizeLabel), ['256', '1K', '4K', '64K', '1M'])
  assert.deepEqual([256, 4096, 65536].map(sizeName), ['256 B', '4 KiB', '64 KiB'])
  assert.equal(formatNumber(2869.0227), '2869')
  assert.equal(formatNumber(79.6023), '79.6')
  assert.equal(formatNumber(1.206954), '1.21')
  assert.equal(formatNumber(null), '–')
  assert.equal(formatPercent(0.8469), '85%')
  assert.equal(formatRatio(14.45), '14×')
  assert.equal(formatRatio(1.1139), '1.11×')
  // an interval rounds outwards to a tenth, so a low end of 96.96% never prints as 97.0% nor
  // a high end of 99.03% as 100%; exact tenths stay put
  assert.equal(formatShare({ estimate: 0.984, low: 0.9696, high: 0.9903 }), '98% (96.9–99.1%)')
  assert.equal(formatShare({ estimate: 1, low: 0.97, high: 1.001 }), '100% (97.0–100.1%)')
})

test('escaping: HTML, script-embedded JSON, Markdown and CSV', () => {
  const evil = '<script>alert("x")</script> & \'q\''
  assert.equal(escapeHtml(evil), '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;')
  const json = jsonForScript({ name: evil, line: 'a\u2028b' })
  assert.ok(!json.includes('<') && !json.includes('>'), json)
  assert.deepEqual(JSON.parse(json), { name: evil, line: 'a\u2028b' })
  assert.equal(escapeMarkdown('a|b <i>'), 'a\\|b &lt;i&gt;')
  assert.equal(csvField('a,"b"'), '"a,""b"""')
  assert.equal(csvField('=SUM(A1)'), "'=SUM(A1)")
  assert.equal(csvField(-17.5), '-17.5')
  assert.equal(csvField(null), '')
})

test('one set: programs, sizes and series names come from the results', () => {
  const data = shapeReport([sample()])
  assert.equal(data.compare, false)
  assert.equal(data.title, 'syscall-lab: sample')
  assert.deepEqual(data.sets, ['sample'])
  assert.deepEqual(data.sizes, [256, 4096, 65536])
  assert.deepEqual(data.programs.map(program => program.name), PROGRAMS)
  assert.deepEqual(data.throughput.steady.map(series => series.name), PROGRAMS)
  assert.deepEqual(data.throughput.raw.map(series => series.id), data.throughput.steady.map(series => series.id))
  const nodeStream = data.programs.find(program => program.name === 'node-stream')
  assert.deepEqual([nodeStream.runtime, nodeStream.runtimeLabel, nodeStream.honoursBlockSize, nodeStream.javascript], ['node', 'Node.js', false, true])
  const c = data.programs.find(program => program.name === 'c')
  assert.deepEqual([c.runtime, c.honoursBlockSize, c.javascript], ['native', true, false])
})

test('throughput: steady state and end-to-end, best of N with a min–max band', () => {
  const data = shapeReport([sample()])
  const c = data.throughput.steady.find(series => series.program === 'c')
  // c @ 256: 64 MiB (bytes 67108864) in best.wallNs 113797885 less startup.c.medianNs 1206954.
  const steady256 = 67108864 / 1e6 / ((113797885 - 1206954) / 1e9)
  close(c.data[0][1], steady256)
  assert.equal(Math.round(steady256), 596)
  // The band: the same for the slowest run (wallNs.max 119180104).
  close(c.band[0][1], 67108864 / 1e6 / ((119180104 - 1206954) / 1e9))
  close(c.band[0][2], steady256)
  assert.deepEqual(c.data.map(([size]) => size), [256, 4096, 65536])

  const raw = data.throughput.raw.find(series => series.program === 'c')
  // End-to-end: bytes / best.wallNs, start-up left in.
  close(raw.data[0][1], 67108864 / 1e6 / (113797885 / 1e9))
  close(raw.band[0][1], 67108864 / 1e6 / (119180104 / 1e9))
  assert.ok(raw.data[0][1] < c.data[0][1], 'taking start-up out raises throughput')
})

// The sample with --marginal figures made up for c and just-sync at 256 B and 64 KiB.
function withMarginal () {
  const set = sample()
  const made = { c: [500, 0.1, 1000], 'just-sync': [450, 0.5, 1000] }
  for (const cell of set.results.cells) {
    const [at256, share, at64k] = made[cell.program] ?? []
    if (at256 === undefined || cell.blockSize === 4096) continue
    const throughputMBps = cell.blockSize === 256 ? at256 : (cell.program === 'c' ? at64k : null)
    cell.marginal = { quarterRuns: 2, quarterBytes: cell.bytes / 4, wallNsBetween: 1, plusMinusShare: cell.blockSize === 256 ? share : 1.5, throughputMBps, perReadNs: null, cpuPerReadNs: null }
    if (cell.program !== 'c') cell.vsC.marginalThroughput = throughputMBps === null ? null : throughputMBps / 500
  }
  return set
}

test('marginal throughput (--marginal): a third throughput mode, a summary figure, CSV columns and a finding', () => {
  assert.equal(shapeReport([sample()]).throughput.marginal, null, 'no mode without quarter runs')
  const data = shapeReport([withMarginal()])
  const c = data.throughput.marginal.find(series => series.program === 'c')
  // 256 B: 500 MB/s, ±10% of the time between: 500 / 1.1 to 500 / 0.9; 64 KiB: ±150%, no band
  assert.deepEqual(c.data.map(([, y]) => y), [500, null, 1000])
  assert.equal(c.band.length, 1)
  close(c.band[0][1], 500 / 1.1)
  close(c.band[0][2], 500 / 0.9)
  assert.deepEqual(data.throughput.marginal.find(series => series.program === 'just-sync').data.map(([, y]) => y), [450, null, null])
  const [summary] = data.summaries
  assert.equal(summary.marginal, true)
  const justSync = summary.rows.find(row => row.program === 'just-sync').cells
  assert.equal(justSync[256].marginalMBps, 450)
  assert.equal(justSync[256].vsCMarginal, 0.9)
  assert.equal(justSync[4096].marginalMBps, null)
  const row = data.cells.find(cell => cell.program === 'just-sync' && cell.blockSize === 256)
  assert.deepEqual([row.marginalMBps, row.vsCMarginal], [450, 0.9])
  const [set] = labelSets([withMarginal()])
  assert.equal(findings.marginalVsC(set, 256), 'At 256 B, marginal throughput (full runs less quarter runs, so start-up and warm-up cancel; a share of C is uncertain by both fits\' ±): ' +
    'C 500 MB/s (fit ±10%), just-sync at 90% (fit ±50%) of it.')
  const few = withMarginal()
  for (const cell of few.results.cells) if (cell.marginal && cell.program === 'just-sync') cell.marginal.fewReads = true
  assert.match(findings.marginalVsC(labelSets([few])[0], 256), /just-sync at 90% \(fit ±50%\) of it; the quarter runs of just-sync made fewer than 32768 reads, so a JIT may still have been compiling after them\.$/)
  const { renderMarkdown } = require('../lib/report-text')
  // just-sync has no marginal figure at 4 KiB: a blank, not the "-" of a swamped fit;
  // deno-sync has none at any size: no row
  const md = renderMarkdown(shapeReport([few])).split('## Marginal throughput')[1]
  assert.match(md, /\| just-sync \| 450 \(90%\)\* \|  \| - \|/)
  assert.ok(!md.includes('| deno-sync |'))
  assert.equal(findings.marginalVsC(set, 65536), null, 'no program but C has a marginal figure at 64 KiB')
  assert.equal(findings.marginalVsC(labelSets([sample()])[0], 256), null)
})

test('the rank test against C: a mark after the share in the tables, a clause in the finding, p in the CSV', () => {
  const { renderMarkdown, renderCsv } = require('../lib/report-text')
  const set = sample()
  // made up: just-sync at 256 B within C's noise (p 0.4), deno-sync apart from it (p 0.01)
  for (const cell of set.results.cells.filter(cell => cell.blockSize === 256)) {
    if (cell.program === 'just-sync') Object.assign(cell.vsC, { steadyRankTestP: 0.4, steadyWithinNoise: true })
    if (cell.program === 'deno-sync') Object.assign(cell.vsC, { steadyRankTestP: 0.01, steadyWithinNoise: false })
  }
  const data = shapeReport([set])
  const cells = program => data.summaries[0].rows.find(row => row.program === program).cells
  assert.equal(cells('just-sync')[256].withinNoise, true)
  assert.equal(cells('deno-sync')[256].withinNoise, false)
  assert.equal(cells('just-sync')[4096].withinNoise, false, 'no test, no mark')
  const md = renderMarkdown(data)
  // just-sync @ 256: best.steadyThroughputMBps 504.80, vsC 85%
  assert.match(md, /\| just-sync \| 505 \(85%≈\)~ \|/)
  assert.match(md, /\| deno-sync \| 384 \(64%\) \|/)
  assert.match(md, /Marks: ≈ its runs are not distinguishable from C's \(rank test, p ≥ 0\.05\);/)
  assert.match(findings.throughputVsC(labelSets([set])[0], 256), /; the runs of just-sync are not distinguishable from C's \(rank test, p ≥ 0\.05\)\.$/)
  assert.ok(!/not distinguishable/.test(findings.throughputVsC(labelSets([set])[0], 65536)))
  const csv = renderCsv(data).split('\r\n')
  const column = csv[0].split(',').indexOf('rankTestP')
  assert.equal(csv.find(line => line.includes(',just-sync,256,')).split(',')[column], '0.4')
  assert.equal(csv.find(line => line.includes(',just-sync,4096,')).split(',')[column], '')
})

test('the share of C over all runs: its own table (no row for C), a clause in the finding, three CSV columns', () => {
  const { renderMarkdown, renderCsv } = require('../lib/report-text')
  const set = sample()
  // made up: just-sync at 256 B 96% of C, interval 91-101%; nothing else has runs enough
  Object.assign(set.results.cells.find(cell => cell.program === 'just-sync' && cell.blockSize === 256).vsC, { steadyShare: { estimate: 0.96, low: 0.914, high: 1.006 } })
  const data = shapeReport([set])
  assert.equal(data.summaries[0].shares, true)
  const md = renderMarkdown(data)
  const table = md.slice(md.indexOf('## Share of C over all runs'), md.indexOf('## Context'))
  assert.match(table, /\| just-sync \| 96% \(91\.4–100\.6%\) \|  \|  \|/)
  assert.ok(!/\| c \|/.test(table), 'C has no share of C: no row')
  assert.ok(!/\| deno-sync \|/.test(table), 'a program with no interval anywhere: no row')
  assert.match(findings.throughputVsC(labelSets([set])[0], 256), /just-sync reads at 85% \(all runs 96%, 95% interval 91\.4–100\.6%\)/)
  const csv = renderCsv(data).split('\r\n')
  const header = csv[0].split(',')
  const justSync = csv.find(line => line.includes(',just-sync,256,')).split(',')
  assert.deepEqual(['vsCAllRuns', 'vsCAllRunsLow', 'vsCAllRunsHigh'].map(name => justSync[header.indexOf(name)]), ['0.96', '0.914', '1.006'])
  assert.equal(csv.find(line => line.includes(',just-sync,4096,')).split(',')[header.indexOf('vsCAllRuns')], '')
  assert.ok(!shapeReport([sample()]).summaries[0].shares, 'no interval anywhere: no table')
  // a failed cell is blank in the share table: a failed C cell does not give C a row
  const failedC = sample()
  Object.assign(failedC.results.cells.find(cell => cell.program === 'just-sync' && cell.blockSize === 256).vsC, { steadyShare: { estimate: 0.96, low: 0.914, high: 1.006 } })
  const c4096 = failedC.results.cells.find(cell => cell.program === 'c' && cell.blockSize === 4096)
  Object.assign(c4096, { best: undefined, flags: ['failed'] })
  const failedMd = renderMarkdown(shapeReport([failedC]))
  const failedTable = failedMd.slice(failedMd.indexOf('## Share of C over all runs'), failedMd.indexOf('## Context'))
  assert.ok(!/\| c \|/.test(failedTable), failedTable)
  assert.match(failedMd, /\| c \| [^|]+ \| FAILED \|/, 'the steady-state table still marks it')
  assert.ok(!renderMarkdown(shapeReport([sample()])).includes('## Share of C'))
})

test('time taken: the best wall time in ms, band from fastest to slowest', () => {
  const data = shapeReport([sample()])
  const justSync = data.time.find(series => series.program === 'just-sync')
  // just-sync wallNs: 256 → min 163088423, max 202165200.
  assert.deepEqual(justSync.data[0], [256, 163.088423])
  assert.deepEqual(justSync.band[0], [256, 163.088423, 202.1652])
})

test('cost per read only for programs that honour the block size; overhead over C without C', () => {
  const data = shapeReport([sample()])
  assert.deepEqual(data.cost.perRead.map(series => series.program), ['c', 'just-sync', 'bun-ffi', 'deno-sync'])
  assert.deepEqual(data.cost.overhead.map(series => series.program), ['just-sync', 'bun-ffi', 'deno-sync'])
  assert.deepEqual(data.cost.left.map(entry => entry.program), ['coreutils', 'node-stream'])
  assert.match(data.cost.left[0].reason, /own chunk size/)
  const c = data.cost.perRead.find(series => series.program === 'c')
  const justSync = data.cost.perRead.find(series => series.program === 'just-sync')
  // (best.wallNs − startup median) / reads: c (113797885 − 1206954) / 262144, just-sync (163088423 − 30145840) / 262144.
  close(c.data[0][1], (113797885 - 1206954) / 262144)
  close(justSync.data[0][1], (163088423 - 30145840) / 262144)
  const overhead = data.cost.overhead.find(series => series.program === 'just-sync')
  close(overhead.data[0][1], (163088423 - 30145840) / 262144 - (113797885 - 1206954) / 262144)
  assert.equal(overhead.band, null)
})

test('syscalls: stacked counts per program at each block size, main thread and all threads', () => {
  const data = shapeReport([sample()])
  assert.equal(data.syscalls.available, true)
  assert.deepEqual(data.syscalls.sizes, [256, 4096, 65536])
  assert.equal(data.syscalls.defaultSize, 65536)
  const profile = data.syscalls.bySize[65536]
  assert.deepEqual(profile.categories, PROGRAMS)
  assert.deepEqual(profile.bytes, [2 * MiB])
  // The 8 most-called syscalls over all programs' main threads at 64 KiB, then the rest.
  assert.deepEqual(profile.main.map(series => series.name), ['read', 'mmap', 'openat', 'mprotect', 'close', 'munmap', 'madvise', 'newfstatat', 'other'])
  // strace/c-65536-main.txt: read 34, mmap 8, openat 2, mprotect 3, close 2, munmap 1, newfstatat 3 of 67 calls.
  assert.deepEqual(profile.main.map(series => series.data[0]), [34, 8, 2, 3, 2, 1, 0, 3, 67 - 53])
  // Each stack adds up to the program's total.
  for (const [i, program] of PROGRAMS.entries()) {
    const row = profile.table.find(entry => entry.program === program)
    assert.equal(profile.main.reduce((sum, series) => sum + series.data[i], 0), row.totalMain, program)
    assert.equal(profile.all.reduce((sum, series) => sum + series.data[i], 0), row.totalAll, program)
  }
  const deno = profile.table.find(entry => entry.program === 'deno-sync')
  assert.equal(deno.threads, 6)
  assert.equal(deno.totalAll, 968)
  assert.equal(deno.perMiBAll, 968 / 2)
  assert.deepEqual(deno.topAll[0], { name: 'fcntl', calls: 118 })
})

test('a set without strace says why instead of drawing', () => {
  const data = shapeReport([noStrace()])
  assert.equal(data.syscalls.available, false)
  assert.deepEqual(data.syscalls.notes, [{ set: 'sample-nostrace', reason: 'strace did not run: skipped with --no-strace' }])
  assert.equal(findings.threadsStarted(labelSets([noStrace()])[0]), null)
})

test('memory, CPU and start-up per program', () => {
  const data = shapeReport([sample()])
  const { resources } = data
  assert.deepEqual(resources.categories, PROGRAMS)
  const [reading, empty] = resources.memory
  // node-stream reader.maxRssKb over its cells: 77604, 78260, 77180 → 78260 KiB; start-up 42252 KiB.
  assert.equal(reading.data[3], 78260 / 1024)
  assert.equal(empty.data[3], 42252 / 1024)
  // c @ 64 KiB: reader.userUs 0, sysUs 19438.
  const cpu = resources.cpu.bySize[65536]
  assert.deepEqual(cpu.map(series => series.kind), ['user', 'sys'])
  assert.equal(cpu[0].data[0], 0)
  assert.equal(cpu[1].data[0], 0.019438)
  // startup.c: medianNs 1206954, minNs 1196158, maxNs 1217750.
  assert.equal(resources.startup[0].data[0], 1.206954)
  assert.deepEqual(resources.startup[0].range[0], [1.196158, 1.21775])
})

test('GC: a row per traced cell, why for the rest, a heap timeline from the busiest trace', () => {
  const data = shapeReport([sample()])
  const { gc } = data
  assert.deepEqual([...new Set(gc.rows.map(row => row.program))], ['just-sync', 'node-stream', 'deno-sync'])
  assert.equal(gc.rows.length, 9)
  assert.deepEqual(gc.unavailable.map(entry => entry.program), ['c', 'coreutils', 'bun-ffi'])
  assert.match(gc.unavailable.find(entry => entry.program === 'bun-ffi').reason, /JavaScriptCore/)
  const nodeStream = gc.rows.find(row => row.program === 'node-stream' && row.blockSize === 65536)
  assert.deepEqual(nodeStream.byKind, [{ kind: 'Scavenge', count: 2, totalPauseMs: 1.07, maxPauseMs: 0.63 }])
  // Every node-stream trace has 2 collections: the tie goes to the largest block size.
  assert.equal(gc.timeline.length, 1)
  assert.equal(gc.timeline[0].name, 'node-stream @ 64K')
  // gc.json timeline [[41, 4.1, 3.3], [63, 4.1, 3.4]].
  assert.deepEqual(gc.timeline[0].data, [[41, 4.1], [41, 3.3], [63, 4.1], [63, 3.4]])
  assert.deepEqual(sawtooth([]), [])
})

test('summary, flags and CSV rows', () => {
  const data = shapeReport([sample()])
  const [summary] = data.summaries
  const justSync = summary.rows.find(row => row.program === 'just-sync')
  // vsC.steadyThroughput = 2841.58 / 1611.59 at 64 KiB.
  close(justSync.cells[65536].vsC, 2841.5796147360857 / 1611.5927907006233)
  assert.deepEqual(justSync.cells[65536].flags, ['startup-dominated', 'noisy'])
  const noisy = data.flags.find(group => group.flag === 'noisy')
  assert.deepEqual(noisy.cells.map(cell => `${cell.program}@${cell.blockSize}`), ['coreutils@4096', 'just-sync@256', 'just-sync@65536', 'bun-ffi@65536'])
  assert.match(noisy.cells[0].detail, /^CV \d+%$/)
  assert.equal(data.cells.length, 18)
  assert.deepEqual(data.cells.slice(0, 3).map(row => [row.program, row.blockSize]), [['c', 256], ['c', 4096], ['c', 65536]])
  assert.equal(data.failures.length, 0)
})

test('context: machine, kernel, versions, feeder, bytes, runs, date', () => {
  const [context] = shapeReport([sample()]).contexts
  const rows = Object.fromEntries(context.rows)
  assert.equal(rows.run, 'sample')
  assert.equal(rows.date, '2026-11-22T14:22:56.573Z')
  assert.match(rows.kernel, /^Linux 6\./)
  assert.equal(rows['Node.js'], 'v20.20.2')
  assert.equal(rows.Bun, '1.4.5')
  assert.match(rows.Deno, /^deno 2\.9\.6/)
  assert.match(rows.feeder, /^fixed: dd writes 64 KiB blocks/)
  assert.equal(rows['bytes per run'], '64 MiB')
  assert.equal(rows['runs per cell'], '2 (after 1 warm-up)')
})

test('two sets side by side: series per program and run, a comparison table', () => {
  const data = shapeReport([sample(), noStrace()])
  assert.equal(data.compare, true)
  assert.equal(data.title, 'syscall-lab: sample vs sample-nostrace')
  assert.equal(data.throughput.steady.length, 12)
  assert.deepEqual(data.throughput.steady.slice(0, 2).map(series => series.name), ['c (sample)', 'coreutils (sample)'])
  assert.equal(data.throughput.steady[6].name, 'c (sample-nostrace)')
  assert.equal(data.syscalls.available, true)
  assert.deepEqual(data.syscalls.bySize[65536].categories, PROGRAMS.map(program => `${program} (sample)`))
  assert.deepEqual(data.syscalls.notes.map(note => note.set), ['sample-nostrace'])
  const row = data.comparison.rows.find(r => r.program === 'c' && r.blockSize === 65536)
  // c @ 64 KiB steady: 1611.59 MB/s in sample; 3032 in sample-nostrace.
  close(row.ratios[1], row.values[1].steadyMBps / 1611.5927907006233)
  assert.equal(row.ratios[0], 1)
})

test('two sets with the same run-id get distinct labels', () => {
  const labels = labelSets([sample(), sample()]).map(set => set.label)
  assert.deepEqual(labels, ['sample', 'sample #2'])
})

test('findings: relative steady-state throughput vs C at the smallest and largest block size', () => {
  const [set] = labelSets([sample()])
  // 256 B, best runs (best.steadyThroughputMBps): just-sync 504.80/596.04 = 85%, bun-ffi 502.85/596.04 = 84%,
  // deno-sync 383.83/596.04 = 64%. Median runs (steadyThroughputMBps.median): just-sync 447.46/582.45 = 77%,
  // bun-ffi 500.86/582.45 = 86%, deno-sync 374.20/582.45 = 64%. coreutils and node-stream read chunks of
  // their own size, so they are not ranked at 256 B (test/idiomatic.test.js).
  assert.equal(findings.throughputVsC(set, 256),
    'At 256 B, just-sync reads at 85% (median 77%) of C\'s steady-state throughput (596 MB/s best, 582 MB/s median), ' +
    'bun-ffi at 84% (median 86%) and deno-sync at 64% (median 64%).')
  // 64 KiB: bun-ffi 2869.02/1611.59 = 178% (median 2195.00/1586.20 = 138%), just-sync 2841.58/1611.59 = 176% (2046.58/1586.20 = 129%).
  assert.match(findings.throughputVsC(set, 65536),
    /^At 64 KiB, bun-ffi reads at 178% \(median 138%\) of C's steady-state throughput \(1612 MB\/s best, 1586 MB\/s median\), just-sync at 176% \(median 129%\) and deno-sync/)
})

test('findings: the fastest JavaScript reader, cost per read, threads, syscalls per MiB', () => {
  const [set] = labelSets([sample()])
  assert.equal(findings.fastestJavaScript(set),
    'The fastest JavaScript reader at 256 B is just-sync (just(js)-compatible V8 host): 505 MB/s steady-state, 85% of C; ' +
    'at 64 KiB it is bun-ffi (Bun): 2869 MB/s steady-state, 178% of C.')
  // Overheads at 256 B: deno-sync 237.47, bun-ffi 79.60, just-sync 77.64 ns over C's 429.50 ns.
  assert.equal(findings.costPerRead(set),
    'At 256 B, with start-up taken out, a read costs C 430 ns; deno-sync 237 ns more, bun-ffi 79.6 ns more and just-sync 77.6 ns more.')
  // The reader's own CPU per read, set by hand on the 256 B cells (the fixture predates it): C 300 ns,
  // just-sync 320 (20 more), deno-sync 290 (10 less); cells without the figure are left out.
  const withCpu = { ...set, results: { ...set.results, cells: set.results.cells.map(cell => {
    const cpu = { c: 300, 'just-sync': 320, 'deno-sync': 290 }[cell.program]
    if (cell.blockSize !== 256 || cpu === undefined) return cell
    return { ...cell, cpuPerReadNs: cpu, vsC: { ...cell.vsC, cpuPerReadOverheadNs: cpu - 300 } }
  }) } }
  assert.equal(findings.costPerRead(withCpu, findings.PER_READ.cpu),
    'At 256 B, the reader\'s own CPU time per read (user + sys, median run, start-up\'s taken off) is C 300 ns; just-sync 20 ns more and deno-sync 10 ns less.')
  assert.equal(findings.costPerRead(set, findings.PER_READ.cpu), null, 'results from before the figure have no such finding')
  // syscalls.json allThreads.threadsStarted: node-stream 6, deno-sync 5, bun-ffi 2 (at 256 B and 4 KiB), just-sync 1.
  assert.equal(findings.threadsStarted(set),
    'Threads started besides the main thread, counted by strace -f (the most at any block size): Node.js 6 (node-stream), Deno 5 (deno-sync), Bun 2 (bun-ffi), ' +
    'just(js)-compatible V8 host 1 (just-sync), C (gcc -O3) 0 (c) and GNU coreutils 0 (coreutils).')
  // 64 KiB, all threads over 2 MiB: c 67 calls → 33.5/MiB; deno-sync 968 → 484 (14×); node-stream 795 → 397.5 (11.9×).
  assert.match(findings.syscallsPerMiB(set, 65536), /C makes 33\.5 syscalls per MiB; relative to that, deno-sync 14× \(484\), just-sync 5\.9× \(199\) and bun-ffi 4\.4× \(149\)\.$/)
})

test('findings: GC pauses, start-up, data quality', () => {
  const [set] = labelSets([sample()])
  assert.equal(findings.gcPauses(set),
    'In the GC pass (the run with the most collections for each program), node-stream collected 2 times at 64 KiB (Scavenge ×2), pausing 1.07 ms in all and 0.63 ms at most; ' +
    'just-sync and deno-sync never collected; bun-ffi has no GC trace (Bun runs JavaScriptCore, which has no --trace-gc).')
  // startup medianNs: c 1206954 … node-stream 64204384.5; 64204384.5 / 1206954 = 53.2.
  assert.equal(findings.startupTimes(set),
    'Start-up on empty input (median of 2 runs): c 1.21 ms, coreutils 1.29 ms, bun-ffi 7.09 ms, deno-sync 15.8 ms, just-sync 30.1 ms and node-stream 64.2 ms; ' +
    'node-stream takes 53× as long as C to start.')
  assert.equal(findings.dataQuality(set),
    'Of 18 cells, 4 are noisy (coreutils at 4 KiB, just-sync at 256 B, just-sync at 64 KiB and bun-ffi at 64 KiB) and 1 is start-up dominated (just-sync at 64 KiB).')
})

test('findings: absent data leaves its finding out', () => {
  const [set] = labelSets([sample()])
  const withoutC = { ...set, results: { ...set.results, cells: set.results.cells.filter(cell => cell.program !== BASELINE), startup: { ...set.results.startup, c: undefined } } }
  delete withoutC.results.startup.c
  assert.equal(findings.throughputVsC(withoutC, 256), null)
  assert.equal(findings.costPerRead(withoutC), null)
  const noGc = { ...set, gc: null }
  assert.equal(findings.gcPauses(noGc), null)
  const all = findings.findings([withoutC]).map(finding => finding.text)
  assert.ok(all.every(text => !text.includes('of C\'s steady-state')), 'no C, no comparison with C')
  assert.ok(all.some(text => text.startsWith('The fastest JavaScript reader')), 'findings that need no C remain')
})

test('findings: every sentence of the report, and a comparison between two sets', () => {
  const data = shapeReport([sample(), noStrace()])
  const texts = data.findings.map(finding => finding.text)
  // ten as before, and the idiomatic readers' (coreutils and node-stream, chunk size unknown in these old logs)
  assert.equal(data.findings.filter(finding => finding.set === 'sample').length, 11)
  // sample-nostrace has no strace pass: no threads or syscalls-per-MiB findings.
  assert.equal(data.findings.filter(finding => finding.set === 'sample-nostrace').length, 8)
  const comparison = data.findings.find(finding => finding.set === null).text
  assert.match(comparison, /^At 64 KiB, steady-state throughput in sample-nostrace against sample: c 3032 vs 1612 MB\/s \(1\.88×\)/)
  assert.ok(texts.every(text => /\d/.test(text)), 'every finding quotes a number')
})

// A cell whose every run failed, as lib/summary.js derives it from all.jsonl.
function withFailedCell (set, program, blockSize) {
  const { summariseResults } = require('../lib/summary')
  const fs = require('node:fs')
  const records = fs.readFileSync(path.join(set.dir, 'all.jsonl'), 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line))
  for (const record of records) {
    if (record.phase === 'timing' && record.program === program && record.blockSize === blockSize) {
      record.ok = false
      record.failure = 'reader exited 1: boom'
    }
  }
  return { ...set, results: summariseResults(records, set.context) }
}

test('a failed cell: a gap in the lines, a flag, the failures and a finding', () => {
  const set = withFailedCell(sample(), 'deno-sync', 4096)
  const data = shapeReport([set])
  const deno = data.throughput.steady.find(series => series.program === 'deno-sync')
  assert.deepEqual(deno.data.map(([size, y]) => [size, y === null]), [[256, false], [4096, true], [65536, false]])
  assert.deepEqual(deno.band.map(([size]) => size), [256, 65536])
  assert.equal(data.time.find(series => series.program === 'deno-sync').data[1][1], null)
  assert.deepEqual(data.summaries[0].rows.find(row => row.program === 'deno-sync').cells[4096].flags, ['failed'])
  assert.deepEqual(data.flags.find(group => group.flag === 'failed').cells, [{ program: 'deno-sync', blockSize: 4096, detail: null }])
  // Two timed runs per cell, both failed.
  assert.equal(data.failures.length, 2)
  assert.deepEqual([data.failures[0].program, data.failures[0].blockSize, data.failures[0].reason], ['deno-sync', 4096, 'reader exited 1: boom'])
  assert.match(findings.dataQuality(labelSets([set])[0]), /^Of 18 cells, 1 is failed outright \(deno-sync at 4 KiB\), .*; 2 runs failed and are left out of the figures\.$/)
  assert.equal(data.cells.find(row => row.program === 'deno-sync' && row.blockSize === 4096).bestMBps, null)
})

test('the terminal summary bench.js prints: a program per row, a size per column, best steady MB/s, % of C and flag marks', () => {
  const { renderTerminal } = require('../lib/report-text')
  const results = sample().results
  const lines = renderTerminal(results, [256, 4096, 65536]).split('\n')
  assert.equal(lines[0], '')
  assert.match(lines[1], /^Best steady-state throughput, MB\/s, and % of C at the same block size \(≈ .*; ~ noisy, ! feeder-bound, \^ reader-waited, ° startup-dominated, \$ steal, \? some-runs-failed\):$/)
  assert.deepEqual(lines[2].trim().split(/\s+/), ['program', '256', '4K', '64K'])
  const row = name => lines.find(line => line.startsWith(`${name} `)).trim().split(/\s{2,}/)
  const cell = (name, size) => results.cells.find(entry => entry.program === name && entry.blockSize === size)
  // C is 100% of itself; another program's figure is its best steady MB/s, rounded, and
  // its share of C's, with a mark for each flag
  const c = cell('c', 256)
  assert.equal(row('c')[1], `${Math.round(c.best.steadyThroughputMBps)} 100%`)
  const justSync = cell('just-sync', 65536)
  assert.equal(row('just-sync')[3], `${Math.round(justSync.best.steadyThroughputMBps)} ${Math.round(justSync.vsC.steadyThroughput * 100)}%°~`)
  assert.deepEqual(justSync.flags, ['startup-dominated', 'noisy'])
})
