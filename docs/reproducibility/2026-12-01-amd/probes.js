'use strict'
// What the host's noise slows: reads noise.c's output (a line per cycle of fixed pieces of work,
// each in ns of the thread's CPU time) and says how the pieces move together.
// Usage: node docs/reproducibility/2026-12-01-amd/probes.js spread|states FILE | windows FILE START WINDOWS | both CPU0 CPU1
//   node probes.js spread PROBE.txt                  each piece's spread, Spearman's rho between
//   node probes.js states PROBE.txt                  each piece's median when syscalls were fast
//                                                    (getppid under 235 ns) and slow (over 255)
//   node probes.js windows PROBE.txt START WINDOWS   medians with a neighbour off and on: START
//                                                    holds the probe's start (s since the epoch),
//                                                    WINDOWS lines "on T" and "off T"
//   node probes.js both CPU0.txt CPU1.txt            two probes at once, one per CPU: rho between
//                                                    the CPUs' cycles nearest in time
const fs = require('node:fs')
const { runScript, readableFile, need, UsageError } = require('../../script-args')

const FAST_SYSCALL_NS = 235
const SLOW_SYSCALL_NS = 255
// A cycle ends at its time and lasts about 0.7 s (noise.c's pieces at their counts).
const CYCLE_S = 0.8
const PROBE = 'noise.c\'s output (PROBE.txt)'

// noise.c's output: a header of the columns, the time (t) first and getppid among the pieces,
// then a line of numbers per cycle
function readProbe (file) {
  const [head, ...lines] = fs.readFileSync(file, 'utf8').trim().split('\n')
  const names = head.split(' ')
  if (names[0] !== 't' || !names.includes('getppid')) {
    throw new UsageError(`${file} does not start with noise.c's header (t ... getppid ...); ` +
      `give ${PROBE}`)
  }
  const rows = lines.map(line => line.split(' ').map(Number)).filter(row => row.length === names.length)
  return { names, rows: need(rows, file, 'cycles', PROBE) }
}
const median = xs => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)]
}
const quantile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))]
function ranks (xs) {
  const order = xs.map((x, i) => [x, i]).sort((a, b) => a[0] - b[0])
  const result = []
  order.forEach(([, i], rank) => { result[i] = rank })
  return result
}
function pearson (a, b) {
  const mean = xs => xs.reduce((sum, x) => sum + x, 0) / xs.length
  const ma = mean(a)
  const mb = mean(b)
  let ab = 0
  let aa = 0
  let bb = 0
  a.forEach((x, i) => {
    ab += (x - ma) * (b[i] - mb)
    aa += (x - ma) ** 2
    bb += (b[i] - mb) ** 2
  })
  return ab / Math.sqrt(aa * bb)
}
const spearman = (a, b) => pearson(ranks(a), ranks(b))
const column = (rows, i) => rows.map(row => row[i])
const cell = (x, digits = 2) => x.toFixed(digits).padStart(9)
const label = name => name.padEnd(14)
const syscallState = (names, row) => {
  const ns = row[names.indexOf('getppid')]
  return ns < FAST_SYSCALL_NS ? 'f' : ns > SLOW_SYSCALL_NS ? 'S' : 'm'
}

function spread ({ names, rows }) {
  console.log(`${rows.length} cycles: each piece's p10, p50, p90 (ns), p90/p10, Spearman's rho with`)
  console.log(label(''), ' '.repeat(36), names.slice(1).map(n => n.slice(0, 8).padStart(9)).join(''))
  for (let i = 1; i < names.length; i++) {
    const xs = column(rows, i)
    const rhos = names.slice(1).map((_, j) => cell(spearman(xs, column(rows, j + 1))))
    console.log(label(names[i]), [0.1, 0.5, 0.9].map(p => cell(quantile(xs, p))).join(''),
      cell(quantile(xs, 0.9) / quantile(xs, 0.1)), rhos.join(''))
  }
  console.log('syscall state by cycle (f fast, S slow, m between):')
  console.log(rows.map(row => syscallState(names, row)).join('').replace(/(.{100})/g, '$1\n'))
}

function compare (names, a, b, header) {
  console.log(header)
  for (let i = 1; i < names.length; i++) {
    const x = median(column(a, i))
    const y = median(column(b, i))
    console.log(label(names[i]), cell(x), cell(y), cell(y / x))
  }
}

function states ({ names, rows }) {
  const fast = rows.filter(row => syscallState(names, row) === 'f')
  const slow = rows.filter(row => syscallState(names, row) === 'S')
  compare(names, fast, slow, `medians, ns: ${fast.length} cycles whose getppid was fast, ` +
    `${slow.length} slow, ${rows.length - fast.length - slow.length} between; slow over fast`)
}

// START holds the probe's start, s since the epoch; WINDOWS a line a switch, "on T" or "off T"
const NUMBER = /^\s*\d+(\.\d+)?\s*$/
const SWITCH = /^(on|off) \d+(\.\d+)?$/

function windows ({ names, rows }, startFile, windowsFile) {
  const startText = fs.readFileSync(startFile, 'utf8')
  if (!NUMBER.test(startText)) {
    throw new UsageError(`${startFile} is not a time in seconds; ` +
      'give the probe\'s start (s since the epoch)')
  }
  const start = Number(startText)
  const switches = fs.readFileSync(windowsFile, 'utf8').trim().split('\n')
  const bad = switches.findIndex(line => !SWITCH.test(line))
  if (bad !== -1) {
    throw new UsageError(`${windowsFile} line ${bad + 1} is not "on T" or "off T"; ` +
      'give the neighbour\'s switches')
  }
  const spans = []
  let on = null
  for (const line of switches) {
    const [what, at] = line.split(' ')
    if (what === 'on') on = Number(at) - start
    else spans.push([on, Number(at) - start])
  }
  const inside = t => spans.some(([a, b]) => t - CYCLE_S > a && t < b)
  const outside = t => spans.every(([a, b]) => t < a || t - CYCLE_S > b)
  const off = rows.filter(row => outside(row[0]))
  const with_ = rows.filter(row => inside(row[0]))
  // a START or WINDOWS of another probe leaves one side empty
  if (off.length === 0 || with_.length === 0) {
    throw new UsageError(`${windowsFile} leaves no cycle of the probe with the neighbour ` +
      `${off.length ? 'on' : 'off'}; give the START and WINDOWS of this probe`)
  }
  compare(names, off, with_, `medians, ns: ${off.length} cycles with the neighbour off, ` +
    `${with_.length} with it on; on over off (cycles that straddle a switch left out)`)
}

function both (cpu0, cpu1) {
  const nearest = t => cpu1.rows.reduce((best, row) => Math.abs(row[0] - t) < Math.abs(best[0] - t) ? row : best)
  const pairs = cpu0.rows.map(row => [row, nearest(row[0])])
  console.log(`${pairs.length} cycles of CPU 0 paired with CPU 1's nearest in time: ` +
    'Spearman\'s rho between the CPUs, then each CPU\'s median')
  for (let i = 1; i < cpu0.names.length; i++) {
    const a = pairs.map(pair => pair[0][i])
    const b = pairs.map(pair => pair[1][i])
    console.log(label(cpu0.names[i]), cell(spearman(a, b)), cell(median(a)), cell(median(b)))
  }
  for (const [cpu, side] of [[0, 0], [1, 1]]) {
    console.log(`CPU ${cpu} ` + pairs.map(pair => syscallState(cpu0.names, pair[side])).join(''))
  }
}

// each command and the files it reads
const FILES = { spread: 1, states: 1, windows: 3, both: 2 }

function check ([command, ...files]) {
  if (!Object.hasOwn(FILES, command)) throw new UsageError(`'${command}' is not a command of it; give spread, states, windows or both`)
  const count = FILES[command]
  if (files.length !== count) throw new UsageError(`${command} reads ${count} file${count === 1 ? '' : 's'}, not ${files.length}; give ${count}`)
  files.forEach(readableFile)
}

function main ([command, ...files]) {
  if (command === 'spread') spread(readProbe(files[0]))
  else if (command === 'states') states(readProbe(files[0]))
  else if (command === 'windows') windows(readProbe(files[0]), files[1], files[2])
  else if (command === 'both') both(readProbe(files[0]), readProbe(files[1]))
}

runScript(module, { args: [1, 4], check, run: main })
