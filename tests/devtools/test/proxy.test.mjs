// response-diff-proxy in front of the real chrome-devtools-mcp 1.11.0 on
// Debian's chromium, driven by the official MCP client, pages on
// 127.0.0.1. With RD_PROXY_OFF=1 the same tests run on chrome-devtools-mcp
// alone, and fail.
import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'

import { View, call, selectedPage, serve, snapshotOf, start } from './helpers.mjs'
import { FORM, LIST, QUOTE } from './pages.mjs'

let site
before(async () => {
  site = await serve({ '/list': LIST, '/form': FORM, '/quote': QUOTE })
})
after(async () => {
  await site?.close()
})

/** A session on `path`: the client, its page id, and the agent's view after a first snapshot. */
async function open(path, options) {
  const s = await start(options)
  try {
    const pageId = selectedPage((await call(s.client, 'list_pages')).text)
    const nav = await call(s.client, 'navigate_page', { pageId, type: 'url', url: `${site.origin}${path}` })
    assert.equal(nav.isError, false, nav.text)
    const view = new View()
    assert.equal(view.read((await call(s.client, 'take_snapshot', { pageId })).text), 'full')
    return { ...s, pageId, view }
  } catch (e) {
    await s.close()
    throw e
  }
}

const evaluate = async (s, fn) => JSON.parse(/```json\n([\s\S]*?)\n```/.exec((await call(s.client, 'evaluate_script', { pageId: s.pageId, function: fn })).text)[1])

test('a re-rendered list keeps the uids the agent knows; a click by one acts on its element', async () => {
  const s = await open('/list')
  try {
    const row0 = s.view.uid(/button "Row 0"/)
    const row1 = s.view.uid(/button "Row 1"/)
    const r = await call(s.client, 'click', { pageId: s.pageId, uid: s.view.uid(/button "Add"/) })
    assert.equal(s.view.read(r.text), 'patch', r.text)
    assert.equal(s.view.uid(/button "Row 0"/), row0)
    assert.equal(s.view.uid(/button "Row 1"/), row1)
    const c = await call(s.client, 'click', { pageId: s.pageId, uid: row1 })
    assert.equal(c.isError, false, c.text)
    assert.deepEqual(await evaluate(s, '() => window.clicked'), ['Row 1'])
  } finally {
    await s.close()
  }
})

test('a uid whose element is gone is an error naming it and saying to take a snapshot', async () => {
  const s = await open('/list')
  try {
    const row0 = s.view.uid(/button "Row 0"/)
    s.view.read((await call(s.client, 'click', { pageId: s.pageId, uid: s.view.uid(/button "Remove first"/) })).text)
    const r = await call(s.client, 'click', { pageId: s.pageId, uid: row0 })
    assert.equal(r.isError, true)
    assert.match(r.text, new RegExp(`"${row0}".*take_snapshot`))
    assert.deepEqual(await evaluate(s, '() => window.clicked'), [])
  } finally {
    await s.close()
  }
})

test('a page whose quotation marks share one uid still gets patches', async () => {
  const s = await open('/quote')
  try {
    // chrome-devtools-mcp prints the pseudo-element “ and ” under one uid.
    const quotes = [...s.view.text.matchAll(/^ *uid=(\S+) "[“”]"$/gm)].map((m) => m[1])
    assert.equal(quotes.length, 2, s.view.text)
    assert.equal(quotes[0], quotes[1], s.view.text)
    const r = await call(s.client, 'click', { pageId: s.pageId, uid: s.view.uid(/button "Add"/) })
    assert.equal(s.view.read(r.text), 'patch', r.text)
    assert.match(r.text, /Item 2/)
    assert.doesNotMatch(r.text, /Simple things/)
  } finally {
    await s.close()
  }
})

test('an unchanged read is one line', async () => {
  const s = await open('/list')
  try {
    const r = await call(s.client, 'take_snapshot', { pageId: s.pageId })
    assert.equal(s.view.read(r.text), 'unchanged')
    assert.match(r.text, /^## Latest page snapshot\nNo changes since[^\n]*\n?$/)
  } finally {
    await s.close()
  }
})

test('two pages (pageId) keep their own history', async () => {
  const s = await open('/list')
  try {
    const opened = await call(s.client, 'new_page', { url: `${site.origin}/form` })
    const other = selectedPage(opened.text)
    assert.notEqual(other, s.pageId)
    const v2 = new View()
    assert.equal(v2.read((await call(s.client, 'take_snapshot', { pageId: other })).text), 'full')
    assert.equal(s.view.read((await call(s.client, 'take_snapshot', { pageId: s.pageId })).text), 'unchanged')
    assert.equal(v2.read((await call(s.client, 'take_snapshot', { pageId: other })).text), 'unchanged')
    assert.match(v2.text, /textbox "First"/)
  } finally {
    await s.close()
  }
})

test('fill_form and drag translate every uid', async () => {
  const s = await open('/form')
  try {
    const first = s.view.uid(/textbox "First"/)
    const last = s.view.uid(/textbox "Last"/)
    const from = s.view.uid(/button "Source"/)
    const to = s.view.uid(/button "Target"/)
    // Rebuilt: the browser's uids are new, the agent's are the same.
    assert.equal(s.view.read((await call(s.client, 'click', { pageId: s.pageId, uid: s.view.uid(/button "Rebuild"/) })).text), 'patch')
    assert.equal(s.view.uid(/textbox "First"/), first)
    const f = await call(s.client, 'fill_form', { pageId: s.pageId, elements: [{ uid: first, value: 'Ada' }, { uid: last, value: 'Lovelace' }] })
    assert.equal(f.isError, false, f.text)
    assert.deepEqual(await evaluate(s, "() => [document.getElementById('first').value, document.getElementById('last').value]"), ['Ada', 'Lovelace'])
    await evaluate(s, '() => { window.drags = []; return 0 }')
    const d = await call(s.client, 'drag', { pageId: s.pageId, from_uid: from, to_uid: to })
    assert.equal(d.isError, false, d.text)
    const drags = await evaluate(s, '() => window.drags')
    assert.equal(drags[0], 'down:from')
    assert.equal(drags.at(-1), 'up:to')
  } finally {
    await s.close()
  }
})

test('includeSnapshot is on by default for input tools, and the diff after a click is small', async () => {
  const s = await open('/shop/index.html')
  try {
    const full = countTokens(s.view.text)
    const r = await call(s.client, 'click', { pageId: s.pageId, uid: s.view.uid(/button "Add to cart"/) })
    assert.equal(s.view.read(r.text), 'patch', r.text)
    assert.match(s.view.text, /Cart \(1\)/)
    const tokens = countTokens(r.text)
    assert.ok(tokens * 10 < full, `the click's answer costs ${tokens} tokens, the page ${full}`)
    // An explicit false is the agent's.
    const quiet = await call(s.client, 'click', { pageId: s.pageId, uid: s.view.uid(/button "Add to cart"/), includeSnapshot: false })
    assert.equal(snapshotOf(quiet.text), null)
  } finally {
    await s.close()
  }
})

test('structuredContent.snapshot is left out under --experimentalStructuredContent; --keep-structured-snapshot keeps it', async () => {
  const s = await open('/list', { upstreamArgs: ['--experimentalStructuredContent'] })
  const k = await open('/list', { upstreamArgs: ['--experimentalStructuredContent'], proxyArgs: ['--keep-structured-snapshot'] })
  try {
    const r = await call(s.client, 'click', { pageId: s.pageId, uid: s.view.uid(/button "Add"/) })
    assert.equal(s.view.read(r.text), 'patch')
    assert.equal(typeof r.structuredContent, 'object')
    assert.equal(r.structuredContent.snapshot, undefined)
    const kept = await call(k.client, 'take_snapshot', { pageId: k.pageId })
    assert.equal(k.view.read(kept.text), 'unchanged')
    assert.equal(kept.structuredContent.snapshot.role, 'RootWebArea')
  } finally {
    await s.close()
    await k.close()
  }
})
