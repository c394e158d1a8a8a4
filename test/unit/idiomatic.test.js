'use strict'
// Readers that choose their own chunk size (coreutils, node-stream in the fixture) are
// never ranked at a block size they ignore; they get their own sentence at the chunk
// size strace saw them read in. Numbers are worked out by hand from the fixture's JSON
// (test/fixtures/results/sample/results.json) and from hand-made read traces.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')

const { loadResultSet } = require('../../analyse')
const { labelSets, shapeReport } = require('../../lib/report/data')
const findings = require('../../experiments/stdio/findings')
const { chunkSizes, summariseResults, summariseSyscalls } = require('../../experiments/stdio/summary')

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'results')
const OWN_CHUNK = ['coreutils', 'node-stream']

// One strace record as bench.js logs it, with the readTrace of its reads of stdin.
const straceRecord = (program, blockSize, returned, maxAsked, ok = true) => ({
  phase: 'strace', program, blockSize, ok, readTrace: { stdin: { read: { returned, maxAsked } }, otherCalls: 3 }
})

test('chunk size: what its read calls asked for, over every strace run of the program', () => {
  const records = [
    // 256 KiB in 64 KiB chunks and the 0 at the end, at two block sizes it ignores
    straceRecord('node-stream', 256, { 65536: 4, 0: 1 }, 65536),
    straceRecord('node-stream', 65536, { 65536: 12, 0: 1 }, 65536),
    // a pipe that held less once: 16 KiB calls bringing 16384 seven times, 4096 twice
    straceRecord('coreutils', 256, { 16384: 7, 4096: 2, 0: 1 }, 16384),
    // a failed run and a run with no trace count for nothing
    straceRecord('bun-stream', 256, { 4096: 9 }, null, false),
    { phase: 'strace', program: 'bun-stream', blockSize: 4096, ok: true },
    // a reader that honours the block size has no chunk size of its own
    straceRecord('c', 256, { 256: 1024, 0: 1 }, 256)
  ]
  const sizes = chunkSizes(records)
  assert.deepEqual(Object.keys(sizes).sort(), ['bun-stream', 'coreutils', 'node-stream'])
  assert.deepEqual([sizes['node-stream'].chunkBytes, sizes['node-stream'].maxAskedBytes, sizes['node-stream'].calls, sizes['node-stream'].callsAtChunk], [65536, 65536, 16, 16])
  assert.deepEqual([sizes.coreutils.chunkBytes, sizes.coreutils.maxAskedBytes, sizes.coreutils.calls, sizes.coreutils.callsAtChunk], [16384, 16384, 9, 7])
  assert.match(sizes['node-stream'].found, /^strace: /)
  assert.equal(sizes['bun-stream'].chunkBytes, null)
  assert.match(sizes['bun-stream'].found, /^unknown: /)
})

test('chunk size: asked for, not what the pipe or the feeder let through; the commonest return only where strace printed no size', () => {
  const records = [
    // --feeder matched at 256 B: dd writes 256-byte blocks, so 128 KiB calls mostly bring 256
    straceRecord('coreutils', 256, { 256: 4096, 0: 1 }, 131072),
    // the fixed feeder: the 64 KiB pipe caps every return of a 128 KiB call
    straceRecord('coreutils', 65536, { 65536: 16, 0: 1 }, 131072),
    // preadv2 calls whose size strace does not print
    straceRecord('bun-stream', 4096, { 65536: 15, 4096: 1, 0: 1 }, null)
  ]
  const sizes = chunkSizes(records)
  assert.deepEqual([sizes.coreutils.chunkBytes, sizes.coreutils.calls, sizes.coreutils.callsAtChunk], [131072, 4112, 0])
  assert.equal(sizes.coreutils.found, 'strace: the most a read call on stdin asked for, over its strace runs')
  assert.deepEqual([sizes['bun-stream'].chunkBytes, sizes['bun-stream'].callsAtChunk], [65536, 15])
  assert.match(sizes['bun-stream'].found, /brought back, .*\(strace did not print what they asked for\)$/)
})

test('old logs without readTrace, and runs without a strace pass: the chunk size is unknown', () => {
  for (const name of ['sample', 'sample-nostrace']) {
    const dir = path.join(FIXTURES, name)
    const records = fs.readFileSync(path.join(dir, 'all.jsonl'), 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line))
    const context = JSON.parse(fs.readFileSync(path.join(dir, 'context.json'), 'utf8'))
    const results = summariseResults(records, context)
    for (const program of Object.keys(results.chunkSizes)) {
      assert.ok(OWN_CHUNK.includes(program), `${name}: ${program} honours the block size`)
      assert.equal(results.chunkSizes[program].chunkBytes, null, `${name}: ${program}`)
    }
    assert.deepEqual(summariseSyscalls(records, context).chunkSizes, results.chunkSizes)
  }
})

test('own-chunk readers never appear in the headline, per-size rankings, charts or per-size tables', () => {
  const sets = labelSets([loadResultSet(path.join(FIXTURES, 'sample')), loadResultSet(path.join(FIXTURES, 'sample-nostrace'))])
  const texts = findings.findings(sets).map(finding => finding.text)
  // every finding that ranks readers at a block size: the headline's, the syscalls'
  const perSize = texts.filter(text => /^(At \d|Per read at)/.test(text))
  assert.equal(perSize.length, 4)
  for (const text of perSize) {
    for (const program of OWN_CHUNK) assert.ok(!text.includes(program), `${program} in: ${text}`)
  }
  const data = shapeReport(sets)
  const shown = [
    ...Object.values(data.headline.chart).flatMap(size => size.categories),
    ...data.throughput.steady.map(series => series.program),
    ...data.throughput.raw.map(series => series.program),
    ...data.time.map(series => series.program),
    ...data.cost.perRead.map(series => series.program),
    ...data.summaries.flatMap(summary => summary.rows.map(row => row.program))
  ]
  for (const program of OWN_CHUNK) assert.ok(!shown.includes(program), `${program} is shown at a block size`)
  // they stay in the per-cell CSV rows, marked
  assert.deepEqual([...new Set(data.cells.filter(row => row.ownChunk).map(row => row.program))], ['coreutils', 'node-stream'])
})

test('the idiomatic readers at their chunk size: exact, or the nearest size measured', () => {
  const [set] = labelSets([loadResultSet(path.join(FIXTURES, 'sample'))])
  // as strace would have found them: node-stream 64 KiB (measured), coreutils 128 KiB (not: 64 KiB is nearest)
  set.results.chunkSizes = {
    'node-stream': { chunkBytes: 65536, found: 'strace' },
    coreutils: { chunkBytes: 131072, found: 'strace' }
  }
  // node-stream at 64 KiB: best.steadyThroughputMBps 948.75, vsC.steadyThroughput 948.75/1611.59 = 0.5887 → 59%.
  // coreutils at 64 KiB: 1888.46 MB/s, 1888.46/1611.59 = 1.1718 → 117%.
  assert.equal(findings.idiomaticReaders(set),
    'The readers that choose their own chunk size, against C reading blocks of that size: ' +
    'coreutils 128 KiB chunks, 117% of C at 64 KiB and node-stream 64 KiB chunks, 59% of C.')
  const rows = findings.idiomaticRows(set)
  assert.deepEqual(rows.map(row => [row.program, row.chunkBytes, row.blockSize, row.exact]), [['coreutils', 131072, 65536, false], ['node-stream', 65536, 65536, true]])
  // a reader whose share the runs do not support is named with its reason, not left out (a review)
  const streamCell = set.results.cells.find(cell => cell.program === 'node-stream' && cell.blockSize === 65536)
  const withheld = cell => ({ ...cell, vsC: cell.vsC && { ...cell.vsC, withheld: 'noisy' } })
  const cells = set.results.cells.map(cell => cell === streamCell ? withheld(cell) : cell)
  const noisy = { ...set, results: { ...set.results, cells } }
  assert.equal(findings.idiomaticReaders(noisy),
    'The readers that choose their own chunk size, against C reading blocks of that size: ' +
    'coreutils 128 KiB chunks, 117% of C at 64 KiB; no share quoted for node-stream (noisy).')
  // every one withheld: still named (a review of the mend)
  const allNoisy = { ...set, results: { ...set.results, cells: set.results.cells.map(withheld) } }
  assert.equal(findings.idiomaticReaders(allNoisy), 'The readers that choose their own chunk size, against C ' +
    'reading blocks of that size: no share quoted for coreutils (noisy) and node-stream (noisy).')
  // the report's table carries the same rows
  const data = shapeReport([set])
  assert.deepEqual(data.idiomatic[0].rows.map(row => row.program), ['coreutils', 'node-stream'])
})

test('nearest measured size: the smaller of two as near', () => {
  assert.equal(findings.nearestSize([256, 4096, 65536], 65536), 65536)
  assert.equal(findings.nearestSize([256, 4096, 65536], 1 << 20), 65536)
  assert.equal(findings.nearestSize([4096, 12288], 8192), 4096)
  assert.equal(findings.nearestSize([256], null), null)
})
