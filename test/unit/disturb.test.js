'use strict'
// studies/disturb.js's options: the memory mode streams at least 4 last-level caches, and
// says what is wrong, with the fix, where it cannot.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const os = require('node:os')
const { parseOptions } = require('../../studies/disturb')

const MiB = 2 ** 20
const LLC = 32 * MiB
// the CPUs the tool may use, given as a machine would, so that no test depends on this one's
const CPUS = [0, 1]

test('busy is the default, on CPUs 0 and 1 in turn', () => {
  const options = parseOptions([], LLC, CPUS)
  assert.deepEqual(options, { mode: 'busy', every: 30, busy: 3, total: 600, cpus: [0, 1] })
})

test('memory streams 4 last-level caches by default, on CPU 0, and never fewer', () => {
  const options = parseOptions(['--mode', 'memory', '--for', '60'], LLC, CPUS)
  assert.equal(options.bytes, 128 * MiB)
  assert.deepEqual(options.cpus, [0])
  assert.equal(options.total, 60)
  assert.equal(parseOptions(['--mode', 'memory', '--mib', '200', '--cpus', '0,1'], LLC, CPUS).bytes, 200 * MiB)
  assert.throws(() => parseOptions(['--mode', 'memory', '--mib', '100'], LLC, CPUS),
    /--mib 100 is less than 4 times the last-level cache \(32 MiB\): give at least 128 \(usage: /)
  for (const bad of ['lots', '1e3', '0x100', '200.0', '-200']) {
    assert.throws(() => parseOptions(['--mode', 'memory', '--mib', bad], LLC, CPUS),
      new RegExp(`--mib must be a whole number of at least 1.*, not '${bad}'`))
  }
  const tooMuch = String(Math.floor(os.totalmem() / MiB) + 1)
  assert.throws(() => parseOptions(['--mode', 'memory', '--mib', tooMuch], LLC, CPUS),
    new RegExp(`--mib ${tooMuch} is more than this machine's available memory \\(\\d+ MiB\\): give less`))
  // where sysfs names no cache, the size must be given
  assert.throws(() => parseOptions(['--mode', 'memory'], null, CPUS), /names no last-level cache in sysfs: give --mib/)
  assert.equal(parseOptions(['--mode', 'memory', '--mib', '64'], null, CPUS).bytes, 64 * MiB)
})

test('a wrong mode, or --mib without the memory mode, is refused in one line', () => {
  assert.throws(() => parseOptions(['--mode', 'cache'], LLC, CPUS), /--mode takes busy or memory, not 'cache'/)
  assert.throws(() => parseOptions(['--mib', '200'], LLC, CPUS), /--mib is the memory mode's: add --mode memory/)
  assert.throws(() => parseOptions(['--mode', 'memory', '--busy', '1'], LLC, CPUS), /--busy is the busy mode's: the memory mode streams all along; drop it/)
  assert.throws(() => parseOptions(['--mode', 'memory', '--every', '10'], LLC, CPUS), /--every is the busy mode's/)
  // the other mode's option named first, not its default compared with it
  assert.throws(() => parseOptions(['--mode', 'memory', '--every', '3'], LLC, CPUS), /--every is the busy mode's/)
})

// Each CPU's streamer allocates the whole --mib, in two buffers of half each (a review: the
// check counted one streamer, and a half past Node's largest buffer died at once)
test('memory: what every streamer takes must be free, and each half fit one buffer', () => {
  const { streamedBytes } = require('../../studies/disturb')
  const { constants } = require('node:buffer')
  const GiB = 1024 * MiB
  assert.equal(streamedBytes('3000', LLC, 1, 5 * GiB), 3000 * MiB)
  assert.throws(() => streamedBytes('3000', LLC, 2, 5 * GiB),
    /--mib 3000 on each of 2 CPUs is more than this machine's available memory \(5120 MiB\): give less/)
  const past = String(2 * constants.MAX_LENGTH / MiB + 2)
  assert.throws(() => streamedBytes(past, LLC, 1, 64 * GiB),
    new RegExp(`--mib ${past} is more than twice the largest buffer Node allocates \\(\\d+ MiB\\): give less`))
})
// A busy loop on a CPU taskset refused once ran nowhere, and the tool said it had run
test('a CPU this process may not use, a burst that never comes, or seconds that are not whole: refused', () => {
  const refused = (args, message, usable = CPUS) => assert.throws(() => parseOptions(args, LLC, usable), message)
  refused(['--cpus', '99'], /--cpus 99 is not a CPU this process may use; these are [\d,]+ \(usage: /)
  refused(['--mode', 'memory', '--cpus', '99'], /--cpus 99 is not a CPU this process may use/)
  refused(['--cpus', '0', '--for', '10'], /--for 10 ends before the first burst, at --every 30: give a longer --for/)
  refused(['--every', 'Infinity'], /--every must be a whole number of at least 1, not 'Infinity'/)
  refused(['--busy', '3', '--every', '3'],
    /--busy 3 must be less than --every 3: give a shorter --busy or a longer --every/)
  assert.equal(parseOptions(['--mode', 'memory', '--for', '3', '--cpus', '0'], LLC, CPUS).total, 3)
  // by default the CPUs it may use: the first two in turn, or the first for the streamer
  assert.deepEqual(parseOptions([], LLC, [2, 5, 7]).cpus, [2, 5])
  assert.deepEqual(parseOptions(['--mode', 'memory'], LLC, [2, 5, 7]).cpus, [2])
  refused(['--cpus', '0'], /--cpus 0 is not a CPU this process may use; these are 2,5/, [2, 5])
})
