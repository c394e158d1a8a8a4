'use strict'
// Every program in the table (lib/programs.js), fed through real shell pipes exactly as
// the lab feeds it: counts, read counts, empty input, and the two ways stdin can be
// wrong. The list is never written out here: a new row in the table is tested as is.
// A program that cannot run here fails with the table's reason (./setup.sh --test
// installs everything), it is never skipped.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const { spawnSync } = require('node:child_process')
const crypto = require('node:crypto')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const { ROOT, BUILD } = require('../lib/paths')
const { runtimes } = require('../lib/runtimes')
const { programs, commandLine, unavailableReason, parseOutput } = require('../lib/programs')
const { shellQuote } = require('../lib/pipeline')

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

// Not one of the lab's readers (the system wc): its wording is its own.
const ownWording = program => program.output === 'count-only'

for (const program of programs) {
  const runtime = runtimes[program.runtime]
  const kind = program.honoursBlockSize ? 'honours the block size' : 'counts its own chunks'

  test(`${program.name} (${runtime.label}, ${kind})`, async t => {
    const reason = unavailableReason(program)
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

    await t.test('stdin is a directory: a read error', () => {
      const r = sh(`${reader(program, 4096)} < ${shellQuote([dir])}`)
      if (ownWording(program)) {
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
          assertReadError(r, /^read: Bad file descriptor \(9\)\n$/)
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
    'if [ "$1" = --version ]; then echo "fake-just 9.9"; exit 0; fi',
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
        fs.rmSync(used, { force: true })
        const argv = commandLine(program, 4096)
        assert.equal(argv[0], fake)
        assert.equal(unavailableReason(program), null)
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

  await t.test('runtimeVersion(\'just\') asks that binary (a fresh process: versions are cached)', () => {
    const script = "process.stdout.write(require('./lib/runtimes').runtimeVersion('just'))"
    const withFake = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, JUST: fake }, timeout: 60000 })
    assert.equal(withFake.status, 0, withFake.stderr)
    assert.equal(withFake.stdout, 'fake-just 9.9')
    const env = { ...process.env }
    delete env.JUST
    const real = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', env, timeout: 60000 })
    assert.equal(real.status, 0, real.stderr)
    assert.notEqual(real.stdout, 'fake-just 9.9')
    assert.doesNotMatch(real.stdout, /^unknown|^$/, 'the real host answers --version')
  })
})
