'use strict'
// What a real run records about where it was measured: the Node versions it measures
// (pinned, never the Node running the lab), the commit of the lab that measured it, and
// the machine's factors.
const { test, describe } = require('node:test')
const assert = require('node:assert/strict')
const { bench, ONE_RUN } = require('../helpers')
const crypto = require('node:crypto')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const { BUILD } = require('../../lib/paths')
const { machineIdentity } = require('../../lib/machine')
const { runtimes, pinnedNodeVersion, MEASURED_NODE_VERSIONS } = require('../../lib/runtimes')

const ROOT = path.resolve(__dirname, '..', '..')
const PINNED = require('../../package.json').measuredNodeVersions

function withTempDir (fn) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-context-'))
  try {
    return fn(dir)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const ONE_SHORT_RUN = ['--sizes', '65536', ...ONE_RUN]
const readContext = (out, id) =>
  JSON.parse(fs.readFileSync(path.join(out, id, 'context.json'), 'utf8'))

describe('the Node the lab measures', () => {
  test('is pinned in package.json and installed by setup.sh into build/node/, not the Node running the lab', () => {
    assert.deepEqual(MEASURED_NODE_VERSIONS, PINNED)
    for (const version of PINNED) assert.match(version, /^\d+\.\d+\.\d+$/)
    assert.equal(
      new Set(PINNED.map(version => version.split('.')[0])).size, PINNED.length,
      'one pinned version per major'
    )
    const env = { ...process.env }
    delete env.NODE
    const located = spawnSync(
      process.execPath,
      ['-p', "require('./lib/runtimes').runtimes.node.locate()"],
      { cwd: ROOT, encoding: 'utf8', env }
    )
    assert.equal(located.stdout.trim(), path.join(BUILD, 'node', PINNED[0], 'bin', 'node'))
    for (const version of PINNED) {
      const binary = runtimes[`node@${version.split('.')[0]}`].locate()
      const reported = spawnSync(binary, ['--version'], { encoding: 'utf8' })
      assert.equal(reported.stdout.trim(), `v${version}`, `${binary} (run ./setup.sh)`)
    }
  })

  test('--node names pinned versions by major or exactly; an unpinned one is refused with the list', () => {
    const major = PINNED[1].split('.')[0]
    assert.equal(pinnedNodeVersion(major), PINNED[1])
    assert.equal(pinnedNodeVersion(PINNED[1]), PINNED[1])
    const majors = PINNED.map(version => version.split('.')[0]).join(', ')
    assert.throws(
      () => pinnedNodeVersion('19'),
      new RegExp(`Node 19 is not pinned by the lab; pick from ${majors}`)
    )
    const refused = bench(['--node', '19'])
    assert.equal(refused.status, 2)
    assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr)
    assert.match(refused.stderr, /^bench\.js: --node: Node 19 is not pinned by the lab/)
    // an empty name in the list is named as empty
    assert.throws(() => pinnedNodeVersion(''), /^Error: Node '' is not pinned by the lab/)
  })
})

describe('the commit a run was measured with', () => {
  // GIT_DIR pointing nowhere makes git fail as it does where there is no .git or no git.
  const NO_GIT = { GIT_DIR: path.join(os.tmpdir(), 'syscall-lab-no-such-git-dir') }

  test('comes from git and is not flagged', () => withTempDir(out => {
    const result = bench(['--only', 'c', ...ONE_SHORT_RUN, '--out', out, '--id', 'git'])
    assert.equal(result.status, 0, result.stderr)
    const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' })
      .stdout.trim()
    assert.equal(readContext(out, 'git').lab.commit, head)
    assert.doesNotMatch(result.stdout, /commit is unknown/)
  }))

  test('without git, LAB_COMMIT names it', () => withTempDir(out => {
    const result = bench(
      ['--only', 'c', ...ONE_SHORT_RUN, '--out', out, '--id', 'named'],
      { ...NO_GIT, LAB_COMMIT: 'abc1234' }
    )
    assert.equal(result.status, 0, result.stderr)
    assert.equal(readContext(out, 'named').lab.commit, 'abc1234')
    assert.doesNotMatch(result.stdout, /commit is unknown/)
  }))

  test('unknown: recorded as null, and bench says how to name it', () => withTempDir(out => {
    const result = bench(
      ['--only', 'c', ...ONE_SHORT_RUN, '--out', out, '--id', 'unknown'],
      { ...NO_GIT, LAB_COMMIT: '' }
    )
    assert.equal(result.status, 0, result.stderr)
    assert.equal(readContext(out, 'unknown').lab.commit, null)
    assert.match(
      result.stdout,
      /^the lab's commit is unknown, .*install git \(apt-get install git\) or set LAB_COMMIT=<commit>; in Docker, build the image with --build-arg LAB_COMMIT=\$\(git rev-parse --short HEAD\)$/m
    )
  }))
})

describe('what makes one machine\'s syscall dearer than another\'s', () => {
  test('the context records the mitigations, their command-line switches, the clock source and THP',
    () => withTempDir(out => {
      const result = bench(['--only', 'c', ...ONE_SHORT_RUN, '--out', out, '--id', 'machine'])
      assert.equal(result.status, 0, result.stderr)
      const { machine } = readContext(out, 'machine')
      const vulnerabilities = fs.readdirSync('/sys/devices/system/cpu/vulnerabilities')
      assert.deepEqual(Object.keys(machine.vulnerabilities), [...vulnerabilities].sort())
      for (const name of vulnerabilities) {
        const file = `/sys/devices/system/cpu/vulnerabilities/${name}`
        assert.equal(machine.vulnerabilities[name], fs.readFileSync(file, 'utf8').trim(), name)
      }
      const bootWords = fs.readFileSync('/proc/cmdline', 'utf8')
        .split(' -- ')[0].trim().split(/\s+/)
      for (const word of machine.mitigationSwitches) {
        assert.ok(bootWords.includes(word), `${word} is not on the kernel's command line`)
      }
      if (bootWords.some(word => word.startsWith('mitigations='))) {
        assert.ok(machine.mitigationSwitches.some(word => word.startsWith('mitigations=')))
      }
      const clockSourceFile = '/sys/devices/system/clocksource/clocksource0/current_clocksource'
      assert.equal(machine.clockSource, fs.readFileSync(clockSourceFile, 'utf8').trim())
      assert.match(machine.transparentHugePages, /^(always|madvise|never)$/)
      // the bench's seccomp filters, which its readers inherit: this test's own, read alike
      const mode = /^Seccomp:\s*(\d)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? '0'
      assert.match(machine.seccomp, { 0: /^none$/, 1: /^strict$/, 2: /^\d+ filters?$|^filters$/ }[mode])
    }))

  test('the machine\'s key, its CPU\'s id, the facts that explain its speed, and each reader\'s code',
    () => withTempDir(out => {
      const result = bench(['--only', 'c', ...ONE_SHORT_RUN, '--out', out, '--id', 'key'])
      assert.equal(result.status, 0, result.stderr)
      const context = readContext(out, 'key')
      const { machine } = context
      const cpuinfo = fs.readFileSync('/proc/cpuinfo', 'utf8')
      // x86's vendor and family; arm64's implementer and architecture (lib/context.js cpuId)
      const field = name => new RegExp(`^${name}\\s*:\\s*(.+)$`, 'm').exec(cpuinfo)?.[1].trim()
      const x86 = field('vendor_id') !== undefined
      assert.equal(machine.cpu.vendor, x86 ? field('vendor_id') : `implementer ${field('CPU implementer')}`)
      assert.equal(machine.cpu.family, Number(field(x86 ? 'cpu family' : 'CPU architecture')))
      const caches = fs.readdirSync('/sys/devices/system/cpu/cpu0/cache')
        .filter(name => name.startsWith('index'))
      assert.equal(machine.caches.length, caches.length)
      for (const cache of machine.caches) assert.match(cache.size, /^\d+K$/)
      assert.equal(typeof machine.pmu, 'boolean')
      assert.ok(
        machine.hz === null || [100, 250, 300, 1000].includes(machine.hz), String(machine.hz)
      )
      // the CPU's hypervisor flag, then what names it: Xen's own file, a paravirtual clock
      const read = file => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '')
      const clocks = read('/sys/devices/system/clocksource/clocksource0/available_clocksource').split(/\s+/)
      if (!/^flags\s*:.*\bhypervisor\b/m.test(cpuinfo)) assert.equal(machine.hypervisor, 'none')
      else if (read('/sys/hypervisor/type')) assert.equal(machine.hypervisor, read('/sys/hypervisor/type'))
      else if (clocks.includes('kvm-clock')) assert.equal(machine.hypervisor, 'KVM')
      else assert.match(machine.hypervisor, /^(Hyper-V|unnamed( \(firmware: .+\))?)$/)
      // the slug names the machine's cores and begins the key
      assert.match(machine.slug, new RegExp(`-${machine.cores}c-${machine.key.slice(0, 8)}$`))
      // the key as analyse.js computes it from the facts
      const identity = machineIdentity(context)
      assert.deepEqual(
        [machine.key, machine.slug, identity.missing], [identity.key, identity.slug, []]
      )
      // the CPUs the bench could place its passes on, not the one it pinned itself to
      const status = fs.readFileSync('/proc/self/status', 'utf8')
      const allowed = /^Cpus_allowed_list:\s*(\S+)/m.exec(status)[1]
      assert.deepEqual(machine.cpusAllowed.split(',').map(Number), context.placement.cpus)
      assert.equal(
        context.placement.cpus.length,
        allowed.includes('-')
          ? Number(allowed.split('-')[1]) - Number(allowed.split('-')[0]) + 1
          : allowed.split(',').length
      )
      const c = context.programs.find(program => program.name === 'c')
      const source = fs.readFileSync(path.join(ROOT, 'wc', 'wc.c'))
      const digest = crypto.createHash('sha256').update(source).digest('hex')
      assert.equal(c.sourceSha256, digest.slice(0, 16))
    }))
})
