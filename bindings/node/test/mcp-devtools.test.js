// The chrome-devtools-mcp door (mcp/devtools/) on an in-memory transport
// and a scripted server that answers as chrome-devtools-mcp 1.11.0 does
// (McpResponse.format(): lines joined with `\n`, the snapshot ending in
// one): the snapshot section, uid translation, includeSnapshot, pages.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const { withResponseDiff, DEVTOOLS_VERSIONS } = require('../mcp.js')
const { snapshotSection, rootUrl, SELECTED_NOTE } = require('../mcp/devtools/rewrite.js')
const { uidPaths } = require('../mcp/devtools/schema.js')
const { pageList } = require('../mcp/devtools/pages.js')
const { translate, uidsBack } = require('../mcp/devtools/uids.js')

const URL = 'http://127.0.0.1:1/list'
/** A page whose list items get new uids (`g`) on each render, as a framework re-rendering it does. */
const tree = (g, rows, extra = '') =>
  `uid=1_0 RootWebArea "List" url="${URL}"\n  uid=1_1 heading "List" level="1"\n  uid=1_2 list\n` +
  rows.map((r, i) => `    uid=${g}_${i} listitem "${r}"\n`).join('') +
  `  uid=1_3 button "Add"${extra}\n`
const snapAnswer = (t, lead = '') => `${lead}## Latest page snapshot\n${t}`

const SCHEMAS = {
  click: { type: 'object', properties: { pageId: { type: 'number' }, uid: { type: 'string', description: 'The uid of an element on the page from the page content snapshot' }, includeSnapshot: { type: 'boolean', description: 'Whether to include a snapshot in the response. Default is false.' } } },
  drag: { type: 'object', properties: { from_uid: { type: 'string' }, to_uid: { type: 'string' }, includeSnapshot: { type: 'boolean' } } },
  fill_form: { type: 'object', properties: { elements: { type: 'array', items: { type: 'object', properties: { uid: { type: 'string' }, value: { type: 'string' } } } }, includeSnapshot: { type: 'boolean' } } },
  evaluate_script: { type: 'object', properties: { function: { type: 'string' }, args: { type: 'array', items: { type: 'string', description: 'The uid of an element on the page from the page content snapshot' } } } },
  take_snapshot: { type: 'object', properties: { pageId: { type: 'number' }, verbose: { type: 'boolean' }, filePath: { type: 'string' } } },
  type_text: { type: 'object', properties: { text: { type: 'string' } } },
}

/** A wrapper on an in-memory transport in front of `server(message) → result`. */
async function setup(server, options = {}, serverInfo = { name: 'chrome_devtools', version: '1.11.0' }) {
  const toClient = []
  const toServer = []
  const inner = { start: async () => {}, send: async (m) => void toClient.push(m), close: async () => {} }
  const warnings = []
  const w = withResponseDiff(inner, { onWarning: (t) => warnings.push(t), ...options })
  w.onmessage = (m) => {
    toServer.push(m)
    if (m.method === 'tools/list') w.send({ jsonrpc: '2.0', id: m.id, result: { tools: Object.entries(SCHEMAS).map(([name, inputSchema]) => ({ name, description: name, inputSchema })) } })
    else if (m.method === 'tools/call') Promise.resolve(server(m.params.name, m.params.arguments)).then((result) => w.send({ jsonrpc: '2.0', id: m.id, result }))
  }
  await w.start()
  let n = 0
  /** The client's request; resolves with its answer. */
  const request = async (method, params) => {
    const id = ++n
    inner.onmessage({ jsonrpc: '2.0', id, method, params })
    if (method === 'initialize') await w.send({ jsonrpc: '2.0', id, result: { serverInfo } })
    for (let i = 0; i < 50 && !toClient.some((m) => m.id === id); i++) await new Promise((ok) => setImmediate(ok))
    return toClient.find((m) => m.id === id)
  }
  await request('initialize', {})
  const call = async (name, args = {}) => (await request('tools/call', { name, arguments: args })).result
  const text = (r) => r.content[0].text
  const lastArgs = () => toServer.filter((m) => m.method === 'tools/call').at(-1).params.arguments
  return { w, request, call, text, lastArgs, warnings, toServer }
}

test('the snapshot section: after the tool lines, before the next section, with the selected-element note', () => {
  const t = tree(2, ['a'])
  assert.deepEqual(snapshotSection(`Clicked\n## Latest page snapshot\n${t}`), { before: 'Clicked\n', note: '', tree: t, after: '' })
  assert.deepEqual(snapshotSection(`## Latest page snapshot\n${t}\n## Console messages\nx`), { before: '', note: '', tree: t, after: '\n## Console messages\nx' })
  const note = `${SELECTED_NOTE} but it is not included into the current a11y tree snapshot.\nGet a verbose snapshot to include all elements if you are interested in the selected element.\n\n`
  assert.deepEqual(snapshotSection(`## Latest page snapshot\n${note}${t}`).note, note)
  assert.equal(snapshotSection('## Pages\n1: a [selected]'), null)
  assert.equal(snapshotSection('## Latest page snapshot\nnot a tree'), null)
  // A textarea's value with a blank line in it: where the tree ends is unknown.
  assert.deepEqual(snapshotSection(`## Latest page snapshot\nuid=1_0 RootWebArea "x"\n  uid=1_1 textbox value="a\n\nb"\n  uid=1_2 button "Go"\n`), { ambiguous: true })
  assert.equal(rootUrl(t), URL)
})

test('uid arguments come from the schema: uid, from_uid, to_uid, elements[].uid, a list of uids', () => {
  assert.deepEqual(uidPaths(SCHEMAS.click), [['uid']])
  assert.deepEqual(uidPaths(SCHEMAS.drag), [['from_uid'], ['to_uid']])
  assert.deepEqual(uidPaths(SCHEMAS.fill_form), [['elements', '[]', 'uid']])
  assert.deepEqual(uidPaths(SCHEMAS.evaluate_script), [['args', '[]']])
  const carrier = { sourceRef: (_, uid) => ({ a: 'b1', c: 'd1' })[uid] ?? null }
  const tab = { raw: false, page: () => 'k' }
  const t = translate({ args: ['a', 'c'], function: 'x' }, uidPaths(SCHEMAS.evaluate_script), tab, carrier)
  assert.deepEqual(t.args, { args: ['b1', 'd1'], function: 'x' })
  assert.deepEqual(translate({ uid: 'zz' }, [['uid']], tab, carrier).missing, ['zz'])
  assert.deepEqual(translate({ uid: 'zz' }, [['uid']], { ...tab, raw: true }, carrier).args, { uid: 'zz' })
  assert.equal(uidsBack('Element with uid 3_1 no longer exists on the page.', new Map([['3_1', '1_9']])), 'Element with uid 1_9 no longer exists on the page.')
  assert.equal(uidsBack('Element uid "3_1" not found on page 1.', new Map([['3_1', '1_9']])), 'Element uid "1_9" not found on page 1.')
})

test('a `## Pages` list: ids and the selected one', () => {
  assert.deepEqual(pageList('Done.\n## Pages\n1: A (http://a/) \n2: B (http://b/) [selected] isolatedContext=x\n## Extension Pages\n3: e'), { ids: [1, 2], selected: 2 })
  assert.equal(pageList('no list'), null)
})

test('serverInfo chrome_devtools: includeSnapshot is on for input tools unless the agent says false; the catalog says so', async () => {
  const s = await setup(() => ({ content: [{ type: 'text', text: 'Successfully clicked on the element' }] }))
  const list = (await s.request('tools/list', {})).result.tools
  assert.match(list.find((t) => t.name === 'click').inputSchema.properties.includeSnapshot.description, /Default is true\./)
  assert.match(list.find((t) => t.name === 'take_snapshot').description, /changes since you last saw this page/)
  await s.call('type_text', { pageId: 1, text: 'x' })
  assert.equal(s.lastArgs().includeSnapshot, undefined)
  assert.equal(DEVTOOLS_VERSIONS[0], '1.11.0')
})

test('a uid the page never showed is an error naming it; an explicit includeSnapshot false is respected', async () => {
  const s = await setup(() => ({ content: [{ type: 'text', text: 'Successfully clicked on the element' }] }))
  const r = await s.call('click', { pageId: 1, uid: '9_9', includeSnapshot: false })
  assert.equal(r.isError, true)
  assert.match(s.text(r), /Element uid "9_9" is not in the latest snapshot of this page.*take_snapshot/)
  assert.equal(s.toServer.filter((m) => m.method === 'tools/call').length, 0)
})

test('--no-include-snapshot leaves it to the agent; --upstream chrome-devtools reads any serverInfo name', async () => {
  const s = await setup(() => ({ content: [{ type: 'text', text: 'ok' }] }), { upstream: 'chrome-devtools', includeSnapshot: false }, { name: 'other', version: '1.11.0' })
  await s.request('tools/list', {})
  const r = await s.call('click', { pageId: 1, uid: '1_3' })
  // The door is on: an unknown uid never reaches the server.
  assert.equal(r.isError, true)
  assert.throws(() => withResponseDiff({ start() {}, send() {} }, { upstream: 'firefox' }), /upstream must be one of playwright, chrome-devtools/)
})

test('another chrome-devtools-mcp version passes through untouched, said once', async () => {
  const s = await setup(() => ({ content: [{ type: 'text', text: snapAnswer(tree(2, ['a'])) }] }), {}, { name: 'chrome_devtools', version: '9.0.0' })
  const r = await s.call('click', { uid: '1_3' })
  assert.equal(s.lastArgs().uid, '1_3')
  assert.equal(s.lastArgs().includeSnapshot, undefined)
  assert.equal(s.text(r), snapAnswer(tree(2, ['a'])))
  assert.match(s.warnings[0], /chrome_devtools 9\.0\.0 is not a version whose answers response-diff reads \(chrome-devtools-mcp 1\.11\.0\)/)
})

// The tests below need the core's chrome-devtools-mcp dialect (carry and
// render of `uid=` text).

/** A scripted page: a list re-rendered with new uids at every action. */
function listServer() {
  const state = { g: 2, rows: ['a', 'b'], clicked: [] }
  const server = (name, args) => {
    if (name === 'click') {
      const known = [...state.rows.map((_, i) => `${state.g}_${i}`), '1_3']
      if (!known.includes(args.uid)) return { content: [{ type: 'text', text: `Element uid "${args.uid}" not found on page 1.` }], isError: true }
      state.clicked.push(args.uid)
      if (args.uid === '1_3') state.rows.push(String.fromCharCode(97 + state.rows.length))
      state.g++
    }
    const t = tree(state.g, state.rows)
    const lead = name === 'click' ? 'Successfully clicked on the element\n' : ''
    if (name === 'take_snapshot' || args.includeSnapshot) return { content: [{ type: 'text', text: snapAnswer(t, lead) }], structuredContent: { snapshot: { id: '1_0' } } }
    return { content: [{ type: 'text', text: lead.trim() }] }
  }
  return { state, server }
}

test('a re-rendered list keeps the agent uids; a click by a carried uid reaches the browser uid; the diff after it is small', async () => {
  const { state, server } = listServer()
  const s = await setup(server)
  await s.request('tools/list', {})
  const first = s.text(await s.call('take_snapshot', { pageId: 1 }))
  assert.match(first, /^## Latest page snapshot\nuid=1_0 RootWebArea/)
  assert.match(first, /uid=2_0 listitem "a"/)
  const after = await s.call('click', { pageId: 1, uid: '1_3' })
  assert.equal(s.lastArgs().includeSnapshot, true)
  assert.match(s.text(after), /^Successfully clicked on the element\n## Latest page snapshot \(patch\)\n/)
  assert.doesNotMatch(s.text(after), /listitem "a"/)
  assert.equal(after.structuredContent.snapshot, undefined)
  // The agent's 2_1 ("b") is the browser's 3_1 now.
  await s.call('click', { pageId: 1, uid: '2_1' })
  assert.equal(state.clicked.at(-1), '3_1')
  const again = s.text(await s.call('take_snapshot', { pageId: 1 }))
  assert.match(again, /No changes/)
})

test('two pages (pageId) keep their own history and uids', async () => {
  const { server } = listServer()
  const s = await setup(server)
  await s.call('take_snapshot', { pageId: 1 })
  const other = s.text(await s.call('take_snapshot', { pageId: 2 }))
  assert.doesNotMatch(other, /No changes/)
  assert.match(s.text(await s.call('take_snapshot', { pageId: 1 })), /listitem|No changes/)
})

test('a snapshot the core cannot read is shown as written under OWN_REFS_NOTE; its uids then pass untranslated', async () => {
  const rd = require('..')
  const bad = 'uid=1_0 RootWebArea "x"\n      uid=1_1 button "over-indented"\n'
  const s = await setup((name) => ({ content: [{ type: 'text', text: name === 'take_snapshot' ? snapAnswer(bad) : 'ok' }] }))
  const r = s.text(await s.call('take_snapshot', { pageId: 1 }))
  assert.equal(r, `## Latest page snapshot\n${rd.OWN_REFS_NOTE}\n${bad}`)
  await s.call('click', { pageId: 1, uid: '1_1' })
  assert.equal(s.lastArgs().uid, '1_1')
})

test('expectation: on the tools that answer with a snapshot, taken off before the server; diffs off gives the full text and moves no history', async () => {
  const { server } = listServer()
  const s = await setup(server)
  const list = (await s.request('tools/list', {})).result.tools
  const props = (n) => list.find((t) => t.name === n).inputSchema.properties
  assert.match(props('take_snapshot').expectation.description, /diffOptions/)
  assert.deepEqual(props('click').expectation, { type: 'object' })
  assert.equal(props('type_text').expectation, undefined)
  await s.call('take_snapshot', { pageId: 1 })
  const full = s.text(await s.call('take_snapshot', { pageId: 1, expectation: { diffOptions: { enabled: false } } }))
  assert.equal(s.lastArgs().expectation, undefined)
  assert.match(full, /^## Latest page snapshot\nuid=1_0 RootWebArea[\s\S]*uid=2_1 listitem "b"/)
  // The agent's history did not move: the next read is still "no changes".
  assert.match(s.text(await s.call('take_snapshot', { pageId: 1 })), /No changes/)
  const bad = await s.call('take_snapshot', { pageId: 1, expectation: { diffOptions: { enabled: 'yes' } } })
  assert.equal(bad.isError, true)
  assert.match(s.text(bad), /diffOptions/)
})
