'use strict'
// The profile pass for real (perf, experiments/stdio/profile.js), where this machine lets
// perf sample; a test that needs perf is skipped with the refusal's reason where it does not.
// The refusal itself runs everywhere.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')
const { spawnSync } = require('node:child_process')
const { probePerf, parsePerfScript } = require('../../lib/perf')
const { bench, readJson, tempFolders, seccompDeny } = require('../helpers')
const { shellQuote } = require('../../lib/pipeline')
const { runtimes } = require('../../lib/runtimes')
const { profileWorkDirs, removePerfMaps } = require('../../experiments/stdio/measure')
const { profileLeastReads } = require('../../experiments/stdio/profile')
const { windowReadsBytes } = require('../../experiments/stdio/cost')

const ROOT = path.resolve(__dirname, '..', '..')
const tempDir = tempFolders('profile-e2e-')
const perf = probePerf()
const skip = perf.available ? false : `perf may not sample here: ${perf.reason}`
// one cost round at 256 B, two rounds of the profile pass, and nothing else
const ARGS = ['--only', 'node-sync', '--sizes', '256', '--runs', '1', '--warmup', '0', '--mib', '1', '--rounds', '1',
  '--profile-rounds', '2', '--no-strace', '--no-gc', '--no-kernel']

// the headline's cells of a run of ARGS: [program, block size]
const headlineCells = run => readJson(path.join(run, 'results.json')).headline.cells
  .map(cell => [cell.program, cell.blockSize])

const isolateLogs = dir => fs.readdirSync(dir).filter(name => /^isolate-.*\.log$/.test(name))

// the run's report.html, as analyse.js writes it into out/report
function reportOf (run, out) {
  const report = path.join(out, 'report')
  const argv = [path.join(ROOT, 'analyse.js'), run, '--out', report]
  const analysed = spawnSync(process.execPath, argv, { encoding: 'utf8' })
  assert.equal(analysed.status, 0, analysed.stderr)
  return fs.readFileSync(path.join(report, 'report.html'), 'utf8')
}

test('C and node-sync profiled: ns per read in buckets that add up, samples kept, nothing left', { skip }, () => {
  const out = tempDir()
  const before = isolateLogs(ROOT)
  const result = bench([...ARGS, '--profile-ms', '400', '--out', out, '--id', 'profiled'])
  assert.equal(result.status, 0, result.stderr + result.stdout)
  const run = path.join(out, 'profiled')
  assert.equal(readJson(path.join(run, 'context.json')).perf.available, true)
  // --profile-ms 400 doubles the profiled runs' cap, the cost run's 64 MiB; the unprofiled
  // runs beside them keep theirs, their reads for 0.2 s of CPU at most (node-sync at 1,234 ns a
  // read on a noisy day: 58 MiB). A profiled run reads at least what its buckets' samples need
  // over its rounds (profileLeastReads), which for two rounds at 256 B is more than twice
  // the cap: each profiled run is the cap, doubled, however fast the machine (a review: this
  // asked for twice the unprofiled run's bytes, which a slow machine's are not)
  const floorBytes = windowReadsBytes(profileLeastReads(2), 256)
  assert.ok(floorBytes > 128 << 20, String(floorBytes))
  const records = fs.readFileSync(path.join(run, 'all.jsonl'), 'utf8').trim().split('\n').map(line => JSON.parse(line))
  const bytesOf = (phase, program) => [...new Set(records
    .filter(record => record.phase === phase && record.program === program).map(record => record.bytes))]
  for (const program of ['c', 'node-sync']) {
    // one size a phase: each round's runs alike
    const [unprofiledSizes, profiledSizes] = [bytesOf('profile-cpu', program), bytesOf('profile', program)]
    assert.equal(unprofiledSizes.length, 1, `${program}: ${unprofiledSizes}`)
    assert.equal(profiledSizes.length, 1, `${program}: ${profiledSizes}`)
    const [[unprofiled], [profiled]] = [unprofiledSizes, profiledSizes]
    assert.ok(unprofiled > 0 && unprofiled <= 64 << 20, `${program}: ${unprofiled}`)
    assert.equal(profiled, 128 << 20, program)
  }
  const { cells } = readJson(path.join(run, 'profile.json'))
  assert.deepEqual(cells.map(cell => [cell.program, cell.blockSize, cell.ok]),
    [['c', 256, true], ['node-sync', 256, true]])
  for (const cell of cells) {
    const total = Object.values(cell.buckets).reduce((sum, bucket) => sum + bucket.ns, 0)
    assert.ok(Math.abs(total - cell.cpuPerReadNs) < 1e-6 * cell.cpuPerReadNs,
      `${cell.program}: ${total} against ${cell.cpuPerReadNs}`)
    assert.ok(cell.buckets.kernelRead.ns > 0 && cell.samples > 100, cell.program)
    assert.equal(cell.rounds, 2)
    // perf's own cost measured, and its samples of the slope's window stand for the CPU the
    // profiled run's own clock counted there (within about 2% on a noisy night, 2026-12-04)
    assert.ok(Number.isFinite(cell.profilerCostNs) && Number.isFinite(cell.profiledNs), cell.program)
    assert.ok(cell.sampledShare > 0.9 && cell.sampledShare < 1.1, `${cell.program}: ${cell.sampledShare}`)
    // the flame graph's tree: roots that add up to the CPU per read, or a little less
    const rootNs = cell.tree.reduce((sum, node) => sum + node[1], 0)
    assert.ok(rootNs <= cell.cpuPerReadNs + 0.1 && rootNs > 0.95 * cell.cpuPerReadNs, `${cell.program}: ${rootNs}`)
    // the perf script texts it came from, one a round, kept gzipped
    assert.deepEqual(cell.traceFiles, [1, 2].map(round => `profile/${cell.program}-256-${round}.txt.gz`))
    for (const traceFile of cell.traceFiles) {
      const samples = parsePerfScript(zlib.gunzipSync(fs.readFileSync(path.join(run, traceFile))).toString())
      assert.ok(samples.length >= cell.samples / 2 && samples.every(sample => sample.periodNs > 0))
      // V8's perf maps were read and removed
      for (const pid of new Set(samples.map(sample => sample.pid))) {
        assert.ok(!fs.existsSync(`/tmp/perf-${pid}.map`), `perf-${pid}.map left`)
      }
    }
  }
  const [c, node] = cells
  assert.equal(c.buckets.binding.ns, 0, 'C has no runtime between it and read(2)')
  assert.ok(node.buckets.binding.ns > 0)
  const bindingFrames = node.buckets.binding.top
  assert.ok(bindingFrames.some(([frame]) => frame.startsWith('node::')), JSON.stringify(bindingFrames))
  assert.ok(node.buckets.loop.top.some(([frame]) => frame.startsWith('JS:')), 'its JavaScript named by V8\'s perf map')
  // V8's isolate logs went with the run's own folder, nowhere else
  assert.deepEqual(isolateLogs(ROOT), before)
  // each profiled round's text, and a try measured again because other work shared its CPU (as
  // on a fresh root's test beside a bench, 2026-12-06) kept beside it as the log names it
  const profiled = records.filter(record => record.phase === 'profile' && record.rawFile)
  const named = kind => profiled.filter(record => Boolean(record.superseded) === kind)
    .map(record => path.basename(record.rawFile)).sort()
  assert.deepEqual(named(false),
    ['c-256-1.txt.gz', 'c-256-2.txt.gz', 'node-sync-256-1.txt.gz', 'node-sync-256-2.txt.gz'])
  assert.ok(named(true).every(name => /\.try\d+\.txt\.gz$/.test(name)), named(true).join(', '))
  assert.deepEqual(fs.readdirSync(path.join(run, 'profile')).sort(), [...named(false), ...named(true)].sort())
  // against C: Node's binding is all growth, the kernel's read path is C's too
  const frames = nodes => nodes.flatMap(node => [node, ...frames(node[4])])
  const fsRead = frames(node.tree).find(frame => frame[0] === 'node::fs::Read')
  assert.equal(fsRead[5], fsRead[1], 'a frame C has not grew by all of its ns')
  assert.ok(frames(node.tree).some(frame => frame[3] === 1 && frame[5] < frame[1]), 'kernel frames C has too')
  const page = reportOf(run, out)
  assert.match(page, /id="chart-profile-0"/)
  assert.match(page, /id="chart-flame-0"/)
  assert.match(page, /node::fs::Read/)
})

const skipBun = skip || (runtimes.bun.locate() ? false : 'Bun is not installed: run ./setup.sh')
// A profiled try that failed kept no samples, and its V8 maps stayed in /tmp (a review): they
// are found by the pids its perf record sampled.
test('a failed profiled try\'s V8 perf map is removed, found by the pids perf recorded', { skip }, () => {
  const out = tempDir()
  const dataFile = path.join(out, 'perf.data')
  const script = 'let sum = 0; for (let i = 0; i < 3e7; i++) sum += i; console.log(process.pid)'
  // in the test's folder, where V8 writes the isolate log it writes with its perf map
  const recorded = spawnSync('perf', ['record', '-e', 'cpu-clock', '-o', dataFile, '--', process.execPath,
    '--perf-basic-prof', '-e', script], { encoding: 'utf8', cwd: out })
  assert.equal(recorded.status, 0, recorded.stderr)
  const map = `/tmp/perf-${recorded.stdout.trim()}.map`
  assert.ok(fs.existsSync(map), map)
  removePerfMaps(dataFile)
  assert.ok(!fs.existsSync(map), `${map} left`)
})

test('bun-ffi profiled: its JIT named by its jitdump; the dump and its map gone', { skip: skipBun }, () => {
  const out = tempDir()
  const before = profileWorkDirs()
  const args = ARGS.map(arg => (arg === 'node-sync' ? 'bun-ffi' : arg))
  const result = bench([...args, '--profile-ms', '200', '--out', out, '--id', 'bun'])
  assert.equal(result.status, 0, result.stderr + result.stdout)
  const run = path.join(out, 'bun')
  const bun = readJson(path.join(run, 'profile.json')).cells.find(cell => cell.program === 'bun-ffi')
  assert.equal(bun.ok, true, bun.failure)
  // the loop's own code, compiled by JavaScriptCore, named as its jitdump names it
  assert.ok(bun.buckets.loop.top.some(([frame]) => /^JSC-(Baseline|DFG|FTL): count#/.test(frame)),
    JSON.stringify(bun.buckets.loop.top))
  assert.ok(bun.unnamed.ns < 0.1 * bun.cpuPerReadNs, `unnamed: ${JSON.stringify(bun.unnamed)}`)
  for (const traceFile of bun.traceFiles) {
    const samples = parsePerfScript(zlib.gunzipSync(fs.readFileSync(path.join(run, traceFile))).toString())
    for (const pid of new Set(samples.map(sample => sample.pid))) {
      assert.ok(!fs.existsSync(`/tmp/perf-${pid}.map`), `perf-${pid}.map left`)
    }
  }
  // the folders the profiled runs worked in, their jitdumps with them, are gone
  assert.deepEqual(profileWorkDirs(), before)
  assert.deepEqual(fs.readdirSync(path.join(run, 'profile')).filter(name => !name.endsWith('.txt.gz')), [])
})

// perf_event_open refused by a seccomp filter, as in a container without CAP_PERFMON: perf is
// there and answers --version, but cannot sample. PERF runs the real perf under the filter.
// It needs perf installed only: where perf may not sample anyway, the filter refuses it first.
const installedPerf = process.env.PERF || spawnSync('sh', ['-c', 'command -v perf'], { encoding: 'utf8' }).stdout.trim()
test('perf refused by seccomp: one line says why and how to fix it, and the run goes on without the pass',
  { skip: !installedPerf && 'perf is not installed: apt-get install linux-perf' }, () => {
    const out = tempDir()
    const [deny, calls] = seccompDeny(out, 'perf')
    const wrapper = path.join(out, 'perf')
    fs.writeFileSync(wrapper, `#!/bin/sh\nexec ${shellQuote([deny, calls, installedPerf])} "$@"\n`,
      { mode: 0o755 })
    const result = bench([...ARGS, '--out', out, '--id', 'refused'], { PERF: wrapper })
    assert.equal(result.status, 0, result.stderr + result.stdout)
    const said = result.stdout.split('\n').filter(line => line.startsWith('no profile pass: '))
    assert.equal(said.length, 1, result.stdout)
    assert.match(said[0], new RegExp('^no profile pass: perf may not sample here ' +
      '\\(No permission to enable cpu-clock event\\.\\): .*perf_event_paranoid.*--cap-add PERFMON'))
    const run = path.join(out, 'refused')
    assert.equal(readJson(path.join(run, 'context.json')).perf.available, false)
    assert.deepEqual(readJson(path.join(run, 'profile.json')).cells, [])
    assert.deepEqual(headlineCells(run), [['node-sync', 256]], 'the rest measured')
    assert.match(reportOf(run, out), /perf could not sample: perf may not sample here \(No permission/)
  })

// A user without CAP_PERFMON where kernel.perf_event_paranoid is 2 or more: perf records, but
// quietly in user space only (cpu-clock:u), which would leave a read's kernel time out of its
// profile; the probe must refuse it. Run for real as nobody (65534), with lib/perf.js copied
// where nobody may read it; at a lower setting the same user may sample the kernel too.
const NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups']
const asRoot = process.getuid?.() === 0
const asNobody = asRoot && spawnSync('setpriv', [...NOBODY, process.execPath, '-e', '']).status === 0
test('perf for a user it lets sample user space only: one line says why and how to fix it', {
  skip: skip || (!asRoot && 'needs root, to run the probe as another user') ||
    (!asNobody && `needs setpriv (util-linux) and ${process.execPath} runnable by an unprivileged user`)
}, () => {
  const dir = tempDir()
  fs.chmodSync(dir, 0o755)
  fs.copyFileSync(path.join(ROOT, 'lib', 'perf.js'), path.join(dir, 'perf.js'))
  // the probe's own folder goes under TMPDIR: one of nobody's, to see that it is gone after
  const probeTmp = path.join(dir, 'tmp')
  fs.mkdirSync(probeTmp)
  fs.chownSync(probeTmp, 65534, 65534)
  const code = `console.log(JSON.stringify(require(${JSON.stringify(path.join(dir, 'perf.js'))}).probePerf()))`
  const probed = spawnSync('setpriv', [...NOBODY, process.execPath, '-e', code],
    { cwd: dir, env: { ...process.env, TMPDIR: probeTmp }, encoding: 'utf8' })
  assert.equal(probed.status, 0, probed.stderr)
  const answer = JSON.parse(probed.stdout)
  const paranoid = Number(fs.readFileSync('/proc/sys/kernel/perf_event_paranoid', 'utf8'))
  const userOnly = new RegExp('^perf may sample user space only here ' +
    `\\(kernel\\.perf_event_paranoid is ${paranoid}, and this user lacks CAP_PERFMON \\(CAP_SYS_ADMIN ` +
    'before Linux 5\\.8\\)\\), .*: run as root or with CAP_PERFMON .*, or sysctl kernel\\.perf_event_paranoid=1; ')
  // above 2 Debian's own kernels refuse the user outright; upstream's act as at 2
  const refused = new RegExp('^perf may not sample here \\(.+\\): ' +
    'run as root or with CAP_PERFMON .*, or sysctl kernel\\.perf_event_paranoid=1; ')
  if (paranoid >= 2) {
    assert.equal(answer.available, false)
    if (paranoid === 2) assert.match(answer.reason, userOnly)
    else assert.ok(userOnly.test(answer.reason) || refused.test(answer.reason), answer.reason)
    assert.ok(!answer.reason.includes('\n'))
  } else {
    assert.equal(answer.available, true, `at kernel.perf_event_paranoid ${paranoid} a user samples the kernel too`)
  }
  assert.deepEqual(fs.readdirSync(probeTmp), [], 'the probe left nothing in its TMPDIR')
})

test('perf missing: one line says so and how to fix it, and the run goes on without the pass', () => {
  const out = tempDir()
  const result = bench([...ARGS, '--out', out, '--id', 'refused'], { PERF: '/nowhere/perf' })
  assert.equal(result.status, 0, result.stderr + result.stdout)
  const said = result.stdout.split('\n').filter(line => line.startsWith('no profile pass: '))
  assert.deepEqual(said,
    ['no profile pass: /nowhere/perf is not installed: apt-get install linux-perf, or point PERF= at one'])
  const run = path.join(out, 'refused')
  assert.equal(readJson(path.join(run, 'context.json')).perf.available, false)
  assert.deepEqual(readJson(path.join(run, 'profile.json')).cells, [])
  assert.deepEqual(headlineCells(run), [['node-sync', 256]], 'the rest measured')
  assert.match(reportOf(run, out), /perf could not sample: \/nowhere\/perf is not installed/)
})
