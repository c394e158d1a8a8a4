// latency pass of two runs (each an http run's folder), cell by cell: how far p50, p99, p99.9
// moved; whether "cannot sustain" agreed. --calm: only cells where neither run saw steal over 2%
// of its CPUs.
//   node docs/http/2026-11-28/latcmp.js RUN-A RUN-B [--calm]
const path = require('path')
const { runScript, folderWith, readJson, need } = require('../../script-args')
const RUN = 'an http run\'s folder'
const load = dir => {
  const file = path.join(dir, 'results.json')
  return need(readJson(file, RUN).http?.latency, file, 'http latency pass', RUN)
}

function main (dirs, { calm }) {
  const [a, b] = dirs.map(load)
  const key = run => `${run.server}\t${run.mode}\t${run.connections}\t${run.rateShare}`
  const other = new Map(b.runs.map(run => [key(run), run]))
  const moves = { p50: [], p99: [], p999: [] }
  let held = 0; const disagree = []; let both = 0
  for (const run of a.runs) {
    const twin = other.get(key(run))
    if (!twin || !run.ok || !twin.ok || (calm && (run.steal || twin.steal))) continue
    if (run.holdsRate && twin.holdsRate) {
      both++
      for (const p of Object.keys(moves)) moves[p].push(Math.abs(Math.log(twin.latencyMs[p] / run.latencyMs[p])))
    } else if (run.holdsRate !== twin.holdsRate) disagree.push(key(run).replace(/\t/g, ' '))
    else held++
  }
  const q = (values, f) => { const s = [...values].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(f * s.length))] }
  const factor = x => `${Math.exp(x).toFixed(2)}×`
  console.log(`cells both held: ${both}; both could not: ${held}; disagree: ${disagree.length} ${disagree.join('; ')}`)
  for (const [p, v] of Object.entries(moves)) {
    const within = (limit) => v.filter(x => Math.exp(x) <= limit).length
    console.log(`${p}: median move ${factor(q(v, 0.5))}, 90th percentile ${factor(q(v, 0.9))}; within 1.25×: ${within(1.25)} of ${v.length}, within 2×: ${within(2)}`)
  }
  // GC: collections per 1000 requests and paused share, V8 and JSC servers
  const gc = a.runs.filter(run => run.ok && run.gc?.how && other.get(key(run))?.ok).map(run => [run.gc.perThousandRequests, other.get(key(run)).gc.perThousandRequests])
  console.log(`GC per 1000 requests, ${gc.length} cells: within 0.2 of each other in ${gc.filter(([x, y]) => Math.abs(x - y) <= 0.2).length}`)
}

runScript(module, {
  args: [2, 2],
  each: folderWith(['results.json'], RUN),
  flags: { calm: { type: 'boolean' } },
  distinct: true,
  run: main
})
