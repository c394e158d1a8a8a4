'use strict'
// The call ladder (experiments/calls/ladder.js), in this process: its parser, the
// summary's arithmetic against hand-computed numbers, the plan, and the command that
// measures a failed cell again.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { TINY_LADDER: TINY, readJson, tempFolders } = require('../helpers')
const { fakeStep, runBench } = require('../fake-step')
const { medianIntervalLevel, levelText } = require('../../lib/stats')

const calls = require('../../experiments/calls/ladder')
const { findings } = require('../../experiments/calls/findings')

const tempDir = tempFolders('syscall-lab-calls-')

test('parseLadder reads the three kinds of line and nothing else', () => {
  const out = calls.parseLadder('noise\ncompiled noop yes syscall yes empty-read unknown read-256 native\nround 1 noop 2.5 syscall 201 empty-read 230.25 read-256 440\nsize 10 reads 2 blocksize 256\n')
  assert.deepEqual(out.compiled, { noop: 'yes', syscall: 'yes', 'empty-read': 'unknown', 'read-256': 'native' })
  assert.deepEqual(out.rounds, [{ noop: 2.5, syscall: 201, 'empty-read': 230.25, 'read-256': 440 }])
  assert.deepEqual(out.total, { size: 10, reads: 2, blockSize: 256 })
  assert.deepEqual(calls.parseLadder('round 1 noop x syscall 1 empty-read 1 read-256 1\n'), { compiled: null, rounds: [], total: null })
})

// Six processes a variant: the sign test's interval is then the lowest and highest.
function records (variant, perProcess, failed = 0) {
  const ok = perProcess.map((ns, run) => ({
    phase: calls.PHASE,
    program: variant,
    run,
    ok: true,
    compiled: { noop: 'yes', syscall: 'yes', 'empty-read': 'yes', 'read-256': 'yes' },
    // three rounds whose median is the process's figure
    rounds: [0.9, 1, 1.2].map(scale => Object.fromEntries(calls.RUNGS.map(rung => [rung, ns[rung] * scale])))
  }))
  const bad = Array.from({ length: failed }, (_, i) => ({ phase: calls.PHASE, program: variant, run: perProcess.length + i, ok: false, failure: 'ladder exited 1' }))
  return [...ok, ...bad]
}

const processes = (noop, syscall, empty, read) => [0.97, 0.98, 0.99, 1.01, 1.02, 1.03].map(scale => ({ noop: noop * scale, syscall: syscall * scale, 'empty-read': empty * scale, 'read-256': read * scale }))

test('the summary: medians over processes with their intervals, the parts, the check and the cost pass', () => {
  const log = [
    ...records('c', processes(3, 200, 225, 440)),
    ...records('node', processes(30, 245, 555, 805), 1),
    ...records('just-slow', processes(12, 220, 285, 500)),
    ...records('deno-ffi', processes(5, 210, 530, 900))
  ]
  const headline = {
    cells: [
      { program: 'node-sync', blockSize: 256, cpuPerReadNs: { estimate: 810, low: 790, high: 850 } },
      { program: 'deno-ffi', blockSize: 256, cpuPerReadNs: { estimate: 1200, low: 1150, high: 1300 } }
    ]
  }
  const ladder = calls.summariseLadder(log, { options: { ladder: calls.PRESETS.default }, costPin: { cpu: 1 } }, headline)
  const row = name => ladder.rows.find(entry => entry.variant === name)
  const close = (actual, expected) => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} is not ${expected}`)

  // node: median of the six processes' medians (30 × 0.99 and 30 × 1.01 → 30), interval lowest–highest
  const node = row('node')
  assert.equal(node.processes, 6)
  assert.equal(node.failedRuns, 1)
  close(node.rungs.noop.estimate, 30)
  close(node.rungs.noop.low, 30 * 0.97)
  close(node.rungs.noop.high, 30 * 1.03)
  close(node.rungs.noop.best, 30 * 0.97 * 0.9)
  assert.equal(node.rungs.noop.wide, false, '±3% is within ±5%')
  // parts: 30 | 245 - 30 = 215 | (555 - 245) - (225 - 200) = 285 | 440 - 200 = 240; sum 770
  close(node.parts.boundary, 30)
  close(node.parts.syscall, 215)
  close(node.parts.readPath, 285)
  close(node.parts.kernelRead, 240)
  close(node.predicted, 770)
  close(node.gap, 35)
  assert.equal(node.addsUp, true, '35 of 805 is within 10%')
  assert.deepEqual(node.stdin, { program: 'node-sync', cpuPerReadNs: { estimate: 810, low: 790, high: 850 }, agrees: true, differenceNs: -5 })

  // C's parts add up by construction: the floor, not counted as adding up; its cost pass
  // cell is missing here
  const c = row('c')
  close(c.parts.readPath, 0)
  close(c.predicted, 440)
  assert.equal(c.baseline, true)
  assert.equal(c.addsUp, null)
  assert.equal(node.baseline, false)
  assert.deepEqual(c.stdin, { program: 'c', cpuPerReadNs: null, agrees: null })

  // deno-ffi: 5 + 205 + (320 - 25) + 240 = 745 against 900: off by 155, over 10%; outside 1150–1300
  const deno = row('deno-ffi')
  close(deno.predicted, 745)
  assert.equal(deno.addsUp, false)
  assert.equal(deno.stdin.agrees, false)
  close(deno.stdin.differenceNs, -300)

  // no stdin reader reads as just-slow does
  assert.equal(row('just-slow').stdin, null)
})

test('ring variants: their parts against c-uring\'s, the others\' against C\'s, and a finding of their own', () => {
  const log = [
    ...records('c', processes(3, 200, 225, 440)),
    ...records('c-uring', processes(3, 260, 300, 640)),
    ...records('just-uring', processes(8, 270, 315, 660)),
    ...records('bun-uring', processes(2, 262, 310, 650)),
    ...records('node', processes(30, 245, 555, 805))
  ]
  const ladder = calls.summariseLadder(log, { options: { ladder: calls.PRESETS.default } }, null)
  const row = name => ladder.rows.find(entry => entry.variant === name)
  const close = (actual, expected) => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} is not ${expected}`)
  // just-uring against c-uring: 8 | 270 - 8 = 262 | (315 - 270) - (300 - 260) = 5 | 640 - 260 = 380; sum 655
  const ring = row('just-uring')
  assert.equal(ring.ring, true)
  close(ring.parts.readPath, 5)
  close(ring.parts.kernelRead, 380)
  close(ring.predicted, 655)
  // bun-uring against c-uring: 2 | 262 - 2 = 260 | (310 - 262) - (300 - 260) = 8 | 380; sum 650; no stdin reader
  const bun = row('bun-uring')
  close(bun.parts.syscall, 260)
  close(bun.parts.readPath, 8)
  close(bun.predicted, 650)
  assert.equal(bun.stdin, null)
  // c-uring against itself adds up by construction, as C does against C: both floors
  close(row('c-uring').parts.readPath, 0)
  close(row('c-uring').predicted, 640)
  assert.deepEqual(ladder.rows.filter(entry => entry.baseline).map(entry => entry.variant), ['c', 'c-uring'])
  // node still against C
  close(row('node').parts.kernelRead, 240)
  const texts = findings([{ label: 'a', results: { ladder } }]).map(finding => finding.text)
  // 215 is within 10% of 197: one price, the kernel's
  assert.ok(texts.includes('A syscall\'s entry and exit (getppid less the no-op) cost 197 to 215 ns across the variants, within 10% of each other: the kernel\'s price, not the runtime\'s.'), texts.join('\n'))
  const ringText = 'Through io_uring, C\'s round trip with no work (IORING_OP_NOP) costs 260 ns against ' +
    'getppid\'s 200, and a 256-byte read 640 ns against read(2)\'s 440; just-uring\'s ring read 660 ns, ' +
    '103% of c-uring\'s and bun-uring\'s ring read 650 ns, 102% of c-uring\'s.'
  assert.ok(texts.includes(ringText), texts.join('\n'))
  assert.ok(texts.some(text => text.startsWith('The runtimes\' read paths') && !text.includes('uring')), texts.join('\n'))
})

test('a rung whose processes spread more than ±5% is wide; one failed everywhere has no parts', () => {
  const spread = [0.8, 0.9, 1, 1, 1.1, 1.2].map(scale => ({ noop: 3 * scale, syscall: 200, 'empty-read': 225, 'read-256': 440 }))
  const log = [...records('c', spread), ...records('node', [], 3)]
  const ladder = calls.summariseLadder(log, { options: { ladder: calls.PRESETS.default } }, null)
  assert.equal(ladder.rows[0].rungs.noop.wide, true)
  assert.equal(ladder.rows[0].rungs.syscall.wide, false)
  const node = ladder.rows[1]
  assert.equal(node.processes, 0)
  assert.equal(node.rungs.noop, null)
  assert.equal(node.parts, null)
  assert.equal(node.addsUp, null)
  assert.equal(calls.summariseLadder([], { options: {} }, null), null)
})

test('what adds up is counted without the floors, and a variant with no rungs counts against it', () => {
  const log = [
    ...records('c', processes(3, 200, 225, 440)),
    ...records('c-uring', processes(3, 260, 300, 640)),
    ...records('just-uring', processes(8, 270, 315, 660)),
    ...records('node', processes(30, 245, 555, 805)),
    ...records('deno-ffi', processes(5, 210, 530, 900)),
    ...records('bun-ffi', [], 3)
  ]
  const ladder = calls.summariseLadder(log, { options: { ladder: calls.PRESETS.default } }, null)
  const text = findings([{ label: 'a', results: { ladder } }]).map(finding => finding.text)
    .find(line => line.startsWith('The parts add up'))
  // node and just-uring add up, deno-ffi is 155 ns off, bun-ffi has no rungs: 2 of 4
  assert.equal(text, 'The parts add up to the measured 256-byte read within 10% for 2 of 4 variants ' +
    '(not: deno-ffi +155 ns; missing: bun-ffi), c and c-uring, the floors the others are measured ' +
    'from, adding up by construction.')
  // a results.json before the floors were marked: the table's floors, not counted among the
  // variants ("for 6 of 6 variants, , the floor…" until a review)
  const older = { ...ladder, rows: ladder.rows.map(({ baseline, ...row }) => row) }
  const olderText = findings([{ label: 'a', results: { ladder: older } }]).map(finding => finding.text)
    .find(line => line.startsWith('The parts add up'))
  assert.equal(olderText, text)
})

test('the plan: every variant\'s process p before any variant\'s p + 1, all on one CPU', () => {
  const pin = { feeder: 1, reader: 1 }
  const steps = calls.planLadder(calls.variants.slice(0, 3), { ladder: { ...TINY, processes: 2 } }, pin)
  assert.deepEqual(steps.map(entry => `${entry.run}:${entry.variant.name}`), ['0:c', '0:just-fast', '0:just-sync', '1:c', '1:just-fast', '1:just-sync'])
  assert.ok(steps.every(entry => entry.pin === pin && entry.phase === 'ladder'))
})

test('a calls run\'s failed cell is measured again by a calls bench of its variant, with the options that shaped it', () => {
  const { parseOptions, cellCommand } = require('../../bench')
  const options = parseOptions(['--experiment', 'calls', '--quick', '--processes', '2', '--timeout', '30'])
  assert.equal(cellCommand(options, { program: 'node-sync', blockSize: 256 }, []), 'node bench.js --experiment calls --quick --only node --processes 2 --timeout 30')
  assert.equal(cellCommand(options, { program: 'deno-ffi', blockSize: 256 }, []), 'node bench.js --experiment calls --quick --only deno-ffi --processes 2 --timeout 30')
  assert.equal(cellCommand(parseOptions(['--experiment', 'calls', '--rounds', '4']), { program: 'c', blockSize: 256 }, []), 'node bench.js --experiment calls --rounds 4')
})

// The ladder's rungs are medians of --processes processes, the cost pass column's of
// --rounds rounds: each interval is labelled at its own level, in every format.
test('the ladder labels its rungs\' and its cost pass\'s intervals each at their level', async () => {
  const out = tempDir()
  const result = await runBench(['--experiment', 'calls', '--quick', '--only', 'c', '--processes', '6', '--rounds', '10', '--out', out, '--id', 'levels'], { step: fakeStep() })
  assert.equal(result.status, 0, result.stderr + result.stdout)
  const [rungs, cost] = [medianIntervalLevel(6), medianIntervalLevel(10)].map(levelText)
  assert.notEqual(rungs, cost)
  const label = `median of processes, ${rungs} interval; the cost pass's, ${cost}`
  assert.ok(result.stdout.includes(`The call ladder: ns of CPU per call (${label})`), result.stdout)
  const ladder = readJson(path.join(out, 'levels', 'results.json')).ladder
  assert.equal(levelText(ladder.rows[0].rungs['read-256'].level), rungs)
  assert.equal(levelText(ladder.rows[0].stdin.cpuPerReadNs.level), cost)
})

test('a variant that kept another count of processes is named with its level', () => {
  const { ladderLevels } = require('../../experiments/calls/report')
  const six = processes(3, 200, 225, 440)
  const ladder = calls.summariseLadder([...records('c', six), ...records('node', six), ...records('deno', [...six, six[0]])],
    { options: { ladder: { processes: 6, rounds: 3 } } }, null)
  const [usual, seven] = [medianIntervalLevel(6), medianIntervalLevel(7)].map(levelText)
  assert.equal(ladderLevels(ladder), `${usual} interval, ${seven} for deno (7 processes)`)
})

test('the ladder against C, process by process; where its variance lives; its halves and two runs', () => {
  const { callsRepeatability, reachable } = require('../../experiments/calls/repeatability')
  // C drifts up process by process, node is 2× C's in every process and rung
  const drift = [1, 1.02, 1.04, 1.06, 1.08, 1.1]
  const c = drift.map(scale => ({ noop: 3 * scale, syscall: 200 * scale, 'empty-read': 225 * scale, 'read-256': 440 * scale }))
  const node = c.map(rungs => Object.fromEntries(Object.entries(rungs).map(([rung, ns]) => [rung, 2 * ns])))
  const ladder = calls.summariseLadder([...records('c', c), ...records('node', node)], { options: { ladder: { processes: 6, rounds: 3 } } }, null)
  const row = name => ladder.rows.find(entry => entry.variant === name)
  // every ratio is 2: the drift cancels
  for (const rung of calls.RUNGS) assert.deepEqual([row('node').vsC[rung].low, row('node').vsC[rung].high].map(x => Math.round(x * 1e9) / 1e9), [2, 2])
  assert.equal(row('c').vsC, null)
  // rounds 0.9, 1, 1.2 of each process's ns: S² = ns² × ((0.9 - 31/30)² + (1 - 31/30)² +
  // (1.2 - 31/30)²) / 2 = ns² × 0.07 / 3, and S1² their mean over the six processes
  const parts = row('c').variance['read-256']
  const expected = [1, 1.02, 1.04, 1.06, 1.08, 1.1].reduce((sum, scale) => sum + (440 * scale) ** 2 * 0.07 / 3, 0) / 6
  assert.ok(Math.abs(parts.roundVariance - expected) < 1e-6, `${parts.roundVariance} against ${expected}`)
  // halves: even processes (1, 1.04, 1.08) against odd (1.02, 1.06, 1.1): C's medians 1.04
  // and 1.06 of 440 × 1 (each process's median round is 1): 1.92% apart; early (1, 1.02,
  // 1.04) against late (1.06, 1.08, 1.1): 1.02 and 1.08, 5.88%, the drift, which is the larger
  // and so the rung's figure; node's ratios 0 both ways
  const half = (variant, rung) => ladder.halves.find(cell => cell.variant === variant && cell.rung === rung)
  const close = (value, expected) => assert.ok(Math.abs(value - expected) < 1e-9, `${value} against ${expected}`)
  close(half('c', 'read-256').processesPercent, (1.06 / 1.04 - 1) * 100)
  close(half('c', 'read-256').driftPercent, (1.08 / 1.02 - 1) * 100)
  close(half('c', 'read-256').movePercent, (1.08 / 1.02 - 1) * 100)
  assert.equal(half('c', 'read-256').by, 'drift')
  assert.ok(half('node', 'read-256').movePercent < 1e-9)
  // a second run whose machine ran 3% slower throughout: C's rungs move 3%, node's ratios not
  const slower = calls.summariseLadder([...records('c', c.map(r => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v * 1.03])))), ...records('node', node.map(r => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v * 1.03]))))], { options: { ladder: { processes: 6, rounds: 3 } } }, null)
  const result = callsRepeatability(ladder, slower)
  assert.deepEqual([result.within, result.total, result.met], [4, 8, false])
  // reachable: C's halves moved 5.88% early against late, a second run 5.88 / √2 = 4.16%,
  // out of reach of 1%, and by the drift through the run, which more processes would not
  // narrow: no count of processes is advised
  const { reachableText, callsTrust } = require('../../experiments/calls/repeatability')
  const reach = reachable(ladder)
  assert.equal(reach.reachable, false)
  assert.equal(reach.worst.variant, 'c')
  close(reach.worst.movePercent, (1.08 / 1.02 - 1) * 100 / Math.SQRT2)
  assert.equal(reach.worst.processesNeeded, null)
  assert.deepEqual(reach.lost, [])
  assert.match(reachableText(reach), new RegExp([
    /out of reach: a second run would move .* at c's (noop|syscall|empty-read|read-256) /,
    /the machine drifted through the run, early processes against late, /,
    /which more processes would not narrow\.$/
  ].map(part => part.source).join('')))
  // processes that alternate without drift: even (1, 1, 1) against odd (1.025 ×3) 2.5%, early
  // (1, 1.025, 1) against late (1.025, 1, 1.025) 2.5% too: the processes' own spread, which a
  // median of more processes narrows: 6 × (2.5 / √2)² = 18.75, 19 would bring it within 1%
  const alternate = [1, 1.025, 1, 1.025, 1, 1.025]
    .map(scale => ({ noop: 3 * scale, syscall: 200 * scale, 'empty-read': 225 * scale, 'read-256': 440 * scale }))
  const sixProcesses = { options: { ladder: { processes: 6, rounds: 3 } } }
  const spread = reachable(calls.summariseLadder(records('c', alternate), sixProcesses, null))
  assert.equal(spread.worst.by, 'processes')
  assert.equal(spread.worst.processesNeeded, 19)
  // bun's every process failed: its four rungs are lost, and the ladder is not quotable
  const steady = c.map(() => c[0])
  const lost = calls.summariseLadder([...records('c', steady), ...records('node', steady), ...records('bun', [], 6)],
    { options: { ladder: { processes: 6, rounds: 3 } } }, null)
  assert.deepEqual(lost.halvesLost, calls.RUNGS.map(rung => `bun ${rung}`))
  const lostReach = reachable(lost)
  assert.deepEqual([lostReach.reachable, lostReach.lost.length, callsTrust(lostReach).lost], [false, 4, 4])
  assert.match(reachableText(lostReach), new RegExp([
    /^This run lost 4 cells \(every run failed, or too few were kept to halve: bun noop, /,
    /.*A second run would move every rung by up to ±0%/
  ].map(part => part.source).join('')))
  // the advice names a --processes bench takes, and says so where none would do
  assert.match(reachableText(spread),
    new RegExp([/; if a median's spread fell as the square root of its processes, --processes 19 /,
      /would bring every rung within 1%, at about 3.17 times the ladder's time\.$/].map(part => part.source).join('')))
  const { MAX_REPEATS } = require('../../lib/options')
  const far = { ...spread, worst: { ...spread.worst, processesNeeded: MAX_REPEATS + 1 } }
  assert.match(reachableText(far),
    new RegExp(`square root of its processes, it would take ${MAX_REPEATS + 1} processes, more than --processes takes \\(${MAX_REPEATS}\\)\\.$`))
})

test('a variant whose early processes differ from its late ones is not said to be the machine\'s drift', () => {
  const { reachable, reachableText } = require('../../experiments/calls/repeatability')
  // C steady in every process; bun's no-op 1.4 ns in its first four processes, 1.7 in its last
  // four: early against late 21%, even against odd none; a ratio to C's cancels the machine
  const steadyC = Array.from({ length: 8 }, () => ({ noop: 2.5, syscall: 200, 'empty-read': 225, 'read-256': 440 }))
  const bun = [1.4, 1.4, 1.4, 1.4, 1.7, 1.7, 1.7, 1.7]
    .map(noop => ({ noop, syscall: 200, 'empty-read': 260, 'read-256': 500 }))
  const reach = reachable(calls.summariseLadder([...records('c', steadyC), ...records('bun', bun)],
    { options: { ladder: { processes: 8, rounds: 3 } } }, null))
  const { variant, rung, by, processesNeeded } = reach.worst
  assert.deepEqual([variant, rung, by, processesNeeded], ['bun', 'noop', 'drift', null])
  const said = reachableText(reach)
  assert.match(said, /at bun's noop its early processes and its late ones differed against C's of the same moments: /)
  assert.match(said, new RegExp('not the machine\'s drift, which the ratio cancels, but the variant\'s own .*, ' +
    'and no count of processes is advised\\.$'))
  assert.doesNotMatch(said, /the machine drifted/)
})

test('no count of processes is advised where any rung past the goal moved by drift, not only the worst', () => {
  const { reachable, reachableText } = require('../../experiments/calls/repeatability')
  // x's no-op 3% between halves of processes, y's syscall 2% early against late (as a second
  // run would move them, after the halves' √2), ten others 0.35%
  const half = (variant, rung, percent, by) => ({ variant, rung, movePercent: percent * Math.SQRT2, by })
  const halves = [half('x', 'noop', 3, 'processes'), half('y', 'syscall', 2, 'drift'),
    ...Array.from({ length: 10 }, (_, i) => half(`z${i}`, 'noop', 0.35, 'processes'))]
  const reach = reachable({ counts: { processes: 10, rounds: 2 }, halves })
  assert.deepEqual([reach.worst.variant, reach.worst.processesNeeded, reach.drift.variant], ['x', null, 'y'])
  const said = reachableText(reach)
  assert.doesNotMatch(said, /--processes \d+ would/)
  assert.match(said, /and x's noop by up to ±3%.*; at y's syscall its early processes and its late ones differed/)
  // without y's drift, the count: 10 × 3², the spread of a median as the root of its processes
  const withoutDrift = halves.filter(entry => entry.variant !== 'y')
  const counted = reachable({ counts: { processes: 10, rounds: 2 }, halves: withoutDrift })
  assert.equal(counted.worst.processesNeeded, 90)
})

test('the ladder\'s read against the cost pass: a reader the pass has no interval for is named missing', () => {
  const perProcess = ns => Array.from({ length: 4 },
    () => ({ noop: 2.5, syscall: 200, 'empty-read': 225, 'read-256': ns }))
  const interval = (estimate, spread) => ({ estimate, low: estimate - spread, high: estimate + spread })
  const headline = {
    cells: [
      { program: 'c', blockSize: 256, cpuPerReadNs: interval(440, 10) },
      // just-fast's cell failed in the cost pass: no figure to set the ladder against
      { program: 'just-fast', blockSize: 256, cpuPerReadNs: null }
    ]
  }
  const ladder = calls.summariseLadder([...records('c', perProcess(440)), ...records('just-fast', perProcess(450))],
    { options: { ladder: { processes: 4, rounds: 3 } } }, headline)
  const said = findings([{ label: 'r', results: { ladder } }]).map(finding => finding.text).join('\n')
  assert.match(said, /the ladder's read lies inside the cost pass's interval for 1 of 2 \(missing: just-fast \(just-fast\)\)\./)
})

test('a first round still warming up is left out of its process\'s figure, and named', () => {
  // bun's process 0 pays a tier-up in its first no-op round (4 ns, then 1.4 and 1.5); its
  // process 1's first round is 1.2 times the rest, within the machine's spread, and stays
  const rungs = (noop, read) => ({ noop, syscall: 200, 'empty-read': 225, 'read-256': read })
  const compiled = Object.fromEntries(calls.RUNGS.map(rung => [rung, 'yes']))
  const ladderRecord = (program, run, rounds, partner) => {
    const record = { phase: calls.PHASE, program, run, ok: true, compiled, rounds }
    return partner ? { ...record, partner: { rounds: partner } } : record
  }
  // the ladders of C's that took turns with bun's: process 1's read of 256 bytes warming up
  const steadyC = [rungs(2.5, 440), rungs(2.5, 440), rungs(2.5, 440)]
  const ladder = calls.summariseLadder([
    ladderRecord('c', 0, [rungs(2.5, 440), rungs(2.5, 440), rungs(2.5, 440)]),
    ladderRecord('c', 1, [rungs(2.5, 440), rungs(2.5, 440), rungs(2.5, 440)]),
    ladderRecord('bun', 0, [rungs(4, 500), rungs(1.4, 500), rungs(1.5, 500)], steadyC),
    ladderRecord('bun', 1, [rungs(1.8, 500), rungs(1.5, 500), rungs(1.5, 500)],
      [rungs(2.5, 600), rungs(2.5, 440), rungs(2.5, 440)])
  ], { options: { ladder: { processes: 2, rounds: 3 } } }, null)
  const bun = ladder.rows.find(row => row.variant === 'bun')
  assert.deepEqual(bun.byProcess.noop, { 0: 1.45, 1: 1.5 })
  assert.deepEqual(bun.warming, { noop: [0], syscall: [], 'empty-read': [], 'read-256': [] })
  assert.deepEqual(bun.partnerWarming, { noop: [], syscall: [], 'empty-read': [], 'read-256': [1] })
  assert.deepEqual(bun.partnerByProcess['read-256'], { 0: 440, 1: 440 })
  assert.deepEqual(calls.steadyRounds([4, 1.4, 1.5]), [1.4, 1.5])
  assert.deepEqual(calls.steadyRounds([1.8, 1.5, 1.5]), [1.8, 1.5, 1.5])
  // a process of one round has nothing to set it against
  assert.deepEqual(calls.steadyRounds([4]), [4])
  const said = findings([{ label: 'r', results: { ladder } }]).map(finding => finding.text)
  assert.ok(said.includes('First timed rounds still warming up, left out of their processes\' figures: ' +
    'bun\'s noop in 1 of 2 and C\'s read-256 in turns with bun\'s in 1 of 2 ' +
    '(each cost more than 1.25 times the median of its process\'s later rounds: ' +
    'a runtime still compiling the loop, or a slow spell of the machine).'), said.join('\n'))
  assert.match(ladder.meaning, /less a first round still warming up \(above 1\.25 times the median of the later ones\)/)
})

test('a WASI variant\'s parts: C\'s syscall, its read path from its empty read less its no-op; sched_yield beside c-yield\'s', () => {
  const log = [
    ...records('c', processes(3, 200, 225, 440)),
    ...records('c-yield', processes(3, 500, 225, 440)),
    ...records('node-wasi', processes(20, 520, 400, 620)),
    ...records('bun-wasi', processes(70, 8, 480, 800))
  ]
  const ladder = calls.summariseLadder(log, { options: { ladder: calls.PRESETS.default } }, null)
  const row = name => ladder.rows.find(entry => entry.variant === name)
  const close = (actual, expected) => assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} is not ${expected}`)
  // node-wasi: boundary 20; syscall C's 200 - 3; read path (400 - 20) - (225 - 3); kernel 440 - 200
  const node = row('node-wasi')
  close(node.parts.boundary, 20)
  close(node.parts.syscall, 197)
  close(node.parts.readPath, 158)
  close(node.parts.kernelRead, 240)
  close(node.predicted, 400 - 225 + 440)
  assert.equal(node.wasi, true)
  assert.equal(node.floor, 'c-yield')
  // c-yield climbs its rungs the same way: no read path beyond C's
  close(row('c-yield').parts.readPath, 0)
  // a host that answers sched_yield alone gets no negative syscall part
  close(row('bun-wasi').parts.syscall, 197)
  assert.match(row('bun-wasi').noSyscall, /without a syscall/)
  const texts = findings([{ label: 'run', results: { ladder } }]).map(finding => finding.text)
  const wasi = texts.find(text => text.startsWith('Through WASI'))
  assert.match(wasi, /args_sizes_get\) costs 20 ns on node-wasi and 70 ns on bun-wasi/)
  assert.match(wasi, /sched_yield 520 on node-wasi and 8 on bun-wasi \(no syscall\), against C's 500 \(c-yield\)/)
  assert.match(wasi, /256-byte fd_read 620 on node-wasi and 800 on bun-wasi, against C's read\(2\) 440 ns \(c-yield\)\./)
  // the WASI rows, and c-yield, C's own ladder, stay out of the findings about calls into C
  // and the runtimes' parts: with no other variant, there are none
  const direct = ['A no-op call into C', 'A syscall\'s entry and exit', 'The runtimes\' read paths']
  assert.deepEqual(texts.filter(text => direct.some(start => text.startsWith(start))), [])
  // c-yield, C's own ladder with sched_yield, is taken against the C beside it in turns, two
  // processes: a real check, counted (a review of 2026-12-07; the one before left it out)
  const addsUp = texts.find(text => text.startsWith('The parts add up'))
  assert.equal(addsUp, 'The parts add up to the measured 256-byte read within 10% for 2 of 3 variants ' +
    '(not: bun-wasi +105 ns), c, the floor the others are measured from, adding up by construction.')
})

test('a ladder in turns with C\'s: each process against its own partner, whatever C\'s processes apart did', () => {
  // the machine's speed differs process by process (1x to 1.5x); each node process and the
  // C ladder beside it meet the same speed, and node costs twice C there
  const speeds = [1, 1.5, 1.2, 1.1, 1.4, 1.3]
  const base = { noop: 3, syscall: 200, 'empty-read': 225, 'read-256': 440 }
  const scaled = (factor) => Object.fromEntries(Object.entries(base).map(([rung, ns]) => [rung, ns * factor]))
  const node = records('node', speeds.map(speed => scaled(2 * speed)))
  node.forEach((record, i) => {
    record.partner = { program: 'c', ok: true, rounds: [0.9, 1, 1.1, 1.2].map(scale => scaled(speeds[i] * scale)) }
  })
  // C's own processes, apart, at a speed of their own
  const c = records('c', speeds.map(speed => scaled(1 / speed)))
  const ladder = calls.summariseLadder([...c, ...node], { options: { ladder: { processes: 6, rounds: 3 } } }, null)
  const row = ladder.rows.find(entry => entry.variant === 'node')
  assert.equal(row.pairing, 'slices')
  // the partner's median round is 1.05 × the speed: node's process (2 × speed) over it
  for (const rung of calls.RUNGS) {
    assert.ok(Math.abs(row.vsC[rung].estimate - 2 / 1.05) < 1e-9, `${rung}: ${row.vsC[rung].estimate}`)
    assert.ok(Math.abs(row.vsC[rung].high - row.vsC[rung].low) < 1e-9, 'every process the same ratio')
  }
  assert.match(ladder.vsCMeaning, /taking turns of 5 ms with a ladder of C's/)
  assert.ok(ladder.halves.filter(cell => cell.variant === 'node').every(cell => cell.movePercent < 1e-9))
  assert.equal(ladder.rows.find(entry => entry.variant === 'c').pairing, 'processes')
  // its ns over C the same way, process by process (node's 2 × speed less its partner's 1.05,
  // at the median speed 1.25), and its parts from the C beside it (1.05 × 1.25 × C's ns), not
  // from C's processes apart (1 / speed): a review found C's getppid 172 ns alone and 176 to
  // 188 beside the variants
  const near = (a, b) => Math.abs(a - b) < 1e-9
  for (const rung of calls.RUNGS) {
    assert.ok(near(row.overC[rung].estimate, 0.95 * 1.25 * base[rung]), `${rung}: ${row.overC[rung].estimate}`)
  }
  assert.ok(near(row.parts.kernelRead, 1.05 * 1.25 * (base['read-256'] - base.syscall)), JSON.stringify(row.parts))
  const cRow = ladder.rows.find(entry => entry.variant === 'c')
  assert.equal(cRow.overC, null)
  assert.ok(near(cRow.parts.kernelRead, cRow.rungs['read-256'].estimate - cRow.rungs.syscall.estimate))
})

// C's rounds beside a variant: as many as last as long as the variant's rounds, each round the
// ns of its rungs times their calls; warm-ups take no part (both are done before turns begin)
test('roundsToMatch: C\'s rounds to last as long as the variant\'s rounds', () => {
  const counts = { calls: 100, reads: 10 }
  const c = { noop: 1, syscall: 10, 'empty-read': 20, 'read-256': 40 } // 4,400 ns a round
  const slower = { noop: 2, syscall: 30, 'empty-read': 50, 'read-256': 110 } // 11,100 ns
  assert.equal(calls.roundsToMatch([slower, slower], [c, c], counts), 22200 / 4400)
  // C's median round: one slow round of C's does not cut the rounds asked of it
  const stalled = { ...c, 'read-256': 4000 }
  assert.equal(calls.roundsToMatch([slower], [c, stalled, c], counts), 11100 / 4400)
})

test('the ladder\'s plan: by default every variant but C takes turns with C; --ladder-pairing processes, none', () => {
  const c = calls.findVariant('c')
  const node = calls.findVariant('node')
  const steps = pairing => calls.planLadder([c, node], { ladder: { processes: 2 }, ladderPairing: pairing }, { feeder: 1, reader: 1 })
  assert.deepEqual(steps('slices').map(step => `${step.variant.name}: ${step.partner?.name ?? 'alone'}`), ['c: alone', 'node: c', 'c: alone', 'node: c'])
  assert.ok(steps('processes').every(step => step.partner === null))
})

// calls/ladder.mjs's harness, shared by Node, Bun and Deno, on a clock this test moves: each
// call of a rung costs it `costNs` ns; `wrongAt`: the rung, and the index (from 0) of its call
// that answers wrong.
async function harnessRun ({ costNs = 1000, rounds = 2, compiled = () => 'yes', wrongAt = null } = {}) {
  const { runLadder, WARMUP_CALLS, WARMUP_COUNT } = await import('../../calls/ladder.mjs')
  let now = 0
  const counted = { noop: 0, syscall: 0, 'empty-read': 0, 'read-256': 0 }
  const loop = name => count => {
    const right = wrongAt?.rung === name && counted[name] + count > wrongAt.call ? wrongAt.call - counted[name] : count
    counted[name] += count
    now += count * costNs
    return right
  }
  const rungs = Object.fromEntries(Object.keys(counted).map(name => [name, [loop(name)]]))
  const lines = []
  const fail = message => { throw new Error(message) }
  const print = line => lines.push(line)
  const argv = [String(rounds), '1000', '64']
  const run = () => runLadder({ argv, rungs, cpuNs: () => now, compiled, drain: () => 0, print, fail })
  return { run, counted, lines, warmup: WARMUP_CALLS * WARMUP_COUNT }
}

test('the harness: each rung warmed, then timed in rounds of its count; the pipe read as dd sends it', async () => {
  const { run, counted, lines, warmup } = await harnessRun()
  run()
  assert.deepEqual(counted, {
    noop: warmup + 2 * 10 * 1000,
    syscall: warmup + 2 * 1000,
    'empty-read': warmup + 2 * 1000,
    'read-256': warmup + 2 * 64
  })
  assert.deepEqual(lines, [
    'compiled noop yes syscall yes empty-read yes read-256 yes',
    'round 1 noop 1000.000 syscall 1000.000 empty-read 1000.000 read-256 1000.000',
    'round 2 noop 1000.000 syscall 1000.000 empty-read 1000.000 read-256 1000.000',
    `size ${(warmup + 2 * 64) * 256} reads ${warmup + 2 * 64} blocksize 256`
  ])
  // what experiments/calls/ladder.js sends and checks is what the harness reads
  assert.equal((warmup + 2 * 64) * 256, calls.ladderBytes({ rounds: 2, reads: 64 }))
})

test('the harness fails a rung still cold after its extra warm-ups, and a wrong answer, naming them', async () => {
  const cold = await harnessRun({ compiled: name => (name === 'syscall' ? 'no' : 'yes') })
  assert.throws(cold.run, /^Error: syscall: its loop was not compiled by the optimising tier after warm-up$/)
  // the cold rung was warmed 16 times more; the pipe's rung never more than dd sends for
  assert.equal(cold.counted.syscall, 17 * cold.warmup)
  assert.equal(cold.counted['read-256'], cold.warmup)
  const wrong = await harnessRun({ wrongAt: { rung: 'empty-read', call: 5 } })
  assert.throws(wrong.run, /^Error: empty-read: call 6 of 128 returned the wrong answer$/)
})

// Bun's and Deno's FFI open /dev/null through libc's open(2), which says -1 and no errno
test('the harness ends a ladder whose FFI could not open /dev/null, naming the file', () => {
  const { spawnSync } = require('node:child_process')
  const ladder = path.join(__dirname, '..', '..', 'calls', 'ladder.mjs')
  const code = `import { openedOrExit } from ${JSON.stringify(ladder)}
    console.log(openedOrExit(3, '/dev/null')); openedOrExit(-1, '/dev/null'); console.log('went on')`
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' })
  assert.equal(run.status, 1)
  assert.equal(run.stdout, '3\n')
  assert.equal(run.stderr, 'open /dev/null through libc\'s open(2) returned -1: the empty read\'s rung reads it\n')
})

// The ladders' fast-path checks (experiments/calls/fastpath.js): one step a variant that
// claims fast loops, before its timed processes; a check that failed fails every process of
// its variant, whose rungs would be another form's, and the report says which and why.
test('a variant whose fast path did not hold has no process counted, and the report says why', () => {
  const { fastPathSteps } = require('../../experiments/calls/fastpath')
  const { fastPathText } = require('../../experiments/calls/report')
  const variants = ['c', 'just-fast', 'node', 'deno-ffi'].map(calls.findVariant)
  const steps = fastPathSteps(variants, { feeder: 1, reader: 1 })
  assert.deepEqual(steps.map(step => [step.variant.name, step.loops]),
    [['just-fast', ['noop', 'syscall', 'readRaw']], ['deno-ffi', ['noop', 'syscall', 'readFfi']]])
  const check = (program, verdicts, failure = null) => ({
    phase: calls.FAST_PHASE,
    program,
    run: 0,
    ok: failure === null,
    failure,
    fastPath: verdicts.map(([loop, engaged, summary, target]) =>
      ({ loop, engaged, summary, reason: engaged ? null : summary, ...(target ? { target } : {}) }))
  })
  const log = [
    check('just-fast', [['noop', true, 'TurboFan compiled noop() 1 time with 2 fast API calls'],
      ['syscall', true, 'TurboFan compiled syscall() 1 time with 2 fast API calls', 'host::ladder::FastGetppid']]),
    check('deno-ffi', [['noop', false, 'TurboFan compiled noop() with no fast API call']],
      'fast path not taken: TurboFan compiled noop() with no fast API call'),
    ...records('c', processes(3, 200, 225, 440)),
    ...records('just-fast', processes(4, 205, 230, 445)),
    ...records('deno-ffi', processes(5, 210, 530, 900))
  ]
  const ladder = calls.summariseLadder(log, { options: { ladder: calls.PRESETS.default } }, null)
  const row = name => ladder.rows.find(entry => entry.variant === name)
  assert.equal(row('deno-ffi').processes, 0)
  assert.equal(row('deno-ffi').failedRuns, 6)
  assert.equal(row('deno-ffi').rungs.noop, null)
  assert.equal(row('deno-ffi').fastPath.failure, 'fast path not taken: TurboFan compiled noop() with no fast API call')
  assert.equal(row('just-fast').processes, 6)
  assert.equal(row('just-fast').fastPath.failure, null)
  assert.equal(row('c').fastPath, null)
  // a loop whose call was named says what it reached; one not named says nothing of it
  assert.match(fastPathText(ladder), new RegExp(': just-fast held \\(noop\\(\\), ' +
    'syscall\\(\\) → host::ladder::FastGetppid\\); ' +
    'deno-ffi did not: fast path not taken: TurboFan compiled noop\\(\\) with no fast API call\\.$'))
})

// node:ffi calls C through a JavaScript function of Node's own (invoke()), which TurboFan
// inlines into the loop or compiles apart: apart, the fast call is in its code, held only
// where the loop's graph calls it, every compile of it holds a fast call, and it never
// deoptimised.
test('a loop that calls its runtime\'s wrapper holds where the wrapper makes the fast call', () => {
  const { throughWrapper } = require('../../experiments/calls/fastpath')
  const dir = tempDir()
  const fastNodes = count => Array.from({ length: count }, () => ({ title: 'FastApiCall' }))
  const graph = fastCalls => ({ phases: [{ data: { nodes: fastNodes(fastCalls) } }] })
  fs.writeFileSync(path.join(dir, 'turbo-invoke-3.json'), JSON.stringify(graph(2)))
  const none = (functions = ['invoke']) => ({
    engaged: false,
    reason: 'TurboFan compiled noop() with no fast API call',
    evidence: { graphs: [{ file: 'turbo-noop-5.json', fastCalls: 0, functions }] }
  })
  const given = { wrapper: 'invoke', loop: 'noop', text: '', dir }
  const held = throughWrapper(none(), given)
  assert.equal(held.engaged, true)
  assert.equal(held.viaWrapper, 'invoke')
  assert.equal(held.summary, 'TurboFan compiled noop() calling invoke() without inlining it; 1 compile of invoke() ' +
    'holds fast API calls, and neither deoptimised')
  // the wrapper's fast calls, named, must include the loop's function: one that reaches only
  // another fails, one that reaches it holds and says what it reaches
  const shimTo = symbol => ({
    address: '0x10', generated: true, reaches: [{ address: '0x20', file: 'libladder.so', symbol, aliases: [] }]
  })
  const named = (...symbols) => ({ targets: symbols.map(shimTo), reason: null })
  const other = throughWrapper(none(), { ...given, naming: named('ladder_getppid'), expected: 'ladder_noop' })
  assert.equal(other.engaged, false)
  assert.equal(other.reason, 'TurboFan\'s fast call in invoke() reaches ladder_getppid (libladder.so) through code ' +
    'generated at run time, not ladder_noop')
  const both = throughWrapper(none(),
    { ...given, naming: named('ladder_getppid', 'ladder_noop'), expected: 'ladder_noop' })
  assert.equal(both.engaged, true)
  assert.match(both.reaches, /ladder_noop \(libladder\.so\) through code generated at run time$/)
  // no wrapper named, another failure, a loop that does not call the wrapper, a wrapper that
  // deoptimised, or a compile of it without the fast call
  assert.deepEqual(throughWrapper(none(), { ...given, wrapper: undefined }), none())
  const deopt = { engaged: false, reason: 'noop() deoptimised inside its loop 1 time', evidence: { graphs: [] } }
  assert.deepEqual(throughWrapper(deopt, given), deopt)
  assert.equal(throughWrapper(none(['time']), given).engaged, false)
  const bailout = '[bailout (kind: deopt-eager, reason: wrong map): begin. deoptimizing 0x1 <JSFunction invoke (sfi = 0x2)>, ' +
    '0x3 <Code TURBOFAN_JS>, opt id 4, bytecode offset 9, deopt exit 0]'
  assert.equal(throughWrapper(none(), { ...given, text: bailout }).engaged, false)
  fs.writeFileSync(path.join(dir, 'turbo-invoke-9.json'), JSON.stringify(graph(0)))
  assert.equal(throughWrapper(none(), given).engaged, false)
})

// Every variant that claims fast loops can be traced: a file V8's flags go before, an engine
// that traces its calls.
test('every variant with fast loops has a file and an engine the check traces', () => {
  const { tracedArgv } = require('../../experiments/calls/fastpath')
  const { runtimes } = require('../../lib/runtimes')
  for (const variant of calls.variants.filter(variant => variant.fast)) {
    assert.ok(variant.command.includes('{file}'), variant.name)
    assert.ok(['v8', 'jsc'].includes(runtimes[variant.runtime].engine), variant.name)
  }
  assert.throws(() => tracedArgv({ ...calls.findVariant('c'), fast: ['noop'] }, '/tmp'),
    /c: a variant with fast loops needs/)
})

// A traced ladder's stdout: V8 writes its traces in pieces, and a ladder's line (one write)
// landed after part of one of V8's, ending that line (node-ffi's, once in an e2e run).
test('a traced ladder\'s own lines are found where each ends a line of V8\'s', () => {
  const { ladderLines } = require('../../experiments/calls/fastpath')
  const stdout = [
    '[generated bytecode for function: noop (0x1 <SharedFunctionInfo noop>)]',
    ' 5607 E> 0x3f43b51ca20c @    4 : 77 f9 compiled noop yes syscall yes empty-read yes read-256 yes',
    '00 00       TestLessThan r0, EmbeddedFeedback[0x0]',
    'Frame size 16round 1 noop 2.5 syscall 201 empty-read 230.25 read-256 440',
    'size 65536 reads 256 blocksize 256'
  ].join('\n')
  assert.deepEqual(calls.parseLadder(ladderLines(stdout)), {
    compiled: { noop: 'yes', syscall: 'yes', 'empty-read': 'yes', 'read-256': 'yes' },
    rounds: [{ noop: 2.5, syscall: 201, 'empty-read': 230.25, 'read-256': 440 }],
    total: { size: 65536, reads: 256, blockSize: 256 }
  })
  // read plainly, the first two were lost
  assert.equal(calls.parseLadder(stdout).compiled, null)
  // and taken out, V8's lines they cut are whole again: a deopt's, read from its start
  const { withoutLadderLines } = require('../../experiments/calls/fastpath')
  const cut = '[bailout (kind: deopt-eager, reason: x): begin. deoptcompiled noop yes syscall yes empty-read yes ' +
    'read-256 yes\nimizing 0x1 <JSFunction noop (sfi = 0x2)>, bytecode offset 3]\n'
  assert.equal(withoutLadderLines(cut), '[bailout (kind: deopt-eager, reason: x): begin. deoptimizing 0x1 ' +
    '<JSFunction noop (sfi = 0x2)>, bytecode offset 3]\n')
})

test('the parts are written as a sum, a negative one subtracted', () => {
  const { partsSum } = require('../../experiments/calls/report')
  assert.equal(partsSum({ boundary: 6.4, syscall: 273, readPath: -7.06, kernelRead: 331 }), '6.4 + 273 − 7.06 + 331')
  assert.equal(partsSum({ boundary: -1.5, syscall: 200, readPath: 0, kernelRead: 240 }), '−1.5 + 200 + 0 + 240')
})

// Each V8 variant's fast loops name the C function their fast calls must reach, and a stdin
// reader that reads as a ladder's read rung names the same one: the two checks ask one thing.
test('every V8 variant names each fast loop\'s target, as its stdin reader does', () => {
  const { runtimes } = require('../../lib/runtimes')
  const { findProgram } = require('../../experiments/stdio/programs')
  const v8 = calls.variants.filter(variant => variant.fast?.length && runtimes[variant.runtime].engine === 'v8')
  assert.ok(v8.length >= 7, v8.map(variant => variant.name).join())
  for (const variant of v8) {
    assert.deepEqual(Object.keys(variant.fastTargets ?? {}).sort(), [...variant.fast].sort(), variant.name)
    const reader = variant.stdin && findProgram(variant.stdin)
    const readLoop = variant.fast.find(loop => /^read/.test(loop))
    if (reader?.fastest?.target && readLoop) {
      assert.equal(variant.fastTargets[readLoop], reader.fastest.target, `${variant.name} and ${reader.name}`)
    }
  }
  for (const variant of calls.variants.filter(entry => runtimes[entry.runtime].engine !== 'v8')) {
    assert.equal(variant.fastTargets, undefined, `${variant.name}: only V8's graphs give a fast call's address`)
  }
})
