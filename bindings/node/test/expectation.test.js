// Expectation (validate, merge) and response rendering, with the snapshot
// diffed through a detector.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const { validateExpectation, mergeExpectation, renderResponse, ResponseDiffDetector, applySnapshotPatch } = require('..')
const { fixture } = require('./helpers')

test('a partial expectation keeps the tool defaults (never false)', () => {
  const r = mergeExpectation('browser_navigate', [{ includeConsole: false }])
  assert.equal(r.includeSnapshot, true)
  assert.equal(r.includeConsole, false)
  assert.equal(r.includeTabs, true)
  assert.equal(mergeExpectation('browser_take_screenshot', [{ includeConsole: false }]).includeSnapshot, false)
  const evaluate = mergeExpectation('browser_evaluate')
  assert.equal(evaluate.includeSnapshot, false)
  assert.equal(evaluate.includeConsole, true)
  const unknown = mergeExpectation('some_new_tool', [])
  assert.ok(unknown.includeSnapshot && unknown.includeConsole && unknown.includeCode)
  assert.equal(mergeExpectation('mcp__browser__browser_take_screenshot').includeSnapshot, false)
})

test('merge is deep, field by field, lowest layer first', () => {
  const global = { diffOptions: { enabled: true, context: 1 }, consoleOptions: { levels: ['error'], maxMessages: 3 } }
  const step = { diffOptions: { format: 'minimal' }, consoleOptions: { maxMessages: 5 } }
  const r = mergeExpectation('click', [global, step])
  assert.deepEqual(r.diffOptions, {
    enabled: true,
    threshold: 0.1,
    format: 'minimal',
    maxDiffLines: 50,
    ignoreWhitespace: true,
    context: 1,
  })
  assert.deepEqual(r.consoleOptions.levels, ['error'])
  assert.equal(r.consoleOptions.maxMessages, 5)
})

test('validate returns the canonical expectation, leaving out what was left out', () => {
  assert.deepEqual(validateExpectation({ diffOptions: { enabled: true }, includeTabs: false }), {
    diffOptions: { enabled: true },
    includeTabs: false,
  })
  // undefined fields are as if absent
  assert.deepEqual(validateExpectation({ includeCode: undefined }), {})
})

// The core's own table (core/src/expectation.rs): every error names its field.
const INVALID = [
  [{ includeSnapshots: true }, 'expectation.includeSnapshots'],
  [{ includeSnapshot: 'yes' }, 'expectation.includeSnapshot'],
  [{ snapshotOptions: { maxLength: 0 } }, 'expectation.snapshotOptions.maxLength'],
  [{ snapshotOptions: { format: 'xml' } }, 'expectation.snapshotOptions.format'],
  [{ snapshotOptions: { selector: '' } }, 'expectation.snapshotOptions.selector'],
  [{ snapshotOptions: { colour: 1 } }, 'expectation.snapshotOptions.colour'],
  [{ consoleOptions: { levels: ['log', 'fatal'] } }, 'expectation.consoleOptions.levels[1]'],
  [{ consoleOptions: { maxMessages: -1 } }, 'expectation.consoleOptions.maxMessages'],
  [{ consoleOptions: { maxMessages: 100001 } }, 'expectation.consoleOptions.maxMessages'],
  [{ consoleOptions: { patterns: ['ok', '('] } }, 'expectation.consoleOptions.patterns[1]'],
  [{ imageOptions: { quality: 0 } }, 'expectation.imageOptions.quality'],
  [{ imageOptions: { quality: 101 } }, 'expectation.imageOptions.quality'],
  [{ imageOptions: { maxWidth: 0 } }, 'expectation.imageOptions.maxWidth'],
  [{ imageOptions: { maxHeight: 99999 } }, 'expectation.imageOptions.maxHeight'],
  [{ imageOptions: { format: 'gif' } }, 'expectation.imageOptions.format'],
  [{ diffOptions: { threshold: 1.5 } }, 'expectation.diffOptions.threshold'],
  [{ diffOptions: { threshold: -0.1 } }, 'expectation.diffOptions.threshold'],
  [{ diffOptions: { maxDiffLines: 0 } }, 'expectation.diffOptions.maxDiffLines'],
  [{ diffOptions: { context: 1e9 } }, 'expectation.diffOptions.context'],
  [{ diffOptions: { context: 5000 } }, 'expectation.diffOptions.context'],
  [{ diffOptions: { format: 'side-by-side' } }, 'expectation.diffOptions.format'],
  [{ diffOptions: { enable: true } }, 'expectation.diffOptions.enable'],
]

test('every validation error is INVALID_OPTION naming its field', () => {
  for (const [bad, field] of INVALID) {
    assert.throws(() => validateExpectation(bad), { code: 'INVALID_OPTION', field }, JSON.stringify(bad))
  }
  assert.throws(() => validateExpectation({ includeSnapshots: true }), (e) =>
    e.message.includes('includeSnapshots') && e.message.includes('includeSnapshot`'),
  )
  assert.throws(() => validateExpectation([true]), {
    code: 'INVALID_OPTION',
    field: 'expectation',
    message: 'invalid option `expectation`: must be a JSON object, got an array',
  })
  assert.throws(() => mergeExpectation('click', [{}, { diffOptions: { context: -1 } }]), {
    code: 'INVALID_OPTION',
    field: 'layers[1].diffOptions.context',
  })
})

const response = {
  result: 'ok',
  code: 'await page.click()',
  tabs: [{ index: 0, title: 'Shop', url: 'http://127.0.0.1/', current: true }],
  page: { url: 'http://127.0.0.1/', title: 'Shop' },
  snapshot: { aria: '- button "Go" [ref=e1]' },
  console: [{ level: 'info', text: 'hi' }],
  downloads: [{ name: 'a.pdf', path: '/tmp/a.pdf' }],
}

test('render: sections in a fixed order, each switchable', () => {
  const all = renderResponse(response, 'browser_click').text
  const order = [
    '### Result',
    '### Ran Playwright code',
    '### Open tabs',
    '### Page state',
    '### Page snapshot',
    '### Console messages',
    '### Downloads',
  ]
  const pos = order.map((h) => all.indexOf(h))
  assert.ok(pos.every((p, i) => p >= 0 && (i === 0 || pos[i - 1] < p)), all)
  const none = renderResponse(response, 'browser_click', {
    expectations: [
      { includeSnapshot: false, includeConsole: false, includeTabs: false, includeCode: false, includeDownloads: false },
    ],
  })
  assert.equal(none.text, '### Result\nok\n\n### Page state\n- Page URL: http://127.0.0.1/\n- Page Title: Shop')
  assert.equal(none.isError, false)
  assert.deepEqual(none.images, [])
})

test('render: console filter, selector scope, maxLength', () => {
  const msgs = [
    ...Array.from({ length: 5 }, (_, i) => ({ level: 'log', text: `tick ${i}` })),
    ...Array.from({ length: 3 }, () => ({ level: 'error', text: 'Failed to fetch /api/cart' })),
    { level: 'warning', text: 'Deprecated API' },
  ]
  const out = renderResponse({ console: msgs }, 'browser_click', {
    expectations: [{ consoleOptions: { levels: ['error'], patterns: ['FETCH'] } }],
  }).text
  assert.equal(
    out,
    '### Console messages\n- [error] Failed to fetch /api/cart (×3)\n- (6 filtered out by consoleOptions)',
  )
  const shop = fixture('aria/shop.yml')
  const scoped = renderResponse({ snapshot: { aria: shop } }, 'browser_snapshot', {
    expectations: [{ snapshotOptions: { selector: 'navigation' } }],
  }).text
  assert.ok(scoped.startsWith('### Page snapshot\n```yaml\n- navigation'), scoped)
  const none = renderResponse({ snapshot: { aria: shop } }, 'browser_snapshot', {
    expectations: [{ snapshotOptions: { selector: 'button "No such button"' } }],
  }).text
  assert.ok(!none.includes('```'), 'a selector that matches nothing is a notice, not the tree')
  const cut = renderResponse({ snapshot: { aria: shop } }, 'browser_snapshot', {
    expectations: [{ snapshotOptions: { maxLength: 200 } }],
  }).text
  assert.match(cut, /… \d+ more lines \([\d,]+ characters\) not shown/)
})

function page(n) {
  const aria = Array.from({ length: 30 }, (_, i) => `- listitem [ref=e${i}]: item ${i === 7 ? n : i}\n`).join('')
  return { snapshot: { aria } }
}

test('render with a detector: first, diff, unchanged; diffing off neither reads nor moves the chain', () => {
  const detector = new ResponseDiffDetector()
  const on = { expectations: [{ diffOptions: { enabled: true } }], detector, key: 'tab1' }
  const first = renderResponse(page(1), 'browser_click', on)
  assert.equal(first.snapshotDiff.mode, 'first')
  // (The chain keeps its snapshot and its ring of seen snapshots.)
  const kept = detector.size
  const peek = renderResponse(page(2), 'browser_click', { detector, key: 'tab1' })
  assert.equal(peek.snapshotDiff, undefined)
  assert.ok(peek.text.includes('item 2'))
  assert.equal(detector.size, kept)
  const next = renderResponse(page(2), 'browser_click', on)
  assert.equal(next.snapshotDiff.mode, 'diff')
  assert.ok(
    next.text.includes(
      '### Page snapshot (patch)\n```\n~ listitem [ref=e7]: item 2\n```',
    ),
    next.text,
  )
  // The patch rebuilds the new snapshot from the previous one.
  const patch = next.snapshotDiff.formattedDiff.split('\n').slice(1).join('\n')
  assert.equal(applySnapshotPatch(page(1).snapshot.aria, patch), page(2).snapshot.aria.trimEnd())
  assert.throws(() => applySnapshotPatch(page(1).snapshot.aria, '- [e99] row'), {
    code: 'PARSE_ERROR',
    message: /\[e99\] is not in the previous snapshot/,
  })
  // The same change as a line diff, when asked for.
  const lines = { ...on, expectations: [{ diffOptions: { enabled: true }, snapshotOptions: { diff: 'lines' } }] }
  const asLines = renderResponse(page(3), 'browser_click', lines)
  assert.ok(
    asLines.text.includes('### Page snapshot (diff since the previous snapshot)\n30 lines, 2 changed: +1 \u22121\n```diff\n'),
    asLines.text,
  )
  assert.equal(asLines.snapshotDiff.mode, 'diff')
  const again = renderResponse(page(3), 'browser_click', on)
  assert.ok(again.text.includes('### Page snapshot\nNo changes since the previous response (30 lines).'))
})

test('render options are checked', () => {
  const detector = new ResponseDiffDetector()
  assert.throws(() => renderResponse(page(1), 'click', { detector }), {
    code: 'INVALID_OPTION',
    field: 'renderOptions.key',
  })
  assert.throws(() => renderResponse(page(1), 'click', { expectation: [] }), {
    code: 'INVALID_OPTION',
    field: 'renderOptions.expectation',
  })
  assert.throws(() => renderResponse({ snapshot: { aria: 'x' }, bogus: 1 }, 'click'), {
    code: 'INVALID_OPTION',
    field: 'response.bogus',
  })
})

// A 4x2 red PNG.
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAAEElEQVR4nGP4z8AARwzIHABvqgf5gNwAKAAAAABJRU5ErkJggg=='

test('render: images are resized and re-encoded as asked', () => {
  const r = renderResponse({ images: [{ mimeType: 'image/png', data: PNG }] }, 'browser_take_screenshot', {
    expectations: [{ imageOptions: { format: 'jpeg', maxWidth: 2, quality: 50 } }],
  })
  assert.equal(r.images.length, 1)
  assert.equal(r.images[0].mimeType, 'image/jpeg')
  const jpeg = Buffer.from(r.images[0].data, 'base64')
  assert.deepEqual([...jpeg.subarray(0, 3)], [0xff, 0xd8, 0xff])
})
