'use strict'
// Could more samples have held the profile pass's buckets between two runs? For two stdio runs
// (their folders, each with its profile.json): every bucket at 256 B over 20 ns per read in
// either run, how far it moved (from the smaller, as `node analyse.js A B` counts it), and how
// far Poisson sampling alone would move it, from the samples each run's bucket holds (pooled
// over its rounds): z, the move in log terms over that. A miss with z under 2 is one more
// samples could have held; one far beyond 2 moved with the host, not with the sampling.
//
//   node docs/profile/2026-11-30-amd-noisy/sampling.js RUN-A RUN-B
const path = require('node:path')
const { runScript, folderWith, readJson, need } = require('../../script-args')

const RUN = 'a stdio run\'s folder'
const profileOf = dir => {
  const file = path.join(dir, 'profile.json')
  const profile = readJson(file, RUN)
  need(profile.cells, file, 'profile cells', RUN)
  return profile
}

function main (dirs) {
  const [first, second] = dirs.map(profileOf)
  const at256 = profile => profile.cells.filter(cell => cell.ok && cell.blockSize === 256)
  const FLOOR_NS = 20
  const GOAL = 0.10
  let total = 0
  const held = []
  const misses = []
  for (const a of at256(first)) {
    const b = at256(second).find(cell => cell.program === a.program)
    if (!b) continue
    for (const key of Object.keys(a.buckets)) {
      const [x, y] = [a.buckets[key], b.buckets[key]]
      if (!x || !y || Math.max(x.ns, y.ns) <= FLOOR_NS) continue
      total++
      const move = Math.abs(y.ns - x.ns) / Math.min(x.ns, y.ns)
      const sd = Math.sqrt(1 / Math.max(x.samples, 1) + 1 / Math.max(y.samples, 1))
      const z = Math.abs(Math.log(y.ns / x.ns)) / sd
      const line = `${a.program} ${key} ${x.ns.toFixed(0)} → ${y.ns.toFixed(0)} ns (${(100 * move).toFixed(0)}%), ` +
        `samples ${x.samples} and ${y.samples}, sampling's sd ${(100 * sd).toFixed(1)}%, z ${z.toFixed(1)}`
      if (move <= GOAL) held.push(z)
      else misses.push({ z, line })
    }
  }
  const zs = [...held, ...misses.map(miss => miss.z)].sort((p, q) => p - q)
  const sampling = misses.filter(miss => miss.z < 2).length
  console.log(`${dirs[0]} against ${dirs[1]}: ${held.length} of ${total} buckets within 10%; of the ${misses.length} ` +
    `misses, ${sampling} within 2 of sampling's standard deviations (z < 2)`)
  console.log(`z over every bucket: median ${zs[zs.length >> 1].toFixed(2)}, 90th percentile ` +
    `${zs[Math.floor(zs.length * 0.9)].toFixed(2)} (sampling alone: 0.67 and 1.64)`)
  for (const { line } of misses.sort((p, q) => q.z - p.z)) console.log(`  ${line}`)
}

runScript(module, { args: [2, 2], each: folderWith(['profile.json'], RUN), distinct: true, run: main })
