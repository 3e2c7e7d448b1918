// withResponseDiff on the transport of a server made by @playwright/mcp's
// createConnection(), in this process: over the SDK's in-memory transport,
// and two clients of one HTTP server (a server and a wrapper per session).
// With RD_PROXY_OFF=1 the transports are not wrapped, and the tests fail.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { createConnection } from '@playwright/mcp'
import { chromium } from 'playwright-core'
import { EXPECTATION_DESCRIPTION, withResponseDiff } from '@x/response-diff/mcp'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'

import { CHROMIUM, DIRECT, View, call, serve } from './helpers.mjs'

const PAGE = `<!doctype html><title>Counter</title>
<h1>Counter</h1>
<ul id="list"></ul>
<button id="add">Add</button>
<script>
let n = 1
function render() {
  const ul = document.getElementById('list')
  ul.replaceChildren(...Array.from({ length: n }, (_, i) => Object.assign(document.createElement('li'), { textContent: 'Row ' + i })))
}
document.getElementById('add').onclick = () => { n++; render() }
render()
</script>`

// The wrapper reads snapshot files only inside the server's output directory.
const wrap = (t, outputDir, options = {}) => (DIRECT ? t : withResponseDiff(t, { outputDir, ...options }))

let site
let dir
let browser
before(async () => {
  site = await serve({ '/': PAGE })
  dir = mkdtempSync(join(tmpdir(), 'rd-inprocess-'))
  // createConnection() leaves a browser it launched running after the
  // server closes; with a context getter the host owns the browser.
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, chromiumSandbox: false })
})
after(async () => {
  await browser?.close()
  await site?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A @playwright/mcp server on its own context of the shared browser, and its output directory. */
async function connection() {
  const outputDir = join(dir, randomUUID())
  return { server: await createConnection({ outputDir }, () => browser.newContext()), outputDir }
}

async function inMemory(wrapped, options) {
  const { server, outputDir } = await connection()
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(wrapped ? wrap(serverSide, outputDir, options) : serverSide)
  const client = new Client({ name: 'in-process', version: '1.0.0' })
  await client.connect(clientSide)
  return {
    client,
    close: async () => {
      await client.close()
      await server.close()
    },
  }
}

test('withResponseDiff on createConnection(): patches, carried refs, the expectation argument', async () => {
  const s = await inMemory(true)
  try {
    const view = new View()
    assert.equal(view.read((await call(s.client, 'browser_navigate', { url: `${site.origin}/` })).text), 'full')
    const add = view.ref(/button "Add"/)
    const r = await call(s.client, 'browser_click', { target: add, element: 'Add', expectation: { includeCode: false } })
    assert.equal(view.read(r.text), 'patch', r.text)
    assert.match(r.text, /^### Page snapshot \(patch\)\n```\n\+ after \[[^\]]+\]:\n {2}- listitem \[ref=[^\]]+\]: Row 1\n~ focus \[[^\]]+\]\n```$/m)
    assert.doesNotMatch(r.text, /Ran Playwright code/)
    // A bad expectation is the core's error, naming the field.
    const bad = await call(s.client, 'browser_snapshot', { expectation: { diffOptions: { threshold: 2 } } })
    assert.equal(bad.isError, true)
    assert.match(bad.text, /expectation\.diffOptions\.threshold/)
  } finally {
    await s.close()
  }
})

test('two wrappers given one detector keep their histories apart', { skip: DIRECT && 'the wrapper itself' }, async () => {
  const { ResponseDiffDetector } = await import('@x/response-diff')
  const detector = new ResponseDiffDetector()
  const a = await inMemory(true, { detector })
  const b = await inMemory(true, { detector })
  try {
    const va = new View()
    const vb = new View()
    assert.equal(va.read((await call(a.client, 'browser_navigate', { url: `${site.origin}/` })).text), 'full')
    // B has seen nothing: the same page, in the same tab position, is new to it.
    assert.equal(vb.read((await call(b.client, 'browser_navigate', { url: `${site.origin}/` })).text), 'full')
    assert.equal(vb.read((await call(b.client, 'browser_click', { target: vb.ref(/button "Add"/), element: 'Add' })).text), 'patch')
    assert.equal(va.read((await call(a.client, 'browser_snapshot')).text), 'unchanged')
    assert.doesNotMatch(va.text, /Row 1/)
  } finally {
    await a.close()
    await b.close()
  }
})

test("the served catalog: expectation on every tool, within 10 % of Playwright's own tokens", async () => {
  const plain = await inMemory(false)
  const wrapped = await inMemory(true)
  try {
    const own = (await plain.client.listTools()).tools
    const served = (await wrapped.client.listTools()).tools
    assert.deepEqual(served.map((t) => t.name), own.map((t) => t.name))
    for (const t of served) assert.ok(t.inputSchema.properties.expectation, `${t.name} takes expectation`)
    assert.equal(served.find((t) => t.name === 'browser_snapshot').inputSchema.properties.expectation.description, EXPECTATION_DESCRIPTION)
    const ratio = countTokens(JSON.stringify(served)) / countTokens(JSON.stringify(own))
    assert.ok(ratio <= 1.1, `the catalog costs ${ratio.toFixed(3)}× Playwright's own`)
  } finally {
    await plain.close()
    await wrapped.close()
  }
})

test('two clients of one HTTP server keep their own history', async () => {
  const sessions = new Map()
  const servers = []
  const http = createServer(async (req, res) => {
    const id = req.headers['mcp-session-id']
    let transport = id ? sessions.get(id) : undefined
    if (!transport) {
      transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sid) => sessions.set(sid, transport) })
      const { server, outputDir } = await connection()
      servers.push(server)
      await server.connect(wrap(transport, outputDir))
    }
    await transport.handleRequest(req, res)
  })
  await new Promise((ok) => http.listen(0, '127.0.0.1', ok))
  const url = new URL(`http://127.0.0.1:${http.address().port}/mcp`)
  const a = new Client({ name: 'a', version: '1.0.0' })
  const b = new Client({ name: 'b', version: '1.0.0' })
  try {
    await a.connect(new StreamableHTTPClientTransport(url))
    await b.connect(new StreamableHTTPClientTransport(url))
    const va = new View()
    const vb = new View()
    assert.equal(va.read((await call(a, 'browser_navigate', { url: `${site.origin}/` })).text), 'full')
    // B has seen nothing yet: the same page is new to it.
    assert.equal(vb.read((await call(b, 'browser_navigate', { url: `${site.origin}/` })).text), 'full')
    assert.equal(vb.read((await call(b, 'browser_click', { target: vb.ref(/button "Add"/), element: 'Add' })).text), 'patch')
    assert.equal(va.read((await call(a, 'browser_snapshot')).text), 'unchanged')
    assert.equal(vb.read((await call(b, 'browser_snapshot')).text), 'unchanged')
    assert.match(vb.text, /Row 1/)
    assert.doesNotMatch(va.text, /Row 1/)
  } finally {
    await a.close()
    await b.close()
    for (const server of servers) await server.close()
    await new Promise((ok) => http.close(ok))
  }
})
