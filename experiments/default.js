'use strict'
// The experiment a run is of when it does not say: bench.js's default, and that of
// every run made before there were others.
module.exports = { DEFAULT_EXPERIMENT: 'stdio' }
