'use strict'
// What tracing a server's collector costs its CPU per request. The http and db experiments
// start every server process with its collector traced (V8's --trace-gc line-buffered, with
// --trace-opt for the warm-up's compiles; JavaScriptCore's BUN_JSC_logGC), so that the latency
// pass can run in the timed runs' processes (docs/http.md). Per server with a collector and
// mode, --pairs times: two processes of it on the server's CPU, one traced as the bench traces
// it and one not, each checked and warmed up (until its CPU per request agrees: the plain one
// has no compiles to count, so neither waits for V8's compiler as the bench's warm-up does, and
// the trace's lines count --trace-opt's too), then rounds in which each runs under its own wrk
// on that CPU, the two taking turns in slices of 50 ms (experiments/http/interleave.js), so
// that both see the same moment of the machine; every other round the other goes first. Per
// round, the traced process's CPU per request over the plain one's. Two processes of one server
// differ by a few per cent whatever their flags (the http experiment's process variance), so
// one pair cannot tell tracing from that: pairs of fresh processes can, and the pair is the
// unit.
// Printed per server and mode: the median of the pairs' medians and its interval
// (lib/stats.js fewValuesInterval: the range at 1 - 2/2^n below 6 pairs, none below 4),
// each pair's median, and the trace's lines per 1,000 requests. The runs in
// docs/http/2026-11-29/ printed an interval over every round instead, as if the rounds of a
// pair were independent: it overstated its level.
//
//   node studies/gc-trace-cost.js [--pairs N] [--rounds N] [--connections N] [--only A,B]
const { runCli, RunFailed } = require('../lib/cli')
const { repeatCount, firstRepeat } = require('../lib/options')
const { allowedCpus, placementPlan } = require('../lib/placement')
const { median, fewValuesInterval } = require('../lib/stats')
const { parseStudyOptions, fixed } = require('./per-read')
const { servers, MODES, freePort, startServer } = require('../experiments/http/servers')
const { checkLoad } = require('../experiments/http/client')
const { runInterleaved } = require('../experiments/http/interleave')
const { wrkArgv, parseWrk, wrkFailure, WRK_GRACE_MS, connectionCount } = require('../experiments/http/wrk')
const { processCpu, cpuBetween } = require('../experiments/http/cpu')
const { warmUp, gcTraceOf, PRESETS } = require('../experiments/http/measure')
const { unavailableReason } = require('../lib/rows')

const USAGE = `usage: node studies/gc-trace-cost.js [--pairs N] [--rounds N] [--connections N] [--only A,B]
  --pairs N        pairs of fresh processes, traced and plain, per server and mode (default 4)
  --rounds N       rounds of a pair's two processes in turns (default 6)
  --connections N  wrk's connections (default 128, the http experiment's)
  --only A,B       servers with a collector (default node-http, node-net, deno, bun, just-epoll)
  --help           this text`

const DEFAULT_SERVERS = ['node-http', 'node-net', 'deno', 'bun', 'just-epoll']

function parseOptions (argv) {
  const text = { type: 'string' }
  const spec = { pairs: text, rounds: text, connections: text, only: text }
  return parseStudyOptions(argv, spec, USAGE, values => ({
    pairs: repeatCount(values.pairs ?? '4', 'pairs', 1),
    rounds: repeatCount(values.rounds ?? '6', 'rounds', 2),
    connections: connectionCount(values.connections ?? '128'),
    only: tracedServers(values.only ? values.only.split(',') : DEFAULT_SERVERS)
  }))
}

// The servers asked for: each must exist, run here and have a trace of its collector.
function tracedServers (names) {
  const twice = firstRepeat(names)
  if (twice) throw new Error(`--only names ${twice} twice; name each server once`)
  return names.map(name => {
    const server = servers.find(row => row.name === name)
    if (!server) {
      throw new Error(`--only ${name} is no http server; they are: ${servers.map(row => row.name).join(', ')}`)
    }
    const reason = unavailableReason(server)
    if (reason) throw new Error(`${name} cannot run here: ${reason}`)
    if (!gcTraceOf(server)) throw new Error(`${name} has no trace of its collector: leave it out`)
    return server
  })
}

// A process of `server`, traced or not, on the server's CPU: started, checked, warmed up.
async function started (server, mode, { traced, pin, connections, stopped }) {
  const trace = traced ? gcTraceOf(server) : null
  const port = await freePort()
  const child = await startServer(server, {
    port,
    prefix: ['taskset', '-c', String(pin.server), ...(trace?.prefix ?? [])],
    v8Flags: trace?.v8Flags ?? [],
    env: trace?.env ?? {}
  })
  const entry = { started: child, port, unannouncedClose: false, warmupRates: [], warmupCpuUs: [] }
  try {
    // a server that closes without saying so (bun with Connection: close) is measured as
    // the bench measures it
    const { problem, unannouncedCloses } = await checkLoad(port, mode)
    if (problem) throw new Error(problem)
    entry.unannouncedClose = unannouncedCloses > 0
    await warmUp(entry, { server, mode, connections, pin }, PRESETS.default, stopped)
  } catch (err) {
    await child.stop()
    throw new RunFailed(`${server.name}, ${mode}${traced ? ', traced' : ''}: ${err.message}`)
  }
  return entry
}

const lines = text => text.split('\n').length - 1
const printedLines = entry => lines(entry.started.output().stdout) + lines(entry.started.output().stderr)

// One round: both processes under their wrks in turns. Their CPU per request (µs) and the
// traced one's lines printed.
async function round ({ plain, traced }, step, firstTraced) {
  const order = firstTraced ? [traced, plain] : [plain, traced]
  const load = { seconds: PRESETS.default.seconds }
  const before = order.map(entry => processCpu(entry.started.pid))
  const linesBefore = printedLines(traced)
  const runs = await runInterleaved(order.map(entry => ({ argv: wrkArgv(step, entry.port, { http: load }) })),
    { timeoutMs: load.seconds * 1000 + WRK_GRACE_MS })
  const after = order.map(entry => processCpu(entry.started.pid))
  const perRequest = order.map((entry, i) => {
    const output = parseWrk(runs[i].stdout)
    const failure = wrkFailure({
      wrk: runs[i],
      output,
      exited: entry.started.exited(),
      unannouncedClose: entry.unannouncedClose,
      connections: step.connections,
      seconds: load.seconds
    })
    if (failure) throw new RunFailed(`${step.server.name}, ${step.mode}: ${failure}`)
    return { cpuUs: cpuBetween(before[i], after[i]).cpuNs / output.requests / 1000, requests: output.requests }
  })
  const [tracedRun, plainRun] = firstTraced ? perRequest : [perRequest[1], perRequest[0]]
  const linesPerThousand = (printedLines(traced) - linesBefore) / tracedRun.requests * 1000
  return { ratio: tracedRun.cpuUs / plainRun.cpuUs, linesPerThousand }
}

async function main ({ pairs, rounds, connections, only }, stopped) {
  const { server: cpu } = placementPlan(allowedCpus()).http
  const pin = { client: cpu, server: cpu }
  console.log(`${pairs} pairs of processes, ${rounds} rounds of ${PRESETS.default.seconds} s each, per server and ` +
    `mode; ${connections} connections; every process and wrk on CPU ${cpu}`)
  console.log('server        mode        traced/plain CPU per request, pairs (interval, level)  each pair\'s median' +
    '          trace lines per 1k requests')
  for (const server of only) {
    for (const mode of MODES) {
      const step = { server, mode, connections, pin }
      const results = []
      const pairMedians = []
      for (let pair = 0; pair < pairs && !stopped(); pair++) {
        const processes = {}
        try {
          processes.plain = await started(server, mode, { traced: false, pin, connections, stopped })
          processes.traced = await started(server, mode, { traced: true, pin, connections, stopped })
          const own = []
          for (let i = 0; i < rounds && !stopped(); i++) own.push(await round(processes, step, i % 2 === 1))
          results.push(...own)
          pairMedians.push(median(own.map(result => result.ratio)))
        } finally {
          for (const entry of Object.values(processes)) await entry.started.stop()
        }
      }
      const interval = fewValuesInterval(pairMedians)
      const range = interval && `${fixed(interval.low, 3)}-${fixed(interval.high, 3)}`
      const spread = interval
        ? `${fixed(interval.estimate, 3)} (${range}, ${fixed(interval.level * 100, 1)}%)`
        : `${fixed(pairMedians.length ? median(pairMedians) : null, 3)} (too few pairs for an interval)`
      const linesPerThousand = results.length ? median(results.map(result => result.linesPerThousand)) : null
      console.log([server.name.padEnd(13), mode.padEnd(11), spread.padEnd(54),
        pairMedians.map(value => fixed(value, 3)).join(' ').padEnd(30), fixed(linesPerThousand, 2)].join(' '))
    }
  }
  return 0
}

if (require.main === module) {
  runCli({ name: 'gc-trace-cost.js', usage: USAGE, parse: parseOptions, run: main, measures: true })
}

module.exports = { parseOptions }
