'use strict'
// lib/fetch-node.js against a registry of its own on 127.0.0.1: a Node whose bin/node is
// a script that answers --version, packed as npm's node-linux-* packages are.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const crypto = require('node:crypto')
const fs = require('node:fs')
const http = require('node:http')
const os = require('node:os')
const path = require('node:path')
const { execFile, spawnSync } = require('node:child_process')

const ROOT = path.resolve(__dirname, '..', '..')
const FETCH_NODE = path.join(ROOT, 'lib', 'fetch-node.js')
const NAME = `node-linux-${process.arch}`
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-fetch-node-'))

// version -> { tarball, integrity } as the registry's manifest says, or absent (404)
const packages = new Map()
let server
let registry

function pack (version, { answers = `v${version}` } = {}) {
  const dir = path.join(work, `pack-${version}`, 'package')
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true })
  fs.mkdirSync(path.join(dir, 'include', 'node'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'bin', 'node'), `#!/bin/sh\necho ${answers}\n`, { mode: 0o755 })
  fs.writeFileSync(path.join(dir, 'LICENSE'), 'MIT\n')
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: NAME, version }))
  fs.writeFileSync(path.join(dir, 'include', 'node', 'node.h'), '/* headers */\n')
  fs.writeFileSync(path.join(dir, 'CHANGELOG.md'), 'changes\n')
  const tgz = path.join(work, `${NAME}-${version}.tgz`)
  const packed = spawnSync('tar', ['-czf', tgz, '-C', path.dirname(dir), 'package'])
  assert.equal(packed.status, 0, String(packed.stderr))
  const body = fs.readFileSync(tgz)
  return { body, integrity: `sha512-${crypto.createHash('sha512').update(body).digest('base64')}` }
}

before(async () => {
  server = http.createServer((request, response) => {
    const manifest = new RegExp(`^/${NAME}/([^/]+)$`).exec(request.url)
    const tarball = new RegExp(`^/${NAME}/-/(.+)\\.tgz$`).exec(request.url)
    const entry = packages.get((manifest ?? tarball)?.[1])
    if (!entry) return response.writeHead(404).end()
    if (manifest) {
      response.setHeader('content-type', 'application/json')
      return response.end(JSON.stringify({ dist: { tarball: `${registry}${NAME}/-/${manifest[1]}.tgz`, integrity: entry.integrity } }))
    }
    response.end(entry.body)
  })
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve))
  registry = `http://127.0.0.1:${server.address().port}/`
  process.env.npm_config_registry = registry
})

after(() => {
  server.close()
  fs.rmSync(work, { recursive: true, force: true })
})

const fetchNode = (...args) => require(FETCH_NODE).fetchNode(...args)

test('fetches a pinned Node from the registry, checked against its sha512, keeping only what runs node', async () => {
  packages.set('1.2.3', pack('1.2.3'))
  const dir = path.join(work, 'build', 'node', '1.2.3')
  await fetchNode('1.2.3', dir)
  const kept = spawnSync('find', [dir, '-type', 'f', '-printf', '%P\n'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).sort()
  assert.deepEqual(kept, ['LICENSE', 'bin/node', 'package.json'])
  assert.equal(spawnSync(path.join(dir, 'bin', 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim(), 'v1.2.3')
  assert.deepEqual(fs.readdirSync(path.dirname(dir)), ['1.2.3'], 'nothing of the unpacking is left beside it')
})

test('a tarball that is not what the registry\'s integrity says is refused, and nothing is put in place', async () => {
  const good = pack('1.2.4')
  packages.set('1.2.4', { body: Buffer.concat([good.body, Buffer.from('tampered')]), integrity: good.integrity })
  const dir = path.join(work, 'build', 'node', '1.2.4')
  await assert.rejects(fetchNode('1.2.4', dir), /is not what the registry's integrity says/)
  assert.equal(fs.existsSync(dir), false)
})

test('a Node that does not answer as its version is refused, and nothing is put in place', async () => {
  packages.set('1.2.5', pack('1.2.5', { answers: 'v0.0.1' }))
  const dir = path.join(work, 'build', 'node', '1.2.5')
  await assert.rejects(fetchNode('1.2.5', dir), /does not run here/)
  assert.equal(fs.existsSync(dir), false)
})

test('run by setup.sh, a version the registry lacks fails with exit 1 and one line naming the fix', async () => {
  const dir = path.join(work, 'build', 'node', '9.9.9')
  const { code, stdout, stderr } = await new Promise(resolve => {
    execFile(process.execPath, [FETCH_NODE, '9.9.9', dir], { env: { ...process.env, npm_config_registry: registry } },
      (err, stdout, stderr) => resolve({ code: err?.code ?? 0, stdout, stderr }))
  })
  assert.equal(code, 1)
  assert.equal(stdout, '')
  assert.equal(stderr.trim().split('\n').length, 1, stderr)
  assert.match(stderr, /^lib\/fetch-node\.js: Node 9\.9\.9 could not be fetched \(.*HTTP 404\): this machine must reach http:\/\/127\.0\.0\.1:\d+\/, or npm_config_registry name a registry it reaches\n$/)
  assert.equal(fs.existsSync(dir), false)
})

test('--help answers with exit 0; an unknown option or a version that is none, one line and exit 2', () => {
  const run = (...args) => spawnSync(process.execPath, [FETCH_NODE, ...args], { encoding: 'utf8' })
  const help = run('--help')
  assert.deepEqual([help.status, help.stderr], [0, ''])
  assert.match(help.stdout, /^usage: node lib\/fetch-node\.js VERSION DIR/)
  for (const [args, said] of [
    [['--bogus'], /^lib\/fetch-node\.js: unknown option '--bogus' \(usage: /],
    [['v18', path.join(work, 'never')], /^lib\/fetch-node\.js: 'v18' is not a Node version; give one such as 18\.20\.4/]
  ]) {
    const refused = run(...args)
    assert.equal(refused.status, 2, args.join(' '))
    assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr)
    assert.match(refused.stderr, said)
  }
  assert.equal(fs.existsSync(path.join(work, 'never')), false)
})
