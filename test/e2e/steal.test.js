'use strict'
// The VM's steal time, read for real: pipe-run's reading of /proc/stat, and a real run
// recording it on every run.
const { test, before } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { PIPE_RUN } = require('../../lib/pipeline')
const { stealShare } = require('../../lib/steal')
const { allowedCpus, placementPlan } = require('../../lib/placement')
const { readRuns, tempFolders } = require('../helpers')

const ROOT = path.join(__dirname, '..', '..')

const scratch = tempFolders('syscall-lab-steal-')()
before(() => {
  const made = spawnSync('make', ['-s', 'all'], { cwd: ROOT, encoding: 'utf8' })
  assert.equal(made.status, 0, `make failed (run ./setup.sh first): ${made.stderr}`)
})

// pipe-run with a hand-made /proc/stat that the reader rewrites while it runs, so the
// readings before and after the run differ by what the test chose.
function pipeRunWith (statFile, readerScript) {
  const run = spawnSync(PIPE_RUN, ['--proc-stat', statFile, '--', 'dd', 'if=/dev/zero', 'bs=1', 'count=1', 'status=none', '--', 'sh', '-c', readerScript],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe', 'pipe'], timeout: 20000 })
  assert.equal(run.status, 0, run.stderr)
  return JSON.parse(run.output[3])
}

const statLines = steal => [
  // the all-CPU line, with a first value small enough to pass for a CPU number
  'cpu  2 0 0 0 0 0 0 900 0 0',
  ...Object.entries(steal).map(([cpu, ticks]) => `cpu${cpu} 5 1 4 100 2 0 1 ${ticks} 0 0`),
  'intr 12 3 4',
  'ctxt 100'
].join('\n') + '\n'

test('pipe-run: each CPU\'s steal ticks between before and after the run, indexed by CPU number', () => {
  const stat = path.join(scratch, 'stat')
  const later = path.join(scratch, 'stat-later')
  // cpu2 is offline throughout; cpu1 goes offline during the run (no negative delta)
  fs.writeFileSync(stat, statLines({ 0: 10, 1: 20, 3: 5 }))
  fs.writeFileSync(later, statLines({ 0: 13, 3: 9 }))
  const result = pipeRunWith(stat, `cat >/dev/null; cat '${later}' > '${stat}'`)
  assert.deepEqual(result.steal_ticks, [3, 0, 0, 4])
  assert.ok(Number.isInteger(result.clk_tck) && result.clk_tck > 0)
})

test('pipe-run: steal_ticks is null when the file cannot be read, and the run still reports', () => {
  const result = pipeRunWith(path.join(scratch, 'absent'), 'cat >/dev/null')
  assert.equal(result.steal_ticks, null)
  assert.equal(result.reader.exit, 0)
})

test('a real tiny run records steal on every run, and a share per cell and for the run', () => {
  const out = path.join(scratch, 'bench')
  const args = ['--only', 'c', '--sizes', '4096', '--runs', '2', '--warmup', '0', '--mib', '1', '--no-strace', '--no-gc', '--no-cost', '--out', out]
  const plan = placementPlan(allowedCpus())
  for (const [id, extra] of [['shared', []], ...(plan.cpus.length >= 2 ? [['apart', ['--pin']]] : [])]) {
    const result = spawnSync(process.execPath, [path.join(ROOT, 'bench.js'), ...args, ...extra, '--id', id], { cwd: ROOT, encoding: 'utf8', timeout: 120000 })
    assert.equal(result.status, 0, result.stderr + result.stdout)
    const log = readRuns(path.join(out, id, 'all.jsonl'))
    assert.ok(log.length > 0)
    // every pass is pinned (lib/placement.js): the steal of the CPUs the run used
    const cpus = id === 'apart' ? [plan.apart.reader, plan.apart.feeder] : [plan.shared.reader]
    for (const record of log) {
      assert.deepEqual(record.steal.cpus, cpus, `${record.phase} run ${record.run}`)
      assert.ok(Number.isInteger(record.steal.ticks) && record.steal.ticks >= 0)
      assert.ok(record.steal.clkTck > 0)
    }
    const results = JSON.parse(fs.readFileSync(path.join(out, id, 'results.json'), 'utf8'))
    for (const cell of results.cells) assert.equal(typeof cell.stealShare, 'number')
    assert.equal(results.stealShare, stealShare(log.filter(record => record.ok)))
  }
})
