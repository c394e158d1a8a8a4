'use strict'
// What a db server must answer, by TechEmpower's test rules: the Fortune table's rows,
// the row added at request time, and the exact HTML of /fortunes.
const WORLD_ROWS = 10000
const MAX_QUERIES = 500

const FORTUNES = [
  { id: 1, message: 'fortune: No such file or directory' },
  { id: 2, message: 'A computer scientist is someone who fixes things that aren\'t broken.' },
  { id: 3, message: 'After enough decimal places, nobody gives a damn.' },
  { id: 4, message: 'A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1' },
  { id: 5, message: 'A computer program does what you tell it to do, not what you want it to do.' },
  { id: 6, message: 'Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen' },
  { id: 7, message: 'Any program that runs right is obsolete.' },
  { id: 8, message: 'A list is only as strong as its weakest link. — Donald Knuth' },
  { id: 9, message: 'Feature: A bug with seniority.' },
  { id: 10, message: 'Computers make very fast, very accurate mistakes.' },
  { id: 11, message: '<script>alert("This should not be displayed in a browser alert box.");</script>' },
  { id: 12, message: 'フレームワークのベンチマーク' }
]
const ADDED_FORTUNE = { id: 0, message: 'Additional fortune added at request time.' }

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const escapeHtml = text => text.replace(/[&<>"']/g, char => ESCAPES[char])

// Sorted by message in code-point order: what strcmp gives on UTF-8, and what the
// servers must give (UTF-16 order differs from it only beyond the BMP, which no row has).
function fortunesHtml (rows = FORTUNES) {
  const sorted = [...rows, ADDED_FORTUNE].sort((a, b) => a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  return '<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>' +
    sorted.map(({ id, message }) => `<tr><td>${id}</td><td>${escapeHtml(message)}</td></tr>`).join('') +
    '</table></body></html>'
}

// The number of rows /queries?q=TEXT must answer.
function queriesCount (text) {
  const count = Number.parseInt(text, 10)
  if (!(count >= 1)) return 1
  return Math.min(count, MAX_QUERIES)
}

module.exports = { WORLD_ROWS, MAX_QUERIES, FORTUNES, ADDED_FORTUNE, escapeHtml, fortunesHtml, queriesCount }
