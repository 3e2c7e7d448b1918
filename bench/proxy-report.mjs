// The report of `make proxy-bench` (issues 34 and 42): on every app
// session of the bench — the shop (bench/session.mjs), TodoMVC ×7
// (bench/todomvc.mjs), the data grid (bench/grid.mjs), jsoneditor
// (bench/expand.mjs) and the API docs (bench/apidocs.mjs) — @playwright/mcp
// with its snapshot read after each action, @playwright/mcp through
// response-diff-proxy, PageDiff (bench/pagediff.mjs) and our server with
// diffs on, from the JSON those scripts wrote with `--only
// ours-diff,<@playwright/mcp reading the page>,proxy`; the floor (D44,
// harness.mjs `floor`, on our server's session) with the text-only floor
// beside it. Tokens per step and per session, tool time per call, the
// catalog, the bars, and the bars missed with their reasons. A session
// whose file is not given (or not there) is listed as not run. Writes
// Markdown (--out) and JSON (--json); exits 1 when a session did not reach
// its final check through the proxy (with --strict, also when a bar is
// missed).
//
//   node bench/proxy-report.mjs --shop bench-out/proxy-shop.json --todomvc bench-out/proxy-todomvc.json
//     --grid bench-out/proxy-grid.json --expand bench-out/proxy-expand.json --apidocs bench-out/proxy-apidocs.json
//     --pagediff bench-out/proxy-pagediff.json --out docs/bench/proxy.md --json bench-out/proxy.json
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import { arg as cliArg, isMain } from './cli.mjs';

/**
 * Issue 42's token bars (proxy and PageDiff against our server, our server
 * against the floor, the proxy against @playwright/mcp) and issue 34's
 * timing and catalog bars.
 */
export const BARS = { proxyVsOurs: 1.1, pagediffVsOurs: 1.1, oursVsFloor: 1.15, vsPlaywright: 0.8, overheadShare: 0.1, overheadMs: 15, catalog: 1.1 };

/** A step's tokens: the answers, plus the snapshot file an answer links (read by the agent). */
const stepTokens = (row) => row.tokens + (row.fileTokens ?? 0);
const callsOf = (row) => (Array.isArray(row.calls) ? row.calls.length : row.calls ?? 1);
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/**
 * One session's runs (`runs`: the results of its script, with `pwId`, the
 * @playwright/mcp run that reads the page after each action, `proxy` and
 * `ours-diff`) and its PageDiff score (bench/pagediff.mjs, or null), as
 * tokens per step and per session, floors, ratios, tool time and checks.
 */
export function summarize(name, runs, pwId, pagediff = null) {
  const by = (id) => runs.find((r) => r.id === id);
  const pw = by(pwId);
  const proxy = by('proxy');
  const ours = by('ours-diff');
  for (const [id, r] of [[pwId, pw], ['proxy', proxy], ['ours-diff', ours]]) {
    if (!r) throw new Error(`${name}: no ${id} run; run the session with --only ours-diff,${pwId},proxy`);
  }
  if (!ours.floor) throw new Error(`${name}: the ours-diff run has no floor`);
  // The session's final check: every step ran, and the agent's view after
  // the last one, rebuilt from the proxy's answers, is the page.
  const reached = !proxy.error && proxy.rows.length === ours.rows.length && proxy.rows[proxy.rows.length - 1]?.preserved === true;
  const rebuilt = proxy.rows.filter((x) => x.preserved).length;
  const perStep = {
    pw: pw.rows.map(stepTokens), proxy: proxy.rows.map(stepTokens), ours: ours.rows.map(stepTokens),
    pagediff: pagediff ? pagediff.rows.map((r) => r.pagediff) : null,
    oursPage: pagediff ? pagediff.rows.map((r) => r.server) : null,
    floor: ours.floor, textFloor: ours.textFloor ?? null,
  };
  const tokens = {
    pw: sum(perStep.pw), proxy: sum(perStep.proxy), ours: sum(perStep.ours),
    pagediff: pagediff ? pagediff.totals.pagediff : null,
    pagediffNoCursor: pagediff?.totals.pagediffNoCursor ?? null,
    // Our answers' Page state and Page snapshot sections: what PageDiff answers with.
    oursPage: pagediff ? pagediff.totals.server : null,
    floor: sum(ours.floor), textFloor: ours.textFloor ? sum(ours.textFloor) : null,
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
  time.overheadP95 = own[Math.min(own.length - 1, Math.floor(0.95 * own.length))];
  time.allowed = Math.max(BARS.overheadShare * time.pwPerCall, BARS.overheadMs);
  // Calls the proxy made to @playwright/mcp beyond the agent's (a stale
  // ref's out-of-sight snapshot and retry, browser_find's fresh refs).
  time.extraCalls = sum((proxy.proxyTimings ?? []).map((t) => t.extraCalls ?? 0));
  time.calls = own.length;
  // Where our tokens go that the floor prices at zero (harness.mjs answerParts).
  const parts = ours.rows.every((x) => x.parts)
    ? { framing: sum(ours.rows.map((x) => x.parts.framing)), naming: sum(ours.rows.map((x) => x.parts.naming)), refs: sum(ours.rows.map((x) => x.parts.refs ?? 0)) }
    : null;
  return {
    name,
    steps: ours.rows.map((x) => x.label),
    parts,
    perStep,
    tokens,
    time,
    reached,
    rebuilt,
    pagediffRebuilt: pagediff ? pagediff.rows.filter((r) => r.preserved).length : null,
    error: proxy.error ?? null,
    catalog: { pw: pw.catalogTokens, proxy: proxy.catalogTokens },
    ratios: {
      proxyVsOurs: tokens.proxy / tokens.ours,
      pagediffVsOurs: pagediff ? tokens.pagediff / tokens.oursPage : null,
      oursVsFloor: tokens.ours / tokens.floor,
      saved: 1 - tokens.proxy / tokens.pw,
      // No lossless answer sends less than the floor: the most the proxy could save.
      floorAllows: 1 - tokens.floor / tokens.pw,
    },
  };
}

const pct = (x) => `${(100 * x).toFixed(1)} %`;

/** Where a session's `a` tokens exceed its `b` tokens most: its `k` worst steps, as `step 11, "hover …" (+64)`. */
export function mostOver(s, a, b, k = 2) {
  return s.perStep[a]
    .map((t, i) => ({ i, over: t - s.perStep[b][i] }))
    .filter((x) => x.over > 0)
    .sort((x, y) => y.over - x.over || x.i - y.i)
    .slice(0, k)
    .map((x) => `step ${x.i + 1}, "${s.steps[x.i]}" (+${x.over})`)
    .join(', ');
}

/**
 * The bars a set of sessions misses: { broken (a session that did not
 * reach its final check through the proxy), fails (a bar missed), waived
 * (sessions whose floor does not allow the 80 % bar, with that limit) }.
 */
export function judge(sessions, bars = BARS) {
  const broken = [];
  const fails = [];
  const waived = [];
  const missed = new Set(); // the keys of BARS missed somewhere
  for (const s of sessions) {
    const r = s.ratios;
    if (!s.reached) broken.push(`${s.name}: the proxy run did not reach its final check${s.error ? ` (${s.error.split('\n')[0]})` : ''}`);
    // A missed token bar names the steps that cost the most over it (three
    // decimals: 1.104× is over a bar of 1.1×).
    if (r.proxyVsOurs > bars.proxyVsOurs) {
      missed.add('proxyVsOurs');
      fails.push(`${s.name}: the proxy sends ${r.proxyVsOurs.toFixed(3)}× our server's tokens (bar ${bars.proxyVsOurs}×; most over: ${mostOver(s, 'proxy', 'ours')})`);
    }
    if (r.pagediffVsOurs === null) fails.push(`${s.name}: PageDiff not measured`);
    else if (r.pagediffVsOurs > bars.pagediffVsOurs) {
      missed.add('pagediffVsOurs');
      const plain = s.tokens.pagediffNoCursor === null ? '' : `; less Playwright's \`[cursor=pointer]\` marks, ${(s.tokens.pagediffNoCursor / s.tokens.oursPage).toFixed(3)}×`;
      fails.push(`${s.name}: PageDiff sends ${r.pagediffVsOurs.toFixed(3)}× our server's page sections (bar ${bars.pagediffVsOurs}×; most over: ${mostOver(s, 'pagediff', 'oursPage')}${plain})`);
    }
    if (r.oursVsFloor > bars.oursVsFloor) {
      missed.add('oursVsFloor');
      fails.push(`${s.name}: our server sends ${r.oursVsFloor.toFixed(3)}× the floor (bar ${bars.oursVsFloor}×; most over: ${mostOver(s, 'ours', 'floor')})`);
    }
    if (r.floorAllows < bars.vsPlaywright) {
      waived.push(`${s.name} (the floor allows at most ${pct(r.floorAllows)}; the proxy saves ${pct(r.saved)})`);
    } else if (r.saved < bars.vsPlaywright) {
      fails.push(`${s.name}: the proxy saves ${pct(r.saved)} of @playwright/mcp's tokens (bar ${100 * bars.vsPlaywright} %; the floor allows ${pct(r.floorAllows)})`);
    }
    if (s.time.overhead > s.time.allowed) fails.push(`${s.name}: the proxy adds ${s.time.overhead.toFixed(1)} ms a call (bar ${s.time.allowed.toFixed(1)} ms)`);
  }
  const catalog = sessions[0]?.catalog;
  if (catalog && catalog.proxy / catalog.pw > bars.catalog) fails.push(`the catalog costs ${(catalog.proxy / catalog.pw).toFixed(3)}× @playwright/mcp's own (bar ${bars.catalog}×)`);
  return { broken, fails, waived, missed: [...missed] };
}

const n = (x) => (x === null || x === undefined ? '–' : Math.round(x).toLocaleString('en-US'));
const x2 = (x) => (x === null || x === undefined || !Number.isFinite(x) ? '–' : `${x.toFixed(2)}×`);

/** The Markdown report. */
export function render({ sessions, verdict, notRun = [], versions = {}, wall = null, notes = [] }) {
  const { broken, fails, waived } = verdict;
  const md = [];
  md.push('# @playwright/mcp through response-diff-proxy, and PageDiff\n');
  md.push(`Generated by \`make proxy-bench\` (bench/proxy-report.mjs). @playwright/mcp ${versions['@playwright/mcp'] ?? ''} on Debian's chromium, pages on 127.0.0.1, `
    + 'tokens counted with o200k_base (gpt-tokenizer). Four setups on the same sessions: **@playwright/mcp** with its snapshot read after each action '
    + '(its answer plus the `.yml` file it links; after `browser_type`, whose answer has no snapshot, a `browser_snapshot`), **the proxy** '
    + '(`response-diff-proxy -- @playwright/mcp …`, diffs on, `includeCode: false`; a `browser_snapshot` after `browser_type` too), **PageDiff** '
    + `(\`response_diff.playwright.PageDiff\` on Playwright for Python${versions.playwrightPython ? ` ${versions.playwrightPython}` : ''}, the same steps, \`PageDiff.snapshot()\` after each; bench/pagediff.mjs), and **our server** `
    + 'with diffs on (`ours-diff`). The proxy\'s answers are checked as our server\'s are: the agent\'s view rebuilt from them equals a full snapshot '
    + 'taken out of band after every step (*rebuilt*: the steps where it does; a miss is an answer taken before the page had settled, as in '
    + 'the other app sessions, and the next answer brings the view up to date); PageDiff\'s likewise, against its own page. '
    + '*Floor* (docs/DECISIONS.md D44): the tokens of the lines our server\'s agent had not been shown before in the session, element by element (a line '
    + 'with another ref is another element), the answers\' other sections included, which no lossless answer can leave out; *text-only floor*: the same with '
    + 'refs ignored (issue 37\'s measure, which counts a new row that repeats other rows\' text as known). PageDiff answers with the page alone, so it is '
    + 'compared with our answers\' Page state and Page snapshot sections (*ours, page sections*), as in `make python-bench`.\n');
  md.push('| session | steps | @playwright/mcp | proxy | PageDiff | our server | ours, page sections | floor (D44) | text-only floor | proxy / ours | PageDiff / ours | ours / floor | saved vs @playwright/mcp | the floor allows | rebuilt: proxy, PageDiff | final check |');
  md.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const s of sessions) {
    md.push(`| ${s.name} | ${s.steps.length} | ${n(s.tokens.pw)} | ${n(s.tokens.proxy)} | ${n(s.tokens.pagediff)} | ${n(s.tokens.ours)} | ${n(s.tokens.oursPage)} | ${n(s.tokens.floor)} | ${n(s.tokens.textFloor)} | `
      + `${x2(s.ratios.proxyVsOurs)} | ${x2(s.ratios.pagediffVsOurs)} | ${x2(s.ratios.oursVsFloor)} | ${pct(s.ratios.saved)} | ${pct(s.ratios.floorAllows)} | `
      + `${s.rebuilt}/${s.steps.length}, ${s.pagediffRebuilt === null ? '–' : `${s.pagediffRebuilt}/${s.steps.length}`} | ${s.reached ? 'reached' : '**not reached**'} |`);
  }
  if (sessions.length) {
    const t = (k) => (sessions.every((s) => s.tokens[k] !== null) ? sum(sessions.map((s) => s.tokens[k])) : null);
    md.push(`| **all** | ${sum(sessions.map((s) => s.steps.length))} | ${n(t('pw'))} | ${n(t('proxy'))} | ${n(t('pagediff'))} | ${n(t('ours'))} | ${n(t('oursPage'))} | ${n(t('floor'))} | ${n(t('textFloor'))} | `
      + `${x2(t('proxy') / t('ours'))} | ${x2(t('pagediff') === null ? null : t('pagediff') / t('oursPage'))} | ${x2(t('ours') / t('floor'))} | ${pct(1 - t('proxy') / t('pw'))} | ${pct(1 - t('floor') / t('pw'))} | | |`);
  }
  md.push('');
  if (notRun.length) md.push(`**Not run:** ${notRun.join('; ')}.\n`);
  md.push(`Bars (issue 42): through the proxy ≤ ${BARS.proxyVsOurs}× our server's tokens; PageDiff ≤ ${BARS.pagediffVsOurs}× our server (its page sections); `
    + `our server ≤ ${BARS.oursVsFloor}× the floor (D44); through the proxy ≥ ${100 * BARS.vsPlaywright} % fewer tokens than @playwright/mcp on each session whose floor allows it `
    + `(1 − floor / @playwright/mcp ≥ ${100 * BARS.vsPlaywright} %). Each session reaches its final check through the proxy.\n`);
  const list = (xs) => (xs.length ? `\n\n${xs.map((x) => `- ${x}`).join('\n')}\n` : ' none.\n');
  md.push(`**Missed:**${list([...broken, ...fails])}`);
  md.push(`**The floor does not allow the ${100 * BARS.vsPlaywright} % bar on:**${list(waived)}`);
  if (notes.length) md.push(`${notes.join(' ')}\n`);
  if (sessions.some((s) => s.parts)) {
    md.push('## Our server against the floor, line by line\n');
    md.push('Where our server\'s tokens go that the floor (D44) prices at zero (bench/harness.mjs `answerParts`): *framing*, the section headings and '
      + 'code fences that every answer of this format carries (`### Result`, `### Page snapshot (patch)`, the fence around the patch); *naming*, the '
      + 'patch lines that only name elements the agent knows, by ref or address: a removal (`- [e228 e278]`), an insertion\'s anchor and a restore '
      + '(`+ first in [e227]: [e228] as last shown`), a focus, order or state line (`~ focus [e242]`, `~ [e267] +checked`). *The rest* is what the answers '
      + 'say of the page and the call: the lines new to the agent, which the floor counts, and any line sent again. A lossless answer names what went '
      + 'and where a change goes; a rest at the floor means nothing the agent was shown is sent again. *Refs alone*: the tokens of what the naming '
      + 'lines\' brackets hold, without their words and anchors (`e228 e278`); *least in this format*: the floor, the framing and those refs, which '
      + 'no lossless answer in this sectioned format leaves out, over the floor.\n');
    md.push('| session | steps | our server | floor (D44) | framing | naming | refs alone | the rest | the rest / floor | least in this format | ours / floor |');
    md.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const s of sessions) {
      const p = s.parts;
      const rest = p ? s.tokens.ours - p.framing - p.naming : null;
      const least = p ? (s.tokens.floor + p.framing + p.refs) / s.tokens.floor : null;
      md.push(`| ${s.name} | ${s.steps.length} | ${n(s.tokens.ours)} | ${n(s.tokens.floor)} | ${n(p?.framing)} | ${n(p?.naming)} | ${n(p?.refs)} | ${n(rest)} | `
        + `${x2(rest === null ? null : rest / s.tokens.floor)} | ${least === null ? '–' : `${least.toFixed(3)}×`} | ${x2(s.ratios.oursVsFloor)} |`);
    }
    md.push('');
  }
  md.push('## Tool time (issue 34)\n');
  md.push('*Tool time*: wall time of the tool calls over MCP, per call; what the proxy adds is its own time per call (`--timing`: from taking a call to answering it, '
    + 'less @playwright/mcp\'s answer to the call as the agent made it; a retry and an out-of-sight snapshot count as the proxy\'s), since the wall times of two runs '
    + 'differ by more than that (Playwright\'s own waits, the load of the machine).\n');
  md.push('| session | ms a call: @playwright/mcp | through the proxy | our server | the proxy\'s own, mean / p95 (allowed) | extra upstream calls |');
  md.push('|---|---:|---:|---:|---:|---:|');
  for (const s of sessions) {
    md.push(`| ${s.name} | ${s.time.pwPerCall.toFixed(0)} | ${s.time.proxyPerCall.toFixed(0)} | ${s.time.oursPerCall.toFixed(0)} | ${s.time.overhead.toFixed(1)} / ${s.time.overheadP95.toFixed(1)} (${s.time.allowed.toFixed(0)}) | ${s.time.extraCalls} of ${s.time.calls} |`);
  }
  md.push('');
  const catalog = sessions[0]?.catalog;
  if (catalog) {
    md.push(`Bars (issue 34): at most ${100 * BARS.overheadShare} % or ${BARS.overheadMs} ms added a call, whichever is larger; `
      + `the catalog (\`tools/list\`, o200k): @playwright/mcp ${n(catalog.pw)} tokens, through the proxy ${n(catalog.proxy)} (${(catalog.proxy / catalog.pw).toFixed(3)}×, bar ${BARS.catalog}×).\n`);
  }
  if (wall) md.push(`Wall time of the run: ${wall}.\n`);
  for (const s of sessions) {
    md.push(`## Tokens per step: ${s.name}\n`);
    md.push('| # | step | @playwright/mcp | proxy | PageDiff | ours | floor | text-only floor |');
    md.push('|---:|---|---:|---:|---:|---:|---:|---:|');
    s.steps.forEach((label, i) => {
      const p = s.perStep;
      md.push(`| ${i + 1} | ${label} | ${n(p.pw[i])} | ${n(p.proxy[i])} | ${n(p.pagediff?.[i])} | ${n(p.ours[i])} | ${n(p.floor[i])} | ${n(p.textFloor?.[i])} |`);
    });
    md.push('');
  }
  return `${md.join('\n').trim()}\n`;
}

/**
 * Why a token bar is missed, where the per-step tables show one cause (said
 * under the list when that bar is missed).
 */
export const REASONS = {
  pagediffVsOurs: 'PageDiff (and the proxy) read Playwright\'s snapshot, which marks every clickable element `[cursor=pointer]`: the first full '
    + 'snapshot of a page is that much larger than ours, which does not print the mark (the ratio less the marks is given with each session). '
    + 'The rest is where an element re-rendered by the app (TodoMVC\'s list item after a check or a hover) comes back with other children: '
    + 'the answer carries the item again, where our server sends the changed line.',
  oursVsFloor: 'The floor counts only the lines the agent had not been shown (D44); an answer must also say where a change goes and what went '
    + '(a patch\'s anchors, a removal), which the floor leaves out: on sessions of small steps (TodoMVC\'s, 20 to 110 tokens a step) that is a fifth of the answer, '
    + 'and a step that only removes (delete a todo, collapse a model) has a floor of 0 or near it. The section "Our server against the floor, line by line" '
    + 'counts those lines and the answers\' framing for each session.',
};

// The sessions: [flag, session name(s), @playwright/mcp run, PageDiff's name].
// The grid's and the API docs' `playwright-mcp` already read the page
// after each action; the shop's, TodoMVC's and jsoneditor's is opt-in.
const SOURCES = [
  ['--shop', 'shop', 'playwright-mcp-read', () => 'shop'],
  ['--todomvc', 'TodoMVC', 'playwright-mcp-read', (fw) => `todomvc/${fw}`],
  ['--grid', 'data grid', 'playwright-mcp', () => 'grid'],
  ['--expand', 'jsoneditor', 'playwright-mcp-read', () => 'expand'],
  ['--apidocs', 'API docs', 'playwright-mcp', () => 'apidocs'],
];

if (isMain(import.meta.url)) {
  const arg = (name, fallback) => cliArg(name, fallback, 'bench/proxy-report.mjs');
  const read = (p) => JSON.parse(readFileSync(p, 'utf8'));
  const OUT = arg('--out', null);
  const JSON_OUT = arg('--json', null);
  const STRICT = process.argv.includes('--strict');
  const pdPath = arg('--pagediff', null);
  const pdRun = pdPath && existsSync(pdPath) ? read(pdPath) : null;
  const pd = new Map(pdRun ? pdRun.sessions.map((s) => [s.session, s]) : []);
  const sessions = [];
  const notRun = [];
  let versions = pdRun ? { playwrightPython: pdRun.playwright } : {};
  for (const [flag, name, pwId, pdName] of SOURCES) {
    const path = arg(flag, null);
    if (!path || !existsSync(path)) {
      notRun.push(`${name} (no ${flag} file${path ? ` at ${path}` : ''})`);
      continue;
    }
    const j = read(path);
    versions = { ...j.versions, ...versions };
    if (flag === '--todomvc') {
      for (const fw of j.frameworks) sessions.push(summarize(`${name} ${fw}`, j.results.filter((r) => r.framework === fw), pwId, pd.get(pdName(fw)) ?? null));
    } else {
      // The shop's script keeps its runs under `configs`; the app scripts under `results`.
      sessions.push(summarize(name, flag === '--shop' ? j.configs : j.results, pwId, pd.get(pdName()) ?? null));
    }
  }
  if (!pd.size) notRun.push(`PageDiff (no --pagediff file${pdPath ? ` at ${pdPath}` : ''})`);
  const verdict = judge(sessions);
  const wall = arg('--wall', null);
  const text = render({ sessions, verdict, notRun, versions, wall, notes: verdict.missed.map((k) => REASONS[k]).filter(Boolean) });
  if (OUT) writeFileSync(OUT, text);
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ bars: BARS, sessions, notRun, ...verdict }, null, 1));
  process.stdout.write(text);
  for (const f of [...verdict.broken, ...verdict.fails]) console.error(`proxy-bench: ${f}`);
  if (verdict.broken.length || (STRICT && verdict.fails.length)) process.exit(1);
}
