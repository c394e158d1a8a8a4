'use strict'
// The host's read loops against C's in one process: how fast just-fast's and
// just-sync's loops read the pipe from dd (64 KiB blocks) as a share of C's loop,
// with a 95% interval. bench.js times separate runs of separate programs, and on a
// VM whose runs of C alone differ by 10-30% its intervals stay several points wide;
// here host/paired-reads.js alternates segments of a millisecond or so of the loop's
// reads and of C's loop compiled into the host (just.host.readLoop), so each pair of
// segments meets the same machine, the same pipe and the same buffer. `c` times C's
// loop against itself: the method's own bias, which should be none. Run with Node,
// alone:
//
//   node host/paired-cost.js [--only c|just-fast|just-sync ...] [--sizes 256,4096]
//                            [--pairs 1024] [--segment-kib N] [--pin]
//
// A pair's figure is the loop's throughput in its segment over C's in the other; a row
// gives the median pair and the sign test's 95% interval for it. Not in it: what a
// whole run pays besides its reads (start-up, compiling; bench.js's steady state takes
// off the first, its --marginal both).
const path = require('node:path')
const { parseArgs } = require('node:util')
const { findProgram, unavailableReason, runtimes, shellQuote } = require('../wc/programs')
const { runPipeline, ddFeeder, stopOnSignals } = require('../lib/pipeline')
const { blockSizes } = require('./per-read')
const { wholeNumber } = require('../lib/options')
const { median, medianInterval, INTERVAL_LEVEL } = require('../lib/stats')
const { formatInterval } = require('../lib/report-format')
const { verify } = require('../bench')

// The loops timed against C's: the host's two readers' and, as a check on the method,
// C's own (its share should come out at 100%).
const READER_FORMS = { c: 'c', 'just-fast': 'fast', 'just-sync': 'sync' }
const SCRIPT = path.join(__dirname, 'paired-reads.js')
const DEFAULTS = { only: Object.keys(READER_FORMS), sizes: '256,512,1024,2048,4096,8192,16384,32768,65536', pairs: '1024' }
const FEEDER_BLOCK = 65536
// Untimed pairs at most before timing starts: TurboFan compiled the loops within 10 in
// every run tried, and what warm-up leaves unread is read to the end, untimed.
const WARMUP_MAX = 32
// A segment is at least this many bytes and this many reads: a millisecond or a few of
// reading, long next to the clock's two calls and a segment's first read, short next
// to the VM's slow spells.
const SEGMENT_MIN_BYTES = 512 * 1024
const SEGMENT_MIN_READS = 64
const TIMEOUT_MS = 600000

function parseOptions (argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string', multiple: true },
      sizes: { type: 'string' },
      pairs: { type: 'string' },
      'segment-kib': { type: 'string' },
      pin: { type: 'boolean' }
    }
  })
  const readers = [...new Set(values.only ?? DEFAULTS.only)].map(name => {
    if (!(name in READER_FORMS)) throw new Error(`no paired loop for '${name}': give ${Object.keys(READER_FORMS).join(', ')}`)
    const reason = unavailableReason(findProgram(name))
    if (reason) throw new Error(`${name} cannot run here: ${reason}`)
    return name
  })
  const pairs = wholeNumber(values.pairs ?? DEFAULTS.pairs, 'pairs')
  if (!medianInterval(Array(pairs).fill(0))) throw new Error(`--pairs ${pairs} is too few for a ${INTERVAL_LEVEL} interval: give at least 6`)
  const chosenSegment = values['segment-kib'] === undefined ? null : wholeNumber(values['segment-kib'], 'segment-kib') * 1024
  if (chosenSegment !== null && chosenSegment % FEEDER_BLOCK) throw new Error(`--segment-kib must be a multiple of ${FEEDER_BLOCK / 1024}, dd's block, not ${chosenSegment / 1024}`)
  const sizes = blockSizes(values.sizes ?? DEFAULTS.sizes).map(blockSize => {
    // A multiple of dd's block is a whole number of reads at every block size.
    const segmentBytes = chosenSegment ?? Math.max(SEGMENT_MIN_BYTES, SEGMENT_MIN_READS * blockSize)
    return { blockSize, segmentBytes, pairs }
  })
  return { readers, sizes, pin: values.pin ? { feeder: 0, reader: 1 } : null }
}

// One run of paired-reads.js; its timed pairs as ratios, or null when stopped.
async function pairedRun (reader, { blockSize, segmentBytes, pairs }, pin) {
  const bytes = (pairs + WARMUP_MAX) * 2 * segmentBytes
  const argv = [runtimes.just.locate(), SCRIPT, READER_FORMS[reader], String(blockSize), String(segmentBytes), String(WARMUP_MAX), String(pairs)]
  const feeder = ddFeeder(bytes, FEEDER_BLOCK)
  const result = await runPipeline({ feeder, reader: argv, timeoutMs: TIMEOUT_MS, pin })
  if (result.stoppedBy) return null
  const shown = `${shellQuote(feeder)} | ${shellQuote(argv)}`
  let run = null
  try {
    run = JSON.parse(result.stdout)
  } catch {}
  const failure = verify({ program: { honoursBlockSize: true }, blockSize, bytes, timeoutSeconds: TIMEOUT_MS / 1000 }, result, run && { size: run.size, reads: run.reads, blockSize })
  if (failure) throw new Error(`${shown}: ${failure}`)
  const timed = run.segments.slice(run.warmupPairs * 2)
  if (timed.length !== pairs * 2) throw new Error(`${shown}: ${timed.length} timed segments, ${pairs * 2} asked for`)
  const slowReads = timed.reduce((sum, segment) => sum + segment[4], 0)
  if (slowReads) throw new Error(`${shown}: ${slowReads} of the timed loop's reads were not fast calls (the loop was deoptimised), so it was not the loop meant`)
  const short = timed.find(segment => segment[2] < segmentBytes)
  if (short) throw new Error(`${shown}: a timed segment read ${short[2]} bytes, not ${segmentBytes}`)
  const ratios = []
  const nsPerRead = { loop: [], c: [] }
  for (let i = 0; i < timed.length; i += 2) {
    const pair = Object.fromEntries([timed[i], timed[i + 1]].map(([kind, ns, size, reads]) => [kind, { ns, size, reads }]))
    ratios.push((pair.loop.size / pair.loop.ns) / (pair.c.size / pair.c.ns))
    for (const kind of ['loop', 'c']) nsPerRead[kind].push(pair[kind].ns / pair[kind].reads)
  }
  return { reader, blockSize, segmentBytes, pairs, warmupPairs: run.warmupPairs, share: medianInterval(ratios), cNsPerRead: median(nsPerRead.c), loopNsPerRead: median(nsPerRead.loop) }
}

async function measure (options, stopped) {
  const rows = []
  for (const size of options.sizes) {
    for (const reader of options.readers) {
      if (stopped()) return rows
      const row = await pairedRun(reader, size, options.pin)
      if (!row) return rows
      rows.push(row)
      printRow(row, rows.length === 1)
    }
  }
  return rows
}

function printRow (row, first) {
  if (first) {
    console.log(`reader     block   segment  pairs    C's loop  its loop  its speed as a share of C's: median pair (${INTERVAL_LEVEL} interval)`)
  }
  const nsText = ns => `${ns.toFixed(1)} ns`.padStart(10)
  const share = `${(row.share.estimate * 100).toFixed(1)}% (${formatInterval(row.share)})`
  console.log(`${row.reader.padEnd(10)} ${String(row.blockSize).padStart(5)}  ${`${row.segmentBytes / 1024} KiB`.padStart(8)}  ${String(row.pairs).padStart(5)}  ${nsText(row.cNsPerRead)}  ${nsText(row.loopNsPerRead)}  ${share}`)
}

async function main () {
  let options
  try {
    options = parseOptions(process.argv.slice(2))
  } catch (err) {
    console.error(`paired-cost.js: ${err.message} (usage: node host/paired-cost.js [--only c|just-fast|just-sync ...] [--sizes A,B,...] [--pairs N] [--segment-kib N] [--pin])`)
    return 2
  }
  const stopped = stopOnSignals()
  const rows = await measure(options, stopped)
  if (stopped()) {
    console.error(`paired-cost.js: interrupted; ${rows.length ? 'the rows above were measured in full' : 'nothing was measured in full'}`)
    return 130
  }
  return 0
}

main().then(code => { process.exitCode = code }, err => {
  console.error(`paired-cost.js: ${err.message}`)
  process.exitCode = 1
})
