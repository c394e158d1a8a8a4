'use strict'
// Each server process's warm-up in a run's log, replayed under the stop rules: wrk's rate
// (the lab's until 2026-12-01), the server's CPU per request, and, where its runs took
// turns with the reference's, its ratio to the reference's. A rule stops after the first
// run that agrees within 5% with the one before it (two runs at least). For each log: the
// processes, the warm-up runs they took, how many stopped while the cell's figure (the
// ratio in turns, else the CPU per request) still moved by more than 5% between their
// last two runs, and how many the figure's rule would have stopped sooner or run longer.
// http and db logs alike (a db process is a server at an endpoint).
//
//   node docs/http/2026-12-01/warmup-replay.js RUN/all.jsonl[.gz]... [--each]
const { runOnEachLog, readJsonLines, UsageError } = require('../../script-args')
const { warmupSettled } = require('../../../experiments/http/measure')

const LOG = 'an http or db run\'s all.jsonl (or .jsonl.gz)'

// the lab's rule (warmupSettled) after each of a warm-up's first `upTo` runs
const settledAt = (figures, upTo) => warmupSettled({
  rates: figures.rates.slice(0, upTo),
  cpuUs: figures.cpuUs.slice(0, upTo),
  ratios: figures.ratios.slice(0, upTo)
})
// the run after which the rule first settles, or null
const stopOf = figures => {
  for (let upTo = 2; upTo <= figures.rates.length; upTo++) if (settledAt(figures, upTo).settled) return upTo
  return null
}
const percent = share => `${share >= 0 ? '+' : ''}${(share * 100).toFixed(1)}%`

function replay (file, each) {
  const processes = new Map()
  for (const record of readJsonLines(file, LOG)) {
    if (!Array.isArray(record.warmupRates) || record.warmupRates.length === 0) continue
    const processName = `process ${(record.process ?? 0) + 1}`
    const key = [record.program, record.mode, record.endpoint, record.connections, processName]
      .filter(part => part !== undefined && part !== null).join(', ')
    if (!processes.has(key)) processes.set(key, record)
  }
  if (processes.size === 0) throw new UsageError(`${file} holds no server process with a warm-up; give ${LOG}`)
  const tally = { processes: 0, runs: 0, stillMoving: 0, sooner: 0, longer: 0, inTurns: 0 }
  const lines = []
  for (const [key, record] of processes) {
    const rates = record.warmupRates
    const ratios = record.warmupRatios ?? []
    const turns = ratios.some(value => value > 0)
    const figures = { rates, cpuUs: record.warmupCpuUs ?? [], ratios }
    const taken = rates.length
    const byFigure = stopOf(figures)
    // where the rate's rule stopped: what the figure's rule saw there, compared by its basis
    const there = settledAt(figures, taken)
    const still = record.warmupAgreed === true && taken >= 2 && !there.settled
    tally.processes++
    tally.runs += taken
    if (turns) tally.inTurns++
    if (still) tally.stillMoving++
    if (byFigure !== null && byFigure < taken) tally.sooner++
    if (byFigure === null && record.warmupAgreed === true) tally.longer++
    if (each) {
      const shown = values => values.map(value => value > 0 ? value.toPrecision(3) : '-').join(' ')
      const basisValues = { ratio: ratios, cpu: figures.cpuUs, rate: rates }[there.basis] ?? []
      const [previous, last] = basisValues.slice(0, taken).slice(-2)
      const move = still && previous > 0 ? `, still moving ${percent(last / previous - 1)} (${there.basis})` : ''
      lines.push(`  ${key}: ${taken} runs${record.warmupAgreed ? '' : ' (never agreed)'}; ` +
        `${turns ? 'ratio' : 'CPU µs'} ${shown(turns ? ratios : figures.cpuUs)}${move}; ` +
        `rate ${shown(rates)}; the figure's rule: ${byFigure ?? `more than ${taken}`}`)
    }
  }
  console.log(`${file}: ${tally.processes} processes (${tally.inTurns} in turns), ${tally.runs} warm-up runs; ` +
    `stopped while the figure moved by more than 5%: ${tally.stillMoving}; ` +
    `the figure's rule would stop sooner: ${tally.sooner}, run longer: ${tally.longer}`)
  for (const line of lines) console.log(line)
}

runOnEachLog(module, replay)
