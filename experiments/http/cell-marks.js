'use strict'
// A server cell's marks, the same in the http and db tables: what each says of the cell's
// figure, as a badge on the page (its reason in its title) and as a letter in the terminal's
// and markdown's tables, whose titles give the letters' legend.
const { formatPercent, formatNumber } = require('../../lib/report/format')
const { html } = require('../../lib/report/markup')
const { COMPILING_RULE } = require('./measure')
const { GOAL, movePercent } = require('../../lib/repeatability')
const { unsteadyCellReason, unquotedReason, WARMUP_UNSETTLED } = require('../../lib/steady')
const { CONNECT_EACH, connectEach } = require('./servers')

// Whether a cell's every request opened a connection though its mode keeps them: http's cells
// say so since 2026-12-07, older ones are told by the server's definition; db's have no mode.
const connectsEach = cell => cell.connectEach ?? (cell.mode ? connectEach(cell.server, cell.mode) : false)

// Whether some of a cell's V8 processes collected the old generation in its runs and some did
// not (summary.js gcStatesOf).
const splitByGc = ({ gcStates }) => gcStates?.oldGeneration > 0 && gcStates.oldGeneration < gcStates.processes

const MARKS = [
  {
    letter: CONNECT_EACH.sign,
    word: CONNECT_EACH.word,
    means: `${CONNECT_EACH.word}, ${CONNECT_EACH.means}`,
    // in a table's legend only where one of its cells carries it: never db's, nor close's
    legendWhenSeen: true,
    applies: connectsEach,
    title: () => CONNECT_EACH.means
  },
  {
    letter: 'c',
    word: 'client-bound',
    means: 'client-bound, the server used under 90% of its CPU',
    applies: cell => cell.clientBound === true,
    // db's load is wrk and the database together: what feeds the server, in either
    title: cell => `the server used ${formatPercent(cell.serverCpuShare)} of its CPU: ` +
      'its load set the pace'
  },
  {
    letter: 'u',
    word: 'unsteady',
    means: 'unsteady, a server process reached no steady state or moved one way in runs too few to classify',
    applies: cell => cell.unsteady === true,
    title: cell => {
      const { moving, counts } = cell.steadiness ?? {}
      const unquoted = ': not quoted as one number'
      // unsteady without a verdict: no process long enough to classify, a warm-up that never
      // settled (lib/steady.js unsteadyCell)
      if (unsteadyCellReason(cell) === WARMUP_UNSETTLED) {
        return `no server process had the runs to be classified, and a warm-up never had two runs agree${unquoted}`
      }
      const what = moving > 0 && !(counts?.['no steady state'] > 0)
        ? 'moved one way in runs too few to classify'
        : 'reached no steady state'
      return `a server process ${what} over its warm-up and runs${unquoted}`
    }
  },
  {
    letter: 'd',
    word: 'disturbed',
    means: 'disturbed, a kept run saw other processes\' CPU time on its CPUs',
    applies: cell => cell.flags?.includes('disturbed') === true,
    title: () => 'a run it kept saw other processes\' CPU time on its CPUs'
  },
  {
    letter: 'j',
    word: 'V8 compiling',
    means: 'V8 compiling, a kept run was timed while V8 still finished optimizing compiles',
    applies: cell => cell.flags?.includes('compiling') === true,
    title: cell => `${cell.compilingRuns} of the ${cell.runs} runs it kept ` +
      `${cell.compilingRuns === 1 ? 'was' : 'were'} timed while V8 finished more optimizing compiles ` +
      `than a settled JIT does (${COMPILING_RULE}): its figure holds the compiler's work`
  },
  {
    letter: 'g',
    word: 'GC states differ',
    means: 'GC states differ, some of its V8 processes collected the old generation in its runs and some did not',
    applies: splitByGc,
    title: ({ gcStates: { oldGeneration, processes, cpuOldUs, cpuYoungUs } }) =>
      `${oldGeneration} of its ${processes} processes collected V8's old generation in the runs it kept ` +
      `(${formatNumber(cpuOldUs)} µs of CPU a request), the others only the young one ` +
      `(${formatNumber(cpuYoungUs)} µs): V8 chose the state in each process, and the figure mixes the two`
  }
]

const marksOf = cell => MARKS.filter(mark => mark.applies(cell))

// Why a cell's one figure is not its answer where its V8 processes fell into both GC states
// and the states' figures differ by more than the lab's goal for a figure that repeats: their
// median lies between two levels none of them was at. Each state's ratio to the reference
// where its runs took turns with it, else its CPU per request; null otherwise.
function gcStatesReason (cell) {
  if (!splitByGc(cell)) return null
  const { oldGeneration, processes, ratioOld, ratioYoung, cpuOldUs, cpuYoungUs } = cell.gcStates
  const inTurns = ratioOld !== null && ratioYoung !== null
  if (movePercent(inTurns ? ratioYoung : cpuYoungUs, inTurns ? ratioOld : cpuOldUs) <= GOAL.percent) return null
  const [old, young] = inTurns
    ? [`${formatNumber(ratioOld)}×`, `${formatNumber(ratioYoung)}×`]
    : [`${formatNumber(cpuOldUs)} µs`, `${formatNumber(cpuYoungUs)} µs`]
  return `its processes fell into two GC states: ${old} in the ${oldGeneration} of ${processes} where V8 ` +
    `collected its old generation, ${young} in the others`
}

// Why the answer does not quote a cell as one figure (failed, unsteady or split by its GC
// states), or null: the answer, the CSV and the findings ask alike.
const answerUnquotedReason = cell => unquotedReason(cell) ?? gcStatesReason(cell)

// The cell's marks as the page's badges, and its failed runs: a line of them may break between
// badges (class marks), where the figures beside them keep to one line, so that a cell with
// two or three does not widen its column past the page.
const marksHtml = cell => {
  const badges = [
    ...marksOf(cell).map(mark => html` <span class="badge" title="${mark.title(cell)}">${mark.word}</span>`),
    cell.failedRuns ? html` <span class="badge">${cell.failedRuns} failed</span>` : ''
  ]
  return badges.some(Boolean) ? [html`<span class="marks">${badges}</span>`] : []
}

// The cell's marks as the plain tables' letters: " c j".
const marksLetters = cell => marksOf(cell).map(mark => ` ${mark.letter}`).join('')

const legendOf = mark => `${mark.letter}: ${mark.means}`

// What the letters mean, for a plain table's title: "c: client-bound, …; u: …", those a mark
// says only where seen among `cells` (the table's) left out where none carries it.
const marksLegend = (cells = []) => MARKS
  .filter(mark => !mark.legendWhenSeen || cells.some(cell => cell && mark.applies(cell)))
  .map(legendOf).join('; ')
const MARKS_LEGEND = marksLegend()
// what § means, as the tables' legends say it, for the comparison of machines
const CONNECT_EACH_LEGEND = legendOf(MARKS.find(mark => mark.letter === CONNECT_EACH.sign))

module.exports = {
  marksHtml,
  marksLetters,
  marksLegend,
  MARKS_LEGEND,
  CONNECT_EACH_LEGEND,
  splitByGc,
  gcStatesReason,
  answerUnquotedReason,
  connectsEach
}
