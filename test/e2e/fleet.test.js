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

function playbook (dir, benches, { node = process.execPath, id = 'f1', mode = 'checkout', extra = [] } = {}) {
  const inventory = path.join(dir, 'inventory.ini')
  fs.writeFileSync(inventory, [
    '[lab]',
    `here ansible_connection=local fleet_lab_dir=${ROOT} fleet_node=${node} fleet_mode=${mode}`,
    // port 1 refuses the connection at once
    'gone ansible_host=127.0.0.1 ansible_port=1 ansible_user=root',
    // the machine that merges the runs, with the node that runs analyse.js
    '[control]',
    `localhost ansible_connection=local fleet_node=${process.execPath}`,
    ''
  ].join('\n'))
  return spawnSync('ansible-playbook', [
    '-i', inventory, path.join(ROOT, 'fleet', 'playbook.yml'),
    '-e', `fleet_id=${id}`,
    '-e', `fleet_results=${dir}/fleet`,
    '-e', `fleet_report=${dir}/report`,
    '-e', 'fleet_poll=2',
    '-e', JSON.stringify({ fleet_benches: benches }),
    ...extra.flatMap(setting => ['-e', setting])
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

// A stand-in for node as the fleet runs it: it answers the quota check, writes a context and
// a log of `runs` runs into the run's folder, then ends as `ending` (shell lines) says.
function standInNode (dir, runs, ending) {
  const node = path.join(dir, 'stand-in-node.sh')
  const log = Array.from({ length: runs }, (_, run) => `{"phase":"timing","run":${run}}\\n`).join('')
  fs.writeFileSync(node, [
    '#!/bin/sh',
    'if [ "$1" = "-p" ]; then echo max; exit 0; fi',
    'while [ $# -gt 0 ]; do case $1 in --out) out=$2; shift;; --id) id=$2; shift;; esac; shift; done',
    'mkdir -p "$out/$id"',
    'echo "{\\"runId\\":\\"$id\\"}" > "$out/$id/context.json"',
    `printf '${log}' > "$out/$id/all.jsonl"`,
    ...ending,
    ''
  ].join('\n'), { mode: 0o755 })
  return node
}

// A bench stopped part-way (exit 130, as a SIGINT leaves it) is a failure of the target, and
// what it measured is fetched beside the failure before the target's folder is removed.
// The bench: a stand-in for node that answers the quota check and writes two runs of a log.
test('a bench stopped part-way: what it measured is kept beside its failure', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-test-'))
  const before = fs.readdirSync(os.tmpdir()).filter(name => name.startsWith('syscall-lab-fleet-'))
  try {
    const node = standInNode(dir, 2, ['echo "interrupted: 2 of 30 runs measured"', 'exit 130'])
    const result = playbook(dir, [TINY.join(' ')], { node, id: 'f2' })
    // no target gave a whole run: the merge says so, and the fleet fails
    assert.notEqual(result.status, 0)
    assert.match(result.stdout, /holds no run: every fleet target failed/)
    const run = path.join(dir, 'fleet', 'f2', 'here', 'here-0-stdio')
    const failed = JSON.parse(fs.readFileSync(path.join(run, 'target-failed.json'), 'utf8'))
    assert.match(failed.reason, /interrupted: 2 of 30 runs measured/)
    assert.equal(failed.kept.startsWith(`${run}: what it measured before it stopped`), true, failed.kept)
    assert.equal(fs.readFileSync(path.join(run, 'all.jsonl'), 'utf8').trim().split('\n').length, 2)
    // and still nothing left behind
    const after = fs.readdirSync(os.tmpdir()).filter(name => name.startsWith('syscall-lab-fleet-'))
    assert.deepEqual(after.filter(name => !before.includes(name)), [])
    assert.deepEqual(fs.readdirSync(path.join(dir, 'fleet', 'f2', 'here')).filter(name => name.endsWith('.tar.gz')), [])
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

// A review: a real bench stopped part-way writes results.json as it stops, and the fleet its
// failure beside it; the merge took the part-run for a run, refused it as incomplete and so
// gave no report for any target, the failure unread. Made by hand, as the playbook leaves it.
test('a target stopped part-way beside a whole run: the merge names its failure and reports the rest', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-test-'))
  try {
    const fleet = path.join(dir, 'fleet', 'f3')
    const sample = path.join(ROOT, 'test', 'fixtures', 'results', 'calls-sample')
    fs.cpSync(sample, path.join(fleet, 'a', 'a-0-calls'), { recursive: true })
    const stopped = path.join(fleet, 'b', 'b-0-calls')
    // (the fixture keeps no log to cut: its results.json stands for what the bench wrote)
    fs.cpSync(sample, stopped, { recursive: true })
    fs.writeFileSync(path.join(stopped, 'target-failed.json'), JSON.stringify({
      target: 'b', experiment: 'calls', reason: 'Run the bench: stopped', kept: `${stopped}: what it measured`
    }))
    const argv = [path.join(ROOT, 'analyse.js'), fleet, '--out', path.join(dir, 'report')]
    const result = spawnSync(process.execPath, argv, { encoding: 'utf8' })
    assert.equal(result.status, 0, result.stderr)
    const md = fs.readFileSync(path.join(dir, 'report', 'results.md'), 'utf8')
    assert.match(md, /- b \(calls\) failed: Run the bench: stopped/)
    // the rest reported: a's run alone (the part-run is no second run beside it), its ladder in full
    assert.match(md, /^# syscall-lab: calls-b\n/)
    assert.match(md, /^## The call ladder: ns of CPU per call/m)
    assert.doesNotMatch(md, /side by side|two-run/i)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

// Ansible's timeout kills the job outright; a minute before it the bench is asked to stop
// (SIGTERM, by timeout(1)), so that it ends what it started and what it measured is kept.
// The bench: a stand-in for node that measures one run, then waits until it is stopped.
test('a bench past the fleet\'s timeout is asked to stop in time, and what it measured is kept', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-test-'))
  try {
    const node = standInNode(dir, 1, ['trap \'echo "stopped by SIGTERM: 1 of 30 runs measured"; exit 130\' TERM',
      'sleep 120 & wait'])
    // a timeout of 66 s: the bench is asked to stop after 6; stopped in time, its trap's line is
    // its failure (killed at Ansible's timeout, it would have said nothing)
    const result = playbook(dir, [TINY.join(' ')], { node, id: 'f3', extra: ['fleet_timeout=66'] })
    assert.notEqual(result.status, 0)
    const run = path.join(dir, 'fleet', 'f3', 'here', 'here-0-stdio')
    const failed = JSON.parse(fs.readFileSync(path.join(run, 'target-failed.json'), 'utf8'))
    assert.match(failed.reason, /stopped by SIGTERM: 1 of 30 runs measured/)
    assert.equal(fs.readFileSync(path.join(run, 'all.jsonl'), 'utf8').trim().split('\n').length, 1)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

// Image mode on a target without the image: once the engine's "pull access denied" after a
// quota check that never ran; now a failure saying what to do, and with fleet_image_archive the
// fleet loads the image it is given (a review, 2026-12-07). The engine: a stand-in that knows
// only the image it has loaded.
test('image mode: a target without the image fails saying what to do; one given an archive loads it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-test-'))
  try {
    const loaded = path.join(dir, 'loaded')
    const engine = path.join(dir, 'engine.sh')
    fs.writeFileSync(engine, [
      '#!/bin/sh',
      'case "$1" in',
      `  load) cp "$3" ${loaded}; exit 0;;`,
      `  image) [ -f ${loaded} ] && exit 0; echo "Error: No such image: $3" >&2; exit 1;;`,
      '  pull) echo "Error: pull access denied for $2" >&2; exit 125;;',
      '  run) case "$*" in *--entrypoint*) echo max; exit 0;; esac; echo "no bench in this engine" >&2; exit 2;;',
      'esac',
      'exit 3',
      ''
    ].join('\n'), { mode: 0o755 })
    const reason = id => JSON.parse(fs.readFileSync(
      path.join(dir, 'fleet', id, 'here', 'here-0-stdio', 'target-failed.json'), 'utf8')).reason
    playbook(dir, [TINY.join(' ')], { mode: 'image', id: 'i1', extra: [`fleet_engine=${engine}`] })
    assert.match(reason('i1'), new RegExp('the image syscall-lab is not on here nor pulled \\(.*pull access denied ' +
      'for syscall-lab\\): build it there, push it where the target can pull it, or give -e fleet_image_archive=FILE'))
    assert.equal(fs.existsSync(loaded), false)
    // given a saved image, the fleet copies it over, loads it, and goes on to the bench
    // (named relative to where the fleet was started, as a user would)
    fs.writeFileSync(path.join(dir, 'saved.tar'), 'an image, saved')
    const given = [`fleet_engine=${engine}`, `fleet_image_archive=${path.relative(ROOT, path.join(dir, 'saved.tar'))}`]
    playbook(dir, [TINY.join(' ')], { mode: 'image', id: 'i2', extra: given })
    assert.equal(fs.readFileSync(loaded, 'utf8'), 'an image, saved')
    assert.doesNotMatch(reason('i2'), /is not on here/)
    assert.equal(fs.existsSync('/tmp/syscall-lab-image.tar'), false, 'the archive left on the target')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

// A fleet's name is one folder under its root: one that would climb out of it is refused
// before anything is made or measured.
test('a fleet name that is not one folder\'s name is refused', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-test-'))
  try {
    const result = playbook(dir, [TINY.join(' ')], { id: '../escaped' })
    assert.notEqual(result.status, 0)
    assert.match(result.stdout, /fleet_id '\.\.\/escaped' must be letters, digits/)
    assert.deepEqual(fs.readdirSync(dir).filter(name => name !== 'inventory.ini' && name !== 'ansible'), [])
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

// A typo in a target's fleet_mode once skipped both ways of running its bench and failed on
// a missing image; fleet_benches given as one string ended in Ansible's own error, naming
// neither, with the fleet's folder made and the name then refused.
test('a fleet_mode or fleet_benches of the wrong kind is refused before anything is made', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-test-'))
  try {
    const made = () => fs.readdirSync(dir).filter(name => name !== 'inventory.ini' && name !== 'ansible')
    const mode = playbook(dir, [TINY.join(' ')], { mode: 'imgae' })
    assert.notEqual(mode.status, 0)
    assert.match(mode.stdout, /fleet_mode 'imgae' of target here must be checkout or image: fix it in the inventory/)
    assert.deepEqual(made(), [])
    for (const benches of [TINY.join(' '), [], { quick: true }, [['--quick']]]) {
      const result = playbook(dir, benches)
      assert.notEqual(result.status, 0)
      assert.match(result.stdout, /fleet_benches of target here must be a list of bench\.js command lines, as/,
        JSON.stringify(benches))
      assert.deepEqual(made(), [], JSON.stringify(benches))
    }
    // a line's own --out or --id: its run would land where the fleet fetches nothing
    for (const own of ['--out /tmp/elsewhere', '--id=mine', '"--out" /tmp/quoted']) {
      const result = playbook(dir, [TINY.join(' '), `${TINY.join(' ')} ${own}`])
      assert.notEqual(result.status, 0)
      assert.match(result.stdout, /fleet_benches of target here must not give --out or --id \(the fleet sets both/, own)
      assert.deepEqual(made(), [], own)
    }
    // an option whose name merely begins so is no --out: the play goes on, and bench.js refuses it
    const begins = playbook(dir, ['--outlier-test'])
    assert.doesNotMatch(begins.stdout, /must not give --out/)
    assert.ok(made().includes('fleet'), begins.stdout)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
