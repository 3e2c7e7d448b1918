// Shared helpers: the server binary, a static site on 127.0.0.1, an MCP
// client over stdio, and small readers for the responses.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '../../..');
export const siteDir = join(repo, 'tests/fixtures/site');
export const spaDir = join(repo, 'tests/fixtures/spa');

/** The server binary: $RESPONSE_DIFF_BIN, else the debug build. */
export function binary() {
  if (process.env.RESPONSE_DIFF_BIN) return process.env.RESPONSE_DIFF_BIN;
  const target = process.env.CARGO_TARGET_DIR || join(repo, 'target');
  const bin = join(target, 'debug/response-diff');
  if (!existsSync(bin)) {
    const r = spawnSync('cargo', ['build', '-q', '-p', 'response-diff-server'], { cwd: repo, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('cargo build -p response-diff-server failed');
  }
  return bin;
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };

/**
 * Serves a folder on 127.0.0.1 (a free port); `pages` adds in-memory pages,
 * `handlers` answers paths with `(req, res) => …` (delayed or held replies).
 * Requests a handler still holds are ended when the site closes.
 */
export async function serveSite(root = siteDir, pages = {}, handlers = {}) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (handlers[path]) {
      handlers[path](req, res);
      return;
    }
    if (pages[path] !== undefined) {
      res.writeHead(200, { 'content-type': TYPES['.html'], 'cache-control': 'no-store' });
      res.end(pages[path]);
      return;
    }
    const file = normalize(join(root, path === '/' ? 'index.html' : path));
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const close = () => new Promise((ok) => {
    server.close(ok);
    server.closeAllConnections();
  });
  return { origin, url: (p) => origin + p, close };
}

/**
 * The single-page app of tests/fixtures/spa with its API: `/api/slow`
 * answers after `delayMs`; `/api/poll` (a long poll) is held until
 * `/api/nudge` answers it (the nudge itself is answered 200 ms later);
 * `/api/never` is held until the site closes. `log` lists the API requests
 * received.
 */
export async function serveSpa({ delayMs = 1500 } = {}) {
  const log = [];
  const hold = (req) => log.push(`${req.method} ${req.url}`);
  const polls = [];
  let news = 0;
  const json = (res, body) => {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const site = await serveSite(spaDir, {}, {
    '/api/slow': (req, res) => {
      log.push(`${req.method} ${req.url}`);
      setTimeout(() => json(res, { message: `done after ${delayMs} ms` }), delayMs);
    },
    '/api/poll': (req, res) => {
      hold(req);
      polls.push(res);
    },
    '/api/nudge': (req, res) => {
      hold(req);
      news += 1;
      for (const p of polls.splice(0)) {
        p.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
        p.end(`news ${news}`);
      }
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
        res.end(`news ${news}`);
      }, 200);
    },
    '/api/never': hold,
    '/api/team': (req, res) => {
      log.push(`${req.method} ${req.url}`);
      setTimeout(() => json(res, ['Ada', 'Grace', 'Edsger']), 300);
    },
    // The app's in-page routes, should the browser ever load them as documents.
    '/orders': (req, res) => { res.writeHead(404); res.end('not a document'); },
    '/settings': (req, res) => { res.writeHead(404); res.end('not a document'); },
  });
  return { ...site, log };
}

/** A port on 127.0.0.1 that nothing listens on. */
export async function closedPort() {
  const s = createServer();
  await new Promise((ok) => s.listen(0, '127.0.0.1', ok));
  const port = s.address().port;
  await new Promise((ok) => s.close(ok));
  return port;
}

/**
 * `--snapshot-mode full`: every response carries the whole snapshot
 * (@playwright/mcp's default), for tests about the full text. With no
 * flags the server answers with diffs (server.test.js, "with no flags").
 */
export const FULL = ['--snapshot-mode', 'full'];

/** Starts `response-diff mcp` and connects a real MCP client over stdio;
 * `env` adds to (or, with `undefined` values, removes from) its environment. */
export async function startServer(args = [], { log: level = 'info', bin = binary(), env = {} } = {}) {
  const environment = { ...process.env, RESPONSE_DIFF_LOG: `response_diff_server=${level}`, ...env };
  for (const [k, v] of Object.entries(environment)) if (v === undefined) delete environment[k];
  const transport = new StdioClientTransport({
    command: bin,
    args: ['mcp', ...args],
    stderr: 'pipe',
    env: environment,
  });
  let log = '';
  transport.stderr?.on('data', (d) => { log += d; });
  const client = new Client({ name: 'response-diff-e2e', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    log: () => log,
    /** Calls a tool; returns { text, images, isError }. */
    async call(name, args = {}) {
      const r = await client.callTool({ name, arguments: args });
      const text = r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
      const images = r.content.filter((c) => c.type === 'image');
      return { text, images, isError: Boolean(r.isError) };
    },
    close: () => client.close(),
  };
}

/** The ref of the first snapshot line matching `pattern` (a string or regex). */
export function refOf(text, pattern) {
  for (const line of text.split('\n')) {
    const hit = typeof pattern === 'string' ? line.includes(pattern) : pattern.test(line);
    const m = hit && line.match(/\[ref=(e\d+)\]/);
    if (m) return m[1];
  }
  throw new Error(`no line matching ${pattern} with a ref in:\n${text}`);
}

/** The ref of the first line matching `pattern` after the line matching `after`. */
export function refAfter(text, after, pattern) {
  const i = text.indexOf(after);
  if (i < 0) throw new Error(`no ${after} in:\n${text}`);
  return refOf(text.slice(i), pattern);
}

/** The ts a snapshot response reports. */
export function tsOf(text) {
  const m = text.match(/Snapshot ts: (\d+)/) || text.match(/# ts (\d+)/);
  if (!m) throw new Error(`no ts in:\n${text}`);
  return Number(m[1]);
}

/** The section under `### heading` (up to the next section). */
export function section(text, heading) {
  const start = text.indexOf(`### ${heading}`);
  if (start < 0) return null;
  const body = text.slice(text.indexOf('\n', start) + 1);
  const end = body.indexOf('\n### ');
  return end < 0 ? body : body.slice(0, end);
}

/** Child processes of `pid` whose command name contains `name` (Linux /proc). */
/** A response's snapshot section with its refs removed (they are backend
 * ids), for comparing with what Playwright prints. */
export function snapshotWithoutRefs(text) {
  const s = section(text, 'Page snapshot');
  if (!s) throw new Error(`no snapshot in:\n${text}`);
  return s.replace(/ \[ref=e\d+\]/g, '');
}

/** Serves tests/fixtures/conformance and starts a server, once per suite
 * (node:test's before/after); `get()` gives `{ server, site }`. */
export function conformanceSuite() {
  const ctx = {};
  before(async () => {
    ctx.site = await serveSite(join(repo, 'tests/fixtures/conformance'));
    ctx.server = await startServer(FULL);
  });
  after(async () => {
    await ctx.server?.close();
    await ctx.site?.close();
  });
  return () => ctx;
}

export function childProcesses(pid, name) {
  const out = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try { stat = readFileSync(`/proc/${entry}/stat`, 'utf8'); } catch { continue; }
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const [state, ppid] = stat.slice(close + 2).split(' ');
    if (Number(ppid) === pid && comm.includes(name) && state !== 'Z') out.push(Number(entry));
  }
  return out;
}

/** Whether a process is gone (or a zombie). */
export function gone(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    return state === 'Z' || state === 'X';
  } catch {
    return true;
  }
}
