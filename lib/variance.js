'use strict'
// Where a figure's variance lives, and where more repetition would buy the most: the
// method of Kalibera and Jones, "Rigorous Benchmarking in Reasonable Time" (ISMM 2013),
// for the two levels every experiment repeats inside one run of the lab:
//   round     one timed measure (a wrk run, a ladder round) within a process
//   process   a server or ladder started afresh, with its own start-up, memory layout
//             and JIT decisions, which its rounds cannot show
// The third level, the run of the lab, is seen only between two runs (analyse.js A B).
const { mean } = require('./stats')

const sampleVariance = values => {
  if (values.length < 2) return null
  const average = mean(values)
  return values.reduce((sum, value) => sum + (value - average) ** 2, 0) / (values.length - 1)
}

// groups: one array of round values per process. Kalibera and Jones's estimators: T1,
// the mean of the processes' own variances, is the round level's S1²; T2, the variance
// of the processes' means, holds the process level and 1/n of the round level, so
// S2² = T2 - T1 / n (n the rounds a process, their harmonic mean when they differ),
// kept at 0 where noise makes it negative. Percent figures are standard deviations over
// the grand mean. Null below two processes with two rounds each.
function components (groups) {
  const kept = groups.filter(group => group.length > 0)
  const withRounds = kept.filter(group => group.length >= 2)
  if (kept.length < 2 || withRounds.length < 2) return null
  const roundVariance = mean(withRounds.map(sampleVariance))
  const rounds = kept.length / kept.reduce((sum, group) => sum + 1 / group.length, 0)
  const means = kept.map(mean)
  const processExcess = sampleVariance(means) - roundVariance / rounds
  const processVariance = Math.max(0, processExcess)
  const grand = mean(means)
  const percent = variance => grand === 0 ? null : 100 * Math.sqrt(variance) / Math.abs(grand)
  return {
    processes: kept.length,
    rounds,
    mean: grand,
    roundVariance,
    processVariance,
    // S2² before it is held at 0: pooled over cells, the noise in either direction cancels
    processExcess,
    roundPercent: percent(roundVariance),
    processPercent: percent(processVariance),
    // the level whose variance moves the cell's mean the most as it is repeated now
    dominant: processVariance / kept.length >= roundVariance / (kept.length * rounds) ? 'process' : 'round'
  }
}

// Many cells' components pooled, each relative to its cell's mean (so that cells of µs and
// of tens of µs weigh alike): { roundPercent, processPercent, cells }, null with none.
function pooled (parts) {
  const kept = parts.filter(entry => entry && entry.mean)
  if (kept.length === 0) return null
  const average = values => values.reduce((sum, value) => sum + value, 0) / values.length
  const rounds = average(kept.map(entry => entry.roundVariance / entry.mean ** 2))
  const processes = Math.max(0, average(kept.map(entry => (entry.processExcess ?? entry.processVariance) / entry.mean ** 2)))
  return { roundPercent: 100 * Math.sqrt(rounds), processPercent: 100 * Math.sqrt(processes), cells: kept.length }
}

// Kalibera and Jones's optimal rounds a process: r = ceil(sqrt(c2 S1² / (c1 S2²))), c1 the
// cost of one round and c2 what a process costs besides its rounds (its start, checks
// and warm-up). With no process-level variance, as many rounds as `maxRounds`.
function optimalRounds (parts, { roundCost, processCost, maxRounds = 64 }) {
  if (parts.processVariance === 0) return maxRounds
  const rounds = Math.ceil(Math.sqrt((processCost * parts.roundVariance) / (roundCost * parts.processVariance)))
  return Math.min(maxRounds, Math.max(1, rounds))
}

module.exports = { components, pooled, optimalRounds }
