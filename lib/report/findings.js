'use strict'
// The report's findings: at most eight short sentences, in the order a reader asks
// (what a read costs, by runtime, against C; where it goes; then the rest), each
// computed from the results, with one or two numbers. A finding whose data is absent
// (no cost pass, no strace pass, no GC trace) is left out rather than guessed.
const { sizeName, formatNumber, formatSigned, formatPercent, formatRatio, listJoin } = require('./format')
const { BASELINE, programInfo, programsOf } = require('./programs')
const { headlineRepeatability, headlineRepeatabilityText } = require('../../experiments/stdio/cost')
const { median, levelText, medianIntervalLevel, levelsText } = require('../stats')

function sizesOf (set) {
  return [...new Set(set.results.cells.map(cell => cell.blockSize))].sort((a, b) => a - b)
}

function cellAt (set, program, blockSize) {
  return set.results.cells.find(cell => cell.program === program && cell.blockSize === blockSize) ?? null
}

// A reader that chooses its own chunk size (wc -c, Node's stream, Bun's stream...) is
// not doing the experiment at any block size: it has no headline cell, is kept out of
// every per-size ranking, and is quoted at its own chunk size (idiomaticRows).
const ownChunk = (set, program) => programInfo(program, set.context).honoursBlockSize === false
const steady = cell => cell?.best?.steadyThroughputMBps ?? null

const ns = value => `${formatNumber(value)} ns`
const signedNs = value => `${formatSigned(value)} ns`

// The headline's cells at one size with a share of C, best first.
function headlineAt (set, blockSize) {
  return (set.results.headline?.cells ?? [])
    .filter(cell => cell.blockSize === blockSize && cell.shareOfC && !cell.flags.includes('failed'))
    .sort((a, b) => b.shareOfC.estimate - a.shareOfC.estimate)
}

// Each JavaScript runtime's fastest reader at a size, best first.
function fastestByRuntime (set, blockSize) {
  const best = new Map()
  for (const cell of headlineAt(set, blockSize)) {
    const info = programInfo(cell.program, set.context)
    if (!info.javascript) continue
    if (!best.has(info.runtime)) best.set(info.runtime, cell)
  }
  return [...best.values()]
}

function headlineSizes (set) {
  return set.results.headline?.sizes ?? []
}

function baselineAt (set, blockSize) {
  return set.results.headline?.cells.find(cell => cell.program === BASELINE && cell.blockSize === blockSize && cell.cpuPerReadNs) ?? null
}

// 1. What a read costs C at the smallest size: the yardstick.
function readCost (set) {
  const blockSize = headlineSizes(set)[0]
  const base = blockSize === undefined ? null : baselineAt(set, blockSize)
  if (!base) return null
  const { estimate, low, high } = base.cpuPerReadNs
  // results.json from before intervals carried their level: the level of its rounds
  const level = base.cpuPerReadNs.level ?? medianIntervalLevel(base.rounds)
  const interval = low === null ? '' : ` (${levelText(level)} interval ${formatNumber(low)}–${ns(high)})`
  return `At ${sizeName(blockSize)}, one read(2) of the pipe costs C ${ns(estimate)} of CPU${interval}.`
}

// 2. The answer: each runtime's fastest reader, over C per read, at the smallest size.
function overheadByRuntime (set) {
  const blockSize = headlineSizes(set)[0]
  if (blockSize === undefined) return null
  const fastest = fastestByRuntime(set, blockSize)
  if (fastest.length === 0) return null
  const clause = cell => `${cell.program} ${signedNs(cell.overheadNs.estimate)} (${formatPercent(cell.shareOfC.estimate)} of C's speed)`
  return `Per read at ${sizeName(blockSize)}, over C, each runtime's fastest reader: ${listJoin(fastest.map(clause))}.`
}

// 3. At the largest size the copy weighs most: how far the farthest runtime stays from C.
function largestSize (set) {
  const sizes = headlineSizes(set)
  if (sizes.length < 2) return null
  const blockSize = sizes[sizes.length - 1]
  const fastest = fastestByRuntime(set, blockSize)
  if (fastest.length === 0) return null
  const farthest = fastest[fastest.length - 1]
  return `At ${sizeName(blockSize)}, where copying the block weighs most, the runtime farthest from C reads at ${formatPercent(farthest.shareOfC.estimate)} of its speed (${farthest.program}, its fastest reader).`
}

// 4. Who makes extra syscalls: the honouring reader with the most per MiB against C at
// the smallest profiled size, and the call it makes that C makes least of.
function extraSyscalls (set) {
  const cells = (set.syscalls?.cells ?? []).filter(cell => !cell.rejected && cell.syscallsPerMiB?.allThreads)
  const blockSize = Math.min(...cells.map(cell => cell.blockSize))
  const atSize = cells.filter(cell => cell.blockSize === blockSize)
  const base = atSize.find(cell => cell.program === BASELINE)
  const others = atSize.filter(cell => cell.program !== BASELINE && !ownChunk(set, cell.program))
  if (!base || others.length === 0) return null
  const most = others.reduce((a, b) => (b.syscallsPerMiB.allThreads > a.syscallsPerMiB.allThreads ? b : a))
  const ratio = most.syscallsPerMiB.allThreads / base.syscallsPerMiB.allThreads
  const baseCalls = name => base.allThreads?.syscalls.find(row => row.name === name)?.calls ?? 0
  const extra = (most.allThreads?.syscalls ?? []).map(row => ({ name: row.name, extra: row.calls - baseCalls(row.name) }))
    .reduce((a, b) => (b.extra > (a?.extra ?? 0) ? b : a), null)
  const call = extra ? `, ${extra.name} above all` : ''
  return `At ${sizeName(blockSize)}, ${most.program} makes ${formatRatio(ratio)} C's syscalls per MiB read (every thread, start-up's calls cancelled)${call}.`
}

// 5. The idiomatic readers, each at the chunk size it chose.
function idiomaticReaders (set) {
  const rows = idiomaticRows(set).filter(row => row.chunkBytes !== null && row.shareOfC !== null)
  if (rows.length === 0) return null
  const clause = row => `${row.program} ${sizeName(row.chunkBytes)} chunks, ${formatPercent(row.shareOfC)} of C${row.exact ? '' : ` at ${sizeName(row.blockSize)}`}`
  return `The readers that choose their own chunk size, against C reading blocks of that size: ${listJoin(rows.map(clause))}.`
}

// 6. Start-up: C against the slowest.
function startupTimes (set) {
  const entries = Object.entries(set.results.startup ?? {}).sort((a, b) => a[1].medianNs - b[1].medianNs)
  const base = set.results.startup?.[BASELINE]
  if (!base || entries.length < 2) return null
  const [slowestName, slowest] = entries[entries.length - 1]
  return `Start-up on empty input takes C ${formatNumber(base.medianNs / 1e6)} ms and ${slowestName}, the slowest, ${formatNumber(slowest.medianNs / 1e6)} ms (median runs).`
}

// 7. Garbage: how many V8 readers never collected, and the one that collected most.
function garbage (set) {
  const collected = gcByProgram(set)
  if (collected.length === 0) return null
  const never = collected.filter(entry => entry.collections === 0)
  const busiest = collected.reduce((a, b) => (b.collections > a.collections ? b : a))
  const neverText = `${never.length} of ${collected.length} V8 readers never collected garbage`
  if (busiest.collections === 0) return `${neverText}.`
  return `${neverText}; ${busiest.program} collected most, ${busiest.collections} times at ${sizeName(busiest.blockSize)} (${formatNumber(busiest.totalPauseMs)} ms of pauses).`
}

// Each traced program's busiest trace: the one with the most collections.
function gcByProgram (set) {
  if (!set.gc?.cells?.length) return []
  return programsOf(set).flatMap(program => {
    const cells = set.gc.cells.filter(cell => cell.program === program && cell.ok)
    if (cells.length === 0) return []
    const busiest = [...cells].sort((a, b) => b.collections - a.collections || b.blockSize - a.blockSize)[0]
    return [{ program, collections: busiest.collections, blockSize: busiest.blockSize, totalPauseMs: busiest.totalPauseMs }]
  })
}

// 8. How far to trust the rest: flagged headline cells, noisy timing cells.
function dataQuality (set) {
  const headline = set.results.headline?.cells ?? []
  const flagged = headline.filter(cell => cell.flags.length)
  const noisy = set.results.cells.filter(cell => (cell.flags ?? []).includes('noisy'))
  const headlinePart = headline.length
    ? (flagged.length ? `${flagged.length} of ${headline.length} headline cells are flagged (${listJoin([...new Set(flagged.flatMap(cell => cell.flags))])})` : 'No headline cell is flagged')
    : 'The run has no cost pass, so no headline'
  return `${headlinePart}; ${noisy.length} of ${set.results.cells.length} timing cells are noisy (wall time varied by more than 10%).`
}

const PER_SET = [readCost, overheadByRuntime, largestSize, extraSyscalls, idiomaticReaders, startupTimes, garbage, dataQuality]
// the ones that answer the lab's question, which the report puts beside its chart
const HEADLINE = [readCost, overheadByRuntime, largestSize]

// Two runs: whether their headlines repeat by the lab's criterion, in points of share of C
// and in the runtimes' order.
function repeatability (first, other) {
  const text = headlineRepeatabilityText(headlineRepeatability(first.results.headline, other.results.headline), [first.label, other.label])
  return text && `${text}.`
}

// sets: labelled results sets ({ label, context, results, syscalls, gc }).
// The call ladder's findings (bench.js --experiment calls), each from its rows: the
// boundary, a syscall's entry and exit, the runtimes' read paths, and the checks.
const LADDER_FINDINGS = [
  function boundary (ladder) {
    const rows = ladder.rows.filter(row => row.rungs.noop && row.variant !== BASELINE)
    const c = ladder.rows.find(row => row.variant === BASELINE)?.rungs.noop
    if (rows.length === 0 || !c) return null
    const sorted = [...rows].sort((a, b) => a.rungs.noop.estimate - b.rungs.noop.estimate)
    return `A no-op call into C costs ${formatNumber(c.estimate)} ns from C, ${listJoin(sorted.map(row => `${formatNumber(row.rungs.noop.estimate)} from ${row.variant}`))}.`
  },
  function syscall (ladder) {
    const parts = ladder.rows.filter(row => row.parts).map(row => row.parts.syscall)
    if (parts.length < 2) return null
    return `A syscall's entry and exit (getppid less the no-op) cost ${formatNumber(Math.min(...parts))} to ${formatNumber(Math.max(...parts))} ns in every variant: the kernel's price, not the runtime's.`
  },
  function readPath (ladder) {
    const rows = ladder.rows.filter(row => row.parts && row.variant !== BASELINE).sort((a, b) => b.parts.readPath - a.parts.readPath)
    if (rows.length === 0) return null
    const [top] = rows
    return `The runtimes' read paths (an empty read less a bare syscall, beyond C's) are where reads differ: ${listJoin(rows.map(row => `${row.variant} ${formatNumber(row.parts.readPath)} ns`))}; ${top.variant}'s (${top.read}) is ${formatPercent(top.parts.readPath / top.rungs['read-256'].estimate)} of its 256-byte read.`
  },
  function checks (ladder) {
    const decomposed = ladder.rows.filter(row => row.addsUp !== null)
    const compared = ladder.rows.filter(row => row.stdin?.agrees !== null && row.stdin?.agrees !== undefined)
    if (decomposed.length === 0) return null
    const off = decomposed.filter(row => !row.addsUp).map(row => `${row.variant} ${signedNs(row.gap)}`)
    const disagree = compared.filter(row => !row.stdin.agrees).map(row => `${row.variant} ${formatNumber(row.rungs['read-256'].estimate)} against ${row.stdin.program}'s ${formatNumber(row.stdin.cpuPerReadNs.estimate)} ns`)
    return `The parts add up to the measured 256-byte read within 10% for ${decomposed.length - off.length} of ${decomposed.length} variants${off.length ? ` (not: ${off.join(', ')})` : ''}` +
      (compared.length ? `; the ladder's read lies inside the cost pass's interval for ${compared.length - disagree.length} of ${compared.length}${disagree.length ? ` (not: ${disagree.join('; ')})` : ''}.` : '.')
  }
]

// The http experiment's findings (bench.js --experiment http), each from its cells and
// strace pass: requests/s against the C epoll server, CPU per request, syscalls per
// request over the C floor and on which calls, and the cells wrk itself limited.
// The cell the first finding quotes: keep-alive at the count nearest HTTP_HEADLINE_CONNECTIONS.
const HTTP_HEADLINE_CONNECTIONS = 16

function headlineConnections (counts) {
  return counts.length ? counts.reduce((a, b) => (Math.abs(b - HTTP_HEADLINE_CONNECTIONS) < Math.abs(a - HTTP_HEADLINE_CONNECTIONS) ? b : a)) : null
}

const countsOf = (http, mode) => [...new Set(http.cells.filter(cell => cell.mode === mode).map(cell => cell.connections))].sort((a, b) => a - b)

const rateText = value => `${formatNumber(Math.round(value))} req/s`

const HTTP_FINDINGS = [
  function requestRates (http) {
    const lines = []
    for (const mode of http.modes) {
      const count = headlineConnections(countsOf(http, mode))
      const cells = http.cells.filter(cell => cell.mode === mode && cell.connections === count && cell.requestsPerSecond)
      const reference = cells.find(cell => cell.server === http.reference)
      if (!reference || cells.length < 2) continue
      const others = cells.filter(cell => cell !== reference).sort((a, b) => b.requestsPerSecond.median - a.requestsPerSecond.median)
      const share = cell => (cell.vsReference ? `${formatPercent(cell.vsReference.estimate)} (${formatPercent(cell.vsReference.low)}–${formatPercent(cell.vsReference.high)})` : formatPercent(cell.requestsPerSecond.median / reference.requestsPerSecond.median))
      lines.push(`${mode === 'close' ? 'Connection: close' : 'Keep-alive'}, ${count} connection${count === 1 ? '' : 's'}: ${http.reference} answers ${rateText(reference.requestsPerSecond.median)} (median); ${listJoin(others.map(cell => `${cell.server} ${share(cell)}`))} of it (${levelsText(others.map(cell => cell.vsReference))} intervals of the ratio).`)
    }
    return lines.length ? lines.join(' ') : null
  },
  // at the most connections: each wake-up of a server answers the most requests there,
  // so its CPU per request is the least inflated by waiting (c-epoll at 16 connections,
  // idle between wrk's bursts, measured 6.02 and 6.80 µs in two runs; at 128, 6.08 and
  // 6.19: docs/http.md)
  function cpuPerRequest (http) {
    const parts = http.modes.map(mode => {
      const count = countsOf(http, mode).pop()
      const cells = http.cells.filter(cell => cell.mode === mode && cell.connections === count && cell.cpuPerRequestUs !== null).sort((a, b) => a.cpuPerRequestUs - b.cpuPerRequestUs)
      return cells.length ? `${mode === 'close' ? 'Connection: close' : 'keep-alive'} at ${count} connection${count === 1 ? '' : 's'}: ${listJoin(cells.map(cell => `${cell.server} ${formatNumber(cell.cpuPerRequestUs)}`))}` : null
    }).filter(Boolean)
    return parts.length ? `The server's CPU time per request, µs, every thread, where it is busiest (it compares servers even where wrk was the limit): ${parts.join('; ')}.` : null
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
    const cells = http.cells.filter(cell => cell.unsteady)
    if (cells.length === 0) return null
    const servers = [...new Set(cells.map(cell => `${cell.server} (${cell.mode})`))]
    return `The warm-up of ${listJoin(servers)} never had two wrk runs in a row agree within 5%, so ${cells.length === 1 ? 'its cell' : `their ${cells.length} cells`} may still hold warm-up, or a server whose rate drifts: measure ${servers.length === 1 ? 'it' : 'them'} again before quoting.`
  },
  function unannounced (http) {
    const servers = [...new Set(http.cells.filter(cell => cell.unannouncedClose).map(cell => cell.server))]
    if (servers.length === 0) return null
    return `${listJoin(servers)} ${servers.length === 1 ? 'closes' : 'close'} each Connection: close request's connection without saying Connection: close in its answer (RFC 9112 9.6: it should): wrk counts each such close as a read error, which these runs allow, one per request.`
  }
]

// Two http runs: how far the second's figures lie from the first's, cell by cell.
function httpAgreement (first, other) {
  const a = first.results.http
  const b = other.results.http
  if (!a || !b) return null
  const pairs = a.cells.map(cell => [cell, b.cells.find(x => x.server === cell.server && x.mode === cell.mode && x.connections === cell.connections)])
    .filter(([x, y]) => y && x.requestsPerSecond && y.requestsPerSecond)
  if (pairs.length === 0) return null
  const inside = (value, interval) => value >= interval.low && value <= interval.high
  const shared = pairs.filter(([x, y]) => x.vsReference && y.vsReference)
  const agreeing = shared.filter(([x, y]) => inside(x.vsReference.estimate, y.vsReference) && inside(y.vsReference.estimate, x.vsReference))
  const spread = values => `median ${formatPercent(median(values))}, at most ${formatPercent(Math.max(...values))}`
  const rates = pairs.map(([x, y]) => Math.abs(y.requestsPerSecond.median / x.requestsPerSecond.median - 1))
  const cpu = pairs.filter(([x, y]) => x.cpuPerRequestUs && y.cpuPerRequestUs).map(([x, y]) => Math.abs(y.cpuPerRequestUs / x.cpuPerRequestUs - 1))
  const traced = a.syscalls.map(x => [x, b.syscalls.find(y => y.server === x.server && y.mode === x.mode)]).filter(([x, y]) => x.perRequest !== null && y?.perRequest != null)
  const work = traced.map(([x, y]) => Math.abs(y.work - x.work))
  const upkeep = traced.map(([x, y]) => Math.abs(y.upkeep - x.upkeep))
  return `${other.label} against ${first.label}, cell by cell: requests/s differ by ${spread(rates)}` +
    (cpu.length ? `; CPU per request by ${spread(cpu)}` : '') +
    (traced.length ? `; calls of work per request by at most ${formatNumber(Math.max(...work))}, upkeep by at most ${formatNumber(Math.max(...upkeep))}` : '') +
    (shared.length ? `; ${agreeing.length} of ${shared.length} shares of ${a.reference} agree (each inside the other run's interval, which counts one server process's runs only).` : '.')
}

function findings (sets) {
  const out = []
  for (const set of sets) {
    for (const finding of set.results.ladder ? LADDER_FINDINGS : []) {
      const text = finding(set.results.ladder)
      if (text) out.push({ set: set.label, text, headline: false, ladder: true })
    }
    for (const finding of set.results.http ? HTTP_FINDINGS : []) {
      const text = finding(set.results.http)
      if (text) out.push({ set: set.label, text, headline: false, http: true })
    }
    // an http run measures none of what the stdio findings read
    for (const finding of set.results.experiment === 'http' ? [] : PER_SET) {
      const text = finding(set)
      if (text) out.push({ set: set.label, text, headline: HEADLINE.includes(finding) })
    }
  }
  for (const other of sets.slice(1)) {
    const text = repeatability(sets[0], other)
    if (text) out.push({ set: null, text, headline: true })
    const http = httpAgreement(sets[0], other)
    if (http) out.push({ set: null, text: http, headline: false, http: true })
  }
  return out
}

// The measured block size nearest a chunk size (the smaller of two as near), or null.
function nearestSize (sizes, chunkBytes) {
  if (chunkBytes === null || sizes.length === 0) return null
  return sizes.reduce((a, b) => (Math.abs(b - chunkBytes) < Math.abs(a - chunkBytes) ? b : a))
}

// Each own-chunk reader at its own chunk size: the cell at the measured block size equal
// to (or nearest) the chunk size strace saw it read in, against C reading blocks of that
// size. Shared by the finding and the report's table.
function idiomaticRows (set) {
  const sizes = sizesOf(set)
  const chunkSizes = set.results.chunkSizes ?? set.syscalls?.chunkSizes ?? {}
  return programsOf(set).filter(program => ownChunk(set, program)).map(program => {
    const chunkBytes = chunkSizes[program]?.chunkBytes ?? null
    const blockSize = nearestSize(sizes, chunkBytes)
    const cell = blockSize === null ? null : cellAt(set, program, blockSize)
    return {
      program,
      chunkBytes,
      found: chunkSizes[program]?.found ?? 'unknown: no strace pass recorded its reads of stdin',
      blockSize,
      exact: blockSize !== null && blockSize === chunkBytes,
      steadyMBps: steady(cell),
      // a share the runs do not support (experiments/stdio/summary.js) is not quoted: its reason is
      shareOfC: cell?.vsC?.withheld ? null : cell?.vsC?.steadyThroughput ?? null,
      shareWithheld: cell?.vsC?.withheld ?? null,
      shareWithheldWhy: cell?.vsC?.withheldWhy ?? null
    }
  })
}

module.exports = {
  findings, HTTP_FINDINGS, headlineConnections, idiomaticRows, nearestSize, ownChunk, headlineAt, fastestByRuntime, gcByProgram, readCost, overheadByRuntime, largestSize, extraSyscalls, idiomaticReaders, startupTimes, garbage, dataQuality, repeatability
}
