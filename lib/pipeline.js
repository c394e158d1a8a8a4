'use strict'
// Runs one `feeder | reader` pipeline through build/pipe-run, which times it and
// reports each process's rusage on fd 3.
const path = require('node:path')
const { spawn } = require('node:child_process')
const { BUILD } = require('./paths')
const { allowedCpus, placementPlan } = require('./placement')

const PIPE_RUN = path.join(BUILD, 'pipe-run')

// The feeder: `dd if=/dev/zero` writing `bytes` in blocks of feederBlockSize (the
// byte count is always a whole number of feeder blocks: bench chooses it so).
function ddFeeder (bytes, feederBlockSize) {
  return ['dd', 'if=/dev/zero', `bs=${feederBlockSize}`, `count=${bytes / feederBlockSize}`, 'status=none']
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

let current = null

// Resolves to { wallNs, timedOut, stoppedBy, leftBehind, stealTicks, clkTck, reader, feeder,
// stdout, stderr }: leftBehind counts the processes still running when reader and feeder
// had exited (pipe-run killed them); stealTicks each CPU's steal during the run, in
// ticks of 1/clkTck s (null if /proc/stat could not be read; lib/steal.js); cpuIdle the
// pinned CPUs' idle time during the run (null unpinned; lib/foreign.js); samples, with
// sampleMs, [the reader's CPU ns, the bytes dd has written] every sampleMs ms (experiments/stdio/cost.js).
function runPipeline ({ feeder, reader, timeoutMs, pin, sampleMs = 0 }) {
  const args = ['--timeout-ms', String(timeoutMs), '--parent-pid', String(process.pid)]
  if (pin) args.push('--pin-feeder', String(pin.feeder), '--pin-reader', String(pin.reader))
  if (sampleMs) args.push('--sample-ms', String(sampleMs))
  args.push('--', ...feeder, '--', ...reader)
  return new Promise((resolve, reject) => {
    const child = spawn(PIPE_RUN, args, { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] })
    current = child
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
      current = null
      const text = Buffer.concat(out.result).toString()
      // A stop that lands before pipe-run has masked signals (it is still starting)
      // kills it outright: nothing ran, so there is nothing to report but the stop.
      if (!text && child.stopRequested) {
        resolve({ wallNs: null, timedOut: false, stoppedBy: signal ?? 'SIGTERM', leftBehind: 0, stealTicks: null, clkTck: null, cpuIdle: null, samples: null, reader: null, feeder: null, stdout: '', stderr: '' })
        return
      }
      if (!text) {
        reject(new Error(`pipe-run gave no result (exit ${code}): ${Buffer.concat(out.stderr).toString().trim()}`))
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
        reader: camelUsage(result.reader),
        feeder: camelUsage(result.feeder),
        stdout: Buffer.concat(out.stdout).toString(),
        stderr: Buffer.concat(out.stderr).toString()
      })
    })
  })
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

// Ctrl-C: pipe-run kills the whole pipeline's process group and still reports.
function stopCurrentPipeline () {
  if (!current) return
  current.stopRequested = true
  current.kill('SIGTERM')
}

// Ctrl-C or SIGTERM from now on stops the pipeline under way instead of the process, so
// a tool can keep what it measured and say so; the function returned tells whether a
// stop came.
function stopOnSignals () {
  let requested = false
  const onSignal = () => {
    requested = true
    stopCurrentPipeline()
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  return () => requested
}

module.exports = { shellQuote, runPipeline, ddFeeder, stopCurrentPipeline, stopOnSignals, PIPE_RUN, PIN_APART, sharedCpuPin }
