'use strict'
// The CPU quota this process runs under. A CFS quota throttles a busy reader for the
// rest of each period and bends the slope the lab measures, so a run records it and the
// fleet refuses a target that has one (docs/fleet.md).
//
// The quota is the process's own cgroup's, never /sys/fs/cgroup/cpu.max at the root: on
// a host the root cgroup has no cpu.max. A quota set on an ancestor limits every cgroup
// below it too, so the cgroups from the own one up to the hierarchy's mount are read
// and the tightest (the fewest CPUs' worth, quota over period) is reported. What lies
// above the mount (a container's cgroup namespace, or its v1 mount of its own cgroup)
// cannot be seen from inside.
//
// root is where / is, so that a test can lay out a fake /proc and /sys.
const path = require('node:path')
const { readText } = require('./procfs')

// /proc/self/mountinfo's cgroup mounts: the cgroup each shows at its mount point, and
// the controllers it holds ('cgroup2' for the unified hierarchy).
function cgroupMounts (root) {
  return readText(path.join(root, 'proc/self/mountinfo')).split('\n').flatMap(line => {
    const fields = line.split(' ')
    const separator = fields.indexOf('-')
    const type = fields[separator + 1]
    if (separator < 0 || (type !== 'cgroup' && type !== 'cgroup2')) return []
    return [{
      cgroup: fields[3],
      // mountinfo writes a space in a path as \040
      point: fields[4].replace(/\\([0-7]{3})/g, (_, code) => String.fromCharCode(parseInt(code, 8))),
      controllers: type === 'cgroup2' ? ['cgroup2'] : fields[separator + 3].split(',')
    }]
  })
}

// The hierarchy that holds the cpu controller: v1's where a v1 hierarchy has it (a hybrid
// host also mounts an empty v2 one), else v2's. Its mount, the process's cgroup in it,
// and how a cgroup's limit is read there: [quota or null for none, period].
function cpuHierarchy (root) {
  const lines = readText(path.join(root, 'proc/self/cgroup')).trim().split('\n')
  const entries = lines.filter(Boolean).map(line => {
    const [, controllers, cgroup] = /^\d+:([^:]*):(.*)$/.exec(line) ?? []
    return { controllers: controllers?.split(',') ?? [], cgroup }
  })
  const mounts = cgroupMounts(root)
  const v1 = entries.find(entry => entry.controllers.includes('cpu'))
  if (v1) {
    const mount = mounts.find(candidate => candidate.controllers.includes('cpu'))
    return mount && { mount, cgroup: v1.cgroup, limit: v1Limit }
  }
  const v2 = entries.find(entry => entry.controllers.join() === '')
  const mount = mounts.find(candidate => candidate.controllers.includes('cgroup2'))
  return v2 && mount && { mount, cgroup: v2.cgroup, limit: v2Limit }
}

// cpu.max: "QUOTA PERIOD", QUOTA "max" for none
function v2Limit (dir) {
  const [quota, period] = readText(path.join(dir, 'cpu.max')).trim().split(' ')
  return period ? [quota === 'max' ? null : Number(quota), Number(period)] : null
}

// cpu.cfs_quota_us, -1 for none, and cpu.cfs_period_us
function v1Limit (dir) {
  const quota = readText(path.join(dir, 'cpu.cfs_quota_us')).trim()
  const period = readText(path.join(dir, 'cpu.cfs_period_us')).trim()
  return quota && period ? [Number(quota) < 0 ? null : Number(quota), Number(period)] : null
}

// { cpuMax, cgroup }: the tightest quota in cpu.max's form ("50000 100000") and the
// cgroup that sets it; where none is set, "max" and the own cgroup's period. null where
// no cgroup with the cpu controller is mounted.
function cpuQuota (root = '/') {
  const hierarchy = cpuHierarchy(root)
  if (!hierarchy) return null
  const { mount, limit } = hierarchy
  // a cgroup outside the mount's (another namespace's) is read at the mount itself
  const inside = !path.posix.relative(mount.cgroup, hierarchy.cgroup).startsWith('..')
  const own = inside ? hierarchy.cgroup : mount.cgroup
  let found = null
  for (let cgroup = own; ; cgroup = path.posix.dirname(cgroup)) {
    const dir = path.join(root, mount.point, path.posix.relative(mount.cgroup, cgroup))
    const [quota, period] = limit(dir) ?? []
    if (period && !found) found = { cpuMax: `max ${period}`, cgroup: own, share: Infinity }
    if (quota !== null && period && quota / period < found.share) {
      found = { cpuMax: `${quota} ${period}`, cgroup, share: quota / period }
    }
    if (cgroup === mount.cgroup || cgroup === '/') break
  }
  return found ? { cpuMax: found.cpuMax, cgroup: found.cgroup } : { cpuMax: 'max', cgroup: own }
}

module.exports = { cpuQuota }
