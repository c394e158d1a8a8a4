'use strict'
// Result files are replaced whole or not at all: a crash or Ctrl-C mid-write must
// leave the previous version readable, never a half-written file.
const fs = require('node:fs')
const path = require('node:path')

function writeFileAtomic (file, data) {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`)
  const fd = fs.openSync(temporary, 'w')
  try {
    fs.writeSync(fd, data)
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
  fs.renameSync(temporary, file)
}

function writeJsonAtomic (file, value) {
  writeFileAtomic(file, JSON.stringify(value, null, 2) + '\n')
}

module.exports = { writeFileAtomic, writeJsonAtomic }
