'use strict'
// Where a noisy host's extra CPU per request landed, per server and cell: the server's CPU per
// request split by its user share (experiments/http/cpu.js userShareOfRuns) into user and
// system µs, in a quiet run and in noisy ones, and how many times the quiet figure each is.
// Runs of the http experiment (a cell per server, mode and connections) or of the db
// experiment (per server, endpoint and connections: the server's own CPU, not its backends').
//
//   node docs/http/2026-11-30-noisy/user-system.js QUIET/results.json NOISY/results.json...
const { runScript, readableFile, readJson, need } = require('../../script-args')

const RESULTS = 'an http or db run\'s results.json (or .json.gz)'

// each cell as { key, cpu, share }: the http experiment's or the db experiment's
const cellsOf = file => {
  const results = readJson(file, RESULTS)
  if (results.http) {
    return need(results.http.cells, file, 'http cells', RESULTS).map(cell =>
      ({ key: `${cell.server}, ${cell.mode}, ${cell.connections}`, cpu: cell.cpuPerRequestUs, share: cell.userShare }))
  }
  return need(results.db?.cells, file, 'http or db cells', RESULTS).map(cell => ({
    key: `${cell.server}, /${cell.endpoint}, ${cell.connections}`,
    cpu: cell.cpuPerRequestUs?.server,
    share: cell.serverUserShare
  }))
}

// µs of user and of system time per request, or null where the cell has no share
const split = cell => cell?.share && cell.cpu
  ? { user: cell.cpu * cell.share.share, system: cell.cpu * (1 - cell.share.share) }
  : null

// A run from before the user share was kept (2026-11-30) would print headers alone.
const withShares = (cells, file) =>
  need(cells.some(cell => split(cell)) ? cells : null, file,
    'cell with a user share (runs before 2026-11-30 kept none)', RESULTS)

function main (files) {
  const [quiet, ...noisy] = files.map(file => withShares(cellsOf(file), file))
  const times = (value, base) => `${(value / base).toFixed(2)}×`
  console.log(`quiet: ${files[0]}; noisy: ${files.slice(1).join(', ')}`)
  console.log('server, cell: quiet user + system µs/req; each noisy run\'s user + system, and each against the quiet')
  for (const cell of quiet) {
    const base = split(cell)
    if (!base) continue
    const text = noisy.map(cells => {
      const other = split(cells.find(each => each.key === cell.key))
      if (!other) return 'no share'
      const against = `${times(other.user, base.user)}, ${times(other.system, base.system)}`
      return `${other.user.toFixed(2)} + ${other.system.toFixed(2)} (${against})`
    }).join('; ')
    console.log(`${cell.key.padEnd(36)} ${base.user.toFixed(2)} + ${base.system.toFixed(2)}; ${text}`)
  }
}

runScript(module, { args: [2, Infinity], each: readableFile, run: main })
