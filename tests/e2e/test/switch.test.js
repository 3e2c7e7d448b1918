// What @playwright/mcp's flags do here, each on real Chromium through the
// official MCP client, pages on 127.0.0.1: secrets, timeouts in
// milliseconds, permissions, init scripts, devices, the console level,
// images, code in other languages, test ids, file access, the session
// log, the output budget, boxes, the idle timeout, and the snapshot modes
// (diffs with no flags).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { FULL, refOf, section, serveSite, startServer } from './helpers.js';
import { until } from './http-helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'rd-switch-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const PAGES = {
  '/login.html': `<!doctype html><html><head><title>Login</title></head><body>
<form action="/welcome.html" method="get">
  <label>User <input name="user" data-testid="user-field"></label>
  <label>Token <input name="token"></label>
  <button>Sign in</button>
</form>
<script>
document.querySelector('form').addEventListener('input', (e) => console.log('typed ' + e.target.value));
console.debug('a debug line');
console.warn('a warning line');
</script></body></html>`,
  '/welcome.html': '<!doctype html><html><head><title>Welcome</title></head><body><h1>Welcome</h1><p id="q"></p><script>document.getElementById("q").textContent = location.search;</script></body></html>',
  '/probe.html': `<!doctype html><html><head><title>Probe</title><script>
window.__pageSawInit = String(window.__initScript);
</script></head><body><h1>Probe</h1><p>init: <span id="init"></span></p>
<script>document.getElementById('init').textContent = window.__pageSawInit;</script></body></html>`,
  '/list.html': `<!doctype html><html><head><title>List</title><meta name="viewport" content="width=device-width"></head><body><h1>Items</h1>
<ul>${Array.from({ length: 30 }, (_, i) => `<li>Item ${i + 1}</li>`).join('')}</ul>
<button onclick="document.querySelector('h1').textContent = 'Items (clicked)'">Touch</button></body></html>`,
  '/other.html': '<!doctype html><html><head><title>Other</title></head><body><h1>Another page</h1><a href="/list.html">Back</a></body></html>',
  '/sw.html': `<!doctype html><html><head><title>SW</title></head><body><p id="r">pending</p><script>
navigator.serviceWorker.register('/sw.js').then(() => 'registered', (e) => 'failed: ' + e.message)
  .then((r) => { document.getElementById('r').textContent = String(r); });
</script></body></html>`,
};

/** The service worker script, as JavaScript. */
const HANDLERS = {
  '/sw.js': (req, res) => {
    res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
    res.end('self.addEventListener("fetch", () => {});');
  },
};

/** The JSON a browser_evaluate call returned. */
async function evaluate(server, fn) {
  const r = await server.call('browser_evaluate', { function: fn });
  assert.equal(r.isError, false, r.text);
  return JSON.parse(r.text.match(/^### Result\n([\s\S]*?)(?:\n\n###|$)/)[1]);
}

describe('@playwright/mcp flags at work', () => {
  let site;
  before(async () => { site = await serveSite(undefined, PAGES, HANDLERS); });
  after(async () => { await site?.close(); });

  test('--secrets: a secret typed by its name; its value is never shown (snapshot, console, URL, code)', async () => {
    const file = join(tmp, 'secrets.env');
    writeFileSync(file, '# a dotenv file\nSHOP_USER=ada-lovelace-7\nAPI_TOKEN="tok en/42"\n');
    const server = await startServer(['--secrets', file, '--codegen', 'typescript']);
    try {
      const nav = await server.call('browser_navigate', { url: site.url('/login.html') });
      const user = await server.call('browser_type', { ref: refOf(nav.text, 'textbox "User"'), text: 'SHOP_USER' });
      assert.equal(user.isError, false, user.text);
      assert.match(user.text, /Typed <secret>SHOP_USER<\/secret> into textbox "User"/);
      // The code names the variable; the element has a test id.
      assert.match(section(user.text, 'Ran Playwright code'), /await page\.getByTestId\("user-field"\)\.fill\(process\.env\['SHOP_USER'\]\);/);
      // The snapshot shows the field's value as the secret's name.
      assert.match(user.text, /textbox "User" \[active\] \[ref=e\d+\]: <secret>SHOP_USER<\/secret>/);
      // The console line the page logged.
      assert.match(section(user.text, 'Console messages'), /\[log\] typed <secret>SHOP_USER<\/secret>/);
      const token = await server.call('browser_type', { ref: refOf(nav.text, 'textbox "Token"'), text: 'API_TOKEN', submit: true });
      assert.equal(token.isError, false, token.text);
      // The URL a GET form put both in (form-encoded), and the page's text of it.
      assert.match(section(token.text, 'Page state'), /welcome\.html\?user=<secret>SHOP_USER<\/secret>&token=<secret>API_TOKEN<\/secret>/);
      const snap = await server.call('browser_snapshot', { full: true });
      assert.match(snap.text, /\?user=<secret>SHOP_USER<\/secret>&token=<secret>API_TOKEN<\/secret>/);
      for (const r of [nav, user, token, snap]) {
        assert.doesNotMatch(r.text, /ada-lovelace-7|tok en\/42|tok\+en%2F42|tok%20en/);
      }
      // The value was typed: the page has it.
      assert.equal(await evaluate(server, '() => new URLSearchParams(location.search).get("user") === "ada-lovelace-7"'), true);
      // A name that is not a secret is typed as it is.
      const back = await server.call('browser_navigate', { url: site.url('/login.html') });
      // The form comes back as the agent last saw it, its fields emptied
      // (`~ [e3] -value`): the field keeps the ref the agent has.
      const field = refOf(nav.text, 'textbox "User"');
      assert.match(back.text, new RegExp(`~ \\[${field}\\] -value`), back.text);
      const plain = await server.call('browser_type', { ref: field, text: 'NOT_A_SECRET' });
      assert.match(plain.text, /Typed "NOT_A_SECRET"/);
    } finally {
      await server.close();
    }
  });

  test('--timeout-action is in milliseconds', async () => {
    const server = await startServer(['--timeout-action', '700']);
    try {
      await server.call('browser_navigate', { url: site.url('/list.html') });
      const r = await server.call('browser_wait_for', { text: 'never on this page' });
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, /text "never on this page" did not appear within 700 ms \(--timeout-action\)/);
    } finally {
      await server.close();
    }
  });

  test('--grant-permissions geolocation: the page may read the position without a prompt', async () => {
    const state = '() => navigator.permissions.query({ name: "geolocation" }).then((p) => p.state)';
    const plain = await startServer([]);
    try {
      await plain.call('browser_navigate', { url: site.url('/list.html') });
      assert.equal(await evaluate(plain, state), 'prompt');
    } finally {
      await plain.close();
    }
    const server = await startServer(['--grant-permissions', 'geolocation', '--geolocation', '52.52,13.405']);
    try {
      await server.call('browser_navigate', { url: site.url('/list.html') });
      assert.equal(await evaluate(server, state), 'granted');
      const pos = await evaluate(server, '() => new Promise((ok, no) => navigator.geolocation.getCurrentPosition((p) => ok([p.coords.latitude, p.coords.longitude]), (e) => no(e.message)))');
      assert.deepEqual(pos, [52.52, 13.405]);
    } finally {
      await server.close();
    }
  });

  test('--init-script runs in every page before its own scripts', async () => {
    const a = join(tmp, 'a.js');
    writeFileSync(a, 'window.__initScript = "from init.js";\n');
    const server = await startServer([...FULL, '--init-script', a]);
    try {
      const nav = await server.call('browser_navigate', { url: site.url('/probe.html') });
      assert.match(nav.text, /init: from init\.js/);
      const tab = await server.call('browser_tabs', { action: 'new', url: site.url('/probe.html') });
      assert.match(tab.text, /init: from init\.js/);
    } finally {
      await server.close();
    }
    const missing = await startServer(['--init-script', join(tmp, 'missing.js')]).catch((e) => e);
    assert.ok(missing instanceof Error, 'a missing init script stops start-up');
  });

  test('--device "iPhone 15" and --mobile: viewport, user agent, scale, touch', async () => {
    const facts = '() => ({ w: innerWidth, ua: navigator.userAgent, dpr: devicePixelRatio, touch: navigator.maxTouchPoints, ontouch: "ontouchstart" in window, mobile: matchMedia("(pointer: coarse)").matches })';
    const iphone = await startServer(['--device', 'iPhone 15']);
    try {
      await iphone.call('browser_navigate', { url: site.url('/list.html') });
      const f = await evaluate(iphone, facts);
      assert.equal(f.w, 393);
      assert.match(f.ua, /iPhone; CPU iPhone OS 17_5 like Mac OS X/);
      assert.equal(f.dpr, 3);
      assert.ok(f.touch > 0 && f.ontouch, JSON.stringify(f));
      // --viewport-size wins over the device's.
    } finally {
      await iphone.close();
    }
    const pixel = await startServer(['--mobile', '--viewport-size', '400x800']);
    try {
      await pixel.call('browser_navigate', { url: site.url('/list.html') });
      const f = await evaluate(pixel, facts);
      assert.equal(f.w, 400);
      assert.match(f.ua, /Android 16; Pixel 10/);
      assert.equal(f.dpr, 3);
      assert.ok(f.touch > 0, JSON.stringify(f));
    } finally {
      await pixel.close();
    }
    const desktop = await startServer([]);
    try {
      await desktop.call('browser_navigate', { url: site.url('/list.html') });
      const f = await evaluate(desktop, facts);
      assert.equal(f.w, 1280);
      assert.equal(f.touch, 0);
    } finally {
      await desktop.close();
    }
  });

  test('--console-level, --image-responses, --codegen, --test-id-attribute', async () => {
    const server = await startServer([...FULL, '--console-level', 'warning', '--image-responses', 'omit', '--codegen', 'python', '--test-id-attribute', 'name']);
    try {
      const nav = await server.call('browser_navigate', { url: site.url('/login.html') });
      const logs = section(nav.text, 'Console messages');
      assert.match(logs, /\[warn\] a warning line/);
      assert.doesNotMatch(logs, /debug line/);
      assert.match(section(nav.text, 'Ran Playwright code'), /^```python\npage\.goto\("http:\/\/127\.0\.0\.1:\d+\/login\.html"\)\n```/);
      const typed = await server.call('browser_type', { ref: refOf(nav.text, 'textbox "Token"'), text: 'x' });
      assert.match(section(typed.text, 'Ran Playwright code'), /page\.get_by_test_id\("token"\)\.fill\("x"\)/);
      assert.doesNotMatch(section(typed.text, 'Console messages') ?? '', /\[log\]/);
      const shot = await server.call('browser_take_screenshot', {});
      assert.equal(shot.isError, false, shot.text);
      assert.equal(shot.images.length, 0);
      assert.match(shot.text, /Took a screenshot/);
    } finally {
      await server.close();
    }
    const only = await startServer(['--image-responses', 'only', '--console-level', 'debug', '--codegen', 'none']);
    try {
      const nav = await only.call('browser_navigate', { url: site.url('/login.html') });
      assert.match(section(nav.text, 'Console messages'), /\[debug\] a debug line/);
      assert.equal(section(nav.text, 'Ran Playwright code'), null);
      const shot = await only.call('browser_take_screenshot', { expectation: { includeCode: true } });
      assert.equal(shot.text, '');
      assert.equal(shot.images.length, 1);
    } finally {
      await only.close();
    }
  });

  test('file: URLs are refused unless --allow-unrestricted-file-access', async () => {
    const file = join(tmp, 'local.html');
    writeFileSync(file, '<!doctype html><title>Local</title><h1>On disk</h1>');
    const server = await startServer([]);
    try {
      const r = await server.call('browser_navigate', { url: `file://${file}` });
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, /file: URLs are blocked unless the server runs with --allow-unrestricted-file-access/);
    } finally {
      await server.close();
    }
    const open = await startServer(['--allow-unrestricted-file-access']);
    try {
      const r = await open.call('browser_navigate', { url: `file://${file}` });
      assert.equal(r.isError, false, r.text);
      assert.match(r.text, /heading "On disk"/);
    } finally {
      await open.close();
    }
  });

  test('--save-session, --output-max-size and --file-paths', async () => {
    const out = join(tmp, 'out');
    const server = await startServer(['--save-session', '--output-dir', out, '--caps', 'pdf', '--output-max-size', '1', '--file-paths', 'absolute']);
    try {
      await server.call('browser_navigate', { url: site.url('/list.html') });
      const first = await server.call('browser_pdf_save', { filename: 'first.pdf' });
      assert.match(first.text, new RegExp(`Saved the page as PDF: ${out.replaceAll('/', '\\/')}\\/first\\.pdf`));
      const second = await server.call('browser_pdf_save', { filename: 'second.pdf' });
      assert.equal(second.isError, false, second.text);
      // Over the budget: the older file went, the one this call wrote stays.
      assert.equal(existsSync(join(out, 'first.pdf')), false);
      assert.equal(existsSync(join(out, 'second.pdf')), true);
      const session = readdirSync(out).find((n) => n.startsWith('session-'));
      assert.ok(session, readdirSync(out).join(', '));
      const log = readFileSync(join(out, session, 'session.md'), 'utf8');
      assert.match(log, /### Tool call: browser_navigate\n- Args\n```json\n\{\n  "url": "http:\/\/127\.0\.0\.1:\d+\/list\.html"\n\}\n```\n- Result\n/);
      assert.match(log, /### Tool call: browser_pdf_save/);
    } finally {
      await server.close();
    }
  });

  test('--snapshot-boxes: each element\'s box', async () => {
    const server = await startServer([...FULL, '--snapshot-boxes', '--viewport-size', '800x600']);
    try {
      const nav = await server.call('browser_navigate', { url: site.url('/list.html') });
      assert.match(nav.text, /- heading "Items" \[level=1\] \[ref=e\d+\] \[box=8,21,784,37\]|- heading "Items" \[level=1\] \[box=\d+,\d+,\d+,\d+\] \[ref=e\d+\]/);
      assert.match(nav.text, /button "Touch" \[ref=e\d+\] \[box=|button "Touch" \[box=/);
    } finally {
      await server.close();
    }
  });

  test('--idle-timeout: the browser closes when idle; the next call relaunches it and says so', async () => {
    const server = await startServer(['--idle-timeout', '800']);
    try {
      await server.call('browser_navigate', { url: site.url('/list.html') });
      await until(() => /closing the browser: no call for 800 ms \(--idle-timeout\)/.test(server.log()), 20000, 'the idle close');
      const r = await server.call('browser_navigate', { url: site.url('/list.html') });
      assert.equal(r.isError, false, r.text);
      assert.match(r.text, /The browser was closed after 800 ms without a call \(--idle-timeout\) and was relaunched/);
    } finally {
      await server.close();
    }
  });

  test('--block-service-workers: a page cannot register one', async () => {
    const registrations = '() => navigator.serviceWorker.getRegistrations().then((r) => r.length)';
    const server = await startServer([...FULL, '--block-service-workers']);
    try {
      const nav = await server.call('browser_navigate', { url: site.url('/sw.html') });
      await server.call('browser_wait_for', { textGone: 'pending' });
      assert.equal(await evaluate(server, registrations), 0);
      assert.match(nav.text, /\[warn\] Service worker registration is blocked \(--block-service-workers\)/);
    } finally {
      await server.close();
    }
    const plain = await startServer(FULL);
    try {
      await plain.call('browser_navigate', { url: site.url('/sw.html') });
      await plain.call('browser_wait_for', { textGone: 'pending' });
      await until(async () => (await evaluate(plain, registrations)) === 1, 15000, 'a registration without the flag');
    } finally {
      await plain.close();
    }
  });

  test('--profile-dir-name: the profile inside --user-data-dir', async () => {
    const dir = join(tmp, 'profile');
    const server = await startServer(['--user-data-dir', dir, '--profile-dir-name', 'Profile 7']);
    try {
      await server.call('browser_navigate', { url: site.url('/list.html') });
      await until(() => existsSync(join(dir, 'Profile 7')), 10000, 'the named profile directory');
      assert.equal(existsSync(join(dir, 'Default')), false);
    } finally {
      await server.close();
    }
  });
});

describe('snapshot modes: diffs with no flags', () => {
  let site;
  before(async () => { site = await serveSite(undefined, PAGES, HANDLERS); });
  after(async () => { await site?.close(); });

  test('with no flags: action responses are diffs; browser_snapshot is full when asked and on another document', async () => {
    const server = await startServer([]);
    try {
      const nav = await server.call('browser_navigate', { url: site.url('/list.html') });
      assert.match(nav.text, /### Page snapshot\n```yaml\n/);
      assert.doesNotMatch(nav.text, /Snapshot ts:/);
      // An action: only what changed, as a patch by ref.
      const click = await server.call('browser_click', { ref: refOf(nav.text, 'button "Touch"') });
      assert.match(click.text, /### Page snapshot \(patch\)\n```\n~ heading "Items \(clicked\)" \[level=1\] \[ref=e\d+\]\n/);
      assert.doesNotMatch(click.text, /Item 17/);
      // browser_snapshot: what changed since the agent's last view (nothing).
      const same = await server.call('browser_snapshot', {});
      assert.match(section(same.text, 'Page snapshot'), /^No changes since the previous response/);
      // full: true, the whole page; the next diff is against it.
      const whole = await server.call('browser_snapshot', { full: true });
      assert.match(whole.text, /### Page snapshot\n```yaml\n[\s\S]*- listitem \[ref=e\d+\]: Item 17\n/);
      const after = await server.call('browser_snapshot', {});
      assert.match(section(after.text, 'Page snapshot'), /^No changes since the previous response/);
      // Another document: the navigation's answer is the smallest one (the
      // same page loaded again, its refs carried: a patch);
      // browser_snapshot then shows the new document whole, since the
      // agent had no full view of it.
      const again = await server.call('browser_navigate', { url: site.url('/list.html') });
      assert.match(again.text, /### Page snapshot \(patch\)\n```\n~ heading "Items" \[level=1\]/);
      const fresh = await server.call('browser_snapshot', {});
      assert.match(fresh.text, /### Page snapshot\n```yaml\n[\s\S]*- listitem \[ref=e\d+\]: Item 17\n/);
      // A document the navigation showed whole needs no second copy.
      const other = await server.call('browser_navigate', { url: site.url('/other.html') });
      assert.match(other.text, /heading "Another page"/);
      const seen = await server.call('browser_snapshot', {});
      assert.match(section(seen.text, 'Page snapshot'), /^No changes since the previous response/);
    } finally {
      await server.close();
    }
  });

  test('--snapshot-mode full answers in full; none leaves the snapshot to browser_snapshot; --default-expectation still works', async () => {
    const full = await startServer(['--snapshot-mode', 'full']);
    try {
      const nav = await full.call('browser_navigate', { url: site.url('/list.html') });
      const click = await full.call('browser_click', { ref: refOf(nav.text, 'button "Touch"') });
      assert.match(click.text, /### Page snapshot\n```yaml\n[\s\S]*Item 17/);
      assert.match(click.text, /Snapshot ts: \d+/);
    } finally {
      await full.close();
    }
    const none = await startServer(['--snapshot-mode', 'none']);
    try {
      const nav = await none.call('browser_navigate', { url: site.url('/list.html') });
      assert.equal(section(nav.text, 'Page snapshot'), null);
      const snap = await none.call('browser_snapshot', {});
      assert.match(snap.text, /### Page snapshot\n```yaml\n[\s\S]*Item 17/);
    } finally {
      await none.close();
    }
    const old = await startServer(['--default-expectation', '{"diffOptions": {"enabled": false}}']);
    try {
      const nav = await old.call('browser_navigate', { url: site.url('/list.html') });
      const click = await old.call('browser_click', { ref: refOf(nav.text, 'button "Touch"') });
      assert.match(click.text, /### Page snapshot\n```yaml\n[\s\S]*Item 17/);
    } finally {
      await old.close();
    }
  });
});
