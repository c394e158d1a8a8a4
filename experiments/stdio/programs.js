'use strict'
// The stdio experiment's table of stdin readers. Its passes, the report and the tests all
// read it: adding a variant means one row below, and a reader file in wc/ unless the row runs
// another runtime's listing under its own runtime (bun-sync runs node-sync's).
// `node bench.js --list` shows every row, whether it can run here (and why not), and its
// command line.
const path = require('node:path')
const { runtimes, nodeMajor, nodeRuntimeName } = require('../../lib/runtimes')
const { UsageError, SAFE_NAME, SAFE_NAME_RULE } = require('../../lib/options')
const { shellQuote } = require('../../lib/pipeline')
const { expandCommand, unavailableReason } = require('../../lib/rows')

// The yardstick every cell is compared with.
const BASELINE = 'c'

// A name in a row's needs: 'net.read', one or two property names deep under `just`.
const BINDING = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)?$/
const ASYNC_NEEDS = ['net.read', 'net.O_NONBLOCK', 'sys.errno', 'sys.strerror', 'sys.fcntl', 'sys.F_GETFL', 'sys.F_SETFL',
  'sys.STDIN_FILENO', 'loop.EPOLLIN', 'loop.EPOLLET', 'factory.loop']

// needs: the bindings under `just` a just reader uses beyond print, error, exit and
// args, so that a just(js) binary without one (JUST=) lists the row as unavailable,
// with the reason, instead of failing it. The lab's host has them all. For Node, the
// built-in modules it needs beyond the usual ('ffi': node:ffi), asked of each Node.
//
// fastest: the row is its runtime's fastest form, as its maintainers call fastest
// (docs/programs.md, "Each runtime's fastest form", cites them): `loop` names the function
// that holds its read loop, which the fast-path check (experiments/stdio/fastpath.js) asks
// the engine about; `target`, on V8, the C function its fast call must reach (named in the
// reader's memory: lib/native-code.js), and `targetFile` the library it is in (where binutils
// cannot name the call, one that lies only in other files still fails); `source` the doc,
// source file or pull request that calls it fastest.
//
// stdin: 'pipe' marks a reader that can only poll a pipe (epoll refuses files and
// /dev/null): given anything else it fails with its read: line, by design.
// fileStdin says why a reader that accepts a file as stdin cannot be timed reading one.
// readSyscalls: the calls it reads stdin with (read(2) unless the row says otherwise);
// the strace pass checks them, and its "reads" and block size, against what the kernel saw.
// ring: it reads stdin through io_uring, and strace sees the io_uring_enter calls that
// hand its reads over, not the reads (experiments/stdio/strace.js); whether the kernel
// allows a ring here is lib/uring.js's to say, through lib/rows.js. ringWindow: the
// bytes of reads it keeps in flight at once (ringWindow / block size reads, at least one),
// where it keeps more than one.
//
// wasi: it runs wc/wc.c built for wasm32-wasi (build/wc.wasm, or that module compiled
// ahead of time, in `built`) under a WASI host: its reads are the module's fd_read calls.
// hostChunks: the host reads stdin in chunks of its own and hands each fd_read its share,
// so the kernel sees fewer, larger reads than the module makes; the strace pass then checks
// the bytes alone. knownFaults: a host's wrong answer to a case of the readers' tests
// (test/e2e/readers.test.js), which pin it as it is: { directory: why }.
//
// In a command template: {runtime} is the runtime's binary, {file} the reader's
// path, {build} the build folder, {bs} the block size, and {v8flags} expands to
// however many arguments the runtime needs for the V8 flags (none in a timed run).
// c-uring-window's bytes in flight: of 4, 8, 16, 32 and 64 KiB, 16 KiB cost least at
// 256 B and at 4 KiB (docs/io_uring.md).
const RING_WINDOW = 16384

const programs = [
  {
    name: 'c',
    runtime: 'native',
    file: 'wc/wc.c',
    command: ['{build}/wc-c', '{bs}'],
    honoursBlockSize: true,
    note: 'the baseline: read(2) into a malloc\'d buffer, built with -O3'
  },
  {
    name: 'limit-splice',
    runtime: 'native',
    file: 'wc/splice.c',
    command: ['{build}/wc-splice', '{bs}'],
    honoursBlockSize: true,
    readSyscalls: ['splice'],
    note: 'the ceiling: splice(2) to /dev/null copies nothing to user space; "reads" counts splice calls; stdin must be a pipe or a file'
  },
  {
    name: 'coreutils',
    runtime: 'coreutils',
    file: null,
    command: ['{runtime}', '-c'],
    honoursBlockSize: false,
    output: 'count-only',
    fileStdin: 'given a regular file, wc -c takes its size from fstat and reads nothing',
    note: 'the system wc -c: prints only the byte count and picks its own buffer size'
  },
  {
    name: 'c-uring',
    runtime: 'native',
    file: 'wc/uring.c',
    command: ['{build}/wc-uring', '{bs}'],
    honoursBlockSize: true,
    ring: true,
    note: 'read(2)\'s loop through io_uring (liburing): one IORING_OP_READ a block, handed over and waited for by one io_uring_enter'
  },
  {
    name: 'c-uring-fixed',
    runtime: 'native',
    file: 'wc/uring.c',
    command: ['{build}/wc-uring', '{bs}', 'fixed'],
    honoursBlockSize: true,
    ring: true,
    note: 'c-uring with stdin and the buffer registered with the ring first (IOSQE_FIXED_FILE, IORING_OP_READ_FIXED): no file lookup and no buffer mapping a read'
  },
  {
    name: 'c-uring-window',
    runtime: 'native',
    file: 'wc/uring.c',
    command: ['{build}/wc-uring', '{bs}', 'window', String(RING_WINDOW)],
    honoursBlockSize: true,
    ring: true,
    ringWindow: RING_WINDOW,
    fileStdin: 'its reads in flight would each start from a file\'s position, which io_uring moves without a lock, so it refuses a regular file',
    note: `c-uring-fixed with ${RING_WINDOW / 1024} KiB of reads in flight, each into its own block, every ready completion reaped after a wait: one io_uring_enter for many reads; blocks come back in no set order, which a count of bytes allows`
  },
  {
    name: 'just-sync',
    runtime: 'just',
    file: 'wc/wc.js',
    command: ['{runtime}', '{v8flags}', '{file}', '{bs}'],
    needs: ['net.read', 'sys.errno', 'sys.strerror', 'sys.STDIN_FILENO'],
    honoursBlockSize: true,
    note: 'the study\'s listing: blocking just.net.read into one ArrayBuffer'
  },
  {
    name: 'just-async',
    runtime: 'just',
    file: 'wc/wc-async.js',
    command: ['{runtime}', '{v8flags}', '{file}', '{bs}'],
    needs: ASYNC_NEEDS,
    honoursBlockSize: true,
    stdin: 'pipe',
    note: 'non-blocking stdin, one read per level-triggered epoll wake-up; epoll refuses regular files and /dev/null'
  },
  {
    name: 'just-async-et',
    runtime: 'just',
    file: 'wc/wc-async.js',
    command: ['{runtime}', '{v8flags}', '{file}', '{bs}', 'et'],
    needs: ASYNC_NEEDS,
    honoursBlockSize: true,
    stdin: 'pipe',
    note: 'edge-triggered epoll: each wake-up drains the pipe until EAGAIN; epoll refuses regular files and /dev/null'
  },
  {
    name: 'just-wcb',
    runtime: 'just-wcb',
    file: 'wc/wc.js',
    command: ['{build}/wcb', '{v8flags}', '{bs}'],
    honoursBlockSize: true,
    note: 'just-sync as one executable: wc/wc.js embedded in the host binary, no script file read; libnode is still a shared library'
  },
  {
    name: 'just-fast',
    runtime: 'just',
    file: 'wc/wc-fast.js',
    command: ['{runtime}', '{v8flags}', '{file}', '{bs}'],
    needs: ['net.readRaw', 'sys.address', 'sys.errno', 'sys.strerror', 'sys.STDIN_FILENO'],
    honoursBlockSize: true,
    fastest: {
      loop: 'count',
      target: 'host::net::FastReadRaw',
      source: 'host/README.md, "Fast API calls": net.readRaw on an address taken once'
    },
    note: 'the host\'s fastest shape: the buffer\'s address taken once (sys.address), then net.readRaw(fd, address, len) as a V8 fast API call; lab host only, real just(js) has neither binding'
  },
  {
    name: 'just-uring',
    runtime: 'just',
    file: 'wc/wc-uring.js',
    command: ['{runtime}', '{v8flags}', '{file}', '{bs}'],
    needs: ['uring.setup', 'uring.read', 'sys.address', 'sys.fcntl', 'sys.F_GETFD', 'sys.errno', 'sys.strerror', 'sys.STDIN_FILENO'],
    honoursBlockSize: true,
    ring: true,
    note: 'just-fast through io_uring: uring.read(ring, fd, address, len), a V8 fast API call that hands one IORING_OP_READ over and waits for it in one io_uring_enter; lab host built with liburing only'
  },
  {
    name: 'node-sync',
    runtime: 'node',
    file: 'wc/node-sync.js',
    command: ['{runtime}', '{v8flags}', '{file}', '{bs}'],
    honoursBlockSize: true,
    note: 'fs.readSync into one Buffer'
  },
  {
    name: 'node-fs-binding',
    runtime: 'node',
    file: 'wc/node-fs-binding.js',
    command: ['{runtime}', '{v8flags}', '{file}', '{bs}'],
    honoursBlockSize: true,
    note: 'process.binding(\'fs\').read, the binding fs.readSync calls, without lib/fs.js\'s ' +
      'checks: what those checks cost'
  },
  {
    name: 'node-ffi',
    runtime: 'node',
    file: 'wc/node-ffi.js',
    // node:ffi says it is experimental on stderr as it loads
    command: ['{runtime}', '--disable-warning=ExperimentalWarning', '{v8flags}', '{file}', '{bs}'],
    needs: ['ffi'],
    honoursBlockSize: true,
    fastest: {
      loop: 'count',
      target: 'read',
      targetFile: 'libc.so.6',
      source: 'nodejs/node doc/api/ffi.md, "Call paths" (PR 63068): a V8 fast API call from optimised code'
    },
    note: 'node:ffi calling libc read, the length a BigInt uint64, the buffer\'s address taken once: ' +
      'a V8 fast API call once TurboFan compiles the loop'
  },
  {
    name: 'node-stream',
    runtime: 'node',
    file: 'wc/node-stream.js',
    command: ['{runtime}', '{v8flags}', '{file}', '{bs}'],
    honoursBlockSize: false,
    note: 'idiomatic process.stdin: libuv reads 64 KiB chunks whatever the block size; "reads" counts chunks'
  },
  {
    name: 'node-bindings',
    runtime: 'node',
    file: 'wc/node-bindings.js',
    command: ['{runtime}', '{v8flags}', '{file}', '{bs}'],
    honoursBlockSize: false,
    stdin: 'pipe',
    note: 'Node\'s internal pipe_wrap below the streams layer: libuv reads 64 KiB chunks; libuv aborts on anything but a pipe, so the reader refuses it first'
  },
  {
    name: 'bun-stream',
    runtime: 'bun',
    file: 'wc/bun-stream.js',
    command: ['{runtime}', '{file}', '{bs}'],
    honoursBlockSize: false,
    // preadv2 on a pipe, pread64 on a file (--feeder file)
    readSyscalls: ['preadv2', 'pread64'],
    note: 'Bun.stdin.stream(): Bun picks the chunk size; "reads" counts chunks'
  },
  {
    // what a Bun user who writes Node's API runs: node-sync's listing, under Bun's node:fs
    name: 'bun-sync',
    runtime: 'bun',
    file: 'wc/node-sync.js',
    command: ['{runtime}', '{file}', '{bs}'],
    honoursBlockSize: true,
    note: 'node-sync\'s reader under Bun: fs.readSync from Bun\'s node:fs into one Buffer'
  },
  {
    name: 'bun-ffi',
    runtime: 'bun',
    file: 'wc/bun-ffi.js',
    command: ['{runtime}', '{file}', '{bs}'],
    honoursBlockSize: true,
    fastest: {
      loop: 'count',
      source: 'oven-sh/bun PR 35246 (bun:ffi calls compiled into DFG and FTL code), docs/api/ffi.md'
    },
    note: 'bun:ffi calling libc read, the loop in a function, the address of a buffer that cannot ' +
      'move taken once: a CallFFI node in DFG and FTL code'
  },
  {
    name: 'deno-sync',
    runtime: 'deno',
    file: 'wc/deno-sync.js',
    command: ['{runtime}', 'run', '{v8flags}', '{file}', '{bs}'],
    honoursBlockSize: true,
    note: 'Deno.stdin.readSync into one buffer'
  },
  {
    name: 'deno-stream',
    runtime: 'deno',
    file: 'wc/deno-stream.js',
    command: ['{runtime}', 'run', '{v8flags}', '{file}', '{bs}'],
    honoursBlockSize: false,
    note: 'idiomatic Deno.stdin.readable, a web ReadableStream: Deno picks the chunk size; "reads" counts chunks'
  },
  {
    name: 'deno-ffi',
    runtime: 'deno',
    file: 'wc/deno-ffi.js',
    command: ['{runtime}', 'run', '--allow-ffi', '{v8flags}', '{file}', '{bs}'],
    honoursBlockSize: true,
    fastest: {
      loop: 'count',
      target: 'read',
      targetFile: 'libc.so.6',
      source: 'denoland/deno ext/ffi/turbocall.rs and PR 23983: 64-bit parameters as BigInts keep the V8 fast call'
    },
    note: 'Deno.dlopen calling libc read, the length a BigInt, the buffer\'s address taken once: ' +
      'a V8 fast API call once TurboFan compiles the loop'
  },
  {
    name: 'node-wasi',
    runtime: 'node',
    file: 'wc/wasi.mjs',
    command: ['{runtime}', '{v8flags}', '{file}', '{build}/wc.wasm', '{bs}'],
    built: ['wc.wasm'],
    wasi: true,
    honoursBlockSize: true,
    note: 'wc/wc.c built for wasm32-wasi, run by node:wasi (libuv\'s uvwasi, C++): each fd_read a read(2)'
  },
  {
    name: 'bun-wasi',
    runtime: 'bun',
    file: 'wc/wasi.mjs',
    command: ['{runtime}', '{file}', '{build}/wc.wasm', '{bs}'],
    built: ['wc.wasm'],
    wasi: true,
    honoursBlockSize: true,
    knownFaults: { directory: 'Bun\'s node:wasi answers a read of a directory with its end (0 bytes), not EISDIR' },
    note: 'wc/wc.c built for wasm32-wasi, run by Bun\'s node:wasi (written in JavaScript): each fd_read a read(2)'
  },
  {
    name: 'deno-wasi',
    runtime: 'deno',
    file: 'wc/wasi.mjs',
    command: ['{runtime}', 'run', '--allow-read', '{v8flags}', '{file}', '{build}/wc.wasm', '{bs}'],
    built: ['wc.wasm'],
    wasi: true,
    honoursBlockSize: true,
    hostChunks: 'Deno\'s node:wasi reads stdin 8 KiB at a time, or a block at a time when larger',
    note: 'wc/wc.c built for wasm32-wasi, run by Deno\'s node:wasi (uvwasi, buffered)'
  },
  {
    name: 'wasmtime',
    runtime: 'wasmtime',
    file: 'wc/wasi.py',
    command: ['{runtime}', '{file}', '{build}/wc.wasm', '{bs}'],
    built: ['wc.wasm'],
    wasi: true,
    honoursBlockSize: true,
    hostChunks: 'wasmtime\'s WASI reads stdin 64 KiB at a time',
    knownFaults: { directory: 'python3, wasmtime\'s host here, refuses a directory on stdin before the module runs' },
    note: 'wc/wc.c built for wasm32-wasi, compiled by Cranelift as it loads, on PyPI\'s wasmtime'
  },
  {
    name: 'wasmtime-aot',
    runtime: 'wasmtime',
    file: 'wc/wasi.py',
    command: ['{runtime}', '{file}', '{build}/wc.cwasm', '{bs}'],
    built: ['wc.cwasm'],
    wasi: true,
    honoursBlockSize: true,
    hostChunks: 'wasmtime\'s WASI reads stdin 64 KiB at a time',
    knownFaults: { directory: 'python3, wasmtime\'s host here, refuses a directory on stdin before the module runs' },
    note: 'the wasmtime row ahead of time: the module precompiled by Cranelift at build time (.cwasm)'
  },
  {
    name: 'wasmer',
    runtime: 'wasmer',
    file: 'wc/wc.c',
    command: ['{runtime}', 'run', '{build}/wc.wasm', '--', '{bs}'],
    built: ['wc.wasm'],
    wasi: true,
    honoursBlockSize: true,
    hostChunks: 'wasmer reads stdin 8 KiB at a time, or a block at a time when larger',
    note: 'wc/wc.c built for wasm32-wasi, compiled by Cranelift as it loads, on wasmer (./setup.sh --wasm)'
  },
  {
    name: 'wasmer-llvm',
    runtime: 'wasmer',
    file: 'wc/wc.c',
    command: ['{runtime}', 'run', '{build}/wc.wasmu', '--', '{bs}'],
    built: ['wc.wasmu'],
    needs: ['llvm'],
    wasi: true,
    honoursBlockSize: true,
    hostChunks: 'wasmer reads stdin 8 KiB at a time, or a block at a time when larger',
    note: 'the wasmer row ahead of time: the module compiled by LLVM at build time (wasmer compile --llvm)'
  }
]

// LAB_EXTRA_PROGRAMS=/path/a.js:/path/b.js appends rows (same shape as above, file
// paths absolute or relative to the lab's root) without editing this table: for trying a new
// reader before adding it here, and for the tests' deliberately broken readers.
// extraModules records which module gave which rows, so that a run can say what to set
// to resume it. A row that is not loaded is a problem of the table's: bench.js and the
// listing refuse to start on one (checkTable), and the row is left out.
const extraModules = []
const tableProblems = []
programs.forEach((row, index) => rowProblem(row, 'experiments/stdio/programs.js', programs.slice(0, index)))
for (const module of (process.env.LAB_EXTRA_PROGRAMS || '').split(':').filter(Boolean)) {
  const file = path.resolve(module)
  let rows
  try {
    rows = require(file)
  } catch (err) {
    tableProblems.push(`LAB_EXTRA_PROGRAMS: cannot load ${file} (${err.code ?? err.message.split('\n')[0]}); give the paths of modules that export rows, joined by ':'`)
    continue
  }
  if (!Array.isArray(rows)) {
    tableProblems.push(`LAB_EXTRA_PROGRAMS: ${file} exports no array of rows; export a list of rows shaped as in experiments/stdio/programs.js`)
    continue
  }
  const names = []
  for (const row of rows) {
    if (rowProblem(row, file, programs) !== null) continue
    programs.push(Object.defineProperty({ ...row }, 'module', { value: file }))
    names.push(row.name)
  }
  extraModules.push({ module: file, programs: names })
}

// A program's name becomes part of file names (strace/<name>-4096-main.txt): a '/' or a
// leading '.' would put them elsewhere, and two rows of one name would share them.
function rowProblem (row, source, earlier) {
  let problem = null
  if (!row || typeof row !== 'object') problem = `${source}: a row is ${JSON.stringify(row)}, not an object shaped as in experiments/stdio/programs.js`
  else if (typeof row.name !== 'string' || !SAFE_NAME.test(row.name)) problem = `${source}: program name ${JSON.stringify(row.name)} is not allowed: a name is ${SAFE_NAME_RULE}`
  else if (!Object.hasOwn(runtimes, row.runtime)) problem = `${source}: ${row.name}'s runtime ${JSON.stringify(row.runtime)} is none of the lab's: ${Object.keys(runtimes).join(', ')}`
  else if (!Array.isArray(row.command) || !row.command.every(part => typeof part === 'string')) problem = `${source}: ${row.name}'s command is not a list of strings`
  else if (row.needs !== undefined && !(Array.isArray(row.needs) && row.needs.every(name => typeof name === 'string' && BINDING.test(name)))) problem = `${source}: ${row.name}'s needs is not a list of bindings under just, one or two names deep ('net.read')`
  else if (row.needs !== undefined && !runtimes[row.runtime].lacks) problem = `${source}: ${row.name} has needs, but its runtime '${row.runtime}' cannot be asked which bindings it has; drop them`
  else if (earlier.some(program => program.name === row.name)) problem = `${source}: program name '${row.name}' is already taken (by ${earlier.find(program => program.name === row.name).module ?? 'experiments/stdio/programs.js'}); rename one`
  if (problem !== null) tableProblems.push(problem)
  return problem
}

// Throws the table's first problem as a usage error.
function checkTable () {
  if (tableProblems.length) throw new UsageError(tableProblems[0])
}

function findProgram (name) {
  return programs.find(program => program.name === name)
}

// Several Node versions side by side in one run: each Node row once per version, named
// node-sync@22, node-sync@26 ..., on that version's runtime.
function withNodeVersions (rows, versions) {
  if (versions.length === 0) return rows
  return rows.flatMap(row => (row.runtime !== 'node'
    ? [row]
    : versions.map(version => ({ ...row, name: `${row.name}@${nodeMajor(version)}`, runtime: nodeRuntimeName(version) }))))
}

// The argv for one program at one block size; v8Flags is [] for a timed run.
function commandLine (program, blockSize, v8Flags = []) {
  const runtime = runtimes[program.runtime]
  if (v8Flags.length && !runtime.v8Flags) throw new Error(`${program.name} takes no V8 flags: ${runtime.noGcTrace}`)
  return expandCommand(program, { '{bs}': String(blockSize), '{v8flags}': v8Flags.length ? runtime.v8Flags(v8Flags) : [] })
}

// Why a program cannot be timed reading a file (bench.js --feeder file); null if it can.
function fileFeedReason (program) {
  if (program.stdin === 'pipe') return 'it reads only a pipe (epoll refuses regular files)'
  return program.fileStdin ?? null
}

const STANDARD_LINE = /^size (\d+) reads (\d+) blocksize (\d+)$/m
const COUNT_ONLY_LINE = /^\s*(\d+)\s*$/m

// The reader's stdout as numbers: { size, reads, blockSize }, reads null when the
// program does not count them, or null when the output is not what it should print.
function parseOutput (program, stdout) {
  if (program.output === 'count-only') {
    const match = COUNT_ONLY_LINE.exec(stdout)
    return match ? { size: Number(match[1]), reads: null, blockSize: null } : null
  }
  const match = STANDARD_LINE.exec(stdout)
  return match ? { size: Number(match[1]), reads: Number(match[2]), blockSize: Number(match[3]) } : null
}

// The rows as `bench.js --list` shows them, with their command lines at blockSize.
function listing (rows, blockSize) {
  return rows.map(program => {
    const reason = unavailableReason(program)
    return {
      name: program.name,
      runtime: program.runtime,
      available: reason === null,
      unavailable: reason,
      honoursBlockSize: program.honoursBlockSize,
      ring: program.ring === true,
      gcTrace: runtimes[program.runtime].v8Flags ? 'V8 --trace-gc' : runtimes[program.runtime].noGcTrace,
      command: shellQuote(commandLine(program, blockSize)),
      note: program.note
    }
  })
}

// Cells in the order of the run's table (context.programs, else today's), then by block
// size: the plan shuffles each round, and the results should not read in its order.
function byTableOrder (context) {
  const names = (context?.programs ?? programs).map(program => program.name)
  const rank = name => (names.includes(name) ? names.indexOf(name) : names.length)
  return (a, b) => rank(a.program) - rank(b.program) || a.program.localeCompare(b.program) || a.blockSize - b.blockSize
}

module.exports = { programs, findProgram, byTableOrder, checkTable, extraModules, withNodeVersions, commandLine, unavailableReason, fileFeedReason, parseOutput, listing, BASELINE }
