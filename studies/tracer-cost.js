'use strict'
// What each way of tracing syscalls from the kernel costs C's reader, per read: the
// lab's own probes (build/sysprof), libbpf-tools' `syscount -L` and a bpftrace script that
// keeps a latency histogram per syscall, against no tracer at all (docs/kernel.md).
//
//   node studies/tracer-cost.js [--rounds N] [--mib N] [--size B]
//
// Each round runs C's reader once under each tracer, in a shuffled order, dd and the
// reader on one CPU (pipe-run), the tracer's own process on the other. syscount and
// bpftrace trace the whole machine from before the run to after it; sysprof wraps the
// reader as the kernel pass does. The figure is the reader's CPU time per read, from its
// rusage (sysprof's: the command's own, without its loading and calibration), and what each
// tracer adds, the median of its rounds' differences from the same round's untraced run.
const path = require('node:path')
const fs = require('node:fs')
const os = require('node:os')
const { spawn } = require('node:child_process')
const { runPipeline, ddFeeder } = require('../lib/pipeline')
const { allowedCpus } = require('../lib/placement')
const { median, medianInterval, seededShuffle } = require('../lib/stats')
const { parseProfile, SYSPROF } = require('../lib/sysprof')
const { BUILD } = require('../lib/paths')
const { parseStudyOptions, needProbes } = require('./per-read')
const { runCli, RunFailed } = require('../lib/cli')
const { findOnPath } = require('../lib/runtimes')
const { UsageError, repeatCount, mibCount } = require('../lib/options')
const { parseBlockSizeOption } = require('../experiments/stdio/options')

const USAGE = `usage: node studies/tracer-cost.js [--rounds N] [--mib N] [--size B]
  each tracer's cost to C's reader per read: the lab's probes, syscount -L, bpftrace
  --rounds N       rounds; every tracer and none once in each, shuffled (default 10)
  --mib N          MiB a run reads (default 64)
  --size B         the reader's block size, a power of two (default 256)
  --help           this text`
const BPFTRACE_SCRIPT = `tracepoint:raw_syscalls:sys_enter /comm == "wc-c"/ { @start[tid] = nsecs; }
tracepoint:raw_syscalls:sys_exit /@start[tid]/ { @ns[args->id] = hist(nsecs - @start[tid]); delete(@start[tid]); }`

// A machine-wide tracer held from before a run to after it: resolves once it says it is
// attached (under stdbuf: both print through stdio, which holds a pipe's lines back);
// stop() ends it.
async function holdTracer (argv, readyLine, cpu) {
  const child = spawn('taskset', ['-c', String(cpu), ...argv], { stdio: ['ignore', 'pipe', 'pipe'] })
  let said = ''
  await new Promise((resolve, reject) => {
    const listen = chunk => {
      said += chunk
      if (said.includes(readyLine)) resolve()
    }
    child.stdout.on('data', listen)
    child.stderr.on('data', listen)
    child.on('exit', code => reject(new Error(`${argv[0]} exited ${code}: ${said.trim().split('\n').pop()}`)))
  })
  // bpftrace says "Attaching" just before it attaches
  await new Promise(resolve => setTimeout(resolve, 300))
  return {
    stop: () => new Promise(resolve => {
      child.removeAllListeners('exit')
      child.on('exit', resolve)
      child.kill('SIGINT')
    })
  }
}

function parse (argv) {
  const spec = { rounds: { type: 'string' }, mib: { type: 'string' }, size: { type: 'string' } }
  return parseStudyOptions(argv, spec, USAGE, values => ({
    rounds: repeatCount(values.rounds ?? '10', 'rounds', 1),
    mib: mibCount(values.mib ?? '64', 'mib', 1),
    size: parseBlockSizeOption(values.size ?? '256', '--size')
  }))
}

async function run (options, stopped) {
  const cpus = allowedCpus()
  const readerCpu = cpus[cpus.length - 1]
  const tracerCpu = cpus[0]
  const pin = { feeder: readerCpu, reader: readerCpu }
  const bytes = options.mib * (1 << 20)
  const reader = [path.join(BUILD, 'wc-c'), String(options.size)]
  // checked before the scratch folder is made, so that a refusal leaves nothing behind
  const missing = ['syscount', 'bpftrace'].filter(tool => findOnPath(tool) === null)
  if (missing.length) {
    throw new UsageError(`${missing.join(' and ')} not installed: apt-get install libbpf-tools bpftrace`)
  }
  needProbes()
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tracer-cost-'))
  const script = path.join(scratch, 'latency.bt')
  const profileFile = path.join(scratch, 'profile.json')
  const tracers = {
    none: { reader },
    sysprof: { reader: ['taskset', '-c', String(readerCpu), SYSPROF, '--fd', '0', '--out', profileFile, '--', ...reader] },
    'syscount -L': { reader, hold: () => holdTracer(['stdbuf', '-oL', 'syscount', '-L'], 'Tracing syscalls', tracerCpu) },
    bpftrace: { reader, hold: () => holdTracer(['stdbuf', '-oL', 'bpftrace', script], 'Attaching', tracerCpu) }
  }
  const shuffle = seededShuffle('tracer-cost')
  const perRead = Object.fromEntries(Object.keys(tracers).map(name => [name, []]))
  try {
    fs.writeFileSync(script, BPFTRACE_SCRIPT)
    for (let round = 0; round < options.rounds && !stopped(); round++) {
      for (const name of shuffle(Object.keys(tracers))) {
        const tracer = tracers[name]
        const held = tracer.hold ? await tracer.hold() : null
        const result = await runPipeline({ feeder: ddFeeder(bytes, 65536), reader: tracer.reader, timeoutMs: 120000, pin })
        if (held) await held.stop()
        const reads = Number(/reads (\d+)/.exec(result.stdout)?.[1])
        if (result.reader.exit !== 0 || !reads) {
          throw new RunFailed(`${name}: the reader failed: ${result.stderr.trim()}`)
        }
        const cpuNs = name === 'sysprof'
          ? parseProfile(fs.readFileSync(profileFile, 'utf8')).commandCpuNs
          : (result.reader.userUs + result.reader.sysUs) * 1000
        perRead[name].push(cpuNs / reads)
        console.error(`round ${round + 1}: ${name} ${(cpuNs / reads).toFixed(1)} ns/read`)
      }
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
  console.log(`C's reader, ${options.size} B reads of ${options.mib} MiB, dd and the reader on CPU ${readerCpu}, ` +
    `tracers on CPU ${tracerCpu}; ${options.rounds} rounds; CPU ns per read (rusage):`)
  console.log('tracer        median  added over none (median of rounds, interval)')
  for (const name of Object.keys(tracers)) {
    const added = perRead[name].map((value, round) => value - perRead.none[round]).filter(Number.isFinite)
    const interval = medianInterval(added)
    const range = interval ? ` [${interval.low.toFixed(0)}, ${interval.high.toFixed(0)}] at ${(interval.level * 100).toFixed(1)}%` : ''
    const over = name === 'none' ? '' : `${median(added).toFixed(0)}${range}`
    console.log(`${name.padEnd(12)} ${median(perRead[name]).toFixed(0).padStart(7)}  ${over}`)
  }
  return 0
}

if (require.main === module) runCli({ name: 'tracer-cost.js', usage: USAGE, parse, run, measures: true })
