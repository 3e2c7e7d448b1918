// renderSnapshotSection: the snapshot section of renderResponse, alone.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const rd = require('..')

const before = '- list [ref=e1]:\n  - listitem [ref=e2]: Tea\n- button "Add" [ref=e3]'
const after = '- list [ref=e1]:\n  - listitem [ref=e2]: Tea\n  - listitem [ref=e4]: Milk\n- button "Add" [ref=e3]'
const on = [{ diffOptions: { enabled: true } }]

test('the same text as the snapshot section of renderResponse, step by step', () => {
  const whole = new rd.ResponseDiffDetector()
  const alone = new rd.ResponseDiffDetector()
  for (const aria of [before, after, after]) {
    const r = rd.renderResponse({ snapshot: { aria } }, 'browser_click', { expectations: on, detector: whole, key: 'tab' })
    const s = rd.renderSnapshotSection({ aria }, 'browser_click', { expectations: on, detector: alone, key: 'tab' })
    assert.equal(s.text, r.text)
    assert.equal(s.text, `### ${s.heading}\n${s.body}`)
    assert.deepEqual(s.snapshotDiff, r.snapshotDiff)
  }
})

test('a page seen before diffs against its last snapshot when the URL is given', () => {
  const d = new rd.ResponseDiffDetector()
  const render = (aria, url) => rd.renderSnapshotSection({ aria }, 'browser_navigate', { expectations: on, detector: d, key: 'tab', url })
  render(before, 'http://127.0.0.1/a')
  render('- heading "Elsewhere" [level=1] [ref=e9]', 'http://127.0.0.1/b')
  assert.match(render(before, 'http://127.0.0.1/a').body, /^No changes since the last snapshot of this URL/)
})

test('null when the expectation leaves the snapshot out; options are checked', () => {
  assert.equal(rd.renderSnapshotSection({ aria: before }, 'browser_click', { expectations: [{ includeSnapshot: false }] }), null)
  assert.throws(() => rd.renderSnapshotSection({ aria: before }, 'browser_click', { detector: new rd.ResponseDiffDetector() }), { code: 'INVALID_OPTION', message: /renderOptions\.key/ })
  assert.throws(() => rd.renderSnapshotSection({ aria: before }, 'browser_click', { uri: 'x' }), { code: 'INVALID_OPTION', message: /unknown option `uri`; allowed: expectations, detector, key, url/ })
})
