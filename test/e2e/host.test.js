'use strict'
// Tests for build/just-host (sources in host/). Every reader gets its input
// through a real pipe from dd, as in the lab, via `sh -c`.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const { spawn, spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const ROOT = path.resolve(__dirname, '..', '..')
const { waitFor, childrenOf } = require('../helpers')
const HOST = path.join(ROOT, 'build', 'just-host')
let dir

before(() => {
  // Rebuilds only if a source changed; a no-op otherwise.
  const make = spawnSync('make', ['-C', path.join(ROOT, 'host')], { encoding: 'utf8' })
  if (!fs.existsSync(HOST) || make.status !== 0) {
    assert.fail(`build/just-host is missing or stale: run make first (make -C host)\n${make.stdout || ''}${make.stderr || ''}`)
  }
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'just-host-test-'))
})

after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

function script (name, source) {
  const file = path.join(dir, name)
  fs.writeFileSync(file, source)
  return file
}

const q = s => `'${String(s).replace(/'/g, '\'\\\'\'')}'`

// Runs `just-host [args...]` with stdin from `input` (a shell fragment such as
// `dd if=/dev/zero bs=65536 count=16 2>/dev/null |`, or a redirection given
// as `redirect`).
function run (args, { input = '', redirect = '' } = {}) {
  const cmd = `${input} ${q(HOST)} ${args.map(q).join(' ')} ${redirect}`
  const r = spawnSync('sh', ['-c', cmd], { encoding: 'utf8', timeout: 60000 })
  assert.equal(r.error, undefined, `spawn failed: ${r.error}`)
  return r
}

const DD_1M = 'dd if=/dev/zero bs=65536 count=16 2>/dev/null |'

// Synchronous stdin reader; `form` picks the net.read overload.
const SYNC_READER = `
const { read } = just.net
const blocksize = parseInt(just.args[2], 10)
const form = just.args[3]
const buf = new ArrayBuffer(blocksize)
let size = 0, reads = 0, n = 0
for (;;) {
  if (form === '2') n = read(just.sys.STDIN_FILENO, buf)
  else if (form === '3') n = read(just.sys.STDIN_FILENO, buf, 0)
  else n = read(just.sys.STDIN_FILENO, buf, 0, blocksize)
  if (n <= 0) break
  size += n
  reads++
}
if (n < 0) {
  just.print('error ' + just.sys.errno() + ' ' + just.sys.strerror(just.sys.errno()))
  just.exit(1)
}
just.print('size ' + size + ' reads ' + reads + ' blocksize ' + blocksize)
`

// Non-blocking stdin on the epoll loop; args: blocksize, 'lt' | 'et'.
const LOOP_READER = `
const { sys, net, loop } = just
const blocksize = parseInt(just.args[2], 10)
const et = just.args[3] === 'et'
const fd = sys.STDIN_FILENO
const buf = new ArrayBuffer(blocksize)
const flags = sys.fcntl(fd, sys.F_GETFL)
if (sys.fcntl(fd, sys.F_SETFL, flags | net.O_NONBLOCK) !== 0) throw new Error('F_SETFL failed')
if (!(sys.fcntl(fd, sys.F_GETFL) & net.O_NONBLOCK)) throw new Error('O_NONBLOCK not set')
const ev = just.factory.loop
let size = 0, reads = 0, wakeups = 0, eagain = 0, hup = false
const r = ev.add(fd, (fd, events) => {
  wakeups++
  if (events & loop.EPOLLHUP) hup = true
  for (;;) {
    const n = net.read(fd, buf, 0, blocksize)
    if (n > 0) {
      size += n
      reads++
      if (et) continue // edge-triggered: must drain until EAGAIN
      return
    }
    if (n === 0) {
      if (ev.remove(fd) !== 0) throw new Error('remove failed')
      just.print('size ' + size + ' reads ' + reads + ' blocksize ' + blocksize +
        ' count ' + ev.count + ' hup ' + hup)
      just.error('wakeups ' + wakeups + ' eagain ' + eagain)
      return
    }
    if (sys.errno() === net.EAGAIN) { eagain++; return }
    throw new Error('read: ' + sys.strerror(sys.errno()))
  }
}, et ? loop.EPOLLIN | loop.EPOLLET : loop.EPOLLIN)
if (r !== 0) throw new Error('add: ' + sys.strerror(sys.errno()))
if (ev.count !== 1) throw new Error('count after add is ' + ev.count)
`

// A build/ reached through a symlink (a git worktree's) once gave the host an absolute path
// to the worktree's libnode, and the host failed to start when the worktree was removed.
test('the host finds a libnode unpacked in build/ beside itself, wherever build/ is', () => {
  const libnode = path.join(ROOT, 'build', 'libnode')
  const multiarch = spawnSync('gcc', ['-print-multiarch'], { encoding: 'utf8' }).stdout.trim()
  const unpacked = path.join(libnode, 'usr', 'lib', multiarch)
  if (!fs.existsSync(path.join(unpacked, 'libnode.so.108'))) {
    // libnode-dev installed system-wide: the loader's own paths find it
    const ldd = spawnSync('ldd', [HOST], { encoding: 'utf8' })
    assert.match(ldd.stdout, /libnode\.so\.108 => \/(usr\/)?lib\//)
    return
  }
  const elsewhere = path.join(dir, 'moved-build')
  fs.mkdirSync(elsewhere)
  fs.copyFileSync(HOST, path.join(elsewhere, 'just-host'))
  fs.chmodSync(path.join(elsewhere, 'just-host'), 0o755)
  fs.symlinkSync(libnode, path.join(elsewhere, 'libnode'))
  const r = spawnSync(path.join(elsewhere, 'just-host'), ['--version'], {
    encoding: 'utf8', env: { ...process.env, LD_DEBUG: 'libs' }
  })
  assert.equal(r.status, 0, r.stderr)
  const opened = r.stderr.match(/calling init: (\S*libnode\.so\.108)/)
  assert.ok(opened, r.stderr.slice(0, 2000))
  assert.equal(opened[1], path.join(elsewhere, 'libnode', path.relative(libnode, unpacked), 'libnode.so.108'))
})

test('--version and -v print host and V8 versions', () => {
  for (const flag of ['--version', '-v']) {
    const r = run([flag])
    assert.equal(r.status, 0)
    assert.match(r.stdout, /^just-host \d+\.\d+\.\d+ v8 10\.2\.\d+/)
  }
})

test('just global: args, versions, engine, constants, memoryUsage', () => {
  const file = script('shape.js', `
    const m = just.memoryUsage()
    just.print(JSON.stringify({
      args: just.args, engine: just.engine, version: just.version, versions: just.versions,
      m, pid: just.sys.pid(),
      fns: ['print', 'error', 'exit', 'memoryUsage'].map(f => typeof just[f]),
      sysfns: ['fcntl', 'errno', 'strerror', 'pid'].map(f => typeof just.sys[f]),
      netfns: ['read', 'close'].map(f => typeof just.net[f]),
      loopfns: ['add', 'remove', 'update'].map(f => typeof just.factory.loop[f]),
      run: typeof just.factory.run,
      count: just.factory.loop.count,
      c: [just.sys.STDIN_FILENO, just.sys.STDOUT_FILENO, just.sys.STDERR_FILENO,
        just.sys.F_GETFL, just.sys.F_SETFL, just.net.O_NONBLOCK, just.net.EAGAIN,
        just.loop.EPOLLIN, just.loop.EPOLLOUT, just.loop.EPOLLERR, just.loop.EPOLLHUP, just.loop.EPOLLET]
    }))
  `)
  const r = run([file, 'a b', '--not-a-v8-flag'])
  assert.equal(r.status, 0, r.stderr)
  const o = JSON.parse(r.stdout)
  assert.deepEqual(o.args, [HOST, file, 'a b', '--not-a-v8-flag'])
  assert.equal(o.engine, 'just-host')
  assert.equal(o.versions.just, o.version)
  assert.match(o.versions.v8, /^10\.2\./)
  assert.ok(o.pid > 0)
  for (const k of ['rss', 'total_heap_size', 'used_heap_size', 'heap_size_limit']) {
    assert.equal(typeof o.m[k], 'number', k)
    assert.ok(o.m[k] > 0, k)
  }
  assert.equal(typeof o.m.external_memory, 'number')
  assert.ok(o.m.rss > 1024 * 1024, 'rss is in bytes')
  assert.ok(o.m.used_heap_size <= o.m.total_heap_size)
  for (const t of [...o.fns, ...o.sysfns, ...o.netfns, ...o.loopfns, o.run]) assert.equal(t, 'function')
  assert.equal(o.count, 0)
  assert.deepEqual(o.c, [0, 1, 2, 3, 4, 2048, 11, 1, 4, 8, 16, 2 ** 31])
})

test('print/error write lines to stdout/stderr; print(s, false) omits newline', () => {
  const file = script('print.js', 'just.print(\'a\'); just.print(\'b\', false); just.print(\'c\'); just.error(\'e1\'); just.print(\'\u00e9\')')
  const r = run([file])
  assert.equal(r.status, 0)
  assert.equal(r.stdout, 'a\nbc\n\u00e9\n')
  assert.equal(r.stderr, 'e1\n')
})

test('sync reader, 4-arg net.read(fd, buf, off, len), counts exact bytes', () => {
  const file = script('sync.js', SYNC_READER)
  const r = run([file, '4096', '4'], { input: DD_1M })
  assert.equal(r.status, 0, r.stderr)
  assert.equal(r.stdout, 'size 1048576 reads 256 blocksize 4096\n')
})

test('sync reader, 2-arg net.read(fd, buf) reads buf.byteLength', () => {
  const file = script('sync.js', SYNC_READER)
  const r = run([file, '4096', '2'], { input: DD_1M })
  assert.equal(r.status, 0, r.stderr)
  assert.equal(r.stdout, 'size 1048576 reads 256 blocksize 4096\n')
})

test('sync reader, 3-arg net.read(fd, buf, off) reads byteLength - off', () => {
  const file = script('sync.js', SYNC_READER)
  const r = run([file, '65536', '3'], { input: DD_1M })
  assert.equal(r.status, 0, r.stderr)
  assert.match(r.stdout, /^size 1048576 reads \d+ blocksize 65536\n$/)
})

test('net.read honours off/len and a view\'s byteOffset', () => {
  const file = script('view.js', `
    const ab = new ArrayBuffer(32)
    const u8 = new Uint8Array(ab)
    const view = new Uint8Array(ab, 8, 16)
    const n1 = just.net.read(0, view, 2, 3)     // lands at ab[10..12]
    const n2 = just.net.read(0, ab, 20, 2)      // lands at ab[20..21]
    const dv = new DataView(ab, 24, 8)
    const n3 = just.net.read(0, dv)             // rest (<= 8) at ab[24..]
    just.print([n1, n2, n3].join(' ') + ' ' + String.fromCharCode(...u8.map(b => b || 46)))
  `)
  const r = run([file], { input: 'printf abcdefghij |' })
  assert.equal(r.status, 0, r.stderr)
  assert.equal(r.stdout, '3 2 5 ..........abc.......de..fghij...\n')
})

test('net.read fails like the syscall on arguments it cannot use: -1, EINVAL, no exception', () => {
  // Not an exception, so a fast call never has to fall back into a throw
  // (V8 10.2 would skip the caller's try/catch): see host/README.md.
  const file = script('range.js', `
    const buf = new ArrayBuffer(16)
    const view = new Uint8Array(new ArrayBuffer(64), 8, 16)
    const cases = [[buf, 17, 0], [buf, 0, 17], [buf, 8, 9], [buf, -1, 1], [buf, 0, -1],
      [buf, 1.5, 1], [buf, 0, NaN], [buf, 2 ** 32, 1], [buf, 2 ** 53, 2 ** 53], [buf, 17],
      [view, 0, 17], [view, 16, 1], [buf, 0, Infinity], [buf, '1', 1], [buf, 0, {}],
      [{}], ['str'], [42], [undefined], [null, 0, 1]]
    const out = cases.map(([b, ...rest]) => {
      try { return just.net.read(0, b, ...rest) + '/' + just.sys.errno() } catch (e) { return e.name }
    })
    // boundaries are allowed: zero-length read at the very end
    out.push(just.net.read(0, buf, 16, 0))
    out.push(just.net.read(0, buf, 0, 16))
    just.print(out.join(' '))
  `)
  const r = run([file], { input: 'printf hello |' })
  assert.equal(r.status, 0, r.stderr)
  const out = r.stdout.trim().split(' ')
  assert.deepEqual(out.slice(0, 20), Array(20).fill('-1/22'))
  assert.deepEqual(out.slice(20), ['0', '5'])
})

test('net.read on a closed stdin returns -1 with EBADF', () => {
  const file = script('sync.js', SYNC_READER)
  const r = run([file, '4096', '4'], { redirect: '0<&-' })
  assert.equal(r.status, 1)
  assert.equal(r.stdout, 'error 9 Bad file descriptor\n')
})

test('net.read on a directory as stdin returns -1 with EISDIR', () => {
  const file = script('sync.js', SYNC_READER)
  const r = run([file, '4096', '2'], { redirect: `< ${q(dir)}` })
  assert.equal(r.status, 1)
  assert.equal(r.stdout, 'error 21 Is a directory\n')
})

test('net.close returns 0, then -1/EBADF on the closed fd', () => {
  const file = script('close.js', `
    const a = just.net.close(0)
    const b = just.net.close(0)
    just.print(a + ' ' + b + ' ' + just.sys.strerror(just.sys.errno()))
  `)
  const r = run([file], { input: 'true |' })
  assert.equal(r.status, 0, r.stderr)
  assert.equal(r.stdout, '0 -1 Bad file descriptor\n')
})

test('net.write checks its arguments as net.read does: -1, EINVAL, no exception; fast and slow give the same answers', () => {
  const file = script('write-args.js', `
    const { write } = just.net
    const fd = just.fs.open('/dev/null', 1)
    const buf = new ArrayBuffer(16)
    const cases = [[buf, 17, 0], [buf, 0, 17], [buf, -1, 1], [buf, 1.5, 1], [buf, 0, NaN], [{}, 0, 1], ['str', 0, 1], [null, 0, 1],
      [buf, 0, 16], [new Uint8Array(new ArrayBuffer(64), 8, 16), 0, 16], [buf, 16, 0], [buf, 8, 8]]
    function call (c) {
      try { return write(fd, c[0], c[1], c[2]) } catch (e) { return e.name }
    }
    const out = []
    for (let i = 0; i < 60000; i++) {
      const r = call(cases[i % cases.length])
      if (i >= 60000 - cases.length) out.push(r < 0 ? r + '/' + just.sys.errno() : r)
    }
    just.print(out.join(' '))
    just.error(JSON.stringify(just.host.calls()['net.write']))
  `)
  const fast = run([file])
  const slow = run([SLOW, file])
  assert.equal(fast.status, 0, fast.stderr)
  assert.equal(slow.status, 0, slow.stderr)
  // the loop ends at case 60000 % 12 = 0, so the last 12 answers are in the cases' order
  assert.equal(fast.stdout, '-1/22 -1/22 -1/22 -1/22 -1/22 -1/22 -1/22 -1/22 16 16 0 8\n')
  assert.equal(slow.stdout, fast.stdout)
  const calls = JSON.parse(fast.stderr)
  assert.ok(calls.fast > 0, fast.stderr)
  assert.deepEqual(JSON.parse(slow.stderr), { fast: 0, fallback: 0, slow: 60000 })
})

test('socket bindings: a listening socket, and what socket, bind, listen and accept4 refuse, as the syscalls do', () => {
  const file = script('sockets.js', `
    const { socket, setsockopt, bind, listen, accept4, close, AF_INET, SOCK_STREAM, SOCK_NONBLOCK, SOL_SOCKET, SO_REUSEADDR } = just.net
    const { errno } = just.sys
    const answer = r => (r < 0 ? r + '/' + errno() : r)
    const fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0)
    const out = [fd > 2 ? 'fd' : fd, setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, 1)]
    out.push(answer(accept4(fd, 0)))                 // not listening: EINVAL
    out.push(answer(bind(fd, 'localhost', 0)))       // not a dotted address: EINVAL
    out.push(answer(bind(fd, '127.0.0.1', 65536)))   // no such port: EINVAL
    out.push(answer(bind(fd, 42, 0)))                // not a string: EINVAL
    out.push(bind(fd, '127.0.0.1', 0), listen(fd, 16))
    out.push(answer(accept4(fd, SOCK_NONBLOCK)))     // nobody is connecting: EAGAIN
    out.push(close(fd))
    out.push(answer(bind(fd, '127.0.0.1', 0)), answer(listen(fd, 1)), answer(accept4(fd, 0)), answer(setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, 1)))
    out.push(answer(socket(12345, SOCK_STREAM, 0)))  // no such family: EAFNOSUPPORT
    just.print(out.join(' '))
  `)
  const r = run([file])
  assert.equal(r.status, 0, r.stderr)
  assert.equal(r.stdout, 'fd 0 -1/22 -1/22 -1/22 -1/22 0 0 -1/11 0 -1/9 -1/9 -1/9 -1/9 -1/97\n')
})

test('epoll loop, level-triggered, reads a pipe to EOF with exact counts', () => {
  const file = script('loop.js', LOOP_READER)
  const r = run([file, '4096', 'lt'], { input: DD_1M })
  assert.equal(r.status, 0, r.stderr)
  assert.match(r.stdout, /^size 1048576 reads 256 blocksize 4096 count 0 hup (true|false)\n$/)
})

test('epoll loop, EPOLLET, drains to EAGAIN with exact counts', () => {
  const file = script('loop.js', LOOP_READER)
  // 3000 does not divide the input, so short reads must be counted right.
  const r = run([file, '3000', 'et'], { input: DD_1M })
  assert.equal(r.status, 0, r.stderr)
  const m = r.stdout.match(/^size 1048576 reads (\d+) blocksize 3000 count 0 hup (true|false)\n$/)
  assert.ok(m, r.stdout)
  assert.ok(Number(m[1]) >= Math.ceil(1048576 / 3000))
})

test('epoll loop: a hung-up empty pipe still invokes the callback (EPOLLHUP)', () => {
  const file = script('loop.js', LOOP_READER)
  const r = run([file, '4096', 'lt'], { input: 'sleep 0.2 |' })
  assert.equal(r.status, 0, r.stderr)
  assert.equal(r.stdout, 'size 0 reads 0 blocksize 4096 count 0 hup true\n')
})

test('loop.update switches an fd to EPOLLET; just.factory.run() runs the loop from JS', () => {
  const file = script('update.js', `
    const { loop, net, sys } = just
    sys.fcntl(0, sys.F_SETFL, sys.fcntl(0, sys.F_GETFL) | net.O_NONBLOCK)
    const buf = new ArrayBuffer(65536)
    let size = 0
    const ev = just.factory.loop
    ev.add(0, fd => {
      for (;;) {
        const n = net.read(fd, buf)
        if (n > 0) { size += n; continue }
        if (n === 0) return ev.remove(fd)
        return
      }
    })
    just.print('update ' + ev.update(0, loop.EPOLLIN | loop.EPOLLET))
    just.print('update-unknown ' + ev.update(99, loop.EPOLLIN) + ' ' + sys.strerror(sys.errno()))
    just.print('add-twice ' + ev.add(0, () => {}) + ' ' + sys.strerror(sys.errno()))
    just.factory.run()
    just.print('after run size ' + size + ' count ' + ev.count)
  `)
  const r = run([file], { input: DD_1M })
  assert.equal(r.status, 0, r.stderr)
  assert.equal(r.stdout, 'update 0\nupdate-unknown -1 Bad file descriptor\nadd-twice -1 File exists\nafter run size 1048576 count 0\n')
})

test('--trace-gc is passed to V8 and produces GC trace lines', () => {
  const file = script('alloc.js', `
    let keep = []
    for (let i = 0; i < 300000; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 5000) keep = [] }
    just.print('allocated')
  `)
  const r = run(['--trace-gc', file])
  assert.equal(r.status, 0, r.stderr)
  assert.match(r.stdout, /Scavenge|Mark-sweep|Mark-Compact/)
  assert.match(r.stdout, /allocated/)
})

test('--max-heap-size=N reaches V8 (heap_size_limit shrinks)', () => {
  const file = script('limit.js', 'just.print(just.memoryUsage().heap_size_limit)')
  const small = Number(run(['--max-heap-size=64', file]).stdout)
  const dflt = Number(run([file]).stdout)
  assert.ok(small > 0 && small <= 80 * 1024 * 1024, `limit ${small}`)
  assert.ok(dflt > small)
})

test('flags after the script go to just.args, not V8; bare -- ends V8 flags', () => {
  const file = script('args.js', 'just.print(JSON.stringify(just.args.slice(1)))')
  const r = run(['--', file, '--trace-gc'])
  assert.equal(r.status, 0, r.stderr)
  assert.equal(r.stdout, JSON.stringify([file, '--trace-gc']) + '\n')
})

test('unknown V8 flag is an error', () => {
  const file = script('noop.js', '')
  const r = run(['--no-such-v8-flag', file])
  assert.equal(r.status, 2)
  assert.match(r.stderr, /unknown V8 flag '--no-such-v8-flag'/)
})

test('no script argument: usage, exit 2', () => {
  const r = run([])
  assert.equal(r.status, 2)
  assert.match(r.stderr, /^usage: just-host/)
})

test('missing script: one clear line, exit 1', () => {
  const missing = path.join(dir, 'nope.js')
  const r = run([missing])
  assert.equal(r.status, 1)
  assert.equal(r.stderr, `just-host: cannot read script '${missing}': No such file or directory\n`)
})

test('syntax error: file:line:col, source line and SyntaxError, exit 1', () => {
  const file = script('syntax.js', 'just.print("ok")\nlet x = ;\n')
  const r = run([file])
  assert.equal(r.status, 1)
  assert.equal(r.stdout, '')
  assert.ok(r.stderr.startsWith(`${file}:2:9\nlet x = ;\n        ^\n`), r.stderr)
  assert.match(r.stderr, /SyntaxError: Unexpected token ';'/)
})

test('uncaught top-level exception: location, stack, exit 1', () => {
  const file = script('throw.js', 'function boom () {\n  throw new Error("kaboom")\n}\nboom()\n')
  const r = run([file])
  assert.equal(r.status, 1)
  assert.ok(r.stderr.startsWith(`${file}:2:3\n`), r.stderr)
  assert.match(r.stderr, /Error: kaboom\n {4}at boom \(.*throw\.js:2:9\)/)
})

test('uncaught exception inside a loop callback: exit 1 naming the file', () => {
  const file = script('cbthrow.js', `
    just.factory.loop.add(just.sys.STDIN_FILENO, (fd, events) => {
      throw new TypeError('callback failed ' + fd)
    })
  `)
  const r = run([file], { input: 'echo x |' })
  assert.equal(r.status, 1)
  assert.match(r.stderr, /cbthrow\.js:3:\d+/)
  assert.match(r.stderr, /TypeError: callback failed 0/)
})

test('thrown non-Error and unhandled rejection are uncaught too', () => {
  const s = run([script('str.js', 'throw "plain string"')])
  assert.equal(s.status, 1)
  assert.match(s.stderr, /str\.js:1:1[\s\S]*Uncaught plain string/)
  const p = run([script('rej.js', 'async function f () { await null; throw new Error("later") }\nf()\n')])
  assert.equal(p.status, 1)
  assert.match(p.stderr, /unhandled promise rejection[\s\S]*Error: later/)
  const ok = run([script('handled.js', 'Promise.reject(new Error("x")).catch(e => just.print("caught " + e.message))')])
  assert.equal(ok.status, 0, ok.stderr)
  assert.equal(ok.stdout, 'caught x\n')
})

test('just.exit(3) exits 3 with stdout flushed, also from a loop callback', () => {
  const top = run([script('exit.js', 'just.print("before"); just.exit(3); just.print("after")')])
  assert.equal(top.status, 3)
  assert.equal(top.stdout, 'before\n')
  const cb = run([script('exitcb.js', `
    just.factory.loop.add(0, () => { just.print('in callback'); just.exit(4) })
  `)], { input: 'echo x |' })
  assert.equal(cb.status, 4)
  assert.equal(cb.stdout, 'in callback\n')
  // V8's own stdio output (here --trace-gc) survives just.exit too.
  const gc = run(['--trace-gc', script('exitgc.js', `
    let a = []; for (let i = 0; i < 300000; i++) { a.push({ i }); if (a.length > 5000) a = [] }
    just.exit(0)
  `)])
  assert.equal(gc.status, 0)
  assert.match(gc.stdout, /Scavenge|Mark-sweep|Mark-Compact/)
})

// ---- V8 fast API calls (host/fast-api.h) and the single binary (build/wcb) ----
// TurboFan calls a fast function only from optimised code, so every check
// below runs a call site hot (tens of thousands of calls) and compares with
// --no-turbo-fast-api-calls, which keeps every call on the slow callback.
// just.host.calls() says which path the calls took.

const SLOW = '--no-turbo-fast-api-calls'
const WC_JS = path.join(ROOT, 'wc', 'wc.js')
const WCB = path.join(ROOT, 'build', 'wcb')
// 5 MiB + 3 bytes: not a multiple of any block size; dd's 64 KiB writes as in the lab.
const ODD_INPUT = '{ dd if=/dev/zero bs=65536 count=80 2>/dev/null; printf abc; } |'
const ODD_BYTES = 80 * 65536 + 3

test('fast and slow paths: wc/wc.js counts the same bytes through a pipe and from a file', () => {
  const file = path.join(dir, 'odd.bin')
  fs.writeFileSync(file, Buffer.alloc(ODD_BYTES, 7))
  for (const bs of [256, 3000, 4096, 65536]) {
    const fast = run([WC_JS, String(bs)], { input: ODD_INPUT })
    const slow = run([SLOW, WC_JS, String(bs)], { input: ODD_INPUT })
    for (const r of [fast, slow]) {
      assert.equal(r.status, 0, r.stderr)
      const m = r.stdout.match(/^size (\d+) reads (\d+) blocksize (\d+)\n$/)
      assert.ok(m, r.stdout)
      assert.equal(Number(m[1]), ODD_BYTES)
      assert.ok(Number(m[2]) >= Math.ceil(ODD_BYTES / bs))
      assert.equal(Number(m[3]), bs)
    }
    // From a regular file every read but the last is full: the counts are exact.
    const ff = run([WC_JS, String(bs)], { redirect: `< ${q(file)}` })
    const fs_ = run([SLOW, WC_JS, String(bs)], { redirect: `< ${q(file)}` })
    assert.equal(ff.stdout, `size ${ODD_BYTES} reads ${Math.ceil(ODD_BYTES / bs)} blocksize ${bs}\n`)
    assert.equal(fs_.stdout, ff.stdout)
  }
})

test('fast and slow paths: all three net.read forms give the same counts', () => {
  const file = script('sync.js', SYNC_READER)
  for (const form of ['2', '3', '4']) {
    const fast = run([file, '256', form], { input: ODD_INPUT })
    const slow = run([SLOW, file, '256', form], { input: ODD_INPUT })
    assert.equal(fast.status, 0, fast.stderr)
    assert.equal(fast.stdout, `size ${ODD_BYTES} reads ${Math.ceil(ODD_BYTES / 256)} blocksize 256\n`)
    assert.equal(slow.stdout, fast.stdout)
  }
})

const COUNTING_READER = `
const { read } = just.net
const bs = parseInt(just.args[2], 10)
const buf = new ArrayBuffer(bs)
let n, reads = 0
while ((n = read(0, buf, 0, bs)) > 0) reads++
just.print(JSON.stringify({ reads, calls: just.host.calls() }))
`

test('the fast path is taken in optimised code, and only then', () => {
  const file = script('counting.js', COUNTING_READER)
  // 64 MiB in 256-byte reads: optimisation happens in the background after
  // some thousands of calls, so give it far more than that.
  const fast = run([file, '256'], { input: 'dd if=/dev/zero bs=65536 count=1024 2>/dev/null |' })
  assert.equal(fast.status, 0, fast.stderr)
  const f = JSON.parse(fast.stdout)
  const total = f.reads + 1 // the last read returns 0
  const read = f.calls['net.read']
  assert.equal(read.fast + read.slow, total)
  assert.equal(read.fallback, 0, 'a plain ArrayBuffer never needs the slow path')
  // The interpreter and baseline code make the first calls; TurboFan the rest.
  assert.equal(total, 262145)
  assert.ok(read.fast > total * 0.5, JSON.stringify(read))

  const slow = run([SLOW, file, '256'], { input: ODD_INPUT })
  const s = JSON.parse(slow.stdout)
  assert.deepEqual(s.calls['net.read'], { fast: 0, fallback: 0, slow: s.reads + 1 })
  for (const name of ['net.read', 'net.readRaw', 'net.close', 'net.write', 'net.accept4', 'sys.errno', 'sys.fcntl', 'sys.pid', 'uring.read', 'uring.nop']) {
    assert.ok(name in f.calls, name)
  }
})

test('fast and slow paths: the same answer for odd arguments at a hot call site', () => {
  // Views and non-int32 fds fall back to the slow callback; everything else,
  // including arguments read() cannot use, is answered by the fast function.
  const file = script('odd-args.js', `
    const { read } = just.net
    const ab = new ArrayBuffer(64)
    const memory = new WebAssembly.Memory({ initial: 1 })
    const detached = memory.buffer
    memory.grow(1) // detaches the old buffer: null bytes, length 0
    const cases = [
      [0, ab, 0, 64], [0, ab, 1.5, 2], [0, ab, 0, NaN], [0, ab, 60, 5], [0, ab, -1, 1],
      [0, new Uint8Array(ab, 4, 32), 0, 8], [0, new DataView(ab, 8), 0, 8], [0, new SharedArrayBuffer(16), 0, 8],
      [2 ** 32, ab, 0, 4], [-0, ab, 0, 4], [0.5, ab, 0, 4], [-1.5, ab, 0, 4], [0, ab, 64, 0], [99, ab, 0, 4],
      [0, ab, 2 ** 53, 1], [0, ab, 0, Infinity], [0, {}, 0, 1], [0, 'x', 0, 1], [0, null, 0, 1],
      // what the fast path's direct read of ArrayBuffer fields must tell apart
      [0, new (class extends ArrayBuffer {})(32), 0, 32], [0, Object.assign(new ArrayBuffer(16), { x: 1 }), 0, 16],
      [0, new ArrayBuffer(0), 0, 1], [0, new ArrayBuffer(0), 0, 0], [0, new Uint8Array(24).buffer, 8, 16],
      [0, Object.create(ArrayBuffer.prototype), 0, 1], [0, new Proxy(ab, {}), 0, 1],
      [0, detached, 0, 0], [0, detached, 0, 1], [0, memory.buffer, 65536, 64]
    ]
    function call (c) {
      try { return read(c[0], c[1], c[2], c[3]) } catch (e) { return e.name }
    }
    const out = []
    for (let i = 0; i < 100000; i++) {
      const c = cases[i % cases.length]
      const r = call(c)
      if (i >= 100000 - cases.length) out.push(r < 0 ? r + '/' + just.sys.errno() : r)
    }
    just.print(out.join(' '))
    just.error(JSON.stringify(just.host.calls()['net.read']))
  `)
  const input = 'yes abcdefgh | head -c 20000000 |'
  const fast = run([file], { input })
  const slow = run([SLOW, file], { input })
  assert.equal(fast.status, 0, fast.stderr)
  assert.equal(slow.status, 0, slow.stderr)
  assert.equal(fast.stdout, slow.stdout)
  assert.equal(fast.stdout.trim().split(' ').length, 29)
  assert.match(fast.stdout, /-1\/22/)
  const calls = JSON.parse(fast.stderr)
  assert.ok(calls.fast > 0 && calls.fallback > 0, fast.stderr)
})

test('on the lab\'s V8 the fast read finds ArrayBuffer fields itself (else it would use the API)', () => {
  const r = run([script('ab-fields.js', 'just.print(String(just.host.arrayBufferFields))')])
  assert.equal(r.status, 0, r.stderr)
  assert.equal(r.stdout, 'true\n')
})

test('studies/call-cost.js runs the three zero-byte call shapes and prints each against readRaw (figures not checked)', () => {
  const r = run([path.join(ROOT, 'studies', 'call-cost.js'), '1', '20000'], { redirect: '< /dev/null' })
  assert.equal(r.status, 0, r.stderr)
  const lines = r.stdout.trim().split('\n')
  assert.deepEqual(lines.map(l => l.split(/\s{2,}/)[0]),
    ['net.readRaw(0, address, 0)', 'net.read(0, arrayBuffer, 0, 0)', 'net.read(0, uint8Array, 0, 0)'])
  for (const line of lines) assert.match(line, /\d+\.\d ns\/call {2}[+-]\d+\.\d$/)
  assert.match(lines[0], /\+0\.0$/)
  const bad = run([path.join(ROOT, 'studies', 'call-cost.js'), 'many'], { redirect: '< /dev/null' })
  assert.equal(bad.status, 2)
  assert.match(bad.stderr, /^call-cost\.js: ROUNDS and CALLS must be whole numbers above 0 \(usage: /)
})

// Runs a study tool, sends it Ctrl-C once its first run is under way (its pipe-run is
// running) and resolves to its exit code, its stderr and how long it took to stop.
async function interruptTool (script, args) {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', chunk => { stderr += chunk })
  await waitFor(() => child.exitCode !== null || childrenOf(child.pid).includes('pipe-run'), 60000, `${path.basename(script)}'s first run`)
  child.kill('SIGINT')
  const code = await new Promise(resolve => child.on('close', resolve))
  return { code, stderr }
}

// studies/file-cost.js's input folders, to check it leaves none behind.
const { zeroFileFolders } = require('../../experiments/stdio/zero-file')
const FILE_COST = path.join(ROOT, 'studies', 'file-cost.js')
const fileCostDirs = () => new Set(zeroFileFolders())
const newFileCostDirs = before => [...fileCostDirs()].filter(f => !before.has(f))

test('studies/file-cost.js: CPU per read from a file for C and the host readers, start-up-dominated rows marked', () => {
  // 2 MiB is far too little for a figure (the host's start-up alone takes ~30 ms of
  // CPU, its reads of 2 MiB a few): the test checks the shape, the mark and the
  // clean-up, and that C and a repeated name are measured once.
  const before = fileCostDirs()
  const r = spawnSync(process.execPath, [FILE_COST, '--sizes', '512,2048', '--mib', '2', '--rounds', '1', '--only', 'just-sync', '--only', 'c', '--only', 'just-sync', '--only', 'just-fast'], { encoding: 'utf8', timeout: 60000 })
  assert.equal(r.status, 0, r.stderr)
  const lines = r.stdout.trim().split('\n')
  assert.match(lines[0], /^program +block +CPU\/read +vs C$/)
  const rows = lines.slice(1, 7).map(line => line.trim().split(/\s+/))
  assert.deepEqual(rows.map(row => [row[0], row[1]]), [
    ['c', '512'], ['just-sync', '512'], ['just-fast', '512'],
    ['c', '2048'], ['just-sync', '2048'], ['just-fast', '2048']])
  for (const line of lines.slice(1, 7)) assert.match(line, /^\S+ +\d+ +-?\d+\.\d ± \d+\.\d ns°?/)
  assert.match(lines[3], /^just-fast +512 +-?\d+\.\d ± \d+\.\d ns° +[+-]\d+\.\d ns, -?\d+\.\d% of C's speed$/)
  assert.equal(lines[7], '° what a run pays once (start-up, compiling) is over a third of a full run\'s CPU time, so the figure is mostly noise: give a larger --mib')
  assert.deepEqual(newFileCostDirs(before), [])
})

test('studies/file-cost.js: a reader that fails or miscounts stops it with one line, exit 1, no file left', () => {
  const miscount = script('miscount.sh', '#!/bin/sh\necho "size 5 reads 1 blocksize 1024"\n')
  fs.chmodSync(miscount, 0o755)
  const before = fileCostDirs()
  for (const [fake, message] of [
    ['/bin/false', /wc\.js 1024 < \S+\/zeros: reader exited 1: no message/],
    ['/bin/true', /< \S+\/zeros: reader printed no result line: ""/],
    [miscount, /miscount\.sh \S+wc\.js 1024 < \S+\/zeros: reader counted 5 bytes, 262144 were sent/]
  ]) {
    const r = spawnSync(process.execPath, [FILE_COST, '--only', 'just-sync', '--sizes', '1024', '--mib', '1', '--rounds', '1'],
      { encoding: 'utf8', env: { ...process.env, JUST: fake } })
    assert.equal(r.status, 1, fake)
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
    assert.match(r.stderr, /^file-cost\.js: /)
    assert.match(r.stderr, message)
  }
  assert.deepEqual(newFileCostDirs(before), [])
})

test('studies/file-cost.js: Ctrl-C stops it at once, exit 130, its file removed', async () => {
  const before = fileCostDirs()
  const { code, stderr } = await interruptTool(FILE_COST, ['--sizes', '256', '--mib', '64', '--rounds', '50'])
  assert.equal(code, 130, stderr)
  assert.equal(stderr, 'file-cost.js: interrupted; nothing was measured in full\n')
  assert.deepEqual(newFileCostDirs(before), [])
})

test('studies/file-cost.js: bad options are one line naming the fix, exit 2', () => {
  for (const [args, message] of [
    [['--bogus'], /unknown option --bogus; see node studies\/file-cost\.js --help/],
    [['--only', 'nope'], /--only nope matches no program; the programs are: c, limit-splice, coreutils, /],
    [['--only', 'node-stream'], /node-stream reads in chunks of its own size.*leave it out/],
    [['--sizes', '1000'], /block size 1000 is not a power of two: try 1024/],
    [['--mib', '0'], /--mib must be a whole number of at least 1, not '0'/]
  ]) {
    const r = spawnSync(process.execPath, [FILE_COST, ...args], { encoding: 'utf8' })
    assert.equal(r.status, 2, args.join(' '))
    assert.equal(r.stdout, '')
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
    assert.match(r.stderr, message)
  }
})

const INSTR_COST = path.join(ROOT, 'studies', 'instr-cost.js')

test('studies/instr-cost.js: user-space instructions per read under valgrind, C first, the host above it', () => {
  // 2048 reads are too few for V8 to finish optimising, so the host's figure carries
  // compiling here; C's loop has nothing to compile. The counts do not depend on timing.
  const r = spawnSync(process.execPath, [INSTR_COST, '--sizes', '512', '--reads', '2048', '--only', 'just-fast', '--only', 'c'], { encoding: 'utf8', timeout: 120000 })
  assert.equal(r.status, 0, r.stderr)
  const lines = r.stdout.trim().split('\n')
  assert.equal(lines[0], 'program        block  instructions/read  vs C')
  const [c, fast] = lines.slice(1).map(line => line.trim().split(/\s+/))
  assert.deepEqual([c[0], c[1], fast[0], fast[1]], ['c', '512', 'just-fast', '512'])
  assert.equal(c.length, 3, 'C has no overhead over itself')
  assert.ok(Number(c[2]) > 0 && Number(c[2]) < 100, `C's read loop is a few instructions around read(2): ${c[2]}`)
  assert.ok(Number(fast[2]) > Number(c[2]), 'the host runs more user-space instructions per read than C')
  assert.equal(Number(fast[3]), Number((Number(fast[2]) - Number(c[2])).toFixed(1)))
})

test('studies/instr-cost.js: bad options, no valgrind or a failing reader: one line, exit 2 or 1', () => {
  for (const [args, env, status, message] of [
    [['--bogus'], {}, 2, /unknown option --bogus; see node studies\/instr-cost\.js --help/],
    [['--reads', '0'], {}, 2, /--reads must be a whole number of at least 1, not '0'/],
    [['--only', 'coreutils'], {}, 2, /coreutils reads in chunks of its own size/],
    [[], { VALGRIND: '/nonexistent/valgrind' }, 2, /cannot run \/nonexistent\/valgrind \(ENOENT\): apt-get install valgrind/],
    [['--only', 'just-sync', '--sizes', '1024', '--reads', '4'], { JUST: '/bin/false' }, 1, /dd if=\/dev\/zero bs=1024 count=4 status=none \| .*: reader exited 1: /]
  ]) {
    const r = spawnSync(process.execPath, [INSTR_COST, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60000 })
    assert.equal(r.status, status, `${args.join(' ')}: ${r.stderr}`)
    assert.equal(r.stdout, '')
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
    assert.match(r.stderr, /^instr-cost\.js: /)
    assert.match(r.stderr, message)
  }
})

// Stopped, not run to its end: its line says it was interrupted, and the run asked (minutes
// under valgrind) would outlast the test's limit (no elapsed time is asserted: a review)
test('studies/instr-cost.js: Ctrl-C stops valgrind and dd at once, exit 130', { timeout: 120000 }, async () => {
  const args = ['--only', 'just-sync', '--sizes', '256', '--reads', '10000000']
  const { code, stderr } = await interruptTool(INSTR_COST, args)
  assert.equal(code, 130, stderr)
  assert.equal(stderr, 'instr-cost.js: interrupted; nothing was counted in full\n')
  const cmdline = pid => { try { return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8') } catch { return '' } }
  const left = fs.readdirSync('/proc').filter(name => /^\d+$/.test(name) && cmdline(name).includes('count=10000000'))
  assert.deepEqual(left, [], 'no dd left running')
})

test('fast and slow paths: fcntl, errno, close and pid agree when hot', () => {
  const file = script('sys-hot.js', `
    const { sys, net } = just
    let acc = ''
    for (let i = 0; i < 50000; i++) {
      const fl = sys.fcntl(0, sys.F_GETFL)
      const fd = sys.fcntl(1, sys.F_GETFD, 0)
      const bad = sys.fcntl(99, sys.F_GETFL)
      const e1 = sys.errno()
      const c = net.close(99)
      const e2 = sys.errno()
      const odd = sys.fcntl(0.5, sys.F_GETFL) // ToInt32(0.5) is fd 0, via the slow path
      const p = sys.pid() === sys.pid()
      if (i === 49999) acc = [fl, fd, bad, e1, c, e2, odd === fl, p].join(' ')
    }
    just.print(acc)
    const calls = just.host.calls()
    just.error(JSON.stringify(['sys.fcntl', 'sys.errno', 'net.close', 'sys.pid'].map(k => calls[k].fast)))
  `)
  const fast = run([file], { input: 'echo x |' })
  const slow = run([SLOW, file], { input: 'echo x |' })
  assert.equal(fast.status, 0, fast.stderr)
  assert.equal(fast.stdout, slow.stdout)
  assert.match(fast.stdout, / -1 9 -1 9 true true\n$/)
  for (const n of JSON.parse(fast.stderr)) assert.ok(n > 0, fast.stderr)
  assert.deepEqual(JSON.parse(slow.stderr), [0, 0, 0, 0])
})

test('a try/catch around a hot net.read still catches what the slow path throws', () => {
  // A Symbol fd makes ToInt32 throw. Non-numbers never reach a fast function
  // (TurboFan deoptimises first), so the exception comes from the slow
  // callback in unoptimised code and the handler sees it.
  const file = script('hot-throw.js', `
    const { read } = just.net
    const ab = new ArrayBuffer(16)
    let caught = 0, bytes = 0
    for (let i = 0; i < 100000; i++) {
      try { bytes += read(i % 1000 === 999 ? Symbol('fd') : 0, ab, 0, 1) } catch (e) { if (e instanceof TypeError) caught++ }
    }
    just.print(caught + ' ' + bytes)
  `)
  const input = 'yes | head -c 200000 |'
  const fast = run([file], { input })
  const slow = run([SLOW, file], { input })
  assert.equal(fast.status, 0, fast.stderr)
  assert.equal(fast.stdout, '100 99900\n')
  assert.equal(slow.stdout, fast.stdout)
})

test('sys.address + net.readRaw: bytes land at the address, view offsets count, bad input', () => {
  const file = script('raw.js', `
    const { sys, net } = just
    const ab = new ArrayBuffer(32)
    const u8 = new Uint8Array(ab)
    const view = new Uint8Array(ab, 8, 16)
    const a = sys.address(ab)
    const v = sys.address(view)
    const n1 = net.readRaw(0, v + 2, 3)           // ab[10..12]
    const n2 = net.readRaw(0, a + 20, 2)          // ab[20..21]
    const neg = net.readRaw(0, a, -1) + '/' + sys.errno()
    const zero = net.readRaw(0, a, 0)
    const bad = [{}, 'x', 1].map(b => { try { sys.address(b); return 'ok' } catch (e) { return e.name } })
    just.print([v - a, n1, n2, neg, zero, bad.join(','), String.fromCharCode(...u8.map(b => b || 46))].join(' '))
  `)
  const r = run([file], { input: 'printf abcdefghij |' })
  assert.equal(r.status, 0, r.stderr)
  assert.equal(r.stdout, '8 3 2 -1/22 0 TypeError,TypeError,TypeError ..........abc.......de..........\n')
})

test('sys.utf8Length, writeUtf8 and readUtf8: the bytes and text Node makes of them, bad input', () => {
  const texts = ['', 'plain ASCII', 'é', '—', 'フレームワークのベンチマーク', 'x😀y', '\u07ff\u0800\uffff',
    '\ud800 lone', 'lone \udc00', 'a' + 'é'.repeat(700) + 'b']
  // each a byte that starts no valid sequence: stray, overlong, cut short, a surrogate, past U+10FFFF
  const invalid = [[0x61, 0xff, 0x62], [0xc0, 0x80], [0xe3, 0x81], [0xe3, 0x81, 0x61], [0xed, 0xa0, 0x80],
    [0xf4, 0x90, 0x80, 0x80], [0x80, 0xe3, 0x83, 0x95]]
  const file = script('utf8.js', `
    const { sys } = just
    const hex = bytes => Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('')
    // a rope, as a page built by concatenation is
    const rope = text => text.length > 1 ? text.slice(0, 1) + text.slice(1) : text
    const outcome = f => { try { return f() } catch (e) { return e.name + ': ' + e.message } }
    const bytes = new Uint8Array(4096)
    just.print(JSON.stringify({
      encoded: ${JSON.stringify(texts)}.map(rope).map(text => {
        const end = sys.writeUtf8(text, bytes, 3)
        return [hex(bytes.subarray(3, end)), sys.utf8Length(text), sys.readUtf8(bytes, 3, end)]
      }),
      invalid: ${JSON.stringify(invalid)}.map(b => sys.readUtf8(new Uint8Array(b), 0, b.length)),
      view: sys.readUtf8(new Uint8Array(new Uint8Array([0x78, 0x61, 0x62, 0x79]).buffer, 1, 2), 0, 2),
      bad: [
        () => sys.writeUtf8('aé', new Uint8Array(4), 2),
        () => sys.writeUtf8('a', new Uint8Array(2), 3),
        () => sys.writeUtf8('a', new Uint8Array(2), 0.5),
        () => sys.writeUtf8(1, new Uint8Array(2), 0),
        () => sys.readUtf8(new Uint8Array(2), 2, 1),
        () => sys.readUtf8(new Uint8Array(2), 0, 3),
        () => sys.readUtf8({}, 0, 0),
        () => sys.utf8Length(3)
      ].map(outcome),
      untouched: hex(new Uint8Array(4).map((_, i, b) => (outcome(() => sys.writeUtf8('abcde', b, 0)), b[i])))
    }))
  `)
  const r = run([file])
  assert.equal(r.status, 0, r.stderr)
  const result = JSON.parse(r.stdout)
  for (const [i, text] of texts.entries()) {
    const bytes = Buffer.from(text)
    assert.deepEqual(result.encoded[i], [bytes.toString('hex'), bytes.length, bytes.toString()], text)
  }
  // Node's TextDecoder decodes as the WHATWG Encoding Standard says: one U+FFFD a maximal part
  assert.deepEqual(result.invalid, invalid.map(b => new TextDecoder().decode(new Uint8Array(b))))
  assert.deepEqual(result.invalid.slice(2, 4), ['\ufffd', '\ufffda'])
  assert.equal(result.view, 'ab')
  assert.deepEqual(result.bad, [
    'RangeError: writeUtf8: 3 bytes do not fit in the 2 left at 2',
    ...Array(3).fill('TypeError: writeUtf8(text, buf, at): a string, a buffer, an index in it'),
    ...Array(3).fill('TypeError: readUtf8(buf, start, end): a buffer, 0 <= start <= end <= its length'),
    'TypeError: utf8Length: text must be a string'
  ])
  assert.equal(result.untouched, '00000000', 'a text that does not fit writes nothing')
})

test('uring: a ring set up, reads at an address through it, a NOP, bad input; fast and slow paths alike', () => {
  const file = script('uring.js', `
    const { sys, uring } = just
    const ab = new ArrayBuffer(32)
    const u8 = new Uint8Array(ab)
    const a = sys.address(ab)
    const ring = uring.setup(1)
    const n1 = uring.read(ring, 0, a + 4, 3)
    const n2 = uring.read(ring, 0, a + 10, 2)
    const nop = uring.nop(ring)
    const neg = uring.read(ring, 0, a, -1) + '/' + sys.errno()
    const noRing = uring.read(ring + 1, 0, a, 1) + '/' + sys.errno()
    const badFd = uring.read(ring, 99, a, 1) + '/' + sys.errno()
    let bytes = 0
    for (let i = 0; i < 100000; i++) bytes += uring.read(ring, 0, a + 20, 1)
    for (let i = 0; i < 100000; i++) uring.nop(ring)
    const calls = just.host.calls()
    just.print([ring, n1, n2, nop, neg, noRing, badFd, bytes, calls['uring.read'].fast > 0, calls['uring.nop'].fast > 0, String.fromCharCode(...u8.slice(0, 20).map(b => b || 46))].join(' '))
  `)
  const input = '(printf abcde; yes | head -c 100000) |'
  const fast = run([file], { input })
  assert.equal(fast.status, 0, fast.stderr)
  assert.equal(fast.stdout, '0 3 2 0 -1/22 -1/9 -1/9 100000 true true ....abc...de........\n')
  const slow = run([SLOW, file], { input })
  assert.equal(slow.stdout, '0 3 2 0 -1/22 -1/9 -1/9 100000 false false ....abc...de........\n')
})

test('sys.errno() is the last failure\'s, as C\'s errno: successful calls, fast or slow, leave it', () => {
  const file = script('errno-kept.js', `
    const { sys, net } = just
    const buf = new ArrayBuffer(1) // referenced: the address is valid only while buf lives
    const address = sys.address(buf)
    const failed = net.close(-1) + '/' + sys.errno()
    let bytes = 0
    for (let i = 0; i < 100000; i++) bytes += net.readRaw(0, address, 1)
    just.print([failed, bytes, sys.errno(), just.host.calls()['net.readRaw'].fast > 0].join(' '))
  `)
  const input = 'yes | head -c 200000 |'
  const fast = run([file], { input })
  assert.equal(fast.status, 0, fast.stderr)
  assert.equal(fast.stdout, '-1/9 100000 9 true\n')
  const slow = run([SLOW, file], { input })
  assert.equal(slow.stdout, '-1/9 100000 9 false\n')
})

test('fast and slow paths: wc/wc-fast.js (net.readRaw) counts the same, and readRaw is a fast call', () => {
  const WC_FAST = path.join(ROOT, 'wc', 'wc-fast.js')
  for (const bs of [256, 3000, 65536]) {
    const fast = run([WC_FAST, String(bs)], { input: ODD_INPUT })
    const slow = run([SLOW, WC_FAST, String(bs)], { input: ODD_INPUT })
    for (const r of [fast, slow]) {
      assert.equal(r.status, 0, r.stderr)
      assert.match(r.stdout, new RegExp(`^size ${ODD_BYTES} reads \\d+ blocksize ${bs}\\n$`))
    }
  }
  const counting = script('counting-raw.js', `
    const { readRaw } = just.net
    const buf = new ArrayBuffer(256)
    const address = just.sys.address(buf)
    let reads = 0
    while (readRaw(0, address, 256) > 0) reads++
    just.print(JSON.stringify({ reads, calls: just.host.calls()['net.readRaw'] }))
  `)
  const input = 'dd if=/dev/zero bs=65536 count=1024 2>/dev/null |'
  const f = JSON.parse(run([counting], { input }).stdout)
  assert.equal(f.reads, 262144)
  assert.equal(f.calls.fast + f.calls.slow, f.reads + 1)
  assert.equal(f.calls.fallback, 0)
  assert.ok(f.calls.fast > f.reads / 2, JSON.stringify(f.calls))
  const s = JSON.parse(run([SLOW, counting], { input }).stdout)
  assert.deepEqual(s.calls, { fast: 0, fallback: 0, slow: s.reads + 1 })
})

test('fast and slow paths: readRaw answers odd numbers the same when hot', () => {
  const file = script('raw-odd.js', `
    const { readRaw } = just.net
    const buf = new ArrayBuffer(64)
    const a = just.sys.address(buf)
    // fd and len by ToInt32 (2**32 is 0, 1.5 is 1, -0.5 is 0), len < 0 refused
    const cases = [[0, 4], [2 ** 32, 4], [0, 1.5], [0.9, 2], [0, -1], [0, -0.5], [99, 4], [0, 2 ** 32 + 3], [0, 2 ** 31]]
    const out = []
    for (let i = 0; i < 100000; i++) {
      const c = cases[i % cases.length]
      const r = readRaw(c[0], a, c[1])
      if (i >= 100000 - cases.length) out.push(r < 0 ? r + '/' + just.sys.errno() : r)
    }
    just.print(out.join(' '))
  `)
  const input = 'yes abcdefgh | head -c 20000000 |'
  const fast = run([file], { input })
  const slow = run([SLOW, file], { input })
  assert.equal(fast.status, 0, fast.stderr)
  assert.equal(fast.stdout, slow.stdout)
  // the last 9 calls, starting at case 100000 % 9 = 1
  assert.equal(fast.stdout, '4 1 2 -1/22 0 -1/9 3 -1/22 4\n')
})

test('fast and slow paths: readRaw refuses an address that is no int64, or points nowhere, with EFAULT', () => {
  // The fast function takes the address as an int64, which TurboFan gives it only for an
  // integer in int64's range: NaN, 1.5 more than an address, -Infinity and 2**63 deoptimise
  // to the slow callback, which refuses them itself; -1, 2**52, 2**60, -(2**63), 2**63 - 1024
  // (the largest double below 2**63) and -0 are accepted and reach read(2), which refuses
  // them. A second call with len -1 tells the two apart: an accepted address gets as far
  // as the len check (EINVAL, 22), a refused one stops at the address (EFAULT, 14).
  const file = script('raw-address.js', `
    const { readRaw } = just.net
    const buf = new ArrayBuffer(64) // referenced: the address is valid only while buf lives
    const a = just.sys.address(buf)
    const cases = [a, NaN, a + 1.5, 2 ** 60, -1, 2 ** 52, -Infinity, 2 ** 63, -(2 ** 63), 2 ** 63 - 1024, -0, a + 8]
    const hot = []
    for (let i = 0; i < 100000; i++) {
      const address = cases[i % cases.length]
      const r = readRaw(0, address, 2)
      const read = r < 0 ? r + '/' + just.sys.errno() : r
      readRaw(0, address, -1)
      if (i >= 100000 - cases.length) hot.push(read + ':' + just.sys.errno())
    }
    just.print(hot.join(' ') + ' ' + (just.host.calls()['net.readRaw'].fast > 0))
  `)
  const input = 'yes abcdefgh | head -c 2000000 |'
  const fast = run([file], { input })
  assert.equal(fast.status, 0, fast.stderr)
  // the last 12 calls, starting at case 100000 % 12 = 4 (-1)
  assert.equal(fast.stdout, '-1/14:22 -1/14:22 -1/14:14 -1/14:14 -1/14:22 -1/14:22 -1/14:22 2:22 2:22 -1/14:14 -1/14:14 -1/14:22 true\n')
  const slow = run([SLOW, file], { input })
  assert.equal(slow.stdout, fast.stdout.replace('true', 'false'))
})

test('wcb: the embedded wc.js runs with no script file anywhere near it', () => {
  assert.ok(fs.existsSync(WCB), 'build/wcb is built by make -C host')
  const alone = fs.mkdtempSync(path.join(os.tmpdir(), 'wcb-alone-'))
  try {
    const bin = path.join(alone, 'wcb')
    fs.copyFileSync(WCB, bin)
    fs.chmodSync(bin, 0o755)
    assert.deepEqual(fs.readdirSync(alone), ['wcb'])
    const sh = cmd => spawnSync('sh', ['-c', cmd], { cwd: alone, encoding: 'utf8', timeout: 60000 })
    const r = sh(`${ODD_INPUT} ./wcb 4096`)
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, new RegExp(`^size ${ODD_BYTES} reads \\d+ blocksize 4096\\n$`))
    // V8 flags still come first and reach V8; the rest is just.args[2...].
    const gc = sh(`${ODD_INPUT} ./wcb --trace-gc --max-heap-size=64 256`)
    assert.equal(gc.status, 0, gc.stderr)
    assert.match(gc.stdout, new RegExp(`size ${ODD_BYTES} reads ${Math.ceil(ODD_BYTES / 256)} blocksize 256\\n$`))
    const dflt = sh('printf abc | ./wcb')
    assert.equal(dflt.stdout, 'size 3 reads 1 blocksize 65536\n')
    assert.match(sh('./wcb --version').stdout, /^just-host \d+\.\d+\.\d+ v8 10\.2\.\S+ \(embedded wc\.js\)\n$/)
    const bad = sh('./wcb --no-such-v8-flag 4096 < /dev/null')
    assert.equal(bad.status, 2)
    assert.match(bad.stderr, /unknown V8 flag '--no-such-v8-flag'/)
    // Its read errors are wc.js's own line.
    const closed = sh('./wcb 4096 0<&-')
    assert.equal(closed.status, 1)
    assert.equal(closed.stderr, 'read: Bad file descriptor (9)\n')
  } finally {
    fs.rmSync(alone, { recursive: true, force: true })
  }
})

test('just-host still needs its script: the embedded one is wcb\'s alone', () => {
  assert.match(run(['--version']).stdout, /^just-host [^(]*\n$/)
  assert.equal(run([]).status, 2)
})

test('single-threaded by default; --no-single-threaded brings V8\'s worker threads back', async () => {
  // One thread keeps read(2) as cheap as in a C program (host/runtime.cc, InitV8).
  const file = script('ready.js', `
    just.print('ready')
    just.print('read ' + just.net.read(0, new ArrayBuffer(8)))
  `)
  const threadsWhileRunning = args => new Promise((resolve, reject) => {
    const child = spawn(HOST, [...args, file], { stdio: ['pipe', 'pipe', 'pipe'] })
    let out = ''
    let threads = null
    child.on('error', reject)
    child.stdout.on('data', chunk => {
      out += chunk
      if (threads === null && out.startsWith('ready\n')) {
        threads = fs.readdirSync(`/proc/${child.pid}/task`).length
        child.stdin.end('x')
      }
    })
    child.on('close', code => resolve({ code, out, threads }))
  })
  const one = await threadsWhileRunning([])
  assert.equal(one.code, 0)
  assert.equal(one.out, 'ready\nread 1\n')
  assert.equal(one.threads, 1)
  for (const flag of ['--no-single-threaded', '--no_single_threaded']) {
    const more = await threadsWhileRunning([flag])
    assert.equal(more.code, 0)
    assert.equal(more.out, 'ready\nread 1\n')
    assert.ok(more.threads > 1, `${flag}: ${more.threads} thread(s)`)
  }
})

test('just.host.readLoop is C\'s loop into a Float64Array: bytes, reads, the last result; bad arguments refused as net.readRaw refuses them', () => {
  const file = script('read-loop.js', `
const { host, sys } = just
const buf = new ArrayBuffer(4096)
const address = sys.address(buf)
const out = new Float64Array(3)
const loop = (...args) => { out.fill(7); host.readLoop(...args, out); return [...out, sys.errno()] }
const first = loop(sys.STDIN_FILENO, address, 4096, 100000)
const half = loop(sys.STDIN_FILENO, address, 4096, 0.5)
const rest = loop(sys.STDIN_FILENO, address, 4096, 2 ** 40)
const refused = [[-1, address, 4096, 1], [0, NaN, 16, 1], [0, 2 ** 63, 16, 1], [0, 1.5, 16, 1], [0, address, -1, 1], [0, address, 16, 0], [0, address, 16, NaN]].map(args => loop(...args))
let thrown = null
try { host.readLoop(0, address, 16, 1, [0, 0, 0]) } catch (err) { thrown = err.constructor.name + ': ' + err.message }
just.print(JSON.stringify({ first, half, rest, refused, thrown }))
`)
  const r = run([file], { input: DD_1M })
  assert.equal(r.status, 0, r.stderr)
  // 100000 bytes take 25 reads of 4096 (the 25th passes the mark), half a byte one read;
  // the rest of 1 MiB is 230 more reads and the 0 of end of file. fd -1 fails in read(2) with EBADF (9); a
  // NaN, out-of-range or fractional address is refused with EFAULT (14), a negative len
  // or a `bytes` not above 0 with EINVAL (22), before any read.
  assert.deepEqual(JSON.parse(r.stdout), {
    first: [102400, 25, 4096, 0],
    half: [4096, 1, 4096, 0],
    rest: [1048576 - 102400 - 4096, 230, 0, 0],
    refused: [[0, 0, -1, 9], [0, 0, -1, 14], [0, 0, -1, 14], [0, 0, -1, 14], [0, 0, -1, 22], [0, 0, -1, 22], [0, 0, -1, 22]],
    thrown: 'TypeError: readLoop: out must be a Float64Array of 3 or more'
  })
})

test('just.host.nowInto writes a monotonic clock in nanoseconds into a Float64Array, cold and hot', () => {
  // The first calls come from the interpreter, the later ones from code TurboFan has
  // compiled; over 20 ms of Date.now() the clock must advance by about 20 ms in ns.
  const file = script('now-into.js', `
const { host } = just
function sample (times) { for (let i = 0; i < times.length; i++) host.nowInto(times, i) }
const times = new Float64Array(200000)
for (let round = 0; round < 5; round++) sample(times)
let ordered = times[0] > 0
for (let i = 1; i < times.length; i++) ordered = ordered && times[i] >= times[i - 1]
const span = new Float64Array(2)
host.nowInto(span, 0)
const startMs = Date.now()
while (Date.now() - startMs < 20);
host.nowInto(span, 1)
const ns = span[1] - span[0]
const refused = ['no array', [new Float64Array(2), 2], [[0, 0], 0]].map(args => { try { host.nowInto(...[].concat(args)); return null } catch (err) { return err.message } })
just.print(JSON.stringify({ ordered, nsIn20ms: ns > 15e6 && ns < 1e9, refused }))
`)
  const r = run([file], { redirect: '< /dev/null' })
  assert.equal(r.status, 0, r.stderr)
  const message = 'nowInto: out must be a Float64Array and i an index in it'
  assert.deepEqual(JSON.parse(r.stdout), { ordered: true, nsIn20ms: true, refused: [message, message, message] })
})

const PAIRED_READS = path.join(ROOT, 'studies', 'paired-reads.js')
const PAIRED_COST = path.join(ROOT, 'studies', 'paired-cost.js')

test('studies/paired-reads.js: the loop\'s and C\'s segments alternate loop-C, C-loop; its timed reads are all fast calls; every byte is counted', () => {
  // 36 pairs of 512 KiB segments of 4096-byte reads: warm-up (its reads 16 bytes) takes
  // the first few, 4 are timed, and the rest is read to the end
  const bytes = 36 * 2 * 524288
  for (const form of ['fast', 'sync', 'c']) {
    const r = run([PAIRED_READS, form, '4096', '524288', '32', '4'], { input: `dd if=/dev/zero bs=65536 count=${bytes / 65536} 2>/dev/null |` })
    assert.equal(r.status, 0, r.stderr)
    const { warmupPairs, segments, size, reads } = JSON.parse(r.stdout)
    assert.ok(warmupPairs >= 1 && warmupPairs < 32, `${form}: warm-up took ${warmupPairs} pairs`)
    if (form === 'c') assert.equal(warmupPairs, 1, 'C\'s loop has nothing to compile')
    assert.equal(segments.length, 2 * (warmupPairs + 4))
    assert.deepEqual(segments.map(s => s[0]).join(' '), Array.from({ length: warmupPairs + 4 }, (_, p) => p % 2 ? 'c loop' : 'loop c').join(' '))
    const timed = segments.slice(2 * warmupPairs)
    assert.deepEqual(timed.map(([, ns, size, reads, slow]) => [ns > 0, size, reads, slow]), Array(8).fill([true, 524288, 128, 0]), form)
    assert.equal(size, bytes)
    assert.ok(reads > bytes / 4096, 'warm-up reads are smaller than a block')
  }
  for (const args of [['fast', '4096', '0', '32', '4'], ['constructor', '4096', '524288', '32', '4'], ['fast', String(2 ** 31), '524288', '32', '4']]) {
    const bad = run([PAIRED_READS, ...args], { redirect: '< /dev/null' })
    assert.equal(bad.status, 2, args.join(' '))
    assert.match(bad.stderr, new RegExp([
      /^paired-reads\.js: cannot take [^:\n]+: usage: build\/just-host studies\/paired-reads\.js /,
      /fast\|sync\|c BLOCKSIZE SEGMENT_BYTES WARMUP_MAX PAIRS \(BLOCKSIZE at most 2\*\*30\)\n$/
    ].map(part => part.source).join('')))
  }
})

test('studies/paired-cost.js: a row per reader and size, each figure the median run with its interval over runs (figures not checked)', () => {
  const r = spawnSync(process.execPath, [PAIRED_COST, '--sizes', '512,65536', '--runs', '6', '--pairs', '2', '--only', 'just-sync', '--only', 'just-fast', '--only', 'just-sync', '--only', 'c'], { encoding: 'utf8', timeout: 120000 })
  assert.equal(r.status, 0, r.stderr)
  const lines = r.stdout.trim().split('\n')
  assert.equal(lines[0], 'its speed as a share of C\'s loop: the median run\'s figure and the 95% interval over runs')
  assert.match(lines[1], /^reader +block +segment +runs x pairs +C ns\/read +its ns\/read +typical \(median block\) +throughput \(all bytes \/ all time\)$/)
  assert.deepEqual(lines.slice(2).map(line => line.split(/\s+/).slice(0, 7).join(' ')), [
    'just-sync 512 512 KiB 6 x 2', 'just-fast 512 512 KiB 6 x 2', 'c 512 512 KiB 6 x 2',
    'just-sync 65536 4096 KiB 6 x 2', 'just-fast 65536 4096 KiB 6 x 2', 'c 65536 4096 KiB 6 x 2'])
  for (const line of lines.slice(2)) {
    const shares = [...line.matchAll(/(\d+\.\d)% \((\d+\.\d)–(\d+\.\d)%\)/g)]
    assert.equal(shares.length, 2, line)
    for (const [, estimate, low, high] of shares.map(match => match.map(Number))) assert.ok(low <= estimate && estimate <= high, line)
  }
})

test('studies/paired-cost.js --raw keeps every run\'s figures, and --from derives the same table from them', () => {
  const raw = path.join(dir, 'paired-raw.jsonl')
  const measured = spawnSync(process.execPath, [PAIRED_COST, '--sizes', '512,4096', '--runs', '6', '--pairs', '2', '--only', 'just-fast', '--only', 'c', '--raw', raw], { encoding: 'utf8', timeout: 120000 })
  assert.equal(measured.status, 0, measured.stderr)
  const runs = fs.readFileSync(raw, 'utf8').trim().split('\n').map(line => JSON.parse(line))
  assert.equal(runs.length, 2 * 2 * 6, 'a line for each run of each loop at each size')
  for (const run of runs) {
    assert.ok(['just-fast', 'c'].includes(run.reader))
    for (const key of ['blockSize', 'segmentBytes', 'pairs', 'typical', 'throughput', 'cNsPerRead', 'loopNsPerRead']) assert.ok(Number.isFinite(run[key]), key)
  }
  const derived = spawnSync(process.execPath, [PAIRED_COST, '--from', raw], { encoding: 'utf8', timeout: 60000 })
  assert.equal(derived.status, 0, derived.stderr)
  assert.equal(derived.stdout, measured.stdout)

  fs.appendFileSync(raw, 'not json\n')
  const corrupt = spawnSync(process.execPath, [PAIRED_COST, '--from', raw], { encoding: 'utf8', timeout: 60000 })
  assert.equal(corrupt.status, 2)
  assert.match(corrupt.stderr, /^paired-cost\.js: --from: .*line 25 is not JSON; give a file written by --raw\n$/)
  const mixed = spawnSync(process.execPath, [PAIRED_COST, '--from', raw, '--runs', '6'], { encoding: 'utf8', timeout: 60000 })
  assert.equal(mixed.status, 2)
  assert.match(mixed.stderr, /--from prints a table from runs already measured; drop --runs/)
})

test('studies/paired-cost.js: a run that fails, miscounts, leaves the fast path or comes short stops it with one line naming the command, exit 1', () => {
  // what paired-reads.js would print for 2 pairs at 256 B, warm-up done in none
  const bytes = (2 + 32) * 2 * 524288
  const segment = (kind, overrides = {}) => Object.assign([kind, 1e6, 524288, 2048, 0], overrides)
  const segments = [segment('loop'), segment('c'), segment('c'), segment('loop')]
  const fake = (name, output) => {
    const file = script(name, `#!/bin/sh\ncat > /dev/null\necho '${typeof output === 'string' ? output : JSON.stringify(output)}'\n`)
    fs.chmodSync(file, 0o755)
    return file
  }
  const whole = { warmupPairs: 0, size: bytes, reads: bytes / 256 }
  for (const [reader, message] of [
    ['/bin/false', /: reader exited 1: no message$/],
    [fake('not-json.sh', 'size 5 reads 1'), /: reader printed no result line: "size 5 reads 1\\n"$/],
    [fake('no-segments.sh', { size: bytes, reads: bytes / 256 }), /: reader printed no result line: /],
    [fake('miscount.sh', { ...whole, segments, size: 5 }), /: reader counted 5 bytes, 35651584 were sent$/],
    [fake('slow.sh', { ...whole, segments: [segment('loop', { 4: 7 }), ...segments.slice(1)] }), /: 7 of the timed loop's reads were not fast calls \(the loop was deoptimised\), so it was not the loop meant$/],
    [fake('too-few.sh', { ...whole, segments: segments.slice(0, 2) }), /: 2 timed segments, 4 asked for$/],
    [fake('short.sh', { ...whole, segments: [...segments.slice(0, 3), segment('loop', { 2: 4096 })] }), /: a timed loop segment read 4096 bytes, not 524288$/]
  ]) {
    const r = spawnSync(process.execPath, [PAIRED_COST, '--only', 'just-fast', '--sizes', '256', '--runs', '6', '--pairs', '2'],
      { encoding: 'utf8', env: { ...process.env, JUST: reader } })
    assert.equal(r.status, 1, reader)
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
    assert.match(r.stderr, /^paired-cost\.js: dd if=\/dev\/zero bs=65536 count=544 status=none \| \S+ \S+\/studies\/paired-reads\.js fast 256 524288 32 2: /)
    assert.match(r.stderr.trim(), message)
  }
})

test('studies/paired-cost.js: Ctrl-C stops it at once, exit 130', { timeout: 120000 }, async () => {
  const { code, stderr } = await interruptTool(PAIRED_COST, ['--sizes', '256', '--pairs', '1000000'])
  assert.equal(code, 130, stderr)
  assert.equal(stderr, 'paired-cost.js: interrupted; nothing was measured in full\n')
})

test('studies/paired-cost.js: bad options are one line naming the fix, exit 2', () => {
  for (const [args, message] of [
    [['--bogus'], /unknown option --bogus; see node studies\/paired-cost\.js --help/],
    [['--only', 'node-sync'], /no paired loop for 'node-sync': give c, just-fast, just-sync/],
    [['--only', 'toString'], /no paired loop for 'toString': give c, just-fast, just-sync/],
    [['--sizes', '1000'], /block size 1000 is not a power of two: try 1024/],
    [['--runs', '5'], /--runs must be a whole number of at least 6, not '5'/],
    [['--pairs', '1'], /--pairs must be a whole number of at least 2, not '1'/],
    [['--pairs', '7'], /--pairs must be even \(pairs are taken two by two, one each way round\) and at most 1048576, not 7/],
    [['--pairs', '99999999999'], /--pairs must be even .* and at most 1048576, not 99999999999/],
    [['--segment-kib', '100'], /--segment-kib must be a multiple of 64, dd's block, not 100/]
  ]) {
    const r = spawnSync(process.execPath, [PAIRED_COST, ...args], { encoding: 'utf8' })
    assert.equal(r.status, 2, args.join(' '))
    assert.equal(r.stdout, '')
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
    assert.match(r.stderr, message)
  }
  // C's row runs in the host too, so it needs the host as the others do
  const noHost = spawnSync(process.execPath, [PAIRED_COST, '--only', 'c'], { encoding: 'utf8', env: { ...process.env, JUST: '/nonexistent/just' } })
  assert.equal(noHost.status, 2)
  assert.match(noHost.stderr, /^paired-cost\.js: the lab's host cannot run here: .*\/nonexistent\/just.*: run \.\/setup\.sh to build build\/just-host, or set JUST=\/path\/to\/just \(usage: /)
})
