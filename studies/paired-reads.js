// The JS side of studies/paired-cost.js, run by build/just-host with stdin a pipe from dd:
// segments of reads by a JS loop and by C's loop (just.host.readLoop, wc.c's loop
// compiled into the host), alternated, each timed with a monotonic clock. Two segments
// moments apart in one process, reading the same pipe into the same buffer, meet the
// same machine: a slow spell of the VM longer than a pair hits both alike, so the pair's
// ratio of throughputs keeps what the loops do differently.
//
//   build/just-host studies/paired-reads.js FORM BLOCKSIZE SEGMENT_BYTES WARMUP_MAX PAIRS
//
// FORM is the loop timed against C's: `fast`, just-fast's (net.readRaw into an address
// taken once, the loop in a function, wc/wc-fast.js), `sync`, just-sync's (net.read
// into an ArrayBuffer, the loop at the script's top level, wc/wc.js), or `c`, C's loop
// again, in the same harness. Each loop also checks where its segment ends (sync's
// loads that bound and its read length from the script context on every turn, where
// wc.js loads a const): a cost the host pays here and C's loop does not. Pair p runs that
// loop then C's when p is even, C's then the loop when odd, so whichever goes second
// in a pair, and whatever that costs, is shared out evenly.
// Untimed pairs run first, up to WARMUP_MAX of them, until the loop has made every read
// of a segment through the fast call (TurboFan has compiled it), their reads 16 bytes
// whatever the block size, 512 KiB at most; then PAIRS timed pairs; then the rest of stdin is read to
// its end. Prints one JSON line:
// { warmupPairs, segments: [[kind, ns, bytes, reads, slowReads], ...], size, reads }:
// every segment in order, warm-up's first, kind 'loop' or 'c', slowReads the loop's
// reads that did not take the fast call (the driver refuses timed segments with any:
// a deoptimised loop is not the loop it means to time); size and reads, every byte and
// read of the run.
// Run by Node, not the host: one line that says what runs it, as lib/cli.js's notACommand.
if (typeof just === 'undefined') {
  process.stderr.write('paired-reads.js runs in the lab\'s V8 host, not Node: ' +
    'build/just-host studies/paired-reads.js (build/just-host studies/paired-reads.js --help says how)\n')
  process.exit(2)
}
const { print, error, exit, sys, net, host } = just
// Each form and the binding whose slow calls betray a loop not (yet) compiled. C's loop
// makes none, so its warm-up ends after one pair; its harness runs the same statements
// as the others'.
const FORMS = { fast: 'net.readRaw', sync: 'net.read', c: 'net.readRaw' }
// It runs in the host, not Node: it answers --help and bad arguments by hand, as
// lib/cli.js does for the Node tools.
const USAGE = `usage: build/just-host studies/paired-reads.js ${Object.keys(FORMS).join('|')} BLOCKSIZE \
SEGMENT_BYTES WARMUP_MAX PAIRS
  Segments of a JS loop's reads of stdin and C's, alternated, each timed; one JSON line.
  The driver, studies/paired-cost.js, runs it with stdin a pipe from dd.`
if (just.args[2] === '--help') {
  print(USAGE)
  exit(0)
}
if (typeof host?.readLoop !== 'function' || typeof net.readRaw !== 'function') {
  error('paired-reads.js: needs the lab\'s build/just-host (just.host.readLoop, just.net.readRaw)')
  exit(2)
}
const [form, ...numbers] = just.args.slice(2)
const [blocksize, segmentBytes, warmupMax, pairs] = numbers.map(Number)
if (!Object.hasOwn(FORMS, form) || numbers.length !== 4 || !numbers.every(text => /^\d{1,15}$/.test(text)) ||
    !(blocksize > 0 && blocksize <= 2 ** 30 && segmentBytes > 0 && pairs > 0)) {
  // the first argument at fault, named
  const names = ['BLOCKSIZE', 'SEGMENT_BYTES', 'WARMUP_MAX', 'PAIRS']
  const fits = [blocksize > 0 && blocksize <= 2 ** 30, segmentBytes > 0, true, pairs > 0]
  const at = numbers.findIndex((text, i) => !/^\d{1,15}$/.test(text) || !fits[i])
  const wrong = !Object.hasOwn(FORMS, form)
    ? `'${form ?? ''}' as the form`
    : numbers.length !== 4 ? `${numbers.length} numbers` : `'${numbers[at]}' as ${names[at]}`
  error(`paired-reads.js: cannot take ${wrong}: ${USAGE.split('\n')[0]} (BLOCKSIZE at most 2**30)`)
  exit(2)
}

const { read } = net
const { STDIN_FILENO } = sys
// At the top level, so it lives as long as the script: the address is only valid
// while buf does.
const buf = new ArrayBuffer(blocksize)
const address = sys.address(buf)
// A segment's [size, reads, last], and its start and end on the clock. Nothing between
// a segment's two clock readings allocates: the loops write their results here, and
// host.nowInto writes the time into `clock` (for the fast and c forms this harness
// stays in the interpreter, where a returned double would be a new HeapNumber): an
// allocation there could start a garbage collection inside the interval timed.
const result = new Float64Array(3)
const clock = new Float64Array(2)

// just-fast's loop (wc/wc-fast.js's count), bounded to a segment.
function fastSegment (fd, address, len, bytes, result) {
  const { readRaw } = net
  let size = 0
  let reads = 0
  let n = 0
  while (size < bytes) {
    n = readRaw(fd, address, len)
    if (n <= 0) break
    size += n
    reads++
  }
  result[0] = size
  result[1] = reads
  result[2] = n
}

// just-sync's loop is written out at the top level below, as wc.js has it: these are
// the script context's slots it loads and stores on every turn.
let size = 0
let reads = 0
let n = 0
// Warm-up reads are tiny, and warm-up segments at most 32768 of them: TurboFan compiles
// a top-level loop after some 100,000 turns, not bytes, and at 64 KiB those would be
// GiBs.
const WARMUP_READ = 16
const WARMUP_SEGMENT = Math.min(segmentBytes, 32768 * WARMUP_READ)
let len = WARMUP_READ
let bound = WARMUP_SEGMENT
let warmedUp = false

const segments = []
const slowCallsOf = () => host.calls()[FORMS[form]].slow
let warmupPairs = 0
let timedPairs = 0
let warm = false
let last = 1
while (timedPairs < pairs && last > 0) {
  warm = warm || warmedUp || warmupPairs === warmupMax
  len = warm ? blocksize : Math.min(blocksize, WARMUP_READ)
  bound = warm ? segmentBytes : WARMUP_SEGMENT
  const order = (warmupPairs + timedPairs) % 2 === 0 ? ['loop', 'c'] : ['c', 'loop']
  for (const kind of order) {
    if (last <= 0) break
    const slowBefore = slowCallsOf()
    host.nowInto(clock, 0)
    if (kind === 'c' || form === 'c') {
      host.readLoop(STDIN_FILENO, address, len, bound, result)
    } else if (form === 'fast') {
      fastSegment(STDIN_FILENO, address, len, bound, result)
    } else {
      size = 0
      reads = 0
      while (size < bound) {
        n = read(STDIN_FILENO, buf, 0, len)
        if (n <= 0) break
        size += n
        reads++
      }
    }
    host.nowInto(clock, 1)
    const ns = clock[1] - clock[0]
    if (kind === 'loop' && form === 'sync') {
      result[0] = size
      result[1] = reads
      result[2] = n
    }
    last = result[2]
    const slowReads = slowCallsOf() - slowBefore
    // Warm-up segments are kept too, so the code after a read loop has run before
    // TurboFan compiles it: a path first taken in optimised code has no type feedback
    // and deoptimises the whole script back to the interpreter.
    segments.push([kind, ns, result[0], result[1], slowReads])
    if (kind === 'loop') warmedUp = slowReads === 0
  }
  // Both counters move every pair: an increment first run after TurboFan compiled
  // the loop would deoptimise it (no feedback), as above.
  timedPairs += warm ? 1 : 0
  warmupPairs += warm ? 0 : 1
}
// Totals are summed here, not in the loop: past 2**31 - 1 bytes a running total stops
// being a small integer, and that change of type would deoptimise the loop.
let total = segments.reduce((sum, segment) => sum + segment[2], 0)
let totalReads = segments.reduce((sum, segment) => sum + segment[3], 0)
if (last > 0) {
  host.readLoop(STDIN_FILENO, address, blocksize, Number.MAX_SAFE_INTEGER, result)
  total += result[0]
  totalReads += result[1]
  last = result[2]
}
if (last < 0) {
  error(`read: ${sys.strerror(sys.errno())} (${sys.errno()})`)
  exit(1)
}
print(JSON.stringify({ warmupPairs, segments, size: total, reads: totalReads }))
