// Applies the drop-in's unified and split diffs to the previous text, so a
// test can check that a diff holds every change: the rebuilt text must be
// the current one. Hand-written (a few lines) because the npm patch
// libraries expect `---`/`+++` file headers and know nothing of the split
// format.
'use strict'

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/

// Lines of a text with no final newline (fast-playwright-mcp's texts).
const linesOf = (text) => (text === '' ? [] : text.split('\n'))

/** The hunks of a unified or split diff: where they start and their lines. */
function hunks(diff, format) {
  const out = []
  let h = null
  let side = null
  for (const line of diff.split('\n')) {
    const m = HUNK.exec(line)
    if (m) {
      h = {
        oldStart: Number(m[1]),
        oldCount: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newCount: m[4] === undefined ? 1 : Number(m[4]),
        before: [],
        after: [],
      }
      out.push(h)
      side = null
      continue
    }
    if (!h) throw new Error(`text before the first hunk header: ${JSON.stringify(line)}`)
    if (format === 'split') {
      if (line === 'before:' || line === 'after:') side = line.slice(0, -1)
      else if (side && line.startsWith('  ')) h[side].push(line.slice(2))
      else throw new Error(`not a split diff line: ${JSON.stringify(line)}`)
      continue
    }
    const body = line.slice(1)
    if (line.startsWith(' ')) h.before.push(body), h.after.push(body)
    else if (line.startsWith('-')) h.before.push(body)
    else if (line.startsWith('+')) h.after.push(body)
    else if (line.startsWith('\\')) throw new Error(`a "${line}" marker in the drop-in's output`)
    else throw new Error(`not a unified diff line: ${JSON.stringify(line)}`)
  }
  return out
}

/** `previous` with `diff` (format 'unified' or 'split') applied. */
function applyDiff(previous, diff, format = 'unified') {
  const old = linesOf(previous)
  const out = []
  let at = 0 // next old line (0-based) not yet copied
  for (const h of hunks(diff, format)) {
    if (h.before.length !== h.oldCount || h.after.length !== h.newCount) {
      throw new Error(`hunk @@ -${h.oldStart},${h.oldCount} +${h.newStart},${h.newCount} @@ has ${h.before.length} old and ${h.after.length} new lines`)
    }
    // A hunk with no old lines starts after line oldStart.
    const start = h.oldCount === 0 ? h.oldStart : h.oldStart - 1
    if (start < at) throw new Error(`hunks overlap or are out of order at old line ${h.oldStart}`)
    for (let i = at; i < start; i++) out.push(old[i])
    const actual = old.slice(start, start + h.oldCount)
    if (actual.join('\n') !== h.before.join('\n')) {
      throw new Error(`hunk at old line ${h.oldStart} does not match the previous text`)
    }
    if (out.length + 1 !== h.newStart && !(h.newCount === 0 && out.length === h.newStart)) {
      throw new Error(`hunk at new line ${h.newStart}, but the rebuilt text is at line ${out.length + 1}`)
    }
    for (const l of h.after) out.push(l)
    at = start + h.oldCount
  }
  for (let i = at; i < old.length; i++) out.push(old[i])
  return out.join('\n')
}

/** The `- ` and `+ ` lines of a minimal diff. */
function minimalLines(diff) {
  const removed = []
  const added = []
  for (const line of diff.split('\n')) {
    if (line.startsWith('- ')) removed.push(line.slice(2))
    else if (line.startsWith('+ ')) added.push(line.slice(2))
    else throw new Error(`not a minimal diff line: ${JSON.stringify(line)}`)
  }
  return { removed, added }
}

module.exports = { applyDiff, minimalLines, linesOf }
