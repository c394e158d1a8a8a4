'use strict'
// The fleet (fleet/playbook.yml, Ansible): every target measured in turn, its runs
// fetched into the fleet's folder, a target that cannot be reached or whose bench fails
// recorded with its reason, the runs merged by analyse.js, and nothing left on a target.
// The targets: this machine (a local connection) and one that refuses ssh.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { TINY } = require('../helpers')

const ROOT = path.resolve(__dirname, '..', '..')

function playbook (dir, benches) {
  const inventory = path.join(dir, 'inventory.ini')
  fs.writeFileSync(inventory, [
    '[lab]',
    `here ansible_connection=local fleet_lab_dir=${ROOT} fleet_node=${process.execPath}`,
    // port 1 refuses the connection at once
    'gone ansible_host=127.0.0.1 ansible_port=1 ansible_user=root',
    ''
  ].join('\n'))
  return spawnSync('ansible-playbook', [
    '-i', inventory, path.join(ROOT, 'fleet', 'playbook.yml'),
    '-e', 'fleet_id=f1',
    '-e', `fleet_results=${dir}/fleet`,
    '-e', `fleet_report=${dir}/report`,
    '-e', `fleet_node=${process.execPath}`,
    '-e', 'fleet_poll=2',
    '-e', JSON.stringify({ fleet_benches: benches })
  ], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 600000,
    env: {
      ...process.env,
      ANSIBLE_NOCOLOR: '1',
      ANSIBLE_HOST_KEY_CHECKING: 'False',
      ANSIBLE_LOCAL_TEMP: path.join(dir, 'ansible')
    }
  })
}

test('a fleet of two targets: one measured and merged, one unreachable, a failing bench named', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-test-'))
  const before = fs.readdirSync(os.tmpdir())
    .filter(name => name.startsWith('syscall-lab-fleet-'))
  try {
    // the third bench measures, but its 256 B cell cannot finish 4 GiB in a second: bench.js
    // exits 1, and the run is fetched with its failure in it
    const timesOut = '--only c --sizes 256,65536 --runs 1 --warmup 0 --no-strace --no-gc --no-kernel ' +
      '--no-profile --no-cost --mib 4096 --timeout 1'
    const result = playbook(dir, [TINY.join(' '), '--experiment calls --bogus', timesOut])
    assert.equal(result.status, 0, result.stdout + result.stderr)
    const fleet = path.join(dir, 'fleet', 'f1')
    // this machine's stdio run, fetched whole
    const run = path.join(fleet, 'here', 'here-0-stdio')
    for (const file of ['context.json', 'results.json', 'all.jsonl']) {
      assert.ok(fs.existsSync(path.join(run, file)), file)
    }
    assert.equal(
      JSON.parse(fs.readFileSync(path.join(run, 'context.json'), 'utf8')).runId, 'here-0-stdio'
    )
    // its failing bench, with the experiment and the bench's own words
    const failedFile = path.join(fleet, 'here', 'here-1-calls', 'target-failed.json')
    const failed = JSON.parse(fs.readFileSync(failedFile, 'utf8'))
    assert.deepEqual([failed.target, failed.experiment], ['here', 'calls'])
    assert.match(failed.reason, /unknown option --bogus/)
    // a bench with a failed cell is a measured run, fetched whole, its failure in the report
    const partial = path.join(fleet, 'here', 'here-2-stdio')
    assert.ok(fs.existsSync(path.join(partial, 'results.json')), 'the run whose cell failed, fetched')
    assert.ok(!fs.existsSync(path.join(partial, 'target-failed.json')))
    // the unreachable target
    const goneFile = path.join(fleet, 'gone', 'target-failed.json')
    const gone = JSON.parse(fs.readFileSync(goneFile, 'utf8'))
    assert.equal(gone.target, 'gone')
    assert.match(gone.reason, /^unreachable: .*(refused|port 1)/)
    // merged: the report names both failures
    const md = fs.readFileSync(path.join(dir, 'report', 'results.md'), 'utf8')
    assert.match(md, /- gone failed: unreachable/)
    assert.match(md, /- here \(calls\) failed: .*unknown option --bogus/)
    assert.match(md, /\*\*failed\*\* .*: c at 256 B/)
    // nothing left behind: no temporary run folder, no fetched archive
    const after = fs.readdirSync(os.tmpdir())
      .filter(name => name.startsWith('syscall-lab-fleet-'))
    assert.deepEqual(after.filter(name => !before.includes(name)), [])
    assert.deepEqual(
      fs.readdirSync(path.join(fleet, 'here')).filter(name => name.endsWith('.tar.gz')), []
    )
    // a fleet name already used is refused before anything runs
    const again = playbook(dir, [TINY.join(' ')])
    assert.notEqual(again.status, 0)
    assert.match(again.stdout, /f1 exists: give another -e fleet_id, or move it/)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
