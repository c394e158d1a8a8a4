'use strict'
// Would more processes meet the ladder's goal (every rung against C's within 2% between two
// runs)? Pools each variant's ratios to C process by process (a process's rung over its
// partner's, in turns with it, as the ladder's vsC takes them) from the calls runs given,
// draws two runs of N processes from each pool with replacement, 1,000 times a count, and
// counts the rungs whose two medians are within 2%; then lists the rungs that missed most
// often at the largest count, with their pooled ratios, lowest to highest.
//   node docs/calls/2026-12-07-processes/resample.js RUN RUN [RUN ...]
const path = require('node:path')
const { median, seededRandom } = require('../../../lib/stats')
const { runScript, folderWith, readJson, need, UsageError } = require('../../script-args')

const RUN = 'a calls run\'s folder'
const COUNTS = [10, 15, 20, 30, 40]
const DRAWS = 1000
const LIMIT = 0.02

const rowsOf = dir => {
  const file = path.join(dir, 'results.json')
  const rows = need(readJson(file, RUN).ladder?.rows, file, 'calls ladder rows', RUN)
  return need(Array.isArray(rows) ? rows : null, file, 'calls ladder rows', RUN)
}

// { 'variant rung': [ratio of each process of every run] } of the rows that took turns with C
function pooledRatios (runs) {
  const pools = new Map()
  for (const row of runs.flat()) {
    if (row.pairing !== 'slices' || !row.partnerByProcess) continue
    for (const [rung, byProcess] of Object.entries(row.byProcess ?? {})) {
      const partner = row.partnerByProcess[rung] ?? {}
      const key = `${row.variant} ${rung}`
      const ratios = Object.keys(byProcess).filter(run => partner[run] > 0)
        .map(run => byProcess[run] / partner[run])
      pools.set(key, [...(pools.get(key) ?? []), ...ratios])
    }
  }
  return pools
}

function main (dirs) {
  const pools = pooledRatios(dirs.map(rowsOf))
  if (pools.size === 0) {
    throw new UsageError(`${dirs.join(', ')} hold no ladder rows in turns with C; give calls runs ` +
      'of --ladder-pairing slices (the default)')
  }
  const random = seededRandom(47)
  const pick = values => values[Math.floor(random() * values.length)]
  const draw = (values, n) => median(Array.from({ length: n }, () => pick(values)))
  console.log(`# node docs/calls/2026-12-07-processes/resample.js ${dirs.join(' ')}`)
  const sizes = [...pools.values()].map(values => values.length)
  console.log(`${pools.size} rungs, ${Math.min(...sizes)} to ${Math.max(...sizes)} processes pooled each; ` +
    `${DRAWS} pairs of runs drawn a count`)
  let misses = new Map()
  for (const n of COUNTS) {
    misses = new Map()
    let within = 0
    let every = 0
    for (let trial = 0; trial < DRAWS; trial++) {
      let missed = 0
      for (const [key, values] of pools) {
        if (Math.abs(draw(values, n) / draw(values, n) - 1) <= LIMIT) continue
        missed++
        misses.set(key, (misses.get(key) ?? 0) + 1)
      }
      within += pools.size - missed
      if (missed === 0) every++
    }
    console.log(`${n} processes: ${(within / DRAWS).toFixed(1)} of ${pools.size} rungs within 2% a pair ` +
      `on average; every rung in ${(100 * every / DRAWS).toFixed(1)}% of pairs`)
  }
  console.log(`\nthe rungs that missed most often at ${COUNTS.at(-1)} processes (share of pairs), ` +
    'their ratios to C process by process:')
  for (const [key, count] of [...misses].sort((a, b) => b[1] - a[1]).slice(0, 8)) {
    const values = [...pools.get(key)].sort((a, b) => a - b)
    const digits = values[0] < 10 ? 3 : 1
    const listed = values.map(v => v.toFixed(digits)).join(' ')
    console.log(`${key} (${(100 * count / DRAWS).toFixed(0)}%): ${listed}`)
  }
}

runScript(module, { args: [2, Infinity], each: folderWith(['results.json'], RUN), run: main })
