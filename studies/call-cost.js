// What one call into read(2) costs from JS, beyond the syscall itself:
// zero-byte reads of stdin return at once, so the loop times the call path.
// net.readRaw takes an address found once; net.read checks its buffer on
// every call, and the difference is that check. Run alone, on an idle
// machine:  build/just-host studies/call-cost.js [ROUNDS [CALLS]] < /dev/null
// (stdin must be readable; the best of ROUNDS rounds is printed.)
// It runs in the host, not Node, so it answers --help and bad arguments as lib/cli.js
// does for the Node tools, by hand.
// Run by Node, not the host: one line that says what runs it, as lib/cli.js's notACommand.
if (typeof just === 'undefined') {
  process.stderr.write('call-cost.js runs in the lab\'s V8 host, not Node: build/just-host studies/call-cost.js ' +
    '(build/just-host studies/call-cost.js --help says how)\n')
  process.exit(2)
}
const { net, sys } = just
const USAGE = `usage: build/just-host studies/call-cost.js [ROUNDS [CALLS]] < /dev/null
  ns per zero-byte read of stdin through net.readRaw and net.read, the best of ROUNDS
  rounds (default 8) of CALLS calls each (default 10000000)`
if (just.args[2] === '--help') {
  just.print(USAGE)
  just.exit(0)
}
const flag = just.args.slice(2).find(arg => arg.startsWith('-')) ?? just.args[4]
if (flag !== undefined) {
  just.error(`call-cost.js: unknown argument ${flag}; it takes ROUNDS and CALLS only (${USAGE.split('\n')[0]})`)
  just.exit(2)
}
const ROUNDS = Number(just.args[2] || 8)
const CALLS = Number(just.args[3] || 10_000_000)
if (!(Number.isSafeInteger(ROUNDS) && ROUNDS > 0 && Number.isSafeInteger(CALLS) && CALLS > 0)) {
  just.error(`call-cost.js: ROUNDS and CALLS must be whole numbers above 0 (${USAGE.split('\n')[0]})`)
  just.exit(2)
}

// Each loop takes what it calls as parameters: top-level consts would be
// loaded from the script context on every turn (see wc/wc-fast.js).
function timeRaw (readRaw, address, calls) {
  let sum = 0
  for (let i = 0; i < calls; i++) sum += readRaw(0, address, 0)
  return sum
}
function timeRead (read, buffer, calls) {
  let sum = 0
  for (let i = 0; i < calls; i++) sum += read(0, buffer, 0, 0)
  return sum
}

const ab = new ArrayBuffer(256)
const view = new Uint8Array(ab, 16, 64)
const loops = {
  'net.readRaw(0, address, 0)': () => timeRaw(net.readRaw, sys.address(ab), CALLS),
  'net.read(0, arrayBuffer, 0, 0)': () => timeRead(net.read, ab, CALLS),
  'net.read(0, uint8Array, 0, 0)': () => timeRead(net.read, view, CALLS)
}

const best = {}
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, loop] of Object.entries(loops)) {
    const start = Date.now()
    if (loop() !== 0) throw new Error(`${name}: a zero-byte read returned non-zero (${sys.strerror()})`)
    best[name] = Math.min(best[name] ?? Infinity, (Date.now() - start) * 1e6 / CALLS)
  }
}
const floor = best['net.readRaw(0, address, 0)']
for (const [name, ns] of Object.entries(best)) {
  const over = ns - floor
  just.print(`${name.padEnd(32)} ${ns.toFixed(1).padStart(6)} ns/call  ${over < 0 ? '' : '+'}${over.toFixed(1)}`)
}
