// Ref translation, in one place: the carrier key of a tab's page, the
// views kept per page, and the agent's (carried) ref → Playwright's
// current ref for the arguments of a call. When the core's carrier offers
// `sourceRef`, `carrierKey` and `PAGE_VIEWS` (issue 41), only this module
// changes.
'use strict'
const { visit } = require('./schema.js')

/** A ref as the agent writes it: `e12`, or `f1e3` inside a frame. */
const REF = /^(?:f\d+)?e\d+$/
/** As many views per page as our server keeps (a row paged away and back keeps its ref). */
const VIEWS_PER_KEY = 16
/** Playwright's error for a ref its last snapshot does not have. */
const NOT_FOUND = /\bRef (\S+) not found in the current page snapshot\b/
/** Playwright's words for that error, for a ref the wrapper knows is gone. */
const notFound = (ref) => `### Error\nError: Ref ${ref} not found in the current page snapshot. Try capturing new snapshot.`

/**
 * The carrier's key for a tab's page: per URL (fragment aside), as our
 * server files a document, so a page seen before (back, a return visit)
 * gets its refs back from its own views.
 */
const carrierKey = (tabKey, url) => `${tabKey}\u001f${url.split('#')[0]}`

/** The refs of a tab's last carried snapshot, both ways. */
class RefMap {
  constructor() {
    /** Agent's ref → Playwright's ref. */
    this.toSource = new Map()
    /** Playwright's ref → agent's ref. */
    this.toAgent = new Map()
  }

  clear() {
    this.toSource.clear()
    this.toAgent.clear()
  }

  /** Records a carry's mapping (Playwright's id → agent's ref); `whole`: a full snapshot. */
  learn(refs, whole) {
    if (whole) this.clear()
    for (const [pw, agent] of Object.entries(refs)) {
      const old = this.toAgent.get(pw)
      if (old !== undefined) this.toSource.delete(old)
      this.toSource.set(agent, pw)
      this.toAgent.set(pw, agent)
    }
  }
}

/**
 * Playwright's ref for the agent's `ref` on `tab`, or undefined. A tab
 * whose last snapshot was shown as Playwright wrote it (tab.raw) takes
 * Playwright's refs as they are.
 */
function sourceRef(tab, ref) {
  if (!tab) return undefined
  if (tab.raw) return ref
  return tab.refs.toSource.get(ref)
}

/**
 * The arguments with the agent's refs replaced by Playwright's, the refs
 * the tab does not know, and Playwright's ref → agent's ref.
 */
function translate(args, paths, tab) {
  const out = structuredClone(args)
  const missing = []
  const used = new Map()
  for (const p of paths) {
    visit(out, p, (holder, key) => {
      const v = holder[key]
      if (typeof v !== 'string' || !REF.test(v)) return
      const pw = sourceRef(tab, v)
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
