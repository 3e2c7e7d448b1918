// Helpers for the server over streamable HTTP: start `response-diff mcp
// --port 0`, connect the official MCP client's StreamableHTTPClientTransport,
// start a Chromium of our own with --remote-debugging-port (127.0.0.1).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { binary } from './helpers.js';

/** Waits until `check()` is true (polling), or fails after `ms`. */
export async function until(check, ms = 20000, what = 'condition') {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 50));
  }
}

/**
 * Starts `response-diff mcp --port 0 …args`; resolves with the MCP URL
 * (read from stderr), the process, its log, and `stop()` (SIGTERM, waits
 * for the exit).
 */
export async function startHttpServer(args = [], { log: level = 'info' } = {}) {
  const proc = spawn(binary(), ['mcp', '--port', '0', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, RESPONSE_DIFF_LOG: `response_diff_server=${level}` },
  });
  let log = '';
  const exited = new Promise((ok) => proc.on('exit', (code, signal) => ok({ code, signal })));
  const url = await new Promise((ok, fail) => {
    proc.stderr.on('data', (d) => {
      log += d;
      const m = log.match(/MCP over streamable HTTP at (http:\/\/\S+\/mcp)/);
      if (m) ok(m[1]);
    });
    exited.then(({ code }) => fail(new Error(`server exited (${code}) before listening:\n${log}`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    proc,
    exited,
    log: () => log,
    /** The number of browser contexts the server reports open (its log). */
    openContexts() {
      const all = [...log.matchAll(/browser context \S+ (?:opened|closed) \((\d+) open\)/g)];
      return all.length ? Number(all[all.length - 1][1]) : 0;
    },
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      return exited;
    },
  };
}

/** Connects an MCP client over streamable HTTP; `call` as in helpers.js. */
export async function connect(url, name = 'http-client') {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    async call(tool, args = {}, options) {
      const r = await client.callTool({ name: tool, arguments: args }, undefined, options);
      const text = r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
      return { text, isError: Boolean(r.isError) };
    },
    /** Ends the session as a client leaving properly (HTTP DELETE). */
    async close() {
      try { await transport.terminateSession(); } catch { /* already gone */ }
      await client.close();
    },
  };
}

/** The Chromium binary the server would use. */
export function chromiumPath() {
  return process.env.CHROMIUM || '/usr/lib/chromium/chromium';
}

/**
 * Starts a headless Chromium with --remote-debugging-port=0 on 127.0.0.1;
 * resolves with its http endpoint, pid, `pages()` (its page targets) and
 * `kill()`.
 */
export async function startChromium() {
  const profile = mkdtempSync(join(tmpdir(), 'rd-e2e-chromium-'));
  const args = [
    '--headless', '--remote-debugging-port=0', '--remote-debugging-address=127.0.0.1',
    `--user-data-dir=${profile}`, '--no-first-run', '--disable-gpu', '--disable-extensions',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    'about:blank',
  ];
  if (process.getuid && process.getuid() === 0) args.unshift('--no-sandbox');
  // A process group of its own, so that kill() ends its helpers too.
  const proc = spawn(chromiumPath(), args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let err = '';
  const exited = new Promise((ok) => proc.on('exit', ok));
  const ws = await new Promise((ok, fail) => {
    proc.stderr.on('data', (d) => {
      err += d;
      const m = err.match(/DevTools listening on (ws:\/\/\S+)/);
      if (m) ok(m[1]);
    });
    exited.then(() => fail(new Error(`chromium exited:\n${err}`)));
  });
  const port = Number(new URL(ws).port);
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    ws,
    pid: proc.pid,
    alive: () => proc.exitCode === null && proc.signalCode === null,
    async version() {
      const r = await fetch(`${endpoint}/json/version`);
      return r.json();
    },
    /** The browser's page targets (every context). */
    async pages() {
      const r = await fetch(`${endpoint}/json/list`);
      return (await r.json()).filter((t) => t.type === 'page');
    },
    async kill() {
      // The socket directory Chromium made in /tmp for this profile (its
      // SingletonSocket link): a killed browser leaves it behind.
      let socket = null;
      try { socket = dirname(readlinkSync(join(profile, 'SingletonSocket'))); } catch { /* none made */ }
      if (proc.exitCode === null && proc.signalCode === null) {
        // The whole group (the zygote and renderers too), so that nothing
        // writes to the profile while it is removed.
        try { process.kill(-proc.pid, 'SIGKILL'); } catch { proc.kill('SIGKILL'); }
      }
      await exited;
      const rm = (dir) => { try { rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }); } catch { /* still in use */ } };
      rm(profile);
      if (socket && basename(socket).startsWith('org.chromium.Chromium.')) rm(socket);
    },
  };
}

/** Resident memory of a process in KiB (VmRSS), 0 when gone. */
export function rssKiB(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = s.match(/^VmRSS:\s+(\d+) kB/m);
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}
