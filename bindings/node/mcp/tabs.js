// The browser's tabs as this session knows them: Playwright's tab list
// followed answer by answer, and per tab its keys in the detector and the
// carrier and the map from the agent's refs to Playwright's.
'use strict'
const refs = require('./refs.js')

/** A tab line of `### Open tabs` and of browser_tabs' result. */
const TAB_LINE = /^- (\d+):( \(current\))? \[(.*)\]\((.*)\)(?: \[crashed\])?$/

/** The tab lines of a section body: [{ index, current, title, url }]. */
function tabLines(body) {
  const tabs = []
  for (const line of body.split('\n')) {
    const m = TAB_LINE.exec(line)
    if (m) tabs.push({ index: Number(m[1]), current: Boolean(m[2]), title: m[3], url: m[4] })
  }
  return tabs
}

/** One tab: its keys and the refs of its last carried snapshot. */
class Tab {
  /** `base`: the tab's key, unique to its wrapper (see ids.js). */
  constructor(base) {
    this.base = base
    this.epoch = 0
    this.key = base
    this.url = ''
    this.refs = new refs.RefMap()
    /** The carrier's keys this tab used. */
    this.pages = new Set()
    /**
     * True after a snapshot the core could not read was shown as
     * Playwright wrote it: refs then mean Playwright's own, untranslated.
     */
    this.raw = false
  }

  /** The carrier's key for the tab's page (see refs.carrierKey). */
  page() {
    const key = refs.carrierKey(this.key, this.url)
    this.pages.add(key)
    return key
  }

  /**
   * Forgets what this tab carried and showed: new keys, so neither the
   * carrier nor the detector has history for it.
   */
  rekey(carrier, detector) {
    for (const k of this.pages) carrier.clear(k)
    detector?.clear(this.key)
    this.pages.clear()
    this.refs.clear()
    this.key = `${this.base}.${++this.epoch}`
  }
}

/** The open tabs in Playwright's order, and which one is current. */
class Tabs {
  /** `keyOf(n)`: the key of the n-th tab made; `onGone(tab)`: a tab closed. */
  constructor(keyOf, onGone) {
    this.list = []
    this.current = -1
    this.next = 1
    this.keyOf = keyOf
    this.onGone = onGone
  }

  get tab() {
    return this.current >= 0 ? this.list[this.current] : null
  }

  #make() {
    return new Tab(this.keyOf(this.next++))
  }

  /** The current tab, made when the browser had none (the first navigation). */
  ensure() {
    if (!this.tab) {
      this.list = [this.#make()]
      this.current = 0
    }
    return this.tab
  }

  reset() {
    for (const t of this.list) this.onGone(t)
    this.list = []
    this.current = -1
  }

  /**
   * Follows the tab list Playwright printed. Tabs keep their order; new
   * ones come last; a closed one is found by `closed` (browser_tabs close)
   * or by the URLs of the others.
   */
  follow(lines, closed) {
    if (!lines.length) return this.reset()
    const n = lines.length
    if (n > this.list.length) {
      while (this.list.length < n) this.list.push(this.#make())
    } else if (n < this.list.length) {
      let keep = null
      if (closed !== undefined && this.list.length - n === 1 && closed >= 0 && closed < this.list.length) {
        keep = this.list.filter((_, i) => i !== closed)
      } else {
        keep = []
        let k = 0
        for (const t of this.list) {
          if (k < n && keep.length < n && t.url === lines[k].url) {
            keep.push(t)
            k++
          }
        }
        // Not told apart by URL: only the first ones are kept for sure.
        if (keep.length !== n) keep = this.list.slice(0, n)
      }
      for (const t of this.list) if (!keep.includes(t)) this.onGone(t)
      this.list = keep
    }
    lines.forEach((l, i) => {
      this.list[i].url = l.url
    })
    const c = lines.findIndex((l) => l.current)
    this.current = c >= 0 ? c : Math.min(Math.max(this.current, 0), n - 1)
  }

  /** A response showed one page and no tab list: one tab is open. */
  single(url) {
    const tab = this.tab
    if (this.list.length > 1) {
      for (const t of this.list) if (t !== tab) this.onGone(t)
      this.list = tab ? [tab] : []
    }
    const t = this.ensure()
    if (url !== null) t.url = url
  }
}

module.exports = { Tab, Tabs, tabLines, TAB_LINE }
