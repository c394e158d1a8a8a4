'use strict'
// The network path's client, in this process: how it reads a server's answers.
const { test } = require('node:test')
const assert = require('node:assert/strict')

const http = { ...require('../../experiments/http/servers'), ...require('../../experiments/http/client'), ...require('../../experiments/http/wrk'), ...require('../../experiments/http/cpu'), ...require('../../experiments/http/measure'), ...require('../../experiments/http/summary') }

test('parseResponse: whole, partial and malformed answers', () => {
  const whole = 'HTTP/1.1 200 OK\r\nContent-Length: 13\r\nConnection: Close\r\n\r\nHello, World!HTTP'
  assert.deepEqual(http.parseResponse(whole), { status: 200, headers: { 'content-length': '13', connection: 'Close' }, body: 'Hello, World!', rest: 'HTTP' })
  assert.equal(http.parseResponse('HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHello'), null)
  assert.equal(http.parseResponse('HTTP/1.1 200 OK\r\nContent-Le'), null)
  assert.throws(() => http.parseResponse('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n'), /the status line is "HTTP\/1\.0 200 OK", not HTTP\/1\.1's/)
  assert.throws(() => http.parseResponse('HTTP/1.1 200 OK\r\nnonsense\r\n\r\n'), /a header line is "nonsense"/)
})
