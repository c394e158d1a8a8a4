'use strict'
// Whether io_uring can serve a reader here, asked once per process: the kernel, its
// switch, liburing, and a real ring, since a seccomp profile (Docker's default) refuses
// io_uring_setup where everything else says yes.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { BUILD } = require('./paths')
const { isExecutable } = require('./runtimes')
const { readText } = require('./procfs')

// IORING_OP_READ, the readers' one operation, came with Linux 5.6.
const FIRST_RELEASE = [5, 6]
const LIBURING_HEADER = '/usr/include/liburing.h'
// The c-uring reader doubles as the probe: given /dev/null, it sets a ring up, reads the
// end and exits 0; refused, it prints `io_uring_setup: <strerror> (<errno>)` and exits 1.
const PROBE = path.join(BUILD, 'wc-uring')
const EPERM = 1
const ENOSYS = 38

// Why the kernel or this machine's set-up refuses a ring, or null. Each part is given so
// that the tests can play a machine they are not on.
function uringReason ({ release = os.release(), disabled = readText('/proc/sys/kernel/io_uring_disabled').trim(), root = process.getuid() === 0, probe = PROBE, header = LIBURING_HEADER } = {}) {
  const [major, minor] = release.split(/[.-]/).map(Number)
  if (major < FIRST_RELEASE[0] || (major === FIRST_RELEASE[0] && minor < FIRST_RELEASE[1])) return `the kernel is ${release}, and reads through io_uring need Linux ${FIRST_RELEASE.join('.')} or later`
  if (disabled === '2') return 'io_uring is switched off here (kernel.io_uring_disabled=2): sysctl -w kernel.io_uring_disabled=0 allows it'
  if (!fs.existsSync(header) && !isExecutable(probe)) return 'liburing is not installed: apt-get install liburing-dev, then make (./setup.sh does both)'
  if (!isExecutable(probe)) return `${probe} is not built: run make (./setup.sh runs it)`
  // with the switch at 1 only root and kernel.io_uring_group may: the probe finds out which
  // this process is, and a refusal then is the switch's, not a seccomp profile's
  return probeRing(probe, disabled === '1' && !root)
}

const probed = new Map()

// A ring set up for real, by the probe; why not, or null. The answer holds for the
// process's life: seccomp filters are inherited and never lifted.
function probeRing (probe, groupOnly) {
  if (probed.has(probe)) return probed.get(probe)
  const run = spawnSync(probe, ['1'], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 10000 })
  let reason = null
  if (run.status !== 0) {
    const refused = /^io_uring_setup: (.+) \((\d+)\)$/m.exec(run.stderr ?? '')
    const errno = refused ? Number(refused[2]) : null
    if (errno === EPERM && groupOnly) reason = 'io_uring is kept for root and the group kernel.io_uring_group names here (kernel.io_uring_disabled=1): run as root, join that group, or sysctl -w kernel.io_uring_disabled=0'
    else if (errno === EPERM) reason = 'io_uring_setup is refused here (Operation not permitted): a seccomp profile such as Docker\'s default blocks io_uring; run the container with --security-opt seccomp=unconfined'
    else if (errno === ENOSYS) reason = 'io_uring_setup does not exist here (Function not implemented): a kernel built without io_uring (CONFIG_IO_URING), or a seccomp profile that hides it, as podman\'s default does; run the container with --security-opt seccomp=unconfined'
    else reason = `a ring could not be set up here: ${(run.stderr ?? '').trim().split('\n')[0] || run.error?.message || `${probe} exited ${run.status}`}`
  }
  probed.set(probe, reason)
  return reason
}

module.exports = { uringReason }
