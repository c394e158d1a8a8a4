'use strict'
// lib/report/browser.js and the experiments' page modules (experiments/<name>/
// report-browser.js), the report's code that runs in the page, in Node: its tooltips
// format with lib/report/format.js's functions and leave names escaped once, and every
// charted section has its drawing. The page itself is drawn in Chromium by
// test/report.test.js.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const {
  countTooltip, drawReport, drawAnswer, outlierCut, cutBarLabels, valueLabels
} = require('../../lib/report/browser')
const { lineTooltip } = require('../../experiments/stdio/report-browser')
const { experiments } = require('../../experiments')
const { formatNumber, sizeName, escapeHtml } = require('../../lib/report/format')

const ROOT = path.resolve(__dirname, '..', '..')
const NAME = escapeHtml('<b>a & b</b>')

test('a line chart\'s tooltip: the block size spelt out, each series\' figure formatted, points without one left out', () => {
  const text = lineTooltip('MB/s').formatter.call({
    x: 65536,
    points: [
      { y: 2869.4, color: '#123', series: { name: NAME } },
      { y: null, color: '#456', series: { name: 'missing' } },
      { y: 0.000123, color: '#789', series: { name: 'tiny' } }
    ]
  })
  assert.equal(text, `<b>${sizeName(65536)}</b><br><span style="color:#123">●</span> ${NAME}: <b>${formatNumber(2869.4)}</b> MB/s<br><span style="color:#789">●</span> tiny: <b>${formatNumber(0.000123)}</b> MB/s`)
  assert.match(text, /<b>64 KiB<\/b>.*<b>2869<\/b> MB\/s.*<b>0\.00012<\/b>/)
  assert.ok(!text.includes('&amp;lt;'), 'a name is not escaped a second time')
  assert.ok(!text.includes('missing'))
})

test('a bar\'s tooltip: its category (this.key, not the index this.x), its series, and the stack\'s total', () => {
  const stacked = countTooltip('calls').formatter.call({ key: NAME, x: 2, color: '#abc', series: { name: 'read' }, y: 4096, total: 4131 })
  assert.equal(stacked, `<b>${NAME}</b><br><span style="color:#abc">●</span> read: <b>4096</b> calls<br>total: 4131`)
  const single = countTooltip('s').formatter.call({ key: 'c', x: 0, color: '#abc', series: { name: 'user' }, y: 1.234 })
  assert.equal(single, '<b>c</b><br><span style="color:#abc">●</span> user: <b>1.23</b> s')
})

test('the answer chart: a logarithmic axis from 1× where ratios span over 10×', () => {
  const drawn = []
  global.Highcharts = { chart: (id, options) => drawn.push(options) }
  try {
    const kit = { copy: rows => rows, runtimePoints: (names, data) => data, groupColor: () => '#123', familyLegend: () => [] }
    const chart = (data, whiskers) => ({ title: 't', axis: 'CPU', categories: ['a', 'b'], series: [{ name: 's', data, whiskers }] })
    drawAnswer('chart-answer', chart([0.66, 104], [[0.59, 0.7], [101, 113]]), kit)
    drawAnswer('chart-answer', chart([1.1, 4.1], [null, [3.8, 7.5]]), kit)
    drawAnswer('chart-answer', chart([0.69, 2.1], [[0.6, 0.7], [1.9, 2.3]]), kit)
    const [wide, narrow, linear] = drawn
    // the scale below, then the one above the bars, linked to it and of its type
    const [wideBelow, wideAbove] = wide.yAxis
    const [narrowBelow, narrowAbove] = narrow.yAxis
    assert.deepEqual([wideBelow.type, wide.series[0].threshold, wideBelow.title.text],
      ['logarithmic', 1, 'CPU (logarithmic)'])
    assert.deepEqual([narrowBelow.type, narrowBelow.min, narrow.series[0].threshold], [undefined, 0, undefined])
    assert.deepEqual([wideAbove.linkedTo, wideAbove.opposite, wideAbove.type], [0, true, 'logarithmic'])
    assert.deepEqual([narrowAbove.linkedTo, narrowAbove.type], [0, undefined])
    // each figure beyond its bar's far end: on a logarithmic axis a bar under 1× grows left
    // of 1×, its figure past its lower whisker; on a linear one every bar grows right of 0
    const figures = options => options.series[1].dataLabels
      .map(label => [0, 1].map(index => label.formatter.call({ point: { index } })))
    assert.deepEqual(figures(wide), [[null, '104×'], ['0.66×', null]])
    assert.deepEqual(figures(linear), [['0.69×', '2.1×'], [null, null]])
  } finally {
    delete global.Highcharts
  }
})

test('an axis cut before a few values far past the rest, their bars labelled with their value', () => {
  // wasmer's WASI reads beside readers within +400 ns
  const cut = outlierCut([-90, 5, 10, 13, 40, 60, 270, 400, 7435, null, 7507])
  assert.deepEqual(cut, { max: 1.25 * 400, past: [7435, 7507] })
  const label = cutBarLabels(cut.max, 'ns').formatter
  assert.equal(label.call({ y: 7435 }), `${formatNumber(7435)} ns →`)
  assert.equal(label.call({ y: 400 }), null, 'a bar within the axis has no label')
  // values of one scale, or too few to tell: the axis is the values' own
  assert.deepEqual(outlierCut([5, 10, 13, 40, 60]), { max: null, past: [] })
  assert.deepEqual(outlierCut([1, 500]), { max: null, past: [] })
})

// Each bar's figure beside it: past its upper whisker at or above the threshold, past its
// lower below it, at the bar's end without whiskers, none past an axis cut, and on a marker
// that lies further out than the whisker (the ladder's cost pass) instead of on the whisker.
test('a bar\'s figure is written once, on the side of its bar, past what lies beside it', () => {
  const values = [2.5, 0.7, 1.3, 60, 1.1]
  const whiskers = [[2.4, 2.6], [0.6, 0.75], null, [55, 65], [1.05, 1.15]]
  const markers = [null, null, null, null, 1.4]
  const labels = valueLabels({ values, whiskers, text: i => `${values[i]}×`, threshold: 1, max: 50, markers })
  const [above, below] = labels.errorbar.map(label => label.formatter)
  const at = (formatter, index) => formatter.call({ point: { index } })
  assert.deepEqual(values.map((_, i) => at(above, i)), ['2.5×', null, null, null, null])
  assert.deepEqual(values.map((_, i) => at(below, i)), [null, '0.7×', null, null, null])
  assert.deepEqual(values.map((_, i) => at(labels.bar.formatter, i)), [null, null, '1.3×', null, null])
  assert.deepEqual(values.map((_, i) => at(labels.marker.formatter, i)), [null, null, null, null, '1.1×'])
  assert.deepEqual(labels.errorbar.map(label => label.align), ['left', 'right'])
  // beside a marker, words that say the figure is not the marker's own
  const markerText = i => `read ${values[i]}×`
  const read = valueLabels({ values, whiskers, text: i => `${values[i]}×`, threshold: 1, markers, markerText })
  assert.equal(read.marker.formatter.call({ point: { index: 4 } }), 'read 1.1×')
  assert.equal(labels.bar.inside, false)
})

// The page's modules: the shell's two, then each experiment's.
// What a page carries: the shared page code, and its experiment's page module with what that
// requires (calls draws its cost pass with stdio's); no other experiment's.
const SHARED_PAGE_MODULES = ['lib/report/format.js', 'lib/report/looks.js', 'lib/report/browser.js']
const PAGE_MODULES = {
  stdio: ['experiments/stdio/report-browser.js'],
  calls: ['experiments/calls/report-browser.js', 'experiments/stdio/report-browser.js'],
  http: ['experiments/http/report-browser.js'],
  db: ['experiments/db/report-browser.js']
}
const FIXTURE_OF = { stdio: 'sample', calls: 'calls-sample', http: 'http-sample', db: 'db-sample' }

test('each experiment draws every section of its page that has charts, and no other', () => {
  for (const { name, report } of experiments) {
    const charted = report.sections.filter(([, , , charts]) => charts).map(([id]) => id)
    assert.deepEqual(Object.keys(require(report.browser).drawings).sort(), charted.sort(), name)
  }
})

test('the page runs these modules as they are, and nothing else formats or escapes', () => {
  assert.deepEqual(experiments.map(({ name, report }) => [name, path.relative(ROOT, report.browser)]),
    Object.entries(PAGE_MODULES).map(([name, modules]) => [name, modules[0]]), 'every experiment\'s page module is in the list')
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-report-browser-'))
  try {
    for (const [name, own] of Object.entries(PAGE_MODULES)) {
      const made = spawnSync(process.execPath, [path.join(ROOT, 'analyse.js'), path.join(ROOT, 'test', 'fixtures', 'results', FIXTURE_OF[name]), '--out', path.join(out, name)], { encoding: 'utf8', timeout: 60000 })
      assert.equal(made.status, 0, made.stderr)
      const page = fs.readFileSync(path.join(out, name, 'report.html'), 'utf8')
      const script = page.slice(page.lastIndexOf('<script>') + '<script>'.length, page.lastIndexOf('</script>'))
      const carried = [...script.matchAll(/^modules\["([^"]+)"\]/gm)].map(match => match[1]).sort()
      assert.deepEqual(carried, [...SHARED_PAGE_MODULES, ...own].sort(), `${name}'s page carries its own modules and no other`)
      for (const file of [...SHARED_PAGE_MODULES, ...own]) {
        const source = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/<(\/?)script/gi, '<$1\\x73cript')
        assert.ok(script.includes(source), `${file} is not in ${name}'s page as it is`)
      }
      assert.ok(script.includes(drawReport.toString()))
      for (const helper of ['formatNumber', 'sizeName', 'sizeLabel', 'escapeHtml']) {
        assert.equal(script.split(`function ${helper} (`).length - 1, 1, `${helper} is defined once, in lib/report/format.js`)
      }
      assert.doesNotMatch(script, /const (esc|fmt|sizeName|sizeLabel) =/, 'no local copy of a formatting helper')
    }
  } finally {
    fs.rmSync(out, { recursive: true, force: true })
  }
})
