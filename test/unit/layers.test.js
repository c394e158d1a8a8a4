'use strict'
// The layers: lib/ is the shared code, and the drivers (bench.js, analyse.js) hand it the
// experiment it works for (experiments/index.js). Every module of lib/ loads in a copy of the
// lab that has no experiments/ folder at all.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const ROOT = path.resolve(__dirname, '..', '..')

function modulesOf (dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return modulesOf(file)
    return entry.name.endsWith('.js') ? [file] : []
  })
}

test('every module of lib/ loads with experiments/ out of reach', () => {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-layers-'))
  try {
    fs.cpSync(path.join(ROOT, 'lib'), path.join(copy, 'lib'), { recursive: true })
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(copy, 'package.json'))
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'))
    const modules = modulesOf(path.join(copy, 'lib'))
    assert.ok(modules.length > 40, `${modules.length} modules`)
    const load = `for (const file of ${JSON.stringify(modules)}) {
      try { require(file) } catch (err) { console.log(file + ': ' + err.message.split('\\n')[0]); process.exitCode = 1 }
    }`
    const result = spawnSync(process.execPath, ['-e', load], { cwd: copy, encoding: 'utf8' })
    assert.equal(result.stdout.trim(), '', 'modules that need what lib/ does not hold')
    assert.equal(result.status, 0, result.stderr)
    // the copy really lacks the experiments: a module that asked for them would have failed
    const control = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(path.join(copy, 'experiments'))})`], { encoding: 'utf8' })
    assert.notEqual(control.status, 0)
  } finally {
    fs.rmSync(copy, { recursive: true, force: true })
  }
})
