'use strict'
// Runs of one design, each re-derived from its log with the same code (so that every run keeps
// its rounds alike): per cell, how far a run's figure (the median of its rounds' ratios to C)
// spreads between the runs, how much of that the rounds' own spread explains, and what is left
// for the process and the run; then how many processes of those rounds a cell would need for two
// runs to agree within 5% nine times in ten.
// Usage: node docs/db/2026-11-30/components.js RUN-DIR RUN-DIR ...
const path = require('node:path')
const { summariseDb } = require('../../../experiments/db/summary')
const { median } = require('../../../lib/stats')
const { runScript, folderWith, readJson, readJsonLines, need } = require('../../script-args')

const REFERENCE = 'c-libpq-prepared-pipelined'
const RUN = 'a db run\'s folder'
function cellsOf (dir) {
  const log = path.join(dir, 'all.jsonl')
  const records = readJsonLines(log, RUN).filter(record => !record.superseded)
  const db = summariseDb(records, readJson(path.join(dir, 'context.json'), RUN))
  return need(db?.cells, log, 'db cells', RUN)
}
const deviation = values => {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1))
}
// a round's log ratio to C's run of the same round
function logRatios (cells, cell) {
  const reference = cells.find(other => other.endpoint === cell.endpoint && other.server === REFERENCE)
  const at = (row, round) => row.serverCpu[row.rounds.indexOf(round)]
  return cell.rounds.filter(round => reference.rounds.includes(round))
    .map(round => Math.log(at(cell, round) / at(reference, round)))
}

function main (dirs) {
  const runs = dirs.map(cellsOf)
  const rows = []
  for (const first of runs[0].filter(cell => cell.server !== REFERENCE)) {
    const each = runs.map(cells => cells.find(cell => cell.endpoint === first.endpoint && cell.server === first.server))
    if (!each.every(cell => cell?.serverVsReference?.estimate)) continue
    const ratios = each.map((cell, i) => logRatios(runs[i], cell))
    if (!ratios.every(logs => logs.length >= 2)) continue
    const between = deviation(each.map(cell => Math.log(cell.serverVsReference.estimate)))
    // a median of n has about 1.2533 / √n of their spread (15% less at 4: an upper bound)
    const fromRounds = median(ratios.map(logs => 1.2533 * deviation(logs) / Math.sqrt(logs.length)))
    const processPart = Math.sqrt(Math.max(0, between ** 2 - fromRounds ** 2))
    rows.push({ where: `/${first.endpoint} ${first.server}`, between, fromRounds, processPart })
  }
  const percent = value => `${(100 * value).toFixed(1)}%`
  const [between, fromRounds, processPart] = ['between', 'fromRounds', 'processPart']
    .map(key => median(rows.map(row => row[key])))
  // two runs within 5% nine times in ten: each run's figure a deviation of ln(1.05) / 1.645 / √2
  const allowed = Math.log(1.05) / 1.645 / Math.SQRT2
  console.log(`${dirs.map(dir => path.basename(dir)).join(', ')}: ${rows.length} cells with a figure in every run`)
  console.log(`a run's figure between the runs: a deviation of ${percent(between)} (the median cell); ` +
    `the rounds' spread explains ${percent(fromRounds)}, the process's and the run's ${percent(processPart)}`)
  console.log(`a run's figure may deviate by ${percent(allowed)}: at the median cell, processes of these ` +
    `rounds a cell needs: ${Math.ceil((processPart ** 2 + fromRounds ** 2) / allowed ** 2)}`)
  console.log('the cells with most left for the process and the run:')
  for (const row of rows.sort((a, b) => b.processPart - a.processPart).slice(0, 6)) {
    console.log(`  ${row.where.padEnd(36)} between ${percent(row.between)}, rounds ${percent(row.fromRounds)}, ` +
      `the rest ${percent(row.processPart)}`)
  }
}

runScript(module, {
  args: [2, Infinity], each: folderWith(['all.jsonl', 'context.json'], RUN), run: main
})
