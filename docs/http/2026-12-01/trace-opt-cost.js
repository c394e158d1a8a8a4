'use strict'
// What V8's --trace-opt costs a server the lab times (experiments/http/measure.js gcTraceOf),
// and how much of a timed run's CPU that can be. --trace-opt changes no decision of V8's: it
// prints a few lines as each optimizing compile starts and ends. So its cost is those lines,
// a compile at a time: Node 26 made to compile --compiles small functions with TurboFan
// (%OptimizeFunctionOnNextCall, one at a time on its main thread), its stdout line-buffered
// into a pipe as the lab runs its servers (stdbuf -oL), on CPU 1, with --trace-opt and without
// in turns, --trials times; the CPU time of the compiling loop (process.cpuUsage), the lines
// and the compiles (lib/jittrace.js) with it. Then, for each run's log given, its timed runs'
// compiles per second of the server's CPU (median and most) and what the traced lines cost at
// that rate, as a share of the server's CPU.
//
//   node docs/http/2026-12-01/trace-opt-cost.js [--trials N] [--compiles N] [RUN/all.jsonl[.gz]...]
const { spawn } = require('node:child_process')
const path = require('node:path')
const { runScript, readableFile, readJsonLines, UsageError } = require('../../script-args')
const { wholeNumber } = require('../../../lib/options')
const { countOptimizingCompiles } = require('../../../lib/jittrace')
const { median } = require('../../../lib/stats')

const LAB = path.join(__dirname, '../../..')
const NODE = path.join(LAB, 'build/node/26.12.1/bin/node')
const CPU = '1'
const LOG = 'an http or db run\'s all.jsonl (or .jsonl.gz) of 2026-12-01 or later'

// Each function's source differs, so that V8 shares no code between them; each is called,
// marked and compiled by TurboFan on its next call, then called. The semicolons keep a line
// that starts with % from continuing the line before it.
const CHILD = `
const count = Number(process.argv[1])
const functions = Array.from({ length: count }, (_, i) =>
  new Function('n', 'let sum = ' + i + '; for (let k = 0; k < n; k++) sum += k * ' + (i % 7 + 1) + '; return sum'))
const before = process.cpuUsage()
for (const f of functions) {
  %PrepareFunctionForOptimization(f);
  f(3); f(4);
  %OptimizeFunctionOnNextCall(f);
  f(5)
}
const used = process.cpuUsage(before)
process.stderr.write(JSON.stringify({ cpuUs: used.user + used.system }) + '\\n')
`

function trial (traced, compiles) {
  const flags = ['--allow-natives-syntax', ...(traced ? ['--trace-opt'] : [])]
  const argv = ['taskset', '-c', CPU, 'stdbuf', '-oL', '-eL', NODE, ...flags, '-e', CHILD, String(compiles)]
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', chunk => { stdout += chunk })
    child.stderr.on('data', chunk => { stderr += chunk })
    child.on('error', reject)
    child.on('close', code => {
      const result = stderr.split('\n').find(line => line.startsWith('{"cpuUs"'))
      if (code !== 0 || !result) return reject(new Error(`node exited ${code}: ${stderr.trim().slice(-300)}`))
      const lines = stdout.split('\n').filter(line => line.startsWith('[')).length
      resolve({ cpuUs: JSON.parse(result).cpuUs, lines, compiles: countOptimizingCompiles(stdout) })
    })
  })
}

// The timed runs' optimizing compiles per second of the server's CPU, in a run's log.
function compileRates (file) {
  const rates = readJsonLines(file, LOG)
    .filter(record => record.ok && ['http', 'db'].includes(record.phase) && Number.isFinite(record.compiles))
    .map(record => record.compiles / (record.server.cpuNs / 1e9))
  if (rates.length === 0) throw new UsageError(`${file} holds no timed run whose compiles were counted; give ${LOG}`)
  return rates
}

async function main (logs, { trials, compiles }) {
  const rates = logs.map(file => [file, compileRates(file)])
  const pairs = []
  for (let i = 0; i < trials; i++) {
    // the order alternates, so that neither side always runs first
    const [first, second] = i % 2 ? [true, false] : [false, true]
    const done = { [first]: await trial(first, compiles), [second]: await trial(second, compiles) }
    pairs.push({ traced: done.true, untraced: done.false })
  }
  const perCompile = run => run.cpuUs / compiles
  const extra = pairs.map(pair => perCompile(pair.traced) - perCompile(pair.untraced))
  const traced = pairs[0].traced
  console.log(`Node 26, ${compiles} TurboFan compiles a trial on CPU ${CPU}, stdout line-buffered into ` +
    `a pipe; ${trials} trials each way, in turns`)
  console.log(`  with --trace-opt: ${traced.lines} lines, ${traced.compiles} compiles counted ` +
    `(${(traced.lines / compiles).toFixed(1)} lines a compile)`)
  console.log(`  CPU µs a compile, untraced: ${pairs.map(pair => perCompile(pair.untraced).toFixed(1)).join(' ')}`)
  console.log(`  CPU µs a compile, traced:   ${pairs.map(pair => perCompile(pair.traced).toFixed(1)).join(' ')}`)
  const cost = median(extra)
  console.log(`  traced less untraced, µs a compile: ${extra.map(value => value.toFixed(1)).join(' ')}; ` +
    `median ${cost.toFixed(1)}, most ${Math.max(...extra).toFixed(1)}`)
  const worst = Math.max(...extra, 0)
  for (const [file, values] of rates) {
    const share = rate => `${(100 * rate * worst / 1e6).toFixed(3)}%`
    console.log(`${file}: ${values.length} timed runs, compiles per CPU-second median ` +
      `${median(values).toFixed(1)}, most ${Math.max(...values).toFixed(1)}: at the most a compile ` +
      `cost above, --trace-opt's lines take ${share(median(values))} of the server's CPU at the ` +
      `median run, ${share(Math.max(...values))} at the most`)
  }
}

runScript(module, {
  args: [0, Infinity],
  each: readableFile,
  flags: { trials: { type: 'string' }, compiles: { type: 'string' } },
  check: (args, flags) => {
    wholeNumber(flags.trials ?? '10', 'trials', 2)
    wholeNumber(flags.compiles ?? '2000', 'compiles', 10)
  },
  run: (logs, flags) => main(logs, {
    trials: wholeNumber(flags.trials ?? '10', 'trials', 2),
    compiles: wholeNumber(flags.compiles ?? '2000', 'compiles', 10)
  })
})
