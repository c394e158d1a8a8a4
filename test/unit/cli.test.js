'use strict'
// --only's names and patterns: lib/options.js's rule, which every command shares.
const { test, describe } = require('node:test')
const assert = require('node:assert/strict')

const { matchOnly } = require('../../lib/options')

describe('--only: names and patterns', () => {
  const NAMES = ['c', 'limit-splice', 'coreutils', 'node-sync@22', 'node-sync@26', 'node-stream@22', 'deno-ffi']
  const match = patterns => {
    const { picked, named, unmatched } = matchOnly(NAMES, patterns)
    return { picked, named: [...named], unmatched }
  }

  test('a name is that program alone, or its rows of each Node version', () => {
    assert.deepEqual(match(['c']), { picked: ['c'], named: ['c'], unmatched: [] })
    assert.deepEqual(match(['node-sync']), { picked: ['node-sync@22', 'node-sync@26'], named: ['node-sync@22', 'node-sync@26'], unmatched: [] })
    assert.deepEqual(match(['node-sync@26']), { picked: ['node-sync@26'], named: ['node-sync@26'], unmatched: [] })
    assert.deepEqual(match(['node-sync@2']).unmatched, ['node-sync@2'])
    assert.deepEqual(match(['limit']).unmatched, ['limit'], 'no longer the start of a name')
  })

  test('* stands for any run of characters; other characters are themselves', () => {
    assert.deepEqual(match(['node-*']), { picked: ['node-sync@22', 'node-sync@26', 'node-stream@22'], named: [], unmatched: [] })
    assert.deepEqual(match(['*@22', 'c']).picked, ['node-sync@22', 'node-stream@22', 'c'], 'in the order the patterns pick them')
    assert.deepEqual(match(['*-ffi', 'c*']).picked, ['deno-ffi', 'c', 'coreutils'])
    assert.deepEqual(match(['*']).picked, NAMES)
    assert.deepEqual(match(['c.', 'no?e-sync', '[c]', 'cobol', 'c']), { picked: ['c'], named: ['c'], unmatched: ['c.', 'no?e-sync', '[c]', 'cobol'] })
  })
})
