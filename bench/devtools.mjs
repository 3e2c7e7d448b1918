// The bench's app sessions (the shop, TodoMVC ×7, the data grid,
// jsoneditor, the API docs: the steps of bench/shop.mjs, todomvc.mjs,
// grid.mjs, expand.mjs, apidocs.mjs) through chrome-devtools-mcp (Google's
// browser MCP server, npm `chrome-devtools-mcp`, pinned in
// bench/package.json): alone,
// with `includeSnapshot: true` on the last call of every action and a
// `take_snapshot` after the tools that have no such flag (navigate_page),
// so the agent sees what each step did; and the same calls through
// response-diff-proxy (bindings/node/proxy.js). Every answer's text is
// counted with o200k_base (gpt-tokenizer). Through the proxy the agent's
// view is rebuilt from each answer (the full text, the patch applied with
// the server binary's `apply-patch`, a line diff, or "no changes") and
// compared with a full snapshot taken out of band after every step (diffs
// off, not counted); the floor (bench/harness.mjs) is taken on those
// snapshots. The intents are the ones our server and @playwright/mcp
// run, resolved to uids in the agent's view (read as Playwright's lines).
//
// With --ours (a directory holding the JSON `make proxy-bench` writes:
// proxy-shop.json, proxy-todomvc.json, proxy-grid.json, proxy-expand.json,
// proxy-apidocs.json, whose `ours-diff` runs are our server) and --md,
// writes the report (docs/bench/devtools.md): tokens per step and per
// session, the floor, tool time per call, the catalog and issue 43's bars;
// exits 1 when a session does not reach its final check through the proxy.
//
//   node bench/devtools.mjs --bin target/release/response-diff --out bench-out/devtools.json
//     [--sessions shop,todomvc-react,grid,expand,apidocs] [--only devtools-read,devtools-proxy]
//     [--transcript FILE] [--ours bench-out --md docs/bench/devtools.md]
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { arg as cliArg, serverBin } from './cli.mjs';
import { findRef } from './appsession.mjs';
import { STEPS as APIDOCS_STEPS } from './apidocs.mjs';
import { STEPS as EXPAND_STEPS } from './expand.mjs';
import { STEPS as GRID_STEPS } from './grid.mjs';
import { connect, countTokens, floor, here, modulePath, pkgVersion, repo, serveDir, stripRef } from './harness.mjs';
import { applyPatch, applyUnified, fencedBlock } from './reconstruct.mjs';
import { resolveRef } from './refs.mjs';
import { STEPS as SHOP_STEPS } from './shop.mjs';
import { FRAMEWORKS, STEPS as TODO_STEPS } from './todomvc.mjs';

const arg = (name, fallback) => cliArg(name, fallback, 'bench/devtools.mjs');
const BIN = serverBin(arg);
const OUT = arg('--out', null);
const TRANSCRIPT = arg('--transcript', null);
const CHROMIUM = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const ONLY = arg('--only', null);
const OURS = arg('--ours', null);
const MD = arg('--md', null);
const SITE = join(repo, 'tests/fixtures/site');

/** The sessions: { id, name, root (served), steps, ours: [file, framework?] }. */
const SESSIONS = [
  { id: 'shop', name: 'shop', root: SITE, steps: SHOP_STEPS, ours: ['proxy-shop.json'] },
  ...FRAMEWORKS.map((fw) => ({
    id: `todomvc-${fw}`, name: `TodoMVC ${fw}`, root: modulePath('todomvc'), ours: ['proxy-todomvc.json', fw],
    steps: TODO_STEPS.map((x) => (x.act === 'navigate' ? { ...x, path: `/examples/${fw}/index.html` } : x)),
  })),
  { id: 'grid', name: 'data grid', root: here, steps: GRID_STEPS, ours: ['proxy-grid.json'] },
  { id: 'expand', name: 'jsoneditor', root: modulePath('jsoneditor'), steps: EXPAND_STEPS, ours: ['proxy-expand.json'] },
  { id: 'apidocs', name: 'API docs', root: here, steps: APIDOCS_STEPS, ours: ['proxy-apidocs.json'] },
];
const CHOSEN = arg('--sessions', null)?.split(',') ?? null;
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
      // A field's value, as Playwright prints it after the colon.
      const value = / value="([^"]*)"/.exec(rest)?.[1];
      return `${m[1]}- ${head} [ref=${m[2]}]${value === undefined ? '' : `: ${value}`}`;
    })
    .join('\n');
}

/** The uid of a step's target in the agent's view (devtools lines), or null. */
function resolve(view, step) {
  if (!view) return null;
  const aria = asAria(view);
  // A step may say where its target stands in chrome-devtools-mcp's tree
  // when Playwright's words for it are not there (`devtools`).
  const target = step.devtools ?? step.target;
  return typeof target === 'string' ? resolveRef(aria, { ...step, target }) : findRef(aria, target) ?? findFlat(aria, target);
}

/**
 * The same intent where chrome-devtools-mcp's tree differs from
 * Playwright's: it leaves out wrappers Playwright prints (a tag's heading,
 * an unnamed list item) and puts a space where two spans of a name meet
 * (`GET /pets /{petId}.json`). The target is then the first line after
 * the one holding the item's text that matches the role, in document
 * order, names compared without white space.
 */
function findFlat(aria, spec) {
  const squash = (x) => x.replace(/[\s\u200b]+/g, '');
  const role = new RegExp(squash(spec.role.source));
  const lines = aria.split('\n');
  const refOf = (i) => /\[ref=([A-Za-z0-9_]+)\]/.exec(lines[i])?.[1] ?? null;
  const hits = [];
  for (let i = 0; i < lines.length; i++) if (role.test(squash(stripRef(lines[i].trim()))) && refOf(i)) hits.push(i);
  if (!spec.item) return hits.length ? refOf(hits[0]) : null;
  const text = squash(spec.item.replace(/^[a-z]+ (?=")/, ''));
  const at = lines.findIndex((l) => squash(l).includes(text));
  if (at < 0) return null;
  if (spec.self) return refOf(at);
  // The match nearest the item's text (a row's expander stands before its
  // text, a tag's toggle after its name), the earlier one on a tie.
  const near = hits.sort((a, b) => Math.abs(a - at) - Math.abs(b - at) || a - b)[0];
  return near === undefined ? null : refOf(near);
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
    case 'dblclick': return [['click', { ...page, uid, dblClick: true, includeSnapshot: true }]];
    case 'hover': return [['hover', { ...page, uid, includeSnapshot: true }]];
    case 'select': return [['fill', { ...page, uid, value: step.values[0], includeSnapshot: true }]];
    // Emptying a field: `fill` with '' sets the value without the input
    // events a page's filter listens to (swagger-ui keeps filtering), so
    // the agent selects the text and deletes it, as a user does.
    case 'type':
      if (step.text === '') {
        return [['click', { ...page, uid, includeSnapshot: false }], ['press_key', { ...page, key: 'Control+A', includeSnapshot: false }], ['press_key', { ...page, key: 'Backspace', includeSnapshot: true }]];
      }
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
  if (/\(patch/.test(sec.heading)) {
    // The patch, under any note the core wrote above it (a line count over maxDiffLines).
    const patch = fencedBlock(body, '') ?? body.slice(Math.max(0, body.search(/^(- \[|~ |\+ )/m)));
    return { view: trim(applyPatch(BIN, base, patch, history)), how: sinceUrl ? 'last view of this URL + patch' : 'patch' };
  }
  if (/\(diff/.test(sec.heading)) {
    // The diff, under the counts line the core writes above it.
    const diff = fencedBlock(body, 'diff') ?? body.slice(Math.max(0, body.search(/^(@@|--- )/m)));
    return { view: trim(applyUnified(base, diff)), how: sinceUrl ? 'last view of this URL + line diff' : 'line diff' };
  }
  // The whole snapshot, under any note lines the core put above it.
  const at = body.search(/^uid=/m);
  return { view: at < 0 ? prev : trim(body.slice(at)), how: 'full' };
}

async function runConfig(cfg, session, origin) {
  const STEPS = session.steps;
  let error;
  const workdir = mkdtempSync(join(tmpdir(), `rd-bench-${cfg.id}-`));
  const server = await connect({ ...cfg, command: process.execPath }, { bin: BIN, chromium: CHROMIUM, workdir });
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
        uid = resolve(view, step);
        // Not in the agent's view: the page as it is now (an answer taken
        // before the page settled: a debounced filter), read again a few
        // times (not counted).
        for (let k = 0; !uid && k < 4; k++) {
          if (k) await new Promise((ok) => setTimeout(ok, 500));
          uid = resolve(await outOfBand(pageId), step);
        }
        if (!uid) throw new Error(`${cfg.id}, ${session.name} step ${i + 1} (${step.label}): no ${String(step.target.role ?? step.target)} on the page`);
      }
      const row = { step: i + 1, label: step.label, calls: 0, ms: 0, tokens: 0 };
      for (const [name, a] of calls(step, uid, origin, pageId)) {
        row.calls++;
        const t0 = performance.now();
        const r = await server.call(name, a);
        row.ms += performance.now() - t0;
        if (r.isError) throw new Error(`${cfg.id}, ${session.name} step ${i + 1} (${step.label}): ${name} ${JSON.stringify(a)} failed:\n${r.text.slice(0, 2000)}`);
        row.tokens += countTokens(r.text);
        transcript.push(`## ${session.name}, ${cfg.id} ${i + 1}. ${step.label}\n\n${name} ${JSON.stringify(a)}\n\n${r.text}\n`);
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
      process.stderr.write(`${session.id} ${cfg.id} ${String(i + 1).padStart(2)} ${step.label}: ${row.tokens} tokens${row.preserved === undefined ? '' : row.preserved ? ' ✓' : ` ✗ (${row.how})`}\n`);
    }
  } catch (e) {
    // A step that fails ends the run; what ran is reported with the error.
    error = e.message;
    console.error(`${session.id} ${cfg.id}: ${error}`);
  } finally {
    await server.client.close().catch(() => {});
    rmSync(workdir, { recursive: true, force: true });
  }
  const timings = server.proxyTimings();
  return {
    id: cfg.id, session: session.id, label: cfg.label, catalogTokens: server.catalogTokens, rows, ...(error ? { error } : {}),
    ...(snapshots.length ? { floor: floor(snapshots) } : {}),
    ...(timings.length ? { proxyTimings: timings } : {}),
    transcript: transcript.join('\n'),
  };
}

// ---------------------------------------------------------------- report

const BARS = { vsOurs: 1.25, vsAlone: 0.8, overheadShare: 0.1, overheadMs: 15, catalog: 1.1 };
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const n = (x) => (x ?? 0).toLocaleString('en-US');
const tok = (c) => sum(c.rows.map((x) => x.tokens + (x.fileTokens ?? 0)));

/** Our server's `ours-diff` run of a session, from the JSON `make proxy-bench` wrote in `dir`. */
function oursRun(dir, session) {
  const [file, fw] = session.ours;
  const path = join(dir, file);
  if (!existsSync(path)) return null;
  const j = JSON.parse(readFileSync(path, 'utf8'));
  return [...(j.results ?? []), ...(j.configs ?? [])].find((c) => c.id === 'ours-diff' && (fw === undefined || c.framework === fw)) ?? null;
}

/** One session's figures and missed bars. */
function judge(session, alone, proxy, ours) {
  const perCall = (c) => sum(c.rows.map((x) => x.ms)) / Math.max(1, sum(c.rows.map((x) => x.calls)));
  const own = (proxy.proxyTimings ?? []).map((t) => t.ownMs).sort((a, b) => a - b);
  const f = {
    alone: tok(alone), proxy: tok(proxy), ours: ours ? tok(ours) : null, floor: sum(proxy.floor ?? []),
    aloneMs: perCall(alone), proxyMs: perCall(proxy),
    ownMean: own.length ? sum(own) / own.length : 0,
    ownP95: own.length ? own[Math.min(own.length - 1, Math.ceil(own.length * 0.95) - 1)] : 0,
    extra: sum((proxy.proxyTimings ?? []).map((t) => t.extraCalls)),
    rebuilt: proxy.rows.filter((x) => x.preserved).length,
    reached: !proxy.error && proxy.rows.length === session.steps.length && proxy.rows.at(-1)?.preserved === true,
  };
  f.allowed = Math.max(BARS.overheadMs, BARS.overheadShare * f.aloneMs);
  f.vsOurs = f.ours ? f.proxy / f.ours : null;
  f.saved = 1 - f.proxy / f.alone;
  f.missed = [
    f.vsOurs !== null && f.vsOurs > BARS.vsOurs && `${session.name}: the proxy costs ${f.vsOurs.toFixed(2)}× our server (bar ${BARS.vsOurs}×)`,
    f.saved < BARS.vsAlone && `${session.name}: the proxy saves ${(f.saved * 100).toFixed(1)} % (bar 80 %; the floor allows at most ${((1 - f.floor / f.alone) * 100).toFixed(1)} %)`,
    !f.reached && `${session.name}: the final check was not reached through the proxy${proxy.error ? ` (${proxy.error.split('\n')[0]})` : ''}`,
    f.ownMean > f.allowed && `${session.name}: the proxy's own time is ${f.ownMean.toFixed(1)} ms a call (allowed ${f.allowed.toFixed(0)})`,
  ].filter(Boolean);
  return f;
}

/** docs/bench/devtools.md: each session's runs side by side, and the bars. */
function report(run, oursDir) {
  const rows = [];
  const missed = [];
  const steps = [];
  let catalog = null;
  for (const session of SESSIONS) {
    const alone = run.configs.find((c) => c.id === 'devtools-read' && c.session === session.id);
    const proxy = run.configs.find((c) => c.id === 'devtools-proxy' && c.session === session.id);
    if (!alone || !proxy) continue;
    const ours = oursDir ? oursRun(oursDir, session) : null;
    catalog ??= { alone: alone.catalogTokens, proxy: proxy.catalogTokens };
    const f = judge(session, alone, proxy, ours);
    if (!f.reached) process.exitCode = 1;
    missed.push(...f.missed);
    rows.push({ session, f });
    rows.at(-1).line = `| ${session.name} | ${session.steps.length} | ${n(f.alone)} | ${n(f.proxy)} | ${f.ours === null ? '–' : n(f.ours)} | ${n(f.floor)} | ${f.vsOurs === null ? '–' : `${f.vsOurs.toFixed(2)}×`} | ${(f.saved * 100).toFixed(1)} % | ${f.aloneMs.toFixed(0)} | ${f.proxyMs.toFixed(0)} | ${f.ownMean.toFixed(1)} / ${f.ownP95.toFixed(1)} (${f.allowed.toFixed(0)}) | ${f.extra} | ${f.rebuilt}/${proxy.rows.length} | ${f.reached ? 'reached' : 'not reached'} |`;
    steps.push(
      `## Tokens per step: ${session.name}`,
      '',
      '| step | chrome-devtools-mcp alone | through the proxy | how the view was rebuilt | our server | floor |',
      '|---|---:|---:|---|---:|---:|',
      ...session.steps.map((x, i) => `| ${i + 1}. ${x.label} | ${n(alone.rows[i]?.tokens ?? 0)} | ${n(proxy.rows[i]?.tokens ?? 0)} | ${proxy.rows[i]?.how ?? ''}${proxy.rows[i]?.preserved === false ? ' (not rebuilt)' : ''} | ${ours?.rows[i] ? n(ours.rows[i].tokens + (ours.rows[i].fileTokens ?? 0)) : '–'} | ${n(proxy.floor?.[i] ?? 0)} |`),
      '',
    );
  }
  const all = (k) => sum(rows.map((r) => r.f[k] ?? 0));
  const cat = catalog ? catalog.proxy / catalog.alone : null;
  if (cat !== null && cat > BARS.catalog) missed.push(`the catalog is ${cat.toFixed(3)}× chrome-devtools-mcp's (bar 1.1×)`);
  const skipped = SESSIONS.filter((x) => !rows.some((r) => r.session === x)).map((x) => x.name);
  return [
    '# chrome-devtools-mcp through response-diff-proxy',
    '',
    `Generated by \`make devtools-bench\` (bench/devtools.mjs). chrome-devtools-mcp ${run.versions['chrome-devtools-mcp']} on Debian's chromium (\`--headless --isolated\`), pages on 127.0.0.1, tokens counted with o200k_base (gpt-tokenizer ${run.versions['gpt-tokenizer']}). The bench's app sessions, with the intents our server and @playwright/mcp run (docs/bench/proxy.md), three ways: **chrome-devtools-mcp alone**, with \`includeSnapshot: true\` on the last call of each action and a \`take_snapshot\` after \`navigate_page\` (which has no such flag), so the agent sees what each step did; **the same calls through the proxy** (\`response-diff-proxy chrome-devtools-mcp …\`, its defaults: diffs on); and **our server** with diffs on (\`ours-diff\`, from \`make proxy-bench\`'s run). Through the proxy the agent's view is rebuilt from each answer and compared with a full snapshot taken out of band after every step (*rebuilt*). *Floor*: the tokens of the snapshot lines the agent had not been shown before in the session (uids carried), which no lossless answer can leave out. *The proxy's own time*: from taking a call to answering it, less chrome-devtools-mcp's answer (\`--timing\`).`,
    '',
    '| session | steps | chrome-devtools-mcp alone | through the proxy | our server | floor (proxy) | proxy / ours | saved vs alone | ms a call: alone | through the proxy | the proxy\'s own, mean / p95 (allowed) | extra upstream calls | rebuilt | final check |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map((r) => r.line),
    `| **all** | ${sum(rows.map((r) => r.session.steps.length))} | ${n(all('alone'))} | ${n(all('proxy'))} | ${n(all('ours'))} | ${n(all('floor'))} | ${all('ours') ? `${(all('proxy') / all('ours')).toFixed(2)}×` : '–'} | ${((1 - all('proxy') / all('alone')) * 100).toFixed(1)} % | | | | | | |`,
    '',
    `Bars (issue 43): through the proxy ≤ ${BARS.vsOurs}× our server's tokens and ≥ 80 % fewer than chrome-devtools-mcp alone on each session; each session reaches its final check; at most 10 % or 15 ms added a call, whichever is larger; the catalog within 10 %. Catalog (\`tools/list\`, o200k): chrome-devtools-mcp ${catalog ? n(catalog.alone) : '–'} tokens, through the proxy ${catalog ? n(catalog.proxy) : '–'} (${cat === null ? '–' : `${cat.toFixed(3)}×`}). ${missed.length ? `**Missed:** ${missed.join('; ')}.` : 'All met.'}${skipped.length ? ` Not run: ${skipped.join(', ')}.` : ''}`,
    '',
    ...steps,
  ].join('\n');
}

// ---------------------------------------------------------------- main

const results = [];
for (const session of SESSIONS) {
  if (CHOSEN && !CHOSEN.includes(session.id)) continue;
  const site = await serveDir(session.root);
  try {
    for (const cfg of CONFIGS) {
      if (ONLY && !ONLY.split(',').includes(cfg.id)) continue;
      try {
        results.push(await runConfig(cfg, session, site.origin));
      } catch (e) {
        console.error(`${session.id} ${cfg.id}: ${e.message}`);
        results.push({ id: cfg.id, session: session.id, label: cfg.label, rows: [], error: e.message, transcript: '' });
      }
    }
  } finally {
    await site.close();
  }
}
const versions = { 'chrome-devtools-mcp': pkgVersion('chrome-devtools-mcp'), 'gpt-tokenizer': pkgVersion('gpt-tokenizer') };
const out = { tokenizer: 'o200k_base (gpt-tokenizer)', sessions: SESSIONS.map((x) => ({ id: x.id, name: x.name, steps: x.steps.map((y) => y.label) })), versions, configs: results.map(({ transcript, ...r }) => r) };
if (OUT) writeFileSync(OUT, JSON.stringify(out, null, 1));
if (TRANSCRIPT) writeFileSync(TRANSCRIPT, results.map((r) => r.transcript).join('\n'));
if (MD) writeFileSync(MD, report(out, OURS));
for (const r of results) {
  const total = r.rows.reduce((a, x) => a + x.tokens, 0);
  const fl = r.floor ? r.floor.reduce((a, b) => a + b, 0) : null;
  const lost = r.rows.filter((x) => x.preserved === false).length;
  console.log(`${r.session.padEnd(18)} ${r.id.padEnd(16)} ${String(total).padStart(7)} tokens over ${r.rows.length} steps${fl ? `, floor ${fl}` : ''}${lost ? `, ${lost} steps not rebuilt` : ''}${r.error ? ', FAILED' : ''}`);
}
