'use strict'
// The stdio experiment's sections of report.html: the headline first, then the findings,
// syscalls, idiomatic readers, memory and CPU, GC, throughput, time, cost per read, the
// summary tables and the context. Each section's chart is drawn in the page by
// experiments/stdio/report-browser.js from the data its entry in `sections` gives.
const {
  MARGINAL_NOTE, SHARE_NOTE, WITHHELD_NOTE, WITHIN_NOISE, FEW_READS, ladderNoteText, ladderCallText, precisionText,
  headlineLevelsText, shiftText, profileRoundsText, profileLossText
} = require('./report-text')
const { ownRepeatabilityText, headlineTrust, headlineRepeatabilityText, meaningText } = require('./cost')
const {
  sizeName, formatNumber, formatPercent, formatRatio, formatSigned, formatRange
} = require('../../lib/report/format')
const {
  Markup, html, why, intervalText, shareHtml, trustLine, leadFindings, repeatabilityNotes, contextSection, failedRuns,
  sizeButtons, sizePanel
} = require('../../lib/report/markup')
const { levelText, levelsText } = require('../../lib/stats')
const { kernelSection, KERNEL_SIZE_GROUP } = require('./report-kernel')
const { BASELINE } = require('./programs')
const { shownUnnamed, profilePlacementText } = require('./profile')
const { HEADLINE_FLAGS, comparisonTitle } = require('./report-data')

const FLAG_LABELS = { failed: 'failed', 'some-runs-failed': 'runs failed', noisy: 'noisy', 'feeder-bound': 'feeder-bound', 'reader-waited': 'reader waited', 'startup-dominated': 'start-up dominated', steal: 'VM steal', disturbed: 'disturbed', 'host-chunks': 'host chunks' }

function flagBadges (flags, meanings) {
  return flags.map(flag => html`<span class="flag flag-${flag}" title="${meanings[flag] ?? flag}">${FLAG_LABELS[flag] ?? flag}</span>`)
}

// In place of a share of C the runs do not support: the reason, its detail on hover.
const withheldShare = (reason, detail) => html`<span class="pct withheld" title="${detail ?? reason}">${reason}</span>`

// ---- sections ----

// The findings the headline section does not already give beside its chart.
function findingsSection (data) {
  const rest = data.findings.filter(finding => !finding.headline)
  const groups = data.compare
    ? data.sets.map(set => ({ title: set, items: rest.filter(finding => finding.set === set) }))
    : [{ title: null, items: rest }]
  return html`<section id="findings">
    <h2>More findings</h2>
    <p class="note">Every sentence here and beside the chart above is computed from the results; none is written by hand.</p>
    ${groups.filter(group => group.items.length).map(group => html`
      ${group.title ? html`<h3>${group.title}</h3>` : ''}
      <ul class="findings">${group.items.map(finding => html`<li>${finding.text}</li>`)}</ul>`)}
    ${rest.length === 0 ? html`<p class="why">No finding: the results hold too little to compare.</p>` : ''}
  </section>`
}

// The lab's answer first: what a read costs each reader against C, the findings that say
// it in words, the chart of the overhead with its interval, the table behind it.
function headlineSection (data) {
  const { headline } = data
  const lead = data.findings.filter(finding => finding.headline)
  if (!headline.available) {
    return html`<section id="headline">
      <h2>What a read costs, against C</h2>
      <p class="why">No headline: ${headline.sets.map(entry => entry.reason).join('; ')}. Measure it with <code>node bench.js</code> (its cost pass).</p>
    </section>`
  }
  // C's row: its compiler, its ns, and 0 and 100% by definition
  const baseRow = base => html`<tr class="baseline"><th scope="row">${base.program}</th>
    <td>${base.runtimeTitle ? `${base.runtimeTitle}, ` : ''}the yardstick</td>
    <td class="num">${formatNumber(base.cpuPerReadNs?.estimate)}${intervalText(base.cpuPerReadNs)}</td>
    <td class="num">0</td><td class="num">100%</td><td>${flagBadges(base.flags, HEADLINE_FLAGS)}</td></tr>`
  const table = (entry, blockSize) => {
    const size = entry.bySize[blockSize]
    if (!size) return ''
    return sizePanel('headline', blockSize, headline.defaultSize, html`<table class="headline">
      <caption>${data.compare ? html`${entry.set}: ` : ''}CPU time per read at ${sizeName(blockSize)}, median of ${entry.rounds ?? '?'} rounds; ${headlineLevelsText(size.levels) || 'no intervals'}</caption>
      <thead><tr><th scope="col">reader</th><th scope="col">runtime</th><th scope="col" class="num">ns per read</th><th scope="col" class="num">over C, ns</th><th scope="col" class="num">share of C's speed</th><th scope="col">flags</th></tr></thead>
      <tbody>
        ${size.base ? baseRow(size.base) : ''}
        ${size.rows.map(row => html`<tr>
          <th scope="row">${row.program}</th><td>${row.runtimeLabel ?? ''}</td>
          <td class="num">${row.cpuPerReadNs ? html`${formatNumber(row.cpuPerReadNs.estimate)}${intervalText(row.cpuPerReadNs)}` : ''}</td>
          <td class="num">${row.overheadNs ? html`${formatNumber(row.overheadNs.estimate)}${intervalText(row.overheadNs)}` : ''}</td>
          <td class="num">${shareHtml(row.shareOfC)}</td>
          <td>${flagBadges(row.flags, HEADLINE_FLAGS)}${row.rejected ? html` <span class="why">${row.rejected}</span>` : ''}</td>
        </tr>`)}
      </tbody>
    </table>`, 'table-wrap')
  }
  // the answer first, at the top of the page, and how far it can be trusted; then what it
  // means and its numbers
  return html`<section id="headline">
    <h2>What a read costs, against C</h2>
    ${trustLine(headline.sets, entry => headlineTrust(entry.repeatability), data.compare,
      headline.repeatabilities.filter(twoRuns => twoRuns.total)
        .map(twoRuns => headlineRepeatabilityText(twoRuns, twoRuns.sets)))}
    ${sizeButtons('headline', headline.sizes, headline.defaultSize)}
    <div class="chart" id="chart-headline"></div>
    ${headline.sets.filter(entry => entry.repeatability).map(entry => html`<p class="note repeatability">${data.compare ? html`<span class="set">${entry.set}</span> ` : ''}${ownRepeatabilityText(entry.repeatability)}.</p>`)}
    ${leadFindings(lead, data.compare)}
    <p class="note">${meaningText(headline.sets)}. Whiskers: the overhead's interval, at the level each
      table's caption gives.${idiomaticLink(data, ' Readers that choose their own chunk size are under ')}</p>
    ${headline.sizes.map(blockSize => headline.sets.filter(entry => entry.available).map(entry => table(entry, blockSize)))}
    ${headline.repeatabilities.filter(twoRuns => twoRuns.total)
      .map(twoRuns => repeatabilityTable(twoRuns, twoRuns.sets))}
  </section>`
}

// Two runs' headlines by the repeatability criterion: how many points each share of C
// moved, whether that is within the goal, and whether the rank test calls it a shift.
function repeatabilityTable (result, sets) {
  return html`<div class="table-wrap"><table class="agreement">
    <caption>${headlineRepeatabilityText(result, sets)}</caption>
    <thead><tr><th scope="col">reader</th><th scope="col" class="num">block size</th><th scope="col" class="num">${sets[0]}</th><th scope="col" class="num">${sets[1]}</th><th scope="col" class="num">move, points</th><th scope="col">within ${result.goal.points}</th><th scope="col">shift (p)</th></tr></thead>
    <tbody>${result.cells.map(cell => html`<tr${cell.within ? '' : new Markup(' class="disagree"')}>
      <th scope="row">${cell.program}</th><td class="num">${sizeName(cell.blockSize)}</td>
      <td class="num">${shareHtml(cell.a)}</td><td class="num">${shareHtml(cell.b)}</td>
      <td class="num">${cell.movePoints.toFixed(1)}</td><td>${cell.within ? 'yes' : 'no'}</td>
      <td>${shiftText(cell)}</td>
    </tr>`)}</tbody>
  </table></div>`
}

function throughputSection (data) {
  return html`<section id="throughput">
    <h2>Throughput</h2>
    <p class="note">MB/s (10<sup>6</sup> bytes per second), higher is better: the best of each cell's runs, with a band from the slowest to the fastest run.
      Steady state takes each program's median start-up time (on empty input) out of the wall time; end-to-end keeps it in.
      ${data.throughput.marginal ? html`Marginal is the throughput of the bytes between a quarter run and a full run (median runs), so start-up and the JIT's warm-up cancel; its band is the fit's plus-or-minus (both sizes' half-ranges).` : ''}</p>
    <div class="toggle" role="group" aria-label="throughput" id="throughput-mode">
      <button type="button" data-mode="steady" aria-pressed="true">Steady state</button>
      <button type="button" data-mode="raw" aria-pressed="false">End-to-end</button>
      ${data.throughput.marginal ? html`<button type="button" data-mode="marginal" aria-pressed="false">Marginal</button>` : ''}
    </div>
    <div class="grid multiples" id="chart-throughput">${data.throughput.families.map(family => html`<div class="chart small" id="chart-throughput-${family.name}" data-family="${family.name}"></div>`)}</div>
    <p class="note">One panel per runtime family, each with C (dashed) as its yardstick${idiomaticLink(data, '; readers that choose their own chunk size are under ')}.</p>
  </section>`
}

function timeSection () {
  return html`<section id="time">
    <h2>Time taken</h2>
    <p class="note">Wall time of the whole pipeline, milliseconds, lower is better: the best run, with a band from the fastest to the slowest.</p>
    <div class="chart" id="chart-time"></div>
  </section>`
}

function costSection (data) {
  const { cost } = data
  const left = cost.left.length
    ? html`<p class="note">Left out: ${cost.left.map((entry, i) => html`${i ? '; ' : ''}<strong>${entry.program}</strong> ${entry.reason}`)}.</p>`
    : ''
  const charts = cost.perRead.length
    ? html`<div class="grid two">
        <div class="chart" id="chart-cost"></div>
        ${cost.hasBaseline && cost.overhead.length ? html`<div class="chart" id="chart-overhead"></div>` : html`<p class="why">No overhead over C: ${cost.hasBaseline ? 'no other program honours the block size' : 'the results have no C cell to compare with'}.</p>`}
      </div>`
    : html`<p class="why">No cost per read: no program that honours the block size ran longer than its start-up.</p>`
  return html`<section id="cost">
    <h2>Wall time per read</h2>
    <p class="note">Nanoseconds per read(): (best wall time − median start-up) ÷ reads, for programs that read exactly the block size they are given; and how many nanoseconds more than C each read takes at the same block size.</p>
    ${charts}
    ${left}
  </section>`
}

// A rate that came out as noise, or of a reader strace caught out, says so instead of a number.
function perMiBText (entry) {
  if (entry.rejected) return html`<span class="flag flag-failed" title="${entry.rejected}">not counted</span>`
  if (entry.perMiBNoise) return html`<span class="flag flag-noisy" title="${entry.perMiBNoise}">noise</span>`
  if (entry.perMiBAll === null && entry.failed) {
    return html`<span class="flag flag-failed" title="${entry.failed}">lost: a run failed</span>`
  }
  return formatNumber(entry.perMiBAll)
}

function syscallTable (entry, compare) {
  const top = list => list.map((row, i) => html`${i ? ', ' : ''}${row.name} ${formatNumber(row.calls)}`)
  return html`<tr>
    <th scope="row">${entry.program}${compare ? html` <span class="set">${entry.set}</span>` : ''}</th>
    <td class="num">${entry.threads ?? '–'}</td>
    <td class="num">${formatNumber(entry.totalMain)}</td>
    <td class="num">${formatNumber(entry.totalAll)}</td>
    <td class="num">${perMiBText(entry)}</td>
    <td class="num">${entry.perReadAll === null ? '–' : formatNumber(entry.perReadAll)}</td>
    <td>${top(entry.topMain)}</td>
    <td>${top(entry.topAll)}</td>
  </tr>`
}

// Runs from before the two-size pass profiled one run per thread mode.
function methodNote (syscalls) {
  const twoSizes = Object.values(syscalls.bySize).some(profile => profile.smallBytes.length)
  if (!twoSizes) return 'strace -c counts of every syscall in one run per cell: the main thread alone, then every thread (strace -f). Per MiB: the run\'s calls over its MiB.'
  return 'Two runs per cell under strace -C -f, the main thread\'s calls and every thread\'s; the smaller run read a third of the bytes. ' +
    'Per read (the charts) and per MiB are the difference in calls over the reads or MiB between the two, so start-up\'s calls, in both, cancel; ' +
    'start-up and exit are the line through both runs at no reads. For a reader of its own chunk size, a read is a block of input of the size given. ' +
    'The table keeps each larger run\'s own counts. ' +
    'A difference below zero, or an all-threads rate below the main thread\'s, is run-to-run noise and shows as "noise"; a reader that strace saw read otherwise than it says is "not counted".'
}

function syscallSection (data) {
  const { syscalls } = data
  if (!syscalls.available) {
    return html`<section id="syscalls">
      <h2>Syscall profiles</h2>
      ${why(syscalls.notes)}
    </section>`
  }
  return html`<section id="syscalls">
    <h2>Syscall profiles</h2>
    <p class="note">${methodNote(syscalls)} The ${syscalls.sizes.length > 1 ? 'block size buttons switch both charts and the table' : 'profile is at the only block size measured'}.</p>
    ${sizeButtons('syscalls', syscalls.sizes, syscalls.defaultSize)}
    ${syscalls.perRead
      ? html`<div class="grid two">
      <div class="chart tall" id="chart-syscalls-main"></div>
      <div class="chart tall" id="chart-syscalls-all"></div>
    </div>
    <div class="chart" id="chart-syscalls-startup"></div>`
      : ''}
    ${syscalls.sizes.map(size => sizePanel('syscalls', size, syscalls.defaultSize, html`
      <table>
        <caption>Top syscalls at ${sizeName(size)} (${syscalls.bySize[size].bytes.map(sizeName).join(', ')} through strace${syscalls.bySize[size].smallBytes.length ? `; per MiB against ${syscalls.bySize[size].smallBytes.map(sizeName).join(', ')}` : ''})</caption>
        <thead><tr><th scope="col">program</th><th scope="col">threads</th><th scope="col">calls, main thread</th><th scope="col">calls, all threads</th><th scope="col">per MiB, all threads</th><th scope="col">per read, all threads</th><th scope="col">top, main thread</th><th scope="col">top, all threads</th></tr></thead>
        <tbody>${syscalls.bySize[size].table.map(entry => syscallTable(entry, data.compare))}</tbody>
      </table>`, 'table-wrap'))}
    ${why(syscalls.notes)}
  </section>`
}

function resourceSection (data) {
  const { resources } = data
  return html`<section id="resources">
    <h2>Memory, CPU and start-up</h2>
    <p class="note">The CPU chart shows one block size at a time:</p>
    ${sizeButtons('cpu', resources.cpu.sizes, resources.cpu.defaultSize)}
    <div class="grid three">
      <div>
        <div class="chart small" id="chart-memory"></div>
        <p class="note">Largest resident set of the reader: while reading (the largest over all block sizes) and on empty input.</p>
      </div>
      <div>
        <div class="chart small" id="chart-cpu"></div>
        <p class="note">CPU seconds of the reader in user space and in the kernel, median of the runs.</p>
      </div>
      <div>
        <div class="chart small" id="chart-startup"></div>
        <p class="note">Wall time to start and exit on empty input: the median, with whiskers from the fastest to the slowest run.</p>
      </div>
    </div>
  </section>`
}

function gcSection (data) {
  const { gc } = data
  const kinds = row => (row.byKind.length ? row.byKind.map((kind, i) => html`${i ? ', ' : ''}${kind.kind} ×${kind.count}`) : 'none')
  // A table per program: its name spans the rows of its block sizes.
  const groupOf = row => `${row.set}\t${row.program}`
  const rows = gc.rows.map((row, i) => html`<tr${i > 0 && groupOf(gc.rows[i - 1]) !== groupOf(row) ? new Markup(' class="group-start"') : ''}>
    ${i === 0 || groupOf(gc.rows[i - 1]) !== groupOf(row)
      ? html`<th scope="rowgroup" rowspan="${gc.rows.filter(other => groupOf(other) === groupOf(row)).length}">${row.program}${data.compare ? html` <span class="set">${row.set}</span>` : ''}</th>`
      : ''}
    <td class="num">${sizeName(row.blockSize)}</td>
    ${row.ok
      ? html`<td class="num">${row.collections}</td><td>${kinds(row)}</td><td class="num">${formatNumber(row.totalPauseMs)}</td><td class="num">${formatNumber(row.maxPauseMs)}</td><td class="num">${row.collections > 0 ? formatNumber(row.maxHeapMB) : '–'}</td><td class="file">${row.traceFile ?? ''}</td>`
      : html`<td colspan="6" class="failed">trace failed: ${row.failure ?? 'no reason recorded'}</td>`}
  </tr>`)
  const unavailable = gc.unavailable.map(entry => html`<li><strong>${entry.program}</strong>${data.compare ? html` <span class="set">${entry.set}</span>` : ''}: ${entry.reason}</li>`)
  const pictures = gc.timeline.length
    ? html`${gc.pausesNote
        ? html`<p class="why">No pause timeline: ${gc.pausesNote}.</p>`
        : ''}<div class="grid two">
        ${gc.pausesNote ? '' : html`<div class="chart" id="chart-gc-pauses"></div>`}
        <div class="chart" id="chart-gc-per-mib"></div>
      </div>
      <div class="chart" id="chart-gc-heap"></div>`
    : html`<p class="why">No GC pictures: ${gc.timelineNote}</p>`
  return html`<section id="gc">
    <h2>Garbage collection</h2>
    <p class="note">One run per V8 program and block size with --trace-gc. The pictures: each collection
      of the trace with the most collections per program, GC's pause per MiB read at every block size, and
      the heap at each collection; the table: collections by kind, their pauses (the total holds an
      incremental mark-compact's marking steps on the main thread, as JavaScriptCore's increments are
      summed; the longest is one pause, a final one or a marking step), and the largest heap before a
      collection, for the programs that collected. The pause per MiB divides a run's pauses, start-up's
      among them, by its bytes, and by default runs are shorter at the smallest sizes (64 MiB at 256 B,
      256 from 1 KiB), where start-up's collections weigh more.</p>
    ${pictures}
    ${gc.rows.length
      ? html`<div class="table-wrap"><table class="grouped">
          <thead><tr><th scope="col">program</th><th scope="col">block size</th><th scope="col">collections</th><th scope="col">by kind</th><th scope="col">total pause, ms</th><th scope="col">max pause, ms</th><th scope="col">max heap, MB</th><th scope="col">trace</th></tr></thead>
          <tbody>${rows}</tbody>
        </table></div>`
      : ''}
    ${gc.never.length ? html`<p class="never-collected">Never collected garbage in any traced run: ${gc.never.map((entry, i) => html`${i ? ', ' : ''}<strong>${entry.program}</strong>${data.compare ? html` <span class="set">${entry.set}</span>` : ''}`)}.</p>` : ''}
    ${unavailable.length ? html`<h3>No GC trace</h3><ul class="plain">${unavailable}</ul>` : ''}
    ${why(gc.notes)}
  </section>`
}

// A summary table's figure: the steady state (end-to-end, marked raw, where start-up
// could not be taken out), the marginal throughput, or the share of C over all runs.
// cell() gives a cell's contents, or null for an empty cell; marksFailed: a failed cell
// says so (the share table leaves it blank, so C, with no share of C, gets no row).
const SUMMARY_FIGURES = {
  steady: {
    caption: '',
    marksFailed: true,
    cell: (cell, data) => mbpsCell({ value: cell.steadyMBps ?? cell.rawMBps, raw: cell.steadyMBps === null, vsC: cell.withheld ? null : cell.vsC, withinNoise: !cell.withheld && cell.withinNoise, withheld: cell.withheld && withheldShare(cell.withheld, cell.withheldWhy), badges: flagBadges(cell.flags, data.flagMeanings) })
  },
  marginal: {
    caption: 'Marginal throughput',
    marksFailed: true,
    cell: cell => (cell.hasMarginal ? mbpsCell({ value: cell.marginalMBps, vsC: cell.vsCMarginal, fewReads: cell.marginalFewReads }) : null)
  },
  share: {
    caption: summary => `Share of C over all runs, ${levelsText(summary.rows.flatMap(row => Object.values(row.cells).map(cell => cell?.share)))} interval`,
    marksFailed: false,
    cell: (cell, data) => (!cell.share
      ? null
      : cell.withheld
        ? withheldShare(cell.withheld, cell.withheldWhy)
        : html`${shareHtml(cell.share)} ${flagBadges(cell.flags, data.flagMeanings)}`)
  }
}

function mbpsCell ({ value, raw = false, vsC, withinNoise = false, fewReads = false, withheld = null, badges = '' }) {
  if (value === null) return html`–`
  return html`<span class="mbps">${formatNumber(value)}</span>${raw ? html` <span class="unit">raw</span>` : ''}
    ${vsC !== null ? html`<span class="pct">${formatPercent(vsC)}</span>` : withheld || ''}${withinNoise ? html`<span class="within-noise" title="${WITHIN_NOISE.meaning}">${WITHIN_NOISE.mark}</span>` : ''}${fewReads ? html`<span class="few-reads" title="${FEW_READS.meaning}">${FEW_READS.mark}</span>` : ''}
    ${badges}`
}

// A program with nothing to show at any size (C in the share table) is left out.
function summaryTableHtml (summary, data, figure = 'steady') {
  const { caption: captionOf, marksFailed, cell: contents } = SUMMARY_FIGURES[figure]
  const caption = typeof captionOf === 'function' ? captionOf(summary) : captionOf
  const rows = summary.rows.map(row => ({
    program: row.program,
    cells: summary.sizes.map(size => {
      const cell = row.cells[size]
      if (!cell) return null
      if (cell.flags.includes('failed')) return marksFailed ? flagBadges(['failed'], data.flagMeanings) : null
      return contents(cell, data)
    })
  })).filter(row => row.cells.some(cell => cell !== null))
  return html`<div class="table-wrap"><table class="summary dense" data-figure="${figure}">
    ${data.compare || caption ? html`<caption>${caption}${data.compare && caption ? ': ' : ''}${data.compare ? summary.set : ''}</caption>` : ''}
    <thead><tr><th scope="col">program</th>${summary.sizes.map(size => html`<th scope="col" class="num">${sizeName(size)}</th>`)}</tr></thead>
    <tbody>${rows.map(row => html`<tr>
      <th scope="row">${row.program}</th>
      ${row.cells.map(cell => (cell === null ? html`<td></td>` : html`<td class="num wraps">${cell}</td>`))}
    </tr>`)}</tbody>
  </table></div>`
}

function comparisonTable (comparison) {
  return html`<div class="table-wrap"><table>
    <caption>${comparisonTitle(comparison)}</caption>
    <thead><tr><th scope="col">program</th><th scope="col">block size</th>
      ${comparison.sets.map(set => html`<th scope="col" class="num">${set}</th>`)}
      ${comparison.sets.slice(1).map(set => html`<th scope="col" class="num">${set} ÷ ${comparison.sets[0]}</th>`)}</tr></thead>
    <tbody>${comparison.rows.map(row => html`<tr>
      <th scope="row">${row.program}</th><td class="num">${sizeName(row.blockSize)}</td>
      ${row.values.map(value => html`<td class="num">${value ? formatNumber(value.steadyMBps) : ''}${value && value.vsC !== null ? html` <span class="pct">${formatPercent(value.vsC)}</span>` : ''}</td>`)}
      ${row.ratios.slice(1).map(ratio => html`<td class="num">${ratio === null ? '' : formatRatio(ratio)}</td>`)}
    </tr>`)}</tbody>
  </table></div>`
}

// The pointer to the idiomatic readers' section, only where the page has one (a calls run's
// cost pass has none): `lead` and the link, or nothing.
const idiomaticLink = (data, lead) =>
  (data.idiomatic.length
    ? html`${lead}<a href="#idiomatic">Idiomatic readers</a>${lead.startsWith(';') ? '' : '.'}`
    : '')

// Readers that choose their own chunk size, each at the block size nearest its chunk:
// the summary's per-size tables would set them at sizes they never read.
function idiomaticSection (data) {
  if (data.idiomatic.length === 0) return ''
  const chunk = row => (row.chunkBytes === null ? 'unknown (no strace pass saw its reads)' : sizeName(row.chunkBytes))
  const at = row => (row.blockSize === null ? '' : `${sizeName(row.blockSize)}${row.exact ? '' : ' (nearest measured)'}`)
  return html`<section id="idiomatic">
    <h2>Idiomatic readers</h2>
    <p class="note">These readers choose their own chunk size and ignore the block size, so they are left out of every ranking by block size; here each is at the block size equal to the chunk size strace saw it read (or the nearest size measured), against C reading blocks of that size.</p>
    ${data.idiomatic.map(entry => html`<div class="table-wrap"><table class="idiomatic">
      ${data.compare ? html`<caption>${entry.set}</caption>` : ''}
      <thead><tr><th scope="col">program</th><th scope="col" class="num">chunk size</th><th scope="col" class="num">at block size</th><th scope="col" class="num">steady-state MB/s</th><th scope="col" class="num">share of C</th></tr></thead>
      <tbody>${entry.rows.map(row => html`<tr>
        <th scope="row">${row.program}</th><td class="num">${chunk(row)}</td><td class="num">${at(row)}</td>
        <td class="num">${row.chunkBytes === null ? '' : formatNumber(row.steadyMBps)}</td><td class="num">${row.chunkBytes === null ? '' : row.shareOfC !== null ? formatPercent(row.shareOfC) : row.shareWithheld ? withheldShare(row.shareWithheld, row.shareWithheldWhy) : ''}</td>
      </tr>`)}</tbody>
    </table></div>`)}
  </section>`
}

// Each fastest reader's fast-path check: whether its engine ran it the way its
// maintainers call fast, what showed it, and who calls the form fastest.
function fastPathSection (data) {
  if (data.fastPaths.length === 0) return ''
  return html`<section id="fastpaths">
    <h2>Fast paths</h2>
    <p class="note">Each runtime's fastest reader is the form its maintainers call fastest
      (source below); a run of its own, traced by its engine and never timed, checks that the
      fast path engaged: V8's TurboFan graph of the read loop holds a fast API call and the loop
      never deoptimised, and where the call's C function could be named (in the reader's
      memory) it is the one the reader names; JavaScriptCore's DFG or FTL code calls through CallFFI and was
      never thrown away. A reader whose fast path was not taken has every cell failed and is
      ranked nowhere (docs/programs.md).</p>
    ${data.fastPaths.map(entry => html`<div class="table-wrap"><table class="fastpaths">
      ${data.compare ? html`<caption>${entry.set}</caption>` : ''}
      <thead><tr><th scope="col">reader</th><th scope="col">runtime</th><th scope="col">fast path</th>
        <th scope="col">its fast call reaches</th><th scope="col">what shows it</th>
        <th scope="col">fastest, per</th></tr></thead>
      <tbody>${entry.rows.map(row => html`<tr>
        <th scope="row">${row.program}</th><td>${row.runtimeTitle}</td>
        <td><span class="flag flag-${row.verdict === 'engaged' ? 'ok' : 'failed'}">${row.verdict}</span></td>
        <td>${row.reachesText}</td><td>${row.shows}</td><td>${row.source}</td>
      </tr>`)}</tbody>
    </table></div>`)}
  </section>`
}

function summarySection (data) {
  return html`<section id="summary">
    <h2>Summary</h2>
    <p class="note">Best steady-state throughput in MB/s (end-to-end, marked raw, where start-up could not be taken out) and its share of C at the same block size; ${WITHIN_NOISE.mark}: ${WITHIN_NOISE.meaning}. ${WITHHELD_NOTE}</p>
    ${data.summaries.map(summary => summaryTableHtml(summary, data))}
    ${repeatabilityNotes(data.repeatability, data.compare)}
    ${data.summaries.some(summary => summary.shares) ? html`<p class="note">${SHARE_NOTE}</p>` : ''}
    ${data.summaries.filter(summary => summary.shares).map(summary => summaryTableHtml(summary, data, 'share'))}
    ${data.summaries.some(summary => summary.marginal) ? html`<p class="note">${MARGINAL_NOTE}</p>` : ''}
    ${data.summaries.filter(summary => summary.marginal).map(summary => summaryTableHtml(summary, data, 'marginal'))}
    ${data.comparison ? comparisonTable(data.comparison) : ''}
  </section>`
}

// The cells each flag marks; runs with none say so, and that the answer's own figure is apart
const NO_FLAGS = 'No reader at any block size is flagged: none\'s runs were noisy, feeder-bound, ' +
  'reader-waited, start-up dominated, taken by VM steal or failed, nor its cost pass\'s rounds. (How ' +
  'far the run\'s answer repeats is its own figure, at the top.)'

function flaggedCells (flags, compare) {
  const items = flags.map(group => html`<li><span class="flag flag-${group.flag}">${FLAG_LABELS[group.flag] ?? group.flag}</span>
    ${compare ? html`<span class="set">${group.set}</span> ` : ''}${group.meaning}:
    ${group.most
      ? `${group.cells.length} of ${group.most.of} cells, all but ${group.most.spared}`
      : group.cells.map((cell, i) => html`${i ? ', ' : ''}${cell.program} at ${sizeName(cell.blockSize)}${cell.detail ? html` (${cell.detail})` : ''}`)}</li>`)
  return html`<h3>Flagged cells</h3>
    ${items.length ? html`<ul class="plain">${items}</ul>` : html`<p class="note">${NO_FLAGS}</p>`}`
}

// The context, then how far to trust the cells: those flagged, the runs that failed.
function runContextSection (data) {
  return contextSection(data, html`${flaggedCells(data.flags, data.compare)}
    ${failedRuns(data.failures, data.compare)}`)
}

// The profile pass: each reader's CPU per read in the same buckets as C's (a stacked bar
// each), a flame graph of any reader, plain or against C's, then a table of what each
// bucket adds over C's, the frames behind the most, and what the profiler cost.
const PROFILE_NOTE = placement => 'Each reader under perf (cpu-clock samples with call graphs; V8\'s perf map ' +
  `names its JavaScript), ${placement}. The samples of the window the CPU per read is measured over ` +
  '(30% to 98% of stdin) go in buckets the same for every runtime (the runtime\'s binding holds its own ' +
  'JavaScript, Node\'s node: and Deno\'s ext: modules, and the syscalls it makes, a futex that hands a read ' +
  'to another of its threads among them); a bucket\'s ns per read is its ' +
  'share of every round\'s samples times the CPU per read of the unprofiled runs (the median of the ' +
  'rounds\'), its interval from each round\'s own figure. The perf script ' +
  'texts are in the run\'s profile/ folder, one per round, for speedscope, Firefox Profiler or ' +
  'FlameGraph. Beneath the kernel\'s bucket ("eBPF"), the kernel pass\'s time inside read(2) for the ' +
  'reader, ≠ where the two are more than a fifth apart: that pass runs dd and the reader as the cost ' +
  'pass does. perf\'s own cost: the profiled run\'s CPU per read less ' +
  'the unprofiled run\'s, round by round; beneath it ("seen"), the share of the CPU the profiled ' +
  'run\'s clock counted in the window that perf\'s samples there stand for. Beneath the CPU per ' +
  'read ("unnamed"), its ns in frames with no name (a stripped binary, JIT code no map names).'
// where the unprofiled runs took turns with C (--cost-pairing slices)
const PACED_NOTE = 'Each unprofiled run took turns of 5 ms with a run of C: its CPU per read is its ratio ' +
  'to C\'s in the same moments times C\'s median over the pass, so that the host\'s load in one round ' +
  'moves neither.'

const SEEN = 'perf\'s samples of the window stand for this share of the CPU the profiled run\'s clock counted there'
const UNNAMED = 'ns per read in frames with no name (a stripped binary, JIT code no map names), ' +
  'and the file most are in'
const FRAME_CHARS = 40
// a bucket's interval is given where its rounds gave one and it is worth reading
const INTERVAL_FROM_NS = 5

// "123 (118–130)" in ns, or the figure alone without an interval
const nsWithInterval = (ns, interval) => html`${formatNumber(ns)}${interval && Number.isFinite(interval.low)
  ? html`<span class="interval">${formatRange(interval.low, interval.high)}</span>`
  : ''}`

// A figure checked against another pass's beneath a bucket: red, and marked ≠, where they disagree.
const checkMark = (text, title, disagrees) =>
  html`<span class="interval${disagrees ? ' disagrees' : ''}" title="${title}">${text}${
    disagrees ? '\u00a0≠' : ''}</span>`

function profileSection (data) {
  const { profile } = data
  const paced = profile.entries.some(entry => entry.rows.some(row => row.pacedByC))
  // the kernel's bucket with the kernel pass's time inside read(2) beneath, marked where the
  // two disagree by more than a fifth
  const kernelPass = (row, key) => {
    if (key !== 'kernelRead' || !row.kernelPass) return ''
    const { ns, waitNs, ratio, disagrees } = row.kernelPass
    // the waits are in the switching bucket: what is set against eBPF's is more than this one
    const waits = waitNs > 0
      ? `, with the switching bucket's ${formatNumber(waitNs)} ns of waits inside read(2),`
      : ''
    const title = `the kernel pass (eBPF, dd on the reader's CPU): ${formatNumber(ns)} ns inside read(2); ` +
      `this bucket${waits} is ${formatPercent(ratio)} of it`
    return checkMark(`eBPF: ${formatNumber(ns)}`, title, disagrees)
  }
  // the binding's bucket with a calls run's no-op call over C's beneath (analyse.js --ladder),
  // marked where the reader's binding and loop over C's are more than a fifth (and 5 ns) from it
  const ladderCall = (row, key) => {
    if (key !== 'binding' || !row.ladderCall) return ''
    const { profiledNs, ladderNs, boundary, disagrees } = row.ladderCall
    const title = `binding and loop over C's: ${formatSigned(profiledNs)} ns; the no-op call of ` +
      `${profile.ladderRun}'s ladder (${boundary}) over C's: ${formatSigned(ladderNs)} ns` +
      `${disagrees ? ': more than a fifth apart' : ''}`
    return checkMark(ladderCallText(row.ladderCall), title, disagrees)
  }
  // a bucket's ns and its ns over C's beneath; its interval in the cell's tooltip, where its
  // rounds gave one and it is worth reading
  const bucketCell = (row, key) => {
    const interval = row.intervals[key]
    const title = row.ns[key] >= INTERVAL_FROM_NS && interval && Number.isFinite(interval.low)
      ? `its rounds' own figures: ${formatRange(interval.low, interval.high)} ns (${levelText(interval.level)} ` +
        'for their median; the figure is its share of their pooled samples)'
      : ''
    const overC = row.overC ? html`<span class="interval">${formatSigned(row.overC[key])}</span>` : ''
    return html`<td class="num wraps" title="${title}">${formatNumber(row.ns[key])}${overC}${kernelPass(row, key)}${
      ladderCall(row, key)}</td>`
  }
  const most = row => {
    if (!row.overC) return ''
    const [key] = Object.entries(row.overC).sort((a, b) => b[1] - a[1])[0]
    const label = profile.entries[0].buckets.find(bucket => bucket.key === key).label
    // the most sampled, a long C++ name cut short (whole in its tooltip, the rest in the flame
    // graph and the raw text)
    const short = frame => (frame.length > FRAME_CHARS ? `${frame.slice(0, FRAME_CHARS - 1)}…` : frame)
    const frames = row.top[key].slice(0, 1)
      .map(([frame, count], i) => html`${i ? ', ' : ''}<code title="${frame}">${short(frame)}</code> ${count}`)
    return html`${label}: ${frames}`
  }
  // perf's own cost per read (profiled against not, the same round), and how much of the
  // profiled run's measured CPU its samples stand for
  const perfCell = row => html`<td class="num wraps">${row.profilerCostNs === null
    ? '–'
    : html`${formatSigned(row.profilerCostNs)}${row.sampledShare === null
      ? ''
      : html`<span class="interval" title="${SEEN}">seen ${formatPercent(row.sampledShare)}</span>`}`}</td>`
  // the CPU per read with its interval, and beneath them its ns in frames with no name
  const cpuCell = row => {
    const unnamed = shownUnnamed(row.unnamed)
      ? html`<span class="interval" title="${UNNAMED}: ${row.unnamed.top[0]?.[0] ?? ''}">unnamed ${
        formatNumber(row.unnamed.ns)}</span>`
      : ''
    return html`<td class="num wraps">${nsWithInterval(row.cpuPerReadNs, row.cpuPerReadInterval)}${unnamed}</td>`
  }
  const heading = label => html`<th scope="col" class="num">${label}</th>`
  const readerRow = (entry, row) => html`<tr><th scope="row">${row.program}</th>
    ${cpuCell(row)}
    ${shown(entry).map(bucket => bucketCell(row, bucket.key))}
    ${perfCell(row)}
    <td class="describes">${most(row)}</td></tr>`
  const failed = entry => why(entry.failed.map(cell => ({ set: cell.program, reason: cell.reason })))
  // the rounds left out of a reader's figures (its failed cells are listed by `failed`)
  const lostRounds = entry => profileLossText([], entry.rows)
  // a bucket no reader spent a ns in (GC, often) has no column: the chart keeps its key
  const shown = entry => entry.buckets.filter(bucket => entry.rows.some(row => row.ns[bucket.key] >= 1))
  const levels = entry => levelsText(entry.rows.flatMap(row => Object.values(row.intervals)), 'no')
  const flameControls = (entry, index) => {
    const flamed = entry.rows.filter(row => row.tree)
    if (flamed.length === 0) return ''
    const chosen = flameDefault(flamed)
    return html`<div class="flame-controls" data-flame="${index}">
      <label>flame graph of <select data-flame-reader="${index}">
        ${flamed.map(row => option(row.program, chosen))}</select></label>
      <div class="toggle" role="group" aria-label="colour by" data-flame-mode="${index}">
        <button type="button" data-mode="buckets" aria-pressed="true">By bucket</button>
        <button type="button" data-mode="diff" aria-pressed="false">Against C</button>
      </div>
    </div>
    <div class="chart flame" id="chart-flame-${index}"></div>
    <p class="note" id="flame-note-${index}"></p>`
  }
  const tables = profile.entries.map((entry, index) => html`<div class="chart small" id="chart-profile-${index}"></div>
    ${flameControls(entry, index)}
    <div class="table-wrap"><table class="dense">
      <caption>${data.compare ? `${entry.set}: ` : ''}ns per read at ${sizeName(entry.blockSize)} by bucket, from
        ${profileRoundsText(entry.rows)}: a reader's CPU per read the median of its rounds', a bucket its share of
        their samples times it, over C's beneath each (in its tooltip the range of its rounds' own figures,
        ${levels(entry)} for their median); the ns in frames with no name beneath the CPU per read; what perf
        cost per read; the frames behind the bucket that adds most</caption>
      <thead><tr><th scope="col">reader</th>${heading('CPU per read')}
        ${shown(entry).map(bucket => heading(bucket.label))}
        ${heading('perf\'s own cost')}<th scope="col">most over C, its top frame (samples)</th></tr></thead>
      <tbody>${entry.rows.map(row => readerRow(entry, row))}</tbody>
    </table></div>
    ${entry.precision ? html`<p class="note">${precisionText(entry.precision)}</p>` : ''}
    ${entry.failed.length ? failed(entry) : ''}
    ${lostRounds(entry) ? html`<p class="note">${lostRounds(entry)}</p>` : ''}`)
  const ladderNote = ladderNoteText(profile, 'Beneath the binding\'s bucket')
  const notes = [PROFILE_NOTE(profilePlacementText(profile.entries)), paced ? PACED_NOTE : '']
  // the ladder's check, or how to get it, in a paragraph of its own: what a reader acts on
  const ladderParagraph = ladderNote ? html`<p class="note">${ladderNote}</p>` : ''
  return html`<section id="profile">
    <h2>Where the ns go</h2>
    ${profile.available ? html`${tables}<p class="note">${notes.filter(Boolean).join(' ')}</p>${ladderParagraph}` : ''}
    ${why(profile.notes)}
  </section>`
}

const option = (value, chosen) =>
  html`<option value="${value}"${value === chosen ? new Markup(' selected') : ''}>${value}</option>`

// The flame graph a page opens on: Node's synchronous reader, the lab's best known, or the
// first after C.
const flameDefault = rows => (rows.find(row => row.program === 'node-sync') ??
  rows.find(row => row.program !== BASELINE) ?? rows[0]).program

// The page's sections in order: [id, its link's title, render(data), and for a section
// with charts the data experiments/stdio/report-browser.js draws them from].
const sections = [
  ['headline', 'What a read costs', headlineSection, data => ({ available: data.headline.available, defaultSize: data.headline.defaultSize, chart: data.headline.chart })],
  ['findings', 'Findings', findingsSection],
  ['kernel', 'Inside read(2)', kernelSection, data => ({ kernel: data.kernel, sizeGroup: KERNEL_SIZE_GROUP })],
  ['profile', 'Where the ns go', profileSection, data => data.profile],
  ['fastpaths', 'Fast paths', fastPathSection],
  ['syscalls', 'Syscalls', syscallSection, data => data.syscalls],
  ['idiomatic', 'Idiomatic readers', idiomaticSection],
  ['resources', 'Memory, CPU, start-up', resourceSection, data => data.resources],
  ['gc', 'GC', gcSection, data => ({ timeline: data.gc.timeline, sizes: data.gc.sizes, perMiB: data.gc.perMiB })],
  ['throughput', 'Throughput', throughputSection, data => ({ sizes: data.sizes, ...data.throughput })],
  ['time', 'Time', timeSection, data => ({ sizes: data.sizes, series: data.time })],
  ['cost', 'Wall time per read', costSection, data => ({ sizes: data.sizes, perRead: data.cost.perRead, overhead: data.cost.overhead })],
  ['summary', 'Summary', summarySection],
  ['context', 'Context', runContextSection]
]

module.exports = { sections, perMiBText }
