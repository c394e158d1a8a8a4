// Each reader's buckets at 256 B in two runs (their profile.json), and the goals.
//   node docs/profile/2026-11-29-amd/pairprof.js RUN_A RUN_B
const path = require('path')
const { runScript, folderWith, readJson, need } = require('../../script-args')

const RUN = 'a profile run\'s folder'
// a run's profile, with its buckets, its cells and C's among them
function profileOf (dir) {
  const file = path.join(dir, 'profile.json')
  const profile = readJson(file, RUN)
  need(profile.buckets, file, 'profile buckets', RUN)
  const cells = need(profile.cells, file, 'profile cells', RUN)
  need(cells.find(cell => cell.program === 'c'), file, 'profile cell of c', RUN)
  return profile
}

function main (dirs) {
  const [a, b] = dirs.map(profileOf)
  const keys = a.buckets.map(bucket => bucket.key)
  const short = {
    kernelRead: 'kernel',
    entryExit: 'entry',
    switching: 'switch',
    binding: 'binding',
    loop: 'loop',
    buffer: 'buffer',
    gc: 'gc',
    other: 'other'
  }
  const c = [a, b].map(run => run.cells.find(cell => cell.program === 'c'))
  const rows = []
  let moved = 0; let compared = 0
  for (const cell of a.cells) {
    const other = b.cells.find(each => each.program === cell.program)
    if (!cell.ok || !other?.ok) { rows.push(`${cell.program}: failed ${cell.failure ?? other?.failure}`); continue }
    const figs = keys.map(key => {
      const [x, y] = [cell.buckets[key].ns, other.buckets[key].ns]
      let mark = ''
      if (Math.max(x, y) > 20) {
        compared++
        const move = Math.abs(x - y) / Math.min(x, y)
        if (move > 0.1) { moved++; mark = '*' }
      }
      return `${short[key]} ${x.toFixed(0)}/${y.toFixed(0)}${mark}`
    })
    // goals: ns over C named (not [unknown]), other ≤ 15% of ns over C, sampled share within 10%
    const over = [cell, other].map((run, i) => run.cpuPerReadNs - c[i].cpuPerReadNs)
    const otherShare = [cell, other].map((run, i) => run.buckets.other.ns / over[i])
    // the share of the ns over C in named frames (runs from before the pass counted unnamed: -)
    const named = [cell, other].map((run, i) => (run.unnamed ? 1 - run.unnamed.ns / over[i] : null))
    const both = [cell, other]
    const percent = v => (100 * v).toFixed(0) + '%'
    rows.push(`${cell.program.padEnd(18)} cpu ${cell.cpuPerReadNs.toFixed(0)}/${other.cpuPerReadNs.toFixed(0)} ` +
      `over C ${over.map(v => v.toFixed(0)).join('/')} | ${figs.join(' ')} | ` +
      `other/over ${otherShare.map(percent).join('/')} | ` +
      `named ${named.map(share => (share === null ? '-' : percent(share))).join('/')} | ` +
      `seen ${both.map(run => run.sampledShare === null ? '-' : percent(run.sampledShare)).join('/')} | ` +
      `perf +${both.map(run => run.profilerCostNs?.toFixed(0)).join('/')} | samples ${cell.samples}`)
  }
  console.log(rows.join('\n'))
  console.log(`buckets over 20 ns: ${compared}, moved more than 10%: ${moved}`)
}

runScript(module, { args: [2, 2], each: folderWith(['profile.json'], RUN), distinct: true, run: main })
