'use strict'
// The host's read loops against C's in one process: how fast just-fast's and
// just-sync's loops read the pipe from dd (64 KiB blocks) as a share of C's loop,
// with a 95% interval. bench.js times separate runs of separate programs, and on a
// VM whose runs of C alone differ by 10-30% its intervals stay several points wide;
// here studies/paired-reads.js alternates segments of 0.4-6 ms of the loop's reads and
// of C's loop compiled into the host (just.host.readLoop), so each pair of
// segments meets the same machine, the same pipe and the same buffer. `c` times C's
// loop against itself: what the method reports where there is no difference. Run
// with Node, alone:
//
//   node studies/paired-cost.js [--only c|just-fast|just-sync ...] [--sizes 256,4096]
//                            [--runs 10] [--pairs 256] [--segment-kib N] [--pin]
//
// Each of --runs processes times --pairs pairs, their orders alternating (loop-C,
// C-loop, ...; which comes first depends on how many pairs warm-up took), so a block
// of two consecutive pairs holds one each way round and gives the geometric mean of
// their two ratios (the loop's throughput over C's), in which going first or second
// cancels. A run's
// figure is its median block: the loops' typical speeds, which a slow spell of the VM
// landing on either side does not move. Its second figure is all its bytes over all
// its time, loop's against C's: the throughput ratio proper, spells and all. A row
// gives the median run of each, with the 95% interval over runs that inverts the sign
// test: runs, not pairs, because one process's pairs share its compiled code and
// memory layout and are not independent (consecutive pairs correlate).
const fs = require('node:fs')
const path = require('node:path')
const { runtimes } = require('../lib/runtimes')
const { findProgram, unavailableReason } = require('../experiments/stdio/programs')
const { runPipeline, ddFeeder, PIN_APART, shellQuote } = require('../lib/pipeline')
const { parseStudyOptions, blockSizes } = require('./per-read')
const { wholeNumber, matchOnly, UsageError, repeatCount } = require('../lib/options')
// a segment of a GiB at most: a slip of digits past it would ask for more than memory holds
const SEGMENT_KIB_MAX = 1 << 20
const { runCli, RunFailed } = require('../lib/cli')
const { median, medianInterval, MEDIAN_INTERVAL_MIN, INTERVAL_LEVEL } = require('../lib/stats')
const { formatInterval } = require('../lib/report/format')
const { verify } = require('../experiments/stdio/measure')

// The loops timed against C's: the host's two readers' and C's own.
const READER_FORMS = { c: 'c', 'just-fast': 'fast', 'just-sync': 'sync' }
const SCRIPT = path.join(__dirname, 'paired-reads.js')
const DEFAULTS = { only: Object.keys(READER_FORMS), sizes: '256,512,1024,2048,4096,8192,16384,32768,65536', runs: '10', pairs: '256' }
const FEEDER_BLOCK = 65536
// Untimed pairs at most before timing starts: TurboFan compiled the loops within 10 in
// every run tried, and what warm-up leaves unread is read to the end, untimed.
const WARMUP_MAX = 32
// A segment is at least this many bytes and this many reads: a millisecond or a few of
// reading, long next to the clock's two calls and a segment's first read, short next
// to the VM's slow spells.
const SEGMENT_MIN_BYTES = 512 * 1024
const SEGMENT_MIN_READS = 64
// A run that reads slower than this (the pipe manages 200-2000 here) has hung.
const SLOWEST_BYTES_PER_SECOND = 20e6
const MAX_PAIRS = 1 << 20
const USAGE = `usage: node studies/paired-cost.js [--only c|just-fast|just-sync ...] [--sizes A,B,...] [--runs N] \
[--pairs N] [--segment-kib N] [--pin] [--raw FILE] | --from FILE
  The host's read loops against C's loop in one process (studies/paired-reads.js in
  build/just-host): each loop's speed as a share of C's, with its ${INTERVAL_LEVEL} interval over runs.
  --only NAME       a loop to time against C's: ${Object.keys(READER_FORMS).join(', ')} (repeatable; default: all
                    three); '*' stands for any run of characters (--only 'just-*')
  --sizes A,B,...   block sizes, powers of two (default ${DEFAULTS.sizes})
  --runs N          processes per loop and size, at least ${MEDIAN_INTERVAL_MIN} (default ${DEFAULTS.runs})
  --pairs N         timed pairs of segments per process, even (default ${DEFAULTS.pairs})
  --segment-kib N   KiB a segment reads, a multiple of ${FEEDER_BLOCK / 1024} (default: ${SEGMENT_MIN_BYTES / 1024} KiB or
                    ${SEGMENT_MIN_READS} reads, whichever is more)
  --pin             pin dd and the host to separate CPUs (0 and 1)
  --raw FILE        also append each run's figures to FILE, one JSON line a run, so the
                    table can be checked and derived again
  --from FILE       measure nothing: print the table from a --raw FILE
  --help            this text`

function parseOptions (argv) {
  const spec = { only: { type: 'string', multiple: true }, sizes: { type: 'string' }, runs: { type: 'string' }, pairs: { type: 'string' }, 'segment-kib': { type: 'string' }, pin: { type: 'boolean' }, raw: { type: 'string' }, from: { type: 'string' } }
  return parseStudyOptions(argv, spec, USAGE, pairedOptions)
}

function pairedOptions (values) {
  if (values.from !== undefined) {
    const others = Object.keys(values).filter(key => key !== 'from')
    if (others.length) throw new Error(`--from prints a table from runs already measured; drop --${others.join(', --')}`)
    return { from: values.from }
  }
  if (values.raw === '') throw new Error('--raw needs a file name')
  const { picked: readers, unmatched } = matchOnly(Object.keys(READER_FORMS), values.only ?? DEFAULTS.only)
  if (unmatched.length) throw new Error(`no paired loop for '${unmatched[0]}': give ${Object.keys(READER_FORMS).join(', ')}`)
  // every row runs in the lab's host, C's loop included
  const hostMissing = unavailableReason(findProgram('just-fast'))
  if (hostMissing) throw new Error(`the lab's host cannot run here: ${hostMissing}`)
  const runs = repeatCount(values.runs ?? DEFAULTS.runs, 'runs', MEDIAN_INTERVAL_MIN)
  // its own bound below (even, at most 2^20): a pair is two segments, far shorter than a run
  const pairs = wholeNumber(values.pairs ?? DEFAULTS.pairs, 'pairs', 2)
  if (pairs % 2 || pairs > MAX_PAIRS) throw new Error(`--pairs must be even (pairs are taken two by two, one each way round) and at most ${MAX_PAIRS}, not ${pairs}`)
  const chosenSegment = values['segment-kib'] === undefined
    ? null
    : wholeNumber(values['segment-kib'], 'segment-kib', 1, SEGMENT_KIB_MAX) * 1024
  if (chosenSegment !== null && chosenSegment % FEEDER_BLOCK) throw new Error(`--segment-kib must be a multiple of ${FEEDER_BLOCK / 1024}, dd's block, not ${chosenSegment / 1024}`)
  const sizes = blockSizes(values.sizes ?? DEFAULTS.sizes).map(blockSize => {
    // A multiple of dd's block is a whole number of reads at every block size.
    const segmentBytes = chosenSegment ?? Math.max(SEGMENT_MIN_BYTES, SEGMENT_MIN_READS * blockSize)
    return { blockSize, segmentBytes }
  })
  return { readers, sizes, runs, pairs, pin: values.pin ? PIN_APART : null, raw: values.raw ?? null }
}

// One run of paired-reads.js: its figures, or null when stopped. Throws, naming the
// command, when the run fails or its output is not what was asked for.
async function pairedRun (reader, { blockSize, segmentBytes }, pairs, pin) {
  const bytes = (pairs + WARMUP_MAX) * 2 * segmentBytes
  const argv = [runtimes.just.locate(), SCRIPT, READER_FORMS[reader], String(blockSize), String(segmentBytes), String(WARMUP_MAX), String(pairs)]
  const feeder = ddFeeder(bytes, FEEDER_BLOCK)
  const timeoutMs = 60000 + bytes / SLOWEST_BYTES_PER_SECOND * 1000
  const result = await runPipeline({ feeder, reader: argv, timeoutMs, pin })
  if (result.stoppedBy) return null
  const shown = `${shellQuote(feeder)} | ${shellQuote(argv)}`
  const run = parseRun(result.stdout)
  const failure = verify({ program: { honoursBlockSize: true }, blockSize, bytes, timeoutSeconds: timeoutMs / 1000 }, result, run && { size: run.size, reads: run.reads, blockSize })
  if (failure) throw new RunFailed(`${shown}: ${failure}`)
  const timed = run.segments.slice(run.warmupPairs * 2)
  if (timed.length !== pairs * 2) throw new RunFailed(`${shown}: ${timed.length} timed segments, ${pairs * 2} asked for`)
  const slowReads = timed.reduce((sum, segment) => sum + segment[4], 0)
  if (slowReads) throw new RunFailed(`${shown}: ${slowReads} of the timed loop's reads were not fast calls (the loop was deoptimised), so it was not the loop meant`)
  const short = timed.find(segment => segment[2] < segmentBytes)
  if (short) throw new RunFailed(`${shown}: a timed ${short[0]} segment read ${short[2]} bytes, not ${segmentBytes}`)
  return figures(timed)
}

// paired-reads.js's line, or null if stdout holds no such line.
function parseRun (stdout) {
  try {
    const run = JSON.parse(stdout)
    return Array.isArray(run.segments) && Number.isInteger(run.warmupPairs) ? run : null
  } catch {
    return null
  }
}

// A run's figures from its timed segments, in order: [kind, ns, bytes, reads, slow].
function figures (timed) {
  const pairs = []
  const totals = { loop: { bytes: 0, ns: 0 }, c: { bytes: 0, ns: 0 } }
  const nsPerRead = { loop: [], c: [] }
  for (let i = 0; i < timed.length; i += 2) {
    const pair = {}
    for (const [kind, ns, bytes, reads] of [timed[i], timed[i + 1]]) {
      pair[kind] = bytes / ns
      totals[kind].bytes += bytes
      totals[kind].ns += ns
      nsPerRead[kind].push(ns / reads)
    }
    pairs.push(pair.loop / pair.c)
  }
  const blocks = []
  for (let i = 0; i + 1 < pairs.length; i += 2) blocks.push(Math.sqrt(pairs[i] * pairs[i + 1]))
  return {
    typical: median(blocks),
    throughput: (totals.loop.bytes / totals.loop.ns) / (totals.c.bytes / totals.c.ns),
    cNsPerRead: median(nsPerRead.c),
    loopNsPerRead: median(nsPerRead.loop)
  }
}

// Rows for every block size measured in full; a stop ends it at the next run. Runs go
// round the readers, so a slow spell of minutes lands on all of them.
async function measure (options, stopped) {
  const rows = []
  for (const size of options.sizes) {
    const runsOf = new Map(options.readers.map(reader => [reader, []]))
    for (let run = 0; run < options.runs; run++) {
      for (const reader of options.readers) {
        if (stopped()) return rows
        const figuresOfRun = await pairedRun(reader, size, options.pairs, options.pin)
        if (!figuresOfRun) return rows
        runsOf.get(reader).push(figuresOfRun)
        if (options.raw) fs.appendFileSync(options.raw, JSON.stringify({ reader, ...size, pairs: options.pairs, ...figuresOfRun, at: new Date().toISOString() }) + '\n')
      }
    }
    for (const reader of options.readers) {
      rows.push(rowOf(reader, size, options.pairs, runsOf.get(reader)))
      printRow(rows[rows.length - 1], rows.length === 1)
    }
  }
  return rows
}

// A row of the table: the median run and its interval over runs, of each figure.
function rowOf (reader, size, pairs, runs) {
  return {
    reader,
    ...size,
    runs: runs.length,
    pairs,
    typical: medianInterval(runs.map(run => run.typical)),
    throughput: medianInterval(runs.map(run => run.throughput)),
    cNsPerRead: median(runs.map(run => run.cNsPerRead)),
    loopNsPerRead: median(runs.map(run => run.loopNsPerRead))
  }
}

// The table again from a --raw file: its runs grouped by size, then loop, in the order
// they were measured.
function tableFrom (file) {
  let lines
  try {
    lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)
  } catch (err) {
    throw new UsageError(`--from: cannot read ${file} (${err.code ?? err.message}); give a file written by --raw`)
  }
  const groups = new Map()
  for (const [index, line] of lines.entries()) {
    let run
    try {
      run = JSON.parse(line)
    } catch {
      throw new UsageError(`--from: ${file} line ${index + 1} is not JSON; give a file written by --raw`)
    }
    const figures = run && typeof run === 'object'
      ? [run.blockSize, run.segmentBytes, run.pairs, run.typical, run.throughput]
      : []
    if (figures.length === 0 || !Object.hasOwn(READER_FORMS, run.reader) || !figures.every(Number.isFinite)) {
      throw new UsageError(`--from: ${file} line ${index + 1} is not a run of paired-cost.js; give a file written by --raw`)
    }
    const key = `${run.blockSize}\t${run.reader}\t${run.segmentBytes}\t${run.pairs}`
    if (!groups.has(key)) groups.set(key, [])
    groups.get(key).push(run)
  }
  if (groups.size === 0) throw new UsageError(`--from: ${file} holds no runs; give a file written by --raw`)
  const ordered = [...groups.values()].sort((a, b) => a[0].blockSize - b[0].blockSize)
  return ordered.map(runs => rowOf(runs[0].reader, { blockSize: runs[0].blockSize, segmentBytes: runs[0].segmentBytes }, runs[0].pairs, runs))
}

function printRow (row, first) {
  if (first) {
    console.log(`its speed as a share of C's loop: the median run's figure and the ${INTERVAL_LEVEL} interval over runs`)
    console.log('reader     block   segment  runs x pairs  C ns/read  its ns/read  typical (median block)   throughput (all bytes / all time)')
  }
  const share = interval => `${(interval.estimate * 100).toFixed(1)}% (${formatInterval(interval)})`.padEnd(24)
  console.log([
    row.reader.padEnd(10),
    String(row.blockSize).padStart(5),
    `${row.segmentBytes / 1024} KiB`.padStart(9),
    `${row.runs} x ${row.pairs}`.padStart(12),
    row.cNsPerRead.toFixed(1).padStart(10),
    row.loopNsPerRead.toFixed(1).padStart(11),
    share(row.typical),
    share(row.throughput)
  ].join('  ').trimEnd())
}

// parse (lib/cli.js) → measure, printing each row as it is done.
async function main (options, stopped) {
  if (options.from) {
    for (const [index, row] of tableFrom(options.from).entries()) printRow(row, index === 0)
    return 0
  }
  const rows = await measure(options, stopped)
  if (stopped()) console.error(`paired-cost.js: interrupted; ${rows.length ? 'the rows above were measured in full' : 'nothing was measured in full'}`)
  return 0
}

runCli({ name: 'paired-cost.js', usage: USAGE, parse: parseOptions, run: main, measures: true })
