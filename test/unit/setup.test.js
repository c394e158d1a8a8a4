'use strict'
// What the Docker image rests on, read from its files: every stage's base and set-up
// through setup.sh, the pins against package-lock.json, and the build context.
const { test, describe } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')

const ROOT = path.resolve(__dirname, '..', '..')
const lines = text => text.split('\n').filter(Boolean)
const read = file => fs.readFileSync(path.join(ROOT, file), 'utf8')

describe('Dockerfile', () => {
  test('every stage starts from debian:bookworm-slim and sets up through setup.sh', () => {
    const dockerfile = read('Dockerfile')
    const bases = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map(match => match[1])
    assert.ok(bases.length >= 1)
    for (const base of bases) assert.equal(base, 'debian:bookworm-slim')
    assert.match(dockerfile, /^RUN \.\/setup\.sh \\$/m)
    assert.match(dockerfile, /^RUN \.\/setup\.sh --runtime-only \\$/m)
    const instructions = lines(dockerfile).filter(line => !line.startsWith('#')).join('\n')
    assert.doesNotMatch(instructions, /apt-get install|npm (ci|install)/, 'installs belong to setup.sh (one recipe)')
  })

  test('the build stage slims the lab (docker/slim.sh) before the last stage copies it', () => {
    const dockerfile = read('Dockerfile')
    const build = dockerfile.slice(dockerfile.indexOf('FROM '), dockerfile.lastIndexOf('FROM '))
    assert.match(build, /^ && docker\/slim\.sh \\$/m)
    assert.match(dockerfile.slice(dockerfile.lastIndexOf('FROM ')), /^COPY --from=build \/lab \/lab$/m)
  })

  // A review: `docker/slim.sh --help` went on to remove files, `.ci/run --help` to set up, and
  // `docker/versions.sh --help` asked for its pins. Each is run from a copy in a folder of its
  // own, so that a guard that fails removes or installs nothing of this checkout's.
  test('the image\'s and CI\'s scripts answer --help and refuse what they do not take, first', () => {
    const { spawnSync } = require('node:child_process')
    const os = require('node:os')
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'syscall-lab-scripts-'))
    try {
      const copy = file => {
        fs.mkdirSync(path.join(scratch, path.dirname(file)), { recursive: true })
        fs.copyFileSync(path.join(ROOT, file), path.join(scratch, file))
        return path.join(scratch, file)
      }
      const pins = ['NODE_VERSION', 'GCC_VERSION', 'BUN_VERSION', 'DENO_VERSION']
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !pins.includes(name)))
      const run = (file, ...args) => spawnSync('bash', [copy(file), ...args], { encoding: 'utf8', env })
      for (const file of ['docker/slim.sh', '.ci/run', 'docker/versions.sh']) {
        const help = run(file, '--help')
        assert.equal(help.status, 0, `${file} --help: ${help.stderr}`)
        assert.match(help.stdout, /^usage: /, file)
        const bogus = run(file, '--bogus')
        assert.equal(bogus.status, 2, `${file} --bogus: ${bogus.stderr}`)
        const refusal = new RegExp(`^${file.replace('.', '\\.')}: .*'--bogus'.*\\(usage: [^\\n]*\\)\\n$`)
        assert.match(bogus.stderr, refusal, file)
      }
      const unpinned = run('docker/versions.sh', 'build')
      assert.equal(unpinned.status, 2)
      assert.match(unpinned.stderr, /^docker\/versions\.sh: NODE_VERSION is not set; the Dockerfile's ARG sets it/)
      // nothing was made beside the copies: no build/, no node_modules/
      assert.deepEqual(fs.readdirSync(scratch).sort(), ['.ci', 'docker'])
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true })
    }
  })

  test('the Bun and Deno pins are package-lock.json\'s, and all pins reach LAB_PINNED_VERSIONS', () => {
    const dockerfile = read('Dockerfile')
    const arg = name => (new RegExp(`^ARG ${name}=(\\S+)$`, 'm').exec(dockerfile) || [])[1]
    const locked = JSON.parse(read('package-lock.json')).packages
    assert.equal(arg('BUN_VERSION'), locked['node_modules/bun'].version)
    assert.equal(arg('DENO_VERSION'), locked['node_modules/deno'].version)
    const pinned = /^ENV LAB_PINNED_VERSIONS="([^"]+)"$/m.exec(dockerfile)
    assert.ok(pinned, 'ENV LAB_PINNED_VERSIONS="..." is missing')
    for (const name of ['NODE_VERSION', 'GCC_VERSION', 'BUN_VERSION', 'DENO_VERSION']) {
      assert.ok(arg(name), `no ARG ${name} with a default`)
      assert.ok(pinned[1].includes(`\${${name}}`), `LAB_PINNED_VERSIONS leaves out ${name}`)
    }
  })

  test('.dockerignore keeps results, dependencies, build output, docs and tests out of the build context', () => {
    const ignored = lines(read('.dockerignore')).filter(line => !line.startsWith('#'))
    for (const entry of ['.git', 'results', 'results-container', 'node_modules', 'build', 'docs', 'test']) {
      assert.ok(ignored.includes(entry), `.dockerignore leaves out ${entry}`)
    }
  })
})

describe('requirements.txt', () => {
  test('setup.sh reads its wasmtime pin, docs/wasm.md names it, and every Linux wheel is hashed', () => {
    const assignment = read('setup.sh').split('\n').find(line => line.startsWith('wasmtime_pin='))
    assert.ok(assignment, 'setup.sh has no wasmtime_pin= line')
    const { spawnSync } = require('node:child_process')
    const pin = spawnSync('bash', ['-c', `${assignment}; printf %s "$wasmtime_pin"`], {
      cwd: ROOT, encoding: 'utf8'
    }).stdout
    assert.match(pin, /^\d+\.\d+\.\d+$/)
    assert.match(read('docs/wasm.md'), new RegExp(`wasmtime ${pin.replaceAll('.', '\\.')},`))
    // pip checks hashes only where a line has one, and then every wheel it takes must match
    const hashes = read('requirements.txt').match(/--hash=sha256:[0-9a-f]{64}/g) ?? []
    assert.equal(hashes.length, 4, 'manylinux and musllinux wheels, x86_64 and aarch64')
  })
})
