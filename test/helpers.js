'use strict'
// What several test files share: running bench.js, the check of a refusal, waiting for
// things to happen with a deadline, temporary folders, and the arguments of the
// shortest runs.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const assert = require('node:assert/strict')
const { after } = require('node:test')
const { spawnSync } = require('node:child_process')

const ROOT = path.resolve(__dirname, '..')
const FIXTURES = path.join(__dirname, 'fixtures')

// The shortest bench a test can ask for: one run, unwarmed, of 1 MiB, no other pass; and
// that of C's reader alone at 4 KiB.
const ONE_RUN = ['--runs', '1', '--warmup', '0', '--mib', '1', '--no-strace', '--no-gc', '--no-cost']
const TINY = ['--only', 'c', '--sizes', '4096', ...ONE_RUN]
// The fewest calls and reads of a call ladder: a test checks answers, never speed.
const TINY_LADDER = { processes: 1, rounds: 2, calls: 1000, reads: 256 }

// node bench.js ARGS in the lab's folder, with env added to this process's.
function bench (args, env = {}) {
  return spawnSync(process.execPath, [path.join(ROOT, 'bench.js'), ...args], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 300000
  })
}

// A refusal: exit 2 and one line on stderr that matches `message`.
function assertRefused (result, message) {
  assert.equal(result.error, undefined, `did not finish: ${result.error}`)
  assert.equal(result.status, 2, result.stderr + result.stdout)
  assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
  assert.match(result.stderr.trim(), message)
}

// text as a RegExp matches it, literally: a path in a message the test expects.
const escaped = text => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

// Polls every 20 ms until check() returns something truthy, failing after deadlineMs.
async function waitFor (check, deadlineMs, what) {
  const giveUp = Date.now() + deadlineMs
  for (;;) {
    const value = check()
    if (value) return value
    if (Date.now() > giveUp) throw new Error(`gave up after ${deadlineMs} ms waiting for ${what}`)
    await new Promise(resolve => setTimeout(resolve, 20))
  }
}

// The command names of pid's children, from /proc (a child gone between the listing
// and the read is skipped).
function childrenOf (pid) {
  return children(pid).map(child => child.name)
}

// The pids of pid's children.
function childrenPids (pid) {
  return children(pid).map(child => child.pid)
}

function children (pid) {
  const found = []
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let stat
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
    } catch {
      continue
    }
    const close = stat.lastIndexOf(')')
    const [, ppid] = stat.slice(close + 2).split(' ')
    if (Number(ppid) === pid) found.push({ pid: Number(entry), name: stat.slice(stat.indexOf('(') + 1, close) })
  }
  return found
}

// A run's log as its summaries read it: a disturbed try that bench measured again is kept
// in the file, superseded, but is no run of its cell (lib/foreign.js).
function readRuns (file) {
  return fs.readFileSync(file, 'utf8').trim().split('\n').map(line => JSON.parse(line)).filter(record => !record.superseded)
}

function readJson (file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'))
}

// Asserts that two numbers agree to `digits` decimal places.
function close (actual, expected, digits = 9) {
  assert.ok(Math.abs(actual - expected) < 10 ** -digits, `${actual} is not ${expected}`)
}

// A maker of new, empty temporary folders, named prefix (and name-) and a random tail,
// all removed once the test file's tests are done.
function tempFolders (prefix) {
  const made = []
  after(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true })
  })
  return (name = '') => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), name ? `${prefix}${name}-` : prefix))
    made.push(dir)
    return dir
  }
}

// test/fixtures/seccomp-deny.c built into dir: the command prefix that runs a command with
// `calls` (uring or perf) refused by seccomp, as a container's default profile refuses them.
function seccompDeny (dir, calls) {
  const binary = path.join(dir, 'seccomp-deny')
  if (!fs.existsSync(binary)) {
    const source = path.join(FIXTURES, 'seccomp-deny.c')
    const built = spawnSync('cc', ['-O2', '-Wall', '-Wextra', '-Werror', '-o', binary, source], { encoding: 'utf8' })
    assert.equal(built.status, 0, built.stderr)
  }
  return [binary, calls]
}

module.exports = {
  bench,
  assertRefused,
  escaped,
  waitFor,
  childrenOf,
  childrenPids,
  readRuns,
  readJson,
  close,
  tempFolders,
  seccompDeny,
  FIXTURES,
  ONE_RUN,
  TINY,
  TINY_LADDER
}
