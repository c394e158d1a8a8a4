'use strict'
// The reports as a new reader opens them (issue 49): each run's report.html made by
// analyse.js, opened from disk in Chromium at each width, and measured where it is laid out
// (lib/report/geometry.js): how far down the first chart starts and how many words come
// before it, the charts that hide part of themselves, series drawn alike, what scrolls
// sideways, and every console warning or error; each size panel too, as its buttons show it.
// A page that does not read at a glance by the lab's own limits (geometry.js glanceFaults,
// which the tests hold the pages to) is named, and the command exits 1. A screenshot of each
// page's first screen goes into --out.
//
//   node studies/pages.js [--out DIR] [--widths 1280,390] [RESULTS_FOLDER ...]
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { pathToFileURL } = require('node:url')
const { parseCommandLine, refuseEmpty } = require('../lib/option-schema')
const { UsageError, firstRepeat } = require('../lib/options')
const { outFolderOption } = require('./per-read')
const { runCli, RunFailed } = require('../lib/cli')
const { measurePage, glanceFaults, panelFaults, GLANCE } = require('../lib/report/geometry')

const ROOT = path.resolve(__dirname, '..')
const CHROMIUM = '/usr/bin/chromium'
const REFERENCES = ['reference', 'reference-calls', 'reference-http', 'reference-db']
  .map(name => path.join(ROOT, 'results', name))
const HEIGHT = 800

const USAGE = `usage: node studies/pages.js [options] [RESULTS_FOLDER ...]
  each run's report measured in Chromium as a reader sees it (default: the four references)
  --out DIR        where the reports and screenshots go (default: a folder in /tmp)
  --widths LIST    the window's widths in px, 800 px tall (default 1280,390)
  --help           this text`

function parse (argv) {
  const rows = [{ name: 'out', type: 'string', takes: 'a folder' },
    { name: 'widths', type: 'string', takes: 'widths in px, such as 1280,390' },
    { name: 'help', type: 'boolean' }]
  const { values, positionals } = parseCommandLine(argv, rows, { tool: 'studies/pages.js', positionals: true })
  if (values.help) return { help: true }
  // an empty --out was once the current folder: the reports went into the checkout
  refuseEmpty(values, rows)
  const given = (values.widths ?? '1280,390').split(',')
  const widths = given.map(Number)
  // digits only, as the lab's other counts (1e3 and 0x500 are numbers to Number());
  // Chromium refuses a window much wider than a screen with a protocol error
  if (given.some(width => !/^\d+$/.test(width)) || widths.some(width => width < 200 || width > 7680)) {
    throw new UsageError(`--widths takes whole numbers of px from 200 to 7680, not '${values.widths}'`)
  }
  const twice = firstRepeat(widths)
  if (twice) throw new UsageError(`--widths names ${twice} twice; name each width once`)
  for (const folder of positionals) {
    if (!fs.existsSync(folder)) throw new UsageError(`${folder} does not exist; name a run's folder`)
    if (!fs.existsSync(path.join(folder, 'results.json'))) {
      throw new UsageError(`${folder} has no results.json; name a run's folder`)
    }
  }
  const out = outFolderOption(values.out)
  if (!fs.existsSync(CHROMIUM)) throw new UsageError(`${CHROMIUM} is missing: apt-get install -y chromium`)
  return {
    folders: positionals.length ? positionals.map(folder => path.resolve(folder)) : REFERENCES,
    out,
    widths
  }
}

// Each folder's name in --out: its own, or with its place in the list where two share one
// (two runs named c1 once wrote one report over the other).
function namesOf (folders) {
  const base = folders.map(folder => path.basename(folder))
  return base.map((name, i) => (base.indexOf(name) === base.lastIndexOf(name) ? name : `${name}-${i + 1}`))
}

// Each folder's report.html, made by analyse.js. Its refusal of a folder (a corrupt or
// unreadable run, exit 2) is this command's too, said once in its words; any other failure is
// analyse.js's own.
function report (folder, name, out) {
  const target = path.join(out, name)
  const argv = [path.join(ROOT, 'analyse.js'), folder, '--out', target]
  const made = spawnSync(process.execPath, argv, { encoding: 'utf8' })
  const said = made.stderr.trim().replace(/^analyse\.js: /, '')
  if (made.status === 2) throw new UsageError(said)
  if (made.status !== 0) throw new RunFailed(`analyse.js ${folder} failed: ${said}`)
  return path.join(target, 'report.html')
}

async function run ({ folders, out: given, widths }) {
  // made when the work starts, so that a refused command leaves no folder behind, and
  // removed if no report could be made in it
  const out = given ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pages-'))
  let files
  try {
    const names = namesOf(folders)
    files = folders.map((folder, i) => [names[i], report(folder, names[i], out)])
  } catch (err) {
    if (!given) fs.rmSync(out, { recursive: true, force: true })
    throw err
  }
  const { chromium } = require('playwright-core')
  const args = ['--headless', '--no-sandbox', '--disable-gpu']
  const browser = await chromium.launch({ executablePath: CHROMIUM, args })
  const rows = []
  try {
    for (const [name, file] of files) {
      for (const width of widths) {
        const context = await browser.newContext({ viewport: { width, height: HEIGHT } })
        const page = await context.newPage()
        const said = []
        page.on('console', message => {
          if (['warning', 'error'].includes(message.type())) said.push(`${message.type()}: ${message.text()}`)
        })
        page.on('pageerror', err => said.push(`page error: ${err.message}`))
        await page.goto(pathToFileURL(file).href)
        try {
          await page.waitForFunction(() => document.body.dataset.chartsReady === 'true', null, { timeout: 30000 })
        } catch (err) {
          throw new RunFailed(`${file} at ${width} px: its charts were not drawn within 30 s ` +
            `(${err.message.split('\n')[0]}${said.length ? `; the page said: ${said[0]}` : ''})`)
        }
        const shot = path.join(out, `${name}-${width}.png`)
        await page.screenshot({ path: shot })
        const seen = await measurePage(page)
        // the lab's own limits (lib/report/geometry.js), the page's and each size panel's
        const faults = [...glanceFaults(seen, width), ...await panelFaults(page, width), ...said]
        rows.push({ page: name, width, ...seen, said, faults, shot })
        await context.close()
      }
    }
  } finally {
    await browser.close()
  }
  print(rows)
  // a page that does not read at a glance fails the command, as it fails the tests
  const failing = rows.filter(row => row.faults.length)
  process.stdout.write(failing.length
    ? `\n${failing.length} of ${rows.length} pages do not read at a glance: ` +
      `${failing.map(row => `${row.page} at ${row.width} px`).join(', ')}\n`
    : `\nall ${rows.length} pages read at a glance\n`)
  return failing.length ? 1 : 0
}

function print (rows) {
  const head = ['page', 'width', 'words before', 'answer at', 'its key ends', 'its scale ends', 'charts',
    'clipped', 'figures hidden', 'labels cut short', 'labels overlapping', 'untitled axes', 'alike',
    'runtimes coloured',
    'hue faults', 'runtime hues elsewhere', 'page scrolls', 'tables scroll', 'console', 'faults']
  const px = value => (value === null ? '–' : `${value} px`)
  const lines = rows.map(row => [row.page, row.width, row.wordsBefore, px(row.answerTop), px(row.answerKeyEnds),
    px(row.answerScaleEnds), row.charts, row.clipped.length, row.hiddenFigures.length, row.shortened.length,
    row.overlapping.length,
    row.untitled.length, row.alike.length, row.runtimesWithHues, row.hues.length, row.echoes.length,
    row.pageScrollsSideways ? 'yes' : 'no', row.scrollingTables.length, row.said.length, row.faults.length])
  const table = [head, head.map(() => '--:'), ...lines].map(cells => `| ${cells.join(' | ')} |`)
  process.stdout.write(`${table.join('\n')}\n`)
  for (const row of rows) {
    // at a phone's width a table may scroll; said, not a fault
    const scrolls = row.width < GLANCE.TABLES_WHOLE_FROM
      ? row.scrollingTables.map(line => `scrolls (allowed at this width) ${line}`)
      : []
    const details = [...row.faults, ...scrolls]
    if (details.length === 0) continue
    process.stdout.write(`\n${row.page} at ${row.width} px:\n${details.map(line => `  ${line}`).join('\n')}\n`)
  }
  process.stdout.write(`\nscreenshots: ${path.dirname(rows[0]?.shot ?? '.')}\n`)
}

if (require.main === module) runCli({ name: 'pages.js', usage: USAGE, parse, run })
