'use strict'
// Every program in the table (experiments/stdio/programs.js), fed through real shell pipes exactly as
// the lab feeds it: counts, read counts, empty input, and the two ways stdin can be
// wrong. The list is never written out here: a new row in the table is tested as is.
// A program that cannot run here fails with the table's reason (./setup.sh --test
// installs everything), it is never skipped: but for a runtime only an optional set-up
// installs (wasmer, ./setup.sh --wasm), whose rows are skipped with that reason.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const { spawn, spawnSync } = require('node:child_process')
const crypto = require('node:crypto')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const { ROOT, BUILD } = require('../../lib/paths')
const { runtimes, optionalMissing } = require('../../lib/runtimes')
const { programs, commandLine, unavailableReason, parseOutput } = require('../../experiments/stdio/programs')
const { shellQuote } = require('../../lib/pipeline')

const BLOCK_SIZES = [256, 4096, 65536]
const FIXED_FEEDER = 65536
const BYTES = 4 * 1024 * 1024
const FILE_BYTES = 1000003
const TIMEOUT_SECONDS = 60

let dir
let inputFile

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-readers-'))
  inputFile = path.join(dir, 'input.bin')
  fs.writeFileSync(inputFile, crypto.randomBytes(FILE_BYTES))
})

after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

// Runs one shell command line under timeout(1), which kills the whole pipeline's
// process group: a hung reader fails its case instead of stalling the suite.
function sh (cmd, env = process.env) {
  const r = spawnSync('timeout', ['-s', 'KILL', String(TIMEOUT_SECONDS), 'bash', '-c', cmd], {
    encoding: 'utf8', env, timeout: (TIMEOUT_SECONDS + 10) * 1000, killSignal: 'SIGKILL', maxBuffer: 1 << 20
  })
  assert.equal(r.error, undefined, `could not run: ${cmd}\n${r.error}`)
  assert.ok(r.signal === null && r.status !== 137, `killed after ${TIMEOUT_SECONDS} s (hung?): ${cmd}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`)
  return { cmd, status: r.status, stdout: r.stdout, stderr: r.stderr }
}

const reader = (program, blockSize) => shellQuote(commandLine(program, blockSize))
const shown = r => `\n$ ${r.cmd}\nexit ${r.status}\nstdout: ${JSON.stringify(r.stdout)}\nstderr: ${JSON.stringify(r.stderr)}`

// A successful count: exit 0, one line on stdout, nothing on stderr, the right size,
// the block size echoed, and reads exact (reads === undefined: only bounded by 1..bytes).
function assertCount (program, r, { bytes, blockSize, reads }) {
  assert.equal(r.status, 0, `exit code${shown(r)}`)
  assert.match(r.stdout, /^[^\n]*\n$/, `exactly one stdout line${shown(r)}`)
  assert.equal(r.stderr, '', `nothing on stderr${shown(r)}`)
  const parsed = parseOutput(program, r.stdout)
  assert.notEqual(parsed, null, `output not understood by parseOutput${shown(r)}`)
  assert.equal(parsed.size, bytes, `size${shown(r)}`)
  if (parsed.blockSize !== null) assert.equal(parsed.blockSize, blockSize, `block size echoed${shown(r)}`)
  if (parsed.reads === null) return
  if (reads !== undefined) {
    assert.equal(parsed.reads, reads, `reads${shown(r)}`)
  } else {
    assert.ok(parsed.reads >= 1 && parsed.reads <= bytes, `reads ${parsed.reads} not within 1..${bytes}${shown(r)}`)
  }
}

// A failed read from one of the lab's readers: exit 1, nothing on stdout, and one
// `read: <strerror> (<errno>)` line on stderr.
function assertReadError (r, line = /^read: [^\n]+ \(\d+\)\n$/) {
  assert.equal(r.status, 1, `exit code${shown(r)}`)
  assert.equal(r.stdout, '', `nothing on stdout${shown(r)}`)
  assert.match(r.stderr, line, `stderr${shown(r)}`)
}

// What a host with a known fault (a row's knownFaults.directory) answers for a directory on
// stdin, by runtime: Bun's node:wasi reads it as empty; python3 stops before wasmtime runs.
const KNOWN_DIRECTORY_ANSWERS = {
  bun: { status: 0, stdout: 'size 0 reads 0 blocksize 4096\n', stderr: '' },
  wasmtime: { status: 1, stdout: '', stderr: 'Fatal Python error: init_sys_streams: <stdin> is a directory, cannot continue' }
}
function directoryAnswer (program, r) {
  const firstLine = r.stderr.split('\n')[0]
  return { status: r.status, stdout: r.stdout, stderr: program.runtime === 'wasmtime' ? firstLine : r.stderr }
}

// Not one of the lab's readers (the system wc): its wording is its own.
const ownWording = program => program.output === 'count-only'

for (const program of programs) {
  const runtime = runtimes[program.runtime]
  const kind = program.honoursBlockSize ? 'honours the block size' : 'counts its own chunks'

  test(`${program.name} (${runtime.label}, ${kind})`, async t => {
    const reason = unavailableReason(program)
    if (reason !== null && optionalMissing(program.runtime)) return t.skip(reason)
    assert.equal(reason, null, `${program.name} cannot run here: ${reason}`)

    for (const blockSize of BLOCK_SIZES) {
      for (const feeder of new Set([blockSize, FIXED_FEEDER])) {
        const how = feeder === blockSize ? 'matched' : 'fixed'
        await t.test(`4 MiB from dd bs=${feeder} (${how}), block size ${blockSize}`, () => {
          const r = sh(`dd if=/dev/zero bs=${feeder} count=${BYTES / feeder} status=none | ${reader(program, blockSize)}`)
          // Exact, not a bound: a pipe page is complete when the reader can see it.
          assertCount(program, r, { bytes: BYTES, blockSize, reads: program.honoursBlockSize ? BYTES / blockSize : undefined })
        })
      }
    }

    for (const blockSize of BLOCK_SIZES) {
      await t.test(`${FILE_BYTES} bytes from a file through cat, block size ${blockSize}`, () => {
        const r = sh(`cat ${shellQuote([inputFile])} | ${reader(program, blockSize)}`)
        assertCount(program, r, { bytes: FILE_BYTES, blockSize, reads: program.honoursBlockSize ? Math.ceil(FILE_BYTES / blockSize) : undefined })
      })
    }

    for (const blockSize of BLOCK_SIZES) {
      await t.test(`an empty pipe, block size ${blockSize}`, () => {
        const r = sh(`dd if=/dev/zero bs=${blockSize} count=0 status=none | ${reader(program, blockSize)}`)
        assertCount(program, r, { bytes: 0, blockSize, reads: 0 })
      })
    }

    const fault = program.knownFaults?.directory
    await t.test(`stdin is a directory: ${fault ? `as its host has it (${fault})` : 'a read error'}`, () => {
      const r = sh(`${reader(program, 4096)} < ${shellQuote([dir])}`)
      if (fault) {
        // pinned as it is, so that a host that mends it shows here
        assert.deepEqual(directoryAnswer(program, r), KNOWN_DIRECTORY_ANSWERS[program.runtime], shown(r))
      } else if (ownWording(program)) {
        assert.notEqual(r.status, 0, `exit code${shown(r)}`)
        assert.match(r.stderr, /Is a directory/, `stderr${shown(r)}`)
      } else {
        assertReadError(r)
      }
    })

    if (runtime.reopensClosedStdio) {
      // The runtime puts /dev/null on a closed fd 0 before the script runs, so the
      // reader cannot tell the difference: it must behave exactly as on /dev/null.
      await t.test('stdin closed: the runtime reopens it on /dev/null', () => {
        const closed = sh(`${reader(program, 4096)} 0<&-`)
        const devNull = sh(`${reader(program, 4096)} < /dev/null`)
        assert.deepEqual({ status: closed.status, stdout: closed.stdout, stderr: closed.stderr },
          { status: devNull.status, stdout: devNull.stdout, stderr: devNull.stderr },
          `stdin closed is not the same as stdin on /dev/null${shown(closed)}${shown(devNull)}`)
        if (program.stdin === 'pipe') {
          assertReadError(closed) // /dev/null is not a pipe: refused, as the table says
        } else {
          assertCount(program, closed, { bytes: 0, blockSize: 4096, reads: 0 })
        }
      })
    } else {
      await t.test('stdin closed: EBADF', () => {
        const r = sh(`${reader(program, 4096)} 0<&-`)
        if (ownWording(program)) {
          assert.notEqual(r.status, 0, `exit code${shown(r)}`)
          assert.match(r.stderr, /Bad file descriptor/, `stderr${shown(r)}`)
        } else {
          // a WebAssembly reader's errno is WASI's: EBADF is 8 there, 9 on Linux
          assertReadError(r, program.wasi ? /^read: Bad file descriptor \(8\)\n$/ : /^read: Bad file descriptor \(9\)\n$/)
        }
      })
    }
  })
}

test('JUST= points the lab at another just binary', async t => {
  const justPrograms = programs.filter(program => program.runtime === 'just')
  assert.ok(justPrograms.length > 0, 'the table has no just rows')
  const host = path.join(BUILD, 'just-host')
  assert.equal(unavailableReason(justPrograms[0]), null, 'build/just-host must be built for this test (make -s all)')

  const fakeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-fake-just-'))
  t.after(() => fs.rmSync(fakeDir, { recursive: true, force: true }))
  const fake = path.join(fakeDir, 'just')
  const used = path.join(fakeDir, 'used')
  fs.writeFileSync(fake, [
    '#!/bin/sh',
    `: > ${shellQuote([used])}`,
    `exec ${shellQuote([host])} "$@"`,
    ''
  ].join('\n'), { mode: 0o755 })

  await t.test('node bench.js --list --json lists the just rows with that binary', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bench.js'), '--list', '--json'], {
      cwd: ROOT, encoding: 'utf8', env: { ...process.env, JUST: fake }, timeout: 60000
    })
    assert.equal(r.status, 0, r.stderr)
    const rows = JSON.parse(r.stdout)
    assert.deepEqual(rows.map(row => row.name), programs.map(program => program.name))
    for (const row of rows) {
      if (row.runtime === 'just') {
        assert.ok(row.command.startsWith(shellQuote([fake]) + ' '), `${row.name}: ${row.command}`)
        assert.equal(row.available, true, `${row.name}: ${row.unavailable}`)
      } else {
        assert.ok(!row.command.includes(fake), `${row.name} must not use JUST: ${row.command}`)
      }
    }
  })

  await t.test('the just readers count through that binary', () => {
    const saved = process.env.JUST
    process.env.JUST = fake
    try {
      for (const program of justPrograms) {
        const argv = commandLine(program, 4096)
        assert.equal(argv[0], fake)
        assert.equal(unavailableReason(program), null)
        fs.rmSync(used, { force: true })
        const r = sh(`dd if=/dev/zero bs=65536 count=16 status=none | ${shellQuote(argv)}`)
        assertCount(program, r, { bytes: 1 << 20, blockSize: 4096, reads: 256 })
        assert.ok(fs.existsSync(used), `${program.name} did not run through ${fake}`)
      }
    } finally {
      if (saved === undefined) delete process.env.JUST
      else process.env.JUST = saved
    }
    assert.equal(commandLine(justPrograms[0], 4096)[0], host, 'JUST restored')
  })

  await t.test('the lab\'s host: the version a script reads is the one its --version prints', () => {
    const env = { ...process.env }
    delete env.JUST
    const r = spawnSync(process.execPath, ['-e', "process.stdout.write(require('./lib/runtimes').runtimeVersion('just'))"], { cwd: ROOT, encoding: 'utf8', env, timeout: 60000 })
    assert.equal(r.status, 0, r.stderr)
    const own = spawnSync(host, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60000 })
    assert.equal(own.status, 0, own.stderr)
    assert.match(r.stdout, /^just-host \S+ v8 \S+$/)
    assert.equal(r.stdout, own.stdout.trim())
  })
})

// Runs a lab command to its end within a deadline, its stdin a pipe the test never
// closes: anything the lab asked on its own stdin would wait for the deadline.
function runWithOpenStdin (args, env, deadlineMs = 60000) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', chunk => { stdout += chunk })
    child.stderr.on('data', chunk => { stderr += chunk })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`no end within ${deadlineMs} ms: node ${args.join(' ')}\nstdout: ${stdout}\nstderr: ${stderr}`))
    }, deadlineMs)
    child.on('close', (status, signal) => {
      clearTimeout(timer)
      child.stdin.destroy()
      resolve({ status, signal, stdout, stderr })
    })
  })
}

// test/fixtures/fake-just.js behaves as just(js) 0.1.13 does: no --version (it starts
// the REPL), just.version an object, net.read(fd, buf, off, len) only, no net.readRaw
// nor sys.address.
test('JUST= a binary that behaves like just(js) 0.1.13', async t => {
  const fakeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-just-0.1.13-'))
  t.after(() => fs.rmSync(fakeDir, { recursive: true, force: true }))
  const fake = path.join(fakeDir, 'just')
  const log = path.join(fakeDir, 'command-lines')
  fs.writeFileSync(fake, `#!/bin/sh\nexec ${shellQuote([process.execPath, path.join(ROOT, 'test/fixtures/fake-just.js')])} "$@"\n`, { mode: 0o755 })
  const env = { ...process.env, JUST: fake, FAKE_JUST_LOG: log }
  const fakeVersion = `just 0.1.13 v8 ${process.versions.v8} (fake-just)`

  await t.test('the stand-in has no --version: it starts a REPL that prints nothing on /dev/null and waits on a pipe', async () => {
    const quiet = spawnSync(fake, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60000 })
    assert.equal(quiet.status, 0, quiet.stderr)
    assert.equal(quiet.stdout, '')
    const repl = spawn(fake, ['--version'], { stdio: ['pipe', 'pipe', 'ignore'] })
    try {
      const prompt = await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no REPL prompt within 60 s')), 60000)
        repl.stdout.once('data', chunk => { clearTimeout(timer); resolve(String(chunk)) })
        repl.once('exit', code => { clearTimeout(timer); reject(new Error(`exited ${code} instead of waiting`)) })
      })
      assert.equal(prompt, '> ')
      assert.equal(repl.exitCode, null, 'the REPL waits on stdin')
    } finally {
      repl.kill('SIGKILL')
    }
  })

  await t.test('--list: just-fast unavailable with the reason, just-sync available, no REPL started', async () => {
    fs.rmSync(log, { force: true })
    const r = await runWithOpenStdin([path.join(ROOT, 'bench.js'), '--list', '--json'], env)
    assert.equal(r.status, 0, r.stderr)
    const rows = Object.fromEntries(JSON.parse(r.stdout).map(row => [row.name, row]))
    assert.equal(rows['just-sync'].available, true, rows['just-sync'].unavailable)
    assert.equal(rows['just-sync'].command, shellQuote([fake, path.join(ROOT, 'wc/wc.js'), '65536']))
    assert.equal(rows['just-fast'].available, false)
    assert.equal(rows['just-fast'].unavailable, `JUST=${fake} has no net.readRaw, sys.address (the lab's host has them: unset JUST)`)
    // The stand-in has no epoll, which the real binary has: what it lacks is named all the same.
    for (const name of ['just-async', 'just-async-et']) {
      assert.equal(rows[name].available, false)
      assert.match(rows[name].unavailable, new RegExp(`^JUST=${fake} has no sys\\.fcntl, .*loop\\.EPOLLIN.* \\(the lab's host has them: unset JUST\\)$`))
    }
    assert.equal(rows['just-wcb'].available, true, 'just-wcb is the lab\'s own binary, whatever JUST says')
    const commandLines = fs.readFileSync(log, 'utf8').trim().split('\n').map(line => JSON.parse(line))
    assert.equal(commandLines.length, 1, 'the binary is asked once, however many rows need an answer')
    for (const argv of commandLines) assert.ok(argv.some(arg => !arg.startsWith('--')), `a command line with no script starts the REPL: ${argv}`)

    const text = await runWithOpenStdin([path.join(ROOT, 'bench.js'), '--list'], env)
    assert.equal(text.status, 0, text.stderr)
    assert.match(text.stdout, /^just-fast +honours bs +unavailable: JUST=\S+ has no net\.readRaw, sys\.address \(the lab's host has them: unset JUST\)$/m)
  })

  await t.test('--only just-fast is refused with the reason; just-sync counts through it with the four-argument read', async () => {
    const refused = await runWithOpenStdin([path.join(ROOT, 'bench.js'), '--only', 'just-fast', '--sizes', '4096', '--runs', '2', '--mib', '1', '--no-strace', '--no-gc', '--no-cost', '--out', path.join(fakeDir, 'results')], env)
    assert.equal(refused.status, 2, refused.stderr)
    assert.match(refused.stderr, /^bench\.js: cannot run just-fast: JUST=\S+ has no net\.readRaw, sys\.address \(the lab's host has them: unset JUST\)/)
    assert.equal(fs.existsSync(path.join(fakeDir, 'results')), false)
    const program = programs.find(row => row.name === 'just-sync')
    const argv = [fake, ...commandLine(program, 4096).slice(1)]
    const r = sh(`dd if=/dev/zero bs=65536 count=16 status=none | ${shellQuote(argv)}`, env)
    assertCount(program, r, { bytes: 1 << 20, blockSize: 4096, reads: 256 })
  })

  await t.test('the context records its just.version and its checksum, never an empty string', async () => {
    const script = "const { collectContext } = require('./lib/context'); const { programs } = require('./experiments/stdio/programs');" +
      "const context = collectContext({ runId: 'x', options: {}, programs, ptrace: null, gcUnavailable: [], skipped: [] });" +
      'process.stdout.write(JSON.stringify({ host: context.host, just: context.runtimes.just }))'
    const r = await runWithOpenStdin(['-e', script], env)
    assert.equal(r.status, 0, r.stderr)
    const { host, just } = JSON.parse(r.stdout)
    assert.equal(host.binary, fake)
    assert.equal(host.version, fakeVersion)
    assert.equal(host.sha256, crypto.createHash('sha256').update(fs.readFileSync(fake)).digest('hex'))
    assert.equal(host.selectedBy, 'JUST environment variable')
    assert.equal(just.version, fakeVersion)
  })

  await t.test('a binary that runs no script: its checksum for a version, and its rows fail when run', async () => {
    const script = "const { runtimeVersion } = require('./lib/runtimes'); const { findProgram, unavailableReason } = require('./experiments/stdio/programs');" +
      "process.stdout.write(JSON.stringify({ version: runtimeVersion('just'), fast: unavailableReason(findProgram('just-fast')) }))"
    const r = await runWithOpenStdin(['-e', script], { ...env, JUST: '/bin/true' })
    assert.equal(r.status, 0, r.stderr)
    const sha = crypto.createHash('sha256').update(fs.readFileSync('/bin/true')).digest('hex')
    assert.deepEqual(JSON.parse(r.stdout), { version: `sha256 ${sha} (asked with a one-line script, it printed no answer, exit 0)`, fast: null })
  })
})

test('needs: in each row\'s reader, all in the lab\'s host and its Node; a malformed one refused as the table loads', async t => {
  const host = path.join(BUILD, 'just-host')
  for (const program of programs.filter(row => row.needs)) {
    const runtime = runtimes[program.runtime]
    // wasmer's needs are features of its binary, not names in a reader: asked of it where it is
    if (optionalMissing(program.runtime)) continue
    const source = fs.readFileSync(path.join(ROOT, program.file), 'utf8')
    if (!runtime.needsFeatures) {
      for (const name of program.needs) assert.match(source, new RegExp(`\\b${name.split('.').pop()}\\b`), `${program.name} needs ${name}, which ${program.file} never names`)
    }
    const binary = program.runtime === 'just' ? host : runtime.locate()
    assert.equal(runtimes[program.runtime].lacks(binary, program.needs), null, program.name)
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-needs-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const row = { name: 'mine', runtime: 'just', file: 'wc/wc.js', command: ['{runtime}', '{file}', '{bs}'], honoursBlockSize: true, note: 'a row' }
  for (const [bad, message] of [
    [{ ...row, needs: ['net.read; just.exit(3)'] }, "mine's needs is not a list of bindings under just, one or two names deep ('net.read')"],
    [{ ...row, needs: 'net.read' }, "mine's needs is not a list of bindings under just, one or two names deep ('net.read')"],
    [{ ...row, runtime: 'bun', file: 'wc/bun-ffi.js', needs: ['ffi'] }, "mine has needs, but its runtime 'bun' cannot be asked which bindings it has; drop them"]
  ]) {
    const module = path.join(dir, `rows-${bad.runtime}-${typeof bad.needs}.js`)
    fs.writeFileSync(module, `module.exports = ${JSON.stringify([bad])}\n`)
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bench.js'), '--list'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LAB_EXTRA_PROGRAMS: module }, timeout: 60000 })
    assert.equal(r.status, 2, r.stderr)
    assert.equal(r.stderr, `bench.js: ${module}: ${message}\n`)
  }
})

// A module that traps fails its run with its host's reason, in one line, and a non-zero exit.
test('a WebAssembly module that traps fails under each host, saying so', async t => {
  const trap = path.join(dir, 'trap.wasm')
  const built = spawnSync('wat2wasm', ['-o', trap, '-'], {
    // a WASI import, so that wasmer takes it for a WASI command, as it does wc.wasm
    input: '(module (import "wasi_snapshot_preview1" "proc_exit" (func (param i32))) ' +
      '(memory (export "memory") 1) (func (export "_start") unreachable))',
    encoding: 'utf8'
  })
  assert.equal(built.status, 0, `wat2wasm (./setup.sh installs wabt): ${built.stderr ?? built.error}`)
  const hosts = new Map(programs.filter(program => program.wasi && program.built[0] === 'wc.wasm')
    .map(program => [program.runtime, program]))
  for (const program of hosts.values()) {
    await t.test(program.name, t => {
      const reason = unavailableReason(program)
      if (reason !== null && optionalMissing(program.runtime)) return t.skip(reason)
      const argv = commandLine(program, 256).map(arg => (arg.endsWith('/wc.wasm') ? trap : arg))
      const r = sh(`${shellQuote(argv)} < /dev/null`)
      assert.equal(r.status, 1, shown(r))
      assert.equal(r.stdout, '', shown(r))
      assert.match(r.stderr, /unreachable/i, shown(r))
    })
  }
})
