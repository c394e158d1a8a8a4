'use strict'
// The stdio finding on the machine's own speed (experiments/stdio/findings.js): C's rounds
// of the cost pass, which run the same code each time, as a probe of the machine; how far
// they spread and which rounds were calm, or nothing where no rounds were kept.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { machineSpeed } = require('../../experiments/stdio/findings')
const { calmRoundNumbers } = require('../../lib/repeatability')

// A set whose headline has C at 256 B with these rounds, in the order given by `run`.
function setWith (perRound, blockSize = 256) {
  const byRound = perRound.map((cpuPerReadNs, run) => ({ run, cpuPerReadNs, shareOfC: null }))
  const cpuPerReadNs = { estimate: 300, low: 290, high: 310 }
  const c = { program: 'c', blockSize, rounds: perRound.length, cpuPerReadNs, byRound }
  return { label: 'a', context: {}, results: { cells: [], headline: { sizes: [blockSize], cells: [c] } } }
}
const speed = set => machineSpeed(set)

test('a round is calm within ±5% of the middle, either way, the edge included', () => {
  // offsets as the findings take them: a round's figure over the middle, less one
  const offsets = [315, 285, 315.03, 282, 300].map(value => value / 300 - 1)
  assert.ok(Math.abs(offsets[0]) > 0.05, 'the edge, as a float, just over 5%')
  const rounds = offsets.map((offset, i) => ({ number: i + 1, offset }))
  assert.deepEqual(calmRoundNumbers(rounds), [1, 2, 5])
  assert.deepEqual(calmRoundNumbers([]), [])
})

test('rounds that spread say the machine moved, by how much, and which rounds were calm', () => {
  // median of the eight 300; within ±5% (285–315): rounds 1, 2, 3, 5 and 8
  const text = speed(setWith([300, 310, 290, 400, 300, 240, 360, 300]))
  assert.equal(text, 'The machine\'s own speed moved through the run, as C\'s rounds show, which run the ' +
    'same code each time: C\'s read took at 256 B 240 to 400 ns across 8 rounds, a spread of 53% of its ' +
    'median (300 ns), calm (within ±5% of it): rounds 1–3, 5, 8.')
})

test('a round that failed renames none after it: calm rounds keep their own numbers', () => {
  // the fourth round (run 3) failed and was dropped: rounds 1, 2, 3, 5 to 8 are left
  const set = setWith([300, 310, 290, 999, 300, 240, 360, 300])
  const c = set.results.headline.cells[0]
  c.byRound = c.byRound.filter(round => round.run !== 3)
  assert.match(speed(set), /across 7 rounds, .* calm \(within ±5% of it\): rounds 1–3, 5, 8\.$/)
})

test('rounds within ±5% say it held; no rounds kept, no finding', () => {
  assert.match(speed(setWith([300, 302, 298, 301])), /own speed held through the run.*rounds 1–4\.$/)
  const none = setWith([300])
  none.results.headline.cells[0].byRound = undefined
  assert.equal(speed(none), null)
})

test('a run whose shares were taken in turns with C says the machine moved both sides of them', () => {
  const set = setWith([300, 310, 290, 400])
  assert.doesNotMatch(speed(set), /in turns with a run of C/)
  set.results.headline.cells.push({ program: 'node-sync', blockSize: 256, pairing: 'slices' })
  assert.match(speed(set), /Each share of C was taken in turns with a run of C, so whatever moved C moved both sides of it\.$/)
})

// A reader's cell taken in turns with C: its rounds' shares, each with C's pace in its turns.
function turnsCell (program, paces, shares, blockSize = 256) {
  const byRound = paces.map((pace, run) => ({ run, cpuPerReadNs: pace / shares[run], shareOfC: shares[run] }))
  return { program, blockSize, pairing: 'slices', rounds: byRound.length, byRound }
}
// eight rounds, C 10% slower every two: 400 ns to 1.1^3.5 times it (its second fastest to its
// second slowest, 1.1^2.5: a spread of 27%)
const PACES = [0, 1, 2, 3, 4, 5, 6, 7].map(i => 400 * 1.1 ** (i / 2))
const FALLING = PACES.map((_, i) => 0.6 - 0.01 * i) // a point every half step: 2 per 10%
const RISING = PACES.map((_, i) => 0.5 + 0.01 * i)
const FLAT = [0.8, 0.82, 0.79, 0.81, 0.8, 0.82, 0.79, 0.81]
const LOWER_BY_CHANCE = [0.6, 0.59, 0.61, 0.58, 0.6, 0.57, 0.58, 0.56] // Kendall's S −16, p 0.061
const paceNote = set => speed(set).replace(/^.*?\. Each share/, 'Each share')
const inTurns = (...cells) => {
  const set = setWith([300, 310, 290, 400])
  set.results.headline.cells.push(...cells)
  return set
}

test('a share lower where C ran slower is named, with its slope; a rise or a chance fall is not', () => {
  const falling = turnsCell('node-sync', PACES, FALLING)
  falling.byRound.push({ run: 8, cpuPerReadNs: 900, shareOfC: null }) // a round without a share
  const set = inTurns(falling, turnsCell('bun-ffi', PACES, FLAT), turnsCell('c-uring', PACES, RISING),
    turnsCell('deno-sync', PACES, LOWER_BY_CHANCE))
  assert.equal(paceNote(set), 'Each share of C was taken in turns with a run of C, so whatever moved C moved ' +
    'both sides of it, but not alike: in 1 of the 4 cells whose C ran 10% slower or more in some rounds than ' +
    'in others, the share was lower in the rounds where C ran slower (Kendall\'s test at 1%): node-sync at ' +
    '256 B (−2 points per 10% slower C), as where the host\'s noise lands more on a reader\'s code than on ' +
    'C\'s (docs/method.md).')
  const { shareAgainstPace } = require('../../experiments/stdio/cost')
  assert.equal(shareAgainstPace(set.results.headline.cells[3]).rises, true, 'the rise was seen, not named')
  const chance = shareAgainstPace(set.results.headline.cells[4])
  assert.ok(chance.pointsPer10Percent < 0 && chance.p > 0.01 && !chance.falls, 'lower, but by chance')
})

test('the falls are named steepest first, three of them and a count of the rest', () => {
  const cells = ['a', 'b', 'c', 'd', 'e'].map((program, i) =>
    turnsCell(program, PACES, PACES.map((_, k) => 0.6 - 0.002 * (i + 1) * k)))
  assert.match(paceNote(inTurns(...cells)), new RegExp('in 5 of the 5 cells .*: e at 256 B \\(−2 points ' +
    'per 10% slower C\\), d at 256 B \\(−1\\.6\\), c at 256 B \\(−1\\.2\\) and 2 more, as where'))
})

test('no fall, or no range to see one in, or too few rounds, names none', () => {
  const flat = inTurns(turnsCell('bun-ffi', PACES, FLAT), turnsCell('c-uring', PACES, RISING))
  assert.equal(paceNote(flat), 'Each share of C was taken in turns with a run of C, so whatever moved C moved ' +
    'both sides of it; in none of the 2 cells whose C ran 10% slower or more in some rounds than in others ' +
    'was the share lower where C ran slower (Kendall\'s test at 1%).')
  // C's pace within 5.6% from its second fastest round to its second slowest: no range to see
  // a trend in
  const narrow = inTurns(turnsCell('node-sync', PACES.map(pace => 400 + (pace - 400) / 5), FALLING))
  assert.match(paceNote(narrow), /moved both sides of it\.$/)
  // one odd round alone cannot give the range: the rest within 5.6%, the slowest 50% over
  const odd = turnsCell('node-sync', PACES.map(pace => 400 + (pace - 400) / 5), FALLING)
  odd.byRound[7].cpuPerReadNs = 600 / odd.byRound[7].shareOfC
  assert.match(paceNote(inTurns(odd)), /moved both sides of it\.$/)
  // seven rounds, every one falling: too few to ask
  assert.match(paceNote(inTurns(turnsCell('node-sync', PACES.slice(0, 7), FALLING.slice(0, 7)))),
    /moved both sides of it\.$/)
})

// The db experiment's: every server's rounds together (experiments/db/summary.js), each
// round's offset the median over the servers of its CPU per request against their own median.
const { machineSpeedByRound } = require('../../experiments/db/summary')
const dbFindings = require('../../experiments/db/findings')

// one ok wrk run of `program` in round `run`: `us` µs of server CPU a request, 1,000 requests
function dbRun (program, run, us, { endpoint = 'db', connections = 64, ok = true } = {}) {
  const server = { cpuNs: us * 1e6 }
  return { phase: 'db', program, endpoint, connections, run, ok, wrk: { requests: 1000 }, server }
}

test('db: a round that found every server dearer is the machine\'s; one server alone is not', () => {
  // three servers, four rounds: in round 2 all three cost 20% more; in round 3 only c does
  const runs = []
  for (const [program, us] of [['c', 10], ['node', 30], ['bun', 20]]) {
    for (let round = 0; round < 4; round++) {
      const busy = round === 2 ? 1.2 : 1
      const alone = round === 3 && program === 'c' ? 1.5 : 1
      runs.push(dbRun(program, round, us * busy * alone))
    }
  }
  // a failed run, a run that answered nothing, a server with a single run and a round that one
  // server ran alone count for nothing
  runs.push(dbRun('deno', 0, 99), dbRun('node', 4, 1, { ok: false }))
  runs.push({ ...dbRun('bun', 4, 1), wrk: { requests: 0 } })
  runs.push(dbRun('c', 5, 30))
  const [group] = machineSpeedByRound(runs)
  assert.equal(group.endpoint, 'db')
  assert.equal(group.connections, 64)
  assert.deepEqual(group.rounds.map(round => round.round), [0, 1, 2, 3])
  assert.deepEqual(group.rounds.map(round => round.servers), [3, 3, 3, 3])
  // node's and bun's own medians are their quiet figures, c's 1.1 of its: round 2 is +20% for
  // two servers of three, round 3's 50% is c's alone, and the median leaves it out
  const offsets = group.rounds.map(round => Number(round.offset.toFixed(3)))
  assert.deepEqual(offsets, [0, 0, 0.2, 0])
})

// eight rounds of /db, one (the fourth) 15% dearer
const DB_OFFSETS = [0, 0.01, -0.02, 0.15, 0, 0.01, 0.02, -0.01]
test('db: per endpoint, whether the machine held, which rounds were calm, how far', () => {
  const rounds = offsets => offsets.map((offset, round) => ({ round, offset, servers: 3 }))
  const db = {
    machineSpeed: [
      { endpoint: 'db', connections: 64, rounds: rounds(DB_OFFSETS) },
      { endpoint: 'queries', connections: 64, rounds: rounds([0, 0.2, 0.12, -0.08]) }
    ]
  }
  assert.equal(dbFindings.machineSpeed(db), 'The machine\'s own speed through the run, as the ' +
    'servers show it together (a round: the median server\'s CPU per request in it against the ' +
    'server\'s own median; calm within ±5%): /db held, 7 of 8 rounds calm (rounds 1–3, 5–8), ' +
    'from −2% to +15%; /queries moved, 1 of 4 rounds calm (round 1), from −8% to +20%. A busy ' +
    'host does not slow every server alike, so a ratio to C from rounds that moved is the ' +
    'host\'s as much as the server\'s (docs/db.md).')
  // rounds named by their numbers, one missing between them
  const gapped = [0, 1, 3].map(round => ({ round, offset: 0, servers: 3 }))
  const gappedRun = { machineSpeed: [{ endpoint: 'db', connections: 64, rounds: gapped }] }
  const gappedText = dbFindings.machineSpeed(gappedRun)
  assert.match(gappedText, /3 of 3 rounds calm \(rounds 1–2, 4\)/)
  db.machineSpeed.pop()
  assert.doesNotMatch(dbFindings.machineSpeed(db), /busy host/)
  assert.equal(dbFindings.machineSpeed({ machineSpeed: [] }), null)
  // a run from before the probe has none
  assert.equal(dbFindings.machineSpeed({}), null)
})

test('db: several connection counts are told apart', () => {
  const rounds = [{ round: 0, offset: 0, servers: 2 }, { round: 1, offset: 0, servers: 2 }]
  const text = dbFindings.machineSpeed({
    machineSpeed: [16, 64].map(connections => ({ endpoint: 'db', connections, rounds }))
  })
  assert.match(text, /\/db at 16 connections held, 2 of 2 rounds calm \(rounds 1–2\), from 0% to 0%/)
  assert.match(text, /; \/db at 64 connections held/)
})
