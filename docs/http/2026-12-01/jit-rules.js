'use strict'
// When is V8 done compiling a server's code? Each server process's optimizing compiles, run by
// run (its warm-up's `warmupCompiles`, then each timed run's `compiles`, in runs made since
// 2026-12-01), judged by two rules: one quiet run (it finished at most 5% of the compiles so
// far, the lab's first rule, 5bc6dff) and the lab's (compilerSettled in
// experiments/http/measure.js: two quiet runs, each at most 2% or 2). For each rule and
// server: where it first says done (the run's number; none where no run of the process did)
// and how many processes compiled a wave after it (a later run finishing more than 5% of what
// they had compiled, and more than 5). Processes whose first three runs compiled fewer than
// 30 functions (Deno's, the host's) are shown apart: little JIT to wait for. The figure's
// rule is not replayed here (warmup-replay.js, jit-replay.js): this is the compiler alone.
//
//   node docs/http/2026-12-01/jit-rules.js RUN/all.jsonl[.gz]... [--each]
const { runScript, readableFile, readJsonLines, UsageError } = require('../../script-args')
const { compilerSettled } = require('../../../experiments/http/measure')

const TIMED = new Set(['http', 'db'])
const LOG = 'an http or db run\'s all.jsonl (or .jsonl.gz) of 2026-12-01 or later'
const sum = values => values.reduce((total, value) => total + value, 0)

const RULES = {
  'one run at 5%': compiles => compiles.at(-1) <= 0.05 * sum(compiles),
  'the lab\'s': compilerSettled
}
// a later run that compiled more than 5% of what the process had compiled when it was called
// done, and more than 5
const waveAfter = (sequence, done) => {
  const total = sum(sequence.slice(0, done + 1))
  return sequence.slice(done + 1).some(count => count > Math.max(5, 0.05 * total))
}

function sequences (files) {
  const all = []
  for (const file of files) {
    const byProcess = new Map()
    for (const record of readJsonLines(file, LOG)) {
      if (!Array.isArray(record.warmupCompiles) || !TIMED.has(record.phase)) continue
      const key = [record.program, record.mode, record.endpoint, `process ${(record.process ?? 0) + 1}`]
        .filter(part => part !== undefined && part !== null).join(', ')
      if (!byProcess.has(key)) {
        byProcess.set(key, { file, key, program: record.program, compiles: [...record.warmupCompiles] })
      }
      byProcess.get(key).compiles.push(record.compiles ?? 0)
    }
    if (byProcess.size === 0) {
      throw new UsageError(`${file} holds no server process whose compiles were counted; give ${LOG}`)
    }
    all.push(...byProcess.values())
  }
  return all
}

function judge (files, each) {
  const all = sequences(files)
  for (const [name, rule] of Object.entries(RULES)) {
    const tally = new Map()
    const lines = []
    for (const { file, key, program, compiles } of all) {
      const group = sum(compiles.slice(0, 3)) < 30 ? `${program} (little JIT)` : program
      if (!tally.has(group)) tally.set(group, { processes: 0, doneAt: [], never: 0, waves: 0 })
      const entry = tally.get(group)
      entry.processes++
      let done = null
      for (let run = 1; run < compiles.length && done === null; run++) {
        if (rule(compiles.slice(0, run + 1))) done = run
      }
      if (done === null) entry.never++
      else entry.doneAt.push(done + 1)
      const wave = done !== null && waveAfter(compiles, done)
      if (wave) entry.waves++
      const doneAfter = done === null ? '-' : done + 1
      const after = wave ? ', a wave after it' : ''
      if (each) lines.push(`  ${file}: ${key}: ${compiles.join(' ')}; done after run ${doneAfter}${after}`)
    }
    console.log(`${name}:`)
    for (const [group, { processes, doneAt, never, waves }] of tally) {
      const mean = doneAt.length ? (sum(doneAt) / doneAt.length).toFixed(1) : '-'
      console.log(`  ${group}: ${processes} processes, done after run ${mean} on average` +
        `${never ? ` (${never} never within their runs)` : ''}; a wave after it in ${waves}`)
    }
    for (const line of lines) console.log(line)
  }
}

runScript(module, {
  args: [1, Infinity],
  each: readableFile,
  flags: { each: { type: 'boolean' } },
  run: (files, flags) => judge(files, flags.each)
})
