'use strict'
// docker/loaded-bytes.js, the proof that the image's stripped binaries map what npm and
// PyPI served: a stripped copy of a program built with DWARF loads the same segments, and
// one changed byte of its code is seen.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const { execFileSync, spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const { loadedSegments } = require('../../docker/loaded-bytes')

let scratch, program
before(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-loaded-bytes-'))
  fs.writeFileSync(path.join(scratch, 'hello.c'), 'int main (void) { return 42; }\n')
  program = path.join(scratch, 'hello')
  execFileSync('gcc', ['-g', '-O1', '-o', program, path.join(scratch, 'hello.c')])
})
after(() => fs.rmSync(scratch, { recursive: true, force: true }))

test('a stripped copy is smaller and loads the same segments', () => {
  const stripped = path.join(scratch, 'hello-stripped')
  execFileSync('strip', ['--strip-unneeded', '-o', stripped, program])
  assert.ok(fs.statSync(stripped).size < fs.statSync(program).size, 'strip took nothing out')
  const segments = loadedSegments(program)
  assert.ok(segments.length >= 2, `only ${segments.length} loaded segments`)
  assert.ok(segments.some(segment => segment.flags & 1), 'no executable segment')
  assert.deepEqual(loadedSegments(stripped), segments)
  assert.equal(spawnSync(stripped).status, 42, 'the stripped copy does not run as built')
})

test('one changed byte of the code changes its segment', () => {
  const changed = path.join(scratch, 'hello-changed')
  const bytes = fs.readFileSync(program)
  const code = segmentsWithOffsets(bytes).find(segment => segment.flags & 1)
  bytes[code.offset + Math.floor(code.fileSize / 2)] ^= 0xff
  fs.writeFileSync(changed, bytes)
  const [original, edited] = [loadedSegments(program), loadedSegments(changed)]
  const differing = original.filter((segment, index) => segment.sha256 !== edited[index].sha256)
  assert.deepEqual(differing.map(segment => segment.flags), [code.flags])
})

test('a file that is not ELF is refused by name', () => {
  const text = path.join(scratch, 'notes.txt')
  fs.writeFileSync(text, 'not a program, and longer than an ELF header would be '.repeat(4))
  assert.throws(() => loadedSegments(text), /notes\.txt is not a 64-bit little-endian ELF file/)
  // one shorter than an ELF header too, by name, not by a read past its end
  const short = path.join(scratch, 'short')
  fs.writeFileSync(short, 'ab')
  assert.throws(() => loadedSegments(short), /short is not a 64-bit little-endian ELF file/)
})

test('its command line: --help with exit 0, an unknown option in one line with exit 2', () => {
  const script = path.join(__dirname, '..', '..', 'docker', 'loaded-bytes.js')
  const help = spawnSync(process.execPath, [script, '--help'], { encoding: 'utf8' })
  assert.equal(help.status, 0)
  assert.match(help.stdout, /^usage: node docker\/loaded-bytes\.js FILE/)
  const bogus = spawnSync(process.execPath, [script, '--bogus'], { encoding: 'utf8' })
  assert.equal(bogus.status, 2)
  assert.match(bogus.stderr, /^docker\/loaded-bytes\.js: unknown option '--bogus' \(usage: [^\n]*\)\n$/)
})

// The executable segment's place in the file, read here independently of the module.
function segmentsWithOffsets (bytes) {
  const table = Number(bytes.readBigUInt64LE(0x20))
  const size = bytes.readUInt16LE(0x36)
  return Array.from({ length: bytes.readUInt16LE(0x38) }, (_, index) => table + index * size)
    .filter(entry => bytes.readUInt32LE(entry) === 1)
    .map(entry => ({
      flags: bytes.readUInt32LE(entry + 4),
      offset: Number(bytes.readBigUInt64LE(entry + 8)),
      fileSize: Number(bytes.readBigUInt64LE(entry + 32))
    }))
}
