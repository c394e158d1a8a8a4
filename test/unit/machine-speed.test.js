'use strict'
// The stdio finding on the machine's own speed (experiments/stdio/findings.js): C's rounds
// of the cost pass, which run the same code each time, as a probe of the machine; how far
// they spread and which rounds were calm, or nothing where no rounds were kept.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { machineSpeed } = require('../../experiments/stdio/findings')

// A set whose headline has C at 256 B with these rounds, in the order given by `run`.
function setWith (perRound, blockSize = 256) {
  const byRound = perRound.map((cpuPerReadNs, run) => ({ run, cpuPerReadNs, shareOfC: null }))
  const cpuPerReadNs = { estimate: 300, low: 290, high: 310 }
  const c = { program: 'c', blockSize, rounds: perRound.length, cpuPerReadNs, byRound }
  return { label: 'a', context: {}, results: { cells: [], headline: { sizes: [blockSize], cells: [c] } } }
}
const speed = set => machineSpeed(set)

test('rounds that spread say the machine moved, by how much, and which rounds were calm', () => {
  // median of the eight 300; within ±5% (285–315): rounds 1, 2, 3, 5 and 8
  const text = speed(setWith([300, 310, 290, 400, 300, 240, 360, 300]))
  assert.equal(text, 'The machine\'s own speed moved through the run, as C\'s rounds show, which run the ' +
    'same code each time: C\'s read took at 256 B 240 to 400 ns across 8 rounds, a spread of 53% of its ' +
    'median (300 ns), calm (within ±5% of it): rounds 1–3, 5, 8.')
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
