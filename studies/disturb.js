'use strict'
// The lab's light disturbance (docs/reproducibility.md): a busy loop for --busy seconds
// of every --every, on CPU 0 and CPU 1 in turn, for --for seconds: what a user's machine
// does at times (an editor's indexer, a build, a cron job) while the lab measures. The
// goals must hold under it: bench.js finds the steps it lands on and measures them again.
//
//   node studies/disturb.js [--every 30] [--busy 3] [--for 600] [--cpus 0,1]
const { parseArgs } = require('node:util')
const { spawn } = require('node:child_process')

const { values } = parseArgs({ options: { every: { type: 'string' }, busy: { type: 'string' }, for: { type: 'string' }, cpus: { type: 'string' } } })
const every = Number(values.every ?? 30)
const busy = Number(values.busy ?? 3)
const total = Number(values.for ?? 600)
const cpus = (values.cpus ?? '0,1').split(',').map(Number)
if (![every, busy, total].every(value => value > 0) || busy >= every || cpus.some(cpu => !Number.isInteger(cpu) || cpu < 0)) {
  console.error('disturb.js: --every, --busy and --for take seconds (--busy less than --every), --cpus CPU numbers such as 0,1')
  process.exit(2)
}

const sleep = seconds => new Promise(resolve => setTimeout(resolve, seconds * 1000))
let loop = null
const stop = () => { loop?.kill('SIGKILL'); process.exit(0) }
process.on('SIGINT', stop)
process.on('SIGTERM', stop)

;(async () => {
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
})()
