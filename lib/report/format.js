'use strict'
// Number and text formatting shared by the report's HTML, Markdown, CSV and findings,
// so that a figure reads the same wherever it is quoted, and every string that came
// from a results file is escaped for the format it lands in.

const KiB = 1024
const MiB = 1024 * 1024

// Axis labels are short (the study's charts read 256, 1K, 64K); prose spells the unit.
function sizeLabel (bytes) {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB}M`
  if (bytes >= KiB && bytes % KiB === 0) return `${bytes / KiB}K`
  return String(bytes)
}

function sizeName (bytes) {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`
  if (bytes >= KiB && bytes % KiB === 0) return `${bytes / KiB} KiB`
  return `${bytes} B`
}

// Three significant figures is what two runs on a shared machine can support, but
// whole numbers are never rounded to tens (2869 MB/s, not 2870).
function formatNumber (value) {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–'
  const magnitude = Math.abs(value)
  if (magnitude >= 100) return String(Math.round(value))
  if (magnitude >= 10) return trimZeros(value.toFixed(1))
  if (magnitude >= 1) return trimZeros(value.toFixed(2))
  if (magnitude === 0) return '0'
  return trimZeros(value.toPrecision(2))
}

// A number rounded up at its digits'th decimal (2.04 at 1 is 2.1), the float's own error aside.
const roundUp = (value, digits) => Math.ceil(value * 10 ** digits - 1e-9) / 10 ** digits

// A bound ("by up to", "at most") at the digits formatNumber shows, rounded up so that it never
// reads smaller than it is: 11.85 reads 11.9 and 5.004 reads 5.01, where formatNumber rounds
// to nearest. Not a bound's value (none, or not above 0) prints as formatNumber prints it.
function formatBound (value) {
  if (!Number.isFinite(value) || !(value > 0)) return formatNumber(value)
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : value >= 1 ? 2 : 1 - Math.floor(Math.log10(value))
  return formatNumber(roundUp(value, digits))
}

// An interval's ends, "569–620"; "-151 to -147" where an end carries a sign, which a dash
// between two would read as a third. text: how each end is written (formatNumber's minus is a
// hyphen, formatSigned's "+6.03 to +8.07" a minus sign).
function formatRange (low, high, text = formatNumber) {
  const [from, to] = [text(low), text(high)]
  return /^[-+−]/.test(from) || /^[-+−]/.test(to) ? `${from} to ${to}` : `${from}–${to}`
}

// A difference with its sign always written: +5.2, −12 (a minus sign, not a hyphen).
function formatSigned (value) {
  return `${value >= 0 ? '+' : '−'}${formatNumber(Math.abs(value))}`
}

// a ratio's change as a whole percentage with its sign: 0.153 → "+15%", −0.004 → "0%"
function formatSignedPercent (ratio) {
  const whole = Math.round(100 * ratio)
  return whole === 0 ? '0%' : `${formatSigned(whole)}%`
}

function trimZeros (text) {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text
}

function formatPercent (ratio) {
  return ratio === null || ratio === undefined || !Number.isFinite(ratio) ? '–' : `${Math.round(ratio * 100)}%`
}

// A share's interval as percentages to a tenth, "93.2–104.1%" (lib/stats.js
// ratioInterval's or medianInterval's low and high), rounded outwards: a low end printed as 97.0% is at
// least 97% (to within the 1e-9 below), so a goal is not met by rounding, and a high
// end printed as 100.0% may be as low as 99.9%, no lower (whole percents turned 99.03%
// into 100, an interval that seemed to hold C's own speed while the rank test told the
// runs apart).
// The 1e-9 keeps an exact tenth of a percent where it is: a share of 1.001 is
// 1000.9999999999999 tenths of a percent in doubles, and prints as 100.1%.
function formatInterval (interval) {
  if (![interval.low, interval.high].every(Number.isFinite)) return '–'
  const tenths = (value, round) => (round(value * 1000 + (round === Math.floor ? 1e-9 : -1e-9)) / 10).toFixed(1)
  return `${tenths(interval.low, Math.floor)}–${tenths(interval.high, Math.ceil)}%`
}

// A share beside an interval printed to a tenth, itself to a tenth, "68.5%": a whole percent
// (68%) could fall outside its own interval (68.1–69.1%).
const formatPercentTenth = ratio =>
  (ratio === null || ratio === undefined || !Number.isFinite(ratio) ? '–' : `${(ratio * 100).toFixed(1)}%`)

// A share with its interval, "98.4% (93.2–104.1%)"; "98%" where it has none (too few pairs).
function formatShare (interval) {
  if (![interval.low, interval.high].every(Number.isFinite)) return formatPercent(interval.estimate)
  return `${formatPercentTenth(interval.estimate)} (${formatInterval(interval)})`
}

// "1.9×" for ratios near one, "14×" once the difference is an order of magnitude.
function formatRatio (ratio) {
  if (!Number.isFinite(ratio)) return '–'
  return `${ratio >= 10 ? Math.round(ratio) : trimZeros(ratio.toFixed(ratio >= 2 ? 1 : 2))}×`
}

// One text where every entry's is the same, else each entry's own (named: the entry's text
// with its run's name), joined by `between`: a method said once for runs measured alike.
function sharedOrEach (entries, textOf, named, between) {
  const texts = [...new Set(entries.map(textOf))]
  return texts.length <= 1 ? texts[0] ?? '' : entries.map(named).join(between)
}

// Items grouped by keyOf's value, the group most share first (groups as many in the order
// their key first came): [[key, items], ...]. What is said once for most, and named for the
// rest ("4 rounds (node-sync 3)").
function byCommonest (items, keyOf) {
  const groups = new Map()
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item])
  return [...groups].sort((a, b) => b[1].length - a[1].length)
}

// "a, b and c": findings list programs the way a sentence would.
function listJoin (items) {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`
}

const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

function escapeHtml (value) {
  return String(value ?? '').replace(/[&<>"']/g, char => HTML_ESCAPES[char])
}

// Data for the page travels as JSON inside <script type="application/json">: a '<'
// could close the element ("</script>") and U+2028/9 break older parsers, so those
// are written as escapes that JSON.parse reads back unchanged.
function jsonForScript (value) {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

// Rounds by their numbers, runs of them as ranges: [1, 2, 3, 5, 7, 8] → "rounds 1–3, 5, 7–8";
// [] → "none"
function roundsText (numbers) {
  if (numbers.length === 0) return 'none'
  const ranges = []
  for (const number of numbers) {
    const last = ranges.at(-1)
    if (last && number === last[1] + 1) last[1] = number
    else ranges.push([number, number])
  }
  const text = ranges.map(([from, to]) => (from === to ? `${from}` : `${from}–${to}`)).join(', ')
  return `round${numbers.length === 1 ? '' : 's'} ${text}`
}

// Markdown renders inline HTML and splits table cells on '|'.
function escapeMarkdown (value) {
  return String(value ?? '')
    .replace(/\\/g, '\\\\')
    .replace(/[&<>]/g, char => HTML_ESCAPES[char])
    .replace(/\|/g, '\\|')
    .replace(/([*_`[\]])/g, '\\$1')
    .replace(/\r?\n/g, ' ')
}

// RFC 4180 quoting; a text field that a spreadsheet would run as a formula gets a
// leading apostrophe (numbers, including negative ones, are left alone).
function csvField (value) {
  if (value === null || value === undefined) return ''
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : ''
  let text = String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

// A server's CPU per request with the share of it in user space (experiments/http/cpu.js
// userShareOfRuns): "29.4, 62% user", "29.4" where it has none, "62% user" with no figure
// before it; and the tooltip that says what the share rests on.
const userShareText = userShare => (userShare ? `${formatPercent(userShare.share)} user` : '')
const withUserShare = (cpu, userShare) => [cpu, userShareText(userShare)].filter(Boolean).join(', ')
const userShareTitle = ({ share, cpuSeconds, interval }) =>
  `${formatPercent(share)} of the server's ${formatNumber(cpuSeconds)} s of CPU over these runs was user time, ` +
  'the rest the kernel\'s on its behalf, as the kernel splits it by its timer\'s samples; about ' +
  `${formatPercent(interval.level)} interval ${formatInterval(interval)}`

// "1 round", "3 rounds": a count and its noun, singular or plural (the noun's plural with -s)
const counted = (count, noun) => `${count} ${noun}${count === 1 ? '' : 's'}`

module.exports = {
  counted,
  sharedOrEach,
  byCommonest,
  userShareText,
  withUserShare,
  userShareTitle,
  sizeLabel,
  sizeName,
  formatNumber,
  formatBound,
  roundUp,
  formatSigned,
  formatRange,
  formatPercent,
  formatInterval,
  formatShare,
  formatPercentTenth,
  formatRatio,
  listJoin,
  roundsText,
  formatSignedPercent,
  escapeHtml,
  jsonForScript,
  escapeMarkdown,
  csvField
}
