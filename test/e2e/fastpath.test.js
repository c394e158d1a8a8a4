'use strict'
// The fast-path check for real: the lab's fastest readers, each traced by its own engine,
// take their fast paths; two readers written to deoptimise fail every cell, with the reason,
// and are ranked nowhere; node:ffi's row on a Node without it is refused by name.
const { test, describe, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const { findProgram, unavailableReason } = require('../../experiments/stdio/programs')
const findings = require('../../experiments/stdio/findings')
const { missingTools } = require('../../lib/native-code')
const { optionalMissing, runtimes } = require('../../lib/runtimes')
const { readRuns } = require('../helpers')

const ROOT = path.resolve(__dirname, '..', '..')
const SLOW_PATHS = path.join(__dirname, '..', 'fixtures', 'slow-path-programs.js')
const FASTEST = ['just-fast', 'node-ffi', 'bun-ffi', 'deno-ffi']
// whether perf samples here, so that the profile pass runs: asked once
const perfSamples = require('../../lib/perf').probePerf().available

const tempDirs = []
after(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
})

function bench (args, env = {}) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-fastpath-'))
  tempDirs.push(out)
  const result = spawnSync(process.execPath, [path.join(ROOT, 'bench.js'), ...args, '--out', out, '--id', 'run'], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 300000
  })
  const dir = path.join(out, 'run')
  const json = name => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'))
  return { result, dir, json }
}

// One run at 256 B, the cost pass's six rounds and the check; nothing else.
const SHORT = ['--sizes', '256', '--runs', '1', '--warmup', '0', '--rounds', '6', '--no-strace', '--no-gc']

// Rows that cannot run here: a test fails on any ./setup.sh installs, and is skipped, saying
// why, only where a runtime only an optional set-up installs is missing.
function unavailable (rows) {
  const missing = rows.map(row => [row, unavailableReason(row)]).filter(([, reason]) => reason !== null)
  const needed = missing.filter(([row]) => !optionalMissing(row.runtime))
  assert.deepEqual(needed.map(([row, reason]) => `${row.name}: ${reason}`), [], 'installed by ./setup.sh')
  return missing.length > 0 && missing.map(([row, reason]) => `${row.name}: ${reason}`).join('; ')
}

describe('the fastest readers through the real bench', () => {
  test('each takes its fast path, and the trace that shows it is kept', t => {
    const skip = unavailable(FASTEST.map(findProgram))
    if (skip) return t.skip(skip)
    const { result, dir, json } = bench(['--only', 'c', ...FASTEST.flatMap(name => ['--only', name]), ...SHORT])
    assert.equal(result.status, 0, result.stderr + result.stdout)
    const { fastPaths } = json('results.json')
    assert.deepEqual(fastPaths.map(entry => [entry.program, entry.verdict]), FASTEST.map(name => [name, 'engaged']))
    for (const entry of fastPaths) {
      assert.deepEqual(entry.sizes, [256])
      assert.match(entry.summary, /compiled count\(\)/)
      // where perf sampled them, Node's loop made no slow API call; the host's V8 (libnode) and
      // npm's Deno name none of their builtins, so there the count says it could see none
      if (perfSamples && entry.program === 'node-ffi') {
        assert.match(entry.summary, /; the profile pass found 0\.0% of the \d+ samples of its read loop in V8's slow API calls$/)
      }
      if (perfSamples && ['just-fast', 'deno-ffi'].includes(entry.program)) {
        assert.match(entry.summary, /; the profile pass found no V8 builtin named in its run \(a stripped binary\): slow API calls/)
      }
      if (!perfSamples && entry.program !== 'bun-ffi') {
        assert.match(entry.summary, /; slow API calls beside it not counted \(no profile pass\)$/)
      }
      assert.ok(fs.statSync(path.join(dir, 'fastpath', `${entry.program}-256.txt`)).size > 0)
      // V8's fast calls named in the reader's memory, each the C function the row names
      const target = {
        'just-fast': /^host::net::FastReadRaw\([^)]*\) \(just-host\)$/,
        'node-ffi': /^(.* \(node\), )?read \(libc\.so\.6\) through code generated at run time$/,
        'deno-ffi': /^read \(libc\.so\.6\) through code generated at run time$/
      }[entry.program]
      if (target && !missingTools()) assert.match(entry.reaches, target)
      // V8's check runs were held open to be named, and say so
      const checks = readRuns(path.join(dir, 'all.jsonl'))
        .filter(record => record.phase === 'fastpath' && record.program === entry.program)
      assert.deepEqual(checks.map(record => record.held ?? false), [entry.program !== 'bun-ffi'])
      if (entry.program === 'bun-ffi') assert.equal(entry.reaches, null, 'JavaScriptCore is not asked')
      const graphs = path.join(dir, 'fastpath', `${entry.program}-256.graphs`)
      assert.equal(fs.existsSync(graphs), false, 'the graphs are read and removed')
    }
    const context = json('context.json')
    const { passes } = context.placement
    assert.deepEqual(passes.fastPath, passes.cost, 'the check runs where the cost pass does')
  })
})

describe('readers written to deoptimise', () => {
  test('fail every cell with the reason, and are ranked nowhere', t => {
    const skip = unavailable(require(SLOW_PATHS))
    if (skip) return t.skip(skip)
    const args = ['--only', 'c', '--only', 'fixture-deopt-*', ...SHORT, '--mib', '256']
    const { result, dir, json } = bench(args, { LAB_EXTRA_PROGRAMS: SLOW_PATHS })
    assert.equal(result.status, 1, result.stderr + result.stdout)
    const results = json('results.json')
    const reasons = {
      'fixture-deopt-node': /^fast path not taken: count\(\) deoptimised inside its loop \d+ times?, first: /,
      'fixture-deopt-bun':
        /^fast path not taken: count\(\)'s optimised code was thrown away \d+ times? \(Jettisoning\)$/
    }
    for (const [program, reason] of Object.entries(reasons)) {
      const failure = results.failures.find(entry => entry.phase === 'fastpath' && entry.program === program)
      assert.match(failure.reason, reason)
      assert.ok(result.stdout.includes(`- fastpath ${program} @ 256: ${failure.reason}\n`), result.stdout)
      const cell = results.headline.cells.find(entry => entry.program === program)
      // a VM may mark the cell with what it saw of the machine too (steal time)
      assert.deepEqual(cell.flags.filter(flag => flag !== 'steal'), ['failed'])
      assert.equal(cell.rejected, `${failure.reason} (checked at 256 B)`)
      const timed = results.cells.find(entry => entry.program === program)
      assert.equal(timed.rejected, cell.rejected, 'its timed cell is out too')
      assert.equal(results.fastPaths.find(entry => entry.program === program).verdict, 'not taken')
    }
    const set = { label: 'slow', context: json('context.json'), results, syscalls: null, gc: null }
    // quoted nowhere in the findings but for start-up, which takes no fast path
    const quoted = findings.findings([set]).map(finding => finding.text).filter(text => text.includes('fixture-deopt'))
    for (const text of quoted) assert.match(text, /^Start-up on empty input/, text)
    const trace = fs.readFileSync(path.join(dir, 'fastpath', 'fixture-deopt-bun-256.txt'), 'utf8')
    assert.ok(trace.includes('Jettisoning count#'))
  })
})

// node-ffi itself, its row naming write as what its fast call must reach: the check names the
// call's target in the reader's memory (read), and fails it.
describe('a fastest reader whose fast call reaches another function than its row names', () => {
  const row = require(SLOW_PATHS).find(entry => entry.name === 'fixture-target-node')
  test('fails every cell with the function it reaches, and bench.js exits 1', t => {
    const skip = unavailable([row]) || missingTools()
    if (skip) return t.skip(skip)
    const args = ['--only', 'c', '--only', 'fixture-target-node', ...SHORT, '--no-kernel', '--no-profile']
    const { result, json } = bench(args, { LAB_EXTRA_PROGRAMS: SLOW_PATHS })
    assert.equal(result.status, 1, result.stderr + result.stdout)
    const results = json('results.json')
    const check = results.fastPaths.find(entry => entry.program === 'fixture-target-node')
    assert.equal(check.verdict, 'not taken')
    const reaches = /^TurboFan's fast call in count\(\) reaches (.* \(node\), )?read \(libc\.so\.6\) through code /
    assert.match(check.reason, reaches)
    assert.match(check.reason, /generated at run time, not write$/)
    const cell = results.headline.cells.find(entry => entry.program === 'fixture-target-node')
    assert.deepEqual(cell.flags.filter(flag => flag !== 'steal'), ['failed'])
  })
})

// just-fast itself, its row naming libc's read as what its fast call must reach, checked where
// binutils cannot name the call (as in the image): the memory map alone places the call in the
// host's own code, not in libc, and the check fails it. A helper of the runtime's own beside
// a call gone slow (node:ffi's no-op) is caught the same way.
describe('a fastest reader whose fast calls lie in another file than its row names, unnamed', () => {
  const row = require(SLOW_PATHS).find(entry => entry.name === 'fixture-file-just')
  test('fails every cell with the file they lie in, and bench.js exits 1', t => {
    const skip = unavailable([row])
    if (skip) return t.skip(skip)
    // binutils' four tools, each failing, first on PATH
    const tools = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-no-binutils-'))
    tempDirs.push(tools)
    for (const bin of ['readelf', 'nm', 'objdump', 'c++filt']) {
      fs.writeFileSync(path.join(tools, bin), '#!/bin/sh\nexit 127\n', { mode: 0o755 })
    }
    const args = ['--only', 'c', '--only', 'fixture-file-just', ...SHORT, '--no-kernel', '--no-profile']
    const { result, json } = bench(args, { LAB_EXTRA_PROGRAMS: SLOW_PATHS, PATH: `${tools}:${process.env.PATH}` })
    assert.equal(result.status, 1, result.stderr + result.stdout)
    const results = json('results.json')
    const check = results.fastPaths.find(entry => entry.program === 'fixture-file-just')
    assert.equal(check.verdict, 'not taken')
    const host = path.basename(runtimes.just.locate()) // just-host, or what JUST= names
    assert.equal(check.reason, `TurboFan's fast calls in count() all lie in ${host}, none in libc.so.6, where ` +
      'read is (not named: readelf is not installed (apt-get install binutils))')
    const cell = results.headline.cells.find(entry => entry.program === 'fixture-file-just')
    assert.deepEqual(cell.flags.filter(flag => flag !== 'steal'), ['failed'])
  })
})

// Its graph holds a fast API call, so the check of the graph passes it; each call also turns
// its Buffer into an address by a slow one, which the profile pass finds in its loop.
describe('a fastest reader whose fast call runs beside a slow one', () => {
  const row = require(SLOW_PATHS).find(entry => entry.name === 'fixture-buffer-node')
  test('the profile pass fails its cells with the reason, and bench.js exits 1', t => {
    const skip = unavailable([row]) || (!perfSamples && 'perf samples nothing here: no profile pass')
    if (skip) return t.skip(skip)
    const args = ['--only', 'c', '--only', 'fixture-buffer-node', ...SHORT, '--no-kernel', '--profile-rounds', '1']
    const { result, json } = bench(args, { LAB_EXTRA_PROGRAMS: SLOW_PATHS })
    assert.equal(result.status, 1, result.stderr + result.stdout)
    const results = json('results.json')
    const check = results.fastPaths.find(entry => entry.program === 'fixture-buffer-node')
    assert.equal(check.verdict, 'not taken')
    assert.match(check.reason, /^the profile pass found \d+\.\d% of the \d+ samples of its read loop in V8's slow API calls \(Builtins_CallApiCallback…\), over 5%/)
    const cell = results.headline.cells.find(entry => entry.program === 'fixture-buffer-node')
    assert.deepEqual(cell.flags.filter(flag => flag !== 'steal'), ['failed'])
    assert.equal(cell.rejected, `fast path not held: ${check.reason} (profiled at 256 B)`)
    assert.ok(results.failures.some(failure => failure.program === 'fixture-buffer-node' && failure.reason === `fast path not held: ${check.reason}`))
    assert.equal(json('profile.json').cells.find(entry => entry.program === 'fixture-buffer-node').ok, false)
  })
})

describe('node:ffi where the Node has none', () => {
  const node24 = require('../../lib/runtimes').runtimes['node@24']
  const skip = !fs.existsSync(node24.locate()) && `no Node 24 at ${node24.locate()}: run ./setup.sh`
  test('--only naming its row exits 2 with one line that names the version', { skip }, () => {
    const { result } = bench(['--only', 'node-ffi', '--node', '24', ...SHORT])
    assert.equal(result.status, 2, result.stdout)
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
    assert.match(result.stderr, new RegExp('node-ffi@24.*Node 24\\.\\d+\\.\\d+ has no node:ffi: ' +
      'pick a Node that has it \\(--node; node:ffi came in 26\\.1\\.0, on by default from 26\\.9\\.0\\)'))
  })
})
