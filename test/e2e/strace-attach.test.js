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
const { childrenOf, readText } = require('../../lib/procfs')

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'strace-attach-'))
process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }))

// The straces writing into `dir` (other tests may run strace meanwhile).
function tracesOf (dir) {
  try {
    return execFileSync('pgrep', ['-a', '-f', `^strace .*${dir}`], { encoding: 'utf8' }).trim()
  } catch {
    return '' // pgrep exits 1 when nothing matches
  }
}

const tracerOf = pid => /^TracerPid:\s*(\d+)/m.exec(readText(`/proc/${pid}/status`))?.[1] ?? null

const until = async (ready, ms = 5000) => {
  const end = Date.now() + ms
  while (!ready() && Date.now() < end) await new Promise(resolve => setTimeout(resolve, 10))
  return ready()
}

test('the process under a traced one, started before strace attached, is traced too', async () => {
  // a shell that waits on its child, which stats / every 5 ms once it says so: the shell
  // makes no call while strace is attached, the child many
  const ready = path.join(scratch, 'ready')
  const child = `setInterval(() => require("fs").statSync("/"), 5); require("fs").writeFileSync("${ready}", "")`
  const parent = spawn('sh', ['-c', `${process.execPath} -e '${child}' & wait`], { stdio: 'ignore', detached: true })
  try {
    assert.ok(await until(() => fs.existsSync(ready), 20000), 'the shell\'s child never started')
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
    // its child, once strace traces it and it runs sleep
    const tracedSleep = () => childrenOf(held.pid).find(pid =>
      tracerOf(pid) === String(held.pid) && readText(`/proc/${pid}/cmdline`).startsWith('sleep'))
    assert.ok(await until(() => tracedSleep() !== undefined, 20000), 'strace started no sleep')
    heldPid = tracedSleep()
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
    assert.equal(tracerOf(sleeper.pid), '0')
  } finally {
    sleeper.kill('SIGKILL')
    held.kill('SIGKILL')
    // strace kills what it started as it dies, but not always before this
    try {
      if (heldPid) process.kill(heldPid, 'SIGKILL')
    } catch {}
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
