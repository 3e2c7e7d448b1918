// The wrapper's own JSON-RPC request ids and per-instance keys: a random
// prefix per wrapper, so its ids never collide with a client's (a client
// may itself send `response-diff/1`) and two wrappers sharing a detector
// or a carrier never share a key.
'use strict'
const { randomBytes } = require('node:crypto')

class OwnIds {
  constructor() {
    /** Unique to this wrapper: no client and no other wrapper uses it. */
    this.prefix = `response-diff/${randomBytes(6).toString('hex')}/`
    this.seq = 0
  }

  /** A request id no client uses. */
  next() {
    return `${this.prefix}${++this.seq}`
  }

  /** Whether `id` is one of this wrapper's request ids. */
  owns(id) {
    return typeof id === 'string' && id.startsWith(this.prefix)
  }

  /** A detector or carrier key of this wrapper for `name`. */
  key(name) {
    return `${this.prefix}${name}`
  }
}

module.exports = { OwnIds }
