'use strict'
// Whether a db server answers right, before any of its runs is timed: each endpoint's
// answers against the database's own rows (TechEmpower's rules, experiments/db/expected.js),
// with the first difference named.
const { sendRequests } = require('../http/client')
const { WORLD_ROWS, fortunesHtml, queriesCount } = require('./expected')

const JSON_TYPE = /^application\/json(\s*;\s*charset=utf-8)?$/i
const HTML_TYPE = /^text\/html;\s*charset=utf-8$/i
// /db answers over which a server must have drawn this many ids: one that caches a row,
// or draws from a narrow range, fails; 32 draws of 10,000 repeat at most a few.
const RANDOM_DRAWS = 32
const DISTINCT_IDS = 24
// Within one /queries answer of 20 rows or more, at least this share distinct: a server that
// ran one query and repeated its row would look 20 times cheaper. 20 draws of 10,000 repeat
// one id in 2% of answers; 500 draws repeat about 12.
const DISTINCT_SHARE = 0.75

// The endpoints of a run: name, path and what a right answer holds.
const ENDPOINTS = {
  db: { path: '/db', type: JSON_TYPE, rows: null },
  queries: { path: '/queries?q=20', type: JSON_TYPE, rows: 20 },
  fortunes: { path: '/fortunes', type: HTML_TYPE, rows: null }
}

// The first place two texts differ, shown with a little of each around it.
function firstDifference (got, want) {
  let at = 0
  while (at < got.length && at < want.length && got[at] === want[at]) at++
  const around = text => JSON.stringify(text.slice(Math.max(0, at - 20), at + 30))
  return `they differ at character ${at}: got ${around(got)}, expected ${around(want)}`
}

const utf8 = latin1 => Buffer.from(latin1, 'latin1').toString('utf8')

// Why a world row (a parsed JSON value) is not the database's row, or null.
function rowProblem (row, world) {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) return `${JSON.stringify(row)} is no object`
  const keys = Object.keys(row).sort().join(',')
  if (keys !== 'id,randomNumber') return `${JSON.stringify(row)} has the keys ${keys}, not id and randomNumber`
  if (!Number.isInteger(row.id) || row.id < 1 || row.id > WORLD_ROWS) return `${JSON.stringify(row)} has an id out of 1..${WORLD_ROWS}`
  if (row.randomNumber !== world[row.id]) return `${JSON.stringify(row)}: the database's row ${row.id} has randomNumber ${world[row.id]}`
  return null
}

// A check of one endpoint's answer: (response, index) → problem or null; `seen` gathers
// the ids of world rows.
function answerCheck ({ type, rows, html }, world, seen) {
  return (response, index) => {
    const what = `answer ${index}`
    if (response.status !== 200) return `${what} has status ${response.status}, not 200`
    const contentType = response.headers['content-type'] ?? ''
    if (!type.test(contentType)) return `${what} has Content-Type ${JSON.stringify(contentType)}, not ${type === HTML_TYPE ? 'text/html; charset=utf-8' : 'application/json'}`
    if (response.rest !== '') return `${what} came with ${response.rest.length} bytes more than one response`
    const body = utf8(response.body)
    if (html !== undefined) return body === html ? null : `${what} is not the expected fortunes page: ${firstDifference(body, html)}`
    let value
    try {
      value = JSON.parse(body)
    } catch {
      return `${what} is no JSON: ${JSON.stringify(body.slice(0, 80))}`
    }
    const list = rows === null ? [value] : value
    if (rows !== null && (!Array.isArray(value) || value.length !== rows)) return `${what} has ${Array.isArray(value) ? `${value.length} rows` : 'no array'}, not ${rows} rows`
    for (const row of list) {
      const problem = rowProblem(row, world)
      if (problem) return `${what}: ${problem}`
      seen.push(row.id)
    }
    const distinct = new Set(list.map(row => row.id)).size
    if (rows !== null && rows >= 20 && distinct < Math.ceil(DISTINCT_SHARE * rows)) {
      return `${what} holds only ${distinct} distinct ids in its ${rows} rows: each row must come from a ` +
        `query of its own, its id random in 1..${WORLD_ROWS}`
    }
    return null
  }
}

// Why the server on `port` does not answer right, or null: every endpoint, /queries at
// the q's its rules clamp, /db over RANDOM_DRAWS answers on several connections at once
// (the server's pool at work), and a 404 for a page it has not.
async function checkDbServer (port, world, { timeoutMs = 3000 } = {}) {
  const seen = []
  const cases = [
    ['/db', { type: JSON_TYPE, rows: null }, RANDOM_DRAWS, 8],
    ['/fortunes', { type: HTML_TYPE, html: fortunesHtml() }, 2, 1],
    ...['20', '1', '0', 'abc', '', '501'].map(q => [`/queries?q=${q}`, { type: JSON_TYPE, rows: queriesCount(q) }, 1, 1]),
    ['/queries', { type: JSON_TYPE, rows: 1 }, 1, 1]
  ]
  for (const [path, expected, requests, connections] of cases) {
    const { problem } = await sendRequests(port, { mode: 'keep-alive', connections, requests, timeoutMs, path, check: answerCheck(expected, world, seen) })
    if (problem) return `GET ${path}: ${problem}`
  }
  const dbIds = new Set(seen.slice(0, RANDOM_DRAWS))
  if (dbIds.size < DISTINCT_IDS) return `GET /db: ${RANDOM_DRAWS} answers drew only ${dbIds.size} distinct ids: the ids must be random in 1..${WORLD_ROWS}`
  const missing = await sendRequests(port, { mode: 'keep-alive', connections: 1, requests: 1, timeoutMs, path: '/no-such-page', check: response => response.status === 404 ? null : `answered ${response.status}, not 404` })
  if (missing.problem) return `GET /no-such-page: ${missing.problem}`
  return null
}

// The check of one endpoint's answers under the strace pass's load.
function endpointCheck (endpoint, world) {
  const { type, rows } = ENDPOINTS[endpoint]
  return answerCheck(endpoint === 'fortunes' ? { type, html: fortunesHtml() } : { type, rows }, world, [])
}

module.exports = { ENDPOINTS, checkDbServer, endpointCheck, firstDifference }
