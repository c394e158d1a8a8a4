'use strict'
// Whether something else ran on a step's CPUs while it was measured. A step pins its
// processes (lib/placement.js) and reads the idle time of those CPUs at both ends of its
// window (build/pipe-run: `cpu_idle`). Their busy time, less the CPU time of the step's own
// processes and the VM's steal, is foreign: a compiler, an editor's indexer, a cron job.
// A user's machine has such moments, and on 2 CPUs they land on a measured CPU at once:
// the pair of runs that moved a share of C by 9 points and the http run where c-epoll
// answered 57,845 req/s instead of ~140,000 were such (docs/reproducibility.md).
// A disturbed step is measured again (bench.js), so its figures hold; the run only
// takes longer, and it says how many steps it measured again.
const fs = require('node:fs')
const { CLK_TCK } = require('./procfs')
const { median } = require('./stats')

// Foreign time above this share of one measured CPU's time, and above the floor of its
// source, makes a step disturbed. On the lab's quiet VM a stdio step's foreign time was
// under 1% (the kernel's own threads, pipe-run reading the CPUs, the bench waking), and
// an http step's foreign user time within one tick either way; a busy loop sharing the
// reader's CPU took 45-48% of it (docs/placement.md).
const DISTURBED_SHARE = 0.03
// Below this the time is too short to tell a neighbour from the kernel's timer work, or
// from the rounding of /proc/stat's ticks of 10 ms.
const FLOOR_NS = { cpuidle: 2e6, stat: 20e6 }
// How often a disturbed step is measured again before its last try is kept, flagged.
const MAX_REMEASURES = 3
// A pipeline at SCHED_BATCH on one CPU (lib/placement.js sharedBatch) switches its reader out
// when the pipe runs dry, which counts as a voluntary switch, and its feeder does not preempt
// it. Involuntary switches beyond this share of the voluntary ones say that another task took
// the CPU from the reader again and again, each time too briefly for the foreign time above to
// show it, and the reader's reads then pay switches the placement is there to keep out: in a
// profile pass of 2026-12-07 such runs had 6,968 to 94,948 involuntary switches to calm runs'
// 16 to 205, 125 to 2,002 of perf's samples in the scheduler outside read(2) to 0 to 5, and
// 0.0 to 0.6% foreign time (docs/profile.md). Of four passes' 805 runs at SCHED_BATCH, 760 had
// involuntary switches under 3% of the voluntary ones, 41 over 10%.
const PREEMPTED_SHARE = 0.1
// and beyond this many: a short run's few switches at a tick cost it too little to judge (a
// calm run of 24,800 voluntary switches had up to 205 involuntary ones)
const PREEMPTED_LEAST = 100
// A reader whose busiest thread did less than this share of its CPU time shares its work
// between threads, and switches between them of itself: wasmer's main thread hands each read
// to its tokio workers and back, and in some runs yields the CPU to them, 70,770 and 166,680
// involuntary switches where its calm runs have 19 to 62; on its CPU the scheduler's
// sched_switch events gave 63,487 and 140,411 of them to its own workers, 1,470 and 1,690 to
// dd and 19 at most to any other task (docs/profile.md, 2026-12-08). Its switches cannot tell
// another task's work from its own, so only its foreign time judges such a reader. Wasmer's busiest
// thread did 48-61% of its CPU in a profile pair; the next, wasmtime's, 78-86%, and the
// readers whose loop is one thread at least 84% (the short unprofiled runs less than the
// profiled, their start-up's compiler threads a larger part of them).
const ONE_THREAD_LEAST = 0.7

// One step's foreign time from each measured CPU's busy time and the part of it that
// was the step's own: { cpus, source, windowNs, busyNs, ownNs, foreignNs, share (the
// largest of any one CPU's), disturbed }. A disturbance shows on the CPU it shared: a
// neighbour that took 10% of wrk's CPU halves to 5% over two. A CPU whose own time is
// null cannot be checked: it is left out of all of these and named in `uncheckedCpus`.
function foreignTime ({ source, windowNs, perCpu }) {
  if (!(windowNs > 0) || perCpu.length === 0 || perCpu.some(entry => !Number.isFinite(entry.busyNs))) return null
  const checked = perCpu.filter(entry => entry.ownNs !== null)
  const uncheckedCpus = perCpu.filter(entry => entry.ownNs === null).map(entry => entry.cpu)
  const foreign = checked.map(entry => Math.max(0, entry.busyNs - entry.ownNs))
  const worst = Math.max(0, ...foreign)
  const share = worst / windowNs
  return {
    cpus: checked.map(entry => entry.cpu),
    source,
    windowNs,
    busyNs: checked.reduce((sum, entry) => sum + entry.busyNs, 0),
    ownNs: checked.reduce((sum, entry) => sum + entry.ownNs, 0),
    foreignNs: foreign.reduce((sum, ns) => sum + ns, 0),
    // each CPU's busy time less its own, signed: below zero it is the check's own error
    residualsNs: checked.map(entry => entry.busyNs - entry.ownNs),
    share,
    disturbed: beyond(worst, windowNs, source),
    ...(uncheckedCpus.length ? { uncheckedCpus } : {})
  }
}

// Whether a CPU's foreign time makes its step disturbed: above DISTURBED_SHARE of the
// window, its source's floor and, where a run has heard the check's own error, that error.
const beyond = (ns, windowNs, source, noiseNs = 0) =>
  ns / windowNs > DISTURBED_SHARE && ns > Math.max(FLOOR_NS[source] ?? FLOOR_NS.stat, noiseNs)

// What the check by user time (source 'stat') hears of its own error, CPU by CPU, over a
// run: a step's residual on a CPU, its user time less its processes', is foreign time plus
// the ticks' sampling error, which moves it as far below zero as above. With wrk and some 15
// processes of PostgreSQL on one CPU in bursts, that error reached 40-120 ms of a second, and a
// quiet db run measured 28 to 43 of its 210 steps again where a run beside a busy loop
// measured 34 to 41 (docs/db.md). Residuals below zero can only be that error, so once a CPU
// has had NOISE_LEAST of them, a step is disturbed there only beyond NOISE_FACTOR times their
// median, as well as beyond DISTURBED_SHARE and the floor: about 2.7 standard deviations of a
// symmetric error (the median of its negative half is 0.674 of one), robust to the few large
// negatives of a server whose children's time the kernel counts as user time (mini_httpd's).
// A try judged disturbed is not heard: a neighbour's burst on one CPU moves the other's
// residual too (a db try of 830 ms foreign on CPU 1 read -160 on CPU 0).
const NOISE_LEAST = 20
const NOISE_FACTOR = 4
function noiseGauge () {
  const negatives = new Map()
  const floorOf = cpu => {
    const heard = negatives.get(cpu) ?? []
    return heard.length < NOISE_LEAST ? 0 : NOISE_FACTOR * median(heard)
  }
  return {
    // the step's foreign time judged against the error heard before it
    judge (foreign) {
      if (foreign?.source !== 'stat' || !foreign.residualsNs) return foreign
      const noiseFloorsNs = foreign.cpus.map(floorOf)
      const disturbed = Boolean(foreign.preempted) || foreign.residualsNs.some((ns, i) =>
        beyond(ns, foreign.windowNs, foreign.source, noiseFloorsNs[i]))
      return { ...foreign, noiseFloorsNs, disturbed }
    },
    hear (foreign) {
      if (foreign?.source !== 'stat' || !foreign.residualsNs || foreign.disturbed) return
      foreign.cpus.forEach((cpu, i) => {
        if (foreign.residualsNs[i] >= 0) return
        if (!negatives.has(cpu)) negatives.set(cpu, [])
        negatives.get(cpu).push(-foreign.residualsNs[i])
      })
    }
  }
}

// A pipeline's foreign time (runPipeline's result, pinned by `pin`): each pinned CPU's
// busy time (pipe-run's `cpu_idle`) less what the reader and the feeder pinned there
// took, and the VM's steal of that CPU. Two pipelines that took turns on the same CPUs
// (`alongside`: the other's result) are one step: the longer's window holds nearly all
// of the shorter's, and both pipelines' time is the step's own.
function pipelineForeign (result, pin, alongside = null) {
  if (alongside && !(alongside.reader && alongside.feeder)) return null
  const preempted = pin?.policy === 'batch' ? preemptedReader([result, alongside]) : null
  const foreign = cpuForeign(result, pin, alongside)
  if (foreign) return preempted ? { ...foreign, preempted, disturbed: true } : foreign
  // CPUs that could not be read: a reader switched out is still heard, by its own switches
  if (!preempted) return null
  const cpus = [...new Set([pin.reader, pin.feeder])].filter(cpu => cpu !== undefined)
  const windowNs = Math.max(result.wallNs, alongside?.wallNs ?? 0)
  return { cpus, source: 'switches', windowNs, preempted, disturbed: true }
}

// pipelineForeign's time on the CPUs, or null where they could not be read.
function cpuForeign (result, pin, alongside) {
  const [longer, shorter] = alongside?.wallNs > result.wallNs ? [alongside, result] : [result, alongside]
  const idle = longer.cpuIdle
  if (!idle || !pin || !longer.reader || !longer.feeder || idle.idle_ns.some(ns => ns < 0)) return null
  const usageNs = usage => (usage.userUs + usage.sysUs) * 1000
  const tickNs = longer.clkTck ? 1e9 / longer.clkTck : 0
  const pipelinesNs = (cpu, run) =>
    (pin.reader === cpu ? usageNs(run.reader) : 0) + (pin.feeder === cpu ? usageNs(run.feeder) : 0)
  const perCpu = idle.cpus.map((cpu, i) => ({
    cpu,
    busyNs: longer.wallNs - idle.idle_ns[i],
    ownNs: pipelinesNs(cpu, longer) + (shorter ? pipelinesNs(cpu, shorter) : 0) +
      (longer.stealTicks?.[cpu] ?? 0) * tickNs
  }))
  return foreignTime({ source: idle.source, windowNs: longer.wallNs, perCpu })
}

// The first of a batch placement's pipelines whose reader was switched out by another task
// (PREEMPTED_SHARE, PREEMPTED_LEAST): { involuntaryCs, voluntaryCs } of its reader's process and
// the children it waited for (pipe-run's rusage: perf record's and its reader's alike), or null.
// A reader that shares its work between threads is not judged so (ONE_THREAD_LEAST).
function preemptedReader (results) {
  const preempted = results.filter(result => result?.reader && !sharesWorkBetweenThreads(result))
    .map(result => result.reader)
    .find(switchedOut)
  return preempted ? { involuntaryCs: preempted.involuntaryCs, voluntaryCs: preempted.voluntaryCs } : null
}

// Whether a reader's usage (pipe-run's rusage) says it was switched out involuntarily beyond
// PREEMPTED_SHARE of its voluntary switches, and beyond PREEMPTED_LEAST of them
const switchedOut = ({ involuntaryCs, voluntaryCs }) =>
  involuntaryCs > PREEMPTED_LEAST && involuntaryCs > PREEMPTED_SHARE * voluntaryCs

// The share of a sampled run's reader CPU time its busiest thread did, by pipe-run's last
// sample; null where the run was not sampled or its busiest thread not read.
function busiestThreadShare (result) {
  const sampledNs = result.samples?.at(-1)?.[0]
  const busiestNs = result.reader?.busiestThreadNs
  return sampledNs > 0 && busiestNs > 0 ? busiestNs / sampledNs : null
}

// Whether a run's reader did under ONE_THREAD_LEAST of its CPU time in its busiest thread;
// false where that is not known.
function sharesWorkBetweenThreads (result) {
  const share = busiestThreadShare(result)
  return share !== null && share < ONE_THREAD_LEAST
}

// Each CPU's user-space time so far, from /proc/stat (user and nice, ns): where the
// step's processes are not one pipeline, the load on two CPUs (the http experiment's wrk
// and server). Their kernel time cannot be told from a neighbour's there: the loopback's
// softirq work lands on idle CPUs and in no process (2-15% of a CPU in quiet runs), while
// user time is the processes' own, so a neighbour's user time is what is counted.
function userNs (cpus, text = readProcStat()) {
  return cpuTimes(cpus, text, ([user, nice]) => user + nice)
}

// Each CPU's busy time so far: all but idle, iowait and steal (ns), where the db
// experiment counts what no process it measures had.
function busyNs (cpus, text = readProcStat()) {
  return cpuTimes(cpus, text, ([user, nice, system, , , irq, softirq]) => user + nice + system + irq + softirq)
}

// Each CPU's steal time so far (ns): what the hypervisor ran instead of it, for a step
// whose processes are not one pipeline (lib/steal.js; pipe-run reads its own).
function stealNs (cpus, text = readProcStat()) {
  return cpuTimes(cpus, text, fields => fields[7] ?? 0)
}

// A step's steal record (lib/steal.js runSteal's shape) from stealNs at both ends.
function stealBetween (cpus, before, after) {
  if ([...before, ...after].some(Number.isNaN)) return null
  const ticks = cpus.reduce((sum, _, i) => sum + Math.round((after[i] - before[i]) * CLK_TCK / 1e9), 0)
  return { cpus, ticks, clkTck: CLK_TCK }
}

// /proc/stat's line of each of `cpus`, its ticks summed by `pick`, in ns (NaN for a CPU
// it has no line for).
function cpuTimes (cpus, text, pick) {
  const byCpu = new Map()
  for (const line of text.split('\n')) {
    const match = /^cpu(\d+)\s+(.*)$/.exec(line)
    if (match) byCpu.set(Number(match[1]), pick(match[2].trim().split(/\s+/).map(Number)) * 1e9 / CLK_TCK)
  }
  return cpus.map(cpu => byCpu.get(cpu) ?? NaN)
}

function readProcStat () {
  try {
    return fs.readFileSync('/proc/stat', 'utf8')
  } catch {
    return ''
  }
}

// The foreign user time of a step whose processes' user time is known per CPU: ownUserNs
// [cpu] for each of `cpus`, and userNs readings at both ends of its window; the bench's own
// user time over it (`benchUser`) is its own too on the CPU the bench is pinned to (`benchOn`).
// A CPU whose own user time is null cannot be checked (a server whose processes ended in the
// window: the kernel gives a process that lived between its timer's samples all its time as
// user time, so mini_httpd's children read 720-870 ms a second of "user" time on a CPU that
// ran 110-170): foreignTime leaves it out, so it is never heard as the check's error.
function userForeign ({ cpus, before, after, windowNs, ownUserNs, benchUser = 0, benchOn }) {
  // where the bench is pinned is read only when it has time to place
  if (benchOn === undefined) benchOn = benchUser ? benchCpu() : null
  const perCpu = cpus.map((cpu, i) => ({
    cpu,
    busyNs: after[i] - before[i],
    ownNs: ownUserNs[i] === null ? null : ownUserNs[i] + (cpu === benchOn ? benchUser : 0)
  }))
  return foreignTime({ source: 'stat', windowNs, perCpu })
}

// The bench's own user time so far (ns, every thread of it): a step's, over its window, is
// the step's own on the CPU the bench is pinned to (lib/placement.js pinSelf), where it
// drives the load and reads /proc (2-33 ms of a db step's second on the quiet Zen 2 VM).
const benchUserNs = () => process.cpuUsage().user * 1000

// The one CPU the bench's process may run on, or null where it may run on more than one
// (not pinned: its time cannot be placed, and is counted foreign as before).
function benchCpu (status = readSelfStatus()) {
  const allowed = /^Cpus_allowed_list:\s*(\S+)$/m.exec(status ?? '')?.[1]
  return allowed !== undefined && /^\d+$/.test(allowed) ? Number(allowed) : null
}

function readSelfStatus () {
  try {
    return fs.readFileSync('/proc/self/status', 'utf8')
  } catch {
    return null
  }
}

// How long to wait for quiet CPUs before measuring a disturbed step again: a neighbour's
// burst (the disturbance docs/reproducibility.md defines runs 3 s) should be over.
// A sample of a second: /proc/stat counts in ticks of 10 ms, so a shorter one cannot see
// DISTURBED_SHARE (in 250 ms, beyond the floor of 20 ms, only 12% and more showed).
const QUIET_SAMPLE_MS = 1000
const QUIET_WAIT_MS = 4000

// Waits until no CPU of `cpus` spent more than DISTURBED_SHARE of a sample in user space
// (nothing of the lab's runs then; beyond the floor as well, so at 4% and more), at most
// QUIET_WAIT_MS, or until `stopped()` (Ctrl-C: a stop waited out the 4 s and outlasted a
// caller's grace); resolves to the ms waited.
const pause = ms => new Promise(resolve => setTimeout(resolve, ms))
async function waitForQuiet (cpus, stopped = () => false, sleep = pause) {
  const started = performance.now()
  while (performance.now() - started < QUIET_WAIT_MS && !stopped()) {
    const before = userNs(cpus)
    const t0 = process.hrtime.bigint()
    await sleep(QUIET_SAMPLE_MS)
    const sample = userForeign({ cpus, before, after: userNs(cpus), windowNs: Number(process.hrtime.bigint() - t0), ownUserNs: cpus.map(() => 0) })
    if (sample === null || !sample.disturbed) break
  }
  return performance.now() - started
}

// A run's steps: how many were measured, how many of those saw foreign time, how many
// were measured again, how many kept a disturbed try after MAX_REMEASURES, and on how many a
// CPU could not be checked. The threshold holds, per CPU, the largest floor the check's own
// error set in the run (noiseGauge), in ns.
function disturbanceOf (records) {
  const checked = records.filter(record => record.foreign)
  const noiseFloorsNs = {}
  for (const { foreign } of checked) {
    (foreign.noiseFloorsNs ?? []).forEach((ns, i) => {
      const cpu = foreign.cpus[i]
      if (ns > (noiseFloorsNs[cpu] ?? 0)) noiseFloorsNs[cpu] = ns
    })
  }
  const kept = checked.filter(record => !record.superseded)
  return {
    threshold: { share: DISTURBED_SHARE, floorNs: FLOOR_NS, maxRemeasures: MAX_REMEASURES, noiseFloorsNs },
    steps: kept.length,
    disturbed: checked.filter(record => record.foreign.disturbed).length,
    // of those, the tries whose reader was switched out by another task (PREEMPTED_SHARE)
    preempted: checked.filter(record => record.foreign.preempted).length,
    remeasured: checked.filter(record => record.superseded).length,
    keptDisturbed: kept.filter(record => record.foreign.disturbed).length,
    unchecked: kept.filter(record => record.foreign.uncheckedCpus?.length).length
  }
}

// What made a step disturbed in a run (disturbanceOf's threshold), as the terminal and the
// report say it: "above 3% of their time, and above 4 times ..., up to 52 ms on CPU 0 and ...".
function thresholdText (threshold) {
  const floors = Object.entries(threshold.noiseFloorsNs ?? {}).filter(([, ns]) => ns > 0)
  const text = `above ${threshold.share * 100}% of their time`
  if (floors.length === 0) return text
  const list = floors.map(([cpu, ns]) => `${Math.round(ns / 1e6)} ms on CPU ${cpu}`)
  const listed = list.length > 1 ? `${list.slice(0, -1).join(', ')} and ${list.at(-1)}` : list[0]
  return `${text}, and above ${NOISE_FACTOR} times the check's own error heard in the run, up to ${listed}`
}

// The steps some CPU of which the check could not see, and why, or null.
function uncheckedText (disturbance) {
  if (!disturbance?.unchecked) return null
  return `${disturbance.unchecked} step${disturbance.unchecked === 1 ? '' : 's'} had a CPU the check ` +
    'could not see (a server\'s processes ended in the run: the kernel counts a short-lived ' +
    'process\'s whole time as user time)'
}

// How often other work ran on a run's measured CPUs and what the bench did about it, one
// sentence for the terminal and the report alike (disturbanceOf's summary), or null for a
// run with no steps.
function disturbanceText (disturbance) {
  if (!disturbance || disturbance.steps === 0) return null
  const { steps, disturbed, remeasured, keptDisturbed, threshold } = disturbance
  const unchecked = uncheckedText(disturbance)
  const also = unchecked ? `; ${unchecked}` : ''
  const rule = thresholdText(threshold)
  if (disturbed === 0) return `none: no step of ${steps} saw other work on its CPUs (${rule})${also}`
  const flagged = keptDisturbed
    ? `; ${keptDisturbed} still disturbed after ${threshold.maxRemeasures} tries, flagged ` +
      '\'disturbed\': this machine was busy'
    : ''
  const switched = disturbance.preempted
    ? ` or had their reader switched out by it (involuntary switches above ${PREEMPTED_SHARE * 100}% ` +
      `of the voluntary ones, at SCHED_BATCH: ${disturbance.preempted}; the wait for quiet CPUs ` +
      'cannot see such work)'
    : ''
  return `${disturbed} tr${disturbed === 1 ? 'y' : 'ies'} of ${steps} steps saw other work on ` +
    `their CPUs (${rule})${switched}; ${remeasured} measured again once the CPUs were ` +
    `quiet${flagged}${also}`
}

// disturbanceText's label, in the terminal and in the report's context: other work took CPU
// time on a step's CPUs, or switched its reader out while taking little
const DISTURBANCE_LABEL = 'disturbed steps'

module.exports = {
  disturbanceText,
  DISTURBANCE_LABEL,
  stealNs,
  stealBetween,
  foreignTime,
  pipelineForeign,
  userNs,
  busyNs,
  userForeign,
  benchUserNs,
  benchCpu,
  waitForQuiet,
  noiseGauge,
  NOISE_LEAST,
  NOISE_FACTOR,
  disturbanceOf,
  thresholdText,
  uncheckedText,
  DISTURBED_SHARE,
  FLOOR_NS,
  MAX_REMEASURES,
  PREEMPTED_SHARE,
  ONE_THREAD_LEAST,
  switchedOut,
  busiestThreadShare,
  PREEMPTED_LEAST
}
