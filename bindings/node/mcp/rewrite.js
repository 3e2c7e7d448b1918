// A Playwright tool's answer as the agent gets it: Playwright's sections
// as it wrote them, except the `### Snapshot` section (inline, or the file
// an action links to), whose snapshot gets carried refs and becomes the
// core's answer against what this session last saw of the tab; the tab
// list followed on the way.
'use strict'
const rd = require('../index.js')
const { sections, replaced } = require('./sections.js')
const { tabLines } = require('./tabs.js')

/**
 * The line an agent reads above a snapshot the core could not read: the
 * core's own words (OWN_REFS_NOTE), as PageDiff and every door write them.
 */
const RAW_NOTE = rd.OWN_REFS_NOTE

/** The same, for a linked snapshot file the wrapper did not read. */
const RAW_LINK_NOTE = "Note: response-diff did not read this snapshot file; the refs in it are the browser's own, and refs from earlier answers on this tab no longer apply."

class Rewriter {
  /**
   * `s`: the session ({ tabs, carrier, detector, defaults, files, headings(),
   * warn(text) }).
   */
  constructor(s) {
    this.s = s
  }

  split(text) {
    return sections(text, this.s.headings())
  }

  /**
   * The snapshot a `### Snapshot` body holds: { text, file? } (text null
   * when the link is not read), or null when it is neither inline YAML nor
   * a link.
   */
  snapshotText(body) {
    const b = body.replace(/\n+$/, '')
    const inline = /^```yaml\n([\s\S]*?)\n?```$/.exec(b)
    if (inline) return { text: inline[1] }
    const link = /^- \[Snapshot\]\((.+)\)$/.exec(b)
    if (!link) return null
    return this.s.files.read(link[1])
  }

  /** Keeps the tab list in step with what Playwright printed. */
  followTabs(name, args, pieces) {
    const tabs = this.s.tabs
    const get = (h) => pieces.find((p) => p.heading === h)
    if (name === 'browser_close') return tabs.reset()
    const list = get('Open tabs') ?? (name === 'browser_tabs' ? get('Result') : undefined)
    const page = get('Page')
    const url = page ? (/^- Page URL: (.*)$/m.exec(page.body)?.[1] ?? null) : null
    if (list) {
      const lines = tabLines(list.body)
      if (lines.length || /No open tabs/.test(list.body)) {
        const closed = name === 'browser_tabs' && args.action === 'close' ? (args.index ?? tabs.current) : undefined
        tabs.follow(lines, closed)
      }
      if (url !== null && tabs.tab) tabs.tab.url = url
    } else if (page) {
      tabs.single(url)
    }
  }

  /**
   * Carries a full snapshot the agent does not see (the wrapper's own
   * browser_snapshot), so the tab's refs and Playwright's agree.
   */
  learnFrom(text) {
    const pieces = this.split(text)
    this.followTabs('browser_snapshot', {}, pieces)
    const snap = pieces.find((p) => p.heading === 'Snapshot')
    const aria = snap ? this.snapshotText(snap.body) : null
    if (aria === null || aria.text === null) return pieces
    const tab = this.s.tabs.ensure()
    if (tab.raw) return pieces
    try {
      tab.refs.learn(this.s.carrier.carry(tab.page(), aria.text).refs, true)
    } catch (e) {
      // Unread: no ref of this tab is translated through an old view.
      this.s.carrier.clear(tab.page())
      tab.refs.clear()
      this.s.warn(`could not read a snapshot (${e?.message ?? e}); this tab's refs are unknown until it is read again`)
    }
    return pieces
  }

  /**
   * Playwright's answer to a known tool, as the agent gets it.
   * `readPage()`: the wrapper's own browser_snapshot (its text, or null).
   */
  async rewrite(name, args, exp, result, readPage, refresh) {
    const at = result.content?.findIndex((c) => c?.type === 'text' && typeof c.text === 'string') ?? -1
    if (at < 0) return result
    const s = this.s
    const pieces = this.split(result.content[at].text)
    this.followTabs(name, args, pieces)
    const own = exp ?? {}
    const off = (k) => own[k] === false || (own[k] === undefined && s.defaults[k] === false)
    const layers = [{ includeSnapshot: true }, s.defaults, own]
    const diffing = Boolean(rd.mergeExpectation(name, layers).diffOptions?.enabled)
    const modal = pieces.some((p) => p.heading === 'Modal state')
    const out = []
    for (const piece of pieces) {
      if (piece.heading === 'Ran Playwright code' && off('includeCode')) continue
      if (piece.heading === 'Open tabs' && off('includeTabs')) continue
      // The lean envelope, with diffs on: the page and the tab list the
      // agent was last shown for this tab, unchanged, are not repeated.
      if ((piece.heading === 'Page' || piece.heading === 'Open tabs') && diffing && s.tabs.tab) {
        const body = piece.body.replace(/\n+$/, '')
        if (rd.sectionUnchanged(s.detector, s.tabs.tab.key, `playwright ${piece.heading}`, body)) continue
      }
      if (piece.heading === 'Result' && name === 'browser_find') {
        out.push(await this.carryFound(piece, refresh))
        continue
      }
      if (piece.heading !== 'Snapshot') {
        out.push(piece)
        continue
      }
      if (off('includeSnapshot')) continue
      out.push(this.snapshot(name, args, layers, piece, modal))
    }
    // The agent asked for the page on a tool whose answer has none: read it.
    if (own.includeSnapshot === true && !result.isError && !modal && !pieces.some((p) => p.heading === 'Snapshot')) {
      const text = await readPage()
      const read = text === null ? [] : this.split(text)
      this.followTabs('browser_snapshot', {}, read)
      const snap = read.find((p) => p.heading === 'Snapshot')
      if (snap) {
        const piece = this.snapshot(name, args, layers, { ...snap, raw: snap.raw.replace(/\n*$/, '\n') }, false)
        const events = out.findIndex((p) => p.heading === 'Events')
        if (out.length && !out[out.length - 1].raw.endsWith('\n')) out[out.length - 1] = { ...out[out.length - 1], raw: `${out[out.length - 1].raw}\n` }
        out.splice(events < 0 ? out.length : events, 0, piece)
      }
    }
    const content = result.content.slice()
    content[at] = { ...content[at], text: out.map((p) => p.raw).join('').replace(/\n$/, '') }
    return { ...result, content }
  }

  /** The `### Snapshot` section as the agent gets it. */
  snapshot(name, args, layers, piece, modal) {
    const s = this.s
    const snap = this.snapshotText(piece.body)
    // JSON, or the empty snapshot of a page under a dialog: Playwright's
    // own text.
    if (snap === null || (snap.text !== null && modal && snap.text.trim() === '')) return piece
    const tab = s.tabs.ensure()
    // A link not read (outside the output directory, missing): the agent
    // may read the browser's refs there, so they are what refs mean now.
    if (snap.text === null) return this.raw(tab, piece, RAW_LINK_NOTE)
    const partial = name === 'browser_snapshot' && (args.target !== undefined || args.depth !== undefined)
    let carry
    try {
      carry = s.carrier.carry(tab.page(), snap.text)
    } catch (e) {
      s.warn(`could not read a snapshot (${e?.message ?? e}): its refs are passed on as the browser wrote them`)
      return this.raw(tab, piece, RAW_NOTE)
    }
    if (!partial) tab.raw = false
    tab.refs.learn(carry.refs, !partial)
    const merged = rd.mergeExpectation(name, layers)
    const snapshotOptions = layers.some((l) => l.snapshotOptions && Object.keys(l.snapshotOptions).length)
    // The agent asked for a file, or for Playwright's text: that text, with
    // the carried refs (in the file it links).
    if ((name === 'browser_snapshot' && args.filename !== undefined) || (!merged.diffOptions?.enabled && !snapshotOptions)) {
      if (snap.file !== undefined) {
        if (carry.snapshot !== snap.text) s.files.write(snap.file, carry.snapshot)
        return piece
      }
      return replaced(piece, `### Snapshot\n\`\`\`yaml\n${carry.snapshot}\n\`\`\``)
    }
    const view = partial ? `\u001fview\u001f${JSON.stringify([args.target ?? null, args.depth ?? null, args.boxes ?? null])}` : ''
    const r = rd.renderSnapshotSection({ aria: carry.snapshot }, name, {
      expectations: layers,
      detector: s.detector,
      key: `${tab.key}${view}`,
      url: tab.url || undefined,
    })
    return r === null ? { ...piece, raw: '' } : replaced(piece, r.text)
  }

  /**
   * The agent sees Playwright's refs: from now on a ref on this tab is
   * Playwright's, until a snapshot is carried again. The section as
   * written, with `note` as the first line of its body.
   */
  raw(tab, piece, note) {
    tab.rekey(this.s.carrier, this.s.detector)
    tab.raw = true
    const nl = piece.raw.indexOf('\n')
    const head = nl < 0 ? piece.raw : piece.raw.slice(0, nl)
    return replaced(piece, `${head}\n${note}\n${piece.body.replace(/\n+$/, '')}`)
  }

  /**
   * browser_find's matches, with the refs the agent knows. Matches the
   * last snapshot did not show get their refs from a fresh one.
   */
  async carryFound(piece, refresh) {
    const tabs = this.s.tabs
    const pws = [...piece.raw.matchAll(/\[ref=([^\]\s]+)\]/g)].map((m) => m[1])
    if (!pws.length || tabs.tab?.raw) return piece
    if (pws.some((pw) => !tabs.tab?.refs.toAgent.has(pw))) await refresh()
    const tab = tabs.tab
    if (!tab || tab.raw || pws.some((pw) => !tab.refs.toAgent.has(pw))) return piece
    return { ...piece, raw: piece.raw.replace(/\[ref=([^\]\s]+)\]/g, (_, pw) => `[ref=${tab.refs.toAgent.get(pw)}]`) }
  }
}

module.exports = { Rewriter, RAW_NOTE, RAW_LINK_NOTE }
