// withResponseDiff on the transport of a server made by
// chrome-devtools-mcp's createMcpServer(), in this process, over the SDK's
// in-memory transport, on a Chromium this test starts (so it owns and
// stops it). With RD_PROXY_OFF=1 the transports are not wrapped, and the
// tests fail.
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { createMcpServer } from 'chrome-devtools-mcp'
import { ConfigParser } from 'chrome-devtools-mcp/build/src/config/ConfigParser.js'
import { ResponseDiffDetector } from '@x/response-diff'
import { withResponseDiff } from '@x/response-diff/mcp'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'

import { CHROMIUM, DIRECT, View, call, selectedPage, serve } from './helpers.mjs'
import { LIST } from './pages.mjs'

let site
let chrome
let profile
let wsEndpoint
before(async () => {
  site = await serve({ '/list': LIST })
  profile = mkdtempSync(join(tmpdir(), 'rd-devtools-'))
  chrome = spawn(CHROMIUM, ['--headless', '--no-sandbox', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] })
  wsEndpoint = await new Promise((ok, fail) => {
    let err = ''
    chrome.stderr.on('data', (d) => {
      err += d
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err)
      if (m) ok(m[1])
    })
    chrome.on('exit', (code) => fail(new Error(`chromium exited (${code}): ${err}`)))
  })
})
after(async () => {
  chrome?.kill()
  await site?.close()
  rmSync(profile, { recursive: true, force: true })
})

/** A client on a createMcpServer() server, its transport wrapped (unless RD_PROXY_OFF=1 or `wrapped` false). */
async function connect(wrapped = true, options = {}) {
  const args = new ConfigParser('1.11.0', ['node', 'chrome-devtools-mcp', '--wsEndpoint', wsEndpoint, '--no-usage-statistics'], {}, false).parse()
  const { server } = await createMcpServer(args, {})
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(wrapped && !DIRECT ? withResponseDiff(serverSide, options) : serverSide)
  const client = new Client({ name: 'in-process', version: '1.0.0' })
  await client.connect(clientSide)
  return { client, close: () => client.close() }
}

test('withResponseDiff on createMcpServer(): carried uids, a patch after a click', async () => {
  const s = await connect()
  try {
    const pageId = selectedPage((await call(s.client, 'new_page', { url: `${site.origin}/list` })).text)
    const view = new View()
    assert.equal(view.read((await call(s.client, 'take_snapshot', { pageId })).text), 'full')
    const row0 = view.uid(/button "Row 0"/)
    assert.equal(view.read((await call(s.client, 'click', { pageId, uid: view.uid(/button "Add"/) })).text), 'patch')
    assert.equal(view.uid(/button "Row 0"/), row0)
    await call(s.client, 'close_page', { pageId })
  } finally {
    await s.close()
  }
})

test('two clients given one detector keep their histories apart', async () => {
  const detector = new ResponseDiffDetector()
  const a = await connect(true, { detector })
  const b = await connect(true, { detector })
  try {
    const pa = selectedPage((await call(a.client, 'new_page', { url: `${site.origin}/list` })).text)
    const pb = selectedPage((await call(b.client, 'new_page', { url: `${site.origin}/list` })).text)
    const va = new View()
    const vb = new View()
    assert.equal(va.read((await call(a.client, 'take_snapshot', { pageId: pa })).text), 'full')
    // B has seen nothing: its page is new to it.
    assert.equal(vb.read((await call(b.client, 'take_snapshot', { pageId: pb })).text), 'full')
    assert.equal(vb.read((await call(b.client, 'click', { pageId: pb, uid: vb.uid(/button "Add"/) })).text), 'patch')
    assert.equal(va.read((await call(a.client, 'take_snapshot', { pageId: pa })).text), 'unchanged')
    assert.doesNotMatch(va.text, /Row 2/)
    await call(a.client, 'close_page', { pageId: pa })
    await call(b.client, 'close_page', { pageId: pb })
  } finally {
    await a.close()
    await b.close()
  }
})

test("the served catalog stays within 10 % of chrome-devtools-mcp's own tokens", async () => {
  const plain = await connect(false)
  const wrapped = await connect(true)
  try {
    const own = (await plain.client.listTools()).tools
    const served = (await wrapped.client.listTools()).tools
    assert.deepEqual(served.map((t) => t.name), own.map((t) => t.name))
    assert.match(served.find((t) => t.name === 'click').inputSchema.properties.includeSnapshot.description, /Default is true\./)
    const ratio = countTokens(JSON.stringify(served)) / countTokens(JSON.stringify(own))
    process.stderr.write(`catalog: ${countTokens(JSON.stringify(own))} → ${countTokens(JSON.stringify(served))} o200k tokens (${ratio.toFixed(3)}×)\n`)
    assert.ok(ratio <= 1.1, `the catalog costs ${ratio.toFixed(3)}× chrome-devtools-mcp's own`)
  } finally {
    await plain.close()
    await wrapped.close()
  }
})
