'use strict'
// What several test files share in waiting for things to happen, with a deadline.
const fs = require('node:fs')

// Polls every 20 ms until check() returns something truthy, failing after deadlineMs.
async function waitFor (check, deadlineMs, what) {
  const giveUp = Date.now() + deadlineMs
  for (;;) {
    const value = check()
    if (value) return value
    if (Date.now() > giveUp) throw new Error(`gave up after ${deadlineMs} ms waiting for ${what}`)
    await new Promise(resolve => setTimeout(resolve, 20))
  }
}

// The command names of pid's children, from /proc (a child gone between the listing
// and the read is skipped).
function childrenOf (pid) {
  const names = []
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let stat
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
    } catch {
      continue
    }
    const close = stat.lastIndexOf(')')
    const [, ppid] = stat.slice(close + 2).split(' ')
    if (Number(ppid) === pid) names.push(stat.slice(stat.indexOf('(') + 1, close))
  }
  return names
}

module.exports = { waitFor, childrenOf }
