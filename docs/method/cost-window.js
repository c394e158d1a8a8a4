'use strict'
// What shortening the slowest readers' cost runs would have measured (docs/method.md,
// "Shorter runs for the slowest readers"), from a run's log made before it: for each round
// whose run the cost pass would now shorten (costRunBytes, by the round's own CPU per read), the reader's CPU per read
// and its share of C (C's slope over the same moments) over the window the shortened run would
// have had (30% to 98% of its bytes), against the whole run's.
// node docs/method/cost-window.js RUN_DIR
const path = require('node:path')
const { median, leastSquaresSlope } = require('../../lib/stats')
const { costRunBytes, MIN_WINDOW_SAMPLES } = require('../../experiments/stdio/cost')
const { findProgram } = require('../../experiments/stdio/programs')
const { runScript, folderWith, readJsonLines, need } = require('../script-args')

const [from, to] = [0.3, 0.98]
const RUN = 'a stdio run\'s folder'

// the least-squares slope of CPU ns over bytes of the samples kept, per read; null with too few
function perRead (run, keep) {
  const kept = run.samples.filter(keep)
  if (kept.length < MIN_WINDOW_SAMPLES) return null
  const cpuPerByte = leastSquaresSlope(kept.map(([cpu, bytes]) => [bytes, cpu]))
  return cpuPerByte === null ? null : cpuPerByte * run.bytes / run.output.reads
}

// the reader's ns per read over its bytes lo..hi, and C's over the same moments (C past its start)
function figures (run, lo, hi) {
  const mine = run.samples.filter(([, bytes]) => bytes >= lo && bytes <= hi)
  const fromNs = Math.max(mine[0][2], run.partner.samples[0][2])
  const toNs = Math.min(mine.at(-1)[2], run.partner.samples.at(-1)[2])
  const ns = perRead(run, ([, bytes, at]) => bytes >= lo && bytes <= hi && at >= fromNs && at <= toNs)
  const cNs = perRead(run.partner, ([, bytes, at]) => bytes > 0 && at >= fromNs && at <= toNs)
  return { ns, share: ns && cNs ? cNs / ns : null }
}

function main ([dir]) {
  const log = path.join(dir, 'all.jsonl')
  const pass = readJsonLines(log, RUN).filter(run => run.phase === 'cost')
  const records = need(pass, log, 'cost pass runs', RUN)
    .filter(run => run.ok && run.samples && run.partner)
  const cells = new Map()
  for (const run of records) {
    const whole = figures(run, from * run.bytes, to * run.bytes)
    // what the cost pass now gives the round after one that measured `whole.ns` a read
    const step = { program: findProgram(run.program), blockSize: run.blockSize, bytes: run.bytes }
    const bytes = costRunBytes(step, whole.ns)
    if (bytes >= run.bytes) continue
    const short = figures(run, from * bytes, to * bytes)
    const key = `${run.program} @ ${run.blockSize}`
    if (!cells.has(key)) cells.set(key, { bytes, ratios: [], whole: [], short: [] })
    const cell = cells.get(key)
    cell.ratios.push(short.ns / whole.ns)
    cell.whole.push(whole.share)
    cell.short.push(short.share)
  }
  const MiB = 1 << 20
  console.log(`# node docs/method/cost-window.js ${dir}`)
  console.log('cell, a shortened run\'s bytes; its window\'s ns per read / the whole window\'s (median, range of ' +
    'the rounds); share of C, median of the rounds: whole window, shortened')
  for (const [key, cell] of cells) {
    const shares = [cell.whole, cell.short].map(values => (100 * median(values.filter(Boolean))).toFixed(2) + '%')
    console.log(`${key}: ${(cell.bytes / MiB).toFixed(0)} MiB; ${median(cell.ratios).toFixed(3)} ` +
      `(${Math.min(...cell.ratios).toFixed(3)}-${Math.max(...cell.ratios).toFixed(3)}, ${cell.ratios.length} rounds); ` +
      `${shares[0]}, ${shares[1]}`)
  }
}

runScript(module, { args: [1, 1], each: folderWith(['all.jsonl'], RUN), run: main })
