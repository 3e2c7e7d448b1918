// mcp/refs.js: a call's arguments translated by the core's carrier.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const rd = require('..')
const { RefMap, carrierKey, translate, staleRef, gone } = require('../mcp/refs.js')
const { KNOWN_PATHS } = require('../mcp/schema.js')

/** A tab of one page whose refs were carried through `snapshots`. */
function tabWith(carrier, ...snapshots) {
  const tab = { raw: false, url: 'http://a/', refs: new RefMap(), page: () => carrierKey('w/tab1', tab.url) }
  let carried
  for (const s of snapshots) {
    carried = carrier.carry(tab.page(), s)
    tab.refs.learn(carried.refs, true)
  }
  return { tab, carried }
}

test("arguments are translated to the source's current refs; unknown refs are named", () => {
  const carrier = new rd.RefCarrier({ viewsPerKey: rd.PAGE_VIEWS })
  // Re-rendered: every node gets a new source id; the agent keeps its refs.
  const { tab, carried } = tabWith(carrier, '- button "A" [ref=e2]\n- button "B" [ref=e3]', '- button "A" [ref=e7]\n- button "B" [ref=e8]')
  assert.match(carried.snapshot, /"A" \[ref=e2\]/)
  const t = translate({ target: 'e2', fields: [{ target: 'e3' }, { target: 'e9' }], text: 'e2' }, KNOWN_PATHS, tab, carrier)
  assert.deepEqual(t.args, { target: 'e7', fields: [{ target: 'e8' }, { target: 'e9' }], text: 'e2' })
  assert.deepEqual(t.missing, ['e9'])
  const reply = { result: { isError: true, content: [{ type: 'text', text: 'Error: Ref e8 not found in the current page snapshot.' }] } }
  assert.equal(staleRef(reply, t), 'e3')
  assert.match(gone('e3').result.content[0].text, /^### Error\nError: Ref e3 not found/)
  assert.equal(tab.refs.toAgent.get('e7'), 'e2')
})

test('a raw tab takes refs as they are; no tab knows none', () => {
  const carrier = new rd.RefCarrier()
  const { tab } = tabWith(carrier, '- button "A" [ref=e7]')
  tab.raw = true
  assert.deepEqual(translate({ target: 'e2' }, KNOWN_PATHS, tab, carrier).args, { target: 'e2' })
  assert.deepEqual(translate({ target: 'e2' }, KNOWN_PATHS, null, carrier).missing, ['e2'])
})

test("the carrier key is the core's: the tab and the URL without its fragment", () => {
  assert.equal(carrierKey('w/tab1', 'http://a/x#top'), 'w/tab1\u001fhttp://a/x')
})
