'use strict'
// The stdio experiment's report. Every experiment's report has this interface, which
// lib/report/ (the page, results.md, results.csv, the terminal) loops over:
//   shape(sets)          its part of the report's data, from labelled results sets; it
//                        holds the page's subtitle
//   contextRows(set)     the context's rows on how a run measured (its traces' included)
//   pinText(pin)         where one of its passes ran, for the context's placement
//   sections             the page's sections, in order: [id, title, render(data), and
//                        for a section with charts the data its page module draws them from]
//   browser              that page module's file: its `drawings`, a drawing function per
//                        charted section's id (lib/report/browser.js)
//   markdown(data)       results.md after its title
//   csv(data)            results.csv as { columns: [[name, pick(row)]], rows }
//   terminal(results, sizes)
//                        the lines bench.js prints when a run is done
//   agreement(data)      the lines analyse.js prints when runs of one machine are
//                        compared: how far they agree
//   machineFigures(set)  its figures for a comparison of machines (lib/report/machines.js):
//                        { what, unit, baseline, rows: [{ item, runtime, at, atLabel,
//                        absolute, over, share }] }, each figure an interval
const path = require('node:path')
const { shape, contextRows, pinText } = require('./report-data')
const { sections } = require('./report-html')
const { markdown, csv, terminal, agreement } = require('./report-text')
const { machineFigures } = require('./machines')

module.exports = {
  shape,
  contextRows,
  pinText,
  sections,
  browser: path.join(__dirname, 'report-browser.js'),
  markdown,
  csv,
  terminal,
  agreement,
  machineFigures
}
