'use strict'
// Two servers measured in the same moment: each under its own wrk, all four processes on
// one CPU, the two pairs taking turns in slices of SLICE_MS. While one pair runs, the
// other's wrk is stopped (SIGSTOP): its server, sent nothing, answers what it had and
// sleeps, so each server has the CPU to itself and its wrk, as in a run of its own, and
// whatever the host does to this VM lands on both pairs within one slice of each other.
// The servers are never stopped: on Linux a stop and continue makes a blocked epoll_wait
// or accept return EINTR even without a handler (signal(7)), which not every server
// retries (wasmer's WASIX server stopped answering after its first stop). wrk's loop
// (ae) takes an EINTR as a turn with no events. On the lab's 2-core Intel VM on a noisy
// day (docs/placement.md), runs of 1 s one after another put the ratio of node-net's or
// bun's CPU per request to c-epoll's in a CV of 9-15% (c-epoll's own moved by 12%); turns
// of 50 ms held bun's to 1.7% (3.3% with the servers stopped too), turns of 200 ms to
// 6.9%: the host's noise moves within a second. Both pairs at once, unstopped, held the
// ratio within 2-3% too, but there four processes share the CPU's caches at every switch
// of the scheduler, and bun's ratio rose from 1.7 to 2.0: a server's cost beside another,
// not its own.
const { spawn } = require('node:child_process')

const SLICE_MS = 50

function signal (pids, name) {
  for (const pid of pids) {
    try {
      process.kill(pid, name)
    } catch {} // it has exited
  }
}

// pairs: [{ argv (wrk's, pinned) }]. Runs every wrk at once, one let run at a time, turn
// by turn, until every wrk has exited or `timeoutMs`. Resolves to one entry per pair:
// { code, signal, timedOut, stdout, stderr, wallNs, runningNs (the time its wrk was let run
// while it lived), turns }. Every wrk is continued before it is killed or left to end.
function runInterleaved (pairs, { timeoutMs, sliceMs = SLICE_MS }) {
  return new Promise(resolve => {
    const started = process.hrtime.bigint()
    const results = pairs.map(() => ({ code: null, signal: null, timedOut: false, stdout: '', stderr: '', wallNs: null, runningNs: 0, turns: 0 }))
    let left = pairs.length
    let turn = 0
    let turnStarted = started
    const children = pairs.map((pair, i) => {
      const child = spawn(pair.argv[0], pair.argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] })
      child.stdout.on('data', chunk => { results[i].stdout += chunk })
      child.stderr.on('data', chunk => { results[i].stderr += chunk })
      child.on('error', err => { results[i].stderr += err.message })
      child.on('close', (code, name) => {
        Object.assign(results[i], { code, signal: name, wallNs: Number(process.hrtime.bigint() - started) })
        if (--left === 0) finish()
      })
      return child
    })
    // taskset execs wrk: the child's pid is wrk's
    const groups = children.map(child => [child.pid].filter(Boolean))
    const live = i => results[i].wallNs === null
    // the time since the turn began goes to the pair that had it, while its wrk lived
    const account = () => {
      const now = process.hrtime.bigint()
      if (live(turn)) results[turn].runningNs += Number(now - turnStarted)
      turnStarted = now
    }
    groups.forEach((group, i) => { if (i !== turn) signal(group, 'SIGSTOP') })
    results[turn].turns++
    const switcher = setInterval(() => {
      account()
      const next = (turn + 1) % pairs.length
      if (next === turn) return
      signal(groups[turn], 'SIGSTOP')
      turn = next
      signal(groups[turn], 'SIGCONT')
      results[turn].turns++
    }, sliceMs)
    const timer = setTimeout(() => {
      children.forEach((child, i) => {
        if (live(i)) {
          results[i].timedOut = true
          signal(groups[i], 'SIGCONT')
          child.kill('SIGKILL')
        }
      })
    }, timeoutMs)
    function finish () {
      account()
      clearInterval(switcher)
      clearTimeout(timer)
      groups.forEach(group => signal(group, 'SIGCONT'))
      resolve(results)
    }
    // once one wrk has exited the other runs on alone: no pair is left stopped
    children.forEach((child, i) => child.on('exit', () => {
      clearInterval(switcher)
      account()
      groups.forEach(group => signal(group, 'SIGCONT'))
      const other = pairs.findIndex((_, j) => j !== i && live(j))
      if (other >= 0) turn = other
    }))
  })
}

// What a run that took turns records of them: the time its load was let run, its turns, and
// the reference's side (`side`: its wrk's output and CPU readings) with the time that ran.
function turnsRecord (mine, theirs, side) {
  return {
    runningNs: mine.runningNs,
    interleaved: { sliceMs: SLICE_MS, turns: mine.turns },
    partner: { ...side, runningNs: theirs.runningNs }
  }
}

module.exports = { runInterleaved, turnsRecord, SLICE_MS }
