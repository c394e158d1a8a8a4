'use strict'
// perf (Debian's linux-perf) as the lab uses it: a command sampled by timer (cpu-clock: these
// VMs have no hardware counters) with its call graphs, then each sample's stack as `perf
// script` prints it. JIT code is named by the runtimes' own maps, which perf script reads
// from /tmp/perf-PID.map: V8's --perf-basic-prof (Node, Deno, the host), and JavaScriptCore's
// jitdump (Bun) turned into one.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const PERF = process.env.PERF || 'perf'
// Samples a second: enough for a bucket of a few percent in a run of a second or two, at a
// period whose phase against the kernel's tick moves fast: at 3989 Hz it sweeps a 250 Hz tick
// (Debian's) in 1.5 s, a 1000 Hz one in 0.4 s. At 4999 Hz twenty periods are 4.0008 ms, a 250
// Hz tick to within 0.8 µs (a sweep of 20 s, longer than any run), and the share of a reader's
// samples in the scheduler took whatever phase the process started at: C's 3.7-13.4% over four
// runs, where at 3989 Hz it held to 5.6-7.0%, within its samples' error (docs/profile.md,
// 2026-12-06).
const FREQUENCY = 3989
// V8's flags for perf: its JIT code named in /tmp/perf-PID.map, its interpreted frames given
// native ones. With them V8 leaves an isolate log where it runs.
const V8_PERF_FLAGS = ['--perf-basic-prof', '--interpreted-frames-native-stack']

// --no-bpf-event: perf's side-band thread for BPF programs waits out a poll of a second as
// perf exits, which a run of a fraction of one would spend idle. -k CLOCK_MONOTONIC: each
// sample's time on the clock pipe-run's samples carry, so that both cut the same window.
function perfRecordArgv (dataFile, { frequency = FREQUENCY } = {}) {
  return [PERF, 'record', '-q', '--no-bpf-event', '-k', 'CLOCK_MONOTONIC', '-e', 'cpu-clock', '-F', String(frequency),
    '-g', '-o', dataFile, '--']
}

// period: the CPU ns each sample stands for (cpu-clock's unit), which perf's frequency sets
function perfScriptArgv (dataFile) {
  return [PERF, 'script', '-i', dataFile, '-F', 'comm,pid,tid,time,period,ip,sym,dso']
}

// The line of perf's refusal that says why. perf prints "Error:" on a line of its own and
// its reason on the next (paranoid: "Access to performance monitoring and observability
// operations is limited."); under a seccomp filter that denies perf_event_open, as a
// container's default does, it first prints each failed try ("perf_event_open(...,
// PERF_FLAG_FD_CLOEXEC) failed with unexpected error 1"), which says less than "No permission
// to enable cpu-clock event." after it.
function refusalReason (stderr, status) {
  const lines = `${stderr ?? ''}`.split('\n').map(line => line.trim()).filter(Boolean)
  const afterError = lines.indexOf('Error:')
  return (afterError >= 0 ? lines[afterError + 1] : undefined) ?? lines[0] ?? `exit ${status}`
}

// Whether perf's recorded events leave the kernel out, from `perf evlist -v`: perf asks for
// cpu-clock in user space only (it names it cpu-clock:u and sets exclude_kernel) where
// kernel.perf_event_paranoid is 2 or more and the user lacks CAP_PERFMON (CAP_SYS_ADMIN before
// Linux 5.8), and says nothing of it; a read's CPU time is mostly the kernel's, so such a
// profile would miss most of it.
// Only the cpu-clock event counts: newer perf adds side-band events of its own (dummy:u).
const excludesKernel = evlistText => evlistText.split('\n')
  .some(line => line.startsWith('cpu-clock') && /\bexclude_kernel: 1\b/.test(line))

// What to do where perf may not sample the kernel and user space both. CAP_PERFMON came with
// Linux 5.8; before it, CAP_SYS_ADMIN is what lets a user past perf_event_paranoid.
const CAPABILITY = 'CAP_PERFMON (CAP_SYS_ADMIN before Linux 5.8)'
const REFUSAL_FIX = `run as root or with ${CAPABILITY}, or sysctl kernel.perf_event_paranoid=1; in a ` +
  'container, allow perf_event_open (docker run --cap-add PERFMON, Docker 23 or later; or ' +
  '--security-opt seccomp=unconfined, or --privileged)'
function paranoidSetting () {
  try {
    return fs.readFileSync('/proc/sys/kernel/perf_event_paranoid', 'utf8').trim()
  } catch {
    return 'unreadable'
  }
}

// Whether perf can sample here, kernel and user space both, or one line that says why not and
// how to fix it. It records `true` to a file of its own and reads back what perf recorded.
function probePerf () {
  const version = spawnSync(PERF, ['--version'], { encoding: 'utf8' })
  if (version.error) {
    return { available: false, reason: `${PERF} is not installed: apt-get install linux-perf, or point PERF= at one` }
  }
  let dir
  try {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-perf-probe-'))
  } catch (err) {
    const reason = `cannot make a folder for perf's probe in ${os.tmpdir()} (${err.code}): ` +
      'set TMPDIR to a writable folder'
    return { available: false, reason }
  }
  try {
    const data = path.join(dir, 'probe.data')
    // -N: nothing added to the user's ~/.debug for a probe
    const record = ['record', '-q', '-N', '-e', 'cpu-clock', '-o', data, '--', 'true']
    const tried = spawnSync(PERF, record, { encoding: 'utf8' })
    if (tried.status !== 0) {
      return {
        available: false,
        reason: `perf may not sample here (${refusalReason(tried.stderr, tried.status)}): ${REFUSAL_FIX}`
      }
    }
    // a perf whose evlist cannot read back its own recording is taken at its word
    const events = spawnSync(PERF, ['evlist', '-v', '-i', data], { encoding: 'utf8' })
    if (events.status === 0 && excludesKernel(events.stdout)) {
      return {
        available: false,
        reason: 'perf may sample user space only here (kernel.perf_event_paranoid is ' +
          `${paranoidSetting()}, and this user lacks ${CAPABILITY}), and a read is mostly the kernel's: ${REFUSAL_FIX}`
      }
    }
    return { available: true, version: version.stdout.trim() }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

// perf script's text, as -F comm,pid,tid,time,period,ip,sym,dso prints it (without period
// in runs from before it was asked for):
//   node 20318/20318 56256.982884:     200040
//       ffffffff8168b961 get_mem_cgroup_from_mm ([kernel.kallsyms])
//           7f45b54f2ad7 [unknown] ([unknown])
// → [{ comm, pid, tid, timeS, periodNs (null without), frames: [{ symbol, dso }] }], each
// stack leaf first.
const HEADER = /^(\S.*?)\s+(\d+)\/(\d+)\s+([\d.]+):\s*(\d+)?/
const FRAME = /^\s+[0-9a-f]+\s+(.*?)\s+\(([^()]*)\)$/
function parsePerfScript (text) {
  const samples = []
  let sample = null
  for (const line of text.split('\n')) {
    const header = HEADER.exec(line)
    if (header) {
      const [, comm, pid, tid, time, period] = header
      sample = {
        comm,
        pid: Number(pid),
        tid: Number(tid),
        timeS: Number(time),
        periodNs: period === undefined ? null : Number(period),
        frames: []
      }
      samples.push(sample)
      continue
    }
    const frame = FRAME.exec(line)
    if (frame && sample) sample.frames.push({ symbol: frame[1].replace(/\+0x[0-9a-f]+$/, ''), dso: frame[2] })
  }
  return samples
}

// A jitdump (the format of perf's tools/perf/Documentation/jitdump-specification.txt, which
// JavaScriptCore writes under BUN_JSC_useJITDump=1) → { pid, code: [{ start, size, name }] }:
// the code it says is loaded at the end, each range's latest load (JIT memory freed and used
// again for other code leaves the earlier entry stale). Little-endian files only; a record
// the writer did not finish, or one too short for its kind, ends the reading.
// Debian's perf 6.1 cannot inject it (`perf inject --jit` takes jit-PID.dump, JavaScriptCore
// writes jit-TID-PID.dump), so the lab gives perf script the same names as a perf map.
const JITDUMP_MAGIC = 0x4A695444
const FILE_HEADER_BYTES = 40
const JIT_CODE_LOAD = 0
const JIT_CODE_MOVE = 1
const RECORD_HEADER_BYTES = 16
// a load's fixed fields before its name (pid, tid, vma, address, size, index), a move's all
const LOAD_FIELDS_BYTES = 40
const MOVE_FIELDS_BYTES = 48
function readJitdump (buffer) {
  if (buffer.length < FILE_HEADER_BYTES || buffer.readUInt32LE(0) !== JITDUMP_MAGIC) {
    throw new Error('not a little-endian jitdump')
  }
  const pid = buffer.readUInt32LE(20)
  let code = []
  const overlaps = (entry, start, size) => entry.start < start + size && start < entry.start + entry.size
  for (let at = buffer.readUInt32LE(8); at + RECORD_HEADER_BYTES <= buffer.length;) {
    const [id, size] = [buffer.readUInt32LE(at), buffer.readUInt32LE(at + 4)]
    if (size < RECORD_HEADER_BYTES || at + size > buffer.length) break
    const [body, end] = [at + RECORD_HEADER_BYTES, at + size]
    if (id === JIT_CODE_LOAD) {
      const nameEnd = buffer.indexOf(0, body + LOAD_FIELDS_BYTES)
      if (body + LOAD_FIELDS_BYTES > end || nameEnd < 0 || nameEnd >= end) break
      const start = buffer.readBigUInt64LE(body + 16)
      const codeSize = buffer.readBigUInt64LE(body + 24)
      code = code.filter(entry => !overlaps(entry, start, codeSize))
      const name = buffer.toString('utf8', body + LOAD_FIELDS_BYTES, nameEnd)
      code.push({ start, size: codeSize, name, index: buffer.readBigUInt64LE(body + 32) })
    } else if (id === JIT_CODE_MOVE) {
      if (body + MOVE_FIELDS_BYTES > end) break
      const [to, index] = [buffer.readBigUInt64LE(body + 24), buffer.readBigUInt64LE(body + 40)]
      const moved = code.find(entry => entry.index === index)
      if (moved) {
        code = code.filter(entry => entry === moved || !overlaps(entry, to, moved.size))
        moved.start = to
      }
    }
    at = end
  }
  return { pid, code: code.map(({ start, size, name }) => ({ start, size, name })) }
}

// perf script reads a process's JIT names from /tmp/perf-PID.map: each jitdump in `dir`
// written as one → the maps written. A map already there for the pid is an earlier process's
// (JavaScriptCore writes none), so it is replaced. On a failure the maps written go too.
function perfMapsFromJitdumps (dir) {
  const written = []
  try {
    for (const file of fs.readdirSync(dir).filter(name => /^jit-[\d-]+\.dump$/.test(name))) {
      const { pid, code } = readJitdump(fs.readFileSync(path.join(dir, file)))
      const mapFile = `/tmp/perf-${pid}.map`
      written.push(mapFile)
      fs.writeFileSync(mapFile, code.map(({ start, size, name }) =>
        `${start.toString(16)} ${size.toString(16)} ${name}\n`).join(''))
    }
  } catch (err) {
    for (const mapFile of written) fs.rmSync(mapFile, { force: true })
    throw err
  }
  return written
}

module.exports = {
  PERF,
  FREQUENCY,
  V8_PERF_FLAGS,
  perfRecordArgv,
  perfScriptArgv,
  probePerf,
  excludesKernel,
  refusalReason,
  parsePerfScript,
  readJitdump,
  perfMapsFromJitdumps
}
