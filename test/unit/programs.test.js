'use strict'
// The table of programs (experiments/stdio/programs.js) is consistent with itself and with the files
// it names; its command lines and output parser; and the one definition of a block size
// (experiments/stdio/blocksize.js).
const { test, describe } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')

const { ROOT, BUILD } = require('../../lib/paths')
const { runtimes } = require('../../lib/runtimes')
const { programs, findProgram, commandLine, fileFeedReason, parseOutput } = require('../../experiments/stdio/programs')
const { parseBlockSize, DEFAULT_BLOCK_SIZES, MIN_BLOCK_SIZE, MAX_BLOCK_SIZE } = require('../../experiments/stdio/blocksize')

const usesV8Flags = program => program.command.includes('{v8flags}')

describe('the table', () => {
  test('names are unique and made of a-z, 0-9 and -', () => {
    assert.ok(programs.length > 0)
    const names = programs.map(program => program.name)
    assert.equal(new Set(names).size, names.length, `duplicate names in ${names}`)
    for (const name of names) assert.match(name, /^[a-z0-9-]+$/)
    for (const name of names) assert.equal(findProgram(name).name, name)
    assert.equal(findProgram('no-such-program'), undefined)
  })

  test('each runtime says how to find it, ask its version, install it, and whether it takes V8 flags', () => {
    for (const [name, runtime] of Object.entries(runtimes)) {
      assert.equal(typeof runtime.label, 'string', name)
      assert.ok(runtime.label.length > 0, name)
      assert.equal(typeof runtime.locate, 'function', name)
      assert.equal(typeof runtime.version, 'function', name)
      assert.equal(typeof runtime.install, 'string', name)
      assert.ok(runtime.install.length > 0, name)
      assert.equal(typeof runtime.reopensClosedStdio, 'boolean', name)
      if (runtime.v8Flags === null) {
        assert.ok(typeof runtime.noGcTrace === 'string' && runtime.noGcTrace.length > 0, `${name} takes no V8 flags and must say why (noGcTrace)`)
      } else {
        assert.equal(typeof runtime.v8Flags, 'function', name)
      }
    }
  })

  test('each row: a known runtime, an existing file, a note, a known output', () => {
    for (const program of programs) {
      assert.ok(Object.hasOwn(runtimes, program.runtime), `${program.name}: unknown runtime '${program.runtime}'`)
      if (program.file !== null) {
        assert.equal(typeof program.file, 'string', program.name)
        assert.ok(fs.statSync(path.join(ROOT, program.file)).isFile(), `${program.name}: ${program.file} does not exist`)
      }
      assert.equal(typeof program.note, 'string', program.name)
      assert.ok(program.note.trim().length > 0, `${program.name} has no note`)
      assert.equal(typeof program.honoursBlockSize, 'boolean', program.name)
      assert.ok(program.output === undefined || program.output === 'count-only', `${program.name}: unknown output '${program.output}'`)
      assert.ok(Array.isArray(program.command) && program.command.length > 0, program.name)
    }
  })

  test('the command template: {bs} when the block size is honoured, {v8flags} only where the runtime takes flags', () => {
    for (const program of programs) {
      const template = program.command.join(' ')
      if (program.honoursBlockSize) assert.ok(template.includes('{bs}'), `${program.name} honours the block size but is never given it: ${template}`)
      if (usesV8Flags(program)) {
        assert.notEqual(runtimes[program.runtime].v8Flags, null, `${program.name}: {v8flags} for ${program.runtime}, which takes none`)
      }
      assert.ok(!template.includes('{v8flags}') || usesV8Flags(program), `${program.name}: {v8flags} must be a whole argument`)
      if (template.includes('{file}')) assert.notEqual(program.file, null, `${program.name}: {file} with no file`)
      for (const placeholder of template.match(/\{[^}]*\}/g) || []) {
        assert.ok(['{runtime}', '{file}', '{build}', '{bs}', '{v8flags}'].includes(placeholder), `${program.name}: unknown ${placeholder}`)
      }
    }
  })
})

describe('commandLine', () => {
  test('substitutes every placeholder', () => {
    for (const program of programs) {
      const argv = commandLine(program, 4096)
      // (Whether the runtime is installed is test/readers.test.js's business, not this one's:
      // one that is not, such as wasmer without ./setup.sh --wasm, keeps its placeholder.)
      const binary = runtimes[program.runtime].locate()
      const expanded = binary === null ? argv.filter(arg => arg !== '{runtime}') : argv
      assert.ok(argv.every(arg => typeof arg === 'string' && arg.length > 0), `${program.name}: ${argv}`)
      assert.ok(!expanded.some(arg => arg.includes('{') || arg.includes('}')), `${program.name}: ${argv}`)
      const template = program.command.join(' ')
      if (template.includes('{bs}')) assert.ok(argv.includes('4096'), `${program.name}: ${argv}`)
      if (template.includes('{file}')) assert.ok(argv.includes(path.join(ROOT, program.file)), `${program.name}: ${argv}`)
      if (template.includes('{build}')) assert.ok(argv.some(arg => arg.startsWith(BUILD + '/')), `${program.name}: ${argv}`)
      if (program.command[0] === '{runtime}' && binary !== null) assert.equal(argv[0], binary, program.name)
      assert.ok(!argv.includes('--trace-gc') && !argv.some(arg => arg.startsWith('--v8-flags')), `a timed run gets no V8 flags: ${argv}`)
      assert.deepEqual(commandLine(program, 4096, []), argv)
    }
  })

  test('V8 flags go where {v8flags} is, in the runtime\'s own form', () => {
    for (const program of programs.filter(usesV8Flags)) {
      const plain = commandLine(program, 4096)
      const traced = commandLine(program, 4096, ['--trace-gc'])
      const at = program.command.indexOf('{v8flags}')
      const inserted = runtimes[program.runtime].v8Flags(['--trace-gc'])
      assert.deepEqual(traced, [...plain.slice(0, at), ...inserted, ...plain.slice(at)], program.name)
      if (program.runtime === 'node' || program.runtime === 'just') {
        assert.ok(traced.indexOf('--trace-gc') > 0 && traced.indexOf('--trace-gc') < traced.indexOf(path.join(ROOT, program.file)), `${program.name}: ${traced}`)
      }
      if (program.runtime === 'deno') {
        assert.ok(traced.includes('--v8-flags=--trace-gc'), `${program.name}: ${traced}`)
        assert.ok(!traced.includes('--trace-gc'), `${program.name}: deno takes V8 flags only inside --v8-flags: ${traced}`)
        assert.ok(traced.indexOf('--v8-flags=--trace-gc') < traced.indexOf(path.join(ROOT, program.file)), `${program.name}: flags after the script go to the script: ${traced}`)
      }
    }
    // Several flags: one argument each for node and just, one comma-joined for deno.
    assert.deepEqual(runtimes.node.v8Flags(['--trace-gc', '--max-heap-size=64']), ['--trace-gc', '--max-heap-size=64'])
    assert.deepEqual(runtimes.just.v8Flags(['--trace-gc', '--max-heap-size=64']), ['--trace-gc', '--max-heap-size=64'])
    assert.deepEqual(runtimes.deno.v8Flags(['--trace-gc', '--max-heap-size=64']), ['--v8-flags=--trace-gc,--max-heap-size=64'])
  })

  test('every runtime with V8 flags has rows that take them; bun and native code take none', () => {
    for (const [name, runtime] of Object.entries(runtimes)) {
      const rows = programs.filter(program => program.runtime === name)
      if (runtime.v8Flags) assert.ok(rows.every(usesV8Flags), `${name} takes V8 flags but a row of it has no {v8flags}`)
    }
    assert.equal(runtimes.bun.v8Flags, null)
    assert.equal(runtimes.native.v8Flags, null)
    assert.equal(runtimes.coreutils.v8Flags, null)
  })

  test('asking for V8 flags where {v8flags} meets a runtime without them throws, naming why', () => {
    for (const [name, runtime] of Object.entries(runtimes).filter(([, runtime]) => !runtime.v8Flags)) {
      const row = { name: `probe-${name}`, runtime: name, file: 'wc/wc.js', command: ['{runtime}', '{v8flags}', '{file}', '{bs}'] }
      assert.throws(() => commandLine(row, 4096, ['--trace-gc']), error => {
        assert.equal(error.message, `probe-${name} takes no V8 flags: ${runtime.noGcTrace}`)
        return true
      })
      assert.equal(commandLine(row, 4096).length, 3, 'without flags the placeholder just vanishes')
    }
    for (const program of programs.filter(program => !runtimes[program.runtime].v8Flags)) {
      assert.throws(() => commandLine(program, 4096, ['--trace-gc']), /takes no V8 flags/, program.name)
    }
  })

  test('stdin, where given, is the one requirement the readers know: a pipe', () => {
    for (const program of programs) assert.ok(program.stdin === undefined || program.stdin === 'pipe', program.name)
    assert.deepEqual(programs.filter(program => program.stdin === 'pipe').map(program => program.name), ['just-async', 'just-async-et', 'node-bindings'])
  })

  test('the readers that cannot be timed reading a file (--feeder file) say why', () => {
    const reasons = Object.fromEntries(programs.map(program => [program.name, fileFeedReason(program)]).filter(([, reason]) => reason !== null))
    assert.deepEqual(Object.keys(reasons), ['coreutils', 'c-uring-window', 'just-async', 'just-async-et', 'node-bindings'])
    assert.match(reasons.coreutils, /fstat and reads nothing/)
    assert.match(reasons['c-uring-window'], /refuses a regular file/)
    for (const name of ['just-async', 'just-async-et', 'node-bindings']) assert.match(reasons[name], /reads only a pipe/)
  })
})

describe('parseOutput', () => {
  const standard = { name: 'probe', output: undefined }
  const countOnly = { name: 'probe', output: 'count-only' }

  test('the standard line', () => {
    assert.deepEqual(parseOutput(standard, 'size 4194304 reads 1024 blocksize 4096\n'), { size: 4194304, reads: 1024, blockSize: 4096 })
    assert.deepEqual(parseOutput(standard, 'size 0 reads 0 blocksize 256\n'), { size: 0, reads: 0, blockSize: 256 })
    assert.deepEqual(parseOutput(standard, 'size 12 reads 3 blocksize 4'), { size: 12, reads: 3, blockSize: 4 })
  })

  test('a coreutils wc -c line', () => {
    assert.deepEqual(parseOutput(countOnly, '  12345\n'), { size: 12345, reads: null, blockSize: null })
    assert.deepEqual(parseOutput(countOnly, '0\n'), { size: 0, reads: null, blockSize: null })
  })

  test('null for anything else', () => {
    for (const garbage of ['', '\n', 'hello\n', 'size x reads 1 blocksize 2\n', 'size 1 reads 1\n', 'size -1 reads 1 blocksize 2\n', 'Size 1 reads 1 blocksize 2\n']) {
      assert.equal(parseOutput(standard, garbage), null, JSON.stringify(garbage))
    }
    for (const garbage of ['', 'hello\n', '12 -\n', '1.5\n', '-3\n']) {
      assert.equal(parseOutput(countOnly, garbage), null, JSON.stringify(garbage))
    }
    assert.equal(parseOutput(standard, '  12345\n'), null, 'a reader that prints only a count is broken')
    assert.equal(parseOutput(countOnly, 'size 1 reads 1 blocksize 2\n'), null)
  })

  test('every row\'s parser takes its own kind of line', () => {
    for (const program of programs) {
      const line = program.output === 'count-only' ? '  42\n' : 'size 42 reads 1 blocksize 4096\n'
      assert.equal(parseOutput(program, line).size, 42, program.name)
    }
  })
})

describe('parseBlockSize', () => {
  test('every power of two from 16 to 1 MiB, as a number or as text', () => {
    assert.equal(MIN_BLOCK_SIZE, 16)
    assert.equal(MAX_BLOCK_SIZE, 1 << 20)
    for (let size = MIN_BLOCK_SIZE; size <= MAX_BLOCK_SIZE; size *= 2) {
      assert.equal(parseBlockSize(size), size)
      assert.equal(parseBlockSize(String(size)), size)
    }
    assert.equal(parseBlockSize(' 4096 '), 4096)
    for (const size of DEFAULT_BLOCK_SIZES) assert.equal(parseBlockSize(size), size)
  })

  test('rejected, each with a message that names the fix', () => {
    const cases = [
      [1000, /^block size 1000 is not a power of two: try 1024$/],
      [5000, /^block size 5000 is not a power of two: try 4096$/],
      [0, /^block size 0 is out of range: give a power of two from 16 to 1048576$/],
      [8, /^block size 8 is out of range: give a power of two from 16 to 1048576$/],
      [2 ** 21, /^block size 2097152 is out of range: give a power of two from 16 to 1048576$/],
      [-1, /^block size '-1' is not a whole number of bytes: give a power of two such as 4096$/],
      ['abc', /^block size 'abc' is not a whole number of bytes: give a power of two such as 4096$/],
      ['', /not a whole number of bytes: give a power of two such as 4096$/],
      ['4096.5', /not a whole number of bytes/],
      ['1e3', /not a whole number of bytes/],
      ['0x100', /not a whole number of bytes/],
      ['99999999999999999999', /not a whole number of bytes/]
    ]
    for (const [text, message] of cases) {
      assert.throws(() => parseBlockSize(text), error => {
        assert.match(error.message, message, JSON.stringify(text))
        return true
      })
    }
  })
})

describe('the WebAssembly rows', () => {
  const { unavailableReason } = require('../../lib/rows')
  const { servers } = require('../../experiments/http/servers')
  const tempDir = require('../helpers').tempFolders('syscall-lab-wasmer-')

  // A wasmer that answers as one built with only Cranelift, and with or without --net.
  function fakeWasmer (withNet) {
    const file = path.join(tempDir(), 'wasmer')
    fs.writeFileSync(file, [
      '#!/bin/sh',
      'case "$*" in',
      '  "--version --verbose") printf "wasmer 4.4.0\\ncompiler: cranelift\\n" ;;',
      `  "run --help") echo "  --env <ENV>"${withNet ? '; echo "  --net  Enable networking"' : ''} ;;`,
      '  *) echo "wasmer 4.4.0" ;;',
      'esac',
      ''
    ].join('\n'), { mode: 0o755 })
    return file
  }

  function withWasmer (binary, check) {
    const saved = process.env.WASMER
    process.env.WASMER = binary
    try {
      check()
    } finally {
      if (saved === undefined) delete process.env.WASMER
      else process.env.WASMER = saved
    }
  }

  test('a wasmer built without a feature a row needs is refused in one line naming it', () => {
    withWasmer(fakeWasmer(false), () => {
      const llvm = unavailableReason({ ...findProgram('wasmer-llvm'), built: [] })
      assert.match(llvm, /^\S+wasmer was built without the LLVM compiler: run \.\/setup\.sh --wasm, which builds one with it$/)
      const server = servers.find(row => row.name === 'wasmer-wasix')
      assert.match(unavailableReason({ ...server, built: [] }), /built without WASIX host networking \(wasmer run --net\)/)
    })
    withWasmer(fakeWasmer(true), () => {
      assert.equal(unavailableReason({ ...servers.find(row => row.name === 'wasmer-wasix'), built: [] }), null)
    })
  })

  test('a module that is not built names what builds it', () => {
    const row = { ...findProgram('node-wasi'), built: ['no-such-module.wasm'] }
    assert.equal(unavailableReason(row), `${path.join(BUILD, 'no-such-module.wasm')} is not built: run ./setup.sh, which installs clang-14, wasi-libc and wabt, then make`)
  })

  test('Winter.js is listed, never found, with what was tried', () => {
    const winter = servers.find(row => row.name === 'winterjs')
    assert.match(unavailableReason(winter), /^Winter\.js not found: no registry here serves it \(npm and PyPI have no winterjs/)
  })

  test('nginx and mini_httpd pointed at a binary that is not there say so and how to get one', () => {
    for (const [name, variable] of [['nginx', 'NGINX'], ['mini-httpd', 'MINI_HTTPD']]) {
      const saved = process.env[variable]
      process.env[variable] = '/nonexistent/server'
      try {
        const reason = unavailableReason(servers.find(row => row.name === name))
        assert.match(reason, new RegExp(`^\\S+ not found at /nonexistent/server: run \\./setup\\.sh, which unpacks Debian's \\S+ into build/debian, or set ${variable}=`))
      } finally {
        if (saved === undefined) delete process.env[variable]
        else process.env[variable] = saved
      }
    }
  })

  test('every WASI row runs wc/wc.c\'s module, and no JavaScript ranking counts it', () => {
    const { programInfo } = require('../../experiments/stdio/report-programs')
    const wasi = programs.filter(program => program.wasi)
    assert.deepEqual(wasi.map(program => program.name), ['node-wasi', 'bun-wasi', 'deno-wasi', 'wasmtime', 'wasmtime-aot', 'wasmer', 'wasmer-llvm'])
    for (const program of wasi) {
      assert.ok(program.built.length === 1 && /^wc\.(wasm|cwasm|wasmu)$/.test(program.built[0]), program.name)
      assert.equal(programInfo(program.name).javascript, false, program.name)
    }
  })
})
