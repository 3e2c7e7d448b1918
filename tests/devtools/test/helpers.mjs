// What the devtools tests share: pages on 127.0.0.1, an MCP client on
// response-diff-proxy in front of the real chrome-devtools-mcp 1.11.0 (or,
// with RD_PROXY_OFF=1, on chrome-devtools-mcp alone, to see every test
// fail without the proxy), and the agent's view rebuilt from the answers.
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { applySnapshotPatch } from '@x/response-diff'

const require = createRequire(import.meta.url)
export const here = dirname(fileURLToPath(import.meta.url))
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium'
export const PROXY = process.env.RD_PROXY_JS || join(dirname(require.resolve('@x/response-diff/package.json')), 'proxy.js')
export const DEVTOOLS_CLI = join(dirname(require.resolve('chrome-devtools-mcp/package.json')), 'build/src/bin/chrome-devtools-mcp.js')
export const DIRECT = process.env.RD_PROXY_OFF === '1'
export const SITE = join(here, '../../fixtures/site')

/** chrome-devtools-mcp's flags for every test: Debian's chromium, headless, a fresh profile. */
export const DEVTOOLS_FLAGS = ['--executablePath', CHROMIUM, '--headless', '--isolated', '--chromeArg=--no-sandbox', '--no-usage-statistics']

/** Serves `pages` ({ '/path': html }) and the bundled shop (tests/fixtures/site) on 127.0.0.1. */
export async function serve(pages = {}) {
  const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' }
  const server = createServer((req, res) => {
    const p = new URL(req.url, 'http://x').pathname
    let body = pages[p]
    if (body === undefined && p.startsWith('/shop/')) {
      try {
        body = readFileSync(join(SITE, p.slice('/shop/'.length) || 'index.html'))
      } catch {
        // Not there: 404 below.
      }
    }
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': types[extname(p)] ?? types['.html'], 'cache-control': 'no-store' })
    res.end(body ?? 'not found')
  })
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok))
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((ok) => server.close(ok)) }
}

/** Text, error flag and structuredContent of a tool call. */
export async function call(client, name, args = {}) {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 90_000 })
  return {
    text: r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n'),
    isError: Boolean(r.isError),
    structuredContent: r.structuredContent,
  }
}

/**
 * An MCP client on response-diff-proxy (`proxyArgs`) in front of
 * chrome-devtools-mcp (`upstreamArgs` after the usual flags). With
 * RD_PROXY_OFF=1 (or `direct`), on chrome-devtools-mcp alone.
 */
export async function start({ proxyArgs = [], upstreamArgs = [], direct = DIRECT } = {}) {
  const upstream = [process.execPath, DEVTOOLS_CLI, ...DEVTOOLS_FLAGS, ...upstreamArgs]
  const [command, ...args] = direct ? upstream : [process.execPath, PROXY, ...proxyArgs, '--', ...upstream]
  const transport = new StdioClientTransport({ command, args, stderr: 'pipe' })
  let log = ''
  transport.stderr?.on('data', (d) => {
    log += d
  })
  const client = new Client({ name: 'response-diff-devtools-test', version: '1.0.0' })
  try {
    await client.connect(transport)
  } catch (e) {
    e.message += `\n${log}`
    throw e
  }
  return { client, log: () => log, close: () => client.close().catch(() => {}) }
}

/** The id of the selected page, from a `## Pages` list. */
export function selectedPage(text) {
  const m = /^(\d+): .* \[selected\]/m.exec(text)
  if (!m) throw new Error(`no selected page in:\n${text}`)
  return Number(m[1])
}

/** The `## Latest page snapshot…` section of an answer: { heading, body }, or null. */
export function snapshotOf(text) {
  const m = /^## (Latest page snapshot[^\n]*)\n/m.exec(text)
  if (!m) return null
  const rest = text.slice(m.index + m[0].length)
  const end = rest.indexOf('\n\n')
  return { heading: m[1], body: (end < 0 ? rest : rest.slice(0, end)).replace(/\n$/, '') }
}

/**
 * The agent's view of a page, rebuilt from the answers it was given: a
 * full snapshot replaces it, a patch applies to it, "No changes" keeps it.
 */
export class View {
  constructor() {
    this.text = null
    this.seen = []
  }

  /** Takes in an answer; returns how it was read. */
  read(answer) {
    const s = snapshotOf(answer)
    if (!s) throw new Error(`no "## Latest page snapshot" section in:\n${answer}`)
    let how
    if (s.heading.startsWith('Latest page snapshot (patch')) {
      if (this.text === null) throw new Error('a patch with no view to apply it to')
      this.text = applySnapshotPatch(this.text, `${s.body}\n`, this.seen)
      how = 'patch'
    } else if (/^No changes since/.test(s.body)) {
      if (this.text === null) throw new Error('"No changes" with no view')
      how = 'unchanged'
    } else if (s.heading === 'Latest page snapshot' && s.body.startsWith('uid=')) {
      this.text = `${s.body}\n`
      how = 'full'
    } else {
      throw new Error(`an answer this test does not read: ${s.heading}\n${s.body}`)
    }
    this.seen.push(this.text)
    return how
  }

  /** The uid on the first line matching `re`, or throws. */
  uid(re) {
    const line = (this.text ?? '').split('\n').find((l) => re.test(l))
    const m = line && /^\s*uid=(\S+)/.exec(line)
    if (!m) throw new Error(`no uid for ${re} in the view:\n${this.text}`)
    return m[1]
  }
}
