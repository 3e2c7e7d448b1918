// DOM fingerprint capture + compare through the MCP server (docs/DECISIONS.md D25: under
// 200 ms on a 2,000-element page), timed from the client: the tool call
// over stdio, the extractor in Chromium, the parse, the comparison and the
// response. The page is generated here and served from 127.0.0.1.
//
//   node bench/fingerprint.mjs --bin target/release/response-diff --out bench-out/fingerprint-server.json
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { arg as cliArg } from './cli.mjs';

const arg = (name, fallback) => cliArg(name, fallback, 'bench/fingerprint.mjs');

const BIN = arg('--bin');
const OUT = arg('--out', null);
const CHROMIUM = arg('--chromium', '/usr/bin/chromium');
const ELEMENTS = Number(arg('--elements', '2000'));
const RUNS = Number(arg('--runs', '15'));
if (!BIN) {
  console.error('--bin is needed: the response-diff binary (see the header of bench/fingerprint.mjs)');
  process.exit(2);
}

/** A dashboard-like page of about `n` elements: landmarks, headings,
 * lists, a form, cards with buttons. */
function page(n) {
  const parts = [];
  let count = 6; // html, head, meta, title, body, main
  parts.push('<header><nav aria-label="Main">');
  count += 2;
  for (let i = 0; i < 10; i++, count++) parts.push(`<a href="/s/${i}">Section ${i}</a>`);
  parts.push('</nav></header><main><h1>Operations</h1><form aria-label="Filter"><label>Search <input name="q"></label><button>Go</button></form>');
  count += 6;
  for (let b = 0; count < n - 2; b++) {
    parts.push(`<section aria-label="Block ${b}"><h2>Block ${b}</h2><p>Updated for block ${b}.</p><ul class="items-${b}">`);
    count += 4;
    for (let i = 0; i < 6 && count < n - 2; i++, count += 2) parts.push(`<li><a href="/b/${b}/${i}">Item ${b}.${i}</a></li>`);
    parts.push('</ul>');
    for (let i = 0; i < 2 && count < n - 2; i++, count += 3) parts.push(`<div class="card"><span>Card ${b}.${i}</span><button>Open ${b}.${i}</button></div>`);
    parts.push('</section>');
  }
  parts.push('</main><footer>Footer</footer>');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Fingerprint bench</title></head><body>${parts.join('')}</body></html>`;
}

const html = page(ELEMENTS);
const http = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(html);
});
await new Promise((r) => http.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${http.address().port}/`;

const transport = new StdioClientTransport({ command: BIN, args: ['mcp', '--executable-path', CHROMIUM], stderr: 'pipe' });
const client = new Client({ name: 'response-diff-fingerprint-bench', version: '1.0.0' });
await client.connect(transport);
async function call(name, args) {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
  const text = r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  if (r.isError) throw new Error(`${name}: ${text}`);
  return text;
}
async function timed(name, args) {
  const t = process.hrtime.bigint();
  const text = await call(name, args);
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, text };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

try {
  await call('browser_navigate', { url, expectation: { includeSnapshot: false } });
  const counted = await call('browser_evaluate', { function: "() => document.querySelectorAll('*').length", expectation: { includeSnapshot: false } });
  const elements = Number((counted.match(/(\d+)/) || [])[1]);
  await call('browser_get_dom_fingerprint', { saveAs: 'bench' });
  const capture = [];
  const compare = [];
  let last = '';
  for (let i = 0; i < RUNS; i++) {
    capture.push((await timed('browser_get_dom_fingerprint', {})).ms);
    const c = await timed('browser_compare_dom_fingerprint', { against: 'bench' });
    compare.push(c.ms);
    last = c.text;
  }
  const result = {
    url,
    elements,
    runs: RUNS,
    captureMedianMs: median(capture),
    captureAndCompareMedianMs: median(compare),
    captureAndCompareMaxMs: Math.max(...compare),
    barMs: 200,
    lastComparison: last.slice(0, 400),
  };
  console.log(
    `Fingerprint through the server on a ${elements}-element page: capture ${result.captureMedianMs.toFixed(1)} ms, capture + compare ${result.captureAndCompareMedianMs.toFixed(1)} ms (median of ${RUNS}; max ${result.captureAndCompareMaxMs.toFixed(1)} ms; bar 200 ms).`,
  );
  if (OUT) writeFileSync(OUT, JSON.stringify(result, null, 1));
} finally {
  await client.close();
  http.close();
}
