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

module.exports = { median, mean, standardDeviation, summarise }
