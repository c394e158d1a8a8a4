'use strict'
// The fast-path check's reading of the engines' traces, on traces recorded from real runs
// (test/fixtures/fastpath/, addresses blanked, kept to the lines the check reads) and on
// hand-made TurboFan graphs; and what the summary makes of a check that failed.
const { test, describe, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const fastpath = require('../../experiments/stdio/fastpath')
const { commandLine, findProgram } = require('../../experiments/stdio/programs')
const { summariseResults } = require('../../experiments/stdio/summary')

const TRACES = path.join(__dirname, '..', 'fixtures', 'fastpath')
const trace = name => fs.readFileSync(path.join(TRACES, `${name}.txt`), 'utf8')
const ONE_FAST_GRAPH = [{ file: 'turbo-count-14.json', fastCalls: 1 }]

const tempDirs = []
after(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
})

describe('V8: TurboFan compiled the loop with a fast call, and it never deoptimised inside it', () => {
  test('the loop ends at its last JumpLoop; deopts are read with their reason, code and offset', () => {
    const text = trace('node-ffi')
    assert.equal(fastpath.loopEnd(text), 55)
    assert.deepEqual(fastpath.v8Deopts(text, 'count'), [
      { kind: 'deopt-eager', reason: 'prepare for on stack replacement (OSR)', code: 'MAGLEV', offset: 55 },
      {
        kind: 'deopt-eager',
        reason: 'Insufficient type feedback for generic named access',
        code: 'TURBOFAN_JS',
        offset: 66
      }
    ])
    assert.deepEqual(fastpath.v8Deopts(text, 'other'), [])
  })

  test('node-ffi: Maglev\'s hand-over to OSR and one deopt after the loop are allowed', () => {
    const verdict = fastpath.v8Verdict({ text: trace('node-ffi'), graphs: ONE_FAST_GRAPH, loop: 'count' })
    assert.equal(verdict.engaged, true)
    assert.equal(verdict.summary,
      'TurboFan compiled count() 1 time with 1 fast API call; no deopt inside its loop, 1 after it')
  })

  test('a second deopt after the loop fails it: every real trace has one', () => {
    const text = trace('node-ffi')
    const afterLoop = text.split('\n').find(line => line.includes('bytecode offset 66'))
    const again = afterLoop.replace('opt id 14', 'opt id 15').replace('offset 66', 'offset 70')
    const verdict = fastpath.v8Verdict({ text: `${text}\n${again}\n`, graphs: ONE_FAST_GRAPH, loop: 'count' })
    assert.equal(verdict.engaged, false)
    assert.equal(verdict.reason, 'count() deoptimised after its loop 2 times, where once is the normal ' +
      'course, first: Insufficient type feedback for generic named access (deopt-eager, bytecode offset 66)')
  })

  test('a deopt inside the loop fails it, with the first reason', () => {
    const verdict = fastpath.v8Verdict({ text: trace('node-deopt'), graphs: ONE_FAST_GRAPH, loop: 'count' })
    assert.equal(verdict.engaged, false)
    assert.equal(verdict.reason, 'count() deoptimised inside its loop 1 time, first: ' +
      'Insufficient type feedback for binary operation (deopt-eager, bytecode offset 25)')
  })

  test('Deno given a Number for a usize: "not a BigInt", deopt after deopt', () => {
    const verdict = fastpath.v8Verdict({ text: trace('deno-number-length'), graphs: ONE_FAST_GRAPH, loop: 'count' })
    assert.equal(verdict.engaged, false)
    assert.equal(verdict.reason,
      'count() deoptimised inside its loop 8 times, first: not a BigInt (deopt-eager, bytecode offset 39)')
  })

  test('no graph, a graph with no fast call, a graph cut short, no bytecode: each fails with its reason', () => {
    const text = trace('node-ffi')
    const reason = (graphs, lines = text) => fastpath.v8Verdict({ text: lines, graphs, loop: 'count' }).reason
    assert.equal(reason([]), 'TurboFan never compiled count()')
    const graph = fastCalls => ({ file: 'turbo-count-20.json', fastCalls })
    assert.equal(reason([...ONE_FAST_GRAPH, graph(0)]), 'TurboFan compiled count() with no fast API call')
    assert.equal(reason([graph(null)]), 'a TurboFan graph of count() was cut short')
    assert.equal(reason(ONE_FAST_GRAPH, ''), 'V8 printed no bytecode for count(), so its loop cannot be told apart')
  })

  test('graphs: the most FastApiCall nodes of any phase, in the order V8 numbered them; a cut file is null', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-graphs-'))
    tempDirs.push(dir)
    const phase = titles => ({ type: 'graph', data: { nodes: titles.map(title => ({ title })) } })
    const graph = { phases: [phase(['Start', 'Call']), phase(['FastApiCall', 'FastApiCall[0x1]']), phase(['Call'])] }
    fs.writeFileSync(path.join(dir, 'turbo-count-11.json'), JSON.stringify(graph))
    fs.writeFileSync(path.join(dir, 'turbo-count-3.json'), JSON.stringify({ phases: [phase(['Call'])] }))
    fs.writeFileSync(path.join(dir, 'turbo-count-12.json'), '{"phases":[{"type":"gra')
    fs.writeFileSync(path.join(dir, 'turbo-other-1.json'), JSON.stringify(graph))
    assert.deepEqual(fastpath.v8Graphs(dir, 'count'), [
      { file: 'turbo-count-3.json', fastCalls: 0 },
      { file: 'turbo-count-11.json', fastCalls: 2 },
      { file: 'turbo-count-12.json', fastCalls: null }
    ])
    assert.deepEqual(fastpath.v8Graphs(path.join(dir, 'none'), 'count'), [])
  })
})

describe('JavaScriptCore: DFG or FTL compiled the loop with CallFFI, and never threw it away', () => {
  test('bun-ffi: compiled by every tier, the one exit after its last call allowed', () => {
    const verdict = fastpath.jscVerdict({ text: trace('bun-ffi'), loop: 'count' })
    assert.equal(verdict.engaged, true)
    assert.deepEqual(verdict.evidence.failures, [{ offset: 77, kind: 'InadequateCoverage' }])
    assert.deepEqual(verdict.evidence.tiers, ['DFG', 'FTL', 'FTLForOSREntry'])
    assert.equal(verdict.summary, 'DFG, FTL, FTLForOSREntry compiled count() 3 times, its loop ' +
      'calling through CallFFI at bc#62 each time; never thrown away, ' +
      'no speculation failure inside its loop')
  })

  test('the loop\'s call site is the call inside a loop; the call before it may stay generic', () => {
    const lines = trace('bun-ffi').split('\n')
    const compiles = fastpath.jscCompiles(lines, 'count')
    const sites = compiles.map(({ tier, calls }) =>
      [tier, calls.map(call => `${call.kind}@${call.offset}${call.inLoop ? ' in loop' : ''}`)])
    assert.deepEqual(sites, [
      ['DFG', ['Call@28', 'CallFFI@62 in loop']],
      ['FTLForOSREntry', ['CallFFI@62 in loop', 'CallFFI@62']],
      ['FTL', ['Call@28', 'CallFFI@62 in loop', 'Call@28', 'CallFFI@62']]
    ])
    const { evidence } = fastpath.jscVerdict({ text: lines.join('\n'), loop: 'count' })
    assert.deepEqual(evidence.loopCallSites, [62])
  })

  test('the loop\'s call a generic Call in any compile but the first: failed, naming it', () => {
    let seen = 0
    const doctored = trace('bun-ffi').replace(/\bCallFFI\(/g, call => seen++ === 0 ? call : 'Call(')
    assert.ok(seen > 2, 'the recorded trace holds the loop\'s call in more than one compile')
    const verdict = fastpath.jscVerdict({ text: doctored, loop: 'count' })
    assert.equal(verdict.engaged, false)
    assert.equal(verdict.reason, 'count()\'s loop calls through Call, not CallFFI, ' +
      'at bc#62 in its FTLForOSREntry compile (2 of 3)')
  })

  test('any other call node at the loop\'s call site, in the last compile alone, fails it', () => {
    const text = trace('bun-ffi')
    const ftl = text.lastIndexOf('65: DFG for count#')
    for (const kind of ['TailCall', 'Construct', 'CallVarargs', 'DirectCall']) {
      const doctored = text.slice(0, ftl) + text.slice(ftl).replace(/\bCallFFI\(/g, `${kind}(`)
      assert.equal(fastpath.jscVerdict({ text: doctored, loop: 'count' }).reason,
        `count()'s loop calls through ${kind}, not CallFFI, at bc#62 in its FTL compile (3 of 3)`)
    }
  })

  test('a compile with no call at the loop\'s site, or no call inside a loop at all, fails it', () => {
    const text = trace('bun-ffi')
    const ftl = text.lastIndexOf('65: DFG for count#')
    const dropped = text.slice(0, ftl) + text.slice(ftl).split('\n')
      .filter(line => !line.includes('CallFFI(')).join('\n')
    assert.equal(fastpath.jscVerdict({ text: dropped, loop: 'count' }).reason,
      'count()\'s loop has no call at bc#62 in its FTL compile (3 of 3)')
    const noLoops = text.split('\n')
      .filter(line => !line.includes('Containing loop headers')).join('\n')
    assert.equal(fastpath.jscVerdict({ text: noLoops, loop: 'count' }).reason,
      'no compile of count() holds a call inside its loop')
  })

  test('an overflow exit inside the loop throws the code away: failed', () => {
    const verdict = fastpath.jscVerdict({ text: trace('bun-deopt'), loop: 'count' })
    assert.equal(verdict.engaged, false)
    assert.equal(verdict.reason, 'count()\'s optimised code was thrown away 1 time (Jettisoning)')
  })

  test('calls compiled as generic calls (JSC_useFFICallInDFG=0): failed', () => {
    const verdict = fastpath.jscVerdict({ text: trace('bun-no-call-ffi'), loop: 'count' })
    assert.equal(verdict.reason,
      'count()\'s loop calls through DirectCall, not CallFFI, at bc#62 in its DFG compile (1 of 3)')
  })

  test('never compiled, or a speculation failure before the last call, fails it', () => {
    assert.equal(fastpath.jscVerdict({ text: '', loop: 'count' }).reason, 'neither DFG nor FTL compiled count()')
    const early = trace('bun-ffi').replace('(bc#77, InadequateCoverage)', '(bc#40, BadType)')
    assert.equal(fastpath.jscVerdict({ text: early, loop: 'count' }).reason,
      'count() failed a speculation inside its loop 1 time, first: BadType at bc#40')
  })
})

describe('the check run and what a run makes of it', () => {
  test('each engine\'s tracing on the reader\'s own command', () => {
    const node = fastpath.checkArgv(findProgram('node-ffi'), 256, '/tmp/g', commandLine)
    assert.deepEqual(node.slice(1, 2), ['--disable-warning=ExperimentalWarning'])
    for (const flag of ['--trace-turbo-filter=count', '--trace-turbo-path=/tmp/g']) {
      assert.ok(node.includes(flag), node.join(' '))
    }
    const deno = fastpath.checkArgv(findProgram('deno-ffi'), 256, '/tmp/g', commandLine)
    assert.match(deno.find(arg => arg.startsWith('--v8-flags=')),
      /^--v8-flags=--trace-deopt,--trace-turbo,--trace-turbo-filter=count,/)
    const bun = fastpath.checkArgv(findProgram('bun-ffi'), 256, '/tmp/g', commandLine)
    assert.deepEqual(bun.slice(0, 2), ['env', 'BUN_JSC_useConcurrentJIT=0'])
    assert.deepEqual(bun.slice(-2), [path.resolve(__dirname, '..', '..', 'wc', 'bun-ffi.js'), '256'])
  })

  test('every fastest row names its loop and its source; no other row is checked', () => {
    const { programs } = require('../../experiments/stdio/programs')
    const fastest = programs.filter(program => program.fastest).map(program => program.name)
    assert.deepEqual(fastest, ['just-fast', 'node-ffi', 'bun-ffi', 'deno-ffi'])
    for (const name of fastest) {
      const { loop, source } = findProgram(name).fastest
      assert.equal(loop, 'count')
      assert.ok(source.length > 20, name)
      const listing = fs.readFileSync(path.join(__dirname, '..', '..', findProgram(name).file), 'utf8')
      assert.match(listing, /\nfunction count \(/, `${name}'s loop is in count()`)
    }
  })

  // Two readers at two sizes; node-ffi's check failed at 256 B, so every cell of its is out.
  const record = (phase, program, blockSize, extra = {}) =>
    ({ phase, program, blockSize, run: 0, bytes: 1 << 20, ok: true, failure: null, ...extra })
  const context = {
    programs: [
      { name: 'c', runtime: 'native', honoursBlockSize: true },
      {
        name: 'node-ffi',
        runtime: 'node',
        honoursBlockSize: true,
        fastest: { loop: 'count', source: 'doc/api/ffi.md' }
      },
      { name: 'bun-ffi', runtime: 'bun', honoursBlockSize: true, fastest: { loop: 'count', source: 'PR 35246' } },
      { name: 'deno-ffi', runtime: 'deno', honoursBlockSize: true, fastest: { loop: 'count', source: 'PR 23983' } }
    ],
    options: { feeder: 'fixed', runs: 1 }
  }
  const notTaken = {
    engaged: false,
    reason: 'count() deoptimised inside its loop 1 time, first: not a BigInt (deopt-eager, bytecode offset 39)'
  }
  const records = [
    record('fastpath', 'node-ffi', 256,
      { ok: false, failure: `fast path not taken: ${notTaken.reason}`, fastPath: notTaken }),
    record('fastpath', 'node-ffi', 4096, { fastPath: { engaged: true, summary: 'fine' } }),
    record('fastpath', 'bun-ffi', 256, { fastPath: { engaged: true, summary: 'DFG compiled count()' } }),
    record('fastpath', 'bun-ffi', 4096, { fastPath: { engaged: true, summary: 'DFG compiled count()' } }),
    record('fastpath', 'deno-ffi', 256, { ok: false, failure: 'reader killed by signal 11' })
  ]

  test('verdicts: engaged at every size, not taken at one, unproven where the traced run failed', () => {
    const { fastPaths } = summariseResults(records, context)
    assert.deepEqual(fastPaths.map(entry => [entry.program, entry.verdict, entry.reason ?? entry.summary]), [
      ['node-ffi', 'not taken', notTaken.reason],
      ['bun-ffi', 'engaged', 'DFG compiled count()'],
      ['deno-ffi', 'unproven', 'its traced run failed: reader killed by signal 11']
    ])
    assert.deepEqual(fastPaths[1].sizes, [256, 4096])
  })

  const NS_PER_READ = { c: 300, 'node-ffi': 400, 'bun-ffi': 350 }
  test('a fast path not taken rejects every cell of the reader, at every size', () => {
    const cpu = ns => ({ userUs: ns / 1000, sysUs: 0 })
    const cost = (program, blockSize, run, nsPerRead) => record('cost', program, blockSize, {
      run,
      bytes: blockSize * 1000,
      output: { size: blockSize * 1000, reads: 1000, blockSize },
      reader: cpu(nsPerRead * 1000),
      samples: Array.from({ length: 20 }, (_, i) => [nsPerRead * 50 * (i + 1), blockSize * 50 * (i + 1)])
    })
    const timed = [256, 4096].flatMap(blockSize => ['c', 'node-ffi', 'bun-ffi'].flatMap(program =>
      [0, 1, 2, 3, 4, 5].map(run => cost(program, blockSize, run, NS_PER_READ[program] + run))))
    const { headline } = summariseResults([...records, ...timed], context)
    const cell = (program, blockSize) =>
      headline.cells.find(entry => entry.program === program && entry.blockSize === blockSize)
    for (const blockSize of [256, 4096]) {
      assert.deepEqual(cell('node-ffi', blockSize).flags, ['failed'])
      assert.equal(cell('node-ffi', blockSize).rejected, `fast path not taken: ${notTaken.reason} (checked at 256 B)`)
      assert.equal(cell('bun-ffi', blockSize).flags.includes('failed'), false)
    }
  })
})

describe('what the report says of the checks', () => {
  const { loadResultSet } = require('../../analyse')
  const { shapeReport } = require('../../lib/report/data')
  const { renderMarkdown, renderTerminal } = require('../../lib/report/text')
  const { sections } = require('../../experiments/stdio/report-html')
  const { runtimeTitle } = require('../../lib/runtimes')

  test('a runtime is named with the version that ran it', () => {
    assert.equal(runtimeTitle('node', 'v26.12.1'), 'Node 26.12.1')
    assert.equal(runtimeTitle('node@24', 'v24.21.0'), 'Node 24.21.0')
    assert.equal(runtimeTitle('deno', 'deno 2.9.6 (stable, release, x86_64-unknown-linux-gnu)'), 'Deno 2.9.6')
    assert.equal(runtimeTitle('just', 'just-host 0.1.0 v8 10.2.154.26-node.37'), 'V8 10.2.154.26')
    assert.equal(runtimeTitle('just-wcb', 'just-host 0.1.0 v8 10.2.154.26-node.37 (embedded wc.js)'), 'V8 10.2.154.26')
    assert.equal(runtimeTitle('native', 'cc (Debian 12.2.0-14+deb12u1) 12.2.0'), 'gcc 12.2.0')
    assert.equal(runtimeTitle('bun', undefined), 'Bun', 'a run that recorded no version')
  })

  test('results.md, the page and the terminal list each fastest reader with its verdict and source', () => {
    const set = loadResultSet(path.join(__dirname, '..', 'fixtures', 'results', 'sample'))
    set.results.fastPaths = [
      {
        program: 'bun-ffi',
        runtime: 'bun',
        runtimeTitle: 'Bun 1.4.5',
        source: 'oven-sh/bun PR 35246',
        loop: 'count',
        verdict: 'engaged',
        summary: 'DFG compiled count() with 1 CallFFI node(s)'
      },
      {
        program: 'deno-ffi',
        runtime: 'deno',
        source: 'PR 23983',
        loop: 'count',
        verdict: 'not taken',
        reason: 'count() deoptimised inside its loop 8 times, first: not a BigInt'
      }
    ]
    const data = shapeReport([set])
    const markdown = renderMarkdown(data)
    const bunRow = '| bun-ffi | Bun 1.4.5 | engaged | DFG compiled count() with 1 CallFFI node(s) | ' +
      'oven-sh/bun PR 35246 |'
    assert.ok(markdown.includes(bunRow), markdown)
    // a summary without the runtime's title: the report names it from the run's context
    assert.match(markdown, new RegExp('\\| deno-ffi \\| Deno \\d+\\.\\d+\\.\\d+ \\| not taken \\| ' +
      'count\\(\\) deoptimised inside its loop 8 times, first: not a BigInt \\| PR 23983 \\|'))
    const [, title, render] = sections.find(([id]) => id === 'fastpaths')
    assert.equal(title, 'Fast paths')
    const page = String(render(data))
    assert.match(page, /<span class="flag flag-failed">not taken<\/span>/)
    const lines = renderTerminal(set.results, [256], set.experiment).split('\n')
    assert.ok(lines.some(line => /^deno-ffi\s+deno\s+not taken\s+count\(\) deoptimised/.test(line)), lines.join('\n'))
  })
})
