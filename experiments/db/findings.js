'use strict'
// The db experiment's findings, each from its cells and strace pass: what the server's
// side of a query costs against C with libpq, what the database's side costs, what
// prepared statements and pipelining change, and the syscalls per request against the
// floor the protocol allows.
const {
  formatNumber, formatPercent, listJoin, roundsText, formatSignedPercent
} = require('../../lib/report/format')
const { median } = require('../../lib/stats')
const { ratioText } = require('../../lib/report/answer')
const { CALM_SHARE, calmRoundNumbers } = require('../../lib/repeatability')
const { steadinessFindings } = require('../../lib/report/steady')
const { compilingFinding } = require('../http/findings')
const { atMostConnections, unsteadyRatioReason } = require('./quoting')

// "104% (a) to 160% (b)": the lowest and the highest of `items` by `value` (those that have
// one), each formatted, with its name; the one alone, or null for none.
function lowToHigh (items, value, format, nameOf) {
  const sorted = items.filter(item => value(item) != null).sort((a, b) => value(a) - value(b))
  if (sorted.length === 0) return null
  const text = item => `${format(value(item))} (${nameOf(item)})`
  return sorted.length === 1 ? text(sorted[0]) : `${text(sorted[0])} to ${text(sorted.at(-1))}`
}

// "costs the servers 1.04× to 1.6× (client a to client b) and their backends ... of `what`".
function variantRange (db, question, endpoint, lead, what) {
  const asked = atMostConnections(db.variants, db.cells)
    .filter(entry => entry.question === question && entry.endpoint === endpoint && entry.server)
  // a pair with a cell the answer does not quote is left out, and named
  const entries = asked.filter(entry => !entry.unsteady?.length)
  const unquoted = asked.filter(entry => entry.unsteady?.length).map(entry => entry.client)
  const leftOut = unquoted.length ? ` (leaving out ${listJoin(unquoted)}, not steady)` : ''
  if (entries.length === 0) return null
  const range = pick =>
    lowToHigh(entries, entry => pick(entry)?.estimate, formatPercent, entry => entry.client)
  const backends = range(entry => entry.backends)
  return `${lead} the servers ${range(entry => entry.server)}${backends ? ` and their backends ${backends}` : ''} ` +
    `of ${what}${leftOut}; each client's, with its interval, is in the table of variants.`
}

// The machine's own speed through the run (summary.js machineSpeedByRound), per endpoint:
// which rounds were calm (within CALM_SHARE of the servers' own medians) and how far the
// rounds' offsets spread. An endpoint whose rounds were calm but for a quarter or fewer held:
// one slow round is each cell's median's to absorb. The more rounds were slow, the higher the
// servers' medians, so quiet rounds can read as cheaper.
const CALM_MOST = 0.75
function machineSpeed (db) {
  const groups = db.machineSpeed ?? []
  if (groups.length === 0) return null
  const severalConnections = new Set(groups.map(group => group.connections)).size > 1
  let moved = false
  const parts = groups.map(({ endpoint, connections, rounds }) => {
    const offsets = rounds.map(round => round.offset)
    // rounds by the numbers the page gives them, counted from 1
    const calm = calmRoundNumbers(rounds.map(round => ({ number: round.round + 1, offset: round.offset })))
    const held = calm.length >= CALM_MOST * rounds.length
    moved = moved || !held
    const where = `/${endpoint}${severalConnections ? ` at ${connections} connections` : ''}`
    return `${where} ${held ? 'held' : 'moved'}, ${calm.length} of ${rounds.length} rounds calm ` +
      `(${roundsText(calm)}), from ${formatSignedPercent(Math.min(...offsets))} to ` +
      formatSignedPercent(Math.max(...offsets))
  })
  return 'The machine\'s own speed through the run, as the servers show it together (a round: the ' +
    'median server\'s CPU per request in it against the server\'s own median; calm within ' +
    `±${formatPercent(CALM_SHARE)}): ${parts.join('; ')}.` + (moved
    ? ' A busy host does not slow every server alike, so a ratio to C from rounds that moved ' +
      'is the host\'s as much as the server\'s (docs/db.md).'
    : '')
}

const DB_FINDINGS = [
  function steadiness (db) {
    const lines = steadinessFindings(db.cells, cell => `${cell.server} /${cell.endpoint}`)
    const spread = db.cells.map(cell => cell.roundPercent).filter(value => typeof value === 'number')
    if (spread.length) lines.push(`The server's CPU per request varies by ${formatNumber(median(spread))}% between the runs of its process at the median cell (standard deviation over the mean, ${spread.length} cells); what varies between processes shows only between runs (analyse.js A B).`)
    return lines.length ? lines.join(' ') : null
  },
  machineSpeed,
  db => compilingFinding(db.cells, cell => `/${cell.endpoint}`),
  // the variants' questions in a sentence each, their range over the clients; each
  // client's ratios with intervals are in the page's table of variants
  function preparedStatements (db) {
    return variantRange(db, 'prepared', 'db', 'Parsing every query, /db: an unnamed statement costs', 'what a prepared one does')
  },
  function pipelining (db) {
    return variantRange(db, 'pipelined', 'queries', 'Pipelining, /queries: one query in flight costs', 'what pipelining does')
  },
  // what the protocol allows: an HTTP read and write, a database send and receive per
  // request; pipelined, k queries share a send and a receive
  function syscallFloor (db) {
    const entries = db.syscalls.filter(entry => entry.endpoint === 'db' && entry.self?.perRequest != null).sort((a, b) => a.self.work - b.self.work)
    if (!entries.length) return null
    return `Server syscalls of work per /db request (4 is one HTTP read and write and one database send and receive; pipelined, k queries sharing a flush make it 2 + 2/k): ${listJoin(entries.map(entry => `${entry.server} ${formatNumber(entry.self.work)}${entry.backends?.work != null ? ` (its backends ${formatNumber(entry.backends.work)})` : ''}`))}.`
  },
  belowTheFloor,
  wakeUps
]

// The server's requests per wake-up at each endpoint's most connections: the reference's, and
// the others' range. A client-bound server (C's) wakes every few requests where a busy one
// finds dozens waiting (at /fortunes on 2026-12-06, C's 4.5 against the host's, Node's, Bun's
// and Deno's 16 to 234: docs/db.md), and each server's CPU per request holds its own wake-ups.
function wakeUps (db) {
  const parts = [...new Set(db.cells.map(cell => cell.endpoint))].flatMap(endpoint => {
    const counted = atMostConnections(db.cells)
      .filter(cell => cell.endpoint === endpoint && cell.requestsPerWakeUp != null)
    const reference = counted.find(cell => cell.server === db.reference)
    const others = lowToHigh(counted.filter(cell => cell !== reference), cell => cell.requestsPerWakeUp,
      formatNumber, cell => cell.server)
    if (!reference || !others) return []
    return [`/${endpoint} ${db.reference} ${formatNumber(reference.requestsPerWakeUp)}, against ${others}`]
  })
  if (parts.length === 0) return null
  return 'The server\'s requests per wake-up at the most connections (wrk\'s requests over the ' +
    `timeslices its threads were given): ${parts.join('; ')}. A server that answers more ` +
    'requests a wake-up spends fewer wake-ups on each, so its ratio to C\'s CPU per request ' +
    'compares that as well as the two servers\' work.'
}

// The calls that send bytes, to a client or to the database.
const SEND_CALLS = new Set(['write', 'writev', 'send', 'sendto', 'sendmsg'])
const sendsPerRequest = entry => entry.self.byCall.filter(call => SEND_CALLS.has(call.name))
  .reduce((sum, call) => sum + call.perRequest, 0)

// A server below the floor: its interval of server CPU against C's under 1, with fewer calls of
// work a request than C's. It answers with less work than the floor does, which is how it calls
// the kernel, not its runtime: until C's floor took libpq 18 (2026-12-04), libpq 15 sent each
// of its pipelined queries at once and the host's client undercut it so (docs/db.md).
function belowTheFloor (db) {
  const callsOf = (server, endpoint) => db.syscalls.find(entry => entry.server === server &&
    entry.endpoint === endpoint && entry.self?.byCall)
  // a ratio with no interval (too few runs) has a high of null, which JavaScript counts below 1;
  // one the answer does not quote (steadiness) is not quoted here either
  const below = cell => cell.serverVsReference?.high != null && cell.serverVsReference.high < 1 &&
    unsteadyRatioReason(db.cells, cell) === null
  const parts = atMostConnections(db.cells).filter(below).flatMap(cell => {
    const own = callsOf(cell.server, cell.endpoint)
    const floor = callsOf(db.reference, cell.endpoint)
    if (!own || !floor || own.self.work >= floor.self.work) return []
    return [`at /${cell.endpoint} ${cell.server} costs ${ratioText(cell.serverVsReference)} C's server ` +
      `CPU and makes ${formatNumber(own.self.work)} calls of work a request to C's ` +
      `${formatNumber(floor.self.work)}, ${formatNumber(sendsPerRequest(own))} sends to its ` +
      `${formatNumber(sendsPerRequest(floor))}`]
  })
  if (!parts.length) return null
  return `Below the floor: ${listJoin(parts)}. It answers with fewer calls than C's floor, so the ` +
    'ratio says how it calls the kernel, not that its runtime is faster than C (docs/db.md).'
}

// sets: labelled results sets; each set's findings in order.
function findings (sets) {
  return sets.filter(set => set.results.db).flatMap(set => DB_FINDINGS.map(finding => finding(set.results.db)).filter(Boolean).map(text => ({ set: set.label, text })))
}

module.exports = { findings, machineSpeed }
