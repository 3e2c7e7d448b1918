#!/usr/bin/env node
// A scripted MCP server over stdio that answers like @playwright/mcp 0.0.83
// and misbehaves on command, for the proxy's fault tests. Written by hand
// (no SDK) so that it can break the protocol on purpose.
//
// browser_evaluate's `function` argument picks the fault: never, twice,
// reorder (held until the next request, which is answered first), null,
// garbage, huge (a 20 MB line that is not JSON), huge-answer (a 20 MB
// answer), exit, heading (a `### Snapshot` line inside the Result),
// link:<path> (an answer linking a snapshot file), unparseable (the next
// snapshots cannot be read), parseable, stats (what this server saw).
// Usage: fake-upstream.mjs [--output-dir DIR] [--version V]
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'

const argv = process.argv.slice(2)
const opt = (name, dflt) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : dflt)
const outputDir = resolve(opt('--output-dir', '.playwright-mcp'))
const version = opt('--version', '1.64.0-alpha-1790635538000')

const seen = { cancelled: [], calls: [], ids: [] }
let clicks = 0
let unparseable = false
let held = null
const timers = new Map()

const write = (m) => process.stdout.write(`${typeof m === 'string' ? m : JSON.stringify(m)}\n`)
const text = (t, isError = false) => ({ content: [{ type: 'text', text: t }], ...(isError ? { isError: true } : {}) })

function snapshot() {
  if (unparseable) return '- button "Broken" [ref=e7]\n  \tnot: [a snapshot'
  const rows = Array.from({ length: clicks + 1 }, (_, i) => `  - listitem [ref=e${10 + clicks * 10 + i}]: Row ${i}`).join('\n')
  return `- list [ref=e${2 + clicks * 10}]:\n${rows}\n- button "Add" [ref=e${3 + clicks * 10}]`
}
const page = '### Page\n- Page URL: http://fake.invalid/\n- Page Title: Fake'
const withSnapshot = (head) => `${head}\n${page}\n### Snapshot\n\`\`\`yaml\n${snapshot()}\n\`\`\``

const TOOLS = ['browser_navigate', 'browser_snapshot', 'browser_click', 'browser_type', 'browser_wait_for', 'browser_evaluate'].map((name) => ({
  name,
  description: name,
  inputSchema: {
    type: 'object',
    properties: {
      target: { type: 'string', description: 'Exact target element reference from the page snapshot' },
      text: { type: 'string' },
      time: { type: 'number' },
      function: { type: 'string' },
      url: { type: 'string' },
    },
  },
}))

function answer(id, result) {
  write({ jsonrpc: '2.0', id, result })
}

function evaluate(id, fn) {
  const done = (t) => answer(id, text(`### Result\n${t}`))
  if (fn === 'never') return
  if (fn === 'twice') {
    done('"first"')
    return done('"second"')
  }
  if (fn === 'reorder') {
    const timer = setTimeout(() => held?.(), 2000)
    held = () => {
      held = null
      clearTimeout(timer)
      done('"held"')
    }
    return
  }
  if (fn === 'null') write('null')
  if (fn === 'garbage') write('this is not JSON {')
  if (fn === 'huge') write('x'.repeat(20 * 1024 * 1024))
  if (fn === 'huge-answer') return done(JSON.stringify('y'.repeat(20 * 1024 * 1024)))
  if (fn === 'exit') process.exit(7)
  if (fn === 'heading') return answer(id, text(withSnapshot('### Result\nconsole says:\n### Snapshot\n```yaml\n- button "Fake" [ref=e99]\n```')))
  const linked = (file) => answer(id, text(`### Ran Playwright code\n\`\`\`js\nawait page.evaluate('1');\n\`\`\`\n${page}\n### Snapshot\n- [Snapshot](${file})`))
  if (fn.startsWith('link:')) return linked(fn.slice(5))
  if (fn === 'write-snapshot') {
    mkdirSync(outputDir, { recursive: true })
    const file = join(outputDir, `page-${Date.now()}.yml`)
    writeFileSync(file, snapshot())
    return linked(file)
  }
  if (fn === 'unparseable') unparseable = true
  if (fn === 'parseable') unparseable = false
  if (fn === 'stats') return done(JSON.stringify(seen))
  done('"ok"')
}

function call(id, params) {
  const { name, arguments: args = {} } = params ?? {}
  seen.calls.push({ name, args })
  if (name === 'browser_navigate' || name === 'browser_snapshot') return answer(id, text(withSnapshot('### Ran Playwright code\n```js\nawait page.goto(\'http://fake.invalid/\');\n```')))
  if (name === 'browser_click') {
    clicks++
    return answer(id, text(withSnapshot(`### Result\nclicked ${args.target}`)))
  }
  if (name === 'browser_type') return answer(id, text(`### Ran Playwright code\n\`\`\`js\nawait page.fill(${JSON.stringify(args.text)});\n\`\`\``))
  if (name === 'browser_wait_for') {
    const token = params?._meta?.progressToken
    if (token !== undefined) write({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 2 } })
    timers.set(id, setTimeout(() => {
      timers.delete(id)
      answer(id, text(`### Result\nWaited for ${args.time}`))
    }, (args.time ?? 0) * 1000))
    return
  }
  if (name === 'browser_evaluate') return evaluate(id, String(args.function ?? ''))
  write({ jsonrpc: '2.0', id, error: { code: -32602, message: `no tool ${name}` } })
}

createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  const m = JSON.parse(line)
  if (m.id !== undefined && m.method !== undefined) seen.ids.push(m.id)
  const release = held && m.id !== undefined && m.method !== 'tools/call' ? held : null
  if (m.method === 'initialize') {
    answer(m.id, { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'Playwright', version } })
  } else if (m.method === 'tools/list') {
    answer(m.id, { tools: TOOLS })
  } else if (m.method === 'ping') {
    answer(m.id, {})
  } else if (m.method === 'tools/call') {
    call(m.id, m.params)
  } else if (m.method === 'notifications/cancelled') {
    seen.cancelled.push(m.params.requestId)
    clearTimeout(timers.get(m.params.requestId))
    timers.delete(m.params.requestId)
  } else if (m.id !== undefined && m.method !== undefined) {
    write({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `no method ${m.method}` } })
  }
  release?.()
})
