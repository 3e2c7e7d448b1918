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
// snapshots. Steps are bench/shop.mjs, the same intents as
// bench/session.mjs, resolved to uids in the agent's view.
//
// With --ours (the JSON bench/session.mjs wrote with `--only ours-diff`)
// and --md, writes the report (docs/bench/devtools.md): tokens per step
// and per session, the floor, tool time per call, the catalog and issue
// 43's bars; exits 1 when the session does not reach its final check
// through the proxy.
//
//   node bench/devtools.mjs --bin target/release/response-diff --out bench-out/devtools-shop.json
//     [--only devtools-read,devtools-proxy] [--transcript FILE] [--ours bench-out/devtools-ours.json --md docs/bench/devtools.md]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { arg as cliArg, serverBin } from './cli.mjs';
import { countTokens, floor, modulePath, pkgVersion, repo, serveDir } from './harness.mjs';
import { applyPatch, applyUnified, fencedBlock } from './reconstruct.mjs';
import { resolveRef } from './refs.mjs';
import { STEPS } from './shop.mjs';

const arg = (name, fallback) => cliArg(name, fallback, 'bench/devtools.mjs');
const BIN = serverBin(arg);
const OUT = arg('--out', null);
const TRANSCRIPT = arg('--transcript', null);
const CHROMIUM = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const ONLY = arg('--only', null);
const OURS = arg('--ours', null);
const MD = arg('--md', null);
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
  { id: 'devtools-proxy', label: 'chrome-devtools-mcp through response-diff-proxy', args: [process.env.RD_PROXY_JS || join(repo, 'bindings/node/proxy.js'), '--timing', process.execPath, ...UPSTREAM], check: true },
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

/** A view as chrome-devtools-mcp prints a tree: every line ends in a newline. */
const trim = (s) => s.replace(/\n*$/, '\n');
const rootUrl = (view) => /^uid=\S+ RootWebArea "[^\n]*" url="([^"\n]*)"/.exec(view ?? '')?.[1]?.split('#')[0] ?? null;

/** The selected page's URL in an answer's `## Pages` list (fragment dropped), or null. */
const selectedUrl = (text) => /^\d+: .* \((\S+)\) \[selected\]/m.exec(text)?.[1]?.split('#')[0] ?? null;

/**
 * The agent's view after one answer through the proxy: { view, how }.
 * `url`: the page's URL as the agent last read it (a `## Pages` list, or
 * the root line of its view), for a patch since the last view of a URL.
 */
function rebuild(prev, text, seenByUrl, history, url) {
  const sec = snapshotSection(text);
  if (!sec) return { view: prev, how: 'no snapshot' };
  const body = sec.body;
  if (/^No changes since the previous response/.test(body)) return { view: prev, how: 'unchanged' };
  const ofUrl = url === null ? null : seenByUrl.get(url) ?? null;
  if (/^No changes since the last snapshot of this URL/.test(body)) {
    if (ofUrl === null) throw new Error(`"no changes" for a URL never seen (${url})`);
    return { view: ofUrl, how: 'unchanged since the last view of this URL' };
  }
  const sinceUrl = / since the last snapshot of this URL/.test(sec.heading);
  const base = sinceUrl ? ofUrl : prev;
  if (base === null && /\((patch|diff)/.test(sec.heading)) throw new Error(`a diff without ${sinceUrl ? `a view of ${url}` : 'a previous view'}`);
  if (/\(patch/.test(sec.heading)) return { view: trim(applyPatch(BIN, base, fencedBlock(body, '') ?? body, history)), how: sinceUrl ? 'last view of this URL + patch' : 'patch' };
  if (/\(diff/.test(sec.heading)) return { view: trim(applyUnified(base, fencedBlock(body, 'diff') ?? body)), how: sinceUrl ? 'last view of this URL + line diff' : 'line diff' };
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
  let url = null; // the page's URL as the agent last read it
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
        url = selectedUrl(r.text) ?? url;
        if (cfg.check) {
          try {
            const next = rebuild(view, r.text, seenByUrl, history, url);
            row.how = next.how;
            view = next.view;
          } catch (e) {
            row.how = `unreadable: ${e.message.slice(0, 200)}`;
            view = null;
          }
        } else {
          const sec = snapshotSection(r.text);
          if (sec) view = trim(sec.body.slice(Math.max(0, sec.body.search(/^uid=/m))));
        }
      }
      row.ms = Math.round(row.ms);
      if (cfg.check) {
        const full = await outOfBand(pageId);
        row.preserved = view === full;
        if (!row.preserved) view = full;
        snapshots.push(full);
        history.push(full);
        url = rootUrl(full) ?? url;
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

// ---------------------------------------------------------------- report

const BARS = { vsOurs: 1.25, vsAlone: 0.8, overheadShare: 0.1, overheadMs: 15, catalog: 1.1 };
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const n = (x) => x.toLocaleString('en-US');

/** docs/bench/devtools.md: the session's three runs side by side, and the bars. */
function report(run, ours) {
  const alone = run.configs.find((c) => c.id === 'devtools-read');
  const proxy = run.configs.find((c) => c.id === 'devtools-proxy');
  if (!alone || !proxy || !ours) throw new Error('the report needs devtools-read, devtools-proxy and --ours (ours-diff)');
  const tok = (c) => sum(c.rows.map((x) => x.tokens + (x.fileTokens ?? 0)));
  const perCall = (c) => sum(c.rows.map((x) => x.ms)) / sum(c.rows.map((x) => x.calls));
  const own = (proxy.proxyTimings ?? []).map((t) => t.ownMs).sort((a, b) => a - b);
  const mean = own.length ? sum(own) / own.length : 0;
  const p95 = own.length ? own[Math.min(own.length - 1, Math.ceil(own.length * 0.95) - 1)] : 0;
  const allowed = Math.max(BARS.overheadMs, BARS.overheadShare * perCall(alone));
  const extra = sum((proxy.proxyTimings ?? []).map((t) => t.extraCalls));
  const fl = sum(proxy.floor ?? []);
  const rebuilt = proxy.rows.filter((x) => x.preserved).length;
  const reached = proxy.rows.length === STEPS.length && proxy.rows.at(-1)?.preserved === true;
  const vsOurs = tok(proxy) / tok(ours);
  const saved = 1 - tok(proxy) / tok(alone);
  const catalog = proxy.catalogTokens / alone.catalogTokens;
  const missed = [
    vsOurs > BARS.vsOurs && `the proxy costs ${vsOurs.toFixed(2)}× our server (bar ${BARS.vsOurs}×)`,
    saved < BARS.vsAlone && `the proxy saves ${(saved * 100).toFixed(1)} % (bar 80 %)`,
    !reached && 'the final check was not reached through the proxy',
    catalog > BARS.catalog && `the catalog is ${catalog.toFixed(3)}× chrome-devtools-mcp's (bar 1.1×)`,
    mean > allowed && `the proxy's own time is ${mean.toFixed(1)} ms a call (allowed ${allowed.toFixed(0)})`,
  ].filter(Boolean);
  const lines = [
    '# chrome-devtools-mcp through response-diff-proxy',
    '',
    `Generated by \`make devtools-bench\` (bench/devtools.mjs). chrome-devtools-mcp ${run.versions['chrome-devtools-mcp']} on Debian's chromium (\`--headless --isolated\`), pages on 127.0.0.1, tokens counted with o200k_base (gpt-tokenizer ${run.versions['gpt-tokenizer']}). The shop session of bench/session.mjs (bench/shop.mjs), three ways: **chrome-devtools-mcp alone**, with \`includeSnapshot: true\` on the last call of each action and a \`take_snapshot\` after \`navigate_page\` (which has no such flag), so the agent sees what each step did; **the same calls through the proxy** (\`response-diff-proxy chrome-devtools-mcp …\`, its defaults: diffs on); and **our server** with diffs on (\`ours-diff\`, bench/session.mjs). Through the proxy the agent's view is rebuilt from each answer and compared with a full snapshot taken out of band after every step (*rebuilt*). *Floor*: the tokens of the snapshot lines the agent had not been shown before in the session (uids carried), which no lossless answer can leave out. *The proxy's own time*: from taking a call to answering it, less chrome-devtools-mcp's answer (\`--timing\`).`,
    '',
    '| session | steps | chrome-devtools-mcp alone | through the proxy | our server | floor (proxy) | proxy / ours | saved vs alone | ms a call: alone | through the proxy | the proxy\'s own, mean / p95 (allowed) | extra upstream calls | rebuilt | final check |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    `| shop | ${STEPS.length} | ${n(tok(alone))} | ${n(tok(proxy))} | ${n(tok(ours))} | ${n(fl)} | ${vsOurs.toFixed(2)}× | ${(saved * 100).toFixed(1)} % | ${perCall(alone).toFixed(0)} | ${perCall(proxy).toFixed(0)} | ${mean.toFixed(1)} / ${p95.toFixed(1)} (${allowed.toFixed(0)}) | ${extra} | ${rebuilt}/${proxy.rows.length} | ${reached ? 'reached' : 'not reached'} |`,
    '',
    `Bars (issue 43): through the proxy ≤ ${BARS.vsOurs}× our server's tokens and ≥ 80 % fewer than chrome-devtools-mcp alone; the final check reached; at most 10 % or 15 ms added a call, whichever is larger; the catalog within 10 %. Catalog (\`tools/list\`, o200k): chrome-devtools-mcp ${n(alone.catalogTokens)} tokens, through the proxy ${n(proxy.catalogTokens)} (${catalog.toFixed(3)}×). ${missed.length ? `**Missed:** ${missed.join('; ')}.` : 'All met.'}`,
    '',
    '## Tokens per step: shop',
    '',
    '| step | chrome-devtools-mcp alone | through the proxy | how the view was rebuilt | our server | floor |',
    '|---|---:|---:|---|---:|---:|',
    ...STEPS.map((s, i) => `| ${i + 1}. ${s.label} | ${n(alone.rows[i]?.tokens ?? 0)} | ${n(proxy.rows[i]?.tokens ?? 0)} | ${proxy.rows[i]?.how ?? ''}${proxy.rows[i]?.preserved === false ? ' (not rebuilt)' : ''} | ${n((ours.rows[i]?.tokens ?? 0) + (ours.rows[i]?.fileTokens ?? 0))} | ${n(proxy.floor?.[i] ?? 0)} |`),
    '',
  ];
  if (!reached) process.exitCode = 1;
  return lines.join('\n');
}

// ---------------------------------------------------------------- main

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
if (MD) writeFileSync(MD, report(out, OURS ? JSON.parse(readFileSync(OURS, 'utf8')).configs.find((c) => c.id === 'ours-diff') : null));
for (const r of results) {
  const total = r.rows.reduce((a, x) => a + x.tokens, 0);
  const fl = r.floor ? r.floor.reduce((a, b) => a + b, 0) : null;
  console.log(`${r.id.padEnd(16)} ${String(total).padStart(7)} tokens over ${r.rows.length} steps${fl ? `, floor ${fl}` : ''}${r.rows.some((x) => x.preserved === false) ? `, ${r.rows.filter((x) => x.preserved === false).length} steps not rebuilt` : ''}`);
}

