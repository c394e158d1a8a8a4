// Each pair's move at the 90th percentile of cells against what each run foretold of itself.
// RUNS is the folder of the runs h1 ... h5, db1 ... db3 and c1 ... c6, as bench.js wrote them
// (default /tmp/runs); calibration.txt is its output.
//   node docs/reproducibility/2026-11-27-issue-35/calibration.js [RUNS]
const path = require('path')
const LAB = path.join(__dirname, '..', '..', '..')
const { nearestRank } = require(LAB + '/lib/repeatability')
const { httpRepeatability } = require(LAB + '/experiments/http/repeatability')
const { dbRepeatability } = require(LAB + '/experiments/db/repeatability')
const { callsRepeatability } = require(LAB + '/experiments/calls/repeatability')
const { runScript, folderWith, readJson, need } = require('../../script-args')
const IDS = ['h1', 'h2', 'h3', 'h4', 'h5', 'db1', 'db2', 'db3', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6']
const RUNS = 'the folder of the runs h1 ... h5, db1 ... db3 and c1 ... c6'
const runsFolder = folderWith(IDS.map(id => `${id}/results.json`), RUNS)
// each run's part of its results.json, by the first letter of its id
const PARTS = {
  h: ['http', 'http experiment'], d: ['db', 'db experiment'], c: ['ladder', 'calls ladder']
}

function main ([runs = '/tmp/runs']) {
  // every run read before the first pair is reported
  const read = new Map(IDS.map(id => {
    const file = path.join(runs, id, 'results.json')
    const results = readJson(file, RUNS)
    const [part, lacks] = PARTS[id[0]]
    need(results[part], file, lacks, RUNS)
    return [id, results]
  }))
  const load = id => read.get(id)
  const p90 = cells => nearestRank(cells.map(c => c.movePercent), 0.9)
  for (const [a, b] of [['h1', 'h2'], ['h1', 'h3'], ['h2', 'h3'], ['h4', 'h5']]) {
    const [x, y] = [load(a).http, load(b).http]
    const r = httpRepeatability(x, y)
    console.log(`${a}-${b} http cpu: actual p90 ${p90(r.cpu.cells).toFixed(1)} median ${r.cpu.medianMovePercent.toFixed(1)}; own ${x.repeatability.cpuQuotedPercent.toFixed(1)}/${y.repeatability.cpuQuotedPercent.toFixed(1)}`)
  }
  for (const [a, b] of [['db1', 'db2'], ['db1', 'db3'], ['db2', 'db3']]) {
    const [x, y] = [load(a).db, load(b).db]
    const r = dbRepeatability(x, y)
    console.log(`${a}-${b} db vsRef: actual p90 ${p90(r.vsReference.cells).toFixed(1)} median ${r.vsReference.medianMovePercent.toFixed(1)}; cpu p90 ${p90(r.cpu.cells).toFixed(1)}; own ${x.repeatability.vsReferenceQuotedPercent?.toFixed(1)}/${y.repeatability.vsReferenceQuotedPercent?.toFixed(1)} cpu ${x.repeatability.cpuQuotedPercent.toFixed(1)}/${y.repeatability.cpuQuotedPercent.toFixed(1)}`)
  }
  for (const [a, b] of [['c1', 'c2'], ['c1', 'c3'], ['c2', 'c3'], ['c4', 'c5'], ['c4', 'c6'], ['c5', 'c6']]) {
    const [x, y] = [load(a).ladder, load(b).ladder]
    const r = callsRepeatability(x, y)
    const own = l => nearestRank(l.halves.map(h => h.movePercent), 0.9) / Math.SQRT2
    console.log(`${a}-${b} calls: actual p90 ${p90(r.cells).toFixed(1)} median ${r.medianMovePercent.toFixed(1)}; own halves/√2 p90 ${own(x).toFixed(1)}/${own(y).toFixed(1)}`)
  }
}

runScript(module, { args: [0, 1], check: ([runs = '/tmp/runs']) => runsFolder(runs), run: main })
