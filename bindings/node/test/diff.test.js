// Response diff on the shared fixtures (tests/fixtures/diff), checked
// against the Rust golden files (core/tests/snapshots/diff_golden__*).
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const {
  ResponseDiffDetector,
  compareTexts,
  formatDiff,
  DEFAULT_MAX_STORED_BYTES,
  DEFAULT_MAX_INPUT_BYTES,
} = require('..')
const { fixture, coreSnap, asSnap } = require('./helpers')

const FORMATS = ['unified', 'split', 'minimal']

function run(name, options) {
  const before = fixture(`diff/${name}.before.yml`)
  const after = fixture(`diff/${name}.after.yml`)
  const d = new ResponseDiffDetector()
  const first = d.detect('tab', before, options)
  assert.equal(first.mode, 'first')
  assert.equal(first.formattedDiff, before)
  assert.equal(first.hasDifference, false)
  return { result: d.detect('tab', after, options), before, after }
}

for (const name of ['case01_one_line', 'case02_list_item_added', 'case03_modal_inserted', 'case07_error_banner']) {
  test(`${name}: every format matches the Rust golden`, () => {
    for (const format of FORMATS) {
      const { result } = run(name, { enabled: true, format })
      assert.equal(result.mode, 'diff', format)
      assert.equal(result.hasDifference, true)
      assert.equal(asSnap(result.formattedDiff), coreSnap(`diff_golden__${name}__${format}`), format)
    }
  })
}

test('case04: navigation to another page gives the full text with a note', () => {
  for (const format of FORMATS) {
    const { result, after } = run('case04_navigation', { enabled: true, format })
    assert.equal(result.mode, 'full')
    assert.ok(result.formattedDiff.endsWith(after))
    assert.equal(result.formattedDiff.split('\n')[0], coreSnap(`diff_golden__case04_navigation__${format}__first_line`))
  }
})

test('case05: an identical re-read is one line', () => {
  const { result } = run('case05_identical', { enabled: true })
  assert.equal(result.mode, 'unchanged')
  assert.equal(result.formattedDiff, 'No changes since the previous response (67 lines).')
  assert.equal(result.similarity, 1)
  assert.equal(result.changeRatio, 0)
})

test('case06: whitespace-only changes are unchanged unless ignoreWhitespace is off', () => {
  assert.equal(run('case06_whitespace_only', { enabled: true }).result.mode, 'unchanged')
  for (const format of FORMATS) {
    const { result } = run('case06_whitespace_only', { enabled: true, format, ignoreWhitespace: false })
    assert.equal(result.mode, 'diff')
    assert.equal(asSnap(result.formattedDiff), coreSnap(`diff_golden__case06_whitespace_only__${format}__ws_off`))
  }
})

test('metadata: counts, hashes, similarity', () => {
  const { result } = run('case01_one_line', {})
  const m = result.metadata
  assert.deepEqual([m.addedLines, m.removedLines, m.totalLines, m.contextLines], [1, 1, 67, 6])
  assert.match(m.currentHash, /^[0-9a-f]{16}$/)
  assert.match(m.previousHash, /^[0-9a-f]{16}$/)
  assert.equal(m.stored, true)
  assert.equal(m.exact, true)
  assert.equal(m.budgetExhausted, false)
  assert.ok(Math.abs(result.similarity - 66 / 67) < 1e-12)
  assert.ok(Math.abs(result.changeRatio - 1 / 67) < 1e-12)
})

test('keys are independent; store, previous, clear, clearAll, size, memoryUsage', () => {
  const d = new ResponseDiffDetector()
  assert.equal(d.size, 0)
  d.detect('a', 'x\n')
  assert.equal(d.detect('b', 'x\n').mode, 'first')
  assert.equal(d.previous('a'), 'x\n')
  assert.equal(d.previous('zzz'), null)
  assert.equal(d.size, 2)
  assert.equal(d.memoryUsage, 2 * (1 + 2 + 96))
  assert.equal(d.store('a', 'y\n'), true)
  assert.equal(d.previous('a'), 'y\n')
  assert.equal(d.clear('a'), true)
  assert.equal(d.clear('a'), false)
  assert.equal(d.detect('a', 'x\n').mode, 'first')
  d.clearAll()
  assert.equal(d.size, 0)
  assert.equal(d.memoryUsage, 0)
})

test('the default limits are exported', () => {
  assert.equal(DEFAULT_MAX_STORED_BYTES, 10 * 1024 * 1024)
  assert.equal(DEFAULT_MAX_INPUT_BYTES, 32 * 1024 * 1024)
})

test('the store cap: a text over it is not kept and the result says so', () => {
  const d = new ResponseDiffDetector({ maxStoredBytes: 200 })
  const r = d.detect('k', 'y'.repeat(500))
  assert.equal(r.metadata.stored, false)
  assert.ok(r.formattedDiff.startsWith('(Not kept for the next diff'))
  assert.equal(d.memoryUsage, 0)
  assert.equal(d.store('k', 'z'.repeat(500)), false)
})

test('maxDiffLines never picks the larger body: a longer diff is sent, its header says so', () => {
  const page = Array.from({ length: 100 }, (_, i) => `  - listitem "Item ${i}" [ref=e${i}]\n`).join('')
  const next = page.replace('Item 7"', 'X"').replace('Item 70"', 'Y"')
  const r = compareTexts(page, next, { maxDiffLines: 3 })
  assert.equal(r.mode, 'diff')
  assert.ok(r.formattedDiff.length < next.length)
  assert.match(r.formattedDiff.split('\n')[0], /^100 lines, 4 changed: .*\(18 diff lines, over maxDiffLines \(3\); smaller than the full text\)$/)
})

test('compareTexts: no previous text is mode first; the decision rule on its own', () => {
  assert.equal(compareTexts(null, 'a\n').mode, 'first')
  assert.equal(compareTexts(undefined, 'a\n').mode, 'first')
  // 1 of 2 lines changed: a diff would not be smaller.
  assert.equal(compareTexts('a\nb\n', 'a\nc\n').mode, 'full')
  const before = fixture('diff/case02_list_item_added.before.yml')
  const after = fixture('diff/case02_list_item_added.after.yml')
  const r = compareTexts(before, after, { format: 'minimal' })
  assert.equal(r.mode, 'diff')
  assert.equal(asSnap(r.formattedDiff), coreSnap('diff_golden__case02_list_item_added__minimal'))
})

test('formatDiff: the formatter alone, no header', () => {
  assert.equal(formatDiff('a\nb\nc\n', 'a\nB\nc\n', { context: 1 }), '@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n')
  assert.equal(formatDiff('a\nb\nc\n', 'a\nB\nc\n', { format: 'minimal' }), '- b\n+ B\n')
  assert.equal(
    formatDiff('a\nb\nc\n', 'a\nB\nc\n', { format: 'split', context: 1 }),
    '@@ -1,3 +1,3 @@\nbefore:\n  a\n  b\n  c\nafter:\n  a\n  B\n  c\n',
  )
  assert.equal(formatDiff('same\n', 'same\n'), '')
})

test('every hunk is shown (no first-hunk cut-off)', () => {
  const page = Array.from({ length: 200 }, (_, i) => `- listitem [ref=e${i}]: Item ${i}\n`).join('')
  const next = page.replace('Item 10\n', 'Item ten\n').replace('Item 150\n', 'Item 150!\n')
  const r = compareTexts(page, next)
  assert.equal(r.mode, 'diff')
  assert.equal(r.formattedDiff.match(/^@@ /gm).length, 2)
  assert.ok(r.formattedDiff.includes('+- listitem [ref=e150]: Item 150!'))
})

test('a unified diff is lossless: applying it to the old text gives the new one', () => {
  for (const name of ['case01_one_line', 'case02_list_item_added', 'case03_modal_inserted', 'case07_error_banner']) {
    const before = fixture(`diff/${name}.before.yml`)
    const after = fixture(`diff/${name}.after.yml`)
    const text = formatDiff(before, after, { ignoreWhitespace: false })
    assert.equal(apply(before, text), after, name)
  }
})

/** Applies a unified diff (our hunks) to `text`. */
function apply(text, diff) {
  const old = text.split('\n')
  const out = []
  let at = 0
  for (const hunk of diff.split(/^(?=@@ )/m)) {
    const [header, ...lines] = hunk.replace(/\n$/, '').split('\n')
    const start = Number(/^@@ -(\d+)/.exec(header)[1])
    const from = lines.some((l) => l[0] === ' ' || l[0] === '-') ? start - 1 : start
    while (at < from) out.push(old[at++])
    for (const l of lines) {
      if (l[0] === ' ') out.push(old[at++])
      else if (l[0] === '-') at++
      else if (l[0] === '+') out.push(l.slice(1))
    }
  }
  while (at < old.length) out.push(old[at++])
  return out.join('\n')
}

test('texts cross intact: accents, emoji, CJK; a lone surrogate becomes U+FFFD', () => {
  const d = new ResponseDiffDetector()
  const text = Array.from({ length: 30 }, (_, i) => `- listitem [ref=e${i}]: Caf\u00e9 \u{1F600} \u6f22\u5b57 ${i}\n`).join('')
  d.detect('k', text)
  assert.equal(d.previous('k'), text)
  const r = d.detect('k', text.replace('\u6f22\u5b57 7\n', '\u6f22\u5b57 seven\n'), { format: 'minimal' })
  assert.equal(r.mode, 'diff')
  assert.ok(r.formattedDiff.includes('+ - listitem [ref=e7]: Caf\u00e9 \u{1F600} \u6f22\u5b57 seven'))
  d.store('k', 'a\uD800b')
  assert.equal(d.previous('k'), 'a\uFFFDb')
})

test('estimateTokens: UTF-8 bytes / 4, rounded up, as the core counts', () => {
  const { estimateTokens } = require('..')
  assert.equal(estimateTokens(''), 0)
  assert.equal(estimateTokens('abcdefgh'), 2)
  assert.equal(estimateTokens('abcdefghi'), 3)
  // 'é' is 2 bytes and '😀' is 4 in UTF-8: 6 bytes, 2 tokens.
  assert.equal(estimateTokens('é😀'), 2)
  assert.throws(() => estimateTokens(42), /string/i)
})

test('first and full answers hand back the caller text exactly, after the note', () => {
  const d = new ResponseDiffDetector({ maxStoredBytes: 64 })
  const page = (n) => Array.from({ length: 20 }, (_, i) => `- item ${i} ${n} é😀\n`).join('')
  const a = page('a')
  const roomy = new ResponseDiffDetector()
  const first = roomy.detect('k', a)
  assert.equal(first.mode, 'first')
  assert.equal(first.formattedDiff, a)
  // Over the 64-byte cap: a note before the text, still the exact text after it.
  const over = d.detect('k2', a)
  assert.equal(over.mode, 'first')
  assert.ok(over.formattedDiff.startsWith('(Not kept'))
  assert.ok(over.formattedDiff.endsWith(a))
  const full = compareTexts(a, page('b'))
  assert.equal(full.mode, 'full')
  assert.match(full.formattedDiff, /^Full response \([^\n]*\):\n/)
  assert.equal(full.formattedDiff.slice(full.formattedDiff.indexOf('\n') + 1), page('b'))
})
