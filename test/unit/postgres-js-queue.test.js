'use strict'
// studies/postgres-js-queue.js compares postgres.js's Queue with one that compacts: the
// study says something only if the two behave alike, item for item.
const test = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { seededRandom } = require('../../lib/stats')

const entry = require.resolve('postgres', { paths: [path.join(__dirname, '..', '..', 'db')] })
const queuePath = path.join(path.dirname(entry), 'queue.js')

test('the compacting queue answers every push, shift, remove and length as postgres.js\'s own', () => {
  const Original = require(queuePath)
  require('../../studies/postgres-js-compacting-queue')
  const Compacting = require(queuePath)
  assert.notEqual(Compacting, Original)
  assert.equal(Compacting.name, 'CompactingQueue')
  const random = seededRandom(20261130)
  const connections = ['a', 'b', 'c', 'd']
  const queues = [Original(['a']), Compacting(['a'])]
  for (let step = 0; step < 20000; step++) {
    const choice = random()
    const item = connections[Math.floor(random() * connections.length)]
    const answers = queues.map(queue => {
      // as postgres.js's pool moves connections: shift one to use, push it back, remove it
      if (choice < 0.4) return queue.push(item)
      if (choice < 0.8) return queue.length ? queue.shift() : 'empty'
      return queue.remove(item)
    })
    assert.deepEqual(answers[1], answers[0], `step ${step}`)
    assert.equal(queues[1].length, queues[0].length, `step ${step}`)
  }
})
