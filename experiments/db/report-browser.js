'use strict'
// The db experiment's charts, drawn in the page as stdio's are
// (experiments/stdio/report-browser.js).
const { escapeHtml } = require('../../lib/report/format')
const { drawAnswer, referenceLine, referenceNote } = require('../../lib/report/browser')

// Per set and endpoint: CPU per request stacked by process, and the server's syscalls
// per request stacked by call.
function db (entries, { color, callSeries, copy, countTooltip, runtimeAxis }) {
  let index = 0
  for (const entry of entries) {
    for (const endpoint of entry.endpoints) {
      const at = index++
      const prefix = `${entries.length > 1 ? `${entry.set}: ` : ''}/${endpoint.endpoint}`
      const cpu = endpoint.chart.cpu
      Highcharts.chart(`chart-db-cpu-${at}`, {
        chart: { type: 'bar', height: Math.max(470, 150 + cpu.categories.length * 32) },
        title: { text: escapeHtml(`${prefix}: CPU per request`) },
        subtitle: { text: 'µs by process, median of the runs at the most connections; lower is better' },
        xAxis: runtimeAxis(cpu.categories),
        yAxis: { min: 0, title: { text: 'µs of CPU per request' }, reversedStacks: false },
        plotOptions: { bar: { stacking: 'normal' } },
        tooltip: countTooltip('µs per request'),
        series: cpu.series.map((series, i) => ({ name: escapeHtml(series.name), data: copy(series.data), color: color(i) }))
      })
      const calls = endpoint.chart.serverCalls
      if (calls.missing) continue
      Highcharts.chart(`chart-db-calls-${at}`, {
        chart: { type: 'bar', height: Math.max(470, 150 + calls.categories.length * 32) },
        title: { text: escapeHtml(`${prefix}: the server's syscalls per request`) },
        subtitle: { text: 'every thread, strace -f -c: the difference of two counts of requests; each call that succeeded, then the upkeep (waits, failed tries, memory calls); lower is better' + referenceNote(calls.reference?.total, calls.reference?.name) },
        xAxis: runtimeAxis(calls.categories),
        yAxis: { min: 0, title: { text: 'syscalls per request' }, reversedStacks: false, plotLines: referenceLine(calls.reference?.total, calls.reference?.name, { labelled: false }) },
        plotOptions: { bar: { stacking: 'normal' } },
        tooltip: countTooltip('calls per request'),
        series: callSeries(calls.series)
      })
    }
  }
}

const drawings = { answer: (chart, kit) => drawAnswer('chart-answer', chart, kit), db }

module.exports = { drawings }
