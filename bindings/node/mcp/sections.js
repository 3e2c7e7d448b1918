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
 * Splits an answer into its sections: [{ heading, body, raw }]. A line
 * `### X` opens a section only when X is one of `headings` and comes after
 * the heading of the section it would end; any other line belongs to the
 * body it is in. Joining the pieces' `raw` gives the text back byte for
 * byte; a first piece may have no heading.
 */
function sections(text, headings = HEADINGS_0_0_83) {
  const order = new Map(headings.map((h, i) => [h, i]))
  const pieces = []
  let start = 0
  let heading = null
  let rank = -1
  let at = 0
  while (at <= text.length) {
    const nl = text.indexOf('\n', at)
    const end = nl < 0 ? text.length : nl
    const line = text.slice(at, end)
    if (line.startsWith('### ')) {
      const h = line.slice(4)
      const r = order.get(h)
      if (r !== undefined && r > rank) {
        if (at > start || heading !== null) pieces.push(piece(text.slice(start, at), heading))
        start = at
        heading = h
        rank = r
      }
    }
    if (nl < 0) break
    at = nl + 1
  }
  if (text.length > start || heading !== null || !pieces.length) pieces.push(piece(text.slice(start), heading))
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
