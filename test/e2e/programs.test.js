'use strict'
// The table of programs (experiments/stdio/programs.js) as the lab's commands meet it: a runtime that
// cannot be found, a reader from LAB_EXTRA_PROGRAMS, shell quoting checked by bash, and
// bench.js --list.
const { test, describe } = require('node:test')
const assert = require('node:assert/strict')
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')

const { ROOT } = require('../../lib/paths')
const { programs, commandLine } = require('../../experiments/stdio/programs')
const { shellQuote } = require('../../lib/pipeline')

function listing (args) {
  return spawnSync(process.execPath, [path.join(ROOT, 'bench.js'), '--list', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60000 })
}

describe('commandLine', () => {
  test('a runtime that cannot be found is named, with how to install it', () => {
    const { execFileSync } = require('node:child_process')
    const reason = execFileSync(process.execPath, ['-e', "const { runtimes } = require('./lib/runtimes'); const p = require('./experiments/stdio/programs'); runtimes.bun.locate = () => null; console.log(p.unavailableReason(p.findProgram('bun-ffi')))"], { cwd: ROOT, encoding: 'utf8' }).trim()
    assert.equal(reason, 'Bun not found: run ./setup.sh (npm installs bun), or set BUN=/path/to/bun')
  })

  test('a reader given by LAB_EXTRA_PROGRAMS may live outside the lab: its absolute path is kept, a missing one named', () => {
    const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'syscall-lab-extra-'))
    const reader = path.join(dir, 'wc-mine.js')
    fs.copyFileSync(path.join(ROOT, 'wc', 'node-sync.js'), reader)
    const rows = path.join(dir, 'rows.js')
    fs.writeFileSync(rows, `module.exports = ${JSON.stringify([
      { name: 'mine', runtime: 'node', file: reader, command: ['{runtime}', '{v8flags}', '{file}', '{bs}'], honoursBlockSize: true, note: 'a copy of node-sync' },
      { name: 'gone', runtime: 'node', file: path.join(dir, 'gone.js'), command: ['{runtime}', '{file}', '{bs}'], honoursBlockSize: true, note: 'no file' }
    ])}\n`)
    const listed = spawnSync(process.execPath, [path.join(ROOT, 'bench.js'), '--list', '--json', '--sizes', '512'],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LAB_EXTRA_PROGRAMS: rows } })
    assert.equal(listed.status, 0, listed.stderr)
    const byName = Object.fromEntries(JSON.parse(listed.stdout).map(program => [program.name, program]))
    assert.equal(byName.mine.available, true, byName.mine.unavailable)
    assert.ok(byName.mine.command.includes(`${reader} 512`), byName.mine.command)
    assert.equal(byName.gone.available, false)
    assert.equal(byName.gone.unavailable, `${path.join(dir, 'gone.js')} is missing`)
    fs.rmSync(dir, { recursive: true, force: true })
  })
})

test('shellQuote leaves plain words alone and quotes the rest for sh', () => {
  assert.equal(shellQuote(['/usr/bin/node', '--v8-flags=--trace-gc,--x', '4096']), '/usr/bin/node --v8-flags=--trace-gc,--x 4096')
  assert.equal(shellQuote(['a b', "it's", '$HOME', '']), '\'a b\' \'it\'\\\'\'s\' \'$HOME\' \'\'')
  const tricky = ['a b', "it's", '$HOME', '`x`', '"q"', '*', '']
  const echoed = spawnSync('bash', ['-c', `printf '%s\\n' ${shellQuote(tricky)}`], { encoding: 'utf8' })
  assert.equal(echoed.stdout, tricky.map(arg => arg + '\n').join(''))
})

describe('node bench.js --list', () => {
  test('--json: one row per program, with what bench and the report need', () => {
    const r = listing(['--json'])
    assert.equal(r.status, 0, r.stderr)
    const rows = JSON.parse(r.stdout)
    assert.ok(Array.isArray(rows))
    assert.deepEqual(rows.map(row => row.name), programs.map(program => program.name))
    for (const [i, row] of rows.entries()) {
      const program = programs[i]
      assert.equal(typeof row.available, 'boolean', row.name)
      assert.equal(row.available, row.unavailable === null, row.name)
      assert.equal(row.honoursBlockSize, program.honoursBlockSize, row.name)
      assert.equal(row.runtime, program.runtime, row.name)
      assert.equal(row.command, shellQuote(commandLine(program, 65536)), `${row.name}: the default block size is 65536`)
    }
  })

  test('--sizes sets the block size in the commands; the plain listing names every program', () => {
    const r = listing(['--json', '--sizes', '4096'])
    assert.equal(r.status, 0, r.stderr)
    const rows = JSON.parse(r.stdout)
    for (const [i, row] of rows.entries()) assert.equal(row.command, shellQuote(commandLine(programs[i], 4096)), row.name)
    const text = listing([])
    assert.equal(text.status, 0, text.stderr)
    for (const program of programs) assert.match(text.stdout, new RegExp(`^${program.name} `, 'm'))
  })

  for (const [args, wrong] of [
    [['--sizes', '1000'], /block size 1000 is not a power of two: try 1024/],
    [['--sizes', 'abc'], /block size 'abc' is not a whole number/],
    [['--sizes', '8'], /block size 8 is out of range: give a power of two from 16 to 1048576/],
    [['--runs', '3'], /--list takes only --json, --sizes and --node; drop --runs/],
    [['--nope'], /unknown option --nope; see node bench\.js --help/]
  ]) {
    test(`${args.join(' ')}: exit 2 and one line saying what is wrong`, () => {
      const r = listing(args)
      assert.equal(r.status, 2, r.stderr)
      assert.equal(r.stdout, '')
      assert.match(r.stderr, /^bench\.js: [^\n]+\n$/, 'exactly one line')
      assert.match(r.stderr, wrong)
    })
  }
})
