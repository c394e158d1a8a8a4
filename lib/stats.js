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

module.exports = { median, mean, standardDeviation, summarise, twoSizeFit }
