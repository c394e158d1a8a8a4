'use strict'
// The report's code that runs in the browser: it reads the JSON the page carries and
// draws every chart. A CommonJS module, so that tests can require it; lib/report/html.js
// inlines it, after lib/report/format.js, behind a require() that knows those two, so
// the page formats numbers and escapes names with the same functions as the rest of
// the report.
const { sizeLabel, sizeName, formatNumber, escapeHtml } = require('./format')

// Highcharts reads names and labels as markup: the page escapes them once, where a
// series or axis is made. A tooltip takes this.series.name and this.key (a bar's
// category) from there already escaped: escaping them again would show &lt; for <.
// In a bar chart this.x is the category's index, not its name.

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

// Bars, stacked or not: the bar's category, its series and, when stacked, the total.
function countTooltip (unit) {
  return {
    formatter () {
      return `<b>${this.key}</b><br><span style="color:${this.color}">●</span> ${this.series.name}: <b>${formatNumber(this.y)}</b> ${unit}` +
        (this.total !== undefined ? `<br>total: ${formatNumber(this.total)}` : '')
    }
  }
}

// Highcharts and document are the page's globals.
function drawReport () {
  const data = JSON.parse(document.getElementById('report-data').textContent)
  const palette = ['#2f6fde', '#e8743b', '#19a979', '#ed4a7b', '#945ecf', '#13a4b4', '#525df4', '#bf399e', '#6c8893', '#ee6868', '#9b8b2f', '#2c4a9e', '#d4a300']
  const dashes = ['Solid', 'ShortDash', 'ShortDot', 'DashDot', 'LongDash']
  // Highcharts writes point updates back into the arrays it was given: hand it copies
  // so that the page's data stays as loaded and the toggles can switch back.
  const copy = rows => (rows ? rows.map(row => (Array.isArray(row) ? [...row] : row)) : rows)
  const color = index => palette[((index % palette.length) + palette.length) % palette.length]
  // A second result set wears a lighter shade of the same colour.
  const shade = (base, amount) => (amount ? Highcharts.color(base).brighten(amount).get() : base)

  Highcharts.setOptions({
    accessibility: { enabled: false },
    chart: { style: { fontFamily: 'inherit' }, spacing: [14, 14, 14, 14] },
    credits: { enabled: false },
    title: { style: { fontSize: '15px', fontWeight: '600' } },
    subtitle: { style: { fontSize: '12px' } },
    legend: { itemStyle: { fontWeight: '500', fontSize: '12px' } },
    // Saving a chart must not reach the Highcharts export server: the page works offline.
    exporting: {
      fallbackToExportServer: false,
      sourceWidth: 1000,
      sourceHeight: 560,
      buttons: { contextButton: { menuItems: ['downloadPNG', 'downloadSVG', 'separator', 'viewFullscreen'] } }
    },
    plotOptions: { series: { animation: false } }
  })

  // A log-2 axis: Highcharts' logarithmic axis takes tick positions as log10 values,
  // so every power of two between the smallest and the largest block size is a tick.
  const sizeAxis = sizes => {
    const ticks = []
    for (let size = sizes[0]; size <= sizes[sizes.length - 1]; size *= 2) ticks.push(Math.log10(size))
    return {
      type: 'logarithmic',
      tickPositions: ticks,
      title: { text: 'block size, bytes (log₂ scale)' },
      labels: { formatter () { return sizeLabel(Math.round(this.value)) } },
      gridLineWidth: 1,
      gridLineColor: '#eef0f4'
    }
  }

  const lineSeries = list => list.flatMap(series => [
    { id: series.id, name: escapeHtml(series.name), type: 'line', data: copy(series.data), color: color(series.colorIndex), dashStyle: dashes[series.setIndex % dashes.length], marker: { symbol: 'circle', radius: 4 }, zIndex: 2 },
    ...(series.band ? [{ id: `${series.id}:band`, name: `${escapeHtml(series.name)} min–max`, type: 'arearange', linkedTo: series.id, data: copy(series.band), color: color(series.colorIndex), fillOpacity: 0.14, lineWidth: 0, marker: { enabled: false }, enableMouseTracking: false, zIndex: 1 }] : [])
  ])

  const lineChart = (id, { title, subtitle, series, yTitle, unit, yType = 'linear', yMin = 0, plotLines }) => Highcharts.chart(id, {
    chart: { type: 'line' },
    title: { text: escapeHtml(title) },
    subtitle: { text: escapeHtml(subtitle ?? '') },
    xAxis: sizeAxis(data.sizes),
    yAxis: { type: yType, min: yType === 'logarithmic' ? undefined : yMin, title: { text: escapeHtml(yTitle) }, plotLines },
    tooltip: lineTooltip(unit),
    legend: { enabled: true },
    series: lineSeries(series)
  })

  const setPressed = (group, button) => {
    for (const other of group.querySelectorAll('button')) other.setAttribute('aria-pressed', String(other === button))
  }

  // 1. The headline: each reader's CPU per read over C's, whiskers its interval, best first.
  const headlineSeries = size => data.headline.chart[size].series.flatMap(series => [
    { id: `headline:${series.setIndex}`, name: escapeHtml(series.name), type: 'bar', data: series.data.map((y, i) => ({ y, share: series.shares[i], cpu: series.cpu[i], baseNs: series.baseNs })), color: shade(color(0), series.setIndex * 0.35) },
    { name: `${escapeHtml(series.name)} ${series.level} interval`, type: 'errorbar', linkedTo: `headline:${series.setIndex}`, data: copy(series.whiskers), enableMouseTracking: false }
  ])
  const headlineTitle = size => `Per read at ${sizeName(size)}: CPU time over C's`
  const headlineChart = data.headline.available
    ? Highcharts.chart('chart-headline', {
      chart: { type: 'bar', height: Math.max(300, 170 + data.headline.chart[data.headline.defaultSize].categories.length * 34 * data.headline.chart[data.headline.defaultSize].series.length) },
      title: { text: escapeHtml(headlineTitle(data.headline.defaultSize)) },
      subtitle: { text: `ns more than C per read(2), lower is better; whiskers: ${data.headline.chart[data.headline.defaultSize].series[0].level} interval` },
      xAxis: { categories: data.headline.chart[data.headline.defaultSize].categories.map(escapeHtml) },
      yAxis: { title: { text: 'ns of CPU per read over C\'s' }, plotLines: [{ value: 0, width: 1.5, color: '#1d2330', zIndex: 3, label: { text: 'C', align: 'right', style: { color: '#1d2330' } } }] },
      legend: { enabled: data.headline.chart[data.headline.defaultSize].series.length > 1 },
      tooltip: {
        formatter () {
          const point = this.point
          const share = point.share ? `<br>${formatNumber(point.share.estimate * 100)}% of C's speed` : ''
          const cpu = point.cpu !== null ? `<br>${formatNumber(point.cpu)} ns per read (C: ${formatNumber(point.baseNs)} ns)` : ''
          return `<b>${this.key}</b> (${this.series.name})<br>${formatNumber(this.y)} ns over C${share}${cpu}`
        }
      },
      series: headlineSeries(data.headline.defaultSize)
    })
    : null
  const showHeadline = size => {
    headlineChart.update({ title: { text: escapeHtml(headlineTitle(size)) }, xAxis: { categories: data.headline.chart[size].categories.map(escapeHtml) }, series: headlineSeries(size) }, true, true)
  }

  // The call ladder: each variant's 256-byte read stacked from its four parts, the
  // measured read beside it (a dot, whiskers its interval) and the cost pass's figure.
  for (const [index, entry] of (data.ladder ?? []).entries()) {
    Highcharts.chart(`chart-ladder-${index}`, {
      chart: { type: 'bar', height: Math.max(300, 150 + entry.chart.categories.length * 44) },
      title: { text: escapeHtml(`${data.ladder.length > 1 ? `${entry.set}: ` : ''}Where a 256-byte read's CPU time goes`) },
      subtitle: { text: `ns per read; bars: the parts the ladder measures, dot: the measured read (whiskers: ${entry.chart.level} interval), diamond: the stdin bench's cost pass` },
      xAxis: { categories: entry.chart.categories.map(escapeHtml) },
      // reversedStacks off: the parts run left to right in the order of a call, boundary first
      yAxis: { title: { text: 'ns of CPU per call' }, reversedStacks: false },
      plotOptions: { bar: { stacking: 'normal' } },
      tooltip: countTooltip('ns'),
      series: [
        ...entry.chart.parts.map((part, i) => ({ name: escapeHtml(part.name), data: copy(part.data), color: color(i) })),
        { id: `ladder-measured-${index}`, name: 'measured 256-byte read', type: 'scatter', data: copy(entry.chart.measured), color: '#1d2330', marker: { symbol: 'circle' } },
        { name: `measured, ${entry.chart.level} interval`, type: 'errorbar', linkedTo: `ladder-measured-${index}`, data: copy(entry.chart.whiskers), enableMouseTracking: false },
        { name: 'cost pass, 256 B', type: 'scatter', data: copy(entry.chart.costPass), color: '#bf399e', marker: { symbol: 'diamond' } }
      ]
    })
  }

  // The http experiment, per set and mode: requests/s by server, a column per count of
  // connections (whiskers: the runs' range; the tooltip adds CPU per request), and
  // syscalls per request stacked by call.
  let httpIndex = 0
  // one colour per syscall on the whole page, whichever mode's chart it is in
  const callColours = new Map()
  const KIND_COLOURS = { other: '#9aa3b2', upkeep: '#d8cfa8' }
  const callColour = series => {
    if (series.kind) return KIND_COLOURS[series.kind]
    if (!callColours.has(series.name)) callColours.set(series.name, color(callColours.size))
    return callColours.get(series.name)
  }
  for (const entry of data.http ?? []) {
    for (const mode of entry.modes) {
      const index = httpIndex++
      const prefix = `${data.http.length > 1 ? `${entry.set}: ` : ''}${mode.mode === 'close' ? 'Connection: close' : 'Keep-alive'}`
      Highcharts.chart(`chart-http-rate-${index}`, {
        chart: { type: 'column', height: 470 },
        title: { text: escapeHtml(`${prefix}: requests per second`) },
        subtitle: { text: 'median of the runs, whiskers: slowest to fastest run; higher is better' },
        xAxis: { categories: mode.chart.categories.map(escapeHtml) },
        yAxis: { min: 0, title: { text: 'requests/s' } },
        tooltip: {
          formatter () {
            const cpu = this.point.cpu
            return `<b>${this.key}</b>, ${escapeHtml(this.series.name)}<br>${formatNumber(Math.round(this.y))} req/s${cpu !== null && cpu !== undefined ? `<br>${formatNumber(cpu)} µs of server CPU per request` : ''}`
          }
        },
        series: mode.chart.rate.flatMap((series, i) => [
          { id: `http-rate-${index}-${i}`, name: escapeHtml(series.name), data: series.data.map((y, j) => ({ y, cpu: series.cpu[j] })), color: color(i) },
          { name: `${escapeHtml(series.name)}, range of runs`, type: 'errorbar', linkedTo: `http-rate-${index}-${i}`, data: copy(series.whiskers), enableMouseTracking: false }
        ])
      })
      if (mode.chart.syscalls.missing) continue
      Highcharts.chart(`chart-http-syscalls-${index}`, {
        chart: { type: 'bar', height: Math.max(470, 150 + mode.chart.syscalls.categories.length * 40) },
        title: { text: escapeHtml(`${prefix}: syscalls per request`) },
        subtitle: { text: 'every thread, strace -f -c: the difference of two counts of requests; each call that succeeded, then the upkeep (waits, failed tries, memory calls), which follows timing; lower is better' },
        xAxis: { categories: mode.chart.syscalls.categories.map(escapeHtml) },
        yAxis: { min: 0, title: { text: 'syscalls per request' }, reversedStacks: false },
        plotOptions: { bar: { stacking: 'normal' } },
        tooltip: countTooltip('calls per request'),
        series: mode.chart.syscalls.series.map(series => ({ name: escapeHtml(series.name), data: copy(series.data), color: callColour(series) }))
      })
    }
  }

  // The stdio sections' charts; calls and http runs have none.
  const stdio = data.experiment === 'calls' || data.experiment === 'http'
    ? null
    : (() => {
        // 2. Throughput as small multiples, one panel per runtime family with C dashed in each,
        // and the steady-state / end-to-end toggle over all of them.
        const throughputTitles = {
          steady: { title: 'Steady-state throughput (start-up removed)', subtitle: 'best of each cell, band: slowest to fastest run', y: 'MB/s, higher is better' },
          raw: { title: 'End-to-end throughput (start-up included)', subtitle: 'best of each cell, band: slowest to fastest run', y: 'MB/s, higher is better' },
          marginal: { title: 'Marginal throughput (full runs less quarter runs: start-up and warm-up cancel)', subtitle: 'median runs, band: the fit\'s plus-or-minus', y: 'MB/s, higher is better' }
        }
        const inFamily = (list, family) => list.filter(series => series.family === family.name ||
      (series.program === data.throughput.baseline && family.name !== list.find(entry => entry.program === data.throughput.baseline)?.family))
        const panels = data.throughput.families.map(family => {
          const series = inFamily(data.throughput.steady, family)
          const chart = lineChart(`chart-throughput-${family.name}`, {
            title: `${family.label}: ${throughputTitles.steady.title}`,
            subtitle: throughputTitles.steady.subtitle,
            series,
            yTitle: throughputTitles.steady.y,
            unit: 'MB/s'
          })
          for (const line of series.filter(entry => entry.program === data.throughput.baseline && entry.family !== family.name)) {
            chart.get(line.id).update({ dashStyle: 'Dash', color: '#1d2330' }, false)
            chart.get(`${line.id}:band`)?.update({ color: '#1d2330' }, false)
          }
          chart.redraw()
          return { family, chart }
        })
        const modeGroup = document.getElementById('throughput-mode')
        modeGroup.addEventListener('click', event => {
          const button = event.target.closest('button[data-mode]')
          if (!button) return
          const mode = button.dataset.mode
          for (const { family, chart } of panels) {
            for (const series of inFamily(data.throughput[mode], family)) {
              chart.get(series.id).setData(copy(series.data), false)
              chart.get(`${series.id}:band`)?.setData(copy(series.band), false)
            }
            chart.setTitle({ text: escapeHtml(`${family.label}: ${throughputTitles[mode].title}`) }, { text: escapeHtml(throughputTitles[mode].subtitle) }, false)
            chart.redraw()
          }
          setPressed(modeGroup, button)
          document.body.dataset.throughputMode = mode
        })

        // 3. Time taken.
        lineChart('chart-time', { title: 'Time taken', subtitle: 'best run, band: fastest to slowest', series: data.time, yTitle: 'ms, lower is better', unit: 'ms' })

        // 4. Cost per read and the overhead over C.
        if (document.getElementById('chart-cost')) {
          lineChart('chart-cost', { title: 'Cost per read', subtitle: '(best wall time − start-up) ÷ reads', series: data.cost.perRead, yTitle: 'ns per read (log scale), lower is better', unit: 'ns', yType: 'logarithmic' })
        }
        if (document.getElementById('chart-overhead')) {
          lineChart('chart-overhead', {
            title: 'Overhead over C per read',
            subtitle: 'cost per read minus C\'s at the same block size',
            series: data.cost.overhead,
            yTitle: 'ns more than C per read',
            unit: 'ns',
            yMin: null,
            plotLines: [{ value: 0, width: 1.5, color: '#1d2330', zIndex: 3, label: { text: 'C', align: 'right', style: { color: '#1d2330' } } }]
          })
        }

        // 5. Syscall profiles at the chosen block size.
        // One colour per syscall name across both charts and every block size.
        const syscallColors = new Map()
        for (const size of [...(data.syscalls.sizes ?? [])].reverse()) {
          for (const mode of ['main', 'all']) {
            for (const series of data.syscalls.bySize[size][mode]) {
              if (series.name !== 'other' && !syscallColors.has(series.name)) syscallColors.set(series.name, color(syscallColors.size))
            }
          }
        }
        const syscallSeries = list => list.map(series => ({ id: `sys:${series.name}`, name: escapeHtml(series.name), data: copy(series.data), color: syscallColors.get(series.name) ?? '#b8bfcc' }))
        const syscallCharts = []
        if (data.syscalls.available) {
          for (const [mode, title] of [['main', 'Main thread'], ['all', 'All threads (strace -f)']]) {
            const profile = data.syscalls.bySize[data.syscalls.defaultSize]
            syscallCharts.push({
              mode,
              chart: Highcharts.chart(`chart-syscalls-${mode}`, {
                title: { text: escapeHtml(`${title} at ${sizeName(data.syscalls.defaultSize)}`) },
                xAxis: { categories: profile.categories.map(escapeHtml) },
                chart: { type: 'bar', spacingRight: 28 },
                yAxis: { min: 0, title: { text: 'syscalls in the strace run' }, reversedStacks: false, labels: { overflow: 'allow' } },
                legend: { enabled: true },
                plotOptions: { bar: { stacking: 'normal', borderWidth: 0 } },
                tooltip: countTooltip('calls'),
                series: syscallSeries(profile[mode])
              }),
              title
            })
          }
        }
        const showSyscalls = size => {
          const profile = data.syscalls.bySize[size]
          for (const { mode, chart, title } of syscallCharts) {
            chart.update({
              title: { text: escapeHtml(`${title} at ${sizeName(size)}`) },
              xAxis: { categories: profile.categories.map(escapeHtml) },
              series: syscallSeries(profile[mode])
            }, true, true)
          }
        }

        // 6. Memory, CPU, start-up: one bar per program, laid sideways so names stay readable.
        const categories = data.resources.categories.map(escapeHtml)
        const barHeight = Math.max(320, 150 + categories.length * (data.resources.startup.length > 1 ? 44 : 30))
        Highcharts.chart('chart-memory', {
          chart: { type: 'bar', height: barHeight },
          title: { text: 'Max RSS' },
          xAxis: { categories },
          yAxis: { min: 0, title: { text: 'MiB' } },
          tooltip: { formatter () { return `<b>${this.key}</b><br>${this.series.name}: <b>${formatNumber(this.y)}</b> MiB` } },
          series: data.resources.memory.map((series, i) => ({ name: escapeHtml(series.name), data: series.data, color: shade(color(series.setIndex), i % 2 ? 0.35 : 0) }))
        })
        const cpuSeries = size => data.resources.cpu.bySize[size].map(series => ({
          id: `cpu:${series.setIndex}:${series.kind}`, name: escapeHtml(series.name), stack: escapeHtml(series.stack), data: copy(series.data), color: shade(series.kind === 'user' ? '#19a979' : '#e8743b', series.setIndex * 0.3)
        }))
        const cpu = Highcharts.chart('chart-cpu', {
          chart: { type: 'bar', height: barHeight },
          title: { text: escapeHtml(`CPU time at ${sizeName(data.resources.cpu.defaultSize)}`) },
          xAxis: { categories },
          yAxis: { min: 0, title: { text: 'seconds (median run)' }, reversedStacks: false },
          plotOptions: { bar: { stacking: 'normal', borderWidth: 0 } },
          tooltip: countTooltip('s'),
          series: cpuSeries(data.resources.cpu.defaultSize)
        })
        Highcharts.chart('chart-startup', {
          chart: { type: 'bar', height: barHeight },
          title: { text: 'Start-up on empty input' },
          xAxis: { categories },
          yAxis: { min: 0, title: { text: 'ms, lower is better' } },
          plotOptions: { bar: { grouping: true } },
          tooltip: { formatter () { return `<b>${this.key}</b><br>${this.series.name}: <b>${formatNumber(this.y)}</b> ms` } },
          series: data.resources.startup.flatMap((series, i) => [
            { id: `startup:${i}`, name: escapeHtml(series.name), type: 'bar', data: series.data, color: palette[i % palette.length] },
            { name: `${escapeHtml(series.name)} min–max`, type: 'errorbar', linkedTo: `startup:${i}`, data: series.range, enableMouseTracking: false }
          ])
        })

        // 7. GC: heap over time from a trace.
        if (document.getElementById('chart-gc-heap')) {
          Highcharts.chart('chart-gc-heap', {
            chart: { type: 'line' },
            title: { text: 'Heap used during the GC trace' },
            xAxis: { min: 0, title: { text: 'ms since the isolate started' } },
            yAxis: { min: 0, title: { text: 'MB used' } },
            tooltip: { formatter () { return `<b>${this.series.name}</b><br>${formatNumber(this.x)} ms: ${formatNumber(this.y)} MB` } },
            series: data.gc.timeline.map(series => ({ name: escapeHtml(series.name), data: series.data, color: color(series.colorIndex), dashStyle: dashes[series.setIndex % dashes.length], marker: { enabled: true, symbol: 'circle', radius: 3 } }))
          })
        }
        return { showSyscalls, cpu, cpuSeries }
      })()

  // The block-size buttons of the syscall and CPU sections.
  for (const group of document.querySelectorAll('[data-size-group]')) {
    group.addEventListener('click', event => {
      const button = event.target.closest('button[data-size]')
      if (!button) return
      const size = Number(button.dataset.size)
      setPressed(group, button)
      if (group.dataset.sizeGroup === 'headline') {
        showHeadline(size)
        for (const panel of document.querySelectorAll('[data-size-panel="headline"]')) panel.hidden = Number(panel.dataset.size) !== size
      } else if (group.dataset.sizeGroup === 'syscalls') {
        stdio.showSyscalls(size)
        for (const panel of document.querySelectorAll('[data-size-panel="syscalls"]')) panel.hidden = Number(panel.dataset.size) !== size
      } else {
        stdio.cpu.update({ title: { text: escapeHtml(`CPU time at ${sizeName(size)}`) }, series: stdio.cpuSeries(size) }, true, true)
      }
    })
  }
  document.body.dataset.chartsReady = 'true'
}

module.exports = { drawReport, lineTooltip, countTooltip }
