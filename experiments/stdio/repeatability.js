'use strict'
// Whether the stdio experiment's throughput repeats: the best run's MB/s of each cell
// whose reader honours the block size, between two runs and between the halves of one
// (lib/repeatability.js).
const { median } = require('../../lib/stats')
const { formatNumber, sizeName } = require('../../lib/report/format')
const {
  GOAL, withinGoal, usable, nearestRank, criterion, pairByKey, ownText, criterionText, lostCells, lostText
} = require('../../lib/repeatability')
const { findProgram } = require('./programs')

// A program that reads the block size it is given; a Node row measured per version
// (node-sync@22) is its version-less row's program.
function honoursBlockSize (program) {
  return (findProgram(program) ?? findProgram(String(program).split('@')[0]))?.honoursBlockSize === true
}

// Two runs of the stdio experiment: each honoured cell's best-of-runs steady-state MB/s
// (end-to-end where start-up could not be taken out) in one against the other.
function throughputRepeatability (resultsA, resultsB) {
  const figure = cell => cell?.best?.steadyThroughputMBps ?? cell?.best?.throughputMBps ?? null
  // a cell either run failed or lacks is a missing cell (lib/repeatability.js)
  const honoured = cells => (cells ?? []).filter(cell => honoursBlockSize(cell.program))
  const key = cell => `${cell.program}\t${cell.blockSize}`
  const pairs = pairByKey(honoured(resultsA.cells), honoured(resultsB.cells), key)
  const cells = pairs.map(([x, y]) => {
    const { program, blockSize } = x ?? y
    const a = figure(x)
    return { program, blockSize, name: `${program} @ ${sizeName(blockSize)}`, a: a > 0 ? a : null, b: figure(y) }
  })
  const measured = cells.filter(cell => usable(cell.a) && usable(cell.b))
  // The moves signed: where most cells moved one way, the machine's speed moved (the
  // host's load, its clock), which absolute MB/s cannot cancel and shares of C do
  const signed = measured.map(cell => (cell.b - cell.a) / cell.a * 100)
  return { ...criterion(cells), signedMovePercent: signed.length ? median(signed) : null }
}

// The run's own repeatability of its throughput: the nearest-rank 90th percentile of the
// halves' moves over the honoured cells. Each half is the best of half the runs, and the
// best of fewer runs is the noisier (a lucky run is likelier among more), so two halves of
// best-of-five move more than two runs' best-of-ten would from the noise within a run: an
// upper estimate of that. On the reference run of 2026-11-24's 6 runs a cell, unpinned
// (`git show a9bcf7c:results/reference/all.jsonl`, 99 honoured cells) the 90th
// percentile of the move was 27.5% for best of 1 against 1, 10.8% for 2 against 2, 10.1%
// for 3 against 3 (medians 5.1%, 3.8%, 2.9%). What the halves cannot see is what changes
// between runs: that run against its twin (docs/reproducibility/d), best of 6 against 6,
// moved by 22.9% at the 90th percentile (median 7.3%), where the halves said 10.1%. Pinned,
// at 10 runs, the runs of 2026-11-25 said ±2.9% to ±3.6% by their halves, and a second run
// moved 93 of 99 cells by at most 5%, or, where the machine's speed moved between them,
// 48 (docs/reproducibility.md). So a run too noisy by its halves is too noisy; one within
// the goal by its halves still needs the two-run criterion (throughputRepeatability).
// An honoured cell the run measured and could not halve (its runs failed) is lost, and keeps
// the run from being quoted as repeating, as in the other experiments.
function throughputHalves (cells) {
  const honoured = cells.filter(cell => honoursBlockSize(cell.program))
  const lost = lostCells(honoured, cell => Boolean(cell.halves), cell => `${cell.program} @ ${sizeName(cell.blockSize)}`)
  const rows = honoured.filter(cell => cell.halves).map(cell => ({
    program: cell.program, blockSize: cell.blockSize, a: cell.halves.a, b: cell.halves.b, movePercent: cell.halves.movePercent, within: withinGoal(cell.halves.movePercent)
  }))
  const quotedPercent = nearestRank(rows.map(row => row.movePercent), GOAL.share)
  const quotable = quotedPercent !== null && withinGoal(quotedPercent) && lost.length === 0
  return { quotedPercent, goalPercent: GOAL.percent, quotable, cells: rows, lost }
}

function throughputOwnText (own) {
  if (!own) return null
  // within the goal or not by the halves alone: a lost cell is said apart, not as noise
  const withinOwnGoal = own.quotedPercent !== null && withinGoal(own.quotedPercent)
  const text = ownText('the best run\'s steady-state MB/s', own.quotedPercent, withinOwnGoal, own.goalPercent)
  const lost = lostText(own.lost)
  return lost && text ? `${lost} ${text}` : text
}

function throughputCriterionText (result, labels) {
  const what = `${labels[1]} against ${labels[0]}: the best run's steady-state MB/s of the honoured cells`
  const text = criterionText(what, result, labels)
  const signed = result?.signedMovePercent
  if (!text || signed === null || signed === undefined) return text
  return `${text} Signed, the median move was ${signed >= 0 ? '+' : ''}${formatNumber(signed)}%${Math.abs(signed) > result.goal.percent / 2 ? ': most cells moved one way, so the machine itself ran at another speed' : ''}.`
}

module.exports = { honoursBlockSize, throughputRepeatability, throughputHalves, throughputOwnText, throughputCriterionText }
