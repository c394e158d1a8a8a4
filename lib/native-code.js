'use strict'
// Names the native code at an address of a live process: the file its memory map places
// there and that file's symbol (binutils' readelf and nm); where the address is in code made
// at run time (anonymous memory, such as a shim that moves a call's arguments before it jumps
// on), the code that shim calls or jumps to (binutils' objdump on its bytes), named the same
// way. A JIT's trace gives an address; this says whose code it is. What cannot be read (a
// file's symbols, the process's memory) throws: a caller says it could not name it, rather
// than naming it wrongly.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')

// How many bytes of generated code are read and disassembled, at most: the shims the
// runtimes make for V8's fast calls are 31 (Deno 2.9) and 60 (node:ffi, Node 26) bytes long.
// The disassembly stops where the shim ends (shimTargets).
const SHIM_BYTES = 96

// /proc/PID/maps's lines: { start, end, perms, offset, file } (file '' for anonymous memory;
// a file replaced since it was mapped loses its " (deleted)").
const MAPS_LINE = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) ([0-9a-f]+) \S+ \d+\s*(.*)$/
function parseMaps (text) {
  return text.split('\n').map(line => MAPS_LINE.exec(line)).filter(Boolean).map(match => ({
    start: BigInt(`0x${match[1]}`),
    end: BigInt(`0x${match[2]}`),
    perms: match[3],
    offset: BigInt(`0x${match[4]}`),
    file: match[5].trim().replace(/ \(deleted\)$/, '')
  }))
}

const mappingOf = (maps, address) => maps.find(map => address >= map.start && address < map.end) ?? null
const hex = address => `0x${address.toString(16)}`
// a mapping of a file (not anonymous memory, nor [stack], [vdso] and their kind)
const isFile = map => map.file !== '' && !map.file.startsWith('[')

// How long one naming may take, all its tools together (withDeadline): it runs while a reader
// waits, within the time lib/pipeline.js's runHeld allows beyond the reader's timeout.
const NAMING_BUDGET_MS = 20000
let deadline = Infinity

// Runs fn with the tools' time bounded by `until` (ms since the epoch): a stuck tool cannot
// hold the bench, nor a slow naming outlast the run's allowance.
function withDeadline (until, fn) {
  const outer = deadline
  deadline = until
  try {
    return fn()
  } finally {
    deadline = outer
  }
}

// A binutils tool's output. Unlike lib/context.js's command, a failure throws (the caller
// says why it could not name), and the output may be large: nm lists Node's binary's
// 164,000 symbols.
function tool (bin, args) {
  const left = deadline - Date.now()
  if (left <= 0) throw new Error('out of time')
  const timeout = Number.isFinite(left) ? Math.ceil(left) : NAMING_BUDGET_MS
  return execFileSync(bin, args, {
    encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30, timeout
  })
}

// Why code cannot be named here, or null: binutils' tools missing, or a machine whose code
// objdump is not asked to read. Asked once a process.
let missing
function missingTools () {
  if (missing !== undefined) return missing
  missing = process.arch === 'x64' ? null : `the disassembly reads x86-64 code only, not ${process.arch}'s`
  for (const bin of ['readelf', 'nm', 'objdump', 'c++filt']) {
    if (missing) break
    try {
      tool(bin, ['--version'])
    } catch {
      missing = `${bin} is not installed (apt-get install binutils)`
    }
  }
  return missing
}

// An ELF file's loadable segments: { offset, vaddr, size } in the file.
const LOAD = /^\s*LOAD\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+0x[0-9a-f]+\s+0x([0-9a-f]+)/
function loadSegments (file) {
  return tool('readelf', ['-lW', file]).split('\n').map(line => LOAD.exec(line)).filter(Boolean)
    .map(([, offset, vaddr, size]) => ({
      offset: BigInt(`0x${offset}`), vaddr: BigInt(`0x${vaddr}`), size: BigInt(`0x${size}`)
    }))
}

// An ELF file's code symbols, from its symbol table and its dynamic one (a stripped file
// keeps only the second, and nm says "no symbols" of the first): { value, size (0n where
// unknown), name } sorted by value. nm prints a dynamic symbol with its version
// (read@@GLIBC_2.2.5), which is cut off.
const NM_LINE = /^([0-9a-f]+)(?: ([0-9a-f]+))? [TtWwi] (\S+)$/
function codeSymbols (file) {
  const symbols = []
  let read = 0
  for (const args of [['--defined-only', '-S', file], ['-D', '--defined-only', '-S', file]]) {
    let text = ''
    try {
      text = tool('nm', args)
      read++
    } catch {
      continue
    }
    for (const match of text.split('\n').map(line => NM_LINE.exec(line)).filter(Boolean)) {
      const [, value, size = '0', name] = match
      symbols.push({ value: BigInt(`0x${value}`), size: BigInt(`0x${size}`), name: name.replace(/@.*$/, '') })
    }
  }
  // nm answers a stripped file's table with "no symbols" and success: both failing is a fault
  if (read === 0) throw new Error(`nm could not read ${file}`)
  return symbols.sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
}

// Each file's segments and symbols, read once a process: a check names a few addresses in
// files of hundreds of thousands of symbols. A file that could not be read is not kept, so
// that it is tried again (and its failure said) next time.
const files = new Map()
function elfOf (file) {
  if (!files.has(file)) {
    const segments = loadSegments(file)
    if (segments.length === 0) throw new Error(`${file} has no loadable segment that readelf can read`)
    files.set(file, { segments, symbols: codeSymbols(file) })
  }
  return files.get(file)
}

// The names of the code symbols that hold the virtual address `vaddr` of an ELF file (symbols
// sorted by value), the nearest first and, among aliases (libc's read is __read as well), the
// plainest; [] where none holds it. A symbol of unknown size holds what follows it up to the
// next symbol. One pass from the top: a few calls a check, over 164,000 symbols for Node.
function symbolsAt (symbols, vaddr) {
  const found = []
  let above = null // the value of the next symbol above the current value
  let current = null
  for (let i = symbols.length - 1; i >= 0; i--) {
    const symbol = symbols[i]
    if (symbol.value !== current) [above, current] = [current, symbol.value]
    if (symbol.value > vaddr) continue
    const end = symbol.size > 0n ? symbol.value + symbol.size : above
    if (end === null || vaddr < end) found.push(symbol)
  }
  const underscores = name => name.length - name.replace(/^_+/, '').length
  const nearestFirst = (a, b) => (a.value > b.value ? -1 : a.value < b.value ? 1 : 0)
  const plainestFirst = (a, b) => underscores(a.name) - underscores(b.name) || a.name.localeCompare(b.name)
  found.sort((a, b) => nearestFirst(a, b) || plainestFirst(a, b))
  return [...new Set(found.map(symbol => symbol.name))]
}

const demangle = name => (name.startsWith('_Z') ? tool('c++filt', [name]).trim() : name)

// An address in a file's mapping: { file, symbol, aliases } (symbol null where no symbol
// holds it: a stripped file's own code).
function fileCodeAt (map, address) {
  const elf = elfOf(map.file)
  const fileOffset = address - map.start + map.offset
  const segment = elf.segments.find(seg => fileOffset >= seg.offset && fileOffset < seg.offset + seg.size)
  const names = segment ? symbolsAt(elf.symbols, fileOffset - segment.offset + segment.vaddr) : []
  const symbol = names.length ? demangle(names[0]) : null
  return { file: path.basename(map.file), symbol, aliases: names.slice(1) }
}

// objdump's lines of code read as x86-64 at `address`: { at, text } each.
function disassemble (bytes, address) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-code-'))
  try {
    const file = path.join(dir, 'code.bin')
    fs.writeFileSync(file, bytes)
    const args = ['-D', '-b', 'binary', '-mi386:x86-64', `--adjust-vma=${hex(address)}`, file]
    const text = tool('objdump', args)
    return text.split('\n').map(line => /^\s*([0-9a-f]+):\t(?:[0-9a-f]{2} )+\s*\t(.*)$/.exec(line))
      .filter(Boolean).map(([, at, instruction]) => ({ at: BigInt(`0x${at}`), text: instruction }))
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const BRANCH = /^(j\w+|call)q?\s+0x([0-9a-f]+)\b/ // a direct call, jump or conditional jump
const INDIRECT = /^(?:jmp|call)q?\s+\*.*# 0x([0-9a-f]+)/ // through a slot, rip-relative
const CONSTANT = /^movabs\s+\$0x([0-9a-f]+),/ // a 64-bit constant: an address to call through
const ENDS = /^(?:jmp|ret)q?\b/

// The addresses a shim at `address` may go to: its direct calls' and jumps' targets, the
// 64-bit constants it loads (Deno's calls through one) and what its rip-relative slots hold
// (readSlot(address) → 8 bytes). Read up to the shim's end: the first jmp or ret that no
// branch before it jumps past; the bytes after it are another's, or none.
function shimTargets (lines, address, readSlot) {
  const targets = []
  let furthest = address
  for (const { at, text } of lines) {
    const branch = BRANCH.exec(text)
    const target = branch ? BigInt(`0x${branch[2]}`) : null
    if (target !== null && target > at && target < address + BigInt(SHIM_BYTES)) {
      furthest = target > furthest ? target : furthest
    } else if (target !== null) {
      targets.push(target)
    }
    const constant = CONSTANT.exec(text)
    if (constant) targets.push(BigInt(`0x${constant[1]}`))
    const slot = INDIRECT.exec(text)
    if (slot) targets.push(readSlot(BigInt(`0x${slot[1]}`)).readBigUInt64LE(0))
    if (ENDS.test(text) && furthest <= at) break
  }
  return targets
}

// What is at `address` in a process seen as { maps (parseMaps'), read (address, length) →
// Buffer }: { address, file, symbol, aliases } in a file; for generated code { address,
// generated: true, reaches: [the same, for each address its code goes to that is code in a
// file] }; { address, unmapped: true } where nothing is mapped.
function nameAddress (memory, address) {
  if (memory.maps.length === 0) throw new Error('the process has no memory map')
  const map = mappingOf(memory.maps, address)
  if (!map) return { address: hex(address), unmapped: true }
  if (isFile(map)) return { address: hex(address), ...fileCodeAt(map, address) }
  const length = map.end - address < BigInt(SHIM_BYTES) ? map.end - address : BigInt(SHIM_BYTES)
  const lines = disassemble(memory.read(address, Number(length)), address)
  const reaches = []
  for (const target of shimTargets(lines, address, slot => memory.read(slot, 8))) {
    const to = mappingOf(memory.maps, target)
    if (to && isFile(to) && to.perms.includes('x')) {
      reaches.push({ address: hex(target), ...fileCodeAt(to, target) })
    }
  }
  return { address: hex(address), generated: true, reaches }
}

// Where `address` lies in a process's memory map (parseMaps's), with no tool: { address, file }
// in a file's code, { address, generated: true } in memory made at run time, { address,
// unmapped: true } where nothing is mapped. What a caller has where binutils cannot name it:
// a helper in the runtime's own executable is still told from a call into a library.
function placeAddress (maps, address) {
  const map = mappingOf(maps, address)
  if (!map) return { address: hex(address), unmapped: true }
  if (isFile(map)) return { address: hex(address), file: path.basename(map.file) }
  return { address: hex(address), generated: true }
}

// Every symbol a named address comes to: its own, or those its generated code reaches.
const reachedSymbols = named => named.generated
  ? named.reaches.flatMap(to => [to.symbol, ...to.aliases].filter(Boolean))
  : [named.symbol, ...(named.aliases ?? [])].filter(Boolean)

// Whether everything a named address comes to has a name: a wrong name can then be told from
// one the lab could not read.
const whollyNamed = named => !named.unmapped && (named.generated
  ? named.reaches.length > 0 && named.reaches.every(to => to.symbol)
  : Boolean(named.symbol))

// A named address in words: "read (libc.so.6) through code generated at run time".
function describeNamed (named) {
  const one = to => `${to.symbol ?? `an unnamed ${to.address}`} (${to.file})`
  if (named.unmapped) return `${named.address}, where nothing is mapped`
  if (!named.generated) return one(named)
  if (named.reaches.length === 0) {
    return `code generated at run time (${named.address}) that reaches no file's code`
  }
  return `${named.reaches.map(one).join(', ')} through code generated at run time`
}

module.exports = {
  NAMING_BUDGET_MS,
  withDeadline,
  parseMaps,
  nameAddress,
  placeAddress,
  missingTools,
  reachedSymbols,
  whollyNamed,
  describeNamed,
  symbolsAt,
  shimTargets,
  loadSegments
}
