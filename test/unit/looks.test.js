'use strict'
// How runtimes look on the pages (lib/report/looks.js): every name the lab draws belongs to a
// family with a hue of its own, and a page draws a name the same way in every chart.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { FAMILIES, familyOf, pageLooks } = require('../../lib/report/looks')

const drawnNames = () => [
  ...require('../../experiments/stdio/programs').programs.map(program => program.name),
  ...require('../../experiments/http/servers').servers.map(server => server.name),
  ...require('../../experiments/db/servers').servers.map(server => server.name),
  ...require('../../experiments/calls/ladder').variants.map(variant => variant.name)
]

test('every program, server and ladder variant belongs to a runtime family', () => {
  const lost = drawnNames().filter(name => familyOf(name).key === 'other')
  assert.deepEqual(lost, [])
})

test('families by their runtime: WebAssembly and io_uring before the runtime that hosts them', () => {
  const families = ['c', 'coreutils', 'nginx', 'mini-httpd', 'c-libpq-prepared-serial', 'just-fast',
    'node-sync@22', 'bun-ffi', 'deno-unnamed-serial', 'node-wasi', 'wasmer-wasix', 'winterjs',
    'c-uring-window', 'just-uring', 'limit-splice'].map(name => familyOf(name).key)
  assert.deepEqual(families, ['c', 'c', 'c', 'c', 'c', 'host', 'node', 'bun', 'deno', 'wasm', 'wasm',
    'wasm', 'io_uring', 'io_uring', 'c'])
  assert.equal(new Set(FAMILIES.map(family => family.hue)).size, FAMILIES.length, 'a hue per family')
})

test('a page draws a name alike in every chart, and a family\'s names apart', () => {
  const look = pageLooks()
  const node = ['node-sync', 'node-ffi', 'node-fs-binding', 'node-stream', 'node-bindings', 'node-sync@22']
  const first = node.map(look)
  assert.deepEqual(node.map(look), first, 'asked again, the same looks')
  assert.equal(new Set(first.map(each => each.color)).size, 1, 'one hue for the family')
  assert.equal(new Set(first.map(each => `${each.dashStyle} ${each.marker}`)).size, node.length)
  assert.notEqual(look('c').color, look('node-sync').color)
})
