'use strict'
// What several test files share: running bench.js, the check of a refusal, and waiting
// for things to happen, with a deadline.
const fs = require('node:fs')
const path = require('node:path')
const assert = require('node:assert/strict')
const { spawnSync } = require('node:child_process')

const ROOT = path.resolve(__dirname, '..')

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
  const names = []
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
    if (Number(ppid) === pid) names.push(stat.slice(stat.indexOf('(') + 1, close))
  }
  return names
}

// A run's log as its summaries read it: a disturbed try that bench measured again is kept
// in the file, superseded, but is no run of its cell (lib/foreign.js).
function readRuns (file) {
  return fs.readFileSync(file, 'utf8').trim().split('\n').map(line => JSON.parse(line)).filter(record => !record.superseded)
}

module.exports = { bench, assertRefused, waitFor, childrenOf, readRuns }
