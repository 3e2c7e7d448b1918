// The TodoMVC benchmark: one scripted todo session (add three todos,
// complete one, filter Active / Completed / All, edit one by double-click,
// delete one, clear completed) through several frameworks' TodoMVC
// implementations from npm `todomvc` (static files served from 127.0.0.1),
// each through our server and the peers, on Debian's chromium. Per
// framework and configuration: o200k tokens per step, ref churn (refs that
// changed on elements whose content did not change, from the full
// snapshots taken out of band after each step) and whether the agent's view
// rebuilt from each response equals the full snapshot. A step of one of our
// configurations that does not rebuild fails the run (exit 1).
//
//   node bench/todomvc.mjs --bin target/release/response-diff --out bench-out/todomvc.json
//     [--frameworks react,vue] [--only ours-diff,playwright-mcp] [--transcript FILE] [--jobs 2]
import { existsSync, writeFileSync } from 'node:fs';

import { arg as cliArg, isMain, serverBin } from './cli.mjs';
import { FILTER, PLAYWRIGHT_READ, PROXY, runConfig } from './appsession.mjs';
import { floorNote, modulePath, pkgVersion, serveDir } from './harness.mjs';

// Seven rendering styles: virtual DOMs (react; mithril, which redraws the
// whole view), template bindings that patch in place (vue), observables
// (knockoutjs), dirty checking (angularjs), views that re-render their
// element (backbone) and hand-written DOM code that rebuilds the list
// (vanillajs). ractive and canjs also run the whole session offline and
// headless (--frameworks); jquery's example adds no todo in any server
// (its bower_components are not in the package, so its app never starts),
// and in emberjs's the CSS selector agent-browser needs for a todo's
// label matches nothing.
export const FRAMEWORKS = ['react', 'vue', 'angularjs', 'backbone', 'knockoutjs', 'mithril', 'vanillajs'];

// ------------------------------------------------------------- the session

// The frameworks disagree on ids and classes (#todo-list or .todo-list); a
// CSS selector list covers both, for agent-browser where its snapshot gives
// the target no ref.
const li = (n, tail = '') => `#todo-list li:nth-child(${n})${tail}, .todo-list li:nth-child(${n})${tail}`;
const NEW = { role: /^- textbox "What needs to be done\?"/ };
export const STEPS = [
  { label: 'open the app', act: 'navigate' },
  { label: 'add "Buy milk"', act: 'type', target: NEW, text: 'Buy milk', submit: true, element: 'new todo field' },
  { label: 'add "Walk the dog"', act: 'type', target: NEW, text: 'Walk the dog', submit: true, element: 'new todo field' },
  { label: 'add "Write report"', act: 'type', target: NEW, text: 'Write report', submit: true, element: 'new todo field' },
  { label: 'complete "Walk the dog"', act: 'click', target: { item: 'Walk the dog', role: /^- checkbox\b/ }, css: li(2, ' input.toggle'), element: 'toggle' },
  { label: 'filter Active', act: 'click', target: { role: /^- link "Active"/ }, element: 'Active filter' },
  { label: 'filter Completed', act: 'click', target: { role: /^- link "Completed"/ }, element: 'Completed filter' },
  { label: 'filter All', act: 'click', target: { role: /^- link "All"/ }, element: 'All filter' },
  { label: 'double-click "Buy milk" to edit', act: 'dblclick', target: { item: 'Buy milk', self: true }, css: li(1, ' label'), element: 'todo label' },
  { label: 'rename it "Buy oat milk"', act: 'type', target: { item: 'Buy milk', role: /^- textbox\b/, field: true }, css: li(1, ' input.edit'), text: 'Buy oat milk', submit: true, element: 'edit field' },
  { label: 'hover "Write report" (shows its delete button)', act: 'hover', target: { item: 'Write report', self: true }, css: li(3), element: 'todo' },
  { label: 'delete "Write report"', act: 'click', target: { item: 'Write report', role: /^- button\b/ }, css: li(3, ' button.destroy'), element: 'delete' },
  { label: 'clear completed', act: 'click', target: { role: /^- button "Clear completed/ }, element: 'Clear completed' },
];

// The configurations. A `pending` one is skipped (and listed as skipped in
// the results, with the reason it gives). Our server always carries refs
// over by content identity (docs/DECISIONS.md D14), so its diff configuration
// is the one with carried-over refs.
export const CONFIGS = [
  { id: 'ours-full', kind: 'ours', args: ['--snapshot-mode', 'full'], label: 'response-diff, --snapshot-mode full (full responses)' },
  { id: 'ours-diff', kind: 'ours', args: ['--snapshot-mode', 'full'], label: 'response-diff, diffOptions (refs carried over)', exp: { ...FILTER, diffOptions: { enabled: true } }, check: true },
  { id: 'playwright-mcp', kind: 'pw', label: '@playwright/mcp, defaults' },
  // make proxy-bench (bench/appsession.mjs).
  PLAYWRIGHT_READ,
  PROXY,
  { id: 'fast', kind: 'fast', label: 'fast-playwright-mcp, snapshot on', exp: { includeSnapshot: true } },
  { id: 'fast-diff', kind: 'fast', label: 'fast-playwright-mcp, snapshot + diffOptions', exp: { includeSnapshot: true, diffOptions: { enabled: true } } },
  { id: 'ab-delta', kind: 'ab', label: 'agent-browser, snapshot delta, interactive: false', snapshotArgs: { delta: true, interactive: false } },
  { id: 'ab-default', kind: 'ab', label: 'agent-browser, default snapshot (interactive only)', snapshotArgs: {} },
];

// ---------------------------------------------------------------- main

async function main() {
  const arg = (name, fallback) => cliArg(name, fallback, 'bench/todomvc.mjs');
  const BIN = serverBin(arg);
  const OUT = arg('--out', null);
  const TRANSCRIPT = arg('--transcript', null);
  const CHROMIUM = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
  const ONLY = arg('--only', null);
  const JOBS = Number(arg('--jobs', '2'));

  const frameworks = arg('--frameworks', null)?.split(',') ?? FRAMEWORKS;

  if (!existsSync(BIN) && (!ONLY || ONLY.split(',').some((c) => c.startsWith('ours')))) {
    console.error(`no server binary at ${BIN}: build it with \`cargo build --release -p response-diff-server\` or pass --bin`);
    process.exit(2);
  }
  if (!existsSync(CHROMIUM)) {
    console.error(`no chromium at ${CHROMIUM}: run \`make setup\` (Debian's chromium) or pass --chromium`);
    process.exit(2);
  }

  const site = await serveDir(modulePath('todomvc'));
  const runs = [];
  for (const fw of frameworks) {
    const steps = STEPS.map((s) => (s.act === 'navigate' ? { ...s, path: `/examples/${fw}/index.html` } : s));
    for (const cfg of CONFIGS) {
      // Opt-in configurations (make proxy-bench) run only when named in --only.
      if (ONLY ? ONLY.split(',').includes(cfg.id) : !cfg.optIn) runs.push({ fw, cfg, steps });
    }
  }
  const results = new Array(runs.length);
  const transcripts = new Array(runs.length);
  let failed = false;
  async function one(k) {
    const { fw, cfg, steps } = runs[k];
    if (cfg.pending) {
      results[k] = { framework: fw, id: cfg.id, kind: cfg.kind, label: cfg.label, skipped: cfg.pending };
      return;
    }
    const r = await runConfig(cfg, steps, { origin: site.origin, bin: BIN, chromium: CHROMIUM, log: (l) => process.stderr.write(`${fw} ${l}\n`) });
    transcripts[k] = r.transcript;
    delete r.transcript;
    results[k] = { framework: fw, ...r };
    // A peer that cannot do a step is reported, not fatal; ours is.
    if (r.error) console.error(`${fw} ${cfg.id}: ${r.error}`);
    if (cfg.kind === 'ours' && (r.error || r.rows.some((x) => !x.preserved))) {
      failed = true;
      for (const x of r.rows.filter((y) => !y.preserved)) console.error(`${fw} ${cfg.id}: step ${x.step} (${x.label}) did not rebuild (${x.rebuiltHow}): ${JSON.stringify(x.mismatch)}`);
    }
  }
  // Runs go JOBS at a time: each has its own browser, and most of a run's
  // time is spent waiting on the page, so two at once halve the wall time
  // without changing a token.
  try {
    let next = 0;
    await Promise.all(Array.from({ length: Math.max(1, JOBS) }, async () => {
      while (next < runs.length) await one(next++);
    }));
  } finally {
    await site.close();
  }

  const versions = {
    todomvc: pkgVersion('todomvc'),
    '@playwright/mcp': pkgVersion('@playwright/mcp'),
    '@tontoko/fast-playwright-mcp': pkgVersion('@tontoko/fast-playwright-mcp'),
    'agent-browser': pkgVersion('agent-browser'),
    '@modelcontextprotocol/sdk': pkgVersion('@modelcontextprotocol/sdk'),
    'gpt-tokenizer': pkgVersion('gpt-tokenizer'),
  };
  const out = { tokenizer: 'o200k_base (gpt-tokenizer)', frameworks, steps: STEPS.map((s) => s.label), versions, configs: CONFIGS.map(({ id, kind, label }) => ({ id, kind, label })), results };
  if (OUT) writeFileSync(OUT, JSON.stringify(out, null, 1));
  if (TRANSCRIPT) writeFileSync(TRANSCRIPT, transcripts.filter(Boolean).join('\n'));
  for (const r of results) {
    const total = r.rows ? r.rows.reduce((a, x) => a + x.tokens + (x.fileTokens ?? 0), 0) : null;
    const churn = r.rows ? r.rows.reduce((a, x) => a + (x.churn?.churned ?? 0), 0) : null;
    const rebuilt = r.skipped ? `skipped: ${r.skipped}` : `${r.rows ? `${r.rows.filter((x) => x.preserved).length}/${r.rows.length} rebuilt` : ''}${r.error ? ` error: ${r.error.split('\n')[0]}` : ''}`;
    console.log(`${r.framework.padEnd(11)} ${r.id.padEnd(18)} ${total === null ? '' : `${String(total).padStart(7)} tokens, churn ${String(churn).padStart(3)}, `}${rebuilt}${r.floor ? `, ${floorNote(r.rows, r.floor)}` : ''}`);
  }
  if (failed) {
    console.error('a configuration of ours failed or lost information: see above');
    process.exit(1);
  }
}

if (isMain(import.meta.url)) await main();
