'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const { countOptimizingCompiles } = require('../../lib/jittrace')

// lines printed by `--trace-opt` on a loop calling one small function (V8's own words, a long
// line in two strings)
const V8_10 = [
  '[marking 0x1601275a1bb9 <JSFunction f (sfi = 0x1601275a19e9)> for optimization to' +
    ' TURBOFAN, ConcurrencyMode::kConcurrent, reason: small function]',
  '[compiling method 0x1601275a1bb9 <JSFunction f (sfi = 0x1601275a19e9)> (target' +
    ' TURBOFAN) using Turbofan]',
  '[optimizing 0x2e87825a1b09 <JSFunction (sfi = 0x2e87825a1941)> (target TURBOFAN) - took' +
    ' 0.072, 1.418, 0.080 ms]',
  '[optimizing 0x2e87825a1bb9 <JSFunction f (sfi = 0x2e87825a19e9)> (target TURBOFAN) -' +
    ' took 0.012, 0.408, 0.023 ms]'
].join('\n') + '\n'
const NODE_22 = [
  '[compiling method 0x0f3e99ae3e31 <JSFunction f (sfi = 0x1a66f611b4d1)> (target' +
    ' TURBOFAN), mode: ConcurrencyMode::kConcurrent]',
  '[completed compiling 0x0f3e99ae3e31 <JSFunction f (sfi = 0x1a66f611b4d1)> (target' +
    ' TURBOFAN) - took 0.031, 0.862, 0.017 ms]',
  '[completed optimizing 0x0f3e99ae3e31 <JSFunction f (sfi = 0x1a66f611b4d1)> (target TURBOFAN)]',
  '[completed compiling 0x0f3e99ae35b1 <JSFunction (sfi = 0x1a66f611b469)> (target' +
    ' TURBOFAN) OSR - took 0.007, 1.233, 0.015 ms]',
  '[completed optimizing 0x0f3e99ae35b1 <JSFunction (sfi = 0x1a66f611b469)> (target' +
    ' TURBOFAN) OSR]'
].join('\n') + '\n'
const NODE_26 = [
  '[marking 0x08e1e6d2d511 <JSFunction f (sfi = 0x1c4466311f9)> for optimization to' +
    ' MAGLEV, ConcurrencyMode::kConcurrent, reason: hot and stable]',
  '[completed compiling 0x08e1e6d2d511 <JSFunction f (sfi = 0x1c4466311f9)> (target' +
    ' MAGLEV) - took 0.1, 0.5, 0.0 ms]',
  '[completed compiling 0x08e1e6d2cb91 <JSFunction (sfi = 0x1c446631189)> (target MAGLEV)' +
    ' OSR - took 0.1, 0.5, 0.0 ms]',
  '[compiling method 0x01c446633cb1 <JSFunction f (sfi = 0x1c4466311f9)> (target' +
    ' TURBOFAN_JS), mode: ConcurrencyMode::kConcurrent]',
  '[completed compiling 0x01c446633cb1 <JSFunction f (sfi = 0x1c4466311f9)> (target' +
    ' TURBOFAN_JS) - took 0.1, 0.5, 0.0 ms]',
  '[completed optimizing 0x01c446633cb1 <JSFunction f (sfi = 0x1c4466311f9)> (target' +
    ' TURBOFAN_JS)]',
  '[completed compiling 0x01c446633cf1 <JSFunction (sfi = 0x1c446631189)> (target' +
    ' TURBOFAN_JS) OSR - took 0.1, 0.5, 0.0 ms]'
].join('\n') + '\n'
const GC = '[17509:0x1ca78000]      299 ms: Scavenge 5.5 (6.6) -> 5.0 (7.1) MB, pooled: 0.0' +
  ' MB, 0.84 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure;\n'

test('countOptimizingCompiles: one a finished compile, in each V8\'s words, none for a start or ' +
  'an install', () => {
  assert.equal(countOptimizingCompiles(V8_10), 2)
  assert.equal(countOptimizingCompiles(NODE_22), 2)
  // Maglev's compiles count as TurboFan's do: both are V8's optimizing tiers
  assert.equal(countOptimizingCompiles(NODE_26), 4)
  // among the collector's lines and a server's own, as a server prints them
  assert.equal(countOptimizingCompiles(`listening 127.0.0.1:8080\n${GC}${NODE_26}${GC}`), 4)
  assert.equal(countOptimizingCompiles(GC), 0)
  assert.equal(countOptimizingCompiles(''), 0)
})
