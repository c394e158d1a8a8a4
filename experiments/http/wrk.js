'use strict'
// wrk, the http experiment's load: its command line, one run, its report and whether a
// run is a data point.
const fs = require('node:fs')
const { spawn } = require('node:child_process')
const { UsageError, wholeNumber } = require('../../lib/options')

// wrk's own timeout per request, and what a wrk run may take beyond its duration.
const WRK_TIMEOUT_SECONDS = 2
const WRK_GRACE_MS = 10000

// wrk opens each connection as a socket of its own: past this, a run measures the
// limits of file descriptors and ports more than a server.
const MAX_CONNECTIONS = 1024
// What a process at the most connections opens besides them: stdio, its epoll, its
// listener, a runtime's own files and threads, a db server's pool.
const FILE_MARGIN = 128

// The open-file limit this process's children get ("Max open files" in /proc/self/limits:
// Node raises its own soft limit to the hard one as it starts, and children inherit it).
function openFileLimit (limits = fs.readFileSync('/proc/self/limits', 'utf8')) {
  const match = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m.exec(limits)
  if (!match) return null
  return match[1] === 'unlimited' ? Infinity : Number(match[1])
}

// --connections A,B,...: whole counts, sorted, each at most MAX_CONNECTIONS, and within
// what the machine lets wrk and a server open (refused with the fix, not failed mid-run).
function connectionCounts (text, limit = openFileLimit()) {
  const counts = [...new Set(text.split(',').map(count => wholeNumber(count, 'connections', 1)))].sort((a, b) => a - b)
  const most = Math.max(...counts)
  if (most > MAX_CONNECTIONS) {
    throw new UsageError(`--connections ${most} is more than ${MAX_CONNECTIONS}; give counts from 1 to ${MAX_CONNECTIONS}`)
  }
  if (limit !== null && most + FILE_MARGIN > limit) {
    const needed = most + FILE_MARGIN
    const fix = `ulimit -n ${2 * needed}, or docker run --ulimit nofile=${2 * needed}`
    throw new UsageError(`--connections ${most} needs ${needed} open files in wrk and in each server, ` +
      `and this machine allows ${limit}: raise it (${fix}) or give fewer connections`)
  }
  return counts
}

// --connections N where a tool takes one count (the studies): connectionCounts's rule.
function connectionCount (text) {
  const counts = connectionCounts(text)
  if (counts.length > 1) throw new UsageError(`--connections takes one count here, not '${text}'`)
  return counts[0]
}

// A run long enough for its load: with many connections to a slow server (1000 of them to
// one that answers /queries 400 times a second) a request waits connections / rate
// seconds, past a 1 s run and wrk's 2 s timeout, and a run of 1 s answers none. So a run
// lasts at least DRAINS_A_RUN such waits and wrk waits for DRAINS_A_TIMEOUT of them,
// whole seconds (wrk takes no less), at most LONGEST_RUN_SECONDS.
const DRAINS_A_RUN = 3
const DRAINS_A_TIMEOUT = 2
const LONGEST_RUN_SECONDS = 16
function loadFor ({ seconds }, connections, rate) {
  const drain = rate > 0 ? connections / rate : LONGEST_RUN_SECONDS
  return {
    seconds: Math.min(LONGEST_RUN_SECONDS, Math.max(seconds, Math.ceil(DRAINS_A_RUN * drain))),
    timeoutSeconds: Math.min(LONGEST_RUN_SECONDS, Math.max(WRK_TIMEOUT_SECONDS, Math.ceil(DRAINS_A_TIMEOUT * drain)))
  }
}

// loadFor for servers whose runs take turns (placement interleaved), each at the rate its
// warm-up found: the longest of their loads, so that both run the same time; null where none
// has warmed up.
function sharedLoad (preset, connections, servers) {
  const loads = servers.filter(server => server?.warmupRates?.length)
    .map(server => loadFor(preset, connections, server.warmupRates.at(-1)))
  if (loads.length === 0) return null
  const longest = key => Math.max(...loads.map(load => load[key]))
  return { seconds: longest('seconds'), timeoutSeconds: longest('timeoutSeconds') }
}

// step.path: the request's path, / unless the step names one (the db experiment's endpoints).
// options.http: the run's { seconds, timeoutSeconds (wrk's own, WRK_TIMEOUT_SECONDS unless given) }.
function wrkArgv (step, port, options) {
  const timeout = options.http.timeoutSeconds ?? WRK_TIMEOUT_SECONDS
  const load = [`-c${step.connections}`, `-d${options.http.seconds}s`, '--timeout', `${timeout}s`]
  // step.wrkScript: a Lua script of wrk's (studies/http-placement.js paces its requests so)
  const script = step.wrkScript ? ['-s', step.wrkScript] : []
  return ['taskset', '-c', String(step.pin.client), 'wrk', '-t1', ...load, ...script, '--latency',
    ...(step.mode === 'close' ? ['-H', 'Connection: close'] : []), `http://127.0.0.1:${port}${step.path ?? '/'}`]
}

function runWrk (argv, timeoutMs) {
  return new Promise(resolve => {
    const started = process.hrtime.bigint()
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let timedOut = false
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL') }, timeoutMs)
    child.stdout.on('data', chunk => { stdout += chunk })
    child.stderr.on('data', chunk => { stderr += chunk })
    child.on('error', err => { stderr += err.message })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, timedOut, stdout, stderr, wallNs: Number(process.hrtime.bigint() - started) })
    })
  })
}

const UNIT_US = { us: 1, ms: 1000, s: 1e6 }
const duration = (number, unit) => Number(number) * UNIT_US[unit]

// wrk --latency's report: { requests, seconds, requestsPerSecond, latencyUs: { mean,
// max, p50, p75, p90, p99 }, errors: { connect, read, write, timeout }, non2xx }, each
// null where the report lacks it.
function parseWrk (text) {
  const latency = /^\s*Latency\s+([\d.]+)(us|ms|s)\s+[\d.]+(?:us|ms|s)\s+([\d.]+)(us|ms|s)/m.exec(text)
  const percentile = p => {
    const match = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(text)
    return match ? duration(match[1], match[2]) : null
  }
  const done = /^\s*(\d+) requests in ([\d.]+)(us|ms|s|m)/m.exec(text)
  const rate = /^Requests\/sec:\s*([\d.]+)/m.exec(text)
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text)
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(text)
  return {
    requests: done ? Number(done[1]) : null,
    seconds: done ? (done[3] === 'm' ? Number(done[2]) * 60 : duration(done[2], done[3]) / 1e6) : null,
    requestsPerSecond: rate ? Number(rate[1]) : null,
    latencyUs: latency ? { mean: duration(latency[1], latency[2]), max: duration(latency[3], latency[4]), p50: percentile(50), p75: percentile(75), p90: percentile(90), p99: percentile(99) } : null,
    errors: errors ? { connect: Number(errors[1]), read: Number(errors[2]), write: Number(errors[3]), timeout: Number(errors[4]) } : { connect: 0, read: 0, write: 0, timeout: 0 },
    non2xx: non2xx ? Number(non2xx[1]) : 0
  }
}

// Why a wrk run of `seconds` is no data point, or null. A server whose answers to
// Connection: close do not say so (sendRequests) makes wrk count one read error per
// request in close mode, and at most one more per connection in flight when the run
// ends: those alone are allowed it. wrk stopped by SIGINT exits 0 with a report of the
// time it ran: a run shorter than asked is no run of its cell.
const WRK_SHORTEST = 0.9
function wrkFailure ({ wrk, output, exited, unannouncedClose, connections, seconds }) {
  if (wrk.signal === 'SIGINT') return 'interrupted'
  if (wrk.timedOut) return `wrk did not finish within its duration and ${WRK_GRACE_MS / 1000} s`
  if (exited) return 'the server exited during the run'
  if (wrk.code !== 0) return `wrk exited ${wrk.signal ?? wrk.code}: ${wrk.stderr.trim().split('\n').pop() || 'no message'}`
  if (output.requests === null || output.requestsPerSecond === null || output.latencyUs === null) return `wrk printed no request count, rate or latency: ${JSON.stringify(wrk.stdout.slice(0, 200))}`
  if (output.requests === 0) return 'wrk completed no request'
  if (output.seconds < WRK_SHORTEST * seconds) return `wrk ran ${output.seconds} s of the ${seconds} s asked (stopped by a signal?)`
  if (output.non2xx) return `${output.non2xx} of ${output.requests} answers were not 2xx or 3xx`
  const { connect, read, write, timeout } = output.errors
  const allowedReads = unannouncedClose ? output.requests + connections : 0
  if (connect || write || timeout || read > allowedReads) return `wrk counted socket errors: connect ${connect}, read ${read}${unannouncedClose ? ` (${allowedReads} allowed: the server's closes are unannounced)` : ''}, write ${write}, timeout ${timeout}`
  return null
}

module.exports = {
  MAX_CONNECTIONS,
  LONGEST_RUN_SECONDS,
  WRK_TIMEOUT_SECONDS,
  WRK_GRACE_MS,
  openFileLimit,
  connectionCounts,
  connectionCount,
  loadFor,
  sharedLoad,
  wrkArgv,
  runWrk,
  parseWrk,
  wrkFailure
}
