'use strict'
// What a run's server processes did (lib/steady.js), in the sentences the http and db
// findings print: how many of each class, the runs left out, and the sequences of those
// that reached no steady state, which a cell is then not quoted without.
const { formatNumber, listJoin } = require('./format')
const { runProcesses, MIN_RUNS, MIN_TREND_RUNS, TREND_SHARE } = require('../steady')

// cells: an experiment's summary cells; whereOf(cell) names a cell's process group
// ("bun (close)", "bun /db"); unit: a sequence's unit; reference: what a sequence of
// ratios (basis 'ratio') is taken over ("c-epoll's").
function steadinessFindings (cells, whereOf, { unit = 'µs', reference = 'the reference\'s' } = {}) {
  const all = runProcesses(cells, whereOf)
  const processes = all.filter(entry => entry.kind !== null)
  // a sequence too short to classify is said so, never counted as flat nor dropped: under
  // MIN_RUNS values, or one whose runs after the first move one way, too few for the drift
  // test (lib/steady.js movingUntested: MIN_TREND_RUNS values at most)
  const short = all.length - processes.length
  const tooShort = short
    ? `, and ${short} ${short === 1 ? 'was' : 'were'} too short to classify (under ${MIN_RUNS} values, or ` +
      `${MIN_TREND_RUNS} whose ${MIN_TREND_RUNS - 1} runs after the first moved one way by more than ` +
      `${Math.round(TREND_SHARE * 100)}%, too few to test)`
    : ''
  if (all.length === 0) return []
  const count = kind => processes.filter(entry => entry.kind === kind).length
  const before = cells.reduce((sum, cell) => sum + (cell.beforeSteady ?? 0), 0)
  const classes = `${count('flat')} ran flat, ${count('warm-up')} warmed up, ${count('slowdown')} slowed down and ` +
    `${count('no steady state')} reached no steady state${tooShort}`
  const asRatio = processes.some(entry => entry.basis === 'ratio')
    ? `, as a ratio to ${reference} beside it where every one was taken in turns with it,`
    : ''
  const source = `They are Barrett et al.'s classes, from each process's CPU per request${asRatio} ` +
    'through its warm-up and its runs at the most connections'
  const runs = before === 1 ? '1 run' : `${before} runs`
  const leftOut = `${runs} from before a process's steady state ${before === 1 ? 'is' : 'are'} left out`
  const left = before ? `; ${leftOut} of the figures.` : '.'
  // the counts first, the source a sentence of its own: the too-short ones' reason is in
  // brackets already
  const lines = [`Of ${all.length} server process${all.length === 1 ? '' : 'es'}, ${classes}. ${source}${left}`]
  const moving = all.filter(entry => entry.kind === 'no steady state' || (entry.kind === null && entry.moving))
  if (moving.length) {
    const unquoted = cells.filter(cell => cell.steadiness?.steady === false).length
    const unitOf = entry => entry.basis === 'ratio' ? `× ${reference}` : unit
    // a process unsteady for a drift, not a late step, says so: the two call for different
    // readings (a cost that grows with use, a warm-up not yet done)
    const driftOf = ({ trend, moving: way }) => {
      if (way) return `, ${way}, too short to classify`
      if (!trend) return ''
      const share = formatNumber(Math.abs(trend.share) * 100)
      return `, still ${trend.direction} (${share}% over its last ${trend.runs} runs)`
    }
    const sequenceOf = entry =>
      `${entry.sequence.map(value => formatNumber(value)).join(', ')} ${unitOf(entry)}${driftOf(entry)}`
    const sequences = moving.map(entry => `${entry.where} process ${entry.process + 1}: ${sequenceOf(entry)}`)
    const untold = moving.some(entry => entry.kind === null)
    const whose = `whose server process${moving.length === 1 ? '' : 'es'} reached no steady state` +
      (untold ? ' or moved one way in runs too few to tell' : '')
    const order = `CPU per request, in order: ${listJoin(sequences)}`
    lines.push(`Not quoted as one number: ${unquoted} cell${unquoted === 1 ? '' : 's'}, ${whose} (${order}).`)
  }
  return lines
}

module.exports = { steadinessFindings }
