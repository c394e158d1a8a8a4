'use strict'
// Where a noisy host's extra CPU per request landed, per server and mode: each cell's CPU per
// request split by its user share (experiments/http/cpu.js userShareOfRuns) into user and
// system µs, in a quiet run and in noisy ones, and how many times the quiet figure each is.
//
//   node docs/http/2026-11-30-noisy/user-system.js QUIET/results.json NOISY/results.json...
const fs = require('node:fs')
const zlib = require('node:zlib')

const files = process.argv.slice(2)
if (files.length < 2) {
  console.error('usage: node docs/http/2026-11-30-noisy/user-system.js QUIET/results.json NOISY/results.json...')
  process.exit(2)
}
const load = file => {
  const raw = fs.readFileSync(file)
  return JSON.parse(file.endsWith('.gz') ? zlib.gunzipSync(raw) : raw).http
}
const [quiet, ...noisy] = files.map(load)
// µs of user and of system time per request, or null where the cell has no share
const split = cell => cell?.userShare && cell.cpuPerRequestUs
  ? { user: cell.cpuPerRequestUs * cell.userShare.share, system: cell.cpuPerRequestUs * (1 - cell.userShare.share) }
  : null
const find = (http, { server, mode, connections }) =>
  http.cells.find(cell => cell.server === server && cell.mode === mode && cell.connections === connections)
const times = (value, base) => `${(value / base).toFixed(2)}×`
console.log(`quiet: ${files[0]}; noisy: ${files.slice(1).join(', ')}`)
console.log('server, mode: quiet user + system µs/req; each noisy run\'s user + system, and each against the quiet')
for (const cell of quiet.cells) {
  const base = split(cell)
  if (!base) continue
  const others = noisy.map(http => split(find(http, cell)))
  const text = others.map(other => {
    if (!other) return 'no share'
    const against = `${times(other.user, base.user)}, ${times(other.system, base.system)}`
    return `${other.user.toFixed(2)} + ${other.system.toFixed(2)} (${against})`
  }).join('; ')
  const name = `${cell.server}, ${cell.mode}`.padEnd(31)
  console.log(`${name} ${base.user.toFixed(2)} + ${base.system.toFixed(2)}; ${text}`)
}
