// mcp/schema.js: the catalog the wrapper serves.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const { catalog, elementPaths, PLAYWRIGHT_TOOLS, EXPECTATION_DESCRIPTION } = require('../mcp/schema.js')

test('element arguments are found in a schema, nested ones too', () => {
  const schema = {
    properties: {
      target: { type: 'string' },
      fields: { type: 'array', items: { type: 'object', properties: { ref: { type: 'string' }, value: { type: 'string' } } } },
      other: { type: 'string', description: 'Exact target element reference from the page snapshot' },
    },
  }
  assert.deepEqual(elementPaths(schema), [['target'], ['fields', '[]', 'ref'], ['other']])
})

test("Playwright's tools gain expectation; other tools stay as they are", () => {
  const paths = new Map()
  const tools = [
    { name: 'browser_click', inputSchema: { type: 'object', properties: { target: { type: 'string' } } } },
    { name: 'browser_snapshot', inputSchema: { type: 'object', properties: {} } },
    { name: 'page_tool', inputSchema: { type: 'object', properties: {} } },
  ]
  const out = catalog({ id: 1, result: { tools } }, paths).result.tools
  assert.deepEqual(out[0].inputSchema.properties.expectation, { type: 'object' })
  assert.equal(out[1].inputSchema.properties.expectation.description, EXPECTATION_DESCRIPTION)
  assert.equal(out[2], tools[2])
  assert.deepEqual(paths.get('browser_click'), [['target']])
  assert.ok(PLAYWRIGHT_TOOLS.has('browser_type'))
  assert.deepEqual(catalog({ id: 1, result: {} }, paths), { id: 1, result: {} })
})
