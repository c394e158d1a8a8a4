#!/usr/bin/env node
'use strict'
// bench.js: runs an experiment and writes results/<run-id>/. stdio (the default): every
// program of lib/programs.js across block sizes, fed by dd; calls: the call ladder of
// experiments/calls/ladder.js, each variant's rungs from a no-op call to a 256-byte read. The pipeline:
// parse options → plan the runs → measure (start-up, timing, cost, ladder, strace, GC
// passes) → summarise → print.
const fs = require('node:fs')
const path = require('node:path')
const { parseArgs } = require('node:util')

const { ROOT, displayPath } = require('./lib/paths')
const { runtimes, pinnedNodeVersion, MEASURED_NODE_VERSIONS } = require('./lib/runtimes')
const { programs, listing, checkTable, extraModules, withNodeVersions, unavailableReason, fileFeedReason, BASELINE } = require('./lib/programs')
const { parseBlockSize, DEFAULT_BLOCK_SIZES } = require('./lib/blocksize')
const { UsageError, wholeNumber, SAFE_NAME, SAFE_NAME_RULE, matchOnly, outDirProblem, makeDirs } = require('./lib/options')
const { runCli } = require('./lib/cli')
const { readLog, writeDerived, runsByPhase, LOG_FILE } = require('./lib/run-log')
const { acquireRunLock } = require('./lib/run-lock')
const { shellQuote } = require('./lib/pipeline')
const { ZeroFile } = require('./lib/zero-file')
const { measure, probePtrace, feederBlockSize, inputLabel } = require('./experiments/stdio/measure')
const { allowedCpus, placementPlan, checkedPlacement, placementNote, pinSelf } = require('./lib/placement')
const headline = require('./experiments/stdio/cost')
const calls = require('./experiments/calls/ladder')
const http = require('./experiments/http/http')
const { collectContext } = require('./lib/context')
const { waitForQuiet, MAX_REMEASURES } = require('./lib/foreign')
const { seededRandom } = require('./lib/stats')
const { writeJsonAtomic } = require('./lib/atomic')
const { renderTerminal } = require('./lib/report/text')

const MiB = 1 << 20

// Bytes per timed run, by block size: enough reads that start-up (~0.1 s for Node)
// is a small part of the run, few enough that the whole default lab fits in about
// ten minutes on two cores (measured: see README, "Choosing the defaults"). --quick
// saves time on runs, sizes and strace, not on timed bytes: shorter timed runs leave a
// steady-state figure that is mostly the start-up time taken off.
//
// The cost pass, the headline (experiments/stdio/cost.js), runs at COST_SIZES: the smallest block,
// where a read's cost shows most, one page, and the study's 64 KiB. Its rounds give the
// intervals: 20 leave the 6th and 15th of 20 as the 95.9% interval of the median, 6 (the
// fewest that give one) the lowest and highest. 20, not 10: resampling two back-to-back
// runs' rounds, two runs of 10 missed the repeatability goal (every share within 2
// points but one in 30) in 37% of pairs with nothing changed, of 16 in 11%, of 20 in 5%
// (docs/reproducibility.md); the pass takes about 2.5 minutes. Each run's reader is
// sampled every COST_SAMPLE_MS for the slope of its CPU time over its reads
// (experiments/stdio/cost.js).
const COST_SIZES = [256, 4096, 65536]
const COST_READS = 1 << 17
const COST_MAX_MIB = 1024
const COST_MIN_MIB = 64
const COST_SAMPLE_MS = 1
const PRESETS = {
  default: { runs: 10, warmup: 1, sizes: DEFAULT_BLOCK_SIZES, minMiB: 64, maxMiB: 256, readsPerRun: 1 << 18, straceMiB: 4, costRounds: 20 },
  quick: { runs: 3, warmup: 1, sizes: [256, 4096, 65536], minMiB: 64, maxMiB: 256, readsPerRun: 1 << 18, straceMiB: 1, costRounds: 6 }
}

const DEFAULT_TIMEOUT_SECONDS = 120

const USAGE = `usage: node bench.js [options]
  --experiment E     stdio (default): the stdin readers across block sizes;
                     calls: the call ladder, each runtime's ns for a no-op call into C,
                     a getppid(2), an empty read and a 256-byte read of the pipe, and the
                     cost pass at 256 B for the stdin readers that read alike. With calls:
                     --only picks variants (${calls.variants.map(variant => variant.name).join(', ')}),
                     --processes N ladder processes per variant (default 10, --quick 6),
                     --rounds N the cost pass's rounds; and --quick, --timeout, --out,
                     --id, --resume, --report, --list as below;
                     http: hello-world servers (${http.servers.map(server => server.name).join(', ')})
                     under wrk on 127.0.0.1, keep-alive and Connection: close: requests/s,
                     latency, CPU and syscalls per request. With http: --only picks
                     servers, --runs N wrk runs of 1 s per cell (default 4, --quick 1),
                     --connections A,B,... (default 1,16,128; --quick 16), --no-strace;
                     and --quick, --timeout, --out, --id, --resume, --report, --list
  --only NAME        this program (repeatable; default: all); a name without '@' also picks
                     its rows of --node's versions (node-sync: node-sync@22 ...), and '*'
                     stands for any run of characters: --only 'node-*', --only '*-ffi'
  --sizes A,B,...    block sizes, powers of two (default: 256 ... 65536)
  --node V,V,...     measure these pinned Node versions side by side (majors or exact
                     versions of package.json's measuredNodeVersions: ${MEASURED_NODE_VERSIONS.join(', ')}):
                     the Node rows become node-sync@22, node-sync@26 ... (default: one row
                     each on ${MEASURED_NODE_VERSIONS[0]}, or on NODE=/path/to/node)
  --runs N           timed runs per cell (default 10, the study's best of ten; best,
                     median and spread are kept)
  --rounds N         rounds of the cost pass, the headline: each reader's CPU time per
                     read against C's, dd and the reader on one CPU, at 256, 4096 and
                     65536 of --sizes (or the smallest given) (default 20; --quick 6;
                     6 or more for an interval)
  --no-cost          skip the cost pass (the report then has no headline)
  --warmup N         untimed runs before each cell (default 1)
  --feeder MODE      fixed: dd writes 64 KiB blocks whatever the reader reads (default)
                     matched: dd's block size equals the reader's, as in the original study
                     file: no pipe and no dd: the reader's stdin is a file of zeros in tmpfs
  --mib N            MiB per timed run at every block size (default: scaled by block size;
                     the cost pass's runs take at least 64 MiB, for the slope)
  --marginal         also time runs of a quarter of the bytes, for the marginal throughput
                     of the bytes between: start-up and JIT warm-up cancel (a quarter more
                     bytes, and a start-up per quarter run)
  --quick            3 runs, 3 sizes, shorter strace runs: a couple of minutes
  --pin              the timing pass with dd and the reader on separate CPUs (by default
                     both run on one, as in the cost pass: docs/placement.md)
  --timeout S        seconds before one run counts as hung (default 120)
  --no-strace        skip the syscall profile pass
  --no-gc            skip the GC trace pass
  --out DIR          where run folders go (default results/)
  --id NAME          name of the run folder (default: the date and time)
  --resume ID        continue an interrupted run (a run folder name or path)
  --report           write the run's report with analyse.js when the bench is done
  --list             list every program, whether it can run here (and why not), and its
                     command line at the first of --sizes (default 65536); --json as JSON
  --help             this text`

const EXPERIMENTS = ['stdio', 'calls', 'http']

const OPTION_SPEC = {
  experiment: { type: 'string' },
  processes: { type: 'string' },
  connections: { type: 'string' },
  only: { type: 'string', multiple: true },
  sizes: { type: 'string' },
  node: { type: 'string' },
  runs: { type: 'string' },
  rounds: { type: 'string' },
  'no-cost': { type: 'boolean' },
  warmup: { type: 'string' },
  feeder: { type: 'string' },
  mib: { type: 'string' },
  quick: { type: 'boolean' },
  marginal: { type: 'boolean' },
  pin: { type: 'boolean' },
  timeout: { type: 'string' },
  'no-strace': { type: 'boolean' },
  'no-gc': { type: 'boolean' },
  out: { type: 'string' },
  id: { type: 'string' },
  resume: { type: 'string' },
  report: { type: 'boolean' },
  list: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean' }
}

// What each option takes, for the message that refuses an empty value: an empty value
// is a mistake (an unset shell variable, a stray quote), never a way to ask for the default.
const OPTION_VALUES = {
  experiment: 'stdio, calls or http',
  processes: 'a whole number',
  connections: 'connection counts such as 1,16,128',
  only: 'a program\'s name, or a pattern such as \'node-*\'',
  sizes: 'block sizes such as 4096,65536',
  node: `Node versions such as ${MEASURED_NODE_VERSIONS.map(version => version.split('.')[0]).join(',')}`,
  runs: 'a whole number',
  rounds: 'a whole number',
  warmup: 'a whole number',
  feeder: 'fixed, matched or file',
  mib: 'a whole number of MiB',
  timeout: 'a whole number of seconds',
  out: 'a folder',
  id: 'a name for the run folder',
  resume: 'a run folder (its path, or its name in results/)'
}

function parseOptions (argv) {
  let values
  try {
    values = parseArgs({ args: argv, options: OPTION_SPEC, strict: true, allowPositionals: false }).values
  } catch (err) {
    const unknown = /Unknown option '([^']+)'/.exec(err.message)
    if (unknown) throw new UsageError(`unknown option ${unknown[1]}; see node bench.js --help`)
    const missing = /Option '--([\w-]+)[^']*' argument missing/.exec(err.message)
    if (missing) throw new UsageError(`--${missing[1]} needs ${OPTION_VALUES[missing[1]] ?? 'a value'}; see node bench.js --help`)
    // parseArgs will not take a value that begins with '-' after a space (a forgotten
    // value?): a negative number is then read as the option's value, so that it meets
    // that option's own check ("--runs must be a whole number of at least 1, not '-1'").
    const ambiguous = /Option '--([\w-]+)' argument is ambiguous/.exec(err.message)
    if (ambiguous) {
      const at = argv.findIndex((arg, i) => arg === `--${ambiguous[1]}` && argv[i + 1]?.startsWith('-'))
      const value = argv[at + 1]
      if (/^-\d/.test(value)) return parseOptions([...argv.slice(0, at), `--${ambiguous[1]}=${value}`, ...argv.slice(at + 2)])
      throw new UsageError(`--${ambiguous[1]} needs ${OPTION_VALUES[ambiguous[1]] ?? 'a value'}, not '${value}'; a value that begins with '-' is written --${ambiguous[1]}=${value}`)
    }
    throw new UsageError(`${err.message.split('.')[0]}; see node bench.js --help`)
  }
  for (const [name, value] of Object.entries(values)) {
    if ([value].flat().some(text => typeof text === 'string' && text.trim() === '')) {
      throw new UsageError(`--${name} is empty; give ${OPTION_VALUES[name]}, or leave --${name} out${name === 'resume' ? ' to start a new run' : ' for its default'}`)
    }
  }
  if (values.help) return { help: true }
  const experiment = values.experiment ?? 'stdio'
  if (!EXPERIMENTS.includes(experiment)) throw new UsageError(`--experiment must be ${OPTION_VALUES.experiment}, not '${experiment}'`)
  if (experiment === 'calls') return parseCallsOptions(values)
  if (experiment === 'http') return parseHttpOptions(values)
  if (values.connections) throw new UsageError('--connections sets the http experiment\'s load: add --experiment http, or drop --connections')
  if (values.processes) throw new UsageError('--processes sets the call ladder: add --experiment calls, or drop --processes')
  delete values.experiment
  if (values.list || values.json) {
    const others = Object.keys(values).filter(key => !['list', 'json', 'sizes', 'node'].includes(key))
    if (!values.list) throw new UsageError('--json goes with --list')
    if (others.length) throw new UsageError(`--list takes only --json, --sizes and --node; drop ${others.map(key => `--${key}`).join(', ')}`)
    const sizes = values.sizes === undefined ? [65536] : values.sizes.split(',').map(text => parseBlockSizeOption(text))
    const nodeVersions = values.node === undefined ? [] : values.node.split(',').map(text => parseNodeVersion(text))
    return { list: true, json: Boolean(values.json), blockSize: sizes[0], nodeVersions }
  }
  if (values.resume) {
    const others = Object.keys(values).filter(key => key !== 'resume' && key !== 'report')
    if (others.length) throw new UsageError(`--resume continues a run with its own options; drop ${others.map(key => `--${key}`).join(', ')}`)
    return { resume: values.resume, report: Boolean(values.report) }
  }
  const preset = values.quick ? PRESETS.quick : PRESETS.default
  const options = {
    preset: values.quick ? 'quick' : 'default',
    only: values.only ?? [],
    sizes: values.sizes ? values.sizes.split(',').map(text => parseBlockSizeOption(text)) : preset.sizes,
    nodeVersions: values.node === undefined ? [] : [...new Set(values.node.split(',').map(text => parseNodeVersion(text)))],
    runs: values.runs ? wholeNumber(values.runs, 'runs', 1) : preset.runs,
    cost: !values['no-cost'],
    costRounds: values.rounds ? wholeNumber(values.rounds, 'rounds', 1) : preset.costRounds,
    warmup: values.warmup ? wholeNumber(values.warmup, 'warmup', 0) : preset.warmup,
    feeder: values.feeder ?? 'fixed',
    mib: values.mib ? wholeNumber(values.mib, 'mib', 1) : null,
    marginal: Boolean(values.marginal),
    pin: Boolean(values.pin),
    strace: !values['no-strace'],
    gc: !values['no-gc'],
    ...runOptions(values, preset)
  }
  if (!['fixed', 'matched', 'file'].includes(options.feeder)) throw new UsageError(`--feeder must be fixed, matched or file, not '${options.feeder}'`)
  const unmatchable = options.only.find(pattern => !SAFE_NAME.test(pattern.replaceAll('*', '_')))
  if (unmatchable !== undefined) throw new UsageError(`--only '${unmatchable}' can match no program: a program's name is ${SAFE_NAME_RULE}`)
  options.sizes = [...new Set(options.sizes)].sort((a, b) => a - b)
  const costSizes = options.sizes.filter(size => COST_SIZES.includes(size))
  options.costSizes = options.cost ? (costSizes.length ? costSizes : [options.sizes[0]]) : []
  if (values.rounds && !options.cost) throw new UsageError('--rounds sets the cost pass, which --no-cost skips: drop one of them')
  if (options.marginal) {
    const tooFew = options.sizes.find(blockSize => quarterBytes(options, blockSize) === null)
    if (tooFew) throw new UsageError(`--marginal at ${tooFew} B needs at least 8 of dd's ${feederBlockSize(options, tooFew)}-byte blocks per run: give a larger --mib`)
  }
  return options
}

// The calls experiment: the ladder, then the cost pass at 256 B for the stdin readers
// that read as the ladders do (experiments/calls/ladder.js), so the two measures of a read meet in one
// run; no start-up, timing, strace or GC pass.
const CALLS_OPTIONS = ['experiment', 'only', 'processes', 'rounds', 'quick', 'timeout', 'out', 'id', 'resume', 'report', 'list', 'json']

function parseCallsOptions (values) {
  const early = listOrResume(values, 'calls', CALLS_OPTIONS)
  if (early) return early
  const preset = values.quick ? PRESETS.quick : PRESETS.default
  const ladderPreset = values.quick ? calls.PRESETS.quick : calls.PRESETS.default
  const options = {
    experiment: 'calls',
    preset: values.quick ? 'quick' : 'default',
    only: values.only ?? [],
    sizes: [calls.BLOCK],
    nodeVersions: [],
    runs: 0,
    cost: true,
    costRounds: values.rounds ? wholeNumber(values.rounds, 'rounds', 1) : preset.costRounds,
    costSizes: [calls.BLOCK],
    ladder: { ...ladderPreset, processes: values.processes ? wholeNumber(values.processes, 'processes', 1) : ladderPreset.processes },
    warmup: 0,
    feeder: 'fixed',
    mib: null,
    marginal: false,
    pin: false,
    strace: false,
    gc: false,
    ...runOptions(values, preset, 'calls-')
  }
  const problem = calls.checkCounts(options.ladder)
  if (problem) throw new UsageError(problem)
  return options
}

// The http experiment: every server of experiments/http/http.js under wrk in both modes at each count
// of connections, then the strace pass per server and mode.
const HTTP_OPTIONS = ['experiment', 'only', 'runs', 'connections', 'quick', 'timeout', 'no-strace', 'out', 'id', 'resume', 'report', 'list', 'json']
// wrk opens each connection as a socket of its own: past this, a run measures the
// limits of file descriptors and ports more than a server.
const MAX_CONNECTIONS = 1024

function parseHttpOptions (values) {
  const early = listOrResume(values, 'http', HTTP_OPTIONS)
  if (early) return early
  const preset = values.quick ? http.PRESETS.quick : http.PRESETS.default
  const connections = values.connections
    ? [...new Set(values.connections.split(',').map(text => wholeNumber(text, 'connections', 1)))].sort((a, b) => a - b)
    : preset.connections
  if (connections.some(count => count > MAX_CONNECTIONS)) throw new UsageError(`--connections ${Math.max(...connections)} is more than ${MAX_CONNECTIONS}; give counts from 1 to ${MAX_CONNECTIONS}`)
  const options = {
    experiment: 'http',
    preset: values.quick ? 'quick' : 'default',
    only: values.only ?? [],
    sizes: [],
    nodeVersions: [],
    runs: values.runs ? wholeNumber(values.runs, 'runs', 1) : preset.runs,
    http: { ...preset, connections },
    modes: http.MODES,
    cost: false,
    costRounds: 1,
    costSizes: [],
    warmup: 0,
    feeder: 'fixed',
    mib: null,
    marginal: false,
    pin: false,
    strace: !values['no-strace'],
    gc: false,
    ladder: null,
    ...runOptions(values, PRESETS.default, 'http-')
  }
  options.http.runs = options.runs
  return options
}

// What an experiment other than stdio refuses (an option it does not take), and its
// --list and --resume, which take no other option: the parsed options, or null for a run.
function listOrResume (values, experiment, taken) {
  const others = Object.keys(values).filter(key => !taken.includes(key))
  if (others.length) throw new UsageError(`--experiment ${experiment} does not take ${others.map(key => `--${key}`).join(', ')}; see node bench.js --help`)
  if (values.list || values.json) {
    if (!values.list) throw new UsageError('--json goes with --list')
    return { list: true, json: Boolean(values.json), experiment }
  }
  if (values.resume) {
    const extra = Object.keys(values).filter(key => !['resume', 'report', 'experiment'].includes(key))
    if (extra.length) throw new UsageError(`--resume continues a run with its own options; drop ${extra.map(key => `--${key}`).join(', ')}`)
    return { resume: values.resume, report: Boolean(values.report) }
  }
  return null
}

// What every experiment's run takes alike: its timeout, its folder (--out, and --id,
// by default the date and time after `idPrefix`), the preset's byte counts, --report.
function runOptions (values, preset, idPrefix = '') {
  const id = values.id ?? `${idPrefix}${new Date().toISOString().replace(/\.\d+Z$/, '').replace(/[:T]/g, '-')}`
  if (!SAFE_NAME.test(id)) throw new UsageError(`--id '${id}' names a folder: use ${SAFE_NAME_RULE}`)
  return {
    timeoutSeconds: values.timeout ? wholeNumber(values.timeout, 'timeout', 1) : DEFAULT_TIMEOUT_SECONDS,
    out: path.resolve(values.out ?? path.join(ROOT, 'results')),
    id,
    minMiB: preset.minMiB,
    maxMiB: preset.maxMiB,
    readsPerRun: preset.readsPerRun,
    straceMiB: preset.straceMiB,
    report: Boolean(values.report)
  }
}

function parseBlockSizeOption (text) {
  try {
    return parseBlockSize(text)
  } catch (err) {
    throw new UsageError(`--sizes: ${err.message}`)
  }
}

function parseNodeVersion (text) {
  try {
    return pinnedNodeVersion(text)
  } catch (err) {
    throw new UsageError(`--node: ${err.message}`)
  }
}

// A resume runs the programs its run began with (`recorded`), not whatever --only would
// pick from today's table; each of them must still run here. A program --only names must
// run here too; one a pattern picks is skipped, as is one of the whole table, if not.
function selectPrograms (options, recorded = null) {
  if (options.experiment === 'calls') return selectVariants(options, recorded)
  if (options.experiment === 'http') return selectServers(options, recorded)
  const table = withNodeVersions(programs, options.nodeVersions ?? [])
  const names = table.map(program => program.name)
  const { picked, named, unmatched } = recorded ? { picked: [], named: new Set(), unmatched: [] } : matchOnly(names, options.only)
  if (unmatched.length) throw new UsageError(`--only ${unmatched[0]} matches no program; the programs are: ${names.join(', ')}`)
  const chosen = recorded ?? (options.only.length ? table.filter(program => picked.includes(program.name)) : table)
  const skipped = []
  const runnable = []
  for (const program of chosen) {
    const reason = unavailableReason(program)
    const notFromFile = options.feeder === 'file' ? fileFeedReason(program) : null
    if (reason !== null && recorded) throw new UsageError(`cannot resume: ${program.name}, which this run measured, cannot run here: ${reason}`)
    if (reason !== null && named.has(program.name)) throw new UsageError(`cannot run ${program.name}: ${reason}`)
    if (reason !== null) skipped.push({ program: program.name, reason })
    else if (notFromFile !== null) skipped.push({ program: program.name, reason: `not with --feeder file: ${notFromFile}` })
    else runnable.push(program)
  }
  if (runnable.length === 0) throw new UsageError(`no program left to run: ${skipped.map(skip => `${skip.program}, ${skip.reason}`).join('; ')}`)
  return { runnable, skipped }
}

// The calls experiment's variants, as selectPrograms picks programs (C's always: every
// other variant's parts are taken against it), and the stdin readers of its cost pass.
function selectVariants (options, recorded) {
  const names = calls.variants.map(variant => variant.name)
  const { picked, named, unmatched } = recorded ? { picked: [], named: new Set(), unmatched: [] } : matchOnly(names, options.only)
  if (unmatched.length) throw new UsageError(`--only ${unmatched[0]} matches no variant of the call ladder; they are: ${names.join(', ')}`)
  const chosen = recorded ?? calls.variants.filter(variant => !options.only.length || variant.name === BASELINE || picked.includes(variant.name))
  const skipped = []
  const variants = []
  for (const variant of chosen) {
    const reason = calls.unavailableReason(variant)
    if (reason !== null && (recorded || named.has(variant.name) || variant.name === BASELINE)) throw new UsageError(`cannot run the ladder of ${variant.name}: ${reason}`)
    if (reason !== null) skipped.push({ program: variant.name, reason })
    else variants.push(variant)
  }
  const runnable = calls.stdinPrograms(variants).filter(program => {
    const reason = unavailableReason(program)
    if (reason !== null) skipped.push({ program: program.name, reason: `its cost pass cannot run: ${reason}` })
    return reason === null
  })
  return { runnable, variants, skipped }
}

// The http experiment's servers, as selectPrograms picks programs (c-epoll's always:
// every other server's requests/s is set against it).
function selectServers (options, recorded) {
  const names = http.servers.map(server => server.name)
  const { picked, named, unmatched } = recorded ? { picked: [], named: new Set(), unmatched: [] } : matchOnly(names, options.only)
  if (unmatched.length) throw new UsageError(`--only ${unmatched[0]} matches no server of the http experiment; they are: ${names.join(', ')}`)
  const chosen = recorded ?? http.servers.filter(server => !options.only.length || server.name === http.REFERENCE || picked.includes(server.name))
  const skipped = []
  const runnable = []
  for (const server of chosen) {
    const reason = unavailableReason(server) ?? http.loadReason()
    if (reason !== null && (recorded || named.has(server.name) || server.name === http.REFERENCE)) throw new UsageError(`cannot run the server ${server.name}: ${reason}`)
    if (reason !== null) skipped.push({ program: server.name, reason })
    else runnable.push(server)
  }
  return { runnable, skipped }
}

function bytesPerRun (options, blockSize) {
  if (options.mib) return options.mib * MiB
  return Math.min(options.maxMiB * MiB, Math.max(options.minMiB * MiB, blockSize * options.readsPerRun))
}

// The bytes of a --marginal run: a quarter of a timed run's, in whole dd blocks (any
// bytes from a file), or null when a run is too short to leave two blocks to a quarter.
function quarterBytes (options, blockSize) {
  const unit = options.feeder === 'file' ? 1 : feederBlockSize(options, blockSize)
  const blocks = Math.floor(bytesPerRun(options, blockSize) / 4 / unit)
  return blocks >= 2 ? blocks * unit : null
}

// A cost round's run: 2^17 reads' worth of bytes, at least 64 MiB and at most 1 GiB
// (--mib N: N MiB). Its window, from 30% to 98% of the bytes, then holds some 90,000
// reads or more, past the JIT's warm-up, and at least 8 samples a millisecond apart
// (about 70 for C at 256 B, the fastest).
// --mib sets it too, but never below COST_MIN_MIB: C reads 64 MiB of 64 KiB blocks in
// about 30 ms, barely enough samples for a slope.
function costBytes (options, blockSize) {
  return options.mib ? Math.max(COST_MIN_MIB, options.mib) * MiB : Math.min(COST_MAX_MIB * MiB, Math.max(options.minMiB * MiB, blockSize * COST_READS))
}

// ---- the plan: every run, in order ----

// The order of the readers within each round, shuffled afresh each round: in a fixed
// order C always ran first, so whatever the machine did at the start of a round fell on
// C alone. Seeded by the run's id, so that a resumed run plans the same steps.
function seededShuffle (seed) {
  // the id's FNV-1a hash seeds the generator
  const random = seededRandom([...String(seed)].reduce((hash, char) => Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0, 2166136261))
  return list => {
    const out = [...list]
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1))
      ;[out[i], out[j]] = [out[j], out[i]]
    }
    return out
  }
}

// Start-up and timing runs go in rounds: at each block size, round r runs every program
// once before round r + 1 starts, so a machine whose speed drifts during the bench (a
// busy neighbour on the host, a throttled CPU) slows every program alike instead of the
// cells that happened to run then. Each step is one run; steps of a group (a round, or
// one profile) share a progress line and a rewrite of the derived files. A cell's
// warm-up runs come before the first of its runs that this bench makes, so a resumed
// cell is warmed again.
//
// The cost pass comes after the timing runs, in rounds of its own: each round runs every
// reader that honours the block size, C among them, once at every cost size, on one CPU
// (costPin), sampled for the slope of its CPU time, unwarmed: the timing runs have loaded
// every binary. A round holds every size so that each cell's rounds spread over the whole
// pass: the machine's state drifts over minutes, and two back-to-back runs whose rounds
// of a size sat within one minute each disagreed on 9 of 30 headline cells (their
// readers' CPU per read moved by up to 6% while C's held within 1%).
function plan (options, selected, ptrace, placement = placementPlan(allowedCpus()), variants = [], shuffle = seededShuffle(options.id ?? '')) {
  if (options.experiment === 'http') return http.planHttp(selected, { ...options, strace: options.strace && ptrace.available }, placement.http)
  const costPin = placement.shared
  const timingPin = options.pin ? placement.apart : placement.shared
  const steps = options.experiment === 'calls' ? calls.planLadder(variants, options, costPin) : []
  const largest = options.sizes[options.sizes.length - 1]
  // each round runs every program once in each of `runsOf` (a phase and its bytes)
  const rounds = (blockSize, runsOf) => {
    for (let run = 0; run < options.runs; run++) {
      const group = `${runsOf[0].phase} @ ${blockSize}, run ${run + 1} of ${options.runs}`
      for (const program of shuffle(selected)) {
        for (const { phase, bytes } of runsOf) {
          steps.push({ phase, program, blockSize, bytes, run, warmup: options.warmup, pin: timingPin, group, label: `${group}: ${program.name}${phase === runsOf[0].phase ? '' : ` (${phase})`}` })
        }
      }
    }
  }
  rounds(largest, [{ phase: 'startup', bytes: 0 }])
  for (const blockSize of options.sizes) {
    const quarter = options.marginal ? [{ phase: 'timing-quarter', bytes: quarterBytes(options, blockSize) }] : []
    rounds(blockSize, [{ phase: 'timing', bytes: bytesPerRun(options, blockSize) }, ...quarter])
  }
  const honouring = selected.filter(program => program.honoursBlockSize)
  const costSizes = honouring.length ? options.costSizes ?? [] : []
  for (let run = 0; run < options.costRounds && costSizes.length; run++) {
    const group = `cost, round ${run + 1} of ${options.costRounds}`
    for (const blockSize of costSizes) {
      const bytes = costBytes(options, blockSize)
      for (const program of shuffle(honouring)) {
        steps.push({ phase: headline.PHASE, program, blockSize, bytes, run, warmup: 0, pin: costPin, ownFeeder: true, sampleMs: COST_SAMPLE_MS, group, label: `${group}: ${program.name} @ ${blockSize}` })
      }
    }
  }
  const profile = step => {
    const group = `${step.phase} ${step.program.name} @ ${step.blockSize}${step.phase === 'strace' ? ` (${inputLabel(step.bytes)})` : ''}`
    steps.push({ ...step, run: 0, warmup: 0, pin: costPin, group, label: group })
  }
  if (options.strace && ptrace.available) {
    for (const program of selected) {
      for (const blockSize of options.sizes) {
        const { small, large } = straceBytes(options, blockSize)
        for (const bytes of [small, large]) profile({ phase: 'strace', program, blockSize, bytes })
      }
    }
  }
  if (options.gc) {
    for (const program of selected.filter(program => runtimes[program.runtime].v8Flags)) {
      for (const blockSize of options.sizes) profile({ phase: 'gc', program, blockSize, bytes: bytesPerRun(options, blockSize) })
    }
  }
  return steps
}

// The cell a run belongs to; its runs are logged in order, so a cell with n runs
// logged has done runs 0 … n - 1. A syscall profile is made at two input sizes; runs
// from before that profiled the main thread and every thread apart (straceMode).
function cellKey (step) {
  return [step.phase, step.program.name ?? step.program, step.blockSize, step.straceMode ?? '', step.phase === 'strace' ? step.bytes : '', step.mode ?? '', step.connections ?? '', step.requests ?? ''].join('\t')
}

// The strace pass at each program and block size: one run under strace -C -f at each of
// two input sizes (lib/strace.js: every thread's summary, the main thread's counts and
// each read of stdin, from the one run). Syscalls per MiB come from the difference of the
// two, where start-up's calls (loading, the runtime's own files and threads, exit) are in
// both and cancel (experiments/stdio/summary.js); each run's reads are checked against what the reader
// says it did. The sizes are a quarter and three quarters of straceMiB (1 and 3 MiB by
// default, 256 and 768 KiB with --quick), in whole dd blocks: the difference is half of
// straceMiB. The pass used to run strace -c twice at straceMiB (main thread, then every
// thread) and twice on empty input per program; it now traces half the bytes with two
// start-ups per cell, and printing each call costs about a third more than counting it:
// measured on node-sync and deno-ffi at the nine default sizes, the pass takes no longer.
function straceBytes (options, blockSize) {
  const unit = feederBlockSize(options, blockSize)
  const small = Math.max(unit, Math.floor(options.straceMiB * MiB / 4 / unit) * unit)
  return { small, large: 3 * small }
}

// ---- the results folder ----

// Where the run goes and with what options, all checked before anything is written:
// a new run's folder must be one bench may make and hold no run yet; a resumed run's
// context must hold every option bench needs and name programs the table still has.
function openRun (parsed) {
  if (parsed.resume) return openResumed(parsed.resume)
  const problem = outDirProblem(parsed.out)
  if (problem) throw new UsageError(`--out ${parsed.out}: ${problem}`)
  const runDir = path.join(parsed.out, parsed.id)
  if (fs.existsSync(runDir) && !fs.statSync(runDir).isDirectory()) throw new UsageError(`${runDir} is a file, not a run folder; pick another --id or --out`)
  refuseHeldRun(runDir)
  return { runDir, options: parsed, resumed: false, recorded: null }
}

function refuseHeldRun (runDir) {
  if (fs.existsSync(path.join(runDir, 'all.jsonl'))) {
    throw new UsageError(`${runDir} already holds a run; continue it with --resume ${displayPath(runDir)}, or pick another --id`)
  }
}

function openResumed (given) {
  let runDir
  if (fs.existsSync(given)) runDir = path.resolve(given)
  else if (SAFE_NAME.test(given)) runDir = path.join(ROOT, 'results', given)
  else throw new UsageError(`--resume ${given}: no such folder; give a run folder's path, or its name in results/`)
  if (fs.existsSync(runDir) && !fs.statSync(runDir).isDirectory()) throw new UsageError(`--resume ${given}: ${runDir} is a file; give the run folder that holds it`)
  const contextFile = path.join(runDir, 'context.json')
  if (!fs.existsSync(contextFile)) throw new UsageError(`--resume ${given}: no ${contextFile}; give a run folder bench.js made`)
  let context
  try {
    context = JSON.parse(fs.readFileSync(contextFile, 'utf8'))
  } catch (err) {
    throw new UsageError(`--resume: ${contextFile} is not valid JSON (${err.message.split('\n')[0]}); start a new run`)
  }
  const problem = resumedContextProblem(context)
  if (problem) throw new UsageError(`--resume: ${contextFile} ${problem}: it is not a whole context of bench.js's; restore it, or start a new run`)
  const folderProblem = outDirProblem(runDir)
  if (folderProblem) throw new UsageError(`--resume ${given}: ${folderProblem}`)
  const options = { ...LATER_OPTIONS, ...context.options }
  const recorded = options.experiment === 'calls' ? recordedVariants(context) : options.experiment === 'http' ? recordedServers(context) : recordedPrograms(context, options)
  return { runDir, options, resumed: true, recorded }
}

// What a resume takes from context.json, field by field, so that a context cut short
// or edited by hand is refused at the start, not met as a TypeError mid-run.
const isWhole = min => value => Number.isInteger(value) && value >= min
const isBoolean = value => typeof value === 'boolean'
const isStrings = value => Array.isArray(value) && value.every(item => typeof item === 'string')
const isBlockSize = value => {
  try {
    return typeof value === 'number' && parseBlockSize(String(value)) === value
  } catch {
    return false
  }
}
const RESUMED_OPTIONS = {
  only: [isStrings, 'a list of names'],
  // an http run reads no block sizes ([])
  sizes: [(value, options) => Array.isArray(value) && (options.experiment === 'http' ? value.length === 0 : value.length > 0 && value.every(isBlockSize)), 'a list of block sizes'],
  // a calls run times no stdio runs (0)
  runs: [(value, options) => isWhole(options.experiment === 'calls' ? 0 : 1)(value), 'a whole number of at least 1'],
  http: [(value, options) => options.experiment !== 'http' || (isWhole(1)(value?.runs) && isWhole(1)(value?.seconds) && Array.isArray(value?.connections) && value.connections.length > 0 && value.connections.every(isWhole(1)) && isWhole(1)(value?.straceRequests?.small) && value.straceRequests.large > value.straceRequests.small), 'the http experiment\'s { runs, seconds, connections, straceRequests }'],
  modes: [(value, options) => options.experiment !== 'http' || (Array.isArray(value) && value.length > 0 && value.every(mode => http.MODES.includes(mode))), `a list of ${http.MODES.join(' and ')}`],
  warmup: [isWhole(0), 'a whole number'],
  feeder: [value => ['fixed', 'matched', 'file'].includes(value), 'fixed, matched or file'],
  mib: [value => value === null || isWhole(1)(value), 'null or a whole number of at least 1'],
  timeoutSeconds: [isWhole(1), 'a whole number of at least 1'],
  strace: [isBoolean, 'true or false'],
  gc: [isBoolean, 'true or false'],
  minMiB: [isWhole(1), 'a whole number of at least 1'],
  maxMiB: [isWhole(1), 'a whole number of at least 1'],
  readsPerRun: [isWhole(1), 'a whole number of at least 1'],
  straceMiB: [isWhole(1), 'a whole number of at least 1'],
  marginal: [isBoolean, 'true or false'],
  pin: [isBoolean, 'true or false'],
  cost: [isBoolean, 'true or false'],
  costRounds: [isWhole(1), 'a whole number of at least 1'],
  costSizes: [value => Array.isArray(value) && value.every(isBlockSize), 'a list of block sizes'],
  nodeVersions: [value => isStrings(value) && value.every(version => MEASURED_NODE_VERSIONS.includes(version)), `a list of the lab's pinned Node versions (${MEASURED_NODE_VERSIONS.join(', ')})`],
  experiment: [value => EXPERIMENTS.includes(value), OPTION_VALUES.experiment],
  ladder: [value => value === null || (['processes', 'rounds', 'calls', 'reads'].every(key => isWhole(1)(value?.[key])) && calls.checkCounts(value) === null), 'null or the ladder\'s { processes, rounds, calls, reads }']
}
// Options added after runs had been measured: an older run lacks them, and ran as these say.
const LATER_OPTIONS = { marginal: false, pin: false, nodeVersions: [], cost: false, costRounds: 1, costSizes: [], experiment: 'stdio', ladder: null, http: null, modes: null }

function resumedContextProblem (context) {
  if (!context || typeof context !== 'object' || Array.isArray(context)) return 'is not an object'
  const options = context.options
  if (!options || typeof options !== 'object' || Array.isArray(options)) return 'has no options'
  for (const [name, [valid, what]] of Object.entries(RESUMED_OPTIONS)) {
    if (options[name] === undefined && name in LATER_OPTIONS) continue
    if (!valid(options[name], options)) return `has options.${name} ${JSON.stringify(options[name]) ?? 'missing'}, not ${what}`
  }
  if (!Array.isArray(context.programs) || context.programs.length === 0) return 'has no list of the programs it measured'
  const badProgram = context.programs.find(program => typeof program?.name !== 'string' || !SAFE_NAME.test(program.name))
  if (badProgram !== undefined) return `lists a program ${JSON.stringify(badProgram?.name ?? badProgram)}, which is no program's name`
  if (context.extraPrograms !== undefined && !(Array.isArray(context.extraPrograms) && context.extraPrograms.every(extra => typeof extra?.module === 'string' && isStrings(extra.programs)))) {
    return 'has extraPrograms that are not a list of { module, programs }'
  }
  return null
}

// The rows of the programs a run measured, from today's table; one it no longer has
// (an extra program not loaded, a row since removed) stops the resume, naming the fix.
function recordedPrograms (context, options) {
  const table = withNodeVersions(programs, options.nodeVersions)
  const names = context.programs.map(program => program.name)
  const missing = names.filter(name => !table.some(row => row.name === name))
  if (missing.length) {
    const modules = [...new Set((context.extraPrograms ?? []).filter(extra => extra.programs.some(name => missing.includes(name))).map(extra => extra.module))]
    const fix = modules.length
      ? `set LAB_EXTRA_PROGRAMS=${modules.join(':')} as when it started`
      : `define them again (in lib/programs.js, or a module in LAB_EXTRA_PROGRAMS), or resume with the lab at ${context.lab?.commit ? `commit ${context.lab.commit}` : 'the commit it was measured with'}`
    throw new UsageError(`cannot resume: this run measured ${missing.join(', ')}, which ${missing.length === 1 ? 'is' : 'are'} not defined now; ${fix}`)
  }
  return names.map(name => table.find(row => row.name === name))
}

// A calls run's variants, from today's table (experiments/calls/ladder.js).
function recordedVariants (context) {
  const names = Array.isArray(context.ladderVariants) ? context.ladderVariants.map(variant => variant?.name) : []
  if (names.length === 0) throw new UsageError('--resume: its context.json lists no ladder variants; start a new run')
  const missing = names.filter(name => !calls.findVariant(name))
  if (missing.length) throw new UsageError(`cannot resume: this run measured the ladder of ${missing.join(', ')}, which experiments/calls/ladder.js no longer has; resume with the lab at ${context.lab?.commit ? `commit ${context.lab.commit}` : 'the commit it was measured with'}`)
  return names.map(name => calls.findVariant(name))
}

// An http run's servers, from today's table (experiments/http/http.js).
function recordedServers (context) {
  const names = Array.isArray(context.programs) ? context.programs.map(program => program?.name) : []
  const missing = names.filter(name => !http.servers.some(server => server.name === name))
  if (missing.length) throw new UsageError(`cannot resume: this run measured the server${missing.length === 1 ? '' : 's'} ${missing.join(', ')}, which experiments/http/http.js no longer has; resume with the lab at ${context.lab?.commit ? `commit ${context.lab.commit}` : 'the commit it was measured with'}`)
  return names.map(name => http.servers.find(server => server.name === name))
}

// Makes the run folder and takes its lock, after every check that could refuse the run.
function lockRun (runDir, resumed) {
  makeDirs(runDir)
  const lock = acquireRunLock(runDir, { makeError: message => new UsageError(message), note: message => console.log(`note: ${message}`) })
  // a bench that finished while this one was starting has left a run here
  if (!resumed) refuseHeldRun(runDir)
  return lock
}

// ---- printing ----

function printListing (rows, json) {
  if (json) {
    console.log(JSON.stringify(rows, null, 2))
    return
  }
  for (const row of rows) {
    const status = row.available ? 'ok' : `unavailable: ${row.unavailable}`
    const kind = row.boundary ? `${row.boundary}; reads: ${row.read}` : row.kind ?? (row.honoursBlockSize ? 'honours bs' : 'own chunks')
    console.log(`${row.name.padEnd(14)} ${kind}  ${status}`)
    console.log(`${''.padEnd(14)} $ ${row.command}`)
  }
}

function formatDuration (ms) {
  const seconds = Math.round(ms / 1000)
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s` : `${seconds}s`
}

// A terminal keeps one line, rewritten before every run; a log gets one line per group,
// so a ten-minute bench leaves a log that can be read.
function progress ({ runsDone, runsTotal, startedAt, label, groupStarts }) {
  if (!process.stdout.isTTY && !groupStarts) return
  const elapsed = Date.now() - startedAt
  const eta = runsDone > 0 ? formatDuration((elapsed / runsDone) * (runsTotal - runsDone)) : '?'
  const line = `step ${runsDone + 1} of ${runsTotal}, ${formatDuration(elapsed)} elapsed, ETA ${eta}  ${label}`
  if (process.stdout.isTTY) process.stdout.write(`\r\x1b[K${line}`)
  else process.stdout.write(line + '\n')
}

// How often something else ran on the measured CPUs, and what the bench did about it.
function printDisturbance (disturbance) {
  if (!disturbance?.disturbed) return
  const { steps, disturbed, remeasured, keptDisturbed, threshold } = disturbance
  console.log(`\nforeign CPU time: ${disturbed} tr${disturbed === 1 ? 'y' : 'ies'} of ${steps} steps shared their CPUs with other work (over ${threshold.share * 100}% of their CPU time); ${remeasured} measured again once the CPUs were quiet` +
    (keptDisturbed ? `, ${keptDisturbed} still disturbed after ${threshold.maxRemeasures} tries and flagged 'disturbed': this machine was busy` : ''))
}

// Each failure with the pipeline that reproduces it, then, once per failed cell, the
// bench that measures that cell again as this run did.
function printFailures (failures, runDir, options, rows) {
  if (failures.length === 0) return
  console.log(`\n${failures.length} failed run(s); each is excluded from the results (details in ${path.join(runDir, LOG_FILE)}):`)
  for (const failure of failures) {
    console.log(`- ${failure.phase} ${failure.program} ${failure.mode ? `${failure.mode}, ${failure.connections} connections${failure.requests ? `, ${failure.requests} requests` : ''}` : `@ ${failure.blockSize}`}: ${failure.reason}`)
    console.log(`  re-run: ${failure.command}`)
  }
  const commands = [...new Set(failures.map(failure => cellCommand(options, failure, rows)))]
  console.log(`measure ${commands.length === 1 ? 'the failed cell' : 'a failed cell'} again in the lab:`)
  for (const command of commands) console.log(`  ${command}`)
}

// The bench that measures one cell (a program at a block size) as `options` did: the
// options that shape a run, the Node version of a versioned row, and the module of a row
// from LAB_EXTRA_PROGRAMS.
function cellCommand (options, { phase, program, blockSize, connections }, rows) {
  if (options.experiment === 'calls') return callsCommand(options, program)
  if (options.experiment === 'http') return httpCommand(options, program, phase === http.STRACE_PHASE ? null : connections)
  const preset = options.preset === 'quick' ? PRESETS.quick : PRESETS.default
  const args = [...(options.preset === 'quick' ? ['--quick'] : []), '--only', program, '--sizes', blockSize]
  const major = /@(\d+)$/.exec(program)
  if (major) args.push('--node', major[1])
  if (options.runs !== preset.runs) args.push('--runs', options.runs)
  if (options.cost && options.costRounds !== preset.costRounds) args.push('--rounds', options.costRounds)
  if (options.warmup !== preset.warmup) args.push('--warmup', options.warmup)
  if (options.feeder !== 'fixed') args.push('--feeder', options.feeder)
  if (options.mib) args.push('--mib', options.mib)
  if (options.marginal) args.push('--marginal')
  if (options.pin) args.push('--pin')
  if (options.timeoutSeconds !== DEFAULT_TIMEOUT_SECONDS) args.push('--timeout', options.timeoutSeconds)
  if (!options.strace) args.push('--no-strace')
  if (!options.gc) args.push('--no-gc')
  if (!options.cost) args.push('--no-cost')
  const module = rows.find(row => row.name === program)?.module
  return `${module ? `LAB_EXTRA_PROGRAMS=${shellQuote([module])} ` : ''}node bench.js ${shellQuote(args.map(String))}`
}

// A calls run's failed cell, a ladder or a reader's cost pass, measured again: the
// ladder of the variant (or of the variant whose stdin reader it is) with C's.
function callsCommand (options, program) {
  const variant = calls.findVariant(program) ?? calls.variants.find(entry => entry.stdin === program)
  const quick = options.preset === 'quick'
  const ladderPreset = quick ? calls.PRESETS.quick : calls.PRESETS.default
  const preset = quick ? PRESETS.quick : PRESETS.default
  const args = ['--experiment', 'calls', ...(quick ? ['--quick'] : []), ...(variant && variant.name !== BASELINE ? ['--only', variant.name] : [])]
  if (options.ladder.processes !== ladderPreset.processes) args.push('--processes', options.ladder.processes)
  if (options.costRounds !== preset.costRounds) args.push('--rounds', options.costRounds)
  if (options.timeoutSeconds !== DEFAULT_TIMEOUT_SECONDS) args.push('--timeout', options.timeoutSeconds)
  return `node bench.js ${shellQuote(args.map(String))}`
}

// An http run's failed cell measured again: its server with c-epoll's, at its count of
// connections (a failed strace run, connections null: at the run's counts), both modes.
function httpCommand (options, program, connections) {
  const quick = options.preset === 'quick'
  const preset = quick ? http.PRESETS.quick : http.PRESETS.default
  const args = ['--experiment', 'http', ...(quick ? ['--quick'] : []), ...(program !== http.REFERENCE ? ['--only', program] : [])]
  args.push('--connections', connections ?? options.http.connections.join(','))
  if (options.runs !== preset.runs) args.push('--runs', options.runs)
  if (options.timeoutSeconds !== DEFAULT_TIMEOUT_SECONDS) args.push('--timeout', options.timeoutSeconds)
  if (!options.strace) args.push('--no-strace')
  return `node bench.js ${shellQuote(args.map(String))}`
}

// ---- main ----

// A resumed run keeps the context it began with (when, which commit, which runtimes:
// its first runs were measured so) and adds each resume: when, with which commit, and
// which runtimes' versions differ from the start, since runs from both now sit side
// by side.
function resumedContext (original, now) {
  const runtimesChanged = Object.keys(now.runtimes ?? {}).filter(name => JSON.stringify(now.runtimes[name]) !== JSON.stringify(original.runtimes?.[name]))
  const resume = { date: now.date, lab: now.lab, runtimesChanged }
  return { ...original, resumedAt: [...(original.resumedAt ?? []), resume] }
}

// parse (lib/cli.js) → open the run → measure what is pending → summarise → report.
async function main (parsed, interrupted) {
  checkTable()
  if (parsed.list) {
    const rows = parsed.experiment === 'calls' ? calls.listing(calls.PRESETS.default) : parsed.experiment === 'http' ? http.listing() : listing(withNodeVersions(programs, parsed.nodeVersions), parsed.blockSize)
    printListing(rows, parsed.json)
    return 0
  }
  const run = prepareRun(parsed)
  const done = await measurePending(run, interrupted)
  writeDerived(run.runDir, run.records, run.context)
  if (interrupted()) {
    console.log(`\ninterrupted: ${run.alreadyDone + done} of ${run.steps.length} runs measured and kept in ${run.runDir}`)
    console.log(`resume with: node bench.js --resume ${displayPath(run.runDir)}`)
    return 130
  }
  const results = readJson(path.join(run.runDir, 'results.json'))
  console.log(renderTerminal(results, run.options.sizes))
  printDisturbance(results.disturbance)
  printFailures(results.failures, run.runDir, run.options, run.runnable)
  console.log(`\nresults: ${displayPath(run.runDir)}`)
  if (parsed.report) writeReport(run.runDir)
  else console.log(`report: node analyse.js ${displayPath(run.runDir)}`)
  // Failed runs are kept out of the results, but a script calling bench should know.
  return results.failures.length ? 1 : 0
}

// Everything before the first run: the folder, its programs and lock, the context with
// the runs its plan holds (analyse.js tells a finished run from one cut short by them),
// and which of the plan's runs the log does not hold yet.
function prepareRun (parsed) {
  const { runDir, options, resumed, recorded } = openRun(parsed)
  const { runnable, variants = [], skipped } = selectPrograms(options, recorded)
  lockRun(runDir, resumed)
  for (const skip of skipped) console.log(`skipping ${skip.program}: ${skip.reason}`)
  const ptrace = options.strace ? probePtrace() : { available: false, reason: 'skipped with --no-strace' }
  if (options.strace && !ptrace.available) console.log(`no syscall profiles: ${ptrace.reason}`)

  makeDirs(path.join(runDir, 'strace'))
  makeDirs(path.join(runDir, 'gc'))
  const records = readLog(runDir, { makeError: message => new UsageError(message), repair: true })
  const gcUnavailable = Object.fromEntries(runnable.filter(program => !runtimes[program.runtime].v8Flags)
    .map(program => [program.name, runtimes[program.runtime].noGcTrace]))
  const placement = checkedPlacement()
  const note = placementNote(placement)
  if (note) console.log(note)
  const driverPinned = pinSelf(placement.plan)
  const costPin = placement.plan.shared
  const steps = plan(options, runnable, ptrace, placement.plan, variants)
  // the modules of LAB_EXTRA_PROGRAMS, so that a resume can say what to set again
  const now = { ...collectContext({ runId: path.basename(runDir), options, programs: runnable, ptrace, gcUnavailable, skipped }), extraPrograms: extraModules, placement: placementContext(options, placement, driverPinned), costPin: options.cost ? { cpu: costPin.reader } : null, ...(options.experiment === 'calls' ? { ladderVariants: variants.map(variant => ({ name: variant.name, runtime: variant.runtime, command: shellQuote(calls.ladderArgv(variant, options.ladder)) })) } : {}), ...(options.experiment === 'http' ? http.httpContext(runnable, placement.plan.http) : {}) }
  const context = { ...(resumed ? resumedContext(readJson(path.join(runDir, 'context.json')), now) : now), plannedRuns: runsByPhase(steps) }
  if (now.lab.commit === null) console.log('the lab\'s commit is unknown, so the run cannot say which code measured it: install git (apt-get install git) or set LAB_COMMIT=<commit>; in Docker, build the image with --build-arg LAB_COMMIT=$(git rev-parse --short HEAD)')
  writeJsonAtomic(path.join(runDir, 'context.json'), context)

  const runsLogged = new Map()
  for (const record of records.filter(entry => !entry.superseded)) runsLogged.set(cellKey(record), (runsLogged.get(cellKey(record)) ?? 0) + 1)
  const pending = steps.filter(step => (runsLogged.get(cellKey(step)) ?? 0) <= step.run)
  const alreadyDone = steps.length - pending.length
  const what = options.experiment === 'http'
    ? `${runnable.length} servers, ${options.modes.join(' and ')}, connections ${options.http.connections.join(',')}, ${options.runs} wrk runs of ${options.http.seconds} s per cell${options.strace ? ', and the strace pass' : ''}`
    : options.experiment === 'calls'
      ? `the call ladder of ${variants.length} variants, ${options.ladder.processes} processes each, and the cost pass at 256 B of ${runnable.length} readers`
      : `${runnable.length} programs, sizes ${options.sizes.join(',')}, ${options.runs} runs, feeder ${options.feeder}`
  console.log(`${resumed ? 'resuming' : 'writing'} ${runDir}: ${what}${alreadyDone ? `, ${alreadyDone} of ${steps.length} runs already done` : ''}`)
  return { runDir, options, runnable, context, records, steps, pending, alreadyDone }
}

// Where each pass ran (lib/placement.js), for the context: every pass pins its processes.
function placementContext (options, { plan, refused }, driverPinned) {
  const passes = options.experiment === 'http'
    ? { http: { wrk: plan.http.client, server: plan.http.server } }
    : {
        ...(options.experiment === 'calls' ? { ladder: plan.shared } : { startup: options.pin ? plan.apart : plan.shared, timing: options.pin ? plan.apart : plan.shared }),
        ...(options.cost ? { cost: plan.shared } : {}),
        ...(options.strace || options.gc ? { profiles: plan.shared } : {})
      }
  return { cpus: plan.cpus, system: plan.system, driver: driverPinned ? plan.driver : null, passes, refused, unreliable: plan.unreliable, shuffleSeed: options.id }
}

// After this many steps in a row kept disturbed, the machine is taken to be busy for good
// and steps are no longer measured again: a run on it would otherwise never end.
const BUSY_STEPS = 5

// Measures the pending runs in order, appending each to the log; a stop ends it at the
// run in flight, which is not logged. Returns how many runs it logged.
async function measurePending ({ runDir, options, context, records, pending }, interrupted) {
  const logFile = path.join(runDir, LOG_FILE)
  const startedAt = Date.now()
  let done = 0
  const warmed = new Set()
  const zeroFiles = { whole: new ZeroFile(), quarter: new ZeroFile() }
  const servers = http.httpSession(interrupted)
  // steps in a row still disturbed when kept
  let busySteps = 0
  try {
    for (const [index, step] of pending.entries()) {
      if (interrupted()) break
      const groupStarts = index === 0 || pending[index - 1].group !== step.group
      progress({ runsDone: done, runsTotal: pending.length, startedAt, label: process.stdout.isTTY ? step.label : step.group, groupStarts })
      if (!warmed.has(cellKey(step))) {
        warmed.add(cellKey(step))
        for (let w = 0; w < step.warmup && !interrupted(); w++) await measure(step, -1, options, runDir, zeroFiles)
      }
      if (interrupted()) break
      const measureOnce = () => step.phase === calls.PHASE
        ? calls.measureLadder(step, options)
        : step.phase === http.PHASE || step.phase === http.STRACE_PHASE
          ? http.measureStep(step, options, servers, runDir)
          : measure(step, step.run, options, runDir, zeroFiles)
      let { record, stopped } = await measureOnce()
      // A step that something else shared its CPUs with is kept in the log, superseded,
      // and measured again once its CPUs are quiet (lib/foreign.js); on a machine that
      // stays busy, steps are kept flagged instead, and the run says so.
      const retries = busySteps < BUSY_STEPS ? MAX_REMEASURES : 0
      for (let retry = 0; !stopped && !interrupted() && record.ok && record.foreign?.disturbed && retry < retries; retry++) {
        const superseded = { ...record, superseded: true }
        fs.appendFileSync(logFile, JSON.stringify(superseded) + '\n')
        records.push(superseded)
        await waitForQuiet(record.foreign.cpus ?? [])
        ;({ record, stopped } = await measureOnce())
      }
      if (record.foreign) busySteps = record.foreign.disturbed ? busySteps + 1 : 0
      if (busySteps === BUSY_STEPS) console.log(`\nthe measured CPUs stayed busy with other work over ${BUSY_STEPS} steps in a row: steps are no longer measured again but kept, flagged 'disturbed'`)
      if (stopped || interrupted()) break
      fs.appendFileSync(logFile, JSON.stringify(record) + '\n')
      records.push(record)
      done++
      // The last group, and one cut short by a stop, are written once after the loop.
      if (index < pending.length - 1 && pending[index + 1].group !== step.group) writeDerived(runDir, records, context)
    }
  } finally {
    await servers.close()
    zeroFiles.whole.remove()
    zeroFiles.quarter.remove()
  }
  if (process.stdout.isTTY) process.stdout.write('\n')
  return done
}

// The report is analyse.js's job; a failure there must not hide the bench's results.
function writeReport (runDir) {
  const analyse = require('./analyse')
  try {
    analyse.report(analyse.parseOptions([runDir]))
  } catch (err) {
    if (!(err instanceof analyse.AnalyseError)) throw err
    console.log(`analyse.js: ${err.message}`)
  }
}

function readJson (file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'))
}

if (require.main === module) runCli({ name: 'bench.js', usage: USAGE, parse: parseOptions, run: main, measures: true })

module.exports = { parseOptions, plan, bytesPerRun, cellCommand, PRESETS, UsageError }
