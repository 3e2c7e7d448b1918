// The fast-playwright-mcp drop-in: their semantics where callers depend on
// them, our line diff underneath, and their exact TypeScript surface.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const { execFileSync } = require('node:child_process')
const { join } = require('node:path')
const fastDiff = require('fast-diff')
const { ResponseDiffDetector, DiffFormatter } = require('@x/response-diff/compat')
const { fixture } = require('./helpers')

const OPTIONS = { enabled: true, threshold: 0.1, format: 'unified', maxDiffLines: 50, ignoreWhitespace: true, context: 3 }
const page = (n, edit = (s) => s) =>
  edit(Array.from({ length: n }, (_, i) => `- listitem [ref=e${i}]: Item ${i}\n`).join(''))
const segments = (a, b) =>
  fastDiff(a, b).map(([t, value]) => ({ type: t === -1 ? 'remove' : t === 1 ? 'add' : 'equal', value }))

test('the first call for a tool has no difference, similarity 1, and stores the response', () => {
  const d = new ResponseDiffDetector()
  const r = d.detectDiff(page(30), 'browser_click', OPTIONS)
  assert.deepEqual(r, {
    hasDifference: false,
    similarity: 1,
    formattedDiff: '',
    metadata: { addedLines: 0, removedLines: 0, contextLines: 0, totalLines: 30 },
  })
  // It was stored: the same text again is no difference either.
  assert.equal(d.detectDiff(page(30), 'browser_click', OPTIONS).hasDifference, false)
  // Tools are keyed separately.
  assert.equal(d.detectDiff(page(5), 'browser_type', OPTIONS).similarity, 1)
})

test('hasDifference honours the threshold (similarity < 1 - threshold)', () => {
  const d = new ResponseDiffDetector()
  d.detectDiff(page(30), 't', OPTIONS)
  // 1 of 30 lines changed: under the 10 % threshold, no difference and no diff.
  const small = d.detectDiff(page(30, (s) => s.replace('Item 7\n', 'Item seven\n')), 't', OPTIONS)
  assert.equal(small.hasDifference, false)
  assert.equal(small.formattedDiff, '')
  assert.ok(Math.abs(small.similarity - 29 / 30) < 1e-12)
  // The same change with threshold 0: a difference, with the diff.
  d.storeResponse(page(30), 't')
  const shown = d.detectDiff(page(30, (s) => s.replace('Item 7\n', 'Item seven\n')), 't', { ...OPTIONS, threshold: 0 })
  assert.equal(shown.hasDifference, true)
  assert.equal(
    shown.formattedDiff,
    [
      '@@ -5,7 +5,7 @@',
      ' - listitem [ref=e4]: Item 4',
      ' - listitem [ref=e5]: Item 5',
      ' - listitem [ref=e6]: Item 6',
      '-- listitem [ref=e7]: Item 7',
      '+- listitem [ref=e7]: Item seven',
      ' - listitem [ref=e8]: Item 8',
      ' - listitem [ref=e9]: Item 9',
      ' - listitem [ref=e10]: Item 10',
    ].join('\n'),
  )
  assert.deepEqual(shown.metadata, { addedLines: 1, removedLines: 1, contextLines: 6, totalLines: 30 })
})

test('every hunk is in formattedDiff (theirs stops after the first)', () => {
  const d = new ResponseDiffDetector()
  d.detectDiff(page(200), 't', OPTIONS)
  const next = page(200, (s) =>
    s.replace(/Item (1[0-4])\n/g, 'Item $1 (sold out)\n').replace(/Item (17[0-4])\n/g, 'Item $1 (new)\n'),
  )
  const r = d.detectDiff(next, 't', { ...OPTIONS, threshold: 0.02 })
  assert.equal(r.hasDifference, true)
  assert.equal(r.formattedDiff.match(/^@@ /gm).length, 2)
  assert.ok(r.formattedDiff.includes('+- listitem [ref=e174]: Item 174 (new)'))
  assert.ok(!r.formattedDiff.endsWith('\n'))
})

test('when a diff would not help, formattedDiff is the one-line reason (their Response shows the full text anyway)', () => {
  const d = new ResponseDiffDetector()
  d.detectDiff(page(30), 't', OPTIONS)
  const r = d.detectDiff(page(30, (s) => s.replace(/Item/g, 'Thing')), 't', OPTIONS)
  assert.equal(r.hasDifference, true)
  assert.equal(r.similarity, 0)
  // The core's one-line reason, without the full text it introduced.
  assert.match(r.formattedDiff, /^Full response \([^\n]*\)$/)
  d.storeResponse(page(30), 't')
  const long = d.detectDiff(page(30, (s) => s.replace(/Item/g, 'Thing')), 't', { ...OPTIONS, maxDiffLines: 5 })
  assert.match(long.formattedDiff, /^Full response \(.*maxDiffLines \(5\)\)$/)
})

test('formats: split and minimal', () => {
  const d = new ResponseDiffDetector()
  const before = fixture('diff/case07_error_banner.before.yml')
  const after = fixture('diff/case07_error_banner.after.yml')
  for (const format of ['split', 'minimal']) {
    d.storeResponse(before, 'snap')
    const r = d.detectDiff(after, 'snap', { ...OPTIONS, format, threshold: 0 })
    assert.equal(r.hasDifference, true)
    assert.ok(format === 'split' ? r.formattedDiff.includes('\nbefore:\n') : /^[+-] /.test(r.formattedDiff), format)
  }
})

test('bad options are INVALID_OPTION naming the field', () => {
  const d = new ResponseDiffDetector()
  assert.throws(() => d.detectDiff('x', 't', { ...OPTIONS, threshold: 2 }), {
    code: 'INVALID_OPTION',
    field: 'diffOptions.threshold',
  })
  assert.throws(() => d.detectDiff('x', 't', { ...OPTIONS, format: 'side-by-side' }), {
    code: 'INVALID_OPTION',
    field: 'diffOptions.format',
  })
})

test('DiffFormatter formats fast-diff segments as a line diff, every hunk', () => {
  const f = new DiffFormatter()
  const segs = segments('a\nb\nc\n', 'a\nB\nc\n')
  assert.equal(f.formatUnified(segs), '@@ -1,3 +1,3 @@\n a\n-b\n+B\n c')
  assert.equal(f.formatUnified(segs, 0), '@@ -2 +2 @@\n-b\n+B')
  assert.equal(f.formatSplit(segs), '@@ -1,3 +1,3 @@\nbefore:\n  a\n  b\n  c\nafter:\n  a\n  B\n  c')
  assert.equal(f.formatMinimal(segs), '- b\n+ B')
  assert.equal(f.formatUnified([]), '')
  assert.equal(f.formatMinimal([{ type: 'equal', value: 'same\n' }]), '')
  const before = page(200)
  const after = page(200, (s) => s.replace('Item 10\n', 'Item ten\n').replace('Item 150\n', 'Item 150!\n'))
  assert.equal(f.formatUnified(segments(before, after)).match(/^@@ /gm).length, 2)
  assert.throws(() => f.formatMinimal([{ type: 'insert', value: 'x' }]), {
    code: 'INVALID_OPTION',
    field: 'segments[0].type',
  })
})

test('the drop-in type-checks the way fast-playwright-mcp uses it (tsc --noEmit)', () => {
  const tsc = require.resolve('typescript/bin/tsc')
  execFileSync(process.execPath, [tsc, '-p', join(__dirname, 'compat-types', 'tsconfig.json')], {
    stdio: 'pipe',
  })
})
