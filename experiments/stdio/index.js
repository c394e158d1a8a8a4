'use strict'
module.exports = {
  name: 'stdio',
  get report () { return require('./report') }
}
