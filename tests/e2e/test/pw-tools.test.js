// The tools of issue 36 (the rest of @playwright/mcp 0.0.83's default
// catalog), through the real MCP client on real Chromium, pages on
// 127.0.0.1: browser_find on a long page, browser_network_request,
// browser_emulate_media, browser_drop, the refused browser_run_code_unsafe,
// and every tool name of @playwright/mcp's default tools/list answering.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { encode } from 'gpt-tokenizer/encoding/o200k_base';

import { FULL, refOf, section, serveSite, startServer } from './helpers.js';

// A long page: a catalog of 400 products, with the one control the agent
// wants deep inside it.
const LONG = `<!doctype html><title>Catalog</title>
<header><nav aria-label="Main"><a href="/">Home</a> <a href="/help">Help</a></nav></header>
<main>
  <h1>Catalog</h1>
  <ul aria-label="Products">
    ${Array.from({ length: 400 }, (_, i) => `<li>Product ${i + 1} <button>Add product ${i + 1}</button></li>`).join('\n    ')}
  </ul>
  <section aria-label="Danger zone">
    <h2>Account</h2>
    <p>Closing your account removes your orders.</p>
    <button onclick="document.getElementById('out').textContent = 'account deleted'">Delete account</button>
    <p id="out">account active</p>
  </section>
</main>
<footer><a href="/contact">Contact</a></footer>`;

const NETWORK = `<!doctype html><title>Requests</title>
<button id="go">Send</button><p id="out">idle</p>
<script>
document.getElementById('go').onclick = async () => {
  const r = await fetch('/api/echo', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-trace': 'rd-1' },
    body: JSON.stringify({ hello: 'world' }),
  });
  const img = await fetch('/pixel.png');
  document.getElementById('out').textContent = 'sent ' + r.status + ' ' + img.status;
};
</script>`;

// A 1×1 PNG.
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

const MEDIA = `<!doctype html><title>Media</title>
<p id="state">?</p>
<script>
const q = (m) => matchMedia(m).matches;
window.mediaState = () => [
  q('(prefers-color-scheme: dark)') ? 'dark' : 'light',
  q('(prefers-reduced-motion: reduce)') ? 'reduce' : 'motion',
  q('(forced-colors: active)') ? 'forced' : 'unforced',
  q('(prefers-contrast: more)') ? 'more' : 'normal',
  q('print') ? 'print' : 'screen',
].join(' ');
</script>`;

const DROP = `<!doctype html><title>Drop</title>
<div id="zone" role="region" aria-label="Upload area" style="width:300px;height:120px;border:1px dashed">Drop files here</div>
<div id="inert" role="region" aria-label="Not a drop target" style="width:300px;height:60px">Nothing here</div>
<p id="got">nothing yet</p>
<script>
const zone = document.getElementById('zone');
zone.addEventListener('dragover', (e) => e.preventDefault());
zone.addEventListener('drop', async (e) => {
  e.preventDefault();
  const dt = e.dataTransfer;
  const files = await Promise.all([...dt.files].map(async (f) => f.name + ':' + f.type + ':' + (await f.text())));
  document.getElementById('got').textContent = 'files=' + files.join(',') + ' text=' + dt.getData('text/plain');
});
</script>`;

function site() {
  return serveSite(undefined, { '/long.html': LONG, '/network.html': NETWORK, '/media.html': MEDIA, '/drop.html': DROP }, {
    '/api/echo': (req, res) => {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => {
        res.writeHead(201, { 'content-type': 'application/json', 'x-served-by': 'e2e' });
        res.end(JSON.stringify({ got: JSON.parse(body), trace: req.headers['x-trace'] }));
      });
    },
    '/pixel.png': (req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PIXEL);
    },
  });
}

async function call(server, tool, args) {
  const r = await server.call(tool, args);
  assert.equal(r.isError, false, `${tool}: ${r.text}`);
  return r.text;
}

/** The error of a call refused before it runs (JSON-RPC INVALID_PARAMS). */
async function refused(server, tool, args) {
  try {
    const r = await server.call(tool, args);
    return { tool: true, ...r };
  } catch (e) {
    return { tool: false, text: e.message };
  }
}

describe('issue 36 tools', () => {
  let server;
  let web;
  let dir;

  before(async () => {
    web = await site();
    dir = mkdtempSync(join(tmpdir(), 'rd-pw-tools-'));
    server = await startServer([...FULL, '--upload-root', dir, '--output-dir', join(dir, 'out')]);
  });

  after(async () => {
    await server?.close();
    await web?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('browser_find on a long page: the match under its path, with context, for a fraction of the snapshot', async () => {
    const nav = await call(server, 'browser_navigate', { url: web.url('/long.html') });
    const snapshot = section(nav, 'Page snapshot');
    const found = await call(server, 'browser_find', { text: 'delete ACCOUNT' });
    const result = section(found, 'Result');
    assert.equal(section(found, 'Page snapshot'), null, 'no snapshot beside the search');
    const ref = refOf(snapshot, 'button "Delete account"');
    assert.match(result, /^Found 1 match for "delete account":\n\n- generic \[active\] \[ref=e\d+\]:\n  - main \[ref=e\d+\]:\n    - region "Danger zone" \[ref=e\d+\]:\n/);
    assert.ok(result.includes(`      - button "Delete account" [ref=${ref}]`), result);
    assert.ok(result.includes('      - paragraph [ref='), result);
    assert.ok(!result.includes('Product 1 '), result);
    const findTokens = encode(found).length;
    const snapTokens = encode(nav).length;
    assert.ok(findTokens * 20 < snapTokens, `find ${findTokens} tokens, snapshot ${snapTokens}`);

    // The ref acts like a snapshot's.
    const click = await call(server, 'browser_click', { ref: refOf(result, 'button "Delete account"') });
    assert.match(click, /account deleted/);

    // A regex with flags; a query that matches much is capped and says so.
    const rx = await call(server, 'browser_find', { regex: '/add product 40[0-9]?"/i' });
    assert.match(section(rx, 'Result'), /^Found 2 matches for \/add product 40\[0-9\]\?"\/i:/);
    const many = section(await call(server, 'browser_find', { text: 'Add product' }), 'Result');
    assert.match(many, /^Found 400 matches for "add product"; showing the first 50 \(narrow the search to see others\):/);
    // The 50th match and its context (the next item's lines), no further.
    assert.ok(many.includes('"Add product 51"') && !many.includes('"Add product 52"'), many);
    assert.equal(section(await call(server, 'browser_find', { text: 'no such thing' }), 'Result'), 'No matches found for "no such thing".\n');

    const saved = await call(server, 'browser_find', { text: 'contact', filename: 'find.md' });
    // The link and its URL.
    const file = saved.match(/Saved 2 matches to (\S+)/);
    assert.ok(file, saved);
    assert.match(readFileSync(file[1], 'utf8'), /^Found 2 matches for "contact":\n\n- generic \[ref=e\d+\]:\n(.*\n)*  - contentinfo \[ref=e\d+\]:\n    - link "Contact"/);

    const bad = await refused(server, 'browser_find', { regex: '(' });
    assert.equal(bad.tool, false);
    assert.match(bad.text, /browser_find: invalid option `regex`: `\(` is not a valid regex/);
    const both = await refused(server, 'browser_find', { text: 'a', regex: 'b' });
    assert.match(both.text, /give `text` or `regex`, not both/);
  });

  test('browser_network_request: details, headers and bodies of one numbered request', async () => {
    const nav = await call(server, 'browser_navigate', { url: web.url('/network.html') });
    await call(server, 'browser_click', { ref: refOf(nav, 'button "Send"') });
    await call(server, 'browser_wait_for', { text: 'sent 201 200' });
    const list = section(await call(server, 'browser_network_requests', { static: true }), 'Result');
    const n = Number(list.match(/(\d+)\. \[POST\] \S+\/api\/echo => \[201\] Created/)[1]);
    const png = Number(list.match(/(\d+)\. \[GET\] \S+\/pixel\.png => \[200\] OK/)[1]);

    const details = section(await call(server, 'browser_network_request', { index: n }), 'Result');
    assert.match(details, new RegExp(`^#${n} \\[POST\\] ${web.url('/api/echo').replace(/[.?]/g, '\\$&')} => \\[201\\] Created\n\n  General\n    status:    \\[201\\] Created\n    duration:  \\d+ms\n    type:      fetch\n    mimeType:  application/json\n`));
    assert.match(details, /\n  Request headers\n(    .+\n)*    x-trace: rd-1\n/);
    assert.match(details, /\n  Response headers\n(    .+\n)*    x-served-by: e2e\n/i);
    assert.match(details, /Call browser_network_request with part="request-body" to read the request body\.\nCall browser_network_request with part="response-body" to read the response body\./);

    const reqBody = section(await call(server, 'browser_network_request', { index: n, part: 'request-body' }), 'Result');
    assert.equal(reqBody, '{"hello":"world"}\n');
    const resBody = section(await call(server, 'browser_network_request', { index: n, part: 'response-body' }), 'Result');
    assert.deepEqual(JSON.parse(resBody), { got: { hello: 'world' }, trace: 'rd-1' });
    const resHeaders = section(await call(server, 'browser_network_request', { index: n, part: 'response-headers' }), 'Result');
    assert.match(resHeaders, /^x-served-by: e2e$/mi);

    const binary = await call(server, 'browser_network_request', { index: png, part: 'response-body' });
    assert.match(binary, new RegExp(`The response body of request #${png} is binary \\(image/png, ${PIXEL.length} bytes\\); pass filename to save it\\.`));
    const saved = await call(server, 'browser_network_request', { index: png, part: 'response-body', filename: 'pixel.png' });
    const file = saved.match(/Saved the response body of request #\d+ to (\S+) \((\d+) bytes\)/);
    assert.ok(file, saved);
    assert.deepEqual(readFileSync(file[1]), PIXEL);

    const missing = await server.call('browser_network_request', { index: 999 });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /request #999 not found: \d+ requests since the page loaded; call browser_network_requests for their numbers/);
    const zero = await refused(server, 'browser_network_request', { index: 0 });
    assert.match(zero.text, /`index` starts at 1/);
  });

  test('browser_emulate_media: features add up, null clears one, the media type too', async () => {
    await call(server, 'browser_navigate', { url: web.url('/media.html') });
    const state = async () => JSON.parse(section(await call(server, 'browser_evaluate', { function: '() => mediaState()' }), 'Result'));
    assert.equal(await state(), 'light motion unforced normal screen');
    const dark = await call(server, 'browser_emulate_media', { colorScheme: 'dark', reducedMotion: 'reduce' });
    assert.match(dark, /Emulated media: prefers-color-scheme: dark, prefers-reduced-motion: reduce/);
    assert.match(dark, /await page\.emulateMedia\(\{ colorScheme: 'dark', reducedMotion: 'reduce' \}\);/);
    assert.equal(section(dark, 'Page snapshot'), null);
    assert.equal(await state(), 'dark reduce unforced normal screen');
    await call(server, 'browser_emulate_media', { forcedColors: 'active', contrast: 'more', media: 'print' });
    assert.equal(await state(), 'dark reduce forced more print');
    const cleared = await call(server, 'browser_emulate_media', { colorScheme: null, media: null });
    assert.match(cleared, /Emulated media: forced-colors: active, prefers-contrast: more, prefers-reduced-motion: reduce\n/);
    assert.equal(await state(), 'light reduce forced more screen');
    // It lasts across navigations of the tab.
    await call(server, 'browser_navigate', { url: web.url('/media.html') });
    assert.equal(await state(), 'light reduce forced more screen');
    await call(server, 'browser_emulate_media', { reducedMotion: null, forcedColors: null, contrast: null });
    assert.equal(await state(), 'light motion unforced normal screen');

    const none = await refused(server, 'browser_emulate_media', {});
    assert.match(none.text, /give at least one of colorScheme, reducedMotion, forcedColors, contrast, media/);
    const wrong = await refused(server, 'browser_emulate_media', { colorScheme: 'blue' });
    assert.match(wrong.text, /unknown variant `blue`, expected `light` or `dark`/);
  });

  test('browser_drop: files and text onto a drop zone; a zone that refuses says so', async () => {
    const a = join(dir, 'notes.txt');
    const b = join(dir, 'data.json');
    writeFileSync(a, 'hello notes');
    writeFileSync(b, '{"n":1}');
    const nav = await call(server, 'browser_navigate', { url: web.url('/drop.html') });
    const zone = refOf(nav, 'region "Upload area"');
    const r = await call(server, 'browser_drop', { ref: zone, paths: [a, b], data: { 'text/plain': 'dropped text' } });
    assert.match(r, new RegExp(`Dropped notes\\.txt, data\\.json, text/plain data onto region "Upload area" \\(${zone}\\)`));
    assert.ok(r.includes('files=notes.txt:text/plain:hello notes,data.json:application/json:{\\"n\\":1} text=dropped text'), r);
    assert.match(r, /await page\.getByRole\('region', \{ name: "Upload area" \}\)\.drop\(\{ files: \[.+notes\.txt",.+data\.json"\], data: \{ "text\/plain": "dropped text" \} \}\);/);

    const inert = await server.call('browser_drop', { target: refOf(nav, 'region "Not a drop target"'), data: { 'text/plain': 'x' } });
    assert.equal(inert.isError, true);
    assert.match(inert.text, /region "Not a drop target" \(e\d+\) did not accept the drop: its dragover handler did not call preventDefault\(\)/);

    const outside = await server.call('browser_drop', { ref: zone, paths: ['/etc/hostname'] });
    assert.equal(outside.isError, true);
    assert.match(outside.text, /\/etc\/hostname is outside the upload roots/);
    const empty = await refused(server, 'browser_drop', { ref: zone });
    assert.match(empty.text, /give `paths` \(files\) or `data`/);
  });

  test('browser_run_code_unsafe is refused with what to use instead, alone or in a batch', async () => {
    const r = await server.call('browser_run_code_unsafe', { code: 'async (page) => page.title()' });
    assert.equal(r.isError, true);
    assert.match(r.text, /browser_run_code_unsafe runs a Playwright script .* cannot run one\. To run JavaScript in the page, call browser_evaluate/);
    const batch = await refused(server, 'browser_batch_execute', { steps: [{ tool: 'browser_run_code_unsafe', arguments: { code: '1' } }] });
    assert.equal(batch.tool, false);
    assert.match(batch.text, /steps\[0\]\.browser_run_code_unsafe runs a Playwright script/);
    const { tools } = await server.client.listTools();
    assert.ok(!tools.some((t) => t.name === 'browser_run_code_unsafe'), 'not offered in tools/list');
  });

  test("every tool name of @playwright/mcp 0.0.83's default tools/list answers", async () => {
    // Its 25 default tools (bench/catalog.mjs reads them from the pinned
    // package and checks the same against a live tools/list).
    const names = [
      'browser_close', 'browser_resize', 'browser_console_messages', 'browser_handle_dialog',
      'browser_emulate_media', 'browser_evaluate', 'browser_file_upload', 'browser_drop', 'browser_find',
      'browser_fill_form', 'browser_press_key', 'browser_type', 'browser_navigate', 'browser_navigate_back',
      'browser_network_requests', 'browser_network_request', 'browser_run_code_unsafe', 'browser_take_screenshot',
      'browser_snapshot', 'browser_click', 'browser_drag', 'browser_hover', 'browser_select_option',
      'browser_tabs', 'browser_wait_for',
    ];
    const { tools } = await server.client.listTools();
    const listed = new Set(tools.map((t) => t.name));
    for (const name of names) {
      if (name === 'browser_run_code_unsafe') continue;
      assert.ok(listed.has(name), `${name} is in tools/list`);
      // An argument no tool takes: refused by the tool's own validator,
      // before anything runs, never as an unknown tool.
      const r = await refused(server, name, { __probe: 1 });
      assert.equal(r.tool, false, `${name}: ${r.text}`);
      assert.match(r.text, /unknown field `__probe`/, name);
    }
  });
});
