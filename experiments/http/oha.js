'use strict'
// oha, the latency pass's load: requests sent on schedule at a fixed rate, whether or not
// answers have come back, and latency measured from each request's intended send time as
// oha's timer stamped it (--latency-correction; how late the stamps came, requestTimes), so
// that a server that stalls is charged for every request that waited behind the stall (Gil
// Tene's coordinated omission). wrk, the timed runs' load,
// sends a connection's next request only after its answer: a stall of 1 s held back 20
// requests, not the 2,000 a rate of 2,000 req/s meant to send (docs/http.md).
//
// oha 1.11.0 comes from the Rust crates registry, built by ./setup.sh with Debian's
// cargo-web (bookworm's cargo, 1.63, is too old for it; bookworm's cargo-web is 1.85, and
// oha 1.12 on needs 1.86); Debian has no open-loop generator that keeps connections open
// (httperf sends on schedule, but a new connection per request, and its histogram has
// 1 ms bins).
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { BUILD } = require('../../lib/paths')
const { findOnPath, isExecutable } = require('../../lib/runtimes')

const OHA = path.join(BUILD, 'oha', 'bin', 'oha')
const OHA_VERSION = '1.11.0'
const INSTALL = `run ./setup.sh, which builds oha ${OHA_VERSION} from the Rust crates registry ` +
  'into build/oha, or set OHA=/path/to/oha'

function ohaBinary () {
  return process.env.OHA || (isExecutable(OHA) ? OHA : findOnPath('oha'))
}

// Why the latency pass cannot run here, or null.
function ohaReason () {
  const binary = ohaBinary()
  if (binary === null) return `oha is not installed: ${INSTALL}`
  if (!isExecutable(binary)) return `OHA=${binary} is not an executable file: ${INSTALL}`
  return null
}

// What the binary says it is ("oha 1.16.0"), or null.
function ohaVersion () {
  const binary = ohaBinary()
  if (!binary) return null
  const run = spawnSync(binary, ['--version'], { encoding: 'utf8' })
  return run.status === 0 ? run.stdout.trim() : null
}

// One run: `rate` requests/s spread over `connections` connections for `seconds`, from
// one worker thread (oha counts physical cores, not the CPUs taskset leaves it) pinned to
// `cpu`; the requests still out when the time is up are waited for (-w), the ones not yet
// sent are not. requestsFile: where oha writes each answered request (an SQLite file,
// --db-url), for steadyLatency.
function ohaArgv ({ cpu, rate, connections, seconds, mode, port, path: urlPath = '/', requestsFile = null }) {
  return [
    'taskset', '-c', String(cpu), 'env', 'TOKIO_WORKER_THREADS=1', ohaBinary() ?? 'oha',
    '--no-tui', '--output-format', 'json', '-q', String(rate), '--latency-correction', '-w',
    '-c', String(connections), '-z', `${seconds}s`,
    ...(mode === 'close' ? ['--disable-keepalive'] : []),
    ...(requestsFile ? ['--db-url', requestsFile] : []),
    `http://127.0.0.1:${port}${urlPath}`
  ]
}

// Each answered request in the order oha scheduled them, from the SQLite file --db-url wrote
// (its table oha, in s from the run's start), in ms: { stampMs, dueMs, endMs, latencyMs, lateMs }.
// oha 1.11.0 (client.rs, -z with --latency-correction) sleeps until each request's intended
// time, start + i / rate, then stamps the moment its timer task woke (start_latency_correction)
// and times the request from that stamp (latencyMs, as oha's own percentiles): what its timer
// woke late is not in it (a question to its source, 2026-12-06). The intended times are not
// stored, but every request scheduled before the deadline is answered in a run that counts
// (ohaFailure fails any error), so the i-th stamp is the i-th request's and its due time is
// t0 + i / rate, t0 the schedule's start (the earliest stamp less its offset: no stamp comes
// before its time); lateMs is how late the stamp came. Measured (docs/http.md, "How late oha's
// timer wakes"): 0.9-1.0 ms at the median, 1.9 at the p99, 2 at most in most cells, alike for
// every server, mode and count of connections: oha's 1 ms timer wheel, which sends a ms's
// requests together. Where oha stamped none (no correction), the stamp is the send and lateMs
// null. Read with Python's sqlite3, which every set-up of the lab has, as doubles in the
// machine's order, three a request (whether oha stamped it, its stamp or send, its end): a cell
// of 13,189 requests in 0.12 s, where one line of text a request took 0.33 s (2026-12-07); a
// default http run's latency pass took 104-105 s where it had taken 116-120 (docs/http.md).
// null where it cannot be read.
const READ_REQUESTS = 'import sqlite3, sys\n' +
  'from array import array\n' +
  'rows = array("d")\n' +
  'for row in sqlite3.connect(sys.argv[1]).execute(' +
  '"SELECT start_latency_correction IS NOT NULL, COALESCE(start_latency_correction, start), end' +
  ' FROM oha ORDER BY COALESCE(start_latency_correction, start), start"): rows.extend(row)\n' +
  'sys.stdout.buffer.write(rows.tobytes())'
const FIELDS = 3
function requestTimes (file, rate) {
  const run = spawnSync('python3', ['-c', READ_REQUESTS, file], { maxBuffer: 256 << 20 })
  if (run.status !== 0 || run.stdout.length % (FIELDS * 8) !== 0) return null
  // a copy: a Float64Array needs its offset aligned to 8 bytes, which the pipe's Buffer is not
  const values = new Float64Array(new Uint8Array(run.stdout).buffer)
  const rows = Array.from({ length: values.length / FIELDS }, (_, i) => ({
    stamped: values[i * FIELDS] === 1,
    stampMs: values[i * FIELDS + 1] * 1000,
    endMs: values[i * FIELDS + 2] * 1000
  }))
  const everyMs = 1000 / rate
  const stamped = rows.length > 0 && rows.every(row => row.stamped)
  let startMs = Infinity
  if (stamped) rows.forEach(({ stampMs }, i) => { startMs = Math.min(startMs, stampMs - i * everyMs) })
  return rows.map(({ stampMs, endMs }, i) => {
    const dueMs = stamped ? startMs + i * everyMs : stampMs
    // at least 0: the one stamp that set the start is on time, less the sums' rounding
    const lateMs = stamped ? Math.max(0, stampMs - dueMs) : null
    return { stampMs, dueMs, endMs, latencyMs: endMs - stampMs, lateMs }
  })
}

// oha opens a connection with the first request it sends on it, its clock already running,
// and its connections take the queued requests in turn (oha 1.11.0's client.rs): the first
// `opened` requests sent are those that opened them, each with its connect in its latency,
// and the requests due while those connects go on queue behind them. Both are the cell's
// start, not its steady state: at 1000 connections the first 1000 were 6-14% of a cell, a
// Node server's p99 23.8 ms over them, 5.7 over the rest (a review), and the rest's p99 still
// moved 2-42 ms between runs with the requests queued behind the connects (docs/http.md,
// "Latency once every connection is open"). So the steady state starts when the last of the
// first `opened` requests is answered (`fromMs`), and the percentiles, taken as oha takes its
// own (the value at p × n of the sorted list), are of the requests due from then on (stamped,
// where oha stamped none);
// `leftOut` counts the others. null where none is left. opened 0 (Connection: close, where
// every request opens its connection and its connect is its cost) keeps every request, fromMs
// null. Beside them: lateMs, how late oha's timer woke for the requests kept (p50, p99, max),
// and fromDueMs, their percentiles from their due times (each latency and its lateness), or
// both null where oha stamped none (requestTimes).
function steadyLatency (requests, opened) {
  const fromMs = opened > 0 ? Math.max(...requests.slice(0, opened).map(request => request.endMs)) : null
  // by due time where oha stamped (requestTimes): a request due before the last connect was
  // answered belongs to the start though its timer woke after (a review, 2026-12-07)
  const kept = fromMs === null ? requests : requests.filter(request => (request.dueMs ?? request.stampMs) >= fromMs)
  if (kept.length === 0) return null
  const at = (values, share) => values[Math.min(values.length - 1, Math.floor(share * values.length))]
  const percentiles = values => {
    const ascending = values.sort((a, b) => a - b)
    return {
      p50: at(ascending, 0.5),
      p90: at(ascending, 0.9),
      p99: at(ascending, 0.99),
      p999: at(ascending, 0.999),
      max: ascending.at(-1)
    }
  }
  const timed = kept.every(request => request.lateMs != null)
  const late = timed ? percentiles(kept.map(request => request.lateMs)) : null
  return {
    latencyMs: percentiles(kept.map(request => request.latencyMs)),
    // the p99.9 too, the percentile the tables quote (fellBehind)
    lateMs: late && { p50: late.p50, p99: late.p99, p999: late.p999, max: late.max },
    fromDueMs: timed ? percentiles(kept.map(request => request.endMs - request.dueMs)) : null,
    requests: kept.length,
    leftOut: requests.length - kept.length,
    fromMs
  }
}

// oha's JSON report: { answered, statusCodes, errors ({ message: count }), seconds,
// requestsPerSecond, latencyMs: { p50, p90, p99, p999, max } }, or null when the text is
// no such report.
function parseOha (text) {
  let report
  try {
    report = JSON.parse(text)
  } catch {
    return null
  }
  const { summary, latencyPercentiles: percentiles } = report ?? {}
  if (!summary || !percentiles) return null
  const statusCodes = report.statusCodeDistribution ?? {}
  const ms = seconds => (typeof seconds === 'number' ? seconds * 1000 : null)
  return {
    answered: Object.values(statusCodes).reduce((sum, count) => sum + count, 0),
    statusCodes,
    errors: report.errorDistribution ?? {},
    seconds: summary.total,
    requestsPerSecond: summary.requestsPerSec,
    latencyMs: {
      p50: ms(percentiles.p50),
      p90: ms(percentiles.p90),
      p99: ms(percentiles.p99),
      p999: ms(percentiles['p99.9']),
      max: ms(summary.slowest)
    }
  }
}

// Why an oha run is no data point, or null: a server that answers wrongly, errs or exits
// fails; one that answers rightly but too few is measured, and holdsRate says so.
function ohaFailure ({ run, output, exited }) {
  if (run.signal === 'SIGINT') return 'interrupted'
  if (run.timedOut) return 'oha did not finish within its duration and its grace'
  if (exited) return 'the server exited during the run'
  if (run.code !== 0) {
    return `oha exited ${run.signal ?? run.code}: ${run.stderr.trim().split('\n').pop() || 'no message'}`
  }
  if (output === null) return `oha printed no report: ${JSON.stringify(run.stdout.slice(0, 200))}`
  if (output.answered === 0) return 'oha had no answer'
  const wrong = Object.entries(output.statusCodes).filter(([code]) => code !== '200')
  if (wrong.length) return `answers with status ${wrong.map(([code, count]) => `${code} (${count})`).join(', ')}`
  const errors = Object.entries(output.errors)
  if (errors.length) {
    const failed = errors.reduce((sum, [, count]) => sum + count, 0)
    return `${failed} requests failed: ${errors.map(([message, count]) => `${message} (${count})`).join('; ')}`
  }
  return null
}

// A server holds a rate when it answered at least HOLDS_SHARE of the requests the rate asked
// of the run (the ones it could not take were never sent: oha keeps no more in flight than
// its connections, and their latency would have kept growing with the run; c-epoll, the
// fastest, answered 99.6% of 160,000 at 80,000 req/s and 1,000 connections), and at
// HOLDS_PACE of the rate over oha's whole run (output.requestsPerSecond: its answers over
// summary.total, the wait for the last ones included). The second is what a server that
// answers everything, late, fails: oha waits for every request in flight at the deadline
// (-w), so a server some 800 req/s could bear, asked 1,100 on 300 connections, answered 99.1%
// of them over 1.36 s, 799 req/s (a review, 2026-12-06). Not 98% there too: at 1000
// connections a cell's connects and its last answers take some 30 ms of a run of 1.2 s, and
// Bun, every request answered, read 7,020 req/s of 7,200 asked (docs/http.md).
const HOLDS_SHARE = 0.98
const HOLDS_PACE = 0.95
function holdsRate (output, rate, seconds) {
  const kept = typeof output.requestsPerSecond !== 'number' || output.requestsPerSecond >= HOLDS_PACE * rate
  return output.answered >= HOLDS_SHARE * rate * seconds && kept
}

// oha fell behind its schedule in a run whose stamps came more than BEHIND_MS late at their
// p99.9 (steadyLatency's lateMs; the p99 in records from before it was kept), the percentile
// the tables quote: its timer steps by 1 ms, so a stamp comes up to 2 ms after its due time by
// design (1.85-1.92 ms at the p99 in a quiet pair's cells, docs/http.md, "How late oha's timer
// wakes"; 1.96-3.56 in the cells that ran beside the unit tests). Beyond it oha itself waited
// for its CPU, a wait its percentiles, timed from the stamps, leave out. (At the p99 alone, a
// stall of 9 ms in a cell of 2,280 requests went unmarked while it set the p99.9: a review.)
const BEHIND_MS = 3
const fellBehind = lateMs => (lateMs ? (lateMs.p999 ?? lateMs.p99) > BEHIND_MS : null)

// A latency pass whose rates come from the median of the reference's timed runs (db's since
// 5820d5a6, http's since 2026-12-07; experiments/http/measure.js capacityOf), as its records
// and tables name it
const TIMED_RATES = 'timed'

// What a run records of its latency pass (the http and db experiments'): `load` (its
// connections, rates and seconds) and where oha ran, or why there was no pass.
function latencyContext (wanted, load, pin) {
  if (!wanted) return { skipped: 'skipped with --no-latency' }
  const reason = ohaReason()
  return reason === null ? { oha: ohaVersion(), pin, ...load } : { skipped: reason }
}

// The line a run asked for the pass says before it starts, where oha is missing.
const latencyPlanNotes = wanted => wanted && ohaReason() ? [`no latency pass: ${ohaReason()}`] : []

module.exports = {
  latencyContext,
  latencyPlanNotes,
  OHA_VERSION,
  HOLDS_SHARE,
  BEHIND_MS,
  fellBehind,
  TIMED_RATES,
  HOLDS_PACE,
  ohaBinary,
  ohaReason,
  ohaVersion,
  ohaArgv,
  requestTimes,
  steadyLatency,
  parseOha,
  ohaFailure,
  holdsRate
}
