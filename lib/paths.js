'use strict'
// Where the lab's files are: every module that names a path of the lab's takes it from here.
const path = require('node:path')

const ROOT = path.resolve(__dirname, '..')
const BUILD = path.join(ROOT, 'build')
const NPM_BIN = path.join(ROOT, 'node_modules', '.bin')

// A path as the user would type it: relative when under the current folder.
function displayPath (file) {
  const relative = path.relative(process.cwd(), file)
  return relative && !relative.startsWith('..') ? relative : file
}

module.exports = { ROOT, BUILD, NPM_BIN, displayPath }
