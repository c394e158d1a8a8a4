'use strict'
// Runs one `feeder | reader` pipeline through build/pipe-run, which times it and
// reports each process's rusage on fd 3.
const path = require('node:path')
const fs = require('node:fs')
const { spawn } = require('node:child_process')
const { setTimeout: delay } = require('node:timers/promises')
const { BUILD } = require('./paths')
const { allowedCpus, placementPlan } = require('./placement')
const { childrenOf, commandLine, descriptorTarget, statFields } = require('./procfs')
const { hurry } = require('./wait')

const PIPE_RUN = path.join(BUILD, 'pipe-run')

// The feeder: `dd if=/dev/zero` writing `bytes` in blocks of feederBlockSize (the
// byte count is always a whole number of feeder blocks: bench chooses it so). A pipeline
// that will be paused (runAlternating) reads whole blocks: a stop that lands inside dd's
// read of /dev/zero cuts that block short, and dd counts it as one all the same.
function ddFeeder (bytes, feederBlockSize, paused = false) {
  const argv = ['dd', 'if=/dev/zero', `bs=${feederBlockSize}`, `count=${bytes / feederBlockSize}`]
  return [...argv, ...(paused ? ['iflag=fullblock'] : []), 'status=none']
}

// The name a held feeder's shell goes by ($0), by which it is told from the reader.
const HELD_FEEDER = 'syscall-lab-held-feeder'

// A feeder that, once its command has written everything, keeps the pipe open until
// `holdFile` is removed: the reader, waiting for more, stays alive to be looked at (runHeld
// runs spec.feeder so).
function heldFeeder (feeder, holdFile) {
  const script = `${shellQuote(feeder)} && : > "$1" && while [ -e "$1" ]; do sleep 0.01; done`
  return ['sh', '-c', script, HELD_FEEDER, holdFile]
}

// How long a held run may take beyond its timeout: what look does while the reader waits,
// which is not the reader's (nameFastCalls names within lib/native-code.js's budget of 20 s;
// nm reads Node's binary's symbols in 0.3 s on a 2-core VM).
const HOLD_ALLOWANCE_MS = 30000

// The reader of a pipe-run whose feeder is a held one: of the children whose stdin is the pipe
// the feeder writes, the first started. pipe-run adopts the orphans of either (it is their
// subreaper), and an orphan of the reader may have inherited its stdin, but it started after
// the reader that forked it (by start time, in ticks, then by pid within a tick).
function heldReader (pipeRunPid) {
  const children = childrenOf(pipeRunPid)
  const feeder = children.find(pid => commandLine(pid).includes(HELD_FEEDER))
  const pipe = feeder === undefined ? '' : descriptorTarget(feeder, 1)
  const startOf = pid => {
    try {
      return Number(statFields(pid)[19])
    } catch {
      return Infinity // gone
    }
  }
  const onPipe = children.filter(pid => pid !== feeder && pipe !== '' && descriptorTarget(pid, 0) === pipe)
  return onPipe.sort((a, b) => startOf(a) - startOf(b) || a - b)[0]
}

// Runs a pipeline with its feeder held (heldFeeder, through holdFile, a path no other run
// uses); once the feeder has written everything, calls look(the reader's pid) and then lets
// the reader end. Resolves to
// { result (runPipeline's), seen (what look returned; null where the pipeline ended before its
// feeder held, as a failed run does) }. spec.timeoutMs gains HOLD_ALLOWANCE_MS, so that a
// slow look is not taken for a reader that hung.
async function runHeld (spec, holdFile, look) {
  fs.rmSync(holdFile, { force: true })
  const feeder = heldFeeder(spec.feeder, holdFile)
  const started = startPipeline({ ...spec, feeder, timeoutMs: spec.timeoutMs + HOLD_ALLOWANCE_MS })
  // set by the pipeline's end, which the wait below must see
  const pipeline = { ended: false }
  started.done.then(() => { pipeline.ended = true }, () => { pipeline.ended = true })
  let seen = null
  try {
    while (!pipeline.ended && !fs.existsSync(holdFile)) await delay(5)
    const reader = pipeline.ended ? undefined : heldReader(started.child.pid)
    if (reader !== undefined) seen = look(reader)
  } finally {
    // the feeder's cue to end, whatever look did
    fs.rmSync(holdFile, { force: true })
  }
  return { result: await started.done, seen }
}

// A command line as a shell would take it back: for the re-run lines of failed runs.
function shellQuote (argv) {
  return argv.map(arg => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, '\'\\\'\'')}'`)).join(' ')
}

// --pin in every tool: dd on CPU 0, the reader on CPU 1.
const PIN_APART = { feeder: 0, reader: 1 }

// bench.js's cost pass runs dd and the reader on one CPU (experiments/stdio/cost.js says why): the
// last one this process may use (a container's cpuset may leave out CPU 0 or 1).
function sharedCpuPin (status) {
  return placementPlan(allowedCpus(status)).shared
}

// How long the reader's stdout and stderr may stay open once pipe-run has exited.
// pipe-run kills everything the pipeline left before it exits, so they close at once;
// this bounds the wait should anything it could not kill still hold them.
const STDIO_GRACE_MS = 1000

// The pipelines under way (two while runAlternating takes turns): what a stop stops.
const current = new Set()

// Resolves to { wallNs, timedOut, stoppedBy, leftBehind, stealTicks, clkTck, reader, feeder,
// stdout, stderr }: leftBehind counts the processes still running when reader and feeder
// had exited (pipe-run killed them); stealTicks each CPU's steal during the run, in
// ticks of 1/clkTck s (null if /proc/stat could not be read; lib/steal.js); cpuIdle the
// pinned CPUs' idle time during the run (null unpinned; lib/foreign.js); samples, with
// sampleMs, [the reader's CPU ns, the bytes dd has written] every sampleMs ms (experiments/stdio/cost.js),
// and then the reader's busiest thread's CPU ns at the last sample (reader.busiestThreadNs).
function runPipeline (spec) {
  return startPipeline(spec).done
}

// runPipeline's pipe-run, started: { child (pipe-run), done (its result, as above) }.
// cwd: where the pipeline runs (a folder of its own for a reader that leaves files behind);
// sampleBelow: the reader is a wrapper (perf record), and what it runs is sampled, not it.
function startPipeline ({ feeder, reader, timeoutMs, pin, sampleMs = 0, sampleBelow = false, cwd }) {
  const args = ['--timeout-ms', String(timeoutMs), '--parent-pid', String(process.pid)]
  if (pin) args.push('--pin-feeder', String(pin.feeder), '--pin-reader', String(pin.reader))
  // a placement may name the scheduling policy of both (lib/placement.js)
  if (pin?.policy) args.push('--policy', pin.policy)
  if (sampleMs) args.push('--sample-ms', String(sampleMs))
  if (sampleMs && sampleBelow) args.push('--sample-below', '1')
  args.push('--', ...feeder, '--', ...reader)
  const child = spawn(PIPE_RUN, args, { stdio: ['ignore', 'pipe', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) })
  current.add(child)
  const done = new Promise((resolve, reject) => {
    const out = { stdout: [], stderr: [], result: [] }
    child.stdout.on('data', chunk => out.stdout.push(chunk))
    child.stderr.on('data', chunk => out.stderr.push(chunk))
    child.stdio[3].on('data', chunk => out.result.push(chunk))
    child.on('error', err => reject(new Error(`cannot run ${PIPE_RUN}: ${err.message}; run ./setup.sh`)))
    // 'close' waits for every holder of the pipes; destroying them ends that wait.
    let grace = null
    child.on('exit', () => {
      grace = setTimeout(() => child.stdio.forEach(stream => stream?.destroy()), STDIO_GRACE_MS)
    })
    child.on('close', (code, signal) => {
      clearTimeout(grace)
      current.delete(child)
      const text = Buffer.concat(out.result).toString()
      // A stop that lands before pipe-run has masked signals (it is still starting)
      // kills it outright: nothing ran, so there is nothing to report but the stop; and a
      // signal it cannot mask (SIGKILL, an OOM kill) ends it with nothing to report: a stop
      // too, the run's kept steps intact and its resume offered, not a crash of bench.js.
      if (!text && (child.stopRequested || signal)) {
        resolve({ wallNs: null, timedOut: false, stoppedBy: signal ?? 'SIGTERM', leftBehind: 0, stealTicks: null, clkTck: null, cpuIdle: null, samples: null, reader: null, feeder: null, stdout: '', stderr: '' })
        return
      }
      if (!text) {
        const said = Buffer.concat(out.stderr).toString().trim()
        // its usage: a pipe-run built before an option it is given (make builds it again)
        const fix = /^usage: pipe-run/m.test(said) ? `; ${PIPE_RUN} may be older than lib/pipe-run.c: run make` : ''
        reject(new Error(`pipe-run gave no result (exit ${code}): ${said}${fix}`))
        return
      }
      const result = JSON.parse(text)
      resolve({
        wallNs: result.wall_ns,
        timedOut: result.timed_out,
        stoppedBy: result.stopped_by,
        leftBehind: result.left_behind,
        stealTicks: result.steal_ticks ?? null,
        clkTck: result.clk_tck ?? null,
        cpuIdle: result.cpu_idle ?? null,
        samples: result.samples ?? null,
        reader: readerUsage(result),
        feeder: camelUsage(result.feeder),
        stdout: Buffer.concat(out.stdout).toString(),
        stderr: Buffer.concat(out.stderr).toString()
      })
    })
  })
  return { child, done }
}

// pipe-run takes SIGUSR1 (pause) and SIGUSR2 (resume) once it has blocked them; before
// that either would end it. It blocks them before it starts the pipeline, so a child of
// its own says it has. (Its SigBlk cannot: sigtimedwait unblocks what it waits for.)
function takesTurns (pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim() !== ''
  } catch {
    return false
  }
}

// Which of two pipelines taking turns goes first in run `run`: 0, 0, 1, 1, 0, 0, ... so that
// each order comes as often, and the even and the odd runs, the halves a run's own figure is
// taken from (lib/repeatability.js HALVINGS), each hold both (a review: by the run's parity,
// the order and the halves were one, and an effect of going first read as the run's noise).
const firstTurn = run => Math.floor(run / 2) % 2

// Two pipelines on one CPU, taking turns: each runs for sliceMs while the other is
// paused (experiments/stdio/cost.js says why), the first to start given by `first`,
// until one ends; the other then runs to its end alone. Resolves to both results, in
// the order given, each with turns: how many slices it was given, aloneMs: how long it
// ran on after the other had ended (wall time, its CPU's alone), 0 for the first to end,
// and with readyWhen, readyMs and heldMs (below; null without it).
// sliceMs 0 pauses neither: the two share the CPU as its scheduler sees fit (turns, aloneMs
// and the rest null).
// readyWhen, a pattern of what a reader prints when its timed part begins (the ladder's
// "compiled" line, after its warm-up): until both have printed it, the one that has waits
// paused while the other runs on (while neither has, they take turns), so that their timed
// parts take turns from the same moment; turns are then counted from that moment. Each result
// says when its line came (readyMs from the start, null if it never came) and how long it
// waited for the other's (heldMs). Without it, the first to finish its warm-up began its timed
// part beside the other's warm-up: a review found C's every round of the ladder done while
// wasmtime compiled, whose own rounds then ran 1.6 to 11 s alone.
async function runAlternating (specs, sliceMs, first = 0, { readyWhen = null } = {}) {
  const started = specs.map(spec => startPipeline(spec))
  if (sliceMs === 0) {
    const results = await Promise.all(started.map(({ done }) => done))
    return results.map(result => ({ ...result, turns: null, aloneMs: null, readyMs: null, heldMs: null }))
  }
  const startedAt = process.hrtime.bigint()
  const msBetween = (from, to) => Number(to - from) / 1e6
  // when each ended (hrtime), null while it runs
  const endedAt = started.map(() => null)
  const ended = i => endedAt[i] !== null
  const turns = [0, 0]
  const end = i => () => { endedAt[i] = process.hrtime.bigint() }
  started.forEach(({ done }, i) => done.then(end(i), end(i)))
  // when each printed readyWhen's line (hrtime), seen as its output comes
  const readyAt = started.map(() => null)
  if (readyWhen) {
    // without g or y, whose lastIndex would carry from one test to the next
    const pattern = new RegExp(readyWhen.source, readyWhen.flags.replace(/[gy]/g, ''))
    started.forEach(({ child }, i) => {
      let printed = ''
      const watch = chunk => {
        printed += chunk
        if (!pattern.test(printed)) return
        readyAt[i] = process.hrtime.bigint()
        child.stdout.off('data', watch)
      }
      child.stdout.on('data', watch)
    })
  }
  const ready = i => readyWhen === null || readyAt[i] !== null
  const signal = (i, name) => {
    if (!ended(i)) started[i].child.kill(name)
  }
  // Both run at once only until both can take turns: a few ms of start-up, before any window.
  while (!started.every(({ child }, i) => ended(i) || takesTurns(child.pid))) await delay(1)
  let turn = first
  signal(1 - turn, 'SIGUSR1')
  turns[turn]++
  const giveTurn = next => {
    signal(turn, 'SIGUSR1')
    turn = next
    signal(turn, 'SIGUSR2')
    turns[turn]++
  }
  // Warm-ups, polled every ms: one that is ready runs on into its timed part until paused.
  let sliceFrom = process.hrtime.bigint()
  while (!ended(0) && !ended(1) && !(ready(0) && ready(1))) {
    const now = process.hrtime.bigint()
    const waiting = [0, 1].find(ready)
    if (waiting === turn || (waiting === undefined && msBetween(sliceFrom, now) >= sliceMs)) {
      giveTurn(1 - turn)
      sliceFrom = now
    }
    await delay(1)
  }
  // the moment both were ready, from which the turns count
  const pairedAt = readyWhen && ready(0) && ready(1) && !ended(0) && !ended(1)
    ? (readyAt[0] > readyAt[1] ? readyAt[0] : readyAt[1])
    : null
  if (pairedAt !== null) {
    if (turn !== first) giveTurn(first)
    turns.fill(0)
    turns[turn] = 1
  }
  while (!ended(0) && !ended(1)) {
    await delay(sliceMs)
    if (ended(0) || ended(1)) break
    giveTurn(1 - turn)
  }
  started.forEach((_, i) => signal(i, 'SIGUSR2'))
  const results = await Promise.all(started.map(({ done }) => done))
  const firstEnd = endedAt.reduce((a, b) => (a < b ? a : b))
  const aloneMs = i => msBetween(firstEnd, endedAt[i])
  // held from its line until both were ready, or until the other ended without being so
  const heldUntil = pairedAt ?? firstEnd
  const heldMs = i => (readyAt[i] !== null && readyAt[i] < heldUntil ? msBetween(readyAt[i], heldUntil) : 0)
  return results.map((result, i) => ({
    ...result,
    turns: turns[i],
    aloneMs: aloneMs(i),
    readyMs: readyWhen && readyAt[i] !== null ? msBetween(startedAt, readyAt[i]) : null,
    heldMs: readyWhen ? heldMs(i) : null
  }))
}

// The reader's usage, with the CPU time of its busiest thread at the last sample where the
// run was sampled (lib/foreign.js preemptedReader)
function readerUsage (result) {
  const usage = camelUsage(result.reader)
  return result.busiest_thread_ns > 0 ? { ...usage, busiestThreadNs: result.busiest_thread_ns } : usage
}

function camelUsage (usage) {
  return {
    exit: usage.exit,
    signal: usage.signal,
    userUs: usage.user_us,
    sysUs: usage.sys_us,
    maxRssKb: usage.maxrss_kb,
    voluntaryCs: usage.voluntary_cs,
    involuntaryCs: usage.involuntary_cs
  }
}

// The record of runAlternating's partner pipeline, as an experiment logs it beside its own
// run: its program, whether it ran cleanly and why not, its command line, its time and
// turns, its reader's usage; the experiment adds what its kind of run has.
function partnerRecord (program, { feeder, reader }, result, failure) {
  return {
    program,
    ok: failure === null,
    failure,
    command: `${shellQuote(feeder)} | ${shellQuote(reader)}`,
    wallNs: result.wallNs,
    turns: result.turns,
    aloneMs: result.aloneMs,
    readyMs: result.readyMs,
    heldMs: result.heldMs,
    reader: result.reader,
    // dd's own usage: whether it set the pace, and what the disturbance check can be audited by
    feeder: result.feeder
  }
}

// Ctrl-C: pipe-run kills the whole pipeline's process group and still reports.
function stopCurrentPipeline () {
  for (const child of current) {
    child.stopRequested = true
    child.kill('SIGTERM')
  }
}

// Ctrl-C, SIGTERM or a hangup (its terminal or ssh gone) from now on stops the pipeline
// under way instead of the process, so a tool can keep what it measured, stop what it
// started, and say so; the function returned tells whether a stop came. A closed output
// (`bench.js | head`) stops it too: what it would print goes nowhere. A second signal
// does not wait for what was started to end by itself (a database's shutdown, a server's
// SIGTERM, up to half a minute in db): every such wait is cut (lib/wait.js hurry) and what
// is left is killed, what was measured kept as on the first.
function stopOnSignals () {
  let requested = false
  let signals = 0
  const stop = () => {
    requested = true
    stopCurrentPipeline()
  }
  const onSignal = signal => {
    signals += 1
    if (signals === 2) {
      process.stderr.write(`${signal} again: killing what is left now, without waiting for it to end\n`)
      hurry()
    }
    stop()
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  process.on('SIGHUP', onSignal)
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', err => {
      if (err.code !== 'EPIPE' && err.code !== 'EIO') throw err
      stop()
    })
  }
  return () => requested
}

// `argv` started so that it dies with this process however this one ends (SIGKILL, an OOM
// kill, a crash), where no handler can stop it: setpriv (util-linux) sets its parent-death
// signal and execs it, so its pid is argv's (or the last of argv's own exec chain). A server, a
// database or a busy loop left behind would go on using the CPUs the lab measures, unseen.
const spawnWithParent = (argv, options) => spawn('setpriv', ['--pdeathsig', 'KILL', ...argv], options)

module.exports = {
  spawnWithParent,
  shellQuote,
  runPipeline,
  runHeld,
  runAlternating,
  firstTurn,
  partnerRecord,
  ddFeeder,
  stopCurrentPipeline,
  stopOnSignals,
  PIPE_RUN,
  PIN_APART,
  sharedCpuPin
}
