'use strict'
// strace attached to running processes for the time some work takes (lib/strace.js
// straceDuring, the db experiment's strace pass): the processes under one are traced too,
// a strace that cannot attach is its own failure and the work never runs, and no strace is
// left behind either way.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn, execFileSync } = require('node:child_process')
const { straceDuring, parseStraceSummary } = require('../../lib/strace')
const { childrenOf } = require('../../lib/procfs')

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'strace-attach-'))
process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }))

// The straces writing into `dir` (other tests may run strace meanwhile).
function tracesOf (dir) {
  try {
    return execFileSync('pgrep', ['-f', `^strace .*${dir}`], { encoding: 'utf8' }).trim()
  } catch {
    return '' // pgrep exits 1 when nothing matches
  }
}

const until = async (ready, ms = 5000) => {
  const end = Date.now() + ms
  while (!ready() && Date.now() < end) await new Promise(resolve => setTimeout(resolve, 10))
  return ready()
}

test('a process and the one under it, started before strace attached, are both counted', async () => {
  // a shell that waits on its child, which stats / every 5 ms: the shell makes no call
  // while strace is attached, the child many
  const child = 'setInterval(() => require("fs").statSync("/"), 5); setTimeout(() => {}, 30000)'
  const parent = spawn('sh', ['-c', `${process.execPath} -e '${child}' & wait`], { stdio: 'ignore', detached: true })
  try {
    assert.ok(await until(() => childrenOf(parent.pid).length === 1), 'the shell started no child')
    const file = path.join(scratch, 'tree.txt')
    const worked = await straceDuring([{ pids: [parent.pid], file }], async () => {
      await new Promise(resolve => setTimeout(resolve, 300))
      return null
    }, { timeoutMs: 10000 })
    assert.deepEqual(worked, { tracerFailure: null, workFailure: null })
    const summary = parseStraceSummary(fs.readFileSync(file, 'utf8'))
    const stats = summary.syscalls.filter(row => /stat/.test(row.name)).reduce((sum, row) => sum + row.calls, 0)
    assert.ok(stats >= 20, `the child's stats were not counted: ${JSON.stringify(summary.syscalls)}`)
    assert.equal(tracesOf(scratch), '')
  } finally {
    process.kill(-parent.pid, 'SIGKILL')
  }
})

test('a strace that cannot attach is its own failure: the work does not run', async () => {
  const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' })
  // a process another tracer holds, which no second one may attach to
  const held = spawn('strace', ['-qq', '-o', '/dev/null', 'sleep', '30'], { stdio: 'ignore' })
  let heldPid = null
  try {
    assert.ok(await until(() => childrenOf(held.pid).length === 1), 'strace started no sleep')
    heldPid = childrenOf(held.pid)[0]
    let ran = false
    const worked = await straceDuring([
      { pids: [sleeper.pid], file: path.join(scratch, 'sleeper.txt') },
      { pids: [heldPid], file: path.join(scratch, 'held.txt') }
    ], async () => { ran = true }, { timeoutMs: 5000 })
    assert.match(worked.tracerFailure, new RegExp(`^strace could not attach to ${heldPid} within 5 s$`))
    assert.equal(worked.workFailure, null)
    assert.equal(ran, false)
    // the first strace, attached, was detached
    assert.equal(tracesOf(scratch), '')
    assert.equal(fs.readFileSync(`/proc/${sleeper.pid}/status`, 'utf8').match(/^TracerPid:\s*(\d+)/m)[1], '0')
  } finally {
    sleeper.kill('SIGKILL')
    held.kill('SIGKILL')
    if (heldPid) process.kill(heldPid, 'SIGKILL') // a tracee its tracer left goes on
  }
})

test('work that throws is the work\'s failure, and strace is detached', async () => {
  const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' })
  try {
    const worked = await straceDuring([{ pids: [sleeper.pid], file: path.join(scratch, 'throws.txt') }], async () => {
      throw new Error('the load failed')
    }, { timeoutMs: 5000 })
    assert.deepEqual(worked, { tracerFailure: null, workFailure: 'the load failed' })
    assert.equal(tracesOf(scratch), '')
  } finally {
    sleeper.kill('SIGKILL')
  }
})
