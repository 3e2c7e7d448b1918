// A chrome-devtools-mcp answer as the agent gets it: the server's text as
// it wrote it, except the `## Latest page snapshot` section, whose
// snapshot gets carried uids and becomes the core's answer against what
// this session last saw of the page (renderSnapshotSection, in the
// server's own line format); `structuredContent.snapshot` (the browser's
// uids) left out when the text's snapshot is the wrapper's.
'use strict'
const rd = require('../../index.js')

const HEADING = '## Latest page snapshot'
/** SnapshotFormatter's paragraph above a tree that leaves out the selected element. */
const SELECTED_NOTE = 'Note: there is a selected element in the DevTools Elements panel'

/**
 * The snapshot section of an answer's text: { before, note, tree, after },
 * text === before + HEADING + '\n' + note + tree + after, `tree` the
 * snapshot as printed (every line ending in a newline); { ambiguous: true } when where it
 * ends cannot be told; null when there is none. The section is the first
 * heading line followed by a tree (`uid=` first) or the selected-element
 * note and a tree; the tree ends at the blank line its printer leaves
 * (the snapshot ends with a newline and the sections are joined with
 * one), or with the text.
 */
function snapshotSection(text) {
  for (const m of text.matchAll(/^## Latest page snapshot\n/gm)) {
    const start = m.index + m[0].length
    let treeAt = start
    if (text.startsWith(SELECTED_NOTE, start)) {
      const end = text.indexOf('\n\n', start)
      if (end < 0) continue
      treeAt = end + 2
    }
    if (!text.startsWith('uid=', treeAt)) continue
    const blank = text.indexOf('\n\n', treeAt)
    const end = blank < 0 ? text.length : blank + 1
    const after = text.slice(end)
    // A value holding a blank line: the tree goes on past it.
    if (/^ *uid=\S/m.test(after)) return { ambiguous: true }
    const tree = text.slice(treeAt, end)
    return { before: text.slice(0, m.index), note: text.slice(start, treeAt), tree, after }
  }
  return null
}

/** The page's URL, from the root line of its snapshot (`uid=1_0 RootWebArea "…" url="…"`). */
function rootUrl(tree) {
  const first = tree.split('\n', 1)[0]
  const all = [...first.matchAll(/ url="([^"]*)"/g)]
  return all.length ? all[all.length - 1][1] : ''
}

class DevtoolsRewriter {
  /** `s`: { carrier, detector, defaults, keepStructuredSnapshot, warn(text) }. */
  constructor(s) {
    this.s = s
  }

  /**
   * The page's uids are the browser's from now on (a snapshot shown as
   * written, or saved to a file the agent reads), until one is carried.
   */
  raw(tab) {
    tab.rekey(this.s.carrier, this.s.detector)
    tab.raw = true
  }

  /**
   * The server's answer to `name` on page `tab`, as the agent gets it;
   * `exp`: the call's own expectation (validated), if any.
   */
  rewrite(name, args, tab, result, exp) {
    const at = result.content?.findIndex((c) => c?.type === 'text' && typeof c.text === 'string') ?? -1
    if (at < 0) return result
    const text = result.content[at].text
    const section = snapshotSection(text)
    if (section === null) {
      // take_snapshot's filePath (the agent reads the browser's uids in the
      // file), or a snapshot in another format (JSON, toon): the page's uids
      // are the browser's until one is carried.
      const saved = name === 'take_snapshot' && args.filePath !== undefined && !result.isError && /^Saved snapshot to /m.test(text)
      if (saved || /^## Latest page snapshot$/m.test(text)) this.raw(tab)
      return result
    }
    const s = this.s
    let out
    let ours = false
    if (section.ambiguous) {
      s.warn('could not tell where a snapshot ends (a value holds a blank line): its uids are passed on as the browser wrote them')
      this.raw(tab)
      out = text.replace(/^## Latest page snapshot\n/m, `${HEADING}\n${rd.OWN_REFS_NOTE}\n`)
    } else {
      const { before, note, tree, after } = section
      tab.url = rootUrl(tree)
      let carry
      try {
        carry = s.carrier.carry(tab.page(), tree)
      } catch (e) {
        s.warn(`could not read a snapshot (${e?.message ?? e}): its uids are passed on as the browser wrote them`)
        this.raw(tab)
        carry = null
        out = `${before}${HEADING}\n${rd.OWN_REFS_NOTE}\n${note}${tree}${after}`
      }
      if (carry !== null) {
        tab.raw = false
        tab.refs.learn(carry.refs, true)
        ours = true
        const layers = [{ includeSnapshot: true }, s.defaults, exp ?? {}]
        if (!rd.mergeExpectation(name, layers).diffOptions?.enabled) {
          out = `${before}${HEADING}\n${note}${carry.snapshot.replace(/\n$/, '')}\n${after}`
        } else {
          // A verbose snapshot is another view of the page: its own history.
          const view = args.verbose === true ? '\u001fverbose' : ''
          const r = rd.renderSnapshotSection({ aria: carry.snapshot }, name, {
            expectations: layers,
            detector: s.detector,
            key: `${tab.key}${view}`,
            url: tab.url || undefined,
          })
          out = r === null ? `${before}${after.replace(/^\n/, '')}` : `${before}## ${r.heading}\n${note}${r.body.replace(/\n$/, '')}\n${after}`
        }
      }
    }
    const content = result.content.slice()
    content[at] = { ...content[at], text: out }
    const next = { ...result, content }
    if (ours && !s.keepStructuredSnapshot && result.structuredContent && typeof result.structuredContent === 'object' && 'snapshot' in result.structuredContent) {
      const { snapshot: _, ...rest } = result.structuredContent
      next.structuredContent = rest
    }
    return next
  }
}

module.exports = { DevtoolsRewriter, snapshotSection, rootUrl, HEADING, SELECTED_NOTE }
