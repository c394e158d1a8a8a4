'use strict'
// What a result means depends on where it was measured: every run-id records the
// machine, the kernel, each runtime's exact version, the compiler and the options.
const crypto = require('node:crypto')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { ROOT, BUILD } = require('./paths')
const { machineIdentity } = require('./machine')
const { allowedCpus } = require('./placement')
const { cpuQuota } = require('./cgroup')
const { runtimes, runtimeVersion, binarySha256, compilerBuild } = require('./runtimes')

function quietly (fn, fallback = null) {
  try {
    return fn()
  } catch {
    return fallback
  }
}

function command (bin, args) {
  return quietly(() => execFileSync(bin, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 20000 }).trim())
}

function readText (file) {
  return quietly(() => fs.readFileSync(file, 'utf8').trim())
}

// A field of /proc/cpuinfo's first CPU (or of `text`, cpuinfo's form), null where it has none.
function cpuInfoField (name, text = readText('/proc/cpuinfo')) {
  const match = new RegExp(`^${name}\\s*:\\s*(.+)$`, 'm').exec(text || '')
  return match ? match[1].trim() : null
}

function cpuModel () {
  return cpuInfoField('model name') ?? os.cpus()[0]?.model ?? 'unknown'
}

// A VM's CPU often reports a generic model name ("Intel(R) Xeon(R) Processor"); its
// family, model and stepping tell the generations apart. An arm64 kernel names none of
// them, but the core's implementer, architecture, part and its variant and revision ("r3p1"),
// which tell cores apart alike (until 2026-12-07 such runs were keyed with no CPU id). A
// big.LITTLE chip's cores differ: each kind's part and revision, in the order of the CPUs,
// joined by "+" ("0xd05+0xd0b"), where the first core's alone named the chip (a review).
function cpuId (text = readText('/proc/cpuinfo')) {
  const field = name => cpuInfoField(name, text)
  const number = name => (field(name) === null ? null : Number(field(name)))
  const vendor = field('vendor_id')
  if (vendor) {
    const microcode = field('microcode')
    return { vendor, family: number('cpu family'), model: number('model'), stepping: number('stepping'), microcode }
  }
  const implementer = field('CPU implementer')
  if (!implementer) return null
  const cores = (text ?? '').split(/\n\s*\n/).filter(block => cpuInfoField('CPU part', block) !== null)
  const kinds = list => [...new Set(list)].join('+')
  return {
    vendor: `implementer ${implementer}`,
    family: number('CPU architecture'),
    model: kinds(cores.map(core => cpuInfoField('CPU part', core))),
    stepping: kinds(cores.map(core =>
      `r${Number(cpuInfoField('CPU variant', core))}p${cpuInfoField('CPU revision', core)}`)),
    microcode: null
  }
}

// Whether a container wraps the process, and by what sign (null where none shows): the
// files Docker and podman leave; the one systemd writes for a container it runs in (nspawn,
// LXC's systemd); PID 1's `container=` (LXC, podman, nspawn; readable where PID 1 is ours);
// a cgroup (v1) path that names a container's manager (containerd, CRI-O, Kubernetes, LXC);
// Kubernetes' variables in a pod; last, a PID namespace other than the host's (the kernel's
// first is PROC_PID_INIT_INO, 4026531836), which containerd's containers under cgroup v2 show
// where they show nothing else (so do sandboxes such as bwrap's). Before 2026-12-07 only the
// first two files counted, and a review found containerd's, CRI-O's and LXC's containers keyed
// as bare machines.
const CONTAINER_CGROUP = /\/(docker|kubepods|containerd|cri-containerd|crio|libpod|lxc)[-/.:]/
const HOST_PID_NAMESPACE = 'pid:[4026531836]'
const pidNamespace = () => quietly(() => fs.readlinkSync('/proc/self/ns/pid'))
function containerSign ({ exists = fs.existsSync, read = readText, env = process.env, namespace = pidNamespace } = {}) {
  for (const file of ['/.dockerenv', '/run/.containerenv', '/run/systemd/container']) {
    if (exists(file)) return file
  }
  const init = /(?:^|\0)container=([^\0]+)/.exec(read('/proc/1/environ') ?? '')
  if (init) return `PID 1's container=${init[1]}`
  const cgroup = (read('/proc/self/cgroup') ?? '').split('\n').find(line => CONTAINER_CGROUP.test(line))
  if (cgroup) return `cgroup ${cgroup.split(':').slice(2).join(':')}`
  if (env.KUBERNETES_SERVICE_HOST) return 'KUBERNETES_SERVICE_HOST'
  const own = namespace()
  if (own && own !== HOST_PID_NAMESPACE) return `PID namespace ${own}`
  return null
}

function machine (cpus = allowedCpus()) {
  const container = containerSign()
  return {
    kernel: os.release(),
    uname: command('uname', ['-srvm']),
    os: (/^PRETTY_NAME="?(.*?)"?$/m.exec(readText('/etc/os-release') || '') || [])[1] ?? null,
    cpuModel: cpuModel(),
    cores: os.cpus().length,
    cpusAllowed: cpus.join(','),
    memoryBytes: os.totalmem(),
    cpuGovernor: readText('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor'),
    pipeMaxSize: Number(readText('/proc/sys/fs/pipe-max-size')) || null,
    container: container !== null,
    containerSign: container,
    cpu: cpuId(),
    ...syscallCostFactors(),
    ...speedFacts()
  }
}

// The hypervisor, from what an unprivileged process can read: the CPU's hypervisor
// flag, then the paravirtual clock or the firmware's vendor that names it.
const PARAVIRT_CLOCKS = { 'kvm-clock': 'KVM', xen: 'Xen', hyperv_clocksource_tsc_page: 'Hyper-V' }
function hypervisor () {
  const flags = cpuInfoField('flags') ?? ''
  if (!/\bhypervisor\b/.test(flags)) return flags ? 'none' : null
  const xen = readText('/sys/hypervisor/type')
  if (xen) return xen
  const clocks = (readText('/sys/devices/system/clocksource/clocksource0/available_clocksource') || '')
    .split(/\s+/)
  const named = clocks.map(clock => PARAVIRT_CLOCKS[clock]).find(Boolean)
  if (named) return named
  const vendor = readText('/sys/class/dmi/id/sys_vendor')
  return vendor ? `unnamed (firmware: ${vendor})` : 'unnamed'
}

// Facts that explain a speed without defining the machine: caches, clock, the
// governor, the kernel's tick, a PMU for counters, and a cgroup CPU quota (which
// throttles a busy reader and bends its slope).
function speedFacts () {
  const caches = cpuCaches()
  const maxKHz = Number(readText('/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq'))
  const mhz = Number(cpuInfoField('cpu MHz'))
  return {
    hypervisor: hypervisor(),
    caches,
    frequencyMHz: Number.isFinite(mhz) && mhz > 0 ? Math.round(mhz) : null,
    maxFrequencyMHz: maxKHz > 0 ? Math.round(maxKHz / 1000) : null,
    hz: kernelHz(),
    pmu: ['cpu', 'cpu_core', 'cpu_atom'].some(name => fs.existsSync(`/sys/bus/event_source/devices/${name}`)) ||
      quietly(() => fs.readdirSync('/sys/bus/event_source/devices').some(name => /^armv\d/.test(name)), false),
    // cpu.max's form, the tightest on the process's cgroup path (lib/cgroup.js)
    cpuQuota: cpuQuota()?.cpuMax ?? null
  }
}

// CPU 0's caches as sysfs lists them: [{ level, type, size ("266240K"), sharedWith }].
function cpuCaches (cacheDir = '/sys/devices/system/cpu/cpu0/cache') {
  return quietly(() => fs.readdirSync(cacheDir).filter(name => name.startsWith('index')), [])
    .map(name => ({
      level: Number(readText(path.join(cacheDir, name, 'level'))),
      type: readText(path.join(cacheDir, name, 'type')),
      size: readText(path.join(cacheDir, name, 'size')),
      sharedWith: readText(path.join(cacheDir, name, 'shared_cpu_list'))
    }))
}

// The last-level cache's size in bytes, or null where sysfs names none.
function lastLevelCacheBytes (caches = cpuCaches()) {
  const UNITS = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }
  const sized = caches.map(cache => ({ ...cache, match: /^(\d+)([KMG]?)$/.exec(cache.size ?? '') }))
    .filter(cache => cache.match && cache.type !== 'Instruction')
  if (sized.length === 0) return null
  const last = sized.reduce((a, b) => (b.level > a.level ? b : a))
  return Number(last.match[1]) * UNITS[last.match[2]]
}

// CONFIG_HZ from the kernel's own configuration, where it publishes one.
function kernelHz () {
  const config = command('sh', ['-c', 'zcat /proc/config.gz 2>/dev/null || cat /boot/config-$(uname -r)']) ?? ''
  const match = /^CONFIG_HZ=(\d+)$/m.exec(config)
  return match ? Number(match[1]) : null
}

// What makes one machine's syscall dearer than another's of the same CPU model: the
// kernel's speculative-execution mitigations (a retpoline or an IBRS on every entry
// and exit), the switches on its command line that chose them, the clock source
// (tsc reads in user space; others cost a syscall per clock reading) and transparent
// huge pages (TLB misses on a reader's buffer).
const VULNERABILITIES = '/sys/devices/system/cpu/vulnerabilities'
const MITIGATION_SWITCH = /^(mitigations|nospectre_v1|nospectre_v2|spectre_v2|spectre_v2_user|spectre_bhi|spec_store_bypass_disable|ssbd|nopti|pti|kpti|mds|tsx|tsx_async_abort|l1tf|retbleed|srbds|mmio_stale_data|gather_data_sampling|reg_file_data_sampling|spec_rstack_overflow|nospec_store_bypass_disable|nospectre_bhb|ibrs|noibrs|noibpb|indirect_target_selection|tsa|vmscape)(=|$)/

// The kernel command line's switches that choose mitigations, in its order; what follows " -- "
// is init's, not the kernel's.
const mitigationSwitches = (cmdline = readText('/proc/cmdline') || '') =>
  cmdline.split(' -- ')[0].split(/\s+/).filter(word => MITIGATION_SWITCH.test(word))

// The seccomp filters the bench runs under, and so every process it starts (they are
// inherited and cannot be dropped): each system call runs them before its own work, their
// cost in every figure (a container engine's default profile, a systemd unit's
// SystemCallFilter). "none" (also where the kernel has no seccomp: no "Seccomp:" line),
// "strict", "N filters" (Seccomp_filters, Linux 5.9 on), or "filters" where the count is not
// given; null where /proc/self/status cannot be read.
function seccompFilters (status = readText('/proc/self/status')) {
  if (!status) return null
  const mode = /^Seccomp:\s*(\d)/m.exec(status)?.[1]
  if (mode === undefined || mode === '0') return 'none'
  if (mode === '1') return 'strict'
  if (mode !== '2') return null
  const count = /^Seccomp_filters:\s*(\d+)/m.exec(status)?.[1]
  return count === undefined ? 'filters' : `${count} filter${count === '1' ? '' : 's'}`
}

function syscallCostFactors () {
  const names = quietly(() => fs.readdirSync(VULNERABILITIES).sort(), [])
  return {
    vulnerabilities: Object.fromEntries(names.map(name => [name, readText(path.join(VULNERABILITIES, name))])),
    mitigationSwitches: mitigationSwitches(),
    seccomp: seccompFilters(),
    clockSource: readText('/sys/devices/system/clocksource/clocksource0/current_clocksource'),
    transparentHugePages: (/\[(\w+)\]/.exec(readText('/sys/kernel/mm/transparent_hugepage/enabled') || '') || [])[1] ?? null
  }
}

// The Docker image has no .git: its build writes the commit it was given into
// build/lab-commit. LAB_COMMIT names it anywhere else git cannot.
function labCommit () {
  const named = command('git', ['rev-parse', '--short', 'HEAD']) ?? process.env.LAB_COMMIT ?? readText(path.join(BUILD, 'lab-commit'))
  return named && named !== 'unknown' ? named : null
}

function gitDirty () {
  const status = command('git', ['status', '--porcelain'])
  return status === null ? null : status !== ''
}

function runtimeVersions (programs) {
  const used = {}
  for (const program of programs) {
    const runtime = runtimes[program.runtime]
    used[program.runtime] ??= { label: runtime.label, binary: runtime.locate(), version: runtimeVersion(program.runtime) }
  }
  return used
}

// Which just binary ran the just rows: its version as a script reads it (just(js)
// has no --version) and its checksum, which tells two builds of one version apart.
function justHost (programs) {
  const binary = runtimes.just.locate()
  const used = programs.some(program => program.runtime === 'just')
  return {
    binary,
    version: used ? runtimeVersion('just') : null,
    sha256: used ? quietly(() => binarySha256(binary)) : null,
    selectedBy: process.env.JUST ? 'JUST environment variable' : 'the lab\'s own build/just-host'
  }
}

function fileSha256 (file) {
  return crypto.createHash('sha256').update(fs.readFileSync(path.join(ROOT, file))).digest('hex').slice(0, 16)
}

// The key analyse.js recomputes from the facts (lib/machine.js), written down so that
// a folder of runs can be sorted by machine with grep.
function withIdentity (facts) {
  const { key, slug } = machineIdentity({ machine: facts })
  return { ...facts, key, slug }
}

// This machine as a context records it, on the CPUs the passes may use.
const machineFacts = cpus => withIdentity(machine(cpus))

// machine: machineFacts(cpus), read by the caller, which checks it before the run begins
function collectContext ({ runId, options, programs, ptrace, bpf, perf, gcUnavailable, skipped, machine }) {
  return {
    runId,
    date: new Date().toISOString(),
    lab: {
      commit: labCommit(),
      dirty: gitDirty(),
      bench: process.argv.slice(2),
      node: process.version,
      pinnedVersions: process.env.LAB_PINNED_VERSIONS || null
    },
    machine,
    runtimes: runtimeVersions(programs),
    compiler: quietly(compilerBuild),
    host: justHost(programs),
    strace: command('strace', ['-V'])?.split('\n')[0] ?? null,
    ptrace,
    // whether the kernel pass (lib/sysprof.js) could attach its probes, and why not
    bpf: bpf ?? null,
    perf: perf ?? null,
    gcUnavailable,
    skipped,
    // The table as it was for this run, so a report made by a later lab labels it right.
    programs: programs.map(program => ({
      name: program.name,
      runtime: program.runtime,
      honoursBlockSize: program.honoursBlockSize,
      ring: program.ring === true,
      ...(program.ringWindow ? { ringWindow: program.ringWindow } : {}),
      ...(program.fastest ? { fastest: program.fastest } : {}),
      ...(program.wasi ? { wasi: true } : {}),
      ...(program.hostChunks ? { hostChunks: program.hostChunks } : {}),
      // which code ran, so that runs of two lab commits compare a reader only where it
      // is the same file (lib/report/machines.js)
      ...(program.file ? { sourceSha256: quietly(() => fileSha256(program.file)) } : {}),
      note: program.note
    })),
    options
  }
}

module.exports = {
  collectContext,
  machineFacts,
  cpuCaches,
  lastLevelCacheBytes,
  containerSign,
  cpuId,
  mitigationSwitches,
  seccompFilters
}
