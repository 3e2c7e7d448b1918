// Server faults (issue 10, part 6): after each one the server process is
// still running and answers the next call correctly. Broken JSON-RPC goes
// to the server's stdin as raw bytes; everything else goes through the
// official MCP client. Pages on 127.0.0.1, real Chromium.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';

import {
  FULL, binary, childProcesses, gone, refAfter, refOf, section, serveSite, startServer,
} from './helpers.js';

// Short, so that each timeout below costs seconds, not the default 30.
const ACTION_TIMEOUT = 3;

/** The server process is still running (not exited, not a zombie). */
function assertUp(pid) {
  assert.ok(pid, 'no server pid');
  assert.ok(!gone(pid), `the server process ${pid} is gone`);
}

/** Descendants of `pid` whose command line contains `needle`. */
function descendants(pid, needle) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (rest[0] === 'Z') continue;
      const ppid = Number(rest[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch { /* gone meanwhile */ }
  }
  const out = [];
  const queue = [...(children.get(pid) || [])];
  while (queue.length) {
    const p = queue.shift();
    queue.push(...(children.get(p) || []));
    let cmd = '';
    try { cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8').replaceAll('\0', ' '); } catch { continue; }
    if (cmd.includes(needle)) out.push(p);
  }
  return out;
}

async function waitGone(pids) {
  for (const p of pids) while (!gone(p)) await new Promise((ok) => setTimeout(ok, 10));
}

/** A memory figure of a process in KiB from /proc/<pid>/status (VmRSS, RssAnon, …). */
function memKiB(pid, field = 'VmRSS') {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  return Number(m[1]);
}

/**
 * The server driven by hand over stdio: raw lines in, JSON lines out.
 * `next()` is the next line the server writes, parsed.
 */
function rawServer(args = []) {
  const child = spawn(binary(), ['mcp', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, RESPONSE_DIFF_LOG: 'response_diff_server=info' },
  });
  let buffer = '';
  let log = '';
  const lines = [];
  const waiters = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    buffer += d;
    let i;
    while ((i = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      if (waiters.length) waiters.shift()(line); else lines.push(line);
    }
  });
  child.stderr.on('data', (d) => { log += d; });
  const write = (data) => new Promise((ok, fail) => child.stdin.write(data, (e) => (e ? fail(e) : ok())));
  return {
    pid: child.pid,
    log: () => log,
    /** Writes a line: a string as is, anything else as JSON. */
    send: (msg) => write(`${typeof msg === 'string' ? msg : JSON.stringify(msg)}\n`),
    write,
    next() {
      const line = lines.length ? Promise.resolve(lines.shift()) : new Promise((ok) => waiters.push(ok));
      return line.then((l) => JSON.parse(l));
    },
    async close() {
      child.stdin.end();
      if (child.exitCode === null) await new Promise((ok) => child.on('exit', ok));
    },
    exited: () => child.exitCode !== null || child.signalCode !== null,
  };
}

describe('malformed JSON-RPC on stdin (raw bytes, not the SDK)', () => {
  let site;
  let raw;

  before(async () => {
    site = await serveSite();
    raw = rawServer([...FULL, '--action-timeout', String(ACTION_TIMEOUT)]);
    await raw.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {
      protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' },
    } });
    const init = await raw.next();
    assert.equal(init.id, 1);
    assert.equal(init.result.serverInfo.name, 'response-diff');
    await raw.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  });

  after(async () => {
    await raw?.close();
    await site?.close();
  });

  /** A normal tools/call works and the process is up. */
  async function answersNext(id) {
    await raw.send({ jsonrpc: '2.0', id, method: 'tools/call', params: {
      name: 'browser_navigate', arguments: { url: site.url('/help.html') },
    } });
    const r = await raw.next();
    assert.equal(r.id, id, JSON.stringify(r));
    assert.equal(r.result.isError, false, JSON.stringify(r));
    assert.match(r.result.content[0].text, /- heading "Help & FAQ" \[level=1\]/);
    assert.ok(!raw.exited(), raw.log());
    assertUp(raw.pid);
  }

  test('a line that is not JSON: -32700 without an id', async () => {
    await raw.send('{"jsonrpc": "2.0", "id": 2, "method": ');
    const e = await raw.next();
    assert.equal(e.jsonrpc, '2.0');
    assert.equal(e.error.code, -32700);
    assert.equal(e.id, undefined);
    assert.match(e.error.message, /^Parse error: the line is not JSON .*; send one JSON-RPC 2\.0 message per line$/);
    await raw.write(Buffer.from([0xff, 0xfe, 0x00, 0x0a])); // not UTF-8 either
    assert.equal((await raw.next()).error.code, -32700);
    await answersNext(3);
  });

  test('JSON that is not JSON-RPC: -32600, with the id when it can be read', async () => {
    await raw.send({ hello: 'world' });
    let e = await raw.next();
    assert.equal(e.error.code, -32600);
    assert.equal(e.id, undefined);
    assert.match(e.error.message, /`jsonrpc` is missing; it must be "2\.0"/);

    await raw.send('42');
    e = await raw.next();
    assert.equal(e.error.code, -32600);
    assert.match(e.error.message, /a message is a JSON object .*, not a number/);

    await raw.send([{ jsonrpc: '2.0', id: 4, method: 'ping' }]);
    e = await raw.next();
    assert.equal(e.error.code, -32600);
    assert.match(e.error.message, /batches are not supported/);

    await raw.send({ jsonrpc: '2.0', id: null, method: 'ping' });
    e = await raw.next();
    assert.equal(e.error.code, -32600);
    assert.match(e.error.message, /`id` must be a string or an integer, not null/);

    await raw.send({ jsonrpc: '2.0', id: 5 });
    e = await raw.next();
    assert.equal(e.id, 5);
    assert.equal(e.error.code, -32600);
    assert.match(e.error.message, /a request needs a string `method`/);
    await answersNext(6);
  });

  test('a wrong jsonrpc version: -32600 echoing the id', async () => {
    await raw.send({ jsonrpc: '1.0', id: 7, method: 'tools/list' });
    const e = await raw.next();
    assert.equal(e.id, 7);
    assert.equal(e.error.code, -32600);
    assert.match(e.error.message, /`jsonrpc` must be "2\.0", not "1\.0"/);
    await answersNext(8);
  });

  test('a request whose params do not fit: -32602; an unknown method: -32601', async () => {
    await raw.send({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 42 } });
    let e = await raw.next();
    assert.equal(e.id, 9);
    assert.equal(e.error.code, -32602);
    assert.match(e.error.message, /^Invalid params for `tools\/call`: invalid type: integer `42`, expected a string; send \{"name": "browser_snapshot", "arguments": \{…\}\}/);

    await raw.send({ jsonrpc: '2.0', id: 'arr', method: 'tools/call', params: { name: 'browser_navigate', arguments: [1, 2] } });
    e = await raw.next();
    assert.equal(e.id, 'arr');
    assert.equal(e.error.code, -32602);
    assert.match(e.error.message, /invalid type: sequence, expected a map/);

    await raw.send({ jsonrpc: '2.0', id: 'list', method: 'tools/list', params: 'all' });
    e = await raw.next();
    assert.equal(e.id, 'list');
    assert.equal(e.error.code, -32602);
    assert.equal(e.error.message, 'Invalid params for `tools/list`: `params` must be an object, not a string');

    // No arguments at all: the tool says what it needs.
    await raw.send({ jsonrpc: '2.0', id: 'none', method: 'tools/call', params: { name: 'browser_navigate' } });
    e = await raw.next();
    assert.equal(e.id, 'none');
    assert.equal(e.error.code, -32602);
    assert.match(e.error.message, /browser_navigate: missing field `url`.*url \(string, required\)/);

    await raw.send({ jsonrpc: '2.0', id: 10, method: 'tools/dance' });
    e = await raw.next();
    assert.equal(e.id, 10);
    assert.equal(e.error.code, -32601);
    await answersNext(11);
  });

  test('notifications, broken or unknown, get no answer', async () => {
    await raw.send({ jsonrpc: '2.0', method: 'notifications/no_such_thing', params: {} });
    await raw.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: [] } });
    // The next line the server writes answers the ping: nothing came in between.
    await raw.send({ jsonrpc: '2.0', id: 12, method: 'ping' });
    const pong = await raw.next();
    assert.deepEqual(pong, { jsonrpc: '2.0', id: 12, result: {} });
    await answersNext(13);
  });

  test('huge lines: over 16 MiB is refused without being kept; 2 MiB is served', async () => {
    const before = memKiB(raw.pid, 'RssAnon');
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 14, method: 'ping', params: { _meta: { pad: 'x'.repeat(64 * 1024 * 1024) } } });
    for (let i = 0; i < 3; i++) {
      await raw.send(huge);
      const e = await raw.next();
      assert.equal(e.error.code, -32600);
      assert.equal(e.id, undefined);
      assert.match(e.error.message, /^Invalid request: the message is longer than 16 MiB; send smaller messages$/);
    }
    // At most the first 16 MiB of a line is buffered before it is refused,
    // and the buffer is reused: three 64 MiB lines cost one 16 MiB buffer.
    const grew = (memKiB(raw.pid, 'RssAnon') - before) / 1024;
    console.log(`# three 64 MiB lines: server anonymous RSS grew by ${grew.toFixed(1)} MiB`);
    assert.ok(grew < 32, `three refused 64 MiB lines grew the server by ${grew.toFixed(1)} MiB`);

    const pad = 'y'.repeat(2 * 1024 * 1024);
    await raw.send({ jsonrpc: '2.0', id: 15, method: 'tools/call', params: {
      name: 'browser_evaluate', arguments: { function: `() => 'ok ' + ${JSON.stringify(pad)}.length` },
    } });
    const big = await raw.next();
    assert.equal(big.id, 15);
    assert.equal(big.result.isError, false, JSON.stringify(big).slice(0, 500));
    assert.match(big.result.content[0].text, /"ok 2097152"/);
    await answersNext(16);
  });
});

describe('faults through the MCP client (--action-timeout 3)', () => {
  let site;
  let stall;
  let stalled = [];
  let server;
  let pid;

  before(async () => {
    site = await serveSite(undefined, {
      '/busy.html': '<!doctype html><title>Busy</title><h1>Busy page</h1>'
        + '<button onclick="while (true) {}">Spin forever</button>'
        + '<button onclick="document.title = \'clicked\'">Fine</button>',
      // A message task, not a timer: timers of a headless tab may wait a second.
      '/spin.html': '<!doctype html><title>Spin</title><h1>Spins after loading</h1><script>'
        + 'const c = new MessageChannel(); c.port1.onmessage = () => { while (true) {} };'
        + 'addEventListener("load", () => c.port2.postMessage(0));</script>',
    });
    // Sends its headers and the start of a page, then never finishes it.
    stall = createServer((req, res) => {
      stalled.push(res);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.write('<!doctype html><title>Never done</title><h1>Half a page</h1>');
    });
    await new Promise((ok) => stall.listen(0, '127.0.0.1', ok));
    server = await startServer([...FULL, '--action-timeout', String(ACTION_TIMEOUT)]);
    pid = server.transport.pid;
  });

  after(async () => {
    await server?.close();
    await site?.close();
    for (const r of stalled) r.destroy();
    stall?.closeAllConnections();
    await new Promise((ok) => stall.close(ok));
  });

  /** The next call works: a navigation to a normal page, and the process is up. */
  async function answersNext() {
    const r = await server.call('browser_navigate', { url: site.url('/help.html') });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /- heading "Help & FAQ" \[level=1\]/);
    assertUp(pid);
    return r;
  }

  /** The call is refused as invalid params; returns the message. */
  async function refused(name, args) {
    let err;
    await assert.rejects(server.client.callTool({ name, arguments: args }), (e) => { err = e; return true; });
    assert.equal(err.code, -32602, err.message);
    return err.message;
  }

  test('an unknown tool: invalid params naming the tools there are', async () => {
    const m = await refused('browser_fly', {});
    assert.match(m, /unknown tool `browser_fly`; use one of: browser_navigate, .*browser_compare_dom_fingerprint/);
    const short = await refused('click', { ref: 'e1' });
    assert.match(short, /unknown tool `click`; did you mean `browser_click`\? Call tools by their full name/);
    await answersNext();
  });

  test('wrong argument types, missing and extra arguments: what was wrong and what to send', async () => {
    assert.match(await refused('browser_navigate', { url: 42 }),
      /browser_navigate: invalid type: integer `42`, expected a string.*url \(string, required\)/);
    assert.match(await refused('browser_navigate', { url: site.url('/'), expectation: 'yes' }),
      /invalid option `expectation`: expected an object such as \{"includeSnapshot": false, .*\(or that object as a JSON string\), got the string "yes"/);
    assert.match(await refused('browser_navigate', { url: site.url('/'), expectation: true }),
      /invalid option `expectation`: expected an object .*, got true/);
    assert.match(await refused('browser_snapshot', { expectation: { includeSnapshot: 'yes' } }),
      /expectation\.includeSnapshot/);
    assert.match(await refused('browser_click', {}), /browser_click: missing field `ref`.*ref \(string, required\)/);
    assert.match(await refused('browser_snapshot', { colour: 'blue' }), /unknown field `colour`/);
    assert.match(await refused('browser_tabs', { action: 'juggle' }), /unknown variant `juggle`/);
    assert.match(await refused('browser_batch_execute', { steps: 'all of them' }), /steps/);
    await answersNext();
  });

  test('a page that sends headers and never finishes: a timeout error, then the next page loads', async () => {
    const url = `http://127.0.0.1:${stall.address().port}/slow`;
    const started = Date.now();
    const r = await server.call('browser_navigate', { url });
    console.log(`# never-finishing page: answered in ${((Date.now() - started) / 1000).toFixed(1)} s (action timeout ${ACTION_TIMEOUT} s)`);
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, new RegExp(`navigation to ${url.replaceAll('.', '\\.')} did not finish loading in ${ACTION_TIMEOUT} s \\(--timeout-navigation\\); take a snapshot to see what loaded`));
    // What did load is readable.
    const seen = await server.call('browser_snapshot');
    assert.equal(seen.isError, false, seen.text);
    assert.match(seen.text, /- heading "Half a page" \[level=1\]/);
    await answersNext();
  });

  test('an infinite loop in browser_evaluate: a timeout error, the tab is usable again', async () => {
    await answersNext();
    const loop = await server.call('browser_evaluate', { function: '() => { while (true) {} }' });
    assert.equal(loop.isError, true, loop.text);
    assert.match(loop.text, new RegExp(`the function did not finish within ${ACTION_TIMEOUT} s \\(--timeout-action\\) and was stopped; the page is usable again`));
    const value = await server.call('browser_evaluate', { function: '() => 6 * 7' });
    assert.equal(value.isError, false, value.text);
    assert.match(value.text, /^### Result\n42\n/);

    // The same on an element (Runtime.callFunctionOn has no time limit of its own).
    const page = await server.call('browser_snapshot');
    const heading = refOf(page.text, 'heading "Help & FAQ"');
    const onRef = await server.call('browser_evaluate', { function: '(el) => { while (el) {} }', ref: heading });
    assert.equal(onRef.isError, true, onRef.text);
    assert.match(onRef.text, /the function did not finish within 3 s \(--timeout-action\) and was stopped/);
    const text = await server.call('browser_evaluate', { function: '(el) => el.textContent', ref: heading });
    assert.equal(text.isError, false, text.text);
    assert.match(text.text, /^### Result\n"Help & FAQ"/);

    // A promise that never settles.
    const never = await server.call('browser_evaluate', { function: '() => new Promise(() => {})' });
    assert.equal(never.isError, true, never.text);
    assert.match(never.text, /did not finish within 3 s/);
    await answersNext();
  });

  test('a page whose click handler never returns: an error, and the page is usable again', async () => {
    const nav = await server.call('browser_navigate', { url: site.url('/busy.html') });
    const spin = refOf(nav.text, 'button "Spin forever"');
    const fine = refOf(nav.text, 'button "Fine"');
    const r = await server.call('browser_click', { ref: spin });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /Error: .*(did not answer|did not finish|busy)/);
    const ok = await server.call('browser_click', { ref: fine });
    assert.equal(ok.isError, false, ok.text);
    assert.match(section(ok.text, 'Page state'), /Page Title: clicked/);
    await answersNext();
  });

  let fdsBefore;

  test('a page that spins in its own script (after loading, between calls): the script is stopped, the call answers', async () => {
    const nav = await server.call('browser_navigate', { url: site.url('/spin.html') });
    assert.equal(nav.isError, false, nav.text);
    // The loop starts with the load event, while the server waits for the
    // page to settle (or reads the tree): whichever call finds the tab
    // unanswering stops the script, and the response says so.
    assert.match(nav.text, /A script in the page kept it busy for over \d+ s and was stopped\./);
    assert.match(nav.text, /- heading "Spins after loading" \[level=1\]/);
    const snap = await server.call('browser_snapshot');
    assert.equal(snap.isError, false, snap.text);
    assert.match(snap.text, /- heading "Spins after loading" \[level=1\]/);
    await answersNext();

    // A loop that starts between two calls: the next call finds the tab
    // busy, stops the script and says so.
    const armed = await server.call('browser_evaluate', { function: '() => { setTimeout(() => { while (true) {} }, 200); return "armed"; }' });
    assert.match(armed.text, /^### Result\n"armed"/);
    await new Promise((ok) => setTimeout(ok, 2500));
    const later = await server.call('browser_snapshot');
    assert.equal(later.isError, false, later.text);
    assert.match(later.text, /A script in the page kept it busy for over \d+ s and was stopped\./);
    assert.match(later.text, /- heading "Help & FAQ" \[level=1\]/);
  });

  test('Chromium killed between calls: the next call relaunches it and says so', async () => {
    await answersNext();
    fdsBefore = readdirSync(`/proc/${pid}/fd`).length;
    const [chromium] = childProcesses(pid, 'chrom');
    assert.ok(chromium, 'no browser process under the server');
    process.kill(chromium, 'SIGKILL');
    await waitGone([chromium]);
    const r = await server.call('browser_navigate', { url: site.url('/index.html') });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /The browser had stopped \(it crashed or was killed\) and was relaunched: earlier tabs, pages and refs are gone\./);
    assert.match(r.text, /- heading "Loose-leaf teas" \[level=1\]/);
    assertUp(pid);
    assert.equal(childProcesses(pid, 'chrom').length, 1, 'one browser, the old one reaped');
  });

  test('Chromium killed during a call: that call fails clearly, the next relaunches', async () => {
    await answersNext();
    const [chromium] = childProcesses(pid, 'chrom');
    // The page tells us when the call is running (a request to `signal`),
    // then waits forever; the kill lands inside the call.
    let started;
    const running = new Promise((ok) => { started = ok; });
    const signal = createServer((req, res) => { res.end('ok'); started(); });
    await new Promise((ok) => signal.listen(0, '127.0.0.1', ok));
    try {
      const call = server.call('browser_evaluate', {
        function: `() => { fetch('http://127.0.0.1:${signal.address().port}/', { mode: 'no-cors' }); return new Promise(() => {}); }`,
      });
      await running;
      process.kill(chromium, 'SIGKILL');
      const r = await call;
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, /The browser stopped during this call; it will be relaunched on the next call\./);
    } finally {
      signal.closeAllConnections();
      await new Promise((ok) => signal.close(ok));
    }
    assertUp(pid);
    const next = await answersNext();
    assert.match(next.text, /The browser had stopped \(it crashed or was killed\) and was relaunched/);
  });

  test('the tab\'s renderer killed: the next call reloads the page and says so', async () => {
    await answersNext();
    const renderers = descendants(pid, '--type=renderer');
    assert.ok(renderers.length > 0, 'no renderer process');
    for (const p of renderers) process.kill(p, 'SIGKILL');
    await waitGone(renderers);
    const r = await server.call('browser_snapshot');
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /^### Result\nThe tab's page had crashed \(its renderer process died\) and was reloaded: refs from earlier snapshots are gone\./);
    assert.match(r.text, /- heading "Help & FAQ" \[level=1\]/);
    // The reloaded tab is fully back: actions, and console capture.
    const shop = await server.call('browser_navigate', { url: site.url('/index.html') });
    assert.doesNotMatch(shop.text, /crashed/);
    const add = refAfter(shop.text, 'heading "Sencha Kyoto"', 'button "Add to cart"');
    const click = await server.call('browser_click', { ref: add });
    assert.equal(click.isError, false, click.text);
    assert.match(section(click.text, 'Console messages'), /\[log\] cart: added Sencha Kyoto/);
    assertUp(pid);
  });

  test('after all of it: one tab, one browser, no leaked descriptors, the server up', async () => {
    const tabs = await server.call('browser_tabs', { action: 'list', expectation: { includeSnapshot: false } });
    assert.equal(tabs.isError, false, tabs.text);
    assert.match(tabs.text, /1 open tab\b/);
    assert.equal(childProcesses(pid, 'chrom').length, 1);
    // Two relaunches and a reload leaked no descriptors (sockets, pipes).
    const fds = readdirSync(`/proc/${pid}/fd`).length;
    assert.ok(fds <= fdsBefore, `the server had ${fdsBefore} open descriptors before the browser was killed, ${fds} now`);
    assertUp(pid);
  });
});

describe('1,000 sequential tool calls: memory stays bounded', () => {
  // VmRSS of the server process (not Chromium's) at call 100 and at call
  // 1,000. By call 100 every bounded store is at its steady size (one tab:
  // 16 trees in the `since` store, a few diff chains, the console reset at
  // each navigation). Measured here over calls 100..1,000: 2.2 to 3.7 MiB
  // of growth (four runs, allocator noise). The bound leaves 4× that, and
  // still fails if each call leaked 18 KB or more (16 MiB / 900), such as
  // one parsed tree or the 250 KB accessibility-tree answer per call.
  const CALLS = 1000;
  const MEMORY_BOUND_MIB = 16;
  let responseBytes = 0;

  test(`${CALLS} calls (navigate, snapshot, click; diffs on and off)`, async () => {
    const site = await serveSite();
    const server = await startServer([...FULL, '--action-timeout', '10']);
    const pid = server.transport.pid;
    const diffOn = { diffOptions: { enabled: true } };
    let n = 0;
    let rssAt100;
    const started = Date.now();
    let lastPage = '';
    const call = async (name, args) => {
      const r = await server.call(name, args);
      assert.equal(r.isError, false, `call ${n + 1} (${name}): ${r.text}`);
      responseBytes += r.text.length;
      n += 1;
      if (n === 100) rssAt100 = { vm: memKiB(pid), anon: memKiB(pid, 'RssAnon') };
      return r;
    };
    try {
      while (n < CALLS) {
        // The shop: full snapshot on arrival, then clicks with diffs on and off.
        const shop = await call('browser_navigate', { url: site.url('/index.html') });
        lastPage = shop.text;
        const add = refAfter(shop.text, 'heading "Sencha Kyoto"', 'button "Add to cart"');
        const add2 = refAfter(shop.text, 'heading "Genmaicha"', 'button "Add to cart"');
        await call('browser_snapshot', { expectation: diffOn });
        await call('browser_click', { ref: add, expectation: diffOn });
        await call('browser_click', { ref: add2 });
        await call('browser_snapshot', { expectation: diffOn });
        // The help page: a details element opened and closed.
        const help = await call('browser_navigate', { url: site.url('/help.html'), expectation: diffOn });
        const summary = refOf((await call('browser_snapshot')).text, 'How should I store tea?');
        await call('browser_click', { ref: summary, expectation: diffOn });
        await call('browser_click', { ref: summary, expectation: { ...diffOn, snapshotOptions: { selector: 'main' } } });
        await call('browser_snapshot', { expectation: { diffOptions: { enabled: true, format: 'minimal' } } });
        assert.ok(help);
      }
    } finally {
      const rssAt1000 = { vm: memKiB(pid), anon: memKiB(pid, 'RssAnon') };
      const seconds = (Date.now() - started) / 1000;
      await server.close();
      await site.close();
      if (rssAt100 !== undefined && n === CALLS) {
        const mib = (k) => (k / 1024).toFixed(1);
        const grew = (rssAt1000.vm - rssAt100.vm) / 1024;
        console.log(`# ${CALLS} calls in ${seconds.toFixed(1)} s (${(seconds * 1000 / CALLS).toFixed(1)} ms per call); `
          + `server VmRSS at call 100: ${mib(rssAt100.vm)} MiB, at call ${CALLS}: ${mib(rssAt1000.vm)} MiB, `
          + `growth ${grew.toFixed(1)} MiB (bound ${MEMORY_BOUND_MIB} MiB); `
          + `RssAnon ${mib(rssAt100.anon)} → ${mib(rssAt1000.anon)} MiB; `
          + `responses ${(responseBytes / CALLS / 1024).toFixed(1)} KB on average`);
        assert.ok(grew < MEMORY_BOUND_MIB, `the server grew by ${grew.toFixed(1)} MiB from call 100 to call ${CALLS}`);
      }
    }
    assert.equal(n, CALLS, lastPage.slice(0, 200));
  });
});
