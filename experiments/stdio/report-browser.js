'use strict'
// The stdio experiment's charts, drawn in the page: a drawing function per section that
// has charts (experiments/stdio/report-html.js), each given that section's data and the
// page's kit (lib/report/browser.js drawReport), each returning what its block-size
// buttons redraw. The page inlines this module as it is, behind a require() that knows
// lib/report/format.js and the experiments' page modules. Highcharts and document are
// the page's globals.
const { sizeLabel, sizeName, formatNumber, formatSigned, escapeHtml, formatRange } = require('../../lib/report/format')
const {
  outlierCut, cutBarLabels, valueLabels, roomRightOfFigures, FIGURE_ROOM_PX, referenceLine, stackCut
} = require('../../lib/report/browser')
const { READ_PART_HUES } = require('../../lib/report/looks')

// Line charts against block size: one row per series that has a point there.
function lineTooltip (unit) {
  return {
    shared: true,
    formatter () {
      const rows = this.points.filter(point => point.y !== null)
        .map(point => `<span style="color:${point.color}">●</span> ${point.series.name}: <b>${formatNumber(point.y)}</b> ${unit}`)
      return `<b>${sizeName(this.x)}</b><br>${rows.join('<br>')}`
    }
  }
}

// A log-2 axis: Highcharts' logarithmic axis takes tick positions as log10 values,
// so every power of two between the smallest and the largest block size is a tick.
function sizeAxis (sizes) {
  const ticks = []
  for (let size = sizes[0]; size <= sizes[sizes.length - 1]; size *= 2) ticks.push(Math.log10(size))
  return {
    type: 'logarithmic',
    tickPositions: ticks,
    title: { text: 'block size, bytes (log₂ scale)' },
    // whole: on a phone's width a size ("16K") is a little wider than Highcharts' slot for it
    // less its padding, and fits beside the next all the same
    labels: { style: { textOverflow: 'none' }, formatter () { return sizeLabel(Math.round(this.value)) } },
    gridLineWidth: 1,
    gridLineColor: '#eef0f4'
  }
}

// A program's line in its runtime's look (lib/report/looks.js); a comparison's later sets
// lighter.
function lineLook (series, { look, shade }) {
  const { color, dashStyle, marker, family } = look(series.program)
  const custom = { runtime: series.program, family, group: series.setIndex }
  return { color: shade(color, series.setIndex * 0.35), dashStyle, marker, custom }
}

function lineSeries (list, kit) {
  const { copy } = kit
  return list.flatMap(series => {
    const { color, dashStyle, marker, custom } = lineLook(series, kit)
    return [
      {
        id: series.id,
        name: escapeHtml(series.name),
        type: 'line',
        data: copy(series.data),
        color,
        dashStyle,
        custom,
        marker: { symbol: marker, radius: 4 },
        zIndex: 2
      },
      ...(series.band ? [{ id: `${series.id}:band`, name: `${escapeHtml(series.name)} min–max`, type: 'arearange', linkedTo: series.id, data: copy(series.band), color, fillOpacity: 0.14, lineWidth: 0, marker: { enabled: false }, enableMouseTracking: false, zIndex: 1 }] : [])
    ]
  })
}

function lineChart (id, { sizes, title, subtitle, series, yTitle, unit, yType = 'linear', yMin = 0, plotLines }, kit) {
  return Highcharts.chart(id, {
    chart: { type: 'line' },
    title: { text: escapeHtml(title) },
    subtitle: { text: escapeHtml(subtitle ?? '') },
    xAxis: sizeAxis(sizes),
    yAxis: { type: yType, min: yType === 'logarithmic' ? undefined : yMin, title: { text: escapeHtml(yTitle) }, plotLines },
    tooltip: lineTooltip(unit),
    legend: { enabled: true },
    series: lineSeries(series, kit)
  })
}

// the mark of a reader whose WASI host reads stdin in chunks of its own (the table's flag)
const CHUNKED_MARK = '‡'

// 1. The headline: each reader's CPU per read over C's, whiskers its interval, best first.
function headline (part, { copy, runtimePoints, groupColor, familyLegend, keyAndScaleAbove }) {
  if (!part.available) return
  // a few readers far past the rest (wasmer's WASI reads) would leave the others slivers:
  // the axis ends past the rest, and their bars run to its edge with their value on them
  const cutOf = size => outlierCut(part.chart[size].series.flatMap(series => series.data))
  const labelsOf = (series, size) => valueLabels({
    values: series.data,
    whiskers: series.whiskers,
    text: i => `${formatSigned(series.data[i])} ns`,
    max: cutOf(size).max
  })
  const headlineSeries = size => part.chart[size].series.flatMap(series => [
    {
      id: `headline:${series.setIndex}`,
      name: escapeHtml(series.name),
      type: 'bar',
      data: runtimePoints(part.chart[size].categories, series.data.map((y, i) => ({
        y,
        share: series.shares[i],
        cpu: series.cpu[i],
        baseNs: series.baseNs
      })), series.setIndex),
      color: groupColor(series.setIndex),
      showInLegend: part.chart[size].series.length > 1,
      dataLabels: [cutBarLabels(cutOf(size).max, 'ns'), labelsOf(series, size).bar]
    },
    {
      name: `${escapeHtml(series.name)} ${series.level} interval`,
      type: 'errorbar',
      linkedTo: `headline:${series.setIndex}`,
      data: copy(series.whiskers),
      enableMouseTracking: false,
      dataLabels: labelsOf(series, size).errorbar
    }
  ]).concat(familyLegend(part.chart[size].categories))
  const headlineTitle = size => `Per read at ${sizeName(size)}: CPU time over C's`
  // C's own figure, which the bars are read against, where a reader looks before the bars
  // (each set's, where runs compared have their own)
  const headlineSubtitle = size => {
    const { series } = part.chart[size]
    const known = series.filter(entry => entry.baseNs !== null)
    const one = new Set(known.map(entry => formatNumber(entry.baseNs))).size === 1
    const base = known.length === 0
      ? 'C'
      : one
        ? `C's ${formatNumber(known[0].baseNs)} ns`
        : `C's (${known.map(entry => `${escapeHtml(entry.name)}: ${formatNumber(entry.baseNs)} ns`).join(', ')})`
    const chunked = part.chart[size].chunked?.some(Boolean)
      ? `; ${CHUNKED_MARK} its WASI host reads stdin in chunks of its own, ` +
        'so fewer read(2)s than C\'s lie behind its reads'
      : ''
    return `ns more than ${base} per read(2), lower is better; whiskers: ${series[0].level} interval${chunked}`
  }
  const axisTitle = size => 'ns of CPU per read over C\'s' + (cutOf(size).max !== null
    ? ' (the axis ends before the longest bars, whose value is written on them)'
    : '')
  const optionsAt = size => ({
    chart: {
      type: 'bar',
      height: Math.max(300, 170 + part.chart[size].categories.length * 34 * part.chart[size].series.length),
      spacingRight: FIGURE_ROOM_PX,
      events: { load () { roomRightOfFigures(this) } }
    },
    title: { text: escapeHtml(headlineTitle(size)) },
    subtitle: { text: headlineSubtitle(size) },
    xAxis: {
      categories: part.chart[size].categories.map((name, i) =>
        escapeHtml(name) + (part.chart[size].chunked?.[i] ? ` ${CHUNKED_MARK}` : ''))
    },
    // taller than the first screen
    ...keyAndScaleAbove({
      max: cutOf(size).max,
      title: { text: axisTitle(size) },
      // C's line, its name upright beside it ("C: 0")
      plotLines: referenceLine(0, 'C')
    }),
    tooltip: {
      formatter () {
        const point = this.point
        const share = point.share ? `<br>${formatNumber(point.share.estimate * 100)}% of C's speed` : ''
        const cpu = point.cpu !== null ? `<br>${formatNumber(point.cpu)} ns per read (C: ${formatNumber(point.baseNs)} ns)` : ''
        return `<b>${this.key}</b> (${this.series.name})<br>${formatNumber(this.y)} ns over C${share}${cpu}`
      }
    },
    series: headlineSeries(size)
  })
  let headlineChart = Highcharts.chart('chart-headline', optionsAt(part.defaultSize))
  return {
    // drawn anew at another size: updated in place, Highcharts kept the figures of the
    // points that changed sides of C placed where they had been, over their whiskers
    headline: size => {
      headlineChart.destroy()
      headlineChart = Highcharts.chart('chart-headline', optionsAt(size))
    }
  }
}

// 2. Throughput as small multiples, one panel per runtime family with C dashed in each,
// and the steady-state / end-to-end toggle over all of them.
function throughput (part, kit) {
  const { copy, setPressed } = kit
  const throughputTitles = {
    steady: { title: 'Steady-state throughput (start-up removed)', subtitle: 'best of each cell, band: slowest to fastest run', y: 'MB/s, higher is better' },
    raw: { title: 'End-to-end throughput (start-up included)', subtitle: 'best of each cell, band: slowest to fastest run', y: 'MB/s, higher is better' },
    marginal: { title: 'Marginal throughput (full runs less quarter runs: start-up and warm-up cancel)', subtitle: 'median runs, band: the fit\'s plus-or-minus', y: 'MB/s, higher is better' }
  }
  const inFamily = (list, family) => list.filter(series => series.family === family.name ||
    (series.program === part.baseline && family.name !== list.find(entry => entry.program === part.baseline)?.family))
  const panels = part.families.map(family => {
    const series = inFamily(part.steady, family)
    const chart = lineChart(`chart-throughput-${family.name}`, {
      sizes: part.sizes,
      title: `${family.label}: ${throughputTitles.steady.title}`,
      subtitle: throughputTitles.steady.subtitle,
      series,
      yTitle: throughputTitles.steady.y,
      unit: 'MB/s'
    }, kit)
    return { family, chart }
  })
  const modeGroup = document.getElementById('throughput-mode')
  modeGroup.addEventListener('click', event => {
    const button = event.target.closest('button[data-mode]')
    if (!button) return
    const mode = button.dataset.mode
    for (const { family, chart } of panels) {
      for (const series of inFamily(part[mode], family)) {
        chart.get(series.id).setData(copy(series.data), false)
        chart.get(`${series.id}:band`)?.setData(copy(series.band), false)
      }
      chart.setTitle({ text: escapeHtml(`${family.label}: ${throughputTitles[mode].title}`) }, { text: escapeHtml(throughputTitles[mode].subtitle) }, false)
      chart.redraw()
    }
    setPressed(modeGroup, button)
    document.body.dataset.throughputMode = mode
  })
}

// 3. Time taken.
function time (part, kit) {
  // on a log axis, as the cost per read: the WASI hosts' seconds beside the rest's milliseconds
  // left the others a few px apart at the axis's foot
  lineChart('chart-time', { sizes: part.sizes, title: 'Time taken', subtitle: 'best run, band: fastest to slowest', series: part.series, yTitle: 'ms (log scale), lower is better', unit: 'ms', yType: 'logarithmic' }, kit)
}

// 4. Cost per read and the overhead over C.
function cost (part, kit) {
  if (document.getElementById('chart-cost')) {
    lineChart('chart-cost', { sizes: part.sizes, title: 'Cost per read', subtitle: '(best wall time − start-up) ÷ reads', series: part.perRead, yTitle: 'ns per read (log scale), lower is better', unit: 'ns', yType: 'logarithmic' }, kit)
  }
  if (document.getElementById('chart-overhead')) {
    lineChart('chart-overhead', {
      sizes: part.sizes,
      title: 'Overhead over C per read',
      subtitle: 'cost per read minus C\'s at the same block size',
      series: part.overhead,
      yTitle: 'ns more than C per read',
      unit: 'ns',
      yMin: null,
      plotLines: [{ value: 0, width: 1.5, color: '#1d2330', zIndex: 3, label: { text: 'C', align: 'right', style: { color: '#1d2330' } } }]
    }, kit)
  }
}

// 5. Syscall profiles at the chosen block size: each reader's syscalls per read in the
// steady state, stacked by call, against C's (a line); the calls a run makes whatever it
// reads (start-up and exit) apart, in the runtime's hue.
function syscalls (part, { callHues, copy, countTooltip, runtimePoints, runtimeAxis, groupColor, familyLegend }) {
  if (!part.available || !part.perRead) return {}
  // Each call of a chart in a hue of its own, kept from chart to chart and size to size where
  // it can be (lib/report/looks.js pageCallHues); what the charts do not name in grey.
  const syscallSeries = list => {
    const hues = callHues(list.map(series => series.name).filter(name => name !== 'other'))
    return list.map(series => ({
      id: `sys:${series.name}`,
      name: escapeHtml(series.name),
      data: copy(series.data),
      color: series.name === 'other' ? READ_PART_HUES.other : hues.get(series.name)
    }))
  }
  const cLine = value => referenceLine(value, 'C')
  // a reader whose two runs gave no rate (the larger made fewer calls: noise) is marked, not blank
  const noRate = (size, mode) => {
    const data = part.bySize[size].categories.map((_, i) => (part.bySize[size][mode].every(series => series.data[i] === null) ? 0 : null))
    return data.some(value => value === 0)
      ? [{ name: 'no rate: run-to-run noise (the table says why)', type: 'scatter', data, color: '#a4262c', marker: { symbol: 'diamond', radius: 5 } }]
      : []
  }
  const modes = [['main', 'mainThread', 'Main thread'], ['all', 'allThreads', 'Every thread (strace -f)']]
  const height = size => Math.max(360, 150 + part.bySize[size].categories.length * 26)
  const perReadOptions = (size, field, title) => ({
    title: { text: escapeHtml(`${title} at ${sizeName(size)}: syscalls per read`) },
    xAxis: runtimeAxis(part.bySize[size].categories),
    yAxis: { min: 0, title: { text: 'syscalls per read, steady state' }, reversedStacks: false, plotLines: cLine(part.bySize[size].baseline[field]) }
  })
  const charts = modes.map(([mode, field, title]) => ({
    mode,
    field,
    title,
    chart: Highcharts.chart(`chart-syscalls-${mode}`, {
      ...perReadOptions(part.defaultSize, field, title),
      chart: { type: 'bar', height: height(part.defaultSize), spacingRight: 28 },
      subtitle: { text: 'two runs\' calls apart over their reads apart, so that start-up cancels; the line: C\'s' },
      legend: { enabled: true },
      plotOptions: { bar: { stacking: 'normal', borderWidth: 0 } },
      tooltip: countTooltip('calls per read'),
      series: [...syscallSeries(part.bySize[part.defaultSize][mode]), ...noRate(part.defaultSize, mode)]
    })
  }))
  const startupSeries = size => part.bySize[size].startup
    .map((series, i) => ({ name: escapeHtml(series.name), data: runtimePoints(part.bySize[size].categories, series.data, i), color: groupColor(i) }))
    .concat(familyLegend(part.bySize[size].categories))
  const startupTitle = size => `Start-up and exit at ${sizeName(size)}: calls a run makes whatever it reads`
  const startup = Highcharts.chart('chart-syscalls-startup', {
    chart: { type: 'bar', height: height(part.defaultSize) },
    title: { text: escapeHtml(startupTitle(part.defaultSize)) },
    subtitle: { text: 'the line through the two runs at no reads' },
    xAxis: { categories: part.bySize[part.defaultSize].categories.map(escapeHtml) },
    yAxis: { min: 0, title: { text: 'syscalls per run' } },
    tooltip: countTooltip('calls'),
    series: startupSeries(part.defaultSize)
  })
  return {
    syscalls: size => {
      for (const { mode, field, title, chart } of charts) {
        chart.update({ ...perReadOptions(size, field, title), chart: { height: height(size) }, series: [...syscallSeries(part.bySize[size][mode]), ...noRate(size, mode)] }, true, true)
      }
      startup.update({
        title: { text: escapeHtml(startupTitle(size)) },
        xAxis: { categories: part.bySize[size].categories.map(escapeHtml) },
        series: startupSeries(size)
      }, true, true)
    }
  }
}

// 6. Memory, CPU, start-up: one bar per program, laid sideways so names stay readable.
function resources (part, { copy, countTooltip, runtimePoints, groupColor, familyLegend }) {
  const categories = part.categories.map(escapeHtml)
  const barHeight = Math.max(320, 150 + categories.length * (part.startup.length > 1 ? 44 : 30))
  Highcharts.chart('chart-memory', {
    chart: { type: 'bar', height: barHeight },
    title: { text: 'Max RSS' },
    xAxis: { categories },
    yAxis: { min: 0, title: { text: 'MiB' } },
    tooltip: { formatter () { return `<b>${this.key}</b><br>${this.series.name}: <b>${formatNumber(this.y)}</b> MiB` } },
    series: part.memory.map((series, i) => ({ name: escapeHtml(series.name), data: runtimePoints(part.categories, series.data, i), color: groupColor(i) }))
      .concat(familyLegend(part.categories))
  })
  // user time filled, system time lighter, in each runtime's hue; a later set's likewise
  const cpuSeries = size => part.cpu.bySize[size].map((series, i) => ({
    id: `cpu:${series.setIndex}:${series.kind}`, name: escapeHtml(series.name), stack: escapeHtml(series.stack), data: runtimePoints(part.categories, copy(series.data), i), color: groupColor(i)
  })).concat(familyLegend(part.categories))
  const cpu = Highcharts.chart('chart-cpu', {
    chart: { type: 'bar', height: barHeight },
    title: { text: escapeHtml(`CPU time at ${sizeName(part.cpu.defaultSize)}`) },
    xAxis: { categories },
    yAxis: { min: 0, title: { text: 'seconds (median run)' }, reversedStacks: false },
    plotOptions: { bar: { stacking: 'normal', borderWidth: 0 } },
    tooltip: countTooltip('s'),
    series: cpuSeries(part.cpu.defaultSize)
  })
  Highcharts.chart('chart-startup', {
    chart: { type: 'bar', height: barHeight },
    title: { text: 'Start-up on empty input' },
    xAxis: { categories },
    yAxis: { min: 0, title: { text: 'ms, lower is better' } },
    plotOptions: { bar: { grouping: true } },
    tooltip: { formatter () { return `<b>${this.key}</b><br>${this.series.name}: <b>${formatNumber(this.y)}</b> ms` } },
    series: part.startup.flatMap((series, i) => [
      { id: `startup:${i}`, name: escapeHtml(series.name), type: 'bar', data: runtimePoints(part.categories, series.data, i), color: groupColor(i) },
      { name: `${escapeHtml(series.name)} min–max`, type: 'errorbar', linkedTo: `startup:${i}`, data: series.range, enableMouseTracking: false }
    ]).concat(familyLegend(part.categories))
  })
  return {
    cpu: size => cpu.update({ title: { text: escapeHtml(`CPU time at ${sizeName(size)}`) }, series: cpuSeries(size) }, true, true)
  }
}

// 7. GC as pictures: each collection of the busiest trace per program (when, how long,
// scavenge or mark-compact), GC's pause per MiB read across block sizes, and the heap at
// each collection, its drops joined and the gaps between them left open.
function gc (part, kit) {
  if (document.getElementById('chart-gc-pauses')) {
    Highcharts.chart('chart-gc-pauses', {
      chart: { type: 'scatter' },
      title: { text: 'Each collection\'s pause over the run' },
      subtitle: { text: 'the trace with the most collections per program; filled: scavenge (young), hollow: mark-compact (old)' },
      xAxis: { min: 0, title: { text: 'ms since the isolate started' } },
      yAxis: { min: 0, title: { text: 'pause, ms' } },
      tooltip: { formatter () { return `<b>${this.series.name}</b><br>at ${formatNumber(this.x)} ms: ${this.point.options.generation === 'old' ? 'mark-compact' : 'scavenge'}, ${formatNumber(this.y)} ms` } },
      series: part.timeline.filter(series => series.pauses.length).map(series => {
        // the program's marker in its hue; a mark-compact's hollow and larger
        const { color, marker, custom } = lineLook(series, kit)
        const old = { fillColor: '#ffffff', lineColor: color, lineWidth: 2, radius: 7 }
        return {
          name: escapeHtml(series.name),
          color,
          custom,
          data: series.pauses.map(point => (point.generation === 'old' ? { ...point, marker: old } : point)),
          marker: { symbol: marker, radius: 5 }
        }
      })
    })
  }
  if (document.getElementById('chart-gc-per-mib')) {
    lineChart('chart-gc-per-mib', {
      sizes: part.sizes,
      title: 'GC\'s pause per MiB read',
      subtitle: 'every collection\'s pause in the run, over the MiB it read',
      series: part.perMiB,
      yTitle: 'ms of pause per MiB read, lower is better',
      unit: 'ms per MiB'
    }, kit)
  }
  if (!document.getElementById('chart-gc-heap')) return
  Highcharts.chart('chart-gc-heap', {
    chart: { type: 'line' },
    title: { text: 'Heap used at each collection' },
    subtitle: { text: 'before and after each collection, joined by its drop; between collections the trace says nothing' },
    xAxis: { min: 0, title: { text: 'ms since the isolate started' } },
    yAxis: { min: 0, title: { text: 'MB used' } },
    tooltip: { formatter () { return `<b>${this.series.name}</b><br>${formatNumber(this.x)} ms: ${formatNumber(this.y)} MB` } },
    series: part.timeline.map(series => {
      const { color, dashStyle, marker, custom } = lineLook(series, kit)
      return { name: escapeHtml(series.name), data: series.data, color, dashStyle, custom, connectNulls: false, marker: { enabled: true, symbol: marker, radius: 3 } }
    })
  })
}

// The kernel pass, per size: each reader's CPU per read as shares, inside the reading call
// and the rest (the table has the ns); and one call's time in the kernel, p10 to p90 with
// its median and p99, on a log axis. A chart is as tall as its readers need. The sizes sit
// behind buttons: a chart drawn while hidden takes a default width, so a size's charts are
// fitted to their panel when it is shown.
function kernel (part, { runtimePoints, groupColor, familyLegend }) {
  const bySize = {}
  const drawn = (size, chart) => (bySize[size] ??= []).push(chart)
  part.kernel.forEach((entry, index) => entry.charts.forEach(chart => {
    const height = 90 + 24 * chart.programs.length
    const categories = chart.programs.map(escapeHtml)
    const split = `chart-kernel-split-${index}-${chart.size}`
    if (document.getElementById(split)) {
      // a reader whose time in the call is over its CPU per read (a ring's, the table says) has
      // no split to draw: its row says so rather than stay blank
      const band = i => ({
        from: i - 0.5,
        to: i + 0.5,
        color: 'rgba(0, 0, 0, 0.03)',
        label: {
          text: 'over its CPU per read: no split (the table)',
          align: 'left',
          x: 8,
          style: { color: '#5b6475', fontSize: '11px' }
        }
      })
      const noSplit = chart.kernel.flatMap((ns, i) => (ns === null ? [band(i)] : []))
      drawn(chart.size, Highcharts.chart(split, {
        chart: { type: 'bar', height },
        title: { text: `CPU per read at ${escapeHtml(sizeName(chart.size))}: inside the call, and the rest` },
        xAxis: { categories, plotBands: noSplit },
        yAxis: { min: 0, max: 100, title: { text: '% of the headline\'s CPU per read' } },
        plotOptions: { bar: { stacking: 'percent' } },
        // the reader's name as the lab writes it (Highcharts' header would capitalise it)
        tooltip: { shared: true, valueDecimals: 0, valueSuffix: ' ns', headerFormat: '<b>{point.key}</b><br/>' },
        series: [
          { name: 'rest', data: runtimePoints(chart.programs, chart.rest, 1), color: groupColor(1) },
          { name: 'kernel', data: runtimePoints(chart.programs, chart.kernel, 0), color: groupColor(0) },
          ...familyLegend(chart.programs)
        ]
      }))
    }
    const calls = `chart-kernel-calls-${index}-${chart.size}`
    if (document.getElementById(calls)) {
      drawn(chart.size, Highcharts.chart(calls, {
        chart: { type: 'columnrange', inverted: true, height },
        title: { text: `One call's time in the kernel at ${escapeHtml(sizeName(chart.size))}` },
        xAxis: { categories },
        yAxis: { type: 'logarithmic', title: { text: 'ns on the CPU, probes\' floor included (log scale)' } },
        // whichever mark is hovered, the reader's whole spread: what the chart draws of it
        tooltip: {
          formatter () {
            const i = this.point.index
            const [p10, p90] = chart.spread[i] ?? []
            return `<b>${escapeHtml(chart.programs[i])}</b><br>p10 to p90: ${formatNumber(p10)} to ${formatNumber(p90)} ns` +
              `<br>median: ${formatNumber(chart.medians[i])} ns<br>p99: ${formatNumber(chart.p99[i])} ns`
          }
        },
        series: [
          { name: 'p10 to p90', data: runtimePoints(chart.programs, chart.spread, 1), color: groupColor(1) },
          { name: 'median', type: 'scatter', data: chart.medians, color: '#1d2330', marker: { symbol: 'diamond' } },
          { name: 'p99', type: 'scatter', data: chart.p99, color: '#1d2330', marker: { symbol: 'triangle' } },
          ...familyLegend(chart.programs)
        ]
      }))
    }
  }))
  return { [part.sizeGroup]: size => (bySize[size] ?? []).forEach(chart => chart.reflow()) }
}

// a profile bucket's colour, the same on every page and as the ladder's parts; everything else in grey
const BUCKET_COLOURS = READ_PART_HUES

// what the bars are, then where dd ran and what that does to a read (experiments/stdio/profile.js
// PROFILE_PLACEMENTS), the run's own
const stackSubtitle = placement => 'ns per read by bucket: each bucket\'s share of perf\'s samples of the read ' +
  `loop × the CPU per read; the line: C's. ${placement.words}, ${placement.subtitle}` +
  (placement.batch ? '' : '; read the buckets above the kernel\'s')
const AXIS_CUT = ' (the axis ends before the longest bars, whose figures are written at its edge)'

// Where the ns go: each reader's CPU per read stacked by bucket, C's total the line every
// bar is read against; then the flame graph of the reader the page's select names.
function profile (part, { runtimeAxis }) {
  part.entries.forEach((entry, index) => {
    const totals = entry.rows.map(row => row.cpuPerReadNs)
    const { max, series: past } = stackCut(totals, point => `${formatNumber(point.total)} ns →`)
    Highcharts.chart(`chart-profile-${index}`, {
      chart: { type: 'bar', height: Math.max(300, 150 + entry.rows.length * 30) },
      title: { text: escapeHtml(`Where a read's ns go at ${sizeName(entry.blockSize)}`) },
      subtitle: { text: stackSubtitle(entry.placement) },
      xAxis: runtimeAxis(entry.rows.map(row => row.program)),
      yAxis: {
        min: 0,
        max,
        title: { text: `ns of CPU per read${max === null ? '' : AXIS_CUT}` },
        reversedStacks: false,
        plotLines: referenceLine(entry.baseNs, 'C')
      },
      plotOptions: { bar: { stacking: 'normal' } },
      tooltip: {
        formatter () {
          const interval = entry.rows[this.point.index].intervals?.[this.series.options.custom?.key]
          const range = interval && Number.isFinite(interval.low)
            ? ` (${formatRange(interval.low, interval.high)})`
            : ''
          return `<b>${this.key}</b><br>${this.series.name}: <b>${formatNumber(this.y)}</b>${range} ns per read`
        }
      },
      series: entry.buckets.map(bucket => ({
        name: escapeHtml(bucket.label),
        data: entry.rows.map(row => row.ns[bucket.key]),
        color: BUCKET_COLOURS[bucket.key],
        custom: { key: bucket.key }
      })).concat(past)
    })
    flameGraph(entry, index)
  })
}

const GREW = [215, 48, 39]
const SHRANK = [33, 102, 172]
// a frame's colour against C: white at no change, deeper as its change nears the largest
function changeColour (change, largest) {
  const strength = Math.min(1, Math.abs(change) / (largest || 1))
  const [r, g, b] = change >= 0 ? GREW : SHRANK
  const mix = (channel) => Math.round(255 - (255 - channel) * (0.15 + 0.85 * strength))
  return Math.abs(change) < 0.5 ? '#eceff4' : `rgb(${mix(r)},${mix(g)},${mix(b)})`
}

// One frame a row: a frame is as wide as its ns per read (its own and its callees'), its
// callers below it. Click a frame to widen it to the chart; "Reset zoom" goes back.
const FLAME_ROW_PX = 17
const FLAME_PLAIN = 'each frame as wide as its ns per read with its callees\', callers below; ' +
  'click a frame to widen it'
const FLAME_AGAINST_C = 'red: ns over C\'s in that frame, blue: under (the kernel\'s frames by their ' +
  'path from the syscall, user frames by name); click a frame to widen it'
// a trunk of more frames than this is drawn as one
const FOLDED_TRUNK = 2
function flameGraph (entry, index) {
  const select = document.querySelector(`[data-flame-reader="${index}"]`)
  const modes = document.querySelector(`[data-flame-mode="${index}"]`)
  if (!select) return
  let mode = 'buckets'
  const buckets = entry.buckets
  const draw = () => {
    const row = entry.rows.find(candidate => candidate.program === select.value)
    const points = []
    let depth = 0
    let largest = 0
    const walk = (nodes, from, level) => {
      let x = from
      for (const [name, ns, bucket, , children, change = null] of nodes) {
        points.push({ x, x2: x + ns, y: level, name, custom: { ns, bucket, change } })
        if (change !== null) largest = Math.max(largest, Math.abs(change))
        depth = Math.max(depth, level + 1)
        walk(children, x, level + 1)
        x += ns
      }
    }
    // the trunk every sample shares (start-up's frames down to the read loop) as one frame
    const trunk = []
    let nodes = row.tree
    while (nodes.length === 1 && nodes[0][4].length > 0) {
      trunk.push(nodes[0])
      nodes = nodes[0][4]
    }
    if (trunk.length > FOLDED_TRUNK) {
      const [first, last] = [trunk[0], trunk.at(-1)]
      const name = `${trunk.length} frames every sample shares: ${first[0]} … ${last[0]}`
      const custom = { ns: first[1], bucket: last[2], change: last[5] ?? null, trunk: trunk.map(node => node[0]) }
      points.push({ x: 0, x2: first[1], y: 0, name, custom })
      walk(nodes, 0, 1)
    } else {
      walk(row.tree, 0, 0)
    }
    // C's own tree has nothing to be against
    const diff = mode === 'diff' && row.tree.some(node => node.length > 5)
    for (const point of points) {
      point.color = diff
        ? changeColour(point.custom.change ?? 0, largest)
        : BUCKET_COLOURS[buckets[point.custom.bucket].key]
    }
    const total = row.tree.reduce((sum, node) => sum + node[1], 0)
    Highcharts.chart(`chart-flame-${index}`, {
      chart: { type: 'xrange', height: 130 + depth * FLAME_ROW_PX, zooming: { type: 'x' } },
      title: { text: escapeHtml(`${row.program}: its read loop's stacks, ${diff ? 'against C\'s' : 'by bucket'}`) },
      subtitle: { text: diff ? FLAME_AGAINST_C : FLAME_PLAIN },
      legend: { enabled: false },
      xAxis: { type: 'linear', min: 0, max: total, title: { text: 'ns of CPU per read' } },
      // a category per depth, so that a frame is one row high
      yAxis: {
        title: { text: 'stack depth, callers below' },
        categories: Array.from({ length: depth }, () => ''),
        labels: { enabled: false },
        gridLineWidth: 0,
        reversed: false,
        min: 0,
        max: depth - 1
      },
      tooltip: {
        formatter () {
          const { ns, bucket, change, trunk: folded } = this.point.custom
          const over = diff && change !== null ? `<br>${change >= 0 ? '+' : ''}${formatNumber(change)} ns over C's` : ''
          const frames = folded ? `<br>${folded.map(escapeHtml).join('<br>')}` : ''
          const share = `${formatNumber(100 * ns / total)}% of the read loop`
          return `<b>${escapeHtml(this.point.name)}</b><br>${formatNumber(ns)} ns per read (${share})<br>` +
            `${escapeHtml(buckets[bucket].label)}${over}${frames}`
        }
      },
      plotOptions: {
        xrange: {
          borderWidth: 0.5,
          borderColor: '#ffffff',
          pointPadding: 0,
          groupPadding: 0,
          dataLabels: {
            enabled: true,
            inside: true,
            align: 'left',
            verticalAlign: 'middle',
            style: { fontSize: '10px', fontWeight: 'normal', textOutline: 'none', color: '#1d2330' },
            formatter () {
              // as many of the name's characters as its frame has room for
              const room = Math.floor(((this.point.shapeArgs?.width ?? 0) - 6) / 6)
              if (room < 4) return ''
              const { name } = this.point
              return escapeHtml(name.length > room ? `${name.slice(0, room - 1)}…` : name)
            }
          },
          point: {
            events: {
              click () {
                this.series.chart.xAxis[0].setExtremes(this.x, this.x2)
                this.series.chart.showResetZoom()
              }
            }
          }
        }
      },
      series: [{ name: escapeHtml(row.program), data: points, turboThreshold: 0 }]
    })
    const note = document.getElementById(`flame-note-${index}`)
    const shrank = row.shrank.map(([name, change]) => `${name} ${formatNumber(change)} ns`).join(', ')
    note.textContent = diff
      ? `C's frames that shrank most under ${row.program}: ${shrank || 'none by more than 1 ns'}.`
      : `${formatNumber(total)} ns per read in frames of at least 0.2% of the read loop's samples; ` +
        'the gap under a frame is its own time.'
  }
  select.addEventListener('change', draw)
  modes.addEventListener('click', event => {
    const button = event.target.closest('button[data-mode]')
    if (!button) return
    mode = button.dataset.mode
    for (const other of modes.querySelectorAll('button')) other.setAttribute('aria-pressed', String(other === button))
    draw()
  })
  draw()
}

// In the order the page draws them, the headline first.
const drawings = { headline, profile, kernel, throughput, time, cost, syscalls, resources, gc }

module.exports = { drawings, lineTooltip }
