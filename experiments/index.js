'use strict'
// The lab's experiments, each in a folder of its own behind one interface. The drivers
// (bench.js, analyse.js) find an experiment here and hand it to the shared code (lib/),
// which imports nothing from experiments/ and never asks which one it holds. A new
// experiment is a folder with an index.js that exports the interface below, and one line
// in the list under it:
//   name, about             its --experiment name and its lines in --help
//   phases                  every phase its log's records may name
//   options                 its option rows (lib/option-schema.js)
//   stored, later           how a resumed run's context.json must hold what the rows do
//                           not, and the fields older runs lack
//   check()                 (optional) throws a UsageError when a table it loads is bad
//   wantsKernel(options)    (optional) whether its plan has a kernel pass to ask BPF for
//                           (lib/sysprof.js); by default, its options' kernel
//   configure(options, values)
//                           the rest of its options, checked, once the rows are parsed
//                           (values: parseArgs's)
//   list(values)            the rows of --list
//   select(options, recorded), recorded(context, options)
//                           what a run measures, and what a resumed one measured
//   plan(options, selection, { ptrace, placement, shuffle })
//                           every step, in order; cellKey(step or record) names its cell;
//                           recurring (optional): where a failure will recur, so that the
//                           steps there are logged failed, not run: keys(step), the places
//                           a step is at; at(record), [{ key, reason }], those where a
//                           failed record's failure comes again (stdio's: its cell, and a
//                           hang's reader and size)
//   session(options, runDir, interrupted, log)
//                           { measure(step, run), close() }: runs one step to a record; log,
//                           a resumed run's { steps (the plan), records (its log's kept) }
//   context(options, selection, placement), passes(options, placement),
//   describe(options, selection)
//                           what context.json adds for it, where each pass runs, and
//                           the run's first line
//   derive(records, context, runDir)
//                           the files derived from the log (and the run's raw files),
//                           by name; derivedFiles: those beside results.json that a
//                           report reads
//   resultsProblem(results), measured(results), outdated(results)
//                           whether a results.json is its experiment's, holds a measured
//                           cell, and was summarised by a lab that summarised otherwise
//   rerun(options, failure, runnable), failureLabel(failure)
//                           the arguments of the bench that measures a failed cell
//                           again ({ env, args }), and the cell's name in the list
//   report                  its part of the report (its report.js), which lib/report/
//                           (the page, results.md, results.csv, the terminal) loops over:
//     shape(sets)           its part of the report's data, from labelled results sets; it
//                           holds the page's subtitle
//     contextRows(set)      the context's rows on how a run measured (its traces' included)
//     pinText(pin)          where one of its passes ran, for the context's placement
//     sections              the page's sections, in order: [id, title, render(data), and
//                           for a section with charts the data its page module draws them
//                           from]
//     browser               that page module's file: its `drawings`, a drawing function
//                           per charted section's id (lib/report/browser.js); the page
//                           carries it and every module it requires
//     markdown(data)        results.md after its title
//     csv(data)             results.csv as { columns: [[name, pick(row)]], rows }
//     terminal(results, sizes)
//                           the lines bench.js prints when a run is done
//     agreement(data)       the lines analyse.js prints when runs of one machine are
//                           compared: how far they agree
//     machineFigures(set)   its figures for a comparison of machines
//                           (lib/report/machines.js): { what, unit, baseline, rows: [{
//                           item, runtime, at, atLabel, absolute, over, share }] }, each
//                           figure an interval
// An experiment may build on another's modules, as calls builds on stdio's: its readers'
// table, its cost pass and its headline's report.
const experiments = [require('./stdio'), require('./calls'), require('./http'), require('./db')]

const { DEFAULT_EXPERIMENT } = require('./default')

function byName (name) {
  return experiments.find(experiment => experiment.name === name) ?? null
}

// The experiment whose run made a results.json; runs from before there were several are stdio's.
function ofResults (results) {
  return byName(results?.experiment ?? DEFAULT_EXPERIMENT)
}

module.exports = { experiments, byName, ofResults, DEFAULT_EXPERIMENT }
