'use strict'
/* global Node, NodeFilter */
// What a reader sees of a report at a glance, measured in the browser: how far down the
// answer (the first chart) starts and how many words come before it, the charts that hide
// part of themselves, the bars' figures hidden, the labels cut short or written over each
// other, the series a reader cannot tell apart, a runtime's hue from chart to chart, and what
// scrolls sideways. The page tests and studies/pages.js measure with it; page is a Playwright
// page with the report loaded.

const { FAMILIES } = require('./looks')

// Runs in the page: every figure is read from the laid-out page, none from the report's data.
// families: [{ key, hue }], the runtimes' hues (lib/report/looks.js), which the page's code
// keeps inside its modules.
function measureInPage (families) {
  // the fewest px of plot a category (a bar and its gap) is readable in
  const MIN_CATEGORY_PX = 12
  // the answer: the first chart, or the note that says why the page opens without one
  // (a run without a cost pass)
  const answer = document.querySelector('.chart, main > section:first-of-type > .why')
  const visible = element => element && element.checkVisibility({ visibilityProperty: true, opacityProperty: true })

  // the words a reader passes before the first chart, header included
  let wordsBefore = 0
  if (answer) {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (answer.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING) break
      if (answer.contains(node) || !visible(node.parentElement)) continue
      if (node.parentElement.closest('script, style')) continue
      wordsBefore += (node.textContent.match(/\S+/g) ?? []).length
    }
  }

  const inside = (box, element) => {
    const rect = element.getBoundingClientRect()
    if (rect.width === 0 && rect.height === 0) return true
    return rect.top >= box.top - 1 && rect.bottom <= box.bottom + 1 &&
      rect.left >= box.left - 1 && rect.right <= box.right + 1
  }
  // the charts on show: one in a hidden panel (a block size behind its button) is measured
  // when its button shows it
  const charts = Highcharts.charts.filter(chart => chart && visible(chart.renderTo))
  // a chart hides what its box cuts off: category and value labels, axis titles, its legend
  const clipped = charts.flatMap(chart => {
    const box = chart.renderTo.getBoundingClientRect()
    const parts = chart.axes.flatMap(axis => [
      ...Object.values(axis.ticks).map(tick => tick.label?.element),
      axis.axisTitle?.element
    ]).filter(element => element && visible(element))
    const cut = parts.filter(element => !inside(box, element)).map(element => element.textContent)
    // the legend by the place it is given: a paged legend's group holds its hidden pages too
    const legend = chart.legend
    if (legend?.display && legend.group) {
      const svg = chart.container.getBoundingClientRect()
      const left = svg.left + legend.group.translateX
      const top = svg.top + legend.group.translateY
      if (left < box.left - 1 || top < box.top - 1 || left + legend.legendWidth > box.right + 1 ||
        top + legend.legendHeight > box.bottom + 1) cut.push('the legend')
    }
    // a plot squeezed by its titles and legend: too little of it a category to read a bar by
    const squeezed = chart.axes
      .filter(axis => axis.categories?.length && axis.len / axis.categories.length < MIN_CATEGORY_PX)
    for (const axis of squeezed) cut.push(`${Math.round(axis.len)} px of plot for ${axis.categories.length} categories`)
    // a legend in pages hides the keys of its other pages
    if (legend?.display && legend.pages?.length > 1) cut.push(`the legend, in ${legend.pages.length} pages`)
    const taller = box.height + 1 < chart.chartHeight
    return taller || cut.length > 0
      ? [`${chart.renderTo.id}: ${taller ? `${chart.chartHeight} px in a box of ${Math.round(box.height)}; ` : ''}` +
        `${cut.length} parts cut${cut.length ? ` (${cut.slice(0, 3).join(', ')})` : ''}`]
      : []
  })
  // a bar's figure written on the chart (a data label) that Highcharts hid where it would
  // have run into another, or that the chart's box cuts off: a value a reader cannot read
  // or that sits on the whisker it is written beside
  const overlaps = (a, b) =>
    a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1
  const onWhisker = (series, point, label) => series.type === 'errorbar' &&
    [point.stem, point.whiskers].some(part => part?.element &&
      overlaps(label.element.getBoundingClientRect(), part.element.getBoundingClientRect()))
  const hiddenFigures = charts.flatMap(chart => {
    const box = chart.renderTo.getBoundingClientRect()
    return chart.series.flatMap(series => series.points.flatMap(point => (point.dataLabels ?? [])
      .filter(label => label.element?.textContent && series.visible !== false)
      .filter(label => label.opacity === 0 || label.visibility === 'hidden' || !inside(box, label.element) ||
        onWhisker(series, point, label))
      .map(label => `${chart.renderTo.id}: ${series.name}'s "${label.element.textContent}"`)))
  })
  // a tick's label Highcharts shortened to fit, to "…" ("8…" for 850, "node-fs-…" for
  // node-fs-binding) or by the lines past its clamp ("■" for "■ c-blocking"): a scale or a name
  // that cannot be read. Its full text is markup (a name's hue, escaped characters); a label
  // cut short keeps it in a title, which is not shown.
  const textOf = markup => {
    const holder = document.createElement('div')
    holder.innerHTML = markup
    return holder.textContent
  }
  // Highcharts writes a zero-width space where it breaks a name after a hyphen
  const letters = text => text.replace(/[\s\u200b]+/g, '')
  const shownText = element => [...element.childNodes]
    .filter(node => node.nodeName !== 'title').map(node => node.textContent).join('')
  const shortened = charts.flatMap(chart => chart.axes.flatMap(axis => Object.values(axis.ticks)
    .map(tick => tick.label)
    .filter(label => label?.element && visible(label.element))
    .map(label => ({ full: textOf(String(label.textStr ?? '')), shown: shownText(label.element) }))
    .filter(({ full, shown }) => letters(shown) !== letters(full))
    .map(({ full }) => `${chart.renderTo.id}: "${full}"`)))
  // a category's label that runs into the next one's: names written over each other (a name
  // set on more lines than its category has room for). Slanted labels' boxes overlap where
  // their text does not, and Highcharts spaces those itself.
  const upright = axis => axis.categories && !axis.labelRotation
  const overlapping = charts.flatMap(chart => chart.axes.filter(upright).flatMap(axis => {
    const boxes = Object.values(axis.ticks).map(tick => tick.label?.element)
      .filter(element => element && visible(element))
      .map(element => ({ text: shownText(element), box: element.getBoundingClientRect() }))
      .sort((a, b) => (axis.horiz ? a.box.left - b.box.left : a.box.top - b.box.top))
    return boxes.slice(1).flatMap((label, i) => {
      const before = boxes[i].box
      const into = axis.horiz ? before.right - label.box.left : before.bottom - label.box.top
      return into > 1 ? [`${chart.renderTo.id}: "${boxes[i].text}" into "${label.text}" by ${Math.round(into)} px`] : []
    })
  }))
  // a value axis (not one of categories) without a title says no unit; one linked to
  // another repeats that one's scale, whose title says it
  const untitled = charts.flatMap(chart => chart.axes
    .filter(axis => !axis.categories && axis.visible !== false && axis.options.visible !== false)
    .filter(axis => axis.options.linkedTo === undefined)
    .filter(axis => !axis.axisTitle?.textStr)
    .map(axis => `${chart.renderTo.id}: its ${axis.isXAxis ? 'x' : 'y'} axis`))
  // two series of one chart drawn alike: same colour, dash, marker and kind
  const alike = charts.flatMap(chart => {
    const seen = new Map()
    return chart.series
      .filter(series => !series.options.linkedTo && series.visible !== false && series.type !== 'errorbar')
      .flatMap(series => {
        const marker = series.options.marker?.symbol ?? series.symbol ?? ''
        const look = `${series.color} ${series.options.dashStyle ?? 'Solid'} ${series.type} ${marker}`
        const other = seen.get(look)
        seen.set(look, series.name)
        return other ? [`${chart.renderTo.id}: ${other} and ${series.name} (${look})`] : []
      })
  })
  // a runtime's hue: the same in every chart (its first set or group: later ones are
  // lighter), and no two families in one hue
  const huesOf = new Map()
  const familiesOf = new Map()
  for (const chart of charts) {
    for (const series of chart.series) {
      const points = series.points.filter(point => point.options.custom?.runtime)
        .map(point => ({ custom: point.options.custom, color: point.color }))
      const drawn = series.options.custom?.runtime
        ? [{ custom: series.options.custom, color: series.color }]
        : points
      for (const { custom, color } of drawn.filter(each => each.custom.group === 0)) {
        huesOf.set(custom.runtime, (huesOf.get(custom.runtime) ?? new Set()).add(color))
        familiesOf.set(color, (familiesOf.get(color) ?? new Set()).add(custom.family))
      }
    }
  }
  const hues = [
    ...[...huesOf].filter(([, colors]) => colors.size > 1)
      .map(([runtime, colors]) => `${runtime} drawn in ${[...colors].join(', ')}`),
    ...[...familiesOf].filter(([, families]) => families.size > 1)
      .map(([color, families]) => `${[...families].join(' and ')} share ${color}`)
  ]
  // a segment, a call, a process or a marker that is not a runtime drawn in a runtime family's
  // hue (CIE76 ΔE under ECHO_DELTA_E): a reader who has learnt that Node is green reads a green
  // segment as Node. Greys and black are neutral (C's grey among them) and not counted; nor are
  // the flame graphs (xrange), whose red and blue are the differential flame graph's own.
  const ECHO_DELTA_E = 20
  const labOf = colour => {
    const hex = /^#([0-9a-f]{6})$/i.exec(colour)
    const rgb = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/i.exec(colour)
    const channels = hex
      ? [0, 2, 4].map(at => parseInt(hex[1].slice(at, at + 2), 16))
      : rgb ? rgb.slice(1, 4).map(Number) : null
    if (!channels) return null
    const [r, g, b] = channels.map(value => value / 255)
      .map(value => (value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4))
    const f = t => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116)
    const [x, y, z] = [(r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047, r * 0.2126 + g * 0.7152 + b * 0.0722,
      (r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883].map(f)
    return [116 * y - 16, 500 * (x - y), 200 * (y - z)]
  }
  const familyLabs = (families ?? []).map(family => ({ ...family, lab: labOf(family.hue) }))
    .filter(family => Math.hypot(family.lab[1], family.lab[2]) >= 12)
  const echoes = charts.flatMap(chart => chart.series
    .filter(series => !series.options.linkedTo && series.type !== 'errorbar' && series.type !== 'xrange')
    .filter(series => !series.options.custom?.runtime && !series.options.custom?.family)
    .filter(series => !series.points.some(point => point.options.custom?.runtime))
    .flatMap(series => {
      const colours = [...new Set([series.color, ...series.points.map(point => point.options.color)]
        .filter(colour => typeof colour === 'string'))]
      return colours.flatMap(colour => {
        const lab = labOf(colour)
        if (!lab || Math.hypot(lab[1], lab[2]) < 12) return []
        const deltaE = family => Math.hypot(...lab.map((value, i) => value - family.lab[i]))
        const near = familyLabs.find(family => deltaE(family) < ECHO_DELTA_E)
        return near ? [`${chart.renderTo.id}: ${series.name} in ${colour}, as ${near.key}'s ${near.hue}`] : []
      })
    }))
  // tables wider than their place, so that some columns are out of sight (and a caption as
  // wide as its table cut off mid-word), each named by its caption or its first heading
  const scrollingTables = [...document.querySelectorAll('table')]
    .filter(table => visible(table))
    .filter(table => {
      const place = table.closest('.table-wrap') ?? table.parentElement
      return place.scrollWidth > place.clientWidth + 1
    })
    .map(table => (table.caption?.textContent ?? table.querySelector('th')?.textContent ?? '')
      .replace(/\s+/g, ' ').trim().slice(0, 80))
  // how far down the answer chart's key (its legend) and its value scale (the highest row of
  // a value axis's labels) end: a reader needs both to read the bars on the first screen
  const answerChart = charts.find(chart => chart.renderTo === answer)
  const pageBottom = element => Math.round(element.getBoundingClientRect().bottom + window.scrollY)
  const answerKeyEnds = answerChart?.legend?.display && answerChart.legend.group
    ? pageBottom(answerChart.legend.group.element)
    : null
  const scaleRows = (answerChart?.axes ?? [])
    .filter(axis => !axis.categories && axis.visible !== false && axis.labelGroup?.element.childElementCount > 0)
    .map(axis => pageBottom(axis.labelGroup.element))
  const answerScaleEnds = scaleRows.length ? Math.min(...scaleRows) : null
  // and the line that says how far the answer can be trusted (lib/report/markup.js trustLine)
  const trust = document.querySelector('main > section:first-of-type > p.trust')
  const trustEnds = trust ? pageBottom(trust) : null
  return {
    answerTop: answer ? Math.round(answer.getBoundingClientRect().top + window.scrollY) : null,
    answerKeyEnds,
    answerScaleEnds,
    trustEnds,
    wordsBefore,
    charts: charts.length,
    clipped,
    hiddenFigures,
    shortened,
    overlapping,
    alike,
    untitled,
    runtimesWithHues: huesOf.size,
    hues,
    echoes,
    pageScrollsSideways: document.documentElement.scrollWidth > document.documentElement.clientWidth + 1,
    scrollingTables,
    // links within the page that lead nowhere on it
    dangling: [...document.querySelectorAll('a[href^="#"]')]
      .map(link => link.getAttribute('href').slice(1)).filter(id => id && !document.getElementById(id))
  }
}

function measurePage (page) {
  return page.evaluate(measureInPage, FAMILIES.map(({ key, hue }) => ({ key, hue })))
}

// What a page is held to, at a glance (issue 49): its answer, with its key, scale and trust
// line, on a first screen of SCREEN_PX; at most WORDS_BEFORE words before it; every table
// whole from TABLES_WHOLE_FROM px wide (a phone's may scroll under a sticky first column).
const GLANCE = { SCREEN_PX: 800, WORDS_BEFORE: 100, TABLES_WHOLE_FROM: 1280 }

// The faults of a page measured by measurePage at `width`, a line each; [] where it reads at
// a glance. panel: a chart panel shown by a size button, whose own charts alone are judged.
function glanceFaults (seen, width, { panel = false } = {}) {
  const faults = []
  const listed = (name, lines) => faults.push(...lines.map(line => `${name}: ${line}`))
  listed('clipped', seen.clipped)
  listed('figure hidden', seen.hiddenFigures)
  listed('label cut short', seen.shortened)
  listed('labels overlapping', seen.overlapping)
  listed('series alike', seen.alike)
  listed('a runtime\'s hue elsewhere', seen.echoes)
  if (panel) return faults
  if (seen.answerTop === null || seen.answerTop >= GLANCE.SCREEN_PX) {
    faults.push(`the answer starts ${seen.answerTop ?? 'nowhere'} px down, past the first ${GLANCE.SCREEN_PX}`)
  }
  const parts = [['key', seen.answerKeyEnds], ['scale', seen.answerScaleEnds], ['trust line', seen.trustEnds]]
  for (const [part, ends] of parts) {
    if (ends !== null && ends > GLANCE.SCREEN_PX) faults.push(`the answer's ${part} ends ${ends} px down`)
  }
  if (seen.wordsBefore > GLANCE.WORDS_BEFORE) {
    faults.push(`${seen.wordsBefore} words before the answer, over ${GLANCE.WORDS_BEFORE}`)
  }
  listed('axis untitled', seen.untitled)
  listed('hue', seen.hues)
  if (seen.pageScrollsSideways) faults.push('the page scrolls sideways')
  listed('link to nothing on the page', seen.dangling.map(id => `#${id}`))
  if (width >= GLANCE.TABLES_WHOLE_FROM) listed('table scrolls', seen.scrollingTables)
  return faults
}

// The size buttons of the page's chart panels, each as { group, size }.
function sizeButtons (page) {
  return page.evaluate(() => [...document.querySelectorAll('[data-size-group]')]
    .filter(group => document.querySelector(`[data-size-panel="${group.dataset.sizeGroup}"] .chart`))
    .flatMap(group => [...group.querySelectorAll('button[data-size]')]
      .map(button => ({ group: group.dataset.sizeGroup, size: button.dataset.size }))))
}

// Every size of every panel shown in turn, as its button shows it, and measured: the faults
// of each, as "GROUP at SIZE B: fault".
async function panelFaults (page, width) {
  const faults = []
  for (const { group, size } of await sizeButtons(page)) {
    await page.click(`[data-size-group="${group}"] button[data-size="${size}"]`)
    const shown = glanceFaults(await measurePage(page), width, { panel: true })
    faults.push(...shown.map(line => `${group} at ${size} B: ${line}`))
  }
  return faults
}

module.exports = { measurePage, glanceFaults, panelFaults, GLANCE }
