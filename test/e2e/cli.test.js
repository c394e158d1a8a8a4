'use strict'
// What every command shares (lib/cli.js, lib/options.js's --only rule), run as the
// commands themselves: --help, the exit codes, --only in a study's tool, the command that
// measures a failed cell again, and analyse.js on a run cut short and with --rederive.
const { test, describe, before } = require('node:test')
const assert = require('node:assert/strict')
const {
  assertRefused, escaped, readRuns: readLog, readJson, tempFolders, waitFor, childrenPids
} = require('../helpers')
const fs = require('node:fs')
const path = require('node:path')
const os = require('node:os')
const zlib = require('node:zlib')
const { machineFacts } = require('../../lib/context')
const { spawn, spawnSync, execFile } = require('node:child_process')

const { programs, unavailableReason, fileFeedReason } = require('../../experiments/stdio/programs')
const { summariseResults, summariseSyscalls, summariseGcResults } = require('../../experiments/stdio/summary')
const { acquireRunLock } = require('../../lib/run-lock')
const { runtimes } = require('../../lib/runtimes')

const ROOT = path.resolve(__dirname, '..', '..')
const BENCH = path.join(ROOT, 'bench.js')
const ANALYSE = path.join(ROOT, 'analyse.js')
const FILE_COST = path.join(ROOT, 'studies', 'file-cost.js')
const EXTRA = path.join(__dirname, '..', 'fixtures', 'extra-programs.js')
const SAMPLE = path.join(__dirname, '..', 'fixtures', 'results', 'sample')

const node = (args, env = {}) => spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120000 })
const bench = (args, env) => node([BENCH, ...args], env)
const analyse = args => node([ANALYSE, ...args])

const folder = tempFolders('syscall-lab-cli-')
const scratch = folder()
before(() => {
  const made = spawnSync('make', ['-s', 'all'], { cwd: ROOT, encoding: 'utf8' })
  assert.equal(made.status, 0, `make failed (run ./setup.sh first): ${made.stderr}`)
})

// Every study is a command, run as its header's usage line says: by node, the host
// (build/just-host), bun or deno, itself (a .sh, by bash), or, for a .c, as its program in
// build/. Every file of studies/ but those named here: a new one cannot escape --help.
const STUDIES = path.join(ROOT, 'studies')
const NOT_COMMANDS = {
  'per-read.js': 'what the studies share',
  'postgres-js-compacting-queue.js': 'what studies/postgres-js-queue.js preloads into a server',
  'uring-windows.js': 'extra rows of bench.js (LAB_EXTRA_PROGRAMS)'
}
const RUNNERS = {
  node: process.execPath,
  'build/just-host': runtimes.just.locate(),
  bun: runtimes.bun.locate(),
  deno: runtimes.deno.locate()
}

// [invocation, [command, ...args]]: invocation as the header's usage line has it, which
// the study's own usage line starts with
function studyCommands () {
  const runners = Object.keys(RUNNERS).map(escaped).join('|')
  return fs.readdirSync(STUDIES).filter(file => !Object.hasOwn(NOT_COMMANDS, file)).sort().map(file => {
    const own = file.endsWith('.c') ? `build/${file.slice(0, -2)}` : `studies/${file}`
    const header = fs.readFileSync(path.join(STUDIES, file), 'utf8').split('\n').slice(0, 40).join('\n')
    // "node studies/x.js" anywhere in it, or a comment line that starts "studies/x.sh"
    const line = new RegExp(`(?:^|\\s)(${runners}) ${escaped(own)}(?: |$)`, 'm').exec(header) ??
      new RegExp(`^\\s*(?://|#|/?\\*)\\s+()${escaped(own)}(?: |$)`, 'm').exec(header)
    assert.ok(line, `studies/${file}: its header has no usage line saying what runs ${own}`)
    const runner = line[1]
    return [runner ? `${runner} ${own}` : own, [...(runner ? [RUNNERS[runner]] : []), path.join(ROOT, own)]]
  })
}
// A study's program in build/ is made only where its toolchain is (the Makefile says).
const unbuilt = ([command]) => fs.existsSync(command) ? false : `${command} is not built here`

// call-cost.js and paired-reads.js, run by Node, once died on `just` with a stack
describe('a study of the V8 host run by Node', () => {
  for (const [invocation] of studyCommands().filter(([invocation]) => invocation.startsWith('build/just-host '))) {
    const file = invocation.split(' ')[1]
    test(`node ${file}: one line saying what runs it, exit 2`, () => {
      const result = spawnSync(process.execPath, [path.join(ROOT, file), '--help'], { cwd: scratch, encoding: 'utf8', timeout: 60000 })
      assert.equal(result.status, 2, result.stderr)
      assert.equal(result.stdout, '')
      assert.match(result.stderr, new RegExp(`^${escaped(path.basename(file))} runs in the lab's V8 host, not Node: build/just-host ${escaped(file)} .*\n$`))
    })
  }
})

describe('a study given an unknown flag', () => {
  for (const [invocation, [command, ...args]] of studyCommands()) {
    const skip = unbuilt([command])
    test(`${invocation} --bogus: one line on stderr naming it, exit 2, nothing run`, { skip }, () => {
      const before = fs.readdirSync(scratch)
      const result = spawnSync(command, [...args, '--bogus'], { cwd: scratch, encoding: 'utf8', timeout: 60000 })
      assert.equal(result.status, 2, result.stdout + result.stderr)
      assert.equal(result.stdout, '')
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
      assert.match(result.stderr, /--bogus/)
      // nothing run: nothing written where it ran
      assert.deepEqual(fs.readdirSync(scratch), before)
    })
  }
})

describe('--help', () => {
  const commands = [
    ['node bench.js', [process.execPath, BENCH], /^usage: node bench\.js/],
    ['node analyse.js', [process.execPath, ANALYSE], /^usage: node analyse\.js/],
    ...studyCommands().map(([invocation, command]) =>
      [invocation, command, new RegExp(`^usage: ${escaped(invocation)}`), unbuilt(command)]),
    ['./setup.sh', [path.join(ROOT, 'setup.sh')], /^usage: \.\/setup\.sh \[--test\] \[--wasm\] \| --runtime-only \[--db\] \[--node V,\.\.\.\]\n.*--wasm.*--runtime-only.*--db.*--node/s],
    ['test/fresh-machine.sh', [path.join(ROOT, 'test', 'fresh-machine.sh')], /^usage: test\/fresh-machine\.sh .*\n.*--logs DIR/s],
    ['fleet/local-target.sh', [path.join(ROOT, 'fleet', 'local-target.sh')], /^usage: fleet\/local-target\.sh start \[CPUS\] \| stop\n.*stop and remove the container/s]
  ]
  for (const [name, [command, ...args], usage, skip = false] of commands) {
    test(`${name} --help prints its usage on stdout and exits 0, doing nothing else`, { skip }, () => {
      // VALGRIND pointing nowhere: --help must not need it
      const before = fs.readdirSync(scratch)
      const result = spawnSync(command, [...args, '--help'], { cwd: scratch, encoding: 'utf8', timeout: 60000, env: { ...process.env, VALGRIND: '/nonexistent/valgrind' } })
      assert.equal(result.status, 0, result.stderr)
      assert.match(result.stdout, usage)
      assert.equal(result.stderr, '')
      assert.deepEqual(fs.readdirSync(scratch), before, 'nothing written where it ran')
    })
  }
})

// it once ignored what followed stop, and passed a CPU set the machine lacks to the engine
test('fleet/local-target.sh: a wrong command line is one line and exit 2, before the engine is asked', () => {
  // nproc's count, the CPUs this process may run on
  const last = os.availableParallelism() - 1
  const cases = [
    [[], /give start or stop/],
    [['stop', 'now'], /stop takes no arguments, not 'now'; drop them/],
    [['start', '0', '1'], /start takes at most CPUS, not '1'; drop it/],
    [['start', 'a'],
      new RegExp(`CPUS 'a' is not a list of CPUs; give numbers from 0 to ${last}, as ${last} or 0-${last}`)],
    [['start', `0-${last + 1}`], new RegExp(`CPU ${last + 1} is not one of this machine's \\(0-${last}\\)`)],
    // 2^64 + 1, which bash's arithmetic wraps round to 1 (a review)
    [['start', '18446744073709551617'], /CPU 18446744073709551617 is not one of this machine's/]
  ]
  // an engine that records being asked: none of these may reach it
  const asked = path.join(scratch, 'engine-asked')
  const engine = path.join(scratch, 'engine')
  fs.writeFileSync(engine, `#!/bin/sh\necho "$@" >> ${asked}\n`, { mode: 0o755 })
  for (const [args, message] of cases) {
    const result = spawnSync(path.join(ROOT, 'fleet', 'local-target.sh'), args,
      { cwd: scratch, encoding: 'utf8', timeout: 10000, env: { ...process.env, ENGINE: engine } })
    assertRefused(result, new RegExp(`^local-target\\.sh: ${message.source}.* \\(usage: `))
  }
  assert.equal(fs.existsSync(asked), false, 'the engine was asked')
  fs.rmSync(engine)
})

// it once looped for ever on an option given last without its value
test('test/fresh-machine.sh: an option without its value, one line and exit 2', () => {
  for (const option of ['--only', '--logs']) {
    const result = spawnSync(path.join(ROOT, 'test', 'fresh-machine.sh'), [option], { cwd: scratch, encoding: 'utf8', timeout: 10000 })
    assert.equal(result.status, 2, `${option}: ${result.stderr}`)
    assert.match(result.stderr, new RegExp(`^fresh-machine\\.sh: ${option} needs a value \\(usage: .*\\)\n$`))
  }
})

// a value given twice would silently take the last; --only=test is read as --only test
test('test/fresh-machine.sh: an option given twice is refused; --option=value is read', () => {
  const run = args => spawnSync(path.join(ROOT, 'test', 'fresh-machine.sh'), args, { cwd: scratch, encoding: 'utf8', timeout: 10000 })
  for (const args of [['--only', 'main', '--only', 'test'], ['--logs', scratch, '--logs=' + scratch]]) {
    const result = run(args)
    assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`)
    assert.match(result.stderr, /^fresh-machine\.sh: --(only|logs) given twice; give it once \(usage: .*\)\n$/)
  }
  const bad = run(['--only=nothing'])
  assert.equal(bad.status, 2, bad.stderr)
  assert.equal(bad.stderr, 'fresh-machine.sh: --only takes main or test, not \'nothing\'\n')
})

test('test/fresh-machine.sh --logs where no folder can be made: one line naming it, exit 2', () => {
  const file = path.join(scratch, 'a-file')
  fs.writeFileSync(file, '')
  for (const logs of [file, path.join(file, 'below')]) {
    const result = spawnSync(path.join(ROOT, 'test', 'fresh-machine.sh'), ['--logs', logs],
      { cwd: scratch, encoding: 'utf8', timeout: 10000 })
    assert.equal(result.status, 2, `${logs}: ${result.stderr}`)
    assert.match(result.stderr,
      new RegExp(`^fresh-machine\\.sh: cannot make or write the folder '${escaped(logs)}' for --logs; .*\n$`))
  }
  fs.rmSync(file)
})

describe('a file of studies/ that is not a command', () => {
  for (const file of Object.keys(NOT_COMMANDS)) {
    test(`node studies/${file} --help: one line saying what it is, exit 2, nothing else`, () => {
      const result = spawnSync(process.execPath, [path.join(STUDIES, file), '--help'],
        { cwd: scratch, encoding: 'utf8', timeout: 60000 })
      assert.equal(result.status, 2, result.stderr)
      assert.equal(result.stdout, '')
      assert.match(result.stderr, new RegExp(`^${escaped(file)} is not a command: .*\\brun\\b.*\n$`))
    })
  }
})

describe('lib/cli.js: parse → run → exit code', () => {
  // A tool made of lib/cli.js and the given parse and run, in a process of its own.
  function tool (body) {
    const script = `const { runCli, RunFailed } = require(${JSON.stringify(path.join(ROOT, 'lib', 'cli.js'))})
      const { UsageError } = require(${JSON.stringify(path.join(ROOT, 'lib', 'options.js'))})
      ${body}`
    return spawn(process.execPath, ['-e', script], { cwd: scratch })
  }
  function finished (child) {
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', chunk => { stdout += chunk })
    child.stderr.on('data', chunk => { stderr += chunk })
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no exit within 30 s: ${stdout}${stderr}`)), 30000)
      child.on('close', code => {
        clearTimeout(timer)
        resolve({ code, stdout, stderr })
      })
    })
  }

  test('usage, done, a usage error, a failed run, a bug', async () => {
    const cases = [
      ['({ help: true })', 'return 7', 0, 'usage: t\n', ''],
      ['({})', 'console.log("done"); return 0', 0, 'done\n', ''],
      ['({})', 'return 1', 1, '', ''],
      ['(() => { throw new UsageError("--x is wrong; give y") })()', 'return 0', 2, '', 't: --x is wrong; give y\n'],
      ['({})', 'throw new UsageError("no such folder; give one")', 2, '', 't: no such folder; give one\n'],
      ['({})', 'throw new RunFailed("dd | wc: reader exited 1")', 1, '', 't: dd | wc: reader exited 1\n']
    ]
    for (const [parsed, run, code, stdout, stderr] of cases) {
      const result = await finished(tool(`runCli({ name: 't', usage: 'usage: t', parse: () => ${parsed}, run: async () => { ${run} } })`))
      assert.deepEqual(result, { code, stdout, stderr }, `${parsed} / ${run}`)
    }
    const bug = await finished(tool('runCli({ name: \'t\', usage: \'\', parse: () => ({}), run: () => null.x })'))
    assert.equal(bug.code, 1)
    assert.match(bug.stderr, /^t: TypeError: .*\n +at /, 'a bug shows its stack')
  })

  test('Ctrl-C: a measuring tool is told to stop, says what it kept, and exits 130 whatever it returns', async () => {
    const child = tool(`runCli({ name: 't', usage: '', measures: true, parse: () => ({}), run: async (options, stopped) => {
      console.log('measuring')
      await new Promise(resolve => { const poll = setInterval(() => { if (stopped()) { clearInterval(poll); resolve() } }, 10) })
      console.error('t: interrupted; nothing was measured')
      return 0
    } })`)
    child.stdout.once('data', () => child.kill('SIGINT'))
    assert.deepEqual(await finished(child), { code: 130, stdout: 'measuring\n', stderr: 't: interrupted; nothing was measured\n' })
  })

  test('a hangup, or a closed output, stops a measuring tool as Ctrl-C does', async () => {
    const waits = `run: async (options, stopped) => {
      console.log('measuring')
      await new Promise(resolve => { const poll = setInterval(() => { if (stopped()) { clearInterval(poll); resolve() } }, 10) })
      console.error('t: interrupted; nothing was measured')
      return 0
    } })`
    const hup = tool(`runCli({ name: 't', usage: '', measures: true, parse: () => ({}), ${waits}`)
    hup.stdout.once('data', () => hup.kill('SIGHUP'))
    assert.deepEqual(await finished(hup), { code: 130, stdout: 'measuring\n', stderr: 't: interrupted; nothing was measured\n' })
    // its reader gone (bench.js | head): the next line it prints stops it, with no stack
    const closed = tool(`runCli({ name: 't', usage: '', measures: true, parse: () => ({}), run: async (options, stopped) => {
      console.log('measuring')
      await new Promise(resolve => setTimeout(resolve, 200))
      while (!stopped()) { console.log('more'); await new Promise(resolve => setTimeout(resolve, 10)) }
      console.error('t: interrupted')
      return 0
    } })`)
    closed.stdout.once('data', () => closed.stdout.destroy())
    const result = await finished(closed)
    assert.deepEqual([result.code, result.stderr], [130, 't: interrupted\n'])
  })

  test('Ctrl-C that makes the work in flight throw is still a stop: exit 130, not 1 or 2', async () => {
    const child = tool(`runCli({ name: 't', usage: '', measures: true, parse: () => ({}), run: async (options, stopped) => {
      console.log('measuring')
      await new Promise(resolve => { const poll = setInterval(() => { if (stopped()) { clearInterval(poll); resolve() } }, 10) })
      throw new UsageError('cannot write the zero file: interrupted')
    } })`)
    child.stdout.once('data', () => child.kill('SIGINT'))
    assert.deepEqual(await finished(child), { code: 130, stdout: 'measuring\n', stderr: 't: stopped (cannot write the zero file: interrupted)\n' })
  })
})

describe('a study that logs its runs (--raw FILE)', () => {
  const logging = studyCommands().filter(([invocation, command]) => !unbuilt(command) &&
    spawnSync(command[0], [...command.slice(1), '--help'], { encoding: 'utf8' }).stdout.includes('--raw FILE'))

  test('refuses a --raw it could not write, before it measures anything', () => {
    assert.ok(logging.length >= 5, logging.map(([invocation]) => invocation).join(', '))
    for (const [invocation, [command, ...args]] of logging) {
      const result = spawnSync(command, [...args, '--raw', '/proc/x'],
        { cwd: scratch, encoding: 'utf8', timeout: 60000 })
      assert.equal(result.status, 2, `${invocation}: ${result.stderr}`)
      assert.match(result.stderr, /^\S+: --raw \/proc\/x: \/proc is on proc, .* \(usage: /, invocation)
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr)
      const empty = spawnSync(command, [...args, '--raw', ''], { cwd: scratch, encoding: 'utf8', timeout: 60000 })
      assert.match(empty.stderr, /--raw is empty; give a file, or leave --raw out/, invocation)
      // nothing makes a log's folder: its first write would fail mid-study
      const missing = path.join(scratch, 'missing', 'runs.jsonl')
      const unmade = spawnSync(command, [...args, '--raw', missing], { cwd: scratch, encoding: 'utf8', timeout: 60000 })
      assert.equal(unmade.status, 2, `${invocation}: ${unmade.stderr}`)
      assert.match(unmade.stderr,
        new RegExp(`--raw ${escaped(missing)}: ${escaped(path.dirname(missing))} does not exist; make it`))
    }
  })

  // db-placement.js once went on measuring after Ctrl-C, and lost its log when killed. A
  // terminal's Ctrl-C reaches the whole process group, wrk and the servers too, so the run in
  // flight fails: that is a stop, not a failure.
  const stopTitle = 'studies/db-placement.js stopped by Ctrl-C: exit 130, every run measured in its log, ' +
    'nothing left running'
  test(stopTitle, async () => {
    const raw = path.join(scratch, 'db-placement.jsonl')
    // a log that holds an earlier session's runs keeps them: the new runs follow
    const earlier = JSON.stringify({ ok: true, earlier: true })
    fs.writeFileSync(raw, `${earlier}\n`)
    const args = [path.join(STUDIES, 'db-placement.js'), '--runs', '3', '--placements', 'alone', '--raw', raw]
    const child = spawn(process.execPath, args, { cwd: scratch, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let stderr = ''
    child.stderr.on('data', chunk => { stderr += chunk })
    const exited = new Promise(resolve => child.on('close', code => resolve(code)))
    const logged = () => fs.existsSync(raw) ? fs.readFileSync(raw, 'utf8').split('\n').filter(Boolean).length : 0
    await waitFor(() => logged() >= 2 || child.exitCode !== null, 120000, 'a first run in the log')
    const descendants = pid => childrenPids(pid).flatMap(child => [child, ...descendants(child)])
    const started = descendants(child.pid)
    assert.ok(started.length > 0, 'the study runs a database and servers')
    process.kill(-child.pid, 'SIGINT')
    assert.equal(await exited, 130, stderr)
    const runs = logged() - 1
    assert.equal(stderr.trim().split('\n').pop(), `db-placement.js: stopped (${runs} runs measured, in ${raw})`)
    const lines = fs.readFileSync(raw, 'utf8').trim().split('\n')
    assert.equal(lines[0], earlier)
    for (const line of lines) assert.equal(JSON.parse(line).ok, true)
    const alive = started.filter(pid => fs.existsSync(`/proc/${pid}`))
    assert.deepEqual(alive, [], 'every process it started has ended')
  })

  // One round cannot be halved: it ended in a TypeError's stack after the whole session, its
  // table lost (a review). And every record says where each process ran, this tool's too.
  test('studies/db-placement.js, one round: its table says "-" for the halves; each run names its CPUs', () => {
    const raw = path.join(scratch, 'db-placement-one.jsonl')
    fs.rmSync(raw, { force: true })
    const args = [path.join(STUDIES, 'db-placement.js'), '--runs', '1', '--placements', 'alone', '--raw', raw]
    const result = spawnSync(process.execPath, args, { cwd: scratch, encoding: 'utf8', timeout: 180000 })
    assert.equal(result.status, 0, result.stderr)
    const rows = result.stdout.split('\n').filter(line => line.startsWith('alone '))
    assert.equal(rows.length, 4, result.stdout)
    assert.ok(rows.every(row => /\s-%\s/.test(row)), result.stdout)
    const records = fs.readFileSync(raw, 'utf8').trim().split('\n').map(line => JSON.parse(line))
    for (const record of records) {
      assert.deepEqual([record.pin, record.driverCpu], [{ client: 0, server: 1, database: 0 }, 0])
    }
  })
})

// Its placements set the server apart from wrk: one CPU cannot hold them
test('studies/db-placement.js on one CPU: refused in one line, before a database starts', () => {
  const result = spawnSync('taskset', ['-c', '0', process.execPath, path.join(STUDIES, 'db-placement.js')],
    { cwd: scratch, encoding: 'utf8', timeout: 20000 })
  assertRefused(result, /^db-placement\.js: this process may use CPU 0 only; the placements need two: /)
})

// A review: the placement studies started their servers before asking whether each could run
test('the placement studies refuse a server that cannot run in one line, before any starts', () => {
  const run = (study, env) => spawnSync(process.execPath, [path.join(STUDIES, study)],
    { cwd: scratch, encoding: 'utf8', timeout: 20000, env: { ...process.env, ...env } })
  assertRefused(run('http-placement.js', { BUN: '/nonexistent' }),
    /^http-placement\.js: cannot run the server bun: Bun not found at \/nonexistent: /)
  assertRefused(run('db-placement.js', { NODE: '/nonexistent' }),
    /^db-placement\.js: cannot run the server node-pg-prepared-serial: Node\.js not found at \/nonexistent: /)
})

// db-placement.js once took --connections 99999999999999999999, and wrk ran out of memory
test('a study\'s --connections is bench.js\'s: at most 1024, and one count', () => {
  const study = name => (...args) => spawnSync(process.execPath, [path.join(STUDIES, name), ...args],
    { cwd: scratch, encoding: 'utf8', timeout: 20000 })
  assertRefused(study('db-placement.js')('--connections', '2000'),
    /^db-placement\.js: --connections 2000 is more than 1024; give counts from 1 to 1024 \(usage: /)
  assertRefused(study('db-placement.js')('--connections', '64,128'),
    /^db-placement\.js: --connections takes one count here, not '64,128' \(usage: /)
  assertRefused(study('gc-trace-cost.js')('--connections', '0'),
    /^gc-trace-cost\.js: --connections must be a whole number of at least 1, not '0'/)
  // a width Chromium cannot open once ended in a protocol error's stack
  assertRefused(study('pages.js')('--widths', '99999999', path.join(ROOT, 'results', 'reference')),
    /--widths takes whole numbers of px from 200 to 7680, not '99999999'/)
  // a name given twice, and a time past what a timer holds (it fired at once), refused (a review)
  assertRefused(study('db-placement.js')('--placements', 'alone,alone'),
    /^db-placement\.js: --placements names alone twice; name each once \(usage: /)
  assertRefused(study('disturb.js')('--cpus', '0,0'), /^disturb\.js: --cpus names CPU 0 twice; name each CPU once/)
  assertRefused(study('disturb.js')('--for', '9999999999999'),
    /^disturb\.js: --for must be a whole number from 1 to 604800, not '9999999999999'/)
})

// A review of every command line (2026-12-07): names and sizes given twice measured twice, an
// option the chosen placements do not use said and ignored, a log a study would append to that
// is a run's results, a stack trace for a missing runtime, and empty answers for a name or a
// size a run does not hold: each refused in one line, before anything is measured
test('studies and docs/ scripts refuse repeats, unused options and names a run lacks', () => {
  const study = name => (...args) => spawnSync(process.execPath, [path.join(STUDIES, name), ...args],
    { cwd: scratch, encoding: 'utf8', timeout: 20000 })
  const docs = (script, ...args) => spawnSync(process.execPath, [path.join(ROOT, 'docs', script), ...args],
    { cwd: ROOT, encoding: 'utf8', timeout: 20000 })
  assertRefused(study('file-cost.js')('--sizes', '256,256'),
    /^file-cost\.js: --sizes names 256 twice; name each size once/)
  assertRefused(study('same-moment.js')('--designs', 'rounds,rounds'),
    /^same-moment\.js: --designs names rounds twice; name each design once/)
  assertRefused(study('same-moment.js')('--only', 'c'), /^same-moment\.js: --only names C alone, .*; name a reader/)
  assertRefused(study('gc-trace-cost.js')('--only', 'node-http,node-http'),
    /^gc-trace-cost\.js: --only names node-http twice; name each server once/)
  assertRefused(study('pages.js')('--widths', '1280,1280'),
    /^pages\.js: --widths names 1280 twice; name each width once$/)
  assertRefused(study('http-placement.js')('--rate', '5000', '--placements', 'shared'),
    new RegExp('^http-placement\\.js: --rate sets the paced placement\'s load, which --placements shared ' +
      'leaves out: drop --rate, or add paced'))
  assertRefused(study('db-placement.js')('--raw', path.join(ROOT, 'README.md')),
    /^db-placement\.js: --raw \S+README\.md: is there and is no log of a study/)
  assertRefused(docs('http/2026-12-06-window/window.js', '3', 'nope'), /^window\.js: no server nope; give some of /)
  // Winter.js: no registry serves it, so it never runs here (docs/wasm.md)
  assertRefused(docs('http/2026-12-06-window/window.js', '3', 'winterjs'), /^window\.js: winterjs cannot run here: /)
  assertRefused(docs('http/2026-12-06-window/window.js', '3', 'c-epoll', 'c-epoll'),
    /^window\.js: c-epoll is named twice; name each server once/)
  const reference = path.join(ROOT, 'results', 'reference')
  assertRefused(docs('reproducibility/2026-11-30-amd-noisy/within-run.js', reference, '255'),
    /^within-run\.js: \S+ holds 256, 4096, 65536 B, not 255; give one of them/)
  const dbLog = path.join(ROOT, 'docs/db/2026-12-07-review/dd-all.jsonl.gz')
  assertRefused(docs('db/2026-11-30/gaps.js', dbLog, '--only', 'nope'),
    /^gaps\.js: --only nope: no such server in \S+; it has c-libpq-prepared-pipelined, /)
  assertRefused(docs('method/cost-rounds.js', '6', reference, reference),
    /^cost-rounds\.js: \S+ is given twice in a pair; compare two different runs/)
  // a run set against itself agrees to the last digit: refused, as analyse.js refuses it
  const hc = path.join(ROOT, 'docs/http/2026-12-07-time/hc-results.json.gz')
  assertRefused(docs('http/2026-11-30/moves.js', hc, hc),
    /^moves\.js: \S+hc-results\.json\.gz is given twice; compare two different runs/)
  assertRefused(docs('calls/2026-11-28-turns/ratio-moves.js', reference, `${reference}/`),
    /^ratio-moves\.js: \S+ is given twice; compare two different runs/)
  assertRefused(docs('db/2026-11-30/drift-noise.js', '99999999999'),
    /^drift-noise\.js: trials must be a whole number from 1 to 1000000, not '99999999999'/)
  assertRefused(docs('http/2026-12-01/resets-first.js', '--runs', '99999'),
    /^resets-first\.js: --runs must be a whole number from 1 to 1000, not '99999'/)
  // a run of another experiment, which lacks what the script reads: one line, not a stack (a review)
  const calls = path.join(ROOT, 'test/fixtures/results/calls-sample/results.json')
  const referenceCalls = path.join(ROOT, 'results/reference-calls/results.json')
  assertRefused(docs('calls/2026-12-05-halves/halves.js', calls, referenceCalls),
    /^halves\.js: what was given lacks what halves\.js reads \(.*\); give what its usage names \(usage: node /)
  const db = path.join(ROOT, 'test/fixtures/results/db-sample/results.json')
  assertRefused(docs('db/2026-11-30/semi-space.js', db),
    /^semi-space\.js: what was given lacks what semi-space\.js reads \(.*\); give what its usage names/)
  // two runs with no rung in common: nothing to say, not "0 of 0 within 2%, median move NaN%"
  assertRefused(docs('calls/2026-11-30/estimators.js', calls, referenceCalls),
    /^estimators\.js: the two runs share no rung taken in turns with C in 4 processes or more; /)
  assertRefused(docs('calls/2026-12-04-amd/estimators.js', calls, referenceCalls),
    /^estimators\.js: \S+ and \S+ share no rung of the ladder to compare; /)
})

// a review (2026-12-06) found stack traces where a file held JSON's null, a fix that could not
// be followed, and block sizes refused without naming their option
test('a study given a file that holds no run, or a block size out of range: one line naming the fix', () => {
  const study = name => (...args) => spawnSync(process.execPath, [path.join(STUDIES, name), ...args],
    { cwd: scratch, encoding: 'utf8', timeout: 20000 })
  const nothing = path.join(scratch, 'null-run')
  fs.mkdirSync(nothing, { recursive: true })
  fs.writeFileSync(path.join(nothing, 'results.json'), 'null')
  const nullLine = path.join(scratch, 'null.jsonl')
  fs.writeFileSync(nullLine, 'null\n')
  assertRefused(study('reader-ratio.js')(nothing, 'c', 'node-sync'),
    /^reader-ratio\.js: .*null-run\/results\.json is not a bench\.js results file; give the folder of a stdio run$/)
  assertRefused(study('profile.js')('--ladder', nothing),
    /^profile\.js: .*null-run\/results\.json holds null, not a JSON object; give a calls run's results\.json/)
  const stdioRun = path.join(scratch, 'stdio-run')
  fs.mkdirSync(stdioRun, { recursive: true })
  fs.writeFileSync(path.join(stdioRun, 'results.json'), '{"experiment":"stdio"}')
  assertRefused(study('profile.js')('--ladder', stdioRun),
    /^profile\.js: --ladder: .*stdio-run\/results\.json holds no call ladder: name a run of node bench\.js /)
  assertRefused(study('paired-cost.js')('--from', nullLine),
    /^paired-cost\.js: --from: .*null\.jsonl line 1 is not a run of paired-cost\.js; give a file written by --raw$/)
  // corrupt, and no log to rewrite it from: --rederive would fail too, so it is not offered
  fs.writeFileSync(path.join(nothing, 'results.json'), '{')
  // profile.js once printed a parser's message over two lines
  assertRefused(study('profile.js')('--ladder', nothing), /^profile\.js: .*null-run\/results\.json is not JSON \(/)
  assertRefused(study('reader-ratio.js')(nothing, 'c', 'node-sync'),
    /is corrupt: not valid JSON .*; without its all\.jsonl it cannot be rewritten: measure it again$/)
  assertRefused(study('read-kernel.js')('--sizes', '3'), /^read-kernel\.js: --sizes: block size 3 is out of range/)
  assertRefused(study('tracer-cost.js')('--size', '3'), /^tracer-cost\.js: --size: block size 3 is out of range/)
  assertRefused(study('pages.js')('--widths', '1e3'), /--widths takes whole numbers of px from 200 to 7680, not '1e3'/)
})

// tracer-cost.js once made its scratch folder before it found its tracers missing, and left it
test('tracer-cost.js without syscount and bpftrace: one line naming the packages, nothing left in TMPDIR', t => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-tmpdir-'))
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-bin-'))
  t.after(() => { fs.rmSync(tmp, { recursive: true, force: true }); fs.rmSync(bin, { recursive: true, force: true }) })
  // a PATH with a shell and nothing else: no tracer on it
  fs.symlinkSync('/bin/sh', path.join(bin, 'sh'))
  const result = spawnSync(process.execPath, [path.join(STUDIES, 'tracer-cost.js'), '--rounds', '1'],
    { cwd: scratch, encoding: 'utf8', timeout: 20000, env: { ...process.env, PATH: bin, TMPDIR: tmp } })
  assertRefused(result, /^tracer-cost\.js: syscount and bpftrace not installed: apt-get install libbpf-tools bpftrace$/)
  assert.deepEqual(fs.readdirSync(tmp), [])
})

describe('a study that writes into a folder (--out DIR)', () => {
  // pages.js --out '' once wrote its reports into the checkout, profile.js --out /proc/x spun
  // for ever in a recursive mkdir, and profile.js made its folder before checking the rest
  const refusals = {
    'pages.js': [[path.join(scratch, 'no-run')], /no-run does not exist; name a run's folder/],
    'profile.js': [['--rounds', '0'], /--rounds must be a whole number of at least 1, not '0'/]
  }
  for (const [study, [later, laterMessage]] of Object.entries(refusals)) {
    test(`studies/${study}: an empty --out, one on /proc or a file is refused, and no folder is left`, () => {
      const file = path.join(scratch, 'a-file')
      fs.writeFileSync(file, '')
      const tmp = fs.mkdtempSync(path.join(scratch, 'tmp-'))
      const run = args => spawnSync(process.execPath, [path.join(STUDIES, study), ...args],
        { cwd: scratch, encoding: 'utf8', timeout: 20000, env: { ...process.env, TMPDIR: tmp } })
      assertRefused(run(['--out', '']), /--out is empty; give a folder/)
      assertRefused(run(['--out', '/proc/x/y']), /--out \/proc\/x\/y: \/proc is on proc/)
      assertRefused(run(['--out', file]), /is a file, not a folder/)
      assertRefused(run(later), laterMessage)
      assert.deepEqual(fs.readdirSync(tmp), [], 'no folder made for a refused command')
    })
  }

  // a corrupt run once ended pages.js with exit 1, its name said twice, and an empty folder
  // left in /tmp
  test('studies/pages.js: a corrupt run is refused in analyse.js\'s words, and no folder is left', () => {
    const run = path.join(scratch, 'corrupt-run')
    fs.mkdirSync(run, { recursive: true })
    fs.writeFileSync(path.join(run, 'results.json'), '{')
    const tmp = fs.mkdtempSync(path.join(scratch, 'tmp-'))
    const result = spawnSync(process.execPath, [path.join(STUDIES, 'pages.js'), run],
      { cwd: scratch, encoding: 'utf8', timeout: 20000, env: { ...process.env, TMPDIR: tmp } })
    // no all.jsonl beside it, so no --rederive is offered: it could not rewrite it
    assertRefused(result, new RegExp('^pages\\.js: \\S+corrupt-run/results\\.json is corrupt: not valid JSON .*; ' +
      'without its all\\.jsonl it cannot be rewritten: measure it again$'))
    assert.deepEqual(fs.readdirSync(tmp), [], 'no folder left for a refused run')
  })

  // pages.js measured every page and said nothing of what it found: the lab's own limits now
  // judge each page, a failing one is named and the command exits 1 (a review). Two runs of
  // one name once wrote one report over the other.
  test('studies/pages.js: a page that reads at a glance exits 0, one that does not exits 1, named', () => {
    const http = path.join(ROOT, 'results', 'reference-http')
    const twin = path.join(scratch, 'twin', 'reference-http')
    fs.mkdirSync(path.dirname(twin), { recursive: true })
    fs.cpSync(http, twin, { recursive: true })
    const out = path.join(scratch, 'pages-out')
    const pages = (...args) => spawnSync(process.execPath, [path.join(STUDIES, 'pages.js'), '--out', out, ...args],
      { cwd: scratch, encoding: 'utf8', timeout: 120000 })
    const whole = pages('--widths', '1280', http, twin)
    assert.equal(whole.status, 0, whole.stdout + whole.stderr)
    assert.match(whole.stdout, /^all 2 pages read at a glance$/m)
    const reports = fs.readdirSync(out).filter(name => !name.endsWith('.png')).sort()
    assert.deepEqual(reports, ['reference-http-1', 'reference-http-2'])
    // 200 px: the answer past the first screen, among others
    const narrow = pages('--widths', '200', http)
    assert.equal(narrow.status, 1, narrow.stdout + narrow.stderr)
    assert.match(narrow.stdout, /^1 of 1 pages do not read at a glance: reference-http at 200 px$/m)
  })
})

describe('--only: names and patterns', () => {
  test('studies/file-cost.js: the same rule; C first, readers a pattern picks that cannot read a file of blocks skipped with why', () => {
    const sync = programs.filter(program => program.name.endsWith('-sync'))
    const runnable = sync.filter(program => program.honoursBlockSize && unavailableReason(program) === null && fileFeedReason(program) === null)
    assert.ok(runnable.some(program => program.name === 'node-sync'), 'node-sync runs here')
    const result = node([FILE_COST, '--only', '*-sync', '--sizes', '1024', '--mib', '1', '--rounds', '1'])
    assert.equal(result.status, 0, result.stderr)
    const rows = result.stdout.trim().split('\n').slice(1).filter(line => /^\S+ +1024 /.test(line)).map(line => line.split(/\s+/)[0])
    assert.deepEqual(rows, ['c', ...runnable.map(program => program.name)])
    for (const program of sync.filter(program => !runnable.includes(program))) assert.match(result.stderr, new RegExp(`^file-cost\\.js: skipping ${program.name}: it `, 'm'))

    const exact = node([FILE_COST, '--only', 'just-async', '--sizes', '1024', '--mib', '1', '--rounds', '1'])
    assertRefused(exact, /^file-cost\.js: just-async cannot read a file: it reads only a pipe/)
    assertRefused(node([FILE_COST, '--only', 'cobol*']), /^file-cost\.js: --only cobol\* matches no program; the programs are: c, limit-splice, /)
  })
})

describe('a failed cell', () => {
  test('the command bench prints for it measures that cell again, and only it, as the run did', () => {
    const out = folder('rerun')
    const first = bench(['--only', 'c', '--only', 'fixture-miscount', '--sizes', '4096,65536', '--runs', '2', '--warmup', '0', '--mib', '1', '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'first'], { LAB_EXTRA_PROGRAMS: EXTRA })
    assert.equal(first.status, 1, first.stderr + first.stdout)
    const commandsOf = stdout => stdout.split(/measure (?:the|a) failed cell again in the lab:\n/)[1]?.split('\n\n')[0].split('\n').map(line => line.trim())
    const lab = `LAB_EXTRA_PROGRAMS=${EXTRA} node bench.js --only fixture-miscount`
    const options = '--runs 2 --warmup 0 --mib 1 --no-strace --no-gc --no-cost'
    // start-up runs are made at the largest size, so their failures are that cell's
    assert.deepEqual(commandsOf(first.stdout), [`${lab} --sizes 65536 ${options}`, `${lab} --sizes 4096 ${options}`])

    const command = commandsOf(first.stdout)[1]
    const again = spawnSync('sh', ['-c', `${command} --out ${out} --id again`], { cwd: ROOT, encoding: 'utf8', timeout: 120000 })
    assert.equal(again.status, 1, again.stderr + again.stdout)
    const log = readLog(path.join(out, 'again', 'all.jsonl'))
    assert.deepEqual(log.map(record => [record.phase, record.program, record.blockSize, record.bytes, record.ok]), [
      ['startup', 'fixture-miscount', 4096, 0, false], ['startup', 'fixture-miscount', 4096, 0, false],
      ['timing', 'fixture-miscount', 4096, 1 << 20, false], ['timing', 'fixture-miscount', 4096, 1 << 20, false]])
    const failed = readLog(path.join(out, 'first', 'all.jsonl')).filter(record => record.program === 'fixture-miscount' && record.phase === 'timing' && record.blockSize === 4096)
    assert.deepEqual(log.filter(record => record.phase === 'timing').map(record => record.command), failed.map(record => record.command), 'the same pipeline')
    assert.deepEqual(commandsOf(again.stdout), [command], 'and its own failure points at the same command')
  })
})

describe('analyse.js: a results.json of another run', () => {
  const fixture = name => path.join(ROOT, 'test', 'fixtures', 'results', name)
  // one once came out as a db report under an http run's name, exit 0
  test('is refused, naming both files and the fix', () => {
    const mixed = path.join(scratch, 'mixed')
    fs.cpSync(fixture('http-sample'), mixed, { recursive: true })
    fs.copyFileSync(path.join(fixture('db-sample'), 'results.json'), path.join(mixed, 'results.json'))
    assertRefused(analyse([mixed, '--out', path.join(scratch, 'mixed-report')]),
      new RegExp(`^analyse\\.js: ${escaped(mixed)}/results\\.json is of the db experiment but ` +
        `${escaped(mixed)}/context\\.json of http: they are not of one run; ` +
        'put back the run\'s own files, or measure it again$'))
    const renamed = path.join(scratch, 'renamed')
    fs.cpSync(fixture('http-sample'), renamed, { recursive: true })
    const results = readJson(path.join(renamed, 'results.json'))
    fs.writeFileSync(path.join(renamed, 'results.json'), JSON.stringify({ ...results, runId: 'another' }))
    assertRefused(analyse([renamed, '--out', path.join(scratch, 'renamed-report')]),
      /results\.json is of the run another but .*context\.json of b: they are not of one run/)
    assert.equal(fs.existsSync(path.join(scratch, 'mixed-report')), false)
  })

  test('one run given twice is refused: it would agree with itself', () => {
    const run = fixture('http-sample')
    assertRefused(analyse([run, `${run}/`, '--out', path.join(scratch, 'twice')]),
      new RegExp(`^analyse\\.js: ${escaped(run)} is given twice; compare two different runs$`))
    // and where one of them came from, when it was found in a folder of runs
    const runs = path.join(scratch, 'runs')
    fs.cpSync(run, path.join(runs, 'http-sample'), { recursive: true })
    assertRefused(analyse([runs, path.join(runs, 'http-sample'), '--out', path.join(scratch, 'twice-2')]),
      new RegExp(`^analyse\\.js: ${escaped(runs)}/http-sample is given twice ` +
        `\\(found under ${escaped(runs)}\\); compare two different runs$`))
    // a copy of it elsewhere agreed with it too: "met; median 0%, at most 0%" (a review)
    const copy = path.join(scratch, 'copied', 'http-sample')
    fs.cpSync(run, copy, { recursive: true })
    const { runId, date } = readJson(path.join(run, 'context.json'))
    assertRefused(analyse([run, copy, '--out', path.join(scratch, 'copied-report')]),
      new RegExp(`^analyse\\.js: ${escaped(copy)} is a copy of ${escaped(run)} \\(the run ${runId}, begun ` +
        `${escaped(date)}\\); compare two different runs$`))
    assert.equal(fs.existsSync(path.join(scratch, 'copied-report')), false)
  })
})

describe('analyse.js: a run cut short, and --rederive', () => {
  const copyOf = dir => {
    const copy = path.join(folder('copy'), path.basename(dir))
    fs.cpSync(dir, copy, { recursive: true })
    return copy
  }
  // the log less its last `count` runs: a run measured again after foreign CPU time left
  // a superseded record too, which counts as no run
  const dropRuns = (file, count) => {
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n')
    const runs = lines.map((line, at) => ({ at, superseded: JSON.parse(line).superseded })).filter(line => !line.superseded)
    fs.writeFileSync(file, lines.slice(0, runs[runs.length - count].at).join('\n') + '\n')
  }

  test('a run whose log holds fewer runs than its bench planned is refused, or with --incomplete reported and marked so', () => {
    const out = folder('incomplete')
    const dir = path.join(out, 'run')
    assert.equal(bench(['--only', 'c', '--sizes', '4096', '--runs', '3', '--warmup', '0', '--mib', '1', '--no-strace', '--no-gc', '--no-cost', '--out', out, '--id', 'run']).status, 0)
    assert.deepEqual(readJson(path.join(dir, 'context.json')).plannedRuns, { startup: 3, timing: 3 })
    assert.equal(analyse([dir]).status, 0, 'a whole run is reported')

    // as a bench stopped after its fourth run leaves it
    dropRuns(path.join(dir, 'all.jsonl'), 2)
    assert.equal(node([ANALYSE, '--rederive', dir]).status, 0)
    assertRefused(analyse([dir, '--out', path.join(out, 'report')]),
      new RegExp(`^analyse\\.js: ${dir} is incomplete: its log holds 4 of the 6 runs its bench planned; finish it with node bench\\.js --resume ${dir}, or report it as it is with --incomplete$`))
    assert.equal(fs.existsSync(path.join(out, 'report')), false, 'nothing written')

    const marked = analyse([dir, '--incomplete', '--out', path.join(out, 'report')])
    assert.equal(marked.status, 0, marked.stderr)
    assert.match(fs.readFileSync(path.join(out, 'report', 'results.md'), 'utf8'), /^# syscall-lab: run \(incomplete: run holds 4 of the 6 runs its bench planned\)\n/)
    assert.match(fs.readFileSync(path.join(out, 'report', 'report.html'), 'utf8'), /<title>syscall-lab: run \(incomplete: run holds 4 of the 6 runs its bench planned\)<\/title>/)

    const resumed = bench(['--resume', dir])
    assert.equal(resumed.status, 0, resumed.stderr + resumed.stdout)
    assert.equal(analyse([dir]).status, 0, 'finished by --resume, it is reported')
  })

  test('a run that recorded no plan (made before bench.js recorded one) is reported as it is', () => {
    assert.equal(readJson(path.join(SAMPLE, 'context.json')).plannedRuns, undefined)
    const result = analyse([SAMPLE, '--out', folder('no-plan')])
    assert.equal(result.status, 0, result.stderr)
  })

  test('--rederive rewrites the derived files from all.jsonl with experiments/stdio/summary.js, measuring nothing', () => {
    const run = copyOf(SAMPLE)
    for (const file of ['results.json', 'syscalls.json']) fs.rmSync(path.join(run, file))
    fs.writeFileSync(path.join(run, 'gc.json'), 'not json')
    const before = fs.readFileSync(path.join(run, 'all.jsonl'), 'utf8')
    const result = node([ANALYSE, '--rederive', run])
    assert.equal(result.status, 0, result.stderr)
    const derived = 'results.json, syscalls.json, gc.json and profile.json'
    assert.equal(result.stdout, `rewrote ${derived} in ${run} from the 237 runs of its all.jsonl\n`)
    assert.equal(fs.readFileSync(path.join(run, 'all.jsonl'), 'utf8'), before, 'the log is left as it was')
    const records = readLog(path.join(run, 'all.jsonl'))
    const context = readJson(path.join(run, 'context.json'))
    assert.deepEqual(readJson(path.join(run, 'results.json')), JSON.parse(JSON.stringify(summariseResults(records, context))))
    assert.deepEqual(readJson(path.join(run, 'syscalls.json')), JSON.parse(JSON.stringify(summariseSyscalls(records, context))))
    // the GC timelines read again from the traces the run kept (each pause and its kind)
    assert.deepEqual(readJson(path.join(run, 'gc.json')), JSON.parse(JSON.stringify(summariseGcResults(records, context, run))))
    // an older run had no profile pass: its profile.json is written, with no cells
    assert.deepEqual(readJson(path.join(run, 'profile.json')).cells, [])
    const files = [...fs.readdirSync(SAMPLE), 'profile.json'].sort()
    assert.deepEqual(fs.readdirSync(run).sort(), files, 'no report, no other file')
    assert.equal(analyse([run, '--out', folder('rederived')]).status, 0)
  })

  // a log cut mid-write once lost its last run without a word
  test('--rederive says when its log\'s last line was cut off mid-write, and leaves it out', () => {
    const run = copyOf(SAMPLE)
    const log = path.join(run, 'all.jsonl')
    const text = fs.readFileSync(log, 'utf8')
    const cut = text.slice(0, text.length - 40)
    fs.writeFileSync(log, cut)
    const result = node([ANALYSE, '--rederive', run])
    assert.equal(result.status, 0, result.stderr)
    const lastLine = cut.slice(cut.lastIndexOf('\n') + 1)
    assert.equal(result.stdout.split('\n')[1], 'note: the last line of its all.jsonl was cut off mid-write ' +
      `(${Buffer.byteLength(lastLine)} bytes) and is left out; node bench.js --resume ${run} measures that run again`)
    assert.match(result.stdout, /from the 236 runs of its all\.jsonl/)
  })

  test('--rederive refuses a run being measured, a folder without a log, and options of a report', () => {
    const run = copyOf(SAMPLE)
    const lock = acquireRunLock(run, { makeError: message => new Error(message), note: message => assert.fail(message) })
    try {
      assertRefused(node([ANALYSE, '--rederive', run]), new RegExp(`^analyse\\.js: ${run} is being measured by bench\\.js \\(pid ${process.pid}\\) since \\S+; wait for it or stop it, then rederive it$`))
    } finally {
      lock.release()
    }
    const noLog = copyOf(SAMPLE)
    fs.rmSync(path.join(noLog, 'all.jsonl'))
    assertRefused(node([ANALYSE, '--rederive', noLog]),
      /has no all\.jsonl, the log the other files are derived from; give a run folder bench\.js wrote$/)
    // kept gzipped, as docs/ keeps its runs' logs: it says to gunzip it
    fs.writeFileSync(path.join(noLog, 'all.jsonl.gz'), zlib.gzipSync('{}\n'))
    assertRefused(node([ANALYSE, '--rederive', noLog]), /has no all\.jsonl, .*; gunzip its all\.jsonl\.gz first$/)
    // a log emptied, or holding one line of something else: nothing is rewritten (a review: its
    // results.json became a run of nothing, exit 0)
    for (const [label, text] of [['empty', ''], ['garbage', 'garbage']]) {
      const emptied = copyOf(SAMPLE)
      fs.writeFileSync(path.join(emptied, 'all.jsonl'), text)
      const before = fs.readFileSync(path.join(emptied, 'results.json'), 'utf8')
      assertRefused(node([ANALYSE, '--rederive', emptied]), new RegExp(`^analyse\\.js: ${emptied}/all\\.jsonl ` +
        'holds no run.*, so its derived files are left as they were; restore it from a copy of the run$'))
      assert.equal(fs.readFileSync(path.join(emptied, 'results.json'), 'utf8'), before, label)
    }
    assertRefused(node([ANALYSE, '--rederive']), /^analyse\.js: --rederive needs the results\/<run-id> folders to rewrite$/)
    assertRefused(node([ANALYSE, '--rederive', run, '--out', scratch]), /^analyse\.js: --rederive rewrites a run's own files and writes no report; drop --out$/)
  })

  // A review (2026-12-06) gave an http run the calls reference's context.json: --rederive
  // wrote a calls results.json with no cells over the http one and exited 0, and --resume would
  // have appended calls runs to its http log. A record its experiment never makes is refused,
  // before anything is written; a line that is an object but no run ({}) the same.
  test('--rederive, a report and --resume refuse a log of another experiment than context.json names', () => {
    const run = copyOf(path.join(ROOT, 'results', 'reference-http'))
    // the calls reference's context, its ladder C's alone, so that a machine without wasmer (a
    // fresh one) can resume it up to its log, and this machine's own facts, so that --resume
    // does not refuse it as begun on another (the fresh-machine test's root is one)
    const calls = readJson(path.join(ROOT, 'results', 'reference-calls', 'context.json'))
    const onlyC = list => list.filter(entry => entry.name === 'c')
    fs.writeFileSync(path.join(run, 'context.json'), JSON.stringify({
      ...calls, ladderVariants: onlyC(calls.ladderVariants), programs: onlyC(calls.programs), machine: machineFacts()
    }))
    const before = fs.readdirSync(run).map(name => [name, fs.statSync(path.join(run, name)).mtimeMs])
    const refusal = new RegExp(`^(analyse|bench)\\.js: ${run}/all\\.jsonl holds a run of phase 'http' at line 1, ` +
      'which no run of the calls experiment its context\\.json names makes: restore the run\'s own context\\.json ' +
      'and log, or measure again$')
    assertRefused(node([ANALYSE, '--rederive', run]), refusal)
    // as on a machine without wasmer (WASMER= nowhere), as a fresh one is
    assertRefused(bench(['--resume', run], { WASMER: '/nonexistent/wasmer' }), refusal)
    assert.deepEqual(fs.readdirSync(run).map(name => [name, fs.statSync(path.join(run, name)).mtimeMs]), before,
      'nothing written, nothing added')
    const noRun = copyOf(SAMPLE)
    const log = path.join(noRun, 'all.jsonl')
    const lines = fs.readFileSync(log, 'utf8').split('\n')
    fs.writeFileSync(log, [lines[0], '{}', ...lines.slice(1)].join('\n'))
    assertRefused(node([ANALYSE, '--rederive', noRun]),
      /^analyse\.js: \S+ holds a record with no phase at line 2, which no run of the stdio experiment/)
    // a derived file it cannot replace: one line, and no temporary file left beside it
    const folderInPlace = copyOf(SAMPLE)
    fs.rmSync(path.join(folderInPlace, 'results.json'))
    fs.mkdirSync(path.join(folderInPlace, 'results.json'))
    const files = fs.readdirSync(folderInPlace).sort()
    assertRefused(node([ANALYSE, '--rederive', folderInPlace]), new RegExp('^analyse\\.js: --rederive ' +
      `${folderInPlace}: cannot write ${folderInPlace}/results\\.json \\(EISDIR\\); make it a file this ` +
      'user may replace, then rederive it$'))
    assert.deepEqual(fs.readdirSync(folderInPlace).sort(), files)
    // a log or a context that is a folder: what it is and the fix, not a permission's
    const logFolder = copyOf(SAMPLE)
    fs.rmSync(path.join(logFolder, 'all.jsonl'))
    fs.mkdirSync(path.join(logFolder, 'all.jsonl'))
    assertRefused(node([ANALYSE, '--rederive', logFolder]), new RegExp(`^analyse\\.js: ${logFolder}/all\\.jsonl is a ` +
      'folder, not a run\'s log; put back the run\'s own all\\.jsonl$'))
    const contextFolder = copyOf(SAMPLE)
    fs.rmSync(path.join(contextFolder, 'context.json'))
    fs.mkdirSync(path.join(contextFolder, 'context.json'))
    assertRefused(analyse([contextFolder, '--out', folder('context-folder')]),
      /context\.json is a folder, not a file; bench\.js writes it when a run starts: restore it, or measure again$/)
  })

  // valid JSON of another shape met a report that read a field of each entry: a stack trace
  test('a results.json whose lists do not hold runs is refused in one line, naming --rederive', () => {
    const run = copyOf(SAMPLE)
    const file = path.join(run, 'results.json')
    const results = readJson(file)
    fs.writeFileSync(file, JSON.stringify({ ...results, failures: 'x' }))
    assertRefused(analyse([run, '--out', folder('bad-failures')]), new RegExp(`^analyse\\.js: ${file} is not a ` +
      `bench\\.js results file \\(its failures are not a list of runs\\); node analyse\\.js --rederive ${run} ` +
      'rewrites it from all\\.jsonl$'))
    fs.writeFileSync(file, JSON.stringify({ ...results, cells: [null] }))
    assertRefused(analyse([run, '--out', folder('bad-cells')]), /\(no list of cells\); node analyse\.js --rederive /)
  })
})

// The analysis scripts kept beside the dated studies are commands too: every file of docs/
// whose header runs it as `node docs/...` (found by its header, as the studies are) answers
// --help, and refuses a flag it does not take in one line (docs/script-args.js).
// every script file of docs/, by its path from the lab's root
const docsFiles = () => fs.readdirSync(path.join(ROOT, 'docs'), { recursive: true })
  .filter(file => /\.m?js$/.test(file)).map(file => `docs/${file.split(path.sep).join('/')}`).sort()
const docsScripts = () => docsFiles().filter(file => file.endsWith('.js'))
  .filter(own => {
    const header = fs.readFileSync(path.join(ROOT, own), 'utf8').split('\n').slice(0, 40).join('\n')
    return new RegExp(`(?:^|\\s)node ${escaped(own)}(?: |$)`, 'm').test(header)
  })
test('a script of docs/ run by node docs/...: --help prints its usage, exit 0; --bogus one line on stderr, exit 2', () => {
  const scripts = docsScripts()
  assert.notEqual(scripts.length, 0, 'no script of docs/ says it is run by node')
  const before = fs.readdirSync(scratch)
  const failures = []
  for (const own of scripts) {
    const run = flag => spawnSync(process.execPath, [path.join(ROOT, own), flag], { cwd: scratch, encoding: 'utf8', timeout: 60000 })
    const help = run('--help')
    if (help.status !== 0 || help.stderr !== '' || !new RegExp(`^usage: node ${escaped(own)}(?: |\n)`).test(help.stdout)) {
      failures.push(`${own} --help: exit ${help.status}, stdout ${JSON.stringify(help.stdout.slice(0, 120))}, stderr ${JSON.stringify(help.stderr.slice(0, 300))}`)
    }
    const bogus = run('--bogus')
    if (bogus.status !== 2 || bogus.stdout !== '' || !/^[^\n]*--bogus[^\n]*\n$/.test(bogus.stderr)) {
      failures.push(`${own} --bogus: exit ${bogus.status}, stdout ${JSON.stringify(bogus.stdout.slice(0, 120))}, stderr ${JSON.stringify(bogus.stderr.slice(0, 300))}`)
    }
  }
  assert.deepEqual(failures, [])
  assert.deepEqual(fs.readdirSync(scratch), before, 'nothing written where they ran')
})

// The other files of docs/ (readers a runtime runs, tables of rows, shared modules) say so in
// one line when node runs them, as studies/'s do. Two cannot: Bun's listings whose form is the
// measurement (an ES module's top level, an import as it was), whose static import of bun:ffi
// fails in Node before any line runs; a guard would make them CommonJS, another form.
const BUN_MODULE_LISTINGS = ['docs/fastest/bun-ffi-before.js', 'docs/fastest/bun-ffi-top.js']
test('a file of docs/ that is not run by node: --help says what it is in one line, exit 2', () => {
  const commands = new Set(docsScripts())
  const others = docsFiles().filter(own => !commands.has(own) && !BUN_MODULE_LISTINGS.includes(own))
  assert.ok(others.length >= 10, others.join(', '))
  const failures = others.map(own => [own, spawnSync(process.execPath, [path.join(ROOT, own), '--help'],
    { cwd: scratch, encoding: 'utf8', timeout: 60000 })])
    .filter(([own, result]) => result.status !== 2 || result.stdout !== '' ||
      !new RegExp(`^${escaped(path.basename(own))} is not a command: .*\\brun\\b.*\n$`).test(result.stderr))
    .map(([own, result]) => `${own}: exit ${result.status}, stderr ${JSON.stringify(result.stderr.slice(0, 200))}`)
  assert.deepEqual(failures, [])
})

// Scripts that once ended 0 having done nothing: rounds.js given a reader its run never
// measured, reset.js with nothing listening on its port.
test('docs/ scripts refuse what they cannot do: a reader a run lacks, a port nothing listens on', () => {
  const rounds = path.join(ROOT, 'docs/reproducibility/2026-12-04-amd/rounds.js')
  const s1 = path.join(ROOT, 'docs/reproducibility/2026-12-04-amd/stdio-s1-results.json.gz')
  assertRefused(spawnSync(process.execPath, [rounds, 'cobol-sync', '256', s1], { encoding: 'utf8' }),
    /^rounds\.js: \S+ holds no reader cobol-sync; give one of c, .*node-sync, /)
  assertRefused(spawnSync(process.execPath, [rounds, 'node-sync', '300', s1], { encoding: 'utf8' }),
    /^rounds\.js: \S+ holds node-sync at 256, 4096, 65536 B, not 300; give one of those/)
  // a stdio run's results.json, whose cells are its own: once a TypeError's stack
  const moves = path.join(ROOT, 'docs/http/2026-11-30/moves.js')
  const stdio = path.join(ROOT, 'results/reference/results.json')
  // (two runs: one given twice is refused for that first)
  const another = path.join(ROOT, 'test/fixtures/results/sample/results.json')
  assertRefused(spawnSync(process.execPath, [moves, stdio, another], { encoding: 'utf8' }),
    /^moves\.js: \S+results\.json holds no http cells; give an http run's results\.json/)
  // a port nothing listens on: one the test held and let go
  const reset = path.join(ROOT, 'docs/http/2026-12-03/reset.js')
  const held = spawnSync(process.execPath, ['-e', 'const s = require("node:net").createServer()' +
    '.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close() })'], { encoding: 'utf8' })
  const port = held.stdout.trim()
  const result = spawnSync(process.execPath, [reset, port], { encoding: 'utf8', timeout: 20000 })
  assert.equal(result.status, 1, result.stderr)
  assert.equal(result.stderr, `reset.js: cannot connect to 127.0.0.1:${port} (ECONNREFUSED); ` +
    'start the server on that port first\n')
})

// docs/db's profiles once died of SIGTERM with their cluster's folder and shared memory left
// behind; a stop now ends the profile and what it started (docs/db/under-wrk.js).
test('docs/db/2026-12-04-commits/profile.js stopped by SIGTERM: exit 130, its cluster, shared memory ' +
  'and processes gone', async () => {
  // a TMPDIR of its own, which the cluster's owner can reach (the scratch folder is root's alone)
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-tmpdir-'))
  fs.chmodSync(tmp, 0o755)
  const segments = () => fs.readFileSync('/proc/sysvipc/shm', 'utf8').trim().split('\n').length
  const segmentsBefore = segments()
  const script = path.join(ROOT, 'docs/db/2026-12-04-commits/profile.js')
  const child = spawn(process.execPath, [script, 'c', path.join(scratch, 'commits.data')],
    { cwd: scratch, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: tmp } })
  let stderr = ''
  child.stderr.on('data', chunk => { stderr += chunk })
  const exited = new Promise(resolve => child.on('close', code => resolve(code)))
  const descendants = pid => childrenPids(pid).flatMap(each => [each, ...descendants(each)])
  const nameOf = pid => { try { return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() } catch { return '' } }
  // stopped once wrk's warm-up runs: the cluster, the server and wrk all started
  await waitFor(() => descendants(child.pid).some(pid => nameOf(pid) === 'wrk') || child.exitCode !== null,
    60000, 'wrk\'s warm-up')
  const started = descendants(child.pid)
  assert.equal(fs.readdirSync(tmp).length, 1, `its cluster's folder is made in TMPDIR: ${stderr}`)
  child.kill('SIGTERM')
  assert.equal(await exited, 130, stderr)
  assert.equal(stderr.trim().split('\n').pop(), 'profile.js: stopped (stopped before its run under wrk ended)')
  assert.deepEqual(fs.readdirSync(tmp), [], 'the cluster\'s folder is gone')
  assert.equal(segments(), segmentsBefore, 'its shared memory is gone')
  assert.deepEqual(started.filter(pid => fs.existsSync(`/proc/${pid}`)), [], 'every process it started has ended')
  fs.rmdirSync(tmp)
})

// docs/db's profiles once ran their whole 10 s for a perf that could not write OUT.data, said
// nothing of it and ended 0; a folder given as OUT.data perf moved away to OUT.data.old.
test('docs/db profiles: an OUT.data that cannot be written is refused before anything starts', () => {
  const scripts = [['2026-12-04-utf8/profile.js'], ['2026-12-04-commits/profile.js', 'c']]
  for (const [script, ...server] of scripts) {
    const own = path.join(ROOT, 'docs/db', script)
    const tried = out => spawnSync(process.execPath, [own, ...server, out],
      { cwd: scratch, encoding: 'utf8', timeout: 20000 })
    assertRefused(tried(scratch), new RegExp(`^profile\\.js: ${escaped(scratch)} is a folder; give a file in it`))
    assertRefused(tried('/proc/x.data'), /^profile\.js: \/proc\/x\.data: \/proc is on proc, /)
    assertRefused(tried(path.join(scratch, 'none', 'x.data')),
      /does not exist; make it, or give a file in a folder that does/)
    assertRefused(tried(''), /^profile\.js: OUT\.data: is empty; give a file/)
  }
})

test('docs/db profile: a perf that fails fails the profile, one line, exit 1, nothing left', t => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-tmpdir-'))
  fs.chmodSync(tmp, 0o755)
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-bin-'))
  t.after(() => { fs.rmSync(tmp, { recursive: true, force: true }); fs.rmSync(bin, { recursive: true, force: true }) })
  // a perf that refuses, as one that cannot write its file does, ahead of the real one
  fs.writeFileSync(path.join(bin, 'perf'), '#!/bin/sh\necho "failed to open $6" >&2\nexit 255\n', { mode: 0o755 })
  const perfMaps = () => fs.readdirSync('/tmp').filter(name => /^perf-\d+\.map$/.test(name))
  const mapsBefore = perfMaps()
  const result = spawnSync(process.execPath, [path.join(ROOT, 'docs/db/2026-12-04-utf8/profile.js'),
    path.join(scratch, 'utf8.data')], {
    cwd: scratch,
    encoding: 'utf8',
    timeout: 60000,
    env: { ...process.env, TMPDIR: tmp, PATH: `${bin}:${process.env.PATH}` }
  })
  assert.equal(result.status, 1, result.stderr)
  assert.equal(result.stderr.trim().split('\n').pop(), 'profile.js: perf record exited 255: its lines above say why')
  assert.deepEqual(fs.readdirSync(tmp), [], 'the cluster\'s folder is gone')
  assert.deepEqual(perfMaps().filter(name => !mapsBefore.includes(name)), [], 'the server\'s perf map is gone')
})

// A file of the wrong kind is refused as a missing one is (docs/script-args.js readJson,
// readJsonLines, need): a script of docs/ that reads files, given a text file, a JSON object of
// another shape, a JSON list or a .gz that is not gzip for each file it reads, or a folder whose
// files are such, says in one line what is wrong, naming the file, and exits 2, with no stack.
// How each is given its files: `args` makes its argument lists around one path; `folder`, where
// it takes folders, names the files it reads in each.
const one = input => [[input]]
const two = input => [[input, input]]
// two names of one input, for a script that refuses a run set against itself (runScript's
// distinct): a link beside it, so that it is refused for the input's kind, not for the twice
const twoNames = input => {
  const other = path.join(path.dirname(input), `again-${path.basename(input)}`)
  if (!fs.existsSync(other)) fs.symlinkSync(input, other)
  return [[input, other]]
}
const DOCS_READERS = {
  'docs/calls/2026-11-28-turns/ratio-moves.js': { folder: ['results.json'], args: twoNames },
  'docs/calls/2026-11-30-noisy/control-variate.js': { args: two },
  'docs/calls/2026-12-04-amd/estimators.js': { args: two },
  'docs/calls/2026-12-05-halves/halves.js': { args: two },
  'docs/calls/2026-12-06-ready/overlap.js': { folder: ['all.jsonl'], args: one },
  'docs/calls/2026-12-06-ready/read-ratios.js': { args: two },
  'docs/calls/2026-12-07-processes/resample.js': { folder: ['results.json'], args: two },
  'docs/calls/2026-11-30/estimators.js': { args: twoNames },
  'docs/db/2026-11-29/spread.js': { args: twoNames },
  'docs/http/2026-12-02/ratio-spread.js': { args: two },
  'docs/method/2026-12-02/phases.js': { args: one },
  'docs/programs/2026-12-02/syscalls.js': { args: one },
  'docs/db/2026-11-30/busy-rounds.js': { folder: ['all.jsonl', 'context.json'], args: one },
  'docs/db/2026-11-30/combine.js': { args: file => [[`${file}+${file}`, file]] },
  'docs/db/2026-11-30/common.js': { args: twoNames },
  'docs/db/2026-11-30/components.js': { folder: ['all.jsonl', 'context.json'], args: two },
  'docs/db/2026-11-30/estimators.js': { args: file => [[`${file},${file}`]] },
  'docs/db/2026-11-30/gaps.js': { args: one },
  'docs/db/2026-11-30/gc-rounds.js': { args: two },
  'docs/db/2026-11-30/reclass.js': { args: two },
  'docs/db/2026-11-30/round-spread.js': { args: twoNames },
  'docs/db/2026-11-30/semi-space.js': { args: two },
  'docs/db/2026-11-30/sides.js': { args: two },
  'docs/db/2026-11-30/with-wrk.js': { args: two },
  'docs/db/2026-12-01/drop-compiling.js': { args: two },
  'docs/db/2026-12-01/run-moves.js': { args: two },
  'docs/db/2026-12-05-one-cpu/wakeups.js': { args: two },
  'docs/db/2026-12-07-wakeups/by-run.js': { args: twoNames },
  'docs/db/2026-12-07-latency/rates.js': { folder: ['all.jsonl'], args: one },
  'docs/http/2026-11-28/latcmp.js': { folder: ['results.json'], args: twoNames },
  'docs/http/2026-11-30-noisy/user-system.js': { args: two },
  'docs/http/2026-11-30/moves.js': { args: twoNames },
  'docs/http/2026-12-01/calm-runs.js': { args: input => [['1.1', input, input]] },
  'docs/http/2026-12-01/host-pace.js': { args: two },
  'docs/http/2026-12-01/jit-replay.js': { args: two },
  'docs/http/2026-12-01/jit-rules.js': { args: two },
  'docs/http/2026-12-01/marked-cost.js': { args: two },
  'docs/http/2026-12-01/trace-opt-cost.js': { args: two },
  'docs/http/2026-12-01/reclassify.js': { args: two },
  'docs/http/2026-12-01/warmup-replay.js': { args: two },
  'docs/http/2026-12-04-four/unquoted.js': { args: two },
  'docs/http/2026-12-06-connects/connects.js': { args: one },
  'docs/http/2026-12-07-rates/rates.js': { args: two },
  'docs/http/2026-12-07-time/spent.js': { args: one },
  'docs/method/cost-rounds.js': {
    folder: ['context.json', 'all.jsonl'], args: run => [['1', run, run]]
  },
  'docs/method/cost-window.js': { folder: ['all.jsonl'], args: one },
  'docs/profile/2026-11-29-amd/pairprof.js': { folder: ['profile.json'], args: twoNames },
  'docs/profile/2026-11-30-amd-noisy/sampling.js': { folder: ['profile.json'], args: twoNames },
  'docs/profile/2026-11-30-amd/hz-table.js': { folder: ['profile.json', 'context.json'], args: one },
  'docs/profile/2026-11-30-amd/turns.js': { folder: ['all.jsonl'], args: one },
  'docs/profile/2026-12-04-amd/seen.js': { folder: ['all.jsonl'], args: one },
  'docs/profile/2026-12-07-spells/spells.js': { folder: ['all.jsonl'], args: one },
  'docs/profile/2026-12-07-spells/switches.js': { folder: ['all.jsonl'], args: one },
  'docs/profile/2026-12-07-review/rules.js': { args: two },
  'docs/profile/2026-12-08-intel/busiest-shares.js': { args: one },
  'docs/reproducibility/2026-11-27-issue-35/calibration.js': {
    folder: ['h1', 'h2', 'h3', 'h4', 'h5', 'db1', 'db2', 'db3', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6']
      .map(run => `${run}/results.json`),
    args: one
  },
  'docs/reproducibility/2026-11-29-amd/memory-table.js': {
    folder: ['quiet1', 'mem1', 'quiet2', 'mem2', 'quiet3', 'mem3'].map(run => `${run}/all.jsonl`),
    args: one
  },
  'docs/reproducibility/2026-11-29-amd/resample-rounds.js': { folder: ['results.json'], args: twoNames },
  'docs/reproducibility/2026-11-30-amd-noisy/days.js': { args: file => [[file, file, file, file]] },
  'docs/reproducibility/2026-11-30-amd-noisy/pair-moves.js': { args: twoNames },
  'docs/reproducibility/2026-11-30-amd-noisy/profile-days.js': { args: twoNames },
  'docs/reproducibility/2026-11-30-amd-noisy/within-run.js': { folder: ['results.json'], args: one },
  'docs/reproducibility/2026-12-04-amd/rounds.js': { args: file => [['deno-wasi', '256', file]] },
  'docs/reproducibility/2026-12-05-halves/halves.js': { args: two },
  'docs/reproducibility/2026-12-06-never/never-pairs.js': { args: two },
  // a probe, then a window's START and WINDOWS after a good probe, the one kept beside it
  'docs/reproducibility/2026-12-01-amd/probes.js': {
    args: file => {
      const [probe, start] = ['memory-probe.txt', 'memory-start.txt']
        .map(name => path.join(ROOT, 'docs/reproducibility/2026-12-01-amd', name))
      return [['spread', file], ['windows', probe, file, file], ['windows', probe, start, file]]
    }
  }
}

test('a script of docs/ given a file of the wrong kind: one line naming it, exit 2', async () => {
  // those whose arguments are checked as files or folders
  const readers = docsScripts()
    .filter(own => /\b(readableFile|folderWith|runOnEachLog)\b/.test(fs.readFileSync(path.join(ROOT, own), 'utf8')))
  assert.deepEqual(Object.keys(DOCS_READERS).sort(), readers,
    'every script of docs/ that reads files is tried')

  const inputs = folder('docs-inputs')
  const WRONG = {
    text: ['notes.txt', '# Notes\n\nNot a file of a run.\n'],
    'another shape': ['other.json', '{"runId":"other","other":{"cells":[]}}\n'],
    list: ['list.json', '[1, 2]\n'],
    'not gzip': ['run.json.gz', 'not gzip\n']
  }
  const files = Object.entries(WRONG).map(([kind, [name, text]]) => {
    fs.writeFileSync(path.join(inputs, name), text)
    return [`a file of ${kind}`, path.join(inputs, name)]
  })
  // a folder holding `names`, each with the text `textOf(name)`
  const folderOf = (label, names, textOf) => {
    const dir = path.join(inputs, label)
    for (const name of names) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
      fs.writeFileSync(path.join(dir, name), textOf(name))
    }
    return dir
  }
  // { own, what, input, argv }: what was given, its path, and the arguments given around it
  const cases = Object.entries(DOCS_READERS).flatMap(([own, { folder: names, args }]) => {
    const name = path.basename(own)
    const given = names
      ? [
          ...['text', 'another shape', 'list'].map(kind =>
            [`a folder of ${kind}`, folderOf(`${name}-${kind}`, names, () => WRONG[kind][1])]),
          // one file of text and the others of another shape, so that each file is read in
          // turn (one of the runs a folder of runs holds)
          ...[...new Set(names.map(each => path.basename(each)))].map(base => {
            const bad = names.find(each => path.basename(each) === base)
            return [`a folder whose ${bad} is text`, folderOf(`${name}-${base}`, names,
              each => WRONG[each === bad ? 'text' : 'another shape'][1])]
          })
        ]
      : files
    return given.flatMap(([what, input]) => args(input).map(argv => ({ own, what, input, argv })))
  })

  const before = fs.readdirSync(scratch)
  // four at a time: each is a node started, most of its time spent starting
  const options = { cwd: scratch, encoding: 'utf8', timeout: 60000 }
  const run = argv => new Promise(resolve => execFile(process.execPath, argv, options,
    (error, stdout, stderr) => resolve({ status: error ? error.code : 0, stdout, stderr })))
  let next = 0
  await Promise.all(Array.from({ length: 4 }, async () => {
    while (next < cases.length) {
      const each = cases[next++]
      each.result = await run([path.join(ROOT, each.own), ...each.argv])
    }
  }))
  // one line, the script's name first, that names the file or folder given
  const line = (own, input) =>
    new RegExp(`^${escaped(path.basename(own))}: [^\\n]*${escaped(input)}[^\\n]*\\n$`)
  const refused = ({ own, input, result }) => result.status === 2 && result.stdout === '' &&
    line(own, input).test(result.stderr) && !result.stderr.includes('    at ')
  const failures = cases.filter(each => !refused(each)).map(({ own, what, argv, result }) =>
    `${own} ${argv.join(' ')} (${what}): exit ${result.status}, ` +
    `stdout ${JSON.stringify(result.stdout.slice(0, 120))}, ` +
    `stderr ${JSON.stringify(result.stderr.slice(0, 300))}`)
  assert.ok(cases.length > 100, `only ${cases.length} tried`)
  assert.deepEqual(failures, [])
  assert.deepEqual(fs.readdirSync(scratch), before, 'nothing written where they ran')
})

// The shell scripts of docs/ record how a dated run was made; given --help or an option they
// do not take, each must say its usage and start nothing (a review: --help became a label, a
// file name, or fifty runs written into a file named "--help"). docs/script-guard.sh does it
// before any command; each is tried with taskset, perf, dd and the rest out of reach, so that
// a script that went past its guard would fail here, not measure.
test('user-system.js given runs whose cells hold no user share: one line, exit 2, not headers alone', () => {
  // a db run from before 2026-11-30: CPU per request, no serverUserShare
  const old = path.join(folder('user-system'), 'old-db.json')
  const cell = { server: 'c-libpq', endpoint: 'db', connections: 64, cpuPerRequestUs: { server: 30 } }
  fs.writeFileSync(old, JSON.stringify({ db: { cells: [cell] } }))
  const result = node(['docs/http/2026-11-30-noisy/user-system.js', old, old])
  assert.equal(result.status, 2)
  assert.equal(result.stdout, '')
  assert.match(result.stderr, /^user-system\.js: \S+old-db\.json holds no cell with a user share .*\n$/)
})

test('every shell script of docs/ answers --help, and refuses an option it does not take', () => {
  const scripts = spawnSync('git', ['ls-files', 'docs/**/*.sh'], { cwd: ROOT, encoding: 'utf8' }).stdout
    .split('\n').filter(Boolean)
  assert.ok(scripts.length >= 27, scripts.join(' '))
  const nowhere = folder('no-tools')
  const env = { ...process.env, PATH: `${nowhere}:/usr/bin:/bin` }
  for (const tool of ['taskset', 'perf', 'dd', 'wrk', 'oha', 'chrt', 'node', 'curl']) {
    fs.writeFileSync(path.join(nowhere, tool), '#!/bin/sh\necho "ran $0" >&2\nexit 99\n', { mode: 0o755 })
  }
  for (const script of scripts) {
    // by the shell its first line names (dash for #!/bin/sh), from its own folder, as its
    // usage says to run some of them: the guard is found beside it wherever it is run from
    const shell = /^#!\/bin\/sh/.test(fs.readFileSync(path.join(ROOT, script), 'utf8')) ? 'sh' : 'bash'
    const run = args => spawnSync(shell, [path.basename(script), ...args],
      { cwd: path.join(ROOT, path.dirname(script)), encoding: 'utf8', env, timeout: 10000 })
    const help = run(['--help'])
    assert.equal(help.status, 0, `${script}: ${help.stderr}`)
    assert.match(help.stdout, /^usage: \S/, script)
    assert.equal(help.stderr, '', script)
    const bogus = run(['--bogus'])
    assert.equal(bogus.status, 2, `${script}: ${bogus.stderr}`)
    assert.match(bogus.stderr, new RegExp(`^${path.basename(script).replace('.', '\\.')}: unknown option ` +
      '\'--bogus\' \\(usage: [^\\n]+\\)\\n$'), script)
  }
  // a count past what test(1) compares, and an option where NAME=VALUE goes (a review: both let
  // through, the second into env, which then ran wrk against no server)
  const refused = (script, args, message) => {
    const result = spawnSync('bash', [script, ...args], { cwd: ROOT, encoding: 'utf8', env, timeout: 10000 })
    assertRefused(result, message)
  }
  // a value it does not take, a folder that is not there: named, exit 2 (a review: exit 1, or the
  // shell's own words)
  refused('docs/reproducibility/2026-12-01-amd/neighbour.sh', ['zz'],
    /^neighbour\.sh: 'zz' is neither sibling nor memory \(usage: /)
  refused('docs/calls/2026-11-29-amd/settle-by-hand.sh', ['/nonexistent'],
    /^settle-by-hand\.sh: \/nonexistent is no folder; give a checkout of the lab \(usage: /)
  refused('docs/calls/bun-before-after.sh', ['99999999999999999999'],
    /^bun-before-after\.sh: PAIRS must be from 1 to 10000, not 99999999999999999999 /)
  refused('docs/http/2026-12-06-review/run.sh', ['x', '--help'],
    /^run\.sh: '--help' is no NAME=VALUE for the environment /)
})
