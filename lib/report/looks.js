'use strict'
// How a runtime looks on every chart of every page: a hue per family (C, the lab's V8 host,
// Node, Bun, Deno, WebAssembly hosts, io_uring), its variants told apart by dash and marker,
// so that a reader who has learnt that Node is green finds Node green everywhere. The hues
// are Okabe and Ito's, chosen to stay apart for the common kinds of colour blindness; the
// dashes and markers carry the difference where a hue cannot. Runs in the page too
// (lib/report/html.js carries it).

// In the order the legends list them. Names are the lab's (programs, servers, ladder
// variants), a runtime's name first.
const FAMILIES = [
  { key: 'c', label: 'C', hue: '#3d3d3d', pattern: /^(c|wc|coreutils|limit|nginx|mini[-_]httpd)(\b|-|_|$)/ },
  { key: 'host', label: 'the lab\'s V8 host', hue: '#d55e00', pattern: /^just/ },
  { key: 'node', label: 'Node', hue: '#009e73', pattern: /^node/ },
  { key: 'bun', label: 'Bun', hue: '#e69f00', pattern: /^bun/ },
  { key: 'deno', label: 'Deno', hue: '#0072b2', pattern: /^deno/ },
  { key: 'wasm', label: 'WebAssembly', hue: '#cc79a7', pattern: /wasi|wasm|winterjs/ },
  { key: 'io_uring', label: 'io_uring', hue: '#56b4e9', pattern: /uring/ }
]
// The order a name is matched in: node-wasi runs WebAssembly in Node, and counts among the
// WebAssembly hosts (with Winter.js, a JavaScript runtime on wasmer), as c-uring and
// just-uring count among io_uring's.
const MATCHING = ['io_uring', 'wasm', 'host', 'node', 'bun', 'deno', 'c']
  .map(key => FAMILIES.find(family => family.key === key))
const OTHER = { key: 'other', label: 'other', hue: '#8c8c8c' }

const DASHES = ['Solid', 'ShortDash', 'ShortDot', 'DashDot', 'LongDash', 'Dot', 'LongDashDot',
  'ShortDashDot', 'LongDashDotDot']
const MARKERS = ['circle', 'square', 'diamond', 'triangle', 'triangle-down']

function familyOf (name) {
  return MATCHING.find(family => family.pattern.test(String(name))) ?? OTHER
}

// The looks of one page: a name's variant number is its place among its family's names in
// the order the page first asks for them, so that a name looks the same in every chart.
function pageLooks () {
  const variants = new Map()
  const counts = new Map()
  return function look (name) {
    const family = familyOf(name)
    if (!variants.has(name)) {
      const count = counts.get(family.key) ?? 0
      variants.set(name, count)
      counts.set(family.key, count + 1)
    }
    const variant = variants.get(name)
    return {
      family: family.key,
      color: family.hue,
      dashStyle: DASHES[variant % DASHES.length],
      marker: MARKERS[variant % MARKERS.length]
    }
  }
}

module.exports = { FAMILIES, OTHER, familyOf, pageLooks }
