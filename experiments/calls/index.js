'use strict'
module.exports = {
  name: 'calls',
  get report () { return require('./report') }
}
