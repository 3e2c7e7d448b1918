// The shop session through chrome-devtools-mcp (Google's browser MCP
// server, npm `chrome-devtools-mcp`, pinned in bench/package.json): alone,
// with `includeSnapshot: true` on the last call of every action and a
// `take_snapshot` after the tools that have no such flag (navigate_page),
// so the agent sees what each step did; and the same calls through
// response-diff-proxy (bindings/node/proxy.js). Every answer's text is
// counted with o200k_base (gpt-tokenizer). Through the proxy the agent's
// view is rebuilt from each answer (the full text, the patch applied with
// the server binary's `apply-patch`, a line diff, or "no changes") and
// compared with a full snapshot taken out of band after every step (diffs
// off, not counted); the floor (bench/harness.mjs) is taken on those
// snapshots. Steps are bench/shop-steps.mjs, the same intents as
// bench/session.mjs, resolved to uids in the agent's view.
//
//   node bench/devtools.mjs --bin target/release/response-diff --out bench-out/devtools-shop.json
//     [--only devtools-read,devtools-proxy] [--transcript FILE]
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { arg as cliArg, serverBin } from './cli.mjs';
import { countTokens, floor, modulePath, pkgVersion, repo, serveDir } from './harness.mjs';
import { applyPatch, applyUnified, fencedBlock } from './reconstruct.mjs';
import { resolveRef } from './refs.mjs';
import { STEPS } from './shop-steps.mjs';

const arg = (name, fallback) => cliArg(name, fallback, 'bench/devtools.mjs');
const BIN = serverBin(arg);
const OUT = arg('--out', null);
const TRANSCRIPT = arg('--transcript', null);
const CHROMIUM = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const ONLY = arg('--only', null);
const SITE = join(repo, 'tests/fixtures/site');
const CLI = modulePath('chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js');

for (const [what, path, fix] of [
  ['server binary', BIN, 'cargo build --release -p response-diff-server'],
  ['chromium', CHROMIUM, 'make setup'],
  ['chrome-devtools-mcp', CLI, 'cd bench && npm ci'],
]) {
  if (!existsSync(path)) {
    console.error(`bench/devtools.mjs: no ${what} at ${path}: run \`${fix}\``);
    process.exit(2);
  }
}

const UPSTREAM = [CLI, '--executablePath', CHROMIUM, '--headless', '--isolated', '--chromeArg=--no-sandbox', '--no-usage-statistics'];
const CONFIGS = [
  { id: 'devtools-read', label: 'chrome-devtools-mcp, includeSnapshot on each action', args: UPSTREAM },
  { id: 'devtools-proxy', label: 'chrome-devtools-mcp through response-diff-proxy', args: [join(repo, 'bindings/node/proxy.js'), '--timing', process.execPath, ...UPSTREAM], check: true },
];

/**
 * The agent's view in the Playwright-like form bench/refs.mjs resolves
 * intents in: `uid=1_49 button "Add" focusable` reads `- button "Add" [ref=1_49]`.
 */
function asAria(view) {
  return view
    .split('\n')
    .map((l) => {
      const m = /^(\s*)uid=(\S+)(?: (.*))?$/.exec(l);
      if (!m) return l;
      const rest = m[3] ?? '';
      const role = /^"/.test(rest) || rest === '' ? 'text ' : '';
      const head = /^([^"]*?"[^"]*")|^(\S+)/.exec(`${role}${rest}`)?.[0] ?? role;
      return `${m[1]}- ${head} [ref=${m[2]}]`;
    })
    .join('\n');
}

/** The tool calls of one step, chrome-devtools-mcp's tools (the page read after the last). */
function calls(step, uid, origin, pageId) {
  const page = { pageId };
  const read = ['take_snapshot', page];
  switch (step.act) {
    case 'navigate': return [['navigate_page', { ...page, type: 'url', url: origin + step.path }], read];
    case 'back': return [['navigate_page', { ...page, type: 'back' }], read];
    case 'snapshot': return [read];
    case 'click': return [['click', { ...page, uid, includeSnapshot: true }]];
    case 'select': return [['fill', { ...page, uid, value: step.values[0], includeSnapshot: true }]];
    case 'type':
      return step.submit
        ? [['fill', { ...page, uid, value: step.text, includeSnapshot: false }], ['press_key', { ...page, key: 'Enter', includeSnapshot: true }]]
        : [['fill', { ...page, uid, value: step.text, includeSnapshot: true }]];
    default: throw new Error(`unknown act ${step.act}`);
  }
}

/** The `## Latest page snapshot…` section of an answer: { heading, body } or null. */
function snapshotSection(text) {
  const m = /^## (Latest page snapshot[^\n]*)\n/m.exec(text);
  if (!m) return null;
  const rest = text.slice(m.index + m[0].length);
  const end = rest.search(/^## /m);
  return { heading: m[1], body: (end < 0 ? rest : rest.slice(0, end)).replace(/\n+$/, '') };
}

const trim = (s) => s.replace(/\n+$/, '');
const rootUrl = (view) => /^uid=\S+ RootWebArea "[^\n]*" url="([^"\n]*)"/.exec(view ?? '')?.[1]?.split('#')[0] ?? null;

/** The agent's view after one answer through the proxy: { view, how }. */
function rebuild(prev, text, seenByUrl, history) {
  const sec = snapshotSection(text);
  if (!sec) return { view: prev, how: 'no snapshot' };
  const body = sec.body;
  if (/^No changes since the previous response/.test(body)) return { view: prev, how: 'unchanged' };
  if (/^No changes since the last snapshot of this URL/.test(body)) {
    const url = rootUrl(prev);
    const seen = [...seenByUrl.values()].at(-1);
    return { view: (url && seenByUrl.get(url)) ?? seen ?? prev, how: 'unchanged since the last view of this URL' };
  }
  const sinceUrl = / since the last snapshot of this URL/.test(sec.heading);
  const base = sinceUrl ? null : prev;
  if (/\(patch/.test(sec.heading)) {
    const from = base ?? history.findLast((v) => v !== prev) ?? prev;
    return { view: trim(applyPatch(BIN, from, fencedBlock(body, '') ?? body, history)), how: 'patch' };
  }
  if (/\(diff/.test(sec.heading)) return { view: trim(applyUnified(base ?? prev, fencedBlock(body, 'diff') ?? body)), how: 'line diff' };
  // The whole snapshot, under any note lines the core put above it.
  const at = body.search(/^uid=/m);
  return { view: at < 0 ? prev : trim(body.slice(at)), how: 'full' };
}

async function connect(cfg) {
  const transport = new StdioClientTransport({ command: process.execPath, args: cfg.args, stderr: 'pipe' });
  let log = '';
  transport.stderr?.on('data', (d) => { log += d; });
  const client = new Client({ name: 'response-diff-bench', version: '1.0.0' });
  await client.connect(transport);
  const tools = (await client.listTools()).tools;
  return {
    client,
    catalogTokens: countTokens(JSON.stringify(tools)),
    log: () => log,
    async call(name, args) {
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 90_000 });
      return { text: r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n'), isError: Boolean(r.isError) };
    },
  };
}

async function runConfig(cfg, origin) {
  const server = await connect(cfg);
  const rows = [];
  const snapshots = [];
  const transcript = [];
  const seenByUrl = new Map();
  const history = [];
  let view = null;
  const outOfBand = async (pageId) => {
    const r = await server.call('take_snapshot', { pageId, ...(cfg.check ? { expectation: { diffOptions: { enabled: false } } } : {}) });
    const sec = r.isError ? null : snapshotSection(r.text);
    if (!sec) throw new Error(`${cfg.id}: the out-of-band snapshot failed:\n${r.text.slice(0, 1000)}`);
    return trim(sec.body.slice(Math.max(0, sec.body.search(/^uid=/m))));
  };
  try {
    const pages = await server.call('list_pages', {});
    const pageId = Number(/^(\d+): .*\[selected\]/m.exec(pages.text)?.[1] ?? 1);
    for (const [i, step] of STEPS.entries()) {
      let uid = null;
      if (step.target) {
        uid = (view && resolveRef(asAria(view), step)) || resolveRef(asAria(await outOfBand(pageId)), step);
        if (!uid) throw new Error(`${cfg.id}, step ${i + 1} (${step.label}): no ${step.target} on the page`);
      }
      const row = { step: i + 1, label: step.label, calls: 0, ms: 0, tokens: 0 };
      for (const [name, a] of calls(step, uid, origin, pageId)) {
        row.calls++;
        const t0 = performance.now();
        const r = await server.call(name, a);
        row.ms += performance.now() - t0;
        if (r.isError) throw new Error(`${cfg.id}, step ${i + 1} (${step.label}): ${name} ${JSON.stringify(a)} failed:\n${r.text.slice(0, 2000)}`);
        row.tokens += countTokens(r.text);
        transcript.push(`## ${cfg.id} ${i + 1}. ${step.label}\n\n${name} ${JSON.stringify(a)}\n\n${r.text}\n`);
        if (cfg.check) {
          try {
            const next = rebuild(view, r.text, seenByUrl, history);
            row.how = next.how;
            view = next.view;
          } catch (e) {
            row.how = `unreadable: ${e.message.slice(0, 200)}`;
            view = null;
          }
        } else {
          const sec = snapshotSection(r.text);
          if (sec) view = trim(sec.body);
        }
      }
      row.ms = Math.round(row.ms);
      if (cfg.check) {
        const full = await outOfBand(pageId);
        row.preserved = view === full;
        if (!row.preserved) view = full;
        snapshots.push(full);
        history.push(full);
        const url = rootUrl(full);
        if (url) seenByUrl.set(url, full);
      }
      rows.push(row);
      process.stderr.write(`${cfg.id} ${String(i + 1).padStart(2)} ${step.label}: ${row.tokens} tokens${row.preserved === undefined ? '' : row.preserved ? ' ✓' : ` ✗ (${row.how})`}\n`);
    }
  } finally {
    await server.client.close().catch(() => {});
  }
  const timings = [...server.log().matchAll(/^response-diff-proxy: timing (\S+) ([\d.]+) ms of ([\d.]+) ms, (\d+) extra upstream calls$/gm)]
    .map((m) => ({ tool: m[1], ownMs: Number(m[2]), totalMs: Number(m[3]), extraCalls: Number(m[4]) }));
  return {
    id: cfg.id, label: cfg.label, catalogTokens: server.catalogTokens, rows,
    ...(snapshots.length ? { floor: floor(snapshots) } : {}),
    ...(timings.length ? { proxyTimings: timings } : {}),
    transcript: transcript.join('\n'),
  };
}

const site = await serveDir(SITE);
const results = [];
try {
  for (const cfg of CONFIGS) if (!ONLY || ONLY.split(',').includes(cfg.id)) results.push(await runConfig(cfg, site.origin));
} finally {
  await site.close();
}
const versions = { 'chrome-devtools-mcp': pkgVersion('chrome-devtools-mcp'), 'gpt-tokenizer': pkgVersion('gpt-tokenizer') };
const out = { tokenizer: 'o200k_base (gpt-tokenizer)', session: 'shop', steps: STEPS.map((s) => s.label), versions, configs: results.map(({ transcript, ...r }) => r) };
if (OUT) writeFileSync(OUT, JSON.stringify(out, null, 1));
if (TRANSCRIPT) writeFileSync(TRANSCRIPT, results.map((r) => r.transcript).join('\n'));
for (const r of results) {
  const total = r.rows.reduce((a, x) => a + x.tokens, 0);
  const fl = r.floor ? r.floor.reduce((a, b) => a + b, 0) : null;
  console.log(`${r.id.padEnd(16)} ${String(total).padStart(7)} tokens over ${r.rows.length} steps${fl ? `, floor ${fl}` : ''}${r.rows.some((x) => x.preserved === false) ? `, ${r.rows.filter((x) => x.preserved === false).length} steps not rebuilt` : ''}`);
}
