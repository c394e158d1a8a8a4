'use strict'
// The http experiment's findings (bench.js --experiment http), each from its cells and
// strace pass: requests/s against the C epoll server, CPU per request, syscalls per
// request over the C floor and on which calls, and the cells wrk itself limited.
const { optimalRounds, pooled } = require('../../lib/variance')
const { GOAL } = require('../../lib/repeatability')
const { steadinessFindings } = require('../../lib/report/steady')
const { unsteadyCellReason, WARMUP_UNSETTLED } = require('../../lib/steady')
const { formatNumber, formatBound, formatPercent, listJoin } = require('../../lib/report/format')
const { median } = require('../../lib/stats')
const { REFERENCE, CONNECT_EACH } = require('./servers')
const { COMPILING_RULE } = require('./measure')
const { splitByGc, answerUnquotedReason, connectsEach } = require('./cell-marks')
const { kernelEntryOf } = require('./summary')
const { faultsDiffer, formatFaults } = require('./repeatability')
const { capacitySource } = require('./report-latency')

// The cell the first finding quotes: keep-alive at the count nearest HTTP_HEADLINE_CONNECTIONS.
const HTTP_HEADLINE_CONNECTIONS = 16

function headlineConnections (counts) {
  return counts.length ? counts.reduce((a, b) => (Math.abs(b - HTTP_HEADLINE_CONNECTIONS) < Math.abs(a - HTTP_HEADLINE_CONNECTIONS) ? b : a)) : null
}

const countsOf = (http, mode) => [...new Set(http.cells.filter(cell => cell.mode === mode).map(cell => cell.connections))].sort((a, b) => a - b)

const rateText = value => `${formatNumber(Math.round(value))} req/s`

// The cells timed while V8 still compiled (summary.js's cellFlags: 'compiling'), among those
// whose compiles were counted, http's and db's alike, by server; `whereOf` names a cell of one
// server ('/db', 'close @128').
function compilingFinding (cells, whereOf) {
  const counted = cells.filter(cell => cell.compilingRuns !== null && cell.compilingRuns !== undefined)
  const compiling = counted.filter(cell => cell.flags?.includes('compiling'))
  if (compiling.length === 0) return null
  const named = [...new Set(compiling.map(cell => cell.server))].map(server => `${server} ` +
    compiling.filter(cell => cell.server === server)
      .map(cell => `${whereOf(cell)} ${cell.compilingRuns} of ${cell.runs} runs`).join(', '))
  return `V8 was still compiling in ${compiling.length} of the ${counted.length} cells whose compiles were ` +
    'counted (j in the tables): a run they kept finished more optimizing compiles than a settled JIT ' +
    `does (${COMPILING_RULE}): ${named.join('; ')}. Their figures hold the compiler's work, whose ` +
    'cost docs/http.md found within the runs\' noise in the runs it measured (2026-12-01), not in this one.'
}

const HTTP_FINDINGS = [
  // requests/s, where the ratios are in the tables: the reference's, and the most and the
  // fewest of the others
  function requestRates (http) {
    const lines = []
    for (const mode of http.modes) {
      const count = headlineConnections(countsOf(http, mode))
      // an unsteady cell has no one number to quote (its table gives its range)
      const cells = http.cells.filter(cell => cell.mode === mode && cell.connections === count &&
        cell.requestsPerSecond && !cell.unsteady)
      const reference = cells.find(cell => cell.server === http.reference)
      if (!reference || cells.length < 2) continue
      const rate = cell => cell.requestsPerSecond.median
      // each server's rate against the reference's: run by run against the reference beside it
      // where the cell has that ratio (vsReference), which then orders them too, else the
      // ratio of the two cells' medians
      const against = cell => cell.vsReference?.estimate ?? rate(cell) / rate(reference)
      const others = cells.filter(cell => cell !== reference).sort((a, b) => against(b) - against(a))
      const share = cell => formatPercent(against(cell))
      // a keep-alive figure of a server that opened a connection a request says so (§ in the tables)
      const named = cell => `${cell.server}${connectsEach(cell) ? ` (${CONNECT_EACH.word})` : ''}`
      const [most, fewest] = [others[0], others.at(-1)]
      const where = `${mode === 'close' ? 'Connection: close' : 'Keep-alive'}, ${count} connection${count === 1 ? '' : 's'}`
      const least = others.length > 1 ? `, the fewest, ${named(fewest)}, ${share(fewest)}` : ''
      const answers = `${http.reference} answers ${rateText(rate(reference))} (median of its own runs)`
      const paired = others.every(cell => cell.vsReference?.estimate !== undefined)
      const of = paired ? `of the ${http.reference} beside it, run by run` : 'of it'
      lines.push(`${where}: ${answers}; the most of the others, ${named(most)}, ${share(most)} ${of}${least}.`)
    }
    return lines.length ? lines.join(' ') : null
  },
  // over the floor by job (experiments/http/summary.js's CALL_ROLES), so that sendto against write or
  // accept against accept4 is no call more; upkeep (waits, failed tries, memory calls)
  // follows timing, and is said apart
  function syscallsOverFloor (http) {
    const lines = []
    for (const mode of http.modes) {
      const floor = http.floors[mode]
      const entries = http.syscalls.filter(entry => entry.mode === mode && entry.perRequest !== null)
      const base = entries.find(entry => entry.server === floor?.server)
      if (!base) continue
      const baseWork = Object.fromEntries(base.workByRole.map(role => [role.role, role.work]))
      const extra = entries.filter(entry => entry !== base && entry.work - base.work >= 0.5).sort((a, b) => b.work - a.work).map(entry => {
        const beyond = entry.workByRole.map(role => [role.calls.join('/'), role.work - (baseWork[role.role] ?? 0)]).filter(([, more]) => more >= 0.5).sort((a, b) => b[1] - a[1])
        return `${entry.server} ${formatNumber(entry.work)}${beyond.length ? ` (${beyond.map(([name, more]) => `${name} +${formatNumber(more)}`).join(', ')})` : ''}`
      })
      const same = entries.filter(entry => entry !== base && Math.abs(entry.work - base.work) < 0.5).map(entry => entry.server)
      const fewer = entries.filter(entry => entry.work <= base.work - 0.5).map(entry => `${entry.server} ${formatNumber(entry.work)}`)
      const upkeep = entries.filter(entry => entry.upkeep >= 0.05).sort((a, b) => b.upkeep - a.upkeep).map(entry => `${entry.server} ${formatNumber(entry.upkeep)}`)
      lines.push(`${mode === 'close' ? 'Connection: close' : 'Keep-alive'}: ${base.server} makes ${formatNumber(base.work)} calls of work per request (${base.workByRole.map(role => `${role.calls.join('/')} ${formatNumber(role.work)}`).join(', ')}), the C floor` +
        (same.length ? `; ${listJoin(same)} the same within half a call` : '') +
        (extra.length ? `; more: ${listJoin(extra)}` : '') + (fewer.length ? `; fewer: ${listJoin(fewer)}` : '') +
        (upkeep.length ? `; upkeep (waits, failed tries, memory calls) adds ${listJoin(upkeep)}` : '') + '.')
    }
    return lines.length ? lines.join(' ') : null
  },
  function clientBound (http) {
    const bound = http.cells.filter(cell => cell.clientBound)
    if (bound.length === 0) return null
    // at one connection client and server take turns, so neither is ever busy
    const turns = bound.filter(cell => cell.connections === 1)
    const rest = bound.filter(cell => cell.connections !== 1)
    const servers = [...new Set(rest.map(cell => cell.server))].map(server => {
      const cells = rest.filter(cell => cell.server === server)
      return `${server} (${cells.map(cell => `${cell.mode === 'close' ? 'close' : 'keep-alive'} @${cell.connections} ${formatPercent(cell.serverCpuShare)}`).join(', ')})`
    })
    return `In ${bound.length} of ${http.cells.length} cells the server used less than 90% of its CPU over the run, so wrk's one thread was the limit and requests/s understates the server; CPU per request still compares them.` +
      (turns.length ? ` ${turns.length} are at 1 connection, where wrk and the server take turns.` : '') +
      (servers.length ? ` With more connections: ${listJoin(servers)}.` : '')
  },
  function unsteady (http) {
    // cells none of whose processes could be classified, each too short or from runs before
    // processes were, one of whose warm-ups never settled (lib/steady.js unsteadyCell)
    const cells = http.cells.filter(cell => unsteadyCellReason(cell) === WARMUP_UNSETTLED)
    if (cells.length === 0) return null
    const servers = [...new Set(cells.map(cell => `${cell.server} (${cell.mode})`))]
    const which = cells.length === 1 ? 'its cell' : `their ${cells.length} cells`
    return `The warm-up of ${listJoin(servers)} never had two warm-up runs in a row agree within 5%, ` +
      `so ${which} may still hold warm-up, or a server whose figure drifts: ` +
      `measure ${servers.length === 1 ? 'it' : 'them'} again before quoting.`
  },
  http => compilingFinding(http.cells,
    cell => `${cell.mode === 'close' ? 'close' : 'keep-alive'} @${cell.connections}`),
  // the cells whose V8 processes fell into two GC states (summary.js gcStatesOf): their figure
  // mixes the states, and how many processes fell into each decides where it lands
  function gcStates (http) {
    const mixed = http.cells.filter(splitByGc)
    if (mixed.length === 0) return null
    const named = mixed.map(({ server, mode, connections, gcStates: states }) =>
      `${server} (${mode} @${connections}): ${states.oldGeneration} of ${states.processes} processes, ` +
      `${formatNumber(states.cpuOldUs)} µs of CPU a request against ${formatNumber(states.cpuYoungUs)}`)
    return 'V8 collected its old generation under load in some processes of a cell and not in others ' +
      `(g in the tables): ${named.join('; ')}. Which state a process falls into is V8's choice (its ` +
      'allocation-site pretenuring, docs/http.md, 2026-12-03), so the cell\'s figure moves with how many ' +
      'of its processes fell into each: read the two figures, not their median.'
  },
  // the cells whose processes settled at levels apart and took other counts of page faults
  // a request, the costlier more (summary.js processLevelsOf)
  function faultLevels (http) {
    // one unit a cell: the ratio against C where every process has one, else its µs
    const byCost = cell => {
      const levels = (cell.processLevels ?? [])
        .filter(level => level.cpuUs !== null && level.faultsPerRequest !== null)
      const useRatio = levels.length > 0 && levels.every(level => level.ratio !== null)
      const cost = level => useRatio ? level.ratio : level.cpuUs
      return { cost, unit: useRatio ? '×' : ' µs', levels: levels.sort((a, b) => cost(a) - cost(b)) }
    }
    const apart = http.cells.map(cell => ({ cell, ...byCost(cell) })).filter(({ cost, levels }) => {
      if (levels.length < 2) return false
      const [cheap, dear] = [levels[0], levels.at(-1)]
      return cost(dear) > cost(cheap) * (1 + GOAL.percent / 100) && dear.faultsPerRequest > cheap.faultsPerRequest &&
        faultsDiffer(cheap.faultsPerRequest, dear.faultsPerRequest)
    })
    if (apart.length === 0) return null
    const named = apart.map(({ cell, cost, unit, levels }) => {
      const level = entry => `${formatNumber(cost(entry))}${unit} at ${formatFaults(entry.faultsPerRequest)} ` +
        'faults a request'
      return `${cell.server} (${cell.mode} @${cell.connections}): ${level(levels[0])} against ${level(levels.at(-1))}`
    })
    // why, where the lab knows it
    const denoClose = apart.some(({ cell }) => cell.server.startsWith('deno') && cell.mode === 'close')
    const why = denoClose
      ? ' Deno\'s with Connection: close did so because glibc\'s malloc gave its heap\'s top back to the kernel ' +
        'and took it again, more often in some processes than others (docs/http.md, 2026-12-03).'
      : ''
    return 'Server processes of one cell settled at different costs, and the costlier took more minor page ' +
      `faults a request (memory the kernel maps afresh): ${named.join('; ')}.${why} The cell's figure is the ` +
      'median of such levels.'
  },
  function steadiness (http) {
    const whereOf = cell => `${cell.server} (${cell.mode})`
    const lines = steadinessFindings(http.cells, whereOf, { reference: `${REFERENCE}'s` })
    return lines.length ? lines.join(' ') : null
  },
  function variance (http) {
    const levels = pooled(http.cells.map(cell => cell.variance))
    if (!levels) return null
    const preset = http.preset ?? {}
    const seconds = preset.seconds ?? 1
    const runs = preset.runs ?? 1
    // a process costs its start, its checks and its warm-up: about its warm-up runs and one more
    const warmups = http.cells.flatMap(cell => (cell.processClasses ?? []).map(entry => entry.warmupRuns))
      .filter(Boolean)
    const processCost = ((warmups.length ? median(warmups) : 2) + 1) * seconds
    const parts = { roundVariance: levels.roundPercent ** 2, processVariance: levels.processPercent ** 2, mean: 100 }
    const best = optimalRounds(parts, { roundCost: seconds, processCost })
    // where more time buys most: more runs a process, or more processes
    const moreRuns = parts.processVariance === 0 || best > runs
    const spendOn = moreRuns ? 'more runs a process (--runs)' : 'more processes (--processes)'
    const advice = parts.processVariance === 0
      ? `processes add no variance of their own here, so more time buys most as ${spendOn}`
      : `their cost model asks for ${best} run${best === 1 ? '' : 's'} a process, so more time buys most as ${spendOn}`
    const where = `${formatNumber(levels.roundPercent)}% between the wrk runs of one server process, ` +
      `${formatNumber(levels.processPercent)}% between processes beyond that`
    const design = `this run: ${preset.processes ?? 1} processes of ${preset.runs ?? '?'} runs`
    const spend = moreRuns
      ? `as up to ${Math.min(best, MAX_ADVISED_RUNS)} runs a process (--runs) and then more processes`
      : 'as more processes (--processes)'
    return `Where CPU per request varies (Kalibera and Jones's components, pooled over ${levels.cells} cells): ${where}. ` +
      `A process costs about ${formatNumber(processCost)} s (start, checks, warm-up) and a run ${seconds} s; ${advice} (${design}).` +
      reachText(http.repeatability, preset, 'CPU per request in µs (not the answer, its ratio to C)', spend)
  },
  // what the placement changes: the timed runs against the capacity runs, keep-alive
  function placement (http) {
    if (!http.capacity || http.placement === 'apart') return null
    const mode = http.capacity.some(run => run.mode === 'keep-alive') ? 'keep-alive' : http.capacity[0].mode
    const apart = http.capacity.filter(run => run.ok && run.mode === mode && run.cpuVsReference != null)
    const timed = run => http.cells.find(cell => cell.server === run.server && cell.mode === mode && cell.connections === run.connections)
    // a cell the answer does not quote is not quoted here either (a review, 2026-12-07)
    const unquoted = run => timed(run) && answerUnquotedReason(timed(run)) !== null
    const shown = apart.filter(run => !unquoted(run) && timed(run)?.cpuVsReference?.estimate != null &&
      timed(run).requestsPerWakeUp != null && run.requestsPerWakeUp != null)
    if (shown.length === 0) return null
    const leftOut = apart.filter(unquoted).map(run => run.server)
    const leftOutText = leftOut.length
      ? ` (${listJoin(leftOut)} left out: the answer does not quote ` +
        `${leftOut.length === 1 ? 'its' : 'their'} timed runs)`
      : ''
    const reference = http.capacity.find(run => run.ok && run.server === http.reference && run.mode === mode)
    const referenceTimed = reference ? timed(reference) : null
    const wakeUps = run => `${formatNumber(timed(run).requestsPerWakeUp)} against ${formatNumber(run.requestsPerWakeUp)}`
    const ratios = shown.map(run => `${run.server} ${formatNumber(timed(run).cpuVsReference.estimate)}× against ${formatNumber(run.cpuVsReference)}×`)
    const turns = http.placement === 'interleaved' ? 'taking turns with c-epoll\'s on one CPU' : 'on one CPU'
    // counted, not said of every server: wasmer's answered fewer a wake-up apart (a review)
    const withReference = referenceTimed?.requestsPerWakeUp != null && reference.requestsPerWakeUp != null
      ? [reference, ...shown]
      : shown
    const batched = withReference.filter(run => run.requestsPerWakeUp > timed(run).requestsPerWakeUp).length
    const howMany = batched === withReference.length ? 'every one' : `${batched} of ${withReference.length}`
    const wakeUpList = withReference.map(run => `${run.server} ${wakeUps(run)}`).join(', ')
    return `Where wrk runs changes what is measured (${mode}, ${shown[0].connections} connections): requests per ` +
      `wake-up with wrk and the server ${turns} (the timed runs) against wrk on another CPU (the capacity run): ` +
      `${wakeUpList}; ${howMany} answered more a wake-up with wrk apart. ` +
      'CPU per request against C\'s, timed runs against the capacity run (one run each, no interval): ' +
      `${listJoin(ratios)}${leftOutText}. ` +
      placementCalls(http, mode) +
      'Both are the server\'s own CPU time in two regimes: a different figure, not a better one. The timed runs are the answer: their placement held still in the runs docs/placement.md compares, and this run says how well it repeated in its own trust line.'
  },
  // the latency pass at its heavier rate and the middle count of connections, per mode:
  // the tail each server kept, the ones that could not keep the rate, and the collectors'
  // longest pauses beside them, servers in the tables' order: a cell is one run, and one run's
  // tail ranks nothing (a quiet pair of runs on a Zen 4 VM moved p99.9 by a median 1.43×,
  // docs/http.md, 2026-12-07)
  function latencyAtRates (http) {
    if (!http.latency) return null
    const lines = Object.entries(http.latency.rates).map(([mode, { capacity, rates }]) => {
      const runs = http.latency.runs.filter(run => run.mode === mode)
      const counts = [...new Set(runs.map(run => run.connections))].sort((a, b) => a - b)
      const { rate, rateShare, others = [] } = rates.at(-1)
      const connections = counts[Math.floor((counts.length - 1) / 2)]
      const cell = runs.filter(run => run.rateShare === rateShare && run.connections === connections)
      const held = cell.filter(run => run.ok && run.holdsRate)
      const lost = cell.filter(run => run.ok && !run.holdsRate)
      const failed = cell.filter(run => !run.ok)
      // the collectors' pauses at the count of connections the table's GC column gives
      const most = counts.at(-1)
      const paused = runs.filter(run => run.rateShare === rateShare && run.connections === most)
        .filter(run => run.ok && run.gc?.how && run.gc.collections > 0)
      const asked = [rate, ...others].map(rateText).join(' and ')
      const share = `${formatPercent(rateShare)} of the ${rateText(capacity.requestsPerSecond)} ` +
        `${capacity.program} answered ${capacitySource(capacity)}`
      const where = `${mode === 'close' ? 'Connection: close' : 'Keep-alive'} at ${asked} (${share}), ` +
        `${connections} connections`
      const marks = run => [run.steal && 'steal', run.ohaBehind && 'oha behind',
        run.connectEach && CONNECT_EACH.word].filter(Boolean)
      const marked = run => (marks(run).length ? ` (${marks(run).join(', ')})` : '')
      const tail = run => `${run.server} ${formatNumber(run.latencyMs.p999)} ms${marked(run)}`
      const tails = held.length ? `p99.9 ${held.map(tail).join(', ')}` : 'no server held the rate'
      const answered = run => `${run.server} (answered ${formatPercent(run.answered / run.asked)})`
      const cannot = lost.length ? `; cannot sustain it: ${listJoin(lost.map(answered))}` : ''
      const broke = failed.length ? `; failed: ${listJoin(failed.map(run => run.server))}` : ''
      const pause = run => `${run.server} ${formatNumber(run.gc.longestPauseMs)} ms`
      const gc = paused.length ? `. Longest GC pause at ${most} connections: ${paused.map(pause).join(', ')}` : ''
      return `${where}: ${tails}${cannot}${broke}${gc}.`
    })
    return lines.length
      ? 'Latency at fixed rates, from oha\'s stamps of each send, on schedule (one run a cell, servers in the ' +
        `tables' order: one run's tail does not rank them): ${lines.join(' ')}`
      : null
  },
  function unannounced (http) {
    const servers = [...new Set(http.cells.filter(cell => cell.unannouncedClose).map(cell => cell.server))]
    if (servers.length === 0) return null
    return `${listJoin(servers)} ${servers.length === 1 ? 'closes' : 'close'} each Connection: close request's connection without saying Connection: close in its answer (RFC 9112 9.6: it should): wrk counts each such close as a read error, which these runs allow, one per request.`
  }
]

// Where the goal of ±GOAL.percent in GOAL.share of cells is out of reach of this run's
// design, what would reach it, as a sentence to append: the run's own figure (its halves
// by process, which foretold the pair of 2026-11-27: ±25 and ±23% against a 90th
// percentile move of 21.5%) falls as the square root of the runs, so (own / goal)² times
// the runs, spent as the cost model says.
function reachText (own, preset, what, spend) {
  const percent = own?.cpuQuotedPercent
  if (typeof percent !== 'number' || percent <= GOAL.percent) return ''
  const times = Math.ceil((percent / GOAL.percent) ** 2)
  const goal = `${what} within ±${GOAL.percent}% in ${Math.round(GOAL.share * 10)} cells of 10`
  const design = `${preset.processes ?? 1} processes of ${preset.runs ?? '?'} runs`
  const foretold = `a second run would move it by up to ±${formatBound(percent)}%, ` +
    'foretold from this run\'s halves by process'
  return ` On this machine the goal of ${goal} is out of reach of ${design} (${foretold}): ` +
    `about ${times} times the runs would reach it, ${spend}.`
}

// More runs a process than this and a slow process would weigh on too many of a cell's runs.
const MAX_ADVISED_RUNS = 8

// Two http runs: how far the second's figures lie from the first's, cell by cell, and the
// cells either run failed or lacks, which no spread may hide (the goal's own count is
// httpCriterionText's).
function httpAgreement (first, other) {
  const a = first.results.http
  const b = other.results.http
  if (!a || !b) return null
  const key = cell => `${cell.server} ${cell.mode} ${cell.connections} conn.`
  const keys = [...new Set([...a.cells, ...b.cells].map(key))]
  const found = (cells, name) => cells.find(cell => key(cell) === name && cell.requestsPerSecond)
  const pairs = keys.map(name => [found(a.cells, name), found(b.cells, name)]).filter(([x, y]) => x && y)
  const lost = keys.filter(name => !found(a.cells, name) || !found(b.cells, name))
  const lostClause = lost.length
    ? `; ${lost.length} of ${keys.length} cells failed or missing in one run or both (${listJoin(lost)})`
    : ''
  if (pairs.length === 0) return `${other.label} against ${first.label}: no cell measured in both${lostClause}.`
  // the largest rounded up, as the criteria give it: 5.04% is not "at most 5%" (a review)
  const spread = values =>
    `median ${formatNumber(median(values) * 100)}%, at most ${formatBound(Math.max(...values) * 100)}%`
  const rates = pairs.map(([x, y]) => Math.abs(y.requestsPerSecond.median / x.requestsPerSecond.median - 1))
  const cpu = pairs.filter(([x, y]) => x.cpuPerRequestUs && y.cpuPerRequestUs).map(([x, y]) => Math.abs(y.cpuPerRequestUs / x.cpuPerRequestUs - 1))
  const traced = a.syscalls.map(x => [x, b.syscalls.find(y => y.server === x.server && y.mode === x.mode)]).filter(([x, y]) => x.perRequest !== null && y?.perRequest != null)
  const work = traced.map(([x, y]) => Math.abs(y.work - x.work))
  const upkeep = traced.map(([x, y]) => Math.abs(y.upkeep - x.upkeep))
  return `${other.label} against ${first.label}, cell by cell: requests/s differ by ${spread(rates)}` +
    (cpu.length ? `; CPU per request by ${spread(cpu)}` : '') +
    (traced.length
      ? `; calls of work per request by at most ${formatBound(Math.max(...work))}, ` +
        `upkeep by at most ${formatBound(Math.max(...upkeep))}`
      : '') +
    `${lostClause}.`
}

// sets: labelled results sets; each set's findings, then each later set's against the first.
function findings (sets) {
  const out = []
  for (const set of sets) {
    for (const finding of set.results.http ? HTTP_FINDINGS : []) {
      const text = finding(set.results.http)
      if (text) out.push({ set: set.label, text })
    }
  }
  for (const other of sets.slice(1)) {
    const text = httpAgreement(sets[0], other)
    if (text) out.push({ set: null, text })
  }
  return out
}

// The kernel pass's syscalls per request in the timed placement against wrk apart (its run
// beside the capacity runs), per server of a mode, and those that differ by more than
// CALLS_DIFFER; '' where the pass did not run in both.
const CALLS_DIFFER = 0.1
function placementCalls (http, mode) {
  const timedOf = run => kernelEntryOf(http.kernel, run)
  const both = (http.capacity ?? []).filter(run => run.mode === mode && run.syscalls?.perRequest != null &&
    timedOf(run)?.perRequest != null)
  if (both.length === 0) return ''
  const differ = both.filter(run => Math.abs(timedOf(run).perRequest / run.syscalls.perRequest - 1) > CALLS_DIFFER)
  const pairs = both.map(run => `${run.server} ${formatNumber(timedOf(run).perRequest)} against ` +
    formatNumber(run.syscalls.perRequest))
  const verdict = differ.length
    ? `more than a tenth apart for ${listJoin(differ.map(run => run.server))}: a request's calls follow the ` +
      'placement too'
    : 'within a tenth of each other for every server'
  return 'Syscalls per request, the kernel pass\'s run in each placement (timed against wrk apart): ' +
    `${listJoin(pairs)}; ${verdict}. `
}

module.exports = { findings, headlineConnections, compilingFinding }
