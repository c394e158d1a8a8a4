// What deno-ffi's read returns once TurboFan has compiled the calls: its declaration from
// wc/deno-ffi-read.js, 200,000 reads of 256 B, the last result's type printed.
//   dd if=/dev/zero bs=256 count=300000 status=none | deno run --allow-ffi docs/fastest/2026-12-02/bigint.js
// Run by Node, not Deno: one line that says what runs it (lib/cli.js notACommand). The
// declaration is imported once Deno is known to run it: a static import makes Node read the
// file as a module, with a warning before any line runs.
if (typeof Deno === 'undefined') {
  require('../../../lib/cli').notACommand('bigint.js', 'it is a probe run in Deno; run ' +
    'dd if=/dev/zero bs=256 count=300000 status=none | deno run --allow-ffi docs/fastest/2026-12-02/bigint.js')
  process.exit()
}
import('../../../wc/deno-ffi-read.js').then(({ readDeclaration, readBuffer }) => {
  const libc = Deno.dlopen('libc.so.6', { read: readDeclaration }).symbols
  const address = Deno.UnsafePointer.of(readBuffer(256))
  let n
  for (let i = 0; i < 200000; i++) n = libc.read(0, address, 256n)
  console.log(typeof n, n)
})
