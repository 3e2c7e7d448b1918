// Every core error variant reaches JavaScript as an Error with a stable
// `code` and the variant's fields.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const rd = require('..')

const page = (n) => Array.from({ length: n }, (_, i) => `- listitem [ref=e${i}]: Item ${i}\n`).join('')

test('INVALID_OPTION carries the dotted field', () => {
  const d = new rd.ResponseDiffDetector()
  assert.throws(() => d.detect('k', 'x', { treshold: 0.2 }), (e) => {
    assert.ok(e instanceof Error)
    assert.equal(e.code, 'INVALID_OPTION')
    assert.equal(e.field, 'diffOptions.treshold')
    assert.match(e.message, /^invalid option `diffOptions.treshold`: unknown field `treshold`, expected one of/)
    return true
  })
  assert.throws(() => d.detect('k', 'x', 'unified'), { code: 'INVALID_OPTION', field: 'diffOptions' })
  assert.throws(() => new rd.ResponseDiffDetector({ deadlineMs: 0 }), {
    code: 'INVALID_OPTION',
    field: 'detectorConfig.deadlineMs',
  })
  assert.throws(() => rd.compareTexts('a', 'b', { context: 1001 }), { code: 'INVALID_OPTION', field: 'diffOptions.context' })
})

test('PARSE_ERROR carries what and the 1-based line', () => {
  assert.throws(() => rd.parseSnapshot('- main:\n  - button "Go'), {
    code: 'PARSE_ERROR',
    what: 'aria snapshot',
    line: 2,
    message: 'cannot parse aria snapshot at line 2: unterminated quoted name',
  })
  assert.throws(() => rd.parseFingerprint('{\n\n  "url": }'), { code: 'PARSE_ERROR', what: 'fingerprint', line: 3 })
})

test('INPUT_TOO_LARGE carries what, size and limit', () => {
  const d = new rd.ResponseDiffDetector({ maxInputBytes: 1000 })
  assert.throws(() => d.detect('k', 'x'.repeat(1001)), {
    code: 'INPUT_TOO_LARGE',
    what: 'response text',
    size: 1001,
    limit: 1000,
  })
  assert.throws(() => d.store('k', 'x'.repeat(1001)), { code: 'INPUT_TOO_LARGE' })
  assert.equal(d.detect('k', page(3)).mode, 'first')
})

test('BASELINE_NOT_FOUND carries the name and the known names', () => {
  const s = new rd.BaselineStore()
  s.save('home', rd.parseFingerprint({ url: '/', structure: {} }))
  assert.throws(() => s.get('checkout'), {
    code: 'BASELINE_NOT_FOUND',
    name: 'checkout',
    known: ['home'],
    message: 'no baseline named `checkout` (known: home); capture one first with --save / save()',
  })
})

test('INVALID_NAME carries the name and the reason', () => {
  const s = new rd.BaselineStore()
  assert.throws(() => s.get('a/b'), (e) => e.code === 'INVALID_NAME' && e.name === 'a/b' && /never a path/.test(e.reason))
  assert.throws(() => s.remove('CON'), { code: 'INVALID_NAME', name: 'CON' })
})

test('IMAGE_ERROR for an image that cannot be decoded', () => {
  const response = { images: [{ mimeType: 'image/png', data: 'AAAA' }] }
  assert.throws(() => rd.renderResponse(response, 'browser_take_screenshot', {
    expectations: [{ imageOptions: { format: 'jpeg' } }],
  }), { code: 'IMAGE_ERROR' })
})

test('IO_ERROR carries the path', () => {
  assert.throws(() => new rd.BaselineStore({ directory: '/proc/version/baselines' }), (e) =>
    e.code === 'IO_ERROR' && e.path.startsWith('/proc/version'),
  )
})

test('a wrong argument type is napi-rs\'s own error (not a core code)', () => {
  const d = new rd.ResponseDiffDetector()
  assert.throws(() => d.detect(1, 'x'), { code: 'StringExpected' })
  assert.throws(() => d.detect('k', 1), { code: 'StringExpected' })
  assert.throws(() => rd.compareFingerprints({}, {}), { code: 'InvalidArg' })
})

test('ErrorCode lists every code', () => {
  // string_enum values are also exported at run time.
  assert.deepEqual(Object.values(rd.ErrorCode).sort(), [
    'BASELINE_NOT_FOUND',
    'IMAGE_ERROR',
    'INPUT_TOO_LARGE',
    'INTERNAL',
    'INVALID_NAME',
    'INVALID_OPTION',
    'IO_ERROR',
    'PARSE_ERROR',
  ])
})
