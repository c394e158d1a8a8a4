'use strict'
// Tests for the host's bindings a database client needs (host/bindings.cc): net.connect
// and its completion (EPOLLOUT, then getsockopt SO_ERROR), AF_UNIX sockets, and
// sys.ignoreSigpipe; and those a server made of several files needs: just.env and
// just.load.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const net = require('node:net')

const ROOT = path.resolve(__dirname, '..', '..')
const HOST = path.join(ROOT, 'build', 'just-host')
let dir

before(() => {
  const make = spawnSync('make', ['-C', path.join(ROOT, 'host')], { encoding: 'utf8' })
  if (!fs.existsSync(HOST) || make.status !== 0) {
    assert.fail(`build/just-host is missing or stale: run make first (make -C host)\n${make.stdout || ''}${make.stderr || ''}`)
  }
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'just-host-net-'))
})

after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

function script (name, source) {
  const file = path.join(dir, name)
  fs.writeFileSync(file, source)
  return file
}

// A TCP port on 127.0.0.1 that nothing listens on, as the kernel picks one.
function freePort () {
  return new Promise((resolve, reject) => {
    const server = net.createServer().on('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

function run (args, options = {}) {
  const r = spawnSync(HOST, args, { encoding: 'utf8', timeout: 60000, ...options })
  assert.equal(r.error, undefined, `spawn failed: ${r.error}`)
  return r
}

test('the constants a client needs have Linux\'s values', () => {
  const r = run([script('constants.js', `
    const { net } = just
    just.print(JSON.stringify([net.AF_UNIX, net.SO_ERROR, net.EINPROGRESS, net.ECONNRESET, net.EPIPE, just.loop.EPOLLOUT]))
  `)])
  assert.equal(r.status, 0, r.stderr)
  assert.deepEqual(JSON.parse(r.stdout), [1, 4, 115, 104, 32, 4])
})

test('AF_UNIX: bind and listen on a path, connect to it, and bytes go both ways', () => {
  const socketPath = path.join(dir, 'echo.sock')
  const r = run([script('unix.js', `
    const { net, sys } = just
    const path = just.args[2]
    const answer = r => (r < 0 ? r + '/' + sys.errno() : r)
    const server = net.socket(net.AF_UNIX, net.SOCK_STREAM, 0)
    const out = [answer(net.bind(server, path, 0)), answer(net.listen(server, 4))]
    const client = net.socket(net.AF_UNIX, net.SOCK_STREAM | net.SOCK_NONBLOCK, 0)
    out.push(answer(net.connect(client, path, 12345)))   // the port is not used
    out.push(net.getsockopt(client, net.SOL_SOCKET, net.SO_ERROR))
    const peer = net.accept4(server, 0)
    const bytes = new Uint8Array([104, 105])
    out.push(net.write(client, bytes.buffer, 0, 2))
    const got = new ArrayBuffer(8)
    out.push(net.read(peer, got, 0, 8), String.fromCharCode(...new Uint8Array(got, 0, 2)))
    out.push(net.write(peer, bytes.buffer, 0, 1), net.read(client, got, 0, 8))
    just.print(out.join(' '))
  `), socketPath])
  assert.equal(r.status, 0, r.stderr)
  assert.equal(r.stdout, '0 0 0 0 2 2 hi 1 1\n')
  assert.ok(fs.statSync(socketPath).isSocket())
})

test('net.connect fails as connect(2) does, and refuses an address it cannot use before any syscall', () => {
  const r = run([script('refused.js', `
    const { net, sys } = just
    const answer = r => (r < 0 ? r + '/' + sys.errno() : r)
    const unix = () => net.socket(net.AF_UNIX, net.SOCK_STREAM, 0)
    const inet = () => net.socket(net.AF_INET, net.SOCK_STREAM, 0)
    just.print([
      answer(net.connect(unix(), just.args[2] + '/missing.sock', 0)),  // ENOENT
      answer(net.connect(unix(), 'x'.repeat(108), 0)),                 // too long for sun_path: ENAMETOOLONG
      answer(net.connect(unix(), 42, 0)),                              // no string: EINVAL
      answer(net.connect(inet(), 'localhost', 80)),                    // not dotted: EINVAL
      answer(net.connect(inet(), '127.0.0.1', 65536)),                 // no such port: EINVAL
      answer(net.connect(99, '127.0.0.1', 80)),                        // no fd: EBADF
      answer(net.connect(just.fs.open('/dev/null'), '127.0.0.1', 80)), // no socket: ENOTSOCK
      answer(net.connect(net.socket(10, net.SOCK_STREAM, 0), '::1', 80)),   // AF_INET6, no family of the host's: EAFNOSUPPORT
      answer(net.getsockopt(99, net.SOL_SOCKET, net.SO_ERROR))         // EBADF
    ].join(' '))
  `), dir])
  assert.equal(r.status, 0, r.stderr)
  assert.equal(r.stdout, '-1/2 -1/36 -1/22 -1/22 -1/22 -1/9 -1/88 -1/97 -1/9\n')
})

test('a non-blocking TCP connect: EINPROGRESS, then EPOLLOUT, then SO_ERROR says how it went, once', async () => {
  // Port 1 on 127.0.0.1 refuses (nothing listens there); the script's own listener, on a
  // port found free here (the host has no getsockname), accepts.
  const port = await freePort()
  const r = run([script('nonblocking.js', `
    const { net, sys } = just
    const { loop } = just.factory
    const port = Number(just.args[2])
    const listener = net.socket(net.AF_INET, net.SOCK_STREAM | net.SOCK_NONBLOCK, 0)
    const out = [net.bind(listener, '127.0.0.1', port), net.listen(listener, 4)]
    function attempt (port, then) {
      const fd = net.socket(net.AF_INET, net.SOCK_STREAM | net.SOCK_NONBLOCK, 0)
      out.push(net.connect(fd, '127.0.0.1', port) + '/' + sys.errno())
      loop.add(fd, (fd, events) => {
        out.push(events & just.loop.EPOLLOUT ? 'writable' : 'not writable', net.getsockopt(fd, net.SOL_SOCKET, net.SO_ERROR), net.getsockopt(fd, net.SOL_SOCKET, net.SO_ERROR))
        loop.remove(fd)
        then()
      }, just.loop.EPOLLOUT)
    }
    attempt(1, () => attempt(port, () => {
      out.push(net.accept4(listener, 0) > 2 ? 'accepted' : 'not accepted')
      just.print(out.join(' '))
    }))
  `), String(port)])
  assert.equal(r.status, 0, r.stderr)
  // ECONNREFUSED is 111, and reading SO_ERROR clears it; a connect on the loopback may
  // complete at once (0) or not (EINPROGRESS, 115)
  assert.match(r.stdout, /^0 0 -1\/115 writable 111 0 (-1\/115|0\/\d+) writable 0 0 accepted\n$/)
})

test('sys.ignoreSigpipe: a write to a socket whose peer has gone is -1/EPIPE, not the end of the process', () => {
  const file = script('sigpipe.js', `
    const { net, sys } = just
    if (just.args[3] === 'ignore') just.print('ignore ' + sys.ignoreSigpipe())
    const server = net.socket(net.AF_UNIX, net.SOCK_STREAM, 0)
    net.bind(server, just.args[2], 0)
    net.listen(server, 1)
    const client = net.socket(net.AF_UNIX, net.SOCK_STREAM, 0)
    net.connect(client, just.args[2], 0)
    net.close(net.accept4(server, 0))
    just.print('write ' + net.write(client, new ArrayBuffer(4)) + '/' + sys.errno())
  `)
  const ignored = run([file, path.join(dir, 'pipe1.sock'), 'ignore'])
  assert.equal(ignored.status, 0, ignored.stderr)
  assert.equal(ignored.stdout, 'ignore 0\nwrite -1/32\n')
  const killed = run([file, path.join(dir, 'pipe2.sock'), 'default'])
  assert.equal(killed.signal, 'SIGPIPE')
  assert.equal(killed.stdout, '')
})

test('just.env() is the environment as an object', () => {
  const r = run([script('env.js', 'just.print(JSON.stringify(just.env()))')], { env: { DB_POOL: '4', EMPTY: '', WITH_EQUALS: 'a=b', UTF8: 'フ—' } })
  assert.equal(r.status, 0, r.stderr)
  assert.deepEqual(JSON.parse(r.stdout), { DB_POOL: '4', EMPTY: '', WITH_EQUALS: 'a=b', UTF8: 'フ—' })
})

test('just.load(path) runs a file as a module\'s body and returns its module.exports, each call anew', () => {
  script('counter.js', `'use strict'
let count = 0
exports.kind = typeof module + ' ' + (this === undefined)
module.exports.next = () => ++count
`)
  script('replaced.js', 'module.exports = function twice (x) { return 2 * x }\n')
  const main = script('load-main.js', `
    const a = just.load(just.args[2] + '/counter.js')
    const b = just.load(just.args[2] + '/counter.js')
    a.next()
    a.next()
    just.print([a.kind, a.next(), b.next(), just.load(just.args[2] + '/replaced.js')(21)].join(' '))
  `)
  const r = run([main, dir])
  assert.equal(r.status, 0, r.stderr)
  assert.equal(r.stdout, 'object true 3 1 42\n')
  // a relative path is the working directory's, as for fs.open
  const relative = run([main, '.'], { cwd: dir })
  assert.equal(relative.stdout, r.stdout)
})

test('just.load: a missing file is an Error naming it; a syntax error or a throw names the loaded file\'s line', () => {
  script('broken.js', 'const a = 1\nlet = = 2\n')
  script('throws.js', 'module.exports = 1\nfunction fail () { throw new Error(\'from the module\') }\nfail()\n')
  const r = run([script('load-errors.js', `
    const out = []
    for (const name of ['missing.js', 'broken.js', 'throws.js']) {
      try { just.load(just.args[2] + '/' + name) } catch (err) { out.push(err.name + ': ' + err.message + ' @ ' + (err.stack.split('\\n').find(line => line.includes(name + ':')) || '').trim()) }
    }
    just.print(out.join('\\n'))
  `), dir])
  assert.equal(r.status, 0, r.stderr)
  const [missing, broken, throws] = r.stdout.trim().split('\n')
  assert.equal(missing, `Error: load: cannot read '${dir}/missing.js': No such file or directory @ `)
  assert.match(broken, /^SyntaxError: /)
  assert.equal(throws, `Error: from the module @ at fail (${dir}/throws.js:2:26)`)
  // uncaught, the host reports the loaded file's line, as for the script's own
  const uncaught = run([script('load-uncaught.js', `just.load(${JSON.stringify(dir + '/broken.js')})`)])
  assert.equal(uncaught.status, 1)
  assert.match(uncaught.stderr, new RegExp(`^${dir}/broken\\.js:2:\\d+\\nlet = = 2\\n`))
})
