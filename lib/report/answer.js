'use strict'
// The answer an experiment's page opens with: per group (an http mode, a db endpoint),
// each server's figure against the reference's with its interval: a chart first, then one
// short sentence per group (the lowest ratio, the highest, and how sure) and a table. The experiment
// says what its groups and figures are; this file only lays them out.
const { formatNumber, listJoin, escapeMarkdown: md, formatRange } = require('./format')
const { html } = require('./markup')
const { markdownTable, textTable } = require('./plain')
const { levelsText } = require('../stats')

const times = value => `${formatNumber(value)}×`
// whether an interval has its ends (a ratio of too few pairs has its estimate alone)
const hasEnds = interval => interval.low !== null && interval.low !== undefined
const ends = interval => formatRange(interval.low, interval.high)
// the level as every page writes one, "nominal 95%" for an interval of a run that kept none
const span = interval => hasEnds(interval) ? ` (${ends(interval)}×, ${levelsText([interval])})` : ''
// a ratio as the answer's sentences give it, "1.2× (1.18–1.3×, 87.5%)"
const ratioText = interval => `${times(interval.estimate)}${span(interval)}`
// the sign of what an entry's figure holds that its group's label does not say, " §", or ''
const signOf = entry => (entry.mark ? ` ${entry.mark.sign}` : '')

// groups: [{ label ("keep-alive, 128 connections"), reference, figure ("CPU per request"),
// entries: [{ name, interval: { estimate, low, high, level } | null, unquoted: reason | null,
// native (C itself, another of the reference's kind: in the table and chart, but no
// contender for lowest or highest), mark: { sign, means } | null (what the figure holds that
// its group's label does not say: a sign beside it, its meaning under the table and chart) }] }].
// → { groups: [{ ...group, quoted (sorted by estimate), unquoted, sentence }], names }
function answer (groups) {
  const shaped = groups.map(group => {
    const quoted = group.entries.filter(entry => entry.interval && !entry.unquoted)
      .sort((a, b) => a.interval.estimate - b.interval.estimate)
    const unquoted = group.entries.filter(entry => entry.unquoted)
    const contenders = quoted.filter(entry => !entry.native)
    return { ...group, quoted, unquoted, sentence: sentence(group, contenders, unquoted) }
  })
  const names = [...new Set(groups.flatMap(group => group.entries.map(entry => entry.name)))]
  return { groups: shaped, names }
}

// "Keep-alive, 128 connections: just-epoll has the lowest ratio to c-epoll's CPU per request,
// 1.05× (1.01–1.09×, 96.9%); node-http the highest, 2.4× (...). Not quoted: deno (no steady
// state)." Lowest, not closest: a server cheaper than the reference (0.7×) is no nearer to it
// than one at 1.01×.
function sentence (group, quoted, unquoted) {
  // quoted: the contenders, lowest first; the unquoted named once per reason, which a whole
  // group can share (db's reference unsteady at an endpoint leaves none of its ratios quoted)
  const byReason = new Map()
  for (const entry of unquoted) byReason.set(entry.unquoted, [...(byReason.get(entry.unquoted) ?? []), entry])
  const reasons = [...byReason].map(([reason, entries]) => `${listJoin(entries.map(entry => entry.name))} (${reason})`)
  const skipped = unquoted.length ? ` Not quoted: ${reasons.join('; ')}.` : ''
  if (quoted.length === 0) {
    if (unquoted.length === 0) return `${group.label}: no server measured against ${group.reference}.`
    const none = `${group.label}: no ratio to ${group.reference}'s ${group.figure} quoted`
    // one reason for them all (the reference's own): said once, the names left to the table
    return byReason.size === 1 && group.entries.length === unquoted.length
      ? `${none} (${unquoted[0].unquoted}).`
      : `${none}.${skipped}`
  }
  const [lowest] = quoted
  const highest = quoted.at(-1)
  const sure = entry => `${ratioText(entry.interval)}${signOf(entry)}`
  const last = quoted.length > 1 ? `; ${highest.name} the highest, ${sure(highest)}` : ''
  // overlapping intervals are no test that two servers differ, nor that they do not: the run
  // does not show which is lower, and says no more
  const tied = quoted.length > 1 && overlaps(quoted[0].interval, quoted[1].interval)
  const tie = tied ? ` (${quoted[1].name}'s interval overlaps it: this run does not show which is lower)` : ''
  const lead = `${lowest.name} has the lowest ratio to ${group.reference}'s ${group.figure}`
  return `${group.label}: ${lead}, ${sure(lowest)}${tie}${last}.${skipped}`
}

const overlaps = (a, b) => hasEnds(a) && hasEnds(b) && a.high >= b.low && b.high >= a.low

function cellText (entry) {
  if (!entry) return ''
  if (entry.unquoted) return `not quoted: ${entry.unquoted}`
  if (!entry.interval) return ''
  const range = hasEnds(entry.interval) ? ` (${ends(entry.interval)})` : ''
  return `${times(entry.interval.estimate)}${range}${signOf(entry)}`
}

// The marks the answer's figures carry, each once: [{ sign, means }].
function marksOf (shaped) {
  const marks = shaped.groups.flatMap(group => group.quoted.map(entry => entry.mark).filter(Boolean))
  return [...new Map(marks.map(mark => [mark.sign, mark])).values()]
}
const marksText = shaped => marksOf(shaped).map(mark => `; ${mark.sign}: ${mark.means}`).join('')

// The table: a row per server, a column per group, as plain.js's tables take it.
function answerTable (shaped) {
  const header = ['server', ...shaped.groups.map(group => group.label)]
  const cellOf = (group, name) => cellText(group.entries.find(entry => entry.name === name))
  const rows = shaped.names.map(name => [name, ...shaped.groups.map(group => cellOf(group, name))])
  return { header, rows, align: header.map((_, i) => (i ? 'r' : 'l')) }
}

// The table's note with the level its intervals carry, which a cell has no room to say.
function captionOf (shaped, note) {
  const intervals = shaped.groups.flatMap(group => group.entries.map(entry => entry.interval)).filter(Boolean)
  const levels = levelsText(intervals, null)
  const bare = intervals.some(interval => !hasEnds(interval)) ? ' (none where a ratio rests on too few runs)' : ''
  return `${levels ? `${note}; intervals at ${levels}${bare}` : note}${marksText(shaped)}`
}

const heading = group => html`<th scope="col" class="num">${group.label}</th>`
// a figure stays on one line; a reason it is not quoted (a sentence, at times with figures of
// its own) wraps within its column rather than push the table's other columns out of sight
const cell = entry => html`<td class="num${entry?.unquoted ? ' wraps reason' : ''}">${cellText(entry)}</td>`
const row = (shaped, name) => html`<tr><th scope="row">${name}</th>${
  shaped.groups.map(group => cell(group.entries.find(entry => entry.name === name)))}</tr>`

// trust: the line that says how far the answer can be trusted (markup.js trustLine)
function answerHtml (shaped, { id, title, note, trust = '' }) {
  return html`<section id="${id}">
    <h2>${title}</h2>
    ${trust}
    <div class="chart" id="chart-${id}"></div>
    <ul class="answer">${shaped.groups.map(group => html`<li>${group.sentence}</li>`)}</ul>
    <div class="table-wrap"><table class="answer">
      <caption>${captionOf(shaped, note)}</caption>
      <thead><tr><th scope="col">server</th>${shaped.groups.map(heading)}</tr></thead>
      <tbody>${shaped.names.map(name => row(shaped, name))}</tbody>
    </table></div>
  </section>`
}

function answerMarkdown (shaped, { title, note }) {
  const { header, rows, align } = answerTable(shaped)
  const sentences = shaped.groups.map(group => `- ${md(group.sentence)}`)
  const table = markdownTable(header, rows.map(cells => cells.map(md)), align)
  return [`## ${md(title)}`, '', ...sentences, '', md(captionOf(shaped, note)), '', table, '']
}

function answerText (shaped, { title, note = 'the table' }) {
  const { header, rows, align } = answerTable(shaped)
  const table = textTable([header, ...rows], align).map(line => line.trimEnd())
  return ['', `${title}:`, ...shaped.groups.map(group => `- ${group.sentence}`), '',
    `${captionOf(shaped, note)}:`, ...table]
}

// A group in a word: "keep-alive", "close", "/db".
const tagOf = group => group.label.split(',')[0].replace('Connection: ', '')

// What the page's chart draws: a series per group, a bar per server (its estimate, the
// interval as whiskers), the reference's 1× as a line. axis: the value axis's title, or a
// function of the groups' reference (its name, which the run gives: db's is one of several
// C servers).
function answerChart (shaped, { title, axis }) {
  const intervals = shaped.groups.flatMap(group => group.quoted.map(entry => entry.interval))
  const reference = shaped.groups.find(group => group.reference)?.reference ?? 'the reference'
  return {
    title,
    axis: typeof axis === 'function' ? axis(reference) : axis,
    // the whiskers' level, for the chart to say; whether a bar goes without (too few runs)
    levels: levelsText(intervals, null),
    bareBars: intervals.some(interval => !hasEnds(interval)),
    // a figure's sign beside it, and its meaning under the subtitle
    marks: marksOf(shaped),
    categories: shaped.names,
    // what each row's empty slots mean: a group the answer does not quote for that server
    // ("/db: no steady state"), written under its name, where a blank would say nothing
    unquoted: shaped.names.map(name => shaped.groups.flatMap(group => {
      const entry = group.unquoted.find(item => item.name === name)
      return entry ? [`${shaped.groups.length > 1 ? `${tagOf(group)}: ` : ''}not quoted, ${entry.unquoted}`] : []
    })),
    series: shaped.groups.map(group => {
      const intervals = shaped.names.map(name => group.quoted.find(item => item.name === name)?.interval ?? null)
      return {
        name: group.label,
        // the group in a word, which each bar's figure carries where groups share a row: their
        // fills alone (a hue and its tints) were hard to tell apart
        tag: tagOf(group),
        data: intervals.map(interval => interval?.estimate ?? null),
        signs: shaped.names.map(name => group.quoted.find(item => item.name === name)?.mark?.sign ?? null),
        whiskers: intervals.map(interval => (interval && hasEnds(interval) ? [interval.low, interval.high] : null))
      }
    })
  }
}

module.exports = { answer, answerHtml, answerMarkdown, answerText, answerChart, ratioText }
