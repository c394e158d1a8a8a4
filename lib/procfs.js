'use strict'
// What the lab reads of a process from /proc, in one place.
const fs = require('node:fs')

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

module.exports = { CLK_TCK, statFields, readText, childrenOf, descendantsOf, commandLine }
