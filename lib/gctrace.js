'use strict'
// Parses V8's --trace-gc lines, as Node, Deno and the lab's host print them:
//   [5919:0x25ba1d10]  36 ms: Scavenge 4.0 (4.2) -> 3.4 (5.2) MB, 0.44 / 0.00 ms  (average mu = ...) task;
// Newer V8 (Deno) adds "pooled: N MB, " before the pause and may name the kind
// "Scavenge (interleaved)" or "Incremental Mark-Compact".

// A collection's generation by its kind's name: V8's scavenges and minor collections, and
// JavaScriptCore's Eden collections, take the young generation; the rest the old.
const generationOfKind = kind => (/scavenge|minor|^eden/i.test(kind) ? 'young' : 'old')

const LINE = /^\[(\d+):(0x[0-9a-f]+)\]\s+(\d+) ms: (.+?) ([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ ([\d.]+) ms(.*)$/
const REASON = /current mu = [\d.]+\)\s*(.*?);?\s*$/
// An incremental mark-compact's marking, done in steps on the main thread between the
// script's own work before its final pause: "(+ 2.0 ms in 29 steps since start of marking, …)".
// Each step stops JavaScript as the final pause does (JavaScriptCore's increments are summed
// alike), so a run's total pause holds them: 2.0 ms of node-bindings' 6.5 at 512 B. Its
// longest step ("biggest step 0.2 ms") is a pause of its own, read beside the final one: a
// step is usually far shorter, but nothing bounds it (a review, 2026-12-07).
const STEPS = /\(\+ ([\d.]+) ms in \d+ steps? since start of marking/
const BIGGEST_STEP = /biggest step ([\d.]+) ms/
// How long before its final pause the marking began: "walltime since start of marking 13 ms".
const MARKING_WALL = /walltime since start of marking ([\d.]+) ms/

function parseGcTrace (text) {
  const events = []
  for (const line of text.split('\n')) {
    const match = LINE.exec(line)
    if (!match) continue
    events.push({
      atMs: Number(match[3]),
      kind: match[4],
      generation: generationOfKind(match[4]),
      heapBeforeMB: Number(match[5]),
      committedBeforeMB: Number(match[6]),
      heapAfterMB: Number(match[7]),
      committedAfterMB: Number(match[8]),
      pauseMs: Number(match[9]),
      stepsMs: Number(STEPS.exec(match[11])?.[1] ?? 0),
      biggestStepMs: Number(BIGGEST_STEP.exec(match[11])?.[1] ?? 0),
      markingWallMs: Number(MARKING_WALL.exec(match[11])?.[1] ?? 0),
      reason: (REASON.exec(match[11])?.[1] ?? '').trim()
    })
  }
  return events
}

// totalPauseMs holds the incremental steps (stepsMs, of those it holds); maxPauseMs is the
// longest single pause, a final one or a marking step, whichever was longer (events parsed
// before steps were read have no biggestStepMs).
function summariseGc (events) {
  const byKind = {}
  const stopped = event => event.pauseMs + (event.stepsMs ?? 0)
  const longest = event => Math.max(event.pauseMs, event.biggestStepMs ?? 0)
  for (const event of events) {
    const kind = byKind[event.kind] ??= { count: 0, totalPauseMs: 0, maxPauseMs: 0 }
    kind.count++
    kind.totalPauseMs += stopped(event)
    kind.maxPauseMs = Math.max(kind.maxPauseMs, longest(event))
  }
  const pauses = events.map(longest)
  return {
    collections: events.length,
    byKind,
    totalPauseMs: events.reduce((sum, event) => sum + stopped(event), 0),
    stepsMs: events.reduce((sum, event) => sum + (event.stepsMs ?? 0), 0),
    maxPauseMs: pauses.length ? Math.max(...pauses) : 0,
    maxHeapMB: events.length ? Math.max(...events.map(event => event.heapBeforeMB)) : 0,
    // [ms since the isolate started, heap before, heap after (MB), pause (ms), 'young' | 'old']
    timeline: events.map(event => [event.atMs, event.heapBeforeMB, event.heapAfterMB, event.pauseMs, event.generation])
  }
}

// A window's collections, its markings' steps cut at its start: the events printed in it (V8's,
// `events`, each stamped in ms of its isolate) and where the window began on that clock
// (`fromMs`). A marking that began before it printed its steps whole in it, those before it
// too: its steps are counted in the share of its wall time inside the window (they go on
// between the runs as well, in V8's idle-time tasks), its biggest step not at all (where it
// fell is not said), its final pause whole. Returns the events so cut, and how many markings
// were (markingsBegunBefore) and the step time left out (stepsLeftOutMs).
function collectionsAfter (events, fromMs) {
  let markingsBegunBefore = 0
  let stepsLeftOutMs = 0
  const cut = events.map(event => {
    // no steps, no wall time given, no stamp (JavaScriptCore's), or begun inside the window
    if (!(event.stepsMs > 0 && event.markingWallMs > 0) || event.atMs == null) return event
    if (event.atMs - event.markingWallMs >= fromMs) return event
    const inside = Math.min(1, Math.max(0, (event.atMs - fromMs) / event.markingWallMs))
    markingsBegunBefore++
    stepsLeftOutMs += event.stepsMs * (1 - inside)
    return { ...event, stepsMs: event.stepsMs * inside, biggestStepMs: 0 }
  })
  return { events: cut, markingsBegunBefore, stepsLeftOutMs }
}

// JavaScriptCore's collections as Bun prints them with BUN_JSC_logGC=1 (on stderr), one
// cycle from its START line to its END line:
//   [GC<0x…>: START M 8838kb => EdenCollection, … p=2.259251ms (max 2.259251)...]
//   [GC<0x…>: M a=0kb … p=0.765427ms (max 2.259251)...]
//   [GC<0x…>: M … => 6508kb, p=3.043772ms (max 3.043772), cycle 9.366561ms END]
// JavaScriptCore collects concurrently: the world stops only in a cycle's increments, each
// p= one such pause, so a cycle's pause is their sum, and its longest the largest. No
// timestamps: atMs is null.
const JSC_START = /START \S+ (\d+)kb => (\w+)Collection/
const JSC_PAUSE = /\bp=([\d.]+)ms/g
const JSC_END = /=> (\d+)kb, p=[\d.]+ms .*cycle ([\d.]+)ms END\]/
function parseJscGcLog (text) {
  const events = []
  let cycle = null
  for (const line of text.split('\n')) {
    if (!line.startsWith('[GC<')) continue
    const start = JSC_START.exec(line)
    if (start) cycle = { kind: `${start[2]} collection`, heapBeforeMB: Number(start[1]) / 1024, pauses: [] }
    if (!cycle) continue
    for (const pause of line.matchAll(JSC_PAUSE)) cycle.pauses.push(Number(pause[1]))
    const end = JSC_END.exec(line)
    if (!end) continue
    events.push({
      atMs: null,
      kind: cycle.kind,
      generation: generationOfKind(cycle.kind),
      heapBeforeMB: cycle.heapBeforeMB,
      heapAfterMB: Number(end[1]) / 1024,
      pauseMs: cycle.pauses.reduce((sum, pause) => sum + pause, 0),
      longestPauseMs: Math.max(...cycle.pauses),
      cycleMs: Number(end[2]),
      reason: ''
    })
    cycle = null
  }
  return events
}

// How many collections of the old generation a run's summary (summariseGc's) counts, or null
// where the run's collections were not traced.
function oldCollections (gc) {
  if (!gc?.byKind) return null
  return Object.entries(gc.byKind).filter(([kind]) => generationOfKind(kind) === 'old')
    .reduce((sum, [, kind]) => sum + kind.count, 0)
}

module.exports = { parseGcTrace, parseJscGcLog, summariseGc, oldCollections, collectionsAfter }
