'use strict'
// The stdio experiment's options, one row each (lib/option-schema.js), and the presets
// they default from.
const { parseBlockSize, DEFAULT_BLOCK_SIZES } = require('./blocksize')
const { pinnedNodeVersion, MEASURED_NODE_VERSIONS } = require('../../lib/runtimes')
const { UsageError, wholeNumber, repeatCount, mibCount } = require('../../lib/options')
const { skipRow, choiceRow, isWhole, isBoolean, isStrings } = require('../../lib/option-schema')
const { PROFILE_WINDOW_S } = require('./profile')

// Bytes per timed run, by block size: enough reads that start-up (~0.1 s for Node)
// is a small part of the run, few enough that the whole default lab fits in about
// ten minutes on two cores (measured: see README, "Choosing the defaults"). --quick
// saves time on runs, sizes and strace, not on timed bytes: shorter timed runs leave a
// steady-state figure that is mostly the start-up time taken off.
//
// The cost pass's rounds give the intervals: 20 leave the 6th and 15th of 20 as the
// 95.9% interval of the median, 6 (the fewest that give one) the lowest and highest.
// 20, not 10: resampling two back-to-back runs' rounds, two runs of 10 missed the
// repeatability goal (every share within 2 points but one in 30) in 37% of pairs with
// nothing changed, of 16 in 11%, of 20 in 5% (docs/reproducibility.md); the pass takes
// about 2.5 minutes.
// The profile pass's 4 rounds give each bucket the range of 4 as its interval (87.5%); 6
// rounds (96.9%) took 5 min 47 s (docs/profile.md). Each run under perf samples 600 ms of its
// reader's CPU in the read loop, 1,400 to 2,400 samples for the fast readers: at 200 ms (the
// unprofiled runs' length, and --quick's) 57 of 82 buckets over 20 ns repeated within 10%,
// at 600 ms 71, the pass 2 min 53 s for 23 readers and C on a quiet 2-core VM
// (docs/profile.md, 2026-11-29 afternoon).
const PROFILE_MS = 600
const PRESETS = {
  default: {
    ...{ runs: 10, warmup: 1, sizes: DEFAULT_BLOCK_SIZES, minMiB: 64, maxMiB: 256 },
    ...{ readsPerRun: 1 << 18, straceMiB: 4, costRounds: 20, kernelRounds: 6, profileRounds: 4, profileMs: PROFILE_MS }
  },
  quick: {
    ...{ runs: 3, warmup: 1, sizes: [256, 4096, 65536], minMiB: 64, maxMiB: 256 },
    ...{ readsPerRun: 1 << 18, straceMiB: 1, costRounds: 6, kernelRounds: 1, profileRounds: 1 },
    profileMs: PROFILE_WINDOW_S * 1000
  }
}
const byPreset = field => ({ default: PRESETS.default[field], quick: PRESETS.quick[field] })
const FEEDERS = ['fixed', 'matched', 'file']
const COST_PAIRINGS = ['slices', 'rounds']
const COST_POLICIES = ['default', 'batch']

// a block size given on the command line, a refusal naming its option
function parseBlockSizeOption (text, option = '--sizes') {
  try {
    return parseBlockSize(text)
  } catch (err) {
    throw new UsageError(`${option}: ${err.message}`)
  }
}

function parseNodeVersion (text) {
  try {
    return pinnedNodeVersion(text)
  } catch (err) {
    throw new UsageError(`--node: ${err.message}`)
  }
}

const isBlockSize = value => {
  try {
    return typeof value === 'number' && parseBlockSize(String(value)) === value
  } catch {
    return false
  }
}
const WHOLE = [isWhole(1), 'a whole number of at least 1']
const BOOLEAN = [isBoolean, 'true or false']

const rows = [
  {
    name: 'sizes',
    type: 'string',
    metavar: 'A,B,...',
    takes: 'block sizes such as 4096,65536',
    help: ['block sizes, powers of two (default: 256 ... 65536); with --list, the', 'first is the block size its command lines show (default 65536)'],
    parse: text => [...new Set(text.split(',').map(size => parseBlockSizeOption(size)))].sort((a, b) => a - b),
    preset: byPreset('sizes'),
    stored: [value => Array.isArray(value) && value.length > 0 && value.every(isBlockSize), 'a list of block sizes'],
    list: true
  },
  {
    name: 'node',
    type: 'string',
    metavar: 'V,V,...',
    field: 'nodeVersions',
    takes: `Node versions such as ${MEASURED_NODE_VERSIONS.map(version => version.split('.')[0]).join(',')}`,
    help: [
      'measure these pinned Node versions side by side (majors or exact',
      `versions of package.json's measuredNodeVersions: ${MEASURED_NODE_VERSIONS.join(', ')}):`,
      'the Node rows become node-sync@22, node-sync@26 ... (default: one row',
      `each on ${MEASURED_NODE_VERSIONS[0]}, or on NODE=/path/to/node)`
    ],
    parse: text => [...new Set(text.split(',').map(parseNodeVersion))],
    preset: { default: [], quick: [] },
    stored: [value => isStrings(value) && value.every(version => MEASURED_NODE_VERSIONS.includes(version)), `a list of the lab's pinned Node versions (${MEASURED_NODE_VERSIONS.join(', ')})`],
    list: true
  },
  {
    name: 'runs',
    type: 'string',
    metavar: 'N',
    takes: 'a whole number',
    help: ['timed runs per cell (default {default}, the study\'s best of ten; best,', 'median and spread are kept)'],
    parse: text => repeatCount(text, 'runs'),
    preset: byPreset('runs'),
    stored: WHOLE,
    rerun: true
  },
  {
    name: 'rounds',
    type: 'string',
    metavar: 'N',
    field: 'costRounds',
    takes: 'a whole number',
    help: [
      'rounds of the cost pass, the headline: each reader\'s CPU time per',
      'read against C\'s, dd and the reader on one CPU, at 256, 4096 and',
      '65536 of --sizes (or the smallest given) (default {default}; --quick {quick};',
      '6 or more for an interval)'
    ],
    parse: text => repeatCount(text, 'rounds'),
    preset: byPreset('costRounds'),
    stored: WHOLE,
    rerun: true
  },
  {
    name: 'kernel-rounds',
    type: 'string',
    metavar: 'N',
    field: 'kernelRounds',
    takes: 'a whole number',
    help: [
      'rounds of the kernel pass: each reader\'s time inside read(2), from',
      'eBPF probes, at the cost pass\'s sizes and on its CPU (default {default};',
      '--quick {quick}; 6 or more for an interval)'
    ],
    parse: text => repeatCount(text, 'kernel-rounds'),
    preset: byPreset('kernelRounds'),
    stored: WHOLE,
    rerun: true,
    // a run without the pass re-runs without its rounds (with both, bench refuses)
    get: options => options.kernel === false ? undefined : options.kernelRounds
  },
  {
    name: 'profile-rounds',
    type: 'string',
    metavar: 'N',
    field: 'profileRounds',
    takes: 'a whole number',
    help: [
      'rounds of the profile pass: each reader under perf, and unprofiled, at',
      'the cost pass\'s smallest size, dd on the reader\'s CPU, both at SCHED_BATCH',
      '(default {default}; --quick {quick}; 4 or more for an interval)'
    ],
    parse: text => repeatCount(text, 'profile-rounds'),
    preset: byPreset('profileRounds'),
    stored: WHOLE,
    rerun: true,
    get: options => options.profile === false ? undefined : options.profileRounds
  },
  {
    name: 'profile-ms',
    type: 'string',
    metavar: 'MS',
    field: 'profileMs',
    takes: 'a whole number of milliseconds',
    help: [
      'the reader\'s CPU time each run under perf samples in its read loop, in ms',
      '(default {default}; --quick {quick}): more for more samples, in proportion, up to',
      'MS/200 cost runs\' reads; a slow reader reads what a bucket\'s precision needs at least'
    ],
    parse: text => wholeNumber(text, 'profile-ms', 10),
    preset: byPreset('profileMs'),
    stored: WHOLE,
    rerun: true,
    get: options => options.profile === false ? undefined : options.profileMs
  },
  {
    name: 'warmup',
    type: 'string',
    metavar: 'N',
    takes: 'a whole number',
    help: ['untimed runs before each cell (default {default})'],
    parse: text => repeatCount(text, 'warmup', 0),
    preset: byPreset('warmup'),
    stored: [isWhole(0), 'a whole number'],
    rerun: true
  },
  choiceRow({
    name: 'feeder',
    choices: FEEDERS,
    help: [
      'fixed: dd writes 64 KiB blocks whatever the reader reads (default)',
      'matched: dd\'s block size equals the reader\'s, as in the original study',
      'file: no pipe and no dd: the reader\'s stdin is a file of zeros in tmpfs'
    ]
  }),
  choiceRow({
    name: 'cost-pairing',
    choices: COST_PAIRINGS,
    help: [
      'slices: each cost run takes turns with a run of C on its CPU, 5 ms each,',
      'and its share of C is taken pair by pair (default; docs/method.md)',
      'rounds: readers and C in separate runs, compared across rounds'
    ]
  }),
  choiceRow({
    name: 'cost-policy',
    choices: COST_POLICIES,
    help: [
      'default: dd and the reader at the default scheduling policy, each waking',
      'the other every few pages (default)',
      'batch: both at SCHED_BATCH, one switch a pipe\'s worth (docs/method.md)'
    ]
  }),
  {
    name: 'mib',
    type: 'string',
    metavar: 'N',
    takes: 'a whole number of MiB',
    help: [
      'MiB per timed run at every block size (default: scaled by block size;',
      'the cost pass\'s runs take at least 64 MiB, for the slope)'
    ],
    parse: text => mibCount(text, 'mib', 1),
    preset: { default: null, quick: null },
    stored: [value => value === null || isWhole(1)(value), 'null or a whole number of at least 1'],
    rerun: true
  },
  {
    name: 'marginal',
    type: 'boolean',
    help: [
      'also time runs of a quarter of the bytes, for the marginal throughput',
      'of the bytes between: start-up and JIT warm-up cancel (a quarter more',
      'bytes, and a start-up per quarter run)'
    ],
    parse: () => true,
    preset: { default: false, quick: false },
    stored: BOOLEAN,
    rerun: true
  },
  {
    name: 'pin',
    type: 'boolean',
    help: [
      'the timing pass with dd and the reader on separate CPUs (by default',
      'both run on one, as in the cost pass: docs/placement.md)'
    ],
    parse: () => true,
    preset: { default: false, quick: false },
    stored: BOOLEAN,
    rerun: true,
    // runs before 2026-11-30 took it with the file feeder, which runs no dd: it did nothing
    get: options => options.feeder === 'file' ? undefined : options.pin
  },
  skipRow('strace', 'skip the syscall profile pass'),
  skipRow('kernel', 'skip the kernel pass (eBPF: time inside read(2))'),
  skipRow('gc', 'skip the GC trace pass'),
  skipRow('profile', 'skip the profile pass (perf: where each read\'s ns go)'),
  skipRow('cost', 'skip the cost pass (the report then has no headline)')
]

// What a run stores beyond its rows: the preset's byte counts, and the cost pass's sizes.
const derivedStored = {
  minMiB: WHOLE,
  maxMiB: WHOLE,
  readsPerRun: WHOLE,
  straceMiB: WHOLE,
  costSizes: [value => Array.isArray(value) && value.every(isBlockSize), 'a list of block sizes']
}

// Options added after runs had been measured: an older run lacks them, and ran as these say.
const LATER_OPTIONS = {
  marginal: false,
  pin: false,
  nodeVersions: [],
  cost: false,
  costRounds: 1,
  costSizes: [],
  costPairing: 'rounds',
  costPolicy: 'default',
  kernel: false,
  kernelRounds: 0,
  profile: false,
  profileRounds: 1,
  profileMs: PROFILE_WINDOW_S * 1000
}

module.exports = { rows, derivedStored, PRESETS, LATER_OPTIONS, parseBlockSizeOption, parseNodeVersion }
