'use strict'
// --only's names and patterns (lib/options.js's rule), and bench.js picking programs by
// them, run in this process by the fake step (test/fake-step.js): which programs a run
// takes is the context's and the log's bookkeeping, which no reader's run adds to.
const { test, describe } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { assertRefused, readRuns: readLog, readJson, tempFolders, ONE_RUN } = require('../helpers')
const { runBench } = require('../fake-step')

const { matchOnly } = require('../../lib/options')

const bench = (args, env) => runBench(args, { env })
const folder = tempFolders('syscall-lab-cli-')

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

  test('bench.js: a name runs that program alone; patterns pick in the table\'s order; a pattern that picks nothing is refused, naming the programs', async () => {
    const out = folder('only')
    const exact = await bench(['--only', 'c', '--sizes', '4096', ...ONE_RUN, '--out', out, '--id', 'exact'])
    assert.equal(exact.status, 0, exact.stderr + exact.stdout)
    assert.deepEqual(readJson(path.join(out, 'exact', 'context.json')).programs.map(program => program.name), ['c'])
    assert.deepEqual([...new Set(readLog(path.join(out, 'exact', 'all.jsonl')).map(record => record.program))], ['c'])

    const pattern = await bench(['--only', 'limit-*', '--only', 'c', '--sizes', '4096', ...ONE_RUN, '--out', out, '--id', 'pattern'])
    assert.equal(pattern.status, 0, pattern.stderr + pattern.stdout)
    assert.deepEqual(readJson(path.join(out, 'pattern', 'context.json')).programs.map(program => program.name), ['c', 'limit-splice'])

    assertRefused(await bench(['--only', 'c', '--only', 'cobol*', '--out', out, '--id', 'none']), /^bench\.js: --only cobol\* matches no program; the programs are: c, limit-splice, coreutils, /)
    assertRefused(await bench(['--only', 'a/*', '--out', out, '--id', 'none']), /^bench\.js: --only 'a\/\*' can match no program/)
    // a row of another Node's, without the --node that adds it: the fix, not the whole table
    assertRefused(await bench(['--only', 'node-sync@22', '--out', out, '--id', 'none']),
      /^bench\.js: --only node-sync@22 is node-sync on Node 22, a row only --node 22 adds: add --node 22$/)
    assert.equal(fs.existsSync(path.join(out, 'none')), false, 'nothing written')
  })

  test('bench.js: a program a pattern picks that cannot run is skipped; one named is refused', async () => {
    const out = folder('only-skip')
    const env = { BUN: '/nonexistent/bun' }
    const skipped = await bench(['--only', 'bun-*', '--only', 'c', '--sizes', '4096', ...ONE_RUN, '--out', out, '--id', 'skip'], env)
    assert.equal(skipped.status, 0, skipped.stderr + skipped.stdout)
    assert.match(skipped.stdout, /^skipping bun-ffi: Bun not found at \/nonexistent\/bun/m)
    assert.deepEqual(readJson(path.join(out, 'skip', 'context.json')).programs.map(program => program.name), ['c'])
    assertRefused(await bench(['--only', 'bun-ffi', '--only', 'c', '--out', out, '--id', 'named'], env), /^bench\.js: cannot run bun-ffi: Bun not found/)
  })

  test('bench.js calls: patterns that pick only what cannot run are refused, not run as C\'s alone', async () => {
    const out = folder('only-none')
    const env = { BUN: '/nonexistent/bun' }
    assertRefused(await bench(['--experiment', 'calls', '--only', 'bun-*', '--out', out, '--id', 'none'], env),
      /^bench\.js: nothing left to run but c: bun-ffi, Bun not found at \/nonexistent\/bun/)
    assert.equal(fs.existsSync(path.join(out, 'none')), false, 'nothing written')
  })
})

// The docs scripts' log reader (docs/script-args.js): a last line cut short by a bench killed
// mid-append is left out, as lib/run-log.js readLog leaves it out; a bad line elsewhere, or a
// last line that is whole but not JSON, is the file's fault, named.
test('docs scripts read a log whose last line was cut short, and refuse one bad inside', () => {
  const os = require('node:os')
  const { readJsonLines } = require('../../docs/script-args')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-jsonl-'))
  try {
    const write = (name, text) => { fs.writeFileSync(path.join(dir, name), text); return path.join(dir, name) }
    assert.deepEqual(readJsonLines(write('cut.jsonl', '{"a":1}\n{"b":2}\n{"c":'), 'a log'), [{ a: 1 }, { b: 2 }])
    assert.throws(() => readJsonLines(write('inside.jsonl', '{"a":1}\n{"c":\n{"b":2}\n'), 'a log'),
      /inside\.jsonl line 2 is not JSON \(.*\); give a log$/)
    assert.throws(() => readJsonLines(write('whole.jsonl', '{"a":1}\nnot json\n'), 'a log'),
      /whole\.jsonl line 2 is not JSON/)
    // a file of one line that is not JSON, no newline after it, is not a log cut short
    assert.throws(() => readJsonLines(write('hostname', 'my-host'), 'a log'), /hostname line 1 is not JSON/)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

// A study's own checks refuse in the usage's words; a bug in them is still a bug (a review
// found a TypeError's text passed off as a usage line, 2026-12-06)
test('parseStudyOptions: a check\'s Error is a usage line, a TypeError is not', () => {
  const { parseStudyOptions } = require('../../studies/per-read')
  const { UsageError } = require('../../lib/options')
  const usage = 'usage: node studies/x.js [--n N]'
  const parse = check => () => parseStudyOptions(['--n', '3'], { n: { type: 'string' } }, usage, check)
  assert.throws(parse(() => { throw new Error('--n takes 1 or 2, not 3') }),
    error => error instanceof UsageError &&
      error.message === '--n takes 1 or 2, not 3 (usage: node studies/x.js [--n N])')
  assert.throws(parse(values => values.missing.field), error => error instanceof TypeError)
  assert.deepEqual(parse(values => ({ n: Number(values.n) }))(), { n: 3 })
})
