'use strict'
// The http strace pass for real on a server of two processes: nginx answers in a worker
// under its master, and strace -f counts the worker's calls, a read and a write a request.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { unavailableReason } = require('../../lib/rows')
const http = { ...require('../../experiments/http/servers'), ...require('../../experiments/http/measure') }

const nginx = http.servers.find(server => server.name === 'nginx')
const skip = unavailableReason(nginx) ?? false
test('strace counts nginx\'s worker: a read and a write a request', { skip }, async () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'http-strace-'))
  fs.mkdirSync(path.join(out, 'strace'))
  const options = { http: { ...http.PRESETS.quick, runs: 1 }, modes: ['keep-alive'], strace: true, timeoutSeconds: 20 }
  const session = http.httpSession()
  try {
    const traced = []
    const steps = http.planHttp([nginx], options, http.apartPin()).filter(step => step.phase === http.STRACE_PHASE)
    for (const step of steps) {
      traced.push((await http.measureStep(step, options, session, out)).record)
    }
    assert.deepEqual(traced.map(record => [record.ok, record.failure]), [[true, null], [true, null]])
    const [small, large] = traced
    const perRequest = name => {
      const calls = record => record.syscalls.find(entry => entry.name === name)?.calls ?? 0
      return (calls(large) - calls(small)) / (large.requests - small.requests)
    }
    // the master alone would make none
    assert.ok(Math.abs(perRequest('recvfrom') - 1) < 0.05, `recvfrom ${perRequest('recvfrom')} a request`)
    assert.ok(Math.abs(perRequest('writev') - 1) < 0.05, `writev ${perRequest('writev')} a request`)
  } finally {
    await session.close()
    fs.rmSync(out, { recursive: true, force: true })
  }
})
