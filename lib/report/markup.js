'use strict'
// The report page's markup, as every experiment's sections write it: safe-by-default
// templating, and the pieces several sections share (a note of why something is
// missing, the lead findings, the repeatability notes, the context section).
const { escapeHtml, formatPercent, formatPercentTenth, formatInterval, formatRange, sizeName } = require('./format')

// ---- safe-by-default templating: every interpolated value is escaped unless it is
// markup this module built itself ----

class Markup {
  constructor (text) {
    this.text = text
  }

  toString () {
    return this.text
  }
}

function fragment (value) {
  if (value instanceof Markup) return value.text
  if (Array.isArray(value)) return value.map(fragment).join('')
  if (value === null || value === undefined || value === false) return ''
  return escapeHtml(value)
}

function html (strings, ...values) {
  return new Markup(strings.reduce((out, text, i) => out + text + (i < values.length ? fragment(values[i]) : ''), ''))
}

function why (notes) {
  return notes.map(note => html`<p class="why"><strong>${note.set}</strong>: ${note.reason}.</p>`)
}

// After an estimate, its interval where it has one.
const intervalText = interval => (interval && interval.low !== null
  ? html` <span class="interval">(${formatRange(interval.low, interval.high)})</span>`
  : '')

// A figure and its interval's text ("(442–777)") in a span, which a wrapping cell sets whole on
// a line of its own.
const figureWithInterval = (figure, interval) => html`${figure} <span class="interval whole">${interval}</span>`

// A share (of C, of a reference) with its interval, as figureWithInterval sets it.
const shareHtml = interval => {
  if (!interval) return ''
  return [interval.low, interval.high].every(Number.isFinite)
    ? figureWithInterval(formatPercentTenth(interval.estimate), `(${formatInterval(interval)})`)
    : html`${formatPercent(interval.estimate)}`
}

// How far the page's answer can be trusted on the machine that measured it, in a line above
// its chart: each set's own figure, what a second run would move the answer by, against the
// goal. sets: the page's sets, each with its label in `set`; trustOf(set): its figure as
// { quotable, moves, goal, lost } ("9 ratios in 10 by up to ±4.6%", "±5%", the cells it lost),
// without moves for a run too short to say, or null for a set with none.
// A text's first sentence: the answer's figure of a criterion that goes on to others, which
// stay in the page's notes.
const firstSentence = text => text?.split(/(?<=\.) (?=[A-Z])/)[0] ?? null

// pairs: where runs of one machine are compared, the sentences of the experiment's two-run
// criterion on its answer, set under the runs' own: whether they agreed is what a comparison is
// for, and it was a table's caption further down (a review found one 4,970 px down).
function trustLine (sets, trustOf, compare, pairs = []) {
  const shown = sets.map(entry => ({ set: entry.set, trust: trustOf(entry) })).filter(entry => entry.trust)
    .map(({ set, trust }) => ({ set, ...trust }))
  const agreed = pairs.filter(Boolean)
  const sentences = agreed.map((text, i) => html`${i ? ' ' : ''}${text.replace(/\.$/, '')}.`)
  const pairLine = agreed.length ? html`<p class="trust pair">Set against each other: ${sentences}</p>` : ''
  if (shown.length === 0) return pairLine
  const says = entry => {
    if (!entry.moves) return 'from too few runs to say how far it repeats'
    if (entry.lost) {
      const lost = `${entry.lost} of its cells failed or kept too few runs to halve, and a lost cell ` +
        `counts against the goal; a second run would move the rest ${entry.moves} (goal ${entry.goal})`
      return html`<strong>not quotable</strong>: ${lost}`
    }
    const verdict = entry.quotable ? 'quotable' : 'too noisy to quote'
    return html`<strong>${verdict}</strong>: a second run would move ${entry.moves} (goal ${entry.goal})`
  }
  return html`<p class="trust">${compare
    ? shown.map((entry, i) => html`${i ? '; ' : ''}<span class="set">${entry.set}</span> ${says(entry)}`)
    : html`On the machine that measured it, the answer is ${says(shown[0])}`}.</p>${pairLine}`
}

// The findings a section gives beside its chart, each headed by its set when sets are compared.
function leadFindings (findings, compare) {
  return findings.length ? html`<ul class="findings lead">${findings.map(finding => html`<li>${compare && finding.set ? html`<span class="set">${finding.set}</span> ` : ''}${finding.text}</li>`)}</ul>` : ''
}

// Each set's own repeatability and the two-run criteria, as notes: { own: [{ set, text }],
// twoRuns: [{ text }] }, a text null where the sets hold nothing for it.
function repeatabilityNotes (repeatability, compare) {
  const own = repeatability.own.filter(entry => entry.text).map(entry => html`<p class="note repeatability">${compare ? html`<span class="set">${entry.set}</span> ` : ''}${entry.text}</p>`)
  const twoRuns = repeatability.twoRuns.filter(pair => pair.text).map(pair => html`<p class="note repeatability">${pair.text}</p>`)
  return [...own, ...twoRuns]
}

// ---- the context ----

function contextTable (data) {
  const keys = []
  for (const context of data.contexts) {
    for (const [key] of context.rows) if (!keys.includes(key)) keys.push(key)
  }
  const value = (context, key) => context.rows.find(([k]) => k === key)?.[1] ?? ''
  return html`<div class="table-wrap"><table class="context">
    ${data.compare ? html`<thead><tr><th scope="col"></th>${data.contexts.map(context => html`<th scope="col">${context.label}</th>`)}</tr></thead>` : ''}
    <tbody>${keys.map(key => html`<tr><th scope="row">${key}</th>${data.contexts.map(context => html`<td>${value(context, key)}</td>`)}</tr>`)}</tbody>
  </table></div>`
}

// What ran where, then notes: what the experiment says of how far to trust its runs.
function contextSection (data, notes) {
  return html`<section id="context">
    <h2>Context</h2>
    ${contextTable(data)}
    ${notes}
  </section>`
}

// The runs that failed (lib/report/context.js failureList), each with its command.
function failedRuns (failures, compare) {
  const items = failures.map(failure => html`<li>${compare ? html`<span class="set">${failure.set}</span> ` : ''}<strong>${failure.phase} ${failure.program}</strong> ${failure.where}, run ${failure.run}: ${failure.reason}${failure.skippedSteps ? ` (its ${failure.skippedSteps} later steps at this cell skipped)` : ''}
    <br><code>${failure.command}</code></li>`)
  return html`<h3>Failed runs</h3>
    ${items.length ? html`<ul class="plain failures">${items}</ul>` : html`<p class="note">No run failed.</p>`}`
}

// A group of block-size buttons: lib/report/browser.js shows the panels of the group's name
// (data-size-panel) at the pressed size and calls the group's redraw, if its charts have one.
function sizeButtons (name, sizes, selected) {
  return html`<div class="toggle" role="group" aria-label="block size" data-size-group="${name}">
    <span class="toggle-label">block size</span>
    ${sizes.map(size => html`<button type="button" data-size="${size}"
      aria-pressed="${String(size === selected)}">${sizeName(size)}</button>`)}
  </div>`
}

// A panel of a size-button group: shown at its size only, the selected one at first.
const sizePanel = (name, size, selected, content, className = null) =>
  html`<div${className ? html` class="${className}"` : ''} data-size-panel="${name}" data-size="${size}"${
    size === selected ? '' : new Markup(' hidden')}>${content}</div>`

module.exports = {
  sizeButtons,
  sizePanel,
  Markup,
  html,
  why,
  intervalText,
  figureWithInterval,
  shareHtml,
  trustLine,
  firstSentence,
  leadFindings,
  repeatabilityNotes,
  contextSection,
  failedRuns
}
