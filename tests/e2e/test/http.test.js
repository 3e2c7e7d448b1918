// The server over streamable HTTP (issue 27) with the official MCP client's
// StreamableHTTPClientTransport: a browser context per client, a client
// that leaves mid-call, attaching to a Chromium this test starts, storage
// state, blocked origins, the config file, the Host header check. Pages on
// 127.0.0.1, real Chromium.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import WebSocket from 'ws';

import { FULL, binary, childProcesses, gone, refOf, section, serveSite } from './helpers.js';
import { connect, startChromium, startHttpServer, until } from './http-helpers.js';

const PAGES = {
  // Sets a cookie and a localStorage item named after ?who=…
  '/set': `<!doctype html><title>set</title><script>
    const who = new URLSearchParams(location.search).get('who');
    document.cookie = 'who=' + who + '; path=/';
    localStorage.setItem('who', who);
  </script><h1>set</h1>`,
  // Shows what the browser context holds for this origin.
  '/show': `<!doctype html><title>show</title><h1>show</h1><p id="c"></p><p id="l"></p><script>
    document.getElementById('c').textContent = 'cookie: ' + (document.cookie || 'none');
    document.getElementById('l').textContent = 'storage: ' + (localStorage.getItem('who') || 'none');
  </script>`,
  '/login': `<!doctype html><title>login</title><label>Password <input type="password"></label>`,
  // Shows ?t=… as page text.
  '/echo': `<!doctype html><title>echo</title><p id="t"></p><script>
    document.getElementById('t').textContent = 'echo: ' + new URLSearchParams(location.search).get('t');
  </script>`,
};

const tmp = mkdtempSync(join(tmpdir(), 'rd-e2e-http-'));
let site;
before(async () => { site = await serveSite(undefined, PAGES); });
after(async () => {
  await site?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** The snapshot's "cookie: …" and "storage: …" lines. */
function shown(text) {
  const snap = section(text, 'Page snapshot') || '';
  return {
    cookie: snap.match(/cookie: ([^"\n]*)/)?.[1],
    storage: snap.match(/storage: ([^"\n]*)/)?.[1],
  };
}

/** A raw HTTP request to the server; resolves with the status. */
function raw(port, headers, body) {
  return new Promise((ok, fail) => {
    const req = request({
      host: '127.0.0.1', port, path: '/mcp', method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    }, (res) => { res.resume(); res.on('end', () => ok(res.statusCode)); });
    req.on('error', fail);
    req.end(body);
  });
}

const INIT = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('HTTP: a browser context per client', () => {
  let server;
  before(async () => { server = await startHttpServer([...FULL, '--session-timeout', '8', '--action-timeout', '4']); });
  after(async () => { await server?.stop(); });

  test('two clients are isolated: cookies, storage and tabs are their own', async () => {
    const a = await connect(server.url, 'a');
    const b = await connect(server.url, 'b');
    try {
      await a.call('browser_navigate', { url: site.url('/set?who=alice') });
      const seenByA = shown((await a.call('browser_navigate', { url: site.url('/show') })).text);
      assert.deepEqual(seenByA, { cookie: 'who=alice', storage: 'alice' });
      const seenByB = shown((await b.call('browser_navigate', { url: site.url('/show') })).text);
      assert.deepEqual(seenByB, { cookie: 'none', storage: 'none' });
      // B opens a second tab; A still has one.
      await b.call('browser_tabs', { action: 'new' });
      const tabsA = (await a.call('browser_tabs', { action: 'list' })).text;
      assert.match(tabsA, /1 open tab\b/);
      assert.ok(!tabsA.includes('about:blank'), tabsA);
      const tabsB = (await b.call('browser_tabs', { action: 'list' })).text;
      assert.match(tabsB, /2 open tabs/);
      assert.equal(server.openContexts(), 2);
    } finally {
      await a.close();
      await b.close();
    }
    await until(() => server.openContexts() === 0, 10000, 'contexts closed after DELETE');
  });

  test("one client's password is masked in its own pages only (issue 41)", async () => {
    const a = await connect(server.url, 'a');
    const b = await connect(server.url, 'b');
    const secret = 'alice-Pass-4711';
    try {
      const login = (await a.call('browser_navigate', { url: site.url('/login') })).text;
      const typed = await a.call('browser_type', { ref: refOf(login, 'textbox "Password"'), text: secret });
      assert.equal(typed.isError, false, typed.text);
      const echo = site.url(`/echo?t=${secret}`);
      // B never saw it: its page shows the text as it is.
      const seenByB = (await b.call('browser_navigate', { url: echo })).text;
      assert.match(seenByB, new RegExp(`echo: ${secret}`), seenByB);
      // A typed it: masked wherever it shows up in A's answers.
      const seenByA = (await a.call('browser_navigate', { url: echo })).text;
      assert.ok(!seenByA.includes(secret), seenByA);
      assert.match(seenByA, /echo: \[password, 15 characters\]/, seenByA);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('a client that disconnects mid-call leaves no context and does not hold up the others', async () => {
    let held = 0;
    const slow = await serveSite(undefined, {}, {
      '/hold': () => { held += 1; }, // never answered while the test runs
    });
    const a = await connect(server.url, 'leaver');
    const b = await connect(server.url, 'stayer');
    try {
      await b.call('browser_navigate', { url: site.url('/show') });
      const hung = a.call('browser_navigate', { url: slow.url('/hold') }).catch((e) => e);
      await until(() => held === 1, 10000, 'the held request');
      assert.equal(server.openContexts(), 2);
      // The leaver goes away without a word (no DELETE) while its call runs.
      await a.transport.close();
      await hung;
      // The other client is served while the leaver's navigation is still held.
      for (let i = 0; i < 3; i += 1) {
        const r = await b.call('browser_snapshot');
        assert.equal(r.isError, false, r.text);
        assert.match(r.text, /cookie: none/);
      }
      assert.equal(held, 1);
      // The leaver's session times out (--session-timeout 8): its context
      // goes. The stayer keeps working meanwhile (and so is never idle).
      await until(async () => {
        const r = await b.call('browser_snapshot');
        assert.equal(r.isError, false, r.text);
        return server.openContexts() === 1;
      }, 20000, "the leaver's context to close");
    } catch (e) {
      console.log(`# server log:\n${server.log().replace(/^/gm, '# ')}`);
      throw e;
    } finally {
      await b.close();
      await slow.close();
    }
    await until(() => server.openContexts() === 0, 10000, 'all contexts closed');
    assert.ok(!gone(server.proc.pid), 'the server is still running');
  });

  test('the Host header must name the address the server listens on', async () => {
    assert.equal(await raw(server.port, { host: `127.0.0.1:${server.port}` }, INIT), 200);
    assert.equal(await raw(server.port, { host: `localhost:${server.port}` }, INIT), 200);
    assert.equal(await raw(server.port, { host: `evil.example:${server.port}` }, INIT), 403);
    assert.equal(await raw(server.port, { host: `127.0.0.1:${server.port + 1}` }, INIT), 403);
    assert.equal(await raw(server.port, { host: `127.0.0.1:${server.port}`, origin: 'http://evil.example' }, INIT), 403);
    assert.equal(await raw(server.port, { host: `127.0.0.1:${server.port}`, origin: `http://localhost:${server.port}` }, INIT), 200);
  });

  test('--allowed-hosts widens the Host check', async () => {
    const s = await startHttpServer([...FULL, '--allowed-hosts', 'mcp.example']);
    try {
      assert.equal(await raw(s.port, { host: `mcp.example:${s.port}` }, INIT), 200);
      assert.equal(await raw(s.port, { host: `other.example:${s.port}` }, INIT), 403);
    } finally {
      await s.stop();
    }
  });

  test('the browser the server launched stops with it', async () => {
    const s = await startHttpServer(FULL);
    const c = await connect(s.url);
    await c.call('browser_navigate', { url: site.url('/show') });
    const browsers = childProcesses(s.proc.pid, 'chromium');
    assert.ok(browsers.length > 0, 'a chromium child');
    await c.close();
    const { code } = await s.stop();
    assert.equal(code, 0);
    await until(() => browsers.every(gone), 10000, 'chromium to exit');
  });
});

describe('HTTP: attach to a running Chromium (--cdp-endpoint)', () => {
  test('sessions get their own contexts; the browser outlives the server', async () => {
    const chromium = await startChromium();
    try {
      const before = (await chromium.pages()).length;
      const server = await startHttpServer([...FULL, '--cdp-endpoint', chromium.endpoint]);
      const a = await connect(server.url, 'a');
      const b = await connect(server.url, 'b');
      await a.call('browser_navigate', { url: site.url('/set?who=ann') });
      const r = await b.call('browser_navigate', { url: site.url('/show') });
      assert.deepEqual(shown(r.text), { cookie: 'none', storage: 'none' });
      assert.equal((await chromium.pages()).length, before + 2);
      // The browser's own tab is not a client's.
      const tabs = (await a.call('browser_tabs', { action: 'list' })).text;
      assert.match(tabs, /1 open tab\b/);
      await a.close();
      await until(async () => (await chromium.pages()).length === before + 1, 10000, "a's page to close");
      await b.close();
      await until(async () => (await chromium.pages()).length === before, 10000, "b's page to close");
      const { code } = await server.stop();
      assert.equal(code, 0);
      assert.ok(chromium.alive(), 'chromium still runs after the server exited');
      assert.match((await chromium.version()).Browser, /Chrome|Chromium/);
      assert.equal((await chromium.pages()).length, before);
    } finally {
      await chromium.kill();
    }
  });

  test("a renderer crash in one client's context leaves the others alone", async () => {
    const chromium = await startChromium();
    const server = await startHttpServer([...FULL, '--cdp-endpoint', chromium.endpoint]);
    try {
      const a = await connect(server.url, 'a');
      const b = await connect(server.url, 'b');
      await a.call('browser_navigate', { url: site.url('/set?who=crash') });
      await b.call('browser_navigate', { url: site.url('/show') });
      // Crash a's tab through the browser's own DevTools endpoint.
      const target = (await chromium.pages()).find((t) => t.url.includes('who=crash'));
      assert.ok(target, 'a\'s page target');
      const ws = new WebSocket(target.webSocketDebuggerUrl);
      await new Promise((ok, fail) => { ws.on('open', ok); ws.on('error', fail); });
      ws.send(JSON.stringify({ id: 1, method: 'Page.crash' }));
      await new Promise((ok) => setTimeout(ok, 500));
      ws.terminate();
      const rb = await b.call('browser_snapshot');
      assert.equal(rb.isError, false, rb.text);
      assert.doesNotMatch(rb.text, /crash/);
      assert.match(rb.text, /cookie: none/);
      const ra = await a.call('browser_snapshot');
      assert.match(ra.text, /The tab's page had crashed \(its renderer process died\) and was reloaded/);
      await a.close();
      await b.close();
    } finally {
      await server.stop();
      await chromium.kill();
    }
  });

  test('a ws:// endpoint works too; a wrong endpoint is a clear tool error', async () => {
    const chromium = await startChromium();
    try {
      const server = await startHttpServer([...FULL, '--cdp-endpoint', chromium.ws]);
      const c = await connect(server.url);
      const r = await c.call('browser_navigate', { url: site.url('/show') });
      assert.equal(r.isError, false, r.text);
      await c.close();
      await server.stop();
    } finally {
      await chromium.kill();
    }
    const server = await startHttpServer([...FULL, '--cdp-endpoint', 'http://127.0.0.1:9']);
    try {
      const c = await connect(server.url);
      const r = await c.call('browser_navigate', { url: site.url('/show') });
      assert.equal(r.isError, true);
      assert.match(r.text, /remote-debugging-port/);
      await c.close();
    } finally {
      await server.stop();
    }
  });
});

describe('HTTP: logins, origins, config', () => {
  test('--storage-state loads cookies and localStorage into every context', async () => {
    const state = join(tmp, 'auth.json');
    writeFileSync(state, JSON.stringify({
      cookies: [{ name: 'who', value: 'saved', domain: '127.0.0.1', path: '/', expires: -1, httpOnly: false, secure: false, sameSite: 'Lax' }],
      origins: [{ origin: site.origin, localStorage: [{ name: 'who', value: 'kept' }] }],
    }));
    const server = await startHttpServer([...FULL, '--storage-state', state]);
    try {
      for (const name of ['a', 'b']) {
        const c = await connect(server.url, name);
        const r = await c.call('browser_navigate', { url: site.url('/show') });
        assert.deepEqual(shown(r.text), { cookie: 'who=saved', storage: 'kept' }, r.text);
        await c.close();
      }
    } finally {
      await server.stop();
    }
  });

  test('a blocked origin fails in the page, and navigating to it is refused', async () => {
    const other = await serveSite(undefined, { '/data': 'secret' });
    let asked = 0;
    const page = await serveSite(undefined, {
      '/fetch': `<!doctype html><title>fetch</title><p id="out">waiting</p><script>
        fetch('${other.url('/data')}').then((r) => r.text()).then(
          (t) => { document.getElementById('out').textContent = 'got ' + t; },
          () => { document.getElementById('out').textContent = 'request failed'; });
      </script>`,
    }, { '/count': (req, res) => { asked += 1; res.end('x'); } });
    const server = await startHttpServer([...FULL, '--blocked-origins', `${other.origin};http://127.0.0.1:1`]);
    try {
      const c = await connect(server.url);
      await c.call('browser_navigate', { url: page.url('/fetch') });
      const r = await c.call('browser_wait_for', { text: 'request failed' });
      assert.equal(r.isError, false, r.text);
      const nav = await c.call('browser_navigate', { url: other.url('/data') });
      assert.equal(nav.isError, true);
      assert.match(nav.text, /is blocked: its origin http:\/\/127\.0\.0\.1:\d+ matches .* of --blocked-origins/);
      await c.close();
    } finally {
      await server.stop();
      await other.close();
      await page.close();
    }
    assert.equal(asked, 0);
  });

  test('--user-agent and --viewport-size reach the page, launched or attached', async () => {
    const who = await serveSite(undefined, {
      '/who': `<!doctype html><title>who</title><p id="w"></p><script>
        document.getElementById('w').textContent = 'ua=' + navigator.userAgent + ' width=' + innerWidth;
      </script>`,
    });
    const chromium = await startChromium();
    try {
      for (const extra of [[], ['--cdp-endpoint', chromium.endpoint]]) {
        const server = await startHttpServer([...FULL, '--user-agent', 'rd-agent/1.0', '--viewport-size', '900x700', ...extra]);
        try {
          const c = await connect(server.url);
          const r = await c.call('browser_navigate', { url: who.url('/who') });
          assert.match(r.text, /ua=rd-agent\/1\.0 width=900/, `${extra.join(' ')}: ${r.text}`);
          await c.close();
        } finally {
          await server.stop();
        }
      }
    } finally {
      await chromium.kill();
      await who.close();
    }
  });

  test('--proxy-server and --proxy-bypass send the pages through the proxy, launched or attached', async () => {
    // A forwarding HTTP proxy on 127.0.0.1 that notes what it carried.
    const seen = [];
    const proxy = createServer((req, res) => {
      seen.push(req.url);
      const up = request(req.url, { method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode, r.headers);
        r.pipe(res);
      });
      up.on('error', () => { res.writeHead(502); res.end(); });
      req.pipe(up);
    });
    await new Promise((ok) => proxy.listen(0, '127.0.0.1', ok));
    const chromium = await startChromium();
    try {
      for (const extra of [[], ['--cdp-endpoint', chromium.endpoint]]) {
        seen.length = 0;
        // Chromium never proxies loopback unless told to (`<-loopback>`).
        const server = await startHttpServer([...FULL, 
          '--proxy-server', `http://127.0.0.1:${proxy.address().port}`, '--proxy-bypass', '<-loopback>', ...extra,
        ]);
        try {
          const c = await connect(server.url);
          const r = await c.call('browser_navigate', { url: site.url('/show') });
          assert.equal(r.isError, false, r.text);
          assert.match(r.text, /cookie: none/);
          assert.ok(seen.includes(site.url('/show')), `${extra.join(' ')}: the proxy carried ${seen}`);
          await c.close();
        } finally {
          await server.stop();
        }
      }
    } finally {
      await chromium.kill();
      proxy.closeAllConnections();
      await new Promise((ok) => proxy.close(ok));
    }
  });

  test('--isolated over stdio: a browser context of its own', async () => {
    const { startServer } = await import('./helpers.js');
    const s = await startServer([...FULL, '--isolated']);
    try {
      await s.call('browser_navigate', { url: site.url('/set?who=iso') });
      const r = await s.call('browser_navigate', { url: site.url('/show') });
      assert.deepEqual(shown(r.text), { cookie: 'who=iso', storage: 'iso' });
      assert.match(s.log(), /browser context \S+ opened \(1 open\)/);
    } finally {
      await s.close();
    }
  });

  test('--config: keys are the flags in camelCase, flags win', async () => {
    const config = join(tmp, 'config.json');
    writeFileSync(config, JSON.stringify({
      sessionTimeout: 30,
      defaultExpectation: { includeSnapshot: false },
      blockedOrigins: ['http://127.0.0.1:1'],
    }));
    let server = await startHttpServer([...FULL, '--config', config]);
    try {
      const c = await connect(server.url);
      const r = await c.call('browser_navigate', { url: site.url('/show') });
      assert.equal(section(r.text, 'Page snapshot'), null, r.text);
      const blocked = await c.call('browser_navigate', { url: 'http://127.0.0.1:1/' });
      assert.match(blocked.text, /--blocked-origins/);
      await c.close();
    } finally {
      await server.stop();
    }
    server = await startHttpServer([...FULL, '--config', config, '--default-expectation', '{"includeSnapshot": true}']);
    try {
      const c = await connect(server.url);
      const r = await c.call('browser_navigate', { url: site.url('/show') });
      assert.notEqual(section(r.text, 'Page snapshot'), null, r.text);
      await c.close();
    } finally {
      await server.stop();
    }
  });

  test('a bad config key or type is an error naming it, before any browser starts', () => {
    const cases = [
      [{ prot: 8931 }, /unknown key `prot`; the keys are the long flags in camelCase: .*port/],
      [{ isolated: 'yes' }, /key `isolated` must be true or false/],
      [{ port: 'eighty' }, /key `port`: .*invalid value 'eighty'/],
      [{ config: 'other.json' }, /unknown key `config`/],
      [{ storageState: join(tmp, 'missing.json') }, /--storage-state \(from config file \S+: key `storageState`\): reading/],
      [{ blockedOrigins: 'example.com' }, /--blocked-origins \(from config file \S+: key `blockedOrigins`\): `example.com` is not an origin/],
    ];
    for (const [json, message] of cases) {
      const file = join(tmp, 'bad.json');
      writeFileSync(file, JSON.stringify(json));
      const r = spawnSync(binary(), ['mcp', '--config', file], { encoding: 'utf8', timeout: 10000 });
      assert.equal(r.status, 2, `${JSON.stringify(json)}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /browser started/);
    }
  });
});
