'use strict'
// Each runtime's call ladder reads as its fastest reader reads: libc's read(2) declared, and
// its buffer allocated, in one module per runtime (wc/*-ffi-read.js) that both take them
// from. Bun's ladder once declared its own read, returning i64_fast into a movable small
// typed array, and was quoted as Bun's fastest form. Read as source text: the modules are
// ES modules of Bun and Deno, which the Node that runs the tests does not load.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')

const ROOT = path.join(__dirname, '..', '..')
const FORMS = [
  { runtime: 'Bun', module: 'wc/bun-ffi-read.js', reader: 'wc/bun-ffi.js', ladder: 'calls/bun.mjs' },
  { runtime: 'Deno', module: 'wc/deno-ffi-read.js', reader: 'wc/deno-ffi.js', ladder: 'calls/deno.mjs' },
  {
    runtime: 'Node',
    module: 'wc/node-ffi-read.js',
    reader: 'wc/node-ffi.js',
    ladder: 'calls/node.mjs',
    // the ladder's other form reads through fs.readSync as node-sync does, into the Buffer
    // node-sync allocates, and into no other
    idiomatic: { reader: 'wc/node-sync.js', buffer: 'syncBuffer', allocation: 'Buffer.allocUnsafe(' }
  }
]

const source = file => fs.readFileSync(path.join(ROOT, file), 'utf8')

// The files `file` imports or requires by a relative path, as paths from the root.
function relativeImports (file) {
  const found = source(file).matchAll(/(?:from\s+|require\()\s*'(\.{1,2}\/[^']+)'/g)
  return [...found].map(([, spec]) => path.relative(ROOT, path.resolve(ROOT, path.dirname(file), spec)))
}

for (const { runtime, module, reader, ladder, idiomatic } of FORMS) {
  test(`${runtime}: the fastest reader and the ladder take read and its buffer from ${module}`, () => {
    const shared = source(module)
    assert.match(shared, /\bexport const readDeclaration\b|\breadDeclaration\s*=/, module)
    assert.match(shared, /\bfunction readBuffer\b/, module)
    for (const file of [reader, ladder]) {
      assert.ok(relativeImports(file).includes(module), `${file} does not import ${module}`)
      const text = source(file)
      // every libc read declared anywhere in the file is the shared declaration
      const reads = [...text.matchAll(/(?:^|[{,])\s*read:\s*([^,}\n]+)/gm)].map(match => match[1])
      assert.ok(reads.length > 0, `${file} declares no read`)
      for (const declared of reads) {
        assert.match(declared, /^readDeclaration\b/, `${file} declares its own read: ${declared}`)
      }
      assert.match(text, /\breadBuffer\(/, `${file} does not allocate its buffer with readBuffer`)
      const others = file === ladder && idiomatic ? checkedIdiomaticBufferLeftOut(text, idiomatic) : text
      assert.doesNotMatch(others, /new Uint8Array\(|Buffer\.alloc/,
        `${file} allocates a buffer of its own beside readBuffer's`)
    }
  })
}

// Asserts that the ladder's idiomatic form's buffer is allocated once, as the idiomatic reader
// allocates its own, and read into by fs.readSync alone; then returns the ladder's text
// without that allocation, for the check that no other buffer is allocated.
function checkedIdiomaticBufferLeftOut (text, { reader, buffer, allocation }) {
  const lines = text.split('\n')
  const declaration = `const ${buffer} = `
  const allocations = lines.filter(line => line.startsWith(declaration))
  assert.equal(allocations.length, 1, `one ${buffer}`)
  assert.ok(allocations[0].startsWith(`${declaration}${allocation}`), allocations[0])
  assert.ok(source(reader).includes(allocation), `${reader} allocates with ${allocation}`)
  const uses = lines.filter(line => new RegExp(`\\b${buffer}\\b`).test(line) && !line.startsWith(declaration))
  assert.ok(uses.length > 0 && uses.every(line => /\[readSync, fs\.readSync, /.test(line)), uses.join('\n'))
  return lines.filter(line => !line.startsWith(declaration)).join('\n')
}

test('Bun\'s read returns an i32, boxed inline, not i64_fast, a call into C++ each read', () => {
  const shared = source('wc/bun-ffi-read.js')
  assert.match(shared, /readDeclaration = \{ args: \['i32', 'ptr', 'u64'\], returns: 'i32' \}/)
  assert.match(shared, /new Uint8Array\(new ArrayBuffer\(size\)\)/,
    'a view of its own ArrayBuffer, whose bytes JavaScriptCore does not move')
})
