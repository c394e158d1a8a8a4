'use strict'
// The runtimes the programs run on: how each is found, asked its version, given V8
// flags, and installed when it is missing. lib/programs.js's rows name one each.
const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { BUILD, NPM_BIN } = require('./paths')

const MEASURED_NODE_VERSIONS = require('../package.json').measuredNodeVersions
const DEFAULT_NODE_VERSION = MEASURED_NODE_VERSIONS[0]

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
    v8Flags: flags => flags,
    reopensClosedStdio: true,
    install: `run ./setup.sh, which installs Node ${version} from npm into build/node/`
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
  just: {
    label: 'just(js)-compatible V8 host',
    locate: () => process.env.JUST || path.join(BUILD, 'just-host'),
    version: bin => firstLine(bin, ['--version']),
    v8Flags: flags => flags,
    reopensClosedStdio: false,
    install: 'run ./setup.sh to build build/just-host, or set JUST=/path/to/just'
  },
  // The lab's host as a single binary with wc/wc.js built in (make -C host wcb).
  // Its own runtime, not 'just': JUST may point at real just(js), whose version
  // and label would then be wrong for this binary, which is always the lab's.
  'just-wcb': {
    label: 'just-host single binary (wc.js embedded)',
    locate: () => path.join(BUILD, 'wcb'),
    version: bin => firstLine(bin, ['--version']),
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
    v8Flags: null,
    noGcTrace: 'Bun runs JavaScriptCore, which has no --trace-gc',
    reopensClosedStdio: true,
    install: 'run ./setup.sh (npm installs bun), or set BUN=/path/to/bun'
  },
  deno: {
    label: 'Deno',
    locate: () => process.env.DENO || findNpmBin('deno') || findOnPath('deno'),
    version: bin => firstLine(bin, ['--version']),
    v8Flags: flags => (flags.length ? [`--v8-flags=${flags.join(',')}`] : []),
    reopensClosedStdio: true,
    install: 'run ./setup.sh (npm installs deno), or set DENO=/path/to/deno'
  }
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

// A --node value, a major ("22") or an exact version, as the pinned version it names.
function pinnedNodeVersion (text) {
  const version = MEASURED_NODE_VERSIONS.find(pinned => pinned === text || nodeMajor(pinned) === text)
  if (!version) throw new Error(`Node ${text} is not pinned by the lab; pick from ${MEASURED_NODE_VERSIONS.map(nodeMajor).join(', ')} (package.json measuredNodeVersions)`)
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

module.exports = { runtimes, runtimeVersion, compilerBuild, isExecutable, pinnedNodeVersion, nodeMajor, nodeRuntimeName, MEASURED_NODE_VERSIONS }
