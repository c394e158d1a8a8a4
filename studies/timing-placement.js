'use strict'
// Where should dd and the reader run so that the timing pass's best-of-ten MB/s
// reproduces? Two sessions back to back per placement, each ten rounds of every reader
// at every size (a full timing run's bytes, as bench.js's timing pass), and per cell the
// move of the best run's MB/s between the two sessions:
//
//   free     no pinning (the timing pass until now)
//   apart    dd on CPU 0, the reader on CPU 1
//   shared   dd and the reader on one CPU, the last (the cost pass's placement)
//
//   node studies/timing-placement.js [--rounds 10] [--raw FILE]
//
// A run that saw foreign CPU time on its pinned CPUs (lib/foreign.js) is measured again,
// as bench.js does; free runs cannot be checked so. Prints, per placement, the median and
// largest move and how many cells moved by at most 5%.
const fs = require('node:fs')
const { runCli, RunFailed } = require('../lib/cli')
const { repeatCount } = require('../lib/options')
const { parseStudyOptions } = require('./per-read')
const { commandLine, parseOutput, findProgram, unavailableReason } = require('../experiments/stdio/programs')
const { runPipeline, ddFeeder, PIN_APART, PIPE_RUN, sharedCpuPin } = require('../lib/pipeline')
const { pipelineForeign } = require('../lib/foreign')
const { verify, FIXED_FEEDER_BLOCK } = require('../experiments/stdio/measure')
const { median } = require('../lib/stats')

const READERS = ['c', 'just-sync', 'just-fast', 'node-sync', 'bun-ffi', 'deno-sync']
const SIZES = [256, 4096, 65536]
const BYTES = { 256: 64 << 20, 4096: 256 << 20, 65536: 256 << 20 }
const GOAL = 0.05

async function session (placement, rounds, raw, stopped) {
  const best = new Map()
  const pin = { free: null, apart: PIN_APART, shared: sharedCpuPin() }[placement]
  for (let round = 0; round < rounds; round++) {
    for (const blockSize of SIZES) {
      for (const name of READERS) {
        const program = findProgram(name)
        for (let attempt = 0; attempt < 4; attempt++) {
          // a stop asked for between runs ends the study there
          const kept = raw ? `; the runs so far are in ${raw}` : ''
          if (stopped()) throw new RunFailed(`stopped before ${name} @ ${blockSize}${kept}`)
          const result = await runPipeline({ feeder: ddFeeder(BYTES[blockSize], FIXED_FEEDER_BLOCK), reader: commandLine(program, blockSize), timeoutMs: 120000, pin })
          const failure = verify({ program, blockSize, bytes: BYTES[blockSize], timeoutSeconds: 120 }, result, parseOutput(program, result.stdout))
          if (failure) throw new RunFailed(`${name} @ ${blockSize}: ${failure}`)
          const foreign = pipelineForeign(result)
          if (raw) fs.appendFileSync(raw, JSON.stringify({ placement, round, name, blockSize, wallNs: result.wallNs, foreign }) + '\n')
          if (foreign?.disturbed) continue
          const mbps = BYTES[blockSize] / 1e6 / (result.wallNs / 1e9)
          const key = `${name}@${blockSize}`
          best.set(key, Math.max(best.get(key) ?? 0, mbps))
          break
        }
      }
    }
  }
  return best
}

const USAGE = `usage: node studies/timing-placement.js [--rounds N] [--raw FILE]
  --rounds N   rounds of every reader at every size per session (default 10)
  --raw FILE   every run's figures, a JSON line each
  --help       this text`

function parseOptions (argv) {
  const spec = { rounds: { type: 'string' }, raw: { type: 'string' } }
  return parseStudyOptions(argv, spec, USAGE, values => {
    const options = { rounds: repeatCount(values.rounds ?? '10', 'rounds'), raw: values.raw }
    // refused before its first run, in one line, where a reader or the timer cannot run
    // (a review: a missing build/pipe-run ended it in a stack trace)
    if (!fs.existsSync(PIPE_RUN)) throw new Error(`${PIPE_RUN} is not built: run ./setup.sh`)
    for (const name of READERS) {
      const reason = unavailableReason(findProgram(name))
      if (reason) throw new Error(`${name} cannot run here: ${reason}`)
    }
    return options
  })
}

async function main ({ rounds, raw }, stopped) {
  for (const placement of ['free', 'apart', 'shared']) {
    const a = await session(placement, rounds, raw, stopped)
    const b = await session(placement, rounds, raw, stopped)
    const moves = [...a].map(([key, value]) => [key, Math.abs(b.get(key) - value) / value])
    const within = moves.filter(([, move]) => move <= GOAL).length
    const worst = moves.reduce((x, y) => (y[1] > x[1] ? y : x))
    console.log(`${placement.padEnd(7)} best-of-${rounds} MB/s moved by a median of ${(median(moves.map(([, move]) => move)) * 100).toFixed(1)}%, at most ${(worst[1] * 100).toFixed(1)}% (${worst[0]}); ${within} of ${moves.length} cells within ${GOAL * 100}%`)
    for (const [key, move] of moves) console.log(`  ${key.padEnd(18)} ${a.get(key).toFixed(0).padStart(6)} ${b.get(key).toFixed(0).padStart(6)} MB/s  ${(move * 100).toFixed(1)}%`)
  }
  return 0
}

runCli({ name: 'timing-placement.js', usage: USAGE, parse: parseOptions, run: main, measures: true })
