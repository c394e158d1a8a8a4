// The JS side of host/paired-cost.js, run by build/just-host with stdin a pipe from dd:
// segments of reads by a JS loop and by C's loop (just.host.readLoop, wc.c's loop
// compiled into the host), alternated, each timed with a monotonic clock. Two segments
// moments apart in one process, reading the same pipe into the same buffer, meet the
// same machine: the slow spells of a VM that make separate runs of C and of the host
// differ by 10-30% hit both alike, so the pair's ratio is the call's cost.
//
//   build/just-host host/paired-reads.js FORM BLOCKSIZE SEGMENT_BYTES WARMUP_MAX PAIRS
//
// FORM is the loop timed against C's: `fast`, just-fast's (net.readRaw into an address
// taken once, the loop in a function, wc/wc-fast.js), `sync`, just-sync's (net.read
// into an ArrayBuffer, the loop at the script's top level, wc/wc.js), or `c`, C's loop
// again. Pair p runs that loop then C's when p is even, C's then the loop when odd, so
// whichever goes second in a pair, and whatever that costs, is shared out evenly.
// Untimed pairs run first, up to WARMUP_MAX of them, until the loop has made every read
// of a segment through the fast call (TurboFan has compiled it), their reads 16 bytes
// whatever the block size; then PAIRS timed pairs; then the rest of stdin is read to
// its end. Prints one JSON line:
// { warmupPairs, segments: [[kind, ns, bytes, reads, slowReads], ...], size, reads }:
// every segment in order, warm-up's first, kind 'loop' or 'c', slowReads the loop's
// reads that did not take the fast call (the driver refuses timed segments with any:
// a deoptimised loop is not the loop it means to time); size and reads, every byte and
// read of the run.
const { print, error, exit, sys, net, host } = just
if (typeof host?.readLoop !== 'function' || typeof net.readRaw !== 'function') {
  error('paired-reads.js: needs the lab\'s build/just-host (just.host.readLoop, just.net.readRaw)')
  exit(2)
}
// Each form's loop and the binding whose fast calls it makes; `c` is C's loop against
// itself, the check that pairing and order add nothing of their own.
const FORMS = { fast: 'net.readRaw', sync: 'net.read', c: null }
const [form, ...numbers] = just.args.slice(2)
const [blocksize, segmentBytes, warmupMax, pairs] = numbers.map(Number)
if (!(form in FORMS) || numbers.length !== 4 || !numbers.every(text => /^\d+$/.test(text)) || !(blocksize > 0 && segmentBytes > 0 && pairs > 0)) {
  error(`paired-reads.js: usage: build/just-host host/paired-reads.js ${Object.keys(FORMS).join('|')} BLOCKSIZE SEGMENT_BYTES WARMUP_MAX PAIRS`)
  exit(2)
}

const { read, readRaw } = net
const { STDIN_FILENO } = sys
// At the top level, so it lives as long as the script: the address is only valid
// while buf does.
const buf = new ArrayBuffer(blocksize)
const address = sys.address(buf)

// just-fast's loop, bounded to a segment; its parameters are locals, in registers.
function fastSegment (fd, address, len, bytes) {
  let size = 0
  let reads = 0
  let n = 0
  while (size < bytes) {
    n = readRaw(fd, address, len)
    if (n <= 0) break
    size += n
    reads++
  }
  return [size, reads, n]
}

// just-sync's loop is written out at the top level below, as wc.js has it: these are
// the script context's slots it loads and stores on every turn.
let size = 0
let reads = 0
let n = 0
// Warm-up reads are tiny: TurboFan compiles a top-level loop after some 100,000 turns,
// not bytes, and at 64 KiB those would be GiBs.
const WARMUP_READ = 16
let len = WARMUP_READ
let warmedUp = false

const segments = []
const fastCallsOf = () => FORMS[form] ? host.calls()[FORMS[form]].fast : 0
let warmupPairs = 0
let timedPairs = 0
let warm = false
let last = 1
while (timedPairs < pairs && last > 0) {
  warm = warm || warmedUp || warmupPairs === warmupMax
  len = warm ? blocksize : Math.min(blocksize, WARMUP_READ)
  const order = (warmupPairs + timedPairs) % 2 === 0 ? ['loop', 'c'] : ['c', 'loop']
  for (const kind of order) {
    if (last <= 0) break
    const fastBefore = fastCallsOf()
    const start = host.now()
    if (kind === 'c' || form === 'c') {
      [size, reads, n] = host.readLoop(STDIN_FILENO, address, len, segmentBytes)
    } else if (form === 'fast') {
      [size, reads, n] = fastSegment(STDIN_FILENO, address, len, segmentBytes)
    } else {
      size = 0
      reads = 0
      while (size < segmentBytes) {
        n = read(STDIN_FILENO, buf, 0, len)
        if (n <= 0) break
        size += n
        reads++
      }
    }
    const ns = host.now() - start
    last = n
    const slowReads = kind === 'loop' && form !== 'c' ? reads - (fastCallsOf() - fastBefore) : 0
    // Warm-up segments are kept too, so the code after a read loop has run before
    // TurboFan compiles it: a path first taken in optimised code has no type feedback
    // and deoptimises the whole script back to the interpreter.
    segments.push([kind, ns, size, reads, slowReads])
    if (kind === 'loop') warmedUp = slowReads === 0
  }
  // Both counters move every pair: an increment first run after TurboFan compiled
  // the loop would deoptimise it (no feedback), as above.
  timedPairs += warm ? 1 : 0
  warmupPairs += warm ? 0 : 1
}
// Totals are summed here, not in the loop: past 2**30 bytes a running total stops
// being a small integer, and that change of type would deoptimise the loop.
let total = segments.reduce((sum, segment) => sum + segment[2], 0)
let totalReads = segments.reduce((sum, segment) => sum + segment[3], 0)
if (last > 0) {
  const [drained, drainReads, end] = host.readLoop(STDIN_FILENO, address, blocksize, Number.MAX_SAFE_INTEGER)
  total += drained
  totalReads += drainReads
  last = end
}
if (last < 0) {
  error(`read: ${sys.strerror(sys.errno())} (${sys.errno()})`)
  exit(1)
}
print(JSON.stringify({ warmupPairs, segments, size: total, reads: totalReads }))
