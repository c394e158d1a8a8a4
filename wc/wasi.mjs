// Runs a WASI command module (preview1) under node:wasi, as Node, Bun and Deno each have
// it: RUNTIME wc/wasi.mjs [--dev] MODULE.wasm [ARGS...]. The module gets the process's
// stdin, stdout and stderr; with --dev, /dev as a preopened folder (the ladder reads
// /dev/null); and, if it imports lab.cpu_ns, the process's CPU time in ns, which Bun's
// and Deno's WASI clocks do not give (calls/wasi.c). The module's exit code is the
// process's. The stdin reader it runs is wc/wc.c, built for wasm32-wasi.
import fs from 'node:fs'

const { process } = globalThis
// Deno prints node:wasi's ExperimentalWarning, and no flag of Deno's turns it off; the
// reader's stderr is for its own errors. Set before node:wasi loads.
const emitWarning = process.emitWarning
process.emitWarning = (warning, ...rest) => {
  if (!String(warning).startsWith('WASI is an experimental')) emitWarning.call(process, warning, ...rest)
}
const { WASI } = await import('node:wasi')

const argv = process.argv.slice(2)
const dev = argv[0] === '--dev'
const [file, ...args] = dev ? argv.slice(1) : argv
if (!file) {
  console.error('usage: RUNTIME wc/wasi.mjs [--dev] MODULE.wasm [ARGS...]')
  process.exit(2)
}
const wasi = new WASI({
  version: 'preview1',
  args: [file, ...args],
  env: {},
  preopens: dev ? { '/dev': '/dev' } : {},
  returnOnExit: true
})
const cpuNs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) * 1000
}
// Bun's WASI has no getImportObject; wasiImport is in all three.
const imports = { wasi_snapshot_preview1: wasi.wasiImport, lab: { cpu_ns: cpuNs } }
try {
  const instance = new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync(file)), imports)
  process.exitCode = wasi.start(instance)
} catch (error) {
  // a trap, or a module that does not load or link: one line, not a stack
  console.error(`${file}: ${error.name}: ${error.message}`)
  process.exitCode = 1
}
