'use strict'
// Whether the resets of the check (experiments/http/client.js resetConnections) change how V8
// warms up a server. node-net (http/node-net.js) on Node 26 under wrk with Connection: close,
// wrk and the server on CPU 1, --runs runs of 1 s one after the other, --trials times each
// way: as the lab ran it until 2026-12-01, and with the resets first. The server runs with
// V8's --trace-opt and --trace-deopt, its output read through a pipe as the lab reads it; per
// trial, how many optimized functions V8 threw away at once because a prototype chain they
// depend on changed ("dependent prototype chain changed"), and in which runs; the optimizing
// compiles of each run (lib/jittrace.js); and the server's CPU per request each run. Such a
// storm of 24-35 came in every trial with the server's output going to a file, and never
// through a pipe, with resets or without (docs/http.md, 2026-12-01): the resets are a check
// that a server survives its clients' resets, not a cure for its warm-up.
//
//   node docs/http/2026-12-01/resets-first.js [--trials N] [--runs N]  (about 22 s a trial and way)
const { spawn, execFile } = require('node:child_process')
const { promisify } = require('node:util')
const path = require('node:path')
const { runScript } = require('../../script-args')
const { wholeNumber } = require('../../../lib/options')
const { freePort } = require('../../../experiments/http/servers')
const { resetConnections } = require('../../../experiments/http/client')
const { processCpu, cpuBetween } = require('../../../experiments/http/cpu')
const { parseWrk } = require('../../../experiments/http/wrk')
const { countOptimizingCompiles } = require('../../../lib/jittrace')

const LAB = path.join(__dirname, '../../..')
const NODE = path.join(LAB, 'build/node/26.12.1/bin/node')
const CPU = '1'
const STORM = /dependent prototype chain changed/

async function trial (resetsFirst, runs) {
  const port = await freePort()
  const argv = ['-c', CPU, 'stdbuf', '-oL', NODE, '--no-memory-reducer', '--trace-opt', '--trace-deopt',
    path.join(LAB, 'http/node-net.js'), String(port)]
  const server = spawn('taskset', argv, { stdio: ['ignore', 'pipe', 'inherit'] })
  let printed = ''
  server.stdout.on('data', chunk => { printed += chunk })
  while (!printed.includes('listening')) await new Promise(resolve => setTimeout(resolve, 20))
  // taskset and stdbuf exec what they run: the server is the process spawned
  const pid = server.pid
  if (resetsFirst) {
    const problem = await resetConnections(port)
    if (problem) throw new Error(problem)
  }
  const perRun = []
  for (let run = 0; run < runs; run++) {
    const from = printed.length
    const before = processCpu(pid)
    // wrk waited for without blocking this process, which reads the server's trace meanwhile
    const wrk = await promisify(execFile)('taskset', ['-c', CPU, 'wrk', '-t1', '-c128', '-d1s', '-H',
      'Connection: close', `http://127.0.0.1:${port}/`])
    const after = processCpu(pid)
    const { requests } = parseWrk(wrk.stdout)
    // what the server printed as the run ended, read before it is counted
    await new Promise(resolve => setTimeout(resolve, 50))
    const text = printed.slice(from)
    perRun.push({
      cpuUs: cpuBetween(before, after).cpuNs / requests / 1000,
      compiles: countOptimizingCompiles(text),
      thrownAway: text.split('\n').filter(line => STORM.test(line)).length
    })
  }
  server.kill('SIGTERM')
  return perRun
}

async function main (trials, runs) {
  for (const resetsFirst of [false, true]) {
    console.log(resetsFirst ? 'with the resets first:' : 'as until 2026-12-01:')
    for (let number = 1; number <= trials; number++) {
      const perRun = await trial(resetsFirst, runs)
      const storms = perRun
        .map((run, index) => run.thrownAway ? `run ${index + 1}: ${run.thrownAway}` : null)
        .filter(Boolean)
      console.log(`  trial ${number}: thrown away ${storms.length ? storms.join(', ') : 'none'}; ` +
        `compiles ${perRun.map(run => run.compiles).join(' ')}; ` +
        `µs a request ${perRun.map(run => run.cpuUs.toFixed(1)).join(' ')}`)
    }
  }
}

runScript(module, {
  args: [0, 0],
  flags: { trials: { type: 'string' }, runs: { type: 'string' } },
  check: (args, flags) => {
    wholeNumber(flags.trials ?? '3', 'trials', 1, 1000)
    wholeNumber(flags.runs ?? '10', 'runs', 1, 1000)
  },
  run: (args, flags) => main(Number(flags.trials ?? 3), Number(flags.runs ?? 10))
})
