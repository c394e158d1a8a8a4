'use strict'
// One run folder, one writer: bench.js holds <run>/bench.lock for the whole of a run or
// a resume, and a second bench, a resume, or analyse.js on that folder refuses while it
// is held (two writers appending to one all.jsonl doubled its runs). The lock names
// its holder by PID and the PID's start time, so a lock left by a bench that was
// killed (its PID gone, or reused by another program) is known stale and taken over.
const fs = require('node:fs')
const { statFields, readText } = require('./procfs')
const os = require('node:os')
const path = require('node:path')

const LOCK_FILE = 'bench.lock'

// The kernel's start time of a process (clock ticks after boot; field 22 of
// /proc/PID/stat, counted after the command name, which may hold spaces and ')'), or
// null if there is no such process or it is a zombie (it has exited: only its exit
// status is left for its parent to collect).
function processStart (pid) {
  let fields
  try {
    fields = statFields(pid)
  } catch {
    return fs.existsSync('/proc/self/stat') ? null : aliveWithoutProc(pid)
  }
  return fields[0] === 'Z' ? null : fields[19]
}

// Without /proc (a container that hides it) a PID can only be asked whether it is
// alive, not when it started: a reused PID then reads as the lock's holder.
function aliveWithoutProc (pid) {
  try {
    process.kill(pid, 0)
    return 'unknown'
  } catch (err) {
    return err.code === 'EPERM' ? 'unknown' : null
  }
}

function lockPath (runDir) {
  return path.join(runDir, LOCK_FILE)
}

// The lock's contents, or null when there is none; a lock that cannot be read or
// parsed is { unreadable: reason }.
function readLock (runDir) {
  let text
  try {
    text = fs.readFileSync(lockPath(runDir), 'utf8')
  } catch (err) {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null
    return { unreadable: err.code }
  }
  try {
    const holder = JSON.parse(text)
    if (Number.isInteger(holder?.pid) && typeof holder.start === 'string') return holder
  } catch {}
  return { unreadable: 'not a lock bench.js wrote' }
}

// Where this process runs, beyond its host's name: its PID namespace (a container's PIDs are
// not the host's, and a container may share the host's name and a mounted results folder)
// and the boot it runs in. Null where /proc cannot say.
function pidNamespace () {
  try {
    return fs.readlinkSync('/proc/self/ns/pid')
  } catch {
    return null
  }
}
const bootId = () => readText('/proc/sys/kernel/random/boot_id').trim() || null

// Whether the lock's holder is still at work: 'running', or why the lock is stale; a holder in
// another PID namespace is 'elsewhere', its PID meaningless here, and one of another boot of
// this machine 'gone'. Locks from before these were kept are judged by host and PID alone.
function holderState (holder) {
  if (holder.host !== os.hostname()) return 'elsewhere'
  if (holder.boot && bootId() && holder.boot !== bootId()) return 'gone'
  if (holder.pidns && pidNamespace() && holder.pidns !== pidNamespace()) return 'elsewhere'
  const start = processStart(holder.pid)
  if (start === null) return 'gone'
  return start === holder.start ? 'running' : 'reused'
}

function busyMessage (runDir, holder) {
  const lock = lockPath(runDir)
  if (holder.unreadable) return `${runDir} has a lock, ${lock}, that cannot be read (${holder.unreadable}); if no bench.js is writing this run, remove it`
  if (holderState(holder) === 'elsewhere') {
    const where = holder.host === os.hostname()
      ? `on ${holder.host}, in another PID namespace (a container)`
      : `on ${holder.host}`
    return `${runDir} is being measured by bench.js (pid ${holder.pid} ${where}) since ${holder.since}; ` +
      `wait for it or stop it (if it is gone, remove ${lock})`
  }
  return `${runDir} is being measured by bench.js (pid ${holder.pid}) since ${holder.since}; wait for it or stop it`
}

// The lock of a bench.js other than this process that is writing runDir now, or null.
function busyHolder (runDir) {
  const holder = readLock(runDir)
  if (holder === null) return null
  if (holder.unreadable) return holder
  if (holder.pid === process.pid && holder.start === processStart(process.pid)) return null
  const state = holderState(holder)
  return state === 'running' || state === 'elsewhere' ? holder : null
}

// Takes runDir's lock for this process until it exits, or throws `makeError(message)`
// when another bench holds it. A stale lock is replaced; `note` is told whose it was.
// The new lock appears whole (a complete file linked into place), so a reader never sees
// it half-written; replacing a stale one takes a claim file named after that lock,
// which only one of two benches can create, so two never both take it over.
const STALE_CLAIM_MS = 10000

function acquireRunLock (runDir, { makeError, note }) {
  const lock = lockPath(runDir)
  const me = {
    tool: 'bench.js',
    pid: process.pid,
    start: processStart(process.pid),
    host: os.hostname(),
    pidns: pidNamespace(),
    boot: bootId(),
    since: new Date().toISOString(),
    argv: process.argv.slice(2)
  }
  const temporary = path.join(runDir, `.${LOCK_FILE}.${process.pid}.tmp`)
  fs.writeFileSync(temporary, JSON.stringify(me) + '\n')
  try {
    // Each pass either takes the lock, refuses, or finds the lock changed under it
    // (released, or taken over by another bench); three changes in a row is a fight
    // over the folder, not a race to wait out.
    for (let pass = 0; pass < 3; pass++) {
      try {
        fs.linkSync(temporary, lock)
        return holdUntilExit(runDir, me)
      } catch (err) {
        if (err.code !== 'EEXIST') throw err
      }
      const holder = readLock(runDir)
      if (holder === null) continue
      if (holder.unreadable) throw makeError(busyMessage(runDir, holder))
      const state = holderState(holder)
      if (state === 'running' || state === 'elsewhere') throw makeError(busyMessage(runDir, holder))
      const claimFile = path.join(runDir, `.${LOCK_FILE}.${holder.pid}-${holder.start}.takeover`)
      try {
        fs.linkSync(temporary, claimFile)
      } catch (err) {
        if (err.code !== 'EEXIST') throw err
        // A claim is held for microseconds: one this old was left by a bench killed
        // mid-takeover, and would otherwise block the folder for good.
        if (Date.now() - (fs.statSync(claimFile, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > STALE_CLAIM_MS) fs.rmSync(claimFile, { force: true })
        continue
      }
      // The stale lock may have been taken over, released and taken afresh since it was
      // read: replace only the holder that was judged stale.
      const now = readLock(runDir)
      if (now === null || now.pid !== holder.pid || now.start !== holder.start) {
        fs.rmSync(claimFile, { force: true })
        continue
      }
      fs.renameSync(temporary, lock)
      const why = state === 'gone' ? 'which is no longer running' : 'whose PID another program now has'
      note(`${runDir} was locked by bench.js pid ${holder.pid} since ${holder.since}, ${why}; taking the lock over`)
      return holdUntilExit(runDir, me)
    }
    throw makeError(`${runDir}'s lock, ${lock}, kept changing hands; another bench.js is starting on this run: wait for it or stop it`)
  } finally {
    fs.rmSync(temporary, { force: true })
  }
}

// Released on any exit that runs JavaScript (the end, an error, a stop by Ctrl-C); a
// SIGKILL leaves it, to be found stale by the next bench.
function holdUntilExit (runDir, me) {
  const release = () => {
    process.removeListener('exit', release)
    const holder = readLock(runDir)
    if (holder && holder.pid === me.pid && holder.start === me.start) fs.rmSync(lockPath(runDir), { force: true })
    // with this takeover's claim, any left by a bench killed just after taking over
    let names = []
    try {
      names = fs.readdirSync(runDir)
    } catch (err) {
      if (err.code !== 'ENOENT') throw err
    }
    for (const name of names.filter(name => name.startsWith(`.${LOCK_FILE}.`) && name.endsWith('.takeover'))) fs.rmSync(path.join(runDir, name), { force: true })
  }
  process.on('exit', release)
  return { release, file: lockPath(runDir) }
}

module.exports = { acquireRunLock, busyHolder, busyMessage, LOCK_FILE }
