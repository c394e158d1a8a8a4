'use strict'
// Waiting with a limit, without leaving the limit's timer behind: a pending timer keeps
// the process alive, and a bench that is done would wait for it to run out. Every wait here
// is a grace a process is given to end by itself (a server's, PostgreSQL's, strace's), so a
// second stop (Ctrl-C again: lib/pipeline.js stopOnSignals) ends them all at once: the
// waiter goes on to kill what is left, and nothing started outlives the bench.

const cuts = new Set()
let hurried = false

// Resolves to { done: true, value } once `promise` resolves, or { done: false } after ms,
// or at once when the waits have been cut (hurry).
function within (promise, ms) {
  let timer
  let cut
  const limit = new Promise(resolve => {
    cut = () => resolve({ done: false })
    timer = setTimeout(cut, hurried ? 0 : ms)
  })
  cuts.add(cut)
  return Promise.race([promise.then(value => ({ done: true, value })), limit]).finally(() => {
    clearTimeout(timer)
    cuts.delete(cut)
  })
}

// Cuts every wait under way and every one to come short.
function hurry () {
  hurried = true
  for (const cut of cuts) cut()
}

module.exports = { within, hurry }
