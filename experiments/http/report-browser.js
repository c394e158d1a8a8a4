'use strict'
// The http experiment's charts, drawn in the page as stdio's are
// (experiments/stdio/report-browser.js).
const { formatNumber, escapeHtml } = require('../../lib/report/format')
const { drawAnswer, referenceLine, referenceNote } = require('../../lib/report/browser')

// Per set and mode: requests/s by server, a column per count of connections (whiskers:
// the runs' range; the tooltip adds CPU per request), and syscalls per request stacked
// by call.
function http (entries, { callSeries, copy, countTooltip, runtimePoints, runtimeAxis, groupColor, familyLegend }) {
  let httpIndex = 0
  for (const entry of entries) {
    for (const mode of entry.modes) {
      const index = httpIndex++
      const prefix = `${entries.length > 1 ? `${entry.set}: ` : ''}${mode.mode === 'close' ? 'Connection: close' : 'Keep-alive'}`
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
          {
            id: `http-rate-${index}-${i}`,
            name: escapeHtml(series.name),
            data: runtimePoints(mode.chart.categories, series.data.map((y, j) => ({ y, cpu: series.cpu[j] })), i),
            color: groupColor(i)
          },
          { name: `${escapeHtml(series.name)}, range of runs`, type: 'errorbar', linkedTo: `http-rate-${index}-${i}`, data: copy(series.whiskers), enableMouseTracking: false }
        ]).concat(familyLegend(mode.chart.categories))
      })
      if (mode.chart.syscalls.missing) continue
      Highcharts.chart(`chart-http-syscalls-${index}`, {
        chart: { type: 'bar', height: Math.max(470, 150 + mode.chart.syscalls.categories.length * 40) },
        title: { text: escapeHtml(`${prefix}: syscalls per request`) },
        subtitle: { text: 'every thread, strace -f -c: the difference of two counts of requests; each call that succeeded, then the upkeep (waits, failed tries, memory calls), which follows timing; lower is better' + referenceNote(mode.chart.syscalls.reference?.total, mode.chart.syscalls.reference?.name) },
        xAxis: runtimeAxis(mode.chart.syscalls.categories),
        yAxis: { min: 0, title: { text: 'syscalls per request' }, reversedStacks: false, plotLines: referenceLine(mode.chart.syscalls.reference?.total, mode.chart.syscalls.reference?.name, { labelled: false }) },
        plotOptions: { bar: { stacking: 'normal' } },
        tooltip: countTooltip('calls per request'),
        series: callSeries(mode.chart.syscalls.series)
      })
    }
  }
}

const drawings = { answer: (chart, kit) => drawAnswer('chart-answer', chart, kit), http }

module.exports = { drawings }
