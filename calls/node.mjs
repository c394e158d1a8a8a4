// The call ladder in Node: the no-op and getppid through a Node-API addon
// (build/ladder.node, calls/addon.c), the reads through fs.readSync as
// wc/node-sync.js makes them. Run with --allow-natives-syntax, to ask V8 whether
// each loop was optimised.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import { runLadder, noop, syscall, v8Compiled, BLOCK } from './ladder.mjs'

const addon = createRequire(import.meta.url)('../build/ladder.node')
const devNull = fs.openSync('/dev/null', 'r')
const buf = Buffer.allocUnsafe(BLOCK)

// The read loop, as noop and syscall in calls/ladder.mjs: what it calls as arguments,
// and a count of the calls that answered right.
function read (readSync, fd, buf, length, answer, count) {
  for (let i = 0; i < count; i++) if (readSync(fd, buf, 0, length, null) !== answer) return i
  return count
}

const rungs = {
  noop: [noop, addon.noop],
  syscall: [syscall, addon.getppid, process.ppid],
  'empty-read': [read, fs.readSync, devNull, buf, 1, 0],
  'read-256': [read, fs.readSync, 0, buf, BLOCK, BLOCK]
}

runLadder({
  argv: process.argv.slice(2),
  rungs,
  cpuNs: addon.cpuNs,
  compiled: v8Compiled(rungs),
  drain: () => {
    let left = 0
    for (let n; (n = fs.readSync(0, buf, 0, BLOCK, null)) > 0;) left += n
    return left
  }
})
