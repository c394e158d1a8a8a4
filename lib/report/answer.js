'use strict'
// The answer an experiment's page opens with: per group (an http mode, a db endpoint),
// each server's figure against the reference's with its interval, one short sentence
// (who is closest, who is farthest, and how sure), a chart and a table. The experiment
// says what its groups and figures are; this file only lays them out.
const { formatNumber, listJoin, escapeMarkdown: md } = require('./format')
const { html } = require('./markup')
const { markdownTable, textTable } = require('./plain')
const { levelText } = require('../stats')

const times = value => `${formatNumber(value)}×`
const span = interval => interval.low === null || interval.low === undefined ? '' : ` (${formatNumber(interval.low)}–${formatNumber(interval.high)}×, ${levelText(interval.level)})`

// groups: [{ label ("keep-alive, 128 connections"), reference, figure ("CPU per request"),
// entries: [{ name, interval: { estimate, low, high, level } | null, unquoted: reason | null,
// native (C itself, another of the reference's kind: in the table and chart, but no
// contender for closest or farthest) }] }].
// → { groups: [{ ...group, quoted (sorted by estimate), unquoted, sentence }], names }
function answer (groups) {
  const shaped = groups.map(group => {
    const quoted = group.entries.filter(entry => entry.interval && !entry.unquoted).sort((a, b) => a.interval.estimate - b.interval.estimate)
    const unquoted = group.entries.filter(entry => entry.unquoted)
    const contenders = quoted.filter(entry => !entry.native)
    return { ...group, quoted, unquoted, sentence: sentence(group, contenders, unquoted) }
  })
  const names = [...new Set(groups.flatMap(group => group.entries.map(entry => entry.name)))]
  return { groups: shaped, names }
}

// "Keep-alive, 128 connections: just-epoll is closest to c-epoll's CPU per request, 1.05×
// (1.01–1.09×, 87.5%); node-http farthest, 2.4× (...). Not quoted: deno (no steady state)."
function sentence (group, quoted, unquoted) {
  // quoted: the contenders, closest first
  const skipped = unquoted.length ? ` Not quoted: ${listJoin(unquoted.map(entry => `${entry.name} (${entry.unquoted})`))}.` : ''
  if (quoted.length === 0) return `${group.label}: no server measured against ${group.reference}.${skipped}`
  const [closest] = quoted
  const farthest = quoted.at(-1)
  const sure = entry => `${times(entry.interval.estimate)}${span(entry.interval)}`
  const last = quoted.length > 1 ? `; ${farthest.name} farthest, ${sure(farthest)}` : ''
  // two servers whose intervals overlap cannot be told apart at their level
  const tie = quoted.length > 1 && overlaps(quoted[0].interval, quoted[1].interval) ? ` (${quoted[1].name}'s interval overlaps: the run cannot tell them apart)` : ''
  return `${group.label}: ${closest.name} is closest to ${group.reference}'s ${group.figure}, ${sure(closest)}${tie}${last}.${skipped}`
}

const overlaps = (a, b) => a.low !== null && b.low !== null && a.low !== undefined && b.low !== undefined && a.high >= b.low && b.high >= a.low

const cellText = entry => !entry ? '' : entry.unquoted ? `not quoted: ${entry.unquoted}` : entry.interval ? `${times(entry.interval.estimate)}${entry.interval.low === null || entry.interval.low === undefined ? '' : ` (${formatNumber(entry.interval.low)}–${formatNumber(entry.interval.high)})`}` : ''

// A row per server, a column per group.
function answerTableRows (shaped) {
  return shaped.names.map(name => [name, ...shaped.groups.map(group => cellText(group.entries.find(entry => entry.name === name)))])
}

function answerHtml (shaped, { id, title, note }) {
  return html`<section id="${id}">
    <h2>${title}</h2>
    <ul class="answer">${shaped.groups.map(group => html`<li>${group.sentence}</li>`)}</ul>
    <div class="chart" id="chart-${id}"></div>
    <div class="table-wrap"><table class="answer">
      <caption>${note}</caption>
      <thead><tr><th scope="col">server</th>${shaped.groups.map(group => html`<th scope="col" class="num">${group.label}</th>`)}</tr></thead>
      <tbody>${answerTableRows(shaped).map(([name, ...cells]) => html`<tr><th scope="row">${name}</th>${cells.map(cell => html`<td class="num">${cell}</td>`)}</tr>`)}</tbody>
    </table></div>
  </section>`
}

function answerMarkdown (shaped, { title, note }) {
  const header = ['server', ...shaped.groups.map(group => group.label)]
  return [`## ${md(title)}`, '', ...shaped.groups.map(group => `- ${md(group.sentence)}`), '', md(note), '',
    markdownTable(header, answerTableRows(shaped).map(row => row.map(md)), header.map((_, i) => (i ? 'r' : 'l'))), '']
}

function answerText (shaped, { title }) {
  const header = ['server', ...shaped.groups.map(group => group.label)]
  return ['', `${title}:`, ...shaped.groups.map(group => `- ${group.sentence}`), '', ...textTable([header, ...answerTableRows(shaped)], header.map((_, i) => (i ? 'r' : 'l'))).map(line => line.trimEnd())]
}

// What the page's chart draws: a series per group, a bar per server (its estimate, the
// interval as whiskers), the reference's 1× as a line.
function answerChart (shaped, { title, axis }) {
  return {
    title,
    axis,
    categories: shaped.names,
    series: shaped.groups.map(group => ({
      name: group.label,
      data: shaped.names.map(name => {
        const entry = group.quoted.find(item => item.name === name)
        return entry ? entry.interval.estimate : null
      }),
      whiskers: shaped.names.map(name => {
        const entry = group.quoted.find(item => item.name === name)
        return entry && entry.interval.low !== null && entry.interval.low !== undefined ? [entry.interval.low, entry.interval.high] : null
      })
    }))
  }
}

module.exports = { answer, answerHtml, answerMarkdown, answerText, answerChart }
