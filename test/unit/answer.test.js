'use strict'
// The answer a page opens with (lib/report/answer.js): lowest and highest ratio among the
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

test('the sentence: the lowest and highest ratio with their intervals, a tie said, C left out, the unquoted named', () => {
  const shaped = answer([group])
  assert.equal(shaped.groups[0].sentence,
    'keep-alive, 128 connections: bun has the lowest ratio to c-epoll\'s CPU per request, 1.3× (1.2–1.4×, 87.5%) (deno\'s interval overlaps it: this run does not show which is lower); node-http the highest, 2.4× (2.2–2.6×, 87.5%). Not quoted: node-net (no steady state).')
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

test('a figure that holds what its group\'s label does not say carries its sign, its meaning said once', () => {
  const { CONNECT_EACH } = require('../../experiments/http/servers')
  const marked = {
    ...group,
    entries: group.entries.map(entry => (entry.name === 'node-http' || entry.name === 'c-blocking'
      ? { ...entry, mark: CONNECT_EACH }
      : entry))
  }
  const shaped = answer([marked])
  assert.match(shaped.groups[0].sentence, /node-http the highest, 2\.4× \(2\.2–2\.6×, 87\.5%\) §\./)
  const md = answerMarkdown(shaped, { title: 'The answer', note: 'ratios' }).join('\n')
  assert.ok(md.includes('| c-blocking | 2.7× (2.6–2.9) § |'), md)
  assert.ok(md.includes('| bun | 1.3× (1.2–1.4) |'), md)
  // once under the table, however many carry it
  assert.equal(md.split('§: the server closes each connection after one answer').length, 2)
  const chart = answerChart(shaped, { title: 't', axis: 'a' })
  assert.deepEqual(chart.series[0].signs, ['§', '§', null, null, null])
  assert.deepEqual(chart.marks, [CONNECT_EACH])
  // none marked, nothing said
  assert.doesNotMatch(answerMarkdown(answer([group]), { title: 'The answer', note: 'ratios' }).join('\n'), /§/)
  assert.deepEqual(answerChart(answer([group]), { title: 't', axis: 'a' }).marks, [])
})

// http's cells: keep-alive's of a server that closes every connection, and no other
test('http marks the keep-alive cells of a server that closes every connection, in the answer and its tables', () => {
  const { marksLetters, marksLegend, MARKS_LEGEND, connectsEach } = require('../../experiments/http/cell-marks')
  const { servers } = require('../../experiments/http/servers')
  const closer = servers.find(server => server.closesConnections).name
  const keeper = servers.find(server => !server.closesConnections).name
  assert.equal(marksLetters({ server: closer, mode: 'keep-alive', flags: [] }), ' §')
  assert.equal(marksLetters({ server: closer, mode: 'close', flags: [] }), '')
  assert.equal(marksLetters({ server: keeper, mode: 'keep-alive', flags: [] }), '')
  // the cell's own record first; db's cells, which have no mode, never
  assert.equal(connectsEach({ server: closer, mode: 'keep-alive', connectEach: false }), false)
  assert.equal(connectsEach({ server: closer, endpoint: 'db' }), false)
  // in a table's legend where a cell carries it, and nowhere else (db's tables, close's)
  assert.match(marksLegend([{ server: closer, mode: 'keep-alive', flags: [] }]),
    /§: a connect each, the server closes each connection after one answer/)
  assert.doesNotMatch(marksLegend([{ server: closer, mode: 'close', flags: [] }]), /§/)
  assert.doesNotMatch(MARKS_LEGEND, /§/)
  assert.match(MARKS_LEGEND, /^c: client-bound/)
  // the findings' words too: the reference run's keep-alive fewest is mini_httpd's, a connect each
  const { findings } = require('../../experiments/http/findings')
  const { http } = require('../../results/reference-http/results.json')
  const texts = findings([{ label: 'ref', results: { http } }]).map(finding => finding.text)
  const rates = texts.find(text => text.startsWith('Keep-alive, 128 connections: c-epoll answers'))
  assert.match(rates, /the fewest, mini-httpd \(a connect each\), 3%\. Connection: close/)
  assert.match(rates, /Connection: close, 128 connections: .*the fewest, mini-httpd, 17%\./)
})

test('one runtime, none, and an estimate without an interval', () => {
  const one = answer([{ ...group, entries: [{ name: 'bun', interval: { estimate: 1.3, low: null, high: null } }] }])
  assert.equal(one.groups[0].sentence, 'keep-alive, 128 connections: bun has the lowest ratio to c-epoll\'s CPU per request, 1.3×.')
  const none = answer([{ ...group, entries: [] }])
  assert.equal(none.groups[0].sentence, 'keep-alive, 128 connections: no server measured against c-epoll.')
  // an interval of a run that kept no level (an older lab's) says its nominal level, never NaN
  const older = answer([{ ...group, entries: [{ name: 'bun', interval: { estimate: 1.1, low: 1, high: 1.2 } }] }])
  assert.equal(older.groups[0].sentence, 'keep-alive, 128 connections: bun has the lowest ratio to c-epoll\'s CPU per request, 1.1× (1–1.2×, nominal 95%).')
})

test('the unquoted named once per reason; a group with nothing quoted says no ratio is', () => {
  const unquoted = reason => name => ({ name, interval: interval(1.2, 1.1, 1.3), unquoted: reason })
  const reference = unquoted('the reference reached no steady state')
  const entries = [...['bun', 'deno'].map(reference), unquoted('no steady state')('node-net')]
  const shaped = answer([{ ...group, label: '/queries, 64 connections', entries }])
  assert.equal(shaped.groups[0].sentence, '/queries, 64 connections: no ratio to c-epoll\'s CPU per request ' +
    'quoted. Not quoted: bun and deno (the reference reached no steady state); node-net (no steady state).')
  assert.deepEqual(answerChart(shaped, { title: 't', axis: 'a' }).series[0].data, [null, null, null])
  // one reason for every server: said once
  const all = answer([{ ...group, label: '/queries, 64 connections', entries: ['bun', 'deno'].map(reference) }])
  assert.equal(all.groups[0].sentence, '/queries, 64 connections: no ratio to c-epoll\'s CPU per request ' +
    'quoted (the reference reached no steady state).')
})

// How far the answer can be trusted, in the line above its chart (lib/report/markup.js
// trustLine), from each experiment's own figure: quotable within the goal, too noisy past it,
// unsaid without one, each set named when sets are compared.
test('the trust line: quotable or too noisy by the run\'s own figure, against its goal', () => {
  const { trustLine } = require('../../lib/report/markup')
  const { ownTrust } = require('../../lib/repeatability')
  const { dbTrust, dbHalves } = require('../../experiments/db/repeatability')
  const { httpTrust, httpHalves } = require('../../experiments/http/repeatability')
  const { callsTrust } = require('../../experiments/calls/repeatability')
  const { headlineTrust } = require('../../experiments/stdio/cost')
  const text = markup => String(markup).replace(/<[^>]+>/g, '')
  // one set, its figure from trustOf
  const line = (trust, compare = false) => text(trustLine([{ set: 'a' }], () => trust, compare))
  assert.equal(line(ownTrust('ratios', 4.84, true)),
    'On the machine that measured it, the answer is quotable: a second run would move 9 ratios in 10 ' +
    'by up to ±4.84% (goal ±5%).')
  // the verdict is the one the experiment's own figures carry (dbHalves, httpHalves)
  const moved = percent => ({ movePercent: percent })
  const dbCell = {
    server: 'node', endpoint: 'db', halves: { vsReference: moved(40.4), cpu: moved(3), total: moved(3) }
  }
  assert.equal(line(dbTrust(dbHalves([dbCell]))),
    'On the machine that measured it, the answer is too noisy to quote: a second run would move 9 ratios ' +
    'in 10 by up to ±40.4% (goal ±5%).')
  // http's answer is its ratios; a run without them (no interleaving) falls back to CPU per request
  const httpCell = {
    server: 'node', mode: 'keep-alive', connections: 16, clientBound: true, halves: { cpu: moved(6) }
  }
  assert.match(line(httpTrust(httpHalves([httpCell]))),
    /too noisy to quote: a second run would move 9 figures in 10 by up to ±6% \(goal ±5%\)/)
  assert.match(line(callsTrust({ reachable: false, worst: { movePercent: 11.7 } })),
    /too noisy to quote: a second run would move every rung by up to ±11.7%, C(?:'|&#39;)s rungs in ns and the others as ratios to C(?:'|&#39;)s \(goal ±1%\)/)
  // the rung that decides the verdict is named, with what the others' 9 in 10 move beside it
  const reach = {
    reachable: false, quotedPercent: 1.43, worst: { variant: 'bun-ffi', rung: 'noop', movePercent: 11.7 }
  }
  assert.match(line(callsTrust(reach)), new RegExp('too noisy to quote: a second run would move 9 rungs ' +
    'in 10 by up to ±1.43%, and bun-ffi(?:\'|&#39;)s noop by up to ±11.7%, C(?:\'|&#39;)s rungs in ns and the ' +
    'others as ratios to C(?:\'|&#39;)s \\(goal ±1%\\)'))
  const own = { quotable: true, quotedPoints: 0.96, goalPoints: 2, cells: 69 }
  assert.match(line(headlineTrust(own)),
    /quotable: a second run would move all but 2 of 69 shares of C by up to ±1.0 points \(goal ±2 points\)/)
  assert.match(line(headlineTrust({ ...own, quotable: false, quotedPoints: null })),
    /the answer is from too few runs to say how far it repeats\.$/)
  // a run that lost a cell is not quotable, whatever the rest moved
  assert.equal(line(ownTrust('ratios', 3, true, 5, ['bun /db 64 conn.'])),
    'On the machine that measured it, the answer is not quotable: 1 of its cells failed or kept too few ' +
    'runs to halve, and a lost cell counts against the goal; a second run would move the rest 9 ratios in 10 ' +
    'by up to ±3% (goal ±5%).')
  assert.match(line(headlineTrust({ ...own, quotable: false, lost: ['bun-ffi @ 256 B'] })), /not quotable: 1 of its cells failed/)
  // sets compared: each named, a set with no figure left out
  const figures = { a: ownTrust('ratios', 3, true), c: ownTrust('ratios', 7.5, false) }
  assert.equal(text(trustLine([{ set: 'a' }, { set: 'b' }, { set: 'c' }], entry => figures[entry.set] ?? null, true)),
    'a quotable: a second run would move 9 ratios in 10 by up to ±3% (goal ±5%); c too noisy to quote: ' +
    'a second run would move 9 ratios in 10 by up to ±7.5% (goal ±5%).')
  assert.equal(String(trustLine([{ set: 'a' }], () => null, false)), '')
})
