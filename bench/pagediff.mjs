// PageDiff (response_diff.playwright, Playwright for Python) on the bench's
// sessions, scored against our server with diffs on: what `make
// python-bench` (bench/python-adapters.mjs: the shop and TodoMVC) and `make
// proxy-bench` (every session) share. bench/python/pagediff_bench.py drives
// the steps, which are the sessions' own (bench/shop.mjs, the STEPS of
// todomvc.mjs, grid.mjs, expand.mjs and apidocs.mjs), handed over as JSON. Per step: PageDiff's answer, an agent re-reading
// page.aria_snapshot(mode="ai"), the floor of PageDiff's pages
// (bench/harness.mjs), and our server's snapshot sections (Page state and
// Page snapshot) in the same session, read from a transcript of the
// session's `ours-diff` run. Every PageDiff answer is rebuilt into the
// agent's view (rebuildOurs) and compared with the full snapshot.
//
// As a script (make proxy-bench), the sessions whose transcripts are given:
//
//   node bench/pagediff.mjs --bin target/release/response-diff --python .venv/bin/python --out FILE
//     [--session-transcript FILE] [--todomvc-transcript FILE --todomvc-json FILE]
//     [--grid-transcript FILE] [--expand-transcript FILE] [--apidocs-transcript FILE]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { arg as cliArg, isMain, serverBin } from './cli.mjs';
import { countTokens, firstDifference, floor, here, modulePath, pageUrl, rebuildOurs, repo, serveDir } from './harness.mjs';
import { readSections } from './reconstruct.mjs';
import { STEPS as SHOP } from './shop.mjs';
import { STEPS as TODO } from './todomvc.mjs';

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
/** Playwright's mark on a clickable element (`- link "All" [ref=e62] [cursor=pointer]:`). */
const CURSOR = ' [cursor=pointer]';

/** Runs a command, inheriting stderr; resolves when it exits 0 (asynchronous: pages are served from this process). */
export const run = (cmd, args) => new Promise((ok, fail) => {
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'], cwd: repo });
  child.on('error', fail);
  child.on('exit', (code) => (code === 0 ? ok() : fail(new Error(`${cmd} ${args.join(' ')} exited with ${code}`))));
});

/** The Page state and Page snapshot sections of one of our answers, as the agent reads them. */
export function snapshotSections(text) {
  return readSections(text)
    .filter((s) => s.heading === 'Page state' || s.heading.startsWith('Page snapshot'))
    .map((s) => `### ${s.heading}\n${s.body}`)
    .join('\n\n');
}

/** A transcript's answers of configuration `id`, one list per run: [[text, …], …]. */
export function transcriptRuns(text, id) {
  const heads = [...text.matchAll(/^## (\S+) (\d+)\. .*$/gm)];
  const runs = [];
  heads.forEach((h, k) => {
    if (h[1] !== id) return;
    const end = k + 1 < heads.length ? heads[k + 1].index : text.length;
    // `## id n. label`, a blank line, the call, a blank line, the answer.
    const body = text.slice(h.index + h[0].length + 2, end).replace(/\n+$/, '');
    const answer = body.slice(body.indexOf('\n\n') + 2);
    if (h[2] === '1') runs.push([]);
    runs[runs.length - 1].push(answer);
  });
  return runs;
}

/** A session's steps as JSON for pagediff_bench.py: each RegExp as its source. */
export function stepsJson(steps) {
  return JSON.parse(JSON.stringify(steps, (_, v) => (v instanceof RegExp ? v.source : v)));
}

/**
 * Scores one PageDiff session (`s`: { name, steps: [{ label, pagediff, raw,
 * full }] }) against our server's answers to the same steps. Returns
 * { session, rows, totals, ratio, lost: [messages] }.
 */
export function scoreSession(bin, s, theirs) {
  if (!theirs || theirs.length !== s.steps.length) throw new Error(`${s.name}: the server's transcript has ${theirs?.length} steps, PageDiff ${s.steps.length}`);
  const floors = floor(s.steps.map((x) => x.full));
  let view = null;
  const seenByUrl = new Map();
  const history = [];
  let lastUrl = null;
  const lost = [];
  const rows = s.steps.map((x, i) => {
    const rebuilt = rebuildOurs(bin, view, x.pagediff, seenByUrl, history);
    view = rebuilt.view;
    const preserved = view === x.full;
    if (!preserved) {
      lost.push(`${s.name} step ${i + 1} (${x.label}) lost information (${rebuilt.how}): ${JSON.stringify(firstDifference(view ?? '', x.full))}`);
      view = x.full;
    }
    const url = pageUrl(readSections(x.pagediff)) ?? lastUrl;
    lastUrl = url;
    if (url !== null) seenByUrl.set(url, view);
    history.push(view);
    return {
      step: i + 1, label: x.label, how: rebuilt.how, preserved,
      pagediff: countTokens(x.pagediff), ariaSnapshot: countTokens(x.raw), server: countTokens(snapshotSections(theirs[i])), floor: floors[i],
      // The same answer less the `[cursor=pointer]` marks of Playwright's
      // text, which our server's snapshot does not print.
      pagediffNoCursor: countTokens(x.pagediff.replaceAll(CURSOR, '')),
    };
  });
  const t = (k) => sum(rows.map((r) => r[k]));
  const totals = { pagediff: t('pagediff'), ariaSnapshot: t('ariaSnapshot'), server: t('server'), floor: t('floor'), pagediffNoCursor: t('pagediffNoCursor') };
  return { session: s.name, rows, totals, ratio: totals.pagediff / totals.server, lost };
}

/**
 * Runs PageDiff on the sessions asked for and scores each against our
 * server. shop: true; frameworks: TodoMVC's, or []; apps: [{ name, root,
 * steps }] (an app script's STEPS, served from `root`); server: Map of
 * session name (`shop`, `todomvc/<fw>`, an app's name) → our answers.
 * Returns { playwright, sessions: [scoreSession …] }.
 */
export async function runPageDiff({ bin, python, shop = false, frameworks = [], apps = [], server }) {
  const sessions = [
    ...(shop ? [{ name: 'shop', root: join(repo, 'tests/fixtures/site'), steps: SHOP }] : []),
    // The todo session on each framework, opening that framework's example.
    ...frameworks.map((fw) => ({ name: `todomvc/${fw}`, root: modulePath('todomvc'), steps: TODO.map((x) => (x.act === 'navigate' ? { ...x, path: `/examples/${fw}/index.html` } : x)) })),
    ...apps,
  ];
  const work = mkdtempSync(join(tmpdir(), 'rd-pagediff-'));
  const sites = new Map(); // root → its server on 127.0.0.1
  try {
    for (const a of sessions) if (!sites.has(a.root)) sites.set(a.root, await serveDir(a.root));
    const list = sessions.map((a) => ({ name: a.name, origin: sites.get(a.root).origin, steps: stepsJson(a.steps) }));
    writeFileSync(join(work, 'sessions.json'), JSON.stringify(list));
    await run(python, ['bench/python/pagediff_bench.py', '--sessions', join(work, 'sessions.json'), '--out', join(work, 'pagediff.json')]);
    const pd = JSON.parse(readFileSync(join(work, 'pagediff.json'), 'utf8'));
    return { playwright: pd.playwright, sessions: pd.sessions.map((s) => scoreSession(bin, s, server.get(s.name))) };
  } finally {
    for (const s of sites.values()) await s.close();
    rmSync(work, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------ the script

if (isMain(import.meta.url)) {
  const arg = (name, fallback) => cliArg(name, fallback, 'bench/pagediff.mjs');
  const bin = serverBin(arg, { needed: true });
  const python = resolve(arg('--python', join(repo, '.venv/bin/python')));
  const out = arg('--out', null);
  if (!existsSync(python)) {
    console.error(`no Python venv at ${python} (make python-dev makes it)`);
    process.exit(2);
  }
  const server = new Map();
  const ours = (flag) => {
    const path = arg(flag, null);
    return path ? transcriptRuns(readFileSync(path, 'utf8'), 'ours-diff') : null;
  };
  const shop = ours('--session-transcript');
  if (shop) server.set('shop', shop[0]);
  const todo = ours('--todomvc-transcript');
  const frameworks = todo ? JSON.parse(readFileSync(arg('--todomvc-json', null), 'utf8')).frameworks : [];
  todo?.forEach((answers, k) => server.set(`todomvc/${frameworks[k]}`, answers));
  const apps = [];
  for (const [name, script, root] of [['grid', 'grid.mjs', here], ['expand', 'expand.mjs', modulePath('jsoneditor')], ['apidocs', 'apidocs.mjs', here]]) {
    const answers = ours(`--${name}-transcript`);
    if (!answers) continue;
    server.set(name, answers[0]);
    apps.push({ name, root, steps: (await import(`./${script}`)).STEPS });
  }
  const r = await runPageDiff({ bin, python, shop: Boolean(shop), frameworks, apps, server });
  for (const s of r.sessions) {
    for (const l of s.lost) console.error(l);
    console.log(`${s.session.padEnd(20)} PageDiff ${String(s.totals.pagediff).padStart(6)}, our server's page sections ${String(s.totals.server).padStart(6)} (${s.ratio.toFixed(2)}×), aria_snapshot ${s.totals.ariaSnapshot}, floor ${s.totals.floor}`);
  }
  if (out) writeFileSync(out, JSON.stringify({ tokenizer: 'o200k_base (gpt-tokenizer)', ...r }, null, 1));
  if (r.sessions.some((s) => s.lost.length)) process.exit(1);
}
