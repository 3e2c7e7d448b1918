// The unpacked server binary answers tools/list to the official MCP client
// over stdio, as an MCP host would start it (make dist-test).
// Usage: node tools-list.mjs /path/to/response-diff
import assert from 'node:assert/strict'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

const bin = process.argv[2]
assert.ok(bin, 'usage: node tools-list.mjs /path/to/response-diff')
const transport = new StdioClientTransport({ command: bin, args: ['mcp'], stderr: 'pipe' })
let log = ''
transport.stderr?.on('data', (d) => {
  log += d
})
const client = new Client({ name: 'response-diff-dist-test', version: '1.0.0' })
try {
  await client.connect(transport)
  const { tools } = await client.listTools()
  const names = tools.map((t) => t.name)
  for (const want of ['browser_navigate', 'browser_snapshot', 'browser_click', 'browser_get_dom_fingerprint']) {
    assert.ok(names.includes(want), `tools/list lacks ${want}: ${names.join(', ')}`)
  }
  console.log(`tools/list: ${names.length} tools (${names.join(', ')})`)
} catch (e) {
  console.error(`the server's stderr:\n${log}`)
  throw e
} finally {
  await client.close()
}
