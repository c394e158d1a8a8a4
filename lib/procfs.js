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

// What a process's descriptor `fd` is open on ('pipe:[123]', a path), or '' where it is not
// open or the process has gone: two ends of one pipe read alike.
function descriptorTarget (pid, fd) {
  try {
    return fs.readlinkSync(`/proc/${pid}/fd/${fd}`)
  } catch {
    return ''
  }
}

// A live process's memory: { maps (the text of /proc/PID/maps), read (address, length) →
// Buffer, close }. Throws where it cannot be read: gone (a zombie's map is empty), or its
// memory closed to this one (reading it needs ptrace's permission, which an ancestor has
// under Yama's default). read throws where fewer bytes than asked came back.
function processMemory (pid) {
  const maps = fs.readFileSync(`/proc/${pid}/maps`, 'utf8')
  if (maps.trim() === '') throw new Error(`process ${pid} has no memory map (it has ended)`)
  const fd = fs.openSync(`/proc/${pid}/mem`, 'r')
  const read = (address, length) => {
    const bytes = Buffer.alloc(length)
    const got = fs.readSync(fd, bytes, 0, length, address)
    if (got < length) throw new Error(`read ${got} of ${length} bytes at 0x${address.toString(16)}`)
    return bytes
  }
  return { maps, read, close: () => fs.closeSync(fd) }
}

module.exports = {
  CLK_TCK, statFields, readText, childrenOf, descendantsOf, commandLine, descriptorTarget, processMemory
}
