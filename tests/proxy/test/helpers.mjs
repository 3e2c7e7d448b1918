// What the proxy tests share: pages on 127.0.0.1, an MCP client on
// response-diff-proxy in front of the real @playwright/mcp (or, with
// RD_PROXY_OFF=1, on @playwright/mcp alone, to see every test fail without
// the proxy), and the agent's view rebuilt from the answers.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { applySnapshotPatch } from '@x/response-diff'

const require = createRequire(import.meta.url)
export const here = dirname(fileURLToPath(import.meta.url))
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium'
export const PROXY = process.env.RD_PROXY_JS || join(dirname(require.resolve('@x/response-diff/package.json')), 'proxy.js')
export const PLAYWRIGHT_CLI = join(dirname(require.resolve('@playwright/mcp/package.json')), 'cli.js')
export const DIRECT = process.env.RD_PROXY_OFF === '1'

/** The @playwright/mcp command line every test runs (headless, isolated, Debian's chromium). */
export function playwrightCommand(outputDir, extra = []) {
  return [process.execPath, PLAYWRIGHT_CLI, '--headless', '--isolated', '--no-sandbox', '--executable-path', CHROMIUM, '--output-dir', outputDir, ...extra]
}

/** Serves `pages` ({ '/path': html }) on 127.0.0.1. */
export async function serve(pages) {
  const server = createServer((req, res) => {
    if (req.url === '/favicon.ico') {
      res.writeHead(204)
      res.end()
      return
    }
    const html = pages[new URL(req.url, 'http://x').pathname]
    res.writeHead(html === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    res.end(html ?? 'not found')
  })
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok))
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((ok) => server.close(ok)) }
}

/** Text and error flag of a tool call. */
export async function call(client, name, args = {}) {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })
  return {
    text: r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n'),
    isError: Boolean(r.isError),
    content: r.content,
  }
}

/**
 * An MCP client on response-diff-proxy in front of @playwright/mcp
 * (`proxyArgs` before `--`, `upstreamArgs` after Playwright's flags), run
 * in a fresh directory. With RD_PROXY_OFF=1, on @playwright/mcp alone.
 */
export async function startProxy({ proxyArgs = [], upstreamArgs = [], upstream = null } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'rd-proxy-test-'))
  const upstreamCmd = upstream ?? playwrightCommand(join(dir, 'out'), upstreamArgs)
  const [command, ...args] = DIRECT ? upstreamCmd : [process.execPath, PROXY, ...proxyArgs, '--', ...upstreamCmd]
  const transport = new StdioClientTransport({ command, args, cwd: dir, stderr: 'pipe', env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } })
  let log = ''
  transport.stderr?.on('data', (d) => {
    log += d
  })
  const client = new Client({ name: 'response-diff-proxy-test', version: '1.0.0' })
  const close = async () => {
    await client.close().catch(() => {})
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await client.connect(transport)
  } catch (e) {
    await close()
    e.log = log
    throw e
  }
  return { client, transport, dir, log: () => log, close }
}

/** The sections of an answer: [{ heading, body }]. */
export function sections(text) {
  return text
    .split(/^(?=### )/m)
    .filter((s) => s.startsWith('### '))
    .map((s) => {
      const nl = s.indexOf('\n')
      return { heading: s.slice(4, nl < 0 ? s.length : nl), body: nl < 0 ? '' : s.slice(nl + 1).replace(/\n+$/, '') }
    })
}

/** The content of the one fenced block in `body`, or null. */
export function fenced(body) {
  const m = /^(`{3,})[a-z]*\n([\s\S]*?)\n?\1$/m.exec(body)
  return m ? m[2] : null
}

/**
 * The agent's view of the page, rebuilt from the answers it was given, as
 * an agent would: a full snapshot replaces it, a patch applies to it, "No
 * changes" keeps it. An answer with no `### Page snapshot…` section
 * (@playwright/mcp's own link) cannot be read this way and throws.
 */
export class View {
  constructor() {
    this.text = null
    this.seen = []
  }

  /** Takes in an answer; returns how it was read. */
  read(answer) {
    const s = sections(answer).find((x) => x.heading.startsWith('Page snapshot'))
    if (!s) throw new Error(`no "### Page snapshot" section in:\n${answer}`)
    let how
    if (s.heading.startsWith('Page snapshot (patch')) {
      if (this.text === null) throw new Error('a patch with no view to apply it to')
      this.text = applySnapshotPatch(this.text, fenced(s.body), this.seen)
      how = 'patch'
    } else if (/^No changes since/.test(s.body)) {
      if (this.text === null) throw new Error('"No changes" with no view')
      how = 'unchanged'
    } else if (s.heading === 'Page snapshot' && fenced(s.body) !== null) {
      this.text = fenced(s.body)
      how = 'full'
    } else {
      throw new Error(`an answer this test does not read: ${s.heading}\n${s.body}`)
    }
    this.seen.push(this.text)
    return how
  }

  /** The ref on the first line matching `re`, or throws. */
  ref(re) {
    const line = (this.text ?? '').split('\n').find((l) => re.test(l))
    const m = line && /\[ref=([^\]]+)\]/.exec(line)
    if (!m) throw new Error(`no ref for ${re} in the view:\n${this.text}`)
    return m[1]
  }
}

/** Playwright's own text of a full snapshot, with the carried refs (diff off). */
export async function peek(client) {
  const r = await call(client, 'browser_snapshot', DIRECT ? {} : { expectation: { diffOptions: { enabled: false } } })
  const s = sections(r.text).find((x) => x.heading === 'Snapshot')
  if (!s) throw new Error(`no "### Snapshot" section in:\n${r.text}`)
  const inline = fenced(s.body)
  if (inline !== null) return inline
  throw new Error(`the full snapshot is not inline:\n${r.text}`)
}

export { readFileSync }
