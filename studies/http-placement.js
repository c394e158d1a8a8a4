'use strict'
// Where should wrk and an http server run so that the server's CPU per request holds
// still? Per placement, a session: every server started, checked and warmed up as
// bench.js does, then rounds of one 1 s wrk run of every server at every count of
// connections, keep-alive, in one order and the next round in the other. Every placement
// is measured in `--sessions` sessions, placement after placement, so that what a cell
// moved between two sessions minutes apart is the placement's repeatability:
//
//   shared   wrk and the server on one CPU, the last (as the cost pass puts dd and the
//            reader), closed loop: wrk sends a request as an answer comes back
//   apart    wrk on CPU 0, the server on the last, closed loop (bench.js until now)
//   paced    apart, each connection pausing between requests (wrk's Lua delay()) so
//            that the load offered is about --rate requests/s: no longer saturating,
//            though still closed-loop per connection
//   interleaved  shared, every server's run beside c-epoll's, the two pairs taking turns
//            in slices of 50 ms (experiments/http/interleave.js): C in the same moment
//
// Per placement, server and count: CPU per request (µs, median of the rounds), the CV of
// the rounds, the ratio to c-epoll's CPU per request round by round (median and CV),
// requests per wake-up of the server (requests over the timeslices its threads were
// given), its share of a CPU, and what each figure moved between sessions.
//
//   node studies/http-placement.js [--rounds 6] [--sessions 2] [--rate 10000]
//     [--placements interleaved,shared,apart,paced] [--raw FILE]
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { runCli } = require('../lib/cli')
const { wholeNumber, repeatCount } = require('../lib/options')
const { allowedCpus, placementPlan } = require('../lib/placement')
const { parseStudyOptions, studyLog, fixed } = require('./per-read')
const { httpSession, measureStep, PRESETS } = require('../experiments/http/measure')
const { servers, serverReason } = require('../experiments/http/servers')
const { median, summarise } = require('../lib/stats')

const SERVERS = ['c-epoll', 'just-epoll', 'node-net', 'bun', 'deno']
const COUNTS = [16, 128]

const USAGE = `usage: node studies/http-placement.js [--rounds N] [--sessions N] [--rate N] [--placements A,B] [--raw FILE]
  --rounds N     rounds of every server at every count per session (default 6)
  --placements A,B  of interleaved, shared, apart and paced (default all)
  --sessions N   sessions per placement, placement after placement (default 2)
  --rate N       the paced placement's offered requests/s (default 10000)
  --raw FILE     every run's record, a JSON line each
  --help         this text`

function parseOptions (argv) {
  const spec = { rounds: { type: 'string' }, sessions: { type: 'string' }, rate: { type: 'string' }, placements: { type: 'string' }, raw: { type: 'string' } }
  return parseStudyOptions(argv, spec, USAGE, values => {
    const placements = placementNames(values.placements)
    // the rate paces the paced placement alone: given without it, it would be said and not used
    if (values.rate !== undefined && !placements.includes('paced')) {
      throw new Error('--rate sets the paced placement\'s load, which ' +
        `--placements ${values.placements} leaves out: drop --rate, or add paced`)
    }
    // refused before a server starts where one of them, or wrk, cannot run (a review)
    for (const name of SERVERS) {
      const reason = serverReason(servers.find(server => server.name === name))
      if (reason) throw new Error(`cannot run the server ${name}: ${reason}`)
    }
    return {
      rounds: repeatCount(values.rounds ?? '6', 'rounds', 2),
      sessions: repeatCount(values.sessions ?? '2', 'sessions', 1),
      // wrk's pacing past a few hundred thousand a second is no rate this lab's servers answer
      rate: wholeNumber(values.rate ?? '10000', 'rate', 1, 10000000),
      placements,
      raw: values.raw ?? null
    }
  })
}

// wrk's delay() pauses a connection this many ms before each request: `connections`
// connections offer about `rate` requests/s (wrk takes whole milliseconds)
function pacingScript (dir, connections, rate) {
  const file = path.join(dir, `paced-${connections}.lua`)
  fs.writeFileSync(file, `function delay()\n  return ${Math.max(1, Math.round(1000 * connections / rate))}\nend\n`)
  return file
}

function placementsOf (cpus) {
  const { client, server } = placementPlan(cpus).http
  return {
    interleaved: { pin: { client: server, server }, interleaved: true },
    shared: { pin: { client: server, server } },
    apart: { pin: { client, server } },
    paced: { pin: { client, server }, paced: true }
  }
}

const PLACEMENT_NAMES = Object.keys(placementsOf([0, 1]))
function placementNames (text = PLACEMENT_NAMES.join(',')) {
  const names = text.split(',')
  const unknown = names.find(name => !PLACEMENT_NAMES.includes(name))
  if (unknown !== undefined) throw new Error(`--placements takes ${PLACEMENT_NAMES.join(', ')}, not '${unknown}'`)
  return names
}

const cv = values => values.length > 1 ? 100 * summarise(values).cv : null
const movePercent = (a, b) => 100 * Math.abs(a - b) / Math.min(a, b)

// Per server and count, this session's figures from its records.
function sessionFigures (records) {
  const figures = new Map()
  const cpuOf = record => record.server.cpuNs / record.wrk.requests / 1000
  for (const name of SERVERS) {
    for (const connections of COUNTS) {
      const own = records.filter(record => record.program === name && record.connections === connections)
      const reference = records.filter(record => record.program === SERVERS[0] && record.connections === connections)
      // interleaved: against the c-epoll pair that took turns with it; else its round's run
      const referenceCpu = record => record.partner
        ? record.partner.server.cpuNs / record.partner.wrk.requests / 1000
        : cpuOf(reference.find(other => other.round === record.round))
      const ratios = own.map(record => cpuOf(record) / referenceCpu(record))
      figures.set(`${name}\t${connections}`, {
        cpuUs: median(own.map(cpuOf)),
        cpuCv: cv(own.map(cpuOf)),
        ratio: name === SERVERS[0] ? null : median(ratios),
        ratioCv: name === SERVERS[0] ? null : cv(ratios),
        perWakeUp: median(own.map(record => record.wrk.requests / record.server.slices)),
        share: median(own.map(record => record.server.cpuNs / record.wallNs)),
        rate: median(own.map(record => record.runningNs ? record.wrk.requests / (record.runningNs / 1e9) : record.wrk.requestsPerSecond))
      })
    }
  }
  return figures
}

// log: the study's --raw log (studies/per-read.js studyLog), which keeps each run as it is measured.
async function measurePlacement ({ name, pin, paced, interleaved }, during) {
  const { rounds, rate, sessionIndex, dir, stopped, log } = during
  const options = { timeoutSeconds: 60, http: { ...PRESETS.default } }
  const session = httpSession(stopped)
  const picked = SERVERS.map(serverName => servers.find(server => server.name === serverName))
  const records = []
  try {
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? picked : [...picked].reverse()
      for (const connections of COUNTS) {
        for (const server of order) {
          if (stopped()) throw log.stopped()
          const step = {
            phase: 'http',
            program: server,
            server,
            mode: 'keep-alive',
            connections,
            warmupConnections: Math.max(...COUNTS),
            process: sessionIndex,
            round,
            run: round,
            pin,
            peers: picked,
            partner: interleaved && server !== picked[0] ? picked[0] : null,
            wrkScript: paced ? pacingScript(dir, connections, rate) : null
          }
          const { record } = await measureStep(step, options, session, dir)
          if (record.ok) {
            records.push({ ...record, placement: name, session: sessionIndex })
            log.keep(records[records.length - 1])
          }
          // a stop fails the run in flight (Ctrl-C reaches wrk too): it is a stop, not a failure
          if (stopped()) throw log.stopped()
          if (!record.ok) {
            throw await log.failed(stopped, `${name}, ${server.name}, ${connections} connections: ${record.failure}`)
          }
        }
      }
    }
  } finally {
    await session.close()
  }
  return records
}

async function main ({ rounds, sessions, rate, placements: names, raw }, stopped) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'http-placement-'))
  fs.mkdirSync(path.join(dir, 'strace'))
  const placements = Object.fromEntries(Object.entries(placementsOf(allowedCpus())).filter(([name]) => names.includes(name)))
  const results = {}
  const log = studyLog(raw)
  try {
    for (let sessionIndex = 0; sessionIndex < sessions; sessionIndex++) {
      for (const [name, placement] of Object.entries(placements)) {
        process.stderr.write(`session ${sessionIndex + 1} of ${sessions}: ${name} (wrk on CPU ${placement.pin.client}, the server on CPU ${placement.pin.server})\n`)
        const during = { rounds, rate, sessionIndex, dir, stopped, log }
        const records = await measurePlacement({ name, ...placement }, during)
        results[name] ??= []
        results[name].push(sessionFigures(records))
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
  const paced = names.includes('paced') ? `; paced at about ${rate} req/s` : ''
  console.log(`${rounds} rounds per session, ${sessions} sessions${paced}`)
  console.log('placement server       conns  CPU µs/req (CV%)       ratio to c-epoll (CV%)   req/wake-up  CPU share  req/s     move: CPU  ratio')
  for (const [name, figures] of Object.entries(results)) {
    const moves = { cpu: [], ratio: [] }
    for (const key of figures[0].keys()) {
      const [server, connections] = key.split('\t')
      const each = figures.map(session => session.get(key))
      const cpuMove = each.length > 1 ? movePercent(each[0].cpuUs, each[1].cpuUs) : null
      const ratioMove = each.length > 1 && each[0].ratio !== null ? movePercent(each[0].ratio, each[1].ratio) : null
      if (cpuMove !== null) moves.cpu.push(cpuMove)
      if (ratioMove !== null) moves.ratio.push(ratioMove)
      console.log([name.padEnd(9), server.padEnd(12), connections.padStart(5),
        each.map(figure => `${fixed(figure.cpuUs, 2)} (${fixed(figure.cpuCv, 1)})`).join('; ').padEnd(22),
        each.map(figure => `${fixed(figure.ratio, 2)} (${fixed(figure.ratioCv, 1)})`).join('; ').padEnd(24),
        each.map(figure => fixed(figure.perWakeUp, 1)).join('; ').padStart(12),
        each.map(figure => fixed(figure.share, 2)).join('; ').padStart(10),
        each.map(figure => String(Math.round(figure.rate))).join('; ').padStart(14),
        `${fixed(cpuMove, 1)}%`.padStart(7), `${fixed(ratioMove, 1)}%`.padStart(7)].join(' '))
    }
    if (moves.cpu.length) {
      const within = (list, goal) => `${list.filter(move => move <= goal).length} of ${list.length}`
      console.log(`  ${name}: CPU per request within 5% between sessions in ${within(moves.cpu, 5)} cells (median move ${fixed(median(moves.cpu), 1)}%); ratio to c-epoll in ${within(moves.ratio, 5)} (median ${fixed(median(moves.ratio), 1)}%)`)
    }
  }
  return 0
}

runCli({ name: 'http-placement.js', usage: USAGE, parse: parseOptions, run: main, measures: true })
