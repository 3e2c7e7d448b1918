// The load run shared by test/load.test.js (small, in `make test`) and
// bench/load.mjs (larger, `make bench`): N MCP clients over streamable HTTP
// at once, each on its own page, clicking, typing and reading snapshots;
// one more client leaves in the middle of a call. The server attaches to a
// Chromium started here, so the browser's page targets can be counted.
import { FULL, serveSite } from './helpers.js';
import { connect, rssKiB, startChromium, startHttpServer, until } from './http-helpers.js';

const PAGE = (id) => `<!doctype html><title>Client ${id}</title>
<h1>Client ${id}</h1>
<label>Note <input id="note"></label>
<button onclick="const li = document.createElement('li'); li.textContent = 'Item ${id}.' + (list.children.length + 1); list.append(li)">Add</button>
<ul id="list"></ul>`;

function percentile(sorted, p) {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** p50 and p95 of durations in ms. */
export function stats(ms) {
  const s = [...ms].sort((a, b) => a - b);
  return { calls: s.length, p50: percentile(s, 50), p95: percentile(s, 95) };
}

/** One client's session: `rounds` × (click, type, snapshot). Returns call times and what it saw. */
async function session(url, site, id, rounds) {
  const c = await connect(url, `load-${id}`);
  const times = [];
  const foreign = [];
  const timed = async (tool, args) => {
    const t = performance.now();
    const r = await c.call(tool, args);
    times.push(performance.now() - t);
    if (r.isError) throw new Error(`client ${id}: ${tool} failed: ${r.text}`);
    for (const m of r.text.matchAll(/Client (\d+)|Item (\d+)\./g)) {
      const seen = Number(m[1] ?? m[2]);
      if (seen !== id) foreign.push(seen);
    }
    return r.text;
  };
  let text = await timed('browser_navigate', { url: site.url(`/client/${id}`) });
  const ref = (t, name) => t.match(new RegExp(`${name}.*\\[ref=(e\\d+)\\]`))[1];
  const add = ref(text, 'button "Add"');
  const note = ref(text, 'textbox "Note"');
  for (let i = 0; i < rounds; i += 1) {
    await timed('browser_click', { ref: add, expectation: { diffOptions: { enabled: true } } });
    await timed('browser_type', { ref: note, text: `c${id} r${i}`, expectation: { diffOptions: { enabled: true } } });
    text = await timed('browser_snapshot', {});
  }
  const items = (text.match(/listitem/g) || []).length;
  const tabs = await c.call('browser_tabs', { action: 'list' });
  await c.close();
  return { times, foreign, items, tabs: Number(tabs.text.match(/(\d+) open tab/)[1]) };
}

/**
 * Runs the load: a single client alone first (the reference times), then
 * `clients` at once plus one that disconnects mid-call. Returns the numbers.
 */
export async function runLoad({ clients = 6, rounds = 8, sessionTimeout = 8, waves = 1, settleMs = 500 } = {}) {
  const handlers = {};
  const pages = {};
  for (let id = 0; id <= clients; id += 1) pages[`/client/${id}`] = PAGE(id);
  let held = 0;
  handlers['/hold'] = () => { held += 1; };
  const site = await serveSite(undefined, pages, handlers);
  const chromium = await startChromium();
  const server = await startHttpServer([...FULL, '--cdp-endpoint', chromium.endpoint, '--session-timeout', String(sessionTimeout), '--action-timeout', '5'], { log: 'info' });
  try {
    const targetsBefore = (await chromium.pages()).length;
    // Warm up (connects to the browser, loads the server's code paths).
    await session(server.url, site, 0, 1);
    await until(() => server.openContexts() === 0, 10000, 'the warm-up context to close');
    const memBefore = rssKiB(server.proc.pid);
    const single = await session(server.url, site, 0, rounds);

    let peak = memBefore;
    let peakTargets = targetsBefore;
    const sampler = setInterval(async () => {
      peak = Math.max(peak, rssKiB(server.proc.pid));
      try { peakTargets = Math.max(peakTargets, (await chromium.pages()).length); } catch { /* busy */ }
    }, 100);
    let results = [];
    let wall = 0;
    const afterWaves = [];
    for (let wave = 0; wave < waves; wave += 1) {
      // The leaver: starts a navigation that never finishes, then vanishes.
      const leaver = await connect(server.url, 'leaver');
      const heldBefore = held;
      const leaving = leaver.call('browser_navigate', { url: site.url('/hold') }).catch(() => {});
      const t0 = performance.now();
      const runs = [];
      for (let id = 1; id <= clients; id += 1) runs.push(session(server.url, site, id, rounds));
      await until(() => held === heldBefore + 1, 20000, 'the leaver\'s held request');
      await leaver.transport.close();
      await leaving;
      results = results.concat(await Promise.all(runs));
      wall += performance.now() - t0;
      // Everything the clients had is gone: contexts (the leaver's after its
      // session timed out) and page targets.
      await until(() => server.openContexts() === 0, 30000, 'every context to close');
      await until(async () => (await chromium.pages()).length === targetsBefore, 10000, 'the page targets to close');
      // Idle worker threads (tokio's blocking pool keeps them 10 s) go first.
      await new Promise((ok) => setTimeout(ok, settleMs));
      afterWaves.push(rssKiB(server.proc.pid));
    }
    clearInterval(sampler);
    const memAfter = afterWaves[afterWaves.length - 1];
    return {
      waves,
      afterWaves,
      clients,
      rounds,
      callsPerClient: 1 + 3 * rounds,
      single: stats(single.times),
      concurrent: stats(results.flatMap((r) => r.times)),
      wallMs: wall,
      foreign: results.flatMap((r) => r.foreign),
      items: results.map((r) => r.items),
      tabs: results.map((r) => r.tabs),
      heldRequests: held,
      memKiB: { before: memBefore, peak, after: memAfter },
      targets: { before: targetsBefore, peak: peakTargets, after: (await chromium.pages()).length },
      contextsLeft: server.openContexts(),
    };
  } finally {
    await server.stop();
    await chromium.kill();
    await site.close();
  }
}
