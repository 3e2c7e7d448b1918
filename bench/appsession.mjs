// One scripted session of user intents through one MCP server
// configuration, for the app benchmarks (todomvc.mjs, expand.mjs, grid.mjs,
// apidocs.mjs; the last three share their driver, runAppBench). Each
// intent names its target the way a user would ("the checkbox of the todo
// 'Walk the dog'") and is resolved to the server's own ref from the latest
// view the agent has; where that view does not show it, from a full
// snapshot taken out of band (not counted), and for agent-browser, whose
// snapshots give refs to fewer elements, from a CSS selector the step
// carries (as an agent using its selector support would).
//
// After every step a full snapshot is taken out of band (not counted) and
// the agent's view, rebuilt from its previous view plus the response, is
// compared with it; consecutive full snapshots give the ref churn.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { arg as cliArg, serverBin } from './cli.mjs';
import { applyUnified, fencedBlock, readSections } from './reconstruct.mjs';
import {
  OurAnswers, abJson, answerParts, connect, countTokens, firstDifference, floor, floorNote, inlineSnapshot, textFloor, told, linkedSnapshotFile, pageUrl, rebuildAgentBrowser, rebuildOurs, refChurn, serveDir, stripRef,
} from './harness.mjs';

// What the diffing agent asks of every call (the shop session too): no
// generated code, console errors and warnings only.
export const FILTER = { includeCode: false, consoleOptions: { levels: ['error', 'warn'] } };

// The two @playwright/mcp setups of `make proxy-bench`, one definition for
// every session (opt-in: they run only when named in --only). Its
// browser_type answers without a snapshot: the agent reads the page after
// it, as it must to see what the action did; through the proxy too.
export const PLAYWRIGHT_READ = { id: 'playwright-mcp-read', kind: 'pw', label: '@playwright/mcp, the page read after each action', snapshotAfter: ['type'], optIn: true };
export const PROXY = { id: 'proxy', kind: 'proxy', label: '@playwright/mcp through response-diff-proxy', exp: FILTER, snapshotAfter: ['type'], check: true, optIn: true };

const indentOf = (l) => l.length - l.trimStart().length;
const REF_RE = /\bref=([A-Za-z0-9_]+)/;

/** The subtree [from, to) of line i. */
function blockEnd(lines, i) {
  let end = i + 1;
  while (end < lines.length && indentOf(lines[end]) > indentOf(lines[i])) end++;
  return end;
}

/**
 * The ref of a target in a snapshot (our format, Playwright's or
 * agent-browser's), or null. spec: { role: RegExp on the ref-less trimmed
 * line, item?: text of the list item (or block) holding it, self?: the
 * line holding `item` itself (or, when it has no ref, its list item),
 * container?: RegExp of the block kind `item` lives in (listitem),
 * field?: `item` may be the value of a textbox }.
 */
export function findRef(snapshot, spec) {
  if (!snapshot) return null;
  const lines = snapshot.split('\n');
  const refOf = (i) => lines[i].match(REF_RE)?.[1] ?? null;
  let from = 0;
  let to = lines.length;
  if (spec.item) {
    const container = spec.container ?? /^- listitem\b/;
    // The todo's text, not a field that happens to hold it (unless the field is the target).
    const at = lines.findIndex((l) => l.includes(spec.item) && !/^\s*- \/url/.test(l) && (spec.field || !/^\s*- textbox/.test(l)));
    if (at < 0) return null;
    let top = at;
    while (top >= 0 && !container.test(stripRef(lines[top].trim()))) {
      const ind = indentOf(lines[top]);
      let up = top - 1;
      while (up >= 0 && indentOf(lines[up]) >= ind) up--;
      top = up;
    }
    if (spec.self) return refOf(at) ?? (top >= 0 ? refOf(top) : null);
    if (top < 0) return null;
    from = top;
    to = blockEnd(lines, top);
  }
  for (let i = from; i < to; i++) {
    if (spec.role.test(stripRef(lines[i].trim())) && refOf(i)) return refOf(i);
  }
  return null;
}

/** Tool calls for one step: [[tool, args], …]. */
function callsFor(cfg, step, ref, origin) {
  const kind = cfg.kind;
  const exp = () => {
    if (kind === 'pw' || kind === 'ab') return {};
    // response-diff-proxy: the agent's expectation, as for our server.
    return cfg.exp ? { expectation: structuredClone(cfg.exp) } : {};
  };
  if (kind === 'ab') {
    const sel = ref ? `@${ref}` : step.css;
    const snap = ['agent_browser_snapshot', cfg.snapshotArgs];
    switch (step.act) {
      case 'navigate': return [['agent_browser_open', { url: origin + step.path }], snap];
      case 'type': return [['agent_browser_fill', { selector: sel, text: step.text }], ...(step.submit ? [['agent_browser_press', { key: 'Enter' }]] : []), snap];
      case 'click': return [['agent_browser_click', { selector: sel }], snap];
      case 'dblclick': return [['agent_browser_dblclick', { selector: sel }], snap];
      case 'hover': return [['agent_browser_hover', { selector: sel }], snap];
      case 'snapshot': return [snap];
      default: throw new Error(`unknown act ${step.act}`);
    }
  }
  const target = kind === 'ours' ? { ref, element: step.element } : kind === 'pw' || kind === 'proxy' ? { target: ref, element: step.element } : { selectors: [{ ref }] };
  // Actions whose answer carries no snapshot in this peer (@playwright/mcp's
  // browser_type): with `snapshotAfter: [acts]`, the agent reads the page
  // after them, as it must to see what the action did (not when the
  // answer had the page after all: a submit that navigated).
  if (cfg.snapshotAfter?.includes(step.act)) {
    const [call] = callsFor({ ...cfg, snapshotAfter: null }, step, ref, origin);
    return [call, ['browser_snapshot', {}, 'unless the answer had the page']];
  }
  switch (step.act) {
    case 'navigate': return [['browser_navigate', { url: origin + step.path, ...exp() }]];
    case 'type': return [['browser_type', { ...target, text: step.text, ...(step.submit ? { submit: true } : {}), ...exp() }]];
    case 'click': return [['browser_click', { ...target, ...exp() }]];
    case 'dblclick': return [['browser_click', { ...target, doubleClick: true, ...exp() }]];
    case 'hover': return [['browser_hover', { ...target, ...exp() }]];
    case 'snapshot': return [['browser_snapshot', { ...exp() }]];
    default: throw new Error(`unknown act ${step.act}`);
  }
}

/** An answer that carries the page (a snapshot, inline or linked; our diff). */
export const HAS_PAGE = /^### (Snapshot|Page snapshot)/m;

/** The arguments of an out-of-band full snapshot, per kind (diffs off: the chain does not move). */
export const OUT_OF_BAND = {
  ours: { expectation: { diffOptions: { enabled: false }, includeConsole: false } },
  fast: { expectation: { includeSnapshot: true } },
  proxy: { expectation: { diffOptions: { enabled: false } } },
};

/** A full snapshot taken out of band (not counted; moves no diff state). */
async function outOfBand(server, cfg, workdir, args) {
  if (cfg.kind === 'ab') {
    const r = await server.call('agent_browser_snapshot', args ?? { interactive: false });
    if (r.isError) throw new Error(`${cfg.id}: the out-of-band snapshot failed: ${r.text.slice(0, 500)}`);
    const j = abJson(r.text);
    return (j?.data?.snapshot?.tree ?? j?.data?.snapshot ?? r.text).replace(/\n+$/, '');
  }
  const a = OUT_OF_BAND[cfg.kind] ?? {};
  const r = await server.call('browser_snapshot', a);
  if (r.isError) throw new Error(`${cfg.id}: the out-of-band snapshot failed: ${r.text.slice(0, 500)}`);
  const s = inlineSnapshot(r.text) ?? linkedSnapshotFile(r.text, workdir)?.text.replace(/\n+$/, '') ?? null;
  if (s === null) throw new Error(`${cfg.id}: the out-of-band snapshot has no aria snapshot:\n${r.text.slice(0, 1000)}`);
  return s;
}

/** The view a peer's response leaves the agent with (full snapshots, or fast-playwright-mcp's diff applied). */
function peerView(cfg, prev, texts, workdir) {
  let view = prev;
  let how = 'no snapshot';
  for (const text of texts) {
    const file = cfg.kind === 'pw' ? linkedSnapshotFile(text, workdir) : null;
    if (file) {
      view = file.text.replace(/\n+$/, '');
      how = 'linked file (full)';
      continue;
    }
    const inline = inlineSnapshot(text);
    if (inline !== null) {
      view = inline;
      how = 'full';
      continue;
    }
    for (const s of readSections(text)) {
      const d = fencedBlock(s.body, 'diff');
      if (d !== null && prev !== null) {
        try {
          view = applyUnified(prev, d);
          how = 'previous + diff';
        } catch (e) {
          view = null;
          how = `diff does not apply: ${e.message.slice(0, 120)}`;
        }
      }
    }
  }
  return { view, how };
}

/**
 * Runs `steps` through `cfg`. Returns { rows, snapshots (the full
 * snapshot after each step, agent-browser's with every node), wallMs,
 * floor and textFloor (per step, D44, for the configurations whose views are
 * checked: ours and the proxy), error?, … }:
 * a step that fails ends the run with `error` set (the caller decides
 * whether that fails the benchmark).
 */
export async function runConfig(cfg, steps, { origin, bin, chromium, log = () => {} }) {
  const workdir = mkdtempSync(join(tmpdir(), `rd-app-${cfg.id}-`));
  mkdirSync(join(workdir, 'out'));
  const server = await connect(cfg, { bin, chromium, workdir });
  const rows = [];
  const snapshots = [];
  const toldSteps = []; // ours, checked: what each response told (bench/harness.mjs told)
  const transcript = [];
  let agentView = null; // what the agent has, rebuilt from responses
  let abPrev = null; // agent-browser delta: { view, revision }
  let prevFull = null;
  // Our answers (ours-diff, the proxy) are read as the agent reads them.
  const checked = (cfg.kind === 'ours' || cfg.kind === 'proxy') && cfg.check;
  const ours = new OurAnswers(bin);
  const started = performance.now();
  let error = null;
  try {
    for (const [i, step] of steps.entries()) {
      let ref = null;
      if (step.target) {
        ref = findRef(agentView, step.target);
        if (!ref) ref = findRef(await outOfBand(server, cfg, workdir), step.target);
        if (!ref && !(cfg.kind === 'ab' && step.css)) throw new Error(`${cfg.id}, step ${i + 1} (${step.label}): no ref for ${step.target.role}${step.target.item ? ` in "${step.target.item}"` : ''} on the page`);
      }
      const calls = callsFor(cfg, step, ref, origin);
      const texts = [];
      let tokens = 0;
      let fileTokens = 0;
      const t0 = performance.now();
      const made = [];
      for (const [tool, args, unless] of calls) {
        if (unless && texts.length && HAS_PAGE.test(texts[texts.length - 1])) continue;
        made.push(tool);
        const r = await server.call(tool, args);
        if (r.isError || /^### Error|^### Result\nError:/m.test(r.text) || (cfg.kind === 'ab' && abJson(r.text)?.success === false)) {
          throw new Error(`${cfg.id}, step ${i + 1} (${step.label}): ${tool} ${JSON.stringify(args)} failed:\n${r.text.slice(0, 1500)}`);
        }
        texts.push(r.text);
        tokens += countTokens(r.text);
        const file = cfg.kind === 'pw' ? linkedSnapshotFile(r.text, workdir) : null;
        if (file) fileTokens += countTokens(file.text);
        transcript.push(`## ${cfg.id} ${i + 1}. ${step.label}\n\n${tool} ${JSON.stringify(args)}\n\n${r.text}\n`);
      }
      const ms = performance.now() - t0;
      const row = { step: i + 1, label: step.label, calls: made, ms: Math.round(ms), tokens, ...(fileTokens ? { fileTokens } : {}) };
      if (cfg.kind === 'ours') row.parts = answerParts(texts);
      // The agent's view after this step.
      let rebuilt;
      try {
        if (checked) {
          // Each answer in turn (an action's, then the page read after it).
          rebuilt = ours.read(agentView, texts);
        } else if (cfg.kind === 'ours') {
          const inline = inlineSnapshot(texts[texts.length - 1]);
          rebuilt = { view: inline ?? agentView, how: inline ? 'full' : 'no snapshot' };
        } else if (cfg.kind === 'ab' && cfg.snapshotArgs.delta) {
          abPrev = rebuildAgentBrowser(abPrev, texts[texts.length - 1]);
          rebuilt = abPrev;
        } else if (cfg.kind === 'ab') {
          rebuilt = { view: texts[texts.length - 1].replace(/\n+$/, ''), how: 'full' };
        } else {
          rebuilt = peerView(cfg, agentView, texts, workdir);
        }
      } catch (e) {
        rebuilt = { view: null, how: `unreadable: ${e.message.slice(0, 200)}` };
      }
      // The truth: a full snapshot out of band, in the same view options as the agent's.
      const full = await outOfBand(server, cfg, workdir, cfg.kind === 'ab' ? { ...cfg.snapshotArgs, delta: false } : undefined);
      agentView = rebuilt.view;
      row.rebuiltHow = rebuilt.how;
      row.preserved = agentView === full;
      if (!row.preserved) {
        row.mismatch = firstDifference(agentView ?? '', full);
        // The next response is a diff against what the server last sent,
        // so the agent keeps what it rebuilt (a page that changed after
        // the response is brought up to date by the next one); only an
        // unreadable response makes it go on from the truth.
        if (agentView === null) {
          agentView = full;
          if (abPrev && cfg.kind === 'ab') abPrev = { ...abPrev, view: full };
        }
      }
      if (checked) ours.remember(texts[texts.length - 1], agentView);
      row.fullTokens = countTokens(full);
      if (checked) {
        const shows = readSections(texts[texts.length - 1]).some((x) => x.heading.startsWith('Page snapshot'));
        toldSteps.push(told(texts[texts.length - 1], shows ? full : ''));
      }
      // Ref churn on the richest full view (agent-browser: every node, not only interactive ones).
      const churnView = cfg.kind === 'ab' && cfg.snapshotArgs.interactive !== false ? await outOfBand(server, cfg, workdir) : full;
      if (prevFull !== null) Object.assign(row, { churn: refChurn(prevFull, churnView) });
      prevFull = churnView;
      snapshots.push(churnView);
      rows.push(row);
      log(`${cfg.id} ${String(i + 1).padStart(2)} ${step.label}: ${row.tokens}${row.fileTokens ? ` (+${row.fileTokens} file)` : ''} tokens, ${row.ms} ms, churn ${row.churn ? row.churn.churned : '-'}${row.preserved ? ' ✓' : ` ✗ ${row.rebuiltHow} ${JSON.stringify(row.mismatch)}`}`);
    }
  } catch (e) {
    error = e.message;
  } finally {
    await server.close();
    rmSync(workdir, { recursive: true, force: true });
  }
  return {
    id: cfg.id, kind: cfg.kind, label: cfg.label, catalogTokens: server.catalogTokens, toolCount: server.toolCount,
    wallMs: Math.round(performance.now() - started), rows, snapshots, transcript: transcript.join('\n'),
    ...(checked ? { floor: floor(toldSteps), textFloor: textFloor(toldSteps) } : {}), ...(error ? { error } : {}),
    ...(cfg.kind === 'proxy' ? { proxyTimings: server.proxyTimings() } : {}),
  };
}

/**
 * The driver of an app session script (expand.mjs, grid.mjs, apidocs.mjs):
 * reads its command line (`--bin`, `--out`, `--transcript`, `--chromium`,
 * `--only`; opt-in configurations run only when named in --only), serves
 * `root` on 127.0.0.1, runs `steps` through each configuration, writes the
 * results (`app`, `versions`, the configurations, every run) to --out and
 * the transcripts to --transcript, and prints a line per run. `afterRun`
 * may amend a run's result before it is kept. Exits 1 when a run of ours
 * failed or a step of it did not rebuild.
 */
export async function runAppBench({ script, name, root, steps, configs, app, versions, afterRun = () => {} }) {
  const arg = (flag, fallback) => cliArg(flag, fallback, script);
  const bin = serverBin(arg, { needed: true });
  const out = arg('--out', null);
  const transcriptFile = arg('--transcript', null);
  const chromium = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
  const only = arg('--only', null);
  const site = await serveDir(root);
  const results = [];
  const transcripts = [];
  let failed = false;
  try {
    for (const cfg of configs) {
      if (only ? !only.split(',').includes(cfg.id) : cfg.optIn) continue;
      const r = await runConfig(cfg, steps, { origin: site.origin, bin, chromium, log: (l) => process.stderr.write(`${name} ${l}\n`) });
      transcripts.push(r.transcript);
      delete r.transcript;
      afterRun(r);
      results.push(r);
      if (r.error) console.error(`${cfg.id}: ${r.error}`);
      if (cfg.kind === 'ours' && (r.error || r.rows.some((x) => !x.preserved))) {
        failed = true;
        for (const x of r.rows.filter((y) => !y.preserved)) console.error(`${cfg.id}: step ${x.step} (${x.label}) did not rebuild (${x.rebuiltHow}): ${JSON.stringify(x.mismatch)}`);
      }
    }
  } finally {
    await site.close();
  }
  const report = {
    tokenizer: 'o200k_base (gpt-tokenizer)', app, steps: steps.map((s) => s.label), versions,
    configs: configs.map(({ id, kind, label }) => ({ id, kind, label })), results,
  };
  if (out) writeFileSync(out, JSON.stringify(report, null, 1));
  if (transcriptFile) writeFileSync(transcriptFile, transcripts.join('\n'));
  const total = (r) => r.rows.reduce((a, x) => a + x.tokens + (x.fileTokens ?? 0), 0);
  for (const r of results) {
    const churn = r.rows.reduce((a, x) => a + (x.churn?.churned ?? 0), 0);
    console.log(`${r.id.padEnd(20)} ${String(total(r)).padStart(7)} tokens, churn ${String(churn).padStart(3)}, ${r.rows.filter((x) => x.preserved).length}/${r.rows.length} rebuilt${r.floor ? `, ${floorNote(r.rows, r.floor)}` : ''}${r.error ? `; error: ${r.error.split('\n')[0]}` : ''}`);
  }
  if (failed) {
    console.error('a step of ours failed or did not rebuild: see above');
    process.exit(1);
  }
}
