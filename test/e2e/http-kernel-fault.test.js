'use strict'
// A kernel pass whose tracer fails is that run's failure, not its server process's: the
// latency pass, which runs next, still runs, in the same process.
const path = require('node:path')
// before lib/sysprof is loaded, which reads it once
process.env.SYSPROF = path.join(__dirname, '..', 'fixtures', 'sysprof-loses-events.sh')
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const http = { ...require('../../experiments/http/servers'), ...require('../../experiments/http/measure') }

// The capacity runs, and the kernel pass beside them, need wrk on a CPU of its own
const { client, server } = http.apartPin()
const skip = client === server ? 'one CPU: no capacity runs' : false

test('a failed kernel run leaves its server process to the latency pass', { skip }, async () => {
  const selected = [http.servers.find(row => row.name === 'c-epoll')]
  const options = {
    http: http.PRESETS.quick,
    modes: ['keep-alive'],
    kernel: true,
    latency: true,
    timeoutSeconds: 20,
    placement: 'shared'
  }
  const apart = http.apartPin()
  const steps = http.planHttp(selected, options, { client: apart.server, server: apart.server }, apart)
    .filter(step => [http.CAPACITY_PHASE, http.KERNEL_PHASE, http.LATENCY_PHASE].includes(step.phase))
  // the kernel pass in the timed placement, then beside the capacity run (wrk apart)
  assert.deepEqual(steps.map(step => [step.phase, step.apart ?? false]), [
    [http.CAPACITY_PHASE, false], [http.KERNEL_PHASE, false], [http.KERNEL_PHASE, true], [http.LATENCY_PHASE, false]
  ])
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-kernel-fault-'))
  const session = http.httpSession()
  try {
    const records = []
    const pids = []
    for (const step of steps) {
      records.push((await http.measureStep(step, options, session, runDir)).record)
      pids.push((await session.serverFor(step, options)).started.pid)
    }
    const [capacity, kernel, kernelApart, latency] = records
    assert.equal(capacity.ok, true, capacity.failure)
    for (const failed of [kernel, kernelApart]) {
      assert.equal(failed.ok, false)
      assert.match(failed.failure, /^the kernel pass lost 3 events/)
    }
    assert.equal(kernelApart.apart, true)
    assert.equal(latency.ok, true, latency.failure)
    assert.ok(latency.oha.answered > 0)
    // one process throughout: the failed kernel run did not stop it
    assert.equal(new Set(pids).size, 1)
  } finally {
    await session.close()
    fs.rmSync(runDir, { recursive: true, force: true })
  }
})
