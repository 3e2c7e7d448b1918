// The server as a subprocess, driven by the official MCP client
// (@modelcontextprotocol/sdk, stdio), on real Chromium, pages on 127.0.0.1.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { encode } from 'gpt-tokenizer/encoding/o200k_base';

import {
  FULL, childProcesses, closedPort, gone, refAfter, refOf, section, serveSite, startServer, tsOf,
} from './helpers.js';

const golden = join(import.meta.dirname, '../golden/tools-list.json');

describe('response-diff MCP server', () => {
  let server;
  let site;

  before(async () => {
    site = await serveSite();
    server = await startServer(FULL);
  });

  after(async () => {
    await server?.close();
    await site?.close();
  });

  test('initialize, then tools/list matches the golden file and costs at most @playwright/mcp\'s 4,396 o200k tokens', async () => {
    const info = server.client.getServerVersion();
    assert.equal(info.name, 'response-diff');
    const { tools } = await server.client.listTools();
    const expected = JSON.parse(readFileSync(golden, 'utf8'));
    assert.deepEqual({ tools }, expected);
    assert.equal(tools.length, 27);
    // Every tool but browser_close takes `expectation` (docs/DECISIONS.md
    // D22); a batch takes it as `globalExpectation` and per step.
    for (const t of tools) {
      const props = t.inputSchema.properties ?? {};
      const key = t.name === 'browser_batch_execute' ? 'globalExpectation' : 'expectation';
      assert.equal(Boolean(props[key]), t.name !== 'browser_close', `${t.name}: ${key} in its inputSchema`);
    }
    const tokens = encode(JSON.stringify({ tools })).length;
    assert.ok(tokens <= 4396, `tools/list costs ${tokens} tokens`);
  });

  test('navigate, click by ref, type, snapshot', async () => {
    const nav = await server.call('browser_navigate', { url: site.url('/index.html') });
    assert.equal(nav.isError, false, nav.text);
    assert.match(nav.text, /^### Result\nNavigated to http:\/\/127\.0\.0\.1:\d+\/index\.html\nSnapshot ts: \d+/);
    assert.match(section(nav.text, 'Page state'), /Page Title: Leaf & Co\. — Loose-leaf teas/);
    const snap = section(nav.text, 'Page snapshot');
    assert.match(snap, /- heading "Loose-leaf teas" \[level=1\] \[ref=e\d+\]/);
    assert.match(snap, /- button "Checkout" \[disabled\] \[ref=e\d+\]/);

    const add = refAfter(snap, 'heading "Sencha Kyoto"', 'button "Add to cart"');
    const click = await server.call('browser_click', { ref: add });
    assert.equal(click.isError, false, click.text);
    assert.match(click.text, new RegExp(`Clicked button "Add to cart" \\(${add}\\)`));
    assert.match(click.text, /- heading "Cart \(1\)" \[level=2\]/);
    assert.match(click.text, /- text: Sencha Kyoto × 1/);
    assert.match(section(click.text, 'Console messages'), /\[log\] cart: added Sencha Kyoto/);

    const search = refOf(snap, 'searchbox "Search teas"');
    const typed = await server.call('browser_type', { ref: search, text: 'earl', submit: true });
    assert.equal(typed.isError, false, typed.text);
    assert.match(typed.text, new RegExp(`- searchbox "Search teas" \\[active\\] \\[ref=${search}\\]: earl`));
    assert.match(typed.text, /- paragraph \[ref=e\d+\]: Showing 2 teas/); // Earl Grey, Jasmine Pearls

    // The same element keeps its ref across snapshots of the same document.
    const again = await server.call('browser_snapshot');
    assert.match(again.text, new RegExp(`searchbox "Search teas" \\[active\\] \\[ref=${search}\\]`));
    assert.equal(section(again.text, 'Ran Playwright code'), null);
  });

  test('diffs across calls: first, then a diff, then unchanged', async () => {
    await server.call('browser_navigate', { url: site.url('/index.html'), expectation: { includeSnapshot: false } });
    const diff = { diffOptions: { enabled: true } };
    const first = await server.call('browser_snapshot', { expectation: diff });
    const page = section(first.text, 'Page snapshot');
    assert.match(page, /^```yaml\n- generic (\[active\] )?\[ref=e\d+\]:\n  - banner/);
    const add = refAfter(page, 'heading "Genmaicha"', 'button "Add to cart"');
    const second = await server.call('browser_click', { ref: add, expectation: diff });
    // By default the snapshot's changes come as a patch by ref.
    assert.match(second.text, /### Page snapshot \(patch\)\n```\n/);
    assert.match(second.text, /\n~ heading "Cart \(1\)" \[level=2\] \[ref=e\d+\]\n/);
    assert.match(second.text, /\n\+ first in \[e\d+\]:\n  - listitem \[ref=e\d+\]:\n    - text: Genmaicha × 1\n/);
    assert.ok(encode(second.text).length < encode(first.text).length / 4, second.text);
    // snapshotOptions.diff: "lines" asks for the unified line diff instead.
    const lines = { ...diff, snapshotOptions: { diff: 'lines' } };
    const remove = refAfter(second.text, 'listitem', 'button "Remove Genmaicha"');
    const third0 = await server.call('browser_click', { ref: remove, expectation: lines });
    assert.match(third0.text, /### Page snapshot \(diff since the previous snapshot\)\n\d+ lines, \d+ changed: \+\d+ −\d+\n```diff\n@@ /);
    assert.match(third0.text, /\n- *- heading "Cart \(1\)"/);
    assert.match(third0.text, /\n\+ *- heading "Cart \(0\)"/);
    const third = await server.call('browser_snapshot', { expectation: diff });
    assert.match(third.text, /### Page snapshot\nNo changes since the previous response \(\d+ lines\)\./);
    // A peek with diffs off shows the full page and does not move the chain.
    const peek = await server.call('browser_snapshot');
    assert.match(section(peek.text, 'Page snapshot'), /^```yaml\n- generic (\[active\] )?\[ref=e\d+\]:\n  - banner/);
    const fourth = await server.call('browser_snapshot', { expectation: diff });
    assert.match(fourth.text, /No changes since the previous response/);
  });

  test('since: a tree diff since an earlier read; an unknown ts gives the full tree and a notice', async () => {
    await server.call('browser_navigate', { url: site.url('/index.html'), expectation: { includeSnapshot: false } });
    const read = await server.call('browser_snapshot');
    const ts = tsOf(read.text);
    const add = refAfter(read.text, 'heading "Silver Needle"', 'button "Add to cart"');
    await server.call('browser_click', { ref: add, expectation: { includeSnapshot: false } });
    const changes = await server.call('browser_snapshot', { since: ts });
    const body = section(changes.text, `Page snapshot (changes since ts ${ts})`);
    assert.ok(body, changes.text);
    assert.match(body, /# ts \d+, changes since \d+/);
    assert.match(body, /\n\+ \[e\d+\] listitem \(in list "Cart items"\)\n\+ {3}text "Silver Needle × 1"\n\+ {3}\[e\d+\] button "Remove Silver Needle"/);
    assert.match(body, /\n- \[e\d+\] paragraph\n/); // "Your cart is empty." is hidden
    assert.match(body, /\n~ \[e\d+\] heading "Cart \(1\)" \(was "Cart \(0\)"\)/);
    assert.match(body, /\n# \d+ elements unchanged/);
    assert.ok(encode(changes.text).length < encode(read.text).length / 4);

    const unknown = await server.call('browser_snapshot', { since: 42 });
    assert.equal(unknown.isError, false);
    assert.match(unknown.text, /# ts 42 is unknown or expired .* this is the full tree/);
    assert.match(unknown.text, /- heading "Loose-leaf teas"/);
  });

  test('snapshotOptions.selector: role, CSS, and a selector that matches nothing', async () => {
    await server.call('browser_navigate', { url: site.url('/index.html'), expectation: { includeSnapshot: false } });
    const role = await server.call('browser_snapshot', { expectation: { snapshotOptions: { selector: 'complementary "Cart"' } } });
    assert.match(section(role.text, 'Page snapshot'), /^```yaml\n- complementary "Cart" \[ref=e\d+\]:\n {2}- heading "Cart \(0\)"/);
    const css = await server.call('browser_snapshot', { expectation: { snapshotOptions: { selector: '#cart .subtotal' } } });
    assert.match(section(css.text, 'Page snapshot'), /^```yaml\n- paragraph \[ref=e\d+\]: "Subtotal: \$0\.00"\n```/);
    const none = await server.call('browser_snapshot', { expectation: { snapshotOptions: { selector: '.no-such-thing' } } });
    assert.equal(section(none.text, 'Page snapshot').trim(),
      'No element matches selector `.no-such-thing`; take a snapshot without a selector to see the page.');
    const bad = await server.call('browser_snapshot', { expectation: { snapshotOptions: { selector: 'div[' } } });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /neither a ref \(e12\), a role .* nor valid CSS/);
  });

  test('batch: validated first, a failing step stops it, continueOnError goes on', async () => {
    await assert.rejects(
      server.client.callTool({ name: 'browser_batch_execute', arguments: { steps: [
        { tool: 'browser_navigate', arguments: { url: site.url('/signup.html') } },
        { tool: 'browser_fly', arguments: {} },
      ] } }),
      (e) => e.code === -32602 && /steps\[1\]\.unknown tool `browser_fly`/.test(e.message),
    );
    // Nothing ran: still on the shop.
    const state = await server.call('browser_snapshot', { expectation: { includeSnapshot: false } });
    assert.match(state.text, /index\.html/);

    const stopped = await server.call('browser_batch_execute', {
      globalExpectation: JSON.stringify({ includeSnapshot: false }),
      steps: [
        { tool: 'browser_navigate', arguments: { url: site.url('/signup.html') } },
        { tool: 'browser_click', arguments: { ref: 'e999999' } },
        { tool: 'browser_snapshot', arguments: {} },
      ],
    });
    assert.equal(stopped.isError, true);
    assert.match(stopped.text, /^### Batch\n2 of 3 steps ran: 1 ok, failed: step 2 \(browser_click\)\. Stopped at step 2 \(stopOnFirstError\); step 3 did not run\./);
    assert.match(stopped.text, /### Step 2: browser_click \(failed\)\n#### Result\nError: ref e999999 is not on the page; take a new snapshot/);
    assert.doesNotMatch(stopped.text, /### Step 3/);

    const goesOn = await server.call('browser_batch_execute', {
      globalExpectation: { includeSnapshot: false, diffOptions: { enabled: true } },
      steps: [
        { tool: 'browser_click', arguments: { ref: 'e999999' }, continueOnError: true },
        { tool: 'browser_snapshot', arguments: {}, expectation: { includeSnapshot: true, snapshotOptions: { selector: 'form' } } },
      ],
    });
    assert.equal(goesOn.isError, false, goesOn.text);
    assert.match(goesOn.text, /^### Batch\n2 of 2 steps ran: 1 ok, failed: step 1 \(browser_click\)\./);
    assert.match(goesOn.text, /### Step 2: browser_snapshot \(ok\)[\s\S]*- form "Sign up"/);
  });

  test('DOM fingerprint: baseline, then compare after a regression', async () => {
    await server.call('browser_navigate', { url: site.url('/index.html'), expectation: { includeSnapshot: false } });
    await server.call('browser_evaluate', { function: "() => localStorage.removeItem('regression')" });
    await server.call('browser_navigate', { url: site.url('/index.html'), expectation: { includeSnapshot: false } });
    const fp = await server.call('browser_get_dom_fingerprint', { saveAs: 'shop', depth: 'detailed' });
    assert.equal(fp.isError, false, fp.text);
    assert.match(fp.text, /Fingerprint [0-9a-f]{16} \(\d+ tokens\); saved as baseline `shop`/);
    assert.equal(section(fp.text, 'Page snapshot'), null);
    const clean = await server.call('browser_compare_dom_fingerprint', { against: 'shop', depth: 'detailed' });
    assert.match(clean.text, /unchanged, clean/);

    await server.call('browser_evaluate', { function: "() => localStorage.setItem('regression', '1')" });
    await server.call('browser_navigate', { url: site.url('/index.html'), expectation: { includeSnapshot: false } });
    const cmp = await server.call('browser_compare_dom_fingerprint', { against: 'shop', depth: 'detailed' });
    assert.equal(cmp.isError, false, cmp.text);
    assert.match(cmp.text, /changed, error: 3 errors/);
    assert.match(cmp.text, /error element_missing: Interactive link 'Sign up' is no longer present/);
    assert.match(cmp.text, /error error_appeared: Error element appeared: 'Prices could not be loaded/);
    assert.match(cmp.text, /error element_hidden: Interactive button 'Checkout' is present but no longer visible/);
    await server.call('browser_evaluate', { function: "() => localStorage.removeItem('regression')" });

    const missing = await server.call('browser_compare_dom_fingerprint', { against: 'checkout' });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /no baseline named `checkout` \(known: shop\)/);
  });

  test('bad input says what to do next', async () => {
    const bad = await server.call('browser_click', { ref: 'e999999' });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /^### Result\nError: ref e999999 is not on the page; take a new snapshot/);
    const notRef = await server.call('browser_click', { ref: '#cart button' });
    assert.match(notRef.text, /is not a ref; use a \[ref=…\] from the latest snapshot/);
    await assert.rejects(
      server.client.callTool({ name: 'browser_navigate', arguments: {} }),
      (e) => e.code === -32602 && /missing field `url`.*url \(string, required\)/.test(e.message),
    );
    await assert.rejects(
      server.client.callTool({ name: 'browser_snapshot', arguments: { expectation: { diffOptions: { threshold: 3 } } } }),
      (e) => e.code === -32602 && /expectation\.diffOptions\.threshold/.test(e.message),
    );
  });

  test('a navigation to a closed port is a tool error, and the server goes on', async () => {
    const port = await closedPort();
    const r = await server.call('browser_navigate', { url: `http://127.0.0.1:${port}/` });
    assert.equal(r.isError, true);
    assert.match(r.text, new RegExp(`navigation to http://127\\.0\\.0\\.1:${port}/ failed: net::ERR_CONNECTION_REFUSED`));
    const ok = await server.call('browser_navigate', { url: site.url('/help.html') });
    assert.equal(ok.isError, false, ok.text);
  });

  test('console messages, tabs, screenshot through imageOptions', async () => {
    await server.call('browser_navigate', { url: site.url('/index.html'), expectation: { includeSnapshot: false } });
    const page = await server.call('browser_snapshot');
    await server.call('browser_click', { ref: refOf(page.text, 'button "Add to cart"'), expectation: { includeSnapshot: false } });
    const checkout = refOf(page.text, 'button "Checkout"');
    const c = await server.call('browser_click', { ref: checkout, expectation: { includeSnapshot: false } });
    assert.match(section(c.text, 'Console messages'), /\[error\] checkout: payment service unavailable \(503\)/);
    const all = await server.call('browser_console_messages', { expectation: { consoleOptions: { levels: ['log'] } } });
    assert.match(section(all.text, 'Console messages'), /\[log\] cart: added Sencha Kyoto/);
    assert.doesNotMatch(all.text, /payment service/);

    const opened = await server.call('browser_tabs', { action: 'new', url: site.url('/help.html'), expectation: { includeSnapshot: false } });
    assert.match(section(opened.text, 'Open tabs'), /- 0: \[Leaf & Co\. — Loose-leaf teas\]\(.*\)\n- 1: \(current\) \[Leaf & Co\. — Help\]/);
    const selected = await server.call('browser_tabs', { action: 'select', index: 0, expectation: { includeSnapshot: false } });
    assert.match(section(selected.text, 'Open tabs'), /- 0: \(current\)/);
    const closed = await server.call('browser_tabs', { action: 'close', index: 1 });
    assert.match(section(closed.text, 'Open tabs'), /^- 0: \(current\) \[Leaf & Co\. — Loose-leaf teas\]/);

    // With diffs on, tabs unchanged since the last response are left out of
    // an action's response, but shown when the agent asks for them.
    const diff = { includeSnapshot: false, diffOptions: { enabled: true } };
    await server.call('browser_tabs', { action: 'new', url: site.url('/help.html'), expectation: diff });
    const listed = await server.call('browser_tabs', { action: 'list', expectation: diff });
    assert.match(section(listed.text, 'Open tabs'), /- 0: \[Leaf & Co\. — Loose-leaf teas\]\(.*\)\n- 1: \(current\) \[Leaf & Co\. — Help\]/);
    const again = await server.call('browser_tabs', { action: 'list', expectation: diff });
    assert.equal(section(again.text, 'Open tabs'), section(listed.text, 'Open tabs'));
    const other = await server.call('browser_evaluate', { function: '() => 1', expectation: diff });
    assert.doesNotMatch(other.text, /### Open tabs/);
    await server.call('browser_tabs', { action: 'close', index: 1, expectation: { includeSnapshot: false } });

    const shot = await server.call('browser_take_screenshot', { expectation: { imageOptions: { format: 'jpeg', maxWidth: 320, quality: 50 } } });
    assert.equal(shot.images.length, 1);
    assert.equal(shot.images[0].mimeType, 'image/jpeg');
    const jpeg = Buffer.from(shot.images[0].data, 'base64');
    assert.equal(jpeg[0], 0xff);
    assert.equal(jpeg[1], 0xd8);
    // SOF0 width: the screenshot was scaled to 320 px wide.
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    assert.equal(jpeg.readUInt16BE(sof + 7), 320);
  });

  test('the browser killed mid-session: the next call relaunches it and says so', async () => {
    await server.call('browser_navigate', { url: site.url('/index.html'), expectation: { includeSnapshot: false } });
    const [chromium] = childProcesses(server.transport.pid, 'chrom');
    assert.ok(chromium, 'no browser process under the server');
    process.kill(chromium, 'SIGKILL');
    while (!gone(chromium)) await new Promise((ok) => setImmediate(ok));
    const r = await server.call('browser_navigate', { url: site.url('/help.html') });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /The browser had stopped \(it crashed or was killed\) and was relaunched/);
    assert.match(r.text, /- heading "Help & FAQ" \[level=1\]/);
    const next = await server.call('browser_snapshot');
    assert.doesNotMatch(next.text, /relaunched/);
  });

  test('browser_close, then a call starts a fresh browser', async () => {
    const closed = await server.call('browser_close');
    assert.match(closed.text, /Closed the browser/);
    const r = await server.call('browser_navigate', { url: site.url('/help.html'), expectation: { includeSnapshot: false } });
    assert.equal(r.isError, false, r.text);
    assert.doesNotMatch(r.text, /relaunched/);
  });
});

describe('a page that hangs (--action-timeout 2)', () => {
  test('a script that never ends and a server that never answers are tool errors; the server goes on', async () => {
    const { createServer } = await import('node:http');
    const silent = createServer(() => {});
    await new Promise((ok) => silent.listen(0, '127.0.0.1', ok));
    const site = await serveSite();
    const server = await startServer([...FULL, '--action-timeout', '2']);
    try {
      await server.call('browser_navigate', { url: site.url('/help.html'), expectation: { includeSnapshot: false } });
      const loop = await server.call('browser_evaluate', { function: '() => { while (true) {} }' });
      assert.equal(loop.isError, true);
      assert.match(loop.text, /the function did not finish within 2 s \(--timeout-action\) and was stopped/);
      const still = await server.call('browser_snapshot');
      assert.match(still.text, /- heading "Help & FAQ"/);
      const nav = await server.call('browser_navigate', { url: `http://127.0.0.1:${silent.address().port}/` });
      assert.equal(nav.isError, true);
      assert.match(nav.text, /got no response within 2 s \(--timeout-navigation\) and was stopped/);
      const back = await server.call('browser_navigate', { url: site.url('/signup.html') });
      assert.equal(back.isError, false, back.text);
    } finally {
      await server.close();
      await site.close();
      silent.closeAllConnections();
      silent.close();
    }
  });
});

describe('the operator default expectation (--default-expectation)', () => {
  test('turns diffs on for every call; calls refine it', async () => {
    const site = await serveSite();
    const server = await startServer(['--default-expectation', '{"diffOptions": {"enabled": true}, "includeCode": false}']);
    try {
      const first = await server.call('browser_navigate', { url: site.url('/index.html') });
      assert.equal(section(first.text, 'Ran Playwright code'), null);
      const add = refAfter(first.text, 'heading "Oolong Milk"', 'button "Add to cart"');
      const second = await server.call('browser_click', { ref: add });
      assert.match(second.text, /### Page snapshot \(patch\)/);
      const off = await server.call('browser_snapshot', { expectation: { diffOptions: { enabled: false } } });
      assert.match(section(off.text, 'Page snapshot'), /^```yaml\n- generic (\[active\] )?\[ref=e\d+\]:\n  - banner/);
    } finally {
      await server.close();
      await site.close();
    }
  });
});
