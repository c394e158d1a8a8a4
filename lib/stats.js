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

// How far a's values lie from b's, with a 95% interval that asks nothing of their
// distribution: the Hodges-Lehmann estimate (the median of every a[i] against b[j]) and
// the interval that inverts rankTest (Bauer 1972): the shifts for which a against b so
// shifted would not be told apart at the 5% level, i.e. all but the k - 1 lowest and
// k - 1 highest of the m n comparisons, k from the same normal approximation and
// continuity correction (ties, rare in times, are not corrected for). Null below 4
// values a side, as rankTest.
function pairwiseInterval (a, b, compare) {
  if (a.length < MIN_RUNS_A_SIDE || b.length < MIN_RUNS_A_SIDE) return null
  const values = a.flatMap(x => b.map(y => compare(x, y))).sort((x, y) => x - y)
  const pairs = values.length
  const sigma = Math.sqrt(pairs * (a.length + b.length + 1) / 12)
  const k = Math.floor(pairs / 2 - 0.5 - Z_TWO_SIDED * sigma) + 1
  return { estimate: median(values), low: values[k - 1], high: values[pairs - k] }
}

// How many times b's values a's values are: ratios rather than differences where a
// run's noise scales with its length.
const ratioInterval = (a, b) => pairwiseInterval(a, b, (x, y) => x / y)
// By how much a's values exceed b's.
const differenceInterval = (a, b) => pairwiseInterval(a, b, (x, y) => x - y)

// The median of values with a 95% interval that asks nothing of their distribution:
// the order statistics that invert the sign test (the k-th lowest and k-th highest of
// n, k from the binomial's normal approximation with continuity correction, as in
// ratioInterval). For paired measurements, one value per pair. Null when n is too
// small for any interval at this level (k < 1, n below 6).
function medianInterval (values) {
  const sorted = [...values].sort((a, b) => a - b)
  const n = sorted.length
  const k = signTestRank(n)
  if (k < 1) return null
  return { estimate: median(sorted), low: sorted[k - 1], high: sorted[n - k] }
}

function signTestRank (n) {
  return Math.floor(n / 2 - 0.5 - Z_TWO_SIDED * Math.sqrt(n) / 2) + 1
}

// The level at which the lab calls two sets of runs different, the standard normal
// quantile at 1 - SIGNIFICANCE / 2 that ratioInterval needs, and the interval's
// confidence as it is printed. Z is checked against SIGNIFICANCE below, so changing
// one without the other fails at once.
const SIGNIFICANCE = 0.05
const Z_TWO_SIDED = 1.959964
const INTERVAL_LEVEL = `${Math.round((1 - SIGNIFICANCE) * 100)}%`

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

module.exports = { median, mean, standardDeviation, summarise, twoSizeFit, rankTest, ratioInterval, differenceInterval, medianInterval, MEDIAN_INTERVAL_MIN, SIGNIFICANCE, INTERVAL_LEVEL }
