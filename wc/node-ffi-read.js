'use strict'
// libc's read(2) through node:ffi (Node 26) in the form V8 calls fast: wc/node-ffi.js,
// Node's fastest reader, and calls/node.mjs, Node's call ladder, both declare it from here,
// so that the ladder's reads cannot drift from the reader's.
// Once TurboFan compiles the calling loop, each call is a V8 fast API call straight into
// read (doc/api/ffi.md, "Call paths"; nodejs/node PR 63068). size_t is 64 bits, so the
// length is a uint64, given as a BigInt: 26.10 takes no Number there, and 26.12.1 turns a
// Number into a BigInt every call (lib/internal/ffi/fast-api.js,
// validateAndConvertFastIntegerArg). The result is read as an int32, which holds any count up
// to the block size and -1; rax's upper half is then unused.
const readDeclaration = { arguments: ['int32', 'pointer', 'uint64'], return: 'int32' }

// The buffer to read into, whose address getRawPointer() may take once. A Buffer argument
// would be turned into its address by a slow call every time (the fast path takes one only
// where it is the sole argument); Buffer.allocUnsafeSlow allocates off V8's heap, where
// the bytes do not move.
function readBuffer (size) {
  return Buffer.allocUnsafeSlow(size)
}

module.exports = { readDeclaration, readBuffer }
