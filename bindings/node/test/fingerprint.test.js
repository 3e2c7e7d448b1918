// DOM fingerprints on the shared Chromium-captured pairs
// (tests/fixtures/fingerprint), checked against the Rust goldens there.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const { mkdtempSync, rmSync, readdirSync, statSync, writeFileSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')
const {
  EXTRACTOR_JS,
  FINGERPRINT_SCRIPT,
  fingerprintExpression,
  parseFingerprint,
  compareFingerprints,
  BaselineStore,
  Fingerprint,
} = require('..')
const { fixture, fixtures, snap, asSnap } = require('./helpers')

const fp = (name) => parseFingerprint(fixture(`fingerprint/${name}`))
const cases = Array.from({ length: 10 }, (_, i) => `case${String(i + 1).padStart(2, '0')}`)
const camel = (k) => k.replace(/_([a-z])/g, (_, c) => c.toUpperCase())

test('every fixture pair compares exactly as the Rust golden (text and JSON)', () => {
  for (const c of cases) {
    const cmp = compareFingerprints(fp(`${c}.before.json`), fp(`${c}.after.json`), 'warning')
    const gold = join(fixtures, 'fingerprint', 'snapshots')
    assert.equal(asSnap(cmp.text), snap(join(gold, `${c}.text.snap`)), c)
    // The golden JSON is the core's (snake_case); ours has camelCase keys.
    const core = JSON.parse(snap(join(gold, `${c}.json.snap`)))
    const expected = Object.fromEntries(Object.entries(core).map(([k, v]) => [camel(k), v]))
    const { text, ...ours } = cmp
    assert.deepEqual(JSON.parse(JSON.stringify(ours)), expected, c)
  }
})

test('a reload with new dates and ids compares unchanged (case09)', () => {
  const cmp = compareFingerprints(fp('case09.before.json'), fp('case09.after.json'))
  assert.equal(cmp.status, 'unchanged')
  assert.equal(cmp.severity, 'clean')
  assert.deepEqual(cmp.changes, [])
})

test('a CSS-only regression is element_hidden, an error (case07)', () => {
  const cmp = compareFingerprints(fp('case07.before.json'), fp('case07.after.json'))
  assert.equal(cmp.changes[0].type, 'element_hidden')
  assert.equal(cmp.changes[0].severity, 'error')
})

test('the threshold hides lower severities; info shows them (case10)', () => {
  const a = fp('case10.before.json')
  const b = fp('case10.after.json')
  const warning = compareFingerprints(a, b)
  const info = compareFingerprints(a, b, 'info')
  assert.ok(info.changes.length > warning.changes.length)
  assert.equal(warning.suppressed, info.changes.length - warning.changes.length)
  assert.throws(() => compareFingerprints(a, b, 'fatal'), { code: 'INVALID_OPTION', field: 'severityThreshold' })
})

test('a fingerprint: normalized, hashed, counted; toJSON round-trips', () => {
  const f = parseFingerprint({
    url: 'http://127.0.0.1:8000/orders/12345',
    captured_at: '2026-01-23T10:30:45Z',
    structure: { interactive: [{ type: 'button', text: 'Pay order 98231', visible: true, enabled: true }] },
  })
  assert.ok(f instanceof Fingerprint)
  assert.equal(f.url, 'http://127.0.0.1:8000/orders/[id]')
  assert.match(f.hash, /^[0-9a-f]{16}$/)
  assert.ok(f.tokenCount > 0)
  assert.equal(f.scope, 'full')
  assert.equal(f.depth, 'standard')
  assert.equal(f.isLoading, false)
  const json = JSON.parse(JSON.stringify(f))
  assert.equal(json.structure.interactive[0].text, 'Pay order [number]')
  assert.equal(parseFingerprint(json).hash, f.hash)
  assert.equal(parseFingerprint(JSON.stringify(json)).hash, f.hash)
})

test('bad fingerprints: PARSE_ERROR with the line, INVALID_OPTION from the extractor, INPUT_TOO_LARGE', () => {
  assert.throws(() => parseFingerprint('{\n  "structure": {"headings": []}\n}'), {
    code: 'PARSE_ERROR',
    what: 'fingerprint',
    line: 2,
  })
  assert.throws(() => parseFingerprint({ error: { field: 'scope', message: 'no element matches #nope' } }), {
    code: 'INVALID_OPTION',
    field: 'scope',
  })
  assert.throws(() => parseFingerprint('x'.repeat(3 * 1024 * 1024)), {
    code: 'INPUT_TOO_LARGE',
    what: 'fingerprint',
    limit: 2 * 1024 * 1024,
  })
})

test('the extractor script and a ready expression', () => {
  assert.match(FINGERPRINT_SCRIPT, /function responseDiffFingerprint\(options\)/)
  // The deprecated name stays the same string (docs/NAMES.md).
  assert.equal(EXTRACTOR_JS, FINGERPRINT_SCRIPT)
  const expr = fingerprintExpression({ scope: 'main', depth: 'detailed' })
  assert.ok(expr.startsWith('JSON.stringify(('))
  assert.ok(expr.endsWith('({"scope":"main","depth":"detailed"}))'))
  assert.ok(fingerprintExpression().includes('"scope":"full"'))
  assert.throws(() => fingerprintExpression({ depth: 'deep' }), { code: 'INVALID_OPTION', field: 'depth' })
  assert.throws(() => fingerprintExpression({ scop: 'x' }), { code: 'INVALID_OPTION' })
})

test('BaselineStore in memory: save, get by name or hash prefix, compare, remove', () => {
  const store = new BaselineStore()
  const a = fp('case01.before.json')
  const b = fp('case01.after.json')
  store.save('dashboard', a)
  store.record(b)
  assert.deepEqual(store.names(), ['dashboard'])
  assert.equal(store.size, 1)
  assert.ok(store.memoryUsage > 0)
  assert.equal(store.directory, null)
  assert.equal(store.get('dashboard').hash, a.hash)
  assert.equal(store.get(b.hash.slice(0, 6)).hash, b.hash)
  const cmp = store.compare('dashboard', b)
  assert.equal(cmp.summary, '1 error')
  assert.equal(store.remove('dashboard'), true)
  assert.equal(store.remove('dashboard'), false)
  assert.throws(() => store.get('dashboard'), { code: 'BASELINE_NOT_FOUND', name: 'dashboard', known: [] })
  assert.throws(() => store.save('../etc/passwd', a), { code: 'INVALID_NAME', name: '../etc/passwd' })
  assert.throws(() => new BaselineStore({ dir: '/tmp' }), { code: 'INVALID_OPTION', field: 'baselineStore.dir' })
})

test('BaselineStore on disk: private directory, survives a new store, lists known names', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rd-node-'))
  try {
    const where = join(dir, 'baselines')
    const s1 = new BaselineStore({ directory: where })
    s1.save('home', fp('case02.before.json'))
    assert.equal(statSync(where).mode & 0o777, 0o700)
    assert.equal(statSync(join(where, 'home.json')).mode & 0o777, 0o600)
    const s2 = new BaselineStore({ directory: where, memoryLimit: 1 << 20 })
    assert.deepEqual(s2.names(), ['home'])
    assert.equal(s2.compare('home', fp('case02.after.json')).changes[0].type, 'form_field_missing')
    assert.throws(() => s2.get('checkout'), (e) => e.code === 'BASELINE_NOT_FOUND' && e.known.includes('home'))
    // A directory that is a file cannot be used.
    writeFileSync(join(dir, 'file'), 'x')
    assert.throws(() => new BaselineStore({ directory: join(dir, 'file') }), { code: 'IO_ERROR' })
    assert.deepEqual(readdirSync(where), ['home.json'])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
