#!/usr/bin/env node
// What the kernel and the dynamic loader map of an ELF file: a digest of each PT_LOAD
// segment (flags, address, sizes, bytes). docker/slim.sh compares it before and after
// `strip`, so the image's binaries are shown to run the very code npm and PyPI served.
//
//   node docker/loaded-bytes.js FILE      prints one line per loaded segment
//
// The first segment holds the ELF header, whose section-header fields (e_shoff, e_shnum,
// e_shstrndx) change when sections go: nothing reads them from memory, only tools that
// read the file, so they are zeroed before hashing.
'use strict'
const crypto = require('node:crypto')
const fs = require('node:fs')

const PT_LOAD = 1
const SECTION_HEADER_FIELDS = [[0x28, 8], [0x3c, 2], [0x3e, 2]]

function loadedSegments (file) {
  const bytes = fs.readFileSync(file)
  // shorter than an ELF header: no ELF file (a read past its end would say only "bounds")
  const elf64LittleEndian = bytes.length >= 64 && bytes.readUInt32BE(0) === 0x7f454c46 &&
    bytes[4] === 2 && bytes[5] === 1
  if (!elf64LittleEndian) {
    throw new Error(`${file} is not a 64-bit little-endian ELF file: give a binary such as build/node/*/bin/node`)
  }
  const header = Buffer.from(bytes.subarray(0, 64))
  for (const [offset, length] of SECTION_HEADER_FIELDS) header.fill(0, offset, offset + length)
  const tableOffset = Number(bytes.readBigUInt64LE(0x20))
  const entrySize = bytes.readUInt16LE(0x36)
  const entries = bytes.readUInt16LE(0x38)
  const segments = []
  for (let index = 0; index < entries; index++) {
    const entry = tableOffset + index * entrySize
    if (bytes.readUInt32LE(entry) !== PT_LOAD) continue
    const offset = Number(bytes.readBigUInt64LE(entry + 8))
    const fileSize = Number(bytes.readBigUInt64LE(entry + 32))
    const content = Buffer.from(bytes.subarray(offset, offset + fileSize))
    // The header lies inside the segment that starts at offset 0.
    if (offset === 0) header.copy(content, 0, 0, Math.min(64, content.length))
    segments.push({
      flags: bytes.readUInt32LE(entry + 4),
      address: bytes.readBigUInt64LE(entry + 16).toString(16),
      fileSize,
      memorySize: Number(bytes.readBigUInt64LE(entry + 40)),
      sha256: crypto.createHash('sha256').update(content).digest('hex')
    })
  }
  return segments
}

if (require.main === module) {
  const file = process.argv[2]
  const usage = 'usage: node docker/loaded-bytes.js FILE   (a digest of each segment an ELF file loads)'
  if (file === '--help') {
    console.log(usage)
    process.exit(0)
  }
  if (file?.startsWith('-')) {
    console.error(`docker/loaded-bytes.js: unknown option '${file}' (${usage})`)
    process.exit(2)
  }
  if (!file || process.argv.length > 3) {
    console.error(usage)
    process.exit(2)
  }
  try {
    for (const segment of loadedSegments(file)) {
      const { flags, address, fileSize, memorySize, sha256 } = segment
      console.log(`flags ${flags} at 0x${address} file ${fileSize} memory ${memorySize} sha256 ${sha256}`)
    }
  } catch (error) {
    console.error(`docker/loaded-bytes.js: ${error.message}`)
    process.exit(1)
  }
}

module.exports = { loadedSegments }
