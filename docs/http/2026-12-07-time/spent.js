'use strict'
// Where an http run's time went, from the `at` times of its all.jsonl: per phase and server, the
// gaps between records counted to the later record's (as phases.js --spent counts them: a timed
// run's gap holds its warm-up and its process's start where it is a process's first); the gaps of
// 10 s or more, each a generation of server processes starting, checking and warming up; and how
// many warm-up runs each server process took (each timed record carries its process's).
//
//   node docs/http/2026-12-07-time/spent.js RUN/all.jsonl[.gz]
const { runScript, readableFile, readJsonLines, need } = require('../../script-args')

const LOG = 'an http run\'s all.jsonl (or .jsonl.gz)'
const LONG_GAP_MS = 10000

function main ([file]) {
  const logged = readJsonLines(file, LOG).filter(record => record.at && record.phase?.startsWith('http'))
  const records = need(logged, file, 'http records', LOG)
  const byPhase = new Map()
  const byServer = new Map()
  const long = []
  let previous = null
  for (const record of records) {
    const time = Date.parse(record.at)
    const gap = previous === null ? 0 : time - previous
    previous = time
    byPhase.set(record.phase, (byPhase.get(record.phase) ?? 0) + gap)
    const key = `${record.phase} ${record.program}`
    byServer.set(key, (byServer.get(key) ?? 0) + gap)
    const where = `${record.program}, ${record.mode}, process ${record.process + 1}`
    if (gap >= LONG_GAP_MS) long.push(`${(gap / 1000).toFixed(1)} s before ${where}`)
  }
  const seconds = ms => (ms / 1000).toFixed(1)
  const total = [...byPhase.values()].reduce((sum, ms) => sum + ms, 0)
  console.log(`from the first record to the last: ${seconds(total)} s`)
  for (const [phase, ms] of byPhase) console.log(`${phase}: ${seconds(ms)} s`)
  console.log('\nper phase and server, the most first:')
  for (const [key, ms] of [...byServer].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${seconds(ms).padStart(6)} ${key}`)
  }
  const longText = `${LONG_GAP_MS / 1000} s or more (a generation's starts and warm-ups)`
  console.log(`\ngaps of ${longText}: ${long.length}`)
  for (const line of long) console.log(`  ${line}`)
  // each server process's warm-up, from its first timed record
  const processes = new Map()
  for (const record of records.filter(each => each.phase === 'http' && Array.isArray(each.warmupRates))) {
    const key = `${record.program} ${record.mode} ${record.process}`
    if (!processes.has(key)) processes.set(key, record.warmupRates.length)
  }
  const counts = [...processes.values()]
  const histogram = new Map()
  for (const count of counts) histogram.set(count, (histogram.get(count) ?? 0) + 1)
  const runs = counts.reduce((sum, count) => sum + count, 0)
  console.log(`\nwarm-up runs: ${runs} over ${counts.length} processes; ` +
    [...histogram].sort((a, b) => a[0] - b[0]).map(([runs, n]) => `${n} took ${runs}`).join(', '))
  const servers = [...new Set([...processes.keys()].map(key => key.split(' ')[0]))]
  for (const server of servers) {
    const own = [...processes].filter(([key]) => key.startsWith(`${server} `)).map(([, runs]) => runs)
    console.log(`  ${server}: ${own.join(', ')} (${own.reduce((sum, runs) => sum + runs, 0)})`)
  }
}

runScript(module, { args: [1, 1], each: readableFile, run: main })
