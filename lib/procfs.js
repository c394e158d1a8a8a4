'use strict'
// What the lab reads of a process from /proc, in one place.
const fs = require('node:fs')
const { proportionInterval } = require('./stats')

// USER_HZ, the unit of /proc/stat and /proc/PID/stat: 100 on every architecture Linux
// runs the lab on (sysconf(_SC_CLK_TCK), which Node cannot call).
const CLK_TCK = 100

// The fields of /proc/PID/stat after the command's closing parenthesis (the command may
// itself hold spaces and parentheses): [0] is the state, [11] utime, [12] stime, [13]
// cutime, [19] the start time. Throws where the process is gone.
function statFields (pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
}

// A file's text, or '' where it cannot be read: a process gone, a file not yet written.
function readText (file) {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}

// The pids of process `pid`'s children, of every thread (a child belongs to the thread that
// forked it); none once it has gone.
function childrenOf (pid) {
  let tasks
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`)
  } catch {
    return []
  }
  return tasks.flatMap(task =>
    readText(`/proc/${pid}/task/${task}/children`).trim().split(/\s+/).filter(Boolean).map(Number))
}

// The pids of every process under `pid` (nginx's worker under its master, mini_httpd's child
// per connection), parents before their children; one may have just ended.
function descendantsOf (pid) {
  const found = []
  const waiting = childrenOf(pid)
  while (waiting.length) {
    const child = waiting.shift()
    found.push(child)
    waiting.push(...childrenOf(child))
  }
  return found
}

// A process's command line, its arguments joined by spaces; '' once it has gone.
const commandLine = pid => readText(`/proc/${pid}/cmdline`).replaceAll('\0', ' ')

// Where a process's CPU time went, user space or the kernel, over several measured spans
// ({ userTicks, systemTicks } each, /proc/PID/stat's utime and stime): the ticks pooled,
// since a span of a second holds some tens of them. The kernel's tick accounting counts each
// of its ticks (CONFIG_HZ a second, at least 100) whole where it fell, and reports them in
// units of 10 ms, so the ticks are at most as many as its samples and the share's interval
// (Wilson's, at 95%, over the ticks) holds at least that level. null where the spans hold no
// ticks (older records, or spans too short to be ticked).
function userShareOfTicks (spans) {
  const counted = spans.filter(span => Number.isFinite(span?.userTicks) && Number.isFinite(span?.systemTicks))
  const user = counted.reduce((sum, span) => sum + span.userTicks, 0)
  const ticks = user + counted.reduce((sum, span) => sum + span.systemTicks, 0)
  return ticks > 0 ? { share: user / ticks, ticks, interval: proportionInterval(user, ticks) } : null
}

// What userShareOfTicks's share is, for a run's meanings.
const USER_SHARE_MEANING = 'where that CPU time went: the share of the process\'s clock ticks over ' +
  'the runs (/proc/PID/stat\'s utime and stime, every thread, in units of 10 ms; the kernel counts ' +
  'each of its ticks whole where it fell) that fell in user space, its own code and its runtime\'s, ' +
  'the rest in the kernel on its behalf (its system calls, the network stack\'s work done as it ran); ' +
  'interval: Wilson\'s at 95% over the ticks, which are no more than the kernel\'s samples'

module.exports = {
  CLK_TCK, statFields, readText, childrenOf, descendantsOf, commandLine, userShareOfTicks, USER_SHARE_MEANING
}
