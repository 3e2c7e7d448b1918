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
const { applyDiff, minimalLines } = require('./compat-patch')

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

test('a diff over maxDiffLines becomes the full response after a one-line reason: no change is lost', () => {
  const d = new ResponseDiffDetector()
  const before = page(30).trimEnd()
  const after = page(30, (s) => s.replace(/Item/g, 'Thing')).trimEnd()
  d.detectDiff(before, 't', OPTIONS)
  const r = d.detectDiff(after, 't', OPTIONS)
  assert.equal(r.hasDifference, true)
  assert.equal(r.similarity, 0)
  // Even the smallest diff has 60 changed lines: the search is skipped.
  assert.equal(r.formattedDiff, `Full response (at least 60 lines changed (+30 \u221230), over maxDiffLines (50)):\n${after}`)
  d.storeResponse(before, 't')
  const one = d.detectDiff(page(30, (s) => s.replace('Item 7\n', 'Item seven\n')).trimEnd(), 't', {
    ...OPTIONS,
    threshold: 0,
    maxDiffLines: 5,
  })
  assert.match(one.formattedDiff, /^Full response \(the diff has 9 lines, over maxDiffLines \(5\)\):\n- listitem \[ref=e0\]/)
})

test('a skipped search never hides a change over the threshold: a reversed list is a difference', () => {
  // 10 new lines are more than maxDiffLines, so the search is skipped; the
  // lines it can prove changed (10 of 110) are under the threshold, but
  // reversing the other 100 changes nearly every line.
  const d = new ResponseDiffDetector()
  const before = page(100).trimEnd()
  const after = [...page(100).trimEnd().split('\n').reverse(), ...page(10, (s) => s.replace(/Item/g, 'New')).trimEnd().split('\n')].join('\n')
  d.detectDiff(before, 't', OPTIONS)
  const r = d.detectDiff(after, 't', { ...OPTIONS, threshold: 0.2, maxDiffLines: 5 })
  assert.equal(r.hasDifference, true)
  assert.ok(r.similarity < 0.05, `similarity ${r.similarity}`)
  assert.match(r.formattedDiff, /^Full response \(the diff has \d+ lines, over maxDiffLines \(5\)\):\n/)
})

// Their option schema (zod, lib/schemas/expectation.js in the npm package):
// threshold 0..1, maxDiffLines any positive number, context any number >= 0.
test('every value their schema accepts keeps the diff (no range error, no wrap to 0)', () => {
  const before = page(40).trimEnd()
  const after = page(40, (s) => s.replace('Item 20\n', 'Item twenty\n')).trimEnd()
  for (const maxDiffLines of [0.5, 1, 7, 50, 1_000_001, 2_000_000, 2 ** 32, 2 ** 53, 1e308]) {
    for (const context of [0, 0.5, 3, 1000, 1001, 2 ** 32, 1e308]) {
      for (const format of ['unified', 'split', 'minimal']) {
        const d = new ResponseDiffDetector()
        const options = { ...OPTIONS, threshold: 0, maxDiffLines, context, format }
        d.detectDiff(before, 't', options)
        const r = d.detectDiff(after, 't', options)
        const label = JSON.stringify({ maxDiffLines, context, format })
        assert.equal(r.hasDifference, true, label)
        if (r.formattedDiff.startsWith('Full response (')) {
          // Only when the diff does not fit, and then the whole new text.
          const lines = format === 'minimal' ? 2 : format === 'unified' ? 2 + 2 * Math.min(Math.floor(context), 40) : 0
          assert.ok(format === 'split' || lines > maxDiffLines, label)
          assert.ok(r.formattedDiff.endsWith(`):\n${after}`), label)
        } else if (format === 'minimal') {
          assert.deepEqual(minimalLines(r.formattedDiff), { removed: ['- listitem [ref=e20]: Item 20'], added: ['- listitem [ref=e20]: Item twenty'] }, label)
        } else {
          assert.equal(applyDiff(before, r.formattedDiff, format), after, label)
        }
      }
    }
  }
  // The reason line writes the number as JavaScript does.
  {
    const d = new ResponseDiffDetector()
    d.detectDiff(before, 't', OPTIONS)
    assert.match(d.detectDiff(after, 't', { ...OPTIONS, threshold: 0, maxDiffLines: 0.5 }).formattedDiff, /over maxDiffLines \(0\.5\)\):\n/)
  }
  // Huge context shows every line, as their formatter does.
  const d = new ResponseDiffDetector()
  d.detectDiff(before, 't', OPTIONS)
  const all = d.detectDiff(after, 't', { ...OPTIONS, threshold: 0, maxDiffLines: 1e308, context: 1e308 })
  assert.equal(all.formattedDiff.split('\n').length, 42)
  assert.equal(all.metadata.contextLines, 39)
  // A value their schema refuses is still refused, naming the field.
  for (const [field, value] of [['maxDiffLines', NaN], ['context', -1], ['context', NaN], ['threshold', NaN]]) {
    assert.throws(() => d.detectDiff(after, 't', { ...OPTIONS, [field]: value }), {
      code: 'INVALID_OPTION',
      field: `diffOptions.${field}`,
    })
  }
})

test('no "\\ No newline at end of file" when neither text ends with a newline (theirs never do)', () => {
  const before = 'a\nb\nc'
  for (const format of ['unified', 'split', 'minimal']) {
    const d = new ResponseDiffDetector()
    const options = { ...OPTIONS, threshold: 0, format }
    d.detectDiff(before, 't', options)
    const r = d.detectDiff('a\nb\nC', 't', options)
    assert.ok(!r.formattedDiff.includes('No newline'), `${format}: ${r.formattedDiff}`)
    if (format !== 'minimal') assert.equal(applyDiff(before, r.formattedDiff, format), 'a\nb\nC')
  }
  assert.equal(
    (() => {
      const d = new ResponseDiffDetector()
      d.detectDiff(before, 't', { ...OPTIONS, threshold: 0 })
      return d.detectDiff('a\nb\nC', 't', { ...OPTIONS, threshold: 0 }).formattedDiff
    })(),
    '@@ -1,3 +1,3 @@\n a\n b\n-c\n+C',
  )
  // Minimal shows changed lines only, and never the marker, even when one
  // text ends with a newline and the other does not.
  const d = new ResponseDiffDetector()
  const options = { ...OPTIONS, threshold: 0, format: 'minimal' }
  d.detectDiff('a\nb\nc\n', 't', options)
  assert.equal(d.detectDiff('a\nb\nC', 't', options).formattedDiff, '- c\n+ C')
  // Unified keeps it where it means something: one text ends with a newline.
  d.detectDiff('a\nb\nc\n', 'u', { ...OPTIONS, threshold: 0 })
  assert.ok(d.detectDiff('a\nb\nC', 'u', { ...OPTIONS, threshold: 0 }).formattedDiff.endsWith('\\ No newline at end of file'))
})

// Issue 16: near the store cap the core's rendered text starts with a
// "not kept" note and then its summary line; the drop-in used to drop only
// the first line, so the summary led the hunks and, in full mode, the note
// replaced the reason.
test('a response too large to keep: the diff is still just the hunks, and full mode gives the reason', () => {
  const line = (i) => `- listitem [ref=e${i}]: ${'x'.repeat(40)} ${i}`
  const base = Array.from({ length: 144_000 }, (_, i) => line(i)) // 10.4 MB, under the 10 MiB cap
  const before = base.join('\n')
  const after = [...base.slice(0, 100), 'y'.repeat(400_000), ...base.slice(100)].join('\n') // over it
  assert.ok(before.length < 10 * 1024 * 1024 - 4096 && after.length > 10 * 1024 * 1024)
  const d = new ResponseDiffDetector()
  d.detectDiff(before, 't', OPTIONS)
  const r = d.detectDiff(after, 't', { ...OPTIONS, threshold: 0 })
  assert.equal(r.hasDifference, true)
  assert.equal(r.formattedDiff.split('\n')[0], '@@ -98,6 +98,7 @@')
  assert.equal(applyDiff(before, r.formattedDiff), after)
  assert.deepEqual(r.metadata, { addedLines: 1, removedLines: 0, contextLines: 6, totalLines: 144_001 })

  d.storeResponse(before, 't')
  const full = d.detectDiff(after, 't', { ...OPTIONS, threshold: 0, maxDiffLines: 2 })
  assert.equal(full.formattedDiff.split('\n')[0], 'Full response (the diff has 8 lines, over maxDiffLines (2)):')
  assert.ok(full.formattedDiff.endsWith(`):\n${after}`))
  // Not kept: the next call has nothing to compare with.
  assert.equal(d.detectDiff(after, 't', OPTIONS).similarity, 1)
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

// compat-types/ also holds mcp.ts: @x/response-diff/mcp's types as an embedder uses them.
test('the drop-in type-checks the way fast-playwright-mcp uses it (tsc --noEmit)', () => {
  const tsc = require.resolve('typescript/bin/tsc')
  execFileSync(process.execPath, [tsc, '-p', join(__dirname, 'compat-types', 'tsconfig.json')], {
    stdio: 'pipe',
  })
})
