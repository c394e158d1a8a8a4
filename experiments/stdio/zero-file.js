'use strict'
// The input for readers that read a file instead of a pipe (bench.js --feeder file,
// studies/file-cost.js): zeros in tmpfs (/dev/shm; the system's temp folder where there
// is none), so a read never waits on a disk and never on a writer. One file at a time,
// in a folder made for the run, so no name in the shared folder can be guessed.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const CHUNK = Buffer.alloc(2 ** 20)
// where the lab's scratch folders go (the profile pass's too: experiments/stdio/measure.js)
const PARENT = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir()
const PREFIX = 'syscall-lab-zeros-'

// A scratch folder of its own, whose name no one can guess, under PARENT; and the ones of a
// kind not yet removed (each maker removes its own when done).
const scratchFolder = prefix => fs.mkdtempSync(path.join(PARENT, prefix))
const scratchFolders = prefix => fs.readdirSync(PARENT).filter(name => name.startsWith(prefix))

const roomProblem = (bytes, why) => `cannot write ${bytes / 2 ** 20} MiB of input to ${PARENT} (${why}): ` +
  'give a smaller --mib, or more room (in Docker: docker run --shm-size=2g)'

class ZeroFile {
  constructor () {
    this.dir = null
    this.file = null
    this.bytes = null
  }

  // The path of a file of `bytes` zeros, (re)written when the size changes.
  async of (bytes) {
    if (this.bytes === bytes) return this.file
    // tmpfs is memory: a file that cannot fit is refused before it fills what room there is
    const { bavail, bsize } = fs.statfsSync(PARENT)
    const room = bavail * bsize + (this.bytes ?? 0)
    if (bytes > room) throw new Error(roomProblem(bytes, `${Math.floor(room / 2 ** 20)} MiB free`))
    this.dir ??= scratchFolder(PREFIX)
    this.file = path.join(this.dir, 'zeros')
    this.bytes = null
    fs.rmSync(this.file, { force: true })
    try {
      const handle = await fs.promises.open(this.file, 'wx')
      try {
        for (let written = 0; written < bytes;) {
          written += (await handle.write(CHUNK, 0, Math.min(CHUNK.length, bytes - written))).bytesWritten
        }
      } finally {
        await handle.close()
      }
    } catch (err) {
      this.remove()
      throw new Error(roomProblem(bytes, err.code))
    }
    this.bytes = bytes
    return this.file
  }

  remove () {
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true })
    this.dir = this.file = this.bytes = null
  }
}

// The folders ZeroFile has made and not yet removed (it removes its own when done).
const zeroFileFolders = () => scratchFolders(PREFIX)

// argv run with `input` as its stdin, for pipe-run, whose own pipe then goes unread.
function withStdinFrom (input, argv) {
  return ['sh', '-c', 'exec "$@" < "$0"', input, ...argv]
}

module.exports = { ZeroFile, withStdinFrom, zeroFileFolders, scratchFolder, scratchFolders }
