'use strict'
// A row of any of the lab's tables (a stdin reader, a ladder, a server): its command as
// an argv, and whether it can run here. Each table's own fields are its experiment's.
const fs = require('node:fs')
const path = require('node:path')
const { ROOT, BUILD } = require('./paths')
const { runtimes, isExecutable } = require('./runtimes')
const { UsageError, matchOnly } = require('./options')
const { uringReason } = require('./uring')

// A row's command template as an argv, every experiment's table alike: {runtime} its
// runtime's binary, {build} the build folder, {file} its file, and `values`: a string
// replaces its placeholder inside an argument, a list stands for as many arguments.
function expandCommand (row, values = {}) {
  const fixed = { '{runtime}': runtimes[row.runtime].locate(), '{build}': BUILD, '{file}': row.file ? path.resolve(ROOT, row.file) : '', ...values }
  return row.command.flatMap(part => {
    if (Array.isArray(fixed[part])) return fixed[part]
    return [Object.entries(fixed).reduce((text, [key, value]) => (typeof value === 'string' ? text.replace(key, value) : text), part)]
  })
}

// What builds a row's files in build/ (`built`), by their ending, where make alone cannot.
const BUILT_BY = {
  '.wasm': 'run ./setup.sh, which installs clang-14, wasi-libc and wabt, then make',
  '.cwasm': 'run ./setup.sh, which installs the wasmtime wheel, then make precompiles it',
  '.wasmu': 'run ./setup.sh --wasm, which builds wasmer with LLVM, then make compiles it',
  '.a': 'make builds it with cargo 1.63 or newer (./setup.sh, as root, installs Debian\'s ' +
    'cargo-web where there is no cargo, then runs make)'
}

// What stops a row from running here, as a sentence that names the fix; null if nothing:
// for a row through io_uring (ring: true) first why the machine refuses a ring, then its
// runtime, the files it needs built (`built`: names in build/, such as a WebAssembly module
// or C's libpq), its executable, its file, the bindings or features it needs.
function unavailableReason (row) {
  const ring = row.ring ? uringReason() : null
  if (ring !== null) return ring
  const runtime = runtimes[row.runtime]
  const binary = runtime.locate()
  if (binary === null && row.command.includes('{runtime}')) return `${runtime.label} not found: ${runtime.install}`
  if (binary !== null && !isExecutable(binary)) {
    return `${runtime.label} not found at ${binary}: ${runtime.install}`
  }
  // what the row's program is built from comes first: it says why the program is not built
  const unbuilt = (row.built ?? []).find(file => !fs.existsSync(path.join(BUILD, file)))
  const builder = BUILT_BY[path.extname(unbuilt ?? '')] ?? 'run ./setup.sh (or make)'
  if (unbuilt) return `${path.join(BUILD, unbuilt)} is not built: ${builder}`
  const executable = expandCommand(row, { '{v8flags}': [] })[0]
  if (!isExecutable(executable)) return `${executable} is not built: ${runtime.install}`
  if (row.file && !fs.existsSync(path.resolve(ROOT, row.file))) return `${path.resolve(ROOT, row.file)} is missing`
  return row.needs?.length ? runtime.lacks(binary, row.needs) : null
}

// The rows of `table` a run measures: those --only's patterns pick (all when there are
// none), with `always`, the row the others are set against, whatever they pick; or on a
// resume the rows it began with (`recorded`). A row marked `optional` runs only when a
// pattern picks it: the whole table means the rest. A row that cannot run here (reasonOf) is
// refused when a resume, a name in --only or `always` asks for it, and skipped when a
// pattern or the whole table picked it. `matchesNone(pattern, names)` and
// `cannotRun(row, reason)` word the refusals.
function pickRows (table, only, { recorded = null, always = null, reasonOf = unavailableReason, matchesNone, cannotRun }) {
  const names = table.map(row => row.name)
  const { picked, named, unmatched } = recorded ? { picked: [], named: new Set(), unmatched: [] } : matchOnly(names, only)
  if (unmatched.length) throw new UsageError(matchesNone(unmatched[0], names))
  const chosen = recorded ?? namedRows(table, only, always, picked)
  const skipped = []
  const runnable = []
  for (const row of chosen) {
    const reason = reasonOf(row)
    if (reason !== null && (recorded || named.has(row.name) || row.name === always)) throw new UsageError(cannotRun(row, reason))
    if (reason !== null) skipped.push({ program: row.name, reason })
    else runnable.push(row)
  }
  // patterns that picked only rows this machine cannot run leave the reference alone, which
  // answers nothing that was asked: refused, as stdio's selection is (a pattern that picked
  // the reference too asked for it)
  const asked = runnable.filter(row => picked.includes(row.name))
  if (!recorded && only.length && skipped.length && asked.length === 0) {
    throw new UsageError(`nothing left to run but ${always ?? 'nothing'}: ` +
      `${skipped.map(skip => `${skip.program}, ${skip.reason}`).join('; ')}`)
  }
  return { runnable, skipped }
}

// The rows --only picks (with none, every row but the optional ones) and `always`, before
// asking whether this machine can run them (pickRows): what an option's bound can count.
// `picked`: the names the patterns matched, where the caller has matched them already.
function namedRows (table, only, always = null, picked = matchOnly(table.map(row => row.name), only).picked) {
  return table.filter(row =>
    (!only.length && !row.optional) || row.name === always || picked.includes(row.name))
}

// The rows a resumed run measured, by name, from today's table: a name it no longer has
// stops the resume, naming `what` was measured and `source`, the table's file.
function recordedRows (table, names, { context, what, source }) {
  const missing = names.filter(name => !table.some(row => row.name === name))
  if (missing.length) throw new UsageError(`cannot resume: this run measured ${what(missing)}, which ${source} no longer has; resume with the lab at ${context.lab?.commit ? `commit ${context.lab.commit}` : 'the commit it was measured with'}`)
  return names.map(name => table.find(row => row.name === name))
}

module.exports = { expandCommand, unavailableReason, pickRows, namedRows, recordedRows }
