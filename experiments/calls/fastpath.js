'use strict'
// The ladder's fast-path check: whether each loop whose calls a variant's boundary makes fast
// (its `fast` loops, experiments/calls/ladder.js) ran that way, asked of the engine as the
// stdin readers' check asks it (experiments/stdio/fastpath.js): V8's TurboFan compiled the
// loop with a FastApiCall node and it never deoptimised inside it; JavaScriptCore's DFG or
// FTL called through CallFFI there. Each variant's check is a process of its own, before the
// timed ones: the tracing slows compiling. V8 traces every function it compiles there (a
// filter of *): traced one loop a process, TurboFan compiled node-ffi's noop() before or
// after node:ffi's own invoke(), and so inlined it or not, in 2 processes of 5; traced all,
// after it in 5 of 5. A variant whose check fails has its processes failed (summariseLadder):
// its rungs would be another form's than the one named.
const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')
const { runtimes } = require('../../lib/runtimes')
const { runPipeline, runHeld, ddFeeder, shellQuote } = require('../../lib/pipeline')
const { writeFileAtomic } = require('../../lib/atomic')
const { NAMING_BUDGET_MS } = require('../../lib/native-code')
const {
  checkTracing, loopVerdict, v8Graphs, v8Deopts, OSR_HANDOVER, nameFastCalls, targetFinding,
  reachesExpected
} = require('../stdio/fastpath')
const { counted } = require('../../lib/report/format')
const { FIXED_FEEDER_BLOCK } = require('../stdio/measure')
const { FAST_PHASE, BLOCK, ladderArgv, ladderBytes, parseLadder, ladderFailure } = require('./ladder')

// The timed ladder's own counts (options.ladder), so that what the check reads is the code
// its rounds run: at 1000 calls a round, as until 2026-12-06, Bun's getppid loop was DFG's
// alone, and its FTL compile came in the timed rounds' calls, unchecked (a review, with
// BUN_JSC_reportCompileTimes). The traces grow with compiles, not calls; these are the
// counts where none is given.
const CHECK_COUNTS = { rounds: 1, calls: 1000, reads: 256 }
const tracedCounts = ladder => (ladder
  ? { rounds: ladder.rounds, calls: ladder.calls, reads: ladder.reads }
  : CHECK_COUNTS)

// The checks of the selected variants, one each, on the ladder's CPU.
function fastPathSteps (selected, pin) {
  const group = 'the ladders\' fast paths'
  return selected.filter(variant => variant.fast?.length).map(variant => ({
    phase: FAST_PHASE,
    program: variant,
    variant,
    loops: variant.fast,
    blockSize: BLOCK,
    run: 0,
    warmup: 0,
    pin,
    group,
    label: `${group}: ${variant.name}, ${variant.fast.map(loop => `${loop}()`).join(', ')}`
  }))
}

const engineOf = variant => runtimes[variant.runtime].engine

// A variant's ladder command with V8's flags (every function traced) before its file, where V8
// takes them, or JavaScriptCore's environment.
function tracedArgv (variant, dir, counts = CHECK_COUNTS) {
  const at = variant.command.indexOf('{file}')
  if (at === -1 || !['v8', 'jsc'].includes(engineOf(variant))) {
    throw new Error(`${variant.name}: a variant with fast loops needs a {file} in its command and ` +
      'an engine that traces its calls (V8 or JavaScriptCore)')
  }
  const { v8Flags, env } = checkTracing(engineOf(variant), '*', dir)
  const flags = v8Flags.length ? runtimes[variant.runtime].v8Flags(v8Flags) : []
  const command = [...variant.command.slice(0, at), ...flags, ...variant.command.slice(at)]
  const argv = ladderArgv({ ...variant, command }, counts)
  return env.length ? ['env', ...env, ...argv] : argv
}

// The ladder's own lines in a stdout V8's traces share. V8 writes its lines out in pieces, so
// a ladder's line (one write) can land after part of one of V8's, ending that line: node-ffi's
// could not be read once in an e2e run, and with stdbuf -oL in 4 checks of 12. Each is found
// where it ends a line; and taken out with its newline, V8's line it cut is whole again for
// the verdict, which reads V8's lines from their start (a deopt's among them).
const LADDER_LINE = '(?:compiled noop |round \\d+ noop |size \\d+ reads )[^\\n]*'
const LINE_END = new RegExp(`${LADDER_LINE}$`)
const WITH_NEWLINE = new RegExp(`${LADDER_LINE}\\n`, 'g')
const ladderLines = stdout => stdout.split('\n').map(line => LINE_END.exec(line)?.[0]).filter(Boolean).join('\n')
const withoutLadderLines = text => text.replace(WITH_NEWLINE, '')

// gzipped: V8's bytecode of every function it compiled is 8 MB for node-ffi
const rawFileName = step => path.join(FAST_PHASE, `${step.variant.name}.txt.gz`)

// A loop whose graph holds no fast call, where its runtime's FFI function is a JavaScript
// function of its own (`wrapper`: node:ffi's invoke(), one for every symbol) that TurboFan
// compiled apart rather than inlined into the loop: the fast call is in that function's code.
// Held only where each of the loop's graphs without a fast call holds the wrapper as its
// call's target, every compile of the wrapper holds a fast call, and the wrapper never
// deoptimised (but for Maglev's hand-over to TurboFan). The loop then pays a JavaScript call
// besides, which the summary says (`viaWrapper`). naming: what the wrapper's fast calls were
// found to reach (nameFastCalls); one of them must reach `expected` (in `expectedFile`), as the
// loop's own must.
function throughWrapper (verdict,
  { wrapper, loop, text, dir, naming = null, expected = null, expectedFile = null }) {
  if (verdict.engaged || !wrapper || !/with no fast API call$/.test(verdict.reason ?? '')) return verdict
  const calls = verdict.evidence.graphs.filter(graph => graph.fastCalls === 0)
    .every(graph => graph.functions.includes(wrapper))
  const graphs = v8Graphs(dir, wrapper)
  const fast = graphs.length > 0 && graphs.every(graph => graph.fastCalls > 0)
  const deopts = v8Deopts(text, wrapper).filter(deopt => !OSR_HANDOVER.test(deopt.reason))
  if (!calls || !fast || deopts.length) return verdict
  // the wrapper serves every loop: its fast calls, named together, must include this loop's
  const target = targetFinding(naming, wrapper, expected, expectedFile)
  if (target.failure) return { ...verdict, reason: target.failure }
  return {
    ...verdict,
    engaged: true,
    reason: null,
    viaWrapper: wrapper,
    summary: `TurboFan compiled ${loop}() calling ${wrapper}() without inlining it; ` +
      `${counted(graphs.length, 'compile')} of ${wrapper}() ${graphs.length === 1 ? 'holds' : 'hold'} ` +
      'fast API calls, and neither deoptimised',
    reaches: target.reaches
  }
}

// One check process: dd feeding the traced ladder, then the engine's verdict on each loop.
// The trace stays in the run folder as the evidence; V8's graphs are removed once read.
async function measureFastPath (step, options, runDir) {
  const dir = path.join(runDir, FAST_PHASE, `${step.variant.name}.graphs`)
  fs.rmSync(dir, { recursive: true, force: true })
  fs.mkdirSync(dir, { recursive: true })
  const counts = tracedCounts(options.ladder)
  const bytes = ladderBytes(counts)
  const feeder = ddFeeder(bytes, FIXED_FEEDER_BLOCK)
  const reader = tracedArgv(step.variant, dir, counts)
  // V8's held open once fed, so that each loop's fast calls are named in the ladder's memory
  // (experiments/stdio/fastpath.js nameFastCalls): V8's graphs alone give their addresses
  const held = engineOf(step.variant) === 'v8'
  const wrapper = step.variant.fastWrapper
  const callers = [...step.loops, ...(wrapper ? [wrapper] : [])]
  const look = pid => {
    const deadline = Date.now() + NAMING_BUDGET_MS // one for all the loops
    return Object.fromEntries(callers.map(fn => [fn, nameFastCalls(pid, dir, fn, deadline)]))
  }
  try {
    const spec = { feeder, reader, timeoutMs: options.timeoutSeconds * 1000, pin: step.pin }
    const { result, seen: naming } = held
      ? await runHeld(spec, path.join(dir, '.held'), look)
      : { result: await runPipeline(spec), seen: null }
    const output = parseLadder(ladderLines(result.stdout))
    let failure = ladderFailure({ result, output, counts, bytes, timeoutSeconds: options.timeoutSeconds })
    const text = `${result.stdout}\n${result.stderr}`
    writeFileAtomic(path.join(runDir, rawFileName(step)), zlib.gzipSync(text))
    const trace = withoutLadderLines(text)
    const fastPath = failure === null
      ? step.loops.map(loop => {
        const expected = step.variant.fastTargets?.[loop] ?? null
        const expectedFile = step.variant.fastTargetFiles?.[loop] ?? null
        const verdict = loopVerdict(engineOf(step.variant), loop, trace, dir, naming?.[loop] ?? null, expected,
          expectedFile)
        const wrapperNaming = naming?.[wrapper] ?? null
        const found = throughWrapper(verdict,
          { wrapper, loop, text: trace, dir, naming: wrapperNaming, expected, expectedFile })
        const { engaged, reason, summary = null, viaWrapper = null, reaches = null, evidence } = found
        // the C function its fast call was found to reach, where it was: the one the variant names
        const callerNaming = viaWrapper ? wrapperNaming : naming?.[loop]
        const target = engaged && expected && reachesExpected(callerNaming, expected) ? expected : null
        return { loop, engaged, reason, summary, viaWrapper, reaches, target, evidence }
      })
      : []
    const unheld = fastPath.find(verdict => !verdict.engaged)
    if (unheld) failure = `fast path not taken: ${unheld.reason}`
    const record = {
      phase: FAST_PHASE,
      program: step.variant.name,
      blockSize: BLOCK,
      run: step.run,
      loops: step.loops,
      ok: failure === null,
      failure,
      command: `${shellQuote(feeder)} | ${shellQuote(reader)}`,
      // its pipe held open once fed (lib/pipeline.js runHeld): wallNs and the feeder's usage
      // hold the wait, not dd's alone
      ...(held ? { held } : {}),
      rawFile: rawFileName(step),
      fastPath,
      wallNs: result.wallNs,
      at: new Date().toISOString()
    }
    return { record, stopped: Boolean(result.stoppedBy) }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

module.exports = {
  fastPathSteps, measureFastPath, tracedArgv, throughWrapper, ladderLines, withoutLadderLines, CHECK_COUNTS
}
