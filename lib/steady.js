'use strict'
// What a runtime process does over its runs, classified as Barrett et al. do in "Virtual
// Machine Warmup Blows Hot and Cold" (OOPSLA 2017): changepoints split the sequence into
// segments of one level each, segments whose levels are alike merge, and then
//   flat              one segment: the process ran at one level throughout
//   warm-up           the last segment is better than the one before it
//   slowdown          the last segment is worse than the one before it
//   no steady state   the last segment is too short to be one, or its runs keep rising
//                     or falling: the process was still moving when it stopped
// The first three reached a steady state, the last segment, which is what a cell quotes.
// Barrett et al. ran 2,000 in-process iterations; a lab's process runs tens at most, so
// the changepoints are PELT's (Killick et al., 2012) for shifts of the mean, with the
// noise taken from the sequence's own successive differences, which a shift moves once
// and noise every time. A drift moves every one of them alike, so changepoints cannot see
// it: a last segment whose runs keep rising or falling (trendOf) is no steady state either.
const { median, mean, trendTest, theilSenSlope, SIGNIFICANCE } = require('./stats')

const KINDS = ['flat', 'warm-up', 'slowdown', 'no steady state']
// The penalty a changepoint pays, in units of the noise's variance, times ln(n): above
// BIC's 2 ln n, as Barrett et al.'s 15 ln n is above it for their heavy-tailed timings,
// so that one slow run in a short sequence is noise, not a level.
const PENALTY_PER_LOG_N = 4
// A segment needs this many runs; the last one this share of the sequence too (Barrett
// et al.: a changepoint in the last 500 of 2,000 iterations leaves no steady state), and
// at least MIN_STEADY_RUNS: two runs at a new level at the end are a process still moving
// as far as anyone can tell. With the share alone, a sequence of 8 runs or fewer could
// never be found without a steady state, its last segment never shorter than 2.
const MIN_SEGMENT = 2
const MIN_STEADY_SHARE = 0.25
const MIN_STEADY_RUNS = 3
// Adjacent segments whose levels differ by less than this share of the level are one: a
// 1% step in a run's CPU per request is inside what the lab quotes.
const ALIKE_SHARE = 0.02
// ... and so are those whose levels differ by less than this many standard errors of
// their difference, the runs' spread taken within the segments (pooled): on a noisy
// machine, two runs of one level can land a step apart, and a segment of two runs is
// weak evidence of a level of its own.
const ALIKE_ERRORS = 2.5
// At fewer runs there is nothing to classify: every class must be reachable, and a warm-up
// or a slowdown needs a segment before its steady state and a steady state after it. Four
// values (http's default until 2026-12-04 for a server whose warm-up settled in two runs)
// could only be "flat" or, at any step between the warm-up and the timed runs, "no steady
// state", which a host's moments make often where the process held still (docs/http.md,
// 2026-12-04): the process is unclassified, "too short to classify", never "flat".
const MIN_RUNS = MIN_SEGMENT + MIN_STEADY_RUNS
// A steady state holds still: its runs may not keep moving one way (Kendall's test at
// SIGNIFICANCE) by more than this share of their level from its first run to its last
// (the Theil-Sen slope). A cost that grows with the requests a process has served (a
// queue that is never compacted, in postgres.js: docs/db-clients.md) rose 58% over the 6
// runs after its first in a process the changepoints called flat. On noise alone the rule
// fires on at most 2.2% of sequences of 6 to 9 runs with a spread of 3-12%
// (docs/db/2026-11-30/drift-noise.js, 20,000 each).
const TREND_SHARE = 0.1
// ... tested where the segment has this many runs: below it no order is rare enough
// (4 runs rising every time: p = 2/4! = 0.083)
const MIN_TREND_RUNS = 5
// ... and where fewer, this many at least are judged by oneWayBeyondShare alone
const MIN_ONE_WAY_RUNS = 3
// A run this many noise deviations from both its neighbours, which agree with each
// other, is a spike (a slow spell of the VM, a collection) and left out of the levels, as
// Barrett et al. leave out their outliers before looking for changepoints.
const SPIKE_DEVIATIONS = 5

// The noise's standard deviation: the median absolute successive difference, scaled to a
// normal's standard deviation (MAD's 1.4826, over the √2 a difference of two adds), and
// at least a thousandth of the level, so that a constant sequence has a scale.
function noiseOf (values) {
  const steps = values.slice(1).map((value, i) => Math.abs(value - values[i]))
  const level = Math.abs(median(values))
  return Math.max(1.4826 * median(steps) / Math.SQRT2, level * 1e-3, Number.EPSILON)
}

// PELT for shifts of the mean with a known noise: the cost of a segment is its sum of
// squared deviations over the noise's variance. Returns the indices where segments start
// (0 first).
function changepoints (values, { penalty, minSegment = MIN_SEGMENT } = {}) {
  const n = values.length
  const sigma = noiseOf(values)
  const beta = penalty ?? PENALTY_PER_LOG_N * Math.log(n)
  const sums = [0]
  const squares = [0]
  for (const value of values) {
    sums.push(sums.at(-1) + value)
    squares.push(squares.at(-1) + value * value)
  }
  const cost = (from, to) => {
    const length = to - from
    const sum = sums[to] - sums[from]
    return (squares[to] - squares[from] - sum * sum / length) / (sigma * sigma)
  }
  const best = [-beta]
  const last = [0]
  for (let end = 1; end <= n; end++) {
    let choice = null
    // every start before `end` is a candidate: PELT's pruning drops a start that cannot beat
    // the best split at `end`, which holds only for ends minSegment past it, and with it the
    // search returned a worse split than the best for 65 of 60,000 random sequences of 5 to
    // 12 runs (a review, 2026-12-06); a full search over tens of runs costs nothing
    for (let start = 0; start < end; start++) {
      if (end - start < minSegment && !(start === 0 && end === n)) continue
      const total = best[start] + cost(start, end) + beta
      if (choice === null || total < choice.total) choice = { total, start }
    }
    best[end] = choice ? choice.total : Infinity
    last[end] = choice ? choice.start : 0
  }
  const starts = []
  for (let end = n; end > 0; end = last[end]) starts.unshift(last[end])
  return starts
}

// { kind, segments: [{ from, to, level }] (to exclusive), steadyFrom (the first run of
// the steady state, null without one), spikes (the runs left out of the levels), trend
// (the drift of a last segment that never held still, or of the last two where the last is
// too short to test alone: shortTailMoving; or null), settled (the way the runs
// drifted before a steady state, or null), moving (the way an unclassified process's runs
// moved where they moved as a drift would: movingUntested) } of a process's values in the
// order it ran them. `lowerIsBetter`: a time or CPU per request (true) against a rate (false).
function classify (values, { lowerIsBetter = true, alikeShare = ALIKE_SHARE } = {}) {
  if (values.length < MIN_RUNS) {
    const moving = movingUntested(values)
    return { kind: null, segments: [], steadyFrom: null, spikes: [], values, trend: null, settled: null, moving }
  }
  const spikes = spikesOf(values)
  // a spike takes its neighbours' level, so that indices stay the runs'
  const levelled = values.map((value, i) => spikes.includes(i) ? (values[i - 1] + values[i + 1]) / 2 : value)
  const starts = changepoints(levelled)
  let segments = starts.map((from, i) => {
    const to = starts[i + 1] ?? values.length
    return { from, to, level: mean(levelled.slice(from, to)) }
  })
  segments = mergeAlike(segments, levelled, alikeShare)
  const still = holdingStill(segments, levelled)
  const { settled, segments: split } = still
  segments = split
  const trend = still.trend ?? shortTailMoving(segments, levelled)
  // too short to tell a drift from noise, and moving one way as a drift would
  const moving = !trend && !settled && segments.length === 1 ? movingUntested(levelled) : null
  const steady = segments.at(-1)
  const length = steady.to - steady.from
  let kind
  if (trend) kind = 'no steady state'
  // a drift that settled is named by its way: the mean levels either side of where it
  // settled can be a drift's noise apart, and say nothing
  else if (settled) kind = (settled === 'falling') === lowerIsBetter ? 'warm-up' : 'slowdown'
  else if (segments.length === 1) kind = moving ? null : 'flat'
  else if (length < Math.max(MIN_STEADY_RUNS, MIN_STEADY_SHARE * values.length)) kind = 'no steady state'
  else {
    const before = segments.at(-2).level
    kind = (steady.level < before) === lowerIsBetter ? 'warm-up' : 'slowdown'
  }
  const steadyFrom = kind === 'no steady state' || kind === null ? null : steady.from
  return { kind, segments, steadyFrom, spikes, values, trend, settled, moving }
}

// Segments whose last one holds still: where its runs (the first run of all aside) drift,
// its longest tail of MIN_TREND_RUNS runs or more that moves by TREND_SHARE at most (shown
// still, not merely too short for Kendall's test to see it move) becomes the last segment
// (a slow warm-up's end), `settled` giving the way the runs had drifted; where no tail
// holds still, `trend` is the whole segment's drift. { segments, trend, settled }.
function holdingStill (segments, values) {
  const last = segments.at(-1)
  // a process's first run carries its start (code compiled, connections opened): a drift is
  // looked for in the runs after it
  const first = Math.max(last.from, 1)
  const trend = trendOf(values.slice(first, last.to))
  if (!trend) return { segments, trend: null, settled: null }
  for (let from = first + 1; last.to - from >= MIN_TREND_RUNS; from++) {
    if (Math.abs(driftShare(values.slice(from, last.to))) > TREND_SHARE) continue
    const before = { from: last.from, to: from, level: mean(values.slice(last.from, from)) }
    const after = { from, to: last.to, level: mean(values.slice(from, last.to)) }
    return { segments: [...segments.slice(0, -1), before, after], trend: null, settled: trend.direction }
  }
  return { segments, trend, settled: null }
}

// Whether the 3 or 4 runs after the start, too few for the drift test (MIN_TREND_RUNS), move
// one way at every step and by more than TREND_SHARE: one segment to the changepoints, whose
// noise is those same steps, but flat and a drift cannot be told apart, so the process is too
// short to classify, not flat (node-http still warming up: 6.05, 4.94, 3.86, 2.82, 2.77 ×
// c-epoll's, docs/http.md; 100, 130, 160, 190 was flat until 2026-12-02). Noise alone moves
// so in 0.6-7.4% of 5-run sequences of spread 3-12% (docs/http/2026-12-01/short-drift-noise.js)
// and in the share of 4-run ones docs/http/2026-12-02/short-tail-noise.js gives.
function movingUntested (values) {
  return oneWayBeyondShare(values.slice(1))
}

// The way ('rising' or 'falling') runs too few for Kendall's test (3 or 4) move where each
// step goes that way; else null.
function oneWay (values) {
  if (values.length < MIN_ONE_WAY_RUNS || values.length >= MIN_TREND_RUNS) return null
  const steps = values.slice(1).map((value, i) => Math.sign(value - values[i]))
  if (!steps.every(step => step !== 0 && step === steps[0])) return null
  return steps[0] > 0 ? 'rising' : 'falling'
}

// oneWay's, where the runs also move by more than TREND_SHARE from first to last; else null.
function oneWayBeyondShare (values) {
  const way = oneWay(values)
  return way !== null && Math.abs(driftShare(values)) > TREND_SHARE ? way : null
}

// A drift the changepoints cut into steps: a last segment of 3 or 4 runs, too short for the
// drift test, that moves one way at every step, the way it came from the segment before, at
// no less than half the pace of both segments' runs together (Theil-Sen slopes), while those
// runs (the process's first aside) drift by the drift test. A process that rose 33.7, 43.5,
// 51.0 | 58.4, 63.0, 68.6 (postgres.js pipelined, /db, results/reference-db) was a slowdown
// steady from 58.4 until 2026-12-02. Until 2026-12-06 the tail had to move by more than
// TREND_SHARE on its own as well, which 3 or 4 runs of a steady drift under 5% a run do not:
// 10, 10.6, 11.2 ... 15.4 was a slowdown steady from 14.2 (a review). A step to a level whose
// runs hold still, or wander, is left as it was (their pace is not the drift's). Returns the
// drift over both segments (trendOf), or null.
function shortTailMoving (segments, values) {
  if (segments.length < 2) return null
  const [before, last] = segments.slice(-2)
  const tail = values.slice(last.from, last.to)
  const way = oneWay(tail)
  if (way === null || (last.level > before.level) !== (way === 'rising')) return null
  const both = values.slice(Math.max(before.from, 1), last.to)
  if (Math.abs(slopeOf(tail)) < 0.5 * Math.abs(slopeOf(both))) return null
  const trend = trendOf(both)
  return trend?.direction === way ? trend : null
}

// The drift of a segment's runs, or null where they hold still (TREND_SHARE): { direction
// ('rising' or 'falling'), share (the Theil-Sen change from its first run to its last, over
// its median level), runs, p }.
function trendOf (values) {
  if (values.length < MIN_TREND_RUNS) return null
  const { p } = trendTest(values)
  const share = driftShare(values)
  if (p >= SIGNIFICANCE || Math.abs(share) <= TREND_SHARE) return null
  return { direction: share > 0 ? 'rising' : 'falling', share, runs: values.length, p }
}

// The runs' Theil-Sen slope, a run to the next (0 for fewer than two).
const slopeOf = values => theilSenSlope(values.map((value, i) => [i, value])) ?? 0

// The Theil-Sen change of runs from the first to the last, over their median: the slope
// alone, without trendTest's count of orders, which the search for a still tail needs not.
function driftShare (values) {
  return slopeOf(values) * (values.length - 1) / Math.abs(median(values))
}

// The indices of the runs inside the sequence that stand alone (SPIKE_DEVIATIONS).
function spikesOf (values) {
  const limit = SPIKE_DEVIATIONS * noiseOf(values)
  const spikes = []
  for (let i = 1; i < values.length - 1; i++) {
    const [before, value, after] = [values[i - 1], values[i], values[i + 1]]
    const apart = Math.min(Math.abs(value - before), Math.abs(value - after))
    if (Math.abs(before - after) <= limit && apart > limit) spikes.push(i)
  }
  return spikes
}

function mergeAlike (segments, values, share) {
  const spread = pooledSpread(segments, values)
  const alike = (a, b) => {
    const step = Math.abs(b.level - a.level)
    const error = spread * Math.sqrt(1 / (a.to - a.from) + 1 / (b.to - b.from))
    return step <= share * Math.abs(a.level) || step <= ALIKE_ERRORS * error
  }
  const merged = [segments[0]]
  for (const segment of segments.slice(1)) {
    const previous = merged.at(-1)
    if (alike(previous, segment)) {
      const level = mean(values.slice(previous.from, segment.to))
      merged[merged.length - 1] = { from: previous.from, to: segment.to, level }
    } else merged.push(segment)
  }
  return merged
}

// The runs' standard deviation about their own segment's level, pooled over the segments.
function pooledSpread (segments, values) {
  let squares = 0
  let freedom = 0
  for (const { from, to, level } of segments) {
    for (let i = from; i < to; i++) squares += (values[i] - level) ** 2
    freedom += to - from - 1
  }
  return freedom > 0 ? Math.sqrt(squares / freedom) : 0
}

// A cell's processes together: steady when every classified one reached a steady state and
// no unclassified one moved as a drift would (movingUntested: a cell is not quoted on runs
// too few to tell), null when none was classified nor moved (too few runs); `counts` by
// kind, and `moving`, the unclassified ones that moved, so that a report can say how many
// did what.
function cellSteadiness (classes) {
  const classified = classes.filter(entry => entry.kind !== null)
  const counts = Object.fromEntries(KINDS.map(kind => [kind, classified.filter(entry => entry.kind === kind).length]))
  const moving = classes.filter(entry => entry.kind === null && entry.moving).length
  const steady = classified.length === 0 && moving === 0 ? null : counts['no steady state'] === 0 && moving === 0
  return { classified: classified.length, counts, moving, steady }
}

// Why a cell whose steadiness is false is not quoted, in the answer's words.
function unsteadyReason (steadiness) {
  return steadiness.counts['no steady state'] > 0 ? 'no steady state' : 'too short to classify'
}

// Why a cell none of whose processes could be classified is unsteady (unsteadyCell)
const WARMUP_UNSETTLED = 'warm-up never settled'

// Why an http or db cell's own processes keep it from being quoted as one number
// (unsteadyReason's, or WARMUP_UNSETTLED where unsteadyCell fell back on its warm-ups), or null:
// its answer, its tables and its pair ask alike.
function unsteadyCellReason (cell) {
  if (cell.steadiness?.steady === false) return unsteadyReason(cell.steadiness)
  return cell.unsteady ? WARMUP_UNSETTLED : null
}

// Why an http or db cell is not quoted in its answer ('failed', or unsteadyCellReason's), or null.
function unquotedReason (cell) {
  return cell.requestsPerSecond ? unsteadyCellReason(cell) : 'failed'
}

// Whether a cell cannot be quoted as one number: a process of it never reached a steady
// state, or, where none was classified (each too short, or runs from before processes were),
// a warm-up whose last two runs never agreed.
function unsteadyCell (steadiness, runs) {
  if (steadiness.steady === false) return true
  return steadiness.classified === 0 && runs.some(run => run.warmupAgreed === false)
}

// What each server process did: its warm-up's figures (warmupOf(run), by default
// run.warmupCpuUs, which every run of the process carries), then its runs at its most
// connections, in the order it ran them, classified. `value(run)` is a run's figure, in the
// warm-up's unit, `processOf` and `roundOf` where it ran; `basis` names what the figures
// are ('own': the server's CPU per request; 'ratio': over a reference's beside it).
// [{ process, kind, steadyFrom, steadyRound (its first round in the steady state, 0 when
// the warm-up reached it, null with none), spikes, warmupRuns, sequence, basis, trend,
// settled, moving }].
function processClasses (runs, { value, processOf, roundOf, warmupOf = run => run.warmupCpuUs, basis = 'own' }) {
  const byProcess = new Map()
  for (const run of runs) byProcess.set(processOf(run), [...(byProcess.get(processOf(run)) ?? []), run])
  return [...byProcess].map(([process, own]) => {
    const carrier = own.find(run => Array.isArray(warmupOf(run)))
    const warmup = (carrier ? warmupOf(carrier) : []).filter(figure => figure !== null)
    const most = Math.max(...own.map(run => run.connections))
    const timed = own.filter(run => run.ok && run.connections === most).sort((a, b) => roundOf(a) - roundOf(b))
    const sequence = [...warmup, ...timed.map(value)]
    const { kind, steadyFrom, spikes, trend, settled, moving } = classify(sequence)
    let steadyRound = null
    if (steadyFrom !== null) steadyRound = steadyFrom < warmup.length ? 0 : roundOf(timed[steadyFrom - warmup.length])
    const warmupRuns = warmup.length
    return { process, kind, steadyFrom, steadyRound, spikes, warmupRuns, sequence, basis, trend, settled, moving }
  })
}

// The runs a cell quotes: those of each process's steady state; a process with none, or
// unclassified, gives all of its runs (and the cell says so by its steadiness).
function steadyRuns (runs, classes, { processOf, roundOf }) {
  const from = new Map(classes.map(entry => [entry.process, entry.steadyRound ?? 0]))
  return runs.filter(run => roundOf(run) >= (from.get(processOf(run)) ?? 0))
}

// The server processes of a run's cells, each once (a process serves several cells):
// [{ where (its server and mode or endpoint, as `whereOf(cell)` names it), ...class }].
function runProcesses (cells, whereOf) {
  const seen = new Map()
  for (const cell of cells) {
    const where = whereOf(cell)
    for (const entry of cell.processClasses ?? []) seen.set(`${where}\t${entry.process}`, { where, ...entry })
  }
  return [...seen.values()]
}

module.exports = {
  KINDS,
  MIN_RUNS,
  MIN_TREND_RUNS,
  WARMUP_UNSETTLED,
  TREND_SHARE,
  changepoints,
  classify,
  cellSteadiness,
  unsteadyReason,
  unsteadyCellReason,
  unquotedReason,
  unsteadyCell,
  processClasses,
  steadyRuns,
  runProcesses,
  noiseOf
}
