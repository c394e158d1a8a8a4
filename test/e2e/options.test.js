'use strict'
// What bench.js and analyse.js refuse before they write anything (options, paths, the
// table's names), and the run folder's lock: one writer at a time, a stale lock taken
// over. Every refusal is one line naming the fix, exit 2.
const { test, describe } = require('node:test')
const assert = require('node:assert/strict')
const { assertRefused, escaped, readRuns: readLog, readJson, tempFolders, TINY } = require('../helpers')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')

const { acquireRunLock, LOCK_FILE } = require('../../lib/run-lock')

const ROOT = path.resolve(__dirname, '..', '..')
const BENCH = path.join(ROOT, 'bench.js')
const ANALYSE = path.join(ROOT, 'analyse.js')
const GATE_PROGRAMS = path.join(__dirname, '..', 'fixtures', 'gate-programs.js')

// A bounded wait: a regression that hangs (as --out /proc/x once did) fails the test.
const run = (script, args, env = {}) => spawnSync(process.execPath, [script, ...args], {
  cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60000
})
const bench = (args, env) => run(BENCH, args, env)
const analyse = (args, env) => run(ANALYSE, args, env)

const scratch = tempFolders('syscall-lab-options-')()
const folder = name => path.join(scratch, name)

describe('options: an empty or negative value is refused, not taken for the default', () => {
  const cases = [
    ...['sizes', 'runs', 'warmup', 'only', 'id', 'out', 'timeout', 'mib', 'feeder', 'node'].map(name =>
      [[`--${name}`, ''], new RegExp(`^bench\\.js: --${name} is empty; give .+, or leave --${name} out for its default$`)]),
    [['--resume', ''], /^bench\.js: --resume is empty; give a run folder \(its path, or its name in results\/\), or leave --resume out to start a new run$/],
    [['--sizes', '4096,'], /block size '' is not a whole number of bytes/],
    // parseArgs calls `--runs -1` ambiguous; the value is checked as --runs's all the same
    [['--runs', '-1'], /^bench\.js: --runs must be a whole number of at least 1, not '-1'$/],
    [['--runs=-1'], /^bench\.js: --runs must be a whole number of at least 1, not '-1'$/],
    [['--warmup', '-1'], /^bench\.js: --warmup must be a whole number of at least 0, not '-1'$/],
    [['--timeout', '-5'], /^bench\.js: --timeout must be a whole number of at least 1, not '-5'$/],
    // a profiled run's window as long as the timeout: every profiled cell would time out
    [['--profile-ms', '30000', '--timeout', '2'], /^bench\.js: --profile-ms 30000: a profiled run reads that long, so it cannot end within --timeout 2 s; give a --timeout of more than 30/],
    // a timeout of 1e20 s once reached pipe-run as 1 ms, and every run was logged as hung
    [['--timeout', '99999999999999999999'],
      /^bench\.js: --timeout must be a whole number from 1 to 86400, not '99999999999999999999'$/],
    // a count a slip of digits made (--runs 1000000000) would run for weeks: counts stop at 10,000
    [['--runs', '99999999999999999999'],
      /^bench\.js: --runs must be a whole number from 1 to 10000, not '99999999999999999999'$/],
    [['--rounds', '10001'], /^bench\.js: --rounds must be a whole number from 1 to 10000, not '10001'$/],
    // beyond what a double holds exactly
    [['--mib', '99999999999999999999'],
      /^bench\.js: --mib must be a whole number from 1 to 1048576, not '99999999999999999999'$/],
    [['--runs'], /^bench\.js: --runs needs a whole number; see node bench\.js --help$/],
    [['--out', '--id', 'x'], /^bench\.js: --out needs a folder, not '--id'; a value that begins with '-' is written --out=--id$/],
    [['--id', '..'], /^bench\.js: --id '\.\.' names a folder: use letters, digits, '-', '_', '\.' and '@', not starting with '\.'$/],
    [['--id', 'a/b'], /--id 'a\/b' names a folder/],
    [['--only', 'a/b'], /^bench\.js: --only 'a\/b' can match no program: a program's name is letters, digits/]
  ]
  for (const [args, message] of cases) {
    test(args.map(arg => arg || "''").join(' '), () => assertRefused(bench(args), message))
  }
})

describe('options: one given twice is refused, not the last taken', () => {
  // --experiment stdio --experiment http once started an http run
  test('bench.js --experiment stdio --experiment http', () => {
    assertRefused(bench(['--experiment', 'stdio', '--experiment', 'http']),
      /^bench\.js: --experiment is given twice \('stdio' and 'http'\); give it once$/)
  })
  test('bench.js --runs 0 --runs 3: the refused value is not hidden', () => {
    assertRefused(bench(['--runs', '0', '--runs', '3']),
      /^bench\.js: --runs is given twice \('0' and '3'\); give it once$/)
  })
  test('a flag twice, and analyse.js alike; a list option (--only) may repeat', () => {
    assertRefused(bench(['--no-strace', '--no-strace']),
      /^bench\.js: --no-strace is given twice \(--no-strace and --no-strace\); give it once$/)
    assertRefused(analyse(['--incomplete', '--incomplete', 'test/fixtures/results/sample']),
      /^analyse\.js: --incomplete is given twice/)
    const listed = bench(['--only', 'c', '--only', 'coreutils', '--help'])
    assert.equal(listed.status, 0, listed.stderr)
  })
})

describe('options that contradict each other are refused, not one of them ignored', () => {
  // [the command line, the option given, the pass its --no- skips]
  const skipped = [
    [['--rounds', '5', '--no-cost'], 'rounds', 'cost'],
    [['--no-kernel', '--kernel-rounds', '3'], 'kernel-rounds', 'kernel'],
    [['--no-profile', '--profile-rounds', '3'], 'profile-rounds', 'profile'],
    [['--no-profile', '--profile-ms', '100'], 'profile-ms', 'profile'],
    [['--experiment', 'http', '--rates', '5', '--no-latency'], 'rates', 'latency']
  ]
  for (const [args, given, pass] of skipped) {
    test(args.join(' '), () => assertRefused(bench(args),
      new RegExp(`^bench\\.js: --${given} sets the ${pass} pass, which --no-${pass} skips: drop one of them$`)))
  }
  test('--pin --feeder file', () => assertRefused(bench(['--pin', '--feeder', 'file']),
    /^bench\.js: --pin places dd, which --feeder file does not run: drop one of them$/))

  test('--resume with the --experiment of another run', () => {
    const run = path.join(ROOT, 'test', 'fixtures', 'results', 'calls-sample')
    assertRefused(bench(['--resume', run, '--experiment', 'http']),
      new RegExp(`^bench\\.js: --resume ${escaped(run)} is a run of the calls experiment, not of http: ` +
        'drop --experiment, or resume another run$'))
  })
})

describe('--out: a folder bench and analyse.js may make and write in, checked before anything is written', () => {
  test('--out /proc/x is refused at once (recursive mkdir spun there for ever)', () => {
    assertRefused(bench([...TINY, '--out', '/proc/x']), /^bench\.js: --out \/proc\/x: \/proc is on proc, a filesystem of the kernel's, not of files; give a folder on a disk or tmpfs$/)
    assertRefused(analyse(['--out', '/proc/x', 'test/fixtures/results/sample']), /^analyse\.js: --out \/proc\/x: \/proc is on proc/)
  })

  test('--out /sys/x and --out /dev/x are refused', () => {
    assertRefused(bench([...TINY, '--out', '/sys/x']), /--out \/sys\/x: \/sys is on sysfs/)
    assertRefused(bench([...TINY, '--out', '/dev/x']), /--out \/dev\/x: \/dev is among \/dev's device files, not a place for data/)
  })

  test('a file where a folder is expected: --out, a path through a file, a run folder, analyse.js --out', () => {
    const file = folder('a-file')
    fs.writeFileSync(file, 'not a folder\n')
    const isFile = new RegExp(`${file} is a file, not a folder; give a folder \\(or a path where one can be made\\)$`)
    assertRefused(bench([...TINY, '--out', file]), isFile)
    assertRefused(bench([...TINY, '--out', path.join(file, 'below')]), isFile)
    assertRefused(bench([...TINY, '--out', scratch, '--id', 'a-file']), new RegExp(`^bench\\.js: ${file} is a file, not a run folder; pick another --id or --out$`))
    assertRefused(bench(['--resume', file]), new RegExp(`--resume ${file}: ${file} is a file; give the run folder that holds it$`))
    assertRefused(analyse(['--out', file, 'test/fixtures/results/sample']), isFile)
    assert.equal(fs.readFileSync(file, 'utf8'), 'not a folder\n')
  })

  test('a refused bench leaves no folder behind', () => {
    const out = folder('never-made')
    assertRefused(bench(['--only', 'cobol', '--out', out, '--id', 'x']), /--only cobol matches no program/)
    assertRefused(bench(['--only', 'bun-ffi', '--out', out, '--id', 'x'], { BUN: '/nonexistent/bun' }), /cannot run bun-ffi: Bun not found/)
    assertRefused(bench(['--only', 'c', '--runs', '-1', '--out', out]), /--runs must be/)
    assert.equal(fs.existsSync(out), false)
  })

  test('analyse.js: empty values refused', () => {
    assertRefused(analyse(['--out', '', 'test/fixtures/results/sample']), /^analyse\.js: --out is empty; give a folder, or leave --out out for its default$/)
    assertRefused(analyse(['--title', '', 'test/fixtures/results/sample']), /^analyse\.js: --title is empty/)
    assertRefused(analyse(['']), /^analyse\.js: a results folder named '' \(empty\); give a results\/<run-id> folder that bench\.js wrote$/)
  })
})

describe('program names: a safe pattern, no duplicates, checked as the table loads', () => {
  const module = (name, rows) => {
    const file = folder(`${name}.js`)
    fs.writeFileSync(file, `module.exports = ${JSON.stringify(rows)}\n`)
    return file
  }
  const row = name => ({ name, runtime: 'node', file: 'test/fixtures/wc-slow.js', command: ['{runtime}', '{file}', '{bs}'], honoursBlockSize: true })
  const rule = "a name is letters, digits, '-', '_', '\\.' and '@', not starting with '\\.'"

  test('a name with ../ or / is refused, naming the file and the rule, and nothing is written', () => {
    const out = folder('names-out')
    for (const name of ['../../../x', 'a/b', '.hidden']) {
      const file = module('bad-name', [row(name)])
      const result = bench([...TINY, '--out', out, '--id', 'names'], { LAB_EXTRA_PROGRAMS: file })
      assertRefused(result, new RegExp(`^bench\\.js: ${file}: program name ${JSON.stringify(name).replace(/[./]/g, '\\$&')} is not allowed: ${rule}$`))
      const listed = bench(['--list'], { LAB_EXTRA_PROGRAMS: file })
      assert.equal(listed.status, 2)
      assert.match(listed.stderr, /is not allowed/)
    }
    assert.equal(fs.existsSync(out), false)
    assert.equal(fs.existsSync(path.join(ROOT, 'x')), false)
  })

  test('a duplicate name is refused: of the lab\'s table, or within a module', () => {
    const clash = module('clash', [row('c')])
    assertRefused(bench(TINY, { LAB_EXTRA_PROGRAMS: clash }), new RegExp(`^bench\\.js: ${clash}: program name 'c' is already taken \\(by experiments/stdio/programs\\.js\\); rename one$`))
    const twice = module('twice', [row('mine'), row('mine')])
    assertRefused(bench(TINY, { LAB_EXTRA_PROGRAMS: twice }), new RegExp(`${twice}: program name 'mine' is already taken \\(by ${twice}\\); rename one$`))
  })

  test('a module that cannot be loaded is one line, not a stack trace', () => {
    const missing = folder('no-such-module.js')
    assertRefused(bench(TINY, { LAB_EXTRA_PROGRAMS: missing }), new RegExp(`^bench\\.js: LAB_EXTRA_PROGRAMS: cannot load ${missing} \\(MODULE_NOT_FOUND\\)`))
  })
})

describe('one run folder, one writer', () => {
  // A bench started with spawn: its exit, and everything it printed.
  function started (args, env) {
    const child = spawn(process.execPath, [BENCH, ...args], { cwd: ROOT, env: { ...process.env, ...env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', chunk => { stdout += chunk })
    child.stderr.on('data', chunk => { stderr += chunk })
    const done = new Promise(resolve => child.on('close', code => resolve({ child, code, stdout, stderr })))
    return { child, done }
  }
  const within = (promise, ms, what) => {
    let timer
    const deadline = new Promise((resolve, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no end within ${ms} ms`)), ms) })
    return Promise.race([promise, deadline]).finally(() => clearTimeout(timer))
  }

  test('two benches started at once: one measures, the other (and a resume, and analyse.js) refuse; no duplicate runs', async () => {
    const out = folder('two')
    const dir = path.join(out, 'shared')
    const gate = folder('two-gate')
    const env = { LAB_EXTRA_PROGRAMS: GATE_PROGRAMS, LAB_TEST_GATE: gate }
    const args = ['--only', 'fixture-gate', '--sizes', '4096', '--runs', '2', '--warmup', '0', '--mib', '1', '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'shared']
    const benches = [started(args, env), started(args, env)]
    try {
      // the one that measures waits at the gate in its first run, lock held
      const refused = await within(Promise.race(benches.map(({ done }) => done)), 60000, 'the second bench')
      const measuring = benches.find(({ child }) => child !== refused.child)
      assert.equal(refused.code, 2, refused.stderr + refused.stdout)
      const busy = new RegExp(`^bench\\.js: ${dir} is being measured by bench\\.js \\(pid ${measuring.child.pid}\\) since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z; wait for it or stop it$`)
      assert.match(refused.stderr.trim(), busy)
      assert.equal(refused.stderr.trim().split('\n').length, 1)
      assert.equal(measuring.child.exitCode, null, 'the other is still measuring')

      assertRefused(bench(['--resume', dir], env), busy)
      assertRefused(analyse([dir]), new RegExp(`^analyse\\.js: ${dir} is being measured by bench\\.js \\(pid ${measuring.child.pid}\\) since \\S+; wait for it or stop it, then analyse it$`))

      fs.writeFileSync(gate, '')
      const finished = await within(measuring.done, 60000, 'the measuring bench')
      assert.equal(finished.code, 0, finished.stderr + finished.stdout)
    } finally {
      fs.writeFileSync(gate, '')
      for (const { child } of benches) if (child.exitCode === null) child.kill('SIGKILL')
    }
    const log = readLog(path.join(dir, 'all.jsonl'))
    const keys = log.map(record => [record.phase, record.program, record.blockSize, record.run].join(' '))
    assert.deepEqual(keys.sort(), ['startup fixture-gate 4096 0', 'startup fixture-gate 4096 1', 'timing fixture-gate 4096 0', 'timing fixture-gate 4096 1'])
    assert.equal(readJson(path.join(dir, 'results.json')).cells[0].runs, 2)
    assert.equal(fs.existsSync(path.join(dir, LOCK_FILE)), false, 'the lock is released at the end')
  })

  test('a lock whose holder runs refuses; one left by a bench that is gone, or whose PID another program has, is taken over with a note', () => {
    const lockOf = (name, holder) => {
      const dir = folder(path.join('stale', name))
      fs.mkdirSync(dir, { recursive: true })
      if (holder) fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ tool: 'bench.js', host: os.hostname(), since: '2026-01-02T03:04:05.000Z', ...holder }))
      return dir
    }

    // held by this test's own process
    const held = lockOf('held')
    const lock = acquireRunLock(held, { makeError: message => new Error(message), note: message => assert.fail(message) })
    try {
      const busy = new RegExp(`is being measured by bench\\.js \\(pid ${process.pid}\\) since \\S+; ` +
        'wait for it or stop it$')
      assertRefused(bench([...TINY, '--out', path.dirname(held), '--id', 'held']), busy)
      assert.deepEqual(fs.readdirSync(held), [LOCK_FILE], 'nothing written')
      // its holder has written its context already, as a bench does a moment after its lock: a
      // second bench started a moment late once heard "already holds a run; pick another --id"
      fs.writeFileSync(path.join(held, 'context.json'), '{}\n')
      assertRefused(bench([...TINY, '--out', path.dirname(held), '--id', 'held']), busy)
      fs.rmSync(path.join(held, 'context.json'))
    } finally {
      lock.release()
    }
    assert.equal(fs.existsSync(path.join(held, LOCK_FILE)), false)

    const gonePid = spawnSync(process.execPath, ['-e', '']).pid
    for (const [name, holder, why] of [
      ['gone', { pid: gonePid, start: '1' }, 'which is no longer running'],
      ['reused', { pid: process.pid, start: 'not this process\'s start' }, 'whose PID another program now has']
    ]) {
      const dir = lockOf(name, holder)
      const result = bench([...TINY, '--out', path.dirname(dir), '--id', name])
      assert.equal(result.status, 0, result.stderr + result.stdout)
      assert.match(result.stdout, new RegExp(`^note: ${dir} was locked by bench\\.js pid ${holder.pid} since 2026-01-02T03:04:05\\.000Z, ${why}; taking the lock over$`, 'm'))
      assert.equal(readLog(path.join(dir, 'all.jsonl')).filter(record => record.phase === 'timing').length, 1)
      assert.deepEqual(fs.readdirSync(dir).filter(file => file.includes('lock')), [], 'lock and takeover claim released')
    }

    // a holder in another PID namespace on this host (a container sharing its name and the
    // results folder): its PID says nothing here, so the lock is refused, not taken over
    const me = { pid: process.pid, start: 'any', pidns: 'pid:[1]' }
    const contained = lockOf('contained', me)
    assertRefused(bench([...TINY, '--out', path.dirname(contained), '--id', 'contained']),
      new RegExp(`is being measured by bench\\.js \\(pid ${process.pid} on .*, in another PID namespace \\(a container\\)\\) ` +
        `since \\S+; wait for it or stop it \\(if it is gone, remove ${contained}/${LOCK_FILE}\\)$`))
    // ... and one of an earlier boot of this machine is gone, whatever its PID now is
    const booted = lockOf('booted', { pid: process.pid, start: 'any', boot: 'an earlier boot' })
    const taken = bench([...TINY, '--out', path.dirname(booted), '--id', 'booted'])
    assert.equal(taken.status, 0, taken.stderr + taken.stdout)
    assert.match(taken.stdout, /, which is no longer running; taking the lock over$/m)

    // a bench killed mid-takeover left its claim on a stale lock: an old claim is cleared
    const holder = { pid: gonePid, start: '1' }
    const dir = lockOf('claimed', holder)
    const claim = path.join(dir, `.${LOCK_FILE}.${holder.pid}-${holder.start}.takeover`)
    fs.writeFileSync(claim, '{}\n')
    const minuteAgo = new Date(Date.now() - 60000)
    fs.utimesSync(claim, minuteAgo, minuteAgo)
    const result = bench([...TINY, '--out', path.dirname(dir), '--id', 'claimed'])
    assert.equal(result.status, 0, result.stderr + result.stdout)
    assert.match(result.stdout, /taking the lock over$/m)
    assert.deepEqual(fs.readdirSync(dir).filter(file => file.includes('lock')), [], 'lock and both claims released')
  })
})
