'use strict'
// analyse.js end to end: its errors (one line, exit 2), the files it writes, the
// escaping of every string that came from a results folder, and report.html opened
// from disk in headless Chromium, where every chart must draw the fixture's series
// with no console error and no network request.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { pathToFileURL } = require('node:url')

const { newestRun, AnalyseError } = require('../../analyse')
const { measurePage, glanceFaults, panelFaults } = require('../../lib/report/geometry')
const { summariseResults } = require('../../experiments/stdio/summary')
const { formatNumber, formatSigned } = require('../../lib/report/format')

const ROOT = path.resolve(__dirname, '..', '..')
const ANALYSE = path.join(ROOT, 'analyse.js')
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'results')
const SAMPLE = path.join(FIXTURES, 'sample')
const NO_STRACE = path.join(FIXTURES, 'sample-nostrace')
// A calls run (bench.js --experiment calls): its derived files, without the log
const CALLS = path.join(FIXTURES, 'calls-sample')
// An http run (bench.js --experiment http, the lab's second default run of 2026-11-25, at commit 31a8157): its derived files
const HTTP = path.join(FIXTURES, 'http-sample')
// A db run (bench.js --experiment db, the lab's second default run of 2026-11-25): its derived files
const DB = path.join(FIXTURES, 'db-sample')
const CHROMIUM = '/usr/bin/chromium'
const EVIL_PROGRAM = '<script>alert(1)</script>'
const EVIL_RUNTIME = '<img src=x onerror=alert(2)>'

let scratch
// The reports the browser tests make: in the scratch folder, removed afterwards, unless
// LAB_TEST_OUTPUT names a folder to keep them in for a look, with screenshots of the pages.
let OUTPUT

// A screenshot for a look, taken only where LAB_TEST_OUTPUT keeps it: it asserts nothing, and
// one of a long page in the whole suite once hung Chromium past Playwright's 30 s.
async function screenshotToKeep (page, name, options = {}) {
  if (process.env.LAB_TEST_OUTPUT) await page.screenshot({ path: path.join(OUTPUT, name), ...options })
}

before(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'analyse-test-'))
  OUTPUT = process.env.LAB_TEST_OUTPUT ? path.resolve(process.env.LAB_TEST_OUTPUT) : path.join(scratch, 'output')
  fs.mkdirSync(OUTPUT, { recursive: true })
})

after(() => {
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true })
})

function analyse (args) {
  return spawnSync(process.execPath, [ANALYSE, ...args], { cwd: ROOT, encoding: 'utf8' })
}

function readJson (file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'))
}

// A writable copy of a fixture run, to break or to rename things in. As a run of its own, it
// begins a minute later for each copy made before it: analyse.js refuses a copy of a run (one
// run id begun at one moment) set beside it.
function copyOf (fixture, name = path.basename(fixture)) {
  const made = fs.readdirSync(scratch).length
  const target = path.join(scratch, `${name}-${made}`)
  fs.cpSync(fixture, target, { recursive: true })
  const contextFile = path.join(target, 'context.json')
  if (fs.existsSync(contextFile)) {
    const context = readJson(contextFile)
    if (context.date) {
      const date = new Date(Date.parse(context.date) + (made + 1) * 60000).toISOString()
      fs.writeFileSync(contextFile, JSON.stringify({ ...context, date }, null, 2))
    }
  }
  return target
}

function assertUsageError (result, pattern) {
  assert.equal(result.status, 2, `exit status; stderr: ${result.stderr}`)
  assert.equal(result.stdout, '')
  const lines = result.stderr.split('\n').filter(Boolean)
  assert.equal(lines.length, 1, `one line: ${result.stderr}`)
  assert.match(lines[0], /^analyse\.js: [^;]+; .+/, 'what is wrong; how to fix it')
  assert.match(lines[0], pattern)
}

// ---- errors ----

test('a missing results folder: one line, exit 2', () => {
  assertUsageError(analyse([path.join(scratch, 'nowhere')]), /no such directory: .*nowhere; give a results\/<run-id> folder/)
})

test('a file instead of a folder', () => {
  assertUsageError(analyse([path.join(SAMPLE, 'results.json')]), /is not a directory; give the results\/<run-id> folder/)
})

test('an empty folder', () => {
  const empty = fs.mkdtempSync(path.join(scratch, 'empty-'))
  assertUsageError(analyse([empty]), /is empty; run node bench\.js/)
})

test('a folder that is not a results folder', () => {
  const other = fs.mkdtempSync(path.join(scratch, 'other-'))
  fs.writeFileSync(path.join(other, 'notes.txt'), 'hello\n')
  assertUsageError(analyse([other]), /is not a results directory \(no results\.json\)/)
  // a run stopped before its first results: the fix is --resume
  fs.writeFileSync(path.join(other, 'context.json'), '{}')
  assertUsageError(analyse([other]), /holds a run stopped before its first results \(no results\.json\); node bench\.js --resume .* measures the rest/)
  // results gzipped, as the docs keep them
  const zipped = fs.mkdtempSync(path.join(scratch, 'zipped-'))
  fs.writeFileSync(path.join(zipped, 'results.json.gz'), '')
  assertUsageError(analyse([zipped]), /holds results\.json\.gz, not results\.json; gunzip it/)
})

test('a folder of runs of several experiments: a report for each, in a folder of its own', () => {
  const out = path.join(scratch, 'out-folder-of-runs')
  const result = analyse([FIXTURES, '--out', out])
  assert.equal(result.status, 0, result.stderr)
  for (const experiment of ['stdio', 'calls', 'http', 'db']) {
    for (const file of ['report.html', 'results.md', 'results.csv']) {
      assert.ok(fs.existsSync(path.join(out, experiment, file)), `${experiment}/${file}`)
    }
  }
  assert.match(result.stdout, /^calls: 1 run$/m)
  // the two stdio samples come from one machine: the repeatability check, no machines.csv
  assert.match(result.stdout, /^stdio: 2 runs$/m)
  assert.equal(fs.existsSync(path.join(out, 'stdio', 'machines.csv')), false)
})

test('corrupt JSON names the file', () => {
  const run = copyOf(SAMPLE)
  fs.writeFileSync(path.join(run, 'results.json'), '{"cells": [')
  assertUsageError(analyse([run]), new RegExp(`${path.join(run, 'results.json').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is corrupt: not valid JSON .*; node analyse\\.js --rederive`))
  const syscalls = copyOf(SAMPLE)
  fs.writeFileSync(path.join(syscalls, 'syscalls.json'), 'not json')
  assertUsageError(analyse([syscalls]), /syscalls\.json is corrupt: not valid JSON/)
  // without its log, --rederive has nothing to rewrite it from: the fix is to measure again
  fs.rmSync(path.join(run, 'all.jsonl'))
  assertUsageError(analyse([run]),
    /results\.json is corrupt: not valid JSON .*; without its all\.jsonl it cannot be rewritten: measure it again$/)
})

test('an empty results file, and results with no cells', () => {
  const run = copyOf(SAMPLE)
  fs.writeFileSync(path.join(run, 'results.json'), '')
  assertUsageError(analyse([run]), /results\.json is empty; node analyse\.js --rederive .* rewrites it/)
  const noCells = copyOf(SAMPLE)
  fs.writeFileSync(path.join(noCells, 'results.json'), JSON.stringify({ ...readJson(path.join(SAMPLE, 'results.json')), cells: [] }))
  assertUsageError(analyse([noCells]), /holds no measured cells; finish the run with node bench\.js --resume/)
  // an http run summarised before syscalls per request had work and upkeep apart
  const older = copyOf(HTTP, 'older')
  const results = readJson(path.join(HTTP, 'results.json'))
  results.http.syscalls = results.http.syscalls.map(({ work, upkeep, ...entry }) => entry)
  fs.writeFileSync(path.join(older, 'results.json'), JSON.stringify(results))
  // the fixture, derived files alone, has no all.jsonl to rederive it from
  assertUsageError(analyse([older]), /results\.json was summarised by an older lab, before syscalls per request were split into work and upkeep; without its all\.jsonl it cannot be rewritten: measure it again$/)
  fs.writeFileSync(path.join(older, 'all.jsonl'), '')
  assertUsageError(analyse([older]), /results\.json was summarised by an older lab, before syscalls per request were split into work and upkeep; node analyse\.js --rederive .*older.* rewrites it from all\.jsonl$/)
})

test('runs of two experiments are not compared', () => {
  assertUsageError(analyse([HTTP, CALLS, '--out', path.join(OUTPUT, 'mixed')]), /calls-sample is a run of the calls experiment and .*http-sample of http; compare runs of one experiment$/)
  assertUsageError(analyse([SAMPLE, HTTP, '--out', path.join(OUTPUT, 'mixed')]), /http-sample is a run of the http experiment and .*sample of stdio; compare runs of one experiment$/)
})

test('an unreadable results file', () => {
  const run = copyOf(SAMPLE)
  fs.rmSync(path.join(run, 'results.json'))
  fs.mkdirSync(path.join(run, 'results.json'))
  // a folder where the file should be: what it is and the fix, not a permission's (a review)
  assertUsageError(analyse([run]),
    /results\.json is a folder, not a file; node analyse\.js --rederive .* rewrites it from all\.jsonl$/)
})

test('a results file without read permission', () => {
  const run = copyOf(SAMPLE)
  fs.chmodSync(path.join(run, 'results.json'), 0o000)
  // Root reads any file through CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, so as root (CI)
  // analyse runs without them: still root, so it reaches a clone under /root (which
  // another user, such as nobody, could not enter), but bound by the file's mode.
  const withoutOverride = process.getuid() === 0 ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search', '--'] : []
  const [command, ...args] = [...withoutOverride, process.execPath, ANALYSE, run]
  assertUsageError(spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' }), /cannot read .*results\.json \(EACCES\); check that it is a file you may read/)
})

test('an unreadable log, and --rederive into a folder it may not write in: one line each', () => {
  const run = copyOf(SAMPLE)
  fs.renameSync(path.join(run, 'all.jsonl'), path.join(run, 'all.jsonl.moved'))
  fs.mkdirSync(path.join(run, 'all.jsonl'))
  assertUsageError(analyse([run, '--out', path.join(scratch, 'unreadable-log')]),
    /all\.jsonl is a folder, not a run's log; put back the run's own all\.jsonl$/)
  fs.rmdirSync(path.join(run, 'all.jsonl'))
  fs.renameSync(path.join(run, 'all.jsonl.moved'), path.join(run, 'all.jsonl'))
  fs.chmodSync(run, 0o555)
  try {
    // as root, without the capabilities that let root write anywhere (as above)
    const withoutOverride = process.getuid() === 0 ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search', '--'] : []
    const [command, ...args] = [...withoutOverride, process.execPath, ANALYSE, '--rederive', run]
    assertUsageError(spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' }),
      /--rederive .*: cannot write in .* \(EACCES\); give a folder you may write to/)
  } finally {
    fs.chmodSync(run, 0o755)
  }
})

test('a context without its options is no run\'s: one line, as --rederive says it', () => {
  const run = copyOf(SAMPLE)
  for (const text of ['{}', '[]']) {
    fs.writeFileSync(path.join(run, 'context.json'), text)
    assertUsageError(analyse([run, '--out', path.join(scratch, 'no-options')]), /context\.json is not a bench\.js context file \(no options\); restore it, or measure again/)
  }
})

test('an unknown option, and an option without its value', () => {
  assertUsageError(analyse(['--bogus', SAMPLE]), /^analyse\.js: unknown option --bogus; see node analyse\.js --help$/)
  assertUsageError(analyse([SAMPLE, '--out']), /--out needs a folder/)
})

test('--help prints the usage', () => {
  const result = analyse(['--help'])
  assert.equal(result.status, 0)
  assert.match(result.stdout, /^usage: node analyse\.js/)
})

// ---- what it writes ----

test('writes report.html, results.md and results.csv into --out', () => {
  const out = path.join(scratch, 'out-one')
  const result = analyse([SAMPLE, '--out', out, '--title', 'Fixture report'])
  assert.equal(result.status, 0, result.stderr)
  assert.deepEqual(result.stdout.trim().split('\n').map(line => path.basename(line)), ['report.html', 'results.md', 'results.csv'])
  assert.deepEqual(fs.readdirSync(out).sort(), ['report.html', 'results.csv', 'results.md'])

  const csv = fs.readFileSync(path.join(out, 'results.csv'), 'utf8').trim().split('\r\n')
  assert.equal(csv[0], 'runId,program,blockSize,bytes,runs,bestWallNs,bestMBps,steadyMBps,medianWallNs,cv,costPerReadNs,cpuPerReadNs,vsC,vsCRaw,rankTestP,vsCAllRuns,vsCAllRunsLow,vsCAllRunsHigh,marginalMBps,marginalPerReadNs,vsCMarginal,flags,' +
    'costCpuPerReadNs,costOverheadNs,costOverheadLowNs,costOverheadHighNs,costShareOfC,costShareOfCLow,costShareOfCHigh,' +
    'kernelPerReadNs,kernelPerReadLowNs,kernelPerReadHighNs,kernelRestNs,kernelShare,kernelCallsPerRead,' +
    'kernelCallP50Ns,kernelCallP99Ns,kernelFloorNs,ownChunk')
  assert.equal(csv.length, 1 + 18)
  // results.json, c @ 256: best.wallNs 113797885, best MB/s 589.720, steady 596.041, wallNs.median 116489 …
  const c256 = csv[1].split(',')
  assert.deepEqual(c256.slice(0, 8), ['sample', 'c', '256', '67108864', '2', '113797885', '589.72', '596.041'])
  assert.equal(c256[11], '', 'the fixture predates cpuPerReadNs: an empty field, not a made-up number')
  assert.equal(c256[12], '1')
  const justSync64k = csv.find(line => line.startsWith('sample,just-sync,65536,'))
  assert.match(justSync64k, /,startup-dominated;noisy,/)
  // the headline's figures beside the cell's: bun-ffi at 256 B, results.json headline
  const bun256 = csv.find(line => line.startsWith('sample,bun-ffi,256,')).split(',')
  const bunHeadline = readJson(path.join(SAMPLE, 'results.json')).headline.cells.find(cell => cell.program === 'bun-ffi' && cell.blockSize === 256)
  const { cpuPerReadNs, overheadNs, shareOfC } = bunHeadline
  assert.deepEqual(bun256.slice(22, 29).map(Number), [
    ...[cpuPerReadNs.estimate, overheadNs.estimate, overheadNs.low, overheadNs.high].map(ns => Number(ns.toFixed(2))),
    ...[shareOfC.estimate, shareOfC.low, shareOfC.high].map(share => Number(share.toFixed(4)))
  ])
  // the fixture has no kernel pass: its nine columns empty, not made-up numbers
  assert.deepEqual(bun256.slice(29, 38), new Array(9).fill(''))
  assert.equal(bun256[38], 'false')
  assert.equal(csv.find(line => line.startsWith('sample,node-stream,256,')).split(',').at(-1), 'true', 'own chunk, marked')

  const md = fs.readFileSync(path.join(out, 'results.md'), 'utf8')
  assert.match(md, /^# Fixture report\n/)
  // the heading the page gives: when, on which machine, and at which commit (the fixture's
  // tree was dirty)
  assert.match(md, new RegExp('^# Fixture report\n\n6 programs × 3 block sizes, best of 2 runs, feeder fixed, ' +
    'measured \\S+ on \\S+-[0-9a-f]{8} at lab commit c1c9da7 \\(uncommitted changes\\)' +
    '\n\n## What a read costs, against C\n'))
  assert.match(md, /\| bun-ffi \| Bun \| 589 \(569–620\) \| 87\.1 \(11–128\) \| 84\.9% \(79\.0–98\.2%\) \| {2}\|/)
  assert.match(md, /## Findings\n\n- At 256 B, one read\(2\) of the pipe costs C 493 ns of CPU/)
  assert.match(md, /\| just-sync \| 505 \(85%\)~ \| 1730 \(82%\) \| 2842 \(176%\)°~ \|/)
  assert.match(md, /\| Node\.js \| v20\.20\.2 \|/)
  assert.match(fs.readFileSync(path.join(out, 'report.html'), 'utf8'), /<title>Fixture report<\/title>/)
})

test('two runs compared: per headline cell how many points its share moved, in the page, results.md and on the terminal', () => {
  const moved = copyOf(SAMPLE, 'moved')
  const results = readJson(path.join(moved, 'results.json'))
  // made up: deno-sync at 256 B measured far slower in the second run, 69% of C's speed then 50%
  Object.assign(results.headline.cells.find(cell => cell.program === 'deno-sync' && cell.blockSize === 256).shareOfC, { estimate: 0.5, low: 0.45, high: 0.55 })
  fs.writeFileSync(path.join(moved, 'results.json'), JSON.stringify(results))
  const out = path.join(scratch, 'out-agreement')
  const result = analyse([SAMPLE, moved, '--out', out])
  assert.equal(result.status, 0, result.stderr)
  const lines = result.stdout.trim().split('\n')
  assert.equal(lines.at(-2), 'headline: 8 of 9 shares of C moved by at most 2 points between sample and sample #2, largest 19.0: the goal is not met; above: deno-sync @ 256 (19.0)')
  assert.equal(lines.at(-1), 'runtimes at 256 B: the same order, just > bun > deno')
  const md = fs.readFileSync(path.join(out, 'results.md'), 'utf8')
  assert.match(md, /8 of 9 headline shares of C moved by at most 2 points between sample and sample #2 .* is not met\./)
  // the sample's results.json keeps no rounds, so no shift test
  assert.match(md, /\| deno-sync \| 256 B \| 69\.0% \(64\.5–80\.0%\) \| 50\.0% \(45\.0–55\.0%\) \| 19\.0 \| no \| {2}\|/)
  const page = fs.readFileSync(path.join(out, 'report.html'), 'utf8')
  assert.equal((page.match(/<tr class="disagree">/g) ?? []).length, 1)
})

test('without --out, one run\'s report goes into its folder, a comparison into a folder of its own', () => {
  const run = copyOf(SAMPLE)
  const result = analyse([run])
  assert.equal(result.status, 0, result.stderr)
  for (const file of ['report.html', 'results.md', 'results.csv']) assert.ok(fs.existsSync(path.join(run, file)), file)
  const [first, second] = [copyOf(SAMPLE, 'own-a'), copyOf(SAMPLE, 'own-b')]
  const compared = analyse([first, second])
  assert.equal(compared.status, 0, compared.stderr)
  const own = path.join(ROOT, 'results', 'comparisons', `${path.basename(first)}-vs-${path.basename(second)}`)
  try {
    for (const file of ['report.html', 'results.md', 'results.csv']) {
      assert.ok(fs.existsSync(path.join(own, file)), file)
    }
    // neither run's own folder gained a report
    for (const dir of [first, second]) assert.equal(fs.existsSync(path.join(dir, 'report.html')), false, dir)
  } finally {
    fs.rmSync(own, { recursive: true, force: true })
    // the comparisons folder too, unless it held comparisons before this test
    try {
      fs.rmdirSync(path.dirname(own))
    } catch {}
  }
})

// A copy of the stdio sample as if measured on another machine: an Intel CPU whose C
// reads in 56% of the sample's time, every other reader adding what it added before.
function otherMachine (name) {
  const run = copyOf(SAMPLE, name)
  const context = readJson(path.join(run, 'context.json'))
  context.machine = {
    ...context.machine,
    cpuModel: 'Intel(R) Xeon(R) Processor',
    vulnerabilities: { ...context.machine.vulnerabilities, retbleed: 'Vulnerable' }
  }
  fs.writeFileSync(path.join(run, 'context.json'), JSON.stringify(context))
  const results = readJson(path.join(run, 'results.json'))
  for (const blockSize of results.headline.sizes) {
    const cells = results.headline.cells.filter(cell => cell.blockSize === blockSize)
    const c = cells.find(cell => cell.program === 'c')
    const scale = value => value && {
      ...value,
      estimate: value.estimate * 0.56,
      low: value.low * 0.56,
      high: value.high * 0.56
    }
    c.cpuPerReadNs = scale(c.cpuPerReadNs)
  }
  fs.writeFileSync(path.join(run, 'results.json'), JSON.stringify(results))
  return run
}

test('runs of two machines: a comparison of machines, never a repeatability verdict', () => {
  const intel = otherMachine('intel')
  const out = path.join(scratch, 'out-machines')
  const result = analyse([SAMPLE, intel, '--out', out])
  assert.equal(result.status, 0, result.stderr)
  assert.match(
    result.stdout,
    /^machines: amd-epyc-\d+c-[0-9a-f]{8} \(sample\) against intel-xeon-\d+c-[0-9a-f]{8} \(sample #2\); a comparison of machines, not a repeatability check$/m
  )
  assert.doesNotMatch(result.stdout, /goal is|not met/)
  const md = fs.readFileSync(path.join(out, 'results.md'), 'utf8')
  assert.match(md, /^## Across machines$/m)
  assert.match(md, /A figure carries across machines when every two machines' values lie within 10% of the larger/)
  assert.match(md, /\| CPU model \| AMD EPYC \| Intel\(R\) Xeon\(R\) Processor \|/)
  assert.doesNotMatch(md, /not met/)
  // the ns over C were left as they were: every reader's carries
  const csv = fs.readFileSync(path.join(out, 'machines.csv'), 'utf8').trim().split('\r\n')
  assert.equal(csv[0],
    'row,runtime,at,figure,machine,key,estimate,low,high,level,runs,pooled,carried,carriedBy,verdict,sign')
  const overRows = csv.filter(line => line.split(',')[3] === 'over')
  assert.ok(overRows.length > 0)
  for (const line of overRows) assert.equal(line.split(',')[12], 'true', line)
  const page = fs.readFileSync(path.join(out, 'report.html'), 'utf8')
  assert.match(page, /<section id="machines">/)
})

test('a fleet\'s folder: every target\'s runs merged, a target that failed named with its reason', () => {
  const fleet = fs.mkdtempSync(path.join(scratch, 'fleet-'))
  fs.cpSync(SAMPLE, path.join(fleet, 'amd', 'sample'), { recursive: true })
  fs.cpSync(otherMachine('fleet-intel'), path.join(fleet, 'intel', 'q1'), { recursive: true })
  fs.mkdirSync(path.join(fleet, 'gone'))
  fs.writeFileSync(path.join(fleet, 'gone', 'target-failed.json'), JSON.stringify({
    target: 'gone',
    reason: 'unreachable: ssh: connect to host gone port 22: Connection refused'
  }))
  const out = path.join(scratch, 'out-fleet')
  const result = analyse([fleet, '--out', out])
  assert.equal(result.status, 0, result.stderr)
  assert.match(
    result.stdout,
    /^fleet target gone failed: unreachable: ssh: connect to host gone port 22: Connection refused$/m
  )
  const md = fs.readFileSync(path.join(out, 'results.md'), 'utf8')
  assert.match(md, /## Fleet targets that failed\n\n- gone failed: unreachable/)
  assert.match(md, /\| intel-xeon-[a-z0-9-]+ \| [0-9a-f]{12} \| sample #2 \|/)
  assert.ok(fs.existsSync(path.join(out, 'machines.csv')))
  // a fleet whose every target failed: one line
  const dead = fs.mkdtempSync(path.join(scratch, 'fleet-dead-'))
  fs.mkdirSync(path.join(dead, 'a'))
  fs.writeFileSync(
    path.join(dead, 'a', 'target-failed.json'),
    JSON.stringify({ target: 'a', reason: 'bench.js exited 1' })
  )
  assertUsageError(
    analyse([dead, '--out', out]),
    /holds no run: every fleet target failed, a with bench\.js exited 1; mend it/
  )
  // a failure file that is not one
  fs.writeFileSync(path.join(fleet, 'gone', 'target-failed.json'), '{"oops": 1}')
  assertUsageError(analyse([fleet, '--out', out]), /target-failed\.json is not a fleet target's failure/)
})

test('runs of two machines that share no figure: one line saying what each measured', () => {
  const intel = otherMachine('intel-4k')
  const results = readJson(path.join(intel, 'results.json'))
  results.headline.cells = results.headline.cells.filter(cell => cell.blockSize !== 256)
  results.headline.sizes = results.headline.sizes.filter(size => size !== 256)
  fs.writeFileSync(path.join(intel, 'results.json'), JSON.stringify(results))
  const sample = copyOf(SAMPLE, 'only-256')
  const own = readJson(path.join(sample, 'results.json'))
  own.headline.cells = own.headline.cells.filter(cell => cell.blockSize === 256)
  fs.writeFileSync(path.join(sample, 'results.json'), JSON.stringify(own))
  assertUsageError(
    analyse([sample, intel, '--out', path.join(scratch, 'out-none')]),
    /stdio: the runs share no measured figure \(sample at 256 B; sample #2 at 4 KiB, 64 KiB\); compare runs made with the same sizes/
  )
})

test('the newest run is the one bench.js dated last', () => {
  const parent = fs.mkdtempSync(path.join(scratch, 'runs-'))
  const older = path.join(parent, 'zzz-older')
  const newer = path.join(parent, 'aaa-newer')
  fs.cpSync(SAMPLE, older, { recursive: true })
  fs.cpSync(SAMPLE, newer, { recursive: true })
  const context = readJson(path.join(SAMPLE, 'context.json'))
  fs.writeFileSync(path.join(older, 'context.json'), JSON.stringify({ ...context, date: '2020-01-01T00:00:00.000Z' }))
  fs.writeFileSync(path.join(newer, 'context.json'), JSON.stringify({ ...context, date: '2030-01-01T00:00:00.000Z' }))
  assert.equal(newestRun(parent), newer)
})

test('no run to analyse in the results folder', () => {
  const parent = fs.mkdtempSync(path.join(scratch, 'no-runs-'))
  assert.throws(() => newestRun(parent), error => error instanceof AnalyseError &&
    /^no run to analyse in .*; run node bench\.js first, or name a results folder$/.test(error.message))
})

test('a set missing its optional parts renders, each section saying why', () => {
  const run = copyOf(SAMPLE)
  fs.rmSync(path.join(run, 'syscalls.json'))
  fs.rmSync(path.join(run, 'gc.json'))
  const out = path.join(scratch, 'out-partial')
  const result = analyse([run, '--out', out])
  assert.equal(result.status, 0, result.stderr)
  const page = fs.readFileSync(path.join(out, 'report.html'), 'utf8')
  const why = [...page.matchAll(/<p class="why">(.*?)<\/p>/g)].map(match => match[1])
  assert.ok(why.includes(`<strong>sample</strong>: there is no syscalls.json in ${run}.`), why.join('\n'))
  assert.ok(why.includes(`<strong>sample</strong>: there is no gc.json in ${run}.`), why.join('\n'))
  assert.ok(!page.includes('id="chart-syscalls-main"'), 'no syscall chart without syscall data')
})

// A program and a runtime whose names are markup: they must show as text, never run.
function evilCopy () {
  const run = copyOf(SAMPLE, 'evil')
  for (const file of ['results.json', 'syscalls.json', 'gc.json', 'all.jsonl']) {
    const target = path.join(run, file)
    fs.writeFileSync(target, fs.readFileSync(target, 'utf8').replaceAll('"just-sync"', JSON.stringify(EVIL_PROGRAM)))
  }
  const context = readJson(path.join(run, 'context.json'))
  context.runtimes.node.label = EVIL_RUNTIME
  context.runtimes.node.version = `v20 ${EVIL_RUNTIME}`
  fs.writeFileSync(path.join(run, 'context.json'), JSON.stringify(context))
  return run
}

test('every string from the results is escaped in the HTML and the Markdown', () => {
  const out = path.join(OUTPUT, 'report-escaped')
  const result = analyse([evilCopy(), '--out', out])
  assert.equal(result.status, 0, result.stderr)
  const page = fs.readFileSync(path.join(out, 'report.html'), 'utf8')
  assert.ok(!page.includes(EVIL_PROGRAM), 'the program name never appears raw')
  assert.ok(!page.includes(EVIL_RUNTIME), 'the runtime label never appears raw')
  assert.ok(page.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'tables show it escaped')
  assert.ok(page.includes('\\u003cscript\\u003ealert(1)\\u003c/script\\u003e'), 'the chart data carries it as JSON escapes')
  assert.ok(page.includes('&lt;img src=x onerror=alert(2)&gt;'))
  // Only the page's own scripts: the JSON data, the inlined library, the drawing code.
  assert.equal(page.match(/<script[\s>]/g).length, 3)
  const md = fs.readFileSync(path.join(out, 'results.md'), 'utf8')
  assert.ok(!md.includes(EVIL_PROGRAM) && md.includes('&lt;script&gt;alert(1)&lt;/script&gt;'))
})

// ---- in the browser ----

let browser

async function launch () {
  if (!fs.existsSync(CHROMIUM)) assert.fail(`${CHROMIUM} is missing: apt-get install -y chromium (./setup.sh --test installs it)`)
  const { chromium } = require('playwright-core')
  browser ??= await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
  })
  return browser
}

after(async () => {
  if (browser) await browser.close()
})

// Opens a report from disk; anything but a file: URL is refused and remembered.
async function open (file) {
  const context = await (await launch()).newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
  const page = await context.newPage()
  const problems = []
  const network = []
  page.on('console', message => {
    if (['error', 'warning'].includes(message.type())) problems.push(`console ${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', err => problems.push(`page error: ${err.message}`))
  page.on('dialog', dialog => {
    problems.push(`dialog: ${dialog.message()}`)
    dialog.dismiss()
  })
  await context.route('**/*', route => {
    const url = route.request().url()
    if (url.startsWith('file:')) return route.continue()
    network.push(url)
    return route.abort()
  })
  await page.goto(pathToFileURL(file).href)
  await page.waitForFunction(() => document.body.dataset.chartsReady === 'true', null, { timeout: 20000 })
  return { page, context, problems, network }
}

function chartsOf (page) {
  return page.evaluate(() => Object.fromEntries(Highcharts.charts.filter(Boolean).map(chart => [chart.renderTo.id, {
    title: chart.title?.textStr ?? null,
    categories: chart.xAxis[0].categories ?? null,
    series: chart.series.map(series => ({
      name: series.name,
      type: series.type,
      linked: Boolean(series.options.linkedTo),
      // a legend entry for a runtime family's hue, with no points of its own
      key: series.points.length === 0 && series.options.enableMouseTracking === false,
      points: series.points.length,
      drawn: series.points.filter(point => point.y !== null && point.y !== undefined && !point.isNull).length,
      ys: series.points.map(point => point.y)
    }))
  }])))
}

// The answer chart's geometry: its box, its drawing, and what of its labels, axis title and
// legend lies outside the box (clipped): a box shorter than the chart hides them.
function answerGeometry (page) {
  return page.evaluate(() => {
    const box = document.getElementById('chart-answer').getBoundingClientRect()
    const chart = Highcharts.charts.find(each => each?.renderTo.id === 'chart-answer')
    const inside = element => {
      const rect = element.getBoundingClientRect()
      return rect.top >= box.top - 1 && rect.bottom <= box.bottom + 1 && rect.left >= box.left - 1 && rect.right <= box.right + 1
    }
    const labels = Object.values(chart.xAxis[0].ticks).map(tick => tick.label?.element).filter(Boolean)
    return {
      boxHeight: Math.round(box.height),
      chartHeight: chart.chartHeight,
      hiddenLabels: labels.filter(label => !inside(label)).map(label => label.textContent),
      axisTitleShown: inside(chart.yAxis[0].axisTitle.element),
      legendShown: inside(chart.legend.group.element),
      axisType: chart.yAxis[0].options.type ?? 'linear'
    }
  })
}

// What a reader sees at a glance (lib/report/geometry.js), at 1280 px and at a phone's
// 390: the first chart on the first screen of 800 px with at most 100 words before it,
// every chart whole (its labels, axis titles and legend inside its box, no label cut short or
// written over another, every bar's figure shown), no two series of a chart alike, a runtime
// in one hue throughout and no two families in one, the answer's key and value scale on that
// first screen too, no page that scrolls sideways, and at 1280 px no table either. The
// screenshots go where LAB_TEST_OUTPUT points.
async function assertAtAGlance (page, shot) {
  for (const width of [1280, 390]) {
    // opened at that width, as a reader would, rather than resized after drawing
    await page.setViewportSize({ width, height: 800 })
    await page.reload()
    await page.waitForFunction(() => document.body.dataset.chartsReady === 'true', null, { timeout: 20000 })
    const seen = await measurePage(page)
    // the limits are the lab's own (lib/report/geometry.js glanceFaults), which studies/pages.js
    // holds every page to as well
    assert.deepEqual(glanceFaults(seen, width), [], `at ${width} px`)
    if (shot) await screenshotToKeep(page, `${shot}-${width}.png`)
    // the charts behind a group of size buttons, each size as its button shows it
    assert.deepEqual(await panelFaults(page, width), [], `at ${width} px, the panels' sizes`)
  }
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.reload()
  await page.waitForFunction(() => document.body.dataset.chartsReady === 'true', null, { timeout: 20000 })
}

const mainSeries = chart => chart.series.filter(series => !series.linked && !series.key)
const bySize = (a, b) => a.blockSize - b.blockSize

function render (args, outName) {
  const out = path.join(OUTPUT, outName)
  const result = analyse([...args, '--out', out])
  assert.equal(result.status, 0, result.stderr)
  return path.join(out, 'report.html')
}

// The throughput's small multiples: a chart per runtime family (experiments/stdio/report-data.js).
const THROUGHPUT_PANELS = ['chart-throughput-bun', 'chart-throughput-c', 'chart-throughput-deno', 'chart-throughput-host']

test('report.html in Chromium: the headline chart first, every chart draws the fixture, offline, without errors', async () => {
  const results = readJson(path.join(SAMPLE, 'results.json'))
  const gc = readJson(path.join(SAMPLE, 'gc.json'))
  const programs = [...new Set(results.cells.map(cell => cell.program))]
  // coreutils and node-stream choose their own chunk size: no line against block size
  const honouring = ['c', 'just-sync', 'bun-ffi', 'deno-sync']
  const cellsOf = program => results.cells.filter(cell => cell.program === program).sort(bySize)
  const report = render([SAMPLE], 'report')

  const { page, context, problems, network } = await open(report)
  try {
    const charts = await chartsOf(page)
    assert.deepEqual(Object.keys(charts).sort(), ['chart-cost', 'chart-cpu', 'chart-gc-heap', 'chart-gc-per-mib', 'chart-headline', 'chart-memory', 'chart-overhead', 'chart-startup',
      ...THROUGHPUT_PANELS, 'chart-time'])

    // 0: the headline is the page's first section and first chart: each reader's CPU per
    // read over C's at 256 B, best first, with its interval as whiskers
    assert.equal(await page.evaluate(() => document.querySelector('main section').id), 'headline')
    assert.equal(await page.evaluate(() => document.querySelector('.chart').id), 'chart-headline')
    // before the findings: its top on the first screen of 1280×800
    const headlineTop = await page.evaluate(() => document.getElementById('chart-headline').getBoundingClientRect().top + window.scrollY)
    assert.ok(headlineTop < 800, `the headline chart starts ${headlineTop} px down`)
    const headline256 = results.headline.cells.filter(cell => cell.blockSize === 256 && cell.program !== 'c').sort((a, b) => b.shareOfC.estimate - a.shareOfC.estimate)
    assert.deepEqual(charts['chart-headline'].categories, ['just-sync', 'bun-ffi', 'deno-sync'])
    assert.deepEqual(mainSeries(charts['chart-headline'])[0].ys, headline256.map(cell => cell.overheadNs.estimate))
    assert.deepEqual(charts['chart-headline'].series.filter(series => series.linked).map(series => [series.type, series.points]), [['errorbar', 3]])
    assert.match(await page.textContent('#headline'), /At 256 B, one read\(2\) of the pipe costs C 493 ns of CPU/)
    // each bar's figure written on the chart, and C's own figure in its subtitle
    const written = () => page.evaluate(() => {
      const chart = Highcharts.charts.find(each => each?.renderTo.id === 'chart-headline')
      return {
        figures: chart.series.flatMap(series => series.points.flatMap(point => (point.dataLabels ?? [])
          .map(label => label.textStr).filter(Boolean))),
        subtitle: chart.subtitle.textStr
      }
    })
    const signed = value => `${formatSigned(value)} ns`
    const at256 = await written()
    assert.deepEqual(at256.figures, headline256.map(cell => signed(cell.overheadNs.estimate)))
    assert.match(at256.subtitle, /^ns more than C's 493 ns per read\(2\)/)
    await page.click('[data-size-group="headline"] button[data-size="4096"]')
    // at another size its figures, none hidden or on a whisker (a chart updated in place kept
    // the figures of bars that changed sides of C where the old ones had been)
    const c4k = results.headline.cells.find(cell => cell.blockSize === 4096 && cell.program === 'c')
    const c4kNs = formatNumber(c4k.cpuPerReadNs.estimate)
    assert.match((await written()).subtitle, new RegExp(`^ns more than C's ${c4kNs} ns`))
    assert.deepEqual((await measurePage(page)).hiddenFigures, [])
    const at4k = await chartsOf(page)
    assert.deepEqual(at4k['chart-headline'].categories, ['bun-ffi', 'just-sync', 'deno-sync'], 'the order at 4 KiB, best first')
    // the scale above the bars follows the one below to the new size, not left at 256 B's
    const scales = await page.evaluate(() => Highcharts.charts.find(chart => chart?.renderTo.id === 'chart-headline')
      .yAxis.map(axis => [axis.max, axis.tickPositions.join(' ')]))
    assert.equal(scales.length, 2)
    assert.deepEqual(scales[1], scales[0])
    assert.equal(await page.isVisible('[data-size-panel="headline"][data-size="4096"]'), true)
    assert.equal(await page.isVisible('[data-size-panel="headline"][data-size="256"]'), false)

    // 1, 2: a line and a min–max band per program, a point per block size; throughput as a
    // panel per runtime family, each with C
    const lines = mainSeries(charts['chart-time'])
    assert.deepEqual(lines.map(series => series.name), honouring)
    for (const series of lines) assert.equal(series.points, cellsOf(series.name).length, `chart-time ${series.name}`)
    assert.equal(charts['chart-time'].series.filter(series => series.linked && series.type === 'arearange').length, honouring.length, 'chart-time bands')
    assert.deepEqual(THROUGHPUT_PANELS.map(id => mainSeries(charts[id]).map(series => series.name)), [['c', 'bun-ffi'], ['c'], ['c', 'deno-sync'], ['c', 'just-sync']])
    for (const id of THROUGHPUT_PANELS) assert.equal(charts[id].series.filter(series => series.linked && series.type === 'arearange').length, mainSeries(charts[id]).length, `${id} bands`)
    const steadyC = cellsOf('c').map(cell => cell.best.steadyThroughputMBps)
    assert.deepEqual(mainSeries(charts['chart-throughput-c'])[0].ys, steadyC)
    assert.deepEqual(mainSeries(charts['chart-throughput-deno'])[1].ys, cellsOf('deno-sync').map(cell => cell.best.steadyThroughputMBps))
    assert.deepEqual(mainSeries(charts['chart-time'])[0].ys, cellsOf('c').map(cell => cell.best.wallNs / 1e6))

    // 3: cost per read for the programs that honour the block size, overhead without C; a
    // cell whose start-up took most of its run has no point (as the steady throughput's line)
    assert.deepEqual(charts['chart-cost'].series.map(series => series.name), honouring)
    const perBlock = cell => cell.costPerReadNs !== null && !cell.flags?.includes('startup-dominated')
    for (const series of charts['chart-cost'].series) assert.equal(series.drawn, cellsOf(series.name).filter(perBlock).length)
    assert.deepEqual(charts['chart-overhead'].series.map(series => series.name), honouring.filter(program => program !== 'c'))

    // 4: an older lab's one strace run per cell: no calls per read, which two runs give; the
    // table keeps the run's own counts, and the section says why
    assert.ok(!('chart-syscalls-all' in charts) && !('chart-syscalls-startup' in charts))
    assert.match(await page.textContent('#syscalls'), /an older lab profiled one run per cell/)
    assert.ok(await page.isVisible('#syscalls [data-size-panel]:not([hidden]) table'))

    // 5: memory, CPU, start-up, a bar per program.
    assert.deepEqual(charts['chart-memory'].categories, programs)
    assert.deepEqual(mainSeries(charts['chart-memory']).map(series => series.points), [programs.length, programs.length])
    assert.equal(charts['chart-memory'].series[0].ys[programs.indexOf('node-stream')], Math.max(...cellsOf('node-stream').map(cell => cell.reader.maxRssKb)) / 1024)
    assert.deepEqual(mainSeries(charts['chart-cpu']).map(series => series.name), ['user', 'sys'])
    assert.deepEqual(charts['chart-cpu'].series[1].ys, programs.map(program => cellsOf(program).at(-1).reader.sysUs / 1e6))
    assert.deepEqual(mainSeries(charts['chart-startup']).map(series => series.ys), [programs.map(program => results.startup[program].medianNs / 1e6)])

    // 6: the heap at each collection of the busiest trace: before and after, and a gap (a
    // null) between collections; this older run kept no pauses, and the page says so
    const busiest = [...gc.cells].filter(cell => cell.collections > 0)
      .sort((a, b) => b.collections - a.collections || b.blockSize - a.blockSize)[0]
    assert.deepEqual(charts['chart-gc-heap'].series.map(series => [series.name, series.points, series.drawn]),
      [[`${busiest.program} @ 64K`, busiest.timeline.length * 3 - 1, busiest.timeline.length * 2]])
    assert.match(await page.textContent('#gc'), /No pause timeline: .*--rederive/)
    const perMiB = mainSeries(charts['chart-gc-per-mib'])
    assert.deepEqual(perMiB.map(series => series.name), ['node-stream'])
    assert.deepEqual(perMiB[0].ys, gc.cells.filter(cell => cell.program === 'node-stream').sort(bySize)
      .map(cell => cell.totalPauseMs / (cell.bytes / 1024 / 1024)))

    // The toggle swaps steady-state for end-to-end figures, and back.
    await page.click('#throughput-mode button[data-mode="raw"]')
    let after = await chartsOf(page)
    for (const id of THROUGHPUT_PANELS) {
      assert.deepEqual(mainSeries(after[id])[0].ys, cellsOf('c').map(cell => cell.best.throughputMBps), id)
      assert.match(after[id].title, /: End-to-end/)
    }
    assert.equal(await page.getAttribute('#throughput-mode button[data-mode="raw"]', 'aria-pressed'), 'true')
    await page.click('#throughput-mode button[data-mode="steady"]')
    after = await chartsOf(page)
    assert.deepEqual(mainSeries(after['chart-throughput-host'])[0].ys, steadyC)
    assert.equal(await page.locator('#throughput-mode button[data-mode="marginal"]').count(), 0, 'no marginal mode without --marginal runs')

    // The block-size buttons swap the syscall table.
    await page.click('[data-size-group="syscalls"] button[data-size="256"]')
    assert.equal(await page.isVisible('[data-size-panel="syscalls"][data-size="256"]'), true)
    assert.equal(await page.isVisible('[data-size-panel="syscalls"][data-size="65536"]'), false)
    await page.click('[data-size-group="cpu"] button[data-size="256"]')
    after = await chartsOf(page)
    assert.deepEqual(after['chart-cpu'].series[0].ys, programs.map(program => cellsOf(program)[0].reader.userUs / 1e6))
    await page.click('[data-size-group="syscalls"] button[data-size="65536"]')
    await page.click('[data-size-group="cpu"] button[data-size="65536"]')

    // 7, 8: context, flags and findings are in the page.
    const text = await page.textContent('body')
    assert.match(text, /Linux 6\.\d+/)
    assert.match(text, /fixed: dd writes 64 KiB blocks/)
    assert.match(await page.textContent('#findings'), /Start-up on empty input takes C 1\.21 ms and node-stream, the slowest, 64\.2 ms/)
    assert.match(await page.textContent('#gc'), /bun-ffi: Bun runs JavaScriptCore, which has no --trace-gc/)
    assert.match(await page.textContent('#gc .never-collected'), /Never collected garbage in any traced run: just-sync, deno-sync\./)
    assert.ok(await page.locator('#summary .flag-noisy').count() > 0)

    // Offline exporting: save a chart as SVG and as PNG with no server.
    for (const [item, check] of [['Download SVG vector image', bytes => /<svg/.test(bytes.toString('utf8', 0, 400))], ['Download PNG image', bytes => bytes.subarray(1, 4).toString() === 'PNG']]) {
      await page.click('#chart-time .highcharts-contextbutton')
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(`#chart-time .highcharts-menu-item:has-text("${item}")`)])
      const saved = path.join(OUTPUT, `export-${download.suggestedFilename()}`)
      await download.saveAs(saved)
      assert.ok(check(fs.readFileSync(saved)), `${item} wrote ${saved}`)
    }

    await screenshotToKeep(page, 'report.png', { fullPage: true })
    await assertAtAGlance(page, 'glance-stdio')
    assert.deepEqual(problems, [])
    assert.deepEqual(network, [], 'the page fetched nothing from the network')
  } finally {
    await context.close()
  }
})

test('report.html of a calls run in Chromium: the ladder first, its parts stacked per variant, the cost pass beside, without errors', async () => {
  const results = readJson(path.join(CALLS, 'results.json'))
  const rows = results.ladder.rows
  const report = render([CALLS], 'calls')
  const { page, context, problems, network } = await open(report)
  try {
    const sections = await page.evaluate(() => [...document.querySelectorAll('main section')].map(section => section.id))
    assert.deepEqual(sections, ['ladder', 'headline', 'context'])
    // the answer opens the page: the ladder's chart starts on the first screen of 1280×800
    const ladderTop = await page.evaluate(() => document.getElementById('chart-ladder-0').getBoundingClientRect().top + window.scrollY)
    assert.ok(ladderTop < 800, `the ladder's chart starts ${ladderTop} px down`)
    const charts = await chartsOf(page)
    assert.deepEqual(Object.keys(charts).sort(), ['chart-headline', 'chart-ladder-0'])
    const ladder = charts['chart-ladder-0']
    // series names are markup to Highcharts, escaped once where the page makes them
    assert.deepEqual(ladder.categories, rows.map(row => row.variant))
    assert.deepEqual(ladder.series.map(series => [series.name, series.type]), [
      ['boundary (no-op call)', 'bar'], ['syscall entry and exit', 'bar'], ['the runtime&#39;s read path', 'bar'], ['the kernel&#39;s 256-byte read', 'bar'],
      // the fixture's run predates intervals that carry their level
      ['measured 256-byte read', 'scatter'], ['measured, nominal 95% interval', 'errorbar'], ['cost pass, 256 B', 'scatter']])
    assert.deepEqual(ladder.series[0].ys, rows.map(row => row.parts.boundary))
    assert.deepEqual(ladder.series[2].ys, rows.map(row => row.parts.readPath))
    assert.deepEqual(ladder.series[4].ys, rows.map(row => row.rungs['read-256'].estimate))
    // just-slow has no stdin reader: no diamond
    assert.deepEqual(ladder.series[6].ys, rows.map(row => row.stdin?.cpuPerReadNs?.estimate ?? null))
    const tableRows = await page.$$eval('#ladder table.ladder tbody tr', trs => trs.map(tr => tr.querySelector('th').textContent))
    assert.deepEqual(tableRows, rows.map(row => row.variant))
    const flagged = await page.$$eval('#ladder table.ladder tbody tr.disagree th', ths => ths.map(th => th.textContent))
    assert.deepEqual(flagged, rows.filter(row => row.addsUp === false || row.stdin?.agrees === false).map(row => row.variant))
    assert.match(await page.textContent('#ladder'), /A no-op call into C costs 3\.12 ns from C, 1\.88 from bun-ffi/)
    // an older run, its floor (c) found from the table and not counted among the variants
    assert.match(await page.textContent('#ladder'),
      new RegExp('The parts add up to the measured 256-byte read within 10% for 7 of 7 variants, c, the floor ' +
        'the others are measured from'))
    await screenshotToKeep(page, 'calls.png', { fullPage: true })
    await assertAtAGlance(page, 'glance-calls')
    assert.deepEqual(problems, [])
    assert.deepEqual(network, [])
  } finally {
    await context.close()
  }
  const markdown = fs.readFileSync(path.join(path.dirname(report), 'results.md'), 'utf8')
  assert.match(markdown, /^## The call ladder/m)
  assert.ok(markdown.indexOf('## The call ladder') < markdown.indexOf('## What a read costs'), 'the ladder first in results.md')
  // results.csv: a variant per row, each rung's median and interval, the parts, the check
  const [header, ...lines] = fs.readFileSync(path.join(path.dirname(report), 'results.csv'), 'utf8').trim().split('\r\n')
  const columns = header.split(',')
  assert.equal(lines.length, rows.length)
  const node = Object.fromEntries(lines.map(line => line.split(',')).find(fields => fields[1] === 'node').map((field, i) => [columns[i], field]))
  const nodeRow = rows.find(row => row.variant === 'node')
  assert.equal(Number(node.read256Ns), Number(nodeRow.rungs['read-256'].estimate.toFixed(3)))
  assert.equal(Number(node.readPathPartNs), Number(nodeRow.parts.readPath.toFixed(3)))
  assert.equal(node.stdinProgram, 'node-sync')
  assert.equal(node.agreesWithCost, String(nodeRow.stdin.agrees))
  // and its reader's cell of the cost pass, the page's "What a read costs" (a review: missing)
  const cost = readJson(path.join(CALLS, 'results.json')).headline.cells
    .find(cell => cell.program === 'node-sync' && cell.blockSize === 256)
  assert.equal(Number(node.costShareOfC), Number(cost.shareOfC.estimate.toFixed(4)))
  assert.equal(Number(node.costOverCNs), Number(cost.overheadNs.estimate.toFixed(3)))
  assert.equal(Number(node.costShareOfCLow), Number(cost.shareOfC.low.toFixed(4)))
})

// The http page's answer in results.csv: each server's CPU per request against c-epoll's, its
// interval and level, and why a cell is not quoted (a review found the CSV without it)
test('results.csv of an http run holds the answer: the ratio to C\'s CPU per request and its interval', () => {
  const run = path.join(ROOT, 'results', 'reference-http')
  const out = path.join(scratch, 'http-answer-csv')
  assert.equal(analyse([run, '--out', out]).status, 0)
  const [header, ...lines] = fs.readFileSync(path.join(out, 'results.csv'), 'utf8').trim().split('\r\n')
  const columns = header.split(',')
  const deno = Object.fromEntries(lines.map(line => line.split(','))
    .find(fields => fields[1] === 'deno' && fields[3] === 'keep-alive' && fields[4] === '128')
    .map((field, i) => [columns[i], field]))
  const cell = readJson(path.join(run, 'results.json')).http.cells
    .find(entry => entry.server === 'deno' && entry.mode === 'keep-alive' && entry.connections === 128)
  for (const [column, value] of [['cpuVsReference', 'estimate'], ['cpuVsReferenceLow', 'low'],
    ['cpuVsReferenceHigh', 'high'], ['cpuVsReferenceLevel', 'level']]) {
    assert.equal(Number(deno[column]), Number(cell.cpuVsReference[value].toFixed(4)), column)
  }
  assert.equal(deno.unquoted, '')
})

test('report.html of an http run in Chromium: the answer first, requests/s by connections, syscalls stacked per request, a table per mode, without errors', async () => {
  const results = readJson(path.join(HTTP, 'results.json'))
  const { cells, syscalls } = results.http
  const servers = [...new Set(cells.map(cell => cell.server))]
  const report = render([HTTP], 'http')
  const { page, context, problems, network } = await open(report)
  try {
    const sections = await page.evaluate(() => [...document.querySelectorAll('main section')].map(section => section.id))
    assert.deepEqual(sections, ['answer', 'http', 'context'])
    const charts = await chartsOf(page)
    assert.deepEqual(Object.keys(charts).sort(), ['chart-answer', 'chart-http-rate-0', 'chart-http-rate-1', 'chart-http-syscalls-0', 'chart-http-syscalls-1'])
    // the answer: each server's CPU per request over c-epoll's at 128 connections, a
    // series per mode (this run predates rounds: the ratio of the medians, no interval)
    const answer = charts['chart-answer']
    const others = servers.filter(server => server !== 'c-epoll')
    assert.deepEqual(answer.categories, others)
    // (and had wrk on its own CPU, as every run before --placement, which the series say)
    assert.deepEqual(mainSeries(answer).map(series => series.name), ['keep-alive, 128 connections, wrk apart', 'Connection: close, 128 connections, wrk apart'])
    for (const [i, mode] of ['keep-alive', 'close'].entries()) {
      const at = server => cells.find(cell => cell.server === server && cell.mode === mode && cell.connections === 128).cpuPerRequestUs
      mainSeries(answer)[i].ys.forEach((y, j) => assert.ok(Math.abs(y - at(others[j]) / at('c-epoll')) < 1e-9, `${others[j]} ${mode}`))
    }
    assert.match(await page.textContent('#answer'), new RegExp('keep-alive, 128 connections, wrk apart: \\S+ has the ' +
      'lowest ratio to c-epoll\'s CPU per request, [\\d.]+×; \\S+ the highest, [\\d.]+×( §)?\\.'))
    // a server that closes each connection carries § in keep-alive, its meaning under the table
    assert.match(await page.textContent('#answer table'), /§: the server closes each connection after one answer/)
    assert.match(await page.textContent('#answer tbody'), /just-blocking[\d.×() –]+§/)
    // every server, both axes and the legend within the chart's box
    const geometry = await answerGeometry(page)
    assert.deepEqual([geometry.hiddenLabels, geometry.axisTitleShown, geometry.legendShown], [[], true, true], JSON.stringify(geometry))
    assert.ok(geometry.boxHeight >= geometry.chartHeight, JSON.stringify(geometry))
    // a table too wide for the page scrolls sideways under its first column, which stays
    const sideways = await page.evaluate(() => {
      const wrap = document.querySelector('#http .table-wrap')
      wrap.style.width = '420px'
      const name = wrap.querySelector('tbody th')
      const second = wrap.querySelector('tbody tr > :nth-child(2)')
      const at = () => ({ name: name.getBoundingClientRect().left, second: second.getBoundingClientRect().left })
      const before = at()
      wrap.scrollLeft = 150
      const after = at()
      wrap.style.width = ''
      wrap.scrollLeft = 0
      return { before, after, left: wrap.getBoundingClientRect().left }
    })
    assert.equal(Math.round(sideways.after.name), Math.round(sideways.before.name), JSON.stringify(sideways))
    assert.ok(sideways.after.second < sideways.before.second - 100, JSON.stringify(sideways))
    for (const [index, mode] of ['keep-alive', 'close'].entries()) {
      const rate = charts[`chart-http-rate-${index}`]
      assert.deepEqual(rate.categories, servers)
      assert.deepEqual(mainSeries(rate).map(series => series.name), ['1 connection', '16 connections', '128 connections'])
      for (const [i, count] of [1, 16, 128].entries()) {
        assert.deepEqual(mainSeries(rate)[i].ys, servers.map(server => cells.find(cell => cell.server === server && cell.mode === mode && cell.connections === count).requestsPerSecond.median))
      }
      // each server's stack adds up to its calls of work, call by call (none below zero),
      // and its upkeep
      const stacked = charts[`chart-http-syscalls-${index}`]
      assert.deepEqual(stacked.categories, servers)
      stacked.categories.forEach((server, i) => {
        const total = stacked.series.reduce((sum, series) => sum + (series.ys[i] ?? 0), 0)
        const entry = syscalls.find(item => item.server === server && item.mode === mode)
        const expected = entry.byCall.filter(call => !call.upkeep).reduce((sum, call) => sum + Math.max(0, call.perRequest - call.failed), 0) + Math.max(0, entry.upkeep)
        assert.ok(Math.abs(total - expected) < 1e-9, `${server} ${mode}: ${total} against ${expected}`)
        assert.ok(Math.abs(total - entry.perRequest) < 0.05, `${server} ${mode}: ${total} against ${entry.perRequest} calls in all`)
      })
    }
    const tables = await page.$$eval('#http table.http', all => all.map(table => [...table.querySelectorAll('tbody tr th')].map(th => th.textContent)))
    assert.deepEqual(tables, [servers, servers])
    assert.match(await page.textContent('#http'), new RegExp('Keep-alive, 16 connections: c-epoll answers 137274 ' +
      'req/s \\(median of its own runs\\); the most of the others, deno, 103% of the c-epoll beside it, run by run, ' +
      'the fewest, \\S+( \\(a connect each\\))?, \\d+%\\.'))
    assert.match(await page.textContent('#context'), /wrk debian\/4\.1\.0-3\+b2 \[epoll\]: one thread on CPU 0, the server pinned to CPU 1/)
    await screenshotToKeep(page, 'http.png', { fullPage: true })
    await assertAtAGlance(page, 'glance-http')
    assert.deepEqual(problems, [])
    assert.deepEqual(network, [])
  } finally {
    await context.close()
  }
  const markdown = fs.readFileSync(path.join(path.dirname(report), 'results.md'), 'utf8')
  assert.match(markdown, new RegExp('^# .*\n\n.* servers under wrk, .*, measured \\S+ on \\S+ ' +
    'at lab commit 31a8157\n\n' +
    '## The answer: what a request costs the server against C\n'))
  assert.match(markdown, /^## Keep-alive: median requests\/s/m)
  assert.ok(!markdown.includes('## Steady-state throughput'), 'no stdio tables')
  // results.csv: a cell per row, with its server's syscalls per request in that mode
  const [header, ...lines] = fs.readFileSync(path.join(path.dirname(report), 'results.csv'), 'utf8').trim().split('\r\n')
  const columns = header.split(',')
  assert.equal(lines.length, cells.length)
  const bun = Object.fromEntries(lines.map(line => line.split(',')).find(fields => fields[1] === 'bun' && fields[3] === 'close' && fields[4] === '16').map((field, i) => [columns[i], field]))
  const bunCell = cells.find(cell => cell.server === 'bun' && cell.mode === 'close' && cell.connections === 16)
  assert.equal(Number(bun.requestsPerSecondMedian), Number(bunCell.requestsPerSecond.median.toFixed(1)))
  assert.equal(Number(bun.syscallsPerRequest), Number(syscalls.find(item => item.server === 'bun' && item.mode === 'close').perRequest.toFixed(3)))
})

test('report.html of a db run in Chromium: CPU per request stacked by process, syscalls by call, a table per endpoint, without errors', async () => {
  const results = readJson(path.join(DB, 'results.json'))
  const { cells, syscalls, endpoints } = results.db
  const report = render([DB], 'db')
  const { page, context, problems, network } = await open(report)
  try {
    const sections = await page.evaluate(() => [...document.querySelectorAll('main section')].map(section => section.id))
    assert.deepEqual(sections, ['answer', 'db', 'context'])
    const charts = await chartsOf(page)
    assert.deepEqual(Object.keys(charts).sort(), ['chart-answer', ...endpoints.flatMap((_, i) => [`chart-db-calls-${i}`, `chart-db-cpu-${i}`])].sort())
    // the answer: a series per endpoint, each server's CPU per request against C's
    const answer = charts['chart-answer']
    assert.deepEqual(mainSeries(answer).map(series => series.name), endpoints.map(endpoint => `/${endpoint}, 64 connections`))
    const ratio = cells.find(cell => cell.server === 'just-pg-prepared-pipelined' && cell.endpoint === 'db').serverVsReference.estimate
    assert.equal(mainSeries(answer)[0].ys[answer.categories.indexOf('just-pg-prepared-pipelined')], ratio)
    assert.match(await page.textContent('#answer'), /\/db, 64 connections: \S+ has the lowest ratio to c-libpq-prepared-pipelined's server CPU per request, [\d.]+× \([\d.]+–[\d.]+×, [\d.]+%\)/)
    const geometry = await answerGeometry(page)
    assert.deepEqual([geometry.hiddenLabels, geometry.axisTitleShown, geometry.legendShown], [[], true, true], JSON.stringify(geometry))
    for (const [index, endpoint] of endpoints.entries()) {
      // each server's stack is its CPU per request, process by process
      const cpu = charts[`chart-db-cpu-${index}`]
      const servers = cells.filter(cell => cell.endpoint === endpoint).map(cell => cell.server)
      assert.deepEqual(cpu.categories, servers)
      assert.deepEqual(cpu.series.map(series => series.name), ['server', 'database backends', 'database upkeep', 'wrk', 'rest (kernel, bench)'])
      cpu.categories.forEach((server, i) => {
        const cell = cells.find(item => item.server === server && item.endpoint === endpoint)
        const total = cpu.series.reduce((sum, series) => sum + series.ys[i], 0)
        const expected = Object.values(cell.cpuPerRequestUs).reduce((sum, value) => sum + value, 0)
        assert.ok(Math.abs(total - expected) < 1e-9, `${server} ${endpoint}: ${total} against ${expected}`)
      })
      // and its syscalls per request: each call of work, then the upkeep
      const calls = charts[`chart-db-calls-${index}`]
      calls.categories.forEach((server, i) => {
        const entry = syscalls.find(item => item.server === server && item.endpoint === endpoint).self
        const total = calls.series.reduce((sum, series) => sum + (series.ys[i] ?? 0), 0)
        const expected = entry.byCall.filter(call => !call.upkeep).reduce((sum, call) => sum + Math.max(0, call.perRequest - call.failed), 0) + Math.max(0, entry.upkeep)
        assert.ok(Math.abs(total - expected) < 1e-9, `${server} ${endpoint}: ${total} against ${expected}`)
      })
    }
    const tables = await page.$$eval('#db table.db', all => all.map(table => [...table.querySelectorAll('tbody tr th')].map(th => th.textContent)))
    assert.deepEqual(tables, endpoints.map(endpoint => cells.filter(cell => cell.endpoint === endpoint).map(cell => cell.server)))
    assert.match(await page.textContent('#db'), /Parsing every query, \/db: an unnamed statement costs the servers \d+% \(\S+\) to \d+% \(\S+\)/)
    // the variants' ratios, per client, in their table
    const variants = await page.$$eval('#db table.variants tbody tr th', all => all.map(th => th.textContent))
    assert.ok(variants.includes('c-libpq'), variants.join(', '))
    assert.match(await page.textContent('#context'), /PostgreSQL\) 15\.\d+ .*a cluster of the run's own over a Unix socket: .*fsync=off/)
    // a run from before --order: each endpoint's rounds together, as it ran
    assert.match(await page.textContent('#db'), /Each endpoint's rounds run together, its server processes stopped/)
    await screenshotToKeep(page, 'db.png', { fullPage: true })
    await assertAtAGlance(page, 'glance-db')
    assert.deepEqual(problems, [])
    assert.deepEqual(network, [])
  } finally {
    await context.close()
  }
  const markdown = fs.readFileSync(path.join(path.dirname(report), 'results.md'), 'utf8')
  assert.match(markdown, /^## \/db: median requests\/s/m)
  const [header, ...lines] = fs.readFileSync(path.join(path.dirname(report), 'results.csv'), 'utf8').trim().split('\r\n')
  const columns = header.split(',')
  assert.equal(lines.length, cells.length)
  const row = Object.fromEntries(lines.map(line => line.split(',')).find(fields => fields[1] === 'just-pg-prepared-pipelined' && fields[6] === 'db').map((field, i) => [columns[i], field]))
  const cell = cells.find(item => item.server === 'just-pg-prepared-pipelined' && item.endpoint === 'db')
  assert.equal(Number(row.cpuPerRequestUs_server), Number(cell.cpuPerRequestUs.server.toFixed(3)))
  assert.equal(Number(row.serverSyscallsWork), Number(syscalls.find(item => item.server === cell.server && item.endpoint === 'db').self.work.toFixed(3)))
})

test('two db runs compared: each run\'s own repeatability and the two-run criteria, in the page and results.md', () => {
  const other = copyOf(DB, 'db-again')
  const report = render([DB, other], 'db-compare')
  const markdown = fs.readFileSync(path.join(path.dirname(report), 'results.md'), 'utf8')
  assert.match(markdown, / against \S+: the server's CPU per request against the reference's moved by at most 5% in (\d+) of \1 cells \(goal: 90%\): met/)
  assert.match(markdown, /The server's CPU per request moved by at most 5% in (\d+) of \1 cells \(goal: 90%\): met/)
  assert.match(markdown, /The server's calls of work moved by at most 0 a query/)
  // the page gives the pair's verdict on its answer under the runs' own, above the chart: what a
  // comparison is for, once 4,970 px down (a review); the criterion's other figures stay below
  const page = fs.readFileSync(report, 'utf8')
  const pairLine = new RegExp('<p class="trust pair">Set against each other: [^:<]+ against [^:<]+: the ' +
    'server&#39;s CPU per request against the reference&#39;s moved by at most 5% in (\\d+) of \\1 cells ' +
    '\\(goal: 90%\\): met; [^<]*\\.</p>').exec(page)
  assert.ok(pairLine, 'the pair line')
  assert.ok(pairLine.index < page.indexOf('id="chart-answer"'), 'above the answer\'s chart')
  assert.doesNotMatch(pairLine[0], /calls of work/)
})

// A reason a cell is not quoted is a sentence with figures of its own: set in a column of
// ratios that keep to one line, it pushed the answer's second column out of sight at 1280 px
// (a real run's node-net, split by its GC states)
test('report.html of an http run: a long reason a cell is not quoted wraps in the answer', async () => {
  const run = copyOf(HTTP, 'http-unquoted')
  const resultsFile = path.join(run, 'results.json')
  const results = readJson(resultsFile)
  const most = Math.max(...results.http.cells.map(cell => cell.connections))
  const split = results.http.cells
    .find(cell => cell.server === 'deno' && cell.mode === 'close' && cell.connections === most)
  split.gcStates = {
    oldGeneration: 1, processes: 2, ratioOld: 1.6, ratioYoung: 1.5, cpuOldUs: 40.1, cpuYoungUs: 37.6
  }
  fs.writeFileSync(resultsFile, JSON.stringify(results))
  const { page, context, problems } = await open(render([run], 'http-unquoted'))
  try {
    const reason = page.locator('#answer td.reason')
    assert.equal(await reason.count(), 1)
    assert.match(await reason.textContent(),
      /^not quoted: its processes fell into two GC states: 1\.6× in the 1 of 2 where/)
    // on more than one line, within the page
    const box = await reason.boundingBox()
    assert.ok(box.height > 30 && box.x + box.width <= 1280, JSON.stringify(box))
    await assertAtAGlance(page, 'glance-http-unquoted')
    assert.deepEqual(problems, [])
  } finally {
    await context.close()
  }
})

test('report.html of an http run without strace: requests/s drawn, the syscall charts replaced by why', async () => {
  const run = copyOf(HTTP, 'http-nostrace')
  // what bench.js --no-strace writes: its context and syscalls.json say so, no counts
  for (const name of ['context.json', 'syscalls.json']) {
    const file = path.join(run, name)
    fs.writeFileSync(file, JSON.stringify({ ...readJson(file), ptrace: { available: false, reason: 'skipped with --no-strace' } }))
  }
  const resultsFile = path.join(run, 'results.json')
  const results = readJson(resultsFile)
  fs.writeFileSync(resultsFile, JSON.stringify({ ...results, http: { ...results.http, syscalls: [], floors: {} } }))
  const { page, context, problems, network } = await open(render([run], 'http-nostrace'))
  try {
    const charts = await chartsOf(page)
    assert.deepEqual(Object.keys(charts).sort(), ['chart-answer', 'chart-http-rate-0', 'chart-http-rate-1'])
    assert.deepEqual(await page.$$eval('#http .why', all => all.map(note => note.textContent)),
      Array(2).fill('No syscalls per request: strace did not run: skipped with --no-strace.'))
    const syscallColumn = await page.$$eval('#http table.http tbody tr td:nth-last-child(2)', all => [...new Set(all.map(cell => cell.textContent))])
    assert.deepEqual(syscallColumn, ['not traced'])
    await assertAtAGlance(page, 'glance-http-nostrace')
    assert.deepEqual(problems, [])
    assert.deepEqual(network, [])
  } finally {
    await context.close()
  }
  const markdown = fs.readFileSync(path.join(OUTPUT, 'http-nostrace', 'results.md'), 'utf8')
  const servers = new Set(results.http.cells.map(cell => cell.server))
  // the rows of the two modes' tables (the answer's table has a column per mode)
  const rows = markdown.split('\n').filter(line => servers.has(line.split(' | ')[0].slice(2)) && line.split(' | ').length > 3)
  assert.equal(rows.length, 2 * servers.size)
  assert.ok(rows.every(line => line.split(' | ').at(-2) === 'not traced'), rows.join('\n'))
})

test('report.html of http capacity runs: a table per mode, syscalls apart and timed, whole at 1280 px', async () => {
  const run = copyOf(HTTP, 'http-capacity')
  const resultsFile = path.join(run, 'results.json')
  const results = readJson(resultsFile)
  const servers = [...new Set(results.http.cells.map(cell => cell.server))]
  // what a run with wrk beside the server adds (experiments/http/summary.js): a capacity run per
  // server and mode at the most connections, and the kernel pass's run beside it and in the
  // timed placement
  const calls = (work, upkeep) => ({ perRequest: work + upkeep, work, upkeep })
  const capacity = ['keep-alive', 'close'].flatMap(mode => servers.map((server, i) => ({
    server,
    mode,
    connections: 128,
    ok: true,
    requestsPerSecond: 100000 - 1000 * i,
    cpuPerRequestUs: 10 + i,
    serverCpuShare: 0.99,
    clientBound: false,
    requestsPerWakeUp: 100.5 + i,
    userShare: { share: 0.25, cpuSeconds: 1 },
    cpuVsReference: server === 'c-epoll' ? null : 1.1 + i / 10,
    syscalls: calls(2.01, 0.0345 + i / 1000)
  })))
  const byCall = [{ name: 'read', perRequest: 1, failed: 0, upkeep: false, p50Ns: 500 },
    { name: 'sendto', perRequest: 1, failed: 0, upkeep: false, p50Ns: 2000 }]
  const kernel = capacity.map(({ server, mode }) =>
    ({ server, where: mode, connections: 128, ok: true, requests: 1000, ...calls(2.02, 0.151), byCall, strace: null }))
  fs.writeFileSync(resultsFile, JSON.stringify({ ...results, http: { ...results.http, capacity, kernel } }))
  const { page, context, problems } = await open(render([run], 'http-capacity'))
  try {
    const tables = await page.$$eval('#http table.http', all => all
      .filter(table => table.caption?.textContent.startsWith('Capacity'))
      .map(table => ({
        caption: table.caption.textContent,
        header: [...table.querySelectorAll('thead th')].map(th => th.textContent),
        first: [...table.querySelector('tbody tr').children].map(cell => cell.textContent)
      })))
    assert.deepEqual(tables.map(table => table.caption.split(': one run')[0]),
      ['Capacity, keep-alive', 'Capacity, Connection: close'])
    for (const table of tables) {
      assert.deepEqual(table.header, ['server', 'req/s', 'CPU × c-epoll, user share', 'req/wake-up: apart, timed',
        'syscalls/request: apart, timed'])
      assert.equal(table.first.at(-1), '2.01 + 0.035, 2.02 + 0.15')
    }
    await assertAtAGlance(page, 'glance-http-capacity')
    assert.deepEqual(problems, [])
  } finally {
    await context.close()
  }
})

test('two calls runs compared: a ladder table and chart for each', () => {
  const out = path.join(OUTPUT, 'calls-compared')
  const result = analyse([CALLS, copyOf(CALLS, 'again'), '--out', out])
  assert.equal(result.status, 0, result.stderr)
  const page = fs.readFileSync(path.join(out, 'report.html'), 'utf8')
  assert.ok(page.includes('id="chart-ladder-0"') && page.includes('id="chart-ladder-1"'))
  assert.equal((fs.readFileSync(path.join(out, 'results.md'), 'utf8').match(/: The call ladder/g) ?? []).length, 2)
})

test('report.html with --marginal figures and share intervals: a Marginal mode draws them, the summary adds their tables', async () => {
  const run = copyOf(SAMPLE, 'marginal')
  const results = readJson(path.join(run, 'results.json'))
  // made-up figures: c 1000, 2000, 3000 MB/s ±10%; every other program half of C's, ±20%
  const sizes = [256, 4096, 65536]
  for (const cell of results.cells) {
    const ofC = (sizes.indexOf(cell.blockSize) + 1) * 1000
    const throughputMBps = cell.program === 'c' ? ofC : ofC / 2
    cell.marginal = { quarterRuns: 2, quarterBytes: cell.bytes / 4, wallNsBetween: 1, plusMinusShare: cell.program === 'c' ? 0.1 : 0.2, throughputMBps, perReadNs: null, cpuPerReadNs: null }
    cell.vsC.marginalThroughput = throughputMBps / ofC
    if (cell.program === 'just-sync' && cell.blockSize === 256) Object.assign(cell.vsC, { steadyRankTestP: 0.5, steadyWithinNoise: true, steadyShare: { estimate: 0.97, low: 0.9, high: 1.04 } })
  }
  fs.writeFileSync(path.join(run, 'results.json'), JSON.stringify(results))
  const report = render([run], 'report-marginal')
  assert.match(fs.readFileSync(path.join(path.dirname(report), 'results.md'), 'utf8'), /## Marginal throughput[^#]+\| c \| 1000 \(100%\) \| 2000 \(100%\) \| 3000 \(100%\) \|/)
  const { page, context, problems } = await open(report)
  try {
    await page.click('#throughput-mode button[data-mode="marginal"]')
    const charts = await chartsOf(page)
    for (const id of THROUGHPUT_PANELS) {
      assert.match(charts[id].title, /: Marginal throughput/)
      const lines = mainSeries(charts[id])
      assert.deepEqual(lines[0].ys, [1000, 2000, 3000], `${id}: C`)
      assert.ok(lines.slice(1).every(series => series.ys.join() === '500,1000,1500'), `${id}: every other program at half of C`)
    }
    assert.equal(await page.locator('table.summary[data-figure="marginal"]').count(), 1)
    // the rank test's mark: one steady-state cell, with its meaning on hover
    assert.equal(await page.locator('table.summary[data-figure="steady"] .within-noise').count(), 1)
    assert.equal(await page.getAttribute('table.summary .within-noise', 'title'), 'its runs are not distinguishable from C\'s (rank test, p ≥ 0.05)')
    assert.match(await page.textContent('table.summary[data-figure="marginal"]'), /Marginal throughput/)
    // the share of C over all runs: a row only for just-sync, the one program with an interval,
    // its flags as the steady-state table gives them
    const shareRows = await page.locator('table.summary[data-figure="share"] tbody tr').allTextContents()
    assert.deepEqual(shareRows.map(row => row.replace(/\s+/g, ' ').trim()), ['just-sync 97.0% (90.0–104.0%) noisy'])
    await assertAtAGlance(page, 'glance-marginal')
    assert.deepEqual(problems, [])
  } finally {
    await context.close()
  }
})

test('report.html without strace data: the syscall section says why, the rest draws', async () => {
  const { page, context, problems, network } = await open(render([NO_STRACE], 'report-nostrace'))
  try {
    const charts = await chartsOf(page)
    assert.ok(!('chart-syscalls-main' in charts) && !('chart-syscalls-all' in charts))
    assert.ok('chart-throughput-c' in charts && 'chart-gc-heap' in charts)
    assert.match(await page.textContent('#syscalls .why'), /sample-nostrace: strace did not run: skipped with --no-strace\./)
    // a run from before the cost pass: the headline says why it is missing, and no chart
    assert.ok(!('chart-headline' in charts))
    assert.match(await page.textContent('#headline .why'), /No headline: this run has no cost pass/)
    await assertAtAGlance(page, 'glance-stdio-nostrace')
    assert.deepEqual(problems, [])
    assert.deepEqual(network, [])
  } finally {
    await context.close()
  }
})

test('report.html comparing two machines: the comparison first, then each run\'s charts, without errors', async () => {
  const { page, context, problems } = await open(render([SAMPLE, otherMachine('page-intel')], 'report-machines'))
  try {
    // the first section and the first link of the page's navigation
    assert.equal(await page.$eval('main > section', section => section.id), 'machines')
    assert.equal(await page.$eval('header nav a', link => link.getAttribute('href')), '#machines')
    assert.match(await page.textContent('#machines'), /Of 9 rows on 2 machines, the share of c carried by value: \d+ of 9/)
    assert.ok(await page.isVisible('#machines table'))
    const charts = await chartsOf(page)
    // the runs' headline, drawn once for both, with a series for each run's readers
    assert.ok('chart-headline' in charts, Object.keys(charts).join(', '))
    assert.ok(charts['chart-headline'].series.some(series => series.points > 0))
    // the headline's subtitle names each run's C, which differ here (the other's is 0.56 times)
    const subtitle = await page.evaluate(() => Highcharts.charts.find(chart => chart?.renderTo.id === 'chart-headline')
      .subtitle.textStr)
    assert.match(subtitle, /^ns more than C's \(sample: 493 ns, sample #2: 276 ns\) per read\(2\)/)
    await screenshotToKeep(page, 'report-machines.png', { fullPage: true })
    await assertAtAGlance(page, 'glance-machines')
    assert.deepEqual(problems, [])
  } finally {
    await context.close()
  }
})

test('report.html comparing two sets: a series per program and run', async () => {
  const { page, context, problems } = await open(render([SAMPLE, NO_STRACE], 'report-compare'))
  try {
    const charts = await chartsOf(page)
    const programs = [...new Set(readJson(path.join(SAMPLE, 'results.json')).cells.map(cell => cell.program))]
    assert.deepEqual(mainSeries(charts['chart-throughput-host']).map(series => series.name),
      ['c (sample)', 'just-sync (sample)', 'c (sample-nostrace)', 'just-sync (sample-nostrace)'])
    assert.match(await page.textContent('#syscalls'), /sample: an older lab profiled one run per cell/)
    assert.equal(await page.locator('#syscalls [data-size-panel]:not([hidden]) tbody tr').count(), programs.length)
    assert.equal(charts['chart-gc-heap'].series.length, 2)
    assert.match(await page.textContent('#summary'), /Side by side/)
    await screenshotToKeep(page, 'report-compare.png', { fullPage: true })
    await assertAtAGlance(page, 'glance-compare')
    assert.deepEqual(problems, [])
  } finally {
    await context.close()
  }
})

// Every timed run of one cell failed: results.json derived again from all.jsonl.
function failedCellCopy (program, blockSize) {
  const run = copyOf(SAMPLE, 'failed')
  const records = fs.readFileSync(path.join(run, 'all.jsonl'), 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line))
  for (const record of records) {
    if (record.phase === 'timing' && record.program === program && record.blockSize === blockSize) Object.assign(record, { ok: false, failure: 'reader exited 1: boom' })
  }
  fs.writeFileSync(path.join(run, 'all.jsonl'), records.map(record => JSON.stringify(record)).join('\n') + '\n')
  fs.writeFileSync(path.join(run, 'results.json'), JSON.stringify(summariseResults(records, readJson(path.join(run, 'context.json')))))
  return run
}

test('report.html with a failed cell: a gap in the lines, the cell flagged, the runs listed', async () => {
  const { page, context, problems } = await open(render([failedCellCopy('deno-sync', 4096)], 'report-failed'))
  try {
    const charts = await chartsOf(page)
    const deno = mainSeries(charts['chart-throughput-deno']).find(series => series.name === 'deno-sync')
    assert.deepEqual([deno.points, deno.drawn], [3, 2])
    assert.equal(await page.locator('#summary .flag-failed').count(), 1)
    assert.equal(await page.locator('#context ul.failures li').count(), 2)
    assert.match(await page.textContent('#context ul.failures'), /timing deno-sync at 4 KiB, run 0: reader exited 1: boom/)
    await assertAtAGlance(page, 'glance-failed-cell')
    assert.deepEqual(problems, [])
  } finally {
    await context.close()
  }
})

test('report.html with markup in names: shown as text, never run', async () => {
  const out = path.join(OUTPUT, 'report-escaped-browser')
  const result = analyse([evilCopy(), '--out', out])
  assert.equal(result.status, 0, result.stderr)
  const { page, context, problems } = await open(path.join(out, 'report.html'))
  try {
    assert.ok((await page.textContent('#chart-throughput-other .highcharts-legend')).includes(EVIL_PROGRAM), 'the legend shows the name as written')
    assert.ok((await page.textContent('#chart-headline .highcharts-xaxis-labels')).includes(EVIL_PROGRAM), 'the headline shows it as written')
    assert.ok((await page.textContent('#summary')).includes(EVIL_PROGRAM))
    assert.ok((await page.textContent('#context')).includes(EVIL_RUNTIME))
    assert.equal(await page.locator('#context img, #summary script, svg script').count(), 0)
    assert.deepEqual(problems, [], 'no dialog opened and no error')
  } finally {
    await context.close()
  }
})

test('report.html tooltips show markup in names as written, escaped once', async () => {
  const out = path.join(OUTPUT, 'report-escaped-tooltips')
  const result = analyse([evilCopy(), '--out', out])
  assert.equal(result.status, 0, result.stderr)
  const { page, context, problems } = await open(path.join(out, 'report.html'))
  try {
    // Each chart's tooltip at a point of the program whose name is markup: in a series'
    // name (the line charts, the GC heap) or in a category (the bar charts).
    const tooltips = await page.evaluate(evil => {
      const shown = {}
      for (const chart of Highcharts.charts.filter(Boolean)) {
        const categories = chart.xAxis[0].categories ?? []
        const point = chart.series.filter(series => series.options.enableMouseTracking !== false)
          .flatMap(series => series.points)
          .find(point => point.y !== null && (point.series.name.includes('script') || String(categories[point.x] ?? '').includes('script')))
        if (!point) continue
        chart.tooltip.refresh(chart.tooltip.shared ? [point] : point)
        shown[chart.renderTo.id] = chart.tooltip.label.text.element.textContent
      }
      return shown
    }, EVIL_PROGRAM)
    // (the GC heap chart draws other programs than this one)
    assert.deepEqual(Object.keys(tooltips).sort(), ['chart-cost', 'chart-cpu', 'chart-headline', 'chart-memory', 'chart-overhead', 'chart-startup',
      'chart-throughput-other', 'chart-time'])
    for (const [id, text] of Object.entries(tooltips)) {
      assert.ok(text.includes(EVIL_PROGRAM), `${id}: ${text}`)
      assert.ok(!text.includes('&lt;') && !text.includes('&amp;'), `${id} shows an entity: ${text}`)
    }
    assert.equal(await page.locator('svg script, svg img').count(), 0)
    assert.deepEqual(problems, [], 'no dialog opened and no error')
  } finally {
    await context.close()
  }
})

test('--machines: the runs under a folder listed by machine, each with its key; nothing written', () => {
  const folder = fs.mkdtempSync(path.join(scratch, 'index-'))
  fs.cpSync(SAMPLE, path.join(folder, 'a'), { recursive: true })
  fs.cpSync(HTTP, path.join(folder, 'b'), { recursive: true })
  fs.cpSync(otherMachine('index-intel'), path.join(folder, 'fleet', 'intel', 'q1'), { recursive: true })
  const result = analyse(['--machines', folder])
  assert.equal(result.status, 0, result.stderr)
  const lines = result.stdout.trim().split('\n')
  const heads = lines.filter(line => !line.startsWith('  '))
  assert.equal(heads.length, 3, result.stdout)
  assert.match(
    heads.find(line => line.startsWith('intel-xeon-')),
    /^intel-xeon-\d+c-[0-9a-f]{8}: Intel\(R\) Xeon\(R\) Processor, \d+ cores, .*; key [0-9a-f]{12}; keyed without .* \(an older lab's run\)$/
  )
  assert.ok(lines.some(line => /^ {2}stdio +\d{4}-\d\d-\d\d .*fleet\/intel\/q1$/.test(line)), result.stdout)
  assert.equal(fs.readdirSync(path.join(folder, 'a')).includes('report.html'), false)
  assertUsageError(analyse(['--machines', '--out', folder]), /--machines lists runs and writes nothing; drop --out$/)
  assertUsageError(
    analyse(['--machines', path.join(folder, 'nowhere')]),
    /no such directory: .*nowhere; give a folder of runs/
  )
})

// The committed reference runs, as a user opens them: each page's first chart on the first
// screen of 1280×800, every chart whole in its box, no two series of a chart alike (colour
// and dash), no error. Their screenshots go where LAB_TEST_OUTPUT points.
for (const reference of ['reference', 'reference-calls', 'reference-http', 'reference-db']) {
  test(`${reference} in Chromium: its answer on the first screen, every chart whole, no two series alike`, async () => {
    const report = render([path.join(ROOT, 'results', reference)], `committed-${reference}`)
    const { page, context, problems, network } = await open(report)
    try {
      await assertAtAGlance(page, `committed-${reference}`)
      // every committed run says how far its answer can be trusted, above its chart
      assert.match(await page.textContent('main > section:first-of-type > p.trust'),
        /^On the machine that measured it, the answer is (quotable|too noisy to quote): a second run would move /)
      assert.deepEqual(problems, [])
      assert.deepEqual(network, [])
    } finally {
      await context.close()
    }
  })
}

// The glance's measures find each fault they look for: a chart cut by its box, a label cut
// short, names written over each other, an axis without its title, two series alike, a
// runtime in two hues, two families in one, a page wider than the window.
test('the at-a-glance measures catch each fault on a page made faulty', async () => {
  const { page, context } = await open(render([HTTP], 'glance-faults'))
  try {
    const clean = await measurePage(page)
    const faults = ['clipped', 'shortened', 'overlapping', 'alike', 'hues', 'echoes'].map(name => clean[name])
    assert.deepEqual([...faults, clean.pageScrollsSideways], [[], [], [], [], [], [], false])
    assert.ok(clean.answerKeyEnds !== null && clean.answerScaleEnds !== null, JSON.stringify(clean))
    assert.ok(clean.answerKeyEnds <= 800 && clean.answerScaleEnds <= 800, JSON.stringify(clean))
    const faulty = await page.evaluate(() => {
      const answer = Highcharts.charts.find(chart => chart?.renderTo.id === 'chart-answer')
      // a tall answer with its key and its only scale below its bars, past the first screen
      answer.update({ legend: { verticalAlign: 'bottom' } }, false)
      answer.yAxis[1].update({ visible: false }, false)
      answer.fits = Infinity
      answer.setSize(null, 1200, false)
      answer.renderTo.style.height = '200px'
      answer.renderTo.style.overflow = 'hidden'
      const rate = Highcharts.charts.find(chart => chart?.renderTo.id === 'chart-http-rate-0')
      const [first, second] = rate.series.filter(series => !series.options.linkedTo)
      second.update({ color: first.color }, false)
      // c-epoll's bar in Node's green; and Bun's in Node's green as well
      const nodeGreen = rate.series[0].points.find(point => point.options.custom?.family === 'node').color
      for (const point of rate.series[0].points) {
        if (['c-epoll', 'bun'].includes(point.options.custom?.runtime)) point.update({ color: nodeGreen }, false)
      }
      rate.redraw()
      rate.yAxis[0].setTitle({ text: null })
      // a legend in pages, and bars squeezed into a plot too thin, past what the page grows a
      // chart by (lib/report/browser.js fitContent)
      rate.fits = Infinity
      rate.update({ legend: { maxHeight: 24 } })
      const syscalls = Highcharts.charts.find(chart => chart?.renderTo.id === 'chart-http-syscalls-0')
      // a syscall in Node's green
      syscalls.series[0].update({ color: nodeGreen }, false)
      syscalls.fits = Infinity
      syscalls.setSize(null, 200, false)
      // the servers' names given 30 px on one line: Highcharts cuts each to "c-…"
      syscalls.xAxis[0].update({ labels: { style: { width: '30px', lineClamp: 1 } } })
      // the other mode's names on as many lines as 30 px make of them, in a plot not grown for them
      const closing = Highcharts.charts.find(chart => chart?.renderTo.id === 'chart-http-syscalls-1')
      closing.fits = Infinity
      closing.xAxis[0].update({ labels: { style: { width: '30px' } } })
      document.querySelector('main').style.minWidth = '2000px'
      // what the page now holds, so that the faults below are of a page so changed
      return [Highcharts.charts.filter(Boolean).some(chart => chart.fits === Infinity),
        document.querySelector('main').style.minWidth]
    })
    assert.deepEqual(faulty, [true, '2000px'])
    const seen = await measurePage(page)
    // and the verdict the tests and studies/pages.js give: each fault a line
    const verdict = glanceFaults(seen, 1280).join('\n')
    for (const said of [/^clipped: chart-answer: /m, /^the answer's key ends \d+ px down$/m, /^axis untitled: /m,
      /^series alike: /m, /^hue: c-epoll drawn in /m, /^the page scrolls sideways$/m]) assert.match(verdict, said)
    assert.deepEqual(glanceFaults(clean, 1280), [])
    assert.match(seen.clipped.join('\n'), /^chart-answer: \d+ px in a box of 200; \d+ parts cut/m)
    assert.ok(seen.answerKeyEnds > 800 && seen.answerScaleEnds > 800, JSON.stringify(seen))
    assert.match(seen.clipped.join('\n'), /^chart-http-rate-0: .*the legend, in \d+ pages/m)
    assert.match(seen.clipped.join('\n'), /^chart-http-syscalls-0: .*\d+ px of plot for 8 categories/m)
    assert.match(seen.shortened.join('\n'), /^chart-http-syscalls-0: "■ c-blocking"$/m)
    assert.match(seen.overlapping.join('\n'), /^chart-http-syscalls-1: ".+" into ".+" by \d+ px$/m)
    assert.deepEqual(seen.untitled, ['chart-http-rate-0: its y axis'])
    assert.equal(seen.alike.length, 1, seen.alike.join('\n'))
    assert.match(seen.alike[0], /^chart-http-rate-0: /)
    assert.ok(seen.hues.some(line => /^c-epoll drawn in /.test(line)), seen.hues.join('\n'))
    assert.ok(seen.hues.some(line => /share /.test(line) && /node/.test(line) && /bun/.test(line)), seen.hues.join('\n'))
    assert.equal(seen.echoes.length, 1, seen.echoes.join('\n'))
    assert.match(seen.echoes[0], /^chart-http-syscalls-0: .* in #009e73, as node's #009e73$/)
    assert.equal(seen.pageScrollsSideways, true)
  } finally {
    await context.close()
  }
})

// stdio's syscalls as users read them, on the committed reference (two strace runs a cell):
// each reader's calls per read stacked by call, adding up to its rate; C's rate the line every
// bar is read against; start-up's calls apart, in the runtime's hue.
test('reference: syscalls per read against C\'s line, start-up apart; GC\'s pauses over the run', async () => {
  const dir = path.join(ROOT, 'results', 'reference')
  const cells = readJson(path.join(dir, 'syscalls.json')).cells.filter(cell => cell.blockSize === 65536)
  const { page, context, problems } = await open(render([dir], 'reference-syscalls'))
  try {
    const charts = await chartsOf(page)
    for (const [id, field] of [['chart-syscalls-main', 'mainThread'], ['chart-syscalls-all', 'allThreads']]) {
      const chart = charts[id]
      assert.deepEqual(chart.categories, cells.map(cell => cell.program), id)
      const stacks = chart.series.filter(series => series.type === 'bar')
      chart.categories.forEach((program, i) => {
        const rate = cells[i].syscallsPerRead[field]
        const total = stacks.reduce((sum, series) => sum + (series.ys[i] ?? 0), 0)
        if (rate === null) assert.ok(stacks.every(series => series.ys[i] === null), `${id} ${program}: no rate, no bar`)
        else assert.ok(Math.abs(total - rate.perRead) < 1e-9, `${id} ${program}: ${total} against ${rate.perRead}`)
      })
      // the readers with no rate are marked, not left blank
      const marked = chart.series.find(series => series.type === 'scatter')
      const noRate = cells.filter(cell => cell.syscallsPerRead[field] === null).map(cell => cell.program)
      if (noRate.length) assert.deepEqual(chart.categories.filter((_, i) => marked.ys[i] === 0), noRate, id)
    }
    const lines = await page.evaluate(() => ['chart-syscalls-main', 'chart-syscalls-all'].map(id =>
      Highcharts.charts.find(chart => chart?.renderTo.id === id).yAxis[0].options.plotLines.map(line => line.value)))
    const c = cells.find(cell => cell.program === 'c').syscallsPerRead
    assert.deepEqual(lines, [[c.mainThread.perRead], [c.allThreads.perRead]])
    const startup = charts['chart-syscalls-startup']
    assert.deepEqual(mainSeries(startup).map(series => series.ys),
      ['mainThread', 'allThreads'].map(field => cells.map(cell => cell.syscallsPerRead[field]?.startup ?? null)))
    assert.ok(startup.series.some(series => series.key && series.name === 'Node'), 'the hues\' key')
    // GC: each collection of each program's busiest trace, when and how long
    const gcCells = readJson(path.join(dir, 'gc.json')).cells
    for (const series of charts['chart-gc-pauses'].series) {
      const [program, size] = series.name.split(' @ ')
      const cell = gcCells.filter(each => each.program === program && each.collections > 0)
        .sort((a, b) => b.collections - a.collections || b.blockSize - a.blockSize)[0]
      assert.equal(size, cell.blockSize >= 1024 ? `${cell.blockSize / 1024}K` : String(cell.blockSize), series.name)
      assert.deepEqual(series.ys, cell.timeline.map(entry => entry[3]), series.name)
    }
    assert.ok(charts['chart-gc-pauses'].series.length >= 4)
    // the kernel pass, one size at a time behind its buttons: at each, only that size's charts
    // and table show, the charts as wide as their half of the section, and one call's p10 to
    // p90 drawn as a bar for every reader that has them
    const kernelSizes = await page.locator('[data-size-group="kernel"] button').evaluateAll(buttons =>
      buttons.map(button => Number(button.dataset.size)))
    assert.deepEqual(kernelSizes, [256, 4096, 65536])
    for (const size of [...kernelSizes.slice(1), kernelSizes[0]]) {
      await page.click(`[data-size-group="kernel"] button[data-size="${size}"]`)
      const shown = await page.locator('[data-size-panel="kernel"]:not([hidden])').evaluateAll(panels =>
        panels.map(panel => Number(panel.dataset.size)))
      assert.deepEqual(shown, [size])
      const charts = await page.evaluate(at => Highcharts.charts
        .filter(chart => chart?.renderTo.id.startsWith('chart-kernel-') && chart.renderTo.id.endsWith(`-${at}`))
        .map(chart => ({
          id: chart.renderTo.id,
          width: chart.chartWidth,
          room: chart.renderTo.getBoundingClientRect().width,
          ranges: chart.series.find(series => series.name === 'p10 to p90')?.points
            .map(point => ({ low: point.low, high: point.high, length: point.shapeArgs?.height ?? 0 }))
        })), size)
      assert.equal(charts.length, 2, `the split and one call's time at ${size}`)
      for (const chart of charts) {
        assert.ok(chart.room > 300 && Math.abs(chart.width - chart.room) <= 1, JSON.stringify(chart))
      }
      const spread = charts.find(chart => chart.ranges)
      assert.ok(spread, `one call's time at ${size} has its p10 to p90 series`)
      const ranged = spread.ranges.filter(point => Number.isFinite(point.low))
      assert.ok(ranged.length >= 10, `${ranged.length} readers with a range at ${size}`)
      for (const point of ranged) assert.ok(point.high > point.low && point.length > 0, JSON.stringify(point))
      assert.equal(await page.locator('#kernel table:visible').count(), 1)
      const sizeShown = size === 256 ? '256 B' : `${size / 1024} KiB`
      assert.match(await page.locator('#kernel table:visible caption').textContent(), new RegExp(`at ${sizeShown}:`))
    }
    // the headline's figures at each size, where readers cross C's line between sizes (wasmtime
    // below it at 256 B, above at 4 KiB): none hidden or written on a whisker
    for (const size of [4096, 65536, 256]) {
      await page.click(`[data-size-group="headline"] button[data-size="${size}"]`)
      assert.deepEqual((await measurePage(page)).hiddenFigures, [], `at ${size} B`)
    }
    // and the measure finds a figure moved onto its whisker
    await page.evaluate(() => Highcharts.charts.find(chart => chart?.renderTo.id === 'chart-headline')
      .series.find(series => series.type === 'errorbar').update({ dataLabels: [{ x: -24 }, { x: 24 }] }))
    assert.ok((await measurePage(page)).hiddenFigures.length > 0, 'a figure on its whisker is found')
    assert.deepEqual(problems, [])
  } finally {
    await context.close()
  }
})

// A run with the profile pass (issue 50): C, the host, Node, Deno and Bun, two rounds, made by
// `node bench.js --only node-sync --only deno-sync --only bun-ffi --only just-fast --sizes 256
// --runs 1 --warmup 0 --rounds 1 --kernel-rounds 1 --profile-rounds 2 --mib 1 --no-strace
// --no-gc` (its raw perf texts left out), bucketed before the pass named Bun's JIT code and
// put a stripped runtime's unnamed frames in its binding: the page's mechanics, not today's ns.
const PROFILED = path.join(__dirname, '..', 'fixtures', 'profiled', 'profile-sample')

test('--ladder: each reader\'s call into its runtime against a calls run\'s no-op call, beneath its binding', () => {
  // the calls fixture made a run of the profiled fixture's machine
  const ladderRun = copyOf(CALLS)
  const contextFile = path.join(ladderRun, 'context.json')
  const machine = readJson(path.join(PROFILED, 'context.json')).machine
  fs.writeFileSync(contextFile, JSON.stringify({ ...readJson(contextFile), machine }))
  const report = render([PROFILED, '--ladder', ladderRun], 'profile-ladder')
  const page = fs.readFileSync(report, 'utf8')
  const markdown = fs.readFileSync(path.join(path.dirname(report), 'results.md'), 'utf8')
  const { cells } = readJson(path.join(PROFILED, 'profile.json'))
  const rows = readJson(path.join(ladderRun, 'results.json')).ladder.rows
  const noop = variant => rows.find(row => row.variant === variant).rungs.noop.estimate
  const c = cells.find(cell => cell.program === 'c')
  const side = cell => cell.buckets.binding.ns + cell.buckets.loop.ns
  const MARK = new RegExp('<span class="interval( disagrees)?" title="binding and loop over C&#39;s: ([^ ]+) ns; ' +
    'the no-op call of calls-b&#39;s ladder \\((.*?)\\) over C&#39;s: ([^ ]+) ns[^"]*">' +
    'call ([^,]+), ladder ([^<]+)</span>', 'g')
  const marks = [...page.matchAll(MARK)].map(([, apart, titleCall, boundary, titleLadder, call, ladder]) =>
    ({ apart: Boolean(apart), titleCall, boundary, titleLadder, call, ladder }))
  // just-fast and bun-ffi cross their no-op's boundary; deno-sync's op is not Deno.dlopen's, and
  // node-sync's ladder variant is an addon's (named node)
  assert.deepEqual(marks.map(mark => mark.boundary).sort(), ['V8 fast API call (just.host.noop)', 'bun:ffi'].sort())
  const { formatSigned: signed } = require('../../lib/report/format')
  for (const program of ['just-fast', 'bun-ffi']) {
    const cell = cells.find(each => each.program === program)
    const [profiled, laddered] = [side(cell) - side(c), noop(program) - noop('c')]
    const mark = marks.find(each => each.boundary === rows.find(row => row.variant === program).boundary)
    const apart = Math.abs(profiled - laddered) > Math.max(0.2 * Math.abs(laddered), 5)
    assert.equal(mark.apart, apart, `${program}: ${profiled} against ${laddered}`)
    // the mark kept beside its figure by a no-break space when the cell wraps
    assert.equal(mark.ladder, `${signed(laddered)}${apart ? '\u00a0≠' : ''}`, program)
    assert.deepEqual([mark.call, mark.titleCall, mark.titleLadder],
      [signed(profiled), signed(profiled), signed(laddered)])
    // results.md: the same check in the profile table's last column
    const rowStart = `| ${program} | ${Math.round(cell.cpuPerReadNs)} |`
    const line = markdown.split('\n').find(each => each.startsWith(rowStart))
    assert.ok(line, `${program}'s row in results.md's profile table`)
    const check = `call ${signed(profiled)}, ladder ${signed(laddered)}${apart ? ' ≠' : ''}`
    assert.equal(line.split(' | ').at(-1), `${check} |`)
  }
  assert.match(markdown, /^## Where the ns go$/m)
  assert.match(markdown, /^In the last column, the reader's call .* no-op call of calls-b's call ladder/m)
  assert.match(page, /Beneath the binding&#39;s bucket, the reader&#39;s call .* no-op call of calls-b&#39;s call/)
  assert.doesNotMatch(page, /is not set against the call ladder/)
  // without --ladder: no marks, and the page names the readers left unchecked and the command
  const plainReport = render([PROFILED], 'profile-no-ladder')
  const plain = fs.readFileSync(plainReport, 'utf8')
  assert.equal([...plain.matchAll(MARK)].length, 0)
  assert.match(plain, new RegExp('The binding&#39;s bucket of just-fast and bun-ffi is not set against the call ' +
    'ladder&#39;s no-op call .*node analyse\\.js RUN --ladder CALLS-RUN\\.'))
  // results.md too: every profiled reader's row, no ladder column, and how to get one
  const plainMarkdown = fs.readFileSync(path.join(path.dirname(plainReport), 'results.md'), 'utf8')
  const profileRows = plainMarkdown.split('## Where the ns go')[1].split('\n## ')[0].split('\n')
    .filter(line => line.startsWith('| ') && !line.startsWith('| reader') && !line.startsWith('| :--'))
  const readers = profileRows.map(line => line.split(' | ')[0].slice(2))
  assert.deepEqual(readers.sort(), cells.map(cell => cell.program).sort())
  assert.ok(profileRows.every(line => line.split(' | ').length === 6), profileRows.join('\n'))
  const nodeRow = profileRows.find(line => line.startsWith('| node-sync |'))
  assert.match(nodeRow, /\| \+\d+ binding \(node::fs::Read\)/)
  assert.match(plainMarkdown,
    /^The binding's bucket of just-fast and bun-ffi is not set against .*--ladder CALLS-RUN\.$/m)
  // two runs of the machine, each with its marks (a copy: one folder given twice is refused)
  const twice = fs.readFileSync(render([PROFILED, copyOf(PROFILED), '--ladder', ladderRun], 'profile-ladder-2'), 'utf8')
  assert.equal([...twice.matchAll(MARK)].length, 2 * marks.length)
  // refused: a run of another experiment, a calls run with no ladder, a report with no profile
  // to set it against, another machine's ladder
  const out = name => ['--out', path.join(OUTPUT, name)]
  assertUsageError(analyse([PROFILED, '--ladder', PROFILED, ...out('x')]),
    /--ladder .*profile-sample is a run of the stdio experiment; give a run of node bench.js --experiment calls$/)
  const noLadder = copyOf(CALLS)
  const resultsFile = path.join(noLadder, 'results.json')
  fs.writeFileSync(resultsFile, JSON.stringify({ ...readJson(resultsFile), ladder: null }))
  assertUsageError(analyse([PROFILED, '--ladder', noLadder, ...out('v')]), /calls-sample-\d+ holds no measured cells; /)
  assertUsageError(analyse([SAMPLE, '--ladder', CALLS, ...out('u')]), /profiled no reader \(no profile pass\); give/)
  assertUsageError(analyse([HTTP, '--ladder', CALLS, ...out('y')]),
    /--ladder sets a calls run against a stdio run's profile pass, .* runs of http; give it with a stdio run$/)
  assertUsageError(analyse([PROFILED, '--ladder', path.join(OUTPUT, 'nowhere'), ...out('z')]), /nowhere/)
  assertUsageError(analyse([PROFILED, '--ladder', CALLS, ...out('w')]),
    /calls-sample ran on another machine than profile-sample \(its CPU model, kernel, mitigations differ\); /)
})

test('the profile section: buckets per reader, a flame graph of any reader, plain or against C', async () => {
  const { cells } = readJson(path.join(PROFILED, 'profile.json'))
  const { page, context, problems } = await open(render([PROFILED], 'profile-sample'))
  try {
    await assertAtAGlance(page, 'glance-profile')
    const charts = await chartsOf(page)
    const stack = charts['chart-profile-0']
    const bars = stack.series.filter(series => series.type === 'bar' && !series.linked)
    stack.categories.forEach((program, i) => {
      const cell = cells.find(entry => entry.program === program)
      const total = bars.reduce((sum, series) => sum + (series.ys[i] ?? 0), 0)
      assert.ok(Math.abs(total - cell.cpuPerReadNs) < 1e-6, `${program}: ${total} against ${cell.cpuPerReadNs}`)
    })
    // the flame graph: one bar a frame, as wide as its ns, each on its caller, each label in its bar
    const flame = () => page.evaluate(() => {
      const chart = Highcharts.charts.find(each => each?.renderTo.id === 'chart-flame-0')
      const points = chart.series[0].points.map(point => {
        const label = point.dataLabel?.getBBox()
        const inPlot = point.dataLabel ? point.dataLabel.element.getBoundingClientRect() : null
        const box = point.graphic.element.getBoundingClientRect()
        return {
          name: point.name,
          x: point.x,
          x2: point.x2,
          y: point.y,
          color: point.color,
          label: label && label.width > 0 && point.dataLabel.visibility !== 'hidden'
            ? { left: inPlot.left, right: inPlot.right, top: inPlot.top, bottom: inPlot.bottom }
            : null,
          box: { left: box.left, right: box.right, top: box.top, bottom: box.bottom }
        }
      })
      return { title: chart.title.textStr, points }
    })
    const plain = await flame()
    assert.match(plain.title, /^node-sync: /)
    const node = cells.find(cell => cell.program === 'node-sync')
    const roots = plain.points.filter(point => point.y === 0)
    assert.ok(Math.abs(roots.at(-1).x2 - node.tree.reduce((sum, frame) => sum + frame[1], 0)) < 1e-6)
    for (const point of plain.points.filter(each => each.y > 0)) {
      const under = each => each.x <= point.x + 1e-9 && each.x2 >= point.x2 - 1e-9
      const callers = plain.points.filter(each => each.y === point.y - 1 && under(each))
      assert.equal(callers.length, 1, `${point.name} stands on one caller`)
    }
    for (const point of plain.points.filter(each => each.label)) {
      const { label, box } = point
      assert.ok(label.left >= box.left - 1 && label.right <= box.right + 1, `${point.name}'s label in its bar`)
      assert.ok(label.top >= box.top - 2 && label.bottom <= box.bottom + 2, `${point.name}'s label in its row`)
    }
    assert.ok(plain.points.filter(point => point.label).length >= 8, 'the wide frames named')
    // against C: Node's binding is new, all red; some kernel frame is C's too, lighter
    await page.click('[data-flame-mode="0"] button[data-mode="diff"]')
    const diff = await flame()
    assert.match(diff.title, /against C/)
    const colourOf = (points, name) => points.find(point => point.name === name).color
    assert.notEqual(colourOf(diff.points, 'node::fs::Read'), colourOf(plain.points, 'node::fs::Read'))
    assert.match(await page.textContent('#flame-note-0'), /^C's frames that shrank most under node-sync: /)
    // another reader: its own tree
    await page.selectOption('[data-flame-reader="0"]', 'deno-sync')
    const deno = await flame()
    assert.match(deno.title, /^deno-sync: .*against C/)
    assert.ok(!deno.points.some(point => point.name === 'node::fs::Read'))
    // the table: the kernel's bucket beside the kernel pass's time inside read(2)
    const table = await page.textContent('#profile table')
    assert.match(table, /eBPF: \d+/)
    assert.match(table, /perf's own cost/)
    assert.deepEqual(problems, [])
  } finally {
    await context.close()
  }
})
