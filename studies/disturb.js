'use strict'
// The lab's light disturbance (docs/reproducibility.md): a busy loop for --busy seconds
// of every --every, on CPU 0 and CPU 1 in turn, for --for seconds: what a user's machine
// does at times (an editor's indexer, a build, a cron job) while the lab measures. The
// goals must hold under it: bench.js finds the steps it lands on and measures them again.
//
//   node studies/disturb.js [--every 30] [--busy 3] [--for 600] [--cpus 0,1]
const { spawn } = require('node:child_process')
const { runCli } = require('../lib/cli')
const { parseStudyOptions } = require('./per-read')

const USAGE = `usage: node studies/disturb.js [--every S] [--busy S] [--for S] [--cpus A,B,...]
  --every S        a burst every S seconds (default 30)
  --busy S         each burst a busy loop of S seconds, less than --every (default 3)
  --for S          stop after S seconds (default 600)
  --cpus A,B,...   the CPUs the bursts take in turn (default 0,1)
  --help           this text`

function parseOptions (argv) {
  const text = { type: 'string' }
  const spec = { every: text, busy: text, for: text, cpus: text }
  return parseStudyOptions(argv, spec, USAGE, values => {
    const options = {
      every: Number(values.every ?? 30),
      busy: Number(values.busy ?? 3),
      total: Number(values.for ?? 600),
      cpus: (values.cpus ?? '0,1').split(',').map(Number)
    }
    const seconds = [options.every, options.busy, options.total]
    if (!seconds.every(value => value > 0) || options.busy >= options.every ||
      options.cpus.some(cpu => !Number.isInteger(cpu) || cpu < 0)) {
      throw new Error('--every, --busy and --for take seconds (--busy less than --every), ' +
        '--cpus CPU numbers such as 0,1')
    }
    return options
  })
}

const sleep = seconds => new Promise(resolve => setTimeout(resolve, seconds * 1000))

async function disturb ({ every, busy, total, cpus }) {
  let loop = null
  const stop = () => { loop?.kill('SIGKILL'); process.exit(0) }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  const started = Date.now()
  for (let burst = 0; (Date.now() - started) / 1000 + every <= total; burst++) {
    await sleep(every - busy)
    const cpu = cpus[burst % cpus.length]
    console.log(`${new Date().toISOString()} busy loop on CPU ${cpu} for ${busy} s`)
    loop = spawn('taskset', ['-c', String(cpu), 'sh', '-c', 'while :; do :; done'], { stdio: 'ignore' })
    await sleep(busy)
    loop.kill('SIGKILL')
    loop = null
  }
  return 0
}

runCli({ name: 'disturb.js', usage: USAGE, parse: parseOptions, run: disturb })
