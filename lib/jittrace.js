'use strict'
// Counts the optimizing compiles a V8 process finished, from the lines V8's --trace-opt
// prints, so that a server's warm-up can tell a JIT still compiling from one that is done
// (experiments/http/measure.js, warmupSettled). A compile that finishes prints one line
// naming its tier, in the form of its V8:
//   V8 10.2 (the lab's host):
//     [optimizing 0x… <JSFunction f (sfi = 0x…)> (target TURBOFAN) - took 0.109, 1.982, 0.114 ms]
//   V8 11 and later (Node 22, 24, 26; Deno), Maglev or TurboFan, OSR or not:
//     [completed compiling 0x… <JSFunction f (sfi = 0x…)> (target TURBOFAN_JS) OSR - took …]
// V8 11 and later then print "[completed optimizing …]" as TurboFan's code is installed: the
// same compile, not counted again. "[compiling method …]" and "[marking …]" start one.
const FINISHED = /^\[(?:optimizing|completed compiling) 0x\w+ .*\(target (?:MAGLEV|TURBOFAN)\w*\).* - took /

function countOptimizingCompiles (text) {
  let count = 0
  for (const line of text.split('\n')) if (FINISHED.test(line)) count++
  return count
}

module.exports = { countOptimizingCompiles }
