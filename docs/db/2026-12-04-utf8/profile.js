'use strict'
// Profiles the host's db server at /fortunes under wrk: a cluster of the lab's own
// (experiments/db/postgres.js) and wrk on CPU 0, the server on CPU 1, 64 connections, 3 s of
// warm-up, then perf's samples of the server for 3 s of a 6 s run. Run as root. V8 10.2's
// --perf-basic-prof also logs, to /dev/null here; its /tmp/perf-PID.map is perf's to read.
//   node docs/db/2026-12-04-utf8/profile.js OUT.data
//   perf report -i OUT.data --no-children --sort symbol --stdio
const path = require('node:path')
const { underWrk, outData, perfRecord, ROOT } = require('../under-wrk')
const { runScript } = require('../../script-args')

// V8 10.2's --perf-basic-prof logs too, to /dev/null here; its /tmp/perf-PID.map is perf's
const HOST = port => [path.join(ROOT, 'build/just-host'), '--perf-basic-prof', '--interpreted-frames-native-stack',
  '--logfile=/dev/null', '--no-logfile-per-isolate', path.join(ROOT, 'db/just-pg.js'), String(port)]

const main = (out, stopped) => underWrk({
  argv: HOST,
  stopped,
  page: '/fortunes',
  record: server => perfRecord(['-e', 'cpu-clock', '-F', '4999', '-g', '-p', String(server.pid),
    '-o', out, '--', 'sleep', '3'])
})

runScript(module, { args: [1, 1], each: outData, measures: true, run: ([out], flags, stopped) => main(out, stopped) })
