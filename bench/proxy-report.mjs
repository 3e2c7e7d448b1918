// The report of `make proxy-bench`: @playwright/mcp with its snapshot read
// after each action, @playwright/mcp through response-diff-proxy, and our
// server with diffs on, on the bench's three sessions (the shop,
// bench/session.mjs; TodoMVC, bench/todomvc.mjs; the data grid,
// bench/grid.mjs), from the JSON those scripts wrote with
// `--only ours-diff,playwright-mcp-read,proxy` (the grid's
// `playwright-mcp` already reads the page after each action). Tokens per
// step and per session, the floor (harness.mjs `floor`), tool time per
// call, the catalog, and the issue's bars. Writes Markdown (--out) and
// JSON (--json); exits 1 when a session did not reach its final check
// through the proxy (with --strict, also when a bar is missed).
//
//   node bench/proxy-report.mjs --shop bench-out/proxy-shop.json --todomvc bench-out/proxy-todomvc.json
//     --grid bench-out/proxy-grid.json --out docs/bench/proxy.md --json bench-out/proxy.json
import { readFileSync, writeFileSync } from 'node:fs';

import { arg as cliArg } from './cli.mjs';
import { floor } from './harness.mjs';

const arg = (name, fallback) => cliArg(name, fallback, 'bench/proxy-report.mjs');
const read = (p) => JSON.parse(readFileSync(p, 'utf8'));
const shop = read(arg('--shop', 'bench-out/proxy-shop.json'));
const todo = read(arg('--todomvc', 'bench-out/proxy-todomvc.json'));
const grid = read(arg('--grid', 'bench-out/proxy-grid.json'));
const OUT = arg('--out', null);
const JSON_OUT = arg('--json', null);
const STRICT = process.argv.includes('--strict');

const BARS = { vsOurs: 1.25, vsPlaywright: 0.8, overheadShare: 0.1, overheadMs: 15, catalog: 1.1 };

/** A step's tokens: the answers, plus the snapshot file an answer links (read by the agent). */
const stepTokens = (row) => row.tokens + (row.fileTokens ?? 0);
const callsOf = (row) => (Array.isArray(row.calls) ? row.calls.length : row.calls ?? 1);
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/** One session's three runs, as { pw, proxy, ours } of results. */
function session(name, runs, pwId) {
  const by = (id) => runs.find((r) => r.id === id);
  const pw = by(pwId);
  const proxy = by('proxy');
  const ours = by('ours-diff');
  for (const [id, r] of [[pwId, pw], ['proxy', proxy], ['ours-diff', ours]]) {
    if (!r) throw new Error(`${name}: no ${id} run; run the session with --only ours-diff,${pwId},proxy`);
  }
  // The session's final check: every step ran, and the agent's view after
  // the last one, rebuilt from the proxy's answers, is the page.
  const reached = !proxy.error && proxy.rows.length === ours.rows.length && proxy.rows[proxy.rows.length - 1]?.preserved === true;
  const rebuilt = proxy.rows.filter((x) => x.preserved).length;
  const tokens = { pw: sum(pw.rows.map(stepTokens)), proxy: sum(proxy.rows.map(stepTokens)), ours: sum(ours.rows.map(stepTokens)) };
  const floors = {
    proxy: proxy.floor ?? (proxy.snapshots ? floor(proxy.snapshots) : null),
    ours: ours.floor ?? (ours.snapshots ? floor(ours.snapshots) : null),
  };
  const ms = (r) => sum(r.rows.map((x) => x.ms));
  const calls = (r) => sum(r.rows.map(callsOf));
  const time = { pwPerCall: ms(pw) / calls(pw), proxyPerCall: ms(proxy) / calls(proxy), oursPerCall: ms(ours) / calls(ours) };
  // What the proxy adds: its own time per call (--timing: from taking a
  // call to answering it, less @playwright/mcp's answer to the call as
  // the agent made it; a retry and an out-of-sight snapshot count as the
  // proxy's), every call through it (the out-of-band reads included). The
  // wall times of the two runs differ by more than that from run to run
  // (Playwright's own waits, the machine's load): shown, not compared.
  const own = (proxy.proxyTimings ?? []).map((t) => t.ownMs).sort((a, b) => a - b);
  if (!own.length) throw new Error(`${name}: the proxy run has no --timing lines (bench/harness.mjs starts it with --timing)`);
  time.overhead = sum(own) / own.length;
  time.overheadMax = own[own.length - 1];
  time.overheadP95 = own[Math.min(own.length - 1, Math.floor(0.95 * own.length))];
  time.allowed = Math.max(BARS.overheadShare * time.pwPerCall, BARS.overheadMs);
  // Calls the proxy made to @playwright/mcp beyond the agent's (a stale
  // ref's out-of-sight snapshot and retry, browser_find's fresh refs).
  time.extraCalls = sum((proxy.proxyTimings ?? []).map((t) => t.extraCalls ?? 0));
  time.calls = own.length;
  return {
    name,
    steps: proxy.rows.map((x) => x.label),
    perStep: { pw: pw.rows.map(stepTokens), proxy: proxy.rows.map(stepTokens), ours: ours.rows.map(stepTokens) },
    tokens,
    floor: { proxy: floors.proxy && sum(floors.proxy), ours: floors.ours && sum(floors.ours), perStep: floors.proxy },
    time,
    reached,
    rebuilt,
    error: proxy.error ?? null,
    catalog: { pw: pw.catalogTokens, proxy: proxy.catalogTokens },
    bars: {
      vsOurs: tokens.proxy / tokens.ours,
      vsPlaywright: 1 - tokens.proxy / tokens.pw,
      overhead: time.overhead <= time.allowed,
    },
  };
}

const sessions = [session('shop', shop.configs, 'playwright-mcp-read')];
for (const fw of todo.frameworks) {
  sessions.push(session(`TodoMVC ${fw}`, todo.results.filter((r) => r.framework === fw), 'playwright-mcp-read'));
}
sessions.push(session('data grid', grid.results, 'playwright-mcp'));

const fails = [];
const broken = [];
for (const s of sessions) {
  if (!s.reached) broken.push(`${s.name}: the proxy run did not reach its final check${s.error ? ` (${s.error.split('\n')[0]})` : ''}`);
  if (s.bars.vsOurs > BARS.vsOurs) fails.push(`${s.name}: the proxy sends ${s.bars.vsOurs.toFixed(2)}× our server's tokens (bar ${BARS.vsOurs}×)`);
  if (s.bars.vsPlaywright < BARS.vsPlaywright) {
    // No lossless answer sends less than the floor.
    const most = s.floor.proxy ? `; the floor allows at most ${(100 * (1 - s.floor.proxy / s.tokens.pw)).toFixed(0)} %` : '';
    fails.push(`${s.name}: the proxy saves ${(100 * s.bars.vsPlaywright).toFixed(0)} % of @playwright/mcp's tokens (bar ${100 * BARS.vsPlaywright} %${most})`);
  }
  if (!s.bars.overhead) fails.push(`${s.name}: the proxy adds ${s.time.overhead.toFixed(1)} ms a call (bar ${s.time.allowed.toFixed(1)} ms)`);
}
const catalog = sessions[0].catalog;
if (catalog.proxy / catalog.pw > BARS.catalog) fails.push(`the catalog costs ${(catalog.proxy / catalog.pw).toFixed(3)}× @playwright/mcp's own (bar ${BARS.catalog}×)`);

const n = (x) => (x === null || x === undefined ? '–' : Math.round(x).toLocaleString('en-US'));
const md = [];
md.push('# @playwright/mcp through response-diff-proxy\n');
md.push(`Generated by \`make proxy-bench\` (bench/proxy-report.mjs). @playwright/mcp ${shop.versions['@playwright/mcp']} on Debian's chromium, pages on 127.0.0.1, `
  + 'tokens counted with o200k_base (gpt-tokenizer). Three setups on the same sessions: **@playwright/mcp** with its snapshot read after each action '
  + '(its answer plus the `.yml` file it links; after `browser_type`, whose answer has no snapshot, a `browser_snapshot`), **the proxy** '
  + '(`response-diff-proxy -- @playwright/mcp …`, diffs on, `includeCode: false`; a `browser_snapshot` after `browser_type` too), and **our server** '
  + 'with diffs on (`ours-diff`). The proxy\'s answers are checked as our server\'s are: the agent\'s view rebuilt from them equals a full snapshot '
  + 'taken out of band after every step (*rebuilt*: the steps where it does; a miss is an answer taken before the page had settled, as in '
  + 'the other app sessions, and the next answer brings the view up to date). *Floor*: the tokens of the snapshot lines the agent had not been shown before in the session '
  + '(on the proxy\'s pages, refs carried), which no lossless answer can leave out. *Tool time*: wall time of the tool calls over MCP, per call; '
  + 'what the proxy adds is its own time per call (`--timing`: from taking a call to answering it, less @playwright/mcp\'s answer to the call as the agent made it; a retry and an out-of-sight snapshot count as the proxy\'s), '
  + 'since the wall times of two runs differ by more than that (Playwright\'s own waits, the load of the machine).\n');
md.push('| session | steps | @playwright/mcp | through the proxy | our server | floor | proxy / ours | saved vs @playwright/mcp | ms a call: @playwright/mcp | through the proxy | the proxy\'s own, mean / p95 (allowed) | extra upstream calls | rebuilt | final check |');
md.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const s of sessions) {
  md.push(`| ${s.name} | ${s.steps.length} | ${n(s.tokens.pw)} | ${n(s.tokens.proxy)} | ${n(s.tokens.ours)} | ${n(s.floor.proxy)} | ${s.bars.vsOurs.toFixed(2)}× | `
    + `${(100 * s.bars.vsPlaywright).toFixed(1)} % | ${s.time.pwPerCall.toFixed(0)} | ${s.time.proxyPerCall.toFixed(0)} | ${s.time.overhead.toFixed(1)} / ${s.time.overheadP95.toFixed(1)} (${s.time.allowed.toFixed(0)}) | ${s.time.extraCalls} of ${s.time.calls} | ${s.rebuilt}/${s.steps.length} | ${s.reached ? 'reached' : '**not reached**'} |`);
}
const total = (k) => sum(sessions.map((s) => s.tokens[k]));
md.push(`| **all** | ${sum(sessions.map((s) => s.steps.length))} | ${n(total('pw'))} | ${n(total('proxy'))} | ${n(total('ours'))} | ${n(sum(sessions.map((s) => s.floor.proxy ?? 0)))} | `
  + `${(total('proxy') / total('ours')).toFixed(2)}× | ${(100 * (1 - total('proxy') / total('pw'))).toFixed(1)} % | | | | | | |\n`);
md.push(`Bars (issue 34): through the proxy ≤ ${BARS.vsOurs}× our server's tokens and ≥ ${100 * BARS.vsPlaywright} % fewer than @playwright/mcp on each session; `
  + `each session reaches its final check; at most ${100 * BARS.overheadShare} % or ${BARS.overheadMs} ms added a call, whichever is larger. `
  + `Catalog (\`tools/list\`, o200k): @playwright/mcp ${n(catalog.pw)} tokens, through the proxy ${n(catalog.proxy)} (${(catalog.proxy / catalog.pw).toFixed(3)}×, bar ${BARS.catalog}×). `
  + ([...broken, ...fails].length ? `**Missed:** ${[...broken, ...fails].join('; ')}.` : 'Every bar is met.') + '\n');
for (const s of [sessions[0], sessions.find((x) => x.name === 'TodoMVC react'), sessions[sessions.length - 1]].filter(Boolean)) {
  md.push(`## Tokens per step: ${s.name}\n`);
  md.push('| # | step | @playwright/mcp | proxy | ours | floor |');
  md.push('|---:|---|---:|---:|---:|---:|');
  s.steps.forEach((label, i) => {
    md.push(`| ${i + 1} | ${label} | ${n(s.perStep.pw[i])} | ${n(s.perStep.proxy[i])} | ${n(s.perStep.ours[i])} | ${n(s.floor.perStep?.[i])} |`);
  });
  md.push('');
}
const text = `${md.join('\n').trim()}\n`;
if (OUT) writeFileSync(OUT, text);
if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ bars: BARS, sessions, broken, fails }, null, 1));
process.stdout.write(text);
for (const f of [...broken, ...fails]) console.error(`proxy-bench: ${f}`);
if (broken.length || (STRICT && fails.length)) process.exit(1);
