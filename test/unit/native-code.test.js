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
  parseMaps, nameAddress, missingTools, reachedSymbols, describeNamed, symbolsAt, loadSegments
} = require('../../lib/native-code')
const { targetFinding, v8FastCallAddresses } = require('../../experiments/stdio/fastpath')

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
  '7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                          [stack]'
].join('\n'))

test('parseMaps reads each line: its bounds, permissions, offset and file', () => {
  assert.equal(maps.length, 3)
  assert.deepEqual(maps[0], { start: BASE, end: BASE + 0x400000n, perms: 'r-xp', offset: 0n, file: LIBC })
  assert.equal(maps[1].file, '')
  assert.equal(maps[2].file, '[stack]')
})

test('symbolsAt: the symbol that holds an address, aliases after the plainest, none past its end', () => {
  const symbols = [
    { value: 0x100n, size: 0x10n, name: 'before' },
    { value: 0x200n, size: 0x40n, name: '__read' },
    { value: 0x200n, size: 0x40n, name: 'read' },
    { value: 0x300n, size: 0n, name: 'unsized' }
  ]
  assert.deepEqual(symbolsAt(symbols, 0x210n), ['read', '__read'])
  assert.deepEqual(symbolsAt(symbols, 0x250n), [], 'past read\'s end, before the next')
  assert.deepEqual(symbolsAt(symbols, 0x380n), ['unsized'], 'a symbol without a size holds what follows it')
  assert.deepEqual(symbolsAt(symbols, 0x50n), [])
})

test('an address in a file\'s mapping is named by the file\'s symbol', { skip: libcSkip }, () => {
  const { fileOffset } = libcRead()
  const named = nameAddress({ maps, readCode: () => assert.fail('a file\'s code is not read') }, BASE + fileOffset)
  assert.equal(named.symbol, 'read')
  assert.equal(named.file, 'libc.so.6')
  assert.ok(named.aliases.includes('__read'), named.aliases.join())
  assert.deepEqual(reachedSymbols(named).slice(0, 1), ['read'])
  assert.equal(describeNamed(named), 'read (libc.so.6)')
})

test('a shim made at run time is named by the code it jumps to, its constants to data left out',
  { skip: libcSkip }, () => {
    const { fileOffset } = libcRead()
    const target = BASE + fileOffset
    // movabs $0x7ffd00000010,%r11 (the stack: not code); mov %rsi,%rdi; jmp read
    const code = Buffer.from('49bb10000000fd7f0000' + '4889f7' + 'e900000000', 'hex')
    const jmpEnd = SHIM + BigInt(code.length)
    code.writeInt32LE(Number(target - jmpEnd), code.length - 4)
    const reads = []
    const readCode = (address, length) => {
      reads.push([address, length])
      return Buffer.concat([code, Buffer.alloc(length - code.length)])
    }
    const named = nameAddress({ maps, readCode }, SHIM)
    assert.equal(reads.length, 1)
    assert.equal(reads[0][0], SHIM)
    assert.equal(named.generated, true)
    assert.deepEqual(named.reaches.map(to => [to.symbol, to.file]), [['read', 'libc.so.6']])
    assert.equal(describeNamed(named), 'read (libc.so.6) through code generated at run time')
    // a shim that reaches no file's code, and an address nothing maps
    const nowhere = nameAddress({ maps, readCode: (address, length) => Buffer.alloc(length, 0x90) }, SHIM)
    assert.equal(describeNamed(nowhere),
    `code generated at run time (0x${SHIM.toString(16)}) that reaches no file's code`)
    assert.equal(describeNamed(nameAddress({ maps, readCode }, 0x1000n)), '0x1000, where nothing is mapped')
  })

test('targetFinding: the expected function reached, another reached, or none named', () => {
  const libcRead = { address: '0x20', file: 'libc.so.6', symbol: 'read', aliases: ['__read'] }
  const read = { address: '0x10', generated: true, reaches: [libcRead] }
  const symbol = 'host::net::FastReadRaw(v8::Local<v8::Value>, int, long, int)'
  const host = { address: '0x30', file: 'just-host', symbol, aliases: [] }
  assert.deepEqual(targetFinding({ targets: [read], reason: null }, 'count', 'read'),
    { failure: null, words: 'its fast call reaches read (libc.so.6) through code generated at run time' })
  assert.equal(targetFinding({ targets: [host], reason: null }, 'count', 'host::net::FastReadRaw').failure, null,
    'a C++ function by its name, its parameters after it')
  assert.equal(targetFinding({ targets: [read], reason: null }, 'count', 'write').failure,
    'TurboFan\'s fast call in count() reaches read (libc.so.6) through code generated at run time, not write')
  assert.equal(targetFinding({ targets: [host], reason: null }, 'count', 'host::net::FastRead').failure,
    'TurboFan\'s fast call in count() reaches host::net::FastReadRaw(v8::Local<v8::Value>, int, long, int) ' +
    '(just-host), not host::net::FastRead', 'a name\'s prefix is not the name')
  assert.deepEqual(targetFinding({ targets: [], reason: 'not named: nm is not installed' }, 'count', 'read'),
    { failure: null, words: 'its fast call not named: nm is not installed' })
  assert.deepEqual(targetFinding(null, 'count', 'read'), { failure: null, words: null })
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
