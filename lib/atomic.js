'use strict'
// Result files are replaced whole or not at all: a crash or Ctrl-C mid-write must
// leave the previous version readable, never a half-written file.
const fs = require('node:fs')
const path = require('node:path')

// A write that fails (a full disk, `file` a folder) leaves no temporary file behind.
function writeFileAtomic (file, data) {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`)
  const fd = fs.openSync(temporary, 'w')
  try {
    try {
      fs.writeSync(fd, data)
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    fs.renameSync(temporary, file)
  } catch (err) {
    fs.rmSync(temporary, { force: true })
    throw err
  }
}

function writeJsonAtomic (file, value) {
  writeFileAtomic(file, JSON.stringify(value, null, 2) + '\n')
}

module.exports = { writeFileAtomic, writeJsonAtomic }
