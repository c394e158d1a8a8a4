'use strict'
// The fast-path check: whether a "fastest" reader (a row with `fastest`, experiments/stdio/
// programs.js) ran the way its runtime's maintainers call fast, asked of the engine itself
// in a run of its own, never a timed one: the tracing slows compiling and changes when it
// happens. A reader whose fast path did not engage has its cells failed with the reason,
// and is never ranked (experiments/stdio/summary.js).
//
// V8 (Node, Deno, the host): the reader's loop function must be compiled by TurboFan with a
// FastApiCall node in its graph (--trace-turbo writes each graph as JSON; a call V8 does
// not make fast is a generic API call there), and never deoptimised inside its loop
// (--trace-deopt, against the loop's JumpLoop offset from --print-bytecode). Two deopts
// are the normal course and allowed: Maglev's hand-over to TurboFan's on-stack entry, and
// one after the loop, where code that never ran before compiling has no type feedback
// (every recorded run has exactly one); a second one after the loop fails it.
// JavaScriptCore (Bun): the loop function must be compiled by DFG or FTL, each compile
// calling through a CallFFI node at the loop's call site (JSC_dumpDFGDisassembly; a
// generic call is a Call node), its optimised code never thrown away (Jettisoning), and
// no speculation failure but the one after its last call, where code that never ran
// before compiling exits (InadequateCoverage). BUN_JSC_<option> sets JavaScriptCore's
// options.
const fs = require('node:fs')
const path = require('node:path')
const { runtimes } = require('../../lib/runtimes')
const { counted } = require('../../lib/report/format')

// Maglev's tier-up into TurboFan's OSR code: a hand-over, not a fall to slower code.
const OSR_HANDOVER = /prepare for on stack replacement/

const V8_LOOP_FLAGS = loop => ['--trace-deopt', '--trace-turbo', `--trace-turbo-filter=${loop}`,
  '--print-bytecode', `--print-bytecode-filter=${loop}`]

// Concurrent JIT off, so that a compile is dumped whole before the process exits.
const JSC_ENV = ['BUN_JSC_useConcurrentJIT=0', 'BUN_JSC_reportCompileTimes=1',
  'BUN_JSC_printEachOSRExit=1', 'BUN_JSC_dumpDFGDisassembly=1']

// How the check runs a reader: 'v8', 'jsc', or null where its engine offers no way.
function engineOf (program) {
  return runtimes[program.runtime].engine ?? null
}

// Why a fastest row cannot be checked here, or null.
function uncheckableReason (program) {
  if (!program.fastest) return null
  if (engineOf(program) === null) return `${runtimes[program.runtime].label} offers no trace of its calls`
  return null
}

// The check run's argv: the reader's command with its engine's tracing. `dir` takes the
// graphs V8 writes; commandLine is programs.js's.
function checkArgv (program, blockSize, dir, commandLine) {
  const { loop } = program.fastest
  if (engineOf(program) === 'v8') {
    const files = [`--trace-turbo-path=${dir}`, `--trace-turbo-cfg-file=${path.join(dir, 'turbo.cfg')}`]
    return commandLine(program, blockSize, [...V8_LOOP_FLAGS(loop), ...files])
  }
  return ['env', ...JSC_ENV, ...commandLine(program, blockSize)]
}

// --trace-deopt's lines for `loop`: { kind, reason, code, offset }.
const BAILOUT = new RegExp('^\\[bailout \\(kind: ([\\w-]+), reason: (.*?)\\): begin\\. deoptimizing ' +
  '.*?<JSFunction (\\S+)[^>]*>(?:, [^<]*<Code (\\w+)>)?.*?bytecode offset (\\d+)')
function v8Deopts (text, loop) {
  const deopts = []
  for (const line of text.split('\n')) {
    const match = BAILOUT.exec(line)
    if (match && match[3] === loop) {
      deopts.push({ kind: match[1], reason: match[2], code: match[4] ?? null, offset: Number(match[5]) })
    }
  }
  return deopts
}

// The offset of the loop function's last JumpLoop, the end of its loop, from
// --print-bytecode (printed for `loop` alone); null if none was printed.
const JUMP_LOOP = /@\s+(\d+) : [0-9a-f ]+\s+JumpLoop\b/
function loopEnd (text) {
  let end = null
  for (const line of text.split('\n')) {
    const match = JUMP_LOOP.exec(line)
    if (match) end = Math.max(end ?? 0, Number(match[1]))
  }
  return end
}

// Each TurboFan graph V8 wrote for `loop`: the most FastApiCall nodes any of its phases
// holds (inlining makes them, a later lowering turns them into machine calls), or null
// where the file is cut short (the process ended mid-compile).
function v8Graphs (dir, loop) {
  const prefix = `turbo-${loop}-`
  const files = (fs.existsSync(dir) ? fs.readdirSync(dir) : [])
    .filter(name => name.startsWith(prefix) && name.endsWith('.json'))
  const order = name => Number(/-(\d+)\.json$/.exec(name)?.[1] ?? 0)
  return files.sort((a, b) => order(a) - order(b)).map(file => {
    let graph
    try {
      graph = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'))
    } catch {
      return { file, fastCalls: null }
    }
    const perPhase = (graph.phases ?? []).map(phase => (phase.data?.nodes ?? [])
      .filter(node => /^FastApiCall\b/.test(node.title ?? '')).length)
    return { file, fastCalls: Math.max(0, ...perPhase) }
  })
}

// The verdict from V8's traces: { engaged, reason, evidence }.
function v8Verdict ({ text, graphs, loop }) {
  const end = loopEnd(text)
  const deopts = v8Deopts(text, loop)
  const fallen = deopts.filter(deopt => !OSR_HANDOVER.test(deopt.reason))
  const inLoop = fallen.filter(deopt => end === null || deopt.offset <= end)
  const afterLoop = fallen.filter(deopt => end !== null && deopt.offset > end)
  const where = deopt => `${deopt.reason} (${deopt.kind}, bytecode offset ${deopt.offset})`
  const evidence = { engine: 'V8', loop, loopEndOffset: end, graphs, deopts }
  const fail = reason => ({ engaged: false, reason, evidence })
  if (graphs.length === 0) return fail(`TurboFan never compiled ${loop}()`)
  if (end === null) return fail(`V8 printed no bytecode for ${loop}(), so its loop cannot be told apart`)
  if (inLoop.length) {
    return fail(`${loop}() deoptimised inside its loop ${counted(inLoop.length, 'time')}, first: ${where(inLoop[0])}`)
  }
  if (afterLoop.length > 1) {
    return fail(`${loop}() deoptimised after its loop ${counted(afterLoop.length, 'time')}, ` +
      `where once is the normal course, first: ${where(afterLoop[0])}`)
  }
  if (graphs.some(graph => graph.fastCalls === 0)) return fail(`TurboFan compiled ${loop}() with no fast API call`)
  if (graphs.some(graph => graph.fastCalls === null)) return fail(`a TurboFan graph of ${loop}() was cut short`)
  const calls = graphs.map(graph => graph.fastCalls).join(', ')
  return {
    engaged: true,
    reason: null,
    evidence,
    summary: `TurboFan compiled ${loop}() ${counted(graphs.length, 'time')} with ${calls} fast API ` +
      `${graphs.every(graph => graph.fastCalls === 1) ? 'call' : 'calls'}; ` +
      `no deopt inside its loop, ${afterLoop.length} after it`
  }
}

const JSC_COMPILED = /^Optimized (\S+?)#\S+ .* using (DFG|FTL|FTLForOSREntry) with/
// A dump of a compile's graph or code: the DFG tier's, or the graph an FTL compile lowers
// ("61: DFG for", numbered by phase) and then its code, whose DFG lines name no block.
const JSC_SECTION = /^(?:Generated (?:DFG JIT|FTL|FTLForOSREntry) code for|\s*\d+: DFG for) (\S+?)#/
const JSC_ANY_SECTION = /^(?:Generated |Optimized |\s*\d+: DFG for )/
const JSC_BLOCK = /\bBlock #\d+ \(bc#\d+\)/
// Printed under a block's header, before its nodes, where the block is in a loop.
const JSC_IN_LOOP = /^[\s\d]*:?\s*Containing loop headers:/
// A node (D@79:<!3:loc10>\tCallFFI(…, bc#62, …)) of any call kind, its origin the first
// bc#: an inlined callee's index follows its caller's.
const JSC_CALL = /\bD@\d+:<[^>]*>\s+((?:Direct)?(?:Call|Construct|TailCall)\w*)\(.*?\bbc#(\d+)/
const JSC_JETTISON = /^Jettisoning (\S+?)#/
const JSC_FAILURE = /^Speculation failure in (\S+?)#.*?@ exit #\d+ \(bc#(\d+), (\w+)\)/

// Each DFG or FTL compile of `loop` in order: { tier, calls: [{ kind, offset, inLoop }] },
// inLoop null where the line names no block (an FTL compile's code repeats its graph's
// nodes). A compile is known by its "Optimized" line; one the process ended before is
// left out.
function jscCompiles (lines, loop) {
  const compiles = []
  let calls = []
  let section = null
  let inLoop = null
  for (const line of lines) {
    const compiled = JSC_COMPILED.exec(line)
    if (compiled?.[1] === loop) {
      compiles.push({ tier: compiled[2], calls })
      calls = []
    }
    if (JSC_ANY_SECTION.test(line)) {
      section = JSC_SECTION.exec(line)?.[1] ?? null
      inLoop = null
      continue
    }
    if (section !== loop) continue
    const call = JSC_CALL.exec(line)
    if (JSC_BLOCK.test(line)) inLoop = false
    else if (JSC_IN_LOOP.test(line)) inLoop = true
    else if (call) calls.push({ kind: call[1], offset: Number(call[2]), inLoop })
  }
  return compiles
}

// The verdict from JavaScriptCore's dumps: { engaged, reason, evidence }. The loop's call
// sites are the bytecode indices of the calls any compile places inside a loop; every
// compile must call through CallFFI there, at each node. A call before the loop is not
// asked: it runs once a call, and not at all in optimised code entered at the loop
// (on-stack entry); bun-ffi's, having run once when they compile, is a generic Call in its
// DFG and FTL compiles and absent from FTLForOSREntry's, which begins at the loop.
function jscVerdict ({ text, loop }) {
  const lines = text.split('\n')
  const compiles = jscCompiles(lines, loop)
  const jettisons = lines.filter(line => JSC_JETTISON.exec(line)?.[1] === loop).length
  const failures = lines.map(line => JSC_FAILURE.exec(line))
    .filter(match => match && match[1] === loop)
    .map(match => ({ offset: Number(match[2]), kind: match[3] }))
  const loopCallSites = [...new Set(compiles.flatMap(compile => compile.calls)
    .filter(call => call.inLoop).map(call => call.offset))].sort((a, b) => a - b)
  const lastCallOffset = loopCallSites.length ? Math.max(...loopCallSites) : null
  // what never ran before compiling exits once the loop is done, after its last call
  const afterLoop = failure => failure.kind === 'InadequateCoverage' && lastCallOffset !== null &&
    failure.offset > lastCallOffset
  const bad = failures.filter(failure => !afterLoop(failure))
  const tiers = [...new Set(compiles.map(compile => compile.tier))].sort()
  const evidence = {
    engine: 'JavaScriptCore',
    loop,
    tiers,
    loopCallSites,
    compiles: compiles.map(({ tier, calls }) => ({
      tier, loopCalls: calls.filter(call => loopCallSites.includes(call.offset))
    })),
    jettisons,
    failures
  }
  const fail = reason => ({ engaged: false, reason, evidence })
  if (compiles.length === 0) return fail(`neither DFG nor FTL compiled ${loop}()`)
  if (loopCallSites.length === 0) return fail(`no compile of ${loop}() holds a call inside its loop`)
  const sites = loopCallSites.map(offset => `bc#${offset}`).join(', ')
  for (const [index, { tier, loopCalls }] of evidence.compiles.entries()) {
    const which = `its ${tier} compile (${index + 1} of ${compiles.length})`
    const other = loopCalls.find(call => call.kind !== 'CallFFI')
    if (other) {
      return fail(`${loop}()'s loop calls through ${other.kind}, not CallFFI, ` +
        `at bc#${other.offset} in ${which}`)
    }
    if (loopCalls.length === 0) return fail(`${loop}()'s loop has no call at ${sites} in ${which}`)
  }
  if (jettisons) return fail(`${loop}()'s optimised code was thrown away ${counted(jettisons, 'time')} (Jettisoning)`)
  if (bad.length) {
    const first = `${bad[0].kind} at bc#${bad[0].offset}`
    return fail(`${loop}() failed a speculation inside its loop ${counted(bad.length, 'time')}, first: ${first}`)
  }
  return {
    engaged: true,
    reason: null,
    evidence,
    summary: `${tiers.join(', ')} compiled ${loop}() ${counted(compiles.length, 'time')}, its loop calling ` +
      `through CallFFI at ${sites} each time; never thrown away, ` +
      'no speculation failure inside its loop'
  }
}

// The verdict of one check run: its trace (stdout and stderr) and, for V8, its graphs.
function verdict (program, text, dir) {
  const { loop } = program.fastest
  if (engineOf(program) === 'v8') return v8Verdict({ text, graphs: v8Graphs(dir, loop), loop })
  return jscVerdict({ text, loop })
}

module.exports = {
  checkArgv,
  verdict,
  v8Verdict,
  jscVerdict,
  jscCompiles,
  v8Deopts,
  loopEnd,
  v8Graphs,
  engineOf,
  uncheckableReason
}
