// The chrome-devtools-mcp door: one tools/call, from the agent's
// arguments (its uids translated back to the browser's, includeSnapshot
// on by default for input tools) to the answer the agent gets
// (rewrite.js). The transport (../transport.js) runs it in its queue.
'use strict'
const { Pages } = require('./pages.js')
const { catalog, KNOWN_PATHS, KNOWN_SNAPSHOT_TOOLS } = require('./schema.js')
const { translate, gone, uidsBack } = require('./uids.js')
const { DevtoolsRewriter } = require('./rewrite.js')
const rd = require('../../index.js')

/** chrome-devtools-mcp's serverInfo.name. */
const DEVTOOLS_SERVER_NAME = 'chrome_devtools'
/** The versions whose answers the wrapper reads (serverInfo.version). */
const DEVTOOLS_VERSIONS = Object.freeze(['1.11.0'])

const isObject = (m) => m !== null && typeof m === 'object' && !Array.isArray(m)

class DevtoolsDoor {
  /**
   * `s`: { ids, carrier, detector, defaults, includeSnapshot,
   * keepStructuredSnapshot, warn(text), onerror(e) }.
   */
  constructor(s) {
    this.s = s
    this.paths = new Map()
    this.snapshotTools = new Set(KNOWN_SNAPSHOT_TOOLS)
    this.pages = new Pages(
      (name) => s.ids.key(name),
      (tab) => {
        for (const k of tab.pages) s.carrier.clear(k)
        s.detector.clear(tab.key)
      },
    )
    this.rewriter = new DevtoolsRewriter(s)
  }

  /** The served tools/list answer. */
  catalog(message) {
    return catalog(message, this.paths, this.snapshotTools, { includeSnapshot: this.s.includeSnapshot })
  }

  /** One call: the reply for the client, or null when it was cancelled. */
  async call(message, forward, cancelled) {
    const name = message.params?.name
    const raw = message.params?.arguments
    // `expectation` is the wrapper's: taken off before the server sees it.
    const { expectation, ...args } = isObject(raw) ? raw : {}
    let exp
    try {
      exp = expectation === undefined ? undefined : rd.validateExpectation(expectation)
    } catch (e) {
      return { result: { content: [{ type: 'text', text: `Error: ${e.message}` }], isError: true } }
    }
    const tab = this.pages.forCall(args)
    const t = translate(args, this.paths.get(name) ?? KNOWN_PATHS, tab, this.s.carrier)
    if (t.missing.length) return gone(t.missing[0])
    if (this.s.includeSnapshot && this.snapshotTools.has(name) && args.includeSnapshot === undefined) t.args.includeSnapshot = true
    if (cancelled()) return null
    let reply = await forward(name, isObject(raw) ? t.args : raw, message)
    if (reply.cancelled) return null
    if (!isObject(reply.result)) return reply
    try {
      let result = reply.result
      if (result.isError && t.used.size) {
        result = { ...result, content: result.content?.map?.((c) => (c?.type === 'text' && typeof c.text === 'string' ? { ...c, text: uidsBack(c.text, t.used) } : c)) }
      }
      const text = result.content?.find?.((c) => c?.type === 'text' && typeof c.text === 'string')?.text
      result = this.rewriter.rewrite(name, args, tab, result, exp)
      if (typeof text === 'string') this.pages.follow(text)
      reply = { ...reply, result }
    } catch (e) {
      // Never lose the server's answer to a fault of ours.
      this.s.onerror(e)
    }
    return reply
  }
}

module.exports = { DevtoolsDoor, DEVTOOLS_SERVER_NAME, DEVTOOLS_VERSIONS }
