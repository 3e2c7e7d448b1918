// Refs carried over across re-rendered snapshots, and snapshot patches
// (removal runs, focus, restore by reference) applied back.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const rd = require('..')
const { RefCarrier, carryRefs, snapshotPatch, applySnapshotPatch, parseSnapshot } = rd

// A cart rendered from scratch: every node id is new.
const cart = (items, base) => [
  `- list "Cart" [ref=n${base}]:`,
  ...items.flatMap((item, i) => {
    const id = base + 1 + 2 * i
    return [`  - listitem [ref=n${id}]:`, `    - text: ${item}`, `    - button "Remove" [ref=n${id + 1}]`]
  })
].join('\n')

const refsOf = (snapshot) => {
  const out = []
  const walk = (els) => { for (const e of els) { if (e.ref) out.push(e.ref); walk(e.children || []) } }
  walk(parseSnapshot(snapshot))
  return out
}

test('a re-rendered list keeps its refs; one item added is one added element', () => {
  const c = new RefCarrier()
  const first = c.carry('tab', cart(['Tea', 'Cake'], 100))
  assert.equal(first.fresh, 5)
  const again = c.carry('tab', cart(['Tea', 'Cake'], 500))
  assert.equal(again.snapshot, first.snapshot)
  assert.deepEqual(Object.entries(again.refs), [
    ['n500', 'n100'], ['n501', 'n101'], ['n502', 'n102'], ['n503', 'n103'], ['n504', 'n104']
  ])
  const grown = c.carry('tab', cart(['Tea', 'Cake', 'Pie'], 900))
  assert.deepEqual([grown.carried, grown.fresh], [5, 2])
  const p = snapshotPatch(again.snapshot, grown.snapshot)
  assert.equal(p.text, '+ after [n103]:\n  - listitem [ref=n905]:\n    - text: Pie\n    - button "Remove" [ref=n906]')
  assert.equal(p.summary, '0 changed (~), 3 added (+), 0 removed (-), 7 unchanged')
  assert.equal(applySnapshotPatch(again.snapshot, p.text), grown.snapshot)
})

test('removed and restored: its old ref, restored by reference, applied with the seen snapshots', () => {
  const c = new RefCarrier({ viewsPerKey: 4 })
  const full = c.carry('tab', cart(['Tea', 'Cake', 'Pie'], 100)).snapshot
  const filtered = c.carry('tab', cart(['Cake'], 200)).snapshot
  assert.deepEqual(refsOf(filtered), ['n100', 'n103', 'n104'])
  const removal = snapshotPatch(full, filtered)
  assert.equal(removal.text, '- [n101 n105]')
  assert.equal(applySnapshotPatch(full, removal.text), filtered)
  const back = c.carry('tab', cart(['Tea', 'Cake', 'Pie'], 300))
  assert.equal(back.snapshot, full)
  const seen = [full, filtered]
  const p = snapshotPatch(filtered, back.snapshot, { seen })
  assert.equal(p.text, '+ first in [n100]: [n101] as last shown\n+ after [n103]: [n105] as last shown')
  assert.equal(p.restored, 6)
  assert.equal(applySnapshotPatch(filtered, p.text, seen), full)
  assert.throws(() => applySnapshotPatch(filtered, p.text), (e) =>
    e.code === 'PARSE_ERROR' && /\[n101\] is restored `as last shown` but no seen snapshot has it/.test(e.message))
  const explicit = snapshotPatch(filtered, back.snapshot, { seen, restore: false })
  assert.equal(explicit.restored, 0)
  assert.equal(applySnapshotPatch(filtered, explicit.text), full)
})

test('duplicates map in order; a ref never moves to other content', () => {
  const c = new RefCarrier()
  c.carry('tab', cart(['Tea', 'Tea', 'Tea'], 100))
  assert.deepEqual(refsOf(c.carry('tab', cart(['Tea', 'Tea'], 200)).snapshot), ['n100', 'n101', 'n102', 'n103', 'n104'])
  const other = refsOf(c.carry('tab', cart(['Cake', 'Pie'], 300)).snapshot)
  assert.deepEqual(other.filter((r) => ['n101', 'n103', 'n105'].includes(r)), [])
})

test('a focus move costs one line', () => {
  const old = '- textbox "Body" [active] [ref=e1]: a long request body\n- button "Send" [ref=e2]'
  const now = '- textbox "Body" [ref=e1]: a long request body\n- button "Send" [active] [ref=e2]'
  const p = snapshotPatch(old, now)
  assert.equal(p.text, '~ focus [e2]')
  assert.equal(applySnapshotPatch(old, p.text), now)
  // A ref on two elements names neither: no patch, a line diff instead.
  assert.equal(snapshotPatch('- button "a" [ref=e1]\n- button "b" [ref=e1]', '- text: b'), null)
})

test('carryRefs without a store, and errors with codes', () => {
  const r = carryRefs(['- button "Go" [ref=e1]'], '- button "Go" [ref=z9]')
  assert.deepEqual(r, { snapshot: '- button "Go" [ref=e1]', refs: { z9: 'e1' }, carried: 1, fresh: 0 })
  assert.equal(carryRefs([], '- link "A" [ref=e5]', { stableIds: true }).fresh, 1)
  assert.throws(() => carryRefs([], '- button "A" [ref=x]\n- button "B" [ref=x]'),
    (e) => e.code === 'INVALID_OPTION' && /node id `x` is on two elements/.test(e.message))
  assert.throws(() => new RefCarrier({ viewsPerKey: 0 }), (e) => e.code === 'INVALID_OPTION' && /viewsPerKey/.test(e.message))
  assert.throws(() => snapshotPatch('- a', '- b', { seen: 'x' }), (e) => e.code === 'INVALID_OPTION' && /patchOptions.seen/.test(e.message))
  const c = new RefCarrier()
  c.carry('a', cart(['Tea'], 1))
  assert.ok(c.memoryUsage() > 0)
  assert.equal(c.clear('a'), true)
  assert.equal(c.clear('a'), false)
})

test('order lines apply as the shared fixtures say (issue 29)', () => {
  const { fixture } = require('./helpers')
  for (const c of JSON.parse(fixture('patches/order.json')).cases) {
    const p = snapshotPatch(c.old, c.new, { seen: c.seen })
    assert.equal(p.text, c.patch, c.name)
    assert.equal(applySnapshotPatch(c.old, c.patch, c.seen), c.new, c.name)
  }
  assert.throws(() => applySnapshotPatch('- list [ref=l]:\n  - listitem "a" [ref=a]', '~ order [a a]'), { code: 'PARSE_ERROR', message: /is listed twice/ })
})

test('moves across parents apply as the shared fixtures say (issue 37)', () => {
  const { fixture } = require('./helpers')
  for (const c of JSON.parse(fixture('patches/moves.json')).cases) {
    const p = snapshotPatch(c.old, c.new, { seen: c.seen })
    assert.equal(p.text, c.patch, c.name)
    assert.equal(p.moved, 1, c.name)
    assert.equal(applySnapshotPatch(c.old, c.patch, c.seen), c.new, c.name)
    assert.equal(applySnapshotPatch(c.old, c.oldStyle, c.seen), c.new, c.name)
  }
})

/** Each case of a shared patch fixture: the writer gives exactly its patch, which rebuilds `new`. */
function patchFixture(name, atLeast) {
  const { fixture } = require('./helpers')
  const cases = JSON.parse(fixture(`patches/${name}`)).cases
  assert.ok(cases.length >= atLeast)
  for (const c of cases) {
    const p = snapshotPatch(c.old, c.new, { seen: c.seen })
    assert.equal(p.text, c.patch, c.name)
    assert.equal(applySnapshotPatch(c.old, c.patch, c.seen), c.new, c.name)
  }
}

test('elements without a ref are patched by address as the shared fixtures say (issue 42)', () => {
  patchFixture('refless.json', 4)
  assert.equal(snapshotPatch('- text: a', '- text: b').text, '~ [/1] text: b')
  assert.throws(() => applySnapshotPatch('- list [ref=e1]:\n  - listitem [ref=e2]', '- [e1/1]'), { code: 'PARSE_ERROR', message: /\[e1\/1\] is an element with a ref: name it \[e2\]/ })
})

test("chrome-devtools-mcp's snapshots are patched in their own lines as the shared fixtures say (issue 43)", () => {
  patchFixture('devtools.json', 9)
})

test('an element comes back as last shown less what went inside it, as the shared fixtures say (issue 42)', () => {
  patchFixture('restores.json', 4)
})

test('sourceRef: a carried ref names the node that now stands there', () => {
  const c = new RefCarrier({ viewsPerKey: rd.PAGE_VIEWS })
  const key = rd.carrierKey('tab1', 'http://127.0.0.1/cart#top')
  assert.equal(key, 'tab1\u001fhttp://127.0.0.1/cart')
  assert.equal(rd.carrierKey('tab1', 'http://127.0.0.1/cart'), key)
  assert.equal(rd.PAGE_VIEWS, 16)
  assert.match(rd.OWN_REFS_NOTE, /^# .*refs are the page's own/)
  c.carry(key, cart(['Tea', 'Cake'], 1))
  // Rebuilt from scratch: the agent keeps n3 for Tea's button, now node n23.
  const r = c.carry(key, cart(['Tea', 'Cake'], 21))
  assert.equal(r.refs.n23, 'n3')
  assert.equal(c.sourceRef(key, 'n3'), 'n23')
  assert.equal(c.sourceRef(key, 'n23'), null, 'a node id the agent never saw')
  assert.equal(c.sourceRef('tab2\u001fhttp://127.0.0.1/cart', 'n3'), null)
  // Cake's button leaves: its ref names nothing in the latest view.
  c.carry(key, cart(['Tea'], 41))
  assert.equal(c.sourceRef(key, 'n5'), null)
  assert.equal(c.sourceRef(key, 'n3'), 'n43')
  c.clear(key)
  assert.equal(c.sourceRef(key, 'n3'), null)
})
