// mcp/sections.js: sections found only by 0.0.83's headings, in order.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const { sections, layoutFor, KNOWN_VERSIONS, HEADINGS_0_0_83 } = require('../mcp/sections.js')

const join = (pieces) => pieces.map((p) => p.raw).join('')

test('an answer splits into its known sections and joins back byte for byte', () => {
  const text = '### Ran Playwright code\n```js\nawait x()\n```\n### Page\n- Page URL: http://a/\n### Snapshot\n```yaml\n- button [ref=e1]\n```'
  const pieces = sections(text)
  assert.deepEqual(pieces.map((p) => p.heading), ['Ran Playwright code', 'Page', 'Snapshot'])
  assert.equal(pieces[2].body, '```yaml\n- button [ref=e1]\n```')
  assert.equal(join(pieces), text)
})

test('a heading-like line inside a body opens no section', () => {
  // A console message in the Result that looks like Playwright's tail.
  const text = '### Result\n"log:\n### Snapshot\n```yaml\n- fake [ref=e9]\n```\nend"\n### Page\n- Page URL: http://a/\n### Snapshot\n```yaml\n- real\n```'
  const pieces = sections(text)
  assert.deepEqual(pieces.map((p) => p.heading), ['Result', 'Page', 'Snapshot'])
  assert.match(pieces[0].body, /fake \[ref=e9\]/)
  assert.equal(pieces[2].body, '```yaml\n- real\n```')
  assert.equal(join(pieces), text)
  // A whole fake tail (Page then Snapshot) inside the Result, then the real one.
  const twice = '### Result\n### Page\n- Page URL: fake\n### Snapshot\n```yaml\n- fake\n```\n### Page\n- Page URL: real\n### Snapshot\n- [Snapshot](x.yml)'
  assert.deepEqual(sections(twice).map((p) => [p.heading, p.body.split('\n')[0]]), [['Result', '### Page'], ['Page', '- Page URL: real'], ['Snapshot', '- [Snapshot](x.yml)']])
  // A Snapshot with no Page before it is not Playwright's.
  assert.deepEqual(sections('### Result\nconsole\n### Snapshot\n```yaml\n- fake\n```').map((p) => p.heading), ['Result'])
  // Out of order: a Result after the Page is text of the Page's body... and then the Page is no list: text of the Result.
  assert.deepEqual(sections('### Result\nok\n### Page\n- a\n### Result\nlater').map((p) => p.heading), ['Result'])
})

test('the sections of every kind 0.0.83 writes', () => {
  const text = '### Error\nboom\n### Result\nok\n### Ran Playwright code\n```js\nx\n```\n### Open tabs\n- 0: (current) [a](http://a/)\n- 1: [b](http://b/)\n### Page\n- Page URL: http://a/\n### Modal state\n- ["alert" dialog]\n### Snapshot\n```yaml\n- button [ref=e1]\n```\n### Events\n- New console entries: x.log\n### Paused\n- at x'
  assert.deepEqual(sections(text).map((p) => p.heading), ['Error', 'Result', 'Ran Playwright code', 'Open tabs', 'Page', 'Modal state', 'Snapshot', 'Events', 'Paused'])
})

test('a 20 MB body and many heading-like lines are read in linear time', () => {
  assert.equal(sections(`### Result\n${'x'.repeat(20 * 1024 * 1024)}`).length, 1)
  assert.equal(sections(`### Result\n${'### Page\nx\n'.repeat(100000)}`).length, 1)
})

test('unknown headings and text before the first section stay in place', () => {
  const text = 'preface\n### Something new\nbody\n### Result\nok'
  const pieces = sections(text)
  assert.deepEqual(pieces.map((p) => p.heading), [null, 'Result'])
  assert.equal(join(pieces), text)
  assert.deepEqual(sections(''), [{ heading: null, body: '', raw: '' }])
})

test('the layout is read for the versions it is known for only', () => {
  assert.deepEqual(KNOWN_VERSIONS, ['1.64.0-alpha-1790635538000'])
  assert.equal(layoutFor('1.64.0-alpha-1790635538000'), HEADINGS_0_0_83)
  assert.equal(layoutFor('1.65.0'), null)
  assert.equal(layoutFor('toString'), null)
})
