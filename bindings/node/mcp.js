// @x/response-diff/mcp: the entry of the transport wrapper; the code is in
// mcp/ (mcp/index.js says which module does what).
'use strict'
module.exports = require('./mcp/index.js')
