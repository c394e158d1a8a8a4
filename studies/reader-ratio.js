'use strict'
// One reader's CPU per read against another's, from a stdio run's cost pass, at each
// block size: the headline sets every reader against C's read(2); this sets any two, such
// as the host's ring reader against C's (just-uring against c-uring). The ratio is the
// Hodges-Lehmann median of every pair of one round of each, with its interval at its
// true level, as the headline's share of C is.
//
//   node studies/reader-ratio.js RUN READER AGAINST
const fs = require('node:fs')
const path = require('node:path')
const { levelText } = require('../lib/stats')
const { headlineCell, cellRatio } = require('../experiments/stdio/cost')
const { UsageError } = require('../lib/options')
const { parseCommandLine } = require('../lib/option-schema')
const { runCli } = require('../lib/cli')
const { rederiveFix } = require('../lib/run-log')

const USAGE = `usage: node studies/reader-ratio.js RUN READER AGAINST
  READER's CPU per read as a share of AGAINST's at each block size, from the cost pass of
  the stdio run in the folder RUN`

function parse (argv) {
  const rows = [{ name: 'help', type: 'boolean' }]
  const { values, positionals } = parseCommandLine(argv, rows, { tool: 'studies/reader-ratio.js', positionals: true })
  if (values.help) return { help: true }
  if (positionals.length !== 3) {
    throw new UsageError(`give a stdio run's folder and two of its readers (${USAGE.split('\n')[0]})`)
  }
  const [run, reader, against] = positionals
  return { run, reader, against }
}

function main ({ run, reader, against }) {
  const file = path.join(run, 'results.json')
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw new UsageError(`cannot read ${file} (${err.code ?? err.message}); give the folder of a stdio run`)
  }
  let results
  try {
    results = JSON.parse(text)
  } catch (err) {
    throw new UsageError(`${file} is corrupt: not valid JSON (${err.message.split('\n')[0]}); ${rederiveFix(run)}`)
  }
  // a run from before runs named their experiment is stdio's; a calls run has stdio's cost pass
  const experiment = results?.experiment ?? 'stdio'
  if (!['stdio', 'calls'].includes(experiment)) {
    throw new UsageError(`${file} is a run of ${experiment}, not stdio; give the folder of a stdio run`)
  }
  if (!results || typeof results !== 'object') {
    throw new UsageError(`${file} is not a bench.js results file; give the folder of a stdio run`)
  }
  const cells = results.headline?.cells
  if (!Array.isArray(cells)) throw new UsageError(`${file} has no cost pass (a stdio run without --no-cost)`)
  for (const name of [reader, against]) {
    if (cells.some(cell => cell.program === name)) continue
    const measured = [...new Set(cells.map(cell => cell.program))].join(', ')
    throw new UsageError(`${run} measured no ${name}; it measured ${measured}`)
  }
  console.log(`${reader}'s CPU per read against ${against}'s, ${run}:`)
  for (const blockSize of [...new Set(cells.map(cell => cell.blockSize))].sort((a, b) => a - b)) {
    const mine = headlineCell(results.headline, reader, blockSize)
    const theirs = headlineCell(results.headline, against, blockSize)
    const ratio = mine && theirs ? cellRatio(mine, theirs) : null
    if (!ratio) {
      console.log(`  ${blockSize} B: too few rounds, or a failed cell`)
      continue
    }
    const percent = value => `${(value * 100).toFixed(1)}%`
    console.log(`  ${blockSize} B: ${percent(ratio.estimate)} (${percent(ratio.low)}–${percent(ratio.high)}, ${levelText(ratio.level)} interval), ${mine.byRound.length} rounds against ${theirs.byRound.length}`)
  }
}

runCli({ name: 'reader-ratio.js', usage: USAGE, parse, run: options => { main(options); return 0 } })
