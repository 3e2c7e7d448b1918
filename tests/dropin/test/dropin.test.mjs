// The fast-playwright-mcp drop-in inside the real thing.
//
// @tontoko/fast-playwright-mcp 0.2.0 (npm, locked here) runs twice: stock,
// and a copy whose built lib/response.js imports ResponseDiffDetector from
// '@x/response-diff/compat' (this checkout's addon, installed with
// file:../../bindings/node) instead of its own module: the one-line swap a
// user makes. Both are driven by the official MCP client over stdio on
// Debian's chromium, on a page served from 127.0.0.1 whose content the test
// changes step by step, with diffOptions on: every format, thresholds, and
// maxDiffLines / context values up to their schema's extremes.
//
// For every swapped response the test rebuilds the text the detector was
// given (their Response.buildContentForDiff: the Result section and the page
// state, read back from the response itself) and checks the diff section:
// a unified or split diff applied to the previous text must give the
// current one; a minimal diff must list exactly the changed lines; a full
// answer must carry the whole current text. When the threshold is 0, a
// changed page must get a diff section whatever the other options are.
import assert from 'node:assert/strict'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, before, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

const require = createRequire(import.meta.url)
const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const { applyDiff, minimalLines } = require('../../../bindings/node/test/compat-patch.js')
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium'
const BROWSER_ARGS = ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
const CALL_TIMEOUT = { timeout: 120_000 }

// ------------------------------------------------------------------ the page
// A shop list; the test changes it through browser_evaluate with
// window.step(n), so both servers see the same states in the same order.
const PAGE = `<!doctype html><html><head><title>Drop-in shop</title></head><body>
<h1>Shop</h1><p id="total">Total $10</p><ul id="list"></ul>
<button id="buy">Buy</button><input id="q" aria-label="Search">
<script>
const list = document.getElementById('list')
for (let i = 0; i < 60; i++) list.append(Object.assign(document.createElement('li'), { textContent: 'Product ' + i }))
// Elements are changed in place, so refs stay stable and diffs stay small;
// step 4 rewrites every third item (a large change).
const li = (i) => list.children[i]
const item = (t) => Object.assign(document.createElement('li'), { textContent: t })
window.step = (n) => {
  switch (n % 6) {
    case 0: li(7).textContent = 'Product 7 (sold out) #' + n; break
    case 1: list.insertBefore(item('New arrival ' + n), li(30)); list.append(item('Last ' + n)); break
    case 2: document.getElementById('total').textContent = 'Total $' + (10 + n); li(0).textContent = 'First ' + n; break
    case 3: for (let k = 0; k < 5; k++) li(10).remove(); break
    case 4: for (let i = 0; i < list.children.length; i += 3) li(i).textContent = 'Repriced ' + i + ' @' + n; break
    case 5: li(list.children.length - 1).textContent = 'Tail ' + n; break
  }
}
</script></body></html>`

let site
let url
before(async () => {
  site = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(PAGE)
  })
  await new Promise((r) => site.listen(0, '127.0.0.1', r))
  url = `http://127.0.0.1:${site.address().port}/`
})
after(() => site?.close())

// ------------------------------------------------------------ the two servers
const stockDir = dirname(require.resolve('@tontoko/fast-playwright-mcp/package.json'))
const SWAP_FROM = 'import { ResponseDiffDetector } from "./utils/response-diff-detector.js";'
const SWAP_TO = 'import { ResponseDiffDetector } from "@x/response-diff/compat";'

// The swapped copy lives inside this folder so its bare imports resolve to
// the same node_modules (fast-diff, playwright, and @x/response-diff).
function swappedCopy() {
  const dir = join(root, '.swapped', 'fast-playwright-mcp')
  rmSync(dir, { recursive: true, force: true })
  cpSync(stockDir, dir, { recursive: true })
  const file = join(dir, 'lib', 'response.js')
  const src = readFileSync(file, 'utf8')
  assert.equal(src.split(SWAP_FROM).length, 2, `lib/response.js imports its detector once, as ${SWAP_FROM}`)
  writeFileSync(file, src.replace(SWAP_FROM, SWAP_TO))
  return dir
}

async function start(pkgDir, label) {
  const work = mkdtempSync(join(tmpdir(), `dropin-${label}-`))
  const config = join(work, 'config.json')
  writeFileSync(
    config,
    JSON.stringify({
      browser: {
        browserName: 'chromium',
        isolated: true,
        launchOptions: { executablePath: CHROMIUM, headless: true, chromiumSandbox: false, args: BROWSER_ARGS },
      },
    }),
  )
  const args = [join(pkgDir, 'cli.js'), '--config', config, '--headless', '--isolated', '--no-sandbox',
    '--executable-path', CHROMIUM, '--output-dir', join(work, 'out'), '--tool-profile', 'full', '--codegen', 'none']
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    stderr: 'pipe',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', DEBUG: 'pw:mcp:response' },
  })
  let log = ''
  transport.stderr?.on('data', (d) => {
    log += d
  })
  const client = new Client({ name: `dropin-${label}`, version: '1.0.0' })
  await client.connect(transport)
  return {
    label,
    log: () => log,
    async call(name, args) {
      const r = await client.callTool({ name, arguments: args }, undefined, CALL_TIMEOUT)
      const text = r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n')
      if (r.isError) throw new Error(`${label} ${name} failed: ${text}\n${log}`)
      return text
    },
    async close() {
      await client.close()
      rmSync(work, { recursive: true, force: true })
    },
  }
}

// ------------------------------------------------- reading a response back
// Their Response.serialize: an optional diff section, "### Result", then the
// page state with the snapshot in a yaml fence (includeSnapshot).
function diffSection(text) {
  const m = /^### Changes from previous response\nSimilarity: [^\n]*\nChanges: [^\n]*\n\n```diff\n([\s\S]*?)\n```\n/m.exec(text)
  return m ? m[1] : null
}

// What their Response.buildContentForDiff gave the detector (codegen off,
// console off): "### Result" and the page state, joined by a blank line.
function diffedContent(text) {
  const sections = []
  const result = /^### Result\n([\s\S]*?)\n\n(?=###|$)/m.exec(text)
  if (result) sections.push(`### Result\n${result[1]}`)
  const pageUrl = /^- \*\*Page URL:\*\* (.*)$/m.exec(text)
  const title = /^- \*\*Page Title:\*\* (.*)$/m.exec(text)
  const snapshot = /^- Page Snapshot:\n```yaml\n([\s\S]*?)\n```$/m.exec(text)
  assert.ok(pageUrl && title && snapshot, `a response without its page state:\n${text}`)
  sections.push(['### Page State', `URL: ${pageUrl[1]}`, `Title: ${title[1]}`, 'Snapshot:', snapshot[1]].join('\n'))
  return sections.join('\n\n')
}

// A minimal diff has no positions, so it cannot be applied; it holds every
// change when taking its `- ` lines out of the previous text and putting its
// `+ ` lines in gives the current text's lines (as a multiset), and every
// line it lists was really there to remove.
function minimalAccountsFor(prev, cur, { removed, added }) {
  const count = (lines) => lines.reduce((m, l) => m.set(l, (m.get(l) ?? 0) + 1), new Map())
  const bag = count(prev.split('\n'))
  for (const l of removed) {
    if (!bag.get(l)) return `removes ${JSON.stringify(l)}, which the previous text does not have (that often)`
    bag.set(l, bag.get(l) - 1)
  }
  for (const l of added) bag.set(l, (bag.get(l) ?? 0) + 1)
  const want = count(cur.split('\n'))
  for (const l of new Set([...bag.keys(), ...want.keys()])) {
    if ((bag.get(l) ?? 0) !== (want.get(l) ?? 0)) return `line ${JSON.stringify(l)}: ${bag.get(l) ?? 0} after the diff, ${want.get(l) ?? 0} in the current text`
  }
  return null
}

// Their schema (lib/schemas/expectation.js): threshold 0..1, maxDiffLines
// > 0, context >= 0, any number. The extremes and the values that broke the
// drop-in before (2,000,000; 1001; 2^32; 0.5) are all here.
const CONFIGS = [
  { format: 'unified', threshold: 0, maxDiffLines: 50, context: 3 },
  { format: 'unified', threshold: 0, maxDiffLines: 2_000_000, context: 1001 },
  { format: 'unified', threshold: 0, maxDiffLines: 2 ** 32, context: 2 ** 32 },
  { format: 'unified', threshold: 0, maxDiffLines: 0.5, context: 0.5 },
  { format: 'unified', threshold: 0, maxDiffLines: 1e308, context: 0 },
  { format: 'split', threshold: 0, maxDiffLines: 1_000_000, context: 3 },
  { format: 'split', threshold: 0, maxDiffLines: 7, context: 3 },
  { format: 'minimal', threshold: 0, maxDiffLines: 50, context: 3 },
  { format: 'minimal', threshold: 0, maxDiffLines: 2 ** 32, context: 1001 },
  { format: 'minimal', threshold: 0, maxDiffLines: 1, context: 0 },
  { format: 'unified', threshold: 0.1, maxDiffLines: 50, context: 3, ignoreWhitespace: false },
  { format: 'unified', threshold: 1, maxDiffLines: 50, context: 3 },
]
const STEPS = 6

function checkSwapped(rows, cfg, step, prev, cur, section) {
  const label = `${JSON.stringify(cfg)} step ${step}`
  if (prev === cur) {
    assert.equal(section, null, `${label}: unchanged, yet a diff section`)
    return 'unchanged'
  }
  if (section === null) {
    // Only the threshold may hide a change (theirs: similarity < 1 - threshold).
    assert.ok(cfg.threshold > 0, `${label}: the page changed and the diff section is missing`)
    rows.hidden++
    return 'under threshold'
  }
  if (section.startsWith('Full response (')) {
    const nl = section.indexOf('\n')
    assert.match(section.slice(0, nl), /^Full response \(.*over maxDiffLines \(.*\)\):$/, label)
    assert.equal(section.slice(nl + 1), cur, `${label}: the full answer is not the whole current text`)
    rows.full++
    return 'full'
  }
  assert.ok(!section.includes('No newline at end of file'), `${label}: newline marker in\n${section}`)
  if (cfg.format === 'minimal') {
    assert.equal(minimalAccountsFor(prev, cur, minimalLines(section)), null, `${label}: minimal diff`)
    rows.minimal++
    return 'minimal'
  }
  assert.equal(applyDiff(prev, section, cfg.format), cur, `${label}: the diff does not rebuild the page`)
  rows.rebuilt++
  return 'rebuilt'
}

let stock
let swapped
before(async () => {
  assert.ok(existsSync(CHROMIUM), `no chromium at ${CHROMIUM}: run make setup`)
  stock = await start(stockDir, 'stock')
  swapped = await start(swappedCopy(), 'swapped')
})
after(async () => {
  await stock?.close()
  await swapped?.close()
})

test('the swapped copy loads the drop-in, not its own detector', () => {
  const src = readFileSync(join(root, '.swapped', 'fast-playwright-mcp', 'lib', 'response.js'), 'utf8')
  assert.ok(src.includes(SWAP_TO))
  const compat = require.resolve('@x/response-diff/compat')
  assert.ok(compat.endsWith(join('bindings', 'node', 'compat.js')), compat)
})

test('every diff section of the swapped server holds every change, for every option value their schema accepts', async () => {
  const rows = { rebuilt: 0, minimal: 0, full: 0, hidden: 0, stockSections: 0, swappedSections: 0, stockMissing: 0, stockTruncated: 0 }
  const table = []
  for (const cfg of CONFIGS) {
    const expectation = { includeSnapshot: true, diffOptions: { enabled: true, ignoreWhitespace: true, ...cfg } }
    // A fresh page for each configuration: navigate (keyed browser_navigate),
    // then STEPS changes through browser_evaluate (keyed browser_evaluate).
    const prev = {}
    for (const server of [stock, swapped]) await server.call('browser_navigate', { url, expectation })
    const outcomes = []
    for (let step = 0; step < STEPS; step++) {
      const args = { function: `() => { window.step(${step}); return 'step ${step}' }`, expectation }
      const [s, w] = [await stock.call('browser_evaluate', args), await swapped.call('browser_evaluate', args)]
      const cur = diffedContent(w)
      // Both servers saw the same page.
      assert.equal(diffedContent(s), cur, `${JSON.stringify(cfg)} step ${step}: the two servers saw different pages`)
      const section = diffSection(w)
      if (section !== null) rows.swappedSections++
      if (diffSection(s) !== null) rows.stockSections++
      else if (prev.browser_evaluate !== undefined && prev.browser_evaluate !== cur && cfg.threshold === 0) rows.stockMissing++
      // Theirs cuts a long diff: the changes past the cut are gone.
      if (/\.\.\. \(\d+ more lines truncated\)$/.test(diffSection(s) ?? '')) rows.stockTruncated++
      if (prev.browser_evaluate !== undefined) {
        outcomes.push(checkSwapped(rows, cfg, step, prev.browser_evaluate, cur, section))
      }
      prev.browser_evaluate = cur
    }
    table.push({ ...cfg, outcomes: outcomes.join(', ') })
  }
  console.log('| format | threshold | maxDiffLines | context | swapped diff sections (steps 2..6) |')
  console.log('|---|---|---|---|---|')
  for (const t of table) console.log(`| ${t.format} | ${t.threshold} | ${t.maxDiffLines} | ${t.context} | ${t.outcomes} |`)
  console.log(
    `rebuilt ${rows.rebuilt}, minimal ${rows.minimal}, full ${rows.full}, under threshold ${rows.hidden}; ` +
      `diff sections: swapped ${rows.swappedSections}, stock ${rows.stockSections} (stock: missing with threshold 0 ${rows.stockMissing}, cut by maxDiffLines ${rows.stockTruncated})`,
  )
  // The scenario reaches every kind of answer.
  assert.ok(rows.rebuilt > 0 && rows.minimal > 0 && rows.full > 0 && rows.hidden > 0, JSON.stringify(rows))
})
