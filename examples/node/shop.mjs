// An agent-like session on a real page: Debian's chromium driven by
// playwright-core, the page served from 127.0.0.1. After every action the
// response (result, page state, aria snapshot, console) is rendered twice:
// in full, as a Playwright MCP server returns it, and through
// @x/response-diff with diffing on. The table shows what the agent reads.
//
//   npm ci && node shop.mjs            # CHROMIUM=/path/to/chromium to override
//
// Exits non-zero when responses do not shrink.
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
import { chromium } from 'playwright-core'
import {
  BaselineStore,
  ResponseDiffDetector,
  fingerprintExpression,
  parseFingerprint,
  renderResponse,
} from '@x/response-diff'

const SHOP = readFileSync(new URL('./shop.html', import.meta.url))
const ORDERS = `<!doctype html><title>Orders</title><main><h1>Your orders</h1><table>
<tr><th>Order</th><th>Date</th><th>Total</th></tr>
${Array.from({ length: 12 }, (_, i) => `<tr><td>#${1040 + i}</td><td>2026-0${(i % 9) + 1}-1${i % 10}</td><td>$${80 + i * 13}.00</td></tr>`).join('\n')}
</table><a href="/shop">Back to the shop</a></main>`

const server = createServer((req, res) => {
  const path = new URL(req.url, 'http://127.0.0.1').pathname
  const body = path === '/orders' ? ORDERS : path === '/shop' || path === '/' ? SHOP : null
  res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
  res.end(body ?? 'not found')
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const base = `http://127.0.0.1:${server.address().port}`

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
})

const detector = new ResponseDiffDetector()
const baselines = new BaselineStore()
const diffOn = { expectations: [{ diffOptions: { enabled: true } }], detector, key: 'tab-1' }
const rows = []
let failed = false

try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage()
  let console_ = []
  page.on('console', (m) => console_.push({ level: m.type(), text: m.text() }))
  const fingerprint = async () => parseFingerprint(await page.evaluate(fingerprintExpression()))

  // One tool call: act, then build the response the way an MCP server does.
  async function step(tool, label, act) {
    console_ = []
    const result = await act()
    const response = {
      result,
      page: { url: page.url(), title: await page.title() },
      snapshot: { aria: await page.ariaSnapshot({ mode: 'ai' }) },
      console: console_,
    }
    const full = renderResponse(response, tool)
    const ours = renderResponse(response, tool, diffOn)
    rows.push({ label, full: full.text.length, ours: ours.text.length, mode: ours.snapshotDiff?.mode ?? '-' })
    // A diff or an "unchanged" line is always smaller; `full` adds a one-line note.
    if (['diff', 'unchanged'].includes(ours.snapshotDiff?.mode) && ours.text.length >= full.text.length) failed = true
    return ours
  }

  await step('browser_navigate', 'open the shop', async () => {
    await page.goto(`${base}/shop`)
    return `Navigated to ${base}/shop`
  })
  baselines.save('shop', await fingerprint())
  await step('browser_click', 'add a product to the cart', async () => {
    await page.getByRole('button', { name: 'Add Trail Blazer 1 to cart' }).click()
    return 'Clicked "Add Trail Blazer 1 to cart"'
  })
  const second = await step('browser_click', 'add another one', async () => {
    await page.getByRole('button', { name: 'Add Desert Dash 2 to cart' }).click()
    return 'Clicked "Add Desert Dash 2 to cart"'
  })
  await step('browser_type', 'type a coupon code', async () => {
    await page.getByRole('textbox', { name: 'Coupon' }).fill('SPRING')
    return 'Typed "SPRING" into "Coupon"'
  })
  await step('browser_click', 'apply it: an error banner', async () => {
    await page.getByRole('button', { name: 'Apply coupon' }).click()
    return 'Clicked "Apply coupon"'
  })
  const regression = baselines.compare('shop', await fingerprint())
  await step('browser_click', 'open the checkout dialog', async () => {
    await page.getByRole('button', { name: 'Checkout' }).click()
    return 'Clicked "Checkout"'
  })
  await step('browser_click', 'cancel it', async () => {
    await page.getByRole('button', { name: 'Cancel' }).click()
    return 'Clicked "Cancel"'
  })
  await step('browser_snapshot', 'look again (nothing changed)', async () => 'Snapshot taken')
  await step('browser_navigate', 'go to another page', async () => {
    await page.goto(`${base}/orders`)
    return `Navigated to ${base}/orders`
  })

  const total = (k) => rows.reduce((s, r) => s + r[k], 0)
  console.log('| step | action | full response (bytes) | with response-diff (bytes) | snapshot | saved |')
  console.log('|---|---|---|---|---|---|')
  rows.forEach((r, i) =>
    console.log(`| ${i + 1} | ${r.label} | ${r.full} | ${r.ours} | ${r.mode} | ${Math.round((1 - r.ours / r.full) * 100)} % |`),
  )
  const saved = 1 - total('ours') / total('full')
  console.log(`| | **total** | ${total('full')} | ${total('ours')} | | ${Math.round(saved * 100)} % |`)
  console.log('\nWhat the agent read after "add another one":\n')
  console.log(second.text)
  console.log('\nThe page compared with its first fingerprint after the coupon was refused:\n')
  console.log(regression.text)
  if (saved < 0.5) failed = true
  if (!regression.changes.some((c) => c.type === 'error_appeared')) failed = true
} finally {
  await browser.close()
  server.close()
}
if (failed) {
  console.error('responses did not shrink as expected')
  process.exit(1)
}
