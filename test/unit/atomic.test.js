'use strict'
// lib/atomic.js: a result file is replaced whole or not at all, and a write that fails leaves
// nothing behind (a review found a 250 KB .results.json.PID.tmp where results.json was a folder).
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { writeFileAtomic } = require('../../lib/atomic')

test('writeFileAtomic replaces a file whole, and a failed write leaves no temporary file', t => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-atomic-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'results.json')
  fs.writeFileSync(file, 'old')
  writeFileAtomic(file, 'new')
  assert.equal(fs.readFileSync(file, 'utf8'), 'new')
  const folder = path.join(dir, 'a-folder')
  fs.mkdirSync(folder)
  assert.throws(() => writeFileAtomic(folder, 'x'.repeat(250000)), { code: 'EISDIR' })
  assert.deepEqual(fs.readdirSync(dir).sort(), ['a-folder', 'results.json'])
})
