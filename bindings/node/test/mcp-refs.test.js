// mcp/refs.js: the agent's refs → Playwright's, in one place.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const { RefMap, carrierKey, translate, staleRef, gone } = require('../mcp/refs.js')
const { KNOWN_PATHS } = require('../mcp/schema.js')

test('arguments are translated through the last carry; unknown refs are named', () => {
  const tab = { raw: false, refs: new RefMap() }
  tab.refs.learn({ e7: 'e2', e8: 'e3' }, true)
  const t = translate({ target: 'e2', fields: [{ target: 'e3' }, { target: 'e9' }], text: 'e2' }, KNOWN_PATHS, tab)
  assert.deepEqual(t.args, { target: 'e7', fields: [{ target: 'e8' }, { target: 'e9' }], text: 'e2' })
  assert.deepEqual(t.missing, ['e9'])
  const reply = { result: { isError: true, content: [{ type: 'text', text: 'Error: Ref e8 not found in the current page snapshot.' }] } }
  assert.equal(staleRef(reply, t), 'e3')
  assert.match(gone('e3').result.content[0].text, /^### Error\nError: Ref e3 not found/)
})

test('a raw tab takes refs as they are; no tab knows none', () => {
  const tab = { raw: true, refs: new RefMap() }
  tab.refs.learn({ e7: 'e2' }, true)
  assert.deepEqual(translate({ target: 'e2' }, KNOWN_PATHS, tab).args, { target: 'e2' })
  assert.deepEqual(translate({ target: 'e2' }, KNOWN_PATHS, null).missing, ['e2'])
})

test('the carrier key is the tab and the URL without its fragment', () => {
  assert.equal(carrierKey('w/tab1', 'http://a/x#top'), 'w/tab1\u001fhttp://a/x')
})
