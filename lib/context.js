'use strict'
// What a result means depends on where it was measured: every run-id records the
// machine, the kernel, each runtime's exact version, the compiler and the options.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { ROOT, BUILD } = require('./paths')
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

function cpuModel () {
  const match = /^model name\s*:\s*(.+)$/m.exec(readText('/proc/cpuinfo') || '')
  return match ? match[1] : os.cpus()[0]?.model ?? 'unknown'
}

function machine () {
  return {
    kernel: os.release(),
    uname: command('uname', ['-srvm']),
    os: (/^PRETTY_NAME="?(.*?)"?$/m.exec(readText('/etc/os-release') || '') || [])[1] ?? null,
    cpuModel: cpuModel(),
    cores: os.cpus().length,
    memoryBytes: os.totalmem(),
    cpuGovernor: readText('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor'),
    pipeMaxSize: Number(readText('/proc/sys/fs/pipe-max-size')) || null,
    container: fs.existsSync('/.dockerenv') || fs.existsSync('/run/.containerenv'),
    ...syscallCostFactors()
  }
}

// What makes one machine's syscall dearer than another's of the same CPU model: the
// kernel's speculative-execution mitigations (a retpoline or an IBRS on every entry
// and exit), the switches on its command line that chose them, the clock source
// (tsc reads in user space; others cost a syscall per clock reading) and transparent
// huge pages (TLB misses on a reader's buffer).
const VULNERABILITIES = '/sys/devices/system/cpu/vulnerabilities'
const MITIGATION_SWITCH = /^(mitigations|nospectre_v1|nospectre_v2|spectre_v2|spectre_v2_user|spectre_bhi|spec_store_bypass_disable|ssbd|nopti|pti|kpti|mds|tsx|tsx_async_abort|l1tf|retbleed|srbds|mmio_stale_data|gather_data_sampling|reg_file_data_sampling|spec_rstack_overflow|nospec_store_bypass_disable|nospectre_bhb|ibrs|noibrs|noibpb|indirect_target_selection|tsa|vmscape)(=|$)/

function syscallCostFactors () {
  const names = quietly(() => fs.readdirSync(VULNERABILITIES).sort(), [])
  const commandLine = (readText('/proc/cmdline') || '').split(' -- ')[0].split(/\s+/)
  return {
    vulnerabilities: Object.fromEntries(names.map(name => [name, readText(path.join(VULNERABILITIES, name))])),
    mitigationSwitches: commandLine.filter(word => MITIGATION_SWITCH.test(word)),
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

function collectContext ({ runId, options, programs, ptrace, bpf, gcUnavailable, skipped }) {
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
    machine: machine(),
    runtimes: runtimeVersions(programs),
    compiler: quietly(compilerBuild),
    host: justHost(programs),
    strace: command('strace', ['-V'])?.split('\n')[0] ?? null,
    ptrace,
    // whether the kernel pass (lib/sysprof.js) could attach its probes, and why not
    bpf: bpf ?? null,
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
      note: program.note
    })),
    options
  }
}

module.exports = { collectContext }
