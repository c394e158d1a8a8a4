'use strict'
// Which rungs of the call ladder miss the goal (a rung's ratio to C's within 2% between two
// runs) in pair after pair, and would another figure of a run's processes hold them? Given
// pairs of calls runs' results, prints per pair how many ratios held within 2% by the lab's
// figure (the median of each process's ratio to its C partner), by the ratio of the two
// sides' lower quartiles over processes, and of their fastest processes; then each rung's
// moves by the lab's figure, pair by pair, those that missed in more than one pair first.
//   node docs/calls/2026-12-04-amd/estimators.js A1 B1 [A2 B2 ...]
// (each a calls run's results.json, or .json.gz as kept here: c3-results.json.gz ...)
const { runScript, readableFile, readJson, need, UsageError } = require('../../script-args')

const RUN = 'a calls run\'s results.json (or .json.gz)'
const GOAL = 2

const quantile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (sorted.length - 1) * p
  const low = Math.floor(at)
  return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (at - low)
}

// Each figure of a variant's rung against C's, from its processes and their C partners.
const FIGURES = {
  lab: (row, rung) => row.vsC[rung].estimate,
  'lower quartiles': (row, rung) => quantile(Object.values(row.byProcess[rung]), 0.25) /
    quantile(Object.values(row.partnerByProcess[rung]), 0.25),
  fastest: (row, rung) => Math.min(...Object.values(row.byProcess[rung])) /
    Math.min(...Object.values(row.partnerByProcess[rung]))
}

function rowsOf (file) {
  const rows = need(readJson(file, RUN).ladder?.rows, file, 'calls ladder rows', RUN)
  return rows.filter(row => row.vsC && row.partnerByProcess)
}

function moves (a, b, figure) {
  const out = []
  for (const row of a) {
    const other = b.find(candidate => candidate.variant === row.variant)
    if (!other) continue
    for (const rung of Object.keys(row.vsC).filter(rung => other.vsC[rung] && other.partnerByProcess[rung])) {
      out.push({ rung: `${row.variant} ${rung}`, move: Math.abs(figure(other, rung) / figure(row, rung) - 1) * 100 })
    }
  }
  return out
}

function main (files) {
  if (files.length % 2) throw new UsageError('give the runs in pairs: A1 B1 [A2 B2 ...]')
  const pairs = []
  for (let i = 0; i < files.length; i += 2) pairs.push([rowsOf(files[i]), rowsOf(files[i + 1])])
  // a pair that shares no rung has nothing to say (a review: "0 of 0", NaN figures); which
  // rungs two runs share does not depend on the figure
  const empty = pairs.findIndex(([a, b]) => moves(a, b, FIGURES.lab).length === 0)
  if (empty !== -1) {
    throw new UsageError(`${files[2 * empty]} and ${files[2 * empty + 1]} share no rung of the ladder ` +
      'to compare; give pairs of calls runs of one preset')
  }
  for (const [i, [a, b]] of pairs.entries()) {
    const line = Object.entries(FIGURES).map(([name, figure]) => {
      const m = moves(a, b, figure).map(x => x.move)
      return `${name} ${m.filter(x => x <= GOAL).length} of ${m.length} (p50 ${quantile(m, 0.5).toFixed(2)}%, ` +
        `p90 ${quantile(m, 0.9).toFixed(2)}%, max ${Math.max(...m).toFixed(1)}%)`
    })
    console.log(`pair ${i + 1}: within ${GOAL}%: ${line.join('; ')}`)
  }
  const byRung = new Map()
  for (const [a, b] of pairs) {
    for (const { rung, move } of moves(a, b, FIGURES.lab)) byRung.set(rung, [...(byRung.get(rung) ?? []), move])
  }
  const missed = values => values.filter(x => x > GOAL).length
  const ranked = [...byRung].sort((x, y) => missed(y[1]) - missed(x[1]) || Math.max(...y[1]) - Math.max(...x[1]))
  console.log('\nrung: its move by the lab\'s figure in each pair, % (missed the goal in how many)')
  for (const [rung, values] of ranked.filter(([, values]) => missed(values) > 0)) {
    console.log(`${rung.padEnd(28)} ${values.map(x => x.toFixed(1).padStart(5)).join(' ')}  (${missed(values)})`)
  }
}

runScript(module, { args: [2, Infinity], each: readableFile, run: main })
