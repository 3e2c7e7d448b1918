// The @playwright/mcp door: one tools/call of a Playwright tool, from the
// agent's arguments (expectation taken off, refs translated back, a stale
// ref retried once after a fresh snapshot) to the answer the agent gets
// (rewrite.js). The transport (transport.js) runs it in its queue.
'use strict'
const rd = require('../index.js')
const { Tabs } = require('./tabs.js')
const refs = require('./refs.js')
const { PLAYWRIGHT_TOOLS, KNOWN_PATHS, catalog } = require('./schema.js')
const { Files } = require('./files.js')
const { Rewriter } = require('./rewrite.js')

const isObject = (m) => m !== null && typeof m === 'object' && !Array.isArray(m)
const textOf = (result) => result?.content?.find?.((c) => c?.type === 'text' && typeof c.text === 'string')?.text

class PlaywrightDoor {
  /**
   * `s`: { ids, carrier, detector, defaults, outputDir, cwd, headings(),
   * warn(text), onerror(e) }.
   */
  constructor(s) {
    this.s = s
    this.paths = new Map()
    this.tabs = new Tabs(
      (n) => s.ids.key(`tab${n}`),
      (t) => {
        for (const k of t.pages) s.carrier.clear(k)
      },
    )
    this.files = new Files({ outputDir: s.outputDir, cwd: s.cwd, warn: s.warn })
    this.rewriter = new Rewriter({
      tabs: this.tabs,
      carrier: s.carrier,
      detector: s.detector,
      defaults: s.defaults,
      files: this.files,
      headings: s.headings,
      warn: s.warn,
    })
  }

  /** The served tools/list answer. */
  catalog(message) {
    return catalog(message, this.paths)
  }

  /** The client announced its first root: where relative links resolve. */
  root(dir) {
    this.files.root = dir
  }

  /**
   * One call: the reply for the client, or null when the call was
   * cancelled. `forward(name, args, template)` sends a call upstream under
   * the wrapper's own id; `cancelled()` says whether the client cancelled.
   */
  async call(message, forward, cancelled) {
    const name = message.params?.name
    const readPage = async () => {
      const r = await forward('browser_snapshot', {}, null)
      return r.result && !r.result.isError ? (textOf(r.result) ?? null) : null
    }
    const refresh = async () => {
      const text = await readPage()
      if (text !== null) this.rewriter.learnFrom(text)
    }
    const raw = message.params?.arguments ?? {}
    const { expectation, ...args } = isObject(raw) ? raw : {}
    let exp
    try {
      exp = expectation === undefined ? undefined : rd.validateExpectation(expectation)
    } catch (e) {
      const r = rd.renderResponse({ result: e.message, isError: true }, name, {})
      return { result: { content: [{ type: 'text', text: r.text }], isError: true } }
    }
    const paths = this.paths.get(name) ?? KNOWN_PATHS
    let t = refs.translate(args, paths, this.tabs.tab, this.s.carrier)
    if (t.missing.length) {
      await refresh()
      t = refs.translate(args, paths, this.tabs.tab, this.s.carrier)
    }
    if (cancelled()) return null
    if (t.missing.length) return refs.gone(t.missing[0])
    let reply = await forward(name, t.args, message)
    if (reply.cancelled) return null
    const stale = refs.staleRef(reply, t)
    if (stale !== null) {
      await refresh()
      t = refs.translate(args, paths, this.tabs.tab, this.s.carrier)
      if (cancelled()) return null
      if (t.missing.length) return refs.gone(t.missing[0])
      reply = await forward(name, t.args, message)
      if (reply.cancelled) return null
      const again = refs.staleRef(reply, t)
      if (again !== null) return refs.gone(again)
    }
    if (PLAYWRIGHT_TOOLS.has(name) && isObject(reply.result)) {
      try {
        reply = { ...reply, result: await this.rewriter.rewrite(name, args, exp, reply.result, readPage, refresh) }
      } catch (e) {
        // Never lose Playwright's answer to a fault of ours.
        this.s.onerror(e)
      }
    }
    return reply
  }
}

module.exports = { PlaywrightDoor }
