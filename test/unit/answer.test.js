'use strict'
// The answer a page opens with (lib/report/answer.js): closest and farthest among the
// runtimes, how sure, what is not quoted, and the table, chart and text that follow.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { answer, answerMarkdown, answerText, answerChart } = require('../../lib/report/answer')

const interval = (estimate, low, high) => ({ estimate, low, high, level: 0.875 })
const group = {
  label: 'keep-alive, 128 connections',
  reference: 'c-epoll',
  figure: 'CPU per request',
  entries: [
    { name: 'c-blocking', interval: interval(2.7, 2.6, 2.9), native: true },
    { name: 'node-http', interval: interval(2.4, 2.2, 2.6) },
    { name: 'bun', interval: interval(1.3, 1.2, 1.4) },
    { name: 'deno', interval: interval(1.35, 1.25, 1.5) },
    { name: 'node-net', interval: null, unquoted: 'no steady state' }
  ]
}

test('the sentence: the closest and farthest runtime with their intervals, a tie said, C left out, the unquoted named', () => {
  const shaped = answer([group])
  assert.equal(shaped.groups[0].sentence,
    'keep-alive, 128 connections: bun is closest to c-epoll\'s CPU per request, 1.3× (1.2–1.4×, 87.5%) (deno\'s interval overlaps: the run cannot tell them apart); node-http farthest, 2.4× (2.2–2.6×, 87.5%). Not quoted: node-net (no steady state).')
  // the table keeps C's other server and the unquoted, in the entries' order
  const md = answerMarkdown(shaped, { title: 'The answer', note: 'ratios' }).join('\n')
  assert.ok(md.includes('| c-blocking | 2.7× (2.6–2.9) |'))
  assert.ok(md.includes('| node-net | not quoted: no steady state |'))
  assert.equal(answerText(shaped, { title: 'The answer' })[1], 'The answer:')
  // a cell has no room for its interval's level: the table's note says it, once
  assert.ok(md.includes('\nratios; intervals at 87.5%\n'), md)
  assert.ok(answerText(shaped, { title: 'The answer', note: 'ratios' }).includes('ratios; intervals at 87.5%:'))
  // the chart: a bar per server, the unquoted empty, whiskers the intervals
  const chart = answerChart(shaped, { title: 't', axis: 'a' })
  assert.deepEqual(chart.categories, ['c-blocking', 'node-http', 'bun', 'deno', 'node-net'])
  assert.deepEqual(chart.series[0].data, [2.7, 2.4, 1.3, 1.35, null])
  assert.deepEqual(chart.series[0].whiskers[4], null)
})

test('one runtime, none, and an estimate without an interval', () => {
  const one = answer([{ ...group, entries: [{ name: 'bun', interval: { estimate: 1.3, low: null, high: null } }] }])
  assert.equal(one.groups[0].sentence, 'keep-alive, 128 connections: bun is closest to c-epoll\'s CPU per request, 1.3×.')
  const none = answer([{ ...group, entries: [] }])
  assert.equal(none.groups[0].sentence, 'keep-alive, 128 connections: no server measured against c-epoll.')
})
