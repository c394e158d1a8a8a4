'use strict'
// What a resume refuses before it writes anything (a context cut short or edited) and
// what it keeps (the run's own programs, LAB_EXTRA_PROGRAMS's among them), run in this
// process by the fake step (test/fake-step.js): a resume's bookkeeping, which no reader's
// run adds to. Every refusal is one line naming the fix, exit 2.
const { test, describe } = require('node:test')
const assert = require('node:assert/strict')
const { assertRefused, readRuns: readLog, readJson, tempFolders, FIXTURES, TINY } = require('../helpers')
const { runBench } = require('../fake-step')
const fs = require('node:fs')
const path = require('node:path')

const GATE_PROGRAMS = path.join(FIXTURES, 'gate-programs.js')
const EXTRA = path.join(FIXTURES, 'extra-programs.js')

const bench = (args, env) => runBench(args, { env })
const scratch = tempFolders('syscall-lab-options-')()
const folder = name => path.join(scratch, name)

describe('--resume: the context is checked, and the run keeps its programs', () => {
  const contextOf = (name, context) => {
    const dir = folder(name)
    fs.mkdirSync(dir, { recursive: true })
    fs.writeFileSync(path.join(dir, 'context.json'), JSON.stringify(context))
    return dir
  }

  test('a context with null or partial options is refused with one line', async () => {
    const nullOptions = contextOf('null-options', { options: null, programs: [{ name: 'c' }] })
    assertRefused(await bench(['--resume', nullOptions]), /^bench\.js: --resume: \S+context\.json has no options: it is not a whole context of bench\.js's; restore it, or start a new run$/)
    const options = { only: ['c'], sizes: [4096], runs: 1, warmup: 0, feeder: 'fixed', mib: 1, timeoutSeconds: 120, strace: false, gc: false, minMiB: 64, maxMiB: 256, readsPerRun: 262144, straceMiB: 4 }
    const { runs, ...withoutRuns } = options
    assertRefused(await bench(['--resume', contextOf('no-runs', { options: withoutRuns, programs: [{ name: 'c' }] })]), /context\.json has options\.runs missing, not a whole number of at least 1/)
    assertRefused(await bench(['--resume', contextOf('bad-size', { options: { ...options, sizes: [1000] }, programs: [{ name: 'c' }] })]), /context\.json has options\.sizes \[1000\], not a list of block sizes/)
    assertRefused(await bench(['--resume', contextOf('no-programs', { options })]), /context\.json has no list of the programs it measured/)
    assertRefused(await bench(['--resume', contextOf('bad-program', { options, programs: [{ name: '../x' }] })]), /context\.json lists a program "\.\.\/x", which is no program's name/)
    assertRefused(await bench(['--resume', contextOf('not-object', [1])]), /context\.json is not an object/)
    for (const name of ['null-options', 'no-runs', 'bad-size', 'no-programs', 'bad-program', 'not-object']) {
      assert.deepEqual(fs.readdirSync(folder(name)), ['context.json'], `${name}: nothing written`)
    }
  })

  test('resumed without the LAB_EXTRA_PROGRAMS it began with: refused, naming the module; with them, its own programs only', async () => {
    const out = folder('extras')
    const dir = path.join(out, 'run')
    // --only 'fixture-*' picks fixture-gate alone here; resumed with more fixtures loaded, it must not pick them up
    const first = await bench(['--only', 'fixture-*', '--sizes', '4096', '--runs', '1', '--warmup', '0', '--mib', '1', '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'run'], { LAB_EXTRA_PROGRAMS: GATE_PROGRAMS })
    assert.equal(first.status, 0, first.stderr + first.stdout)
    const context = readJson(path.join(dir, 'context.json'))
    assert.deepEqual(context.programs.map(program => program.name), ['fixture-gate'])
    assert.deepEqual(context.extraPrograms, [{ module: GATE_PROGRAMS, programs: ['fixture-gate'] }])

    assertRefused(await bench(['--resume', dir]), new RegExp(`^bench\\.js: cannot resume: this run measured fixture-gate, which is not defined now; set LAB_EXTRA_PROGRAMS=${GATE_PROGRAMS} as when it started$`))
    const resumed = await bench(['--resume', dir], { LAB_EXTRA_PROGRAMS: `${GATE_PROGRAMS}:${EXTRA}` })
    assert.equal(resumed.status, 0, resumed.stderr + resumed.stdout)
    assert.deepEqual([...new Set(readLog(path.join(dir, 'all.jsonl')).map(record => record.program))], ['fixture-gate'])
    assert.deepEqual(readJson(path.join(dir, 'context.json')).programs.map(program => program.name), ['fixture-gate'])
  })

  test('"already holds a run" suggests a --resume that works with --out', async () => {
    const out = folder('held')
    assert.equal((await bench([...TINY, '--out', out, '--id', 'once'])).status, 0)
    const again = await bench([...TINY, '--out', out, '--id', 'once'])
    assertRefused(again, new RegExp(`^bench\\.js: ${path.join(out, 'once')} already holds a run \\([^)]*\\); continue it with --resume \\S+, or pick another --id$`))
    const suggested = /--resume (\S+),/.exec(again.stderr)[1]
    const resumed = await bench(['--resume', suggested])
    assert.equal(resumed.status, 0, resumed.stderr + resumed.stdout)
  })

  test('a folder holding a gzipped log or a results file is not written over', async () => {
    for (const name of ['all.jsonl.gz', 'results.json']) {
      const out = folder(`kept-${name}`)
      fs.mkdirSync(path.join(out, 'run'), { recursive: true })
      fs.writeFileSync(path.join(out, 'run', name), '{"mine":1}\n')
      const refused = await bench([...TINY, '--out', out, '--id', 'run'])
      assertRefused(refused, new RegExp(`^bench\\.js: ${path.join(out, 'run')} already holds a run \\(${name.replace('.', '\\.')}\\); pick another --id or --out$`))
      assert.deepEqual(fs.readdirSync(path.join(out, 'run')), [name])
      assert.equal(fs.readFileSync(path.join(out, 'run', name), 'utf8'), '{"mine":1}\n')
    }
  })
})

test('the first value given again, by itself or by a key: what a list option would do twice', () => {
  const { firstRepeat } = require('../../lib/options')
  assert.equal(firstRepeat([256, 4096, 256]), 256)
  assert.equal(firstRepeat(['rounds', 'together']), undefined)
  assert.equal(firstRepeat([0, 1, 0]), 0, 'a 0 repeated is found, not taken for none')
  assert.equal(firstRepeat(['a/run', 'b', './a/run'], arg => require('node:path').resolve(arg)), './a/run')
})
