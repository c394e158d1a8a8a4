'use strict'
// Names the native code at an address of a live process: the file its memory map
// (/proc/PID/maps) places there and that file's symbol (binutils' readelf and nm); where the
// address is in code made at run time (anonymous memory, such as a shim that moves a call's
// arguments before it jumps on), the code its calls and jumps reach (binutils' objdump on the
// bytes read from /proc/PID/mem), named the same way. A JIT's trace gives an address; this
// says whose code it is.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')

// How many bytes of generated code are read and disassembled: the shims the runtimes make for
// V8's fast calls are 31 (Deno 2.9) and 60 (node:ffi, Node 26) bytes long.
const SHIM_BYTES = 96

// /proc/PID/maps's lines: { start, end, perms, offset, file } (file '' for anonymous memory).
const MAPS_LINE = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) ([0-9a-f]+) \S+ \d+\s*(.*)$/
function parseMaps (text) {
  return text.split('\n').map(line => MAPS_LINE.exec(line)).filter(Boolean).map(match => ({
    start: BigInt(`0x${match[1]}`),
    end: BigInt(`0x${match[2]}`),
    perms: match[3],
    offset: BigInt(`0x${match[4]}`),
    file: match[5].trim()
  }))
}

const mappingOf = (maps, address) => maps.find(map => address >= map.start && address < map.end) ?? null
const hex = address => `0x${address.toString(16)}`

const run = (bin, args) => execFileSync(bin, args, {
  encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30
})

// Whether binutils' tools are here; the reason they are needed, where not.
function missingTools () {
  for (const tool of ['readelf', 'nm', 'objdump', 'c++filt']) {
    try {
      run(tool, ['--version'])
    } catch {
      return `${tool} is not installed (apt-get install binutils)`
    }
  }
  return null
}

// An ELF file's loadable segments: { offset, vaddr, size } in the file.
function loadSegments (file) {
  const segments = []
  for (const line of run('readelf', ['-lW', file]).split('\n')) {
    const match = /^\s*LOAD\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+0x[0-9a-f]+\s+0x([0-9a-f]+)/.exec(line)
    if (match) {
      segments.push({ offset: BigInt(`0x${match[1]}`), vaddr: BigInt(`0x${match[2]}`), size: BigInt(`0x${match[3]}`) })
    }
  }
  return segments
}

// An ELF file's code symbols, from its symbol table and its dynamic one (a stripped file keeps
// only the second): { value, size (0n where unknown), name } sorted by value. nm prints a
// dynamic symbol with its version (read@@GLIBC_2.2.5), which is cut off.
function codeSymbols (file) {
  const symbols = []
  for (const args of [['--defined-only', '-S', file], ['-D', '--defined-only', '-S', file]]) {
    let text
    try {
      text = run('nm', args)
    } catch {
      continue // "no symbols": a stripped file's symbol table
    }
    for (const line of text.split('\n')) {
      const match = /^([0-9a-f]+)(?: ([0-9a-f]+))? ([TtWwi]) (\S+)$/.exec(line)
      if (match) {
        const [, value, size = '0', , name] = match
        symbols.push({ value: BigInt(`0x${value}`), size: BigInt(`0x${size}`), name: name.replace(/@.*$/, '') })
      }
    }
  }
  return symbols.sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
}

// Each file's segments and symbols, read once a process: a check names a few addresses in
// files of hundreds of thousands of symbols (Node's binary).
const files = new Map()
function elfOf (file) {
  if (!files.has(file)) {
    let elf = null
    try {
      elf = { segments: loadSegments(file), symbols: codeSymbols(file) }
    } catch {}
    files.set(file, elf)
  }
  return files.get(file)
}

// The names of the code symbol that holds the virtual address `vaddr` of an ELF file, aliases
// too (libc's read is __read as well), the plainest first; [] where none holds it.
function symbolsAt (symbols, vaddr) {
  let below = null
  for (const symbol of symbols) {
    if (symbol.value > vaddr) break
    if (symbol.size === 0n ? true : vaddr < symbol.value + symbol.size) below = symbol.value
  }
  if (below === null) return []
  const names = symbols.filter(symbol => symbol.value === below &&
    (symbol.size === 0n || vaddr < symbol.value + symbol.size)).map(symbol => symbol.name)
  const plain = name => name.replace(/^_+/, '').length - name.length
  return [...new Set(names)].sort((a, b) => plain(b) - plain(a) || a.localeCompare(b))
}

const demangle = name => (name.startsWith('_Z') ? run('c++filt', [name]).trim() : name)

// An address in a file-backed mapping: { file, symbol, aliases } (symbol null where no
// symbol holds it: a stripped file's own code).
function fileCodeAt (map, address) {
  const elf = elfOf(map.file)
  const fileOffset = address - map.start + map.offset
  const segment = elf?.segments.find(seg => fileOffset >= seg.offset && fileOffset < seg.offset + seg.size)
  const names = segment ? symbolsAt(elf.symbols, fileOffset - segment.offset + segment.vaddr) : []
  return { file: path.basename(map.file), symbol: names.length ? demangle(names[0]) : null, aliases: names.slice(1) }
}

// The addresses that generated code at `address` calls, jumps to or loads as a 64-bit constant
// (movabs, then call through the register): objdump's reading of the bytes.
function codeTargets (bytes, address) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-code-'))
  try {
    const file = path.join(dir, 'code.bin')
    fs.writeFileSync(file, bytes)
    const text = run('objdump', ['-D', '-b', 'binary', '-mi386:x86-64', `--adjust-vma=${hex(address)}`, file])
    const targets = []
    for (const line of text.split('\n')) {
      const match = /\b(?:jmp|call)q?\s+0x([0-9a-f]+)\b/.exec(line) ?? /\bmovabs\s+\$0x([0-9a-f]+),/.exec(line)
      if (match) targets.push(BigInt(`0x${match[1]}`))
    }
    return targets
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

// What is at `address` in a process seen as { maps (parseMaps), readCode (address, length) →
// Buffer }: { address, file, symbol, aliases } in a file; for generated code { address,
// generated: true, reaches: [the same, for each address its code goes to that is code in a
// file] }; { address, unmapped: true } where nothing is mapped.
function nameAddress (process, address) {
  const map = mappingOf(process.maps, address)
  if (!map) return { address: hex(address), unmapped: true }
  if (map.file && !map.file.startsWith('[')) return { address: hex(address), ...fileCodeAt(map, address) }
  const length = Number(map.end - address < BigInt(SHIM_BYTES) ? map.end - address : BigInt(SHIM_BYTES))
  const reaches = []
  for (const target of codeTargets(process.readCode(address, length), address)) {
    const to = mappingOf(process.maps, target)
    if (to?.file && !to.file.startsWith('[') && to.perms.includes('x')) {
      reaches.push({ address: hex(target), ...fileCodeAt(to, target) })
    }
  }
  return { address: hex(address), generated: true, reaches }
}

// A live process as nameAddress reads it. Throws where it cannot be read (gone, or its memory
// closed to this one: reading it needs ptrace's permission, which an ancestor has).
function liveProcess (pid) {
  const maps = parseMaps(fs.readFileSync(`/proc/${pid}/maps`, 'utf8'))
  const fd = fs.openSync(`/proc/${pid}/mem`, 'r')
  const readCode = (address, length) => {
    const bytes = Buffer.alloc(length)
    const got = fs.readSync(fd, bytes, 0, length, Number(address))
    return bytes.subarray(0, got)
  }
  return { maps, readCode, close: () => fs.closeSync(fd) }
}

// Every symbol a named address comes to: its own, or those its generated code reaches.
const reachedSymbols = named => named.generated
  ? named.reaches.flatMap(to => [to.symbol, ...to.aliases].filter(Boolean))
  : [named.symbol, ...(named.aliases ?? [])].filter(Boolean)

// A named address in words: "read (libc.so.6) through code generated at run time".
function describeNamed (named) {
  const one = to => `${to.symbol ?? `an unnamed ${to.address}`} (${to.file})`
  if (named.unmapped) return `${named.address}, where nothing is mapped`
  if (!named.generated) return one(named)
  if (named.reaches.length === 0) return `code generated at run time (${named.address}) that reaches no file's code`
  return `${named.reaches.map(one).join(', ')} through code generated at run time`
}

module.exports = {
  parseMaps, nameAddress, liveProcess, missingTools, reachedSymbols, describeNamed, symbolsAt, loadSegments
}
