// A browser farm on loopback (docs/DECISIONS.md D53, D54): a real
// Chromium's CDP port on 127.0.0.1 behind a TLS-terminating proxy started
// here, with a certificate made here (openssl: a CA and a certificate for
// 127.0.0.1 it signs), that refuses every connection without the
// `Authorization: Bearer …` header, as a hosted browser service or a
// self-run grid behind a reverse proxy does. The server reaches it with
// --cdp-endpoint https://… or wss://…, --cdp-header and Node's
// NODE_EXTRA_CA_CERTS; the remote browser is killed and started again, and
// the next call connects again and says so.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect as tcpConnect, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { section, serveSite, startServer } from './helpers.js';
import { startChromium } from './http-helpers.js';

const TOKEN = 'farm-test-token-7f3a';
const QUERY_SECRET = 'qs-secret-19c2';

/** A CA and a certificate for 127.0.0.1 signed by it, in `dir`. */
function makeCertificates(dir) {
  const run = (...args) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=response-diff e2e CA',
    '-keyout', 'ca.key', '-out', 'ca.pem',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', 'server.key', '-out', 'server.csr');
  writeFileSync(join(dir, 'server.ext'), 'basicConstraints=CA:FALSE\nsubjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial',
    '-days', '2', '-extfile', 'server.ext', '-out', 'server.pem');
  return {
    ca: join(dir, 'ca.pem'),
    key: readFileSync(join(dir, 'server.key')),
    cert: readFileSync(join(dir, 'server.pem')),
  };
}

/**
 * HTTPS and WSS on 127.0.0.1 in front of a Chromium's CDP port
 * (`proxy.upstream`, changeable): a request or WebSocket upgrade without
 * `Authorization: Bearer TOKEN` gets 401; the others go to Chromium with
 * the Host header it accepts. `refused` counts the 401s.
 */
async function startProxy({ key, cert }, upstream) {
  const proxy = { upstream, refused: 0, sockets: new Set() };
  const allowed = (req) => req.headers.authorization === `Bearer ${TOKEN}`;
  const server = createHttpsServer({ key, cert }, (req, res) => {
    if (!allowed(req)) {
      proxy.refused += 1;
      res.writeHead(401, { 'content-type': 'text/plain' });
      res.end('missing or wrong token');
      return;
    }
    const up = httpRequest({ host: '127.0.0.1', port: proxy.upstream, path: req.url, method: req.method,
      headers: { ...req.headers, host: `127.0.0.1:${proxy.upstream}` } }, (r) => {
      res.writeHead(r.statusCode, r.headers);
      r.pipe(res);
    });
    up.on('error', () => { res.writeHead(502); res.end('the browser is not there'); });
    req.pipe(up);
  });
  server.on('upgrade', (req, socket, head) => {
    proxy.sockets.add(socket);
    socket.on('close', () => proxy.sockets.delete(socket));
    if (!allowed(req)) {
      proxy.refused += 1;
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const up = tcpConnect(proxy.upstream, '127.0.0.1', () => {
      const headers = { ...req.headers, host: `127.0.0.1:${proxy.upstream}` };
      delete headers.authorization;
      const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
      up.write(`${req.method} ${req.url} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    const end = () => { up.destroy(); socket.destroy(); };
    up.on('error', end);
    up.on('close', end);
    socket.on('error', end);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  proxy.port = server.address().port;
  proxy.close = () => new Promise((ok) => {
    for (const s of proxy.sockets) s.destroy();
    server.close(ok);
    server.closeAllConnections();
  });
  return proxy;
}

describe('a browser farm over TLS (--cdp-endpoint https:// and wss://, --cdp-header)', () => {
  let dir;
  let certs;
  let chromium;
  let proxy;
  let site;
  const auth = ['--cdp-header', `Authorization: Bearer ${TOKEN}`];
  const env = (extra = {}) => ({ NODE_EXTRA_CA_CERTS: certs.ca, NODE_TLS_REJECT_UNAUTHORIZED: undefined, ...extra });
  const transcript = [];
  const record = (r) => { transcript.push(r.text); return r; };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rd-e2e-farm-'));
    certs = makeCertificates(dir);
    chromium = await startChromium();
    proxy = await startProxy(certs, Number(new URL(chromium.endpoint).port));
    site = await serveSite(undefined, { '/farm.html': '<!doctype html><title>Farm</title><h1>Served to a remote browser</h1><button>Go</button>' });
  });

  after(async () => {
    await proxy?.close();
    await chromium?.kill();
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
    // No credential in any response.
    for (const t of transcript) {
      assert.ok(!t.includes(TOKEN), t);
      assert.ok(!t.includes(QUERY_SECRET), t);
    }
  });

  test('https:// with the header and the CA: the pages load; without the header the proxy refuses it', async () => {
    const endpoint = `https://127.0.0.1:${proxy.port}/?token=${QUERY_SECRET}`;
    const server = await startServer(['--cdp-endpoint', endpoint, ...auth], { env: env() });
    try {
      const r = record(await server.call('browser_navigate', { url: site.url('/farm.html') }));
      assert.equal(r.isError, false, r.text);
      assert.match(section(r.text, 'Page snapshot'), /- heading "Served to a remote browser" \[level=1\]/);
      assert.match(server.log(), new RegExp(`attached to the browser at https://127\\.0\\.0\\.1:${proxy.port}/\\?token=…`));
      assert.ok(!server.log().includes(QUERY_SECRET) && !server.log().includes(TOKEN), 'no credential in the log');
    } finally {
      await server.close();
    }

    const before = proxy.refused;
    const bare = await startServer(['--cdp-endpoint', endpoint], { env: env() });
    try {
      const r = record(await bare.call('browser_navigate', { url: site.url('/farm.html') }));
      assert.equal(r.isError, true);
      assert.match(r.text, /could not attach to the browser at --cdp-endpoint https:\/\/127\.0\.0\.1:\d+\/\?token=…: .*answered `HTTP\/1\.1 401 Unauthorized`: the endpoint wants credentials \(--cdp-header, or a token in the URL\)/);
      assert.ok(proxy.refused > before, 'the proxy refused the connection without the header');
    } finally {
      await bare.close();
    }
  });

  test("wss:// straight to the browser's WebSocket, through the proxy; refused without the header", async () => {
    const id = new URL(chromium.ws).pathname;
    const endpoint = `wss://127.0.0.1:${proxy.port}${id}`;
    const server = await startServer(['--cdp-endpoint', endpoint, ...auth], { env: env() });
    try {
      const r = record(await server.call('browser_navigate', { url: site.url('/farm.html') }));
      assert.equal(r.isError, false, r.text);
      assert.match(r.text, /heading "Served to a remote browser"/);
    } finally {
      await server.close();
    }
    const before = proxy.refused;
    const bare = await startServer(['--cdp-endpoint', endpoint], { env: env() });
    try {
      const r = record(await bare.call('browser_snapshot', {}));
      assert.equal(r.isError, true);
      assert.match(r.text, /the WebSocket handshake was refused with HTTP 401 Unauthorized: the endpoint wants credentials/);
      assert.equal(proxy.refused, before + 1);
    } finally {
      await bare.close();
    }
  });

  test("an untrusted certificate is refused with what to do; NODE_TLS_REJECT_UNAUTHORIZED=0 lets it through, logged", async () => {
    const endpoint = `https://127.0.0.1:${proxy.port}`;
    const untrusted = await startServer(['--cdp-endpoint', endpoint, ...auth], { env: env({ NODE_EXTRA_CA_CERTS: undefined }) });
    try {
      const r = record(await untrusted.call('browser_snapshot', {}));
      assert.equal(r.isError, true);
      assert.match(r.text, /the TLS certificate of 127\.0\.0\.1 is not trusted \(invalid peer certificate: UnknownIssuer\): if a private CA signed it, set NODE_EXTRA_CA_CERTS to that CA's PEM file/);
    } finally {
      await untrusted.close();
    }
    const unchecked = await startServer(['--cdp-endpoint', endpoint, ...auth], { env: env({ NODE_EXTRA_CA_CERTS: undefined, NODE_TLS_REJECT_UNAUTHORIZED: '0' }) });
    try {
      const r = record(await unchecked.call('browser_navigate', { url: site.url('/farm.html') }));
      assert.equal(r.isError, false, r.text);
      assert.match(unchecked.log(), /NODE_TLS_REJECT_UNAUTHORIZED=0: the TLS certificate of 127\.0\.0\.1 is not checked/);
    } finally {
      await unchecked.close();
    }
  });

  test('the remote browser killed: calls fail while it is away, then the next call connects again and says so', async () => {
    const endpoint = `https://127.0.0.1:${proxy.port}/?token=${QUERY_SECRET}`;
    const server = await startServer(['--cdp-endpoint', endpoint, ...auth, '--cdp-timeout', '10000'], { env: env() });
    try {
      const first = record(await server.call('browser_navigate', { url: site.url('/farm.html') }));
      assert.equal(first.isError, false, first.text);

      await chromium.kill();
      const away = record(await server.call('browser_snapshot', {}));
      assert.equal(away.isError, true, away.text);
      assert.match(away.text, /could not attach to the browser at --cdp-endpoint https:\/\/127\.0\.0\.1:\d+\/\?token=…: .*the next call tries again/);

      chromium = await startChromium();
      proxy.upstream = Number(new URL(chromium.endpoint).port);
      const back = record(await server.call('browser_navigate', { url: site.url('/farm.html') }));
      assert.equal(back.isError, false, back.text);
      assert.match(back.text, new RegExp(`The remote browser had gone away \\(its connection closed\\) and the server connected to https://127\\.0\\.0\\.1:${proxy.port}/\\?token=… again: earlier tabs, pages and refs are gone\\.`));
      assert.match(back.text, /heading "Served to a remote browser"/);
      const after = record(await server.call('browser_snapshot', {}));
      assert.doesNotMatch(after.text, /gone away/);

      // Gone and back between two calls: the next call connects again.
      await chromium.kill();
      chromium = await startChromium();
      proxy.upstream = Number(new URL(chromium.endpoint).port);
      const again = record(await server.call('browser_snapshot', {}));
      assert.equal(again.isError, false, again.text);
      assert.match(again.text, /The remote browser had gone away \(its connection closed\) and the server connected to https:\/\/127\.0\.0\.1:\d+\/\?token=… again/);
    } finally {
      await server.close();
    }
  });

  test('--cdp-timeout bounds connecting to an endpoint that never answers', async () => {
    // Accepts the connection and says nothing (no TLS handshake).
    const silent = createTcpServer(() => {});
    await new Promise((ok) => silent.listen(0, '127.0.0.1', ok));
    const endpoint = `wss://127.0.0.1:${silent.address().port}/devtools/browser/x`;
    const server = await startServer(['--cdp-endpoint', endpoint, '--cdp-timeout', '400'], { env: env() });
    try {
      const r = record(await server.call('browser_snapshot', {}));
      assert.equal(r.isError, true);
      assert.match(r.text, /the TLS handshake to wss:\/\/127\.0\.0\.1:\d+\/devtools\/browser\/x did not finish within --cdp-timeout \(400 ms\)/);
    } finally {
      await server.close();
      silent.close();
    }
  });
});
