'use strict'
// Statistics of one cell's runs. The study quotes the best run; the spread says
// how far to trust it.

function median (values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

function mean (values) {
  return values.reduce((sum, value) => sum + value, 0) / values.length
}

// Sample standard deviation (n - 1): the runs are a sample of what the machine can do.
function standardDeviation (values) {
  if (values.length < 2) return 0
  const average = mean(values)
  return Math.sqrt(values.reduce((sum, value) => sum + (value - average) ** 2, 0) / (values.length - 1))
}

function summarise (values) {
  if (values.length === 0) throw new Error('no values to summarise')
  const average = mean(values)
  return {
    n: values.length,
    min: Math.min(...values),
    max: Math.max(...values),
    median: median(values),
    mean: average,
    stdev: standardDeviation(values),
    cv: average === 0 ? 0 : standardDeviation(values) / average
  }
}

// The least-squares slope of y over x through points [[x, y], ...]; null where x does not vary.
function leastSquaresSlope (points) {
  const meanX = mean(points.map(([x]) => x))
  const meanY = mean(points.map(([, y]) => y))
  let covariance = 0
  let variance = 0
  for (const [x, y] of points) {
    covariance += (x - meanX) * (y - meanY)
    variance += (x - meanX) ** 2
  }
  return variance === 0 ? null : covariance / variance
}

// Of points already centred on their means ([[x, y], ...], deviations): the least-squares
// slope of y on x, their correlation, and each one's root mean square; null where either does
// not vary.
function centredFit (points) {
  const sum = pick => points.reduce((total, point) => total + pick(point), 0)
  const [xx, yy, xy] = [sum(([x]) => x * x), sum(([, y]) => y * y), sum(([x, y]) => x * y)]
  if (xx === 0 || yy === 0) return null
  const n = points.length
  return {
    slope: xy / xx, r: xy / Math.sqrt(xx * yy), spreadX: Math.sqrt(xx / n), spreadY: Math.sqrt(yy / n)
  }
}

// What one more unit (a read, a byte) costs, from runs of two sizes of the same work:
// (median of the large runs - median of the small runs) / the units between them, so
// whatever every run pays once (start-up, compiling, first touches) cancels out.
// plusMinus is both sizes' half-ranges over the same units: how far noise can move it.
function twoSizeFit ({ large, small, unitsBetween }) {
  if (large.length === 0 || small.length === 0) throw new Error('no runs to fit')
  const halfRange = values => (Math.max(...values) - Math.min(...values)) / 2
  return {
    perUnit: (median(large) - median(small)) / unitsBetween,
    plusMinus: (halfRange(large) + halfRange(small)) / unitsBetween
  }
}

// Whether two sets of runs could come from the same distribution: the Mann-Whitney
// rank test, two-sided, by its normal approximation with the corrections for ties and
// for continuity. Ranks ask nothing of the runs' distribution, which on a VM is skewed
// by slow spells. Below 4 runs a side the normal approximation is too rough to quote
// (and 3 runs against 3 or 4 cannot reach p < 0.05 at all), so p is null there.
const MIN_RUNS_A_SIDE = 4

function rankTest (a, b) {
  if (a.length < MIN_RUNS_A_SIDE || b.length < MIN_RUNS_A_SIDE) return null
  const all = [...a.map(value => ({ value, fromA: true })), ...b.map(value => ({ value, fromA: false }))].sort((x, y) => x.value - y.value)
  let rankSumA = 0
  let tieTerm = 0
  for (let start = 0; start < all.length;) {
    let end = start
    while (end + 1 < all.length && all[end + 1].value === all[start].value) end++
    const tied = end - start + 1
    const rank = (start + end) / 2 + 1
    for (let i = start; i <= end; i++) if (all[i].fromA) rankSumA += rank
    tieTerm += tied ** 3 - tied
    start = end + 1
  }
  const n = all.length
  const u = rankSumA - a.length * (a.length + 1) / 2
  const centre = a.length * b.length / 2
  const sigma = Math.sqrt(a.length * b.length / 12 * ((n + 1) - tieTerm / (n * (n - 1))))
  if (sigma === 0) return { u, p: 1 }
  const z = Math.max(0, Math.abs(u - centre) - 0.5) / sigma
  return { u, p: Math.min(1, 2 * (1 - normalCdf(z))) }
}

// How far a's values lie from b's, with an interval that asks nothing of their
// distribution: the Hodges-Lehmann estimate (the median of every a[i] against b[j]) and
// the interval that inverts rankTest (Bauer 1972): the shifts for which a against b so
// shifted would not be told apart at the 5% level, i.e. all but the k - 1 lowest and
// k - 1 highest of the m n comparisons, k from the same normal approximation and
// continuity correction (ties, rare in times, are not corrected for). The k so chosen
// covers a little more or less than 95%, so the interval carries the level its k truly
// has (pairwiseIntervalLevel). Null below 4 values a side, as rankTest.
function pairwiseInterval (a, b, compare) {
  if (a.length < MIN_RUNS_A_SIDE || b.length < MIN_RUNS_A_SIDE) return null
  const values = a.flatMap(x => b.map(y => compare(x, y))).sort((x, y) => x - y)
  const pairs = values.length
  const k = rankTestRank(a.length, b.length)
  return { estimate: median(values), low: values[k - 1], high: values[pairs - k], level: pairwiseIntervalLevel(a.length, b.length) }
}

function rankTestRank (m, n) {
  const sigma = Math.sqrt(m * n * (m + n + 1) / 12)
  return Math.floor(m * n / 2 - 0.5 - Z_TWO_SIDED * sigma) + 1
}

// The true coverage of pairwiseInterval for m values against n: it leaves out the k - 1
// lowest and k - 1 highest comparisons, and under no shift the count of a's values above
// b's (the Mann-Whitney U) is at most k - 1 with the probability counted below.
function pairwiseIntervalLevel (m, n) {
  if (m < MIN_RUNS_A_SIDE || n < MIN_RUNS_A_SIDE) return null
  return 1 - 2 * mannWhitneyCdf(rankTestRank(m, n) - 1, m, n)
}

// P(U <= u) for m values against n of one continuous distribution, exactly: every one of
// the (m + n choose m) orders is as likely, and the largest value is a's with
// probability m / (m + n), which adds n to U, or b's, which adds nothing. Counting
// costs about (m n)^2 / 4 steps, a moment at the lab's 10 rounds a side; past
// EXACT_PAIRS_MAX comparisons the normal approximation with continuity correction,
// within a few thousandths there, stands in for it.
const EXACT_PAIRS_MAX = 2500
const mannWhitneyTables = new Map()

function mannWhitneyCdf (u, m, n) {
  if (u < 0) return 0
  if (u >= m * n) return 1
  if (m * n > EXACT_PAIRS_MAX) return normalCdf((u + 0.5 - m * n / 2) / Math.sqrt(m * n * (m + n + 1) / 12))
  const key = `${m},${n}`
  if (!mannWhitneyTables.has(key)) mannWhitneyTables.set(key, mannWhitneyCumulative(m, n))
  return mannWhitneyTables.get(key)[u]
}

function mannWhitneyCumulative (m, n) {
  // row[j] holds P(U = u) for i values against j, for the current i
  let previous = Array.from({ length: n + 1 }, () => [1])
  for (let i = 1; i <= m; i++) {
    const row = [[1]]
    for (let j = 1; j <= n; j++) {
      const probabilities = new Array(i * j + 1).fill(0)
      previous[j].forEach((p, u) => { probabilities[u + j] += p * i / (i + j) })
      row[j - 1].forEach((p, u) => { probabilities[u] += p * j / (i + j) })
      row.push(probabilities)
    }
    previous = row
  }
  let sum = 0
  return previous[n].map(p => (sum += p))
}

// How many times b's values a's values are: ratios rather than differences where a
// run's noise scales with its length.
const ratioInterval = (a, b) => pairwiseInterval(a, b, (x, y) => x / y)
// By how much a's values exceed b's.
const differenceInterval = (a, b) => pairwiseInterval(a, b, (x, y) => x - y)

// The median of values with an interval that asks nothing of their distribution: the
// order statistics that invert the sign test (the k-th lowest and k-th highest of n, k
// from the binomial's normal approximation with continuity correction, as in
// ratioInterval). For paired measurements, one value per pair. k is whole, so the
// interval covers more than 95% (97.9% at 10 values): it carries its true level. Null
// when n is too small for any interval at this level (k < 1, n below 6).
function medianInterval (values) {
  const sorted = [...values].sort((a, b) => a - b)
  const n = sorted.length
  const k = signTestRank(n)
  if (k < 1) return null
  return { estimate: median(sorted), low: sorted[k - 1], high: sorted[n - k], level: medianIntervalLevel(n) }
}

// The true coverage of medianInterval for n values: the median lies below the k-th
// lowest when at most k - 1 values do, which for any continuous distribution is
// P(Bin(n, 1/2) <= k - 1), and as likely above the k-th highest.
function medianIntervalLevel (n) {
  const k = signTestRank(n)
  return k < 1 ? null : 1 - 2 * binomialHalfCdf(k - 1, n)
}

// P(Bin(n, 1/2) <= k), counted exactly.
function binomialHalfCdf (k, n) {
  let term = 0.5 ** n
  let sum = 0
  for (let i = 0; i <= Math.min(k, n); i++) {
    sum += term
    term *= (n - i) / (i + 1)
  }
  return sum
}

// A proportion of `trials` independent samples (`successes` of them counted) with Wilson's
// score interval at 95% (Wilson 1927): it keeps to [0, 1] and comes nearer its level at tens
// of samples and near 0 and 1 than the normal approximation's does, though its coverage
// still dips below 95% for one or two successes (Brown, Cai and DasGupta 2001). Null with no
// trials.
function proportionInterval (successes, trials) {
  if (!(trials > 0)) return null
  const p = successes / trials
  const z2 = Z_TWO_SIDED ** 2
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
  const half = Z_TWO_SIDED / (1 + z2 / trials) * Math.sqrt(p * (1 - p) / trials + z2 / (4 * trials ** 2))
  return { estimate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half), level: 1 - SIGNIFICANCE }
}

// How many times b's values a's are, where a[i] and b[i] were measured together (the same
// round): the median of the ratios a[i] / b[i], so that a drift of the machine that moves
// both of a pair moves neither ratio, with medianInterval's interval. Below
// MEDIAN_INTERVAL_MIN pairs, where no order statistic reaches 95%, the range of the ratios,
// which holds their median unless every ratio lies on one side of it: at its true level,
// 1 - 2 / 2^n (87.5% at 4 pairs). Null below 4 pairs, as ratioInterval.
function pairedRatioInterval (a, b) {
  return fewValuesInterval(a.map((x, i) => x / b[i]))
}

// medianInterval, or below MEDIAN_INTERVAL_MIN values the range, at its true level, as
// pairedRatioInterval says; null below 4 values.
function fewValuesInterval (values) {
  if (values.length < MIN_RUNS_A_SIDE) return null
  if (values.length >= MEDIAN_INTERVAL_MIN) return medianInterval(values)
  const level = 1 - 2 * 0.5 ** values.length
  return { estimate: median(values), low: Math.min(...values), high: Math.max(...values), level }
}

// pairedRatioInterval, or with 1 to 3 pairs (runs left out before a steady state, or
// failed) the median of their ratios alone, with no interval; null with none.
function pairedRatio (a, b) {
  return pairedFigure(a.map((x, i) => x / b[i]))
}

// By how much a's values exceed b's, pair by pair, as pairedRatio takes how many times: the
// median of a[i] - b[i], so that a spell that slows both of a pair alike moves no difference.
function pairedDifference (a, b) {
  return pairedFigure(a.map((x, i) => x - b[i]))
}

// The median of a figure of each pair with fewValuesInterval's interval; below 4 pairs the
// median alone, with no interval; null with none.
function pairedFigure (values) {
  const interval = fewValuesInterval(values)
  if (interval || values.length === 0) return interval
  return { estimate: median(values), low: null, high: null, level: null }
}

// Whether a[i] and b[i], measured together (the same round), differ: the sign test,
// two-sided and exact, on the pairs that are not equal. It asks nothing of the
// distribution, and a slow spell that moves both of a pair moves neither's sign.
function signTest (a, b) {
  const signs = a.map((x, i) => Math.sign(x - b[i])).filter(sign => sign !== 0)
  if (signs.length === 0) return { above: 0, below: 0, p: 1 }
  const above = signs.filter(sign => sign > 0).length
  const below = signs.length - above
  return { above, below, p: Math.min(1, 2 * binomialHalfCdf(Math.min(above, below), signs.length)) }
}

function signTestRank (n) {
  return Math.floor(n / 2 - 0.5 - Z_TWO_SIDED * Math.sqrt(n) / 2) + 1
}

// The Theil-Sen slope of [x, y] points (Sen 1968): the median of the pairwise slopes, which
// a few wild points cannot move as they move a least-squares line; null below two distinct x.
function theilSenSlope (points) {
  const slopes = []
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const [[x1, y1], [x2, y2]] = [points[i], points[j]]
      if (x2 !== x1) slopes.push((y2 - y1) / (x2 - x1))
    }
  }
  return slopes.length ? median(slopes) : null
}

// Whether values taken in order keep rising or falling: Kendall's S (Mann 1945; Kendall,
// "Rank Correlation Methods"), the pairs that rise minus those that fall, with its two-sided
// p under no trend (every order of the values alike likely: the share of the n! orders with
// as many inversions or as few, from their counts, the Mahonian numbers), exact without
// ties; a tie counts as neither, and the half inversion an odd count of ties leaves is
// counted whole, so that p errs high, never low: { s, p }. How far they move is
// theilSenSlope's.
function trendTest (values) {
  const n = values.length
  let s = 0
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) s += Math.sign(values[j] - values[i])
  }
  if (n < 2) return { s, p: 1 }
  // orders by inversions, built one value at a time: the k-th value adds 0 to k - 1
  let orders = [1]
  for (let k = 2; k <= n; k++) {
    const next = new Array(orders.length + k - 1).fill(0)
    orders.forEach((count, inversions) => {
      for (let added = 0; added < k; added++) next[inversions + added] += count
    })
    orders = next
  }
  const total = orders.reduce((sum, count) => sum + count, 0)
  const pairs = n * (n - 1) / 2
  // S = pairs - 2 × inversions: as far from 0 as |S| means at most (pairs - |S|) / 2
  // inversions, or as many more
  const fewest = Math.ceil((pairs - Math.abs(s)) / 2)
  const tail = orders.slice(0, fewest + 1).reduce((sum, count) => sum + count, 0) / total
  return { s, p: Math.min(1, 2 * tail) }
}

// The level at which the lab calls two sets of runs different, the standard normal
// quantile at 1 - SIGNIFICANCE / 2 that ratioInterval needs, and the confidence the
// intervals aim at as it is printed. Z is checked against SIGNIFICANCE below, so
// changing one without the other fails at once. An interval's true level is its
// `level`: where a caller has one, levelText(interval.level) is what to print.
const SIGNIFICANCE = 0.05
const Z_TWO_SIDED = 1.959964
const INTERVAL_LEVEL = `${Math.round((1 - SIGNIFICANCE) * 100)}%`

// "97.9%": to a tenth, since whole percents would print 97.9% and 98.4% alike.
const levelText = level => `${(level * 100).toFixed(1)}%`
// The levels a set of intervals carry, as a label ("95.7%", or "95.7% or 96.1%" where
// the counts behind them differ); "nominal 95%" for intervals of a run from before each
// carried its level (it was printed so then), and `none` where there is no interval.
function levelsText (intervals, none = 'no') {
  const present = intervals.filter(interval => interval && interval.low !== null && interval.low !== undefined)
  const levels = [...new Set(present.filter(interval => interval.level).map(interval => levelText(interval.level)))].sort()
  if (levels.length) return levels.join(' or ')
  return present.length ? `nominal ${INTERVAL_LEVEL}` : none
}

// Abramowitz and Stegun 7.1.26 for erf: within 1.5e-7, far finer than a p-value needs.
function normalCdf (z) {
  const x = Math.abs(z) / Math.SQRT2
  const t = 1 / (1 + 0.3275911 * x)
  const erf = 1 - t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-x * x)
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2
}

if (Math.abs(normalCdf(Z_TWO_SIDED) - (1 - SIGNIFICANCE / 2)) > 1e-6) throw new Error('lib/stats.js: Z_TWO_SIDED is not the quantile for SIGNIFICANCE')

// The fewest values medianInterval gives an interval for.
let MEDIAN_INTERVAL_MIN = 1
while (signTestRank(MEDIAN_INTERVAL_MIN) < 1) MEDIAN_INTERVAL_MIN++

// A seeded pseudo-random source in [0, 1) (mulberry32): resampling studies and tests that
// must give the same figures on every run.
function seededRandom (seed) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// Standard normal draws from a generator of uniform ones in [0, 1) (seededRandom): Box and
// Muller's, two uniform draws a value, so that a seeded study repeats its draws exactly.
function normalFrom (random) {
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
}

// A shuffle whose order a text (a run's id) decides: its FNV-1a hash seeds the generator.
function seededShuffle (seed) {
  const random = seededRandom([...String(seed)].reduce((hash, char) => Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0, 2166136261))
  return list => {
    const out = [...list]
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1))
      ;[out[i], out[j]] = [out[j], out[i]]
    }
    return out
  }
}

module.exports = {
  median,
  mean,
  standardDeviation,
  normalCdf,
  summarise,
  twoSizeFit,
  leastSquaresSlope,
  centredFit,
  rankTest,
  signTest,
  trendTest,
  theilSenSlope,
  ratioInterval,
  pairedRatioInterval,
  fewValuesInterval,
  pairedRatio,
  pairedDifference,
  differenceInterval,
  medianInterval,
  medianIntervalLevel,
  proportionInterval,
  pairwiseIntervalLevel,
  MEDIAN_INTERVAL_MIN,
  SIGNIFICANCE,
  Z_TWO_SIDED,
  INTERVAL_LEVEL,
  levelText,
  levelsText,
  seededRandom,
  normalFrom,
  seededShuffle
}
