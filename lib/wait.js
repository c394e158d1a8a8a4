'use strict'
// Waiting with a limit, without leaving the limit's timer behind: a pending timer keeps
// the process alive, and a bench that is done would wait for it to run out.

// Resolves to { done: true, value } once `promise` resolves, or { done: false } after ms.
function within (promise, ms) {
  let timer
  const limit = new Promise(resolve => { timer = setTimeout(() => resolve({ done: false }), ms) })
  return Promise.race([promise.then(value => ({ done: true, value })), limit]).finally(() => clearTimeout(timer))
}

module.exports = { within }
