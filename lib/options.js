'use strict'
// What the lab's command-line tools share in reading their options: a usage error
// (the tool prints its message on one line and exits 2), the whole-number check, the
// rule for names that become file names, and the check of a folder a tool is told to
// write into. Each is checked before the tool writes anything.
const fs = require('node:fs')
const path = require('node:path')

class UsageError extends Error {}

// Digits alone, so that 1e3, 0x10 and 1.0 are refused; at most `max`, and never beyond what
// a double holds exactly (a timeout of 1e20 s once reached pipe-run as 1 ms).
function wholeNumber (text, name, min = 1, max = Number.MAX_SAFE_INTEGER) {
  if (!/^\d+$/.test(text) || Number(text) < min) throw new UsageError(`--${name} must be a whole number of at least ${min}, not '${text}'`)
  if (Number(text) > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min} and under 2^53` : `from ${min} to ${max}`
    throw new UsageError(`--${name} must be a whole number ${range}, not '${text}'`)
  }
  return Number(text)
}

// A count of runs, rounds or processes. Each is repeated over cells, sizes and servers, so a
// slip of a few digits (--runs 1000000) would start a run of weeks; the most a page has advised
// is a few thousand (the call ladder's --processes 4364, to hold a noisy rung within 1%).
const MAX_REPEATS = 10000
const repeatCount = (text, name, min = 1) => wholeNumber(text, name, min, MAX_REPEATS)

// MiB streamed through a pipe or written to a file per run: a slip of digits past a TiB would
// start a run of days, or a file no machine's memory holds (/dev/shm).
const MAX_MIB = 1 << 20
const mibCount = (text, name, min = 1) => wholeNumber(text, name, min, MAX_MIB)

// A name that becomes part of a path (a run folder; a program's strace and GC files):
// with no '/' and no leading '.', it can neither leave its folder nor hide in it.
const SAFE_NAME = /^[A-Za-z0-9_@-][A-Za-z0-9_.@-]*$/
const SAFE_NAME_RULE = 'letters, digits, \'-\', \'_\', \'.\' and \'@\', not starting with \'.\''

// --only's rule, the same in every tool: a pattern is a program's name, or a glob in
// which '*' stands for any run of characters (--only 'node-*'); a name without '@' also
// picks that program's rows of the Node versions measured side by side (node-sync picks
// node-sync@22 and node-sync@26 under --node 22,26). Returns the names picked, in the
// order the patterns first pick them; those picked by a name rather than a glob (a tool
// may refuse one of those that cannot run, where it would skip one a glob picked); and
// the patterns that pick nothing, which each tool refuses, naming its programs.
function matchOnly (names, patterns) {
  const picked = new Set()
  const named = new Set()
  const unmatched = []
  for (const pattern of patterns) {
    const glob = pattern.split('*').map(part => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')
    const rule = new RegExp(`^${glob}${pattern.includes('@') ? '' : '(@[^@]*)?'}$`)
    const hits = names.filter(name => rule.test(name))
    if (hits.length === 0) unmatched.push(pattern)
    for (const hit of hits) {
      picked.add(hit)
      if (!pattern.includes('*')) named.add(hit)
    }
  }
  return { picked: [...picked], named, unmatched }
}

// The kernel's own filesystems (linux/magic.h): their files are not data, and mkdir
// there fails in ways Node's recursive mkdir retries for ever (proc answers ENOENT).
const SPECIAL_FILESYSTEMS = new Map([
  [0x9fa0, 'proc'], [0x62656572, 'sysfs'], [0x1cd1, 'devpts'], [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'], [0x73636673, 'securityfs'], [0x27e0eb, 'cgroup'], [0x63677270, 'cgroup2'],
  [0x6165676c, 'pstore'], [0xcafe4a11, 'bpf'], [0x19800202, 'mqueue'], [0x62656570, 'configfs'],
  [0x65735543, 'fusectl'], [0xde5e81e4, 'efivarfs'], [0x42494e4d, 'binfmt_misc'], [0x6e736673, 'nsfs'],
  [0x958458f6, 'hugetlbfs'], [0xf97cff8c, 'selinuxfs'], [0x43415d53, 'smackfs'], [0x0187, 'autofs']
])

// Why `dir` cannot be (or be made) a folder to write into, as the rest of a sentence
// that starts with the option's name, or null if it can: its nearest existing part
// must be a folder, on an ordinary filesystem (not proc, sysfs, /dev's devtmpfs …),
// that this process may write in.
function outDirProblem (dir) {
  if (dir === '') return 'is empty; give a folder'
  let existing = path.resolve(dir)
  let stat
  // Bounded: each step is a shorter path, and '/' always exists.
  for (;;) {
    try {
      stat = fs.statSync(existing)
      break
    } catch (err) {
      if (err.code !== 'ENOENT' && err.code !== 'ENOTDIR') return `cannot look at ${existing} (${err.code}); give a folder you may write to`
      existing = path.dirname(existing)
    }
  }
  if (!stat.isDirectory()) return `${existing} is a file, not a folder; give a folder (or a path where one can be made)`
  const real = fs.realpathSync(existing)
  const special = SPECIAL_FILESYSTEMS.get(fs.statfsSync(real).type >>> 0)
  if (special) return `${real} is on ${special}, a filesystem of the kernel's, not of files; give a folder on a disk or tmpfs`
  if (real === '/dev' || (real.startsWith('/dev/') && stat.dev === fs.statSync('/dev').dev)) {
    return `${real} is among /dev's device files, not a place for data; give a folder on a disk or tmpfs`
  }
  try {
    fs.accessSync(real, fs.constants.W_OK | fs.constants.X_OK)
  } catch (err) {
    return `cannot write in ${real} (${err.code}); give a folder you may write to`
  }
  return null
}

// Why `file` cannot be written (a study's --raw log), as outDirProblem says it of a folder,
// or null: its folder must be one that can be written in, and it must not be a folder
// itself. Asked before anything is measured, so that a bad path loses nothing.
function outFileProblem (file) {
  if (file === '') return 'is empty; give a file'
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) return `${file} is a folder; give a file in it`
  const folder = path.dirname(path.resolve(file))
  const problem = outDirProblem(folder)
  if (problem) return problem
  // nothing makes the folder of a log: its first write would fail mid-study
  if (!fs.existsSync(folder)) return `${folder} does not exist; make it, or give a file in a folder that does`
  return null
}

// Makes dir and its missing parents one at a time, outermost first: a loop bounded by
// the path's depth, where recursive mkdir retries for ever on a filesystem whose mkdir
// answers ENOENT.
function makeDirs (dir) {
  const missing = []
  for (let at = path.resolve(dir); !fs.existsSync(at); at = path.dirname(at)) missing.unshift(at)
  for (const folder of missing) {
    try {
      fs.mkdirSync(folder)
    } catch (err) {
      if (err.code !== 'EEXIST') throw err
    }
  }
}

// The first of `values` given again (a name, a size, a path: by `key`), or undefined: a list
// option or arguments that would measure or compare one thing twice.
function firstRepeat (values, key = value => value) {
  const keys = values.map(key)
  return values.find((value, i) => keys.indexOf(keys[i]) !== i)
}

module.exports = {
  UsageError,
  firstRepeat,
  wholeNumber,
  repeatCount,
  MAX_REPEATS,
  MAX_MIB,
  mibCount,
  SAFE_NAME,
  SAFE_NAME_RULE,
  matchOnly,
  outDirProblem,
  outFileProblem,
  makeDirs
}
