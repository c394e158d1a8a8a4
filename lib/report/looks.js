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

// Hues for what is not a runtime (a syscall, a part of a read, a profile's bucket, a
// process): none in a family's hue (grey, vermillion, green, orange, blue, pink, sky), each at
// least ΔE 26 (CIE76) from every family's and 25 from each other, so that a segment of a bar
// is not read as a runtime (lib/report/geometry.js echoes).
const PART_HUES = ['#6a3d9a', '#8c510a', '#d9c27a', '#7a7a1e', '#7a1f3d', '#b9a3dd', '#e6d000',
  '#a6d854', '#9e2a2b', '#c7eae5', '#2e2a52']
// A part of a read in one hue wherever it is drawn: the profile's buckets, and the ladder's
// parts, which are the same pieces measured another way; what no part names in grey.
const READ_PART_HUES = {
  kernelRead: PART_HUES[0],
  entryExit: PART_HUES[5],
  binding: PART_HUES[1],
  loop: PART_HUES[2],
  buffer: PART_HUES[3],
  gc: PART_HUES[4],
  switching: PART_HUES[9],
  other: '#b8bfcc'
}
// The calls the experiments' pages show most, each in a hue of its own on every page (read is
// purple on stdio's, http's and db's alike).
const CALLS_IN_ORDER = ['read', 'write', 'epoll_wait', 'sendto', 'recvfrom', 'accept4', 'close',
  'futex', 'io_uring_enter', 'epoll_ctl', 'writev']

// One page's hues for the syscalls of a chart, by name: a call of CALLS_IN_ORDER its own hue;
// another the hue the page gave it before, where no call of this chart has it; else the first
// hue this chart leaves. So no two calls of a chart share a hue (up to PART_HUES' eleven), and
// a call keeps its hue from chart to chart wherever it can. names → Map of name to hue.
function pageCallHues () {
  const own = new Map(CALLS_IN_ORDER.map((name, i) => [name, PART_HUES[i % PART_HUES.length]]))
  const given = new Map()
  return function callHues (names) {
    const hues = new Map()
    const taken = new Set()
    const take = (name, hue) => {
      hues.set(name, hue)
      taken.add(hue)
    }
    for (const name of names) if (own.has(name) && !taken.has(own.get(name))) take(name, own.get(name))
    for (const name of names) {
      if (!hues.has(name) && given.has(name) && !taken.has(given.get(name))) take(name, given.get(name))
    }
    for (const name of names.filter(each => !hues.has(each))) {
      const hue = PART_HUES.find(each => !taken.has(each)) ?? PART_HUES[hues.size % PART_HUES.length]
      take(name, hue)
      if (!given.has(name)) given.set(name, hue)
    }
    return hues
  }
}

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

module.exports = { FAMILIES, OTHER, PART_HUES, READ_PART_HUES, familyOf, pageLooks, pageCallHues }
