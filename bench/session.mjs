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
import { existsSync, writeFileSync, mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { arg as cliArg, serverBin } from './cli.mjs';
import {
  OurAnswers, answerParts, connect, countTokens, firstDifference, floor, floorNote, textFloor, told, inlineSnapshot, linkedSnapshotFile, pageUrl, pkgVersion, rebuildOurs, serveDir,
} from './harness.mjs';
import { FILTER, HAS_PAGE, OUT_OF_BAND, PLAYWRIGHT_READ, PROXY } from './appsession.mjs';
import { resolveRef } from './refs.mjs';
import { STEPS } from './shop.mjs';
import { readSections } from './reconstruct.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');

const arg = (name, fallback) => cliArg(name, fallback, 'bench/session.mjs');

const BIN = serverBin(arg);
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

// ------------------------------------------------------------- the session

// The steps: bench/shop.mjs.

// FILTER (bench/appsession.mjs): what the filtering agent asks of every call
// (as in `make demo`).

const CONFIGS = [
  { id: 'ours-full', server: 'response-diff', label: 'response-diff, --snapshot-mode full (full responses)', kind: 'ours', args: ['--snapshot-mode', 'full'] },
  { id: 'ours-filtered', server: 'response-diff', label: 'response-diff, expectation filtering', kind: 'ours', args: ['--snapshot-mode', 'full'], exp: FILTER, scoped: true },
  { id: 'ours-diff', server: 'response-diff', label: 'response-diff, diffOptions + since', kind: 'ours', args: ['--snapshot-mode', 'full'], exp: { ...FILTER, diffOptions: { enabled: true } }, since: true, check: true },
  { id: 'ours-diff-lines', server: 'response-diff', label: 'response-diff, diffOptions + since, line diffs only', kind: 'ours', args: ['--snapshot-mode', 'full'], exp: { ...FILTER, snapshotOptions: { diff: 'lines' }, diffOptions: { enabled: true } }, since: true, check: true },
  { id: 'playwright-mcp', server: '@playwright/mcp', label: '@playwright/mcp, defaults', kind: 'pw' },
  // make proxy-bench (bench/appsession.mjs).
  { ...PLAYWRIGHT_READ, server: '@playwright/mcp' },
  { ...PROXY, server: '@playwright/mcp' },
  { id: 'fast', server: '@tontoko/fast-playwright-mcp', label: 'fast-playwright-mcp, snapshot on', kind: 'fast', exp: { includeSnapshot: true } },
  { id: 'fast-diff', server: '@tontoko/fast-playwright-mcp', label: 'fast-playwright-mcp, snapshot + diffOptions', kind: 'fast', exp: { includeSnapshot: true, diffOptions: { enabled: true } } },
];

// ------------------------------------------------------ refs from snapshots

// ---------------------------------------------------------- one configuration

function toolCall(cfg, step, ref, origin, since) {
  const exp = (extra) => {
    if (cfg.kind === 'pw') return {};
    let e = cfg.exp ? structuredClone(cfg.exp) : undefined;
    if (cfg.scoped && step.scope) e = { ...(e || {}), snapshotOptions: { selector: step.scope } };
    if (extra) e = { ...(e || {}), ...extra };
    return e ? { expectation: e } : {};
  };
  const target = cfg.kind === 'ours' ? { ref, element: step.target } : cfg.kind === 'pw' || cfg.kind === 'proxy' ? { target: ref, element: step.target } : { selectors: [{ ref }] };
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
  const r = await server.call('browser_snapshot', OUT_OF_BAND[cfg.kind] ?? {});
  if (r.isError) throw new Error(`${cfg.id}: the out-of-band snapshot failed: ${r.text}`);
  const s = inlineSnapshot(r.text);
  if (s === null) throw new Error(`${cfg.id}: the out-of-band snapshot has no aria snapshot:\n${r.text.slice(0, 2000)}`);
  return s;
}

const TS_RE = /Snapshot ts: (\d+)|# ts (\d+)/;

async function runConfig(cfg, origin) {
  const workdir = mkdtempSync(join(tmpdir(), `rd-bench-${cfg.id}-`));
  mkdirSync(join(workdir, 'out'));
  const server = await connect(cfg, { bin: BIN, chromium: CHROMIUM, workdir });
  const rows = [];
  const snapshots = []; // the full snapshots taken out of band (bench/ratios.mjs reads them)
  const toldSteps = []; // what each checked response told (bench/harness.mjs told)
  const transcript = [];
  let view = null; // the latest full snapshot the agent can see (for refs)
  let agentView = null; // ours-diff: rebuilt from diffs
  const ours = new OurAnswers(BIN); // ours-diff, the proxy: the agent's views from our answers
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
      // With `snapshotAfter: [acts]`, the agent reads the page after those
      // actions (their answers carry no snapshot in @playwright/mcp).
      // Not when the answer had the page after all (a submit that navigated).
      const calls = [[tool, args], ...(cfg.snapshotAfter?.includes(step.act) ? [toolCall(cfg, { act: 'snapshot' }, null, origin)] : [])];
      const row = { step: i + 1, label: step.label, tool, calls: 0, ms: 0, tokens: 0, chars: 0 };
      const texts = [];
      let r;
      for (const [name, a] of calls) {
        if (texts.length && HAS_PAGE.test(texts[texts.length - 1])) break;
        row.calls++;
        const t0 = performance.now();
        r = await server.call(name, a);
        row.ms += performance.now() - t0;
        if (r.isError || /^### Error|^### Result\nError:/m.test(r.text)) {
          throw new Error(`${cfg.id}, step ${i + 1} (${step.label}): ${name} ${JSON.stringify(a)} failed:\n${r.text.slice(0, 2000)}`);
        }
        texts.push(r.text);
        row.tokens += countTokens(r.text);
        row.chars += r.text.length;
        const file = cfg.kind === 'pw' ? linkedSnapshotFile(r.text, workdir) : null;
        if (file) {
          row.fileTokens = (row.fileTokens ?? 0) + countTokens(file.text);
          view = file.text;
        } else {
          const inline = inlineSnapshot(r.text);
          if (inline !== null && !(cfg.scoped && step.scope)) view = inline;
          else if (step.act === 'navigate' || step.act === 'back') view = null;
        }
        if (calls.length > 1) transcript.push(`## ${cfg.id} ${i + 1}. ${step.label}\n\n${name} ${JSON.stringify(a)}\n\n${r.text}\n`);
      }
      row.ms = Math.round(row.ms);
      const ts = r.text.match(TS_RE);
      if (ts) lastTs = Number(ts[1] ?? ts[2]);
      if (cfg.check) {
        const full = await outOfBand(server, cfg);
        let rebuilt;
        try {
          // Each answer in turn (an action's, then the page read after it).
          rebuilt = ours.read(agentView, texts);
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
        ours.remember(r.text, agentView);
        row.fullTokens = countTokens(full);
        snapshots.push(full);
        // What this step's answers told the agent: their other sections, and
        // the page when one of them showed it.
        const shows = texts.some((t) => readSections(t).some((x) => x.heading.startsWith('Page snapshot')));
        toldSteps.push(told(texts.join('\n'), shows ? full : ''));
      }
      if (cfg.kind === 'ours') row.parts = answerParts(texts);
      rows.push(row);
      if (calls.length === 1) transcript.push(`## ${cfg.id} ${i + 1}. ${step.label}\n\n${tool} ${JSON.stringify(args)}\n\n${r.text}\n`);
      process.stderr.write(`${cfg.id} ${String(i + 1).padStart(2)} ${step.label}: ${row.tokens} tokens${row.fileTokens ? ` (+${row.fileTokens} in the linked file)` : ''}${row.preserved === undefined ? '' : row.preserved ? ' ✓' : ' ✗'}\n`);
    }
  } finally {
    await server.client.close().catch(() => {});
    rmSync(workdir, { recursive: true, force: true });
  }
  return {
    id: cfg.id, server: cfg.server, label: cfg.label, catalogTokens: server.catalogTokens, toolCount: server.toolCount, rows,
    ...(snapshots.length ? { snapshots, floor: floor(toldSteps), textFloor: textFloor(toldSteps) } : {}),
    ...(cfg.kind === 'proxy' ? { proxyTimings: server.proxyTimings() } : {}), transcript: transcript.join('\n'),
  };
}

// ---------------------------------------------------------------- main

const site = await serveDir(SITE);
const results = [];
let failed = false;
try {
  for (const cfg of CONFIGS) {
    // Opt-in configurations (make proxy-bench) run only when named in --only.
    if (ONLY ? !ONLY.split(',').includes(cfg.id) : cfg.optIn) continue;
    results.push(await runConfig(cfg, site.origin));
  }
} finally {
  await site.close();
}
// Ours must rebuild at every step; the proxy's checks are judged by
// bench/proxy-report.mjs (an answer @playwright/mcp took before the page
// settled is a miss there, not a loss of ours).
for (const r of results.filter((x) => x.server === 'response-diff')) {
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
  console.log(`${r.id.padEnd(16)} ${String(total).padStart(7)} tokens over ${r.rows.length} steps${r.floor ? `, ${floorNote(r.rows, r.floor)}` : ''}`);
}
if (failed) {
  console.error('information was lost: see the steps above');
  process.exit(1);
}
