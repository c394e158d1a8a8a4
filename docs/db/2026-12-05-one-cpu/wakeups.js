'use strict'
// What a placement changes in a db run's /db cells: per server, its CPU per request (µs), its
// ratio to C's, the share of its CPU it used, and from the kernel pass (full speed, the
// cell's connections) its waits per request (epoll_wait, epoll_pwait) and so requests per
// wake-up, and its calls of work + upkeep per request. Two runs side by side.
// Usage: node docs/db/2026-12-05-one-cpu/wakeups.js A/results.json B/results.json
const { runScript, readableFile, readJson, need } = require('../../script-args')

const RESULTS = 'a db run\'s results.json (or .json.gz) with its kernel pass'
const WAITS = /^epoll_(p?wait|pwait2)$/

function column (db, server) {
  const cell = db.cells.find(each => each.server === server && each.endpoint === 'db')
  const kernel = db.kernel?.server?.find(each => each.server === server && each.where === 'db')
  if (!cell?.cpuPerRequestUs) return 'not measured'
  const ratio = cell.serverVsReference?.estimate ?? 1
  const waits = kernel?.byCall.filter(call => WAITS.test(call.name))
    .reduce((sum, call) => sum + call.perRequest, 0)
  const wakeUps = kernel === undefined
    ? 'no kernel pass'
    : `${waits.toFixed(3)} waits, ${(1 / waits).toFixed(1)} a wake-up, ` +
      `calls ${kernel.work.toFixed(2)} + ${kernel.upkeep.toFixed(2)}`
  return `${cell.cpuPerRequestUs.server.toFixed(1)} µs, ${ratio.toFixed(2)}×, CPU share ` +
    `${cell.serverCpuShare.toFixed(2)}, ${wakeUps}`
}

function main (files) {
  const runs = files.map(file => {
    const { db } = readJson(file, RESULTS)
    need(db?.cells, file, 'db cells', RESULTS)
    return { file, db }
  })
  const servers = runs[0].db.cells.filter(cell => cell.endpoint === 'db').map(cell => cell.server)
  for (const server of servers) {
    console.log(server)
    for (const { file, db } of runs) console.log(`  ${db.placement.padEnd(8)} ${column(db, server)}   (${file})`)
  }
}

runScript(module, { args: [2, 2], each: readableFile, run: main })
