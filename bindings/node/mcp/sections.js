// The upstream's answer layout: the Markdown sections @playwright/mcp
// writes, found only by the headings it is known to write and in the order
// it writes them, so text inside a body (a console message, an evaluate
// result) that looks like a heading never opens a section. Also which
// upstream versions this layout is read for.
'use strict'

/**
 * The section headings of @playwright/mcp 0.0.83 in the order it writes
 * them (playwright-core's tools/backend/response.ts, Response._build()).
 */
const HEADINGS_0_0_83 = Object.freeze(['Error', 'Result', 'Ran Playwright code', 'Open tabs', 'Page', 'Modal state', 'WebMCP tools', 'Snapshot', 'Events', 'Paused'])

/**
 * Upstream versions whose layout the wrapper reads, by the serverInfo.version
 * of the initialize answer: @playwright/mcp reports its playwright-core's
 * version (0.0.83 ships 1.64.0-alpha-1790635538000).
 */
const LAYOUTS = Object.freeze({ '1.64.0-alpha-1790635538000': HEADINGS_0_0_83 })
/** The versions, for messages and docs. */
const KNOWN_VERSIONS = Object.freeze(Object.keys(LAYOUTS))

/** The headings for an upstream version, or null when it is not known. */
function layoutFor(version) {
  return Object.hasOwn(LAYOUTS, version) ? LAYOUTS[version] : null
}

/**
 * What each heading's body looks like in 0.0.83: a fenced block, a list of
 * `- ` lines, or one link. Error and Result hold free text (a page's own
 * words): anything goes.
 */
const BODIES = {
  'Ran Playwright code': 'fenced',
  'Open tabs': 'list',
  Page: 'list',
  'Modal state': 'list',
  'WebMCP tools': 'fenced',
  Snapshot: 'snapshot',
  Events: 'list',
  Paused: 'list',
}

/**
 * Splits an answer into its sections: [{ heading, body, raw }]. A line
 * `### X` opens a section only when X is one of `headings`, comes after
 * the heading of the section before it, and the body it would have is one
 * Playwright writes under X (a Snapshot only after a Page); any other such
 * line is text of the body it is in (a console message, an evaluate
 * result). Joining the pieces' `raw` gives the text back byte for byte; a
 * first piece may have no heading. Linear in the text.
 */
function sections(text, headings = HEADINGS_0_0_83) {
  const order = new Map(headings.map((h, i) => [h, i]))
  // Every line's start; how many lines before each are not `- ` lines.
  const starts = []
  const notList = [0]
  const marks = [] // lines that could open a section: { line, heading, rank }
  for (let at = 0; ; ) {
    const nl = text.indexOf('\n', at)
    const end = nl < 0 ? text.length : nl
    const line = starts.length
    starts.push(at)
    notList.push(notList[line] + (end > at && !text.startsWith('- ', at) ? 1 : 0))
    if (text.startsWith('### ', at)) {
      const heading = text.slice(at + 4, end)
      if (order.has(heading)) marks.push({ line, heading, rank: order.get(heading) })
    }
    if (nl < 0) break
    at = nl + 1
  }
  starts.push(text.length + 1)
  const lineText = (i) => text.slice(starts[i], starts[i + 1] - 1)
  /** Whether lines [from, to) are a body Playwright writes as `kind`. */
  const fits = (kind, from, to) => {
    let last = to - 1
    while (last >= from && lineText(last) === '') last--
    if (kind === 'list') return notList[to] - notList[from] === 0
    if (kind === 'snapshot' && last === from && /^- \[Snapshot\]\([^\n]+\)$/.test(lineText(from))) return true
    return last > from && /^```[a-z]*$/.test(lineText(from)) && lineText(last) === '```'
  }
  const ok = new Array(marks.length)
  // The nearest later mark that is a section, per rank.
  const nearest = new Array(headings.length).fill(starts.length - 1)
  for (let i = marks.length - 1; i >= 0; i--) {
    const m = marks[i]
    const end = Math.min(...nearest.slice(m.rank + 1), starts.length - 1)
    const kind = BODIES[m.heading]
    ok[i] = !kind || fits(kind, m.line + 1, end)
    if (ok[i]) nearest[m.rank] = m.line
  }
  const opened = []
  let rank = -1
  let page = false
  for (let i = 0; i < marks.length; i++) {
    const m = marks[i]
    if (m.rank <= rank || !ok[i] || (m.heading === 'Snapshot' && !page)) continue
    opened.push(m)
    rank = m.rank
    if (m.heading === 'Page') page = true
  }
  const pieces = []
  const at = (m) => starts[m.line]
  const first = opened.length ? at(opened[0]) : text.length
  if (first > 0 || !opened.length) pieces.push(piece(text.slice(0, first), null))
  opened.forEach((m, k) => {
    pieces.push(piece(text.slice(at(m), k + 1 < opened.length ? at(opened[k + 1]) : text.length), m.heading))
  })
  return pieces
}

function piece(raw, heading) {
  if (heading === null) return { heading, body: raw, raw }
  const nl = raw.indexOf('\n')
  return { heading, body: nl < 0 ? '' : raw.slice(nl + 1), raw }
}

/** A piece with a new text, keeping the piece's trailing newline. */
function replaced(piece, text) {
  return { ...piece, raw: piece.raw.endsWith('\n') ? `${text}\n` : text }
}

module.exports = { HEADINGS_0_0_83, LAYOUTS, KNOWN_VERSIONS, layoutFor, sections, replaced }
