'use strict'
// What every experiment's strace pass shares: the summary table `strace -c` writes
// (with -o FILE), parsed:
//   % time     seconds  usecs/call     calls    errors syscall
//   ------ ----------- ----------- --------- --------- ----------------
//    99.17    0.081532           4     16385         1 read
// The errors column is blank when a syscall never failed. And whether strace may trace
// here. The stdio pass's traces of each call: experiments/stdio/strace.js.
const fs = require('node:fs')
const { execFileSync, spawn } = require('node:child_process')
const { readText, descendantsOf } = require('./procfs')
const { within } = require('./wait')

// strace needs ptrace, which a container without SYS_PTRACE refuses: find out once.
function probePtrace () {
  try {
    execFileSync('strace', ['-q', '-c', '-o', '/dev/null', 'true'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 20000 })
    return { available: true, reason: null }
  } catch (err) {
    if (err.code === 'ENOENT') return { available: false, reason: 'strace is not installed: apt-get install strace' }
    const detail = String(err.stderr || err.message).trim().split('\n')[0]
    return { available: false, reason: `strace cannot trace here (${detail}); in Docker add --cap-add SYS_PTRACE` }
  }
}

const ROW = /^\s*([\d.]+)\s+([\d.]+)\s+(\d+)\s+(\d+)\s+(?:(\d+)\s+)?(\S+)\s*$/

function parseStraceSummary (text) {
  const syscalls = []
  let total = null
  for (const line of text.split('\n')) {
    const match = ROW.exec(line)
    if (!match) continue
    const row = {
      name: match[6],
      calls: Number(match[4]),
      errors: match[5] === undefined ? 0 : Number(match[5]),
      seconds: Number(match[2]),
      usecsPerCall: Number(match[3]),
      percentTime: Number(match[1])
    }
    if (row.name === 'total') total = row
    else syscalls.push(row)
  }
  if (total === null) throw new Error('not an strace -c summary: no "total" row')
  syscalls.sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name))
  const calls = name => syscalls.find(row => row.name === name)?.calls ?? 0
  return {
    syscalls,
    totalCalls: total.calls,
    totalErrors: total.errors,
    totalSeconds: total.seconds,
    // Every thread but the first is born of clone/clone3; fork-style clones of whole
    // processes do not happen in these readers.
    threadsStarted: calls('clone') + calls('clone3'),
    reads: calls('read')
  }
}

const attachArgv = (pids, file) =>
  ['strace', '-qq', '-f', '-c', '-o', file, ...pids.flatMap(pid => ['-p', String(pid)])]

// Whether every thread of `pids` is traced by `tracer` (its TracerPid); a thread that has
// ended (its status gone) needs no tracer. The threads are listed anew each time.
const allTraced = (pids, tracer) => pids.every(pid => {
  let tasks
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`)
  } catch {
    return true
  }
  return tasks.every(task => {
    const status = readText(`/proc/${pid}/task/${task}/status`)
    return status === '' || /^TracerPid:\s*(\d+)/m.exec(status)?.[1] === String(tracer)
  })
})

// strace -f -c attached to running processes, every thread of each and of every process
// under each (nginx's worker under its master; -f follows those forked later); resolves
// once all are traced, to { detach() }, which stops strace with SIGINT, so that it detaches
// and writes its summary, and resolves once it has.
// prefix: what runs strace (taskset, to place it).
async function attachStrace (pids, file, timeoutMs, { prefix = [] } = {}) {
  const every = [...new Set(pids.flatMap(pid => [pid, ...descendantsOf(pid)]))]
  const [command, ...args] = [...prefix, ...attachArgv(every, file)]
  const child = spawn(command, args, { stdio: 'ignore' })
  const exited = new Promise(resolve => child.on('exit', resolve))
  child.on('error', () => {})
  const started = performance.now()
  // child.pid is strace's own: taskset, which places it, execs it (a prefix that forked
  // would leave strace's pid unknown here)
  while (!allTraced(every, child.pid)) {
    if (child.exitCode !== null || child.signalCode !== null || performance.now() - started > timeoutMs) {
      // gone before this throws: nothing started is left behind
      child.kill('SIGKILL')
      await within(exited, timeoutMs)
      throw new Error(`strace could not attach to ${every.join(', ')} within ${timeoutMs / 1000} s`)
    }
    await new Promise(resolve => setTimeout(resolve, 10))
  }
  return {
    detach: async () => {
      child.kill('SIGINT')
      if (!(await within(exited, timeoutMs)).done) child.kill('SIGKILL')
    }
  }
}

// strace attached to each target ({ pids, file, prefix: what runs its strace }) while `work`
// runs, and detached from all however it ended. Resolves to { tracerFailure: strace's own
// problem (then work did not run), workFailure: what work resolved to or threw (null when it
// went right) }: a server that answered wrongly is the server's failure, a strace that could
// not attach is not.
async function straceDuring (targets, work, { timeoutMs }) {
  const tracers = []
  let tracerFailure = null
  let workFailure = null
  try {
    for (const { pids, file, prefix } of targets) {
      tracers.push(await attachStrace(pids, file, timeoutMs, { prefix }))
    }
  } catch (err) {
    tracerFailure = err.message
  }
  if (!tracerFailure) {
    try {
      workFailure = await work()
    } catch (err) {
      workFailure = err.message
    }
  }
  for (const tracer of tracers) await tracer.detach()
  return { tracerFailure, workFailure }
}

// A summary's calls as records keep them: [{ name, calls, errors }].
const callCounts = summary =>
  summary.syscalls.map(({ name, calls, errors }) => ({ name, calls, errors }))

module.exports = { probePtrace, parseStraceSummary, attachArgv, straceDuring, callCounts }
