'use strict'
// What a change of the bucketing rules moved: two profile.json files of one run, derived by the
// rules before and after (analyse.js --rederive on a copy), each reader's buckets that moved by
// 1 ns a read or more, and its ns over C's as the page's words give them before and after.
//
//   node docs/profile/2026-12-07-review/rules.js BEFORE/profile.json AFTER/profile.json
const { runScript, readableFile, readJson, need } = require('../../script-args')
const { whereOverC } = require('../../../experiments/stdio/report-text')

const PROFILE = 'a stdio run\'s profile.json'

function cellsOf (file) {
  const cells = need(readJson(file, PROFILE).cells?.filter(cell => cell.ok && cell.buckets), file,
    'profiled readers', PROFILE)
  return new Map(cells.map(cell => [cell.program, cell]))
}

// the reader's words of where its ns over C's go, as bench.js and results.md give them
function whereText (cells, cell) {
  const c = cells.get('c')
  if (!c || cell === c) return ''
  const byBucket = value => Object.fromEntries(Object.keys(cell.buckets).map(key => [key, value(key)]))
  return whereOverC(byBucket(key => cell.buckets[key].ns - c.buckets[key].ns),
    byBucket(key => cell.buckets[key].top))
}

function main ([beforeFile, afterFile]) {
  const [before, after] = [cellsOf(beforeFile), cellsOf(afterFile)]
  for (const [program, was] of before) {
    const now = after.get(program)
    if (!now) {
      console.log(`${program}: not in ${afterFile}`)
      continue
    }
    const moved = Object.keys(was.buckets)
      .map(key => [key, was.buckets[key].ns, now.buckets[key]?.ns ?? 0])
      .filter(([, a, b]) => Math.abs(b - a) >= 1)
    if (moved.length === 0) continue
    console.log(`${program} (${was.cpuPerReadNs.toFixed(0)} ns a read): ` +
      moved.map(([key, a, b]) => `${key} ${a.toFixed(1)} → ${b.toFixed(1)}`).join(', '))
    console.log(`  over C, before: ${whereText(before, was)}`)
    console.log(`  over C, after:  ${whereText(after, now)}`)
  }
}

runScript(module, { args: [2, 2], each: readableFile, run: main })
