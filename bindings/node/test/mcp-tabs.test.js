// mcp/tabs.js: the tab list followed from Playwright's answers.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const rd = require('..')
const { Tabs, tabLines } = require('../mcp/tabs.js')

test('tab lines are read; tabs keep their keys in order; a closed one goes', () => {
  const lines = tabLines('- 0: [A](http://a/)\n- 1: (current) [B](http://b/)\nnot a tab')
  assert.deepEqual(lines.map((l) => [l.index, l.current, l.url]), [[0, false, 'http://a/'], [1, true, 'http://b/']])
  const gone = []
  const tabs = new Tabs((n) => `w/tab${n}`, (t) => gone.push(t.key))
  tabs.follow(lines)
  assert.deepEqual(tabs.list.map((t) => t.key), ['w/tab1', 'w/tab2'])
  assert.equal(tabs.tab.key, 'w/tab2')
  tabs.follow(tabLines('- 0: (current) [B](http://b/)'), 0)
  assert.deepEqual(gone, ['w/tab1'])
  assert.equal(tabs.tab.url, 'http://b/')
  tabs.reset()
  assert.equal(tabs.tab, null)
})

test('rekey forgets what a tab carried and showed', () => {
  const carrier = new rd.RefCarrier()
  const detector = new rd.ResponseDiffDetector()
  const tabs = new Tabs((n) => `w/tab${n}`, () => {})
  const tab = tabs.ensure()
  tab.url = 'http://a/'
  const page = tab.page()
  carrier.carry(page, '- button "A" [ref=e1]')
  tab.refs.learn({ e1: 'e1' }, true)
  tab.rekey(carrier, detector)
  assert.equal(tab.key, 'w/tab1.1')
  assert.equal(tab.refs.toAgent.size, 0)
  assert.equal(carrier.clear(page), false)
  assert.notEqual(tab.page(), page)
})
