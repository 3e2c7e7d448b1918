// response-diff-proxy in front of the real @playwright/mcp 0.0.83, on
// Debian's chromium, pages on 127.0.0.1, through the official MCP client.
// With RD_PROXY_OFF=1 the same tests run against @playwright/mcp alone and
// fail: they read the proxy's answers (inline patches, carried refs).
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, test } from 'node:test'

import { DIRECT, PROXY, View, call, fenced, peek, playwrightCommand, sections, serve, startProxy } from './helpers.mjs'

// A list a framework re-renders: every change rebuilds every node, so
// Playwright gives every element a new ref each time.
const LIST = `<!doctype html><title>Todo</title>
<h1>Todo</h1>
<ul id="list"></ul>
<button id="add">Add</button>
<button id="hello" onclick="alert('Hello from the page')">Say hello</button>
<p id="status">Nothing clicked</p>
<script>
const items = ['Alpha', 'Beta']
function render() {
  const ul = document.getElementById('list')
  ul.replaceChildren()
  for (const name of items) {
    const li = document.createElement('li')
    const open = document.createElement('button')
    open.textContent = name
    open.onclick = () => { document.getElementById('status').textContent = 'Clicked ' + name; render() }
    const remove = document.createElement('button')
    remove.textContent = 'Remove ' + name
    remove.onclick = () => { items.splice(items.indexOf(name), 1); render() }
    li.append(open, remove)
    ul.append(li)
  }
}
document.getElementById('add').onclick = () => { items.push('Item ' + items.length); render() }
render()
</script>`
const OTHER = `<!doctype html><title>Other</title><h1>Other page</h1><p>Second tab</p><button>Only here</button>`
// A frame whose list is rebuilt on every click, like LIST.
const FRAME = `<!doctype html><title>Frame</title><h1>Outer</h1>
<iframe title="inner" srcdoc="<ul id=l></ul><button id=b>More</button><script>let n=1;function r(){const l=document.getElementById('l');l.replaceChildren();for(let i=0;i<n;i++){const li=document.createElement('li');const b=document.createElement('button');b.textContent='Row '+i;b.onclick=()=>{document.title='picked '+i;li.append(' picked')};li.append(b);l.append(li)}}document.getElementById('b').onclick=()=>{n++;r()};r()</script>"></iframe>`

let site
before(async () => {
  site = await serve({ '/list': LIST, '/other': OTHER, '/frame': FRAME })
})
after(async () => {
  await site?.close()
})

test('a re-rendered list keeps its refs, and a click by a carried ref acts on the right element', async () => {
  const p = await startProxy()
  try {
    const view = new View()
    assert.equal(view.read((await call(p.client, 'browser_navigate', { url: `${site.origin}/list` })).text), 'full')
    const beta = view.ref(/button "Beta"/)
    const alpha = view.ref(/button "Alpha"/)
    // Every node is rebuilt: the answer is a patch that adds one item and
    // leaves Alpha and Beta, under the refs the agent knows, alone.
    const added = await call(p.client, 'browser_click', { target: view.ref(/button "Add"/), element: 'Add' })
    assert.equal(view.read(added.text), 'patch', added.text)
    assert.doesNotMatch(added.text, /Alpha|Beta/)
    assert.equal(view.ref(/button "Beta"/), beta)
    assert.equal(view.ref(/button "Alpha"/), alpha)
    // The truth, Playwright's own text with diffs off, is the view the agent rebuilt.
    assert.equal(await peek(p.client), view.text)
    const clicked = await call(p.client, 'browser_click', { target: beta, element: 'Beta' })
    assert.equal(clicked.isError, false, clicked.text)
    view.read(clicked.text)
    assert.match(view.text, /paragraph \[ref=[^\]]+\]: Clicked Beta/)
    assert.equal(view.ref(/button "Alpha"/), alpha)
  } finally {
    await p.close()
  }
})

test('refs inside a frame (f1e2) are carried and act in the frame', async () => {
  const p = await startProxy()
  try {
    const view = new View()
    view.read((await call(p.client, 'browser_navigate', { url: `${site.origin}/frame` })).text)
    const row = view.ref(/button "Row 0"/)
    assert.match(row, /^f\d+e\d+$/)
    const more = await call(p.client, 'browser_click', { target: view.ref(/button "More"/), element: 'More' })
    assert.equal(view.read(more.text), 'patch', more.text)
    // Row 0 was rebuilt in the frame: it keeps the ref the agent knows.
    assert.equal(view.ref(/button "Row 0"/), row)
    const picked = await call(p.client, 'browser_click', { target: row, element: 'Row 0' })
    assert.equal(picked.isError, false, picked.text)
    view.read(picked.text)
    // The click acted on Row 0 inside the frame.
    assert.match(view.text, /- button "Row 0" [^\n]*\[ref=f\d+e\d+\]\n\s+- text: picked/)
  } finally {
    await p.close()
  }
})

test('a stale ref is retried after a fresh snapshot; a gone ref is an error naming it', async () => {
  const p = await startProxy()
  try {
    const view = new View()
    view.read((await call(p.client, 'browser_navigate', { url: `${site.origin}/list` })).text)
    view.read((await call(p.client, 'browser_click', { target: view.ref(/button "Add"/), element: 'Add' })).text)
    const alpha = view.ref(/button "Alpha"/)
    // A snapshot of one element replaces Playwright's ref map: Alpha's ref
    // is unknown to Playwright until the page is read again.
    const part = await call(p.client, 'browser_snapshot', { target: view.ref(/button "Add"/) })
    assert.equal(part.isError, false, part.text)
    const clicked = await call(p.client, 'browser_click', { target: alpha, element: 'Alpha' })
    assert.equal(clicked.isError, false, clicked.text)
    view.read(clicked.text)
    assert.match(view.text, /Clicked Alpha/)
    const removed = await call(p.client, 'browser_click', { target: view.ref(/button "Remove Alpha"/), element: 'Remove Alpha' })
    view.read(removed.text)
    assert.doesNotMatch(view.text, /"Alpha"/)
    const gone = await call(p.client, 'browser_click', { target: alpha, element: 'Alpha' })
    assert.equal(gone.isError, true)
    assert.equal(gone.text, `### Error\nError: Ref ${alpha} not found in the current page snapshot. Try capturing new snapshot.`)
  } finally {
    await p.close()
  }
})

test("an action's snapshot link becomes an inline patch; an unchanged read is one line; diffs off give Playwright's text", async () => {
  const p = await startProxy()
  try {
    const view = new View()
    const nav = await call(p.client, 'browser_navigate', { url: `${site.origin}/list` })
    assert.doesNotMatch(nav.text, /\[Snapshot\]\(/)
    // Playwright's other sections pass through as it wrote them.
    assert.match(nav.text, /^### Ran Playwright code\n```js\nawait page\.goto\('http:\/\/127\.0\.0\.1:\d+\/list'\);\n```\n### Page\n- Page URL: http:\/\/127\.0\.0\.1:\d+\/list\n- Page Title: Todo\n### Page snapshot\n```yaml\n/)
    view.read(nav.text)
    const added = await call(p.client, 'browser_click', { target: view.ref(/button "Add"/), element: 'Add' })
    assert.doesNotMatch(added.text, /\[Snapshot\]\(/)
    assert.match(added.text, /^### Ran Playwright code\n```js\nawait page\.getByRole\('button', \{ name: 'Add' \}\)\.click\(\);\n```\n### Page snapshot \(patch\)\n/)
    // The page is the one the agent was shown: not repeated.
    assert.doesNotMatch(added.text, /^### Page$/m)
    view.read(added.text)
    const full = await call(p.client, 'browser_snapshot', { expectation: { diffOptions: { enabled: false } } })
    assert.match(full.text, /^### Page\n[\s\S]*\n### Snapshot\n```yaml\n- generic/)
    assert.equal(fenced(sections(full.text).find((s) => s.heading === 'Snapshot').body), view.text)
    // The peek with diffs off did not move the chain.
    const again = await call(p.client, 'browser_snapshot')
    const snap = sections(again.text).find((s) => s.heading === 'Page snapshot')
    assert.match(snap.body, /^No changes since the previous response \(\d+ lines\)\.$/)
    // includeCode: false leaves Playwright's code section out.
    const quiet = await call(p.client, 'browser_click', { target: view.ref(/button "Beta"/), element: 'Beta', expectation: { includeCode: false } })
    assert.doesNotMatch(quiet.text, /Ran Playwright code/)
    view.read(quiet.text)
    assert.match(view.text, /Clicked Beta/)
    // A screenshot passes through: its image and Playwright's text.
    const shot = await call(p.client, 'browser_take_screenshot')
    assert.equal(shot.content.filter((c) => c.type === 'image').length, 1)
    assert.match(shot.text, /^### Result\n- \[Screenshot of viewport\]/)
  } finally {
    await p.close()
  }
})

test('two tabs keep their own history, and the tab switches are followed', async () => {
  const p = await startProxy()
  try {
    const first = new View()
    const second = new View()
    first.read((await call(p.client, 'browser_navigate', { url: `${site.origin}/list` })).text)
    await call(p.client, 'browser_tabs', { action: 'new' })
    const nav = await call(p.client, 'browser_navigate', { url: `${site.origin}/other` })
    assert.equal(second.read(nav.text), 'full')
    await call(p.client, 'browser_tabs', { action: 'select', index: 0 })
    assert.equal(first.read((await call(p.client, 'browser_snapshot')).text), 'unchanged')
    const added = await call(p.client, 'browser_click', { target: first.ref(/button "Add"/), element: 'Add' })
    assert.equal(first.read(added.text), 'patch')
    await call(p.client, 'browser_tabs', { action: 'select', index: 1 })
    assert.equal(second.read((await call(p.client, 'browser_snapshot')).text), 'unchanged')
    assert.equal(second.ref(/button "Only here"/), second.ref(/button "Only here"/))
    await call(p.client, 'browser_tabs', { action: 'close', index: 1 })
    assert.equal(first.read((await call(p.client, 'browser_snapshot')).text), 'unchanged')
  } finally {
    await p.close()
  }
})

test("a dialog's modal state passes through and browser_handle_dialog answers it", async () => {
  const p = await startProxy()
  try {
    const view = new View()
    view.read((await call(p.client, 'browser_navigate', { url: `${site.origin}/list` })).text)
    const opened = await call(p.client, 'browser_click', { target: view.ref(/button "Say hello"/), element: 'Say hello' })
    assert.match(opened.text, /^### Modal state\n- \["alert" dialog with message "Hello from the page"\]: can be handled by browser_handle_dialog$/m)
    const refused = await call(p.client, 'browser_click', { target: view.ref(/button "Add"/), element: 'Add' })
    assert.equal(refused.isError, true)
    assert.match(refused.text, /does not handle the modal state/)
    const answered = await call(p.client, 'browser_handle_dialog', { accept: true })
    assert.equal(answered.isError, false, answered.text)
    // The page the agent saw before the dialog is still its view: what
    // changed since (the focus) comes as a patch against it.
    assert.notEqual(view.read((await call(p.client, 'browser_snapshot')).text), 'full')
    assert.equal(await peek(p.client), view.text)
  } finally {
    await p.close()
  }
})

test('a cancelled call is followed by an answered call; calls sent at once are all answered', async () => {
  const p = await startProxy()
  try {
    await call(p.client, 'browser_navigate', { url: `${site.origin}/list` })
    const stop = new AbortController()
    const waiting = p.client.callTool({ name: 'browser_wait_for', arguments: { time: 4 } }, undefined, { signal: stop.signal, timeout: 60_000 })
    setTimeout(() => stop.abort('Stop'), 300)
    await assert.rejects(waiting)
    // Answered within 5 s (the SDK's timeout): the cancelled call holds nothing up.
    const next = await p.client.callTool({ name: 'browser_snapshot', arguments: {} }, undefined, { timeout: 5_000 })
    assert.equal(Boolean(next.isError), false)
    const at = await Promise.all(Array.from({ length: 10 }, (_, i) => call(p.client, i % 2 ? 'browser_snapshot' : 'browser_tabs', i % 2 ? {} : { action: 'list' })))
    assert.equal(at.length, 10)
    for (const r of at) assert.equal(r.isError, false, r.text)
  } finally {
    await p.close()
  }
})

test('an upstream that crashes mid-session gives an error naming it, not a hang', async () => {
  const p = await startProxy()
  try {
    await call(p.client, 'browser_navigate', { url: `${site.origin}/list` })
    const children = readFileSync(`/proc/${p.transport.pid}/task/${p.transport.pid}/children`, 'utf8').trim().split(/\s+/).map(Number)
    assert.ok(children.length >= 1, 'the proxy runs its upstream as a child')
    for (const pid of children) process.kill(pid, 'SIGKILL')
    await assert.rejects(call(p.client, 'browser_snapshot'), (e) => {
      assert.match(e.message, /the upstream MCP server `.*@playwright\/mcp\/cli\.js --headless.*` was killed by SIGKILL/)
      return true
    })
    // And every later call too.
    await assert.rejects(call(p.client, 'browser_snapshot'), /was killed by SIGKILL/)
  } finally {
    await p.close()
  }
})

test('an upstream that cannot start gives an error naming the command', async () => {
  await assert.rejects(startProxy({ upstream: ['/nonexistent/playwright-mcp', '--headless'] }), (e) => {
    assert.match(e.message, /the upstream MCP server `\/nonexistent\/playwright-mcp --headless` could not start: spawn \/nonexistent\/playwright-mcp ENOENT/)
    return true
  })
  await assert.rejects(startProxy({ upstream: [process.execPath, '-e', 'console.error("no such package"); process.exit(3)'] }), (e) => {
    assert.match(e.message, /exited with status 3; its stderr ended with:\nno such package/)
    return true
  })
})

test('with --snapshot-mode none the proxy passes everything through untouched', { skip: DIRECT && 'compares the proxy with Playwright alone' }, async () => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js')
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js')
  const proxied = await startProxy({ upstreamArgs: ['--snapshot-mode', 'none'] })
  const direct = new Client({ name: 'direct', version: '1.0.0' })
  const [cmd, ...args] = playwrightCommand(`${proxied.dir}/direct-out`, ['--snapshot-mode', 'none'])
  await direct.connect(new StdioClientTransport({ command: cmd, args, cwd: proxied.dir, stderr: 'pipe' }))
  try {
    assert.deepEqual((await proxied.client.listTools()).tools, (await direct.listTools()).tools)
    for (const [name, a] of [
      ['browser_navigate', { url: `${site.origin}/list` }],
      ['browser_snapshot', {}],
      ['browser_click', { target: 'e3', element: 'Add' }],
      ['browser_snapshot', {}],
    ]) {
      // Only the names of the two servers' log files differ.
      const log = (t) => t.replace(/\S*console-[\dTZ-]+\.log/g, 'console.log')
      assert.equal(log((await call(proxied.client, name, a)).text), log((await call(direct, name, a)).text), name)
    }
  } finally {
    await direct.close()
    await proxied.close()
  }
})

test('the proxy tells what it is and what it takes', { skip: DIRECT && 'the proxy itself' }, async () => {
  const { execFileSync, spawnSync } = await import('node:child_process')
  assert.match(execFileSync(process.execPath, [PROXY, '--help'], { encoding: 'utf8' }), /^Usage: response-diff-proxy \[OPTIONS\] \[--\] <command>/)
  const bad = spawnSync(process.execPath, [PROXY, '--max-stored-bytes', 'lots', '--', 'x'], { encoding: 'utf8' })
  assert.equal(bad.status, 2)
  assert.match(bad.stderr, /--max-stored-bytes must be a positive whole number of bytes, not lots/)
  const none = spawnSync(process.execPath, [PROXY], { encoding: 'utf8' })
  assert.equal(none.status, 2)
  assert.match(none.stderr, /no upstream command; give it after the options/)
})
