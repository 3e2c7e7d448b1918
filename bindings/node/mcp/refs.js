// Ref translation for the arguments of a call: the agent's (carried) ref
// → Playwright's current ref. The mapping itself, the carrier key and the
// views kept per page are the core's (RefCarrier.sourceRef, carrierKey,
// PAGE_VIEWS); this module only applies them to a call's arguments.
'use strict'
const rd = require('../index.js')
const { visit } = require('./schema.js')

/** A ref as the agent writes it: `e12`, or `f1e3` inside a frame. */
const REF = /^(?:f\d+)?e\d+$/
/** As many views per page as our server keeps (a row paged away and back keeps its ref). */
const VIEWS_PER_KEY = rd.PAGE_VIEWS
/** Playwright's error for a ref its last snapshot does not have. */
const NOT_FOUND = /\bRef (\S+) not found in the current page snapshot\b/
/** Playwright's words for that error, for a ref the wrapper knows is gone. */
const notFound = (ref) => `### Error\nError: Ref ${ref} not found in the current page snapshot. Try capturing new snapshot.`

/**
 * The carrier's key for a tab's page: per URL (fragment aside), as our
 * server files a document, so a page seen before (back, a return visit)
 * gets its refs back from its own views.
 */
const carrierKey = (tabKey, url) => rd.carrierKey(tabKey, url)

/**
 * Playwright's ref → the agent's, from the tab's last carry: for the refs
 * in browser_find's matches (the carry's own output, not a second map).
 */
class RefMap {
  constructor() {
    this.toAgent = new Map()
  }

  clear() {
    this.toAgent.clear()
  }

  /** Records a carry's refs (Playwright's id → agent's ref); `whole`: a full snapshot. */
  learn(refs, whole) {
    if (whole) this.clear()
    for (const [pw, agent] of Object.entries(refs)) this.toAgent.set(pw, agent)
  }
}

/**
 * Playwright's ref for the agent's `ref` on `tab`, or undefined: the
 * core's answer for the tab's page. A tab whose last snapshot was shown as
 * Playwright wrote it (tab.raw) takes Playwright's refs as they are.
 */
function sourceRef(carrier, tab, ref) {
  if (!tab) return undefined
  if (tab.raw) return ref
  return carrier.sourceRef(tab.page(), ref) ?? undefined
}

/**
 * The arguments with the agent's refs replaced by the server's (the
 * latest view of the tab, by the core's carrier), the refs the tab does
 * not know, and the server's ref → agent's ref. `accepts(v)`: whether a
 * string there is a ref at all (Playwright's `e12`; any chrome-devtools-mcp
 * uid). A tab shown raw (its last snapshot the server's own) takes refs as
 * they are.
 */
function translate(args, paths, tab, carrier, accepts = (v) => REF.test(v)) {
  const out = structuredClone(args)
  const missing = []
  const used = new Map()
  for (const p of paths) {
    visit(out, p, (holder, key) => {
      const v = holder[key]
      if (typeof v !== 'string' || !accepts(v)) return
      const pw = sourceRef(carrier, tab, v)
      if (pw === undefined) missing.push(v)
      else {
        holder[key] = pw
        used.set(pw, v)
      }
    })
  }
  return { args: out, missing, used }
}

/** The agent's ref Playwright said it does not know, or null. */
function staleRef(reply, t) {
  if (!reply.result?.isError) return null
  const text = reply.result.content?.find((c) => c?.type === 'text')?.text ?? ''
  const m = NOT_FOUND.exec(text)
  if (!m || !t.used.has(m[1])) return null
  return t.used.get(m[1])
}

/** The answer for a ref the wrapper knows is gone, in Playwright's words. */
const gone = (ref) => ({ result: { content: [{ type: 'text', text: notFound(ref) }], isError: true } })

module.exports = { REF, VIEWS_PER_KEY, RefMap, carrierKey, sourceRef, translate, staleRef, gone, notFound }
