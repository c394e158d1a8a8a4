'use strict'
// The report's code that runs in the browser: it reads the JSON the page carries and
// hands each charted section's data to its experiment's drawing function
// (experiments/<name>/report-browser.js). A CommonJS module, so that tests can require
// it; lib/report/html.js inlines it, with lib/report/format.js and the experiments' page
// modules, behind a require() that knows those, so the page formats numbers and escapes
// names with the same functions as the rest of the report.
const { formatNumber, escapeHtml } = require('./format')
const { pageLooks, pageCallHues, familyOf, FAMILIES, OTHER, PART_HUES } = require('./looks')

// Highcharts reads names and labels as markup: the page escapes them once, where a
// series or axis is made. A tooltip takes this.series.name and this.key (a bar's
// category) from there already escaped: escaping them again would show &lt; for <.
// In a bar chart this.x is the category's index, not its name.

// Bars, stacked or not: the bar's category, its series and, when stacked, the total.
function countTooltip (unit) {
  return {
    formatter () {
      return `<b>${this.key}</b><br><span style="color:${this.color}">●</span> ${this.series.name}: <b>${formatNumber(this.y)}</b> ${unit}` +
        (this.total !== undefined ? `<br>total: ${formatNumber(this.total)}` : '')
    }
  }
}

// Highcharts and document are the page's globals. drawings: by experiment, its table of
// drawing functions by section id; each draws its section's charts from the page's data
// with the kit below and returns, by block-size group, what that group's buttons redraw.
function drawReport (drawings) {
  const data = JSON.parse(document.getElementById('report-data').textContent)
  // for what is not a runtime (a process, a part): hues apart from the runtimes' (lib/report/looks.js)
  const palette = PART_HUES
  // Highcharts writes point updates back into the arrays it was given: hand it copies
  // so that the page's data stays as loaded and the toggles can switch back.
  const copy = rows => (rows ? rows.map(row => (Array.isArray(row) ? [...row] : row)) : rows)
  const color = index => palette[((index % palette.length) + palette.length) % palette.length]
  // A lighter tint of the same hue (a second result set, a later group): mixed with white,
  // which keeps the hue where brightening would turn orange to yellow and blue to cyan.
  const white = Highcharts.color('#ffffff')
  const shade = (base, amount) => (amount ? Highcharts.color(base).tweenTo(white, Math.min(amount, 0.9)) : base)
  // A runtime's look (lib/report/looks.js), the same in every chart of the page.
  const look = pageLooks()
  // Bars that stand for runtimes wear their runtime's hue. Where a chart has a series per
  // group (a mode, an endpoint, a count of connections), the first group's bars are filled,
  // the next ones' lighter and outlined in the hue; the legend shows the groups in grey.
  const GROUP_FILLS = [0, 0.5, 0.75, 0.25, 0.62, 0.88]
  const groupFill = (base, group) => shade(base, GROUP_FILLS[Math.min(group, GROUP_FILLS.length - 1)])
  const groupColor = group => groupFill('#5b6475', group)
  // a value: a number, a point's options, or [low, high] for a range series's bar
  const runtimePoints = (names, data, group = 0) => data.map((value, i) => {
    const point = Array.isArray(value)
      ? { low: value[0], high: value[1] }
      : value !== null && typeof value === 'object' ? { ...value } : { y: value }
    const { color: hue, family } = look(names[i])
    // custom: what the page tests read back (lib/report/geometry.js)
    return { ...point, color: groupFill(hue, group), borderColor: hue, borderWidth: group ? 1 : 0, custom: { runtime: names[i], family, group } }
  })
  // A category axis of runtimes whose bars are coloured by something else (a syscall, a
  // rung, a process): each name marked with its runtime's hue.
  const runtimeAxis = names => ({
    categories: names.map(escapeHtml),
    labels: {
      formatter () {
        const name = names[this.pos]
        return name === undefined ? this.value : `<span style="color:${look(name).color}">■</span> ${this.value}`
      }
    }
  })
  // The key to the hues of bars coloured by runtime: a legend entry per family among the
  // names, a series with no points (a scatter's, which takes no bar's room in a group).
  const familyLegend = names => [...FAMILIES, OTHER]
    .filter(family => names.some(name => familyOf(name) === family))
    .map(family => ({
      name: escapeHtml(family.label),
      type: 'scatter',
      data: [],
      color: family.hue,
      // a key to a family's hue, which the page tests tell from a series in it (geometry.js)
      custom: { family: family.key },
      marker: { symbol: 'square', radius: 6 },
      enableMouseTracking: false,
      events: { legendItemClick: () => false }
    }))
  const setPressed = (group, button) => {
    for (const other of group.querySelectorAll('button')) other.setAttribute('aria-pressed', String(other === button))
  }

  // The page offers PNG and SVG, not PDF (the chart menu below), and loads nothing from the
  // network: Highcharts' warning that PDF would need libraries from exporting.libURL speaks
  // of nothing the page offers, and would be the one line in a clean console.
  Highcharts.addEvent(Highcharts, 'displayError', event => {
    if (/exporting\.libURL/.test(event.message)) event.preventDefault()
  })
  Highcharts.setOptions({
    accessibility: { enabled: false },
    chart: {
      style: { fontFamily: 'inherit' },
      // on the right, room for half of a value axis's last label ("1,700"), which sits at
      // the plot's edge
      spacing: [14, 26, 14, 14],
      // a chart drawn taller than its box (its height follows its categories) grows the box:
      // the box's overflow would hide its last bars, its axis and its legend
      events: { render () { growBox(this) } }
    },
    credits: { enabled: false },
    title: { style: { fontSize: '15px', fontWeight: '600' } },
    subtitle: { style: { fontSize: '12px' } },
    // a key's entries run on as words do: in aligned columns a long entry ("upkeep: waits,
    // failed tries, memory") sets every column's width, and a key of ten takes ten rows
    legend: { alignColumns: false, itemStyle: { fontWeight: '500', fontSize: '12px' } },
    // Saving a chart must not reach the Highcharts export server: the page works offline.
    exporting: {
      fallbackToExportServer: false,
      sourceWidth: 1000,
      sourceHeight: 560,
      buttons: { contextButton: { menuItems: ['downloadPNG', 'downloadSVG', 'separator', 'viewFullscreen'] } }
    },
    // A category's name on as many lines as it takes, broken after its hyphens ("node-fs-"
    // over "binding"), where Highcharts would allow it the lines its category has room for
    // and cut the rest to "node-fs-…"; fitContent then makes the room.
    xAxis: { labels: { style: { lineClamp: 0 } } },
    // A value axis's last label sits at the plot's edge, half of it past; Highcharts would
    // cut it to fit ("8…" for 850) where the chart's spacing (above) has room for the rest.
    yAxis: { labels: { overflow: 'allow' } },
    plotOptions: { series: { animation: false } }
  })

  // A chart's syscalls, each in a hue none other of the chart has, the commonest the same on
  // every page (lib/report/looks.js pageCallHues); a series of a kind (the calls no chart
  // names, the upkeep) in a grey of its own. [{ name, data, kind }] → Highcharts series.
  const callHues = pageCallHues()
  const KIND_COLOURS = { other: '#9aa3b2', upkeep: '#d0d0d0' }
  const callSeries = list => {
    const hues = callHues(list.filter(series => !series.kind).map(series => series.name))
    return list.map(series => ({
      name: escapeHtml(series.name),
      data: copy(series.data),
      color: series.kind ? KIND_COLOURS[series.kind] : hues.get(series.name)
    }))
  }
  const kit = {
    copy,
    color,
    callHues,
    callSeries,
    shade,
    look,
    runtimePoints,
    runtimeAxis,
    groupColor,
    familyLegend,
    setPressed,
    countTooltip,
    keyAndScaleAbove
  }
  const redraws = {}
  // the sections every experiment's page may have, then the experiment's own
  for (const [id, draw] of Object.entries({ machines: drawMachines, ...drawings[data.experiment] })) {
    if (id in data.charts) Object.assign(redraws, draw(data.charts[id], kit))
  }

  // The block-size buttons: a group redraws its charts and shows its tables at the size.
  for (const group of document.querySelectorAll('[data-size-group]')) {
    group.addEventListener('click', event => {
      const button = event.target.closest('button[data-size]')
      if (!button) return
      const size = Number(button.dataset.size)
      setPressed(group, button)
      // the panels first, so that a redraw fits charts to the panels now shown
      for (const panel of document.querySelectorAll(`[data-size-panel="${group.dataset.sizeGroup}"]`)) panel.hidden = Number(panel.dataset.size) !== size
      // a group whose charts are not drawn (no data for them) swaps its panels alone
      redraws[group.dataset.sizeGroup]?.(size)
    })
  }
  document.body.dataset.chartsReady = 'true'
}

// An axis's end that leaves out a few values far past the rest (wasmer's +7,500 ns a read
// beside readers within +400): past OUTLIER_FACTOR times the 75th percentile of the values'
// sizes. Returns the axis's max (null: the values' own) and the values left past it, whose
// bars run to the edge with their value written on them (cutBarLabels).
const OUTLIER_FACTOR = 5
function outlierCut (values) {
  const sizes = values.filter(value => typeof value === 'number').map(Math.abs).sort((a, b) => a - b)
  if (sizes.length < 4) return { max: null, past: [] }
  const limit = OUTLIER_FACTOR * sizes[Math.floor(0.75 * (sizes.length - 1))]
  const kept = sizes.filter(size => size <= limit)
  const past = values.filter(value => typeof value === 'number' && Math.abs(value) > limit)
  if (past.length === 0 || kept.length === 0) return { max: null, past: [] }
  return { max: 1.25 * Math.max(...kept), past }
}

// The data labels of bars that run past an axis cut: their value, inside the bar's end.
function cutBarLabels (max, unit) {
  return {
    enabled: true,
    inside: true,
    align: 'right',
    crop: false,
    overflow: 'allow',
    style: { color: '#ffffff', fontWeight: '600', textOutline: 'none' },
    formatter () { return max !== null && this.y > max ? `${formatNumber(this.y)} ${unit} →` : null }
  }
}

// Each bar's figure written past the far end of its whiskers, as its errorbar's data labels:
// a reader reads every value without hovering, and no figure sits on a whisker or a bar.
// text(i) gives category i's words; a bar at or past `threshold` has them beyond its upper
// whisker, one below it beyond its lower. A bar without whiskers (too few runs for an
// interval) carries its figure itself, and one past an axis cut its own (cutBarLabels).
// `markers`: another series' values drawn on the same rows (the ladder's cost pass), whose
// point carries the figure where it lies past the upper whisker, so as not to sit on it, in
// words that say whose it is (markerText(i)), not the marker's own.
// Returns the dataLabels of the errorbar series, of the bar series and of the markers'. A
// chart that shows them takes FIGURE_ROOM_PX of spacing on its right: a figure at the axis's
// end stays in its box.
const FIGURE_ROOM_PX = 62
// How a figure is written beside its bar, here and wherever else a chart writes one.
const FIGURE_LOOK = {
  enabled: true,
  crop: false,
  overflow: 'allow',
  padding: 0,
  style: { fontSize: '11px', fontWeight: '500', color: '#1d2330', textOutline: '2px #ffffff' }
}
function valueLabels ({ values, whiskers, text, threshold = 0, max = null, markers = [], markerText = text }) {
  const figure = i => (typeof values[i] === 'number' && (max === null || values[i] <= max) ? text(i) : null)
  const markerPast = i => typeof markers[i] === 'number' && markers[i] > (whiskers[i]?.[1] ?? values[i])
  const end = (above, align) => ({
    ...FIGURE_LOOK,
    align,
    formatter () {
      const i = this.point.index
      const onThisSide = (values[i] >= threshold) === above && !(above && markerPast(i))
      return whiskers[i] && onThisSide ? figure(i) : null
    }
  })
  return {
    errorbar: [end(true, 'left'), end(false, 'right')],
    // outside the bar's end, whatever another of the bar's labels says (cutBarLabels's inside)
    bar: {
      ...FIGURE_LOOK,
      inside: false,
      formatter () { return whiskers[this.point.index] ? null : figure(this.point.index) }
    },
    marker: {
      ...FIGURE_LOOK,
      align: 'left',
      verticalAlign: 'middle',
      x: 8,
      formatter () {
        const i = this.point.index
        return markerPast(i) && figure(i) ? markerText(i) : null
      }
    }
  }
}

// The line every bar of a chart is read against: the reference's figure (C's), labelled.
// labelled: false where the label would sit on a bar (a stack's first row beside the line):
// the chart's subtitle names the line instead (referenceNote)
function referenceLine (value, name, { labelled = true } = {}) {
  if (value === null || value === undefined) return []
  const label = labelled
    ? { text: `${escapeHtml(name)}: ${formatNumber(value)}`, rotation: 0, x: 4, y: 12, style: { color: '#1d2330' } }
    : undefined
  return [{ value, width: 1.5, color: '#1d2330', zIndex: 4, label }]
}

// The subtitle's words for an unlabelled reference line, or '' without one.
const referenceNote = (value, name) =>
  (value === null || value === undefined ? '' : `; the black line: ${escapeHtml(name)}'s ${formatNumber(value)}`)

// Stacked bars of which a few run far past the rest (the WASI hosts' reads): the axis ends
// past the rest (outlierCut of the stacks' totals) and a label at its edge gives each long
// bar's figure, text(point) → its words. Returns { max (null: no cut), series (the labels',
// none without a cut) }.
function stackCut (totals, text) {
  const { max } = outlierCut(totals)
  if (max === null) return { max, series: [] }
  return {
    max,
    series: [{
      name: 'past the axis',
      type: 'scatter',
      data: totals.map((total, i) => (total > max ? { y: max, total, index: i } : null)),
      marker: { enabled: false },
      showInLegend: false,
      enableMouseTracking: false,
      // on the bar's end, across its middle: above it, the figure ran over the bar's top edge
      dataLabels: {
        enabled: true,
        align: 'right',
        verticalAlign: 'middle',
        x: -6,
        y: 0,
        crop: false,
        overflow: 'allow',
        style: { color: '#1d2330', textOutline: '2px #ffffff' },
        formatter () { return text(this.point) }
      }
    }]
  }
}

// A chart's box at least as tall as the chart.
function growBox (chart) {
  fitContent(chart)
  // and a box taller than a chart given its own height would leave a blank below it
  const box = chart.renderTo
  if (Math.abs(box.clientHeight - chart.chartHeight) > 1) box.style.height = `${chart.chartHeight}px`
}

// A chart grows by what its content lacks, whatever height it was given: its titles and
// legend take more of it in a narrow window (the legend wraps, titles break), where a bar
// chart sized by its categories would be left a plot too thin for its bars, or for its
// longest name set on its lines (LABEL_GAP_PX apart), and a legend more than half the chart's
// height goes into pages that hide their keys.
const CATEGORY_PX = 22
const LABEL_GAP_PX = 4
const MAX_FITS = 3
// A chart that writes figures on its bars (valueLabels, and any other data labels of its
// own: cutBarLabels, stackCut's) gives each bar of a group a figure's height, or Highcharts
// hides the figures that would run into each other.
const FIGURE_ROW_PX = 15
function figuresPx (chart) {
  const written = chart.series.some(series => series.visible && [series.options.dataLabels].flat()
    .some(labels => labels?.enabled && labels.formatter))
  const bars = chart.series.filter(series => series.type === 'bar' && series.visible && !series.options.linkedTo)
  if (!written || bars.length === 0) return 0
  const perGroup = bars[0].options.stacking ? 1 : bars.length
  return perGroup * FIGURE_ROW_PX / (1 - 2 * bars[0].options.groupPadding)
}
function fitContent (chart) {
  chart.fits = chart.fits ?? 0
  if (chart.fits >= MAX_FITS) return
  const bars = chart.axes.filter(axis => axis.isXAxis && !axis.horiz && axis.categories?.length)
  const tallestLabel = axis => Math.max(0, ...Object.values(axis.ticks).map(tick => tick.label?.getBBox().height ?? 0))
  const categoryPx = axis => Math.max(CATEGORY_PX, tallestLabel(axis) + LABEL_GAP_PX, figuresPx(chart))
  const plotLacks = Math.max(0, ...bars.map(axis => axis.categories.length * categoryPx(axis) - axis.len))
  const legend = chart.legend
  // Highcharts pages a horizontal legend taller than half the chart's spacing box
  const legendLacks = legend?.display && legend.pages?.length > 1
    ? 2 * (legend.fullHeight + legend.padding) - chart.spacingBox.height + 2
    : 0
  const lacks = Math.ceil(Math.max(plotLacks, legendLacks))
  if (lacks <= 0) return
  chart.fits++
  chart.setSize(null, chart.chartHeight + lacks, false)
}

// A tall chart's key above its bars, and its value axis drawn above them as well as below,
// with the same ticks, so that a reader sees what the bars are and how long on the first
// screen, before the axis below is in sight: options to spread into the chart's.
function keyAndScaleAbove (axis) {
  return {
    legend: { verticalAlign: 'top' },
    yAxis: [axis, {
      linkedTo: 0,
      opposite: true,
      ...(axis.type ? { type: axis.type } : {}),
      // the ticks of the scale below, not ones of its own beyond the plot's ends
      tickPositioner () { return this.linkedParent?.tickPositions?.slice() },
      ...(axis.labels ? { labels: axis.labels } : {}),
      title: { text: null }
    }]
  }
}

// An experiment's answer (lib/report/answer.js answerChart): a bar per server and group,
// its figure against the reference's, whiskers its interval, the reference at 1×. Where the
// ratios span more than LOG_SPAN (mini_httpd at 100× beside servers at 0.7×), the axis is
// logarithmic and the bars grow from 1×, so that 0.5× and 2× are as far from it and no bar
// is a sliver beside the largest.
const LOG_SPAN = 10
function drawAnswer (id, chart, { copy, runtimePoints, groupColor, familyLegend }) {
  const values = chart.series.flatMap(series => [...series.data, ...series.whiskers.flat()])
    .filter(value => typeof value === 'number' && value > 0)
  const logarithmic = values.length > 0 && Math.max(...values) / Math.min(...values, 1) > LOG_SPAN
  // as tall as its bars need (its box grows with it: growBox)
  const height = Math.max(360, 120 + chart.categories.length * 22 * Math.max(1, chart.series.length))
  const tagOf = series => (chart.series.length > 1 && series.tag ? `${series.tag} ` : '')
  Highcharts.chart(id, {
    chart: {
      type: 'bar',
      height,
      spacingRight: FIGURE_ROOM_PX,
      // the longest bar's figure, past it, carries its group's word too: roomRightOfFigures
      events: {
        load () {
          if (logarithmic) roomLeftOfBars(this)
          roomRightOfFigures(this)
        }
      }
    },
    title: { text: escapeHtml(chart.title) },
    subtitle: {
      // the whiskers say how sure this run is of its own figure; what a second run would move
      // it by is the trust line's, above the chart
      text: `median of the ratios, whiskers: this run's ${chart.levels ? `${escapeHtml(chart.levels)} ` : ''}interval` +
        (chart.bareBars ? ' (none on a ratio of too few runs)' : '') +
        '; 1× is the reference; lower is better' + (logarithmic ? '; a logarithmic axis' : '') +
        (chart.marks ?? []).map(mark => `; ${escapeHtml(mark.sign)}: ${escapeHtml(mark.means)}`).join('')
    },
    // a server's groups the answer does not quote, under its name (answerChart's unquoted)
    xAxis: notedCategories(chart),
    // the chart runs below the first screen
    ...keyAndScaleAbove({
      ...(logarithmic ? { type: 'logarithmic' } : { min: 0 }),
      title: { text: escapeHtml(chart.axis) + (logarithmic ? ' (logarithmic)' : '') },
      plotLines: [{ value: 1, width: 2, color: '#444', zIndex: 4 }]
    }),
    // bars of a group wide apart enough that their figures (valueLabels) do not run into
    // each other, which would hide one
    plotOptions: { bar: { groupPadding: 0.1 } },
    tooltip: { formatter () { return `<b>${this.key}</b>, ${escapeHtml(this.series.name)}<br>${formatNumber(this.y)}×` } },
    series: chart.series.flatMap((series, i) => {
      const labels = valueLabels({
        values: series.data,
        whiskers: series.whiskers,
        text: at => `${tagOf(series)}${formatNumber(series.data[at])}×` +
          (series.signs?.[at] ? ` ${series.signs[at]}` : ''),
        // the side of the line the bars grow from: 1× on a logarithmic axis, 0 on a linear one
        threshold: logarithmic ? 1 : 0
      })
      return [
        {
          id: `answer-${i}`,
          name: escapeHtml(series.name),
          data: runtimePoints(chart.categories, series.data, i),
          color: groupColor(i),
          ...(logarithmic ? { threshold: 1 } : {}),
          dataLabels: labels.bar
        },
        {
          name: `${escapeHtml(series.name)}, interval`,
          type: 'errorbar',
          linkedTo: `answer-${i}`,
          data: copy(series.whiskers),
          enableMouseTracking: false,
          dataLabels: labels.errorbar
        }
      ]
    }).concat(familyLegend(chart.categories))
  })
}

// On a logarithmic axis the bars under 1× grow leftwards, their figures past their whiskers'
// low ends, where the servers' names end: the axis begins further left until every figure
// clears them (a few tries, as the bars move with it).
function roomLeftOfBars (chart) {
  const axis = chart.yAxis[0]
  for (let tries = 0; tries < 4; tries++) {
    const plotLeft = chart.container.getBoundingClientRect().left + chart.plotLeft
    const lefts = shownFigures(chart).map(box => box.left)
    const short = plotLeft + 4 - Math.min(...lefts, Infinity)
    if (!(short > 0)) return
    const { min, max } = axis.getExtremes()
    const perPx = Math.log(max / min) / axis.len
    // a window too narrow for the plot (some 250 px) asks for a start below any number a
    // logarithmic axis takes, which stopped the page's drawing: the figures overlap there instead
    const lower = min / Math.exp((short + 2) * perPx)
    if (!(axis.len > 0) || !(lower > 0)) return
    axis.setExtremes(lower, max, true, false)
  }
}

// A chart's figures past its bars' ends (valueLabels) kept in its box: its spacing on the
// right grows by what the widest lacks, measured once drawn, as a figure's width is the
// browser's to know (a group's word before it, a font's letters), not a guess per letter.
function roomRightOfFigures (chart) {
  for (let tries = 0; tries < 3; tries++) {
    const right = chart.container.getBoundingClientRect().right - 2
    const short = Math.max(...shownFigures(chart).map(box => box.right), -Infinity) - right
    if (!(short > 0)) return
    const spacingRight = (chart.options.chart.spacingRight ?? 10) + Math.ceil(short) + 2
    chart.update({ chart: { spacingRight } }, true, false, false)
  }
}

// The boxes on the page of every figure a chart's points show (their data labels).
function shownFigures (chart) {
  return chart.series.flatMap(series => series.points.flatMap(point =>
    (point.dataLabels ?? (point.dataLabel ? [point.dataLabel] : []))
      .filter(label => label?.element && label.visibility !== 'hidden' && label.element.textContent)
      .map(label => label.element.getBoundingClientRect())))
}

// A bar chart's categories with the notes of each (chart.unquoted: what its empty slots mean)
// under its name, in small grey type.
function notedCategories (chart) {
  return {
    categories: chart.categories.map(escapeHtml),
    labels: {
      formatter () {
        const notes = chart.unquoted?.[this.pos] ?? []
        return notes.length
          ? `${this.value}<br><span style="font-size:10px;color:#5b6475">${notes.map(escapeHtml).join('<br>')}</span>`
          : this.value
      }
    }
  }
}

// Across machines (lib/report/machines-text.js machinesChart): a bar per row and machine,
// whiskers its interval, in the row's runtime's hue, a machine's bars in its own fill.
function drawMachines (chart, { copy, runtimePoints, groupColor, familyLegend }) {
  Highcharts.chart('chart-machines', {
    chart: { type: 'bar', height: Math.max(300, 150 + chart.categories.length * 18 * Math.max(1, chart.series.length)) },
    title: { text: escapeHtml(chart.title) },
    subtitle: {
      text: `each machine's runs pooled; whiskers: the ${escapeHtml(chart.levels ?? '')} interval; higher is better`
    },
    // a machine without a row's share, under the row's name (machinesChart's unquoted)
    xAxis: notedCategories(chart),
    // the page's answer when machines are compared
    ...keyAndScaleAbove({ min: 0, title: { text: escapeHtml(chart.axis) } }),
    tooltip: { formatter () { return `<b>${this.key}</b>, ${this.series.name}<br>${formatNumber(this.y)}%` } },
    series: chart.series.flatMap((series, i) => [
      { id: `machines-${i}`, name: escapeHtml(series.name), data: runtimePoints(chart.runtimes, series.data, i), color: groupColor(i) },
      { name: `${escapeHtml(series.name)}, interval`, type: 'errorbar', linkedTo: `machines-${i}`, data: copy(series.whiskers), enableMouseTracking: false }
    ]).concat(familyLegend(chart.runtimes))
  })
}

module.exports = {
  drawReport,
  referenceLine,
  referenceNote,
  stackCut,
  countTooltip,
  drawAnswer,
  outlierCut,
  cutBarLabels,
  valueLabels,
  roomRightOfFigures,
  FIGURE_LOOK,
  FIGURE_ROOM_PX
}
