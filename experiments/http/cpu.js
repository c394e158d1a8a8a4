'use strict'
// A server's CPU time from /proc, thread by thread and process by process, and wrk's from
// its parent's.
const fs = require('node:fs')
const { CLK_TCK, statFields, descendantsOf } = require('../../lib/procfs')
const { proportionInterval } = require('../../lib/stats')

// The CPU time of a server: of `pid` and of every process under it (nginx's worker beside
// its master, mini_httpd's child per connection), or null once `pid` has gone. Each is read
// as readProcess reads it, under `descendants` by pid.
function processCpu (pid) {
  const root = readProcess(pid)
  if (!root) return null
  const descendants = {}
  for (const child of descendantsOf(pid)) {
    const reading = readProcess(child)
    if (reading) descendants[child] = reading // else it ended between the listing and the read
  }
  return { ...root, descendants }
}

// The CPU time of each thread of `pid` (each task's schedstat: ns on a CPU, user and
// system alike, exact where /proc/PID/stat counts ticks of 10 ms) and its count of
// timeslices (schedstat's third field: each time the thread was put on a CPU, after a
// wake-up or a preemption), the process's user and system ticks (which keep the time of
// threads that have ended), those of its children it has waited for (`reaped`: cutime and
// cstime, which keep the whole time of processes that have ended), its threads, its peak
// resident memory and its minor page faults (minflt: every thread's, each a page the kernel
// had to map on first touch; cminflt those of the children it has waited for); null once it
// has gone.
function readProcess (pid) {
  try {
    const taskNs = {}
    const taskSlices = {}
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      try {
        const fields = fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')
        taskNs[task] = Number(fields[0])
        taskSlices[task] = Number(fields[2])
      } catch {} // a thread that ended between the listing and the read
    }
    const fields = statFields(pid)
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    return {
      taskNs,
      taskSlices,
      userTicks: Number(fields[11]),
      systemTicks: Number(fields[12]),
      reapedUserTicks: Number(fields[13]),
      reapedSystemTicks: Number(fields[14]),
      minorFaults: Number(fields[7]),
      reapedMinorFaults: Number(fields[8]),
      threads: Object.keys(taskNs).length,
      maxRssKiB: Number(/^VmHWM:\s*(\d+)/m.exec(status)?.[1] ?? NaN)
    }
  } catch {
    return null
  }
}

// The user time of this process's children that it has waited for (wrk, once its run
// has ended), from /proc/self/stat's cutime, in ticks of 10 ms.
function childrenUserNs () {
  return Number(statFields('self')[13]) * (1e9 / CLK_TCK)
}

// Their user and system time (cutime and cstime): wrk's whole CPU time.
function childrenCpuNs () {
  const fields = statFields('self')
  return (Number(fields[13]) + Number(fields[14])) * (1e9 / CLK_TCK)
}

// The server's CPU time between two readings of processCpu: each process's, as ownBetween
// takes it, and the whole time of the processes that ended between them, which the kernel
// adds to their parent's reaped ticks when it waits for them (to 10 ms: `cpuFrom` is then
// 'ticks'); what an ended process had at the first reading is taken off, since its reaped
// time holds it again. Processes born and ended between the readings are only in the reaped
// ticks, with their timeslices: where any process ended, `slices` is null, not known.
const NO_PROCESS = {
  taskNs: {},
  taskSlices: {},
  userTicks: 0,
  systemTicks: 0,
  reapedUserTicks: 0,
  reapedSystemTicks: 0,
  minorFaults: 0,
  reapedMinorFaults: 0
}
// Readings of one process alone (readProcess: a database's backends, each its own) count no
// reaped time: the children a process waits for are not its own work there (a postmaster's
// backends).
function cpuBetween (before, after) {
  const tree = 'descendants' in after
  const processes = [[before, after], ...Object.entries(after.descendants ?? {})
    .map(([pid, reading]) => [before.descendants?.[pid] ?? NO_PROCESS, reading])]
  const ended = Object.entries(before.descendants ?? {}).filter(([pid]) => !(pid in (after.descendants ?? {})))
  const own = processes.map(([was, is]) => ownBetween(was, is))
  const reaped = field => {
    if (!tree) return 0
    return processes.reduce((sum, [was, is]) => sum + (is[field] ?? 0) - (was[field] ?? 0), 0) -
      ended.reduce((sum, [, was]) => sum + (was[field] ?? 0), 0)
  }
  const reapedTicks = reaped('reapedUserTicks') + reaped('reapedSystemTicks')
  const endedNs = ended.reduce((sum, [, was]) => sum + sumOf(was.taskNs), 0)
  const sum = key => own.reduce((total, part) => total + part[key], 0)
  const endedSum = key => ended.reduce((total, [, was]) => total + was[key], 0)
  const sliceKnown = ended.length === 0 && reapedTicks === 0 && own.every(part => part.slices !== null)
  return {
    cpuNs: sum('cpuNs') + reapedTicks * (1e9 / CLK_TCK) - endedNs,
    cpuFrom: reapedTicks !== 0 || own.some(part => part.fromTicks) ? 'ticks' : 'schedstat',
    // the ticks of processes that ended and were waited for between the readings
    reapedTicks,
    threadsEnded: sum('threadsEnded'),
    slices: sliceKnown ? sum('slices') : null,
    userTicks: sum('userTicks') + reaped('reapedUserTicks') - endedSum('userTicks'),
    systemTicks: sum('systemTicks') + reaped('reapedSystemTicks') - endedSum('systemTicks'),
    clkTck: CLK_TCK,
    // readings from before faults were counted have none
    minorFaults: processes.every(([was, is]) => Number.isFinite(was.minorFaults) && Number.isFinite(is.minorFaults)) &&
      ended.every(([, was]) => Number.isFinite(was.minorFaults))
      ? processes.reduce((total, [was, is]) => total + is.minorFaults - was.minorFaults, 0) +
        reaped('reapedMinorFaults') - endedSum('minorFaults')
      : null,
    threads: processes.reduce((total, [, is]) => total + is.threads, 0),
    processes: processes.length,
    processesEnded: ended.length,
    // a process that has ended but is not yet waited for (a zombie) has no memory to say
    maxRssKiB: processes.reduce((total, [, is]) => total + (Number.isFinite(is.maxRssKiB) ? is.maxRssKiB : 0), 0)
  }
}

// One process's CPU time between two readings. A thread that ended between them takes its
// schedstat with it, so then the process's ticks count instead: they keep an ended thread's
// time, to 10 ms. A thread born and ended between the readings is in neither list: ticks
// beyond the threads' sum by more than TICKS_SLACK say it was there.
const TICKS_SLACK = 2
function ownBetween (before, after) {
  const threadsEnded = Object.keys(before.taskNs).filter(task => !(task in after.taskNs)).length
  const ticks = (after.userTicks + after.systemTicks) - (before.userTicks + before.systemTicks)
  const threadsNs = Object.entries(after.taskNs).reduce((sum, [task, ns]) => sum + ns - (before.taskNs[task] ?? 0), 0)
  const fromTicks = threadsEnded > 0 || ticks * (1e9 / CLK_TCK) > threadsNs + TICKS_SLACK * (1e9 / CLK_TCK)
  // timeslices of the threads alive at both readings (a reading from before they were
  // counted has none)
  const slices = before.taskSlices && after.taskSlices
    ? Object.entries(after.taskSlices).reduce((sum, [task, count]) => sum + count - (before.taskSlices[task] ?? 0), 0)
    : null
  return {
    cpuNs: fromTicks ? ticks * (1e9 / CLK_TCK) : threadsNs,
    fromTicks,
    threadsEnded,
    slices,
    userTicks: after.userTicks - before.userTicks,
    systemTicks: after.systemTicks - before.systemTicks
  }
}

const sumOf = values => Object.values(values).reduce((sum, value) => sum + value, 0)

// Where a server's CPU time went, user space or the kernel, over the runs of a cell
// (cpuBetween's readings): their utime and stime pooled. Those are not counts of ticks: the
// kernel (tick accounting, as Debian builds it) splits a process's exact run time between
// user and system in the ratio of its timer's samples there (CONFIG_HZ a second, at least 100;
// each counted whole where it fell), in units of 10 ms. So a thread that lives through the
// runs has at least as many samples as units, and Wilson's interval over the units is about
// 95% or wider (the units' truncation aside). A process its timer never sampled is booked
// whole as user time: where processes or threads ended within a run (mini_httpd's fork per
// connection, a thread that ended, one born and ended between the readings: `cpuFrom` 'ticks'),
// null, as where the runs hold no units. A thread born within a run that lives to its end is
// read at the end like the others (its schedstat and its ticks from nought).
function userShareOfRuns (readings) {
  if (readings.length === 0 || !readings.every(reading => reading?.cpuFrom === 'schedstat')) return null
  const user = readings.reduce((sum, reading) => sum + reading.userTicks, 0)
  const units = user + readings.reduce((sum, reading) => sum + reading.systemTicks, 0)
  if (units === 0) return null
  return { share: user / units, cpuSeconds: units / CLK_TCK, interval: proportionInterval(user, units) }
}

const USER_SHARE_MEANING = 'where the server\'s CPU time went (every process and thread): the ' +
  'share of its utime in its utime and stime over the runs (/proc/PID/stat, in units of 10 ms), ' +
  'user space, its own code and its runtime\'s, against the kernel\'s work on its behalf (its system ' +
  'calls, the network stack\'s work done as it ran); the kernel splits the exact run time in the ' +
  'ratio of its timer\'s samples, so the interval is Wilson\'s at about 95% over the units; none ' +
  'where processes or threads ended within a run, as mini_httpd\'s do, since the kernel ' +
  'books one its timer never sampled as user time'

// A run's requests per wake-up: the requests answered over the timeslices the server's
// threads were given (cpuBetween's `slices`); null where they are not known (a thread or a
// process ended within the run, or a run from before they were counted).
const requestsPerSlice = (requests, server) => (server?.slices > 0 ? requests / server.slices : null)

const SLICES_WORDS = 'the timeslices the server\'s threads were given (schedstat\'s third field: each ' +
  'time a thread was put on a CPU, after a wake-up or a preemption)'

module.exports = {
  processCpu,
  readProcess,
  childrenUserNs,
  childrenCpuNs,
  cpuBetween,
  userShareOfRuns,
  requestsPerSlice,
  USER_SHARE_MEANING,
  SLICES_WORDS
}
