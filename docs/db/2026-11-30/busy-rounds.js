'use strict'
// Within one run: each server's CPU per request in the rounds the machine's speed calls calm
// (the db page's finding: within ±5% of the servers' own medians) against the rounds that found
// the servers dearer together (above +5%); the rounds below −5% are left out.
// Usage: node docs/db/2026-11-30/busy-rounds.js RUN-DIR [ENDPOINT, default db]
const path = require('node:path')
const { summariseDb } = require('../../../experiments/db/summary')
const { median } = require('../../../lib/stats')
const { runScript, folderWith, readJson, readJsonLines, UsageError } = require('../../script-args')

const RUN = 'a db run\'s folder'

function main ([dir, endpoint = 'db']) {
  const records = readJsonLines(path.join(dir, 'all.jsonl'), RUN)
    .filter(record => !record.superseded)
  const db = summariseDb(records, readJson(path.join(dir, 'context.json'), RUN))
  if (!db) throw new UsageError(`${dir}'s log holds no db runs; give ${RUN}`)
  const group = db.machineSpeed.find(each => each.endpoint === endpoint)
  if (!group) {
    const endpoints = db.machineSpeed.map(each => each.endpoint)
    const fix = endpoints.length ? `give one of ${endpoints.join(', ')}` : `give ${RUN}`
    throw new UsageError(`ENDPOINT ${endpoint}: ${dir} has no rounds of it; ${fix}`)
  }
  const roundsWhere = test => new Set(group.rounds.filter(round => test(round.offset)).map(round => round.round))
  const [calm, dearer] = [roundsWhere(offset => Math.abs(offset) <= 0.05), roundsWhere(offset => offset > 0.05)]
  const runs = records.filter(record => record.phase === 'db' && record.ok && record.endpoint === endpoint)
  const perRequest = run => run.server.cpuNs / run.wrk.requests / 1000
  console.log(`${path.basename(dir)} /${endpoint}: ${calm.size} calm rounds of ${group.rounds.length}, ` +
    `${dearer.size} dearer; each server's median µs a request in the calm ones, in the dearer, and the difference`)
  for (const server of new Set(runs.map(run => run.program))) {
    const mine = runs.filter(run => run.program === server)
    const [quiet, busy] = [mine.filter(run => calm.has(run.run)), mine.filter(run => dearer.has(run.run))]
      .map(some => some.map(perRequest))
    if (quiet.length === 0 || busy.length === 0) continue
    const change = 100 * (median(busy) / median(quiet) - 1)
    const us = values => median(values).toFixed(1).padStart(6)
    console.log(`  ${server.padEnd(34)} ${us(quiet)}  ${us(busy)}  ${change >= 0 ? '+' : ''}${change.toFixed(1)}%`)
  }
}

runScript(module, { args: [1, 2], each: [folderWith(['all.jsonl', 'context.json'], RUN)], run: main })
