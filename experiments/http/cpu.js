'use strict'
// A server's CPU time from /proc, thread by thread, and wrk's from its parent's.
const fs = require('node:fs')
const { CLK_TCK, statFields } = require('../../lib/procfs')

// The CPU time of each thread of `pid` (each task's schedstat: ns on a CPU, user and
// system alike, exact where /proc/PID/stat counts ticks of 10 ms) and its count of
// timeslices (schedstat's third field: each time the thread was put on a CPU, after a
// wake-up or a preemption), the process's user and system ticks (which keep the time of
// threads that have ended), its threads and its peak resident memory; null once it has gone.
function processCpu (pid) {
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

// The server's CPU time between two readings of processCpu. A thread that ended between
// them takes its schedstat with it, so then the process's ticks count instead: they keep
// an ended thread's time, to 10 ms. A thread born and ended between the readings is in
// neither list: ticks beyond the threads' sum by more than TICKS_SLACK say it was there.
const TICKS_SLACK = 2
function cpuBetween (before, after) {
  const ended = Object.keys(before.taskNs).filter(task => !(task in after.taskNs))
  const ticks = (after.userTicks + after.systemTicks) - (before.userTicks + before.systemTicks)
  const threadsNs = Object.entries(after.taskNs).reduce((sum, [task, ns]) => sum + ns - (before.taskNs[task] ?? 0), 0)
  const fromTicks = ended.length > 0 || ticks * (1e9 / CLK_TCK) > threadsNs + TICKS_SLACK * (1e9 / CLK_TCK)
  // timeslices of the threads alive at both readings (a reading from before they were
  // counted has none)
  const slices = before.taskSlices && after.taskSlices
    ? Object.entries(after.taskSlices).reduce((sum, [task, count]) => sum + count - (before.taskSlices[task] ?? 0), 0)
    : null
  return {
    cpuNs: fromTicks ? ticks * (1e9 / CLK_TCK) : threadsNs,
    cpuFrom: fromTicks ? 'ticks' : 'schedstat',
    threadsEnded: ended.length,
    slices,
    userTicks: after.userTicks - before.userTicks,
    systemTicks: after.systemTicks - before.systemTicks,
    clkTck: CLK_TCK,
    threads: after.threads,
    maxRssKiB: after.maxRssKiB
  }
}

module.exports = { processCpu, childrenUserNs, childrenCpuNs, cpuBetween }
