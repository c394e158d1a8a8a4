'use strict'
// One definition of an acceptable block size, shared by the table's listing and bench.

const MIN_BLOCK_SIZE = 16
const MAX_BLOCK_SIZE = 1 << 20
const DEFAULT_BLOCK_SIZES = [256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536]

function parseBlockSize (text) {
  const value = Number(text)
  if (!/^\d+$/.test(String(text).trim()) || !Number.isSafeInteger(value)) {
    throw new Error(`block size '${text}' is not a whole number of bytes: give a power of two such as 4096`)
  }
  if (value < MIN_BLOCK_SIZE || value > MAX_BLOCK_SIZE) {
    throw new Error(`block size ${value} is out of range: give a power of two from ${MIN_BLOCK_SIZE} to ${MAX_BLOCK_SIZE}`)
  }
  if ((value & (value - 1)) !== 0) {
    throw new Error(`block size ${value} is not a power of two: try ${2 ** Math.round(Math.log2(value))}`)
  }
  return value
}

module.exports = { parseBlockSize, DEFAULT_BLOCK_SIZES, MIN_BLOCK_SIZE, MAX_BLOCK_SIZE }
