'use strict'
// For studies/postgres-js-queue.js only, never the bench: loaded with `node --require`
// before a server that uses postgres.js, it puts in place of postgres.js's Queue
// (node_modules/postgres/cjs/src/queue.js) one that behaves the same but drops the slots
// it has shifted past once they are half of its array. postgres.js's own empties its array
// only when a shift takes its last item, which a pool that always has a busy connection
// never does, and its remove() searches every slot it ever had.
const path = require('node:path')

function CompactingQueue (initial = []) {
  let items = initial.slice()
  let index = 0
  return {
    get length () {
      return items.length - index
    },
    remove: item => {
      const at = items.indexOf(item, index)
      if (at === -1) return null
      items.splice(at, 1)
      return item
    },
    push: item => {
      items.push(item)
      return item
    },
    shift: () => {
      const out = items[index++]
      if (index >= items.length / 2) {
        items = items.slice(index)
        index = 0
      } else items[index - 1] = undefined
      return out
    }
  }
}

if (require.main === module) {
  // lib/cli.js only here: what a preload requires loads into the server it measures
  require('../lib/cli').notACommand('postgres-js-compacting-queue.js',
    'studies/postgres-js-queue.js preloads it into a server with `node --require`; run that study')
} else {
  // beside the module db/node-postgres.js loads (the package exports no subpath)
  const entry = require.resolve('postgres', { paths: [path.join(__dirname, '..', 'db')] })
  const queuePath = path.join(path.dirname(entry), 'queue.js')
  require(queuePath)
  require.cache[queuePath].exports = CompactingQueue
}
