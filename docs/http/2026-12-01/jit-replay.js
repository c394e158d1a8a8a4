'use strict'
// What waiting for V8's optimizing compiles did to each warm-up of a run made since
// 2026-12-01 (its records hold `warmupCompiles`, one count a warm-up run): where the rule on
// the cell's figure alone (two runs agreeing within 5%) would have stopped, where the warm-up
// did stop (under the rule of the commit that ran it: its context.json says which), the
// compiles the figure's stop run still finished, and how the figure moved over the runs the
// wait added (the ratio in turns, else the CPU per request). Then per process the compiles
// its timed runs finished, and which of them the report marks as timed while V8 still
// compiled (measure.js's compilesRecord, replayed by compiling-marks.js: `*`; superseded
// tries counted in their process's compiles, not shown). http and db logs alike.
//
//   node docs/http/2026-12-01/jit-replay.js RUN/all.jsonl[.gz]... [--each]
const { runOnEachLog, readJsonLines, UsageError } = require('../../script-args')
const { warmupSettled } = require('../../../experiments/http/measure')
const { dataPoints } = require('../../../lib/run-log')
const { markCompiling } = require('./compiling-marks')

const TIMED = new Set(['http', 'db'])
const LOG = 'an http or db run\'s all.jsonl (or .jsonl.gz) of 2026-12-01 or later'

// the first run after which the figure alone settles the warm-up, or null
const figureStop = figures => {
  for (let upTo = 2; upTo <= figures.rates.length; upTo++) {
    const seen = {
      rates: figures.rates.slice(0, upTo),
      cpuUs: figures.cpuUs.slice(0, upTo),
      ratios: figures.ratios.slice(0, upTo)
    }
    if (warmupSettled(seen).settled) return upTo
  }
  return null
}
const median = values => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
const percent = share => `${share >= 0 ? '+' : ''}${(share * 100).toFixed(1)}%`

function replay (file, each) {
  const processes = new Map()
  for (const record of dataPoints(markCompiling(readJsonLines(file, LOG)))) {
    // the timed runs (not the capacity, kernel or latency passes' runs in those processes)
    if (!Array.isArray(record.warmupCompiles) || !TIMED.has(record.phase)) continue
    const key = [record.program, record.mode, record.endpoint, `process ${(record.process ?? 0) + 1}`]
      .filter(part => part !== undefined && part !== null).join(', ')
    if (!processes.has(key)) processes.set(key, { first: record, timedCompiles: [], compiling: [] })
    processes.get(key).timedCompiles.push(record.compiles ?? null)
    processes.get(key).compiling.push(record.compiling === true)
  }
  if (processes.size === 0) {
    throw new UsageError(`${file} holds no server process whose compiles were counted; give ${LOG}`)
  }
  const tally = {
    processes: 0, runs: 0, longer: 0, added: 0, moves: [], timed: 0, compiling: 0, marked: 0
  }
  const lines = []
  for (const [key, { first, timedCompiles, compiling }] of processes) {
    const ratios = first.warmupRatios ?? []
    const turns = ratios.some(value => value > 0)
    const figures = {
      rates: first.warmupRates, cpuUs: first.warmupCpuUs ?? [], ratios, compiles: first.warmupCompiles
    }
    const byFigure = figureStop(figures)
    const taken = figures.rates.length
    const shown = turns ? ratios : figures.cpuUs
    tally.processes++
    tally.runs += taken
    tally.timed += timedCompiles.filter(count => count !== null).length
    tally.compiling += compiling.filter(Boolean).length
    if (compiling.some(Boolean)) tally.marked++
    let note = ''
    if (byFigure !== null && taken > byFigure) {
      tally.longer++
      tally.added += taken - byFigure
      const move = shown[taken - 1] / shown[byFigure - 1] - 1
      if (Number.isFinite(move)) tally.moves.push(move)
      const total = figures.compiles.slice(0, byFigure).reduce((sum, count) => sum + count, 0)
      note = `; the figure alone stops after run ${byFigure}, which finished ` +
        `${figures.compiles[byFigure - 1]} of ${total} compiles; it went on to run ${taken}` +
        `${first.warmupAgreed ? '' : ' (its most)'}, the figure ${percent(move)} since`
    }
    if (each) {
      const values = list => list.map(value => Number.isFinite(value) ? value.toPrecision(3) : '-')
        .join(' ')
      lines.push(`  ${key}: ${turns ? 'ratio' : 'CPU µs'} ${values(shown)}; compiles ` +
        `${figures.compiles.join(' ')}${note}; ` +
        'timed runs\' compiles ' +
        timedCompiles.map((count, run) => `${count ?? '-'}${compiling[run] ? '*' : ''}`).join(' '))
    }
  }
  const moved = tally.moves.length
    ? `, the figure moved by a median ${percent(median(tally.moves))} over them`
    : ''
  console.log(`${file}: ${tally.processes} processes with their compiles counted, ` +
    `${tally.runs} warm-up runs; ` +
    `${tally.longer} went on past the figure's stop, by ${tally.added} runs${moved}; ` +
    `${tally.compiling} of ${tally.timed} timed runs, in ${tally.marked} processes, timed while V8 ` +
    'still compiled (*)')
  for (const line of lines) console.log(line)
}

runOnEachLog(module, replay)
