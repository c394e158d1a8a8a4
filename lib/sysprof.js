'use strict'
// What every experiment's kernel pass shares: build/sysprof (lib/sysprof.c, its probes in
// lib/sysprof.bpf.c), which counts and times each syscall of a process tree from the
// kernel, at full speed, where strace stops every call twice. Here: whether BPF is
// allowed, the command line that traces a reader, a tracer held on a running server, and
// the arithmetic on what it wrote: counts per syscall, and the time each call spent on the
// CPU between sys_enter and sys_exit, as a histogram, a median and a total.
const fs = require('node:fs')
const zlib = require('node:zlib')
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')
const { BUILD } = require('./paths')

const SYSPROF = process.env.SYSPROF ?? path.join(BUILD, 'sysprof')
const NAMES_FILE = path.join(BUILD, 'syscall-names.tsv')
// sysprof's exit status when BPF is refused, with its reason on stderr
const REFUSED = 97
const NOT_BUILT = 'build/sysprof is not built: ./setup.sh installs libbpf-dev and clang-14, ' +
  'then make builds it'

// Whether the kernel pass can run here, asked once per run: build/sysprof loads and attaches
// its probes, and detaches them. Its refusal is one line that names the fix.
function probeBpf (binary = SYSPROF) {
  if (!fs.existsSync(binary)) return { available: false, reason: NOT_BUILT }
  const result = spawnSync(binary, ['--check'], { encoding: 'utf8', timeout: 20000 })
  if (result.status === 0) return { available: true, reason: null }
  const said = (result.stderr || result.error?.message || `exit ${result.status}`).trim()
  return { available: false, reason: said.split('\n')[0].replace(/^sysprof: /, '') }
}

// The prefix that runs a command under the tracer: its profile goes to outFile; a given
// fd's reads (stdin's, 0) are told apart from the rest.
function sysprofArgv (outFile, { fd = null } = {}) {
  return [SYSPROF, ...(fd === null ? [] : ['--fd', String(fd)]), '--out', outFile, '--']
}

// The tracer held on processes already running (a server, postgres and its backends) for
// a window the caller opens and closes: start() resolves once the probes are attached;
// stop() ends the window and resolves with the profile's text, which stays beside the run
// gzipped, as outFile + '.gz': a server that forks per connection (mini_httpd) leaves a
// row per process and call, megabytes a window.
// prefix: what runs it (taskset, to place it).
async function traceProcesses (pids, outFile, { binary = SYSPROF, prefix = [] } = {}) {
  const args = [...pids.flatMap(pid => ['--pid', String(pid)]), '--out', outFile]
  const [command, ...rest] = [...prefix, binary, ...args]
  const child = spawn(command, rest, { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', chunk => { stderr += chunk })
  const ended = new Promise(resolve => child.on('close', (code, signal) => resolve({ code, signal })))
  const ready = await new Promise(resolve => {
    child.stdout.on('data', chunk => { if (String(chunk).includes('ready')) resolve(true) })
    ended.then(() => resolve(false))
  })
  const failure = async () => {
    const { code, signal } = await ended
    return (stderr.trim().split('\n')[0] || `sysprof ended: exit ${code}, signal ${signal}`)
      .replace(/^sysprof: /, '')
  }
  if (!ready) return { ok: false, failure: await failure() }
  return {
    ok: true,
    async stop () {
      child.kill('SIGINT')
      const { code } = await ended
      if (code !== 0) return { ok: false, failure: await failure() }
      const text = fs.readFileSync(outFile, 'utf8')
      fs.writeFileSync(`${outFile}.gz`, zlib.gzipSync(text))
      fs.rmSync(outFile)
      return { ok: true, text }
    },
    // an interrupted window: the tracer goes, and its probes with it, and the profile it
    // opened and never wrote
    kill: () => {
      child.kill('SIGKILL')
      fs.rmSync(outFile, { force: true })
    }
  }
}

// `work` inside a tracer's window (traceProcesses's, or null for none): where work throws, the
// tracer is killed before the error goes on, its probes gone with it, rather than left attached
// until the bench exits (a throw ends the run, and the session stops its servers meanwhile: a
// review, 2026-12-07); where it returns, the caller stops it.
async function insideWindow (tracer, work) {
  try {
    return await work()
  } catch (err) {
    tracer?.kill()
    throw err
  }
}

let namesByNumber = null
// This architecture's syscall names by number (make writes them from its libc headers).
function syscallName (nr) {
  if (namesByNumber === null) {
    namesByNumber = new Map()
    if (fs.existsSync(NAMES_FILE)) {
      for (const line of fs.readFileSync(NAMES_FILE, 'utf8').split('\n')) {
        const [number, name] = line.split('\t')
        if (name) namesByNumber.set(Number(number), name)
      }
    }
  }
  return namesByNumber.get(nr) ?? `syscall_${nr}`
}

// A histogram bucket's bounds in ns (sysprof.bpf.c's bucket_of): exact below 16, then 16
// buckets per power of two.
function bucketBounds (bucket) {
  if (bucket < 16) return { low: bucket, high: bucket + 1 }
  const exponent = bucket >> 4
  const width = 2 ** (exponent - 4)
  const low = (16 + (bucket & 15)) * width
  return { low, high: low + width }
}

// The value below which a share q of a histogram's calls lie, interpolated within its
// bucket; null for an empty histogram. buckets: [[bucket, count]].
function quantile (buckets, q) {
  const sorted = [...buckets].sort((a, b) => a[0] - b[0])
  const total = sorted.reduce((sum, [, count]) => sum + count, 0)
  if (total === 0) return null
  const target = q * total
  let below = 0
  for (const [bucket, count] of sorted) {
    if (below + count >= target) {
      const { low, high } = bucketBounds(bucket)
      return low + (high - low) * (count ? (target - below) / count : 0)
    }
    below += count
  }
  const { high } = bucketBounds(sorted[sorted.length - 1][0])
  return high
}

const PERCENTILES = [0.1, 0.5, 0.9, 0.99]
const percentiles = buckets =>
  Object.fromEntries(PERCENTILES.map(q => [`p${Math.round(q * 100)}`, quantile(buckets, q)]))

function mergeBuckets (lists) {
  const merged = new Map()
  for (const list of lists) {
    for (const [bucket, count] of list) merged.set(bucket, (merged.get(bucket) ?? 0) + count)
  }
  return [...merged].sort((a, b) => a[0] - b[0])
}

// sysprof's JSON, read: every thread's calls by syscall, and the probes' own share of a
// call (floorNs: the median time of the calibration child's getppid calls between sys_enter
// and sys_exit, which is next to nothing but the probes). The calibration child is left out
// of everything else. Throws on text that is not sysprof's.
function parseProfile (text) {
  const raw = JSON.parse(text)
  if (raw.tool !== 'sysprof' || !Array.isArray(raw.stats)) throw new Error('not a sysprof profile')
  const calibrator = raw.calibration?.tgid ?? null
  const floorBuckets = raw.histograms
    .filter(([tgid, , nr]) => tgid === calibrator && nr === raw.calibration.nr)
    .map(([, , , , bucket, count]) => [bucket, count])
  const calls = raw.stats.filter(entry => entry.tgid !== calibrator).map(entry => ({
    tgid: entry.tgid,
    tid: entry.tid,
    comm: entry.comm,
    name: syscallName(entry.nr),
    watchedFd: entry.watchedFd,
    count: entry.count,
    errors: entry.errors,
    onCpuNs: entry.onCpuNs,
    wallNs: entry.wallNs,
    switches: entry.switches
  }))
  const histograms = raw.histograms.filter(([tgid]) => tgid !== calibrator)
    .map(([tgid, tid, nr, flags, bucket, count]) =>
      ({ tgid, tid, name: syscallName(nr), watchedFd: flags === 1, bucket, count }))
  return {
    lost: raw.lost,
    complete: raw.lost === 0,
    windowNs: raw.windowNs,
    // a traced command's own CPU time (null for a window on running processes)
    commandCpuNs: raw.commandCpuNs >= 0 ? raw.commandCpuNs : null,
    floorNs: quantile(floorBuckets, 0.5),
    processes: new Set(calls.map(call => call.tgid)).size,
    threads: new Set(calls.map(call => call.tid)).size,
    calls,
    histograms
  }
}

// A profile's calls summed by syscall over the threads `keep` picks (all by default), most
// called first: { name, count, errors, onCpuNs, wallNs, switches, percentiles }.
function bySyscall (profile, keep = () => true) {
  const rows = new Map()
  for (const call of profile.calls.filter(keep)) {
    const row = rows.get(call.name) ??
      { name: call.name, count: 0, errors: 0, onCpuNs: 0, wallNs: 0, switches: 0 }
    for (const field of ['count', 'errors', 'onCpuNs', 'wallNs', 'switches']) row[field] += call[field]
    rows.set(call.name, row)
  }
  const buckets = name => profile.histograms.filter(entry => entry.name === name && keep(entry))
    .map(entry => [entry.bucket, entry.count])
  return [...rows.values()]
    .map(row => ({ ...row, percentiles: percentiles(mergeBuckets([buckets(row.name)])) }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
}

// A window's calls by syscall, as a server's kernel pass keeps them (strace's names for the
// counts, so that both split alike): calls, failures, time on the CPU and the median call.
const windowCalls = (profile, keep) => bySyscall(profile, keep).map(row => ({
  name: row.name,
  calls: row.count,
  errors: row.errors,
  onCpuNs: row.onCpuNs,
  p50Ns: row.percentiles.p50
}))

// The calls `keep` picks (the reads of stdin: call => call.watchedFd), over every thread:
// their count, their time on the CPU and on the wall per call, the probes' floor taken off
// (kernelNs), how often one was switched out, and the distribution of their time on the CPU.
// Null when there were none.
function callSummary (profile, keep) {
  const calls = profile.calls.filter(keep)
  const count = calls.reduce((sum, call) => sum + call.count, 0)
  if (count === 0) return null
  const sum = field => calls.reduce((total, call) => total + call[field], 0)
  const buckets = mergeBuckets([profile.histograms.filter(keep).map(entry => [entry.bucket, entry.count])])
  const onCpuNs = sum('onCpuNs') / count
  return {
    count,
    onCpuNs,
    kernelNs: profile.floorNs === null ? null : onCpuNs - profile.floorNs,
    wallNs: sum('wallNs') / count,
    switchesPerCall: sum('switches') / count,
    percentiles: percentiles(buckets),
    buckets
  }
}

// Why a profile cannot be quoted, or null: a count that lost events is never complete.
function profileProblem (profile) {
  if (!profile.complete) {
    const lost = `${profile.lost} ${profile.lost === 1 ? 'event' : 'events'}`
    return `the kernel pass lost ${lost} (a full map): its counts are incomplete`
  }
  if (profile.floorNs === null) return 'the kernel pass has no calibration: its probes\' floor is unknown'
  return null
}

module.exports = {
  probeBpf,
  sysprofArgv,
  traceProcesses,
  insideWindow,
  parseProfile,
  bySyscall,
  windowCalls,
  callSummary,
  profileProblem,
  bucketBounds,
  quantile,
  syscallName,
  SYSPROF,
  REFUSED
}
