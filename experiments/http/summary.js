'use strict'
// An http run's log summarised: per cell (server, mode, connections) requests/s, CPU per
// request and their halves; per server and mode, syscalls per request from the strace pass.
const { median, ratioInterval, pairedRatio } = require('../../lib/stats')
const { interleavedHalves, movePercent } = require('../../lib/repeatability')
const { components } = require('../../lib/variance')
const { processClasses, steadyRuns, cellSteadiness, unsteadyCell } = require('../../lib/steady')
const { httpHalves } = require('./repeatability')
const { servers, MODES, REFERENCE, connectEach } = require('./servers')
const { PHASE, STRACE_PHASE, KERNEL_PHASE, CAPACITY_PHASE, LATENCY_PHASE, STRACE_CONNECTIONS } = require('./measure')
const { HOLDS_SHARE, HOLDS_PACE, BEHIND_MS, holdsRate, fellBehind } = require('./oha')
const { stealShare, STEAL_SHARE } = require('../../lib/steal')
const { oldCollections } = require('../../lib/gctrace')
const { userShareOfRuns, requestsPerSlice, USER_SHARE_MEANING, SLICES_WORDS } = require('./cpu')

// Below this share of one CPU over a wrk run, the server waited for wrk: the run
// measured the client as much as the server.
const CLIENT_BOUND_SHARE = 0.9

// Calls whose count follows timing, not how many requests there are: a wait returns once
// for however many requests are ready, a futex or a sleep wakes a thread for however many
// tasks, and a runtime's memory calls (mmap, mprotect, madvise ...) come from its JIT and
// its garbage collector, which run on their own clock. These, and every call that fails
// (accept4 or read with EAGAIN once the queue is empty), are a server's upkeep: their
// counts move from run to run, and strace's own slowness changes them. The other calls
// that succeed are the work each request takes.
const UPKEEP_CALLS = new Set([
  'epoll_wait', 'epoll_pwait', 'epoll_pwait2', 'poll', 'ppoll', 'select', 'pselect6', 'futex', 'sched_yield', 'nanosleep', 'clock_nanosleep',
  'mmap', 'munmap', 'mremap', 'mprotect', 'madvise', 'brk'
])
// Calls that do one job under other names, so that a server that answers with sendto is
// not read as making one call more, and one less, than a server that answers with write.
const CALL_ROLES = {
  accept: 'accept',
  accept4: 'accept',
  read: 'receive',
  readv: 'receive',
  recvfrom: 'receive',
  recvmsg: 'receive',
  write: 'send',
  writev: 'send',
  sendto: 'send',
  sendmsg: 'send'
}

// The latency pass's method, in the words both the http and the db meaning use.
const LATENCY_WORDS = {
  onSchedule: 'requests sent on schedule whether or not answers have come back, spread over the connections',
  fromIntended: 'latency from the time oha stamped each request sent, on its schedule whatever the answers ' +
    '(--latency-correction), so a stall is charged to every request that waited behind it; oha\'s timer ' +
    'wakes up to 2 ms after a request is due by design, a wait not counted (results.json keeps the ' +
    'percentiles from the due times too, fromDueMs)',
  processes: 'in timed server processes after their timed runs, V8\'s collectors traced from their ' +
    'start, Bun\'s in a traced process of its own, whose log costs it CPU (until commit 0aceafe, every ' +
    'server in processes of their own, warmed up)',
  cannotSustain: `a server that answered fewer than ${HOLDS_SHARE * 100}% of the requests its rate asked, ` +
    `or answered them at under ${HOLDS_PACE * 100}% of the rate over oha's whole run (its wait for the last ` +
    'ones included: a server that answered every request, late), "cannot sustain" it, and its latency is not quoted',
  gc: 'GC: collections per 1,000 requests, the share of the run the world was stopped and the longest ' +
    'pause (V8\'s --trace-gc, JavaScriptCore\'s BUN_JSC_logGC)',
  steal: `steal: marked where the hypervisor took more than ${STEAL_SHARE * 100}% of the two CPUs' time ` +
    'over the run, which every request then in flight waited out; oha behind: marked where its stamps ' +
    `came more than ${BEHIND_MS} ms after their due times at the p99.9 (its timer steps by 1 ms, so up ` +
    'to 2 ms is its design): oha itself waited for its CPU, and its percentiles, timed from its stamps, ' +
    'leave that wait out',
  once: 'One run a cell, which says nothing of how it repeats'
}

const FAULTS_MEANING = 'the minor page faults of the server\'s processes over a run (/proc/PID/stat\'s ' +
  'minflt, every thread; cminflt for children that ended), over the requests wrk completed; median of the ' +
  'runs. A fault is a page the kernel maps on first touch: memory the server\'s allocator took afresh from ' +
  'the kernel, where one that reuses its own takes none'

const MEANING = {
  requestsPerSecond: 'wrk\'s requests/s, one thread, on the server\'s CPU (placements interleaved and ' +
    'shared: the two together, each taking its part of the CPU; interleaved, over the time the pair ' +
    'was let run) or on its own (apart: the server\'s capacity); best, median and range of the runs ' +
    'of a process\'s steady state, from preset.processes server processes per server and mode, each ' +
    'checked and warmed up (wrk runs, at least preset.warmup.min of them, until the last two agree ' +
    'within 5% in the server\'s CPU per ' +
    'request, placement interleaved in its ratio to the reference\'s beside it)',
  vsReference: `the median of the ratios of this cell's requests/s to ${REFERENCE}'s in the same mode and ` +
    `connections, run by run: placement interleaved, against ${REFERENCE}'s pair taking turns ` +
    'with it in the same run; else of the same round (measured seconds apart); and its ' +
    'interval, at the level it carries (the range of 4 or 5 ratios, the sign test\'s from 6); ' +
    'below 4 rounds the median alone, with no interval. Runs from before rounds: the median of ' +
    'every ratio of the two cells\' runs (Hodges-Lehmann)',
  cpuVsReference: `the same for the server's CPU per request against ${REFERENCE}'s`,
  variance: 'where CPU per request varies (lib/variance.js, Kalibera and Jones): between the runs of one server process (round) and between server processes beyond that (process), as standard deviations in percent of the mean; null below 2 processes of 2 runs',
  processes: 'what each server process did over its warm-up and its runs at the most connections ' +
    '(lib/steady.js, Barrett et al.): flat, warm-up, slowdown or no steady state, by its CPU per ' +
    `request over ${REFERENCE}'s beside it where all of them were taken in turns with ${REFERENCE} at ` +
    'one count of connections, else by its own CPU per request; a cell is quoted only when every ' +
    'classified process reached a steady state and no process too short to classify moved one way ' +
    'by more than 10%, from the runs in it',
  cpuPerRequestUs: 'the server\'s CPU time over a run, every thread (/proc/PID/task/*/schedstat), over the requests wrk completed; median of the runs',
  userShare: USER_SHARE_MEANING,
  serverCpuShare: `that CPU time over wrk's wall time: apart, below ${CLIENT_BOUND_SHARE} the server waited for wrk (client-bound); shared, wrk takes the rest of the CPU by design, and no cell is marked`,
  capacity: 'one wrk run per server and mode at the most connections with wrk on another CPU, in the last ' +
    'server processes, where the timed runs had wrk on the server\'s CPU: requests/s at the server\'s capacity ' +
    `(client-bound below ${CLIENT_BOUND_SHARE} of a CPU), CPU per request and requests per wake-up when a busy ` +
    `server answers many requests per wake-up, and that CPU per request against ${REFERENCE}'s capacity run (one ` +
    'run each: no interval); with the kernel pass, the server\'s syscalls per request in the same placement, from ' +
    'one more run under its probes',
  requestsPerWakeUp: `the requests wrk completed over ${SLICES_WORDS}; median of the runs. Shared, wrk ` +
    'and the server take turns on the CPU, a few requests a turn; apart, a busy server answers many ' +
    'per wake-up',
  faultsPerRequest: FAULTS_MEANING,
  latency: 'oha at fixed rates, the same for every server of a mode (shares of what ' +
    `${REFERENCE} answered at the most connections in its timed runs, the median of all its ` +
    'processes\' runs, which held still where its capacity run did not; each table\'s title says ' +
    'where its rate came from), ' +
    `${LATENCY_WORDS.onSchedule}, oha on the other CPU: ` +
    `${LATENCY_WORDS.fromIntended}; ` +
    `one run per server, count of connections and rate, ${LATENCY_WORDS.processes}; ` +
    `${LATENCY_WORDS.cannotSustain}; ${LATENCY_WORDS.gc}; ${LATENCY_WORDS.steal}. ${LATENCY_WORDS.once}: ` +
    'on a noisy VM two runs back to back moved p99.9 by a median factor of 1.5 in cells calm in both, ' +
    'and on a quiet hour, at one rate per mode in each run, by 1.43 (docs/http.md, runs of ' +
    '2026-11-29 and 2026-12-07, not this one)',
  kernelSyscalls: 'every syscall of the server\'s threads and children in one wrk run at the cell\'s connections, counted by eBPF probes at full speed (lib/sysprof.js), over the requests wrk completed; work and upkeep as for strace; beside them, the strace pass\'s figures for the server and mode',
  syscallsPerRequest: `(calls in the larger strace run - calls in the smaller) / (requests between them), every thread (strace -f -c), ${STRACE_CONNECTIONS} connections, so start-up and exit cancel; as work (the calls that succeed, but for ${[...UPKEEP_CALLS].join(', ')}) plus upkeep (those, and failed calls), whose count follows timing, not requests`
}

function summariseHttp (records, context) {
  const runs = records.filter(record => record.phase === PHASE)
  const traced = records.filter(record => record.phase === STRACE_PHASE)
  if (runs.length === 0 && traced.length === 0 && !records.some(record => record.phase === LATENCY_PHASE)) return null
  const cells = []
  const classes = new Map()
  for (const key of [...new Set(runs.map(run => `${run.program}\t${run.mode}`))]) {
    // by its CPU per request over the reference's beside it, warm-up and runs alike, where
    // its warm-up and its runs were one regime: all in turns with the reference, at one
    // count of connections. A ratio in the same moment does not move with the machine, where
    // the server's own CPU per request moved by 17% between two runs minutes apart and made
    // flat processes look unsteady. Where each round also ran fewer connections (the grid
    // before 2026-11-29), the runs at the most connections came out at 1.44-1.58× the
    // warm-up's ratio in keep-alive, not yet understood (docs/placement.md). Else by the
    // server's own CPU per request.
    const own = runs.filter(run => `${run.program}\t${run.mode}` === key)
    classes.set(key, processClasses(own, inTurnsThroughout(own)
      ? { value: ratioOf, warmupOf: run => run.warmupRatios, processOf, roundOf, basis: 'ratio' }
      : { value: cpuOf, processOf, roundOf }))
  }
  for (const key of [...new Set(runs.map(run => `${run.mode}\t${run.connections}\t${run.program}`))]) {
    const [mode, connections, server] = key.split('\t')
    const own = runs.filter(run => `${run.mode}\t${run.connections}\t${run.program}` === key)
    const placement = context.httpPlacement ?? 'apart'
    cells.push(httpCell(server, mode, Number(connections), own, classes.get(`${server}\t${mode}`), placement))
  }
  for (const cell of cells) {
    const reference = cells.find(other => other.server === REFERENCE && other.mode === cell.mode && other.connections === cell.connections)
    const mine = reference && cell.server !== REFERENCE
    const inRounds = context.httpRounds === true
    cell.vsReference = mine ? against(cell, reference, rateOf, inRounds) : null
    cell.cpuVsReference = mine ? against(cell, reference, cpuOf, inRounds) : null
  }
  const syscalls = syscallsPerRequest(traced)
  const straceOf = run => syscalls.find(entry => entry.server === run.program && entry.mode === run.mode)
  const kernelRuns = records.filter(record => record.phase === KERNEL_PHASE)
  const kernel = kernelPerRequest(kernelRuns.filter(record => !record.apart), straceOf)
  const kernelApart = kernelPerRequest(kernelRuns.filter(record => record.apart), straceOf)
  const capacity = capacityRuns(records.filter(record => record.phase === CAPACITY_PHASE), kernelApart)
  const latencyRecords = records.filter(record => record.phase === LATENCY_PHASE)
  const latency = latencyRuns(latencyRecords, context.httpLatency, connectEach)
  return {
    meaning: MEANING,
    reference: REFERENCE,
    preset: context.options.http ?? null,
    modes: context.options.modes ?? MODES,
    pin: context.httpPin ?? null,
    // runs from before --placement ran wrk apart
    placement: context.httpPlacement ?? 'apart',
    cells,
    syscalls,
    floors: syscallFloors(syscalls),
    // the same calls per request at full speed, from the kernel (null without the pass)
    kernel,
    // one run per server and mode with wrk on another CPU (null where wrk ran there anyway)
    capacity,
    // the latency pass: oha at fixed rates (null without it)
    latency,
    // how far CPU per request and requests/s moved between the interleaved halves of each
    // cell's runs: the run's own repeatability (experiments/http/repeatability.js)
    repeatability: httpHalves(cells)
  }
}

const cpuOf = run => run.server.cpuNs / run.wrk.requests / 1000
// requests/s: over the time the run's pair was let run where it took turns with the
// reference's (placement interleaved), else wrk's own
const rateOf = run => run.runningNs > 0 ? run.wrk.requests / (run.runningNs / 1e9) : run.wrk.requestsPerSecond
// the reference's pair that ran beside a run, as a run of its own
const partnerRun = run => ({ ...run, program: run.partner.program, wrk: run.partner.wrk, server: run.partner.server, runningNs: run.partner.runningNs })
// a run's CPU per request over the reference's beside it (null for a run alone)
const ratioOf = run => run.partner?.server && run.partner.wrk?.requests > 0 ? cpuOf(run) / cpuOf(partnerRun(run)) : null
// every run of a server's processes beside the reference's pair at one count of connections
// (the warm-up's), and every warm-up run too (runs from before 2026-11-28 kept no warm-up ratios)
function inTurnsThroughout (runs) {
  const ok = runs.filter(run => run.ok)
  const warmedInTurns = run => Array.isArray(run.warmupRatios) && run.warmupRatios.every(ratio => ratio !== null) &&
    run.warmupRatios.length === (run.warmupCpuUs ?? []).length
  return ok.length > 0 && new Set(runs.map(run => run.connections)).size === 1 &&
    ok.every(run => ratioOf(run) !== null && warmedInTurns(run))
}
// a run's process and its round in it; runs from before processes came from one process
const processOf = run => run.process ?? 0
const roundOf = run => run.round ?? run.run ?? 0
// the median of `value` over `runs`, null without runs or where one has no value
function medianOfRuns (runs, value) {
  const values = runs.map(value)
  return values.length && !values.includes(null) ? median(values) : null
}
// a cell's runs, one list per process, in the order its processes first appear
const runsByProcess = runs => [...new Set(runs.map(processOf))]
  .map(process => runs.filter(run => processOf(run) === process))
// runs kept for a cell's figures, by cell: those of its processes' steady states
const quotedRuns = new WeakMap()

// This cell's runs against the reference's: each against the reference's pair that ran
// beside it where they took turns (the same moment), else paired round by round when the
// run measured in rounds (the same process and round: measured seconds apart), else every pair.
function against (cell, reference, value, inRounds) {
  const mine = quotedRuns.get(cell)
  if (mine.length > 0 && mine.every(run => run.partner)) {
    return pairedRatio(mine.map(value), mine.map(run => value(partnerRun(run))))
  }
  const theirs = quotedRuns.get(reference)
  if (!inRounds) return ratioInterval(mine.map(value), theirs.map(value))
  const when = run => `${processOf(run)}\t${roundOf(run)}`
  const byRound = new Map(theirs.map(run => [when(run), run]))
  const pairs = mine.filter(run => byRound.has(when(run)))
  return pairedRatio(pairs.map(value), pairs.map(run => value(byRound.get(when(run)))))
}

// wrk's latency over a cell's kept runs: the medians of their p50s and p99s, the longest. A
// run stopped in turns has the stops in its latency: none is quoted from it. Null without
// a run timed alone.
function wrkLatency (kept) {
  const alone = kept.filter(run => !run.partner)
  if (alone.length === 0) return null
  const of = field => alone.map(run => run.wrk.latencyUs[field])
  return { p50: median(of('p50')), p99: median(of('p99')), max: Math.max(...of('max')) }
}

// A cell's flags from the runs it quotes (http and db alike): 'disturbed' where one saw
// other processes' CPU time on its CPUs, 'compiling' where one was timed while V8 still
// finished optimizing compiles (measure.js's compilesRecord); and how many of the runs whose
// compiles were counted were so (null where none was counted: no V8, or runs from before).
function cellFlags (kept) {
  const counted = kept.filter(run => typeof run.compiling === 'boolean')
  const compilingRuns = counted.length ? counted.filter(run => run.compiling).length : null
  const flags = [
    kept.some(run => run.foreign?.disturbed === true) ? 'disturbed' : null,
    compilingRuns > 0 ? 'compiling' : null
  ].filter(Boolean)
  return { flags, compilingRuns }
}

// The GC states of a cell's V8 processes: how many collected the old generation in the runs
// the cell kept (a mark-compact under load) and how many only the young one, with each
// state's median CPU per request and ratio to the reference's beside it (null for runs not
// in turns with it); null where no process's collections were traced (C, Bun, runs from
// before). Where both states are there the cell's figure mixes them: Node's http server with
// Connection: close fell into either at random, process by process, and cost a fifth more
// where it collected the old generation (docs/http.md, 2026-12-03).
function gcStatesOf (kept) {
  const traced = runsByProcess(kept).filter(own => own.every(run => oldCollections(run.gc) !== null))
  if (traced.length === 0) return null
  const collectsOld = own => own.some(run => oldCollections(run.gc) > 0)
  const ofState = (own, value) => medianOfRuns(own.flat(), value)
  const [old, young] = [traced.filter(collectsOld), traced.filter(own => !collectsOld(own))]
  return {
    processes: traced.length,
    oldGeneration: old.length,
    cpuOldUs: ofState(old, cpuOf),
    cpuYoungUs: ofState(young, cpuOf),
    ratioOld: ofState(old, ratioOf),
    ratioYoung: ofState(young, ratioOf)
  }
}

// Minor page faults per request in a run (the server's processes, every thread), null for
// runs from before faults were counted.
const faultsOf = run => Number.isFinite(run.server?.minorFaults) && run.wrk.requests > 0
  ? run.server.minorFaults / run.wrk.requests
  : null

// Each server process of a cell on its own, over the runs the cell kept: its median CPU per
// request, ratio to the reference's beside it (null for runs not in turns with it) and minor
// page faults per request (null where a run did not count them). A process's level can be
// its own for the whole process: Deno's with Connection: close cost 14.6 to 17.2 us a
// request from process to process, all in its main thread, with 4 to 14 faults a request,
// as glibc's malloc gave its heap's top back to the kernel and took it again (docs/http.md,
// 2026-12-03); the cell's figure is then the median of such levels.
function processLevelsOf (kept) {
  return runsByProcess(kept).map(own => ({
    process: processOf(own[0]),
    runs: own.length,
    cpuUs: medianOfRuns(own, cpuOf),
    ratio: medianOfRuns(own, ratioOf),
    faultsPerRequest: medianOfRuns(own, faultsOf)
  }))
}

function httpCell (server, mode, connections, runs, classes, placement) {
  const ok = runs.filter(run => run.ok)
  const kept = steadyRuns(ok, classes, { processOf, roundOf })
  const rates = kept.map(rateOf)
  const at = values => (values.length ? median(values) : null)
  const shares = kept.map(run => run.server.cpuNs / (run.runningNs ?? run.wallNs))
  const byProcess = runsByProcess(kept)
  const steadiness = cellSteadiness(classes)
  const cell = {
    server,
    runtime: servers.find(row => row.name === server)?.runtime ?? null,
    mode,
    connections,
    runs: kept.length,
    failedRuns: runs.length - ok.length,
    beforeSteady: ok.length - kept.length,
    processes: byProcess.length,
    rates,
    requestsPerSecond: rates.length ? { best: Math.max(...rates), median: median(rates), min: Math.min(...rates), max: Math.max(...rates) } : null,
    latencyUs: wrkLatency(kept),
    cpuPerRequestUs: at(kept.map(cpuOf)),
    // its runs' range, which the tables give for a cell no one number stands for (unsteady)
    cpuPerRequestRangeUs: kept.length
      ? { min: Math.min(...kept.map(cpuOf)), max: Math.max(...kept.map(cpuOf)) }
      : null,
    userShare: userShareOfRuns(kept.map(run => run.server)),
    serverCpuShare: at(shares),
    clientBound: shares.length && placement === 'apart' ? median(shares) < CLIENT_BOUND_SHARE : null,
    requestsPerWakeUp: at(kept.map(run => requestsPerSlice(run.wrk.requests, run.server))
      .filter(value => value !== null)),
    faultsPerRequest: at(kept.map(faultsOf).filter(faults => faults !== null)),
    threads: kept.length ? Math.max(...kept.map(run => run.server.threads)) : null,
    maxRssKiB: kept.length ? Math.max(...kept.map(run => run.server.maxRssKiB)) : null,
    unannouncedClose: kept.some(run => run.unannouncedClose),
    connectEach: connectEach(server, mode),
    unsteady: unsteadyCell(steadiness, ok),
    steadiness,
    processClasses: classes,
    variance: components(byProcess.map(own => own.map(cpuOf))),
    ...cellFlags(kept),
    gcStates: gcStatesOf(kept),
    processLevels: processLevelsOf(kept),
    halves: {
      cpu: processHalves(kept, cpuOf),
      rate: processHalves(kept, rateOf),
      // each run against the reference's pair beside it (placement interleaved)
      ratio: kept.length && kept.every(run => run.partner) ? processHalves(kept, ratioOf) : null
    }
  }
  quotedRuns.set(cell, kept)
  return cell
}

// The cell's runs in two halves, by process where it had several (its processes in turn,
// first against second, third against fourth: what a second run's processes would show; by
// their order, not their numbers, so that a process that failed leaves two halves), else
// interleaved by run; the medians of the halves (lib/repeatability.js's interleavedHalves).
function processHalves (runs, value) {
  const processes = [...new Set(runs.map(processOf))].sort((a, b) => a - b)
  if (processes.length < 2) return interleavedHalves(runs, value, median)
  const halfOf = run => processes.indexOf(processOf(run)) % 2
  const halves = [0, 1].map(half => runs.filter(run => halfOf(run) === half).map(value))
  if (halves.some(half => half.length === 0)) return null
  const [a, b] = halves.map(median)
  return a > 0 ? { a, b, movePercent: movePercent(a, b), runs: halves.map(half => half.length) } : null
}

// The capacity runs (wrk on its own CPU, one per server and mode at the most connections):
// per run { server, mode, connections, ok, failure, requestsPerSecond, cpuPerRequestUs,
// serverCpuShare, clientBound, requestsPerWakeUp, userShare, cpuVsReference (the ratio to
// the reference's run in the same mode: one run each, no interval) }; null without the runs.
// A cell's kernel-pass entry (kernelPerRequest's) among `entries`, or null: the server's, at
// the mode (its `where`) and connections, succeeded unless `anyOutcome`.
function kernelEntryOf (entries, { server, mode, connections }, anyOutcome = false) {
  return entries?.find(each => each.server === server && each.where === mode && each.connections === connections &&
    (anyOutcome || each.ok)) ?? null
}

// A kernel-pass run's syscalls per request as the capacity table gives them, its failure, or
// null without one.
function tracedCalls (traced) {
  if (!traced) return null
  if (!traced.ok) return { failure: traced.failure }
  return { perRequest: traced.perRequest, work: traced.work, upkeep: traced.upkeep }
}

function capacityRuns (runs, kernelApart = null) {
  if (runs.length === 0) return null
  const entries = runs.map(run => {
    const entry = { server: run.program, mode: run.mode, connections: run.connections, ok: run.ok }
    if (!run.ok) return { ...entry, failure: run.failure }
    const share = run.server.cpuNs / run.wallNs
    // the kernel pass's run in the same placement, in the same process (null without one)
    const traced = kernelEntryOf(kernelApart, { server: run.program, mode: run.mode, connections: run.connections },
      true)
    return {
      ...entry,
      requestsPerSecond: run.wrk.requestsPerSecond,
      cpuPerRequestUs: cpuOf(run),
      serverCpuShare: share,
      clientBound: share < CLIENT_BOUND_SHARE,
      requestsPerWakeUp: requestsPerSlice(run.wrk.requests, run.server),
      userShare: userShareOfRuns([run.server]),
      syscalls: tracedCalls(traced)
    }
  })
  for (const entry of entries) {
    const reference = entries.find(other => other.server === REFERENCE && other.mode === entry.mode && other.ok)
    entry.cpuVsReference = entry.ok && reference && entry.server !== REFERENCE ? entry.cpuPerRequestUs / reference.cpuPerRequestUs : null
  }
  return entries
}

// The latency pass: { tool, pin, seconds, rates ({ group: { mode, endpoint, rates, capacity } }:
// a table each, latencyGroupOf), runs }, each run { server, mode, endpoint (db's), connections,
// rateShare, rate, ok, failure, holdsRate, answered, asked, latencyMs, cpuPerRequestUs,
// ohaCpuPerRequestUs, stealShare, steal (above STEAL_SHARE), gc }; null without the pass's runs.
// A latency run's table: the http experiment's by mode, the db experiment's by endpoint (its
// mode is always keep-alive). Runs of db from before the pass took other endpoints than /db
// name none in results.json, and are by mode.
const latencyGroupOf = run => run.endpoint ?? run.mode

// connectsEach(name, mode): whether each request of the server so named opened a connection in
// that mode (servers.js connectEach; db's servers keep theirs)
function latencyRuns (runs, setup = null, connectsEach = () => false) {
  if (runs.length === 0) return null
  const rates = {}
  // a share's rate is one per mode, but one from the reference's warm-up (no timed runs kept)
  // follows its process, and a process started again (a failed start) can ask another; so did
  // a resumed run's capacity run once more, until 2026-12-07: then `others` lists the rates
  for (const run of runs.filter(each => each.capacity)) {
    // the db experiment's runs name their endpoint
    const named = run.endpoint ? { endpoint: run.endpoint } : {}
    const group = rates[latencyGroupOf(run)] ??=
      { mode: run.mode, capacity: run.capacity, rates: [], ...named }
    const share = group.rates.find(each => each.rateShare === run.rateShare)
    if (!share) group.rates.push({ rateShare: run.rateShare, rate: run.rate, others: [] })
    else if (run.rate !== share.rate && !share.others.includes(run.rate)) share.others.push(run.rate)
  }
  for (const group of Object.values(rates)) group.rates.sort((a, b) => a.rateShare - b.rateShare)
  const entries = runs.map(run => {
    const { mode, connections, rateShare, rate, ok } = run
    const named = run.endpoint ? { endpoint: run.endpoint } : {}
    const entry = { server: run.program, mode, ...named, connections, rateShare, rate, ok }
    if (!run.ok) return { ...entry, failure: run.failure }
    const share = stealShare([run])
    return {
      ...entry,
      // judged again from oha's report, so that a run derived again is held to today's rule
      holdsRate: holdsRate(run.oha, run.rate, run.seconds),
      answered: run.oha.answered,
      answeredPerSecond: run.oha.requestsPerSecond ?? null,
      asked: Math.round(run.rate * run.seconds),
      // from oha's stamps, keep-alive's once every connection is open, where oha's file was
      // read (experiments/http/oha.js steadyLatency; at 63511ca1 from the due times); else oha's
      // own, the connects in them (Connection: close's, before the night of 2026-12-06)
      latencyMs: run.oha.steady?.latencyMs ?? run.oha.latencyMs,
      connectsLeftOut: run.oha.steady?.leftOut ?? null,
      // when the steady part began; runs of 2026-12-06 left out only the first request of
      // each connection, and have none
      steadyFromMs: run.oha.steady?.fromMs ?? null,
      connectsIncluded: run.mode !== 'close' && !run.oha.steady,
      // a keep-alive run whose server closed each connection: every request held its connect
      connectEach: connectsEach(run.program, run.mode),
      // how late oha's timer woke for the requests kept, which their latency leaves out
      // (experiments/http/oha.js requestTimes); runs before the night of 2026-12-06 have none
      sendLateMs: run.oha.steady?.lateMs ?? null,
      // whether oha fell behind its schedule there (null where it is not known)
      ohaBehind: fellBehind(run.oha.steady?.lateMs),
      cpuPerRequestUs: run.server.cpuNs / run.oha.answered / 1000,
      ohaCpuPerRequestUs: run.ohaCpuNs / run.oha.answered / 1000,
      stealShare: share,
      steal: share !== null && share > STEAL_SHARE,
      gc: run.gc
    }
  })
  return { tool: setup?.oha ?? null, pin: runs[0].pin ?? null, seconds: runs[0].seconds, rates, runs: entries }
}

// Per server and mode, from its two strace runs: { server, mode, connections, requests:
// { small, large }, perRequest, work, upkeep, byCall: [{ name, perRequest, failed, upkeep }]
// (largest first, those of at least MIN_SHOWN per request either way), workByRole,
// noisyCalls, noise, traceFailed (a strace run of the pair failed) }.
// perRequest = work + upkeep: work counts the calls that succeeded, but for UPKEEP_CALLS;
// upkeep the UPKEEP_CALLS and every failed call. A call made fewer times in the larger run
// is run-to-run noise, named in noisyCalls. perRequest is null (and noise says why)
// when either run failed or the larger made fewer calls than the smaller.
const MIN_SHOWN = 0.005
function syscallsPerRequest (traced) {
  return [...new Set(traced.map(run => `${run.program}\t${run.mode}`))].map(key => {
    const [server, mode] = key.split('\t')
    const pair = traced.filter(run => `${run.program}\t${run.mode}` === key)
    return { server, mode, connections: pair[0].connections, ...pairCalls(pair) }
  })
}

// One server's (or process group's) strace runs of a pair, as syscallsPerRequest's
// entries less who and where: { requests, perRequest, work, upkeep, byCall, workByRole,
// noisyCalls, noise, traceFailed }. `calls(run)` gives a run's { syscalls, totalCalls }
// (the db experiment has a server's and its backends' in one run).
function pairCalls (pair, calls = run => run) {
  const small = pair.filter(run => run.ok).sort((a, b) => a.requests - b.requests)[0]
  const large = pair.filter(run => run.ok).sort((a, b) => b.requests - a.requests)[0]
  const entry = { requests: null, perRequest: null, work: null, upkeep: null, byCall: [], workByRole: [], noisyCalls: [], noise: null, traceFailed: false }
  if (!small || !large || small.requests === large.requests) {
    entry.traceFailed = pair.some(run => !run.ok)
    entry.noise = `needs strace runs at two request counts; ${pair.filter(run => !run.ok).map(run => `${run.requests} requests failed: ${run.failure}`).join('; ') || 'one is missing'}`
    return entry
  }
  const between = large.requests - small.requests
  const [smallCalls, largeCalls] = [calls(small), calls(large)]
  entry.requests = { small: small.requests, large: large.requests }
  const total = (largeCalls.totalCalls - smallCalls.totalCalls) / between
  if (total < 0) {
    entry.noise = `the run of ${large.requests} requests made ${smallCalls.totalCalls - largeCalls.totalCalls} fewer calls than the run of ${small.requests}`
    return entry
  }
  // counts are summed before they are divided, so that whole calls stay whole
  const row = (run, name) => run.syscalls.find(item => item.name === name) ?? { calls: 0, errors: 0 }
  const names = [...new Set([...largeCalls.syscalls, ...smallCalls.syscalls].map(item => item.name))]
  const deltas = names.map(name => ({
    name,
    calls: row(largeCalls, name).calls - row(smallCalls, name).calls,
    errors: row(largeCalls, name).errors - row(smallCalls, name).errors,
    upkeep: UPKEEP_CALLS.has(name)
  }))
  const workCalls = deltas.filter(delta => !delta.upkeep).reduce((sum, delta) => sum + delta.calls - delta.errors, 0)
  entry.perRequest = total
  entry.work = workCalls / between
  entry.upkeep = (largeCalls.totalCalls - smallCalls.totalCalls - workCalls) / between
  entry.byCall = deltas.map(delta => ({ name: delta.name, perRequest: delta.calls / between, failed: delta.errors / between, upkeep: delta.upkeep }))
    .filter(call => Math.abs(call.perRequest) >= MIN_SHOWN || Math.abs(call.failed) >= MIN_SHOWN)
    .sort((a, b) => b.perRequest - a.perRequest || a.name.localeCompare(b.name))
  entry.noisyCalls = entry.byCall.filter(call => call.perRequest <= -MIN_SHOWN || call.failed <= -MIN_SHOWN).map(call => call.name)
  // the work by job: { role, calls (the names this server used), work }, grouped before
  // the jobs of under MIN_SHOWN a request are left out
  const roles = new Map()
  for (const delta of deltas.filter(item => !item.upkeep && item.calls - item.errors !== 0)) {
    const role = CALL_ROLES[delta.name] ?? delta.name
    const entryOf = roles.get(role) ?? { role, calls: [], done: 0 }
    entryOf.calls.push(delta.name)
    entryOf.done += delta.calls - delta.errors
    roles.set(role, entryOf)
  }
  entry.workByRole = [...roles.values()].map(({ role, calls, done }) => ({ role, calls, work: done / between }))
    .filter(role => role.work >= MIN_SHOWN)
    .sort((a, b) => b.work - a.work || a.role.localeCompare(b.role))
  return entry
}

// Each kernel-pass run's calls per request as work and upkeep (as pairCalls divides
// strace's), and the strace pass's figures for the same server beside them (straceOf(run):
// an entry of pairCalls's, or null): what strace's slowness changed. `countsOf(run)` gives
// a run's { requests, syscalls } (the db experiment has a server's and its backends').
function kernelPerRequest (runs, straceOf, countsOf = run => run.kernel) {
  if (runs.length === 0) return null
  return runs.map(run => {
    const where = run.mode ?? run.endpoint
    const entry = { server: run.program, where, connections: run.connections, ok: run.ok }
    if (!run.ok) return { ...entry, failure: run.failure }
    const { requests, syscalls } = countsOf(run)
    const total = syscalls.reduce((sum, call) => sum + call.calls, 0)
    const work = syscalls.filter(call => !UPKEEP_CALLS.has(call.name))
      .reduce((sum, call) => sum + call.calls - call.errors, 0)
    const byCall = syscalls.map(call => ({
      name: call.name,
      perRequest: call.calls / requests,
      failed: call.errors / requests,
      upkeep: UPKEEP_CALLS.has(call.name),
      p50Ns: call.p50Ns
    })).filter(call => call.perRequest >= MIN_SHOWN)
    const strace = straceOf(run)
    return {
      ...entry,
      requests,
      // how much of the counts may be the run's edges: the window holds each connection's open
      // and close, and up to a request a connection in flight at wrk's stop, served, its calls
      // counted, but not counted by wrk (a review, 2026-12-07: 7% for mini_httpd at 128)
      connectionsPerRequest: run.connections / requests,
      perRequest: total / requests,
      work: work / requests,
      upkeep: (total - work) / requests,
      byCall,
      strace: strace?.perRequest == null
        ? null
        : { connections: strace.connections, perRequest: strace.perRequest, work: strace.work, upkeep: strace.upkeep }
    }
  })
}

// The fewest calls of work per request of a C server, by mode: the floor the others are
// read against (their upkeep, which follows timing, is no floor).
function syscallFloors (syscalls) {
  const floors = {}
  for (const entry of syscalls) {
    if (entry.perRequest === null || servers.find(row => row.name === entry.server)?.runtime !== 'native') continue
    if (!floors[entry.mode] || entry.work < floors[entry.mode].work) floors[entry.mode] = { server: entry.server, work: entry.work, perRequest: entry.perRequest }
  }
  return floors
}

module.exports = {
  MIN_SHOWN,
  summariseHttp,
  wrkLatency,
  cellFlags,
  gcStatesOf,
  processLevelsOf,
  faultsOf,
  FAULTS_MEANING,
  syscallsPerRequest,
  pairCalls,
  kernelPerRequest,
  kernelEntryOf,
  latencyRuns,
  latencyGroupOf,
  LATENCY_WORDS,
  REFERENCE
}
