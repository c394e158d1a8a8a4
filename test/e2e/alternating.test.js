'use strict'
// Two pipelines taking turns on one CPU, for real (lib/pipeline.js runAlternating, pipe-run's
// SIGUSR1 and SIGUSR2): each pauses while the other runs, samples only its own turns, counts
// every byte, and the two are one step to the foreign-time check. Then a cost run of the
// stdio experiment in turns with C, through its own measure.
const { test, before } = require('node:test')
const assert = require('node:assert/strict')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { runAlternating, ddFeeder, sharedCpuPin } = require('../../lib/pipeline')
const { pipelineForeign } = require('../../lib/foreign')
const { findProgram } = require('../../experiments/stdio/programs')
const { measure } = require('../../experiments/stdio/measure')
const { pairFigures } = require('../../experiments/stdio/cost')

const ROOT = path.join(__dirname, '..', '..')
const WC_C = path.join(ROOT, 'build', 'wc-c')

before(() => {
  const made = spawnSync('make', ['-s', 'all'], { cwd: ROOT, encoding: 'utf8' })
  assert.equal(made.status, 0, `make failed (run ./setup.sh first): ${made.stderr}`)
})

const pipeline = (bytes, pin) => ({ feeder: ddFeeder(bytes, 65536, true), reader: [WC_C, '256'], timeoutMs: 60000, pin, sampleMs: 1 })

test('two pipelines take turns: each paused in the other\'s, every byte counted, samples their own', async () => {
  const pin = sharedCpuPin()
  const [a, b] = await runAlternating([pipeline(256 << 20, pin), pipeline(256 << 20, pin)], 5)
  for (const result of [a, b]) {
    assert.equal(result.reader.exit, 0, result.stderr)
    assert.equal(result.feeder.exit, 0)
    assert.match(result.stdout, new RegExp(`^size ${256 << 20} `), 'every byte read, whatever the pauses cut')
    assert.ok(result.turns >= 3, `${result.turns} turns`)
    assert.equal(result.samples[0].length, 3, 'each sample with its time')
  }
  // the one that ended last ran alone for a small part of its run: the turns went on to the end
  // (its share of its own run, not a time: a slow machine takes longer for both)
  const later = a.aloneMs > b.aloneMs ? a : b
  const runMs = (later.samples.at(-1)[2] - later.samples[0][2]) / 1e6
  assert.ok(later.aloneMs < runMs / 4, `${later.aloneMs} ms alone of its ${runMs} ms`)
  // the turns interleave: a sample of one falls between two of the other's, more than a
  // turn apart, many times over (pipe-run takes none while its pipeline is paused)
  const times = [...a.samples.map(([, , at]) => [at, 'a']), ...b.samples.map(([, , at]) => [at, 'b'])].sort((x, y) => x[0] - y[0])
  const switches = times.filter((entry, i) => i > 0 && entry[1] !== times[i - 1][1]).length
  assert.ok(switches >= 4, `${switches} switches between the two pipelines' samples`)
  // one step to the foreign-time check: the other's time is the step's own, not foreign, so
  // the share of the CPU found foreign falls by the other's part of it (about half), whatever
  // else ran there: a fresh root's tests once shared the CPU with other work, 17% of it
  // foreign even so (asserting none then failed a test of the pairing for the machine's load)
  const paired = pipelineForeign(a, pin, b)
  const alone = pipelineForeign(a, pin)
  // a pinned pipe-run reports its CPUs' idle time, so both are figures
  assert.ok(paired !== null && alone !== null, `no foreign-time figure: ${JSON.stringify(a.cpuIdle)}`)
  const shares = JSON.stringify({ paired: paired.share, alone: alone.share })
  assert.ok(paired.share <= alone.share - 0.25, `the other's time counted foreign: ${shares}`)
})

// The ladder's pairing: a reader that has warmed up (printed its line) waits, paused, for
// the other, so that the two take turns only in their timed parts. Here one reader's warm-up
// is a shell's busy loop before it reads, the other's nothing; either may be given the first
// turn, and the first turn of the timed part is that one's.
for (const first of [0, 1]) {
  test(`readyWhen: the first ready waits for the other, paused, then turns (first turn ${first})`, async () => {
    const pin = sharedCpuPin()
    const bytes = 64 << 20
    const reader = warmUp => ['sh', '-c', `${warmUp}echo compiled; exec ${WC_C} 256`]
    // a warm-up of 1 s at least, whatever the machine's speed: long enough for the quick one,
    // were it not held, to read far more than a quarter of its bytes meanwhile (16 MiB in 256-B
    // reads: 65,536 reads a second, where C's read costs under 1 µs)
    const slow = { ...pipeline(bytes, pin), reader: reader('sleep 1; ') }
    const quick = { ...pipeline(bytes, pin), reader: reader('') }
    // g: a pattern that keeps state between tests is taken without it
    const [a, b] = await runAlternating([slow, quick], 5, first, { readyWhen: /^compiled$/mg })
    for (const result of [a, b]) {
      assert.equal(result.reader.exit, 0, result.stderr)
      assert.match(result.stdout, new RegExp(`^compiled\\nsize ${bytes} `), 'every byte read')
    }
    // the slow one's warm-up ended when its dd got past the pipe's 64 KiB (a paused reader's dd
    // sends nothing either, and the one that was not held was never paused before that)
    const warmedAt = a.samples.find(([, written]) => written > 2 * 65536)?.[2]
    assert.ok(warmedAt !== undefined, 'the slow reader read')
    // the quick one read almost nothing meanwhile: only in the ms before both could take turns
    // and before its line was seen (taking turns, it would have read for half of the warm-up)
    const readMeanwhile = Math.max(0, ...b.samples.filter(([, , at]) => at < warmedAt).map(([, written]) => written))
    assert.ok(readMeanwhile < bytes / 4, `the quick one had read ${readMeanwhile} bytes`)
    assert.ok(a.readyMs > b.readyMs && b.readyMs >= 0, `ready at ${a.readyMs} and ${b.readyMs} ms`)
    assert.ok(b.heldMs > 0, 'the quick one was held')
    assert.equal(a.heldMs, 0, 'the slow one never waited')
    // the timed parts' turns alone are counted: several each, the first given to `first`
    const turns = [a.turns, b.turns]
    assert.ok(turns.every(count => count >= 3), `${turns} turns`)
    assert.ok(turns[first] - turns[1 - first] >= 0 && turns[first] - turns[1 - first] <= 1, `${turns} turns`)
  })
}

test('turns of 0 ms run both at once, unpaused', async () => {
  const pin = sharedCpuPin()
  const results = await runAlternating([pipeline(32 << 20, pin), pipeline(32 << 20, pin)], 0)
  const [a, b] = results.map(result =>
    [result.reader.exit, result.turns, result.aloneMs, result.readyMs, result.heldMs])
  assert.deepEqual([a, b], [[0, null, null, null, null], [0, null, null, null, null]])
})

test('a cost run in turns with C: both verified, C\'s bytes its own, a share from the span both ran', async () => {
  const step = {
    phase: 'cost',
    program: findProgram('c'),
    partner: findProgram('c'),
    blockSize: 256,
    bytes: 64 << 20,
    run: 0,
    warmup: 0,
    pin: sharedCpuPin(),
    ownFeeder: true,
    sampleMs: 1
  }
  const { record } = await measure(step, 0, { timeoutSeconds: 60, feeder: 'fixed' }, os.tmpdir())
  assert.equal(record.ok, true, record.failure)
  assert.equal(record.partner.ok, true)
  assert.equal(record.partner.output.size, record.partner.bytes, 'C counted every byte it was sent')
  assert.match(record.command, /iflag=fullblock/, 'a paused dd still sends whole blocks')
  assert.ok(record.sliceMs > 0 && record.turns >= 1)
  const pair = pairFigures(record)
  assert.ok(pair !== null, 'a slope of each over the span both ran')
  // C against itself: the same program in the same moments
  assert.ok(Math.abs(pair.cNs / pair.ns - 1) < 0.5, `C against C: ${pair.cNs} and ${pair.ns} ns`)
})
