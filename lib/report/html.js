'use strict'
// report.html: one self-contained page. Highcharts (inlined from node_modules) draws
// the charts from the report data, which travels as JSON in the page
// (lib/report/browser.js); the tables and prose are rendered here. Everything opens
// from disk: no server, no network (the page's Content-Security-Policy forbids any fetch).
const fs = require('node:fs')
const path = require('node:path')
const { escapeHtml, jsonForScript, sizeName, formatNumber, formatSigned, formatCallsPerRequest, formatPercent, formatInterval, formatRatio } = require('./format')
const { MARGINAL_NOTE, SHARE_NOTE, WITHHELD_NOTE, WITHIN_NOISE, FEW_READS, headlineLevelsText, shiftText } = require('./text')
const { levelsText } = require('../stats')
const { headlineConnections } = require('./findings')
const { ownRepeatabilityText, headlineRepeatabilityText } = require('../../experiments/stdio/cost')

// ---- safe-by-default templating: every interpolated value is escaped unless it is
// markup this module built itself ----

class Markup {
  constructor (text) {
    this.text = text
  }

  toString () {
    return this.text
  }
}

function fragment (value) {
  if (value instanceof Markup) return value.text
  if (Array.isArray(value)) return value.map(fragment).join('')
  if (value === null || value === undefined || value === false) return ''
  return escapeHtml(value)
}

function html (strings, ...values) {
  return new Markup(strings.reduce((out, text, i) => out + text + (i < values.length ? fragment(values[i]) : ''), ''))
}

const FLAG_LABELS = { failed: 'failed', 'some-runs-failed': 'runs failed', noisy: 'noisy', 'feeder-bound': 'feeder-bound', 'reader-waited': 'reader waited', 'startup-dominated': 'start-up dominated', steal: 'VM steal', disturbed: 'disturbed' }

function flagBadges (flags, meanings) {
  return flags.map(flag => html`<span class="flag flag-${flag}" title="${meanings[flag] ?? flag}">${FLAG_LABELS[flag] ?? flag}</span>`)
}

// In place of a share of C the runs do not support: the reason, its detail on hover.
const withheldShare = (reason, detail) => html`<span class="pct withheld" title="${detail ?? reason}">${reason}</span>`

// Each set's own repeatability and the two-run criteria, as notes; field: throughputText or httpText.
function repeatabilityNotes (data, field) {
  const own = (data.repeatability?.own ?? []).filter(entry => entry[field]).map(entry => html`<p class="note repeatability">${data.compare ? html`<span class="set">${entry.set}</span> ` : ''}${entry[field]}</p>`)
  const twoRuns = (data.repeatability?.twoRuns ?? []).filter(pair => pair[field]).map(pair => html`<p class="note repeatability">${pair[field]}</p>`)
  return [...own, ...twoRuns]
}

function why (notes) {
  return notes.map(note => html`<p class="why"><strong>${note.set}</strong>: ${note.reason}.</p>`)
}

function sizeButtons (name, sizes, selected) {
  return html`<div class="toggle" role="group" aria-label="block size" data-size-group="${name}">
    <span class="toggle-label">block size</span>
    ${sizes.map(size => html`<button type="button" data-size="${size}" aria-pressed="${String(size === selected)}">${sizeName(size)}</button>`)}
  </div>`
}

// ---- sections ----

// The findings the headline section does not already give beside its chart.
function findingsSection (data) {
  const rest = data.findings.filter(finding => !finding.headline && !finding.ladder)
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

const intervalText = interval => (interval && interval.low !== null ? html` <span class="interval">(${formatNumber(interval.low)}–${formatNumber(interval.high)})</span>` : '')
const shareText = interval => (interval ? html`${formatPercent(interval.estimate)}${interval.low !== null ? html` <span class="interval">(${formatInterval(interval)})</span>` : ''}` : '')

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
  const table = (entry, blockSize) => {
    const size = entry.bySize[blockSize]
    if (!size) return ''
    return html`<div class="table-wrap" data-size-panel="headline" data-size="${blockSize}"${blockSize === headline.defaultSize ? '' : new Markup(' hidden')}><table class="headline">
      <caption>${data.compare ? html`${entry.set}: ` : ''}CPU time per read at ${sizeName(blockSize)}, median of ${entry.rounds ?? '?'} rounds; ${headlineLevelsText(size.levels) || 'no intervals'}</caption>
      <thead><tr><th scope="col">reader</th><th scope="col">runtime</th><th scope="col" class="num">ns per read</th><th scope="col" class="num">over C, ns</th><th scope="col" class="num">share of C's speed</th><th scope="col">flags</th></tr></thead>
      <tbody>
        ${size.base ? html`<tr class="baseline"><th scope="row">${size.base.program}</th><td>the yardstick</td><td class="num">${formatNumber(size.base.cpuPerReadNs?.estimate)}${intervalText(size.base.cpuPerReadNs)}</td><td class="num">0</td><td class="num">100%</td><td>${flagBadges(size.base.flags, HEADLINE_FLAGS)}</td></tr>` : ''}
        ${size.rows.map(row => html`<tr>
          <th scope="row">${row.program}</th><td>${row.runtimeLabel ?? ''}</td>
          <td class="num">${row.cpuPerReadNs ? html`${formatNumber(row.cpuPerReadNs.estimate)}${intervalText(row.cpuPerReadNs)}` : ''}</td>
          <td class="num">${row.overheadNs ? html`${formatNumber(row.overheadNs.estimate)}${intervalText(row.overheadNs)}` : ''}</td>
          <td class="num">${shareText(row.shareOfC)}</td>
          <td>${flagBadges(row.flags, HEADLINE_FLAGS)}${row.rejected ? html` <span class="why">${row.rejected}</span>` : ''}</td>
        </tr>`)}
      </tbody>
    </table></div>`
  }
  return html`<section id="headline">
    <h2>What a read costs, against C</h2>
    ${lead.length ? html`<ul class="findings lead">${lead.map(finding => html`<li>${data.compare && finding.set ? html`<span class="set">${finding.set}</span> ` : ''}${finding.text}</li>`)}</ul>` : ''}
    <p class="note">${headline.sets.find(entry => entry.available).meaning}. Whiskers: the overhead's interval, at the level each table's caption gives. Readers that choose their own chunk size are under <a href="#idiomatic">Idiomatic readers</a>.</p>
    ${headline.sets.filter(entry => entry.repeatability).map(entry => html`<p class="note repeatability">${data.compare ? html`<span class="set">${entry.set}</span> ` : ''}${ownRepeatabilityText(entry.repeatability)}.</p>`)}
    ${sizeButtons('headline', headline.sizes, headline.defaultSize)}
    <div class="chart" id="chart-headline"></div>
    ${headline.sizes.map(blockSize => headline.sets.filter(entry => entry.available).map(entry => table(entry, blockSize)))}
    ${headline.repeatability?.total ? repeatabilityTable(headline.repeatability, data.sets) : ''}
  </section>`
}

// The call ladder (bench.js --experiment calls): its findings, a stacked bar per variant
// of where a 256-byte read's ns go, and the table of rungs.
function ladderSection (data) {
  const lead = data.findings.filter(finding => finding.ladder)
  const rung = value => (value ? html`${formatNumber(value.estimate)}${intervalText(value)}${value.wide ? html` <span class="badge" title="interval wider than ±5% of the median">wide</span>` : ''}` : 'failed')
  const table = (entry, index) => html`<div class="chart" id="chart-ladder-${index}"></div>
  <div class="table-wrap"><table class="ladder">
    <caption>${data.compare ? html`${entry.set}: ` : ''}ns of CPU per call, median of ${entry.counts?.processes ?? '?'} processes of ${entry.counts?.rounds ?? '?'} rounds, ${levelsText(entry.rows.flatMap(row => Object.values(row.rungs ?? {})))} intervals</caption>
    <thead><tr><th scope="col">variant</th><th scope="col">boundary, read</th><th scope="col" class="num">no-op</th><th scope="col" class="num">getppid</th><th scope="col" class="num">empty read</th><th scope="col" class="num">256-byte read</th>
      <th scope="col" class="num">parts: boundary + syscall + read path + kernel</th><th scope="col" class="num">predicted, off by</th><th scope="col" class="num">cost pass at 256 B</th></tr></thead>
    <tbody>${entry.rows.map(row => html`<tr${row.addsUp === false || row.stdin?.agrees === false ? new Markup(' class="disagree"') : ''}>
      <th scope="row">${row.variant}</th><td>${row.boundary ?? ''}; ${row.read ?? ''}</td>
      <td class="num">${rung(row.rungs.noop)}</td><td class="num">${rung(row.rungs.syscall)}</td><td class="num">${rung(row.rungs['empty-read'])}</td><td class="num">${rung(row.rungs['read-256'])}</td>
      <td class="num">${row.parts ? ['boundary', 'syscall', 'readPath', 'kernelRead'].map(part => formatNumber(row.parts[part])).join(' + ') : ''}</td>
      <td class="num">${row.predicted === null ? '' : html`${formatNumber(row.predicted)}, ${formatSigned(row.gap)} ${row.addsUp ? '' : html`<span class="badge">over 10%</span>`}`}</td>
      <td class="num">${row.stdin?.cpuPerReadNs ? html`${row.stdin.program} ${formatNumber(row.stdin.cpuPerReadNs.estimate)}${intervalText(row.stdin.cpuPerReadNs)}${row.stdin.agrees === false ? html` <span class="badge">outside</span>` : ''}` : row.stdin ? html`${row.stdin.program}: not measured` : 'no stdin reader'}</td>
    </tr>`)}</tbody>
  </table></div>`
  return html`<section id="ladder">
    <h2>Where a read's time goes: the call ladder</h2>
    ${lead.length ? html`<ul class="findings lead">${lead.map(finding => html`<li>${data.compare && finding.set ? html`<span class="set">${finding.set}</span> ` : ''}${finding.text}</li>`)}</ul>` : ''}
    <p class="note">${data.ladder[0].meaning}. Rungs: a no-op call into C (the boundary), getppid(2) through it (and a syscall's entry and exit), read(2) of /dev/null as the runtime reads (its read path), read(2) of 256 bytes of a full pipe fed by dd on the same CPU.
      The parts: the no-op; getppid less the no-op; the runtime's empty read less its getppid, beyond C's; C's 256-byte read less C's getppid (the kernel's work, the same everywhere).
      Their sum predicts the 256-byte read (marked when more than 10% off); the cost pass column is the stdin reader that reads the same way, measured at 256 B in this run (marked when the ladder's read is outside its interval).</p>
    ${data.ladder.map((entry, index) => table(entry, index))}
  </section>`
}

// The http experiment (bench.js --experiment http): its findings, then per mode the
// charts (requests/s and CPU per request by connections; syscalls per request stacked by
// call) and a table of every cell.
function httpSection (data) {
  const lead = data.findings.filter(finding => finding.http)
  // a cell: median req/s, its share of the reference with the interval, CPU per request
  const rate = cell => {
    if (!cell) return ''
    if (!cell.requestsPerSecond) return 'failed'
    const share = cell.vsReference ? html`<br><span class="interval">${formatPercent(cell.vsReference.estimate)} (${formatPercent(cell.vsReference.low)}–${formatPercent(cell.vsReference.high)})</span>` : ''
    const cpu = cell.cpuPerRequestUs !== null ? html`<br><span class="interval">${formatNumber(cell.cpuPerRequestUs)} µs CPU</span>` : ''
    return html`${formatNumber(Math.round(cell.requestsPerSecond.median))}${share}${cpu}${cell.clientBound ? html` <span class="badge" title="the server used ${formatPercent(cell.serverCpuShare)} of its CPU: wrk was the limit">client-bound</span>` : ''}${cell.unsteady ? html` <span class="badge" title="its server's warm-up never had two wrk runs in a row agree within 5%">unsteady</span>` : ''}${cell.flags?.includes('disturbed') ? html` <span class="badge" title="a run it kept saw other processes' CPU time on its CPUs">disturbed</span>` : ''}${cell.failedRuns ? html` <span class="badge">${cell.failedRuns} failed</span>` : ''}`
  }
  const table = (entry, mode, index) => {
    const quoted = mode.connections.indexOf(headlineConnections(mode.connections))
    return html`<div class="grid two">
    <div class="chart small" id="chart-http-rate-${index}"></div>
    ${mode.chart.syscalls.missing
      ? why([{ set: 'No syscalls per request', reason: mode.chart.syscalls.missing }])
      : html`<div class="chart small" id="chart-http-syscalls-${index}"></div>`}
  </div>
  <div class="table-wrap"><table class="http">
    <caption>${data.compare ? html`${entry.set}: ` : ''}${mode.mode === 'close' ? 'Connection: close, a new connection per request' : 'keep-alive'}: per count of connections, requests/s (median of ${entry.preset?.runs ?? '?'} wrk runs of ${entry.preset?.seconds ?? '?'} s), its share of ${entry.reference}'s (${levelsText(mode.rows.flatMap(row => row.cells.map(cell => cell?.vsReference)))} interval) and the server's CPU per request; latency p50 / p99 / max in µs at ${mode.connections[quoted]} connections</caption>
    <thead><tr><th scope="col">server</th>${mode.connections.map(count => html`<th scope="col" class="num">${count} connection${count === 1 ? '' : 's'}</th>`)}<th scope="col" class="num">latency @${mode.connections[quoted]}</th><th scope="col" class="num">syscalls/req: work + upkeep</th><th scope="col" class="num">threads, RSS (most)</th></tr></thead>
    <tbody>${mode.rows.map(row => html`<tr>
      <th scope="row">${row.server}</th>
      ${row.cells.map(cell => html`<td class="num">${rate(cell)}</td>`)}
      <td class="num">${row.cells[quoted]?.latencyUs ? `${formatNumber(row.cells[quoted].latencyUs.p50)} / ${formatNumber(row.cells[quoted].latencyUs.p99)} / ${formatNumber(row.cells[quoted].latencyUs.max)}` : ''}</td>
      <td class="num">${row.syscalls?.perRequest != null ? html`${formatCallsPerRequest(row.syscalls)}${mode.floor?.server === row.server ? ' (floor)' : ''}` : row.syscalls?.noise ?? 'not traced'}</td>
      <td class="num">${row.threads ? `${row.threads}, ${formatNumber(row.maxRssKiB / 1024)} MiB` : ''}</td>
    </tr>`)}</tbody>
  </table></div>`
  }
  let index = 0
  return html`<section id="http">
    <h2>What a request costs: hello-world servers under wrk</h2>
    ${lead.length ? html`<ul class="findings lead">${lead.map(finding => html`<li>${data.compare && finding.set ? html`<span class="set">${finding.set}</span> ` : ''}${finding.text}</li>`)}</ul>` : ''}
    <p class="note">Every server answers every request with the same 13 bytes; each was checked in both modes over a real socket before it was timed. wrk runs one thread on CPU ${data.http[0].pin?.client ?? '?'}, the server is pinned to CPU ${data.http[0].pin?.server ?? '?'}.
      ${data.http[0].meaning.requestsPerSecond}. CPU per request: ${data.http[0].meaning.cpuPerRequestUs}; marked client-bound where ${data.http[0].meaning.serverCpuShare}. Syscalls per request: ${data.http[0].meaning.syscallsPerRequest}; the floor is the C server's fewest.</p>
    ${repeatabilityNotes(data, 'httpText')}
    ${data.http.map(entry => entry.modes.map(mode => table(entry, mode, index++)))}
  </section>`
}

const HEADLINE_FLAGS = {
  failed: 'no round of the cell counts: its runs failed, or strace saw its reader read otherwise than it says',
  'few-rounds': 'too few rounds for an interval (6 for CPU per read, 4 a side against C)',
  steal: 'the VM lost more than 2% of the CPU\'s time to steal during its runs'
}

// Two runs' headlines by the repeatability criterion: how many points each share of C
// moved, whether that is within the goal, and whether the rank test calls it a shift.
function repeatabilityTable (result, sets) {
  return html`<div class="table-wrap"><table class="agreement">
    <caption>${headlineRepeatabilityText(result, sets)}</caption>
    <thead><tr><th scope="col">reader</th><th scope="col" class="num">block size</th><th scope="col" class="num">${sets[0]}</th><th scope="col" class="num">${sets[1]}</th><th scope="col" class="num">move, points</th><th scope="col">within ${result.goal.points}</th><th scope="col">shift (p)</th></tr></thead>
    <tbody>${result.cells.map(cell => html`<tr${cell.within ? '' : new Markup(' class="disagree"')}>
      <th scope="row">${cell.program}</th><td class="num">${sizeName(cell.blockSize)}</td><td class="num">${shareText(cell.a)}</td><td class="num">${shareText(cell.b)}</td><td class="num">${cell.movePoints.toFixed(1)}</td><td>${cell.within ? 'yes' : 'no'}</td><td>${shiftText(cell)}</td>
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
    <p class="note">One panel per runtime family, each with C (dashed) as its yardstick; readers that choose their own chunk size are under <a href="#idiomatic">Idiomatic readers</a>.</p>
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
    <td>${top(entry.topMain)}</td>
    <td>${top(entry.topAll)}</td>
  </tr>`
}

// Runs from before the two-size pass profiled one run per thread mode.
function methodNote (syscalls) {
  const twoSizes = Object.values(syscalls.bySize).some(profile => profile.smallBytes.length)
  if (!twoSizes) return 'strace -c counts of every syscall in one run per cell: the main thread alone, then every thread (strace -f). Per MiB: the run\'s calls over its MiB.'
  return 'Counts of every syscall in the larger of two runs per cell under strace -C -f: the main thread\'s own, and every thread\'s. ' +
    'The other run read a third of the bytes: per MiB is the difference in calls over the MiB between the two, so start-up\'s calls, in both, cancel. ' +
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
    <div class="grid two">
      <div class="chart tall" id="chart-syscalls-main"></div>
      <div class="chart tall" id="chart-syscalls-all"></div>
    </div>
    ${syscalls.sizes.map(size => html`<div class="table-wrap" data-size-panel="syscalls" data-size="${size}"${size === syscalls.defaultSize ? '' : new Markup(' hidden')}>
      <table>
        <caption>Top syscalls at ${sizeName(size)} (${syscalls.bySize[size].bytes.map(sizeName).join(', ')} through strace${syscalls.bySize[size].smallBytes.length ? `; per MiB against ${syscalls.bySize[size].smallBytes.map(sizeName).join(', ')}` : ''})</caption>
        <thead><tr><th scope="col">program</th><th scope="col">threads</th><th scope="col">calls, main thread</th><th scope="col">calls, all threads</th><th scope="col">per MiB, all threads</th><th scope="col">top, main thread</th><th scope="col">top, all threads</th></tr></thead>
        <tbody>${syscalls.bySize[size].table.map(entry => syscallTable(entry, data.compare))}</tbody>
      </table>
    </div>`)}
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
  return html`<section id="gc">
    <h2>Garbage collection</h2>
    <p class="note">One run per V8 program and block size with --trace-gc: collections by kind, their pauses, and the largest heap before a collection, for the programs that collected.</p>
    ${gc.rows.length
      ? html`<div class="table-wrap"><table class="grouped">
          <thead><tr><th scope="col">program</th><th scope="col">block size</th><th scope="col">collections</th><th scope="col">by kind</th><th scope="col">total pause, ms</th><th scope="col">max pause, ms</th><th scope="col">max heap, MB</th><th scope="col">trace</th></tr></thead>
          <tbody>${rows}</tbody>
        </table></div>`
      : ''}
    ${gc.never.length ? html`<p class="never-collected">Never collected garbage in any traced run: ${gc.never.map((entry, i) => html`${i ? ', ' : ''}<strong>${entry.program}</strong>${data.compare ? html` <span class="set">${entry.set}</span>` : ''}`)}.</p>` : ''}
    ${unavailable.length ? html`<h3>No GC trace</h3><ul class="plain">${unavailable}</ul>` : ''}
    ${why(gc.notes)}
    ${gc.timeline.length
      ? html`<div class="chart" id="chart-gc-heap"></div>
        <p class="note">Heap used over the life of the process, from the trace with the most collections for each program: it climbs to the size before a collection and drops to the size after.</p>`
      : html`<p class="why">No heap timeline: ${gc.timelineNote}</p>`}
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
    cell: cell => (!cell.share ? null : cell.withheld ? withheldShare(cell.withheld, cell.withheldWhy) : html`<span class="pct">${formatPercent(cell.share.estimate)}</span> <span class="interval">(${formatInterval(cell.share)})</span>`)
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
  return html`<div class="table-wrap"><table class="summary" data-figure="${figure}">
    ${data.compare || caption ? html`<caption>${caption}${data.compare && caption ? ': ' : ''}${data.compare ? summary.set : ''}</caption>` : ''}
    <thead><tr><th scope="col">program</th>${summary.sizes.map(size => html`<th scope="col" class="num">${sizeName(size)}</th>`)}</tr></thead>
    <tbody>${rows.map(row => html`<tr>
      <th scope="row">${row.program}</th>
      ${row.cells.map(cell => (cell === null ? html`<td></td>` : html`<td class="num">${cell}</td>`))}
    </tr>`)}</tbody>
  </table></div>`
}

function comparisonTable (comparison) {
  return html`<div class="table-wrap"><table>
    <caption>Side by side: steady-state MB/s, and each run relative to ${comparison.sets[0]}</caption>
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

function summarySection (data) {
  return html`<section id="summary">
    <h2>Summary</h2>
    <p class="note">Best steady-state throughput in MB/s (end-to-end, marked raw, where start-up could not be taken out) and its share of C at the same block size; ${WITHIN_NOISE.mark}: ${WITHIN_NOISE.meaning}. ${WITHHELD_NOTE}</p>
    ${data.summaries.map(summary => summaryTableHtml(summary, data))}
    ${repeatabilityNotes(data, 'throughputText')}
    ${data.summaries.some(summary => summary.shares) ? html`<p class="note">${SHARE_NOTE}</p>` : ''}
    ${data.summaries.filter(summary => summary.shares).map(summary => summaryTableHtml(summary, data, 'share'))}
    ${data.summaries.some(summary => summary.marginal) ? html`<p class="note">${MARGINAL_NOTE}</p>` : ''}
    ${data.summaries.filter(summary => summary.marginal).map(summary => summaryTableHtml(summary, data, 'marginal'))}
    ${data.comparison ? comparisonTable(data.comparison) : ''}
  </section>`
}

function contextTable (data) {
  const keys = []
  for (const context of data.contexts) {
    for (const [key] of context.rows) if (!keys.includes(key)) keys.push(key)
  }
  const value = (context, key) => context.rows.find(([k]) => k === key)?.[1] ?? ''
  return html`<div class="table-wrap"><table class="context">
    ${data.compare ? html`<thead><tr><th scope="col"></th>${data.contexts.map(context => html`<th scope="col">${context.label}</th>`)}</tr></thead>` : ''}
    <tbody>${keys.map(key => html`<tr><th scope="row">${key}</th>${data.contexts.map(context => html`<td>${value(context, key)}</td>`)}</tr>`)}</tbody>
  </table></div>`
}

function contextSection (data) {
  const flags = data.flags.map(group => html`<li><span class="flag flag-${group.flag}">${FLAG_LABELS[group.flag] ?? group.flag}</span>
    ${data.compare ? html`<span class="set">${group.set}</span> ` : ''}${group.meaning}:
    ${group.cells.map((cell, i) => html`${i ? ', ' : ''}${cell.program} at ${sizeName(cell.blockSize)}${cell.detail ? html` (${cell.detail})` : ''}`)}</li>`)
  const failures = data.failures.map(failure => html`<li>${data.compare ? html`<span class="set">${failure.set}</span> ` : ''}<strong>${failure.phase} ${failure.program}</strong> ${failure.mode ? `${failure.mode}, ${failure.connections} connections${failure.requests ? `, ${failure.requests} requests` : ''}` : `at ${sizeName(failure.blockSize)}`}, run ${failure.run}: ${failure.reason}
    <br><code>${failure.command}</code></li>`)
  return html`<section id="context">
    <h2>Context</h2>
    ${contextTable(data)}
    <h3>Flagged cells</h3>
    ${flags.length ? html`<ul class="plain">${flags}</ul>` : html`<p class="note">No cell is flagged noisy, feeder-bound, reader-waited, start-up dominated, VM steal or failed.</p>`}
    <h3>Failed runs</h3>
    ${failures.length ? html`<ul class="plain failures">${failures}</ul>` : html`<p class="note">No run failed.</p>`}
  </section>`
}

// ---- the page ----

const STYLE = `
:root { --ink: #1d2330; --muted: #5b6475; --line: #dfe3ea; --panel: #ffffff; --page: #f4f6f9; --accent: #2f6fde; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--page); color: var(--ink); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
header { background: #1d2330; color: #fff; padding: 28px 32px 20px; }
header h1 { margin: 0 0 6px; font-size: 26px; font-weight: 650; }
header p { margin: 0; color: #c9d1e0; }
nav { display: flex; flex-wrap: wrap; gap: 4px 18px; margin-top: 14px; }
nav a { color: #9ec2ff; text-decoration: none; font-size: 14px; }
nav a:hover { text-decoration: underline; }
main { max-width: 1240px; margin: 0 auto; padding: 20px 24px 40px; }
section { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 20px 24px; margin: 0 0 20px; }
h2 { margin: 0 0 8px; font-size: 20px; }
h3 { margin: 18px 0 6px; font-size: 16px; }
.note { color: var(--muted); font-size: 14px; margin: 4px 0 12px; }
.why { background: #fff8e6; border-left: 4px solid #e0a800; padding: 8px 12px; margin: 10px 0; }
.chart { height: 440px; min-width: 0; }
.chart.small { height: auto; min-height: 320px; }
.chart.tall { height: 460px; }
.grid { display: grid; gap: 18px; }
.grid.two { grid-template-columns: repeat(auto-fit, minmax(440px, 1fr)); }
.grid.three { grid-template-columns: repeat(auto-fit, minmax(340px, 1fr)); }
#chart-headline { height: auto; }
.grid.multiples { grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); }
.grid.multiples .chart { height: 340px; }
ul.findings.lead { font-size: 1.05em; }
tr.baseline th, tr.baseline td { font-weight: 600; }
tr.disagree td, tr.disagree th { background: #fff4e5; }
.never-collected { margin: 8px 0; }
.toggle { display: inline-flex; align-items: center; gap: 0; margin: 4px 0 10px; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
.toggle-label { padding: 4px 10px; color: var(--muted); font-size: 13px; background: #f7f8fb; border-right: 1px solid var(--line); }
.toggle button { font: inherit; font-size: 14px; border: 0; border-right: 1px solid var(--line); background: #fff; color: var(--ink); padding: 5px 14px; cursor: pointer; }
.toggle button:last-child { border-right: 0; }
.toggle button[aria-pressed="true"] { background: var(--accent); color: #fff; }
ul.findings { margin: 6px 0 0; padding-left: 20px; }
ul.findings li { margin: 6px 0; }
ul.plain { list-style: none; padding: 0; margin: 6px 0; }
ul.plain li { margin: 6px 0; }
.table-wrap { overflow-x: auto; margin: 10px 0; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
caption { text-align: left; font-weight: 600; padding: 4px 0 8px; }
th, td { padding: 6px 10px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
thead th { background: #f7f8fb; font-weight: 600; border-bottom: 2px solid var(--line); }
tbody tr:nth-child(even) { background: #fafbfd; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tbody th[scope=row], tbody th[scope=rowgroup] { white-space: nowrap; }
table.context th[scope=row] { width: 210px; color: var(--muted); font-weight: 500; white-space: normal; }
table.grouped tbody tr { background: none; }
tr.group-start > * { border-top: 2px solid var(--line); }
td.file { color: var(--muted); font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
td.failed { color: #a4262c; }
.mbps { font-weight: 600; }
.pct { color: var(--muted); margin-left: 6px; }
.interval { color: var(--muted); margin-left: 4px; font-size: 13px; }
.unit { color: var(--muted); font-size: 12px; }
.set { color: var(--muted); font-weight: 400; font-size: 12px; }
.flag { display: inline-block; font-size: 11px; line-height: 1.5; padding: 0 6px; margin-left: 6px; border-radius: 9px; background: #eef0f4; color: #444c5c; white-space: nowrap; }
.flag-noisy { background: #fff1cc; color: #7a5600; }
.flag-feeder-bound { background: #e3ecff; color: #1f4fa8; }
.flag-reader-waited { background: #e2f4ec; color: #1d6b4a; }
.flag-startup-dominated { background: #ece6ff; color: #4b3a99; }
.flag-steal { background: #f3e8dc; color: #7a4a14; }
.flag-failed, .flag-some-runs-failed { background: #fde2e2; color: #a4262c; }
ul.failures code { font-size: 12px; color: var(--muted); word-break: break-all; }
footer { color: var(--muted); font-size: 13px; text-align: center; padding: 0 24px 30px; }
`

// The page's own script: lib/report/format.js and lib/report/browser.js, each wrapped
// as the CommonJS module it is, then drawReport() on the page's data.
const BROWSER_MODULES = ['format', 'browser']

function pageScript () {
  const modules = BROWSER_MODULES.map(name => {
    const source = fs.readFileSync(path.join(__dirname, `${name}.js`), 'utf8')
    return `modules['./${name}'] = (() => {\nconst module = { exports: {} }\n${source}\nreturn module.exports\n})()`
  })
  const script = `(() => {\nconst modules = {}\nconst require = name => modules[name]\n${modules.join('\n')}\nmodules['./browser'].drawReport()\n})()`
  // "<script" and "</script" in the sources' comments and strings would change how the
  // page's parser reads the element: in a string or a regular expression \x73 reads as
  // an "s", and in a comment it is only text.
  return script.replace(/<(\/?)script/gi, '<$1\\x73cript')
}

function renderHtml (data, assets) {
  const { version, scripts } = assets.highcharts
  // A literal "</script" inside the library would end the element early.
  const library = scripts.map(script => `/* highcharts/${script.name} ${version} */\n${script.text.replace(/<\/script/gi, '<\\/script')}`).join('\n;\n')
  // The charts need only their series; the tables are already in the markup.
  const pageData = {
    experiment: data.experiment,
    sizes: data.sizes,
    headline: { available: data.headline.available, defaultSize: data.headline.defaultSize, chart: data.headline.chart },
    ladder: data.ladder.map(entry => ({ set: entry.set, chart: entry.chart })),
    http: data.http.map(entry => ({ set: entry.set, reference: entry.reference, modes: entry.modes.map(mode => ({ mode: mode.mode, chart: mode.chart })) })),
    throughput: data.throughput,
    time: data.time,
    cost: { perRead: data.cost.perRead, overhead: data.cost.overhead },
    syscalls: data.syscalls,
    resources: data.resources,
    gc: { timeline: data.gc.timeline }
  }
  const calls = data.experiment === 'calls'
  const subtitle = data.compare
    ? `${data.sets.length} result sets compared: ${data.sets.join(', ')}`
    : data.experiment === 'http'
      ? `${data.http[0].modes[0]?.rows.length ?? 0} hello-world servers under wrk, keep-alive and Connection: close, measured ${data.contexts[0].date ?? 'on an unrecorded date'}`
      : calls
        ? `the call ladder of ${data.ladder[0].rows.length} variants, ${data.ladder[0].counts?.processes ?? '?'} processes each, measured ${data.contexts[0].date ?? 'on an unrecorded date'}`
        : `${data.programs.length} programs × ${data.sizes.length} block sizes, best of ${data.contexts[0].options.runs ?? '?'} runs, feeder ${data.contexts[0].options.feeder ?? '?'}, measured ${data.contexts[0].date ?? 'on an unrecorded date'}`
  // A calls run has the ladder and the cost pass at 256 B, nothing the stdio sections show.
  const sections = data.experiment === 'http'
    ? [['http', 'What a request costs', httpSection], ['context', 'Context', contextSection]]
    : calls
      ? [['ladder', 'Where a read\'s time goes', ladderSection], ['headline', 'What a read costs', headlineSection], ['context', 'Context', contextSection]]
      : [['headline', 'What a read costs', headlineSection], ['findings', 'Findings', findingsSection], ['syscalls', 'Syscalls', syscallSection], ['idiomatic', 'Idiomatic readers', idiomaticSection],
          ['resources', 'Memory, CPU, start-up', resourceSection], ['gc', 'GC', gcSection], ['throughput', 'Throughput', throughputSection], ['time', 'Time', timeSection],
          ['cost', 'Wall time per read', costSection], ['summary', 'Summary', summarySection], ['context', 'Context', contextSection]]
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:">
<title>${data.title}</title>
<style>${new Markup(STYLE)}</style>
</head>
<body>
<header>
  <h1>${data.title}</h1>
  <p>${subtitle}</p>
  <nav aria-label="sections">
    ${sections.map(([id, name]) => html`<a href="#${id}">${name}</a>`)}
  </nav>
</header>
<main>
${sections.map(([, , section]) => section(data))}
</main>
<footer>Written by analyse.js from ${data.contexts.map(context => context.dir ?? context.label).join(', ')}. Charts: Highcharts ${version}, inlined; use a chart's menu to save it as PNG or SVG.</footer>
<script type="application/json" id="report-data">${new Markup(jsonForScript(pageData))}</script>
<script>${new Markup(library)}</script>
<script>${new Markup(pageScript())}</script>
</body>
</html>
`
  return page.text
}

module.exports = { renderHtml, html, Markup }
