'use strict'
// Naming the native code at an address (lib/native-code.js), on this machine's own libc and
// binutils: a symbol in a file's mapping, aliases the plainest first, and a shim made at run
// time named by the code it jumps to; and what the fast-path check makes of the names
// (experiments/stdio/fastpath.js targetFinding, v8FastCallAddresses).
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')

const {
  parseMaps, nameAddress, placeAddress, missingTools, reachedSymbols, whollyNamed, describeNamed, symbolsAt,
  loadSegments, withDeadline
} = require('../../lib/native-code')
const { targetFinding, v8FastCallAddresses, nameFastCalls } = require('../../experiments/stdio/fastpath')

const skip = missingTools() ?? false
const LIBC = '/lib/x86_64-linux-gnu/libc.so.6'
const libcSkip = skip || (fs.existsSync(LIBC) ? false : `no ${LIBC} here`)

// read's address in libc as nm -D gives it, and the file offset it is loaded from
function libcRead () {
  const line = execFileSync('nm', ['-D', '--defined-only', LIBC], { encoding: 'utf8' })
    .split('\n').find(entry => / T read(@|$)/.test(entry))
  const vaddr = BigInt(`0x${line.split(' ')[0]}`)
  const segment = loadSegments(LIBC).find(seg => vaddr >= seg.vaddr && vaddr < seg.vaddr + seg.size)
  return { vaddr, fileOffset: vaddr - segment.vaddr + segment.offset }
}

const BASE = 0x7f0000000000n
const SHIM = BASE + 0x800000n // within a jmp's reach of libc
// libc mapped whole at BASE, and one page of anonymous code at SHIM
const maps = parseMaps([
  `${BASE.toString(16)}-${(BASE + 0x400000n).toString(16)} r-xp 00000000 fe:00 42  ${LIBC}`,
  `${SHIM.toString(16)}-${(SHIM + 0x2000n).toString(16)} r-xp 00000000 00:00 0 `,
  `${(BASE + 0x900000n).toString(16)}-${(BASE + 0x901000n).toString(16)} r--p 00000000 fe:00 43  ${LIBC} (deleted)`,
  '7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                          [stack]'
].join('\n'))

test('parseMaps reads each line: its bounds, permissions, offset and file', () => {
  assert.equal(maps.length, 4)
  assert.deepEqual(maps[0], { start: BASE, end: BASE + 0x400000n, perms: 'r-xp', offset: 0n, file: LIBC })
  assert.equal(maps[1].file, '')
  assert.equal(maps[2].file, LIBC, 'a file replaced since it was mapped, by its path')
  assert.equal(maps[3].file, '[stack]')
})

test('symbolsAt: the symbol that holds an address, aliases after the plainest, none past its end', () => {
  const symbols = [
    { value: 0x100n, size: 0x10n, name: 'before' },
    { value: 0x200n, size: 0x40n, name: '__read' },
    { value: 0x200n, size: 0x40n, name: 'read' },
    { value: 0x300n, size: 0n, name: 'unsized' },
    { value: 0x400n, size: 0x10n, name: 'after' }
  ]
  assert.deepEqual(symbolsAt(symbols, 0x210n), ['read', '__read'])
  assert.deepEqual(symbolsAt(symbols, 0x250n), [], 'past read\'s end, before the next')
  assert.deepEqual(symbolsAt(symbols, 0x380n), ['unsized'], 'a symbol without a size holds up to the next')
  assert.deepEqual(symbolsAt(symbols, 0x420n), [], 'and not past the next one\'s end')
  assert.deepEqual(symbolsAt(symbols, 0x50n), [])
})

test('an address in a file\'s mapping is named by the file\'s symbol', { skip: libcSkip }, () => {
  const { fileOffset } = libcRead()
  const named = nameAddress({ maps, read: () => assert.fail('a file\'s code is not read') }, BASE + fileOffset)
  assert.equal(named.symbol, 'read')
  assert.equal(named.file, 'libc.so.6')
  assert.ok(named.aliases.includes('__read'), named.aliases.join())
  assert.deepEqual(reachedSymbols(named).slice(0, 1), ['read'])
  assert.equal(describeNamed(named), 'read (libc.so.6)')
})

// A shim as node:ffi makes one: a 64-bit constant that points at data, a branch over a call
// into libc, a ret, then the jump to `target`, where the shim ends; `after` follows it (the
// bytes of another shim, which must not be read as this one's).
function shim (at, target, after = Buffer.alloc(0)) {
  const code = Buffer.concat([
    Buffer.from('49bb10000000fd7f0000', 'hex'), // movabs $0x7ffd00000010,%r11: the stack, not code
    Buffer.from('7406', 'hex'), // je over the next 6 bytes
    Buffer.from('e800000000', 'hex'), // call (patched below)
    Buffer.from('c3', 'hex'), // ret, which the je jumps past
    Buffer.from('4889f7', 'hex'), // mov %rsi,%rdi
    Buffer.from('e900000000', 'hex') // jmp target (patched below): the end
  ])
  const rel = (end, to) => Number(to - (at + BigInt(end)))
  code.writeInt32LE(rel(17, target), 13) // the call, to the same target
  code.writeInt32LE(rel(26, target), 22)
  return Buffer.concat([code, after])
}

// memory as nameAddress reads it: the bytes at SHIM, zeros after them
const memoryOf = bytes => ({
  maps,
  read: (address, length) => {
    const start = Number(address - SHIM)
    return Buffer.concat([bytes, Buffer.alloc(0x2000)]).subarray(start, start + length)
  }
})

test('a shim made at run time is named by the code it jumps to, up to its end', { skip: libcSkip }, () => {
  const { fileOffset } = libcRead()
  const read = BASE + fileOffset
  const named = nameAddress(memoryOf(shim(SHIM, read)), SHIM)
  assert.equal(named.generated, true)
  assert.deepEqual(named.reaches.map(to => [to.symbol, to.file]), [['read', 'libc.so.6'], ['read', 'libc.so.6']])
  assert.equal(whollyNamed(named), true)
  // a second shim right after the first, jumping elsewhere in libc: not the first one's
  const elsewhere = shim(SHIM + 26n, BASE + 0x2000n)
  const two = nameAddress(memoryOf(shim(SHIM, read, elsewhere)), SHIM)
  assert.deepEqual(two.reaches.map(to => to.symbol), ['read', 'read'])
  // a jump through a rip-relative slot that holds read's address: jmp *0x2(%rip) at SHIM, whose
  // 6 bytes end at SHIM + 6, the slot 2 bytes on
  const slot = Buffer.alloc(8)
  slot.writeBigUInt64LE(read)
  const indirect = nameAddress(memoryOf(Buffer.concat([Buffer.from('ff2502000000', 'hex'), Buffer.alloc(2), slot])),
    SHIM)
  assert.deepEqual(indirect.reaches.map(to => [to.symbol, to.address]), [['read', `0x${read.toString(16)}`]])
  assert.equal(describeNamed(indirect), 'read (libc.so.6) through code generated at run time')
})

test('what reaches no named code says so, and is not whole', { skip: libcSkip }, () => {
  const nops = nameAddress(memoryOf(Buffer.alloc(96, 0x90)), SHIM)
  assert.equal(describeNamed(nops), `code generated at run time (0x${SHIM.toString(16)}) that reaches no file's code`)
  assert.equal(whollyNamed(nops), false)
  const unmapped = nameAddress(memoryOf(Buffer.alloc(0)), 0x1000n)
  assert.equal(describeNamed(unmapped), '0x1000, where nothing is mapped')
  assert.equal(whollyNamed(unmapped), false)
  // memory that cannot be read, and a map that is empty (the process has ended), throw
  assert.throws(() => nameAddress({ maps, read: () => { throw new Error('read 0 of 96 bytes') } }, SHIM),
    /read 0 of 96 bytes/)
  assert.throws(() => nameAddress({ maps: [], read: () => Buffer.alloc(0) }, SHIM), /no memory map/)
})

test('a file whose symbols cannot be read, or a naming out of time, throws: never a wrong name', { skip }, () => {
  const page = `${BASE.toString(16)}-${(BASE + 0x1000n).toString(16)} r-xp 00000000 fe:00 9`
  const missingFile = parseMaps(`${page} /no/such/lib.so`)
  assert.throws(() => nameAddress({ maps: missingFile, read: () => Buffer.alloc(0) }, BASE + 0x10n))
  // and it is tried again, not remembered as a file without symbols
  assert.throws(() => nameAddress({ maps: missingFile, read: () => Buffer.alloc(0) }, BASE + 0x10n))
  const trueMap = parseMaps(`${page} /bin/true`)
  assert.throws(() => withDeadline(Date.now() - 1, () => nameAddress({ maps: trueMap, read: () => Buffer.alloc(0) },
    BASE + 0x10n)), /out of time/)
  assert.equal(nameAddress({ maps: trueMap, read: () => Buffer.alloc(0) }, BASE + 0x10n).file, 'true',
    'and named once there is time')
})

test('nameFastCalls says why it could not name, and never fails a check for it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-graphs-'))
  try {
    assert.match(nameFastCalls(process.pid, dir, 'count').reason,
      skip ? /^not named: / : /^not named: V8 had written no fast call of count\(\) when the reader was looked at$/)
    fs.writeFileSync(path.join(dir, 'turbo-count-1.json'), '[{"title":"FastApiCall[4096:0x1, x]"}]')
    if (!skip) {
      // a pid no process has
      assert.match(nameFastCalls(2 ** 22 + 1, dir, 'count').reason,
        /^not named: the reader's memory could not be read \(ENOENT\)$/)
      // this process, where nothing is mapped at 4096: named as unmapped, and so not whole
      const { targets, reason } = nameFastCalls(process.pid, dir, 'count')
      assert.equal(reason, null)
      assert.deepEqual(targets, [{ address: '0x1000', unmapped: true }])
      assert.deepEqual(targetFinding({ targets, reason }, 'count', 'read'), {
        failure: null,
        reaches: '0x1000, where nothing is mapped: whether that is read cannot be told'
      })
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('targetFinding: the expected function reached, another reached, or none named', () => {
  const libcRead = { address: '0x20', file: 'libc.so.6', symbol: 'read', aliases: ['__read'] }
  const read = { address: '0x10', generated: true, reaches: [libcRead] }
  const symbol = 'host::net::FastReadRaw(v8::Local<v8::Value>, int, long, int)'
  const host = { address: '0x30', file: 'just-host', symbol, aliases: [] }
  assert.deepEqual(targetFinding({ targets: [read], reason: null }, 'count', 'read'),
    { failure: null, reaches: 'read (libc.so.6) through code generated at run time' })
  assert.equal(targetFinding({ targets: [host], reason: null }, 'count', 'host::net::FastReadRaw').failure, null,
    'a C++ function by its name, its parameters after it')
  assert.equal(targetFinding({ targets: [read], reason: null }, 'count', 'write').failure,
    'TurboFan\'s fast call in count() reaches read (libc.so.6) through code generated at run time, not write')
  assert.equal(targetFinding({ targets: [host], reason: null }, 'count', 'host::net::FastRead').failure,
    'TurboFan\'s fast call in count() reaches host::net::FastReadRaw(v8::Local<v8::Value>, int, long, int) ' +
    '(just-host), not host::net::FastRead', 'a name\'s prefix is not the name')
  assert.deepEqual(targetFinding({ targets: [], reason: 'not named: nm is not installed' }, 'count', 'read'),
    { failure: null, reaches: 'not named: nm is not installed' })
  assert.deepEqual(targetFinding(null, 'count', 'read'), { failure: null, reaches: null })
})

test('placeAddress: the file an address lies in, or code made at run time, with no tool', () => {
  assert.deepEqual(placeAddress(maps, BASE + 0x10n), { address: '0x7f0000000010', file: 'libc.so.6' })
  assert.deepEqual(placeAddress(maps, SHIM + 0x10n), { address: '0x7f0000800010', generated: true })
  assert.deepEqual(placeAddress(maps, 0x1000n), { address: '0x1000', unmapped: true })
})

// The hole a review found (2026-12-06): node:ffi's no-op graph holds a second fast call, to
// Node's IsArrayBufferFastApi, so a no-op whose own call went slow kept one fast call and
// passed where the calls could not be named (no binutils, as in the image) or where node's
// symbols are stripped. The file each call lies in tells the helper from the library's call.
test('targetFinding: fast calls that all lie in other files than the expected function\'s fail', () => {
  const helper = { address: '0xb1c820', file: 'node' }
  const shim = { address: '0x7f0000800010', generated: true }
  const notNamed = places => ({ targets: [], reason: 'not named: nm is not installed', places })
  assert.deepEqual(targetFinding(notNamed([helper]), 'noop', 'ladder_noop', 'libladder.so'), {
    failure: 'TurboFan\'s fast calls in noop() all lie in node, none in libladder.so, where ladder_noop is ' +
      '(not named: nm is not installed)',
    reaches: 'not named: nm is not installed'
  })
  // beside code made at run time, a shim that may jump into the library: not told wrong
  assert.equal(targetFinding(notNamed([helper, shim]), 'noop', 'ladder_noop', 'libladder.so').failure, null)
  assert.equal(targetFinding(notNamed([{ address: '0x1000', unmapped: true }]), 'noop', 'ladder_noop',
    'libladder.so').failure, null, 'nothing mapped there: whose it is cannot be told')
  assert.equal(targetFinding(notNamed([helper]), 'noop', 'ladder_noop').failure, null, 'no file expected')
  assert.equal(targetFinding(notNamed(undefined), 'noop', 'ladder_noop', 'libladder.so').failure, null,
    'no memory map read')
  // named, in a stripped node: a name missing was "cannot be told"; in the wrong file it is told
  const stripped = { address: '0xb1c820', file: 'node', symbol: null, aliases: [] }
  assert.equal(targetFinding({ targets: [stripped], reason: null }, 'noop', 'ladder_noop').failure, null)
  assert.equal(targetFinding({ targets: [stripped], reason: null }, 'noop', 'ladder_noop', 'libladder.so').failure,
    'TurboFan\'s fast call in noop() reaches an unnamed 0xb1c820 (node), not ladder_noop')
  const lost = { address: '0x7f0000800010', generated: true, reaches: [] }
  assert.equal(targetFinding({ targets: [stripped, lost], reason: null }, 'noop', 'ladder_noop', 'libladder.so')
    .failure, null, 'a shim that reaches no file\'s code cannot be told wrong')
  const libc = { address: '0x20', file: 'libc.so.6', symbol: null, aliases: [] }
  const intoLibc = { address: '0x10', generated: true, reaches: [libc] }
  assert.match(targetFinding({ targets: [intoLibc], reason: null }, 'noop', 'ladder_noop', 'libladder.so').failure,
    /, not ladder_noop$/, 'a shim that reaches another library')
  assert.equal(targetFinding({ targets: [intoLibc], reason: null }, 'count', 'read', 'libc.so.6').failure, null,
    'a shim into the expected library, the symbol stripped: not told wrong')
})

test('v8FastCallAddresses reads each fast call\'s address from graphs still being written', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-graphs-'))
  try {
    const node = (id, title) => `{"id":${id},"label":"${title}","title":"${title}"}`
    fs.writeFileSync(path.join(dir, 'turbo-count-3.json'),
      '{"function":"count","phases":[{"name":"V8.TFInlining","data":{"nodes":[' +
      `${node(1, 'FastApiCall[140606177497088:0x1471a690, FeedbackSource(#20), 0x7fe1]')},` +
      node(2, 'FastApiCall'))
    fs.writeFileSync(path.join(dir, 'turbo-count-9.json'), `[${node(3, 'FastApiCall[140606177497088:0x1, x]')}]`)
    fs.writeFileSync(path.join(dir, 'turbo-other-4.json'), `[${node(4, 'FastApiCall[42:0x1, x]')}]`)
    assert.deepEqual(v8FastCallAddresses(dir, 'count'), [140606177497088n])
    assert.deepEqual(v8FastCallAddresses(dir, 'other'), [42n])
    assert.deepEqual(v8FastCallAddresses(path.join(dir, 'none'), 'count'), [])
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('targetFinding: a template\'s demangled name, its return type before it', () => {
  const symbol = 'int host::net::FastTransfer4<&host::net::ReadOp, &host::net::read_calls>' +
    '(v8::Local<v8::Value>, double)'
  const named = { address: '0x1', file: 'just-host', symbol, aliases: [] }
  assert.equal(targetFinding({ targets: [named], reason: null }, 'read',
    'host::net::FastTransfer4<&host::net::ReadOp, &host::net::read_calls>').failure, null)
  assert.match(targetFinding({ targets: [named], reason: null }, 'read', 'host::net::FastTransfer4').failure,
    /, not host::net::FastTransfer4$/)
})
