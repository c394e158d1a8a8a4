'use strict'
// Which machine each committed run of the AMD VMs measured on: every context.json (or
// NAME-context.json) the repository keeps, with its date, the CPU's family and model, its L2 a
// core, its clock, the kernel build and the lab's machine key; then, by the lab's own test
// (lib/machine.js sameMachine: every fact both recorded agrees), whether it is the machine of
// results/reference (Zen 4) and of stdio-n1 (Zen 3). A context of an older lab lacks some facts,
// and its key is digested from fewer, so its slug differs even where the machine is the same.
//   node docs/reproducibility/2026-12-01-amd/machines.js
const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { machineIdentity, sameMachine } = require('../../../lib/machine')
const { runScript } = require('../../script-args')

// the repository's files, by their paths in it, wherever it is run from
const LAB = path.join(__dirname, '..', '..', '..')
const readContext = file => JSON.parse(fs.readFileSync(path.join(LAB, file), 'utf8'))
const verdict = (identity, against) => {
  const { same, differing } = sameMachine(identity, against)
  return same ? 'same' : `no: ${differing.join(', ')}`
}

function main () {
  const zen4 = machineIdentity(readContext('results/reference/context.json'))
  const zen3 = machineIdentity(readContext('docs/reproducibility/2026-11-30-amd-noisy/stdio-n1-context.json'))
  const files = execFileSync('git', ['ls-files'], { encoding: 'utf8', cwd: LAB }).split('\n')
    .filter(file => /(^|\/|-)context\.json$/.test(file) && !file.startsWith('test/'))
  const rows = []
  for (const file of files) {
    const context = readContext(file)
    const machine = context.machine ?? {}
    if (!/AMD/i.test(machine.cpuModel ?? '')) continue
    const identity = machineIdentity(context)
    rows.push({
      date: String(context.date ?? '?').slice(0, 16),
      file,
      model: machine.cpu ? `${machine.cpu.family}/${machine.cpu.model}` : '?',
      l2: machine.caches?.find(cache => cache.level === 2)?.size ?? '?',
      mhz: machine.frequencyMHz ?? '?',
      kernel: machine.kernel ?? '?',
      slug: identity.slug,
      zen4: verdict(identity, zen4),
      zen3: verdict(identity, zen3)
    })
  }
  rows.sort((a, b) => a.date.localeCompare(b.date))
  console.log('date (UTC)        family/model L2    MHz  kernel           machine key           run')
  console.log('                  the Zen 4 reference\'s machine?  stdio-n1\'s (Zen 3)?')
  for (const row of rows) {
    const facts = [row.date.padEnd(17), row.model.padEnd(12), String(row.l2).padEnd(5), String(row.mhz).padEnd(4)]
    console.log(`${facts.join(' ')} ` +
      `${row.kernel.padEnd(16)} ${row.slug.padEnd(21)} ${row.file}`)
    console.log(`${' '.repeat(18)}${row.zen4.padEnd(31)} ${row.zen3}`)
  }
}

runScript(module, { run: main })
