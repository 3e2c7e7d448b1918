// mcp/transport.js (withResponseDiff) on an in-memory transport and a
// scripted server: slots end on cancel and on the time limit, ids never
// collide, wrappers on one detector keep apart, unknown versions pass.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const rd = require('..')
const { withResponseDiff } = require('../mcp.js')

const VERSION = '1.64.0-alpha-1790635538000'
const SNAP = '- list [ref=e2]:\n  - listitem [ref=e3]: Row 0\n- button "Add" [ref=e4]'
const answer = (snap = SNAP) => ({
  content: [{ type: 'text', text: `### Page\n- Page URL: http://a.invalid/\n- Page Title: A\n### Snapshot\n\`\`\`yaml\n${snap}\n\`\`\`` }],
})

/** A wrapper on an in-memory transport; `server(message, reply)` plays the MCP server. */
async function setup(options = {}, server = () => {}, version = VERSION) {
  const toClient = []
  const inner = { start: async () => {}, send: async (m) => void toClient.push(m), close: async () => {} }
  const warnings = []
  const w = withResponseDiff(inner, { onWarning: (t) => warnings.push(t), ...options })
  const toServer = []
  w.onmessage = (m) => {
    toServer.push(m)
    server(m, (result) => w.send({ jsonrpc: '2.0', id: m.id, result }))
  }
  await w.start()
  const fromClient = (m) => inner.onmessage({ jsonrpc: '2.0', ...m })
  fromClient({ id: 'init', method: 'initialize', params: {} })
  await w.send({ jsonrpc: '2.0', id: 'init', result: { serverInfo: { name: 'Playwright', version } } })
  const settle = () => new Promise((ok) => setImmediate(ok))
  return { w, inner, toClient, toServer, warnings, fromClient, settle }
}

const call = (id, name, args = {}) => ({ id, method: 'tools/call', params: { name, arguments: args } })
const textOf = (m) => m.result.content[0].text

test('a cancelled call ends its slot; the cancel goes upstream under its own id; the next call goes on', async () => {
  const s = await setup({}, (m, reply) => {
    if (m.method === 'tools/call' && m.params.name === 'browser_snapshot') reply(answer())
  })
  s.fromClient(call(1, 'browser_wait_for', { time: 60 }))
  await s.settle()
  const own = s.toServer.find((m) => m.method === 'tools/call').id
  assert.match(own, /^response-diff\/[0-9a-f]{12}\/1$/)
  s.fromClient({ method: 'notifications/cancelled', params: { requestId: 1 } })
  s.fromClient(call(2, 'browser_snapshot'))
  for (let i = 0; i < 5; i++) await s.settle()
  assert.deepEqual(s.toServer.find((m) => m.method === 'notifications/cancelled').params.requestId, own)
  assert.deepEqual(s.toClient.map((m) => m.id), ['init', 2])
  // A late answer to the cancelled call is dropped.
  await s.w.send({ jsonrpc: '2.0', id: own, result: answer() })
  assert.deepEqual(s.toClient.map((m) => m.id), ['init', 2])
})

test('a cancelled call still waiting behind another never reaches the server; progress maps to the client id', async () => {
  const sent = []
  const s = await setup({}, (m) => sent.push(m))
  s.fromClient({ ...call(1, 'browser_wait_for', { time: 60 }), params: { name: 'browser_wait_for', arguments: { time: 60 }, _meta: { progressToken: 'p' } } })
  s.fromClient(call(2, 'browser_click', { target: 'e1' }))
  await s.settle()
  s.fromClient({ method: 'notifications/cancelled', params: { requestId: 2 } })
  const own = sent.find((m) => m.method === 'tools/call').id
  assert.equal(sent.find((m) => m.method === 'tools/call').params._meta.progressToken, 'p')
  const seen = []
  s.inner.send = async (m, o) => void seen.push([m, o])
  await s.w.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } }, { relatedRequestId: own })
  assert.equal(seen[0][1].relatedRequestId, 1)
  await s.w.send({ jsonrpc: '2.0', id: own, result: { content: [{ type: 'text', text: '### Result\nok' }] } })
  for (let i = 0; i < 5; i++) await s.settle()
  assert.deepEqual(sent.filter((m) => m.method === 'tools/call').map((m) => m.params.name), ['browser_wait_for'])
  assert.deepEqual(seen.slice(1).map(([m]) => m.id), [1])
})

test('past callTimeoutMs the client gets an error naming the tool and the limit', async () => {
  const s = await setup({ callTimeoutMs: 30 })
  s.fromClient(call(1, 'browser_wait_for', { time: 60 }))
  while (s.toClient.length < 2) await new Promise((ok) => setTimeout(ok, 10))
  assert.equal(s.toClient[1].id, 1)
  assert.equal(s.toClient[1].error.code, -32001)
  assert.match(s.toClient[1].error.message, /browser_wait_for within 30 ms \(callTimeoutMs\)/)
  assert.equal(s.toServer.at(-1).method, 'notifications/cancelled')
  assert.throws(() => withResponseDiff(s.inner, { callTimeoutMs: 0 }), /callTimeoutMs must be a positive number/)
})

test('two wrappers on one detector keep their histories apart', async () => {
  const detector = new rd.ResponseDiffDetector()
  const serve = (m, reply) => m.method === 'tools/call' && reply(answer())
  const a = await setup({ detector }, serve)
  const b = await setup({ detector }, serve)
  for (const s of [a, b]) {
    s.fromClient(call(1, 'browser_navigate', { url: 'http://a.invalid/' }))
    for (let i = 0; i < 5; i++) await s.settle()
    assert.match(textOf(s.toClient[1]), /^### Page\n[\s\S]*### Page snapshot\n```yaml\n/)
  }
})

test('an upstream version whose layout is not known passes through, said once', async () => {
  const s = await setup({}, (m, reply) => m.method === 'tools/call' && reply(answer()), '9.9.9')
  s.fromClient(call(1, 'browser_navigate', { url: 'http://a.invalid/', expectation: { includeCode: false } }))
  s.fromClient(call(2, 'browser_snapshot'))
  for (let i = 0; i < 5; i++) await s.settle()
  assert.equal(textOf(s.toClient[1]), answer().content[0].text)
  assert.deepEqual(s.toServer.filter((m) => m.method === 'tools/call').map((m) => m.id), [1, 2])
  assert.equal(s.toServer[1].params.arguments.expectation, undefined)
  assert.equal(s.warnings.length, 1)
  assert.match(s.warnings[0], /Playwright 9\.9\.9 is not a version whose answers response-diff reads \(1\.64\.0-alpha-1790635538000/)
})

test('a snapshot the core cannot read: refs are then passed as they are, until one is carried', async () => {
  let snap = SNAP
  const s = await setup({}, (m, reply) => m.method === 'tools/call' && reply(answer(snap)))
  const run = async (id, name, args) => {
    s.fromClient(call(id, name, args))
    for (let i = 0; i < 5; i++) await s.settle()
    return textOf(s.toClient.find((m) => m.id === id))
  }
  await run(1, 'browser_navigate', { url: 'http://a.invalid/' })
  snap = '- button "Broken" [ref=e9]\n  - child'
  assert.match(await run(2, 'browser_snapshot'), /its refs are the page's own/)
  await run(3, 'browser_click', { target: 'e4' })
  assert.equal(s.toServer.filter((m) => m.params?.name === 'browser_click').at(-1).params.arguments.target, 'e4')
  assert.match(s.warnings.join('\n'), /could not read a snapshot/)
})

test('unknown options are refused', () => {
  const inner = { start: async () => {}, send: async () => {} }
  assert.throws(() => withResponseDiff(inner, { colour: 1 }), /unknown option `colour`/)
})
