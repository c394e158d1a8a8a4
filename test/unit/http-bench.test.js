'use strict'
// The http experiment's bench (experiments/http/), in this process: wrk's report read
// right, a run wrk or the server spoils is a failure with its reason, the strace pass's
// per-request arithmetic and the summary against hand-computed numbers, the plan, the
// command that measures a failed cell again, and two runs compared.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const { benchOptions } = require('../../lib/bench-options')
const path = require('node:path')

const close = (actual, expected, message) => assert.ok(Math.abs(actual - expected) < 1e-9, `${message}: ${actual}, not ${expected}`)
const http = { ...require('../../experiments/http/servers'), ...require('../../experiments/http/client'), ...require('../../experiments/http/wrk'), ...require('../../experiments/http/cpu'), ...require('../../experiments/http/measure'), ...require('../../experiments/http/summary') }
const { parseStraceSummary } = require('../../lib/strace')

const FIXTURES = path.join(__dirname, '..', 'fixtures')

// wrk 4.1.0's report of a keep-alive run, and of a Connection: close run against a
// server whose answers do not say close, as this machine printed them.
const KEEP_ALIVE_REPORT = `Running 1s test @ http://127.0.0.1:18080/
  1 threads and 16 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   741.70us    3.34ms  30.49ms   95.93%
    Req/Sec   117.38k    20.80k  142.42k    70.00%
  Latency Distribution
     50%  102.00us
     75%  123.00us
     90%  196.00us
     99%   20.29ms
  116430 requests in 1.00s, 5.77MB read
Requests/sec: 116274.77
Transfer/sec:      5.77MB
`
const UNANNOUNCED_CLOSE_REPORT = `Running 1s test @ http://127.0.0.1:18080/
  1 threads and 16 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   253.99us  142.18us   2.60ms   63.72%
    Req/Sec    20.45k     1.28k   21.94k    63.64%
  Latency Distribution
     50%  284.00us
     75%  346.00us
     90%  403.00us
     99%  566.00us
  22371 requests in 1.10s, 1.11MB read
  Socket errors: connect 0, read 22368, write 0, timeout 0
Requests/sec:  20309.45
Transfer/sec:      1.01MB
`

test('parseWrk: requests, rate, latency in µs whatever the unit, socket errors, non-2xx', () => {
  assert.deepEqual(http.parseWrk(KEEP_ALIVE_REPORT), {
    requests: 116430,
    seconds: 1,
    requestsPerSecond: 116274.77,
    latencyUs: { mean: 741.7, max: 30490, p50: 102, p75: 123, p90: 196, p99: 20290 },
    errors: { connect: 0, read: 0, write: 0, timeout: 0 },
    non2xx: 0
  })
  const close = http.parseWrk(UNANNOUNCED_CLOSE_REPORT)
  assert.deepEqual(close.errors, { connect: 0, read: 22368, write: 0, timeout: 0 })
  assert.equal(close.seconds, 1.1)
  assert.equal(close.latencyUs.max, 2600)
  assert.equal(http.parseWrk(KEEP_ALIVE_REPORT.replace('Requests/sec', '  Non-2xx or 3xx responses: 7\nRequests/sec')).non2xx, 7)
  assert.deepEqual(http.parseWrk('unable to connect to 127.0.0.1:1 Connection refused\n'), { requests: null, seconds: null, requestsPerSecond: null, latencyUs: null, errors: { connect: 0, read: 0, write: 0, timeout: 0 }, non2xx: 0 })
})

test('wrkFailure: a run is a data point only when wrk finished cleanly with every answer 2xx and no socket error', () => {
  const wrk = { code: 0, signal: null, timedOut: false, stdout: KEEP_ALIVE_REPORT, stderr: '' }
  const keepAlive = http.parseWrk(KEEP_ALIVE_REPORT)
  const close = http.parseWrk(UNANNOUNCED_CLOSE_REPORT)
  const failure = changes => http.wrkFailure({ wrk, output: keepAlive, exited: false, unannouncedClose: false, connections: 16, seconds: 1, ...changes })
  assert.equal(failure({}), null)
  // wrk stopped by SIGINT reports the time it ran and exits 0
  assert.equal(failure({ output: { ...keepAlive, seconds: 0.42 } }), 'wrk ran 0.42 s of the 1 s asked (stopped by a signal?)')
  assert.equal(failure({ output: { ...keepAlive, seconds: 0.9 } }), null)
  // an unannounced close costs wrk one read error per request, and those alone are allowed
  assert.equal(failure({ output: close, unannouncedClose: true }), null)
  assert.equal(failure({ output: close }), 'wrk counted socket errors: connect 0, read 22368, write 0, timeout 0')
  assert.equal(failure({ output: { ...close, errors: { ...close.errors, read: 22371 + 17 } }, unannouncedClose: true }), 'wrk counted socket errors: connect 0, read 22388 (22387 allowed: the server\'s closes are unannounced), write 0, timeout 0')
  assert.equal(failure({ output: { ...close, errors: { ...close.errors, timeout: 3 } }, unannouncedClose: true }), 'wrk counted socket errors: connect 0, read 22368 (22387 allowed: the server\'s closes are unannounced), write 0, timeout 3')
  assert.equal(failure({ output: { ...keepAlive, non2xx: 5 } }), '5 of 116430 answers were not 2xx or 3xx')
  assert.equal(failure({ exited: true }), 'the server exited during the run')
  assert.equal(failure({ wrk: { ...wrk, timedOut: true } }), 'wrk did not finish within its duration and 10 s')
  assert.equal(failure({ wrk: { ...wrk, code: 1, stderr: 'unable to connect\n' } }), 'wrk exited 1: unable to connect')
  assert.equal(failure({ output: { ...keepAlive, requests: 0 } }), 'wrk completed no request')
  assert.match(failure({ output: http.parseWrk('') }), /^wrk printed no request count, rate or latency/)
})

const straceRun = (mode, requests, ok = true) => {
  const summary = parseStraceSummary(fs.readFileSync(path.join(FIXTURES, 'strace', `http-c-epoll-${mode}-${requests}.txt`), 'utf8'))
  return { phase: http.STRACE_PHASE, program: 'c-epoll', mode, connections: 16, requests, ok, failure: ok ? null : 'broken', syscalls: summary.syscalls, totalCalls: summary.totalCalls }
}

test('syscalls per request: the difference of two strace runs over the requests between them (c-epoll, close, 200 and 600 requests)', () => {
  const [entry] = http.syscallsPerRequest([straceRun('close', 200), straceRun('close', 600)])
  // by hand from the two summaries: total (3780 - 1285) / 400; epoll_ctl (1201 - 401) / 400;
  // accept4 (656 - 213) / 400; close (603 - 203) / 400; read (601 - 201) / 400; write the
  // same; epoll_wait (79 - 27) / 400; start-up's calls (mmap, execve, socket ...) cancel
  assert.equal(entry.perRequest, 6.2375)
  assert.deepEqual(entry.byCall, [
    { name: 'epoll_ctl', perRequest: 2, failed: 0, upkeep: false },
    { name: 'accept4', perRequest: 1.1075, failed: 0.1075, upkeep: false },
    { name: 'close', perRequest: 1, failed: 0, upkeep: false },
    { name: 'read', perRequest: 1, failed: 0, upkeep: false },
    { name: 'write', perRequest: 1, failed: 0, upkeep: false },
    { name: 'epoll_wait', perRequest: 0.13, failed: 0, upkeep: true }
  ])
  // the work: every call that succeeded but the upkeep, 2 + 1 + 1 + 1 + 1 (accept4's 443
  // calls less its 43 EAGAINs over 400); the upkeep: epoll_wait's 0.13 and accept4's 0.1075 failed
  assert.ok(Math.abs(entry.work - 6) < 1e-12, entry.work)
  assert.ok(Math.abs(entry.upkeep - 0.2375) < 1e-12, entry.upkeep)
  assert.deepEqual(entry.workByRole.map(role => [role.role, role.calls, Math.round(role.work * 1e9) / 1e9]), [
    ['epoll_ctl', ['epoll_ctl'], 2], ['accept', ['accept4'], 1], ['close', ['close'], 1], ['receive', ['read'], 1], ['send', ['write'], 1]
  ])
  assert.deepEqual(entry.requests, { small: 200, large: 600 })
  assert.deepEqual(entry.noisyCalls, [])
  assert.equal(entry.noise, null)
  // a wait made fewer times in the larger run is named as noise, and the upkeep falls
  const fewerWaits = straceRun('close', 600)
  fewerWaits.syscalls = fewerWaits.syscalls.map(row => (row.name === 'epoll_wait' ? { ...row, calls: 7 } : row))
  fewerWaits.totalCalls -= 72
  const [noisy] = http.syscallsPerRequest([straceRun('close', 200), fewerWaits])
  assert.deepEqual(noisy.noisyCalls, ['epoll_wait'])
  assert.ok(Math.abs(noisy.work - 6) < 1e-12 && Math.abs(noisy.upkeep - (0.1075 - 0.05)) < 1e-12, `${noisy.work} ${noisy.upkeep}`)
  // a failed run leaves no difference to take; fewer calls for more requests is noise
  const [broken] = http.syscallsPerRequest([straceRun('close', 200), straceRun('close', 600, false)])
  assert.equal(broken.perRequest, null)
  assert.equal(broken.noise, 'needs strace runs at two request counts; 600 requests failed: broken')
  assert.equal(broken.traceFailed, true)
  const swapped = [straceRun('close', 200), { ...straceRun('close', 600), totalCalls: 1000 }]
  assert.equal(http.syscallsPerRequest(swapped)[0].noise, 'the run of 600 requests made 285 fewer calls than the run of 200')
})

test('the server\'s CPU time between two readings: every thread\'s schedstat, or the process\'s ticks once a thread has ended', () => {
  const reading = (taskNs, userTicks, systemTicks) => ({ taskNs, userTicks, systemTicks, threads: Object.keys(taskNs).length, maxRssKiB: 4096 })
  const before = reading({ 100: 5e8, 101: 2e8 }, 40, 30)
  // both threads lived on, a third was born: (9e8 - 5e8) + (3e8 - 2e8) + 5e7
  const grown = http.cpuBetween(before, reading({ 100: 9e8, 101: 3e8, 102: 5e7 }, 80, 45))
  assert.deepEqual(grown, {
    ...{ cpuNs: 5.5e8, cpuFrom: 'schedstat', reapedTicks: 0, threadsEnded: 0, slices: null, userTicks: 40 },
    ...{ systemTicks: 15, clkTck: 100, minorFaults: null, threads: 3, processes: 1, processesEnded: 0, maxRssKiB: 4096 }
  })
  // a thread born and ended between the readings: the ticks (80 of 10 ms) beyond the
  // threads' sum (5.5e8) by more than 2 ticks count
  const passing = http.cpuBetween(before, reading({ 100: 9e8, 101: 3e8, 102: 5e7 }, 100, 50))
  assert.deepEqual([passing.cpuNs, passing.cpuFrom, passing.threadsEnded], [8e8, 'ticks', 0])
  // within 2 ticks of the threads' sum, the exact schedstat counts
  assert.equal(http.cpuBetween(before, reading({ 100: 9e8, 101: 3e8, 102: 5e7 }, 82, 45)).cpuFrom, 'schedstat')
  // thread 101 ended and took its schedstat with it: the ticks keep its time, 55 of 10 ms
  const shrunk = http.cpuBetween(before, reading({ 100: 9e8 }, 80, 45))
  assert.deepEqual(shrunk, {
    ...{ cpuNs: 5.5e8, cpuFrom: 'ticks', reapedTicks: 0, threadsEnded: 1, slices: null, userTicks: 40 },
    ...{ systemTicks: 15, clkTck: 100, minorFaults: null, threads: 1, processes: 1, processesEnded: 0, maxRssKiB: 4096 }
  })
})

test('a server of many processes: each one\'s CPU time, and the whole time of those that ended', () => {
  const proc = (taskNs, ticks, reapedTicks = 0, slices = 10) => ({
    taskNs,
    taskSlices: Object.fromEntries(Object.keys(taskNs).map(task => [task, slices])),
    userTicks: ticks,
    systemTicks: 0,
    reapedUserTicks: reapedTicks,
    reapedSystemTicks: 0,
    threads: Object.keys(taskNs).length,
    maxRssKiB: 1000
  })
  // nginx: a master and its worker, both alive at both readings: their schedstat alone
  const master = { ...proc({ 10: 1e7 }, 1), descendants: { 11: proc({ 11: 2e8 }, 20) } }
  const later = { ...proc({ 10: 1.1e7 }, 1, 0, 11), descendants: { 11: proc({ 11: 6e8 }, 60, 0, 50) } }
  const nginx = http.cpuBetween(master, later)
  assert.deepEqual([nginx.cpuNs, nginx.cpuFrom, nginx.slices, nginx.processes, nginx.maxRssKiB], [4.01e8, 'schedstat', 41, 2, 2000])
  // mini_httpd: child 21 (3e6 at the first reading) ended and was waited for, 22 was born
  // and is alive, and others came and went: the parent's reaped ticks grew by 30 (3e8 ns),
  // child 21's whole time among them
  const parent = { ...proc({ 20: 5e7 }, 5, 100), descendants: { 21: proc({ 21: 3e6 }, 0) } }
  const after = { ...proc({ 20: 6e7 }, 6, 130), descendants: { 22: { ...proc({ 22: 2e6 }, 0), maxRssKiB: NaN } } }
  const forking = http.cpuBetween(parent, after)
  assert.equal(forking.cpuNs, 1e7 + 2e6 + 3e8 - 3e6)
  assert.deepEqual([forking.cpuFrom, forking.slices, forking.processes, forking.processesEnded, forking.userTicks], ['ticks', null, 2, 1, 31])
  // what the foreign-time check asks of a server: did processes end (lib/foreign.js userForeign)
  assert.deepEqual([forking.reapedTicks, nginx.reapedTicks], [30, 0])
  // a zombie not yet waited for says no memory: the others' still count
  assert.equal(forking.maxRssKiB, 1000)
  // a process read alone (readProcess: a postmaster among the database's upkeep) counts its
  // own time, not its children's: those are read apart
  const { descendants: _before, ...alone } = parent
  const { descendants: _after, ...aloneLater } = after
  assert.deepEqual([http.cpuBetween(alone, aloneLater).cpuNs, http.cpuBetween(alone, aloneLater).cpuFrom], [1e7, 'schedstat'])
})

test('the server\'s minor page faults between two readings: its processes\', and those of children that ended', () => {
  const proc = (minorFaults, reapedMinorFaults = 0) => ({
    taskNs: { 1: 0 },
    userTicks: 0,
    systemTicks: 0,
    reapedUserTicks: 0,
    reapedSystemTicks: 0,
    minorFaults,
    reapedMinorFaults,
    threads: 1,
    maxRssKiB: 1
  })
  // one process: what it faulted between the readings
  assert.equal(http.cpuBetween(proc(1000), proc(4500)).minorFaults, 3500)
  // a forking server: child 21 (40 faults at the first reading) ended and was waited for, its
  // whole 90 in the parent's cminflt; child 22 was born and faulted 30; the parent 10 itself
  const parent = { ...proc(500, 200), descendants: { 21: proc(40) } }
  const after = { ...proc(510, 290), descendants: { 22: proc(30) } }
  assert.equal(http.cpuBetween(parent, after).minorFaults, 10 + 30 + 90 - 40)
  // a reading from before faults were counted says nothing
  const { minorFaults: _, ...old } = proc(1000)
  assert.equal(http.cpuBetween(old, proc(4500)).minorFaults, null)
  // an ended child whose reading counted none: nothing said, not NaN
  const uncountedChild = { ...proc(500, 200), descendants: { 21: old } }
  assert.equal(http.cpuBetween(uncountedChild, { ...proc(510, 290), descendants: {} }).minorFaults, null)
  // this process's own faults, read from /proc, are the kernel's count getrusage(2) gives
  const faultsBefore = process.resourceUsage().minorPageFault
  const read = http.processCpu(process.pid).minorFaults
  const faultsAfter = process.resourceUsage().minorPageFault
  assert.ok(read >= faultsBefore && read <= faultsAfter, `${faultsBefore} <= ${read} <= ${faultsAfter}`)
})

test('the server\'s wake-ups between two readings: each living thread\'s timeslices, a new thread\'s all', () => {
  const reading = (taskSlices, taskNs) => ({ taskNs, taskSlices, userTicks: 0, systemTicks: 0, threads: 1, maxRssKiB: 1 })
  const before = reading({ 100: 40, 101: 7 }, { 100: 1e6, 101: 1e6 })
  // thread 100 was put on a CPU 25 more times, 101 3 more, 102 (born between) 5
  const after = reading({ 100: 65, 101: 10, 102: 5 }, { 100: 2e6, 101: 2e6, 102: 1e6 })
  assert.equal(http.cpuBetween(before, after).slices, 33)
  // this process's own threads, read from /proc: a count, growing
  const own = http.processCpu(process.pid)
  assert.ok(Object.values(own.taskSlices).every(count => Number.isInteger(count) && count > 0), JSON.stringify(own.taskSlices))
})

test('where wrk runs: shared puts it on the server\'s CPU, apart keeps the plan\'s own', () => {
  const plan = { client: 0, server: 1 }
  assert.deepEqual(http.loadPin(plan, 'shared'), { client: 1, server: 1 })
  assert.equal(http.loadPin(plan, 'apart'), plan)
  const options = { http: { runs: 1, connections: [1, 16], straceRequests: { small: 1, large: 2 } }, modes: ['keep-alive', 'close'], strace: true }
  const steps = http.planHttp(http.servers.slice(0, 2), options, http.loadPin(plan, 'shared'), plan)
  const capacity = steps.filter(step => step.phase === http.CAPACITY_PHASE)
  assert.ok(steps.filter(step => step.phase !== http.CAPACITY_PHASE).every(step => step.pin.client === 1 && step.pin.server === 1))
  // wrk's command line pins it so
  assert.deepEqual(http.wrkArgv(steps[0], 8080, { http: { seconds: 1 } }).slice(0, 4), ['taskset', '-c', '1', 'wrk'])
  // then one capacity run per server and mode at the most connections, wrk on its own CPU,
  // in the same server processes as the mode's last timed runs
  assert.deepEqual(capacity.map(step => [step.mode, step.server.name, step.connections, step.pin]), [
    ['keep-alive', http.servers[0].name, 16, plan], ['keep-alive', http.servers[1].name, 16, plan],
    ['close', http.servers[0].name, 16, plan], ['close', http.servers[1].name, 16, plan]
  ])
  const lastTimed = mode => steps.filter(step => step.phase === http.PHASE && step.mode === mode).at(-1)
  assert.ok(capacity.every(step => step.process === lastTimed(step.mode).process))
  assert.equal(steps.indexOf(capacity[1]) + 1, steps.findIndex(step => step.mode === 'close'))
  // with the kernel pass, each cell's load under the probes in the timed placement, then each
  // capacity run's in its own (wrk apart), a cell of its own
  const [first, second] = http.servers.slice(0, 2).map(server => server.name)
  const shared = http.loadPin(plan, 'shared')
  const traced = http.planHttp(http.servers.slice(0, 2), { ...options, kernel: true }, shared, plan)
    .filter(step => step.phase === http.KERNEL_PHASE)
  assert.deepEqual(traced.filter(step => step.mode === 'keep-alive')
    .map(step => [step.server.name, step.connections, step.pin, step.apart ?? false]), [
    [first, 1, shared, false], [second, 1, shared, false],
    [first, 16, shared, false], [second, 16, shared, false],
    [first, 16, plan, true], [second, 16, plan, true]
  ])
  assert.deepEqual(shared, { client: 1, server: 1 })
  assert.equal(new Set(traced.map(require('../../experiments/http').cellKey)).size, traced.length, 'a cell each')
  assert.ok(traced.every(step => step.process === lastTimed(step.mode).process))
  // wrk apart already, or on one CPU: no capacity runs, and no kernel-pass run apart
  assert.equal(http.planHttp(http.servers.slice(0, 2), options, plan, plan).some(step => step.phase === http.CAPACITY_PHASE), false)
  const apartAllAlong = http.planHttp(http.servers.slice(0, 2), { ...options, kernel: true }, plan, plan)
  assert.equal(apartAllAlong.some(step => step.apart), false)
  const one = { client: 0, server: 0 }
  assert.equal(http.planHttp(http.servers.slice(0, 2), options, one, one).some(step => step.phase === http.CAPACITY_PHASE), false)
})

test('syscalls over the floor: by job, so sendto for write is no call more; upkeep said apart', () => {
  const { findings } = require('../../experiments/http/findings')
  // a strace run of `requests` requests: each call `perRequest` times a request, and 20 at start-up
  const traced = (server, requests, calls) => {
    const syscalls = Object.entries(calls).map(([name, [perRequest, failedPerRequest = 0]]) => ({ name, calls: 20 + perRequest * requests, errors: failedPerRequest * requests }))
    return { phase: http.STRACE_PHASE, program: server, mode: 'close', connections: 16, requests, ok: true, syscalls, totalCalls: syscalls.reduce((sum, row) => sum + row.calls, 0) }
  }
  const pair = (server, calls) => [traced(server, 100, calls), traced(server, 400, calls)]
  const records = [
    ...pair('c-blocking', { accept4: [1], read: [1], write: [1], close: [1] }),
    ...pair('bun', { accept4: [1.25, 0.25], recvfrom: [1], sendto: [1], close: [1], epoll_ctl: [2], shutdown: [1], setsockopt: [1], futex: [0.25], mprotect: [0.25] }),
    ...pair('just-blocking', { accept: [1], recvfrom: [1], writev: [1], close: [1] })
  ]
  const summary = http.summariseHttp(records, { options: { modes: ['close'] } })
  assert.deepEqual(summary.floors, { close: { server: 'c-blocking', work: 4, perRequest: 4 } })
  const bun = summary.syscalls.find(entry => entry.server === 'bun')
  assert.deepEqual([bun.perRequest, bun.work, bun.upkeep], [8.75, 8, 0.75])
  const text = findings([{ label: 'a', results: { experiment: 'http', http: summary } }]).map(finding => finding.text).find(line => line.startsWith('Connection: close: c-blocking'))
  assert.equal(text, 'Connection: close: c-blocking makes 4 calls of work per request (accept4 1, close 1, read 1, write 1), the C floor; just-blocking the same within half a call; more: bun 8 (epoll_ctl +2, setsockopt +1, shutdown +1); upkeep (waits, failed tries, memory calls) adds bun 0.75.')
})

// A wrk run's record as measureStep logs it, with the numbers a test needs.
const run = (server, rate, { mode = 'keep-alive', connections = 16, cpuNs = 1e9, ok = true } = {}) => ({
  phase: http.PHASE,
  program: server,
  mode,
  connections,
  ok,
  failure: ok ? null : 'broken',
  wallNs: 1.1e9,
  wrk: ok ? { requests: rate * 1.1, requestsPerSecond: rate, latencyUs: { p50: 100, p99: 300, max: 900 } } : null,
  server: ok ? { cpuNs, threads: 1, maxRssKiB: 2048 } : null,
  unannouncedClose: false
})

test('summariseHttp: medians, best and range, the share of c-epoll with its interval, CPU per request, client-bound cells, the floor', () => {
  const records = [
    ...[100000, 110000, 120000, 130000].map(rate => run('c-epoll', rate, { cpuNs: 0.88e9 })),
    ...[90000, 99000, 108000, 117000].map(rate => run('bun', rate, { cpuNs: 1.1e9 })),
    run('bun', 1, { ok: false }),
    straceRun('close', 200),
    straceRun('close', 600)
  ]
  const summary = http.summariseHttp(records, { options: { http: http.PRESETS.default, modes: http.MODES } })
  const [c, bun] = summary.cells
  assert.deepEqual(c.requestsPerSecond, { best: 130000, median: 115000, min: 100000, max: 130000 })
  assert.equal(c.vsReference, null)
  // CPU per request, run by run: 0.88e9 ns / (rate × 1.1) requests; the median of the four
  assert.ok(Math.abs(c.cpuPerRequestUs - (0.88e9 / (110000 * 1.1) + 0.88e9 / (120000 * 1.1)) / 2 / 1000) < 1e-9)
  assert.equal(c.serverCpuShare, 0.8)
  assert.equal(c.clientBound, true)
  assert.equal(bun.runs, 4)
  assert.equal(bun.failedRuns, 1)
  assert.equal(bun.clientBound, false)
  // bun's runs are 0.9 × c-epoll's run for run: the 16 ratios' median is 0.9, and with
  // 4 runs a side the 95% interval is the lowest and highest ratio
  assert.ok(Math.abs(bun.vsReference.estimate - 0.9) < 1e-9)
  assert.equal(bun.vsReference.low, 90000 / 130000)
  assert.equal(bun.vsReference.high, 117000 / 100000)
  assert.deepEqual(summary.floors, { close: { server: 'c-epoll', work: 6, perRequest: 6.2375 } })
  assert.equal(http.summariseHttp([], { options: {} }), null)
  // a run from before --placement ran wrk apart; no slices were counted then
  assert.equal(summary.placement, 'apart')
  assert.equal(c.requestsPerWakeUp, null)
})

test('where a server\'s CPU went: its utime and stime pooled over its kept runs, in tables, page and CSV', () => {
  const timed = (server, rate, userTicks, systemTicks, cpuFrom = 'schedstat') => {
    const record = run(server, rate, { cpuNs: 0.5e9 })
    return { ...record, server: { ...record.server, userTicks, systemTicks, cpuFrom } }
  }
  // bun's four runs, each beside a c-epoll that took turns with it (placement interleaved),
  // whose 90 user units of 100 are c-epoll's, not bun's: bun's own 60 of 160 units, 0.375,
  // where the runs' shares (0.75, 0.1, 0.5, 0.3) have a mean of 0.41 and a median of 0.4
  const turns = (record, round) => ({
    ...record,
    round,
    run: round,
    runningNs: 0.55e9,
    interleaved: { sliceMs: 50, turns: 11 },
    partner: {
      program: 'c-epoll',
      wrk: { ...record.wrk },
      server: { cpuNs: 0.5e9, threads: 1, maxRssKiB: 1, userTicks: 90, systemTicks: 10, cpuFrom: 'schedstat' },
      runningNs: 0.55e9
    }
  })
  const records = [
    // c-epoll's own runs: one of them with a process that began and ended within it
    ...[100000, 110000, 120000, 130000].map((rate, round) =>
      ({ ...timed('c-epoll', rate, 5, 45, round === 2 ? 'ticks' : 'schedstat'), round, run: round })),
    ...[[30, 10], [5, 45], [10, 10], [15, 35]]
      .map(([user, system], round) => turns(timed('bun', 50000, user, system), round)),
    // a failed run's units are not the cell's
    { ...run('bun', 1, { ok: false }), server: { userTicks: 100, systemTicks: 0, cpuFrom: 'schedstat' } }
  ]
  const context = {
    options: { http: http.PRESETS.default, modes: ['keep-alive'] }, httpPlacement: 'interleaved', httpRounds: true
  }
  const summary = http.summariseHttp(records, context)
  const [c, bun] = ['c-epoll', 'bun'].map(server => summary.cells.find(cell => cell.server === server))
  assert.equal(c.userShare, null)
  assert.deepEqual([bun.userShare.share, bun.userShare.cpuSeconds], [0.375, 1.6])
  // Wilson's interval at 95%, over 160 units: 0.304 to 0.452
  const { low, high, level } = bun.userShare.interval
  assert.deepEqual([low, high, level].map(x => Math.round(x * 1000) / 1000), [0.304, 0.452, 0.95])
  assert.match(summary.meaning.userShare, /utime in its utime and stime.*Wilson's at about 95%.*mini_httpd/)
  const report = require('../../experiments/http/report')
  const lines = report.terminal({ runId: 'r', http: summary })
  assert.ok(lines.some(line => /CPU µs\/req @16 and user share/.test(line)), lines.join('\n'))
  // the table's rows, after the answer's
  const row = server => lines.filter(line => line.startsWith(`${server} `)).at(-1)
  assert.match(row('bun'), /\d, 38% user +\S/)
  assert.doesNotMatch(row('c-epoll'), /user/)
  // on the page, beside the cell's CPU per request, with what it rests on
  const sets = [{ label: 'r', results: { runId: 'r', http: summary } }]
  const page = String(report.sections.find(([id]) => id === 'http')[2](report.shape(sets)))
  const shown = page.match(/<span class="interval"[^>]*>[^<]*µs CPU[^<]*<\/span>/g)
  assert.equal(shown.length, 2)
  assert.match(shown.find(span => /user/.test(span)), new RegExp('title="38% of the server&#39;s 1.6 s of CPU ' +
    'over these ' +
    'runs was user time, .*; about 95% interval 30.3–45.3%">[\\d.]+ µs CPU, 38% user<'))
  // and in the CSV, a column each for the share and the CPU time behind it
  const { columns, rows } = report.csv(report.shape(sets))
  const column = name => columns.find(([each]) => each === name)[1]
  const bunRow = rows.find(each => each.server === 'bun')
  assert.deepEqual([column('userShare')(bunRow), column('userShareCpuSeconds')(bunRow)], [0.375, 1.6])
  assert.equal(column('userShare')(rows.find(each => each.server === 'c-epoll')), null)
})

test('summariseHttp, wrk on the server\'s CPU: no cell client-bound, requests per wake-up from the timeslices', () => {
  const sliced = (server, rate, slices) => {
    const record = run(server, rate, { cpuNs: 0.5e9 })
    return { ...record, server: { ...record.server, slices } }
  }
  const records = [
    ...[100000, 110000, 120000, 130000].map(rate => sliced('c-epoll', rate, rate * 1.1 / 4)),
    ...[50000, 55000, 60000, 65000].map(rate => sliced('bun', rate, rate * 1.1 / 2))
  ]
  const context = { options: { http: http.PRESETS.default, modes: ['keep-alive'] }, httpPlacement: 'shared', httpPin: { client: 1, server: 1 } }
  const summary = http.summariseHttp(records, context)
  assert.equal(summary.placement, 'shared')
  const [c, bun] = summary.cells
  // the server used under half the CPU, wrk the rest: by design, not a client-bound cell
  assert.ok(c.serverCpuShare < 0.9)
  assert.deepEqual([c.clientBound, bun.clientBound], [null, null])
  assert.deepEqual([c.requestsPerWakeUp, bun.requestsPerWakeUp], [4, 2])
})

test('summariseHttp, interleaved: each run against the c-epoll pair beside it, rates over running time, no latency', () => {
  // bun's CPU per request is 1.5 × the c-epoll beside it in every run, while the machine's
  // speed moves both by half: the ratio holds, the rounds' runs do not
  const turns = (cpuNs, partnerCpuNs, round) => {
    const record = run('bun', 50000, { cpuNs })
    return {
      ...record,
      round,
      run: round,
      runningNs: 0.55e9,
      interleaved: { sliceMs: 50, turns: 11 },
      partner: { program: 'c-epoll', wrk: { ...record.wrk }, server: { cpuNs: partnerCpuNs, threads: 1, maxRssKiB: 1 }, runningNs: 0.55e9 }
    }
  }
  const records = [
    ...[0.4e9, 0.6e9, 0.4e9, 0.6e9].map((cpuNs, round) => ({ ...run('c-epoll', 100000, { cpuNs: cpuNs * 2 }), round, run: round })),
    ...[0.6e9, 0.9e9, 0.45e9, 0.75e9].map((cpuNs, round) => turns(cpuNs, cpuNs / 1.5, round))
  ]
  const context = { options: { http: http.PRESETS.default, modes: ['keep-alive'] }, httpPlacement: 'interleaved', httpRounds: true }
  const summary = http.summariseHttp(records, context)
  const bun = summary.cells.find(cell => cell.server === 'bun')
  assert.ok(Math.abs(bun.cpuVsReference.estimate - 1.5) < 1e-9 && Math.abs(bun.cpuVsReference.high - 1.5) < 1e-9, JSON.stringify(bun.cpuVsReference))
  // 55,000 requests over the 0.55 s the pair ran
  assert.ok(Math.abs(bun.requestsPerSecond.median - 100000) < 1e-6)
  assert.ok(Math.abs(bun.serverCpuShare - 0.675e9 / 0.55e9) < 1e-9)
  assert.equal(bun.latencyUs, null)
  // c-epoll's own runs, alone, keep their latency
  assert.equal(summary.cells.find(cell => cell.server === 'c-epoll').latencyUs.p99, 300)
})

test('capacity runs: requests/s and CPU per request with wrk apart, and the finding that sets them beside the timed runs', () => {
  const { findings } = require('../../experiments/http/findings')
  const withSlices = (record, slices, extra = {}) => ({ ...record, ...extra, server: { ...record.server, slices } })
  const inTurns = (server, cpuNs, partnerCpuNs, round) => {
    const record = run(server, 50000, { cpuNs })
    return {
      ...withSlices(record, record.wrk.requests / 4, { round, run: round, runningNs: 0.55e9 }),
      partner: { program: 'c-epoll', wrk: record.wrk, server: { cpuNs: partnerCpuNs }, runningNs: 0.55e9 }
    }
  }
  const capacity = (server, rate, cpuNs, perWakeUp, units = {}) => {
    const record = withSlices(run(server, rate, { cpuNs }), run(server, rate).wrk.requests / perWakeUp)
    return { ...record, phase: http.CAPACITY_PHASE, server: { ...record.server, ...units } }
  }
  const records = [
    ...[0, 1, 2, 3].map(round => withSlices({ ...run('c-epoll', 50000, { cpuNs: 0.2e9 }), round, run: round }, 55000 / 4)),
    ...[0, 1, 2, 3].map(round => inTurns('bun', 0.34e9, 0.2e9, round)),
    capacity('c-epoll', 150000, 0.9e9, 20, { userTicks: 9, systemTicks: 81, cpuFrom: 'schedstat' }),
    capacity('bun', 120000, 1.0e9, 300),
    { ...run('bun', 1, { ok: false }), phase: http.CAPACITY_PHASE, mode: 'close' }
  ]
  const context = { options: { http: http.PRESETS.default, modes: ['keep-alive', 'close'] }, httpPlacement: 'interleaved', httpRounds: true }
  const summary = http.summariseHttp(records, context)
  const [c, bun, failed] = summary.capacity
  assert.deepEqual([c.server, c.requestsPerSecond, c.clientBound, c.cpuVsReference], ['c-epoll', 150000, true, null])
  assert.ok(Math.abs(c.requestsPerWakeUp - 20) < 1e-9 && Math.abs(bun.requestsPerWakeUp - 300) < 1e-9)
  // bun's 1.0e9 ns over 132,000 requests against c-epoll's 0.9e9 over 165,000
  assert.ok(Math.abs(bun.cpuVsReference - (1.0e9 / 132000) / (0.9e9 / 165000)) < 1e-9)
  assert.equal(bun.clientBound, false)
  assert.deepEqual([failed.ok, failed.failure], [false, 'broken'])
  // where the capacity run's CPU went, in its table: c-epoll's 9 user units of 90; bun's run
  // from before units were kept has none
  assert.deepEqual([c.userShare.share, c.userShare.cpuSeconds, bun.userShare], [0.1, 0.9, null])
  const table = require('../../experiments/http/report').terminal({ runId: 'a', http: summary })
  const capacityRow = server =>
    table.slice(table.findIndex(line => line.startsWith('Capacity'))).find(line => line.startsWith(`${server} `))
  assert.match(capacityRow('c-epoll'), /^c-epoll +150000 c +10% user +20, 4$/)
  assert.match(capacityRow('bun'), /^bun +120000 +1\.39× +300, 4\b/)
  // the timed runs' ratio (1.7) beside the capacity run's, requests per wake-up beside each other
  const text = findings([{ label: 'a', results: { experiment: 'http', http: summary } }]).map(finding => finding.text).find(line => line.startsWith('Where wrk runs'))
  assert.match(text, new RegExp('\\(the capacity run\\): c-epoll 4 against 20, bun 4 against 300; ' +
    'every one answered more a wake-up with wrk apart\\.'))
  // counted, not said of all: a server that answered fewer a wake-up apart (wasmer's, a review)
  const fewerApart = {
    ...summary,
    capacity: summary.capacity.map(run => run.server === 'bun' ? { ...run, requestsPerWakeUp: 2 } : run)
  }
  assert.match(findings([{ label: 'a', results: { experiment: 'http', http: fewerApart } }])
    .map(finding => finding.text).find(line => line.startsWith('Where wrk runs')),
  /bun 4 against 2; 1 of 2 answered more a wake-up with wrk apart\./)
  assert.match(text, /CPU per request against C's, timed runs against the capacity run \(one run each, no interval\): bun 1\.7× against 1\.39×\./)
  assert.match(text, /a different figure, not a better one/)
  // a cell the answer does not quote is left out, and named (a review, 2026-12-07)
  const unsteady = { steady: false, counts: { 'no steady state': 1 } }
  const unsteadyBun = {
    ...summary,
    cells: summary.cells.map(cell => cell.server === 'bun' ? { ...cell, steadiness: unsteady } : cell)
  }
  const unquotedText = findings([{ label: 'a', results: { experiment: 'http', http: unsteadyBun } }])
    .map(finding => finding.text).find(line => line.startsWith('Where wrk runs'))
  assert.equal(unquotedText, undefined, 'no server left to set against its capacity run')
  const withDeno = {
    ...unsteadyBun,
    cells: [...unsteadyBun.cells, { ...summary.cells.find(cell => cell.server === 'bun'), server: 'deno' }],
    capacity: [...summary.capacity, { ...bun, server: 'deno' }]
  }
  assert.match(findings([{ label: 'a', results: { experiment: 'http', http: withDeno } }])
    .map(finding => finding.text).find(line => line.startsWith('Where wrk runs')),
  /no interval\): deno 1\.7× against 1\.39× \(bun left out: the answer does not quote its timed runs\)\./)
  // without capacity runs (wrk apart all along), no such finding
  const apart = http.summariseHttp(records.filter(record => record.phase !== http.CAPACITY_PHASE), context)
  assert.equal(apart.capacity, null)

  // the kernel pass in both placements: each capacity run's syscalls per request beside the
  // timed placement's, in the table and the finding, which names the servers a tenth apart
  const kernelRun = (server, apartToo, calls) => ({
    phase: http.KERNEL_PHASE,
    program: server,
    mode: 'keep-alive',
    connections: 16,
    ok: true,
    ...(apartToo ? { apart: true } : {}),
    kernel: {
      requests: 1000,
      syscalls: Object.entries(calls).map(([name, count]) => ({ name, calls: count, errors: 0, p50Ns: 100 }))
    }
  })
  const traced = http.summariseHttp([
    ...records,
    kernelRun('c-epoll', false, { read: 1000, sendto: 1000, epoll_wait: 1000 }),
    kernelRun('c-epoll', true, { read: 1000, sendto: 1000, epoll_wait: 50 }),
    kernelRun('bun', false, { read: 1000, sendto: 1000, epoll_wait: 900 }),
    kernelRun('bun', true, { read: 1000, sendto: 1000, epoll_wait: 850 })
  ], context)
  assert.deepEqual(traced.kernel.map(entry => [entry.server, entry.perRequest]), [['c-epoll', 3], ['bun', 2.9]],
    'the timed placement\'s alone')
  const byServer = Object.fromEntries(traced.capacity.filter(entry => entry.mode === 'keep-alive')
    .map(entry => [entry.server, entry.syscalls]))
  assert.deepEqual(byServer['c-epoll'], { perRequest: 2.05, work: 2, upkeep: 0.05 })
  assert.equal(byServer.bun.perRequest, 2.85)
  const tracedTable = require('../../experiments/http/report').terminal({ runId: 'a', http: traced })
  const capacityLine = tracedTable.slice(tracedTable.findIndex(line => line.startsWith('Capacity')))
  assert.match(capacityLine.join('\n'), /syscalls\/request: apart, timed/)
  assert.match(capacityLine.find(line => line.startsWith('c-epoll ')), /\b2 \+ 0\.05, 2 \+ 1$/)
  // a timed kernel run that failed reads "failed", not "?" (a review, 2026-12-07)
  const timedFailed = http.summariseHttp([
    ...records,
    { ...kernelRun('c-epoll', false, {}), ok: false, failure: 'kernel pass: the probes lost events', kernel: null },
    kernelRun('c-epoll', true, { read: 1000, sendto: 1000, epoll_wait: 50 })
  ], context)
  const failedTable = require('../../experiments/http/report').terminal({ runId: 'a', http: timedFailed })
  const failedLines = failedTable.slice(failedTable.findIndex(line => line.startsWith('Capacity')))
  assert.match(failedLines.find(line => line.startsWith('c-epoll ')), /\b2 \+ 0\.05, failed$/)
  // a run whose kernel pass ran in the timed placement only (before 2026-12-02) says so
  const timedOnly = http.summariseHttp([...records, kernelRun('c-epoll', false, { read: 1000 })], context)
  const timedOnlyTable = require('../../experiments/http/report').terminal({ runId: 'a', http: timedOnly })
  assert.ok(timedOnlyTable.some(line => line.startsWith('Capacity, keep-alive') &&
    line.includes('syscalls per request there not counted')), timedOnlyTable.join('\n'))
  assert.ok(!capacityLine.join('\n').includes('not counted'))
  const tracedText = findings([{ label: 'a', results: { experiment: 'http', http: traced } }])
    .map(finding => finding.text).find(line => line.startsWith('Where wrk runs'))
  assert.ok(tracedText.includes('Syscalls per request, the kernel pass\'s run in each placement (timed against ' +
    'wrk apart): c-epoll 3 against 2.05 and bun 2.9 against 2.85; more than a tenth apart for c-epoll: a ' +
    'request\'s calls follow the placement too.'), tracedText)
})

test('summariseHttp, interleaved: a process is classified by its ratio to the c-epoll beside it, ' +
  'its warm-up in turns too', () => {
  // a server that settles after its warm-up (2.4, 1.8 then 1.5× c-epoll's) on a machine whose
  // speed moves: both servers' own CPU per request swing by a third from run to run
  const speed = round => [1, 1.35, 0.9, 1.3, 1, 1.4][round]
  const turns = (round, warmupRatios = [2.4, 1.8, 1.5, 1.5]) => ({
    ...run('deno', 50000, { connections: 128, cpuNs: 0.3e9 * speed(round) }),
    round,
    run: round,
    runningNs: 0.55e9,
    warmupCpuUs: warmupRatios.map((_, i) => [12, 9, 7.5][i] ?? 7.5),
    warmupRatios,
    partner: {
      program: 'c-epoll',
      wrk: { requests: 55000 },
      server: { cpuNs: 0.2e9 * speed(round) },
      runningNs: 0.55e9
    }
  })
  const reference = [0, 1, 2, 3, 4, 5]
    .map(round => ({ ...run('c-epoll', 50000, { connections: 128, cpuNs: 0.2e9 }), round, run: round }))
  const context = { options: { http: http.PRESETS.default, modes: ['keep-alive'] }, httpPlacement: 'interleaved', httpRounds: true }
  const denoOf = records => http.summariseHttp([...reference, ...records], context).cells
    .find(cell => cell.server === 'deno')
  const { findings } = require('../../experiments/http/findings')
  const deno = denoOf([0, 1, 2, 3, 4, 5].map(round => turns(round)))
  const classOf = entry => [entry.kind, entry.sequence.length, entry.steadyRound, entry.basis]
  assert.deepEqual(deno.processClasses.map(classOf), [['warm-up', 10, 0, 'ratio']])
  assert.ok(deno.processClasses[0].sequence.slice(4).every(ratio => Math.abs(ratio - 1.5) < 1e-9))
  assert.equal(deno.unsteady, false)
  assert.ok(Math.abs(deno.cpuVsReference.estimate - 1.5) < 1e-9)
  // without its warm-up's ratios, by its own CPU per request, which moves with the machine
  const own = denoOf([0, 1, 2, 3, 4, 5].map(round => turns(round, [null, null, null, null])))
  assert.equal(own.processClasses[0].basis, 'own')
  // runs at several counts of connections each round (the grid before 2026-11-29) are not
  // one regime with the warm-up: by the server's own CPU per request
  const grid = [0, 1, 2, 3, 4, 5].flatMap(round => [turns(round), { ...turns(round), connections: 16 }])
  assert.equal(denoOf(grid).processClasses[0].basis, 'own')
  const ownCpuUs = [0, 1, 2, 3, 4, 5].map(round => 0.3e9 * speed(round) / 55000 / 1000)
  assert.ok(own.processClasses[0].sequence.slice(4).every((cpu, round) => Math.abs(cpu - ownCpuUs[round]) < 1e-9))
  // the findings say which sequences are ratios
  const summary = http.summariseHttp([...reference, ...[0, 1].map(round => turns(round, [1, 1, 1, 1, 1, 1]))], context)
  const text = findings([{ label: 'a', results: { experiment: 'http', http: summary } }])
    .map(finding => finding.text).find(line => line.startsWith('Of '))
  assert.match(text, /as a ratio to c-epoll's beside it where every one was taken in turns with it/)
  assert.match(text, /deno \(keep-alive\) process 1: 1, 1, 1, 1, 1, 1, 1\.5, 1\.5 × c-epoll's/)
})

test('a resumed http run from before --placement goes on with wrk apart, as it began', () => {
  const { storedProblem, resumedOptions } = benchOptions(require('../../experiments'))
  const { parseOptions } = require('../../bench')
  const { placement, ...older } = parseOptions(['--experiment', 'http', '--quick'])
  assert.equal(placement, 'interleaved')
  assert.equal(storedProblem(older), null)
  assert.equal(resumedOptions(older).placement, 'apart')
  assert.match(storedProblem({ ...older, placement: 'nowhere' }), /^has options\.placement "nowhere", not interleaved, shared or apart$/)
})

test('a resumed http run from before the latency pass goes on without it, as it began', () => {
  const { storedProblem, resumedOptions } = benchOptions(require('../../experiments'))
  const { parseOptions } = require('../../bench')
  const { latency, ...older } = parseOptions(['--experiment', 'http', '--quick'])
  assert.equal(latency, true)
  assert.equal(storedProblem(older), null)
  assert.equal(resumedOptions(older).latency, false)
})

test('--rates: the latency pass\'s rates in whole per cent of c-epoll\'s timed rate, re-run as given', () => {
  const { parseOptions, cellCommand } = require('../../bench')
  const byDefault = parseOptions(['--experiment', 'http']).http.latency.rateShares
  assert.deepEqual(byDefault, http.PRESETS.default.latency.rateShares)
  const options = parseOptions(['--experiment', 'http', '--rates', '20,5,20'])
  assert.deepEqual(options.http.latency.rateShares, [0.05, 0.2])
  // the preset's other latency settings stay
  assert.deepEqual(options.http.latency.connections, http.PRESETS.default.latency.connections)
  const passes = { latency: true, strace: false, kernel: false }
  const latencySteps = http.planHttp(http.servers.slice(0, 1), { ...options, ...passes }, { client: 0, server: 1 })
    .filter(step => step.phase === http.LATENCY_PHASE)
  assert.deepEqual([...new Set(latencySteps.map(step => step.rateShare))], [0.05, 0.2])
  assert.match(latencySteps[0].label, /, 5% of c-epoll's timed rate$/)
  // a failed latency cell is measured again at its own rate alone
  const failed = { phase: http.LATENCY_PHASE, program: 'bun', connections: 20, rateShare: 0.2 }
  assert.match(cellCommand(options, failed, []), / --rates 20( |$)/)
  assert.doesNotMatch(cellCommand(options, failed, []), /--rates 5/)
  // a timed cell keeps the run's rates; the preset's, and a run without the pass, none
  const timed = { phase: http.PHASE, program: 'bun', connections: 128 }
  assert.match(cellCommand(options, timed, []), / --rates 5,20( |$)/)
  assert.doesNotMatch(cellCommand(parseOptions(['--experiment', 'http']), timed, []), /--rates/)
  const skipped = parseOptions(['--experiment', 'http', '--no-latency'])
  assert.doesNotMatch(cellCommand(skipped, timed, []), /--rates/)
  // rates for a pass that is skipped are a contradiction, not ignored
  assert.throws(() => parseOptions(['--experiment', 'http', '--rates', '30', '--no-latency']),
    { message: '--rates sets the latency pass, which --no-latency skips: drop one of them' })
  for (const text of ['0', '1.5', '5,x']) {
    const message = `--rates must be a whole number of at least 1, not '${text.split(',').pop()}'`
    assert.throws(() => parseOptions(['--experiment', 'http', '--rates', text]), { message })
  }
  const tooMuch = '--rates 101 is more than c-epoll\'s rate in its timed runs; give per cents from 1 to 100'
  assert.throws(() => parseOptions(['--experiment', 'http', '--rates', '5,101']), { message: tooMuch })
})

test('interleaved plans put c-epoll beside every other server\'s timed run, and only there', () => {
  const [reference] = http.servers.filter(server => server.name === 'c-epoll')
  const other = http.servers.find(server => server.name !== 'c-epoll')
  const options = { http: { runs: 1, connections: [16], straceRequests: { small: 1, large: 2 } }, modes: ['keep-alive'], strace: true, placement: 'interleaved' }
  const steps = http.planHttp([reference, other], options, { client: 1, server: 1 })
  const timed = steps.filter(step => step.phase === http.PHASE)
  assert.deepEqual(timed.map(step => [step.server.name, step.partner?.name ?? null]), [['c-epoll', null], [other.name, 'c-epoll']])
  assert.ok(steps.filter(step => step.phase !== http.PHASE).every(step => !step.partner))
  assert.ok(http.planHttp([reference, other], { ...options, placement: 'shared' }, { client: 1, server: 1 }).every(step => !step.partner))
})

test('the plan: mode by mode, process by process, rounds of every server at every count, then the strace pass', () => {
  const [a, b] = http.servers
  const pin = { client: 0, server: 1 }
  const options = { http: { processes: 2, runs: 2, connections: [1, 16], straceRequests: { small: 10, large: 30 } }, modes: http.MODES, strace: true }
  const steps = http.planHttp([a, b], options, pin)
  const timed = steps.filter(step => step.phase === http.PHASE)
  const at = step => `${step.mode} p${step.process} r${step.round} ${step.connections} ${step.server.name}`
  // each round one run of every server at every count; the next round the other way
  assert.deepEqual(timed.slice(0, 8).map(at), [
    `keep-alive p0 r0 1 ${a.name}`, `keep-alive p0 r0 1 ${b.name}`, `keep-alive p0 r0 16 ${a.name}`, `keep-alive p0 r0 16 ${b.name}`,
    `keep-alive p0 r1 1 ${b.name}`, `keep-alive p0 r1 1 ${a.name}`, `keep-alive p0 r1 16 ${b.name}`, `keep-alive p0 r1 16 ${a.name}`
  ])
  // then the second set of processes, whose runs are numbered on
  assert.deepEqual(timed.slice(8, 9).map(step => [at(step), step.run]), [[`keep-alive p1 r0 1 ${a.name}`, 2]])
  assert.ok(timed.every(step => step.warmupConnections === 16 && step.peers.length === 2))
  // 2 modes × 2 processes × 2 rounds × 2 counts × 2 servers
  assert.equal(timed.length, 32)
  // a group a round: the log's progress shows each
  assert.equal(new Set(timed.map(step => step.group)).size, 2 * 2 * 2)
  const traced = steps.filter(step => step.phase === http.STRACE_PHASE).map(step => `${step.mode} ${step.server.name} ${step.requests}`)
  assert.deepEqual(traced, [`keep-alive ${a.name} 10`, `keep-alive ${a.name} 30`, `keep-alive ${b.name} 10`, `keep-alive ${b.name} 30`, `close ${a.name} 10`, `close ${a.name} 30`, `close ${b.name} 10`, `close ${b.name} 30`])
  assert.ok(steps.every(step => step.pin === pin))
  assert.equal(http.planHttp([a], { http: { runs: 1, connections: [1], straceRequests: { small: 1, large: 2 } }, modes: http.MODES, strace: false }, pin).some(step => step.phase === http.STRACE_PHASE), false)
  // three CPUs: the first is kept for the system (lib/placement.js)
  assert.deepEqual(http.apartPin('Cpus_allowed_list:\t2-3,6\n'), { client: 3, server: 6 })
  assert.deepEqual(http.apartPin('Cpus_allowed_list:\t2,6\n'), { client: 2, server: 6 })
  assert.deepEqual(http.apartPin('Cpus_allowed_list:\t5\n'), { client: 5, server: 5 })
})

test('a failed http cell is measured again by an http bench of its server at its connections', () => {
  const { parseOptions, cellCommand } = require('../../bench')
  const options = parseOptions(['--experiment', 'http', '--quick', '--runs', '3', '--connections', '1,64'])
  assert.equal(cellCommand(options, { phase: http.PHASE, program: 'bun', connections: 64 }, []), 'node bench.js --experiment http --quick --only bun --connections 64 --runs 3')
  // a timed run at the strace pass's count of connections is still a timed run
  assert.equal(cellCommand(options, { phase: http.PHASE, program: 'bun', connections: http.STRACE_CONNECTIONS }, []), `node bench.js --experiment http --quick --only bun --connections ${http.STRACE_CONNECTIONS} --runs 3`)
  assert.equal(cellCommand(options, { phase: http.STRACE_PHASE, program: 'c-epoll', connections: http.STRACE_CONNECTIONS }, []), 'node bench.js --experiment http --quick --connections 1,64 --runs 3')
})

test('two http runs compared: requests/s, CPU and syscalls per request apart, and the cells either lost', () => {
  const { findings } = require('../../experiments/http/findings')
  const cell = (server, rate, cpu, share) => ({ server, mode: 'keep-alive', connections: 16, requestsPerSecond: { median: rate }, cpuPerRequestUs: cpu, vsReference: share, clientBound: false, unannouncedClose: false })
  const set = (label, bun, work, upkeep) => ({
    label,
    results: {
      experiment: 'http',
      http: {
        reference: 'c-epoll',
        modes: ['keep-alive'],
        cells: [cell('c-epoll', 100, 10, null), bun],
        syscalls: [{ server: 'bun', mode: 'keep-alive', perRequest: work + upkeep, work, upkeep, byCall: [], workByRole: [] }],
        floors: {}
      }
    }
  })
  const first = set('a', cell('bun', 80, 12, { estimate: 0.8, low: 0.7, high: 0.9 }), 2, 0.1)
  // c-epoll 10% faster and 10% cheaper per request, bun 20% faster and 25% dearer (medians
  // 15% and 17.5%), its share inside a's interval and a's inside its
  const other = set('b', cell('bun', 96, 15, { estimate: 0.85, low: 0.78, high: 1 }), 2, 0.35)
  other.results.http.cells[0] = cell('c-epoll', 110, 9, null)
  const text = findings([first, other]).find(finding => finding.set === null).text
  assert.equal(text, 'b against a, cell by cell: requests/s differ by median 15%, at most 20%; ' +
    'CPU per request by median 17.5%, at most 25%; calls of work per request by at most 0, upkeep by at most 0.25.')
  // the largest move rounded up, not down past the goal (a review: 5.04% read "at most 5%")
  const near = set('b', cell('bun', 80, 12.605, { estimate: 0.8, low: 0.7, high: 0.9 }), 2, 0.1)
  assert.match(findings([first, near]).find(finding => finding.set === null).text,
    /; CPU per request by median 2\.52%, at most 5\.05%;/)
  // a cell that failed in one run, and one that only the other has, are named, not dropped
  other.results.http.cells[1] = { ...other.results.http.cells[1], requestsPerSecond: null }
  other.results.http.cells.push(cell('deno', 90, 11, null))
  const lost = findings([first, other]).find(finding => finding.set === null).text
  assert.match(lost, /; 2 of 3 cells failed or missing in one run or both \(bun keep-alive 16 conn\. and deno keep-alive 16 conn\.\)\.$/)
  assert.match(lost, /^b against a, cell by cell: requests\/s differ by median 10%, at most 10%/)
})

test('summariseHttp in rounds: ratios paired round by round, each process classified, runs before its steady state left out', () => {
  // a run of `cpuUs` µs of CPU per request: rate × 1.1 requests in the record
  const timed = (server, process, round, rate, cpuUs, warmupCpuUs) => ({
    ...run(server, rate, { cpuNs: cpuUs * rate * 1.1 * 1000 }),
    process,
    round,
    run: process * 3 + round,
    warmupCpuUs
  })
  const records = [
    // c-epoll: flat in both processes (its warm-up and runs at 10 µs)
    ...[100000, 110000, 120000].map((rate, round) => timed('c-epoll', 0, round, rate, 10, [10, 10])),
    ...[90000, 100000, 95000, 105000].map((rate, round) => timed('c-epoll', 1, round, rate, 10, [10, 10])),
    // bun at 0.9 of c-epoll's rate in every round; its second process ran its first round
    // still at 30 µs, then settled at 12 for three: a warm-up whose steady state starts at
    // round 1 (two runs at the new level would be a process still moving)
    ...[100000, 110000, 120000].map((rate, round) => timed('bun', 0, round, rate * 0.9, 12, [12, 12])),
    ...[90000, 100000, 95000, 105000]
      .map((rate, round) => timed('bun', 1, round, rate * 0.9, round === 0 ? 30 : 12, [30, 30])),
    // deno: level through its warm-up, then 20 µs in its last two runs: no steady state
    ...[100000, 100000].map((rate, round) => timed('deno', 0, round + 1, rate, 20, [10, 10, 10, 10, 10, 10, 10]))
  ]
  const summary = http.summariseHttp(records, { options: { http: http.PRESETS.default, modes: http.MODES }, httpRounds: true })
  const cell = name => summary.cells.find(entry => entry.server === name)
  const bun = cell('bun')
  assert.deepEqual(bun.processClasses.map(entry => [entry.kind, entry.steadyRound]), [['flat', 0], ['warm-up', 1]])
  // round 0 of process 1 is left out: 6 runs kept, every ratio 0.9 exactly
  assert.equal(bun.runs, 6)
  assert.equal(bun.beforeSteady, 1)
  close(bun.vsReference.estimate, 0.9, 'paired ratio')
  close(bun.vsReference.low, 0.9, 'low')
  close(bun.vsReference.high, 0.9, 'high')
  // 12 µs against 10 in every pair
  close(bun.cpuVsReference.estimate, 1.2, 'CPU against c-epoll')
  assert.equal(bun.steadiness.steady, true)
  // CPU per request is 12 in every kept run: no variance at either level
  assert.deepEqual([bun.variance.roundVariance, bun.variance.processVariance], [0, 0])
  // halves by process: 12 against 12
  assert.equal(bun.halves.cpu.movePercent, 0)
  // a process that failed leaves two halves: processes 0 and 2, by their order
  const gapped = http.summariseHttp([
    ...[0, 1, 2].map(round => timed('c-epoll', 0, round, 100000, 10, [10, 10])),
    ...[0, 1, 2].map(round => timed('c-epoll', 2, round, 100000, 11, [11, 11]))
  ], { options: { http: http.PRESETS.default, modes: http.MODES }, httpRounds: true })
  const halves = gapped.cells[0].halves.cpu
  assert.deepEqual(halves.runs, [3, 3])
  close(halves.movePercent, 10, 'process 0 against process 2')
  const deno = cell('deno')
  assert.equal(deno.processClasses[0].kind, 'no steady state')
  assert.equal(deno.unsteady, true)
  assert.equal(deno.steadiness.steady, false)
  assert.equal(cell('c-epoll').unsteady, false)
})

test('--connections: counts within wrk\'s range and the machine\'s open-file limit, or one line naming the fix', () => {
  const { connectionCounts, openFileLimit } = require('../../experiments/http/wrk')
  assert.deepEqual(connectionCounts('128,1,16,16', 20000), [1, 16, 128])
  // 1000 connections and 128 files besides: 1128 of 1100 allowed
  assert.throws(() => connectionCounts('1000', 1100), /--connections 1000 needs 1128 open files in wrk and in each server, and this machine allows 1100: raise it \(ulimit -n 2256, or docker run --ulimit nofile=2256\) or give fewer connections$/)
  assert.deepEqual(connectionCounts('1000', 1128), [1000])
  assert.throws(() => connectionCounts('2000', Infinity), /is more than 1024/)
  assert.equal(openFileLimit('Max cpu time              unlimited            unlimited            seconds\nMax open files            1024                 524288               files\n'), 1024)
  assert.equal(openFileLimit('Max open files            unlimited            unlimited            files\n'), Infinity)
})

test('loadFor: a run long enough for its connections to be answered, wrk waiting long enough for each', () => {
  const { loadFor } = require('../../experiments/http/wrk')
  // 1000 connections at 400 answers a second: 2.5 s a request; 3 of those a run, 2 for wrk
  assert.deepEqual(loadFor({ seconds: 1 }, 1000, 400), { seconds: 8, timeoutSeconds: 5 })
  // 128 connections at 100 000 a second: the preset's 1 s and wrk's 2 s
  assert.deepEqual(loadFor({ seconds: 1 }, 128, 100000), { seconds: 1, timeoutSeconds: 2 })
  // nothing answered: the longest
  assert.deepEqual(loadFor({ seconds: 1 }, 1000, 0), { seconds: 16, timeoutSeconds: 16 })
})

test('sharedLoad: servers taking turns run the longest of their loads; none warmed up, none', () => {
  const { sharedLoad } = require('../../experiments/http/wrk')
  const slow = { warmupRates: [300, 400] }
  const fast = { warmupRates: [100000] }
  assert.deepEqual(sharedLoad({ seconds: 1 }, 1000, [fast, slow]), { seconds: 8, timeoutSeconds: 5 })
  assert.deepEqual(sharedLoad({ seconds: 1 }, 128, [fast, null]), { seconds: 1, timeoutSeconds: 2 })
  assert.equal(sharedLoad({ seconds: 1 }, 128, [{ warmupRates: [] }, null]), null)
})

test('an unsteady cell is never quoted as one number: its range in the tables, left out of the finding', () => {
  const { findings } = require('../../experiments/http/findings')
  const { requestsText } = require('../../experiments/http/report')
  const cell = (server, median, unsteady) => ({
    server, mode: 'keep-alive', connections: 128, requestsPerSecond: { median, min: median * 0.8, max: median * 1.1 }, unsteady
  })
  const cells = [cell('c-epoll', 100000, false), cell('bun', 90000, false), cell('deno', 20000, true)]
  const texts = findings([{ label: 'a', results: { http: { modes: ['keep-alive'], reference: 'c-epoll', cells, floors: {}, syscalls: [] } } }])
    .map(finding => finding.text)
  assert.equal(texts[0], 'Keep-alive, 128 connections: c-epoll answers 100000 req/s (median of its own runs); ' +
    'the most of the others, bun, 90% of it.')
  assert.deepEqual([requestsText(cells[2]), requestsText(cells[1])], ['16000–22000', '90000'])
  // its CPU per request too, in both tables (a review, 2026-12-07: one number, the median)
  const { terminal, sections, shape } = require('../../experiments/http/report')
  const straceCounts = { perRequest: 2.1, work: 2, upkeep: 0.1 }
  const withCpu = cells.map(each =>
    ({ ...each, runs: 3, cpuPerRequestUs: 10, cpuPerRequestRangeUs: { min: 9, max: 12.5 } }))
  const http = {
    modes: ['keep-alive'],
    reference: 'c-epoll',
    cells: withCpu,
    floors: {},
    syscalls: [
      { server: 'bun', mode: 'keep-alive', connections: 16, ...straceCounts, byCall: [], workByRole: [] }
    ],
    preset: { connections: [128] },
    meaning: {}
  }
  const row = terminal({ runId: 'a', http }).filter(line => line.startsWith('deno ')).at(-1)
  assert.match(row, /^deno +16000–22000 u +9–12\.5 /)
  assert.match(terminal({ runId: 'a', http }).filter(line => line.startsWith('bun ')).at(-1), /^bun +90000 +10 /)
  const httpSection = sections.find(([id]) => id === 'http')[2]
  const page = String(httpSection(shape([{ label: 'a', results: { runId: 'a', http } }])))
  assert.match(page, /16000–22000<br><span class="interval">9–12\.5 µs CPU<\/span>/)
  // the syscalls column says whose counts it holds: strace's, at its own connections (a review)
  assert.match(page, /syscalls\/req \(strace @16\): work \+ upkeep/)
  assert.ok(terminal({ runId: 'a', http })
    .some(line => /^server .*syscalls\/req \(strace @16\), work \+ upkeep/.test(line)))
  // in turns, a share is of the c-epoll beside each run, not of c-epoll's own row (a review)
  const titled = placement => terminal({ runId: 'a', http: { ...http, placement } }).join('\n')
  assert.match(titled('interleaved'), /median requests\/s \(share of the c-epoll beside it, run by run;/)
  assert.match(titled('apart'), /median requests\/s \(share of c-epoll's;/)
  // taken in turns: ordered and quoted by the ratio to the c-epoll beside each, run by run,
  // where the medians of the two cells would order them the other way
  const paired = [cell('c-epoll', 100000, false), { ...cell('nginx', 69935, false), vsReference: { estimate: 0.927 } },
    { ...cell('deno', 69878, false), vsReference: { estimate: 0.934 } }]
  const inTurns = { modes: ['keep-alive'], reference: 'c-epoll', cells: paired, floors: {}, syscalls: [] }
  const turns = findings([{ label: 'a', results: { http: inTurns } }])
  assert.equal(turns[0].text, 'Keep-alive, 128 connections: c-epoll answers 100000 req/s ' +
    '(median of its own runs); the most of the others, deno, 93% of the c-epoll beside it, run by run, ' +
    'the fewest, nginx, 93%.')
})

test('a warm-up settles on the figure the cell quotes, not on wrk\'s rate', () => {
  // node-http, keep-alive, in turns, on a noisy VM (2026-12-01): the rates agreed within
  // 4% while the server's CPU per request fell 13% and its ratio to c-epoll's 22%
  const stillWarming = {
    rates: [15323, 18294, 19096],
    cpuUs: [56.74, 46.07, 40.2],
    ratios: [6.049, 4.941, 3.856]
  }
  assert.deepEqual(http.warmupSettled(stillWarming), { settled: false, basis: 'ratio' })
  // bun, keep-alive: its ratio held (1.386, 1.412) while the host moved the rate by 12%
  assert.deepEqual(http.warmupSettled({ rates: [40100, 35200], cpuUs: [25.1, 27.9], ratios: [1.386, 1.412] }),
    { settled: true, basis: 'ratio' })
  // not in turns: the server's CPU per request
  assert.deepEqual(http.warmupSettled({ rates: [47300, 42700], cpuUs: [9.7, 9.5] }), { settled: true, basis: 'cpu' })
  assert.deepEqual(http.warmupSettled({ rates: [47300, 47400], cpuUs: [9.7, 10.78] }), { settled: false, basis: 'cpu' })
  // a turn whose partner answered nothing has no ratio: its CPU per request decides
  assert.deepEqual(http.warmupSettled({ rates: [100, 300], cpuUs: [20, 20.5], ratios: [1.5, null] }),
    { settled: true, basis: 'cpu' })
  // neither known: the rate, as before
  assert.deepEqual(http.warmupSettled({ rates: [1000, 1020], cpuUs: [null, null] }), { settled: true, basis: 'rate' })
  // fewer runs than the preset's least, or than two, never settle
  assert.equal(http.warmupSettled({ rates: [1000], cpuUs: [9] }).settled, false)
  assert.equal(http.warmupSettled({ rates: [1000, 1000], cpuUs: [9, 9] }, 3).settled, false)
})

test('a warm-up settles only once V8 has done its optimizing compiles, where it counts them', () => {
  // node-http, Connection: close (2026-12-01): its CPU per request agreed within 3% while the
  // run finished more optimizing compiles than the two before it; its next runs cost less
  const figures = { rates: [7100, 8700, 8400], cpuUs: [123.1, 96.6, 99.2] }
  assert.deepEqual(http.warmupSettled({ ...figures, compiles: [16, 20, 50] }),
    { settled: false, basis: 'cpu' })
  // the compiles alone never settle it: the figure must agree too
  assert.equal(http.warmupSettled({ rates: [1, 1], cpuUs: [120, 99], compiles: [40, 0] }).settled, false)
  // a JIT that never compiled in its runs, and a server whose compiles are not counted
  assert.equal(http.warmupSettled({ ...figures, compiles: [0, 0, 0] }).settled, true)
  assert.equal(http.warmupSettled({ ...figures, compiles: [] }).settled, true)
  assert.equal(http.warmupSettled({ ...figures, compiles: [16, 20, null] }).settled, true)
})

test('V8 is done compiling after two quiet runs: each at most 2% of the compiles so far, or 2', () => {
  // node-net, Connection: close, in h5 (2026-12-01): two quiet runs at 3.2% and 2.5%, then a
  // second wave of 27 in its fifth run
  assert.equal(http.compilerSettled([118, 31, 5, 4]), false)
  assert.equal(http.compilerSettled([118, 31, 5, 4, 27, 5]), false)
  // 0 and 0 after it: done
  assert.equal(http.compilerSettled([118, 31, 5, 4, 27, 5, 0, 0]), true)
  // one quiet run is not enough, however quiet
  assert.equal(http.compilerSettled([215, 32, 0]), false)
  assert.equal(http.compilerSettled([215, 32, 0, 5]), true)
  assert.equal(http.compilerSettled([215, 32, 0, 6]), false)
  // a JIT that compiles little (Deno's server: 22, 1, 0): 2 compiles a run are quiet
  assert.equal(http.compilerSettled([22, 1]), false)
  assert.equal(http.compilerSettled([22, 1, 0]), true)
  assert.equal(http.compilerSettled([3, 2, 2]), true)
  // nothing counted: nothing to wait for
  assert.equal(http.compilerSettled([]), true)
})

test('a timed run is marked compiling where V8 finished more than a settled JIT, its process so far', () => {
  // node-pg, prepared and pipelined, /db, in d8 (2026-12-01): its warm-up ran out its 8 runs
  // (25 compiles in the last) on 356 compiles; its timed runs then finished 8, 8, 1 and 1
  const traced = warmupCompiles => ({ trace: { compiles: () => 0 }, warmupCompiles })
  const server = traced([204, 69, 3, 40, 7, 5, 3, 25])
  const records = [8, 8, 1, 1].map(count => http.compilesRecord(server, count))
  assert.deepEqual(records.map(record => record.compiling), [true, true, false, false])
  assert.deepEqual(records[0], { warmupCompiles: server.warmupCompiles, compiles: 8, compiling: true })
  // 2% of 364 is 7.3: 7 in the first run would have been quiet
  assert.equal(http.compilesRecord(traced(server.warmupCompiles), 7).compiling, false)
  // the timed runs' compiles count in what comes after: 50 after 300 is a wave, and 7 after
  // 350 quiet (2% of 357 is 7.1), where against the warm-up's 300 alone it would not be
  const waved = traced([300])
  assert.deepEqual([50, 7].map(count => http.compilesRecord(waved, count).compiling), [true, false])
  // a JIT that compiles little: 2 a run are quiet however few came before
  assert.equal(http.compilesRecord(traced([22, 1, 0]), 2).compiling, false)
  // a process whose compiles are not traced (C, Bun) records nothing of them
  assert.deepEqual(http.compilesRecord({ trace: null }, null), {})
})

test('an unsteady cell\'s mark says why: no steady state, a one-way move, or a warm-up that never settled', () => {
  const { marksHtml } = require('../../experiments/http/cell-marks')
  const counts = kind => ({ flat: 0, 'warm-up': 0, slowdown: 0, 'no steady state': 0, ...kind })
  const cell = steadiness => ({ server: 'bun', mode: 'close', runs: 4, flags: [], unsteady: true, steadiness })
  const titleOf = steadiness => marksHtml(cell(steadiness)).join('').match(/title="([^"]*)"/)[1]
  assert.match(titleOf({ steady: false, classified: 2, moving: 0, counts: counts({ 'no steady state': 1 }) }),
    /^a server process reached no steady state over its warm-up and runs: not quoted as one number$/)
  assert.match(titleOf({ steady: false, classified: 1, moving: 1, counts: counts({ flat: 1 }) }),
    /^a server process moved one way in runs too few to classify over its warm-up and runs/)
  // no process long enough to classify, and a warm-up that never settled (lib/steady.js unsteadyCell)
  assert.match(titleOf({ steady: null, classified: 0, moving: 0, counts: counts({}) }),
    /^no server process had the runs to be classified, and a warm-up never had two runs agree: not quoted/)
  // and the finding that says to measure it again names that cell alone
  const { findings } = require('../../experiments/http/findings')
  const http = cells => ({ reference: 'c-epoll', modes: ['close'], cells, syscalls: [], floors: {} })
  const texts = summary => findings([{ label: 'a', results: { experiment: 'http', http: summary } }])
    .map(finding => finding.text).filter(text => text.includes('never had two warm-up runs'))
  const unsettled = { ...cell({ steady: null, classified: 0, moving: 0, counts: counts({}) }), connections: 128 }
  const noSteadyState = {
    ...unsettled,
    server: 'deno',
    steadiness: { steady: false, classified: 1, moving: 0, counts: counts({ 'no steady state': 1 }) }
  }
  assert.deepEqual(texts(http([unsettled, noSteadyState])), [
    'The warm-up of bun (close) never had two warm-up runs in a row agree within 5%, so its cell may still ' +
    'hold warm-up, or a server whose figure drifts: measure it again before quoting.'])
})

test('a cell whose V8 processes collected the old generation in some and not others is marked so', () => {
  const { marksHtml, marksLetters, MARKS_LEGEND } = require('../../experiments/http/cell-marks')
  const { oldCollections } = require('../../lib/gctrace')
  const gc = byKind => ({ how: 'V8 --trace-gc', byKind })
  const young = gc({ Scavenge: { count: 5 } })
  const old = gc({ Scavenge: { count: 4 }, 'Incremental Mark-Compact': { count: 1 } })
  // V8's minor collections and JavaScriptCore's Eden ones are young; a full one is old
  const minor = gc({ 'Minor Mark-Sweep': { count: 3 } })
  const jsc = gc({ 'Full collection': { count: 2 }, 'Eden collection': { count: 9 } })
  assert.deepEqual([young, old, minor, jsc].map(oldCollections), [0, 1, 0, 2])
  // no trace (C, Bun's timed processes): nothing to say
  assert.deepEqual([null, { how: null, reason: 'no collector' }].map(oldCollections), [null, null])
  const run = (process, cpuNs, gcOfRun) => ({ process, server: { cpuNs }, wrk: { requests: 1000 }, gc: gcOfRun })
  // process 0 collected the old generation in one of its runs, at 23 µs a request; process 1 never, at 19
  const mixed = [run(0, 23000000, young), run(0, 23000000, old), run(1, 19000000, young), run(1, 19000000, young)]
  // runs alone: no ratio to the reference's for either state
  assert.deepEqual(http.gcStatesOf(mixed),
    { processes: 2, oldGeneration: 1, cpuOldUs: 23, cpuYoungUs: 19, ratioOld: null, ratioYoung: null })
  // in turns with c-epoll's pair at 10 µs a request: each state's ratio too
  const partner = { program: 'c-epoll', server: { cpuNs: 10000000 }, wrk: { requests: 1000 } }
  const inTurns = mixed.map(each => ({ ...each, partner }))
  assert.deepEqual(http.gcStatesOf(inTurns),
    { processes: 2, oldGeneration: 1, cpuOldUs: 23, cpuYoungUs: 19, ratioOld: 2.3, ratioYoung: 1.9 })
  assert.deepEqual(http.gcStatesOf(mixed.map(each => ({ ...each, gc: null }))), null)
  // a process any of whose runs went untraced is left out of the count
  assert.deepEqual(http.gcStatesOf([...mixed.slice(0, 2), run(1, 19000000, null), run(1, 19000000, young)]),
    { processes: 1, oldGeneration: 1, cpuOldUs: 23, cpuYoungUs: null, ratioOld: null, ratioYoung: null })
  const cell = { server: 'node-http', mode: 'close', runs: 4, flags: [], gcStates: http.gcStatesOf(mixed) }
  assert.equal(marksLetters(cell), ' g')
  assert.match(MARKS_LEGEND, new RegExp('g: GC states differ, some of its V8 processes collected the old ' +
    'generation in its runs and some did not'))
  assert.match(marksHtml(cell).join(''), new RegExp('title="1 of its 2 processes collected V8&#39;s old generation ' +
    'in the runs it kept \\(23 µs of CPU a request\\), the others only the young one \\(19 µs\\)'))
  // every process in one state, either: no mark
  for (const oldGeneration of [0, 2]) {
    assert.equal(marksLetters({ ...cell, gcStates: { ...cell.gcStates, oldGeneration } }), '')
  }
  // and the finding names the cell with both figures
  const { findings } = require('../../experiments/http/findings')
  const texts = http => findings([{ label: 'a', results: { experiment: 'http', http } }]).map(finding => finding.text)
  const summary = {
    reference: 'c-epoll', modes: ['close'], cells: [{ ...cell, connections: 128 }], syscalls: [], floors: {}
  }
  assert.ok(texts(summary).includes('V8 collected its old generation under load in some processes of a cell and ' +
    'not in others (g in the tables): node-http (close @128): 1 of 2 processes, 23 µs of CPU a request against 19. ' +
    'Which state a process falls into is V8\'s choice (its allocation-site pretenuring, docs/http.md, 2026-12-03), ' +
    'so the cell\'s figure moves with how many of its processes fell into each: read the two figures, ' +
    'not their median.'))
  const settled = { ...summary, cells: [{ ...summary.cells[0], gcStates: { ...cell.gcStates, oldGeneration: 2 } }] }
  assert.ok(!texts(settled).some(text => text.includes('old generation')))
  // the answer quotes neither state's figure as the cell's: it names both
  const { gcStatesReason } = require('../../experiments/http/cell-marks')
  assert.equal(gcStatesReason(cell), 'its processes fell into two GC states: 23 µs in the 1 of 2 where V8 ' +
    'collected its old generation, 19 µs in the others')
  assert.equal(gcStatesReason({ ...cell, gcStates: http.gcStatesOf(inTurns) }), 'its processes fell into two GC ' +
    'states: 2.3× in the 1 of 2 where V8 collected its old generation, 1.9× in the others')
  assert.equal(gcStatesReason(settled.cells[0]), null)
  // two states within the goal of each other (5%): their median is quoted, marked
  const near = { ...cell, gcStates: { ...http.gcStatesOf(inTurns), ratioOld: 1.99, ratioYoung: 1.9 } }
  assert.deepEqual([gcStatesReason(near), marksLetters(near)], [null, ' g'])
})

test('a cell\'s processes each at their own level, with their page faults; a finding where they part', () => {
  const run = (process, cpuNs, minorFaults) => ({
    process,
    server: { cpuNs, minorFaults },
    wrk: { requests: 1000 },
    partner: { program: 'c-epoll', server: { cpuNs: 1e7 }, wrk: { requests: 1000 } }
  })
  // Deno with Connection: close, as docs/http.md measured it: a process that never faulted
  // at 14 µs a request, one at 1.8 faults a request at 16
  const kept = [run(0, 1.4e7, 0), run(0, 1.4e7, 0), run(1, 1.7e7, 1800), run(1, 1.5e7, 1800)]
  assert.deepEqual(http.processLevelsOf(kept), [
    { process: 0, runs: 2, cpuUs: 14, ratio: 1.4, faultsPerRequest: 0 },
    { process: 1, runs: 2, cpuUs: 16, ratio: 1.6, faultsPerRequest: 1.8 }
  ])
  // runs from before faults were counted: no count, the levels still
  const uncounted = kept.map(each => ({ ...each, server: { cpuNs: each.server.cpuNs } }))
  assert.deepEqual(http.processLevelsOf(uncounted).map(level => level.faultsPerRequest), [null, null])
  const { findings } = require('../../experiments/http/findings')
  const texts = cells => findings([{
    label: 'a',
    results: { experiment: 'http', http: { reference: 'c-epoll', modes: ['close'], cells, syscalls: [], floors: {} } }
  }]).map(finding => finding.text)
  const cell = levels => ({ server: 'deno', mode: 'close', connections: 128, runs: 4, flags: [], processLevels: levels })
  const faultFinding = text => text.startsWith('Server processes of one cell settled at different costs')
  const [line] = texts([cell(http.processLevelsOf(kept))]).filter(faultFinding)
  assert.equal(line, 'Server processes of one cell settled at different costs, and the costlier took more minor page ' +
    'faults a request (memory the kernel maps afresh): deno (close @128): 1.4× at 0 faults a request against 1.6× ' +
    'at 1.8 faults a request. Deno\'s with Connection: close did so because glibc\'s malloc gave its heap\'s top back ' +
    'to the kernel and took it again, more often in some processes than others (docs/http.md, 2026-12-03). The ' +
    'cell\'s figure is the median of such levels.')
  // costs within the goal (5%); faults under half a fault a request apart (0.1 against 0.5),
  // or under a quarter apart (4 against 4.9); the costlier faulting less; no count: nothing said
  const level = (ratio, faultsPerRequest) => ({ process: 0, runs: 2, cpuUs: ratio * 10, ratio, faultsPerRequest })
  for (const levels of [[level(1.5, 0), level(1.55, 2)], [level(1.4, 0.1), level(1.6, 0.5)],
    [level(1.4, 4), level(1.6, 4.9)], [level(1.4, 2), level(1.6, 0)], [level(1.4, null), level(1.6, 2)]]) {
    assert.equal(texts([cell(levels)]).filter(faultFinding).length, 0, JSON.stringify(levels))
  }
  // a process with no ratio against C (its partner's run failed): the cell in µs alone, and
  // another server's cell says nothing of Deno
  const [mixed] = texts([{ ...cell([{ ...level(1.4, 0), ratio: null }, level(1.6, 2)]), server: 'bun' }])
    .filter(faultFinding)
  assert.match(mixed, /: bun \(close @128\): 14 µs at 0 faults a request against 16 µs at 2 faults a request\. The cell/)
  assert.doesNotMatch(mixed, /Deno|×/)
})

test('a cell is flagged compiling where a run it kept was, and says so in every table and its finding', () => {
  const { marksHtml, marksLetters, MARKS_LEGEND } = require('../../experiments/http/cell-marks')
  const { compilingFinding } = require('../../experiments/http/findings')
  const runs = [{ compiling: true }, { compiling: false }, { compiling: false, foreign: { disturbed: true } }]
  assert.deepEqual(http.cellFlags(runs), { flags: ['disturbed', 'compiling'], compilingRuns: 1 })
  assert.deepEqual(http.cellFlags([{ compiling: false }]), { flags: [], compilingRuns: 0 })
  // no V8, or runs from before the compiles were counted
  assert.deepEqual(http.cellFlags([{}, {}]), { flags: [], compilingRuns: null })
  const cell = { server: 'node-pg', endpoint: 'db', runs: 3, clientBound: false, ...http.cellFlags(runs) }
  assert.equal(marksLetters(cell), ' d j')
  assert.match(MARKS_LEGEND, /j: V8 compiling, a kept run was timed while V8 still finished optimizing compiles/)
  const badges = marksHtml(cell).join('')
  assert.match(badges, /title="1 of the 3 runs it kept was timed while V8 finished more optimizing compiles/)
  assert.match(badges, />V8 compiling<\/span>/)
  const quiet = { server: 'deno', endpoint: 'db', runs: 4, flags: [], compilingRuns: 0 }
  const untraced = { server: 'c-libpq', endpoint: 'db', runs: 4, flags: [], compilingRuns: null }
  const queries = { ...cell, endpoint: 'queries', compilingRuns: 3 }
  assert.equal(compilingFinding([cell, quiet, untraced, queries], each => `/${each.endpoint}`),
    'V8 was still compiling in 2 of the 3 cells whose compiles were counted (j in the tables): a run ' +
    'they kept finished more optimizing compiles than a settled JIT does (over 2% of its process\'s ' +
    'optimizing compiles so far and over 2): node-pg /db 1 of 3 runs, /queries 3 of 3 runs. Their ' +
    'figures hold the compiler\'s work, whose cost docs/http.md found within the runs\' noise in the runs ' +
    'it measured (2026-12-01), not in this one.')
  assert.equal(compilingFinding([quiet, untraced], each => each.server), null)
})

// A stop asked for while a step's servers warm up ends the step there: no timed wrk run is
// started only to be thrown away (the bench, stopping, logs the step not).
test('a stop during the warm-up ends the step before its timed run', async () => {
  let started = 0
  const session = {
    serverFor: async () => { started++; return { started: null } },
    stopping: () => true,
    timedRates: http.timedRatesStore()
  }
  const step = { phase: http.PHASE, server: { name: 'c-epoll' }, mode: 'keep-alive', connections: 128, run: 0 }
  const { record, stopped } = await http.measureStep(step, { http: http.PRESETS.default }, session, '/nonexistent')
  assert.deepEqual([stopped, record.ok, started], [true, false, 1])
})
