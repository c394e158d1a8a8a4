'use strict'
// The Node versions a run measures: each Node row repeated per pinned version, and a run
// with --node recording each in its context, run in this process by the fake step
// (test/fake-step.js), which measures nothing.
const { test, describe } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { tempFolders, ONE_RUN } = require('../helpers')
const { runBench } = require('../fake-step')

const { programs, withNodeVersions } = require('../../experiments/stdio/programs')

const PINNED = require('../../package.json').measuredNodeVersions

const ONE_SHORT_RUN = ['--sizes', '65536', ...ONE_RUN]
const readContext = (out, id) => JSON.parse(fs.readFileSync(path.join(out, id, 'context.json'), 'utf8'))
const tempDir = tempFolders('syscall-lab-context-')

describe('the Node the lab measures', () => {
  test('each Node row is repeated per version with its own runtime; other rows stay as they are', () => {
    const [first, second] = PINNED
    const table = withNodeVersions(programs, [first, second])
    const nodeRows = programs.filter(program => program.runtime === 'node')
    assert.ok(nodeRows.length > 0)
    for (const row of nodeRows) {
      assert.ok(!table.includes(row), `${row.name} should be replaced by its versions`)
      for (const version of [first, second]) {
        const major = version.split('.')[0]
        const versioned = table.find(program => program.name === `${row.name}@${major}`)
        assert.ok(versioned, `${row.name}@${major} is missing`)
        assert.equal(versioned.runtime, `node@${major}`)
        assert.deepEqual(versioned.command, row.command)
      }
    }
    for (const row of programs.filter(program => program.runtime !== 'node')) assert.ok(table.includes(row), row.name)
    assert.equal(withNodeVersions(programs, []), programs)
  })

  test('a run with --node measures every version side by side and records each in its context', async () => {
    const out = tempDir()
    const majors = PINNED.slice(0, 2).map(version => version.split('.')[0])
    const result = await runBench(['--node', majors.join(','), '--only', 'node-sync', ...ONE_SHORT_RUN, '--out', out, '--id', 'versions'])
    assert.equal(result.status, 0, result.stdout + result.stderr)
    const context = readContext(out, 'versions')
    assert.deepEqual(context.programs.map(program => program.name), majors.map(major => `node-sync@${major}`))
    for (const [i, major] of majors.entries()) assert.equal(context.runtimes[`node@${major}`].version, `v${PINNED[i]}`)
    assert.deepEqual(context.options.nodeVersions, PINNED.slice(0, 2))
    assert.equal(context.lab.node, process.version, 'the Node running the lab is recorded apart from the measured ones')
    const results = JSON.parse(fs.readFileSync(path.join(out, 'versions', 'results.json'), 'utf8'))
    assert.deepEqual(results.cells.map(cell => [cell.program, cell.runs]), majors.map(major => [`node-sync@${major}`, 1]))
  })
})
