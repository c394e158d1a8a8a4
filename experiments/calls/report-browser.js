'use strict'
// The calls experiment's charts, drawn in the page as stdio's are
// (experiments/stdio/report-browser.js), whose headline chart shows the cost pass here too.
const { escapeHtml, formatNumber } = require('../../lib/report/format')
const {
  stackCut, valueLabels, roomRightOfFigures, FIGURE_LOOK, FIGURE_ROOM_PX
} = require('../../lib/report/browser')
const { READ_PART_HUES } = require('../../lib/report/looks')
const stdio = require('../stdio/report-browser')

// The ladder's parts are the profile's buckets measured another way, in their hues: the
// no-op call is the binding's, getppid less it the syscall's way in and out, the empty read
// beyond C's the runtime's own read path (its loop), and C's read less getppid the kernel's.
const PART_BUCKETS = { boundary: 'binding', syscall: 'entryExit', readPath: 'loop', kernelRead: 'kernelRead' }

// The call ladder: each variant's 256-byte read stacked from its four parts, the
// measured read beside it (a dot, whiskers its interval) and the cost pass's figure.
function ladder (entries, { copy, countTooltip, runtimeAxis, keyAndScaleAbove }) {
  for (const [index, entry] of entries.entries()) {
    // a few variants far past the rest (the WASI hosts' empty reads, 7 to 16 µs) would leave
    // the others slivers: the axis ends past the rest, and their figures are written at its edge
    const totals = entry.chart.categories.map((_, i) => entry.chart.parts.reduce((sum, part) => sum + (part.data[i] ?? 0), 0))
    const { max, series: past } = stackCut(totals,
      point => `parts ${formatNumber(point.total)} ns, read ${formatNumber(entry.chart.measured[point.index])} ns →`)
    // a row whose parts run past its read (a WASI host whose stdin is buffered, unlike the
    // empty read the ladder parts it by) has the read's figure past the parts, where it is
    // not written over them
    const beyond = totals.map((total, i) => {
      const read = entry.chart.whiskers[i]?.[1] ?? entry.chart.measured[i]
      return typeof read === 'number' && total > read && (max === null || total <= max) ? total : null
    })
    // the measured read's figure on each row; a row past the cut has it at the axis's edge
    const labels = valueLabels({
      values: entry.chart.measured
        .map((value, i) => (max !== null && totals[i] > max) || beyond[i] !== null ? null : value),
      whiskers: entry.chart.whiskers,
      text: i => `${formatNumber(entry.chart.measured[i])} ns`,
      max,
      markers: entry.chart.costPass,
      markerText: i => `read ${formatNumber(entry.chart.measured[i])} ns`
    })
    // the read's figure where the parts run past it: a series only where a row needs one
    const pastParts = beyond.some(total => total !== null)
      ? [{
          name: 'the read, past its parts',
          type: 'scatter',
          data: beyond,
          marker: { enabled: false },
          showInLegend: false,
          enableMouseTracking: false,
          dataLabels: {
            ...FIGURE_LOOK,
            align: 'left',
            verticalAlign: 'middle',
            x: 4,
            y: 0,
            formatter () {
              const i = this.point.index
              return `read ${formatNumber(entry.chart.measured[i])} ns`
            }
          }
        }]
      : []
    Highcharts.chart(`chart-ladder-${index}`, {
      chart: {
        type: 'bar',
        height: Math.max(300, 150 + entry.chart.categories.length * 44),
        spacingRight: FIGURE_ROOM_PX,
        events: { load () { roomRightOfFigures(this) } }
      },
      title: { text: escapeHtml(`${entries.length > 1 ? `${entry.set}: ` : ''}Where a 256-byte read's CPU time goes`) },
      subtitle: { text: `ns per read; bars: the parts the ladder measures, dot: the measured read (whiskers: ${entry.chart.level} interval), diamond: the stdin bench's cost pass` },
      xAxis: runtimeAxis(entry.chart.categories),
      // taller than the first screen; reversedStacks off: the parts run left to right in the
      // order of a call, boundary first
      ...keyAndScaleAbove({
        max,
        title: { text: `ns of CPU per call${max === null ? '' : ' (the axis ends before the longest bars, whose figures are written at its edge)'}` },
        reversedStacks: false
      }),
      plotOptions: { bar: { stacking: 'normal' } },
      tooltip: countTooltip('ns'),
      series: [
        ...entry.chart.parts.map(part => ({
          name: escapeHtml(part.name),
          data: copy(part.data),
          color: READ_PART_HUES[PART_BUCKETS[part.key]]
        })),
        {
          id: `ladder-measured-${index}`,
          name: 'measured 256-byte read',
          type: 'scatter',
          data: copy(entry.chart.measured),
          color: '#1d2330',
          marker: { symbol: 'circle' },
          dataLabels: labels.bar
        },
        {
          name: `measured, ${entry.chart.level} interval`,
          type: 'errorbar',
          linkedTo: `ladder-measured-${index}`,
          data: copy(entry.chart.whiskers),
          enableMouseTracking: false,
          dataLabels: labels.errorbar
        },
        {
          name: 'cost pass, 256 B',
          type: 'scatter',
          data: copy(entry.chart.costPass),
          // a hue no part and no runtime wears
          color: READ_PART_HUES.gc,
          marker: { symbol: 'diamond' },
          dataLabels: labels.marker
        },
        ...pastParts,
        ...past
      ]
    })
  }
}

// In the order the page draws them: the headline's, then the ladder's.
const drawings = { headline: stdio.drawings.headline, ladder }

module.exports = { drawings }
