// libc's read(2) through Deno.dlopen in the form Deno's FFI calls fast: wc/deno-ffi.js,
// Deno's fastest reader, and calls/deno.mjs, Deno's call ladder, both declare it from here,
// so that the ladder's reads cannot drift from the reader's.
// Deno hands a 64-bit parameter (usize: size_t) to V8's fast call as a BigInt, and a
// Number there leaves the fast call for libffi's slow path every time
// (ext/ffi/turbocall.rs; denoland/deno PR 23983): so the length is a BigInt, and the isize
// result is a BigInt too. A `pointer` goes through as it is, where a `buffer` is looked up
// every call.
export const readDeclaration = { parameters: ['i32', 'pointer', 'usize'], result: 'isize' }

// The buffer to read into, whose address Deno.UnsafePointer.of() may take once: that holds
// because Deno keeps every typed array's bytes off V8's moving heap (ext/ffi/ir.rs).
export function readBuffer (size) {
  return new Uint8Array(size)
}
