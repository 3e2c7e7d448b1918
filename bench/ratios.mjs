// What the diff-or-full rule would cost under other ratios, computed
// offline from the full snapshots the sessions recorded after every step
// (bench-out/todomvc.json, session.json, expand.json): for each pair of
// consecutive snapshots, the server binary's CLI gives the unified diff
// (`response-diff diff --format unified` with threshold 1 and no line cap,
// so it always diffs) and the snapshot patch (`tree-diff --format patch`).
// A rule "send the smaller of patch and diff when it is at most r of the
// full snapshot, else the full snapshot" is then summed over the session
// for r = 0.5 (with and without today's 50-line cap), 0.7, 0.9 and 1.0.
// Sizes are o200k tokens of the snapshot section's body (the envelope
// around it is the same under every rule).
//
//   node bench/ratios.mjs --bin target/release/response-diff --out bench-out/ratios.json
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { arg as cliArg, serverBin } from './cli.mjs';
import { countTokens, repo } from './harness.mjs';

const arg = (name, fallback) => cliArg(name, fallback, 'bench/ratios.mjs');
const BIN = serverBin(arg);
const OUT = arg('--out', join(repo, 'bench-out/ratios.json'));
const DIR = arg('--in', join(repo, 'bench-out'));

export const RULES = [
  { id: 'r0.5-cap50', ratio: 0.5, maxLines: 50, label: '½ of full, ≤ 50 changed lines (today)' },
  { id: 'r0.5', ratio: 0.5, maxLines: Infinity, label: '½ of full' },
  { id: 'r0.7', ratio: 0.7, maxLines: Infinity, label: '0.7 of full' },
  { id: 'r0.9', ratio: 0.9, maxLines: Infinity, label: '0.9 of full' },
  { id: 'r1.0', ratio: 1.0, maxLines: Infinity, label: 'smaller than full' },
];

const tmp = mkdtempSync(join(tmpdir(), 'rd-ratios-'));
// Like diff(1), the CLI exits 1 when the inputs differ; 2 and up are errors.
function cli(args) {
  const r = spawnSync(BIN, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${BIN} ${args.join(' ')}: exit ${r.status}: ${r.stderr || r.error?.message}`);
  return r.stdout.replace(/\n+$/, '');
}

/** Sizes of every way to send `next` to an agent that has `prev`. */
function step(prev, next) {
  const full = countTokens(next);
  if (prev === null) return { full, first: true };
  if (prev === next) return { full, unchanged: countTokens(`No changes since the previous response (${next.split('\n').length} lines).`) };
  const a = join(tmp, 'a.yml');
  const b = join(tmp, 'b.yml');
  writeFileSync(a, prev);
  writeFileSync(b, next);
  const unified = cli(['diff', '--format', 'unified', '--options', '{"threshold": 1, "maxDiffLines": 1000000}', a, b]);
  // Where even the diff is not smaller than the full text the CLI prints the
  // full text under a note with the counts: no line diff to send then.
  const note = unified.match(/^Full response \(.*\(\+(\d+) −(\d+)\)/);
  const changed = note ? Number(note[1]) + Number(note[2]) : Number(unified.match(/^\d+ lines, (\d+) changed/)?.[1]);
  if (!Number.isInteger(changed)) throw new Error(`unexpected output of \`response-diff diff\`: ${unified.split('\n')[0]}`);
  let patch = null;
  try {
    patch = cli(['tree-diff', '--format', 'patch', a, b]);
  } catch {
    // No patch for this pair (a change a ref cannot address): the line diff only.
  }
  return { full, lineDiff: note ? null : countTokens(unified), patch: patch === null ? null : countTokens(patch), changedLines: changed };
}

function cost(s, rule) {
  if (s.first) return s.full;
  if (s.unchanged !== undefined) return s.unchanged;
  const best = Math.min(s.lineDiff ?? Infinity, s.patch ?? Infinity);
  return best <= rule.ratio * s.full && s.changedLines <= rule.maxLines ? best : s.full;
}

function session(name, snapshots) {
  const steps = snapshots.map((s, i) => step(i ? snapshots[i - 1] : null, s));
  const totals = Object.fromEntries(RULES.map((r) => [r.id, steps.reduce((a, s) => a + cost(s, r), 0)]));
  const over50 = steps.filter((s) => s.changedLines > 50).length;
  return { name, steps: steps.length, stepsOver50Lines: over50, totals, perStep: steps };
}

const sessions = [];
const load = (f) => (existsSync(join(DIR, f)) ? JSON.parse(readFileSync(join(DIR, f), 'utf8')) : null);
const todo = load('todomvc.json');
for (const r of todo?.results ?? []) {
  if (r.id === 'ours-diff' && r.snapshots?.length) sessions.push(session(`TodoMVC ${r.framework}`, r.snapshots));
}
const shop = load('session.json');
const shopDiff = shop?.configs.find((c) => c.id === 'ours-diff');
if (shopDiff?.snapshots?.length) sessions.push(session('shop (bench site)', shopDiff.snapshots));
const expand = load('expand.json');
const expandDiff = expand?.results.find((c) => c.id === 'ours-diff');
if (expandDiff?.snapshots?.length) sessions.push(session('jsoneditor (expanding)', expandDiff.snapshots));
rmSync(tmp, { recursive: true, force: true });
if (!sessions.length) {
  console.error(`no recorded snapshots in ${DIR} (todomvc.json, session.json, expand.json): run \`make app-bench\` first`);
  process.exit(1);
}
writeFileSync(OUT, JSON.stringify({ tokenizer: 'o200k_base (gpt-tokenizer)', rules: RULES.map(({ maxLines, ...r }) => ({ ...r, maxLines: maxLines === Infinity ? null : maxLines })), sessions }, null, 1));
for (const s of sessions) console.log(`${s.name.padEnd(26)} ${RULES.map((r) => `${r.id} ${String(s.totals[r.id]).padStart(6)}`).join('  ')}`);
