'use strict'
// How much of an http run's CPU window is its connects and closes (a review: the server's CPU
// is read before wrk starts and after it ends, so each run's 128 accepts and closes are in
// its CPU per request, estimated at 1-2% for node-http, not measured). Per server, started
// and placed as the bench places it (wrk and the server on the CPU this script is pinned to):
// warmed by 3 wrk runs of 1 s, then runs of 1 and 3 s at 128 connections in turns. A run's CPU
// is a fixed part (its connects, closes, wrk's start and end, and whatever the first moments of
// a run cost more) and a part per request: each round's two runs give both (the line through
// them: CPU against requests), and the medians over the rounds are the figures; the fixed
// part's share of a 1-s run's CPU is what the bench's runs of 1 s carry. (A Theil-Sen line
// over all the runs, tried first, took most of its pairwise slopes within one length's runs,
// whose requests hardly differ, and said 31% for c-epoll where its rounds said 3.)
//
//   taskset -c 1 node docs/http/2026-12-06-window/window.js ROUNDS SERVER...
const path = require('node:path')
const lab = path.join(__dirname, '..', '..', '..')
const { servers, startServer, freePort } = require(path.join(lab, 'experiments/http/servers'))
const { wrkArgv, runWrk, parseWrk } = require(path.join(lab, 'experiments/http/wrk'))
const { processCpu, cpuBetween } = require(path.join(lab, 'experiments/http/cpu'))
const { median } = require(path.join(lab, 'lib/stats'))
const { UsageError, firstRepeat } = require(path.join(lab, 'lib/options'))
const { unavailableReason } = require(path.join(lab, 'lib/rows'))
const { runScript } = require('../../script-args')

const cpu = Number(require('node:fs').readFileSync('/proc/self/status', 'utf8')
  .match(/^Cpus_allowed_list:\s*(\d+)$/m)?.[1] ?? NaN)

// ROUNDS and the servers' names checked before any starts; one CPU, as the bench pins both
function check ([rounds, ...names]) {
  if (!/^\d+$/.test(rounds) || Number(rounds) < 2 || Number(rounds) > 1000) {
    throw new UsageError(`ROUNDS must be a whole number from 2 to 1000, not '${rounds}'`)
  }
  const unknown = names.filter(name => !servers.some(each => each.name === name))
  const known = servers.map(each => each.name).join(', ')
  if (unknown.length) throw new UsageError(`no server ${unknown.join(', ')}; give some of ${known}`)
  // a server whose runtime is missing, said before any starts (a review: a stack trace)
  for (const name of names) {
    const reason = unavailableReason(servers.find(each => each.name === name))
    if (reason) throw new UsageError(`${name} cannot run here: ${reason}`)
  }
  const twice = firstRepeat(names)
  if (twice) throw new UsageError(`${twice} is named twice; name each server once`)
  if (!Number.isInteger(cpu)) {
    throw new UsageError('pin it to one CPU: taskset -c CPU node ... (the bench pins both there)')
  }
}

async function main ([roundsText, ...args], stopped) {
  const rounds = Number(roundsText)
  for (const name of args) {
    if (stopped()) return
    const server = servers.find(each => each.name === name)
    const port = await freePort()
    const started = await startServer(server, { port, prefix: ['taskset', '-c', String(cpu)] })
    const step = { connections: 128, mode: 'keep-alive', pin: { client: cpu } }
    const argv = seconds => wrkArgv(step, port, { http: { seconds } })
    const cpuOf = async work => {
      const before = processCpu(started.pid)
      const result = await work()
      const { cpuNs, slices } = cpuBetween(before, processCpu(started.pid))
      return { cpuNs, slices, result }
    }
    try {
      for (let i = 0; i < 3; i++) await runWrk(argv(1), 5000)
      const runs = []
      for (let round = 0; round < rounds; round++) {
        for (const seconds of [1, 3]) {
          const run = await cpuOf(() => runWrk(argv(seconds), seconds * 1000 + 5000))
          runs.push({ seconds, cpuNs: run.cpuNs, slices: run.slices, requests: parseWrk(run.result.stdout).requests })
        }
      }
      // each round's 1-s and 3-s runs, one after the other
      const lines = []
      for (let i = 0; i + 1 < runs.length; i += 2) {
        const [short, long] = [runs[i], runs[i + 1]]
        const perRequest = (long.cpuNs - short.cpuNs) / (long.requests - short.requests)
        lines.push({ slope: perRequest, intercept: short.cpuNs - perRequest * short.requests })
      }
      const slope = median(lines.map(line => line.slope))
      const intercept = median(lines.map(line => line.intercept))
      const shares = lines.map((line, i) => line.intercept / runs[2 * i].cpuNs)
      const short = runs.filter(run => run.seconds === 1)
      const shortCpu = median(short.map(run => run.cpuNs))
      const us = ns => (ns / 1000).toFixed(1)
      // each run: its length, CPU per request and requests per timeslice (the server's batching)
      for (const run of runs) {
        const perRequestUs = (run.cpuNs / run.requests / 1000).toFixed(3)
        console.log(`  ${run.seconds} s: ${run.requests} requests, ${perRequestUs} µs ` +
          `a request, ${run.slices ? (run.requests / run.slices).toFixed(2) : '?'} requests a timeslice`)
      }
      console.log(`${name}: CPU ${cpu}, ${rounds} rounds of 1 and 3 s; a 1-s run ${us(shortCpu)} µs of CPU, ` +
        `${median(short.map(run => run.requests))} requests; the line: ${(slope / 1000).toFixed(3)} µs a ` +
        `request, ${us(intercept)} µs a run, ${(100 * intercept / shortCpu).toFixed(2)}% of a 1-s run's CPU ` +
        `(its rounds ${(100 * Math.min(...shares)).toFixed(1)} to ${(100 * Math.max(...shares)).toFixed(1)}%)`)
    } finally {
      await started.stop()
    }
  }
}

runScript(module, { args: [2, Infinity], check, measures: true, run: (args, flags, stopped) => main(args, stopped) })
