'use strict'
// report.html: one self-contained page. Highcharts (inlined from node_modules) draws
// the charts from the report data, which travels as JSON in the page
// (lib/report/browser.js); the tables and prose are rendered here, each section by its
// experiment (experiments/<name>/report.js). Everything opens from disk: no server, no
// network (the page's Content-Security-Policy forbids any fetch).
const fs = require('node:fs')
const path = require('node:path')
const { jsonForScript } = require('./format')
const { Markup, html } = require('./markup')
const { machinesHtml, machinesChart, failedTargetsHtml } = require('./machines-text')

const ROOT = path.resolve(__dirname, '..', '..')

// ---- the page ----

const STYLE = `
:root { --ink: #1d2330; --muted: #5b6475; --line: #dfe3ea; --panel: #ffffff; --page: #f4f6f9; --accent: #2f6fde; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--page); color: var(--ink); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
header { background: #1d2330; color: #fff; padding: 28px 32px 20px; }
header h1 { margin: 0 0 6px; font-size: 26px; font-weight: 650; }
header p { margin: 0; color: #c9d1e0; }
nav { display: flex; flex-wrap: wrap; gap: 4px 18px; margin-top: 14px; }
nav a { color: #9ec2ff; text-decoration: none; font-size: 14px; }
nav a:hover { text-decoration: underline; }
main { max-width: 1240px; margin: 0 auto; padding: 20px 24px 40px; }
section { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 20px 24px; margin: 0 0 20px; }
h2 { margin: 0 0 8px; font-size: 20px; }
h3 { margin: 18px 0 6px; font-size: 16px; }
.note { color: var(--muted); font-size: 14px; margin: 4px 0 12px; }
/* how far the answer can be trusted, under its heading */
p.trust { margin: 0 0 10px; }
.why { background: #fff8e6; border-left: 4px solid #e0a800; padding: 8px 12px; margin: 10px 0; }
.chart { height: 440px; min-width: 0; }
.chart.small { height: auto; min-height: 320px; }
.chart.tall { height: 460px; }
.chart.flame { height: auto; min-height: 300px; }
.flame-controls { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; margin: 16px 0 0; }
.flame-controls select { font: inherit; font-size: 14px; padding: 3px 6px; }
.grid { display: grid; gap: 18px; }
.grid.two { grid-template-columns: repeat(auto-fit, minmax(min(440px, 100%), 1fr)); }
.grid.three { grid-template-columns: repeat(auto-fit, minmax(min(340px, 100%), 1fr)); }
#chart-headline { height: auto; }
.grid.multiples { grid-template-columns: repeat(auto-fit, minmax(min(420px, 100%), 1fr)); }
.grid.multiples .chart { height: 340px; }
ul.findings.lead { font-size: 1.05em; }
tr.baseline th, tr.baseline td { font-weight: 600; }
tr.disagree td, tr.disagree th { background: #fff4e5; }
.never-collected { margin: 8px 0; }
.toggle { display: inline-flex; flex-wrap: wrap; max-width: 100%; align-items: center; gap: 0; margin: 4px 0 10px; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
.toggle-label { padding: 4px 10px; color: var(--muted); font-size: 13px; background: #f7f8fb; border-right: 1px solid var(--line); }
.toggle button { font: inherit; font-size: 14px; border: 0; border-right: 1px solid var(--line); background: #fff; color: var(--ink); padding: 5px 14px; cursor: pointer; }
.toggle button:last-child { border-right: 0; }
.toggle button[aria-pressed="true"] { background: var(--accent); color: #fff; }
ul.findings { margin: 6px 0 0; padding-left: 20px; }
ul.findings li { margin: 6px 0; }
ul.plain { list-style: none; padding: 0; margin: 6px 0; }
ul.plain li { margin: 6px 0; }
.table-wrap { overflow-x: auto; margin: 10px 0; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
caption { text-align: left; font-weight: 600; padding: 4px 0 8px; }
th, td { padding: 6px 10px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
thead th { background: #f7f8fb; font-weight: 600; border-bottom: 2px solid var(--line); }
tbody tr:nth-child(even) { background: #fafbfd; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
/* cells of a wide table that may take two lines rather than push it past the page */
.num.wraps { white-space: normal; }
/* a reason a figure is not quoted, in a column of figures: a few lines of reading width */
td.reason { min-width: 14em; max-width: 24em; text-align: left; }
.marks { white-space: normal; }
tbody th[scope=row], tbody th[scope=rowgroup] { white-space: nowrap; }
/* a table wider than the page scrolls sideways under its first column, which stays, so that
   every row keeps its name */
.table-wrap tr > :first-child { position: sticky; left: 0; z-index: 1; background: var(--panel); }
.table-wrap thead tr > :first-child { background: #f7f8fb; }
.table-wrap tbody tr:nth-child(even) > :first-child { background: #fafbfd; }
.table-wrap tr.disagree > :first-child { background: #fff4e5; }
table.context th[scope=row] { width: 210px; color: var(--muted); font-weight: 500; white-space: normal; }
table.grouped tbody tr { background: none; }
tr.group-start > * { border-top: 2px solid var(--line); }
td.file { color: var(--muted); font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
td.failed { color: #a4262c; }
.mbps { font-weight: 600; }
.pct { color: var(--muted); margin-left: 6px; }
.interval { color: var(--muted); margin-left: 4px; font-size: 13px; }
.unit { color: var(--muted); font-size: 12px; }
.set { color: var(--muted); font-weight: 400; font-size: 12px; }
td.describes { min-width: 12em; max-width: 16em; font-size: 13px; }
td.describes code { word-break: break-all; }
.num.wraps .interval { display: block; margin-left: 0; }
/* an interval of a share, "(90.8–96.6%)", or a size, "256 B", read as one: never broken */
.interval.whole, td.whole { white-space: nowrap; }
.num.wraps .flag { margin-left: 0; }
/* a table of many figures a row (nine block sizes, a dozen buckets): closer columns, so that
   it fits a laptop's page without scrolling */
table.dense th, table.dense td { padding: 6px 5px; }
table.dense .interval { font-size: 12px; }
/* a flag of two words there ("start-up dominated") may take two lines rather than widen every
   column it heads: a run with many such cells pushed nine sizes past 1280 px */
table.dense .flag { white-space: normal; }
.interval.disagrees { color: #a4262c; }
/* a long column heading takes two lines rather than widen its column past its figures */
thead th.num { white-space: normal; min-width: 5em; }
.badge { display: inline-block; font-size: 11px; line-height: 1.5; padding: 0 6px; margin-left: 4px; border-radius: 9px; background: #fff1cc; color: #7a5600; white-space: nowrap; }
.flag { display: inline-block; font-size: 11px; line-height: 1.5; padding: 0 6px; margin-left: 6px; border-radius: 9px; background: #eef0f4; color: #444c5c; white-space: nowrap; }
.flag-noisy { background: #fff1cc; color: #7a5600; }
.flag-feeder-bound { background: #e3ecff; color: #1f4fa8; }
.flag-reader-waited { background: #e2f4ec; color: #1d6b4a; }
.flag-startup-dominated { background: #ece6ff; color: #4b3a99; }
.flag-steal { background: #f3e8dc; color: #7a4a14; }
.flag-failed, .flag-some-runs-failed { background: #fde2e2; color: #a4262c; }
.flag-ok { background: #e2f4ec; color: #1d6b4a; }
ul.failures code { font-size: 12px; color: var(--muted); word-break: break-all; }
footer { color: var(--muted); font-size: 13px; text-align: center; padding: 0 24px 30px; }
/* a phone's width: one column, less padding, so that the charts keep the room */
@media (max-width: 600px) {
  header { padding: 18px 16px 14px; }
  main { padding: 12px 8px 24px; }
  section { padding: 14px 12px; }
  header h1 { font-size: 21px; overflow-wrap: anywhere; }
}
`

// The page's own script: lib/report/browser.js, the experiment's page module
// (report.browser) and every module they require, each wrapped as the CommonJS module it is
// with a require() that gives it the modules it names (resolved here: the page has no files
// to look in), then drawReport() on the page's data with the experiment's drawings.
function pageScript (experiment, browserModule) {
  const entry = path.join(__dirname, 'browser.js')
  const idOf = file => path.relative(ROOT, file)
  // every module the two reach, by the require() calls in their sources
  const files = []
  const sources = new Map()
  const visit = file => {
    if (sources.has(file)) return
    const source = fs.readFileSync(file, 'utf8')
    sources.set(file, source)
    for (const [, name] of source.matchAll(/require\('([^']+)'\)/g)) {
      if (!name.startsWith('.')) throw new Error(`${idOf(file)} requires ${name}, which the page cannot carry`)
      visit(require.resolve(name, { paths: [path.dirname(file)] }))
    }
    files.push(file)
  }
  visit(entry)
  visit(browserModule)
  const modules = files.map(file => {
    const source = sources.get(file)
    const requires = Object.fromEntries([...source.matchAll(/require\('([^']+)'\)/g)]
      .map(([, name]) => [name, idOf(require.resolve(name, { paths: [path.dirname(file)] }))]))
    return `modules[${JSON.stringify(idOf(file))}] = { requires: ${JSON.stringify(requires)}, run: (module, require) => {\n${source}\n} }`
  })
  const script = `(() => {
const modules = {}
const load = id => {
  const entry = modules[id]
  if (!entry.module) {
    entry.module = { exports: {} }
    entry.run(entry.module, name => load(entry.requires[name]))
  }
  return entry.module.exports
}
${modules.join('\n')}
load(${JSON.stringify(idOf(entry))}).drawReport({ ${JSON.stringify(experiment)}: load(${JSON.stringify(idOf(browserModule))}).drawings })
})()`
  // "<script" and "</script" in the sources' comments and strings would change how the
  // page's parser reads the element: in a string or a regular expression \x73 reads as
  // an "s", and in a comment it is only text.
  return script.replace(/<(\/?)script/gi, '<$1\\x73cript')
}

function renderHtml (data, assets) {
  const { version, scripts } = assets.highcharts
  // A literal "</script" inside the library would end the element early.
  const library = scripts.map(script => `/* highcharts/${script.name} ${version} */\n${script.text.replace(/<\/script/gi, '<\\/script')}`).join('\n;\n')
  const experimentSections = data.report.sections
  const sections = data.machines
    ? [['machines', 'Across machines', () => machinesHtml(data.machines), () => machinesChart(data.machines)], ...experimentSections]
    : experimentSections
  // The charts need only their series; the tables are already in the markup.
  const pageData = {
    experiment: data.experiment,
    charts: Object.fromEntries(sections.filter(([, , , charts]) => charts).map(([id, , , charts]) => [id, charts(data)]))
  }
  const subtitle = data.compare ? `${data.sets.length} result sets compared: ${data.sets.join(', ')}` : data.subtitle
  // a section with nothing to show renders nothing, and gets no link
  const rendered = sections.map(([id, name, render]) => ({ id, name, markup: render(data) }))
  const shown = rendered.filter(section => String(section.markup?.text ?? section.markup ?? '').trim() !== '')
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:">
<title>${data.title}</title>
<style>${new Markup(STYLE)}</style>
</head>
<body>
<header>
  <h1>${data.title}</h1>
  <p>${subtitle}</p>
  <nav aria-label="sections">
    ${shown.map(({ id, name }) => html`<a href="#${id}">${name}</a>`)}
  </nav>
</header>
<main>
${failedTargetsHtml(data.failedTargets)}
${shown.map(section => section.markup)}
</main>
<footer>Written by analyse.js from ${data.contexts.map(context => context.dir ?? context.label).join(', ')}. Charts: Highcharts ${version}, inlined; use a chart's menu to save it as PNG or SVG.</footer>
<script type="application/json" id="report-data">${new Markup(jsonForScript(pageData))}</script>
<script>${new Markup(library)}</script>
<script>${new Markup(pageScript(data.experiment, data.report.browser))}</script>
</body>
</html>
`
  return page.text
}

module.exports = { renderHtml }
