'use strict'
// The readers through io_uring in the real bench: refused where a seccomp filter refuses
// io_uring, as Docker's default profile does (the test installs such a filter,
// test/fixtures/seccomp-deny.c), and checked by the strace pass where they run, which
// catches a row that claims a ring it does not use; and the call ladder's ring variants,
// which must stop at a refused ring and read through the ring they set up.
const { readRuns, seccompDeny, TINY_LADDER } = require('../helpers')
const ladder = require('../../experiments/calls/ladder')
const { shellQuote } = require('../../lib/pipeline')
const { optionalMissing } = require('../../lib/runtimes')
const { FIXED_FEEDER_BLOCK } = require('../../experiments/stdio/measure')
const { ringDepth } = require('../../experiments/stdio/strace')
const { findProgram, fileFeedReason } = require('../../experiments/stdio/programs')
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const ROOT = path.resolve(__dirname, '..', '..')
const BENCH = path.join(ROOT, 'bench.js')
const RING_PROGRAMS = path.join(__dirname, '..', 'fixtures', 'ring-programs.js')
const SMALL = ['--sizes', '256,65536', '--runs', '1', '--warmup', '0', '--mib', '1', '--no-gc', '--no-cost']
const RING_READERS = ['c-uring', 'c-uring-fixed', 'c-uring-window', 'just-uring']
const REFUSED = 'io_uring_setup is refused here (Operation not permitted): a seccomp profile such as Docker\'s default blocks io_uring; run the container with --security-opt seccomp=unconfined'

let scratch
let denyUring

before(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-uring-'))
  denyUring = seccompDeny(scratch, 'uring')
})

after(() => fs.rmSync(scratch, { recursive: true, force: true }))

const bench = (args, { prefix = [], env = {} } = {}) => spawnSync(prefix[0] ?? process.execPath, [...prefix.slice(1), ...(prefix.length ? [process.execPath] : []), BENCH, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 300000 })

test('io_uring refused by seccomp: the rows say why in --list, --only naming a reader or a ladder is one line and exit 2, a pattern skips them and the run goes on', () => {
  const list = bench(['--list'], { prefix: denyUring })
  assert.equal(list.status, 0, list.stderr)
  for (const name of RING_READERS) assert.ok(list.stdout.includes(`${name.padEnd(14)} honours bs  unavailable: ${REFUSED}`), list.stdout)
  // what docker/versions.sh tells a ring refused by the build's seccomp profile by
  const json = JSON.parse(bench(['--list', '--json'], { prefix: denyUring }).stdout)
  // (wasmer's rows where ./setup.sh --wasm has not run are unavailable for that alone)
  const refused = json.filter(row => !row.available && !optionalMissing(row.runtime))
  assert.deepEqual(refused.map(row => [row.name, row.ring, /^io_uring_setup /.test(row.unavailable)]), RING_READERS.map(name => [name, true, true]))

  const named = bench(['--only', 'c-uring', '--out', scratch, '--id', 'named', ...SMALL], { prefix: denyUring })
  assert.equal(named.status, 2)
  assert.equal(named.stderr, `bench.js: cannot run c-uring: ${REFUSED}\n`)
  assert.equal(fs.existsSync(path.join(scratch, 'named')), false, 'nothing started')

  const ladder = bench(['--experiment', 'calls', '--only', 'just-uring', '--out', scratch, '--id', 'ladder', '--quick'],
    { prefix: denyUring })
  assert.equal(ladder.status, 2)
  assert.equal(ladder.stderr, `bench.js: cannot run the ladder of just-uring: ${REFUSED}\n`)

  const pattern = bench(['--only', 'c*', '--no-strace', '--out', scratch, '--id', 'pattern', ...SMALL],
    { prefix: denyUring })
  assert.equal(pattern.status, 0, pattern.stderr + pattern.stdout)
  const context = JSON.parse(fs.readFileSync(path.join(scratch, 'pattern', 'context.json'), 'utf8'))
  assert.deepEqual(context.programs.map(program => program.name).sort(), ['c', 'coreutils'])
  assert.deepEqual(context.skipped.filter(entry => entry.program.includes('uring')), ['c-uring', 'c-uring-fixed', 'c-uring-window'].map(program => ({ program, reason: REFUSED })))
})

// The ladder's ring variants run alone (calls/c.c, just.js, bun.mjs, deno.mjs), fed as
// the bench feeds them.
const ladderPipe = (variant, { prefix = '' } = {}) => `dd if=/dev/zero bs=${FIXED_FEEDER_BLOCK} count=${ladder.ladderBytes(TINY_LADDER) / FIXED_FEEDER_BLOCK} status=none | ${prefix}${shellQuote(ladder.ladderArgv(variant, TINY_LADDER))}`
const RING_LADDERS = ladder.variants.filter(variant => variant.ring)

test('each ring ladder sets up a ring: under the filter it stops at io_uring_setup, exit 1', () => {
  assert.deepEqual(RING_LADDERS.map(variant => variant.name), ['c-uring', 'just-uring', 'bun-uring', 'deno-uring'])
  for (const variant of RING_LADDERS) {
    const piped = ladderPipe(variant, { prefix: `${shellQuote(denyUring)} ` })
    const run = spawnSync('bash', ['-c', piped], { cwd: ROOT, encoding: 'utf8' })
    assert.equal(run.status, 1, `${variant.name}: ${run.stderr}`)
    assert.match(run.stderr, /^io_uring_setup: .*(EPERM|Operation not permitted)/, variant.name)
  }
})

test('each ring ladder reads through its ring: strace sees no read(2) but the last, empty one of stdin', () => {
  for (const variant of RING_LADDERS) {
    const trace = path.join(scratch, `${variant.name}.trace`)
    // only read(2) is traced, so that the ring's own calls run at full speed
    const run = spawnSync('bash', ['-c', ladderPipe(variant, { prefix: `strace -f --seccomp-bpf -e trace=read -o ${shellQuote([trace])} ` })], { cwd: ROOT, encoding: 'utf8' })
    assert.equal(run.status, 0, `${variant.name}: ${run.stderr}`)
    assert.match(run.stdout, new RegExp(`^size ${ladder.ladderBytes(TINY_LADDER)} reads `, 'm'))
    const reads = fs.readFileSync(trace, 'utf8').split('\n').filter(line => / read\(/.test(line))
    assert.deepEqual(reads.filter(line => / read\(0,/.test(line)).map(line => line.replace(/^\d+ +/, '').replace(/".*"/, '""').replace(/ +/g, ' ')), ['read(0, "", 256) = 0'], variant.name)
    // the empty-read rung's calls, were they read(2)s, would be thousands
    assert.ok(reads.length < TINY_LADDER.calls, `${variant.name}: ${reads.length} read(2) calls`)
  }
})

test('c-uring\'s sqpoll and window modes: every byte of random input, fed by dd or by cat, in blocks; a bad mode or window refused', () => {
  const reader = path.join(ROOT, 'build', 'wc-uring')
  const input = path.join(scratch, 'random')
  fs.writeFileSync(input, require('node:crypto').randomBytes(8 << 20))
  const count = (feeder, args) => spawnSync('bash', ['-c', `${feeder} | ${shellQuote([reader, ...args])}`], { encoding: 'utf8' })
  // sqpoll's thread can post a completion before it frees the entry: cat of a file made
  // that race show in about half the runs (a crash, before the reader waited for the
  // entry), so the test feeds it that way three times
  const cat = `cat ${shellQuote([input])}`
  for (const [feeder, blockSize] of [['dd if=/dev/urandom bs=4096 count=256 status=none', 4096], [cat, 256], [cat, 256], [cat, 256]]) {
    const bytes = feeder.startsWith('dd') ? 1 << 20 : 8 << 20
    const counted = count(feeder, [String(blockSize), 'sqpoll'])
    assert.deepEqual([counted.status, counted.stderr, counted.stdout], [0, '', `size ${bytes} reads ${bytes / blockSize} blocksize ${blockSize}\n`], feeder)
  }
  // window: 64 reads in flight at 256 B, 4 at 4 KiB, 1 at 64 KiB; the blocks come back in no set order
  for (const blockSize of [256, 4096, 65536]) {
    const counted = count(cat, [String(blockSize), 'window', '16384'])
    assert.deepEqual([counted.status, counted.stderr, counted.stdout], [0, '', `size ${8 << 20} reads ${(8 << 20) / blockSize} blocksize ${blockSize}\n`], `window at ${blockSize}`)
  }
  const usage = `usage: ${reader} [blocksize > 0] [fixed | sqpoll | window BYTES]\n`
  // a window of 2^32 once wrapped to a depth of 0 on its way to the checks
  for (const args of [['4096', 'fast'], ['4096', 'window'], ['4096', 'window', '0'], ['1', 'window', '8192'], ['1', 'window', '4294967296'], ['256', 'window', '16k'], ['256', 'window', '-1'], ['256x'], ['4096', 'fixed', '16384'], ['4096', 'window', '16384', 'x']]) {
    const refused = spawnSync(reader, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    assert.deepEqual([refused.status, refused.stderr], [2, usage], args.join(' '))
  }
  // a regular file's reads in flight would share its position: refused, and the row says so for --feeder file
  const file = spawnSync('bash', ['-c', `${shellQuote([reader, '256', 'window', '16384'])} < ${shellQuote([input])}`], { encoding: 'utf8' })
  assert.deepEqual([file.status, file.stdout, file.stderr], [1, '', 'read: window mode reads a pipe, not a regular file, whose reads in flight would share its position\n'])
  assert.match(fileFeedReason(findProgram('c-uring-window')), /refuses a regular file$/)
})

test('the strace pass: each ring reader\'s submissions are its reads and one for the end; a row that claims a ring and reads with read(2) fails', () => {
  const run = bench(['--only', 'c', ...RING_READERS.flatMap(name => ['--only', name]), '--only', 'fixture-fake-ring', '--out', scratch, '--id', 'traced', ...SMALL], { env: { LAB_EXTRA_PROGRAMS: RING_PROGRAMS } })
  assert.equal(run.status, 1, run.stderr + run.stdout)
  const traced = readRuns(path.join(scratch, 'traced', 'all.jsonl')).filter(record => record.phase === 'strace')
  for (const name of RING_READERS) {
    const records = traced.filter(record => record.program === name)
    assert.equal(records.length, 4, `${name}: two sizes of two block sizes`)
    for (const record of records) {
      assert.equal(record.ok, true, `${name}: ${record.failure}`)
      assert.deepEqual(record.readTrace.stdin, {}, `${name} reads stdin with no read(2)`)
      // one submission more for each read in flight at the end: 64 at 256 B for the window's 16 KiB
      assert.equal(record.readTrace.ring.submitted, record.output.reads + ringDepth(findProgram(name), record.blockSize), name)
      assert.equal(record.output.reads, record.bytes / record.blockSize)
    }
  }
  const fake = traced.filter(record => record.program === 'fixture-fake-ring')
  assert.ok(fake.length > 0 && fake.every(record => !record.ok && record.failure === 'strace saw the reader read stdin with read, but its row reads through io_uring'), JSON.stringify(fake.map(record => record.failure)))
})
