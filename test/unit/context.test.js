'use strict'
// The Node versions a run measures: each Node row of the table repeated per pinned version.
const { test, describe } = require('node:test')
const assert = require('node:assert/strict')

const { programs, withNodeVersions } = require('../../lib/programs')

const PINNED = require('../../package.json').measuredNodeVersions

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
})
