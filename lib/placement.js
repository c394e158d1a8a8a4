'use strict'
// Which CPU each process of a pass runs on. Free placement is no method: on 2 CPUs the
// scheduler at times put wrk and the server, or dd and the reader, on one CPU, and
// c-epoll answered 57,845 req/s instead of about 140,000 (docs/placement.md). So every
// pass pins every process it measures, and the run records the plan (context.placement).
//
// - cost pass (the headline) and the call ladder: dd and the reader on one CPU, the last
//   the lab may use: the steadiest CPU time per read (docs/placement.md).
// - timing pass and start-up: dd and the reader on that CPU too: of free, apart and
//   shared, shared is the placement whose best-of-ten MB/s reproduced (docs/placement.md,
//   studies/timing-placement.js).
// - profile pass: dd and the reader on that CPU, both at SCHED_BATCH (sharedBatch), so that
//   the reader is switched out once a pipe's worth, not every few pages, where a timer's
//   samples pile up (docs/profile.md); dd on another CPU made each read's wake-ups cross
//   CPUs, whose cost jumps with the host.
// - http: the server, all its threads, on the last CPU and wrk on another, so neither
//   takes the other's time.
// - the system CPU: on 3 CPUs or more the first is left to the system (the bench's own
//   process, pipe-run, the kernel's threads, whatever else the machine runs) and the
//   passes take the others; on 2 CPUs the bench's process waits on CPU 0, off the
//   readers' CPU, and beside wrk, its wake-ups counted as foreign time (lib/foreign.js).
// - one CPU: everything on it. dd and the reader share a CPU as everywhere, but
//   requests/s then measure wrk with the server, and the bench waits beside them.
const fs = require('node:fs')
const { spawnSync } = require('node:child_process')

// The CPUs this process may use, from /proc/self/status (a container's cpuset, taskset).
function allowedCpus (status = readStatus()) {
  const list = /^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1]
  if (!list) return [0]
  return list.split(',').flatMap(range => {
    const [low, high = low] = range.split('-').map(Number)
    return Array.from({ length: high - low + 1 }, (_, i) => low + i)
  })
}

function readStatus () {
  try {
    return fs.readFileSync('/proc/self/status', 'utf8')
  } catch {
    return ''
  }
}

// The plan for these CPUs: { cpus, system, driver (the bench's own process), shared,
// sharedBatch and apart: { feeder, reader, policy (pipe-run's --policy, where set) },
// http: { client, server }, unreliable: [what one CPU leaves unreliable] }.
function placementPlan (cpus) {
  const last = cpus[cpus.length - 1]
  const system = cpus.length >= 3 ? cpus[0] : null
  const measured = system === null ? cpus : cpus.slice(1)
  const client = measured.length >= 2 ? measured[measured.length - 2] : last
  return {
    cpus,
    system,
    driver: cpus.length >= 2 ? cpus[0] : null,
    shared: { feeder: last, reader: last },
    sharedBatch: { feeder: last, reader: last, policy: 'batch' },
    // --pin: the study's two-CPU pipeline, dd beside wrk's CPU and the reader on the last
    apart: { feeder: client, reader: last },
    http: { client, server: last },
    // dd and the reader share a CPU everywhere; wrk and the server only here
    unreliable: cpus.length === 1
      ? ['http requests/s (wrk and the server share the one CPU: they measure the two together; CPU and syscalls per request still measure the server)', 'every figure beside the bench\'s own process, which waits on that CPU too']
      : []
  }
}

// Checks that every CPU of the plan takes a pinned process; a cpuset or a container that
// refuses one leaves the CPUs that do, and the plan is made again from them. Returns
// { plan, refused: [{ cpu, reason }] }.
function checkedPlacement (cpus = allowedCpus(), tryPin = pinProblem) {
  const refused = []
  const usable = cpus.filter(cpu => {
    const problem = tryPin(cpu)
    if (problem) refused.push({ cpu, reason: problem })
    return !problem
  })
  return { plan: placementPlan(usable.length ? usable : [cpus[0]]), refused }
}

// Why a process cannot be pinned to `cpu`, or null.
function pinProblem (cpu) {
  const result = spawnSync('taskset', ['-c', String(cpu), 'true'], { encoding: 'utf8', timeout: 5000 })
  if (result.error) return result.error.code === 'ENOENT' ? 'taskset is missing (apt-get install util-linux)' : result.error.message
  if (result.status !== 0) return (result.stderr.trim().split('\n').pop() || `taskset exited ${result.status}`)
  return null
}

// One line for the terminal about a plan that fell back, or null.
function placementNote ({ plan, refused }) {
  const notes = []
  if (refused.length) notes.push(`cannot pin to CPU ${refused.map(entry => entry.cpu).join(', ')} (${refused[0].reason}); the lab may use CPU ${plan.cpus.join(', ')} and places every pass there`)
  if (plan.unreliable.length) notes.push(`one CPU (${plan.cpus[0]}) for everything: unreliable here are ${plan.unreliable.join('; and ')}`)
  return notes.length ? notes.join('. ') : null
}

// The bench's own process, every thread, onto plan.driver: pipe-run and each process it
// starts inherit it until they are pinned. Tells whether it took. From then on this
// process's Cpus_allowed_list holds that CPU alone: read the plan, not allowedCpus().
function pinSelf (plan) {
  if (plan.driver === null) return false
  return spawnSync('taskset', ['-a', '-p', '-c', String(plan.driver), String(process.pid)], { stdio: 'ignore' }).status === 0
}

// A pin's scheduling policy in words, after its CPUs: ', both at SCHED_BATCH', or '' at the default.
const policyText = policy => (policy ? `, both at SCHED_${policy.toUpperCase()}` : '')

module.exports = { allowedCpus, placementPlan, checkedPlacement, placementNote, pinSelf, policyText }
