'use strict'
// The runtimes the programs run on: how each is found, asked its version, given V8
// flags, and installed when it is missing. experiments/stdio/programs.js's rows name one each.
const crypto = require('node:crypto')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync, spawnSync } = require('node:child_process')
const { BUILD, NPM_BIN } = require('./paths')

const MEASURED_NODE_VERSIONS = require('../package.json').measuredNodeVersions
const DEFAULT_NODE_VERSION = MEASURED_NODE_VERSIONS[0]

const JUST_HOST = path.join(BUILD, 'just-host')
// The WebAssembly hosts' homes in build/ (docs/wasm.md): the wasmtime wheel ./setup.sh
// installs from PyPI (requirements.txt pins it), and the wasmer ./setup.sh --wasm builds.
const WASMTIME_PY = path.join(BUILD, 'wasmtime-py')
const WASMER_BIN = path.join(BUILD, 'wasmer', 'bin', 'wasmer')
// Debian's nginx and mini-httpd, unpacked by ./setup.sh (the http experiment's servers)
const DEBIAN_SERVERS = path.join(BUILD, 'debian')

function nodeBinary (version) {
  return path.join(BUILD, 'node', version, 'bin', 'node')
}

const nodeMajor = version => version.split('.')[0]
const nodeRuntimeName = version => `node@${nodeMajor(version)}`

function measuredNode (version) {
  return {
    label: `Node.js ${nodeMajor(version)}`,
    locate: () => nodeBinary(version),
    version: bin => firstLine(bin, ['--version']),
    lacks: (bin, needs) => nodeLacks(bin, needs),
    engine: 'v8',
    v8Flags: flags => flags,
    reopensClosedStdio: true,
    // the image carries only the default Node (docs/image.md)
    install: `run ./setup.sh, which installs Node ${version} from npm into build/node/ (in the image: ./setup.sh --runtime-only --node ${nodeMajor(version)})`
  }
}

// How each runtime is found, asked its version, and given V8 flags. An environment
// variable (JUST, NODE, BUN, DENO) points the lab at another binary of that runtime.
const runtimes = {
  native: {
    label: 'C (gcc -O3)',
    locate: () => null,
    version: () => compilerBuild().version,
    v8Flags: null,
    noGcTrace: 'native code: no garbage collector',
    reopensClosedStdio: false,
    install: 'run ./setup.sh, which builds the C readers with make'
  },
  coreutils: {
    label: 'GNU coreutils',
    locate: () => findOnPath('wc'),
    version: bin => firstLine(bin, ['--version']),
    v8Flags: null,
    noGcTrace: 'native code: no garbage collector',
    reopensClosedStdio: false,
    install: 'apt-get install coreutils'
  },
  // Asked with a script, never --version: see probeJust.
  just: {
    label: 'just(js)-compatible V8 host',
    locate: () => process.env.JUST || JUST_HOST,
    version: bin => justVersion(bin),
    lacks: (bin, needs) => justLacks(bin, needs),
    engine: 'v8',
    v8Flags: flags => flags,
    reopensClosedStdio: false,
    install: 'run ./setup.sh to build build/just-host, or set JUST=/path/to/just'
  },
  // The lab's host as a single binary with wc/wc.js built in (make -C host wcb).
  // Its own runtime, not 'just': JUST may point at real just(js), whose version
  // and label would then be wrong for this binary, which is always the lab's.
  'just-wcb': {
    label: 'just-host single binary (wc.js embedded)',
    // the host itself, its script built in: ranked among the host's readers, not as a runtime
    rankedAs: 'just',
    locate: () => path.join(BUILD, 'wcb'),
    version: bin => firstLine(bin, ['--version']),
    engine: 'v8',
    v8Flags: flags => flags,
    reopensClosedStdio: false,
    install: 'run ./setup.sh (or make) to build build/wcb'
  },
  // The Node the lab measures is pinned like Bun and Deno (package.json's
  // measuredNodeVersions, installed by setup.sh into build/node/), never whichever Node
  // happens to run the lab: bookworm's own is an end-of-life 18.
  node: {
    ...measuredNode(DEFAULT_NODE_VERSION),
    label: 'Node.js',
    locate: () => process.env.NODE || nodeBinary(DEFAULT_NODE_VERSION),
    install: `run ./setup.sh, which installs Node ${DEFAULT_NODE_VERSION} from npm into build/node/, or set NODE=/path/to/node`
  },
  ...Object.fromEntries(MEASURED_NODE_VERSIONS.map(version => [nodeRuntimeName(version), measuredNode(version)])),
  bun: {
    label: 'Bun',
    locate: () => process.env.BUN || findNpmBin('bun') || findOnPath('bun'),
    version: bin => firstLine(bin, ['--version']),
    engine: 'jsc',
    v8Flags: null,
    // under perf: JavaScriptCore's jitdump in the run's folder (Bun hands BUN_JSC_ options to
    // it), which the lab turns into a perf map (lib/perf.js)
    perfEnv: { BUN_JSC_useJITDump: '1', BUN_JSC_jitDumpDirectory: '.' },
    noGcTrace: 'Bun runs JavaScriptCore, which has no --trace-gc',
    reopensClosedStdio: true,
    install: 'run ./setup.sh (npm installs bun), or set BUN=/path/to/bun'
  },
  deno: {
    label: 'Deno',
    locate: () => process.env.DENO || findNpmBin('deno') || findOnPath('deno'),
    version: bin => firstLine(bin, ['--version']),
    engine: 'v8',
    v8Flags: flags => (flags.length ? [`--v8-flags=${flags.join(',')}`] : []),
    reopensClosedStdio: true,
    install: 'run ./setup.sh (npm installs deno), or set DENO=/path/to/deno'
  },
  // wasmtime as PyPI serves it: a wheel that carries the runtime as a library, driven by
  // wc/wasi.py on Debian's python3. Found only where the wheel is installed.
  wasmtime: {
    label: 'wasmtime',
    locate: () => (fs.existsSync(path.join(WASMTIME_PY, 'wasmtime')) ? pythonBinary() : null),
    version: bin => `wasmtime ${wheelVersion('wasmtime')} (PyPI wheel, ${firstLine(bin, ['--version'])})`,
    engine: 'wasm',
    v8Flags: null,
    // under perf: the module's code named in /tmp/perf-PID.map (wc/wasi.py sets the profiler)
    perfEnv: { LAB_WASM_PROFILER: 'perfmap' },
    noGcTrace: 'WebAssembly on wasmtime: no garbage collector',
    // wc/wasi.py puts a closed stdin on /dev/null, as Node, Bun and Deno do
    reopensClosedStdio: true,
    install: 'run ./setup.sh, which installs wasmtime from PyPI (requirements.txt) into build/wasmtime-py'
  },
  // Built from Rust crates by ./setup.sh --wasm (with LLVM, and WASIX's host networking),
  // which the default set-up leaves out for its many minutes.
  wasmer: {
    label: 'Wasmer',
    locate: () => process.env.WASMER || (isExecutable(WASMER_BIN) ? WASMER_BIN : findOnPath('wasmer')),
    version: bin => firstLine(bin, ['--version']),
    lacks: (bin, needs) => wasmerLacks(bin, needs),
    // a row's needs are the binary's features ('llvm'), not names its file uses
    needsFeatures: true,
    engine: 'wasm',
    v8Flags: null,
    noGcTrace: 'WebAssembly on wasmer: no garbage collector',
    // it reads a closed stdin as empty, as /dev/null (tests pin it)
    reopensClosedStdio: true,
    // what installs it, where the default set-up does not: its rows' tests skip without it
    optional: './setup.sh --wasm',
    install: 'run ./setup.sh --wasm, which builds wasmer 4.4.0 with cargo (about 11 minutes on ' +
      '2 cores, docs/wasm.md), or set WASMER=/path/to/wasmer'
  },
  // Servers users know, from Debian's packages, which ./setup.sh unpacks into build/debian
  // rather than installs: installing them would start them as services on port 80, and at
  // every boot. NGINX and MINI_HTTPD point the lab at others.
  nginx: {
    label: 'nginx',
    locate: () => process.env.NGINX || debianServer('nginx'),
    // nginx -v answers on stderr: "nginx version: nginx/1.22.1"
    version: bin => spawnSync(bin, ['-v'], { encoding: 'utf8', timeout: 20000 })
      .stderr.trim().replace(/^nginx version: /, ''),
    v8Flags: null,
    noGcTrace: 'native code: no garbage collector',
    reopensClosedStdio: false,
    install: 'run ./setup.sh, which unpacks Debian\'s nginx into build/debian, or set NGINX=/path/to/nginx'
  },
  'mini-httpd': {
    label: 'mini_httpd',
    locate: () => process.env.MINI_HTTPD || debianServer('mini_httpd'),
    version: bin => firstLine(bin, ['-V']),
    v8Flags: null,
    noGcTrace: 'native code: no garbage collector',
    reopensClosedStdio: false,
    install: 'run ./setup.sh, which unpacks Debian\'s mini-httpd into build/debian, or set ' +
      'MINI_HTTPD=/path/to/mini_httpd'
  },
  // A JavaScript runtime on wasmer. No registry this lab can reach serves it (docs/wasm.md),
  // so it is never found: its row says why.
  winterjs: {
    label: 'Winter.js',
    locate: () => null,
    version: bin => firstLine(bin, ['--version']),
    engine: 'spidermonkey',
    v8Flags: null,
    noGcTrace: 'Winter.js runs SpiderMonkey, which has no --trace-gc',
    reopensClosedStdio: false,
    optional: 'none: no registry here serves it',
    install: 'no registry here serves it (npm and PyPI have no winterjs; crates.io\'s winterjs ' +
      '0.1.0 is an empty placeholder; wasmer\'s registry is out of reach; docs/wasm.md)'
  }
}

// A server unpacked from Debian's package by ./setup.sh, else one on PATH, or null.
function debianServer (name) {
  const unpacked = path.join(DEBIAN_SERVERS, 'usr', 'sbin', name)
  if (isExecutable(unpacked)) return unpacked
  // an installed one: /usr/sbin is on root's PATH, not always on a user's
  return findOnPath(name) ?? (isExecutable(path.join('/usr/sbin', name)) ? path.join('/usr/sbin', name) : null)
}

// python3 itself, as it names itself: a python3 on PATH may be a script in front of it
// (pyenv's shim reads its version file through fd 0, which the strace pass then sees as
// 14 bytes of stdin the reader never counted). Asked once; null where there is none.
let python = null
function pythonBinary () {
  if (python === null) {
    const onPath = findOnPath('python3')
    try {
      const asked = ['-c', 'import sys; print(sys.executable)']
      python = onPath && execFileSync(onPath, asked, { encoding: 'utf8', timeout: 20000 }).trim()
    } catch {
      python = onPath
    }
    python = python || ''
  }
  return python || null
}

// The version of a wheel installed into build/wasmtime-py, from its dist-info folder.
function wheelVersion (name) {
  const info = fs.readdirSync(WASMTIME_PY).find(entry => entry.startsWith(`${name}-`) && entry.endsWith('.dist-info'))
  return info ? info.slice(name.length + 1, -'.dist-info'.length) : 'unknown'
}

// What a row may need of a wasmer (its needs), and how the binary is asked: its compilers
// are in `wasmer --version --verbose`, its host networking is `wasmer run --net`.
const WASMER_FEATURES = {
  llvm: { args: ['--version', '--verbose'], has: /^compiler: .*\bllvm\b/m, what: 'the LLVM compiler' },
  'wasix-net': { args: ['run', '--help'], has: /--net\b/, what: 'WASIX host networking (wasmer run --net)' }
}

// Why this wasmer cannot run a row that needs these of its features; null if it can.
// Asked of the binary, once each: a wasmer built without a feature does not list it.
const wasmerAnswers = new Map()
function wasmerLacks (binary, needs) {
  const unknown = needs.find(need => !WASMER_FEATURES[need])
  const known = Object.keys(WASMER_FEATURES).join(', ')
  if (unknown) return `the lab cannot ask wasmer for '${unknown}': a row needs one of ${known}`
  const missing = needs.find(need => {
    const { args, has } = WASMER_FEATURES[need]
    const key = `${binary}\t${args.join(' ')}`
    if (!wasmerAnswers.has(key)) {
      let text = ''
      try {
        text = execFileSync(binary, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 20000 })
      } catch {}
      wasmerAnswers.set(key, text)
    }
    return !has.test(wasmerAnswers.get(key))
  })
  if (!missing) return null
  return `${binary} was built without ${WASMER_FEATURES[missing].what}: run ./setup.sh --wasm, which builds one with it`
}

// just(js) binaries differ, and real just(js) 0.1.x has no --version: it takes any
// --word for an option of its own and, left with no script, starts its REPL, which
// waits on stdin or, given /dev/null, prints nothing. Nor has it the lab host's
// net.readRaw or sys.address. What every just runs is a script: this one prints the
// names under `just` two levels down ('net.read', 'sys.address') and its version,
// a string and `versions` on the lab's host, an object { just, v8, kernel } on just(js).
const JUST_PROBE_MARK = 'syscall-lab-just-probe '
const JUST_PROBE = 'const names = []; for (const key of Object.getOwnPropertyNames(just)) { names.push(key); const value = just[key]; ' +
  'if (value !== null && typeof value === \'object\') for (const inner of Object.getOwnPropertyNames(value)) names.push(key + \'.\' + inner) } ' +
  `just.print('${JUST_PROBE_MARK}' + JSON.stringify({ engine: just.engine, version: just.version, versions: just.versions, names }))\n`
const JUST_PROBE_TIMEOUT_MS = 10000

// Once per binary and process: { version, bindings } or, when the binary did not
// answer, { problem } saying how.
const justProbes = new Map()
function probeJust (binary) {
  if (!justProbes.has(binary)) justProbes.set(binary, runJustProbe(binary))
  return justProbes.get(binary)
}

function runJustProbe (binary) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-just-probe-'))
  try {
    const script = path.join(dir, 'probe.js')
    fs.writeFileSync(script, JUST_PROBE)
    // stdin /dev/null, so nothing can wait on it; stdout and stderr to files, not
    // pipes, so that a process the binary leaves behind cannot hold the lab up.
    const out = fs.openSync(path.join(dir, 'stdout'), 'w')
    const err = fs.openSync(path.join(dir, 'stderr'), 'w')
    let run
    try {
      run = spawnSync(binary, [script], { stdio: ['ignore', out, err], timeout: JUST_PROBE_TIMEOUT_MS, killSignal: 'SIGKILL' })
    } finally {
      fs.closeSync(out)
      fs.closeSync(err)
    }
    if (run.error?.code === 'ETIMEDOUT') return { problem: `gave no answer within ${JUST_PROBE_TIMEOUT_MS / 1000} s` }
    if (run.error) return { problem: `could not be started (${run.error.code ?? run.error.message})` }
    const answer = probeAnswer(fs.readFileSync(path.join(dir, 'stdout'), 'utf8'))
    if (answer === null) {
      const said = fs.readFileSync(path.join(dir, 'stderr'), 'utf8').trim().split('\n')[0]
      return { problem: `printed no answer, exit ${run.status ?? run.signal}${said ? `: ${said}` : ''}` }
    }
    return { version: justVersionText(answer), bindings: new Set(answer.names) }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

// The probe's line in what the binary printed, or null if it printed none.
function probeAnswer (stdout) {
  const line = stdout.split('\n').find(text => text.startsWith(JUST_PROBE_MARK))
  if (line === undefined) return null
  try {
    const answer = JSON.parse(line.slice(JUST_PROBE_MARK.length))
    return Array.isArray(answer?.names) ? answer : null
  } catch {
    return null
  }
}

// 'just-host 0.1.0 v8 10.2.154.26-node.37' (as its --version says) or 'just 0.1.13 v8 10.2.154.4'.
function justVersionText ({ engine, version, versions }) {
  const [name, number, v8] = typeof version === 'string'
    ? [typeof engine === 'string' ? engine : 'just', version, versions?.v8]
    : ['just', version?.just, version?.v8]
  if (typeof number !== 'string' || number === '') return null
  return typeof v8 === 'string' && v8 !== '' ? `${name} ${number} v8 ${v8}` : `${name} ${number}`
}

// Which just it was: its own word or, failing that, the binary's checksum.
function justVersion (binary) {
  const probe = probeJust(binary)
  if (probe.version) return probe.version
  const why = probe.problem ? `asked with a one-line script, it ${probe.problem}` : 'its just.version is empty'
  return `sha256 ${binarySha256(binary)} (${why})`
}

// Why this binary cannot run a reader that uses these bindings; null if it can, or if
// it did not answer: a binary that runs no script fails every run, which says so.
function justLacks (binary, needs) {
  const { bindings } = probeJust(binary)
  if (!bindings) return null
  const missing = needs.filter(name => !bindings.has(name))
  if (missing.length === 0) return null
  const names = missing.join(', ')
  if (binary !== JUST_HOST) {
    const host = isExecutable(JUST_HOST) ? probeJust(JUST_HOST).bindings : null
    const hostHas = host && missing.every(name => host.has(name))
    return `JUST=${binary} has no ${names}${hostHas ? ` (the lab's host has ${missing.length === 1 ? 'it' : 'them'}: unset JUST)` : ''}`
  }
  return `${binary} has no ${names}: run ./setup.sh to rebuild it`
}

// Why this Node cannot run a reader that uses these built-in modules ('ffi' for
// node:ffi); null if it can. Asked of the binary, not guessed from its version: a module
// may sit behind an --experimental- flag that a later version renames or drops.
const nodeModules = new Map()
function nodeLacks (binary, needs) {
  const missing = needs.map(name => nodeModule(binary, name)).find(answer => !answer.has)
  if (!missing) return null
  const { name, flag, version } = missing
  if (flag) {
    return `Node ${version} has node:${name} only behind ${flag}, which the lab does not set: ` +
      'pick a Node that has it on by default (--node)'
  }
  return `Node ${version} has no node:${name}: pick a Node that has it ` +
    '(--node; node:ffi came in 26.1.0, on by default from 26.9.0)'
}

// What one Node says of one built-in module, asked once: { name, has, flag, version }.
function nodeModule (binary, name) {
  const key = `${binary}\t${name}`
  if (!nodeModules.has(key)) {
    const script = `const flag = '--experimental-${name}'; console.log(JSON.stringify({ ` +
      `has: require('node:module').isBuiltin('node:${name}'), version: process.versions.node, ` +
      'flag: process.allowedNodeEnvironmentFlags.has(flag) ? flag : null }))'
    let answer = { has: false, flag: null, version: binary }
    try {
      answer = JSON.parse(firstLine(binary, ['--disable-warning=ExperimentalWarning', '-e', script]))
    } catch {}
    nodeModules.set(key, { name, ...answer })
  }
  return nodeModules.get(key)
}

const sha256s = new Map()
function binarySha256 (file) {
  if (!sha256s.has(file)) sha256s.set(file, crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex'))
  return sha256s.get(file)
}

// Written by make next to the binaries: the compiler that built them and its flags.
function compilerBuild () {
  const [version, flags] = fs.readFileSync(path.join(BUILD, 'compiler.txt'), 'utf8').split('\n')
  return { version, flags }
}

function firstLine (bin, args) {
  return execFileSync(bin, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 20000 })
    .split('\n')[0].trim()
}

// The executable `name` on PATH, or null.
function findOnPath (name) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const candidate = path.join(dir, name)
    if (isExecutable(candidate)) return candidate
  }
  return null
}

function findNpmBin (name) {
  const candidate = path.join(NPM_BIN, name)
  return isExecutable(candidate) ? candidate : null
}

function isExecutable (file) {
  try {
    fs.accessSync(file, fs.constants.X_OK)
    return fs.statSync(file).isFile()
  } catch {
    return false
  }
}

// Whether a runtime is one only an optional set-up installs (wasmer: ./setup.sh --wasm),
// or none here can (Winter.js), and is not here: its rows are then listed as unavailable,
// and their tests skip them, saying why.
function optionalMissing (runtimeName) {
  const runtime = runtimes[runtimeName]
  return Boolean(runtime?.optional) && runtime.locate() === null
}

// A --node value, a major ("22") or an exact version, as the pinned version it names.
function pinnedNodeVersion (text) {
  const version = MEASURED_NODE_VERSIONS.find(pinned => pinned === text || nodeMajor(pinned) === text)
  if (!version) {
    // an empty name (--node 22,,24) shown as such, not as a double space
    throw new Error(`Node ${text === '' ? "''" : text} is not pinned by the lab; pick from ` +
      `${MEASURED_NODE_VERSIONS.map(nodeMajor).join(', ')} (package.json measuredNodeVersions)`)
  }
  return version
}

const versionCache = new Map()
function runtimeVersion (runtimeName) {
  if (!versionCache.has(runtimeName)) {
    const runtime = runtimes[runtimeName]
    let version
    try {
      version = runtime.version(runtime.locate())
    } catch (err) {
      version = `unknown (${err.message.split('\n')[0]})`
    }
    versionCache.set(runtimeName, version)
  }
  return versionCache.get(runtimeName)
}

// A runtime as a row names it, with the version that ran it: 'Node 26.12.1', 'Bun 1.4.5',
// 'V8 10.2.154.26' for the host, 'gcc 12.2.0' for C; `version` as context.json records it.
function runtimeTitle (runtimeName, version) {
  const runtime = runtimes[runtimeName]
  if (!runtime || typeof version !== 'string') return runtime?.label ?? runtimeName
  const v8 = /\bv8 (\d+(?:\.\d+)+)/i.exec(version)
  if (runtime.engine === 'v8' && v8 && !/^v?\d/.test(version)) return `V8 ${v8[1]}`
  const number = /\d+\.\d+(?:\.\d+)?/.exec(version)?.[0]
  const name = runtimeName === 'native' ? 'gcc' : runtime.label.replace(/\.js( \d+)?$/, '').replace(/ \(.*\)$/, '')
  return number ? `${name} ${number}` : runtime.label
}

module.exports = {
  runtimes,
  WASMTIME_PY,
  WASMER_BIN,
  runtimeVersion,
  runtimeTitle,
  binarySha256,
  compilerBuild,
  isExecutable,
  optionalMissing,
  findOnPath,
  pinnedNodeVersion,
  nodeMajor,
  nodeRuntimeName,
  MEASURED_NODE_VERSIONS
}
