'use strict'
// studies/disturb.js --mode memory for real: a streamer at idle priority on the CPU asked
// for, its CPU time reported, and nothing left running when it stops, on time or by signal.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const fs = require('node:fs')
const { spawn, spawnSync } = require('node:child_process')

const DISTURB = path.join(__dirname, '..', '..', 'studies', 'disturb.js')

// The streamers' pids from the lines the study prints are not given, so look for the
// stream's script among the processes: none may outlive the study. Only those that are Node
// by now: chrt and taskset hold the script in their arguments too until each execs the next,
// before the policy or the CPU is set.
const runsNode = pid => {
  try {
    return fs.realpathSync(`/proc/${pid}/exe`) === fs.realpathSync(process.execPath)
  } catch {
    return false // gone since pgrep saw it
  }
}
const streamers = () => spawnSync('pgrep', ['-f', 'a.copy\\(b\\); b.copy\\(a\\)'], { encoding: 'utf8' })
  .stdout.split('\n').filter(Boolean).filter(runsNode)

test('memory: streams at idle priority for --for seconds, says its CPU time, leaves nothing', () => {
  const result = spawnSync(process.execPath, [DISTURB, '--mode', 'memory', '--for', '3', '--cpus', '0'],
    { encoding: 'utf8', timeout: 60_000 })
  assert.equal(result.status, 0, result.stderr)
  const lines = result.stdout.trim().split('\n')
  assert.match(lines[0], /streaming \d+ MiB at idle priority \(SCHED_IDLE\) on CPU 0 for 3 s$/)
  assert.match(lines.at(-1), /streamer on CPU 0: \d+\.\d s of CPU, \d+% in 3 s$/)
  assert.deepEqual(streamers(), [])
})

test('memory: a streamer runs under SCHED_IDLE on its CPU, and SIGTERM stops it', async () => {
  const study = spawn(process.execPath, [DISTURB, '--mode', 'memory', '--for', '60', '--cpus', '1'],
    { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  study.stdout.on('data', chunk => { out += chunk })
  // wait for the streamer to be there
  let pids = []
  for (let tries = 0; tries < 100 && pids.length === 0; tries++) {
    await new Promise(resolve => setTimeout(resolve, 100))
    pids = streamers()
  }
  assert.equal(pids.length, 1, 'one streamer')
  const policy = spawnSync('chrt', ['-p', pids[0]], { encoding: 'utf8' }).stdout
  assert.match(policy, /SCHED_IDLE/)
  const status = fs.readFileSync(`/proc/${pids[0]}/status`, 'utf8')
  assert.match(status, /^Cpus_allowed_list:\s+1$/m)
  study.kill('SIGTERM')
  // 'close', not 'exit': the streamer, killed as the study exits, holds its stderr until it is gone
  const code = await new Promise(resolve => study.on('close', resolve))
  assert.equal(code, 0)
  assert.match(out, /streamer on CPU 1: /)
  assert.deepEqual(streamers(), [])
})

test('busy: --for of one --every makes one burst, and its loop is gone after', () => {
  const result = spawnSync(process.execPath, [DISTURB, '--every', '2', '--busy', '1', '--for', '2', '--cpus', '0'],
    { encoding: 'utf8', timeout: 30_000 })
  assert.equal(result.status, 0, result.stderr)
  const lines = result.stdout.trim().split('\n')
  assert.equal(lines.length, 2, result.stdout)
  assert.match(lines[0], /busy loop on CPU 0 for 1 s$/)
  // what the loop took: near a second on a CPU nothing else wanted
  assert.match(lines[1], /busy loop on CPU 0: \d+\.\d s of CPU in 1 s$/)
  assert.deepEqual(busyLoops(), [])
})

const busyLoops = () => spawnSync('pgrep', ['-f', 'while :; do :; done'], { encoding: 'utf8' })
  .stdout.split('\n').filter(Boolean)

// Killed outright, it can stop nothing itself: what it started must die with it (a review found
// a loop left running for ever by a kill -9, an OOM kill or a crash).
test('killed by SIGKILL, neither a streamer nor a busy loop outlives it', async () => {
  const cases = [
    { args: ['--mode', 'memory', '--for', '60', '--cpus', '1'], running: streamers },
    { args: ['--every', '2', '--busy', '1', '--for', '60', '--cpus', '1'], running: busyLoops }
  ]
  for (const { args, running } of cases) {
    const study = spawn(process.execPath, [DISTURB, ...args], { stdio: 'ignore' })
    let pids = []
    for (let tries = 0; tries < 100 && pids.length === 0; tries++) {
      await new Promise(resolve => setTimeout(resolve, 100))
      pids = running()
    }
    assert.equal(pids.length, 1, `${args.join(' ')}: one running`)
    study.kill('SIGKILL')
    await new Promise(resolve => study.on('close', resolve))
    for (let tries = 0; tries < 50 && running().length; tries++) await new Promise(resolve => setTimeout(resolve, 100))
    assert.deepEqual(running(), [], `${args.join(' ')}: nothing left`)
  }
})

test('without chrt or taskset on PATH: one line naming the package, exit 2, nothing started', t => {
  const empty = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'no-tools-'))
  t.after(() => fs.rmSync(empty, { recursive: true, force: true }))
  for (const [mode, missing] of [['busy', 'setpriv and taskset'], ['memory', 'setpriv, chrt and taskset']]) {
    const args = mode === 'busy' ? ['--every', '2', '--busy', '1', '--for', '2'] : ['--mode', 'memory', '--for', '2']
    const result = spawnSync(process.execPath, [DISTURB, ...args],
      { encoding: 'utf8', timeout: 30_000, env: { ...process.env, PATH: empty } })
    assert.equal(result.status, 2, `${mode}: ${result.stderr}`)
    assert.equal(result.stderr, `disturb.js: ${missing} not found on PATH: apt-get install util-linux\n`)
    assert.equal(result.stdout, '')
  }
})
