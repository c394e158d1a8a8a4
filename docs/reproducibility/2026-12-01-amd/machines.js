'use strict'
// Which machine each committed run of the AMD VMs measured on: every context the repository
// keeps (context.json, NAME-context.json, and the contexts inside results.json.gz), with its
// date, the CPU's family and model, its L2 a core, its clock, the kernel build and the lab's
// machine key. node docs/reproducibility/2026-12-01-amd/machines.js (from the repository's root)
const fs = require('node:fs')
const zlib = require('node:zlib')
const { execFileSync } = require('node:child_process')
const { machineIdentity } = require('../../../lib/machine')

const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n')
  .filter(file => /(^|\/|-)context\.json$/.test(file) && !file.startsWith('test/'))
const rows = []
for (const file of files) {
  const context = JSON.parse(fs.readFileSync(file, 'utf8'))
  const machine = context.machine ?? {}
  if (!/AMD/i.test(machine.cpuModel ?? '')) continue
  const l2 = machine.caches?.find(cache => cache.level === 2)?.size ?? '?'
  rows.push([String(context.date ?? '?').slice(0, 16), file, machine.cpu ? `${machine.cpu.family}/${machine.cpu.model}` : '?',
    l2, machine.frequencyMHz ?? '?', machine.kernel ?? '?', machineIdentity(context).slug])
}
rows.sort((a, b) => a[0].localeCompare(b[0]))
console.log('date (UTC)        family/model  L2 a core  MHz  kernel           machine key            run')
for (const [date, file, model, l2, mhz, kernel, slug] of rows) {
  console.log(`${date.padEnd(17)} ${model.padEnd(13)} ${String(l2).padEnd(10)} ${String(mhz).padEnd(4)} ` +
    `${kernel.padEnd(16)} ${slug.padEnd(22)} ${file}`)
}
// results.json.gz of runs kept without their context say nothing of the machine
const unknown = execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n')
  .filter(file => file.endsWith('results.json.gz'))
  .filter(file => !JSON.parse(zlib.gunzipSync(fs.readFileSync(file))).context)
console.log(`\n${unknown.length} results.json.gz kept without a context: their machine is known from the ` +
  'session that ran them, not from the file')
