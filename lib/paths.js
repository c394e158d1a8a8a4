'use strict'
// Where the lab's files are: every module that names a path of the lab's takes it from here.
const path = require('node:path')

const ROOT = path.resolve(__dirname, '..')
const BUILD = path.join(ROOT, 'build')
const NPM_BIN = path.join(ROOT, 'node_modules', '.bin')

module.exports = { ROOT, BUILD, NPM_BIN }
