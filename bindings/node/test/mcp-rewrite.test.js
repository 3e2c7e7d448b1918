// mcp/rewrite.js: a Playwright answer as the agent gets it.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const rd = require('..')
const { Rewriter, RAW_NOTE } = require('../mcp/rewrite.js')
const { Tabs } = require('../mcp/tabs.js')
const { HEADINGS_0_0_83 } = require('../mcp/sections.js')

const PAGE = '### Page\n- Page URL: http://a.invalid/\n- Page Title: A'
const SNAP = '### Snapshot\n```yaml\n- button "Add" [ref=e2]\n```'

function rewriter() {
  const notes = []
  const r = new Rewriter({
    tabs: new Tabs((n) => `w/tab${n}`, () => {}),
    carrier: new rd.RefCarrier(),
    detector: new rd.ResponseDiffDetector(),
    defaults: { diffOptions: { enabled: true } },
    files: { read: () => ({ text: null }), write: () => false },
    headings: () => HEADINGS_0_0_83,
    warn: (t) => notes.push(t),
  })
  return { r, notes }
}
const result = (text) => ({ content: [{ type: 'text', text }] })
const none = async () => null

test('the snapshot becomes the core\'s section; includeCode: false drops the code', async () => {
  const { r } = rewriter()
  const out = await r.rewrite('browser_navigate', {}, { includeCode: false }, result(`### Ran Playwright code\n\`\`\`js\nx\n\`\`\`\n${PAGE}\n${SNAP}`), none, none)
  assert.match(out.content[0].text, /^### Page\n[\s\S]*\n### Page snapshot\n```yaml\n- button "Add" \[ref=e2\]\n```$/)
})

test('includeSnapshot: true on an answer with no snapshot reads the page once', async () => {
  const { r } = rewriter()
  let reads = 0
  const readPage = async () => {
    reads++
    return `${PAGE}\n${SNAP}`
  }
  const out = await r.rewrite('browser_type', {}, { includeSnapshot: true }, result('### Ran Playwright code\n```js\ntype()\n```'), readPage, none)
  assert.equal(reads, 1)
  assert.match(out.content[0].text, /^### Ran Playwright code\n```js\ntype\(\)\n```\n### Page snapshot\n```yaml\n/)
  const plain = await r.rewrite('browser_type', {}, undefined, result('### Ran Playwright code\n```js\ntype()\n```'), readPage, none)
  assert.equal(reads, 1)
  assert.doesNotMatch(plain.content[0].text, /snapshot/i)
})

test('a snapshot the core cannot read is shown as written, with one line, and the tab goes raw', async () => {
  const { r, notes } = rewriter()
  await r.rewrite('browser_navigate', {}, undefined, result(`${PAGE}\n${SNAP}`), none, none)
  const bad = '### Snapshot\n```yaml\n- button "B" [ref=e5]\n  - child\n```'
  const out = await r.rewrite('browser_snapshot', {}, undefined, result(`${PAGE}\n${bad}`), none, none)
  assert.ok(out.content[0].text.endsWith(bad.replace('### Snapshot\n', `### Snapshot\n${RAW_NOTE}\n`)))
  assert.equal(r.s.tabs.tab.raw, true)
  assert.equal(notes.length, 1)
  await r.rewrite('browser_snapshot', {}, undefined, result(`${PAGE}\n${SNAP}`), none, none)
  assert.equal(r.s.tabs.tab.raw, false)
})
