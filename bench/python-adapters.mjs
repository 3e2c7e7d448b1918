// The Python adapters of `make python-bench` (docs/DECISIONS.md D60, D61),
// o200k tokens counted here, offline (gpt-tokenizer).
//
// PageDiff: the shop session (bench/session.mjs) and the todo session on
// seven TodoMVC frameworks (bench/todomvc.mjs), run through Playwright for
// Python by bench/python/pagediff_bench.py (bench/pagediff.mjs). Per step: PageDiff's answer, an
// agent re-reading page.aria_snapshot(mode="ai"), the floor (tokens of the
// snapshot lines not shown before, bench/grid.mjs), and our server's
// snapshot sections (Page state and Page snapshot) with diffs on in the same
// session, read from the transcripts of session.mjs and todomvc.mjs (run
// here with --only ours-diff unless given). Every PageDiff answer is rebuilt
// into the agent's view (rebuildOurs) and compared with the full snapshot.
//
// browser-use: the ten-step scripted run of bench/python/browser_use_bench.py
// with and without attach; per step the tokens of the prompt after the
// cacheable prefix (the messages equal to the previous request's, as a
// provider's prompt cache serves them) and of the whole prompt.
//
// Bars (exit 1 when one fails, or when a step loses information):
// PageDiff ≤ 1.25× our server over each session; with attach, the prompt
// after the cacheable prefix over steps 2–10 ≥ 70 % smaller; the whole
// prompt over the run ≤ 10 % larger.
//
//   node bench/python-adapters.mjs --bin target/release/response-diff --python .venv/bin/python \
//     --bu-python .venv-browser-use/bin/python --out bench-out/python-adapters.json [--md FILE]
//     [--session-transcript FILE] [--todomvc-transcript FILE --todomvc-json FILE]
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { arg as cliArg, serverBin } from './cli.mjs';
import { countTokens, repo } from './harness.mjs';
import { run, runPageDiff, transcriptRuns } from './pagediff.mjs';

const arg = (name, fallback) => cliArg(name, fallback, 'bench/python-adapters.mjs');
const BIN = serverBin(arg);
const PYTHON = resolve(arg('--python', join(repo, '.venv/bin/python')));
const BU_PYTHON = resolve(arg('--bu-python', join(repo, '.venv-browser-use/bin/python')));
const OUT = arg('--out', null);
const MD = arg('--md', null);
let SESSION_T = arg('--session-transcript', null);
let TODO_T = arg('--todomvc-transcript', null);
let TODO_J = arg('--todomvc-json', null);
const PAGEDIFF_BAR = 1.25;
const PREFIX_BAR = 0.7;
const TOTAL_BAR = 0.1;

for (const [what, path] of [['server binary', BIN], ['Python venv', PYTHON], ['browser-use venv', BU_PYTHON]]) {
  if (!existsSync(path)) {
    console.error(`no ${what} at ${path} (make python-bench builds and installs them)`);
    process.exit(2);
  }
}

const work = mkdtempSync(join(tmpdir(), 'rd-python-bench-'));
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

// ------------------------------------------------- the server's answers

if (!SESSION_T) {
  SESSION_T = join(work, 'session-transcript.md');
  await run('node', ['bench/session.mjs', '--bin', BIN, '--only', 'ours-diff', '--transcript', SESSION_T]);
}
if (!TODO_T) {
  TODO_T = join(work, 'todomvc-transcript.md');
  TODO_J = join(work, 'todomvc.json');
  await run('node', ['bench/todomvc.mjs', '--bin', BIN, '--only', 'ours-diff', '--transcript', TODO_T, '--out', TODO_J]);
}
const frameworks = JSON.parse(readFileSync(TODO_J, 'utf8')).frameworks;
const server = new Map();
server.set('shop', transcriptRuns(readFileSync(SESSION_T, 'utf8'), 'ours-diff')[0]);
transcriptRuns(readFileSync(TODO_T, 'utf8'), 'ours-diff').forEach((answers, k) => server.set(`todomvc/${frameworks[k]}`, answers));

// ------------------------------------------------------------- PageDiff

const pd = await runPageDiff({ bin: BIN, python: PYTHON, shop: true, frameworks, server });
let failed = false;
const pagediff = pd.sessions.map(({ lost, ...p }) => {
  for (const l of lost) console.error(l);
  if (lost.length || p.ratio > PAGEDIFF_BAR) failed = true;
  return p;
});

// ------------------------------------------------------------ browser-use

const buJson = join(work, 'browser-use.json');
await run(BU_PYTHON, ['bench/python/browser_use_bench.py', '--out', buJson]);
const bu = JSON.parse(readFileSync(buJson, 'utf8'));
// The page state in a message: browser-use's <browser_state> block and
// attach's <browser_state_base> ('' if neither).
function stateBlock(text) {
  return ['browser_state', 'browser_state_base'].map((tag) => {
    const at = text.indexOf(`<${tag}>`);
    return at < 0 ? '' : text.slice(at, text.indexOf(`</${tag}>`, at) + tag.length + 3);
  }).join('');
}
function promptRows(r) {
  let prev = null;
  return r.requests.map((q) => {
    const tokens = q.messages.map((m) => countTokens(m.text));
    let k = 0;
    while (prev && k < q.messages.length && k < prev.length && prev[k].role === q.messages[k].role && prev[k].text === q.messages[k].text) k++;
    prev = q.messages;
    // The state as the model is sent it after the cacheable prefix: the
    // state blocks of the user messages (the base too, when it is new).
    const state = sum(q.messages.slice(k).filter((m) => m.role === 'user').map((m) => countTokens(stateBlock(m.text))));
    return { total: sum(tokens), afterPrefix: sum(tokens.slice(k)), state, cachedMessages: k, rebuilt: q.rebuilt };
  });
}
const [without, withAttach] = [false, true].map((a) => promptRows(bu.runs.find((r) => r.attach === a)));
if (without.length !== withAttach.length) throw new Error(`browser-use: ${without.length} requests without attach, ${withAttach.length} with`);
if (!bu.runs.every((r) => r.done)) {
  failed = true;
  console.error('browser-use: the scripted agent did not finish');
}
if (withAttach.some((r) => !r.rebuilt)) {
  failed = true;
  console.error('browser-use: a state rebuilt from base + diff differs from browser-use\'s own');
}
const buRows = without.map((w, i) => ({ step: i + 1, without: w, with: withAttach[i] }));
const after2 = (rows) => sum(rows.slice(1).map((r) => r.afterPrefix));
const prefixSaving = 1 - after2(withAttach) / after2(without);
const totalGrowth = sum(withAttach.map((r) => r.total)) / sum(without.map((r) => r.total)) - 1;
if (prefixSaving < PREFIX_BAR || totalGrowth > TOTAL_BAR) failed = true;

// ---------------------------------------------------------------- report

const pct = (x) => `${(x * 100).toFixed(1)} %`;
const md = [];
md.push('### PageDiff (Playwright for Python), o200k tokens', '');
md.push('| session | aria_snapshot(mode="ai") each step | PageDiff | our server, diffs on | floor | PageDiff / server |', '|---|---:|---:|---:|---:|---:|');
for (const p of pagediff) md.push(`| ${p.session} | ${p.totals.ariaSnapshot} | ${p.totals.pagediff} | ${p.totals.server} | ${p.totals.floor} | ${p.ratio.toFixed(2)}× |`);
const all = (k) => sum(pagediff.map((p) => p.totals[k]));
md.push(`| **all** | ${all('ariaSnapshot')} | ${all('pagediff')} | ${all('server')} | ${all('floor')} | ${(all('pagediff') / all('server')).toFixed(2)}× |`, '');
md.push(`Bar: PageDiff ≤ ${PAGEDIFF_BAR}× our server in every session. Every PageDiff answer rebuilt the agent's view exactly: ${pagediff.every((p) => p.rows.every((r) => r.preserved)) ? 'yes' : 'NO'}.`, '');
md.push('Per step of the shop session:', '', '| step | aria_snapshot | PageDiff | server | floor | PageDiff answer |', '|---|---:|---:|---:|---:|---|');
for (const r of pagediff[0].rows) md.push(`| ${r.step}. ${r.label} | ${r.ariaSnapshot} | ${r.pagediff} | ${r.server} | ${r.floor} | ${r.how} |`);
md.push('', `### browser-use ${bu.browserUse} with attach, o200k tokens`, '');
md.push('| step | after the cacheable prefix, without | with attach | fewer | of which the state block, without | with attach | fewer | whole prompt, without | with attach |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of buRows) md.push(`| ${r.step} | ${r.without.afterPrefix} | ${r.with.afterPrefix} | ${pct(1 - r.with.afterPrefix / r.without.afterPrefix)} | ${r.without.state} | ${r.with.state} | ${pct(1 - r.with.state / r.without.state)} | ${r.without.total} | ${r.with.total} |`);
const state2 = (rows) => sum(rows.slice(1).map((r) => r.state));
md.push(`| **2–${buRows.length}** | ${after2(without)} | ${after2(withAttach)} | ${pct(prefixSaving)} | ${state2(without)} | ${state2(withAttach)} | ${pct(1 - state2(withAttach) / state2(without))} | ${sum(without.map((r) => r.total))} | ${sum(withAttach.map((r) => r.total))} (${totalGrowth >= 0 ? '+' : ''}${pct(totalGrowth)}) |`, '');
md.push('After the prefix, both columns also carry what browser-use writes around the state and attach leaves alone: the agent history, which grows by a step each step, and from step 5 on its budget and planning notices (the same text with and without attach).', '');
md.push(`Bars: after the cacheable prefix, steps 2–${buRows.length}, ≥ ${PREFIX_BAR * 100} % fewer (${pct(prefixSaving)}); the whole prompt ≤ ${TOTAL_BAR * 100} % larger (${pct(totalGrowth)}).`);
const text = md.join('\n');
console.log(text);
if (MD) writeFileSync(MD, `${text}\n`);
if (OUT) writeFileSync(OUT, JSON.stringify({ tokenizer: 'o200k_base (gpt-tokenizer)', playwright: pd.playwright, browserUse: bu.browserUse, pagediff, browserUseRun: { options: bu.options, rows: buRows, prefixSaving, totalGrowth } }, null, 1));
rmSync(work, { recursive: true, force: true });
if (failed) {
  console.error('python-bench: a bar failed or a step lost information: see above');
  process.exit(1);
}
