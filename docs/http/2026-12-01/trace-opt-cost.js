'use strict'
// What V8's --trace-opt costs a server the lab times (experiments/http/measure.js gcTraceOf),
// and how much of a timed run's CPU that can be. --trace-opt is a tracing flag ("trace
// optimized compilation", V8's flag-definitions.h): it prints lines as an optimizing compile
// is marked, starts and ends, 3 for a compile asked for at once, 3-4 for the servers'
// concurrent ones. What it costs is measured as the difference in CPU time between a process
// traced and one not: Node (the lab's, lib/runtimes.js) made to compile --compiles small
// functions with TurboFan (%OptimizeFunctionOnNextCall, one at a time on its main thread), its
// stdout line-buffered into a pipe as the lab runs its servers (stdbuf -oL), on CPU 1, with
// --trace-opt and without in turns, --trials times; the CPU time of the compiling loop
// (process.cpuUsage), the lines and the compiles (lib/jittrace.js) with it. Then, for each
// run's log given, its timed runs' compiles per second of the server's CPU (median and most)
// and what the difference costs at that rate, as a share of the server's CPU: at the median
// difference and at the largest seen (not a bound: the differences spread with the machine).
//
//   node docs/http/2026-12-01/trace-opt-cost.js [--trials N] [--compiles N] [RUN/all.jsonl[.gz]...]
const { spawn, execFileSync } = require('node:child_process')
const { runScript, readableFile, readJsonLines, UsageError } = require('../../script-args')
const { wholeNumber } = require('../../../lib/options')
const { countOptimizingCompiles } = require('../../../lib/jittrace')
const { median } = require('../../../lib/stats')
const { dataPoints } = require('../../../lib/run-log')
const { runtimes } = require('../../../lib/runtimes')

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
  const node = runtimes.node.locate()
  const argv = ['taskset', '-c', CPU, 'stdbuf', '-oL', '-eL', node, ...flags, '-e', CHILD, String(compiles)]
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
  const timed = run => run.ok && ['http', 'db'].includes(run.phase) && Number.isFinite(run.compiles)
  const rates = dataPoints(readJsonLines(file, LOG)).filter(timed)
    .map(run => run.compiles / (run.server.cpuNs / 1e9))
  if (rates.length === 0) throw new UsageError(`${file} holds no timed run whose compiles were counted; give ${LOG}`)
  return rates
}

async function main (logs, { trials, compiles }) {
  const rates = logs.map(file => [file, compileRates(file)])
  const pairs = []
  for (let i = 0; i < trials; i++) {
    // the order alternates, so that neither side always runs first
    const pair = {}
    for (const traced of i % 2 ? [true, false] : [false, true]) {
      pair[traced ? 'traced' : 'untraced'] = await trial(traced, compiles)
    }
    pairs.push(pair)
  }
  const perCompile = run => run.cpuUs / compiles
  const extra = pairs.map(pair => perCompile(pair.traced) - perCompile(pair.untraced))
  const { lines, compiles: counted } = pairs[0].traced
  const list = values => values.map(value => value.toFixed(1)).join(' ')
  const version = execFileSync(runtimes.node.locate(), ['--version'], { encoding: 'utf8' }).trim()
  console.log(`Node ${version}, ${compiles} TurboFan compiles a trial on CPU ${CPU}, stdout ` +
    `line-buffered into a pipe; ${trials} trials each way, in turns`)
  console.log(`  with --trace-opt: ${lines} lines, ${counted} compiles counted ` +
    `(${(lines / compiles).toFixed(1)} lines a compile)`)
  console.log(`  CPU µs a compile, untraced: ${list(pairs.map(pair => perCompile(pair.untraced)))}`)
  console.log(`  CPU µs a compile, traced:   ${list(pairs.map(pair => perCompile(pair.traced)))}`)
  const [typical, largest] = [median(extra), Math.max(...extra, 0)]
  console.log(`  traced less untraced, µs a compile: ${list(extra)}; median ${typical.toFixed(1)}, ` +
    `largest ${largest.toFixed(1)}`)
  const share = (rate, cost) => `${(100 * rate * cost / 1e6).toFixed(3)}%`
  for (const [file, values] of rates) {
    const [middle, most] = [median(values), Math.max(...values)]
    console.log(`${file}: ${values.length} timed runs, compiles per CPU-second median ${middle.toFixed(1)}, ` +
      `most ${most.toFixed(1)}: the difference takes ${share(middle, typical)} of the server's CPU at ` +
      `the median run and ${share(most, typical)} at the most compiling one (at the largest difference ` +
      `seen, ${share(middle, largest)} and ${share(most, largest)})`)
  }
}

// --trials and --compiles as given, or their defaults
const counts = flags => ({
  trials: wholeNumber(flags.trials ?? '10', 'trials', 2),
  compiles: wholeNumber(flags.compiles ?? '2000', 'compiles', 10)
})

runScript(module, {
  args: [0, Infinity],
  each: readableFile,
  flags: { trials: { type: 'string' }, compiles: { type: 'string' } },
  check: (args, flags) => counts(flags),
  run: (logs, flags) => main(logs, counts(flags))
})
