// mcp/ids.js: the wrapper's own request ids and keys.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const { OwnIds } = require('../mcp/ids.js')

test('ids and keys are unique to each wrapper and never a client-like id', () => {
  const a = new OwnIds()
  const b = new OwnIds()
  assert.notEqual(a.prefix, b.prefix)
  const id = a.next()
  assert.match(id, /^response-diff\/[0-9a-f]{12}\/1$/)
  assert.ok(a.owns(id))
  assert.ok(!b.owns(id))
  for (const client of ['response-diff/1', 1, null, undefined, 'x']) assert.ok(!a.owns(client))
  assert.notEqual(a.key('tab1'), b.key('tab1'))
})
