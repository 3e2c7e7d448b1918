// @x/response-diff/compat: fast-playwright-mcp's ResponseDiffDetector and
// DiffFormatter under their own names, backed by the native addon.
'use strict'
const binding = require('./index.js')

module.exports.ResponseDiffDetector = binding.CompatResponseDiffDetector
module.exports.DiffFormatter = binding.CompatDiffFormatter
