'use strict'
// The CPU quota a process runs under, read from its own cgroup and that cgroup's
// ancestors (lib/cgroup.js), on fake trees of /proc and /sys laid out in a temporary
// folder: cgroup v2, v1 with cpu and cpuacct mounted together or apart, the hybrid
// layout where v1 keeps the cpu controller, and a container whose mount hides the rest.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { tempFolders } = require('../helpers')

const { cpuQuota } = require('../../lib/cgroup')

const tempDir = tempFolders('syscall-lab-cgroup-')

// A fake root: files maps each path under it to its text.
function fakeRoot (files) {
  const root = tempDir()
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    fs.writeFileSync(path.join(root, file), text)
  }
  return root
}

// /proc/self/mountinfo's lines for cgroup mounts: [mount root, mount point, type, options]
const mountinfo = mounts => mounts.map(([root, point, type, options], i) =>
  `${30 + i} 25 0:${26 + i} ${root} ${point} rw,nosuid - ${type} cgroup rw,${options}\n`).join('')

const V2_MOUNT = mountinfo([['/', '/sys/fs/cgroup', 'cgroup2', 'nsdelegate']])

test('cgroup v2: the quota of the process\'s own cgroup, not the root\'s', () => {
  const root = fakeRoot({
    'proc/self/cgroup': '0::/user.slice/session-1.scope\n',
    'proc/self/mountinfo': V2_MOUNT,
    'sys/fs/cgroup/user.slice/cpu.max': 'max 100000\n',
    'sys/fs/cgroup/user.slice/session-1.scope/cpu.max': '50000 100000\n'
  })
  const own = { cpuMax: '50000 100000', cgroup: '/user.slice/session-1.scope' }
  assert.deepEqual(cpuQuota(root), own)
})

test('cgroup v2 without a quota anywhere: max, with the own cgroup\'s period', () => {
  const root = fakeRoot({
    'proc/self/cgroup': '0::/system.slice/lab.service\n',
    'proc/self/mountinfo': V2_MOUNT,
    'sys/fs/cgroup/system.slice/cpu.max': 'max 100000\n',
    'sys/fs/cgroup/system.slice/lab.service/cpu.max': 'max 50000\n'
  })
  assert.deepEqual(cpuQuota(root), { cpuMax: 'max 50000', cgroup: '/system.slice/lab.service' })
})

test('cgroup v2, a process in the root cgroup, which has no cpu.max: no quota, max', () => {
  const root = fakeRoot({ 'proc/self/cgroup': '0::/\n', 'proc/self/mountinfo': V2_MOUNT })
  assert.deepEqual(cpuQuota(root), { cpuMax: 'max', cgroup: '/' })
})

test('a quota on an ancestor limits the child: the tightest along the path is reported', () => {
  const root = fakeRoot({
    'proc/self/cgroup': '0::/kubepods/pod1/lab\n',
    'proc/self/mountinfo': V2_MOUNT,
    'sys/fs/cgroup/kubepods/cpu.max': '400000 100000\n',
    'sys/fs/cgroup/kubepods/pod1/cpu.max': '75000 50000\n',
    'sys/fs/cgroup/kubepods/pod1/lab/cpu.max': '200000 100000\n'
  })
  // 1.5 CPUs' worth at pod1 is tighter than 2 at lab and 4 at kubepods
  assert.deepEqual(cpuQuota(root), { cpuMax: '75000 50000', cgroup: '/kubepods/pod1' })
})

test('cgroup v1, cpu and cpuacct mounted together: cfs_quota_us and cfs_period_us', () => {
  const root = fakeRoot({
    'proc/self/cgroup': '4:memory:/lab\n3:cpu,cpuacct:/lab/bench\n0::/\n',
    'proc/self/mountinfo': mountinfo([
      ['/', '/sys/fs/cgroup/memory', 'cgroup', 'memory'],
      ['/', '/sys/fs/cgroup/cpu,cpuacct', 'cgroup', 'cpu,cpuacct']
    ]),
    'sys/fs/cgroup/cpu,cpuacct/lab/cpu.cfs_quota_us': '-1\n',
    'sys/fs/cgroup/cpu,cpuacct/lab/cpu.cfs_period_us': '100000\n',
    'sys/fs/cgroup/cpu,cpuacct/lab/bench/cpu.cfs_quota_us': '25000\n',
    'sys/fs/cgroup/cpu,cpuacct/lab/bench/cpu.cfs_period_us': '100000\n'
  })
  assert.deepEqual(cpuQuota(root), { cpuMax: '25000 100000', cgroup: '/lab/bench' })
})

test('cgroup v1 beside an empty v2 hierarchy (hybrid): v1\'s cpu, wherever it is mounted', () => {
  const root = fakeRoot({
    'proc/self/cgroup': '2:cpuacct:/\n1:cpu:/lab\n0::/\n',
    'proc/self/mountinfo': mountinfo([
      ['/', '/sys/fs/cgroup/cpuacct', 'cgroup', 'cpuacct'],
      ['/', '/sys/fs/cgroup/cpu', 'cgroup', 'cpu'],
      ['/', '/sys/fs/cgroup/unified', 'cgroup2', 'nsdelegate']
    ]),
    'sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1\n',
    'sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n',
    'sys/fs/cgroup/cpu/lab/cpu.cfs_quota_us': '-1\n',
    'sys/fs/cgroup/cpu/lab/cpu.cfs_period_us': '100000\n'
  })
  assert.deepEqual(cpuQuota(root), { cpuMax: 'max 100000', cgroup: '/lab' })
})

test('a container\'s v1 mount shows only its own cgroup: read there, not above it', () => {
  const root = fakeRoot({
    'proc/self/cgroup': '3:cpu,cpuacct:/docker/abc\n',
    'proc/self/mountinfo':
      mountinfo([['/docker/abc', '/sys/fs/cgroup/cpu,cpuacct', 'cgroup', 'cpu,cpuacct']]),
    'sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us': '150000\n',
    'sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us': '100000\n'
  })
  assert.deepEqual(cpuQuota(root), { cpuMax: '150000 100000', cgroup: '/docker/abc' })
})

test('no cgroup to read (no /proc, or no cpu controller mounted): null', () => {
  assert.equal(cpuQuota(fakeRoot({})), null)
  const unmounted = fakeRoot({ 'proc/self/cgroup': '1:cpu:/lab\n', 'proc/self/mountinfo': '' })
  assert.equal(cpuQuota(unmounted), null)
})

test('this machine\'s own quota: found where a cpu controller is mounted, in cpu.max\'s form', () => {
  const own = cpuQuota()
  // cgroup v2, or a v1 hierarchy with the cpu controller among its options
  const mounted = fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n')
    .some(line => / - cgroup2 /.test(line) || / - cgroup \S+ \S*\bcpu(,|$)/.test(line))
  assert.equal(own !== null, mounted, JSON.stringify(own))
  if (own !== null) assert.match(own.cpuMax, /^max$|^(max|\d+) \d+$/)
})
