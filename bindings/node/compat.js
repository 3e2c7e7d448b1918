// @x/response-diff/compat: fast-playwright-mcp's ResponseDiffDetector and
// DiffFormatter under their own names, backed by the native addon.
//
// detectDiff builds its result object here rather than in the addon: the
// addon writes the numbers into a Float64Array kept per detector and
// returns only the diff text, so no object crosses in either direction
// (creating and reading objects across N-API costs more than the whole
// diff of a small response).
'use strict'
const binding = require('./index.js')

class ResponseDiffDetector {
  #native = new binding.CompatResponseDiffDetector()
  #out = new Float64Array(6)

  /**
   * Compares `current` with the previous response of `toolName` and stores
   * `current` for the next call. The first call for a tool has no difference.
   */
  detectDiff(current, toolName, options) {
    const o = this.#out
    const formattedDiff = this.#native.detectInto(
      current,
      toolName,
      options.threshold,
      options.format,
      options.maxDiffLines,
      options.ignoreWhitespace,
      options.context,
      o,
    )
    return {
      hasDifference: o[0] === 1,
      similarity: o[1],
      formattedDiff,
      metadata: { addedLines: o[2], removedLines: o[3], contextLines: o[4], totalLines: o[5] },
    }
  }

  /** Stores `content` as the previous response of `toolName`. */
  storeResponse(content, toolName) {
    this.#native.storeResponse(content, toolName)
  }
}

module.exports.ResponseDiffDetector = ResponseDiffDetector
module.exports.DiffFormatter = binding.CompatDiffFormatter
