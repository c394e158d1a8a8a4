'use strict'
// A row of any of the lab's tables (a stdin reader, a ladder, a server): its command as
// an argv, and whether it can run here. Each table's own fields are its experiment's.
const fs = require('node:fs')
const path = require('node:path')
const { ROOT, BUILD } = require('./paths')
const { runtimes, isExecutable } = require('./runtimes')

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

// What stops a row from running here, as a sentence that names the fix; null if nothing:
// its runtime, its executable, its file, the bindings it needs.
function unavailableReason (row) {
  const runtime = runtimes[row.runtime]
  const binary = runtime.locate()
  if (binary === null && row.command.includes('{runtime}')) return `${runtime.label} not found: ${runtime.install}`
  if (binary !== null && !isExecutable(binary)) {
    return `${runtime.label} not found at ${binary}: ${runtime.install}`
  }
  const executable = expandCommand(row, { '{v8flags}': [] })[0]
  if (!isExecutable(executable)) return `${executable} is not built: ${runtime.install}`
  if (row.file && !fs.existsSync(path.resolve(ROOT, row.file))) return `${path.resolve(ROOT, row.file)} is missing`
  return row.needs?.length ? runtime.lacks(binary, row.needs) : null
}

module.exports = { expandCommand, unavailableReason }
