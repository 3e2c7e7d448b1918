// chrome-devtools-mcp's pages as this session knows them: one Tab (tabs.js:
// its keys in the detector and the carrier, raw or carried) per page id,
// and which page is selected, followed through every `## Pages` list the
// server prints (list_pages, navigate_page, new_page, select_page,
// close_page). A call names its page by `pageId` (page id routing, on by
// default in 1.11.0); a call without one acts on the selected page.
'use strict'
const { Tab } = require('../tabs.js')

/** A line of `## Pages`: `1: <title> (<url>) [selected]`, maybe ` isolatedContext=<name>`. */
const PAGE_LINE = /^(\d+): .*?( \[selected\])?(?: isolatedContext=\S+)?$/

/** The pages of a `## Pages` list: { ids, selected } (selected null when none is marked), or null. */
function pageList(text) {
  // The last one: the server prints it after the tool's own lines (a
  // script's result may hold anything).
  const all = [...text.matchAll(/^## Pages$/gm)]
  if (!all.length) return null
  const at = all[all.length - 1].index
  const ids = []
  let selected = null
  for (const line of text.slice(at).split('\n').slice(1)) {
    const m = PAGE_LINE.exec(line)
    if (!m) break
    ids.push(Number(m[1]))
    if (m[2]) selected = Number(m[1])
  }
  return { ids, selected }
}

class Pages {
  /** `keyOf(name)`: a key unique to the wrapper; `onGone(tab)`: a page closed. */
  constructor(keyOf, onGone) {
    this.keyOf = keyOf
    this.onGone = onGone
    this.byId = new Map()
    this.selected = null
    /** The selected page before any list said which it is. */
    this.unnamed = null
  }

  /** The page a call with these arguments acts on (made when new). */
  forCall(args) {
    const id = typeof args?.pageId === 'number' ? args.pageId : this.selected
    if (id === null) {
      this.unnamed ??= new Tab(this.keyOf('page-selected'))
      return this.unnamed
    }
    let tab = this.byId.get(id)
    if (!tab) {
      tab = new Tab(this.keyOf(`page${id}`))
      this.byId.set(id, tab)
    }
    return tab
  }

  /** Follows the `## Pages` list in an answer's text, if it has one. */
  follow(text) {
    const list = pageList(text)
    if (list === null || !list.ids.length) return
    if (list.selected !== null) {
      // What was seen of "the selected page" before its id was known.
      if (this.unnamed && !this.byId.has(list.selected)) this.byId.set(list.selected, this.unnamed)
      this.unnamed = null
      this.selected = list.selected
    }
    for (const [id, tab] of [...this.byId]) {
      if (list.ids.includes(id)) continue
      this.byId.delete(id)
      this.onGone(tab)
    }
  }
}

module.exports = { Pages, pageList, PAGE_LINE }
