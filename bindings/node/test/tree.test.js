// Accessibility trees on the shared captured fixtures (tests/fixtures/aria):
// parse/print round trips, the tree diff with the expected counts of the
// fixture README, the Rust goldens, `since` reads.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const { parseSnapshot, printSnapshot, treeDiff, SinceStore } = require('..')
const { fixture, coreSnap, asSnap } = require('./helpers')

const PAGES = ['shop', 'shop.boxes', 'form', 'table', 'nav', 'dialog', 'lists', 'lists.default', 'shadow', 'misc', 'misc.default']
const pair = (n) => {
  const c = `case${String(n).padStart(2, '0')}`
  return [fixture(`aria/${c}.before.yml`), fixture(`aria/${c}.after.yml`)]
}
const MODES = ['refs', 'content']

test('parse then print gives the captured text back, for every page', () => {
  for (const p of PAGES) {
    const text = fixture(`aria/${p}.yml`)
    const elements = parseSnapshot(text)
    assert.ok(Array.isArray(elements) && elements.length > 0, p)
    assert.equal(printSnapshot(elements), text, p)
    // and through JSON text, as a host would store it
    assert.equal(printSnapshot(JSON.parse(JSON.stringify(elements))), text, p)
  }
})

test('parsed elements are plain data', () => {
  const [el] = parseSnapshot('- heading "Hi" [level=1] [ref=e1]')
  assert.deepEqual(el, { role: 'heading', name: 'Hi', ref: 'e1', states: { level: '1' } })
  const [link] = parseSnapshot('- link "Home" [ref=e3] [cursor=pointer]:\n  - /url: /')
  assert.deepEqual(link.props, { url: '/' })
  assert.equal(printSnapshot({ role: 'button', name: 'Go', states: { disabled: true } }), '- button "Go" [disabled]')
})

test('a malformed line is PARSE_ERROR with its line; lenient keeps it as text', () => {
  assert.throws(() => parseSnapshot('- list:\n  - button "x'), { code: 'PARSE_ERROR', what: 'aria snapshot', line: 2 })
  const els = parseSnapshot('- list:\n  - button "x', { lenient: true })
  assert.equal(els[0].children[0].role, 'text')
  assert.throws(() => printSnapshot([{ role: 'link', nmae: 'x' }]), { code: 'PARSE_ERROR' })
})

test('case01: three identical rows becoming two is one removal', () => {
  const [a, b] = pair(1)
  for (const identity of MODES) {
    const d = treeDiff(a, b, { identity })
    assert.deepEqual([d.added.length, d.changed.length], [0, 0], identity)
    assert.equal(d.text.split('\n').filter((l) => l.startsWith('- ')).length, 1, d.text)
  }
})

test('case02: a renamed button is one change, not remove + add', () => {
  const [a, b] = pair(2)
  const content = treeDiff(a, b, { identity: 'content' })
  assert.deepEqual([content.added.length, content.removed.length, content.changed.length], [0, 0, 1])
  assert.deepEqual(content.changed[0], {
    ref: 'e56',
    role: 'button',
    name: 'Added to cart',
    field: 'name',
    from: 'Add to cart',
    to: 'Added to cart',
  })
  const refs = treeDiff(a, b)
  assert.deepEqual(refs.changed.map((c) => c.field), ['name', 'ref'])
  assert.deepEqual([refs.added.length, refs.removed.length], [0, 0])
  assert.equal(refs.text.split('\n')[0], '~ [e56] button "Added to cart" (was "Add to cart") (ref was e25)')
})

test('case03: a value change is a changed value', () => {
  const [a, b] = pair(3)
  for (const identity of MODES) {
    const d = treeDiff(a, b, { identity })
    assert.deepEqual([d.added.length, d.removed.length, d.changed.length], [0, 0, 1])
    assert.equal(d.changed[0].field, 'value')
    assert.equal(d.text.split('\n')[0], '~ [e14] searchbox "Search products" value="trail shoes" (was "running shoes")')
  }
})

test('case04: an item inserted among duplicates is one addition', () => {
  const [a, b] = pair(4)
  for (const identity of MODES) {
    const d = treeDiff(a, b, { identity })
    assert.deepEqual([d.added.length, d.removed.length, d.changed.length], [1, 0, 0], identity)
    assert.equal(d.added[0].role, 'listitem')
    assert.equal(d.added[0].value, 'Honeycrisp')
  }
})

test('case05: renumbered refs are no change in content mode, 54 ref changes when trusting refs', () => {
  const [a, b] = pair(5)
  const content = treeDiff(a, b, { identity: 'content' })
  assert.deepEqual(
    [content.added.length, content.removed.length, content.changed.length, content.refsRenumbered],
    [0, 0, 0, 54],
  )
  const refs = treeDiff(a, b)
  assert.deepEqual([refs.added.length, refs.removed.length, refs.changed.length], [0, 0, 54])
  assert.ok(refs.changed.every((c) => c.field === 'ref'))
})

test('case06: a closed dialog is one removed subtree', () => {
  const [a, b] = pair(6)
  const d = treeDiff(a, b)
  assert.equal(d.removed.length, 7)
  assert.equal(d.removed[0].role, 'dialog')
  assert.equal(d.removed[0].children, undefined, 'each element without its children')
  assert.equal(d.text, '- [e6] dialog "Delete account?"\n# 8 elements unchanged')
})

test('case07/08: agent, YAML and JSON match the Rust goldens', () => {
  const [a, b] = pair(7)
  const ts = 1_700_000_000_456
  const since = 1_700_000_000_123
  assert.equal(asSnap(treeDiff(a, b).text), coreSnap('tree_diff__case07_agent'))
  assert.equal(asSnap(treeDiff(a, b, { format: 'yaml', ts, since }).text), coreSnap('tree_diff__case07_yaml'))
  const json = treeDiff(a, b, { format: 'json', ts, since })
  assert.equal(asSnap(json.text), coreSnap('tree_diff__case07_json'))
  const parsed = JSON.parse(json.text)
  assert.equal(parsed.diff.added.length, json.added.length)
  assert.equal(parsed.diff.unchanged_count, json.unchangedCount)
  const [c, d] = pair(8)
  assert.equal(asSnap(treeDiff(c, d).text), coreSnap('tree_diff__case08_agent'))
})

test('trees can be given as elements as well as text', () => {
  const [a, b] = pair(7)
  assert.equal(treeDiff(parseSnapshot(a), parseSnapshot(b)).text, treeDiff(a, b).text)
})

test('filters: scope, roles, prune', () => {
  const page = '- generic [ref=e1]:\n  - list "Cart" [ref=e2]:\n    - listitem [ref=e3]:\n      - button "Remove" [ref=e4]\n  - button "Pay" [ref=e5]'
  const next = page.replace('"Pay"', '"Pay now"').replace('"Remove"', '"Delete"')
  assert.equal(treeDiff(page, next, { scope: 'list "Cart"' }).changed.length, 1)
  assert.equal(treeDiff(page, next, { roles: ['button'] }).changed.length, 2)
  assert.equal(treeDiff(page, next, { prune: true }).unchangedCount, 2)
  assert.equal(treeDiff(page, next, { scope: 'e99' }).text, '# 0 elements unchanged')
})

test('tree diff options are checked', () => {
  const t = '- button "Go"'
  assert.throws(() => treeDiff(t, t, { format: 'xml' }), { code: 'INVALID_OPTION', field: 'treeDiffOptions.format' })
  assert.throws(() => treeDiff(t, t, { identity: 'both' }), {
    code: 'INVALID_OPTION',
    field: 'treeDiffOptions.identity',
  })
  assert.throws(() => treeDiff(t, t, { scopes: 'x' }), { code: 'INVALID_OPTION', field: 'treeDiffOptions.scopes' })
  assert.throws(() => treeDiff(t, t, { prune: 'yes' }), { code: 'INVALID_OPTION', field: 'treeDiffOptions.prune' })
  // CSS must be resolved by the host into a ref; the core refuses it.
  assert.throws(() => treeDiff(t, t, { scope: 'div.cart > a' }), {
    code: 'INVALID_OPTION',
    field: 'treeDiffOptions.scope',
  })
  assert.throws(() => treeDiff(t, t, { ts: -1 }), { code: 'INVALID_OPTION', field: 'treeDiffOptions.ts' })
})

test('SinceStore: a read since an earlier ts gives only the changes; an unknown ts the full tree', () => {
  const store = new SinceStore()
  const [a, b] = pair(7)
  const r1 = store.read('tab-1', a)
  assert.equal(r1.mode, 'full')
  assert.equal(r1.notice, undefined)
  assert.equal(r1.text, `# ts ${r1.ts}\n${a}`)
  const r2 = store.read('tab-1', b, { since: r1.ts })
  assert.equal(r2.mode, 'diff')
  assert.ok(r2.ts > r1.ts)
  assert.equal(r2.since, r1.ts)
  assert.equal(r2.text, `# ts ${r2.ts}, changes since ${r1.ts}\n${treeDiff(a, b).text}`)
  const y = store.read('tab-1', b, { since: r2.ts, format: 'json' })
  assert.deepEqual(JSON.parse(y.text).diff.added, [])
  const r3 = store.read('tab-1', b, { since: 42 })
  assert.equal(r3.mode, 'full')
  assert.match(r3.notice, /42/)
  store.clear('tab-1')
  assert.equal(store.read('tab-1', b, { since: r2.ts }).mode, 'full')
  assert.throws(() => store.read('k', a, { ts: 5 }), { code: 'INVALID_OPTION', field: 'treeDiffOptions.ts' })
  assert.throws(() => new SinceStore({ perkey: 1 }), { code: 'INVALID_OPTION', field: 'sinceStore.perkey' })
})
