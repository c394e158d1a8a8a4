// libc's read(2) through bun:ffi in the form JavaScriptCore calls fast: wc/bun-ffi.js, Bun's
// fastest reader, and calls/bun.mjs, Bun's call ladder, both declare it from here, so that
// the ladder's reads cannot drift from the reader's.
// Once DFG or FTL compiles the calling loop, each call is a CallFFI node straight into read
// (bun:ffi's engine-native calls, oven-sh/bun PR 35246; docs/api/ffi.md). The length is a
// u64, as size_t is. The result is read as an i32, which holds any count up to the block
// size and -1 and is boxed inline, where i64_fast costs a call into C++ each read.
export const readDeclaration = { args: ['i32', 'ptr', 'u64'], returns: 'i32' }

// The buffer to read into, whose address ptr() may take once: JavaScriptCore keeps a small
// typed array's bytes in its heap and copies them out once something asks for its buffer,
// which would leave the address behind (oven-sh/bun issue 32054); a view of an ArrayBuffer
// of its own has its bytes where they stay.
export function readBuffer (size) {
  return new Uint8Array(new ArrayBuffer(size))
}
