// What fewer rounds of the cost pass would have given. Each run's log is cut to its first K
// rounds of the cost pass (a round runs every reader and size once, in turn, so its first K
// rounds are what a run of K would have logged, a little earlier), its derived files written
// anew by the lab's own code (analyse.js --rederive), then each pair compared as analyse.js
// compares two runs. Prints per K what each run said of itself (± points a share of C repeats
// within) and each pair's line.
//   node docs/method/cost-rounds.js K,K... RUN_A RUN_B [RUN_C RUN_D ...]
'use strict'
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { RunFailed } = require('../../lib/cli')
const {
  runScript, folderWith, wholeArgument, readJson, readJsonLines, need, UsageError
} = require('../script-args')

const RUN = 'a stdio run\'s folder'

const lab = path.join(__dirname, '..', '..')
// analyse.js's refusal (exit 2: the same run twice, a run of another machine) is this script's,
// in its one line (a review: a stack trace of execFileSync's)
function analyse (...args) {
  try {
    return execFileSync(process.execPath, [path.join(lab, 'analyse.js'), ...args],
      { encoding: 'utf8', cwd: lab, stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (err) {
    const said = `${err.stderr ?? ''}`.trim().split('\n')[0] || err.message.split('\n')[0]
    if (err.status === 2) throw new UsageError(said.replace(/^analyse\.js: /, ''))
    throw new RunFailed(`analyse.js ${args.join(' ')} failed: ${said}`)
  }
}

function firstRounds (run, k, out) {
  const context = readJson(path.join(run, 'context.json'), RUN)
  fs.mkdirSync(out, { recursive: true })
  // read as check read it: a last line cut short by a bench that was stopped is left out
  const kept = readJsonLines(path.join(run, 'all.jsonl'), RUN)
    .filter(record => record.phase !== 'cost' || record.run < k)
  fs.writeFileSync(path.join(out, 'all.jsonl'), kept.map(record => JSON.stringify(record)).join('\n') + '\n')
  context.plannedRuns.cost = Math.round(context.plannedRuns.cost * k / context.options.costRounds)
  context.options.costRounds = k
  context.runId = `${context.runId}-k${k}`
  fs.writeFileSync(path.join(out, 'context.json'), JSON.stringify(context, null, 2))
  // the passes' folders (perf and strace texts) are read in place; every derived file is new
  for (const name of fs.readdirSync(run)) {
    if (fs.statSync(path.join(run, name)).isDirectory()) fs.symlinkSync(path.resolve(run, name), path.join(out, name))
  }
  analyse('--rederive', out)
  return out
}

// Before any run is cut: every K a whole number, the runs in pairs, each run a stdio run's
// folder that ran K cost rounds or more, with a log of JSON lines that holds them.
function check ([ks, ...runs]) {
  const counts = ks.split(',').map(k => wholeArgument(k, 'K'))
  if (runs.length % 2) throw new UsageError(`${runs.length} runs given; give them in pairs, each pair compared`)
  for (const run of runs) {
    folderWith(['context.json', 'all.jsonl'], RUN)(run)
    const contextFile = path.join(run, 'context.json')
    const context = readJson(contextFile, RUN)
    const { costRounds } = context.options ?? {}
    if (!costRounds) throw new UsageError(`${run} ran no cost pass; give ${RUN}`)
    // a cut run's plan is scaled to its rounds: a run from before bench.js recorded one has none
    need(context.plannedRuns?.cost, contextFile, 'plan of cost runs (plannedRuns)', RUN)
    const log = path.join(run, 'all.jsonl')
    const cost = readJsonLines(log, RUN).filter(record => record.phase === 'cost')
    need(cost, log, 'cost pass runs', RUN)
    const over = counts.find(k => k > costRounds)
    if (over) throw new UsageError(`${run} ran ${costRounds} cost rounds; ask for 1 to as many, not ${over}`)
  }
  // a run against itself agrees by construction (a review: analyse.js's refusal as a stack trace)
  for (let i = 0; i < runs.length; i += 2) {
    if (path.resolve(runs[i]) === path.resolve(runs[i + 1])) {
      throw new UsageError(`${runs[i]} is given twice in a pair; compare two different runs`)
    }
  }
}

function main ([ks, ...runs]) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cost-rounds-'))
  try {
    for (const k of ks.split(',').map(Number)) {
      // a run in two pairs is cut once
      const cutOnce = new Map()
      const cut = runs.map(run => {
        if (!cutOnce.has(run)) cutOnce.set(run, firstRounds(run, k, path.join(scratch, `${path.basename(run)}-k${k}`)))
        return cutOnce.get(run)
      })
      const said = [...cutOnce.values()].map(dir => {
        const own = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8')).headline.repeatability
        return `${path.basename(dir)} ${own ? `±${own.quotedPoints.toFixed(2)}` : 'says nothing (too few rounds)'}`
      })
      console.log(`${k} rounds: each run said ${said.join(', ')}`)
      for (let i = 0; i < cut.length; i += 2) {
        const out = path.join(scratch, `cmp-${i}-k${k}`)
        const line = analyse(cut[i], cut[i + 1], '--out', out).split('\n').find(text => text.startsWith('headline:'))
        console.log(`  ${line}`)
      }
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
}

runScript(module, { args: [3, Infinity], check, run: main })
