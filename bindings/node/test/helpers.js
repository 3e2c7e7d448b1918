// Paths and readers for the shared fixtures and golden files, the same ones
// the Rust tests use.
'use strict'
const { readFileSync, readdirSync } = require('node:fs')
const { join } = require('node:path')

const root = join(__dirname, '..', '..', '..')
const fixtures = join(root, 'tests', 'fixtures')

/** `tests/fixtures/<rel>` as text. */
const fixture = (rel) => readFileSync(join(fixtures, rel), 'utf8')

/**
 * A text as insta compares it with a stored snapshot: trailing whitespace
 * of each line and trailing newlines do not count.
 */
const asSnap = (s) => s.replace(/[ \t]+$/gm, '').replace(/\n+$/, '')

/**
 * The body of an insta snapshot file: what follows its `---` header. insta
 * stores the value with trailing newlines trimmed, so compare trimmed too.
 */
function snap(path) {
  const text = readFileSync(path, 'utf8')
  const m = /^---\n[\s\S]*?\n---\n([\s\S]*)$/.exec(text)
  if (!m) throw new Error(`not an insta snapshot: ${path}`)
  return asSnap(m[1])
}

/** A golden from core/tests/snapshots. */
const coreSnap = (name) => snap(join(root, 'core', 'tests', 'snapshots', `${name}.snap`))

module.exports = { root, fixtures, fixture, snap, coreSnap, asSnap, readdirSync, join }
