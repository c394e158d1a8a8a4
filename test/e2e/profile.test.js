'use strict'
// The profile pass for real (perf, experiments/stdio/profile.js), where this machine lets
// perf sample; a test that needs perf is skipped with the refusal's reason where it does not.
// The refusal itself runs everywhere.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')
const { spawnSync } = require('node:child_process')
const { probePerf, parsePerfScript } = require('../../lib/perf')
const { bench, readJson, tempFolders } = require('../helpers')

const ROOT = path.resolve(__dirname, '..', '..')
const tempDir = tempFolders('profile-e2e-')
const perf = probePerf()
const skip = perf.available ? false : `perf may not sample here: ${perf.reason}`
// one cost round at 256 B, the profile pass, and nothing else
const ARGS = ['--only', 'node-sync', '--sizes', '256', '--runs', '1', '--warmup', '0', '--mib', '1', '--rounds', '1',
  '--no-strace', '--no-gc', '--no-kernel']

const isolateLogs = dir => fs.readdirSync(dir).filter(name => /^isolate-.*\.log$/.test(name))

// the run's report.html, as analyse.js writes it into out/report
function reportOf (run, out) {
  const report = path.join(out, 'report')
  const argv = [path.join(ROOT, 'analyse.js'), run, '--out', report]
  const analysed = spawnSync(process.execPath, argv, { encoding: 'utf8' })
  assert.equal(analysed.status, 0, analysed.stderr)
  return fs.readFileSync(path.join(report, 'report.html'), 'utf8')
}

test('C and node-sync profiled: ns per read in buckets that add up, samples kept, nothing left', { skip }, () => {
  const out = tempDir()
  const before = isolateLogs(ROOT)
  const result = bench([...ARGS, '--out', out, '--id', 'profiled'])
  assert.equal(result.status, 0, result.stderr + result.stdout)
  const run = path.join(out, 'profiled')
  assert.equal(readJson(path.join(run, 'context.json')).perf.available, true)
  const { cells } = readJson(path.join(run, 'profile.json'))
  assert.deepEqual(cells.map(cell => [cell.program, cell.blockSize, cell.ok]),
    [['c', 256, true], ['node-sync', 256, true]])
  for (const cell of cells) {
    const total = Object.values(cell.buckets).reduce((sum, bucket) => sum + bucket.ns, 0)
    assert.ok(Math.abs(total - cell.cpuPerReadNs) < 1e-6 * cell.cpuPerReadNs,
      `${cell.program}: ${total} against ${cell.cpuPerReadNs}`)
    assert.ok(cell.buckets.kernelRead.ns > 0 && cell.samples > 100, cell.program)
    // the perf script text it came from, kept gzipped
    const text = zlib.gunzipSync(fs.readFileSync(path.join(run, cell.traceFile))).toString()
    const samples = parsePerfScript(text)
    assert.ok(samples.length >= cell.samples)
    // V8's perf maps were read and removed
    for (const pid of new Set(samples.map(sample => sample.pid))) {
      assert.ok(!fs.existsSync(`/tmp/perf-${pid}.map`), `perf-${pid}.map left`)
    }
  }
  const [c, node] = cells
  assert.equal(c.buckets.binding.ns, 0, 'C has no runtime between it and read(2)')
  assert.ok(node.buckets.binding.ns > 0)
  const bindingFrames = node.buckets.binding.top
  assert.ok(bindingFrames.some(([frame]) => frame.startsWith('node::')), JSON.stringify(bindingFrames))
  assert.ok(node.buckets.loop.top.some(([frame]) => frame.startsWith('JS:')), 'its JavaScript named by V8\'s perf map')
  // V8's isolate logs went with the run's own folder, nowhere else
  assert.deepEqual(isolateLogs(ROOT), before)
  assert.deepEqual(fs.readdirSync(path.join(run, 'profile')).sort(), ['c-256.txt.gz', 'node-sync-256.txt.gz'])
  const page = reportOf(run, out)
  assert.match(page, /id="chart-profile-0"/)
  assert.match(page, /node::fs::Read|node::/)
})

test('perf missing: one line says so and how to fix it, and the run goes on without the pass', () => {
  const out = tempDir()
  const result = bench([...ARGS, '--out', out, '--id', 'refused'], { PERF: '/nowhere/perf' })
  assert.equal(result.status, 0, result.stderr + result.stdout)
  const said = result.stdout.split('\n').filter(line => line.startsWith('no profile pass: '))
  assert.deepEqual(said,
    ['no profile pass: /nowhere/perf is not installed: apt-get install linux-perf, or point PERF= at one'])
  const run = path.join(out, 'refused')
  assert.equal(readJson(path.join(run, 'context.json')).perf.available, false)
  assert.deepEqual(readJson(path.join(run, 'profile.json')).cells, [])
  assert.ok(readJson(path.join(run, 'results.json')).headline.cells.length > 0, 'the rest measured')
  assert.match(reportOf(run, out), /perf could not sample: \/nowhere\/perf is not installed/)
})
