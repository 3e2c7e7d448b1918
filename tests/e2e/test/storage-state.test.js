// browser_storage_state (`--caps storage`, issue 27 item 4): a page's
// cookie and localStorage saved to the output directory, and loaded back
// by a new server with --storage-state. Real Chromium, real MCP client,
// pages on 127.0.0.1.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { section, serveSite, startServer } from './helpers.js';

const COOKIE = 's3cret-cookie-value';
const TOKEN = 't0ken-in-local-storage';
const PAGES = {
  '/set': `<!doctype html><title>set</title><script>
    document.cookie = 'sid=${COOKIE}; path=/';
    localStorage.setItem('token', '${TOKEN}');
  </script><h1>set</h1>`,
  '/show': `<!doctype html><title>show</title><h1>show</h1><p id="c"></p><p id="l"></p><script>
    document.getElementById('c').textContent = 'cookie: ' + (document.cookie || 'none');
    document.getElementById('l').textContent = 'storage: ' + (localStorage.getItem('token') || 'none');
  </script>`,
};

const tmp = mkdtempSync(join(tmpdir(), 'rd-e2e-storage-'));
let site;
before(async () => { site = await serveSite(undefined, PAGES); });
after(async () => {
  await site?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('browser_storage_state', () => {
  test('saves cookies and localStorage; a new server loads them with --storage-state', async () => {
    const out = join(tmp, 'out');
    const a = await startServer(['--caps', 'storage', '--output-dir', out]);
    let file;
    try {
      const names = (await a.client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('browser_storage_state'));
      const nav = await a.call('browser_navigate', { url: site.url('/set') });
      assert.ok(!nav.isError, nav.text);
      const r = await a.call('browser_storage_state', { filename: 'auth.json' });
      assert.ok(!r.isError, r.text);
      file = join(out, 'auth.json');
      assert.match(r.text, /Saved the storage state: .*auth\.json \(1 cookie, 1 origin with localStorage\)/);
      // The file is the user's; the answer never shows the values.
      assert.ok(!r.text.includes(COOKIE) && !r.text.includes(TOKEN), r.text);
      const state = JSON.parse(readFileSync(file, 'utf8'));
      assert.deepEqual(state.cookies.map((c) => [c.name, c.value, c.domain, c.path]), [['sid', COOKIE, '127.0.0.1', '/']]);
      assert.deepEqual(state.origins, [{ origin: site.origin, localStorage: [{ name: 'token', value: TOKEN }] }]);

      // No filename: storage-state-<ms>.json; a path is refused.
      const d = await a.call('browser_storage_state', {});
      assert.ok(!d.isError, d.text);
      assert.ok(readdirSync(out).some((f) => /^storage-state-\d+\.json$/.test(f)), readdirSync(out).join());
      const bad = await a.call('browser_storage_state', { filename: '../x.json' }).catch((e) => ({ isError: true, text: e.message }));
      assert.ok(bad.isError);
      assert.match(bad.text, /must be a plain file name/);
    } finally {
      await a.close();
    }

    const b = await startServer(['--storage-state', file]);
    try {
      const r = await b.call('browser_navigate', { url: site.url('/show') });
      const snap = section(r.text, 'Page snapshot') || '';
      assert.match(snap, new RegExp(`cookie: sid=${COOKIE}`), r.text);
      assert.match(snap, new RegExp(`storage: ${TOKEN}`), r.text);
    } finally {
      await b.close();
    }
  });

  test('is absent without --caps storage', async () => {
    const s = await startServer([]);
    try {
      const names = (await s.client.listTools()).tools.map((t) => t.name);
      assert.ok(!names.includes('browser_storage_state'));
      const r = await s.call('browser_storage_state', {}).catch((e) => ({ isError: true, text: e.message }));
      assert.ok(r.isError);
      assert.match(r.text, /browser_storage_state is an opt-in tool; start the server with --caps storage/);
    } finally {
      await s.close();
    }
  });
});
