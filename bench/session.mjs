// The token-savings benchmark: ONE scripted agent session (a list that
// grows, a modal, an error banner, a navigation, a form) run through each
// MCP server over stdio with the official MCP client, pages served from
// 127.0.0.1 (the bundled site, tests/fixtures/site). Every response's text
// is counted with o200k_base (gpt-tokenizer, offline).
//
//   node bench/session.mjs --bin target/release/response-diff --out bench-out/session.json
//
// The steps are written once as user intents ("click the button named X in
// the block that mentions Y"); each server resolves them to its own refs
// from the latest snapshot the agent has seen (or from a snapshot taken out
// of band, which is not counted). For our diff configuration the agent's
// view is rebuilt from the previous view plus each diff, and compared with a
// full snapshot taken out of band after every step: a step whose rebuilt view
// differs fails the run (exit 1).
import { readFileSync, existsSync, writeFileSync, mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve, isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

import { arg as cliArg } from './cli.mjs';
import { applyPatch, applyUnified, readSections, fencedBlock } from './reconstruct.mjs';
import { resolveRef } from './refs.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');
const require = (p) => join(here, 'node_modules', p);

const arg = (name, fallback) => cliArg(name, fallback, 'bench/session.mjs');

const BIN = resolve(arg('--bin', join(process.env.CARGO_TARGET_DIR || join(repo, 'target'), 'release/response-diff')));
const OUT = arg('--out', null);
const TRANSCRIPT = arg('--transcript', null);
const CHROMIUM = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const ONLY = arg('--only', null);
const SITE = join(repo, 'tests/fixtures/site');

if (!existsSync(BIN) && (!ONLY || ONLY.includes('ours'))) {
  console.error(`no server binary at ${BIN}: build it with \`cargo build --release -p response-diff-server\` or pass --bin`);
  process.exit(2);
}
if (!existsSync(CHROMIUM)) {
  console.error(`no chromium at ${CHROMIUM}: run \`make setup\` (Debian's chromium) or pass --chromium`);
  process.exit(2);
}

// ---------------------------------------------------------------- the site

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };

async function serveSite(root) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
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
  return { origin, close: () => new Promise((ok) => server.close(ok)) };
}

// ------------------------------------------------------------- the session

// within: a quoted name that appears in the block holding the target (the
// product's heading, the region's name); target: `role "name"` as printed in
// the aria snapshot. scope: the region the filtering agent knows it needs.
const CART = 'complementary "Cart"';
const STEPS = [
  { label: 'navigate to the shop', act: 'navigate', path: '/index.html' },
  { label: 'add Sencha Kyoto to the cart (list grows)', act: 'click', within: '"Sencha Kyoto"', target: 'button "Add to cart"', scope: CART },
  { label: 'add Jasmine Pearls', act: 'click', within: '"Jasmine Pearls"', target: 'button "Add to cart"', scope: CART },
  { label: 'add Assam Breakfast', act: 'click', within: '"Assam Breakfast"', target: 'button "Add to cart"', scope: CART },
  { label: 'open Quick view (modal)', act: 'click', within: '"Oolong Milk"', target: 'button "Quick view"' },
  { label: 'add from the modal (closes it)', act: 'click', within: '- dialog', target: 'button "Add to cart"', scope: CART },
  { label: 'remove Jasmine Pearls', act: 'click', target: 'button "Remove Jasmine Pearls"', scope: CART },
  { label: 'read the page (nothing changed)', act: 'snapshot' },
  { label: 'checkout (error banner)', act: 'click', target: 'button "Checkout"' },
  { label: 'search "earl" (list filters)', act: 'type', target: 'searchbox "Search teas"', text: 'earl', submit: true },
  { label: 'go to Sign up (navigation)', act: 'click', within: 'navigation "Main"', target: 'link "Sign up"' },
  { label: 'type the name', act: 'type', target: 'textbox "Full name"', text: 'Ada Lovelace' },
  { label: 'type a bad email', act: 'type', target: 'textbox "Email"', text: 'ada@' },
  { label: 'submit (validation errors)', act: 'click', target: 'button "Create account"' },
  { label: 'fix the email', act: 'type', target: 'textbox "Email"', text: 'ada@example.com' },
  { label: 'type a password', act: 'type', target: 'textbox "Password"', text: 'correct horse' },
  { label: 'choose a country', act: 'select', target: 'combobox "Country"', values: ['Japan'] },
  { label: 'accept the terms', act: 'click', target: 'checkbox "I accept the terms"' },
  { label: 'submit (welcome)', act: 'click', target: 'button "Create account"' },
  { label: 'back to the shop', act: 'back' },
];

// What the filtering agent asks of every call (as in `make demo`): no
// generated code, console errors and warnings only.
const FILTER = { includeCode: false, consoleOptions: { levels: ['error', 'warn'] } };

const BROWSER_ARGS = ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const CONFIGS = [
  { id: 'ours-full', server: 'response-diff', label: 'response-diff, defaults (full responses)', kind: 'ours' },
  { id: 'ours-filtered', server: 'response-diff', label: 'response-diff, expectation filtering', kind: 'ours', exp: FILTER, scoped: true },
  { id: 'ours-diff', server: 'response-diff', label: 'response-diff, diffOptions + since', kind: 'ours', exp: { ...FILTER, diffOptions: { enabled: true } }, since: true, check: true },
  { id: 'ours-diff-lines', server: 'response-diff', label: 'response-diff, diffOptions + since, line diffs only', kind: 'ours', exp: { ...FILTER, snapshotOptions: { diff: 'lines' }, diffOptions: { enabled: true } }, since: true, check: true },
  { id: 'playwright-mcp', server: '@playwright/mcp', label: '@playwright/mcp, defaults', kind: 'pw' },
  { id: 'fast', server: '@tontoko/fast-playwright-mcp', label: 'fast-playwright-mcp, snapshot on', kind: 'fast', exp: { includeSnapshot: true } },
  { id: 'fast-diff', server: '@tontoko/fast-playwright-mcp', label: 'fast-playwright-mcp, snapshot + diffOptions', kind: 'fast', exp: { includeSnapshot: true, diffOptions: { enabled: true } } },
];

function pkgVersion(name) {
  return JSON.parse(readFileSync(require(`${name}/package.json`), 'utf8')).version;
}

async function connect(cfg, workdir) {
  let command;
  let args;
  if (cfg.kind === 'ours') {
    command = BIN;
    args = ['mcp', '--executable-path', CHROMIUM];
  } else {
    const config = join(workdir, 'config.json');
    writeFileSync(config, JSON.stringify({
      browser: { browserName: 'chromium', isolated: true, launchOptions: { executablePath: CHROMIUM, headless: true, chromiumSandbox: false, args: BROWSER_ARGS } },
    }));
    const cli = cfg.kind === 'pw' ? require('@playwright/mcp/cli.js') : require('@tontoko/fast-playwright-mcp/cli.js');
    command = process.execPath;
    args = [cli, '--config', config, '--headless', '--isolated', '--no-sandbox', '--executable-path', CHROMIUM, '--output-dir', join(workdir, 'out')];
    if (cfg.kind === 'fast') args.push('--tool-profile', 'full');
  }
  const transport = new StdioClientTransport({ command, args, cwd: workdir, stderr: 'pipe', env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } });
  let log = '';
  transport.stderr?.on('data', (d) => { log += d; });
  const client = new Client({ name: 'response-diff-bench', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`${cfg.id}: could not start ${command} ${args.join(' ')}: ${e.message}\n${log}`);
  }
  const tools = await client.listTools();
  return {
    client,
    catalogTokens: countTokens(JSON.stringify(tools.tools)),
    toolCount: tools.tools.length,
    log: () => log,
    async call(name, args) {
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
      const text = r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
      return { text, isError: Boolean(r.isError) };
    },
  };
}

// ------------------------------------------------------ refs from snapshots

/** The full aria snapshot a response carries inline, or null. */
function inlineSnapshot(text) {
  for (const s of readSections(text)) {
    if (/^(Page snapshot|Snapshot|Page state)$/.test(s.heading)) {
      const b = fencedBlock(s.body, 'yaml');
      if (b !== null) return b;
    }
  }
  return null;
}

/** The snapshot file @playwright/mcp links instead of inlining, or null. */
function linkedSnapshotFile(text, workdir) {
  const m = text.match(/\[Snapshot\]\(([^)]+\.yml)\)/);
  if (!m) return null;
  const path = isAbsolute(m[1]) ? m[1] : join(workdir, m[1]);
  return existsSync(path) ? { path, text: readFileSync(path, 'utf8') } : null;
}

// ---------------------------------------------------------- one configuration

function toolCall(cfg, step, ref, origin, since) {
  const exp = (extra) => {
    if (cfg.kind === 'pw') return {};
    let e = cfg.exp ? structuredClone(cfg.exp) : undefined;
    if (cfg.scoped && step.scope) e = { ...(e || {}), snapshotOptions: { selector: step.scope } };
    if (extra) e = { ...(e || {}), ...extra };
    return e ? { expectation: e } : {};
  };
  const target = cfg.kind === 'ours' ? { ref, element: step.target } : cfg.kind === 'pw' ? { target: ref, element: step.target } : { selectors: [{ ref }] };
  switch (step.act) {
    case 'navigate': return ['browser_navigate', { url: origin + step.path, ...exp() }];
    case 'back': return ['browser_navigate_back', { ...exp() }];
    case 'snapshot': return ['browser_snapshot', { ...(since !== undefined ? { since } : {}), ...exp() }];
    case 'click': return ['browser_click', { ...target, ...exp() }];
    case 'type': return ['browser_type', { ...target, text: step.text, ...(step.submit ? { submit: true } : {}), ...exp() }];
    case 'select': return ['browser_select_option', { ...target, values: step.values, ...exp() }];
    default: throw new Error(`unknown act ${step.act}`);
  }
}

/** A full snapshot taken out of band (not counted): diff off, so our diff chain does not move. */
async function outOfBand(server, cfg) {
  const args = cfg.kind === 'ours' ? { expectation: { diffOptions: { enabled: false }, includeConsole: false } } : cfg.kind === 'fast' ? { expectation: { includeSnapshot: true } } : {};
  const r = await server.call('browser_snapshot', args);
  if (r.isError) throw new Error(`${cfg.id}: the out-of-band snapshot failed: ${r.text}`);
  const s = inlineSnapshot(r.text);
  if (s === null) throw new Error(`${cfg.id}: the out-of-band snapshot has no aria snapshot:\n${r.text.slice(0, 2000)}`);
  return s;
}

const TS_RE = /Snapshot ts: (\d+)|# ts (\d+)/;

/**
 * The agent's view after a response of our diff configuration: the previous
 * view plus the diff. Returns { view, how } or throws when the response
 * cannot be read.
 */
function rebuild(prev, text, seenByUrl) {
  const sections = readSections(text);
  const sec = sections.find((s) => s.heading.startsWith('Page snapshot'));
  if (!sec) return { view: prev, how: 'no snapshot section' };
  // A page seen before diffs against the agent's last view of its URL.
  const url = pageUrl(sections);
  const seen = url === null ? null : seenByUrl.get(url) ?? null;
  // What each kind of diff was taken against: [base, its name, how rebuilt].
  const bases = {
    'Page snapshot (diff since the previous snapshot)': [prev, 'a previous view', 'previous + diff'],
    'Page snapshot (diff since the last snapshot of this URL)': [seen, 'a view of this URL', 'last view of this URL + diff'],
    'Page snapshot (patch since the previous snapshot)': [prev, 'a previous view', 'previous + patch'],
    'Page snapshot (patch since the last snapshot of this URL)': [seen, 'a view of this URL', 'last view of this URL + patch'],
  };
  if (sec.heading in bases) {
    const [base, name, how] = bases[sec.heading];
    const patch = sec.heading.includes('(patch ');
    const diff = fencedBlock(sec.body, patch ? '' : 'diff');
    if (diff === null || base === null) throw new Error(`a diff without ${base === null ? name : 'a diff block'}`);
    return { view: patch ? applyPatch(BIN, base, diff) : applyUnified(base, diff), how };
  }
  if (/^No changes since the last snapshot of this URL/.test(sec.body.trim())) {
    if (seen === null) throw new Error('"no changes" for a URL never seen');
    return { view: seen, how: 'unchanged since the last view of this URL' };
  }
  if (sec.heading.startsWith('Page snapshot (changes since ts')) {
    const body = fencedBlock(sec.body, '') ?? sec.body;
    const changes = body.split('\n').filter((l) => /^[+\-~] /.test(l));
    if (changes.length) throw new Error(`a tree diff with ${changes.length} changes: this bench applies only empty ones`);
    return { view: prev, how: 'since: no changes' };
  }
  if (/^No changes since the previous response/.test(sec.body.trim())) return { view: prev, how: 'unchanged' };
  const full = fencedBlock(sec.body, 'yaml');
  if (full !== null) return { view: full, how: /^Full response \(/.test(sec.body) ? 'full (diff would not help)' : 'first (full)' };
  throw new Error(`an unreadable snapshot section:\n${sec.body.slice(0, 500)}`);
}

/** The page URL (without its fragment) of a response's Page state, or null. */
function pageUrl(sections) {
  const state = sections.find((s) => s.heading === 'Page state');
  const m = state && state.body.match(/^- Page URL: (\S+)/m);
  return m ? m[1].split('#')[0] : null;
}

async function runConfig(cfg, origin) {
  const workdir = mkdtempSync(join(tmpdir(), `rd-bench-${cfg.id}-`));
  mkdirSync(join(workdir, 'out'));
  const server = await connect(cfg, workdir);
  const rows = [];
  const transcript = [];
  let view = null; // the latest full snapshot the agent can see (for refs)
  let agentView = null; // ours-diff: rebuilt from diffs
  const seenByUrl = new Map(); // ours-diff: the agent's last view of each URL
  let lastUrl = null; // ours-diff: the URL the agent was last shown
  let lastTs;
  try {
    for (const [i, step] of STEPS.entries()) {
      let ref;
      if (step.target) {
        const from = cfg.check ? agentView : view;
        ref = from && resolveRef(from, step);
        if (!ref) {
          // The agent's last response did not show it (scoped, or no snapshot): read the page.
          ref = resolveRef(await outOfBand(server, cfg), step);
        }
        if (!ref) throw new Error(`${cfg.id}, step ${i + 1} (${step.label}): no ${step.target}${step.within ? ` near ${step.within}` : ''} on the page`);
      }
      const since = cfg.since && step.act === 'snapshot' ? lastTs : undefined;
      const [tool, args] = toolCall(cfg, step, ref, origin, since);
      const t0 = performance.now();
      const r = await server.call(tool, args);
      const ms = performance.now() - t0;
      if (r.isError || /^### Error|^### Result\nError:/m.test(r.text)) {
        throw new Error(`${cfg.id}, step ${i + 1} (${step.label}): ${tool} ${JSON.stringify(args)} failed:\n${r.text.slice(0, 2000)}`);
      }
      const row = { step: i + 1, label: step.label, tool, ms: Math.round(ms), tokens: countTokens(r.text), chars: r.text.length };
      const file = cfg.kind === 'pw' ? linkedSnapshotFile(r.text, workdir) : null;
      if (file) {
        row.fileTokens = countTokens(file.text);
        view = file.text;
      } else {
        const inline = inlineSnapshot(r.text);
        if (inline !== null && !(cfg.scoped && step.scope)) view = inline;
        else if (step.act === 'navigate' || step.act === 'back') view = null;
      }
      const ts = r.text.match(TS_RE);
      if (ts) lastTs = Number(ts[1] ?? ts[2]);
      if (cfg.check) {
        const full = await outOfBand(server, cfg);
        let rebuilt;
        try {
          rebuilt = rebuild(agentView, r.text, seenByUrl);
        } catch (e) {
          rebuilt = { view: null, how: `unreadable: ${e.message}` };
        }
        agentView = rebuilt.view;
        row.rebuiltHow = rebuilt.how;
        row.preserved = agentView === full;
        if (!row.preserved) {
          row.mismatch = firstDifference(agentView ?? '', full);
          agentView = full; // go on from the truth so one loss is reported once
        }
        const sections = readSections(r.text);
        // A diffed response leaves out a Page state it already showed: the URL is unchanged.
        const url = pageUrl(sections) ?? lastUrl;
        lastUrl = url;
        if (url !== null && agentView !== null && sections.some((x) => x.heading.startsWith('Page snapshot'))) {
          seenByUrl.set(url, agentView);
        }
        row.fullTokens = countTokens(full);
      }
      rows.push(row);
      transcript.push(`## ${cfg.id} ${i + 1}. ${step.label}\n\n${tool} ${JSON.stringify(args)}\n\n${r.text}\n`);
      process.stderr.write(`${cfg.id} ${String(i + 1).padStart(2)} ${step.label}: ${row.tokens} tokens${row.fileTokens ? ` (+${row.fileTokens} in the linked file)` : ''}${row.preserved === undefined ? '' : row.preserved ? ' ✓' : ' ✗'}\n`);
    }
  } finally {
    await server.client.close().catch(() => {});
    rmSync(workdir, { recursive: true, force: true });
  }
  return { id: cfg.id, server: cfg.server, label: cfg.label, catalogTokens: server.catalogTokens, toolCount: server.toolCount, rows, transcript: transcript.join('\n') };
}

function firstDifference(a, b) {
  const la = a.split('\n');
  const lb = b.split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) return { line: i + 1, rebuilt: la[i] ?? '(end)', full: lb[i] ?? '(end)' };
  }
  return null;
}

// ---------------------------------------------------------------- main

const site = await serveSite(SITE);
const results = [];
let failed = false;
try {
  for (const cfg of CONFIGS) {
    if (ONLY && !ONLY.split(',').includes(cfg.id)) continue;
    results.push(await runConfig(cfg, site.origin));
  }
} finally {
  await site.close();
}
for (const r of results) {
  const lost = r.rows.filter((x) => x.preserved === false);
  if (lost.length) {
    failed = true;
    for (const x of lost) console.error(`${r.id}: step ${x.step} (${x.label}) lost information: ${JSON.stringify(x.mismatch)}`);
  }
}
const versions = {
  'response-diff': null,
  '@playwright/mcp': pkgVersion('@playwright/mcp'),
  '@tontoko/fast-playwright-mcp': pkgVersion('@tontoko/fast-playwright-mcp'),
  '@modelcontextprotocol/sdk': pkgVersion('@modelcontextprotocol/sdk'),
  'gpt-tokenizer': pkgVersion('gpt-tokenizer'),
};
const out = { tokenizer: 'o200k_base (gpt-tokenizer)', steps: STEPS.map((s) => s.label), versions, configs: results.map(({ transcript, ...r }) => r) };
if (OUT) writeFileSync(OUT, JSON.stringify(out, null, 1));
if (TRANSCRIPT) writeFileSync(TRANSCRIPT, results.map((r) => r.transcript).join('\n'));
for (const r of results) {
  const total = r.rows.reduce((a, x) => a + x.tokens + (x.fileTokens ?? 0), 0);
  console.log(`${r.id.padEnd(16)} ${String(total).padStart(7)} tokens over ${r.rows.length} steps`);
}
if (failed) {
  console.error('information was lost: see the steps above');
  process.exit(1);
}
