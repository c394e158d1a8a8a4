'use strict'
module.exports = {
  name: 'http',
  get report () { return require('./report') }
}
