'use strict'
// The strace pass for real: a reader that lies about its block size, run through the
// real bench under strace.
const { readRuns } = require('../helpers')
const { test, describe, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync, execFileSync } = require('node:child_process')

const findings = require('../../experiments/stdio/findings')

const ROOT = path.resolve(__dirname, '..', '..')
const LIARS = path.join(__dirname, '..', 'fixtures', 'liar-programs.js')

const tempDirs = []
after(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
})

function ptraceWorks () {
  try {
    execFileSync('strace', ['-q', '-c', '-o', '/dev/null', 'true'], { stdio: 'ignore', timeout: 20000 })
    return true
  } catch {
    return false
  }
}

describe('a reader that lies about its block size, through the real bench', () => {
  test('its cells fail with the reason and the re-run command, and leave the findings', { skip: !ptraceWorks() && 'strace cannot trace here (install strace; in Docker add --cap-add SYS_PTRACE)' }, () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-strace-'))
    tempDirs.push(out)
    const result = spawnSync(process.execPath, [path.join(ROOT, 'bench.js'), '--only', 'c', '--only', 'fixture-liar', '--sizes', '4096,65536', '--runs', '1', '--warmup', '0', '--mib', '1', '--no-gc', '--no-cost', '--out', out, '--id', 'liar'], {
      cwd: ROOT, encoding: 'utf8', env: { ...process.env, LAB_EXTRA_PROGRAMS: LIARS }, timeout: 300000
    })
    assert.equal(result.status, 1, result.stderr + result.stdout)
    const dir = path.join(out, 'liar')
    // the timed runs themselves went well: the reader counted every byte and said so
    const log = readRuns(path.join(dir, 'all.jsonl'))
    assert.ok(log.filter(record => record.phase === 'timing').every(record => record.ok))

    const results = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8'))
    for (const blockSize of [4096, 65536]) {
      // (how many calls depends on how full the pipe was: at 64 KiB it holds no more than a block)
      const failure = results.failures.find(entry => entry.phase === 'strace' && entry.program === 'fixture-liar' && entry.blockSize === blockSize)
      const reason = failure.reason
      assert.match(reason, new RegExp(`^strace saw the reader ask for up to ${4 * blockSize} bytes a call, more than the ${blockSize}-byte blocks its row claims to read in \\(\\d+ read calls brought the 1048576 bytes\\)$`))
      assert.match(failure.command, new RegExp(`^dd if=/dev/zero bs=65536 count=16 status=none \\| strace -qq -C -f -s 0 -e signal=none -o \\S+/fixture-liar-${blockSize}-1M.txt \\S+/node ${path.join(ROOT, 'test/fixtures/wc-liar.js')} ${blockSize}$`))
      assert.ok(result.stdout.includes(`- strace fixture-liar @ ${blockSize}: ${reason}\n  re-run: ${failure.command}\n`), result.stdout)
      const cell = results.cells.find(entry => entry.program === 'fixture-liar' && entry.blockSize === blockSize)
      assert.deepEqual([cell.flags, cell.rejected, cell.best], [['failed'], reason, undefined])
      assert.match(fs.readFileSync(path.join(dir, 'strace', `fixture-liar-${blockSize}-1M.txt`), 'utf8'), /^\d+ +execve\(/, 'the trace that caught it is kept whole')
      assert.match(fs.readFileSync(path.join(dir, 'strace', `c-${blockSize}-1M.txt`), 'utf8'), /^% time /, 'an honest reader\'s file keeps the summary')
      assert.equal(results.cells.find(entry => entry.program === 'c' && entry.blockSize === blockSize).flags.includes('failed'), false)
    }
    const c = log.find(record => record.phase === 'strace' && record.program === 'c' && record.blockSize === 4096 && record.bytes === 1 << 20)
    assert.deepEqual(c.readTrace.stdin.read.returned, { 0: 1, 4096: 256 })

    // quoted nowhere in the findings but as a failed cell
    const set = {
      label: 'liar',
      context: JSON.parse(fs.readFileSync(path.join(dir, 'context.json'), 'utf8')),
      results,
      syscalls: JSON.parse(fs.readFileSync(path.join(dir, 'syscalls.json'), 'utf8')),
      gc: null
    }
    const sentences = findings.findings([set]).map(finding => finding.text).filter(text => text.includes('fixture-liar'))
    for (const text of sentences) assert.match(text, /Start-up on empty input/, text)
  })
})
