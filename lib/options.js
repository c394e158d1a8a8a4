'use strict'
// What the lab's command-line tools share in reading their options: a usage error
// (the tool prints its message on one line and exits 2) and the whole-number check.

class UsageError extends Error {}

function wholeNumber (text, name, min = 1) {
  if (!/^\d+$/.test(text) || Number(text) < min) throw new UsageError(`--${name} must be a whole number of at least ${min}, not '${text}'`)
  return Number(text)
}

module.exports = { UsageError, wholeNumber }
