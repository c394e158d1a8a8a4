'use strict'
// Whether a run's figures repeat: between two runs of the lab (the two-run criterion), and
// within one run, between the interleaved halves of each cell's runs (the run's own figure,
// which a reader of one results folder can quote without a second run beside it). What
// each experiment's figures are: its repeatability.js.
const { median } = require('./stats')
const { formatNumber, formatBound, counted } = require('./report/format')

// A figure repeats when it moves by at most GOAL.percent in at least GOAL.share of the
// cells: one cell caught by a slow spell of the VM does not fail a run, a machine whose
// every cell wanders does.
const GOAL = { percent: 5, share: 0.9 }
// Moves are ratios of measured floats: 105 against 100 must count as 5%, not 5.000000000000004%.
const EPSILON = 1e-9

const movePercent = (a, b) => Math.abs(b / a - 1) * 100
const withinGoal = percent => percent <= GOAL.percent + EPSILON
const usable = value => typeof value === 'number' && Number.isFinite(value)

// The least move that at least `share` of the cells do not exceed (the nearest rank), so
// that a quoted figure within the goal says exactly that the goal's share of cells met it.
function nearestRank (values, share) {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil(share * sorted.length - EPSILON) - 1)]
}

// How far a cell's figure moved between runs a and b, in percent, or null where no move can
// be taken: against a's figure, so none from a zero; or against the smaller of the two, the
// same whichever run comes first, where a figure that grew from zero moved without bound.
const moveFromA = (a, b) => (a === 0 ? null : movePercent(a, b))
function moveFromSmaller (a, b) {
  const smaller = Math.min(a, b)
  return smaller > 0 ? Math.abs(b - a) / smaller * 100 : a === b ? 0 : Infinity
}

// cells: [{ name, ..., a, b }] of the figure in run a and in run b, every cell either run
// has; goal: { percent, share } (the lab's GOAL unless an experiment quotes its figure
// closer, as the ladder does); move: moveFromA or moveFromSmaller. A cell one run failed or
// lacks (no figure; for a, none that a move can be taken from) stays in the total, is
// listed in missing with the runs it is missing in, and fails the goal: left out, it would
// make a run that lost its worst cells look better.
function criterion (cells, goal = GOAL, move = moveFromA) {
  // a's figure is missing too where no move can be taken from it (moveFromA's zero)
  const fromA = cell => usable(cell.a) && move(cell.a, usable(cell.b) ? cell.b : cell.a) !== null
  const absentIn = cell => [['a', fromA(cell)], ['b', usable(cell.b)]]
    .filter(([, present]) => !present).map(([side]) => side)
  const missing = cells.filter(cell => absentIn(cell).length).map(cell => ({ ...cell, in: absentIn(cell) }))
  const rows = cells.filter(cell => absentIn(cell).length === 0).map(cell => {
    const moved = move(cell.a, cell.b)
    return { ...cell, movePercent: moved, within: moved <= goal.percent + EPSILON }
  })
  const moves = rows.map(row => row.movePercent)
  const within = rows.filter(row => row.within).length
  const total = cells.length
  return {
    cells: rows,
    missing,
    within,
    total,
    medianMovePercent: moves.length ? median(moves) : null,
    maxMovePercent: moves.length ? Math.max(...moves) : null,
    goal: { ...goal },
    met: total ? missing.length === 0 && within >= goal.share * total - EPSILON : null
  }
}

// Two runs' cells by key: [a's or undefined, b's or undefined] for every key either has,
// a's order first.
function pairByKey (cellsA = [], cellsB = [], key) {
  const others = new Map(cellsB.map(cell => [key(cell), cell]))
  const keys = new Set(cellsA.map(key))
  return [
    ...cellsA.map(cell => [cell, others.get(key(cell))]),
    ...cellsB.filter(cell => !keys.has(key(cell))).map(cell => [undefined, cell])
  ]
}

// The cells a criterion counted that either run failed or lacks, as the clause a criterion's
// sentence carries: "; 2 missing: y in h2, z in h1 and h2", or '' with none; labels name
// the two runs.
// The first MISSING_NAMED by name, the rest counted: a pair of older runs left 28 cells out,
// and their list filled the top of the page.
const MISSING_NAMED = 6
function missingClause (missing = [], labels = ['a', 'b']) {
  if (missing.length === 0) return ''
  const where = cell => cell.in.map(side => labels[side === 'a' ? 0 : 1]).join(' and ')
  const named = missing.slice(0, MISSING_NAMED).map(cell => `${cell.name} in ${where(cell)}`).join(', ')
  const more = missing.length > MISSING_NAMED ? `, and ${missing.length - MISSING_NAMED} more` : ''
  return `; ${missing.length} missing: ${named}${more}`
}

// A cell's runs in two interleaved halves, even and odd run indices, so that a slow spell
// or a drift over the cell's minutes lands in both; each half summed up by `pick` (the best
// or the median of its runs). Null with fewer than one usable run a half. Runs without
// distinct indices (records made by hand, older logs) are halved by their order.
function interleavedHalves (runs, value, pick) {
  const halves = [[], []]
  const indexed = runs.every(run => Number.isInteger(run.run)) && new Set(runs.map(run => run.run)).size === runs.length
  runs.forEach((run, position) => {
    const index = indexed ? run.run : position
    const figure = value(run)
    if (usable(figure)) halves[index % 2].push(figure)
  })
  if (halves[0].length === 0 || halves[1].length === 0) return null
  const [a, b] = halves.map(pick)
  if (!(a > 0)) return null
  return { a, b, movePercent: movePercent(a, b), runs: halves.map(half => half.length) }
}

// Two ways to halve a cell's rounds or processes, given the indices it has (their order is
// the order they ran in): each returns index => 0 or 1. Even against odd share every slow
// change of the run, so their difference is the units' own spread; early against late (the
// first half of the indices against the rest) holds the machine's drift through the run as
// well, which a second run, minutes later, meets and interleaved halves cannot see. A run's
// own figure takes the larger of the two, cell by cell (docs/calls.md, 2026-12-05).
const HALVINGS = {
  evenOdd: () => index => Number(index) % 2,
  earlyLate: indices => {
    const sorted = indices.map(Number).sort((a, b) => a - b)
    const firstLate = sorted[Math.ceil(sorted.length / 2)] ?? Infinity
    return index => (Number(index) < firstLate ? 0 : 1)
  }
}

// Issue 47's goal for a run's own figure, counted over pairs by way of halving (`split`): what
// the pair moved (its 90th percentile) lies within what the run said, and what it said is at
// most twice that. add() gives the pair's line part; lines() the totals, a line a split.
function foretellTally () {
  const tally = {}
  const format = value => value.toFixed(2).padStart(5)
  return {
    add (split, figures, movedP90) {
      const foretold = figures.map(figure => movedP90 <= figure && figure <= 2 * movedP90)
      tally[split] ??= { runs: 0, foretold: 0, under: 0, over: 0 }
      tally[split].runs += figures.length
      tally[split].foretold += foretold.filter(Boolean).length
      tally[split].under += figures.filter(figure => figure < movedP90).length
      tally[split].over += figures.filter(figure => figure > 2 * movedP90).length
      const verdicts = foretold.map(yes => (yes ? 'yes' : 'no')).join('/')
      return `${split} ${figures.map(format).join(' ')} ${verdicts}`
    },
    lines: () => Object.entries(tally).map(([split, counts]) =>
      `${split}: ${counts.foretold} of ${counts.runs} runs foretold their pair; ` +
      `${counts.under} said less than moved, ${counts.over} more than twice it`)
  }
}

// The cells a run measured but could not halve while others could (every run failed, or too
// few were kept): they count against the run's own figure as against the two-run criterion,
// so that a run that lost its worst cells does not read as steadier. Their names, [] where
// no cell could be halved (the run had too few runs for any figure).
function lostCells (cells, halved, name) {
  return cells.some(halved) ? cells.filter(cell => !halved(cell)).map(name) : []
}

// The sentence that leads a run's own repeatability where it lost cells; null where none.
function lostText (lost = []) {
  if (lost.length === 0) return null
  return `This run lost ${counted(lost.length, 'cell')} ` +
    `(every run failed, or too few were kept to halve: ${lost.join(', ')}), ` +
    'and a lost cell counts against the goal: the run is not quotable, and what follows speaks for the ' +
    'other cells only.'
}

// What a run says of its own repeatability, in a sentence; null without a figure. quotable:
// the verdict the experiment's own figures already carry (percent within the goal).
// halves: how each cell's runs were halved, in words (http halves by process)
function ownText (what, percent, quotable, goalPercent = GOAL.percent, halves = 'interleaved halves of runs') {
  if (percent === null || percent === undefined) return null
  return quotable
    ? `On this machine, today, ${what} repeats within ±${formatBound(percent)}% ` +
      `(the 90th percentile of the moves between each cell's ${halves}; goal ±${goalPercent}%).`
    : `This machine was too noisy to quote ${what} (±${formatBound(percent)}%, goal ±${goalPercent}%).`
}

// A run's own figure for the page's trust line (lib/report/markup.js trustLine): what a
// second run would move nine of the answer's figures in ten by, against the goal; quotable as
// for ownText.
function ownTrust (what, percent, quotable, goalPercent = GOAL.percent, lost = []) {
  if (percent === null || percent === undefined) return { quotable: false, moves: null, goal: null }
  return {
    quotable: quotable && lost.length === 0,
    lost: lost.length,
    moves: `9 ${what} in 10 by up to ±${formatBound(percent)}%`,
    goal: `±${goalPercent}%`
  }
}

// The two-run criteria in a sentence each; labels name the two runs.
function criterionText (what, result, labels) {
  if (!result || result.total === 0) return null
  const missing = missingClause(result.missing, labels)
  const moves = result.cells.length
    ? `; median ${formatNumber(result.medianMovePercent)}%, ` +
      `at most ${formatBound(result.maxMovePercent)}%`
    : ''
  return `${what} moved by at most ${result.goal.percent}% in ${result.within} of ${result.total} cells ` +
    `(goal: ${Math.round(result.goal.share * 100)}%)${missing}: ${result.met ? 'met' : 'not met'}${moves}.`
}

// The calls-of-work criterion in a sentence (http's and db's: their experiments' repeatability.js).
function workText (moved, goal, work, labels, unit = '') {
  if (!work.total) return null
  const missing = missingClause(work.missing, labels)
  const most = work.maxMove === null ? 'nothing' : `${formatBound(work.maxMove)}${unit}`
  return `${moved} ${most} ${goal}, ${work.within} of ${work.total} within${missing}): ${work.met ? 'met' : 'not met'}.`
}

// The machine's own speed, as a probe run in every round shows it (stdio: C's rounds; db: the
// servers' together): a round within CALM_SHARE of the probe's middle is calm, the edge
// included. [{ number, offset }], offset the round's departure from the middle as a ratio
// (0.03: 3% dearer) → the calm rounds' numbers.
const CALM_SHARE = 0.05
const calmRoundNumbers = rounds =>
  rounds.filter(({ offset }) => Math.abs(offset) <= CALM_SHARE + EPSILON).map(({ number }) => number)

module.exports = {
  ownTrust,
  GOAL,
  EPSILON,
  CALM_SHARE,
  calmRoundNumbers,
  movePercent,
  withinGoal,
  usable,
  nearestRank,
  criterion,
  moveFromSmaller,
  pairByKey,
  missingClause,
  interleavedHalves,
  HALVINGS,
  foretellTally,
  lostCells,
  lostText,
  ownText,
  criterionText,
  workText
}
