'use strict'
// The progress line of the measuring loop (lib/measure-steps.js) while a step waits: which
// reader it waits on, and for how long of its timeout.
const { test } = require('node:test')
const assert = require('node:assert/strict')

const { progressLine, waitingLabel, whileWaiting } = require('../../lib/measure-steps')
const { readLog } = require('../../lib/run-log')

// Every record a run's log holds, the superseded ones too, in order.
const logOf = runDir => readLog(runDir, { makeError: message => new Error(message) })

const nodeAt256 = { phase: 'timing', program: { name: 'node-sync' }, blockSize: 256 }

test('a step that waits names its reader at its block size, and the seconds of its timeout', () => {
  assert.equal(waitingLabel(nodeAt256, 45, 120), 'waiting on node-sync@256: 45 s of 120 s')
  const label = `timing @ 256, run 1 of 10: ${waitingLabel(nodeAt256, 45, 120)}`
  const line = progressLine({ runsDone: 140, runsTotal: 616, elapsedMs: 8 * 60e3, label })
  assert.equal(line, 'step 141 of 616, 8m00s elapsed, ETA 27m12s  ' +
    'timing @ 256, run 1 of 10: waiting on node-sync@256: 45 s of 120 s')
})

test('a step of a server, without a block size, names the server; past one run\'s timeout, says so', () => {
  const server = { phase: 'http', program: 'c-epoll', blockSize: null }
  assert.equal(waitingLabel(server, 12, 120), 'waiting on c-epoll: 12 s of 120 s')
  // a cost run too short for its slope is run again longer, within the one try
  const longer = 'waiting on node-sync@256: 130 s (each run times out at 120 s)'
  assert.equal(waitingLabel(nodeAt256, 130, 120), longer)
})

test('the waiting line: from 10 s on, every second, a log\'s every 30 s; none after the try', async () => {
  // a clock that moves only when the test says: one tick a second, while the timer runs
  let now = 0
  let tick = null
  const clock = { now: () => now, every: (ms, fn) => { tick = fn; return () => { tick = null } } }
  let finish
  const shown = []
  const show = (label, logged) => shown.push([label, logged])
  const waiting = whileWaiting(nodeAt256, 120, show, () => new Promise(resolve => { finish = resolve }), clock)
  const seconds = count => { for (let s = 0; s < count; s++) { now += 1000; tick?.() } }
  seconds(9)
  assert.deepEqual(shown, [])
  seconds(21)
  assert.equal(shown.length, 21)
  assert.deepEqual(shown[0], ['waiting on node-sync@256: 10 s of 120 s', false])
  const logged = shown.filter(([, due]) => due)
  assert.deepEqual(logged, [['waiting on node-sync@256: 30 s of 120 s', true]])
  finish('the record')
  assert.equal(await waiting, 'the record')
  assert.equal(tick, null, 'the timer stopped with the try')
  seconds(5)
  assert.equal(shown.length, 21)
})

// The loop judges each try's foreign user time against the error it has heard in the run
// (lib/foreign.js noiseGauge): a step within it is kept, one beyond it measured again.
test('a try within the check\'s own error heard so far is kept; one beyond it is measured again', async () => {
  const { measurePending } = require('../../lib/measure-steps')
  const { userForeign, NOISE_LEAST } = require('../../lib/foreign')
  const fs = require('node:fs')
  const os = require('node:os')
  const path = require('node:path')
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'noise-'))
  // CPU 1's user time less the step's processes', ms: NOISE_LEAST steps 10-30 ms short, then
  // 50 ms over (within 4 times their median of 20), then 300 over (a busy loop), then quiet
  const residuals = [...Array.from({ length: NOISE_LEAST }, (_, i) => -10 - (i % 3) * 10), 50, 300, 0]
  const pending = residuals.map((_, run) =>
    ({ phase: 'http', program: { name: 'c' }, run, warmup: 0, group: 'g', label: 'g' }))
  let tries = 0
  const session = {
    measure: async step => {
      // the busy step's second try (the loop's NOISE_LEAST + 3rd) is quiet
      const ms = tries++ === NOISE_LEAST + 2 ? 0 : residuals[step.run]
      const after = [500e6 + ms * 1e6]
      const foreign = userForeign({ cpus: [1], before: [0], after, windowNs: 1e9, ownUserNs: [500e6], benchOn: null })
      return { record: { phase: 'http', program: 'c', run: step.run, ok: true, foreign, at: 'now' }, stopped: false }
    },
    close: async () => {}
  }
  const run = { runDir, records: [], pending, session, cellKey: step => String(step.run), options: {} }
  const done = await measurePending(run, () => false, async () => 0)
  const logged = logOf(runDir)
  fs.rmSync(runDir, { recursive: true })
  assert.equal(done, residuals.length)
  // the 50 ms step kept at once; the 300 ms step superseded once, then kept quiet
  const runsLogged = logged.map(record => `${record.run}${record.superseded ? ' superseded' : ''}`)
  assert.deepEqual(runsLogged.slice(NOISE_LEAST),
    [`${NOISE_LEAST}`, `${NOISE_LEAST + 1} superseded`, `${NOISE_LEAST + 1}`, `${NOISE_LEAST + 2}`])
  assert.equal(logged[NOISE_LEAST].foreign.disturbed, false)
  assert.deepEqual(logged[NOISE_LEAST].foreign.noiseFloorsNs, [80e6])
})

// A resumed run hears the error its log holds before it measures on, as the run that wrote it
// would have: a step within it is kept at once.
test('a resumed run judges its next try against the error its log heard', async () => {
  const { measurePending } = require('../../lib/measure-steps')
  const { userForeign, NOISE_LEAST } = require('../../lib/foreign')
  const fs = require('node:fs')
  const os = require('node:os')
  const path = require('node:path')
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'noise-'))
  const foreignOf = ms => userForeign({
    cpus: [1], before: [0], after: [500e6 + ms * 1e6], windowNs: 1e9, ownUserNs: [500e6], benchOn: null
  })
  const records = Array.from({ length: NOISE_LEAST }, (_, run) =>
    ({ phase: 'http', program: 'c', run, ok: true, foreign: foreignOf(-10 - (run % 3) * 10), at: 'then' }))
  const step = { phase: 'http', program: { name: 'c' }, run: NOISE_LEAST, warmup: 0, group: 'g', label: 'g' }
  const session = {
    measure: async () => ({
      record: { phase: 'http', program: 'c', run: NOISE_LEAST, ok: true, foreign: foreignOf(50), at: 'now' },
      stopped: false
    }),
    close: async () => {}
  }
  const run = { runDir, records, pending: [step], session, cellKey: s => String(s.run), options: {} }
  await measurePending(run, () => false, async () => 0)
  const logged = logOf(runDir)
  fs.rmSync(runDir, { recursive: true })
  assert.deepEqual(logged.map(record => [record.superseded ?? false, record.foreign.noiseFloorsNs]), [[false, [80e6]]])
})

// A measured process ended by a signal bench.js did not send (a kill from outside, an OOM
// kill): the loop stops there, the step unkept, and says so to bench.js, which then stops as
// an interrupted run does (its resume offered), not as a whole one.
test('a step stopped from outside ends the loop, unkept, and marks the run stopped from outside', async () => {
  const { measurePending } = require('../../lib/measure-steps')
  const fs = require('node:fs')
  const os = require('node:os')
  const path = require('node:path')
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stopped-'))
  const pending = [0, 1, 2]
    .map(run => ({ phase: 'calls', program: { name: 'c' }, run, warmup: 0, group: 'g', label: 'g' }))
  const session = {
    measure: async step => ({
      record: { phase: 'calls', program: 'c', run: step.run, ok: true, at: 'now' },
      stopped: step.run === 1
    }),
    close: async () => {}
  }
  const run = { runDir, records: [], pending, session, cellKey: step => String(step.run), options: {} }
  const done = await measurePending(run, () => false, async () => 0)
  const logged = logOf(runDir)
  fs.rmSync(runDir, { recursive: true })
  assert.equal(done, 1)
  assert.deepEqual(logged.map(record => record.run), [0])
  assert.equal(run.stoppedOutside, true)
  // the same stop asked for by bench.js itself (Ctrl-C) is an interruption, not from outside
  const askedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stopped-'))
  const asked = { ...run, runDir: askedDir, records: [], stoppedOutside: undefined }
  await measurePending(asked, () => asked.records.length > 0, async () => 0)
  fs.rmSync(asked.runDir, { recursive: true })
  assert.equal(asked.stoppedOutside, undefined)
})

// A try measured again for foreign time keeps its evidence: its raw file moved aside, named
// for the try, before the next try writes the same name.
test('a superseded try\'s raw file is kept under its try\'s name, the kept try\'s under its own', async () => {
  const { measurePending } = require('../../lib/measure-steps')
  const { userForeign } = require('../../lib/foreign')
  const fs = require('node:fs')
  const os = require('node:os')
  const path = require('node:path')
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'raw-'))
  fs.mkdirSync(path.join(runDir, 'kernel'))
  let tries = 0
  const session = {
    measure: async step => {
      const busy = tries++ === 0
      fs.writeFileSync(path.join(runDir, 'kernel', 'c-256-1.json'), JSON.stringify({ try: tries }))
      // the first try with half a second of another program's user time on its CPU
      const after = [busy ? 1e9 : 500e6]
      const foreign = userForeign({ cpus: [1], before: [0], after, windowNs: 1e9, ownUserNs: [500e6], benchOn: null })
      const rawFile = 'kernel/c-256-1.json'
      const record = { phase: 'kernel', program: 'c', run: step.run, ok: true, foreign, rawFile, at: 'now' }
      return { record, stopped: false }
    },
    close: async () => {}
  }
  const pending = [{ phase: 'kernel', program: { name: 'c' }, run: 0, warmup: 0, group: 'g', label: 'g' }]
  const run = { runDir, records: [], pending, session, cellKey: () => 'c', options: {} }
  await measurePending(run, () => false, async () => 0)
  const logged = logOf(runDir)
  const read = file => JSON.parse(fs.readFileSync(path.join(runDir, file), 'utf8'))
  assert.deepEqual(logged.map(record => [record.superseded ?? false, record.rawFile]),
    [[true, 'kernel/c-256-1.try1.json'], [false, 'kernel/c-256-1.json']])
  assert.deepEqual([read('kernel/c-256-1.try1.json'), read('kernel/c-256-1.json')], [{ try: 1 }, { try: 2 }])
  fs.rmSync(runDir, { recursive: true })
})
