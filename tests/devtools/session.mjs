// The shop session through chrome-devtools-mcp 1.11.0 twice: alone, with
// includeSnapshot on every action (what an agent that wants to see what
// its action did must ask), and through response-diff-proxy (its default:
// includeSnapshot on). o200k tokens of every answer's text, per step:
//
//   node session.mjs            (after npm ci; make node-build first)
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'

import { View, call, selectedPage, serve, snapshotOf, start } from './test/helpers.mjs'

/** The uid of the n-th line matching `re` in a snapshot text. */
function nth(text, re, n = 0) {
  const lines = text.split('\n').filter((l) => re.test(l))
  const m = lines[n] && /^\s*uid=(\S+)/.exec(lines[n])
  if (!m) throw new Error(`no uid for ${re} #${n}`)
  return m[1]
}

async function run(site, proxied) {
  const s = await start({ direct: !proxied })
  const view = new View()
  let page = ''
  const seen = (text) => {
    if (proxied) view.read(text)
    else page = `${snapshotOf(text).body}\n`
  }
  const current = () => (proxied ? view.text : page)
  const rows = []
  const step = async (label, name, args) => {
    const r = await call(s.client, name, { pageId, ...args, ...(proxied || name === 'take_snapshot' ? {} : { includeSnapshot: true }) })
    if (r.isError) throw new Error(`${label}: ${r.text}`)
    seen(r.text)
    rows.push([label, countTokens(r.text)])
  }
  const pageId = selectedPage((await call(s.client, 'list_pages')).text)
  await call(s.client, 'navigate_page', { pageId, type: 'url', url: `${site.origin}/shop/index.html` })
  await step('read the shop', 'take_snapshot', {})
  await step('add Sencha Kyoto', 'click', { uid: nth(current(), /button "Add to cart"/, 0) })
  await step('add Jasmine Pearls', 'click', { uid: nth(current(), /button "Add to cart"/, 2) })
  await step('add Earl Grey Supreme', 'click', { uid: nth(current(), /button "Add to cart"/, 3) })
  await step('open Quick view', 'click', { uid: nth(current(), /button "Quick view"/, 1) })
  await step('close Quick view', 'click', { uid: nth(current(), /button "Close"/) })
  await step('remove Sencha Kyoto', 'click', { uid: nth(current(), /button "Remove/) })
  await step('search "oolong"', 'fill', { uid: nth(current(), /searchbox "Search teas"/), value: 'oolong' })
  await step('check out', 'click', { uid: nth(current(), /button "Checkout"/) })
  await step('read the page again', 'take_snapshot', {})
  await s.close()
  return rows
}

const site = await serve()
try {
  const alone = await run(site, false)
  const proxy = await run(site, true)
  const total = (rows) => rows.reduce((a, [, t]) => a + t, 0)
  console.log('| # | step | chrome-devtools-mcp (includeSnapshot) | through the proxy |\n|---:|---|---:|---:|')
  alone.forEach(([label, t], i) => console.log(`| ${i + 1} | ${label} | ${t.toLocaleString('en')} | ${proxy[i][1].toLocaleString('en')} |`))
  const a = total(alone)
  const p = total(proxy)
  console.log(`| | session | ${a.toLocaleString('en')} | ${p.toLocaleString('en')} (${(((p - a) / a) * 100).toFixed(1)} %) |`)
} finally {
  await site.close()
}
