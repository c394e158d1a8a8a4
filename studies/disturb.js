'use strict'
// The lab's disturbances (docs/reproducibility.md), two kinds of what a machine does while
// the lab measures:
//   busy     a busy loop for --busy seconds of every --every, on CPU 0 and CPU 1 in turn:
//            what a user's machine does at times (an editor's indexer, a build, a cron
//            job). The lab sees it as foreign CPU time and measures those steps again.
//   memory   on each CPU of --cpus, a process at idle priority (SCHED_IDLE) copying between
//            two buffers that together are 4 times the last-level cache, for --for seconds:
//            it runs only where nothing else wants the CPU, so it takes little CPU time
//            from what the lab measures, but it takes the shared cache and the memory
//            bandwidth, as another tenant of the host does, where the lab cannot see it.
//
//   node studies/disturb.js [--mode busy|memory] [--every 30] [--busy 3] [--for 600]
//                           [--cpus 0,1] [--mib N]
const { spawnWithParent } = require('../lib/pipeline')
const os = require('node:os')
const buffer = require('node:buffer')
const { runCli, RunFailed } = require('../lib/cli')
const { parseStudyOptions } = require('./per-read')
const { lastLevelCacheBytes } = require('../lib/context')
const { statFields, CLK_TCK } = require('../lib/procfs')
const { wholeNumber, mibCount, UsageError, firstRepeat } = require('../lib/options')
const { allowedCpus } = require('../lib/placement')
const { findOnPath } = require('../lib/runtimes')
const { listJoin } = require('../lib/report/format')

const MiB = 2 ** 20
// The least the memory mode streams, in last-level caches: past it, every pass misses.
const CACHES_STREAMED = 4

const USAGE = `usage: node studies/disturb.js [--mode busy|memory] [options]
  --mode M         busy (default): a busy loop of --busy seconds every --every seconds,
                   on --cpus in turn; memory: on each of --cpus, a process at idle priority
                   (SCHED_IDLE) streaming through --mib of memory: the caches and memory
                   bandwidth taken, little CPU time
  --every S        busy: a burst every S seconds (default 30)
  --busy S         busy: each burst a busy loop of S seconds, less than --every (default 3)
  --for S          stop after S seconds (default 600)
  --cpus A,B,...   the CPUs (default: busy the first two it may use; memory the first)
  --mib N          memory: MiB streamed, at least 4 times the last-level cache (default:
                   4 times it)
  --help           this text`

// llcBytes and usable (the CPUs this process may run on) are this machine's unless given.
function parseOptions (argv, llcBytes = lastLevelCacheBytes(), usable = allowedCpus()) {
  const text = { type: 'string' }
  const spec = { mode: text, every: text, busy: text, for: text, cpus: text, mib: text }
  // a week: a timer longer than 2^31 ms (24.8 days) fires at once, and --for 9999999999999
  // ended the disturbance as it began (a review)
  const MAX_SECONDS = 7 * 24 * 3600
  return parseStudyOptions(argv, spec, USAGE, values => {
    const mode = values.mode ?? 'busy'
    if (!['busy', 'memory'].includes(mode)) throw new Error(`--mode takes busy or memory, not '${mode}'`)
    const options = {
      mode,
      every: wholeNumber(values.every ?? '30', 'every', 1, MAX_SECONDS),
      busy: wholeNumber(values.busy ?? '3', 'busy', 1, MAX_SECONDS),
      total: wholeNumber(values.for ?? '600', 'for', 1, MAX_SECONDS),
      // by default the first two CPUs it may use in turn (busy), or the first (memory)
      cpus: values.cpus === undefined
        ? usable.slice(0, mode === 'busy' ? 2 : 1)
        : values.cpus.split(',').map(cpu => wholeNumber(cpu, 'cpus', 0))
    }
    // the other mode's options first: "--busy 3 must be less than --every 3" answered
    // --mode memory --every 3 (a review)
    const busyOnly = ['every', 'busy'].find(name => values[name] !== undefined)
    if (mode === 'memory' && busyOnly) {
      throw new Error(`--${busyOnly} is the busy mode's: the memory mode streams all along; drop it`)
    }
    if (mode === 'busy' && values.mib !== undefined) throw new Error('--mib is the memory mode\'s: add --mode memory')
    if (options.busy >= options.every) {
      throw new Error(`--busy ${options.busy} must be less than --every ${options.every}: ` +
        'give a shorter --busy or a longer --every')
    }
    const twice = firstRepeat(options.cpus)
    if (twice !== undefined) throw new Error(`--cpus names CPU ${twice} twice; name each CPU once`)
    // taskset's refusal of a CPU the process may not use went unseen: nothing was disturbed
    const unusable = options.cpus.find(cpu => !usable.includes(cpu))
    if (unusable !== undefined) {
      throw new Error(`--cpus ${unusable} is not a CPU this process may use; these are ${usable.join(',')}`)
    }
    if (mode === 'busy' && options.total < options.every) {
      throw new Error(`--for ${options.total} ends before the first burst, at --every ${options.every}: ` +
        'give a longer --for')
    }
    if (mode === 'busy') return options
    return { ...options, bytes: streamedBytes(values.mib, llcBytes, options.cpus.length) }
  })
}

// The bytes the memory mode streams on each of its CPUs: --mib, or 4 last-level caches, never
// fewer. freeBytes: the machine's free memory unless given.
function streamedBytes (mib, llcBytes, streamers = 1, freeBytes = os.freemem()) {
  if (llcBytes === null) {
    if (mib === undefined) throw new Error('this machine names no last-level cache in sysfs: give --mib')
  }
  const least = llcBytes === null ? 0 : CACHES_STREAMED * llcBytes
  if (mib === undefined) return least
  const bytes = mibCount(mib, 'mib') * MiB
  // each streamer allocates them all at once: more than the machine has free fails, or swaps
  const available = Math.floor(freeBytes / MiB)
  if (bytes * streamers > available * MiB) {
    const each = streamers > 1 ? ` on each of ${streamers} CPUs` : ''
    throw new Error(`--mib ${mib}${each} is more than this machine's available memory (${available} MiB): give less`)
  }
  // a buffer is one of its two halves; past Node's largest the streamer died at once
  if (bytes / 2 > buffer.constants.MAX_LENGTH) {
    throw new Error(`--mib ${mib} is more than twice the largest buffer Node allocates ` +
      `(${Math.floor(buffer.constants.MAX_LENGTH / MiB)} MiB): give less`)
  }
  if (bytes < least) {
    throw new Error(`--mib ${mib} is less than ${CACHES_STREAMED} times the last-level cache ` +
      `(${llcBytes / MiB} MiB): give at least ${least / MiB}`)
  }
  return bytes
}

const sleep = seconds => new Promise(resolve => setTimeout(resolve, seconds * 1000))
// Now, in seconds of the monotonic clock: this VM's wall clock jumped 8 s during a streamer's
// 3 s run, which then said "27% in 11 s" (test/e2e/disturb.test.js, 2026-12-01).
const secondsNow = () => performance.now() / 1000

// A process's end as a sentence, once it starts or ends before it is asked to.
const endOf = child => new Promise(resolve => {
  child.once('error', err => resolve(`did not start: ${err.message}`))
  child.once('exit', (code, signal) => resolve(`ended by itself (${signal ?? code})`))
})

async function busyLoops ({ every, busy, total, cpus }, stopping) {
  let loop = null
  stopping(() => loop?.kill('SIGKILL'))
  // the bursts that end within --for, each at the end of its --every (--for of one --every: one)
  for (let burst = 0; burst < Math.floor(total / every); burst++) {
    await sleep(every - busy)
    const cpu = cpus[burst % cpus.length]
    console.log(`${new Date().toISOString()} busy loop on CPU ${cpu} for ${busy} s`)
    // dies with this process however it ends (kill -9, a crash, a closed terminal): a loop left
    // behind would disturb every later measurement unseen
    loop = spawnWithParent(['taskset', '-c', String(cpu), 'sh', '-c', 'while :; do :; done'], { stdio: 'ignore' })
    const failed = await Promise.race([sleep(busy).then(() => null), endOf(loop)])
    // the CPU time the loop took, read before it is killed: a loop the kernel kept off its
    // CPU disturbed less than the line above says
    const took = failed ? null : cpuSeconds(loop.pid)
    loop.kill('SIGKILL')
    loop = null
    if (failed) throw new RunFailed(`the busy loop on CPU ${cpu} ${failed}`)
    console.log(`${new Date().toISOString()} busy loop on CPU ${cpu}: ${took?.toFixed(1) ?? '?'} s of CPU in ${busy} s`)
  }
}

// Two buffers of half the bytes each, copied into each other for ever: a read and a write
// stream through memory (memcpy, inside Buffer.copy), every page touched first.
const STREAM = 'const half = Math.floor(Number(process.argv[1]) / 2);' +
  'const a = Buffer.alloc(half, 1); const b = Buffer.alloc(half, 2);' +
  'for (;;) { a.copy(b); b.copy(a) }'

// The CPU seconds a process has had, or null once it is gone.
function cpuSeconds (pid) {
  try {
    const fields = statFields(pid)
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK
  } catch {
    return null
  }
}

async function memoryStreams ({ total, cpus, bytes }, stopping) {
  const streams = cpus.map(cpu => ({
    cpu,
    child: spawnWithParent(['chrt', '--idle', '0', 'taskset', '-c', String(cpu), process.execPath, '-e', STREAM,
      String(bytes)], { stdio: ['ignore', 'ignore', 'inherit'] })
  }))
  const started = secondsNow()
  // setpriv, chrt and taskset exec what they run: the pid is the streamer's
  const report = () => {
    const wall = secondsNow() - started
    for (const { cpu, child } of streams) {
      const cpuTime = cpuSeconds(child.pid)
      const share = cpuTime === null ? 'gone' : `${cpuTime.toFixed(1)} s of CPU, ${(100 * cpuTime / wall).toFixed(0)}%`
      console.log(`${new Date().toISOString()} streamer on CPU ${cpu}: ${share} in ${wall.toFixed(0)} s`)
    }
  }
  const stop = () => {
    report()
    for (const { child } of streams) child.kill('SIGKILL')
  }
  stopping(stop)
  console.log(`${new Date().toISOString()} streaming ${Math.round(bytes / MiB)} MiB at idle priority ` +
    `(SCHED_IDLE) on CPU ${cpus.join(', ')} for ${total} s`)
  const failed = await Promise.race([
    ...streams.map(({ cpu, child }) => endOf(child).then(end => `the streamer on CPU ${cpu} ${end}`)),
    sleep(total).then(() => null)
  ])
  stop()
  if (failed) throw new RunFailed(`${failed}: setpriv, chrt and taskset (util-linux) must run it`)
}

// What each mode starts its processes with: without them it would disturb nothing.
const TOOLS = { busy: ['setpriv', 'taskset'], memory: ['setpriv', 'chrt', 'taskset'] }

async function disturb (options) {
  const missing = TOOLS[options.mode].filter(tool => findOnPath(tool) === null)
  if (missing.length) {
    throw new UsageError(`${listJoin(missing)} not found on PATH: apt-get install util-linux`)
  }
  const stops = []
  const stopAll = () => { for (const stop of stops.splice(0)) stop() }
  // a stop asked for is how a disturbance beside a run is meant to end: not a failure
  const onSignal = () => { stopAll(); process.exit(0) }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, onSignal)
  // its log piped into a reader that went away (| head): stop, not a stack
  process.stdout.on('error', err => {
    stopAll()
    process.exit(err.code === 'EPIPE' ? 0 : 1)
  })
  const run = options.mode === 'busy' ? busyLoops : memoryStreams
  await run(options, stop => stops.push(stop))
  return 0
}

if (require.main === module) runCli({ name: 'disturb.js', usage: USAGE, parse: parseOptions, run: disturb })

module.exports = { parseOptions, streamedBytes }
