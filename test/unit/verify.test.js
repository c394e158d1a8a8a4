'use strict'
// verify(): what makes a run a data point; and the log that keeps the runs that are. Each branch against a hand-made pipeline
// result, in the order verify checks them, so that one failure never hides behind another.
const { test, describe } = require('node:test')
const assert = require('node:assert/strict')

const { verify } = require('../../experiments/stdio/measure')

const honest = { name: 'honest', honoursBlockSize: true }
const ownChunks = { name: 'own-chunks', honoursBlockSize: false }
const step = (overrides = {}) => ({ program: honest, blockSize: 4096, bytes: 1 << 20, timeoutSeconds: 120, ...overrides })
const side = (overrides = {}) => ({ exit: 0, signal: 0, userUs: 1, sysUs: 1, maxRssKb: 1, voluntaryCs: 0, involuntaryCs: 0, ...overrides })
const result = (overrides = {}) => ({
  wallNs: 1e6, timedOut: false, stoppedBy: 0, leftBehind: 0, reader: side(), feeder: side(), stdout: 'size 1048576 reads 256 blocksize 4096\n', stderr: '', ...overrides
})
const output = (overrides = {}) => ({ size: 1 << 20, reads: 256, blockSize: 4096, ...overrides })

describe('verify', () => {
  test('a clean run that counted every byte in blocks of the size asked for is a data point', () => {
    assert.equal(verify(step(), result(), output()), null)
    assert.equal(verify(step({ program: ownChunks }), result(), output({ reads: 16 })), null, 'a reader that picks its chunks is not held to the block size')
    assert.equal(verify(step({ bytes: 0 }), result(), output({ size: 0, reads: 1 })), null, 'start-up on empty input')
    assert.equal(verify(step({ program: ownChunks }), result(), output({ reads: null, blockSize: null })), null, 'a count-only reader (wc -c)')
  })

  test('a stop comes first: whatever else went wrong, the run was interrupted', () => {
    assert.equal(verify(step(), result({ stoppedBy: 15, timedOut: true, reader: side({ signal: 9 }) }), null), 'interrupted')
  })

  test('a timeout names the limit', () => {
    assert.equal(verify(step({ timeoutSeconds: 2 }), result({ timedOut: true, reader: side({ signal: 9 }), feeder: side({ signal: 9 }) }), null), 'timed out after 2 s')
  })

  test('a reader that left processes running has not finished, even if it printed the right count', () => {
    assert.equal(verify(step(), result({ leftBehind: 2 }), output()), 'reader left 2 process(es) running after it exited')
  })

  test('a reader killed by a signal', () => {
    assert.equal(verify(step(), result({ reader: side({ exit: -1, signal: 11 }) }), null), 'reader killed by signal 11')
  })

  test('a reader that exited non-zero, with the last line of its stderr, or none', () => {
    assert.equal(verify(step(), result({ reader: side({ exit: 3 }), stderr: 'warming up\nread: Bad file descriptor (9)\n' }), null), 'reader exited 3: read: Bad file descriptor (9)')
    assert.equal(verify(step(), result({ reader: side({ exit: 1 }), stderr: '' }), null), 'reader exited 1: no message')
  })

  test('a feeder that failed: the reader may have counted what it got, but not what was meant', () => {
    assert.equal(verify(step(), result({ feeder: side({ exit: 1 }) }), output()), 'feeder (dd) failed: exit 1, signal 0')
  })

  test('no result line: the first 200 characters of what it printed', () => {
    const noise = 'x'.repeat(300)
    assert.equal(verify(step(), result({ stdout: noise }), null), `reader printed no result line: ${JSON.stringify(noise.slice(0, 200))}`)
  })

  test('a miscount, either way', () => {
    assert.equal(verify(step(), result(), output({ size: (1 << 20) + 1 })), 'reader counted 1048577 bytes, 1048576 were sent')
    assert.equal(verify(step(), result(), output({ size: 0 })), 'reader counted 0 bytes, 1048576 were sent')
  })

  test('a reader that says it used another block size than asked', () => {
    assert.equal(verify(step(), result(), output({ blockSize: 65536 })), 'reader used block size 65536, asked for 4096')
  })

  test('oversized reads: fewer reads than the bytes allow in blocks of the size asked for', () => {
    // 1 MiB in 4 KiB blocks takes at least 256 reads; 64 means 16 KiB a read
    assert.equal(verify(step(), result(), output({ reads: 64 })), 'reader made 64 reads, impossible for 1048576 bytes in blocks of at most 4096')
    assert.equal(verify(step(), result(), output({ reads: 255 })), 'reader made 255 reads, impossible for 1048576 bytes in blocks of at most 4096')
    assert.equal(verify(step({ bytes: 4097 }), result(), output({ size: 4097, reads: 2 })), null, 'a short last block rounds up')
  })

  test('more reads than bytes: a count that cannot be true', () => {
    assert.equal(verify(step({ bytes: 1000, blockSize: 256 }), result(), output({ size: 1000, reads: 1001, blockSize: 256 })), 'reader made 1001 reads for 1000 bytes')
  })
})

describe('the run log (lib/run-log.js readLog)', () => {
  const fs = require('node:fs')
  const os = require('node:os')
  const path = require('node:path')
  const { readLog } = require('../../lib/run-log')
  const makeError = message => new Error(message)

  test('a last line cut mid-record is left out, and cut off by the writer', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-log-'))
    try {
      fs.writeFileSync(path.join(dir, 'all.jsonl'), '{"run":0}\n{"run":1}\n{"ru')
      assert.deepEqual(readLog(dir, { makeError }), [{ run: 0 }, { run: 1 }])
      assert.equal(fs.readFileSync(path.join(dir, 'all.jsonl'), 'utf8'), '{"run":0}\n{"run":1}\n{"ru', 'a reader leaves the file as it is')
      assert.deepEqual(readLog(dir, { makeError, repair: true }), [{ run: 0 }, { run: 1 }])
      assert.equal(fs.readFileSync(path.join(dir, 'all.jsonl'), 'utf8'), '{"run":0}\n{"run":1}\n')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  test('a whole last record cut just before its newline is kept, and the writer ends its line', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-log-'))
    try {
      const file = path.join(dir, 'all.jsonl')
      fs.writeFileSync(file, '{"run":0}\n{"run":1}')
      assert.deepEqual(readLog(dir, { makeError, repair: true }), [{ run: 0 }, { run: 1 }])
      fs.appendFileSync(file, '{"run":2}\n')
      assert.deepEqual(readLog(dir, { makeError }), [{ run: 0 }, { run: 1 }, { run: 2 }])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  test('a bad line before the last is corruption, named with its line', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-log-'))
    try {
      fs.writeFileSync(path.join(dir, 'all.jsonl'), '{"run":0}\nnot json\n{"run":2}\n')
      const named = /all\.jsonl is corrupt at line 2 \(not a record of a run\); delete or mend that line and the rest of the run is read again/
      assert.throws(() => readLog(dir, { makeError }), named)
      // JSON that is no record (null, a number, a list) is no run either, wherever it is
      for (const value of ['null', '3', '[1]']) {
        fs.writeFileSync(path.join(dir, 'all.jsonl'), `{"run":0}\n${value}\n{"run":2}\n`)
        assert.throws(() => readLog(dir, { makeError }), named)
      }
      fs.writeFileSync(path.join(dir, 'all.jsonl'), '{"run":0}\nnull')
      assert.deepEqual(readLog(dir, { makeError }), [{ run: 0 }])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

// A results file of an experiment's name but another shape (valid JSON, its summary without
// the lists the report reads first) is named by each experiment's resultsProblem, which
// analyse.js turns into one line; a summary of null (a run that measured nothing) is no fault.
test('each experiment names a summary of the wrong shape, and takes one of null', () => {
  const lab = require('../../experiments')
  const problem = (name, results) => lab.byName(name).resultsProblem(results)
  assert.match(problem('http', { http: {} }), /without its lists of cells and syscalls/)
  assert.match(problem('db', { db: { cells: 3 } }), /without its list of cells/)
  assert.match(problem('calls', { ladder: {}, cells: [] }), /without its list of rows/)
  assert.match(problem('stdio', {}), /no list of cells/)
  // lists whose entries are not records: a report read a field of each and threw (a review)
  assert.match(problem('stdio', { cells: [null] }), /no list of cells/)
  assert.match(problem('calls', { ladder: { rows: [] } }), /no list of its cost pass's cells/)
  assert.match(problem('db', { db: { cells: [null] } }), /without its list of cells/)
  assert.match(problem('http', { http: { cells: [], syscalls: [3] } }), /without its lists of cells and syscalls/)
  for (const [name, key] of [['http', 'http'], ['db', 'db'], ['calls', 'ladder']]) {
    assert.equal(problem(name, { [key]: null, cells: [] }), null, name)
  }
  assert.equal(problem('http', { http: { cells: [], syscalls: [] } }), null)
  assert.equal(problem('calls', { ladder: { rows: [] }, cells: [] }), null)
})
