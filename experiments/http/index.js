'use strict'
// The http experiment: hello-world servers (experiments/http/servers.js) under wrk on
// 127.0.0.1, keep-alive and Connection: close: requests/s, latency, CPU and syscalls per
// request. Its interface is the one experiments/stdio/index.js describes.
const path = require('node:path')
const { wholeNumber, repeatCount, makeDirs, UsageError } = require('../../lib/options')
const { pickRows, recordedRows } = require('../../lib/rows')
const { rerunArgs, skipRow, isWhole } = require('../../lib/option-schema')
const { sharedResults, isRecordList } = require('../../lib/results')
const { dataPoints } = require('../../lib/run-log')
const { servers, MODES, PLACEMENTS, loadPin, serverReason, listing, httpContext } = require('./servers')
const {
  PHASE, STRACE_PHASE, KERNEL_PHASE, CAPACITY_PHASE, LATENCY_PHASE, PRESETS, planHttp, httpSession, measureStep
} = require('./measure')
const { summariseHttp, REFERENCE } = require('./summary')
const { connectionCounts } = require('./wrk')
const { ohaReason, latencyContext, latencyPlanNotes } = require('./oha')
const { formatPercent } = require('../../lib/report/format')

// --rates 5,20: whole per cents of c-epoll's requests/s in its timed runs, each once, in order;
// at most all of it, what c-epoll itself answered with wrk on its CPU
function ratePercents (text) {
  const percents = [...new Set(text.split(',').map(part => wholeNumber(part, 'rates', 1)))].sort((a, b) => a - b)
  const most = percents.at(-1)
  if (most > 100) {
    const fix = 'give per cents from 1 to 100'
    throw new UsageError(`--rates ${most} is more than c-epoll's rate in its timed runs; ${fix}`)
  }
  return percents
}
const percentsOf = shares => shares.map(share => Math.round(share * 100))

const rows = [
  {
    name: 'processes',
    type: 'string',
    metavar: 'N',
    takes: 'a whole number',
    help: ['server processes per server and mode, each started, checked and warmed up', '(default {default}, --quick {quick})'],
    parse: text => repeatCount(text, 'processes'),
    preset: { default: PRESETS.default.processes, quick: PRESETS.quick.processes },
    rerun: true,
    get: options => options.http.processes
  },
  {
    name: 'runs',
    type: 'string',
    metavar: 'N',
    takes: 'a whole number',
    help: ['wrk runs of 1 s per cell and server process (default {default}, --quick {quick})'],
    parse: text => repeatCount(text, 'runs'),
    preset: { default: PRESETS.default.runs, quick: PRESETS.quick.runs },
    stored: [isWhole(1), 'a whole number of at least 1'],
    rerun: true
  },
  {
    name: 'connections',
    type: 'string',
    metavar: 'A,B,...',
    takes: 'connection counts such as 1,16,128',
    help: ['wrk\'s connections, one cell each (default {default}; --quick {quick})'],
    parse: text => connectionCounts(text),
    preset: { default: PRESETS.default.connections, quick: PRESETS.quick.connections }
  },
  {
    name: 'placement',
    type: 'string',
    metavar: 'WHERE',
    takes: 'interleaved, shared or apart',
    help: [
      'where wrk runs: interleaved, on the server\'s CPU, c-epoll\'s pair beside it, the',
      'two pairs taking turns in slices of 50 ms (each server against C in the same',
      'moment: the steadiest); shared, on the server\'s CPU, one server at a time; or',
      'apart, on another CPU (requests/s at the server\'s capacity) (default {default})'
    ],
    parse: text => {
      if (!PLACEMENTS.includes(text)) throw new UsageError(`--placement must be interleaved, shared or apart, not '${text}'`)
      return text
    },
    preset: { default: 'interleaved', quick: 'interleaved' },
    stored: [value => PLACEMENTS.includes(value), 'interleaved, shared or apart'],
    rerun: true
  },
  {
    name: 'rates',
    type: 'string',
    metavar: 'P,Q,...',
    takes: 'rates in whole per cent of c-epoll\'s rate in its timed runs, such as 5,20',
    help: [
      'the latency pass\'s rates, in per cent of what c-epoll answers in its timed runs at',
      'the most connections, the same for every server (default {default}, --quick {quick})'
    ],
    parse: text => ratePercents(text),
    preset: {
      default: percentsOf(PRESETS.default.latency.rateShares),
      quick: percentsOf(PRESETS.quick.latency.rateShares)
    },
    rerun: true,
    // a run without the pass re-runs without its rates
    get: options => options.latency && options.http.latency ? percentsOf(options.http.latency.rateShares) : undefined
  },
  skipRow('strace', 'skip the syscall profile pass'),
  skipRow('kernel', 'skip the kernel pass (eBPF: syscalls per request at full speed)'),
  skipRow('latency', 'skip the latency pass (oha at fixed rates: latency, CPU and GC per request)')
]

const stored = {
  http: [value => isWhole(1)(value?.runs) && isWhole(1)(value?.seconds) && Array.isArray(value?.connections) && value.connections.length > 0 && value.connections.every(isWhole(1)) && isWhole(1)(value?.straceRequests?.small) && value.straceRequests.large > value.straceRequests.small, 'the http experiment\'s { runs, seconds, connections, straceRequests }'],
  modes: [value => Array.isArray(value) && value.length > 0 && value.every(mode => MODES.includes(mode)), `a list of ${MODES.join(' and ')}`]
}

// The counts go with the preset's duration, warm-up and strace load in options.http.
function configure (options, values) {
  if (values.rates !== undefined && !options.latency) {
    throw new UsageError('--rates sets the latency pass, which --no-latency skips: drop one of them')
  }
  const { connections, processes, rates, ...rest } = options
  const preset = PRESETS[options.preset]
  const latency = { ...preset.latency, rateShares: rates.map(percent => percent / 100) }
  return { ...rest, http: { ...preset, connections, processes, runs: options.runs, latency }, modes: MODES }
}

// The servers --only picks, c-epoll's always: every other server's requests/s is set
// against it. A resume measures the servers its run began with (`recorded`).
function select (options, recorded = null) {
  return pickRows(servers, options.only, {
    recorded,
    always: REFERENCE,
    reasonOf: serverReason,
    matchesNone: (pattern, names) => `--only ${pattern} matches no server of the http experiment; they are: ${names.join(', ')}`,
    cannotRun: (server, reason) => `cannot run the server ${server.name}: ${reason}`
  })
}

// An http run's servers, from today's table.
function recorded (context) {
  const names = Array.isArray(context.programs) ? context.programs.map(program => program?.name) : []
  return recordedRows(servers, names, { context, what: missing => `the server${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`, source: 'experiments/http/servers.js' })
}

function plan (options, { runnable }, { ptrace, bpf, placement }) {
  const passes = {
    strace: options.strace && ptrace.available,
    kernel: options.kernel && bpf?.available,
    latency: options.latency && ohaReason() === null
  }
  return planHttp(runnable, { ...options, ...passes }, loadPin(placement.http, options.placement), placement.http)
}

// A cell is a server, mode and count of connections; a strace run's, its count of requests
// too; a latency run's, its rate (a share of the reference's timed rate); a kernel-pass run's,
// whether wrk ran apart (as the capacity runs place it).
function cellKey (step) {
  const program = step.program.name ?? step.program
  return [step.phase, program, step.mode, step.connections, step.requests ?? '', step.rateShare ?? '',
    step.apart ? 'apart' : ''].join('\t')
}

// strace's summaries go to the run's strace/ folder. A resumed run's log (`log`, bench.js)
// gives the latency pass the reference's timed runs it holds.
function session (options, runDir, interrupted, log = null) {
  makeDirs(path.join(runDir, 'strace'))
  const servers = httpSession(interrupted)
  if (log) servers.timedRates.seed(log.steps.filter(step => step.phase === PHASE), log.records, cellKey)
  return {
    measure: (step, run, note) => measureStep(step, options, servers, runDir, note),
    close: () => servers.close()
  }
}

function describe (options, { runnable }) {
  const { processes, runs, seconds, connections } = options.http
  const latency = options.latency && ohaReason() === null ? options.http.latency : null
  const shares = latency?.rateShares.map(formatPercent).join(' and ')
  return `${runnable.length} servers, ${options.modes.join(' and ')}, connections ${connections.join(',')}, ` +
    `${processes} server processes of ${runs} wrk runs of ${seconds} s per cell` +
    (latency
      ? `, the latency pass (oha at ${shares} of c-epoll's timed rate, connections ` +
        `${latency.connections.join(',')})`
      : '') +
    (options.strace ? ', and the strace pass' : '')
}

function derive (logged, context) {
  const shared = sharedResults(logged, context, ['mode', 'connections', 'requests', 'rateShare'], 'http')
  return { 'results.json': { ...shared, http: summariseHttp(dataPoints(logged), context) } }
}

// A failed cell measured again: its server with c-epoll's, at its count of connections
// (a failed strace run: at the run's counts), both modes.
function rerun (options, { phase, program, connections, rateShare }) {
  const args = program !== REFERENCE ? ['--only', program] : []
  // a strace or latency run's connections are its pass's own, not a --connections of the timed runs
  const ownCounts = phase === STRACE_PHASE || phase === LATENCY_PHASE
  const counts = ownCounts ? options.http.connections.join(',') : connections
  // a latency cell again at its own rate, not every rate of the run
  const own = phase === LATENCY_PHASE && rateShare
    ? { ...options, http: { ...options.http, latency: { ...options.http.latency, rateShares: [rateShare] } } }
    : options
  args.push('--connections', counts, ...rerunArgs(own, rows, options.preset))
  return { env: '', args }
}

const failureLabel = failure => `${failure.mode}, ${failure.connections} connections` +
  (failure.requests ? `, ${failure.requests} requests` : '') +
  (failure.rateShare ? `, at ${formatPercent(failure.rateShare)} of ${REFERENCE}'s timed rate` : '')

module.exports = {
  name: 'http',
  phases: [PHASE, STRACE_PHASE, KERNEL_PHASE, CAPACITY_PHASE, LATENCY_PHASE],
  about: [
    'hello-world servers under wrk on 127.0.0.1, keep-alive and Connection:',
    'close: requests/s, latency, CPU and syscalls per request (servers:',
    `${servers.map(server => server.name).join(', ')})`
  ],
  options: rows,
  stored,
  // runs from before the kernel pass had none; runs from before --placement ran wrk apart;
  // runs from before the latency pass had none
  later: { kernel: false, placement: 'apart', latency: false },
  configure,
  list: () => listing(),
  select,
  recorded,
  plan,
  cellKey,
  session,
  // runs measured in rounds of every server, which the summary pairs round by round
  // (a run from before rounds lacks httpRounds and is not paired)
  context: (options, { runnable }, placement) => ({
    ...httpContext(runnable, loadPin(placement.http, options.placement)),
    httpPlacement: options.placement,
    httpRounds: true,
    httpLatency: latencyContext(options.latency, options.http.latency, placement.http)
  }),
  // what the run leaves out that it was asked for, said before it starts
  planNotes: options => latencyPlanNotes(options.latency),
  passes: (options, placement) => {
    const pin = loadPin(placement.http, options.placement)
    return { http: { wrk: pin.client, server: pin.server } }
  },
  describe,
  derive,
  // what the report and `outdated` read first, so that a file of another shape is named, not
  // met as a TypeError
  resultsProblem: results => (results.http === undefined
    ? 'no http summary'
    : results.http !== null && (!isRecordList(results.http.cells) || !isRecordList(results.http.syscalls))
      ? 'an http summary without its lists of cells and syscalls'
      : null),
  measured: results => results.http?.cells.length > 0,
  // syscalls per request split into work and upkeep since the lab's commit 46d28de
  outdated: results => results.http?.syscalls.some(entry => entry.perRequest !== null && entry.work === undefined) ? 'before syscalls per request were split into work and upkeep' : null,
  rerun,
  failureLabel,
  PHASE,
  get report () { return require('./report') }
}
